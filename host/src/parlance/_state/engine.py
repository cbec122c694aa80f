"""What a state engine does for the host, and which one a config asks for.

The host asks its engine for four things: a write (`ctx.write()`, `parlance.writes`), the write log
(`ctx.history()`), whether it is ready (`/readyz`), and to hear of other replicas' writes. The
transport asks it for the `requestState` codec and the event store of resumable streams, which the
shared engine keeps in the database so that any replica can open and replay them; the embedded one
leaves both to the process (None).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from parlance.config import Config, StateSettings
from parlance.errors import ConfigError
from parlance.types import Principal
from parlance.writes import HistoryPage, SharedWrite, Write

__all__ = ["StateEngine", "WriteListener", "engine_for", "fingerprint", "open_engine"]

WriteListener = Callable[[SharedWrite], Awaitable[None]]


class StateEngine(Protocol):
    shared: bool
    """Whether the engine is shared by several processes (the write log and `i18n_history` exist only then)."""

    def running(self) -> AbstractAsyncContextManager[None]:
        """Connect (and create the tables on first use) for as long as the block runs."""
        ...

    def write(self, *, pack: str, tool: str, principal: Principal | None, idempotency_key: str | None,
              fingerprint: str) -> AbstractAsyncContextManager[Write]:
        """One write call (`parlance.writes`); raises ToolError SHARED_STATE_UNAVAILABLE when the database
        does not answer, and IDEMPOTENCY_KEY_REUSED when the key was used with other arguments."""
        ...

    async def history(self, *, pack: str, catalog: str | None = None, key: str | None = None,
                      locale: str | None = None, limit: int = 50, cursor: str | None = None) -> HistoryPage:
        """The pack's rows of the write log, newest first."""
        ...

    async def ready(self) -> bool:
        """Whether the engine can take a write now (the database answers)."""
        ...

    def listen(self, listener: WriteListener | None) -> None:
        """Call `listener` with each write another replica applied (None: stop)."""
        ...

    def request_state_codec(self) -> Any | None:
        """The SDK's `RequestStateCodec` every replica shares, or None (a key of this process's own)."""
        ...

    def event_store(self) -> Any | None:
        """A `MemoryEventStore`-like store every replica shares (`for_session()`), or None (in memory)."""
        ...


def fingerprint(arguments: Mapping[str, Any] | Any) -> str:
    """What tells a retry from another call with the same idempotency key: the SHA-256 of the
    arguments as canonical JSON, the key itself left out. Pydantic models are dumped first."""
    if hasattr(arguments, "model_dump"):
        arguments = arguments.model_dump(mode="json")
    data = {k: v for k, v in dict(arguments or {}).items() if k != "idempotency_key"}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def open_engine(url: str | None, *, replica: str | None = None, file: str | None = None) -> StateEngine:
    """The engine `[state] url` names: None, the embedded one; `postgresql://…`, the shared one (which
    needs the `postgres` extra: asyncpg; a ConfigError naming `file` says how to install it)."""
    if url is None:
        from parlance._state.embedded import EmbeddedState

        return EmbeddedState()
    try:
        from parlance._state.postgres import PostgresState
    except ModuleNotFoundError as exc:
        if exc.name != "asyncpg":
            raise
        raise ConfigError("a PostgreSQL URL asks for the shared engine, whose driver (asyncpg) is not installed",
                          file=file, key="state.url",
                          fix='install it with: pip install "parlance-mcp[postgres]"; or remove [state] url '
                              "for the embedded engine of one process") from None

    return PostgresState(url, replica=replica)


def engine_for(config: Config) -> StateEngine:
    """The engine of `config`'s `[state]`, its `${env:...}` references resolved (a ConfigError names a
    variable that is not set, or a value that is not a PostgreSQL URL)."""
    if config.state.url is None:
        return open_engine(None)
    from pydantic import ValidationError

    from parlance.pack_settings import resolve_env

    url = resolve_env(config.state.url, file=config.source, key="state.url", environ=config.env.variables)
    try:
        checked = StateSettings.model_validate({"url": url}).url
    except ValidationError:
        raise ConfigError("the value it refers to is not a PostgreSQL URL", file=config.source, key="state.url",
                          fix="set it to postgresql://user@host:5432/name") from None
    return open_engine(checked, file=config.source)
