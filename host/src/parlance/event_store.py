"""Resumable HTTP streams: the events of recent SSE streams, kept in memory so a client can pick up.

With an event store the SDK opens every 2025-11-25 POST stream with a priming event (an id and no
data) and the `retry` delay, and stores each message it sends. A client whose connection drops
mid-call reconnects with `GET` and `Last-Event-ID` and receives what it missed, the call's result
included, instead of losing the call.

Memory is bounded twice over: each stream keeps its last `per_stream` events, and the store its
`streams` most recently written streams (the oldest is forgotten first). A client that comes
back after its stream was forgotten gets nothing replayed, as if there were no store.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.types import JSONRPCMessage

__all__ = ["MemoryEventStore"]


class MemoryEventStore(EventStore):
    """An `EventStore` for one server process (not shared between workers)."""

    def __init__(self, *, streams: int = 1000, per_stream: int = 100) -> None:
        self._streams: OrderedDict[StreamId, deque[tuple[int, JSONRPCMessage | None]]] = OrderedDict()
        self._max_streams, self._per_stream = streams, per_stream
        self._ids = itertools.count(1)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        number = next(self._ids)
        events = self._streams.get(stream_id)
        if events is None:
            events = self._streams[stream_id] = deque(maxlen=self._per_stream)
            while len(self._streams) > self._max_streams:
                self._streams.popitem(last=False)
        else:
            self._streams.move_to_end(stream_id)
        events.append((number, message))
        return f"{stream_id}/{number}"

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        stream_id, _, number = last_event_id.rpartition("/")
        events = self._streams.get(stream_id)
        if events is None or not number.isdigit():
            return None
        after = int(number)
        for event_number, message in list(events):
            if event_number > after and message is not None:  # priming events carry nothing to replay
                await send_callback(EventMessage(message, f"{stream_id}/{event_number}"))
        return stream_id
