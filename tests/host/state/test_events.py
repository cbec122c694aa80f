"""Resumable-stream events in the shared database (`parlance._state.events`): stored through one replica,
replayed by another from the Last-Event-ID alone, within the bounds of `MemoryEventStore`."""

from __future__ import annotations

import pytest
from mcp.server.streamable_http import EventMessage
from mcp.types import JSONRPCNotification, JSONRPCResponse

from parlance._state.events import MAX_MESSAGE_BYTES, SharedEventStore
from tests.host.state import query, running

pytestmark = pytest.mark.anyio


def _progress(n: int) -> JSONRPCNotification:
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/progress",
                               params={"progressToken": "t", "progress": n})


async def _replay(store, event_id: str) -> tuple[str | None, list[EventMessage]]:
    sent: list[EventMessage] = []

    async def send(event: EventMessage) -> None:
        sent.append(event)

    return await store.replay_events_after(event_id, send), sent


async def _store_replay(store, event_id: str) -> tuple[str | None, list[EventMessage]]:
    """What `SharedEventStore.replay` (any session's stream, from its id alone) sends."""
    sent: list[EventMessage] = []

    async def send(event: EventMessage) -> None:
        sent.append(event)

    return await store.replay(event_id, send), sent


async def test_a_stream_stored_on_one_replica_is_replayed_by_another(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        session, other_session = a.event_store().for_session(), a.event_store().for_session()
        priming = await session.store_event("7", None)
        first = await session.store_event("7", _progress(1))
        await other_session.store_event("7", _progress(99))  # another session's stream of the same name
        await session.store_event("7", _progress(2))
        await session.store_event("7", JSONRPCResponse(jsonrpc="2.0", id=7, result={"done": True}))
        assert priming.count("/") == 2 and priming.endswith(tuple("0123456789"))

        stream, sent = await _replay(session, priming)
        assert stream == "7"
        assert [e.message for e in sent] == [_progress(1), _progress(2),
                                             JSONRPCResponse(jsonrpc="2.0", id=7, result={"done": True})]
        assert [e.event_id for e in sent][0] == first
        stream, sent = await _store_replay(b.event_store(), first)  # b never saw the session
        assert stream == "7" and [e.message for e in sent][0] == _progress(2)

        for unknown in ("7/3", "not-a-uuid/7/3", f"{priming.split('/')[0]}/8/1", f"{priming[:-1]}x", "", "a/b/-"):
            assert await _replay(session, unknown) == (None, [])
            assert await _store_replay(b.event_store(), unknown) == (None, [])

        await query(database, "UPDATE parlance_events SET at = now() - interval '121 seconds'")
        assert await _replay(session, priming) == (None, [])  # not written for keep_s


async def test_a_session_replays_its_own_streams_only(database: str) -> None:
    async with running(database) as engine:
        alice, mallory = engine.event_store().for_session(), engine.event_store().for_session()
        priming = await alice.store_event("1", None)
        await alice.store_event("1", JSONRPCResponse(jsonrpc="2.0", id=1, result={"secret": "alice's"}))
        await mallory.store_event("1", None)  # a stream of the same name: request ids repeat in every session
        assert await _replay(mallory, priming) == (None, [])
        stream, sent = await _replay(alice, priming)
        assert stream == "1" and len(sent) == 1


async def test_an_event_too_large_is_not_stored_and_its_stream_not_resumable_before_it(database: str) -> None:
    async with running(database) as engine:
        view = engine.event_store().for_session()
        priming = await view.store_event("s", None)
        large = JSONRPCResponse(jsonrpc="2.0", id=1, result={"text": "x" * MAX_MESSAGE_BYTES})
        assert (await view.store_event("s", large)).endswith("/s/-")
        after = await view.store_event("s", _progress(1))
        last = await view.store_event("s", _progress(2))
        rows = await query(database, "SELECT max(length(message)) AS longest, count(*) AS n FROM parlance_events")
        assert rows[0]["n"] == 3 and rows[0]["longest"] < 1000
        assert await _replay(view, priming) == (None, [])  # from before the gap: nothing, rather than a hole
        stream, sent = await _replay(view, after)  # from after it: complete
        assert stream == "s" and [e.event_id for e in sent] == [last]


async def test_the_bounds_of_the_memory_store_hold(database: str) -> None:
    import asyncpg

    async with running(database), asyncpg.create_pool(database, min_size=1, max_size=2) as pool:
        store = SharedEventStore(lambda: pool, streams=2, per_stream=3)
        view = store.for_session()
        ids = [await view.store_event("s", _progress(n)) for n in range(5)]
        stored = await query(database, "SELECT count(*) FROM parlance_events WHERE stream = 's'")
        assert stored[0][0] == 3  # trimmed as it is stored, not only by the minute's purge
        _, sent = await _replay(view, ids[0])
        assert [e.message for e in sent] == [_progress(2), _progress(3), _progress(4)]  # the last per_stream only
        for name in ("t", "u"):
            await view.store_event(name, _progress(0))
        async with pool.acquire() as connection:
            await store.purge(connection)
        kept = await query(database,
                           "SELECT stream, count(*) AS n FROM parlance_events GROUP BY stream ORDER BY stream")
        assert [(row["stream"], row["n"]) for row in kept] == [("t", 1), ("u", 1)]  # the streams most recently written


async def test_without_a_database_events_are_not_stored_and_nothing_is_replayed() -> None:
    view = SharedEventStore(lambda: None).for_session()
    event_id = await view.store_event("s", _progress(1))
    assert event_id.endswith("/s/-")
    assert await _replay(view, event_id) == (None, [])
