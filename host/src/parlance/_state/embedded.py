"""The embedded state engine: one process, nothing shared, nothing to install (the default).

Retries with the same idempotency key are answered from memory (the last `KEEP` keys, for `KEEP_S`);
a second call with a key whose first call is still running waits for it. `Write.lock()` takes this
process's lock per name (the i18n pack's store adds `flock` across processes on one machine);
`Write.log()` is one `write.applied` log line with the counts (no write log, no history).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any

import anyio

from parlance.errors import ToolError
from parlance.types import Principal
from parlance.writes import FileChange, HistoryPage, Write

__all__ = ["EmbeddedState", "KEEP", "KEEP_S", "key_reused"]

logger = logging.getLogger("parlance.writes")

KEEP = 10_000
KEEP_S = 24 * 3600.0


def key_reused() -> ToolError:
    return ToolError("IDEMPOTENCY_KEY_REUSED",
                     "this idempotency_key was already used with other arguments: a retry must repeat its call "
                     "exactly; give a new call a new key", {})


class LockTable:
    """A lock per name, held by one holder at a time, forgotten when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[anyio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def holding(self, names: Iterable[str]) -> AsyncIterator[None]:
        ordered = sorted(set(names))
        async with contextlib.AsyncExitStack() as stack:
            for name in ordered:
                lock, users = self._locks.get(name) or (anyio.Lock(), 0)
                self._locks[name] = (lock, users + 1)
                stack.callback(self._release, name)
                await stack.enter_async_context(lock)
            yield

    def _release(self, name: str) -> None:
        lock, users = self._locks[name]
        if users <= 1:
            del self._locks[name]
        else:
            self._locks[name] = (lock, users - 1)


class _EmbeddedWrite:
    def __init__(self, locks: LockTable, stack: contextlib.AsyncExitStack, earlier: Mapping[str, Any] | None) -> None:
        self._locks, self._stack, self._earlier = locks, stack, earlier
        self.logged: dict[str, Any] | None = None
        self.outcome: Mapping[str, Any] | None = None
        self._locked = False

    @property
    def earlier(self) -> Mapping[str, Any] | None:
        return self._earlier

    async def lock(self, names: Iterable[str]) -> None:
        if self._locked:
            raise RuntimeError("Write.lock() takes every name at once: call it once per write")
        self._locked = True
        await self._stack.enter_async_context(self._locks.holding(names))

    def log(self, *, files: Sequence[FileChange], written: int, refused: int = 0, catalog: str | None = None,
            locale: str | None = None, keys: Sequence[str] = (), resources: Sequence[str] = ()) -> None:
        self.logged = {"files": len(files), "written": written, "refused": refused}

    def answer(self, outcome: Mapping[str, Any]) -> None:
        self.outcome = outcome


class EmbeddedState:
    """See the module docstring."""

    shared = False

    def __init__(self) -> None:
        self._locks = LockTable()
        self._keys = LockTable()
        self._outcomes: OrderedDict[tuple[str, ...], tuple[str, Mapping[str, Any], float]] = OrderedDict()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        yield

    @contextlib.asynccontextmanager
    async def write(self, *, pack: str, tool: str, principal: Principal | None, idempotency_key: str | None,
                    fingerprint: str) -> AsyncIterator[Write]:
        scope = (principal.subject or "" if principal else "", pack, tool, idempotency_key or "")
        async with contextlib.AsyncExitStack() as stack:
            earlier = None
            if idempotency_key is not None:
                await stack.enter_async_context(self._keys.holding(["\x00".join(scope)]))
                earlier = self._stored(scope, fingerprint)
            write = _EmbeddedWrite(self._locks, stack, earlier)
            yield write
            if write.logged is not None:
                logger.info("write.applied", extra={"pack": pack, "tool": tool, **write.logged})
            if idempotency_key is not None and earlier is None and write.outcome is not None:
                self._outcomes[scope] = (fingerprint, write.outcome, time.monotonic())
                while len(self._outcomes) > KEEP:
                    self._outcomes.popitem(last=False)

    def _stored(self, scope: tuple[str, ...], fingerprint: str) -> Mapping[str, Any] | None:
        found = self._outcomes.get(scope)
        if found is None or time.monotonic() - found[2] > KEEP_S:
            return None
        if found[0] != fingerprint:
            raise key_reused()
        return found[1]

    async def history(self, *, pack: str, catalog: str | None = None, key: str | None = None,
                      locale: str | None = None, limit: int = 50, cursor: str | None = None) -> HistoryPage:
        return HistoryPage(())

    async def ready(self) -> bool:
        return True

    def listen(self, listener: Any) -> None:
        pass

    def request_state_codec(self) -> None:
        return None

    def event_store(self) -> None:
        return None
