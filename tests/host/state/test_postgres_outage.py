"""The shared database stopping and coming back (`parlance._state.postgres`): replicas serve degraded —
not ready, writes refused with a sentence that holds no secret — and recover by themselves. Runs a
PostgreSQL of its own, as it stops it."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import anyio
import pytest

from parlance._state.postgres import PostgresState
from parlance.errors import ToolError
from parlance.writes import FileChange
from tests.host.state import eventually, running
from tests.postgres import PostgresServer, own_postgres, postgres_available

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    if not postgres_available():
        pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
    with own_postgres("parlance-pg-outage-") as server:
        yield server


async def _apply(engine: PostgresState, catalog: str) -> None:
    async with engine.write(pack="i18n", tool="i18n_set_messages", principal=None, idempotency_key="k-" + catalog,
                            fingerprint="f") as write:
        await write.lock([catalog])
        write.log(files=[FileChange(catalog, None, "1" * 64)], written=1)
        write.answer({"ok": True})


async def _refused(engine: PostgresState, catalog: str) -> ToolError:
    with pytest.raises(ToolError) as refused:
        await _apply(engine, catalog)
    return refused.value


async def test_a_stopped_database_refuses_writes_until_it_comes_back(server: PostgresServer,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    secret = "s3cret-password"
    url = server.url.replace(f"{server.user}@", f"{server.user}:{secret}@")  # trust: the password is not checked
    async with running(url, "a") as engine:
        await _apply(engine, "fr.json")
        server.stop()
        await eventually(lambda: _not(engine.ready()), within=3.0, what="ready() turning False")
        refused = await _refused(engine, "de.json")
        assert refused.code == "SHARED_STATE_UNAVAILABLE"
        assert "[state] url" in refused.message and "reads keep working" in refused.message
        with pytest.raises(ToolError, match="SHARED_STATE_UNAVAILABLE"):
            await engine.history(pack="i18n")

        # A replica that starts while the database is down starts all the same, degraded.
        late = PostgresState(url, replica="late")
        async with late.running():
            assert not await late.ready()
            assert (await _refused(late, "es.json")).code == "SHARED_STATE_UNAVAILABLE"
            sealed = late.request_state_codec().seal(b"asked before the ring loaded")
            server.start()
            await eventually(late.ready, within=5.0, what="the late replica connecting")
            await eventually(engine.ready, within=5.0, what="the first replica reconnecting")
            await _apply(late, "es.json")
            await _apply(engine, "de.json")
            assert late.request_state_codec().unseal(sealed) == b"asked before the ring loaded"  # on this replica
        assert len((await engine.history(pack="i18n")).records) == 3
    logged = caplog.text + "".join(str(vars(record)) for record in caplog.records)
    assert secret not in logged
    assert {"state.database_unreachable", "state.database_back"} <= {r.getMessage() for r in caplog.records}


async def _not(check) -> bool:
    return not await check


async def test_running_exits_cleanly_while_the_database_is_down(server: PostgresServer) -> None:
    engine = PostgresState(server.url)
    server.stop()
    with anyio.fail_after(10):
        async with engine.running():
            assert not await engine.ready()
    server.start()
