"""`ToolContext`: what a tool (or prompt, or resource) gets from the host on every call.

The context is the pack's only view of MCP. Behind it the server module supplies a backend for
the current request (progress, sampling, client facts), so packs never import `mcp`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Generic, Protocol

from pydantic import BaseModel
from typing_extensions import TypeVar  # `default=` (PEP 696) before Python 3.13

from parlance.content import LogLevel
from parlance.language_packs import LanguagePacks
from parlance.schemas import form_schema_for
from parlance.types import ClientInfo, Elicited, Principal, Root, Sampled, SamplingMessage
from parlance.writes import HistoryPage, Write

if TYPE_CHECKING:
    from parlance._state.engine import StateEngine

__all__ = ["Announcements", "AnnouncementSink", "ContextBackend", "SettingsT", "StateT", "ToolContext"]

LOG_LEVELS: tuple[LogLevel, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

SettingsT = TypeVar("SettingsT", bound=BaseModel | None, default=BaseModel | None, covariant=True)
"""The pack's settings model (what its `parlance_declare_settings` returns), or None without one."""
StateT = TypeVar("StateT", default=Any, covariant=True)
"""What the pack's `parlance_lifespan` yields."""


class AnnouncementSink(Protocol):
    """Where announcements go: the MCP server's subscribers. Implemented in `parlance.notifications`."""

    async def resource_updated(self, uri: str) -> None: ...

    async def resources_changed(self) -> None: ...


class Announcements:
    """Tell clients that something they may have read has changed (MCP change notifications).

    Reached as `ctx.announce` in a handler, and as the `announce` argument of `parlance_lifespan` for
    changes noticed outside any call (a file watcher, a webhook). Clients that subscribed to a
    resource hear of its update; every client hears that a list changed. Without a server to
    announce to (`parlance call`, a test without one) these do nothing.
    """

    def __init__(self) -> None:
        self._sink: AnnouncementSink | None = None

    def attach(self, sink: AnnouncementSink | None) -> None:
        """Host side: the server that delivers announcements from now on (None: nobody listens)."""
        self._sink = sink

    async def resource_updated(self, uri: str) -> None:
        """The contents of resource `uri` changed: subscribers may read it again."""
        if self._sink is not None:
            await self._sink.resource_updated(uri)

    async def resources_changed(self) -> None:
        """The resources a pack offers changed (say, a template now reaches a new file): clients may
        list them again. Tools and prompts are fixed while the server runs, so they never change."""
        if self._sink is not None:
            await self._sink.resources_changed()


class ContextBackend(Protocol):
    """What the server provides for one request. Implemented in `parlance.request_backend`."""

    @property
    def protocol_version(self) -> str | None: ...

    @property
    def client(self) -> ClientInfo | None: ...

    @property
    def can_sample(self) -> bool: ...

    @property
    def principal(self) -> Principal | None: ...

    @property
    def session_persists(self) -> bool: ...

    @property
    def can_elicit(self) -> bool: ...

    async def log(self, level: LogLevel, logger: str, data: Any) -> None: ...

    async def elicit(self, message: str, schema: dict[str, Any], key: str | None) -> Elicited: ...

    async def list_roots(self, key: str | None) -> list[Root]: ...

    async def close_stream(self) -> bool: ...

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None: ...

    async def sample(
        self,
        messages: Sequence[SamplingMessage],
        *,
        system_prompt: str | None,
        max_tokens: int,
        temperature: float | None,
        stop_sequences: Sequence[str] | None,
        key: str | None,
    ) -> Sampled: ...


