"""The shared state engine: PostgreSQL (`[state] url = "postgresql://…"`), for several replicas.

What the replicas share lives in the database, each part in its module: the tables (`schema`), a
write's transaction and the write log (`write_log`), the `requestState` keys (`request_keys`) and the
events of resumable streams (`events`). This module keeps the engine connected and tells the
replicas of each other's writes:

- **Connected, or degraded, never down.** `running()` keeps a small pool and one connection of its
  own that LISTENs. It starts even when the database does not answer, and survives it going away:
  the replica then serves degraded — reads keep working from the checkout, `ready()` is False (so
  `/readyz` sends the balancer's new clients elsewhere), writes raise SHARED_STATE_UNAVAILABLE
  rather than happen uncoordinated or unlogged — and it tries again every second, re-LISTENs, and
  catches up the writes it missed. The log says when the database went and when it came back
  (its address, never the URL's credentials or the driver's text).
- **Change propagation.** Each applied write NOTIFYs `parlance_writes` with its replica and log id
  when its transaction commits. Every other replica reads that row and hands the files and resources
  it names to the host's listener (`listen()`): the pack reloads those files, the subscribers hear
  of the resources. A replica ignores its own writes. After a reconnect it reads the rows it did not
  hear of (ids above the last one it saw, less a window: ids are taken in one order and committed in
  another) and skips those it already handed on.
- **Readiness.** `ready()` pings over the LISTEN connection (a second at most), and keeps the answer
  for a second: three balancers probing every second cost one query a second.
- **Upkeep**, every minute: idempotency outcomes older than a day and events outside their bounds
  are deleted, and the `requestState` key ring is reloaded and rotated.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import asyncpg  # type: ignore[import-untyped]
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from parlance._state import request_keys, write_log
from parlance._state.database import DB_ERRORS, failure_fields, where
from parlance._state.request_keys import SharedRequestKeys, load_ring
from parlance._state.schema import SchemaTooNew, prepare
from parlance.types import Principal
from parlance.writes import HistoryPage, SharedWrite, Write

if TYPE_CHECKING:  # engine picks this module: importing it back would be a cycle
    from parlance._state.engine import WriteListener
    from parlance._state.events import SharedEventStore

__all__ = ["PostgresState"]

logger = logging.getLogger(__name__)

POOL_MAX = 20
"""Connections per replica: a write holds one for its whole block (waiting for a lock included)."""
CONNECT_S = 5.0
RETRY_S = 1.0
"""How often a degraded replica tries the database again (and how often a connected one checks it)."""
PING_S = 1.0
"""`ready()`'s ping: its timeout, and how long its answer is kept."""
WATCH_PING_S = 5.0
"""How often the LISTEN connection is pinged to find a connection that died without closing."""
UPKEEP_S = 60.0
CATCH_UP_WINDOW = 1000
"""After a reconnect, rows this far below the last id heard are read again (a write that took its id
before another but committed after it); those already handed on are skipped."""
CATCH_UP_MAX = 5000
SEEN = 10_000
"""How many handed-on log ids are remembered, to hand none on twice."""

_OUTAGE: tuple[type[BaseException], ...] = (*DB_ERRORS, SchemaTooNew)
_CHANGES = "SELECT id, pack, tool, files, resources FROM parlance_write_log"


