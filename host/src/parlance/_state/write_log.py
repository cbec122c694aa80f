"""One coordinated write in the shared database, and the write log read back (`ctx.history()`).

A write call is one transaction on one connection, from `async with ctx.write(...)` to the block's
end, so that everything it does in the database is all or nothing:

1. With an idempotency key, the call claims it: a row (subject, pack, tool, the key's SHA-256) in
   `parlance_idempotency`, inserted with ON CONFLICT. A second call with the key while the first
   runs waits on the unique index until the first transaction ends: that wait is the point — it then
   finds the first call's outcome (`write.earlier`) and changes nothing. A claim older than a day is
   taken over, as the embedded engine forgets a key after a day.
2. `write.lock(names)` takes a transaction-scoped advisory lock per name (its `pack:name` hashed), in
   sorted order so that two writes never wait for each other: replicas on one checkout take turns on
   a file, on any machine, and the lock goes with the transaction whatever ends it (a replica killed
   mid-write included).
3. At the block's end, the row of `write.log()` goes into `parlance_write_log`, the outcome of
   `write.answer()` onto the claim (a block that answered nothing releases the key, so that a retry
   runs again), and `pg_notify('parlance_writes', {"replica", "id"})`, which PostgreSQL delivers only
   when the transaction commits — the other replicas read the row by its id.

An exception in the block rolls all of it back: no row, the key released, the locks let go. The
files the block changed stay changed (they were written atomically before), as with the embedded
engine.

Waits are bounded, so that a stuck call costs a retry, not a stuck replica:

- A replica runs at most `slots` write transactions at once (the engine's `WRITES_MAX`, fewer than
  its pool's connections): writes queued behind one busy file then leave connections to the reads
  and events. A write waits for a slot as it waits for a lock.
- Waiting for a slot, an idempotency claim or a file's lock ends after `LOCK_WAIT_S` (the engine
  sets it as the connections' `lock_timeout`) with ToolError WRITE_BUSY: nothing was changed, and a
  retry with the same idempotency_key is safe.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import logging
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any

import anyio
import asyncpg  # type: ignore[import-untyped]

from parlance._state.database import DB_ERRORS, failure_fields, unavailable
from parlance._state.embedded import key_reused
from parlance.errors import ToolError
from parlance.types import Principal
from parlance.writes import FileChange, HistoryPage, Write, WriteRecord

__all__ = ["BUSY", "CHANNEL", "KEEP_KEY_S", "LOCK_WAIT_S", "read_history", "shared_write"]

logger = logging.getLogger(__name__)
applied = logging.getLogger("parlance.writes")  # the embedded engine's `write.applied` lines come from here too

CHANNEL = "parlance_writes"
KEEP_KEY_S = 24 * 3600.0
"""How long an idempotency key's outcome is kept (the embedded engine's `KEEP_S`)."""
ACQUIRE_S = 10.0
"""How long a write, holding a slot, waits for one of the pool's connections (taken by reads and events, or
being opened) before it gives up."""
LOCK_WAIT_S = 60.0
"""How long a write waits for a slot, its idempotency claim or a file's lock before it answers WRITE_BUSY:
far longer than any write holds a file, far shorter than a client waits for its answer."""
BUSY = "WRITE_BUSY"
MAX_PAGE = 500

_CLAIM = (
    "INSERT INTO parlance_idempotency (subject, pack, tool, key_sha256, fingerprint) VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (subject, pack, tool, key_sha256) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, "
    "outcome = NULL, at = now() WHERE parlance_idempotency.at < now() - make_interval(secs => $6) RETURNING true")
_CLAIMED = ("SELECT fingerprint, outcome FROM parlance_idempotency "
            "WHERE subject = $1 AND pack = $2 AND tool = $3 AND key_sha256 = $4")
_LOG = (
    "INSERT INTO parlance_write_log (at, subject, client_id, pack, tool, catalog, locale, keys, files, written, "
    "refused, idempotency_key, resources, replica) "  # at: when applied, not when the call began to wait for locks
    "VALUES (clock_timestamp(), $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13) RETURNING id")


class _SharedWrite:
    """The `Write` of one call: what the block asks for, applied on its transaction's connection."""

    def __init__(self, connection: Any, pack: str, earlier: Mapping[str, Any] | None) -> None:
        self._connection, self._pack, self._earlier = connection, pack, earlier
        self.logged: dict[str, Any] | None = None
        self.outcome: str | None = None
        self.locked = False

    @property
    def earlier(self) -> Mapping[str, Any] | None:
        return self._earlier

    async def lock(self, names: Iterable[str]) -> None:
        if self.locked:
            raise RuntimeError("Write.lock() takes every name at once: call it once per write")
        self.locked = True
        ordered = sorted(set(names))
        try:  # one statement; unnest yields the names in the array's (sorted) order
            await self._connection.execute(
                "SELECT count(pg_advisory_xact_lock(hashtextextended($1 || ':' || name, 0))) "
                "FROM unnest($2::text[]) AS name", self._pack, ordered, timeout=_waiting())
        except asyncpg.LockNotAvailableError:  # the server's lock_timeout: another call holds a file that long
            logger.warning("state.lock_busy", extra={"pack": self._pack, "wait_s": LOCK_WAIT_S})
            raise _busy("another call has been writing one of these files") from None
        except DB_ERRORS as exc:
            logger.warning("state.lock_failed", extra={"pack": self._pack, **failure_fields(exc)})
            raise unavailable() from None

    def log(self, *, files: Sequence[FileChange], written: int, refused: int = 0, catalog: str | None = None,
            locale: str | None = None, keys: Sequence[str] = (), resources: Sequence[str] = ()) -> None:
        self.logged = {"files": [{"path": f.path, "before": f.before, "after": f.after} for f in files],
                       "written": int(written), "refused": int(refused), "catalog": catalog, "locale": locale,
                       "keys": [str(k) for k in keys], "resources": [str(r) for r in resources]}

    def answer(self, outcome: Mapping[str, Any]) -> None:
        # Serialized now: an outcome that is not JSON data fails on the pack's own line, not at the commit.
        self.outcome = json.dumps(dict(outcome), ensure_ascii=False)


