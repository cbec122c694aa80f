"""Resumable HTTP streams: the events of recent SSE streams, kept in memory so a client can pick up.

With an event store the SDK opens every 2025-11-25 POST stream with a priming event (an id and no
data) and the `retry` delay, and stores each message it sends. A client whose connection drops
mid-call reconnects with `GET` and `Last-Event-ID` and receives what it missed, the call's result
included, instead of losing the call.

Each session must have a store of its own: the SDK names a stream by its request id (or a fixed
name for the GET stream), which every session reuses, so a store shared as the SDK hands it out
would replay one session's results to another that resumes with the same stream name. Here one
`MemoryEventStore` keeps the memory for all sessions, and `for_session()` gives each session a view
that stores and replays only its own streams.

Memory is bounded three ways: each stream keeps its last `per_stream` events; all sessions together
keep their `streams` most recently written streams (the oldest is forgotten first); and a stream
not written for `keep_s` is forgotten (a client reconnects within its `retry` delay, a second or
so). A client that comes back after its stream was forgotten gets nothing replayed, as if there
were no store.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict, deque

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.types import JSONRPCMessage

__all__ = ["MemoryEventStore"]

_Key = tuple[int, StreamId]  # (session, stream)


class MemoryEventStore:
    """The events of every session's recent streams, for one server process."""

    def __init__(self, *, streams: int = 1000, per_stream: int = 100, keep_s: float = 120.0) -> None:
        self._streams: OrderedDict[_Key, deque[tuple[int, JSONRPCMessage | None]]] = OrderedDict()
        self._written: dict[_Key, float] = {}
        self._max_streams, self._per_stream, self._keep_s = streams, per_stream, keep_s
        self._sessions = itertools.count(1)
        self._ids = itertools.count(1)

    def for_session(self) -> EventStore:
        """The store one session's transport uses: it sees only the streams it wrote."""
        return _SessionEvents(self, next(self._sessions))

    def store(self, key: _Key, message: JSONRPCMessage | None) -> int:
        number, now = next(self._ids), time.monotonic()
        events = self._streams.get(key)
        if events is None:
            events = self._streams[key] = deque(maxlen=self._per_stream)
        else:
            self._streams.move_to_end(key)
        self._written[key] = now
        events.append((number, message))
        # The front is the least recently written: forget it while there are too many, or it is stale.
        while self._streams:
            oldest = next(iter(self._streams))
            if len(self._streams) <= self._max_streams and now - self._written[oldest] <= self._keep_s:
                break
            del self._streams[oldest], self._written[oldest]
        return number

    def after(self, key: _Key, number: int) -> list[tuple[int, JSONRPCMessage]] | None:
        """The messages of stream `key` stored after event `number`; None for a stream not kept."""
        events = self._streams.get(key)
        if events is None:
            return None
        return [(n, message) for n, message in list(events) if n > number and message is not None]


class _SessionEvents(EventStore):
    def __init__(self, events: MemoryEventStore, session: int) -> None:
        self._events, self._session = events, session

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        return f"{stream_id}/{self._events.store((self._session, stream_id), message)}"

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        stream_id, _, number = last_event_id.rpartition("/")
        if not (number.isascii() and number.isdigit() and len(number) <= 18):  # ours are counters
            return None
        replay = self._events.after((self._session, stream_id), int(number))
        if replay is None:
            return None
        for event_number, message in replay:  # priming events carry nothing to replay
            await send_callback(EventMessage(message, f"{stream_id}/{event_number}"))
        return stream_id
