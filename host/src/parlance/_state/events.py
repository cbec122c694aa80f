"""Resumable HTTP streams whose events live in the shared database, so that any replica can replay them.

What `parlance._transport.event_store.MemoryEventStore` does for one process (read it first), for
every replica: the same bounds, a `for_session()` view per session, but the events in
`parlance_events`. The differences:

- An event's id names its session: `<session uuid>/<stream>/<number>`. The uuid is random, made by
  `for_session()`, so a replica that never saw the session replays a stream from a `Last-Event-ID`
  alone, and two sessions' streams of one name never mix. Holding an event id is what lets one
  replay its stream, as holding a session id lets one use the session: the SDK sends both to the
  session's client only.
- The bounds are kept by queries rather than by eviction: a replay gives at most the stream's last
  `per_stream` events, and nothing of a stream not written for `keep_s`; `purge()` (the engine's
  upkeep, every minute) deletes what falls outside them, and the streams beyond the `streams` most
  recently written.
- While the database does not answer, an event is not stored: its id ends in `-`, which replays
  nothing, so the client that reconnects gets nothing replayed, as without a store. Storing never
  raises into the SDK's message router (that would end the session's stream); the call goes on.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.types import JSONRPCMessage, jsonrpc_message_adapter

from parlance._state.database import DB_ERRORS, failure_fields

__all__ = ["SharedEventStore"]

logger = logging.getLogger(__name__)

TIMEOUT_S = 2.0
"""How long storing or replaying one event waits for the database before it gives up (the call goes on)."""


class SharedEventStore:
    """The events of every session's recent streams, for every replica. `pool` gives the engine's
    connection pool, or None while there is none (the database has not answered yet)."""

    def __init__(self, pool: Callable[[], Any | None], *, streams: int = 1000, per_stream: int = 100,
                 keep_s: float = 120.0) -> None:
        self._pool = pool
        self._max_streams, self._per_stream, self._keep_s = streams, per_stream, keep_s

    def for_session(self) -> EventStore:
        """The store one session's transport uses; its ids name the session (see the module docstring)."""
        return _SessionEvents(self, uuid.uuid4())

    async def store(self, session: uuid.UUID, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        pool = self._pool()
        text = None if message is None else message.model_dump_json(by_alias=True, exclude_unset=True)
        if pool is not None:
            try:
                async with pool.acquire(timeout=TIMEOUT_S) as connection:
                    number = await connection.fetchval(
                        "INSERT INTO parlance_events (session, stream, message) VALUES ($1, $2, $3) RETURNING id",
                        session, stream_id, text, timeout=TIMEOUT_S)
                return f"{session}/{stream_id}/{number}"
            except DB_ERRORS as exc:
                logger.debug("state.event_not_stored", extra=failure_fields(exc))
        return f"{session}/{stream_id}/-"

    async def replay(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Send the messages of the stream of `last_event_id` stored after it; the stream's id, or None when
        the id is not one of ours, or the stream is not kept (forgotten, or the database does not answer)."""
        found = _parse(last_event_id)
        pool = self._pool()
        if found is None or pool is None:
            return None
        session, stream_id, number = found
        try:
            async with pool.acquire(timeout=TIMEOUT_S) as connection:
                kept = await connection.fetchval(
                    "SELECT max(at) > now() - make_interval(secs => $3) FROM parlance_events "
                    "WHERE session = $1 AND stream = $2", session, stream_id, self._keep_s, timeout=TIMEOUT_S)
                if not kept:
                    return None
                rows = await connection.fetch(
                    "SELECT id, message FROM (SELECT id, message FROM parlance_events WHERE session = $1 AND "
                    "stream = $2 ORDER BY id DESC LIMIT $3) AS last WHERE id > $4 AND message IS NOT NULL "
                    "ORDER BY id", session, stream_id, self._per_stream, number, timeout=TIMEOUT_S)
        except DB_ERRORS as exc:
            logger.warning("state.events_not_replayed", extra=failure_fields(exc))
            return None
        for row in rows:  # sent with no connection held: the client's network is not the database's business
            message = jsonrpc_message_adapter.validate_json(row["message"], by_name=False)
            await send_callback(EventMessage(message, f"{session}/{stream_id}/{row['id']}"))
        return stream_id

    async def purge(self, connection: Any) -> None:
        """Delete the events outside the bounds (see the module docstring)."""
        await connection.execute(
            "DELETE FROM parlance_events AS e USING (SELECT session, stream FROM parlance_events "
            "GROUP BY session, stream HAVING max(at) < now() - make_interval(secs => $1)) AS stale "
            "WHERE e.session = stale.session AND e.stream = stale.stream", self._keep_s)
        await connection.execute(
            "DELETE FROM parlance_events WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
            "(PARTITION BY session, stream ORDER BY id DESC) AS n FROM parlance_events) AS ranked WHERE n > $1)",
            self._per_stream)
        await connection.execute(
            "DELETE FROM parlance_events AS e USING (SELECT session, stream FROM parlance_events "
            "GROUP BY session, stream ORDER BY max(id) DESC OFFSET $1) AS old "
            "WHERE e.session = old.session AND e.stream = old.stream", self._max_streams)


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
    def __init__(self, events: SharedEventStore, session: uuid.UUID) -> None:
        self._events, self._session = events, session

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        return await self._events.store(self._session, stream_id, message)

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        return await self._events.replay(last_event_id, send_callback)