def _busy(what: str) -> ToolError:
    return ToolError(BUSY, f"{what} for more than {LOCK_WAIT_S:g} s, so this write gave up waiting and changed "
                     "nothing: retry it with the same idempotency_key (a retry is never applied twice)", {})


def _waiting() -> float:
    """The driver's timeout of a statement that waits for a lock: beyond the server's `lock_timeout`, so
    that a wait ends as WRITE_BUSY, and a database that stops answering still ends it."""
    return LOCK_WAIT_S + 10.0


@contextlib.asynccontextmanager
async def shared_write(pool: Any | None, slots: anyio.Semaphore, *, replica: str, pack: str, tool: str,
                       principal: Principal | None, idempotency_key: str | None,
                       fingerprint: str) -> AsyncIterator[Write]:
    """One write call (see the module docstring). `pool` None: the database does not answer (or has not yet);
    `slots`: the replica's write transactions at once."""
    if pool is None:
        raise unavailable()
    try:
        with anyio.fail_after(LOCK_WAIT_S):
            await slots.acquire()
    except TimeoutError:
        logger.warning("state.write_slots_busy", extra={"pack": pack, "tool": tool, "wait_s": LOCK_WAIT_S})
        raise _busy("this replica's write slots have all been taken by writes waiting on busy files") from None
    try:
        async with _transaction(pool, replica=replica, pack=pack, tool=tool, principal=principal,
                                idempotency_key=idempotency_key, fingerprint=fingerprint) as write:
            yield write
    finally:
        slots.release()


@contextlib.asynccontextmanager
async def _transaction(pool: Any, *, replica: str, pack: str, tool: str, principal: Principal | None,
                       idempotency_key: str | None, fingerprint: str) -> AsyncIterator[Write]:
    try:
        connection = await pool.acquire(timeout=ACQUIRE_S)
    except DB_ERRORS as exc:
        logger.warning("state.write_refused", extra={"pack": pack, "tool": tool, **failure_fields(exc)})
        raise unavailable() from None
    subject = principal.subject if principal is not None else None
    scope = (subject or "", pack, tool, hashlib.sha256(idempotency_key.encode("utf-8", "surrogatepass")).hexdigest()
             if idempotency_key is not None else "")
    transaction = connection.transaction()
    done = False
    try:
        try:
            await transaction.start()
            earlier = await _claim(connection, scope, fingerprint) if idempotency_key is not None else None
        except asyncpg.LockNotAvailableError:
            logger.warning("state.claim_busy", extra={"pack": pack, "tool": tool, "wait_s": LOCK_WAIT_S})
            raise _busy("another call with this idempotency_key has been running") from None
        except DB_ERRORS as exc:
            logger.warning("state.write_refused", extra={"pack": pack, "tool": tool, **failure_fields(exc)})
            raise unavailable() from None
        write = _SharedWrite(connection, pack, earlier)
        yield write
        try:
            if earlier is None:  # a retry answered from `earlier` changes nothing and logs nothing
                log_id = None
                if write.logged is not None:
                    log_id = await _log(connection, write.logged, replica=replica, pack=pack, tool=tool,
                                        principal=principal, with_key=idempotency_key is not None)
                if idempotency_key is not None:
                    if write.outcome is not None:
                        await connection.execute("UPDATE parlance_idempotency SET outcome = $5::jsonb WHERE "
                                                 "subject = $1 AND pack = $2 AND tool = $3 AND key_sha256 = $4",
                                                 *scope, write.outcome)
                    else:
                        await connection.execute("DELETE FROM parlance_idempotency WHERE subject = $1 AND "
                                                 "pack = $2 AND tool = $3 AND key_sha256 = $4", *scope)
            await transaction.commit()
            done = True
        except DB_ERRORS as exc:
            logger.error("state.write_not_logged", extra={"pack": pack, "tool": tool, **failure_fields(exc)})
            raise unavailable(after_changes=write.logged is not None or write.locked) from None
        if earlier is None and write.logged is not None:
            applied.info("write.applied", extra={"pack": pack, "tool": tool, "log_id": log_id,
                                                 "files": len(write.logged["files"]),
                                                 "written": write.logged["written"],
                                                 "refused": write.logged["refused"]})
    finally:
        # Shielded: a cancelled call (the client gave up) still rolls back and hands its connection back;
        # the pool closes a connection it cannot reset, and opens another when one is next needed.
        with anyio.CancelScope(shield=True):
            if not done:
                with anyio.move_on_after(5):
                    with contextlib.suppress(*DB_ERRORS):
                        await transaction.rollback()
            with contextlib.suppress(*DB_ERRORS):
                await pool.release(connection, timeout=5)  # a connection it cannot reset, it closes


