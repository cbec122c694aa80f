"""An example third-party pack: what the README's pack tutorial builds.

Install it next to Parlance (`uv pip install ./examples/parlance-hello`) and `parlance tools`
lists `hello`. Configure it in parlance.toml:

    [packs.hello]
    punctuation = "!"
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from parlance import RegisterPrompt, RegisterResource, RegisterTool, ToolContext, ToolError, hookimpl

PARLANCE_HOST_API = "1.0"


class HelloSettings(BaseModel):
    punctuation: str = Field(default="", max_length=3, description="appended to every greeting")


class HelloIn(BaseModel):
    name: str = Field(description="who to greet")


class HelloOut(BaseModel):
    greeting: str


async def hello(args: HelloIn, ctx: ToolContext[HelloSettings, None]) -> HelloOut:
    # ctx.settings is a HelloSettings (the host validates even an absent table, to the defaults);
    # the pack has no lifespan, so its state is None.
    if not args.name.strip():
        raise ToolError("EMPTY_NAME", "name must not be blank", data={"field": "name"})
    greeted = ctx.session_state.setdefault("greeted", [])
    greeted.append(args.name)
    return HelloOut(greeting=f"hello {args.name}{ctx.settings.punctuation}")


class IntroduceArgs(BaseModel):
    name: str = Field(description="who is being introduced")


async def introduce(args: IntroduceArgs, ctx: ToolContext) -> str:
    return f"Write a one-line, friendly introduction of {args.name}."


async def greeted(ctx: ToolContext) -> dict[str, list[str]]:
    return {"greeted": list(ctx.session_state.get("greeted", []))}


@hookimpl
def parlance_declare_settings() -> type[HelloSettings]:
    return HelloSettings


@hookimpl
def parlance_register_tools(register: RegisterTool) -> None:
    register(hello, name="hello", title="Say hello", description="Greets someone.", read_only=True)


@hookimpl
def parlance_register_prompts(register: RegisterPrompt) -> None:
    register(introduce, name="introduce", title="Introduce someone")


@hookimpl
def parlance_register_resources(register: RegisterResource) -> None:
    register(greeted, uri="hello://greeted", name="greeted", description="Names greeted in this session.")
