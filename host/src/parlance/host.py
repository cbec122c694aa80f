"""The host: loaded packs, their lifespans, and the one dispatch path every call takes.

`Host.call_tool` is used by the MCP server and by `parlance call` alike, so the CLI exercises
exactly what clients get: argument validation, the pack's error mapping, the error envelope, and
the per-call log line. Nothing here imports `mcp`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import anyio
import anyio.abc
from pydantic import BaseModel, ValidationError
from pydantic_core import to_json

from parlance._state.engine import StateEngine, engine_for
from parlance.config import Config
from parlance.content import Content, problem_with
from parlance.context import Announcements, ContextBackend, ToolContext
from parlance.errors import PackError, Refused, ToolError, UnknownName
from parlance.logs import log_call
from parlance.packs import PackRecord, PackSet, load_packs
from parlance.registry import PromptDefinition, ToolDefinition
from parlance.types import ArgumentProblem, PromptMessage, ToolResult
from parlance.writes import SharedWrite

__all__ = ["Host", "Outcome"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """A finished tool call, independent of MCP types.

    `content`, when set, is the result's content blocks as the tool gave them; otherwise the
    content is one text block, `text`. `structured` is None for a tool without output schema.
    """

    structured: dict[str, Any] | None
    text: str
    is_error: bool = False
    meta: dict[str, Any] | None = None
    content: tuple[Content, ...] | None = None

    @classmethod
    def error(cls, code: str, message: str, data: dict[str, Any] | None = None) -> Outcome:
        return cls({"error": message, "code": code, "data": dict(data or {})}, f"{code}: {message}", is_error=True)

    @classmethod
    def of(cls, error: ToolError) -> Outcome:
        return cls.error(error.code, error.message, error.data)


class Host:
    """Packs loaded from a configuration, ready to serve."""

    def __init__(self, config: Config, packs: PackSet, *, state: StateEngine | None = None) -> None:
        self.config = config
        self.packs = packs
        self.registry = packs.registry
        self._records = {r.name: r for r in packs.records}
        self._states: dict[str, Any] = {}
        self._ready: dict[str, anyio.Event] = {}
        self._unavailable: dict[str, str] = {}
        self._tasks: anyio.abc.TaskGroup | None = None
        self._stop = anyio.Event()
        self._sessions: WeakKeyDictionary[object, dict[str, dict[str, Any]]] = WeakKeyDictionary()
        self.announce = Announcements()
        """Change notifications for clients; the MCP server attaches itself as their destination."""
        self.state: StateEngine = state if state is not None else engine_for(config)
        """Where writes are coordinated and logged (`[state]`; the embedded engine by default)."""

    @classmethod
    def load(cls, config: Config, *, plugins: dict[str, Any] | None = None) -> Host:
        return cls(config, load_packs(config, plugins=plugins))

    # --- lifecycle ---------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Host]:
        """Serve packs' lifespans for as long as the block runs.

        A pack's lifespan (a connection pool, a catalog) is entered the first time the pack is used
        — a tool call, a prompt or a resource read — and exited when the block ends. Startup and
        `tools/list` never wait for one: the work would otherwise sit on the event loop before the
        first answer. When a lifespan fails, the pack's calls answer PACK_UNAVAILABLE and the rest
        is served.
        """
        # Each run starts clean: a lifespan entered by an earlier run has been exited with it.
        self._stop, self._ready, self._states, self._unavailable = anyio.Event(), {}, {}, {}
        raised: BaseException | None = None
        async with self.state.running(), anyio.create_task_group() as tasks:
            self._tasks = tasks
            self.state.listen(self._written_elsewhere)
            try:
                yield self
            except BaseException as exc:  # re-raised below as it was, not wrapped in an ExceptionGroup
                raised = exc
            finally:
                self.state.listen(None)
                self._stop.set()  # every lifespan exits inside its own task, as anyio requires
                self._tasks = None
        if raised is not None:
            raise raised

    async def _hold_lifespan(self, record: PackRecord, stop: anyio.Event) -> None:
        ready = self._ready[record.name]
        try:
            hook = self.packs.hook_for(record, "parlance_lifespan")
            managers = [m for m in hook(settings=record.settings, language_packs=record.language_packs,
                                        announce=self.announce) if m is not None]
            if not managers:
                ready.set()
                return
            async with managers[0] as state:
                self._states[record.name] = state
                ready.set()
                await stop.wait()
        except Exception as exc:
            logger.error("pack.lifespan_failed", extra={"pack": record.name}, exc_info=True)
            self._unavailable[record.name] = f"{exc.__class__.__name__}: {exc}"
            record.state, record.error = "failed", f"lifespan failed: {self._unavailable[record.name]}"
            ready.set()
            if self.config.env.strict_packs:
                raise PackError(f"pack {record.name!r}: {record.error}") from None

    async def _wait_for(self, pack: str) -> str | None:
        """Start `pack`'s lifespan if nothing has yet; wait until it has started.

        Returns why the pack is unavailable, or None when it is ready.
        """
        ready = self._ready.get(pack)
        if ready is None:
            record = self._records.get(pack)
            if record is None or self._tasks is None:  # not serving (no `running()` block): nothing to enter
                return None
            ready = self._ready[pack] = anyio.Event()
            self._tasks.start_soon(self._hold_lifespan, record, self._stop)
        if not ready.is_set():  # wait() is a checkpoint even when set: skip it on every later call
            await ready.wait()
        return self._unavailable.get(pack)

    async def _written_elsewhere(self, change: SharedWrite) -> None:
        """Another replica applied a write: the pack refreshes what it holds (if its lifespan runs here),
        then subscribers hear of the resources it named. A pack's failure is logged, never raised."""
        record = self._records.get(change.pack)
        if record is None:
            return
        if change.pack in self._states:
            try:
                for returned in self.packs.hook_for(record, "parlance_shared_write")(state=self._states[change.pack],
                                                                                      change=change):
                    if returned is not None:
                        await returned
            except Exception:
                logger.error("pack.shared_write_failed", extra={"pack": change.pack}, exc_info=True)
        for uri in change.resources:
            await self.announce.resource_updated(uri)

    def session_state(self, session: object, pack: str) -> dict[str, Any]:
        return self._sessions.setdefault(session, {}).setdefault(pack, {})

    # --- tools -------------------------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: dict[str, Any] | None, backend: ContextBackend,
                        session: object) -> Outcome:
        tool = self.registry.tools.get(name)
        if tool is None:
            raise UnknownName(f"Unknown tool: {name}")
        started = time.perf_counter()
        outcome = await self._run_tool(tool, arguments or {}, backend, session)
        log_call({
            "tool": tool.name,
            "pack": tool.pack,
            "status": "error" if outcome.is_error else "ok",
            "latency_ms": round((time.perf_counter() - started) * 1000, 3),
            "error": outcome.structured.get("code") if outcome.is_error and outcome.structured else None,
        })
        return outcome

    async def _run_tool(self, tool: ToolDefinition, arguments: dict[str, Any], backend: ContextBackend,
                        session: object) -> Outcome:
        # Everything the pack wrote runs inside the try: its validators, its error mapping, its handler.
        try:
            try:
                args = tool.input_model.model_validate(arguments)
            except ValidationError as exc:
                return _invalid_arguments(tool, _problems(exc))
            if tool.schema_check is not None and (problems := tool.schema_check(arguments)):
                return _invalid_arguments(tool, problems)  # what the schema says and the model cannot
            unavailable = await self._wait_for(tool.pack)
            if unavailable is not None:
                return Outcome.error("PACK_UNAVAILABLE", f"pack {tool.pack!r} failed to start, so {tool.name} cannot "
                                     "run; the server log has the details", {"pack": tool.pack})
            ctx = self._context(tool.pack, tool.name, backend, session)
            returned = await (tool.handler(args, ctx) if tool.takes_context else tool.handler(args))
            return _shape(tool, returned)
        except ToolError as exc:
            return Outcome.of(exc)
        except Exception:
            # A bug in the pack: the client learns only that it failed; the traceback goes to stderr.
            logger.error("tool.crashed", extra={"tool": tool.name, "pack": tool.pack}, exc_info=True)
            return Outcome.error("INTERNAL", f"{tool.name} failed unexpectedly; the server log has the details")

    # --- prompts and resources ---------------------------------------------------------------------

    async def get_prompt(self, name: str, arguments: dict[str, str] | None, backend: ContextBackend,
                         session: object) -> tuple[PromptDefinition, list[PromptMessage]]:
        prompt = self.registry.prompts.get(name)
        if prompt is None:
            raise UnknownName(f"Unknown prompt: {name}")
        try:
            args = prompt.args_model.model_validate(arguments or {})
        except ValidationError as exc:
            problem = _problems(exc)[0]
            raise Refused(f"prompt {name!r}: argument {problem.field!r}: {problem.message}") from None
        if await self._wait_for(prompt.pack) is not None:
            raise Refused(f"pack {prompt.pack!r} failed to start, so prompt {name!r} is unavailable")
        ctx = self._context(prompt.pack, name, backend, session)
        rendered = await (prompt.handler(args, ctx) if prompt.takes_context else prompt.handler(args))
        if isinstance(rendered, str):
            return prompt, [PromptMessage(role="user", text=rendered)]
        messages = list(rendered)
        for message in messages:
            if not isinstance(message, PromptMessage) or message.role not in ("user", "assistant") \
                    or not isinstance(message.text, str):
                raise TypeError(f"prompt {name} returned a message that is not a PromptMessage(role='user' or "
                                "'assistant', text=str)")
        _checked_content(f"prompt {name}", [m.content for m in messages if m.content is not None])
        return prompt, messages

    async def read_resource(self, uri: str, backend: ContextBackend, session: object) -> tuple[str | bytes, str]:
        found = self.registry.find_resource(uri)
        if found is None:
            raise UnknownName(f"Unknown resource: {uri}")
        resource, params = found
        if await self._wait_for(resource.pack) is not None:
            raise Refused(f"pack {resource.pack!r} failed to start, so {uri} is unavailable")
        content = await resource.handler(self._context(resource.pack, resource.name, backend, session), **params)
        if content is None:
            raise UnknownName(f"Unknown resource: {uri}")
        if isinstance(content, (str, bytes)):
            return content, resource.mime_type
        if isinstance(content, BaseModel):
            content = content.model_dump(mode="json", by_alias=True)
        return json.dumps(content, ensure_ascii=False), resource.mime_type

    # --- completions -------------------------------------------------------------------------------

    async def complete(self, ref: str, argument: str, value: str, context: dict[str, str],
                       backend: ContextBackend, session: object) -> list[str]:
        """Suggestions for `argument` of a prompt (`ref` is its name) or a resource template (`ref` is
        its uri template). No completer, an unknown ref or a failing pack all give no suggestions:
        completion is a convenience, never an error the user has to deal with."""
        prompt = self.registry.prompts.get(ref)
        owner = prompt or next((t for t in self.registry.resource_templates if t.uri == ref), None)
        if owner is None:
            raise UnknownName(f"Unknown prompt or resource template: {ref}")
        completer = owner.complete.get(argument)
        if completer is None or await self._wait_for(owner.pack) is not None:
            return []
        try:
            found = await completer(value, dict(context), self._context(owner.pack, ref, backend, session))
            return [str(v) for v in found]
        except Exception:
            logger.error("completion.crashed", extra={"pack": owner.pack, "ref": ref}, exc_info=True)
            return []

    def _context(self, pack: str, name: str, backend: ContextBackend, session: object) -> ToolContext:
        record = self._records[pack]
        return ToolContext(
            pack=pack,
            name=name,
            settings=record.settings,
            state=self._states.get(pack),
            session_state=self.session_state(session, pack),
            language_packs=record.language_packs,
            backend=backend,
            announce=self.announce,
            state_engine=self.state,
        )