class ToolContext(Generic[SettingsT, StateT]):
    """Per-call context handed to a pack's tool, prompt and resource handlers.

    Generic in the pack's settings and state, for the type checker only: a handler that takes
    `ctx: ToolContext[MySettings, MyState]` reads `ctx.settings` as `MySettings` and `ctx.state` as
    `MyState` with no cast. Unparameterised, `ToolContext` is `ToolContext[BaseModel | None, Any]`.
    The host does not check the parameters: they state what the pack's own hooks provide.

    Attributes:
        pack: the pack's name (its entry-point name).
        name: the registered name of the tool, prompt or resource being served.
        settings: the pack's validated settings (its `parlance_declare_settings` model), or None.
        state: what the pack's lifespan yielded, shared by every session of this server.
        session_state: a dict private to this pack and this MCP session (one stdio connection),
            kept across calls: the place for per-session data such as bundles a client added (see
            `session_persists` for the transports where no session exists).
        logger: a stderr logger for this pack. Never log tool arguments or results.
        language_packs: the language packs this pack may use (`for_language(tag)`, `resolve(path, tag)`).
        announce: change notifications for clients (`resource_updated(uri)`, `resources_changed()`).

    Writes on a user's behalf go through `write()` (coordinated, logged, safe to retry: `parlance.writes`);
    `history()` reads the write log of a shared engine.
    """

    def __init__(
        self,
        *,
        pack: str,
        name: str,
        settings: SettingsT,
        state: StateT,
        session_state: dict[str, Any],
        backend: ContextBackend,
        language_packs: LanguagePacks | None = None,
        announce: Announcements | None = None,
        state_engine: StateEngine | None = None,
    ) -> None:
        self.pack = pack
        self.name = name
        self.settings = settings
        self.state = state
        self.session_state = session_state
        self.language_packs = language_packs if language_packs is not None else LanguagePacks(pack, [])
        self.announce = announce if announce is not None else Announcements()
        self._backend = backend
        self._engine = state_engine

    @functools.cached_property
    def logger(self) -> logging.Logger:  # looked up on first use: most calls never log
        return logging.getLogger(f"parlance.packs.{self.pack}")

    @property
    def protocol_version(self) -> str | None:
        """The MCP protocol version of this request (e.g. "2025-11-25" or "2026-07-28")."""
        return self._backend.protocol_version

    @property
    def client(self) -> ClientInfo | None:
        """The client's name and version, when it gave them."""
        return self._backend.client

    @property
    def principal(self) -> Principal | None:
        """Who this request acts for: the subject, client id and scopes of its OAuth access token, over
        HTTP with `[auth]` configured; None otherwise (stdio, `parlance call`, HTTP without auth).

        Record it with what the tool writes, to say who wrote it. The host has already checked the
        token's scopes against the tool's before the call reached the pack.
        """
        return getattr(self._backend, "principal", None)  # a backend from before this property: nobody

    @property
    def shared_state(self) -> bool:
        """Whether writes are shared by several replicas (`[state] url`): the write log exists only then."""
        return self._engine is not None and self._engine.shared

    def write(self, *, idempotency_key: str | None = None,
              arguments: Mapping[str, Any] | BaseModel | None = None) -> AbstractAsyncContextManager[Write]:
        """Begin a write on the user's behalf: `async with ctx.write(...) as write:` (`parlance.writes`).

        `idempotency_key` is the client's (the tool's `idempotency_key` argument): a retry with it, once
        the first call was applied, finds that call's outcome in `write.earlier`, on any replica. The
        key is the caller's own (a key of another subject is another key); `arguments` (the tool's
        input) tell a retry from a different call, which is refused with IDEMPOTENCY_KEY_REUSED.
        Raises ToolError SHARED_STATE_UNAVAILABLE when the shared database does not answer: the
        write must not happen unlogged.
        """
        from parlance._state.engine import fingerprint

        engine = self._engine
        if engine is None:
            from parlance._state.embedded import EmbeddedState

            engine = self._engine = EmbeddedState()
        return engine.write(pack=self.pack, tool=self.name, principal=self.principal,
                            idempotency_key=idempotency_key, fingerprint=fingerprint(arguments or {}))

    async def history(self, *, catalog: str | None = None, key: str | None = None, locale: str | None = None,
                      limit: int = 50, cursor: str | None = None) -> HistoryPage:
        """This pack's rows of the write log, newest first (empty without a shared engine). `cursor` is a
        page's `next_cursor`; a cursor that is not one raises ToolError INVALID_CURSOR."""
        if self._engine is None:
            return HistoryPage(())
        return await self._engine.history(pack=self.pack, catalog=catalog, key=key, locale=locale, limit=limit,
                                          cursor=cursor)

    @property
    def can_sample(self) -> bool:
        """True when the client declared the MCP sampling capability, so `sample()` may work."""
        return self._backend.can_sample

    @property
    def session_persists(self) -> bool:
        """Whether `session_state` will still hold what this call puts there on the client's next call.

        False where the protocol keeps no session: MCP 2026-07-28 over HTTP (each request stands alone)
        and `parlance call`. A tool whose only effect is on session state should refuse there rather
        than report a success that the next call will not see.
        """
        return self._backend.session_persists

    @property
    def can_elicit(self) -> bool:
        """True when the client declared the MCP elicitation capability, so `elicit()` may work."""
        return self._backend.can_elicit

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Send a progress notification if the client asked for progress on this call; else nothing.

        `progress` must grow from one notification to the next; `total`, when known, is where it ends.
        """
        await self._backend.report_progress(progress, total, message)

    async def log(self, level: LogLevel, message: str, data: dict[str, Any] | None = None) -> None:
        """Send a log message to the client (MCP `notifications/message`), from this pack's logger.

        The client sees `message`, or `{"message": message, "data": data}` when `data` is given. It is
        sent only at or above the level the client asked for (`logging/setLevel`; on 2026-07-28 the
        level the request opted in to, and nothing without one); below it, or with no client, nothing
        happens. What the client is told is the pack's choice: never put a user's text in it unless
        the user is the one who will read it.
        """
        if level not in LOG_LEVELS:
            raise ValueError(f"log level {level!r} is not one of {', '.join(LOG_LEVELS)}")
        await self._backend.log(level, self.pack, message if data is None else {"message": message, "data": data})

    async def elicit(self, message: str, schema: dict[str, Any] | type[BaseModel], *, key: str | None = None) -> Elicited:
        """Ask the user for input through the client (MCP elicitation, form mode), in either protocol era.

        `schema` is a flat object of strings, numbers, booleans and enums: a JSON Schema dict, or a
        pydantic model whose fields are such. The answer's `action` is "accept" (its `content`
        checked against the schema), "decline" or "cancel". Raises `ElicitationUnavailable` when the
        client offers no elicitation and `ElicitationFailed` when its answer is unusable. As with
        `sample()`, on 2026-07-28 the tool may run again to receive the answer, so ask before any
        side effect; `key` is as for `sample()`.
        """
        requested = form_schema_for(schema) if isinstance(schema, type) else schema
        return await self._backend.elicit(message, requested, key)

    async def close_stream(self) -> bool:
        """Let go of this call's HTTP stream while the call goes on (SSE polling, SEP-1699).

        For long calls behind proxies that cut idle connections: the client reconnects after
        `[host] sse_retry_ms` and receives what was sent meanwhile, the result included. True when
        the stream was closed; False where there is none to close (stdio, JSON responses, streams
        that are not resumable, 2026-07-28), and then nothing changes.
        """
        return await self._backend.close_stream()

    async def list_roots(self, *, key: str | None = None) -> list[Root]:
        """The roots the client shares (MCP roots: usually the folders of the user's open project),
        in either protocol era; empty when the client offers none. `key` is as for `sample()`."""
        return await self._backend.list_roots(key)

    async def sample(
        self,
        prompt: str | Sequence[SamplingMessage],
        *,
        system_prompt: str | None = None,
        max_tokens: int = 1024,
        temperature: float | None = None,
        stop_sequences: Sequence[str] | None = None,
        key: str | None = None,
    ) -> Sampled:
        """Ask the client's model for a completion (MCP sampling), in either protocol era.

        Raises `SamplingUnavailable` when the client offers no sampling and `SamplingFailed` when it
        refuses. On 2026-07-28 the host may run the tool again to deliver the answer, so build the
        prompt only from the tool's arguments and settings, and call `sample()` before any side effect.
        Questions asked at once (from a task group, each before its task awaits anything else) reach
        the client in one round. `key` names the question on that wire (default: `sample-N`, its
        position among the call's samples; choose keys of another shape); name it when which
        questions a call asks depends on earlier answers.
        """
        messages = [SamplingMessage(role="user", text=prompt)] if isinstance(prompt, str) else list(prompt)
        return await self._backend.sample(
            messages,
            system_prompt=system_prompt,
            max_tokens=max_tokens,
            temperature=temperature,
            stop_sequences=stop_sequences,
            key=key,
        )
