"""Resumable HTTP streams whose events live in the shared database.

What `parlance._transport.event_store.MemoryEventStore` does for one process (read it first), in
`parlance_events`: the same bounds, a `for_session()` view per session. The differences:

- An event's id names its session: `<session uuid>/<stream>/<number>`. The uuid is random, made by
  `for_session()`, and a session's view replays only ids that name its own session: the SDK names
  streams by request id, which every session reuses, and holding another session's event id must
  not replay that session's messages. (The store itself, `SharedEventStore.replay()`, replays any
  stream it is given an id of, on any replica: what a session that moves between replicas needs.)
- The bounds are kept by queries rather than by eviction: storing an event deletes what its stream
  holds beyond its last `per_stream` events; a replay gives nothing of a stream not written for
  `keep_s`; `purge()` (the engine's upkeep, every minute) deletes those streams, and the streams
  beyond the `streams` most recently written.
- A message larger than `MAX_MESSAGE_BYTES` (256 KiB: a large catalog read back, say) is not
  stored: the database holds small recent events, not documents.
- An event is not stored while the engine is not connected, and storing one waits `STORE_S` at
  most (half a second): a database that stops answering — silence, not refusal — must not hold up
  every message of every stream while the engine finds out. After a failure the store rests for
  `QUIET_S`, storing and replaying nothing, so that the wait is paid once, not once per message.
  Storing never raises into the SDK's message router (that would end the session's stream); the
  call goes on.

An event that was not stored (too large, or the database did not answer) leaves a gap in its stream,
and a stream with a gap is not resumable from before it: the session's view remembers the gap, and a
client that comes back with an id from before it gets nothing replayed, as without a store, rather
than the stream with a message silently missing. Ids after the gap replay as usual. An event not
stored gets an id ending in `-`, which replays nothing.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.types import JSONRPCMessage, jsonrpc_message_adapter

from parlance._state.database import DB_ERRORS, failure_fields

__all__ = ["MAX_MESSAGE_BYTES", "SharedEventStore"]

logger = logging.getLogger(__name__)

STORE_S = 0.5
"""How long storing one event waits for the database (a connection and the statement) before it is dropped."""
REPLAY_S = 2.0
"""How long a replay waits for the database before it gives up (nothing replayed)."""
QUIET_S = 5.0
"""After the database failed to store or replay, how long the store stores and replays nothing."""
MAX_MESSAGE_BYTES = 256 * 1024
"""The largest message stored (its JSON, UTF-8): a larger one is not stored, and its stream not resumable."""
GAPS_KEPT = 1000
"""How many streams with a gap one session remembers (the oldest is forgotten first)."""

_STORE = (
    # The stream's events beyond its last per_stream (the new one included) go as the new one comes in; the
    # DELETE sees the rows before the INSERT, hence the offset per_stream - 1.
    "WITH trimmed AS (DELETE FROM parlance_events WHERE session = $1 AND stream = $2 AND id <= (SELECT id FROM "
    "parlance_events WHERE session = $1 AND stream = $2 ORDER BY id DESC OFFSET $4 LIMIT 1)) "
    "INSERT INTO parlance_events (session, stream, message) VALUES ($1, $2, $3) RETURNING id")


class SharedEventStore:
    """The events of every session's recent streams, for every replica. `pool` gives the engine's
    connection pool while the engine is connected, None otherwise."""

    def __init__(self, pool: Callable[[], Any | None], *, streams: int = 1000, per_stream: int = 100,
                 keep_s: float = 120.0) -> None:
        self._pool = pool
        self._max_streams, self._per_stream, self._keep_s = streams, per_stream, keep_s
        self._quiet_until = -float("inf")

    def for_session(self) -> EventStore:
        """The store one session's transport uses; its ids name the session (see the module docstring)."""
        return _SessionEvents(self, uuid.uuid4())

    def _connection_pool(self) -> Any | None:
        """The pool, or None while the engine is not connected or the store rests after a failure."""
        return self._pool() if time.monotonic() >= self._quiet_until else None

    def _failed(self, exc: BaseException, what: str) -> None:
        self._quiet_until = time.monotonic() + QUIET_S
        logger.warning(what, extra={**failure_fields(exc), "quiet_s": QUIET_S})

    async def store(self, session: uuid.UUID, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        """Store one event; its id, ending in `-` when it was not stored (see the module docstring)."""
        text = None if message is None else message.model_dump_json(by_alias=True, exclude_unset=True)
        if text is not None and len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            logger.info("state.event_too_large", extra={"max_bytes": MAX_MESSAGE_BYTES})
            return f"{session}/{stream_id}/-"
        pool = self._connection_pool()
        if pool is not None:
            deadline = time.monotonic() + STORE_S
            try:
                async with _connection(pool, deadline) as connection:
                    number = await connection.fetchval(_STORE, session, stream_id, text, self._per_stream - 1,
                                                       timeout=_left(deadline))
                return f"{session}/{stream_id}/{number}"
            except DB_ERRORS as exc:
                self._failed(exc, "state.event_not_stored")
        return f"{session}/{stream_id}/-"

    async def replay(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Send the messages of the stream of `last_event_id` stored after it; the stream's id, or None when
        the id is not one of ours, or the stream is not kept (forgotten, or the database does not answer)."""
        found = _parse(last_event_id)
        pool = self._connection_pool()
        if found is None or pool is None:
            return None
        session, stream_id, number = found
        deadline = time.monotonic() + REPLAY_S
        try:
            async with _connection(pool, deadline) as connection:
                kept = await connection.fetchval(
                    "SELECT max(at) > now() - make_interval(secs => $3) FROM parlance_events "
                    "WHERE session = $1 AND stream = $2", session, stream_id, self._keep_s, timeout=_left(deadline))
                if not kept:
                    return None
                rows = await connection.fetch(
                    "SELECT id, message FROM (SELECT id, message FROM parlance_events WHERE session = $1 AND "
                    "stream = $2 ORDER BY id DESC LIMIT $3) AS last WHERE id > $4 AND message IS NOT NULL "
                    "ORDER BY id", session, stream_id, self._per_stream, number, timeout=_left(deadline))
        except DB_ERRORS as exc:
            self._failed(exc, "state.events_not_replayed")
            return None
        for row in rows:  # sent with no connection held: the client's network is not the database's business
            message = jsonrpc_message_adapter.validate_json(row["message"], by_name=False)
            await send_callback(EventMessage(message, f"{session}/{stream_id}/{row['id']}"))
        return stream_id

    async def purge(self, connection: Any) -> None:
        """Delete the streams outside the bounds (see the module docstring; storing trims each stream)."""
        await connection.execute(
            "DELETE FROM parlance_events AS e USING (SELECT session, stream FROM parlance_events "
            "GROUP BY session, stream HAVING max(at) < now() - make_interval(secs => $1)) AS stale "
            "WHERE e.session = stale.session AND e.stream = stale.stream", self._keep_s)
        await connection.execute(
            "DELETE FROM parlance_events AS e USING (SELECT session, stream FROM parlance_events "
            "GROUP BY session, stream ORDER BY max(id) DESC OFFSET $1) AS old "
            "WHERE e.session = old.session AND e.stream = old.stream", self._max_streams)


def _left(deadline: float) -> float:
    return max(deadline - time.monotonic(), 0.001)


@contextlib.asynccontextmanager
async def _connection(pool: Any, deadline: float) -> AsyncIterator[Any]:
    """A connection of `pool` until `deadline` (the block's statements say `timeout=_left(deadline)`), handed
    back within it too. By timeouts, not by cancelling: the driver hands a connection back in a task of its
    own, which a cancellation would leave to fail unseen. A connection that cannot be handed back in time,
    the pool closes, and it is no concern of the caller's."""
    connection = await pool.acquire(timeout=_left(deadline))
    try:
        yield connection
    finally:
        with contextlib.suppress(*DB_ERRORS):
            await pool.release(connection, timeout=_left(deadline))


def _parse(event_id: str) -> tuple[uuid.UUID, str, int] | None:
    """(session, stream, number) of an id `SharedEventStore` made; None for any other string."""
    session, _, rest = event_id.partition("/")
    stream_id, slash, number = rest.rpartition("/")
    if not slash or not (number.isascii() and number.isdigit() and len(number) <= 18):
        return None
    try:
        return uuid.UUID(session), stream_id, int(number)
    except ValueError:
        return None


class _SessionEvents(EventStore):
    """One session's view: replays its own streams only, and none from before a gap."""

    def __init__(self, events: SharedEventStore, session: uuid.UUID) -> None:
        self._events, self._session = events, session
        self._gaps: OrderedDict[StreamId, int | None] = OrderedDict()
        """Streams with an event not stored: the number of the first event stored after the gap (None: none
        yet). An id below it was sent before the gap, and replays nothing."""

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = await self._events.store(self._session, stream_id, message)
        found = _parse(event_id)
        if found is None:  # not stored: a gap, whatever was stored before
            self._gaps[stream_id] = None
            self._gaps.move_to_end(stream_id)
            while len(self._gaps) > GAPS_KEPT:
                self._gaps.popitem(last=False)
        elif stream_id in self._gaps and self._gaps[stream_id] is None:
            self._gaps[stream_id] = found[2]
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        found = _parse(last_event_id)
        if found is None or found[0] != self._session:  # another session's stream is not this session's to replay
            return None
        _, stream_id, number = found
        if stream_id in self._gaps:
            after_gap = self._gaps[stream_id]
            if after_gap is None or number < after_gap:
                return None
        return await self._events.replay(last_event_id, send_callback)