def _shape(tool: ToolDefinition, returned: Any) -> Outcome:
    text, meta, value, content = None, None, returned, None
    if isinstance(returned, ToolResult):
        text, meta, value = returned.text, returned.meta, returned.value
        content = _checked_content(tool.name, returned.content) if returned.content is not None else None
        if meta is not None:
            to_json(meta)  # raises on what JSON cannot carry: a pack bug, answered INTERNAL
        if text is not None and not isinstance(text, str):
            raise TypeError(f"{tool.name} returned text of type {type(text).__name__}")
    if tool.content_only:
        if not isinstance(returned, ToolResult) or value is not None or content is None:
            raise TypeError(f"{tool.name} is declared -> ToolResult[None]: return ToolResult(content=[...])")
        return Outcome(None, text or "", meta=meta, content=content)
    if tool.output_model is not None and not isinstance(value, tool.output_model):
        raise TypeError(f"{tool.name} returned {type(value).__name__}, declared {tool.output_model.__name__}")
    structured = value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) else value
    if not isinstance(structured, dict):
        raise TypeError(f"{tool.name} returned {type(structured).__name__}; structured content must be an object")
    if text is None and content is None:
        text = to_json(structured).decode()  # compact JSON, as UTF-8 (no \u escapes): what a model reads
    elif not isinstance(value, BaseModel):
        to_json(structured)  # a dict the pack built (explicit output_schema): JSON must be able to carry it
    return Outcome(structured, text or "", meta=meta, content=content)