class PostgresState:
    """See the module docstring. `replica` names this process in the write log and its notifications
    (default: host name, process id and a random suffix, unique per start)."""

    shared = True

    def __init__(self, url: str, *, replica: str | None = None) -> None:
        self._url = url
        self.replica = replica or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self._where = where(url)
        self._pool: Any = None
        self._listening: Any = None
        self._listener: WriteListener | None = None
        self._heard: MemoryObjectSendStream[tuple[str, str]] | None = None
        self._keys = SharedRequestKeys()
        self._events: SharedEventStore | None = None
        self._last_seen: int | None = None
        self._seen: deque[int] = deque()
        self._seen_ids: set[int] = set()
        self._ping_lock = anyio.Lock()
        self._pinged: tuple[float, bool] = (-math.inf, False)

    # --- the StateEngine protocol --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Connect in the background for as long as the block runs (see the module docstring). Waits for
        the first attempt (at most `CONNECT_S`), so that a replica whose database answers starts ready."""
        send, receive = anyio.create_memory_object_stream[tuple[str, str]](math.inf)
        self._heard = send
        first_attempt = anyio.Event()
        raised: BaseException | None = None
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(self._keep_connected, first_attempt)
                tasks.start_soon(self._hear, receive)
                with anyio.move_on_after(CONNECT_S):
                    await first_attempt.wait()
                try:
                    yield
                except BaseException as exc:  # re-raised below as it was, not wrapped in an ExceptionGroup
                    raised = exc
                finally:
                    tasks.cancel_scope.cancel()
        finally:
            self._heard = None
            send.close()
            receive.close()
            with anyio.CancelScope(shield=True):
                await self._close()
        if raised is not None:
            raise raised

    def write(self, *, pack: str, tool: str, principal: Principal | None, idempotency_key: str | None,
              fingerprint: str) -> contextlib.AbstractAsyncContextManager[Write]:
        return write_log.shared_write(self._pool, replica=self.replica, pack=pack, tool=tool, principal=principal,
                                      idempotency_key=idempotency_key, fingerprint=fingerprint)

    async def history(self, *, pack: str, catalog: str | None = None, key: str | None = None,
                      locale: str | None = None, limit: int = 50, cursor: str | None = None) -> HistoryPage:
        return await write_log.read_history(self._pool, pack=pack, catalog=catalog, key=key, locale=locale,
                                            limit=limit, cursor=cursor)

    async def ready(self) -> bool:
        return await self._ping(timeout=PING_S)

    def listen(self, listener: WriteListener | None) -> None:
        self._listener = listener

    def request_state_codec(self) -> SharedRequestKeys:
        return self._keys

    def event_store(self) -> SharedEventStore:
        if self._events is None:  # imported here: it is the SDK's EventStore, which only a server needs
            from parlance._state.events import SharedEventStore

            self._events = SharedEventStore(lambda: self._pool)
        return self._events

    async def upkeep(self) -> None:
        """One round of upkeep (every `UPKEEP_S` while connected): delete idempotency outcomes older than a
        day and the events outside their bounds, reload the key ring and rotate it when it is due."""
        pool = self._pool
        if pool is None:
            return
        async with pool.acquire(timeout=CONNECT_S) as connection:
            await connection.execute("DELETE FROM parlance_idempotency WHERE at < now() - make_interval(secs => $1)",
                                     write_log.KEEP_KEY_S)
            if self._events is not None:
                await self._events.purge(connection)
        await self._load_keys(rotate=True)

    # --- staying connected ---------------------------------------------------------------------------

    async def _keep_connected(self, first_attempt: anyio.Event) -> None:
        failing: str | None = None
        while True:
            try:
                await self._connect()
                if failing is not None:
                    logger.warning("state.database_back", extra={"database": self._where})
                failing = None
                first_attempt.set()
                await self._watch()
            except _OUTAGE as exc:
                fields = failure_fields(exc)
                if isinstance(exc, SchemaTooNew):
                    fields["reason"] = str(exc)  # our own sentence: no value of the database in it
                if failing != fields["error"]:  # once per outage (or change of cause), not every second
                    logger.error("state.database_unreachable", extra={"database": self._where, **fields,
                                                                      "retry_s": RETRY_S})
                failing = fields["error"]
            except Exception:  # a boundary: the replica keeps serving, and keeps trying
                logger.error("state.connection_keeper_failed", extra={"database": self._where}, exc_info=True)
                failing = "bug"
            first_attempt.set()
            await self._drop_listening()
            await anyio.sleep(RETRY_S)

    async def _connect(self) -> None:
        if self._pool is None:
            pool = asyncpg.create_pool(self._url, min_size=1, max_size=POOL_MAX, timeout=CONNECT_S,
                                       server_settings={"application_name": f"parlance {self.replica}"[:63]})
            try:
                await pool
            except BaseException:
                pool.terminate()
                raise
            self._pool = pool
        async with self._pool.acquire(timeout=CONNECT_S) as connection:  # each time: the database may be new
            await prepare(connection)
        listening = await asyncpg.connect(  # named, so that pg_stat_activity tells which replica listens
            self._url, timeout=CONNECT_S, server_settings={"application_name": f"parlance-listen {self.replica}"[:63]})
        try:
            await listening.add_listener(write_log.CHANNEL, self._notified)
            await listening.add_listener(request_keys.CHANNEL, self._notified)
        except BaseException:
            listening.terminate()
            raise
        self._listening = listening  # only now: `ready()` pings it, which must not run beside LISTEN
        await self._catch_up()  # after LISTEN: a write committed meanwhile is heard, or read here, or both
        await self._load_keys(rotate=True)
        self._pinged = (-math.inf, False)

    async def _watch(self) -> None:
        """Return (raise) when the LISTEN connection is gone or stops answering; upkeep meanwhile."""
        ping_due = time.monotonic() + WATCH_PING_S
        upkeep_due = time.monotonic() + UPKEEP_S
        while True:
            await anyio.sleep(RETRY_S)
            listening = self._listening
            if listening is None or listening.is_closed():
                raise ConnectionError("the LISTEN connection closed")
            now = time.monotonic()
            if now >= ping_due:
                if not await self._ping(timeout=CONNECT_S, fresh=True):
                    raise ConnectionError("the LISTEN connection does not answer")
                ping_due = now + WATCH_PING_S
            if now >= upkeep_due:
                await self.upkeep()
                upkeep_due = now + UPKEEP_S

    async def _ping(self, *, timeout: float, fresh: bool = False) -> bool:
        async with self._ping_lock:  # one query at a time on the connection; probes share its answer
            at, ok = self._pinged
            if not fresh and time.monotonic() - at < PING_S:
                return ok
            listening = self._listening
            ok = False
            if listening is not None and not listening.is_closed():
                try:
                    await listening.fetchval("SELECT 1", timeout=timeout)
                    ok = True
                except DB_ERRORS:
                    pass
            self._pinged = (time.monotonic(), ok)
            return ok

    async def _drop_listening(self) -> None:
        listening, self._listening = self._listening, None
        self._pinged = (-math.inf, False)
        with anyio.CancelScope(shield=True):
            if listening is not None:
                try:
                    await listening.close(timeout=2)
                except Exception:  # closing a connection that is gone: let it go
                    listening.terminate()
            if self._pool is not None:  # its idle connections may be as dead: each reconnects when next used
                await self._pool.expire_connections()

    async def _close(self) -> None:
        await self._drop_listening()
        pool, self._pool = self._pool, None
        if pool is not None:
            with anyio.move_on_after(5):
                await pool.close()  # waits for the connections in use to come back
                return
            pool.terminate()

    async def _load_keys(self, *, rotate: bool) -> None:
        pool = self._pool
        if pool is None:
            return
        async with pool.acquire(timeout=CONNECT_S) as connection:
            ring, added = await load_ring(connection, rotate=rotate)
        if ring:
            self._keys.use(ring)
        if added:
            logger.info("state.request_key_added", extra={"keys": len(ring)})

    # --- other replicas' writes ----------------------------------------------------------------------

    def _notified(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        """asyncpg's callback, on the event loop: queued for `_hear`, which may await."""
        if self._heard is not None:
            self._heard.send_nowait((channel, payload))

    async def _hear(self, receive: MemoryObjectReceiveStream[tuple[str, str]]) -> None:
        async for channel, payload in receive:
            try:
                if channel == request_keys.CHANNEL:
                    await self._load_keys(rotate=False)
                else:
                    await self._heard_write(payload)
            except DB_ERRORS as exc:  # the reconnect's catch-up reads the row again
                logger.warning("state.notification_not_read", extra={"channel": channel, **failure_fields(exc)})
            except Exception:  # a boundary: the next notification is heard all the same
                logger.error("state.notification_failed", extra={"channel": channel}, exc_info=True)

    async def _heard_write(self, payload: str) -> None:
        try:
            note = json.loads(payload)
            replica, log_id = str(note["replica"]), int(note["id"])
        except (ValueError, KeyError, TypeError):
            logger.warning("state.notification_unreadable", extra={"channel": write_log.CHANNEL})
            return
        if replica == self.replica or log_id in self._seen_ids or self._pool is None:
            return
        await self._hand_on(await self._pool.fetch(f"{_CHANGES} WHERE id = $1", log_id))

    async def _catch_up(self) -> None:
        if self._last_seen is None:  # the first connection: what was written before, the files hold
            self._last_seen = int(await self._pool.fetchval("SELECT coalesce(max(id), 0) FROM parlance_write_log"))
            return
        low = max(0, self._last_seen - CATCH_UP_WINDOW)
        rows = await self._pool.fetch(
            f"{_CHANGES} WHERE id > $1 AND replica <> $2 AND NOT (id = ANY($3::bigint[])) ORDER BY id LIMIT $4",
            low, self.replica, [i for i in self._seen_ids if i > low], CATCH_UP_MAX)
        if len(rows) == CATCH_UP_MAX:
            logger.warning("state.catch_up_truncated", extra={"rows": CATCH_UP_MAX})
        await self._hand_on(rows)

    async def _hand_on(self, rows: Sequence[Any]) -> None:
        for row in rows:
            log_id = int(row["id"])
            if log_id in self._seen_ids:
                continue
            self._remember(log_id)
            listener = self._listener
            if listener is None:
                continue
            change = SharedWrite(row["pack"], row["tool"], files=tuple(f["path"] for f in json.loads(row["files"])),
                                 resources=tuple(row["resources"]))
            try:
                await listener(change)
            except Exception:  # the host's listener logs a pack's failure itself; this is the last boundary
                logger.error("state.listener_failed", extra={"pack": change.pack}, exc_info=True)

    def _remember(self, log_id: int) -> None:
        self._seen.append(log_id)
        self._seen_ids.add(log_id)
        if len(self._seen) > SEEN:
            self._seen_ids.discard(self._seen.popleft())
        self._last_seen = max(self._last_seen or 0, log_id)
