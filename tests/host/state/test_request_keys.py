"""The shared `requestState` key ring (`parlance._state.request_keys`): sealed on one replica, opened on
another; rotated daily, the old key opening for an hour more."""

from __future__ import annotations

import pytest
from mcp.server.request_state import InvalidRequestState

from parlance._state.postgres import PostgresState
from tests.host.state import eventually, query, running

pytestmark = pytest.mark.anyio


async def test_a_state_sealed_on_one_replica_opens_on_another(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        token = a.request_state_codec().seal(b"the question's state")
        assert b.request_state_codec().unseal(token) == b"the question's state"
        with pytest.raises(InvalidRequestState):
            b.request_state_codec().unseal(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"))
        assert len(await query(database, "SELECT * FROM parlance_request_keys")) == 1  # two replicas, one key


async def test_keys_rotate_after_a_day_and_open_for_an_hour_more(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        old = a.request_state_codec().seal(b"sealed with the first key")
        await query(database, "UPDATE parlance_request_keys SET created_at = now() - interval '24 hours 1 minute'")
        await a.upkeep()  # a day old: a adds a key, and tells b
        assert len(await query(database, "SELECT * FROM parlance_request_keys")) == 2
        new = a.request_state_codec().seal(b"sealed with the second key")

        async def b_opens_new() -> bool:
            try:
                return b.request_state_codec().unseal(new) == b"sealed with the second key"
            except InvalidRequestState:
                return False

        await eventually(b_opens_new, within=2.0, what="b loading the new key (NOTIFY)")
        assert b.request_state_codec().unseal(old) == b"sealed with the first key"  # within the hour
        assert a.request_state_codec().unseal(b.request_state_codec().seal(b"x")) == b"x"  # b seals with the new one

        await query(database, "UPDATE parlance_request_keys SET created_at = now() - interval '25 hours 1 minute' "
                              "WHERE id = (SELECT min(id) FROM parlance_request_keys)")
        await b.upkeep()
        await a.upkeep()
        assert len(await query(database, "SELECT * FROM parlance_request_keys")) == 1
        for engine in (a, b):
            with pytest.raises(InvalidRequestState):
                engine.request_state_codec().unseal(old)
            assert engine.request_state_codec().unseal(new) == b"sealed with the second key"


async def test_before_the_ring_loads_a_state_opens_on_its_own_replica_only(database: str) -> None:
    unstarted = PostgresState(database)
    token = unstarted.request_state_codec().seal(b"local")
    assert not unstarted.request_state_codec().loaded
    assert unstarted.request_state_codec().unseal(token) == b"local"
    async with running(database, "other") as other:
        with pytest.raises(InvalidRequestState):
            other.request_state_codec().unseal(token)