def _checked_content(subject: str, blocks: Any) -> tuple[Content, ...]:
    """The content blocks a tool or prompt returned, or a TypeError naming the first that is not one
    (a bug in the pack: the client gets INTERNAL, the reason goes to the log)."""
    checked = tuple(blocks)
    for block in checked:
        if (problem := problem_with(block)) is not None:
            raise TypeError(f"{subject} returned bad content: {problem}")
    return checked


def _problems(exc: ValidationError) -> list[ArgumentProblem]:
    return [
        ArgumentProblem(field=".".join(str(p) for p in error["loc"]), kind=error["type"], message=error["msg"])
        for error in exc.errors()
    ]


def _invalid_arguments(tool: ToolDefinition, problems: list[ArgumentProblem]) -> Outcome:
    if tool.on_invalid_arguments is not None:
        mapped = tool.on_invalid_arguments(problems)
        if mapped is not None:
            return Outcome.of(mapped)
    first = problems[0]
    where = f"argument {first.field!r}" if first.field else "the arguments"
    message = f"{where}: {first.message}"
    if len(problems) > 1:
        message += f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})"
    data = {
        "field": first.field,
        "problems": [{"field": p.field, "kind": p.kind, "message": p.message} for p in problems],
    }
    return Outcome.error("INVALID_ARGUMENTS", message, data)
