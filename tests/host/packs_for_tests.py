"""Packs used by the host tests: one per behaviour the host must handle.

Each is a plain object with `@hookimpl` methods, registered in-process with `connect({...})`; the
stdio tests install the same sources as fake distributions (see SOURCES).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from pydantic import BaseModel, Field

from parlance import PromptMessage, ToolContext, ToolError, ToolResult, hookimpl


class EchoIn(BaseModel):
    text: str = Field(description="what to echo")
    times: int = Field(default=1, ge=1, le=5)


class EchoOut(BaseModel):
    echoed: str


class NoArgs(BaseModel):
    pass


class CountOut(BaseModel):
    count: int


class SampleOut(BaseModel):
    text: str
    model: str
    protocol: str | None


class Lifespan(BaseModel):
    entered: bool


class CorePack:
    """Tools that exercise the happy path, errors, crashes, session state, progress and sampling."""

    def __init__(self) -> None:
        self.exited = False

    async def echo(self, args: EchoIn, ctx: ToolContext) -> EchoOut:
        return EchoOut(echoed=" ".join([args.text] * args.times))

    async def refuse(self, args: EchoIn) -> EchoOut:
        raise ToolError("NOT_TODAY", f"refusing {len(args.text)} characters", data={"length": len(args.text)})

    async def crash(self, args: EchoIn) -> EchoOut:
        raise RuntimeError("secret-token-1234 leaked in an exception")

    async def count(self, args: NoArgs, ctx: ToolContext) -> CountOut:
        ctx.session_state["n"] = ctx.session_state.get("n", 0) + 1
        ctx.logger.info("counted", extra={"count": ctx.session_state["n"]})
        return CountOut(count=ctx.session_state["n"])

    async def slow(self, args: NoArgs, ctx: ToolContext) -> CountOut:
        for step in range(1, 4):
            await ctx.report_progress(step, 3, f"step {step}")
        return CountOut(count=3)

    async def ask_model(self, args: EchoIn, ctx: ToolContext) -> SampleOut:
        answer = await ctx.sample(f"Repeat: {args.text}", system_prompt="Be brief.", max_tokens=50)
        return SampleOut(text=answer.text, model=answer.model, protocol=ctx.protocol_version)

    async def ask_twice(self, args: EchoIn, ctx: ToolContext) -> EchoOut:
        first = await ctx.sample(f"Repeat: {args.text}", max_tokens=50)
        second = await ctx.sample(f"Repeat: {first.text}!", max_tokens=50)
        return EchoOut(echoed=second.text)

    async def with_meta(self, args: EchoIn) -> ToolResult[EchoOut]:
        return ToolResult(EchoOut(echoed=args.text), text="custom text", meta={"parlance/template": "base"})

    async def lifespan_state(self, args: NoArgs, ctx: ToolContext) -> Lifespan:
        return Lifespan(entered=ctx.state == "ready")

    async def review(self, args: EchoIn, ctx: ToolContext) -> list[PromptMessage]:
        return [PromptMessage(role="user", text=f"Review: {args.text}")]

    async def session_resource(self, ctx: ToolContext) -> dict[str, int]:
        return {"count": ctx.session_state.get("n", 0)}

    async def item_resource(self, ctx: ToolContext, item: str) -> str | None:
        return f"item {item}" if item != "missing" else None

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.echo, name="echo", title="Echo", description="Echo text.", read_only=True, idempotent=True)
        register(self.refuse, name="refuse", description="Always a domain error.")
        register(self.crash, name="crash", description="Always raises.")
        register(self.count, name="count", description="Counts calls in this session.")
        register(self.slow, name="slow", description="Reports progress.")
        register(self.ask_model, name="ask_model", description="Samples the client's model.")
        register(self.with_meta, name="with_meta", description="Custom text and _meta.")
        register(self.ask_twice, name="ask_twice", description="Samples twice, the second from the first.")
        register(self.lifespan_state, name="lifespan_state", description="Sees the lifespan's state.")

    @hookimpl
    def parlance_register_prompts(self, register) -> None:
        register(self.review, name="review", title="Review text", description="Asks for a review.")

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        register(self.session_resource, uri="core://session", name="session")
        register(self.item_resource, uri="core://items/{item}", name="item", mime_type="text/plain")

    @hookimpl
    def parlance_lifespan(self):
        @contextlib.asynccontextmanager
        async def lifespan() -> AsyncIterator[str]:
            try:
                yield "ready"
            finally:
                self.exited = True

        return lifespan()


class Settings(BaseModel):
    greeting: str = "hi"
    retries: int = Field(default=1, ge=0)


class SettingsPack:
    async def greet(self, args: NoArgs, ctx: ToolContext) -> EchoOut:
        return EchoOut(echoed=ctx.settings.greeting)

    @hookimpl
    def parlance_declare_settings(self):
        return Settings

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.greet, name="greet")


class ClashPack:
    """Registers `echo`, like CorePack: the host must refuse to start unless configured around it."""

    async def echo(self, args: EchoIn) -> EchoOut:
        return EchoOut(echoed="clash")

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.echo, name="echo")


class HookFailsPack:
    @hookimpl
    def parlance_register_tools(self, register) -> None:
        raise ValueError("this pack's hook is broken")


class FutureApiPack:
    PARLANCE_HOST_API = "2.0"

    @hookimpl
    def parlance_register_tools(self, register) -> None:  # pragma: no cover - never called
        raise AssertionError("an incompatible pack must not be asked to register")


# Sources for fake distributions (stdio tests and entry-point tests).
SOURCES = {
    "printer": '''
        print("printed at import time")
        from pydantic import BaseModel
        from parlance import hookimpl

        class In(BaseModel):
            text: str

        class Out(BaseModel):
            text: str

        async def shout(args: In) -> Out:
            import os

            print("printed by a tool")
            os.write(1, b"written to fd 1\\n")
            return Out(text=args.text.upper())

        @hookimpl
        def parlance_register_tools(register):
            register(shout, name="shout", description="Upper-cases text.")
    ''',
    "broken_import": '''
        raise ImportError("this pack cannot be imported")
    ''',
    "bad_signature": '''
        from parlance import hookimpl

        @hookimpl
        def parlance_register_tools(register, registry):
            raise AssertionError("a pack whose hook does not fit its hookspec must not be called")
    ''',
    "typo_hook": '''
        from pydantic import BaseModel
        from parlance import hookimpl

        class In(BaseModel):
            text: str

        async def whisper(args: In) -> In:
            return args

        @hookimpl
        def parlance_register_tool(register):
            register(whisper, name="whisper")
    ''',
    "clash": '''
        from pydantic import BaseModel
        from parlance import hookimpl

        class In(BaseModel):
            text: str

        async def shout(args: In) -> In:
            return args

        @hookimpl
        def parlance_register_tools(register):
            register(shout, name="shout")
    ''',
    # A call stuck in a worker thread, as a long catalog read is: pure Python, so it hands the GIL
    # over every switch interval, and nothing can cancel it.
    "spinner": '''
        import os, time
        import anyio
        from pydantic import BaseModel
        from parlance import hookimpl

        class In(BaseModel):
            seconds: float

        class Out(BaseModel):
            spun: float

        def busy(seconds):
            os.write(2, b"spin started\\n")  # for tests that must act while the call runs
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                pass
            return seconds

        async def spin(args: In) -> Out:
            return Out(spun=await anyio.to_thread.run_sync(busy, args.seconds))

        @hookimpl
        def parlance_register_tools(register):
            register(spin, name="spin", description="Keeps a worker thread busy for a while, then answers.")
    ''',
}


class LifespanFailsPack:
    """Its lifespan raises: its tools must answer PACK_UNAVAILABLE while other packs keep serving."""

    async def ping(self, args: NoArgs) -> CountOut:
        return CountOut(count=1)

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.ping, name="fragile_ping")

    @hookimpl
    def parlance_lifespan(self):
        @contextlib.asynccontextmanager
        async def lifespan() -> AsyncIterator[None]:
            raise ConnectionError("database at 127.0.0.1:1 refused the connection")
            yield

        return lifespan()


class SamplingEverywherePack:
    """Samples from a prompt, a resource, and a tool's own task group; one prompt fails with secret text."""

    async def ask_in_task_group(self, args: EchoIn, ctx: ToolContext) -> EchoOut:
        import anyio

        answers: list[str] = []

        async def ask() -> None:
            answers.append((await ctx.sample(f"Repeat: {args.text}")).text)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(ask)
        return EchoOut(echoed=answers[0])

    async def drafted(self, args: EchoIn, ctx: ToolContext) -> str:
        return (await ctx.sample(f"Draft: {args.text}")).text

    async def broken(self, args: EchoIn, ctx: ToolContext) -> str:
        raise ValueError(f"invalid literal: 'db-password=hunter2' in {args.text}")

    async def summary(self, ctx: ToolContext) -> str:
        return (await ctx.sample("Summarise the session")).text

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.ask_in_task_group, name="ask_in_task_group")

    @hookimpl
    def parlance_register_prompts(self, register) -> None:
        register(self.drafted, name="drafted")
        register(self.broken, name="broken")

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        register(self.summary, uri="sampling://summary", name="summary", mime_type="text/plain")
