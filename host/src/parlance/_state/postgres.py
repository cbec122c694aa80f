"""The shared state engine: PostgreSQL (`[state] url = "postgresql://…"`), for several replicas.

What the replicas share lives in the database, each part in its module: the tables (`schema`), a
write's transaction and the write log (`write_log`), the `requestState` keys (`request_keys`) and the
events of resumable streams (`events`). This module keeps the engine connected and tells the
replicas of each other's writes:

- **Connected, or degraded, never down.** `running()` keeps the engine's connections (below). It
  starts even when the database does not answer, and survives it going away: the replica then
  serves degraded — reads keep working from the checkout, `ready()` is False (so `/readyz` sends
  the balancer's new clients elsewhere), writes raise SHARED_STATE_UNAVAILABLE rather than happen
  uncoordinated or unlogged, events of resumable streams are not stored — and it tries again every
  second, re-LISTENs, and catches up the writes it missed. Only the LISTEN connection decides that
  the database is gone (it closed, or a ping of it got no answer within `CONNECT_S`): a busy pool,
  a failed upkeep or a slow query is never taken for an outage. The log says when the database went
  and when it came back (its address, never the URL's credentials or the driver's text).
- **Change propagation.** Each applied write NOTIFYs `parlance_writes` with its replica and log id
  when its transaction commits. Every other replica reads that row and hands the files and resources
  it names to the host's listener (`listen()`): the pack reloads those files, the subscribers hear
  of the resources. A replica ignores its own writes; a row it could not read is read again a second
  later. After a reconnect it reads the rows it did not hear of (ids above the last one it saw, less
  a window: ids are taken in one order and committed in another), page by page, and skips those it
  already handed on. On its first connection it reads the rows written since the process started
  (less `START_MARGIN_S`): a replica that started while the database was down and connects later
  has not heard of them, while its packs read the files before they were written.
- **Readiness.** `ready()` pings over the LISTEN connection (a second at most), and keeps the answer
  for a second: three balancers probing every second cost one query a second. While the engine's
  own check of that connection is in flight (up to `CONNECT_S`), a probe gets the last answer
  rather than wait: a probe is answered within a second, always.
- **Upkeep**, every minute: idempotency outcomes older than a day and events outside their bounds
  are deleted, and the `requestState` key ring is reloaded and rotated.

**Connections per replica**, for sizing PostgreSQL's `max_connections` (default 100, of which 3 are
kept for superusers): `POOL_MAX` (10) in the pool of the calls — writes, history reads, events of
resumable streams —, `UPKEEP_POOL_MAX` (2) in the engine's own pool — upkeep, catch-up, the key ring,
reading other replicas' writes —, and 1 that LISTENs: 13 at most, so 3 replicas take 39, and a
default PostgreSQL serves 7. The engine's work has a pool of its own so that writes queued behind a
busy file never starve it (nor the health check, on the LISTEN connection). A replica runs at most
`WRITES_MAX` (8) write transactions at once, so that such a queue also leaves 2 of the calls'
connections to history reads and events; a write waits for one of those slots as it waits for a lock.

**Time limits** (all per connection, set as the session starts):

- a statement the driver sends waits `COMMAND_S` (30 s) for its answer (a write's lock wait: longer);
- `lock_timeout` = `write_log.LOCK_WAIT_S` (60 s): a write waiting longer for a file (or a slot, or an
  idempotency claim) gets WRITE_BUSY and changes nothing;
- `idle_in_transaction_session_timeout` = `IDLE_IN_TRANSACTION_S` (5 min): a write's transaction is
  idle, holding its locks, while the pack reads and writes the files in a thread; a replica that hangs
  there (a stuck volume, a stopped process) must not hold a file's lock for ever, and no write takes
  five minutes. The server ends such a session; the write answers SHARED_STATE_UNAVAILABLE;
- TCP keepalives (`tcp_keepalives_idle` 30 s, `_interval` 10 s, `_count` 3): the server finds a
  replica whose machine vanished (no FIN, no RST) within about a minute, and lets go of its locks,
  rather than after the system's two hours.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import math
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
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

__all__ = ["POOL_MAX", "UPKEEP_POOL_MAX", "WRITES_MAX", "PostgresState"]

logger = logging.getLogger(__name__)

POOL_MAX = 10
"""Connections of the calls' pool: writes (each holds one for its whole block, lock waits included), history
reads, events of resumable streams."""
WRITES_MAX = 8
"""Write transactions at once per replica: fewer than `POOL_MAX`, so that writes queued behind a busy file
leave connections to the reads and events."""
UPKEEP_POOL_MAX = 2
"""Connections of the engine's own pool: upkeep, catch-up, the key ring, reading other replicas' writes."""
CONNECT_S = 5.0
"""How long opening a connection, and the engine's ping of its LISTEN connection, wait."""
COMMAND_S = 30.0
"""How long a statement waits for its answer (the driver's `command_timeout`), unless it says otherwise."""
IDLE_IN_TRANSACTION_S = 300.0
"""The server's `idle_in_transaction_session_timeout` (see the module docstring)."""
KEEPALIVES = {"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10", "tcp_keepalives_count": "3"}
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
CATCH_UP_PAGE = 1000
"""Rows read at a time when catching up (it reads pages until one is not full)."""
START_MARGIN_S = 30.0
"""On the first connection, rows this much older than the process are read too: the database's clock and
this machine's may differ a little (a row handed on twice costs a reload, one missed a stale view)."""
SEEN = 10_000
"""How many handed-on log ids are remembered, to hand none on twice (and how many unread ones, to read)."""

