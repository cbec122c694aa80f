"""Writes a pack makes on a user's behalf, coordinated, logged and safe to retry (`ctx.write()`).

A tool that changes something outside the server — a catalog file, a record in a service — wraps the
change in `async with ctx.write(idempotency_key=..., arguments=...) as write:`. What that gives
depends on the host's `[state]`:

- **Embedded** (the default, no `[state]`): retries with the same idempotency key are answered from
  this process's memory; `write.lock()` is this process's lock per name; `write.log()` is one log line
  with the counts.
- **Shared** (`[state] url = "postgresql://…"`, several replicas): the block runs in one database
  transaction. `write.lock(names)` takes an advisory lock per name, held until the block ends, so
  replicas on one checkout (or on a network volume) take turns; `write.log()` adds a row to the write
  log in the same transaction; a retry of an applied write, on any replica, finds the first outcome
  in `write.earlier`; after the block, every other replica hears of the change
  (`parlance_shared_write`) and announces `write.log(resources=...)` to its subscribers.

The write log holds who wrote (the token's subject and client id), the tool, what was written (names
of files with the SHA-256 of their bytes before and after, keys) and counts — never a message's text.

    async with ctx.write(idempotency_key=args.idempotency_key, arguments=args) as write:
        if write.earlier is not None:          # this key's first call was applied: answer it again
            return MyOutput.model_validate(write.earlier)
        await write.lock(["catalogs/fr.json"])
        ... change the files ...
        write.log(files=[FileChange("catalogs/fr.json", before_sha, after_sha)], written=3, refused=0)
        output = MyOutput(...)
        write.answer(output.model_dump(mode="json"))
    return output

An exception raised in the block undoes the log row and releases the key (a retry runs again); the
files the block changed stay changed, as they were written atomically before.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["FileChange", "HistoryPage", "SharedWrite", "Write", "WriteRecord"]


@dataclass(frozen=True)
class FileChange:
    """One file a write changed: its name as the pack gives it (relative to the project) and the SHA-256
    (hex) of its bytes before and after; `before` None for a file it created, `after` None for one it deleted."""

    path: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class WriteRecord:
    """One row of the write log: one write call that was applied."""

    id: int
    at: _dt.datetime
    subject: str | None
    client_id: str | None
    pack: str
    tool: str
    catalog: str | None
    locale: str | None
    keys: tuple[str, ...]
    files: tuple[FileChange, ...]
    written: int
    refused: int
    replayed_key: bool = False
    """Whether the call carried an idempotency key (retries of it were answered from this row's outcome)."""


@dataclass(frozen=True)
class HistoryPage:
    """A page of the write log, newest first, and the cursor of the next page (None: the last one)."""

    records: tuple[WriteRecord, ...]
    next_cursor: str | None = None


@dataclass(frozen=True)
class SharedWrite:
    """What a pack hears when another replica applied a write of the same pack (`parlance_shared_write`):
    the files it changed, as the pack named them, and the resources it said changed."""

    pack: str
    tool: str
    files: tuple[str, ...]
    resources: tuple[str, ...] = field(default=())


class Write(Protocol):
    """The write in progress inside `async with ctx.write(...)` (see the module docstring)."""

    @property
    def earlier(self) -> Mapping[str, Any] | None:
        """The outcome `answer()` stored when this idempotency key's first call was applied; None otherwise."""
        ...

    async def lock(self, names: Iterable[str]) -> None:
        """Take the lock of every name (a file relative to the project), in one go, held until the block
        ends. Call it once per write, with every name the write may change: names are locked in a fixed
        order, so two writes never wait for each other."""
        ...

    def log(self, *, files: Sequence[FileChange], written: int, refused: int = 0, catalog: str | None = None,
            locale: str | None = None, keys: Sequence[str] = (), resources: Sequence[str] = ()) -> None:
        """Record what was applied (one row per call; a later call replaces an earlier one). Never pass
        a message's text: keys and file names only. `resources` are the URIs other replicas announce
        as updated."""
        ...

    def answer(self, outcome: Mapping[str, Any]) -> None:
        """The outcome a retry with the same idempotency key receives as `earlier` (JSON data)."""
        ...