async def _claim(connection: Any, scope: tuple[str, str, str, str], fingerprint: str) -> Mapping[str, Any] | None:
    """Claim the key (None), or the outcome its first call stored (a retry). Waits while another call
    holds the claim; raises IDEMPOTENCY_KEY_REUSED when the first call's arguments were others."""
    for _ in range(3):
        if await connection.fetchval(_CLAIM, *scope, fingerprint, KEEP_KEY_S, timeout=_waiting()):
            return None
        row = await connection.fetchrow(_CLAIMED, *scope)
        if row is None or row["outcome"] is None:  # released between the two statements: claim it again
            continue
        if row["fingerprint"] != fingerprint:
            raise key_reused()
        outcome: dict[str, Any] = json.loads(row["outcome"])
        return outcome
    raise unavailable()  # never seen: a claim that comes and goes under every attempt


async def _log(connection: Any, logged: dict[str, Any], *, replica: str, pack: str, tool: str,
               principal: Principal | None, with_key: bool) -> int:
    log_id = int(await connection.fetchval(
        _LOG, principal.subject if principal else None, principal.client_id if principal else None, pack, tool,
        logged["catalog"], logged["locale"], logged["keys"], json.dumps(logged["files"], ensure_ascii=False),
        logged["written"], logged["refused"], with_key, logged["resources"], replica))
    await connection.execute("SELECT pg_notify($1, $2)", CHANNEL, json.dumps({"replica": replica, "id": log_id}))
    return log_id


# --- the write log, read back -------------------------------------------------------------------------


def _cursor(log_id: int) -> str:
    return base64.urlsafe_b64encode(f"parlance-history:{log_id}".encode()).decode().rstrip("=")


def _before(cursor: str) -> int:
    """The id a page's `next_cursor` stands for; INVALID_CURSOR for a string that is not one."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        prefix, _, number = text.partition(":")
        if prefix == "parlance-history" and number.isascii() and number.isdigit() and len(number) <= 18:
            return int(number)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise ToolError("INVALID_CURSOR", "this cursor is not one a page of the history gave: pass a page's "
                    "next_cursor exactly as it came, or no cursor for the newest page", {})


async def read_history(pool: Any | None, *, pack: str, catalog: str | None, key: str | None, locale: str | None,
                       limit: int, cursor: str | None) -> HistoryPage:
    """The pack's rows, newest first, filtered; `limit` rows a page (1 to 500), pages by id (keyset)."""
    before = _before(cursor) if cursor is not None else None
    limit = max(1, min(int(limit), MAX_PAGE))
    if pool is None:
        raise unavailable(reading=True)
    try:
        rows = await pool.fetch(
            "SELECT id, at, subject, client_id, pack, tool, catalog, locale, keys, files, written, refused, "
            "idempotency_key FROM parlance_write_log WHERE pack = $1 AND ($2::text IS NULL OR catalog = $2) "
            "AND ($3::text IS NULL OR $3 = ANY(keys)) AND ($4::text IS NULL OR locale = $4) "
            "AND ($5::bigint IS NULL OR id < $5) ORDER BY id DESC LIMIT $6",
            pack, catalog, key, locale, before, limit + 1, timeout=10)
    except DB_ERRORS as exc:
        logger.warning("state.history_unavailable", extra=failure_fields(exc))
        raise unavailable(reading=True) from None
    records = tuple(_record(row) for row in rows[:limit])
    return HistoryPage(records, _cursor(records[-1].id) if len(rows) > limit else None)


def _record(row: Any) -> WriteRecord:
    return WriteRecord(
        id=row["id"], at=row["at"], subject=row["subject"], client_id=row["client_id"], pack=row["pack"],
        tool=row["tool"], catalog=row["catalog"], locale=row["locale"], keys=tuple(row["keys"]),
        files=tuple(FileChange(f["path"], f.get("before"), f.get("after")) for f in json.loads(row["files"])),
        written=row["written"], refused=row["refused"], replayed_key=row["idempotency_key"])