_OUTAGE: tuple[type[BaseException], ...] = (*DB_ERRORS, SchemaTooNew)
_CHANGES = "SELECT id, pack, tool, files, resources FROM parlance_write_log"


def _settings(name: str) -> dict[str, str]:
    """The session settings of each connection (see the module docstring); `name` shows in pg_stat_activity."""
    return {"application_name": name[:63], "lock_timeout": f"{round(write_log.LOCK_WAIT_S * 1000)}ms",
            "idle_in_transaction_session_timeout": f"{round(IDLE_IN_TRANSACTION_S * 1000)}ms", **KEEPALIVES}


class PostgresState:
    """See the module docstring. `replica` names this process in the write log and its notifications
    (default: host name, process id and a random suffix, unique per start)."""

    shared = True

    def __init__(self, url: str, *, replica: str | None = None) -> None:
        self._url = url
        self.replica = replica or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self._where = where(url)
        self._started = time.time()
        self._pool: Any = None
        self._upkeep_pool: Any = None
        self._listening: Any = None
        self._connected = False
        """Whether the engine is connected: set once a connection is made and caught up, cleared as the engine
        finds the database gone. Calls (writes, history, events) use the pool only while it is set."""
        self._slots = anyio.Semaphore(WRITES_MAX)
        self._listener: WriteListener | None = None
        self._heard: MemoryObjectSendStream[tuple[str, str]] | None = None
        self._keys = SharedRequestKeys()
        self._events: SharedEventStore | None = None
        self._last_seen: int | None = None
        self._caught_up = False
        """Whether a catch-up has run to its end: the first reads the rows since the process started."""
        self._seen: deque[int] = deque()
        self._seen_ids: set[int] = set()
        self._unread: set[int] = set()
        """Log ids heard of whose row could not be read: read again at the next check and after a reconnect."""
        self._ping_lock = anyio.Lock()
        self._pinged: tuple[float, bool] = (-math.inf, False)

    # --- the StateEngine protocol --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Connect in the background for as long as the block runs (see the module docstring). Waits for
        the first attempt (at most `CONNECT_S`), so that a replica whose database answers starts ready."""
        send, receive = anyio.create_memory_object_stream[tuple[str, str]](math.inf)
        self._heard = send
        self._slots = anyio.Semaphore(WRITES_MAX)  # WRITES_MAX as it is now (a test changes it)
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
        return write_log.shared_write(self._calls_pool(), self._slots, replica=self.replica, pack=pack, tool=tool,
                                      principal=principal, idempotency_key=idempotency_key, fingerprint=fingerprint)

    async def history(self, *, pack: str, catalog: str | None = None, key: str | None = None,
                      locale: str | None = None, limit: int = 50, cursor: str | None = None) -> HistoryPage:
        return await write_log.read_history(self._calls_pool(), pack=pack, catalog=catalog, key=key, locale=locale,
                                            limit=limit, cursor=cursor)

    async def ready(self) -> bool:
        if not self._connected:
            return False
        if self._ping_lock.locked():  # a ping is in flight (the engine's own waits up to CONNECT_S): its last answer
            return self._pinged[1]
        return await self._ping(timeout=PING_S)

    def listen(self, listener: WriteListener | None) -> None:
        self._listener = listener

    def request_state_codec(self) -> SharedRequestKeys:
        return self._keys

    def event_store(self) -> SharedEventStore:
        if self._events is None:  # imported here: it is the SDK's EventStore, which only a server needs
            from parlance._state.events import SharedEventStore

            self._events = SharedEventStore(self._calls_pool)
        return self._events

    async def upkeep(self) -> None:
        """One round of upkeep (every `UPKEEP_S` while connected): delete idempotency outcomes older than a
        day and the events outside their bounds, reload the key ring and rotate it when it is due."""
        pool = self._upkeep_pool
        if pool is None:
            return
        async with pool.acquire(timeout=CONNECT_S) as connection:
            await connection.execute("DELETE FROM parlance_idempotency WHERE at < now() - make_interval(secs => $1)",
                                     write_log.KEEP_KEY_S)
            if self._events is not None:
                await self._events.purge(connection)
        await self._load_keys(rotate=True)

    def _calls_pool(self) -> Any | None:
        """The pool of the calls while the engine is connected; None otherwise (a call then fails at once)."""
        return self._pool if self._connected else None

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

    async def _open_pool(self, size: int, name: str) -> Any:
        pool = asyncpg.create_pool(self._url, min_size=1, max_size=size, timeout=CONNECT_S, command_timeout=COMMAND_S,
                                   server_settings=_settings(f"{name} {self.replica}"))
        try:
            await pool
        except BaseException:
            pool.terminate()
            raise
        return pool

    async def _connect(self) -> None:
        if self._pool is None:
            self._pool = await self._open_pool(POOL_MAX, "parlance")
        if self._upkeep_pool is None:
            self._upkeep_pool = await self._open_pool(UPKEEP_POOL_MAX, "parlance-upkeep")
        async with self._upkeep_pool.acquire(timeout=CONNECT_S) as connection:  # each time: the database may be new
            await prepare(connection)
        listening = await asyncpg.connect(  # named, so that pg_stat_activity tells which replica listens
            self._url, timeout=CONNECT_S, command_timeout=COMMAND_S,
            server_settings=_settings(f"parlance-listen {self.replica}"))
        try:
            await listening.add_listener(write_log.CHANNEL, self._notified)
            await listening.add_listener(request_keys.CHANNEL, self._notified)
        except BaseException:
            listening.terminate()
            raise
        self._listening = listening  # only now: `ready()` pings it, which must not run beside LISTEN
        await self._catch_up()  # after LISTEN: a write committed meanwhile is heard, or read here, or both
        await self._load_keys(rotate=True)
        self._pinged = (time.monotonic(), True)  # it answered just now
        self._connected = True

    async def _watch(self) -> None:
        """Return (raise) when the LISTEN connection is gone or stops answering; meanwhile read the rows not
        read yet, and upkeep. Nothing else ends it: a failed upkeep is logged and tried again next time."""
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
            if self._unread:
                await self._not_an_outage("state.unread_not_read", self._read_unread)
            if now >= upkeep_due:
                await self._not_an_outage("state.upkeep_failed", self.upkeep)
                upkeep_due = now + UPKEEP_S

    async def _not_an_outage(self, event: str, work: Callable[[], Awaitable[None]]) -> None:
        try:
            await work()
        except DB_ERRORS as exc:  # the LISTEN connection says whether the database is gone; this is tried again
            logger.warning(event, extra={"database": self._where, **failure_fields(exc)})

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
        self._connected = False
        listening, self._listening = self._listening, None
        self._pinged = (-math.inf, False)
        with anyio.CancelScope(shield=True):
            if listening is not None:
                try:
                    await listening.close(timeout=2)
                except Exception:  # closing a connection that is gone: let it go
                    listening.terminate()
            for pool in (self._pool, self._upkeep_pool):  # their idle connections may be as dead: each reconnects
                if pool is not None:                     # when next used
                    await pool.expire_connections()

    async def _close(self) -> None:
        await self._drop_listening()
        pools = [pool for pool in (self._pool, self._upkeep_pool) if pool is not None]
        self._pool = self._upkeep_pool = None
        with anyio.move_on_after(5):
            for pool in pools:
                await pool.close()  # waits for the connections in use to come back
        for pool in pools:
            if not pool.is_closing():
                pool.terminate()

    async def _load_keys(self, *, rotate: bool) -> None:
        pool = self._upkeep_pool
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
            except DB_ERRORS as exc:  # the key ring is reloaded at the next upkeep
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
        pool = self._upkeep_pool
        if replica == self.replica or log_id in self._seen_ids or pool is None:
            return
        try:
            rows = await pool.fetch(f"{_CHANGES} WHERE id = $1", log_id)
        except DB_ERRORS as exc:  # read again a second from now (`_watch`), or after the reconnect
            if len(self._unread) < SEEN:
                self._unread.add(log_id)
            logger.warning("state.notification_not_read", extra={"channel": write_log.CHANNEL,
                                                                 **failure_fields(exc)})
            return
        await self._hand_on(rows)

    async def _read_unread(self) -> None:
        unread = sorted(self._unread)
        rows = await self._upkeep_pool.fetch(f"{_CHANGES} WHERE id = ANY($1::bigint[]) ORDER BY id", unread)
        self._unread.difference_update(unread)  # a row that is not there (never committed?) is not waited for
        await self._hand_on(rows)

    async def _catch_up(self) -> None:
        """Hand on the rows of other replicas' writes this replica has not heard of (see the module docstring)."""
        pool = self._upkeep_pool
        since: dt.datetime | None = None
        newest = int(await pool.fetchval("SELECT coalesce(max(id), 0) FROM parlance_write_log"))
        if not self._caught_up or self._last_seen is None:  # the first: the rows written since the process started
            since = dt.datetime.fromtimestamp(self._started - START_MARGIN_S, dt.timezone.utc)
            # Backwards along the primary key to the newest row older than that: as many rows as were written since.
            older = await pool.fetchval("SELECT id FROM parlance_write_log WHERE at < $1 ORDER BY id DESC LIMIT 1",
                                        since)
            low = max(0, int(older or 0) - CATCH_UP_WINDOW)
        else:
            low = max(0, self._last_seen - CATCH_UP_WINDOW)
        seen = [i for i in self._seen_ids if i > low]
        after = low
        while True:
            rows = await pool.fetch(
                f"{_CHANGES} WHERE id > $1 AND replica <> $2 AND ($3::timestamptz IS NULL OR at >= $3) "
                "AND NOT (id = ANY($4::bigint[])) ORDER BY id LIMIT $5", after, self.replica, since, seen,
                CATCH_UP_PAGE)
            await self._hand_on(rows)
            if len(rows) < CATCH_UP_PAGE:
                break
            after = int(rows[-1]["id"])
        self._last_seen = max(self._last_seen or 0, newest)
        self._caught_up = True
        if self._unread:
            await self._read_unread()

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
