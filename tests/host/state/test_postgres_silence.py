"""A shared database that stops answering — silence, not refusal: a network partition, a stopped machine —
through a proxy that stops forwarding (`tests.host.state.Proxy`). Streams go on without a wait per event,
probes are answered within a second, and the replica recovers by itself once the database answers."""

from __future__ import annotations

import anyio
import pytest
from mcp.types import JSONRPCNotification

from parlance._state import events, postgres
from parlance.errors import ToolError
from tests.host.state import eventually, proxy_to, running

pytestmark = pytest.mark.anyio


def _progress(n: int) -> JSONRPCNotification:
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/progress",
                               params={"progressToken": "t", "progress": n})


async def test_a_silent_database_holds_up_no_stream_and_no_probe(database: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("RETRY_S", 0.1), ("WATCH_PING_S", 0.2), ("CONNECT_S", 3.0)):
        monkeypatch.setattr(postgres, name, value)
    monkeypatch.setattr(events, "QUIET_S", 0.5)
    async with proxy_to(database) as proxy, running(proxy.url(database)) as engine:
        view = engine.event_store().for_session()
        assert not (await view.store_event("s", _progress(0))).endswith("-")
        proxy.frozen = True

        started = anyio.current_time()
        stored = [await view.store_event("s", _progress(n)) for n in range(1, 11)]
        assert all(event_id.endswith("/s/-") for event_id in stored)
        assert anyio.current_time() - started < 2.0  # one short wait, then none: not seconds per event

        longest, deadline = 0.0, anyio.current_time() + 4.0  # past the engine's own ping (CONNECT_S) giving up
        while anyio.current_time() < deadline:
            asked = anyio.current_time()
            await engine.ready()
            longest = max(longest, anyio.current_time() - asked)
            await anyio.sleep(0.05)
        assert longest < 1.8  # PING_S and some scheduling: not CONNECT_S
        assert not await engine.ready()
        with anyio.fail_after(0.5):  # the engine knows: a write is refused at once, an event not even tried
            with pytest.raises(ToolError, match="SHARED_STATE_UNAVAILABLE"):
                async with engine.write(pack="i18n", tool="t", principal=None, idempotency_key=None,
                                        fingerprint="f"):
                    pass
            assert (await view.store_event("s", _progress(11))).endswith("-")

        proxy.frozen = False
        await eventually(engine.ready, within=8.0, what="the engine reconnecting")
        fresh = engine.event_store().for_session()
        await eventually(lambda: _stored(fresh), within=2.0, what="events stored again")


async def _stored(view) -> bool:
    return not (await view.store_event("t", None)).endswith("-")
