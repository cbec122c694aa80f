"""The shared engine's limits (`parlance._state.postgres`, `write_log`): writes queued behind a busy file
never make the replica look down, and every wait — for a write slot, an idempotency claim, a file's
lock, a transaction left idle — ends, with an answer that says what to do."""

from __future__ import annotations

import logging

import anyio
import pytest

from parlance._state import postgres, write_log
from parlance._state.postgres import POOL_MAX
from parlance.errors import ToolError
from parlance.writes import FileChange
from tests.host.state import query, running

pytestmark = pytest.mark.anyio


def _write(engine, key: str | None = None):
    return engine.write(pack="i18n", tool="i18n_set_messages", principal=None, idempotency_key=key,
                        fingerprint="f")


async def _apply(engine, key: str | None = None, catalog: str = "fr.json") -> None:
    async with _write(engine, key) as write:
        await write.lock([catalog])
        write.log(files=[FileChange(catalog, None, "1" * 64)], written=1)
        write.answer({"ok": True})


async def test_writes_queued_behind_a_busy_file_keep_the_replica_ready(
        database: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    for name, value in (("RETRY_S", 0.1), ("WATCH_PING_S", 0.2), ("UPKEEP_S", 0.3), ("CONNECT_S", 0.5)):
        monkeypatch.setattr(postgres, name, value)  # the engine's checks and upkeep many times a second
    async with running(database, "a") as engine:
        await query(database, "INSERT INTO parlance_idempotency (subject, pack, tool, key_sha256, fingerprint, at) "
                              "VALUES ('', 'i18n', 't', 'old', 'f', now() - interval '25 hours')")
        holding, release = anyio.Event(), anyio.Event()
        applied: list[int] = []

        async def hold() -> None:
            async with _write(engine) as write:
                await write.lock(["fr.json"])
                holding.set()
                await release.wait()

        async def queued(n: int) -> None:
            await _apply(engine, f"k{n}")
            applied.append(n)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(hold)
            await holding.wait()
            for n in range(POOL_MAX + 2):  # more writes than the pool has connections, all waiting for one file
                tasks.start_soon(queued, n)
            for _ in range(15):
                await anyio.sleep(0.1)
                assert await engine.ready()
            with anyio.fail_after(2):  # reads and events still get a connection
                await engine.history(pack="i18n")
                assert not (await engine.event_store().for_session().store_event("s", None)).endswith("-")
            assert await query(database, "SELECT * FROM parlance_idempotency WHERE key_sha256 = 'old'") == []  # upkept
            release.set()
        assert sorted(applied) == list(range(POOL_MAX + 2))
    logged = {record.getMessage() for record in caplog.records}
    assert not logged & {"state.database_unreachable", "state.upkeep_failed"}


async def test_every_wait_of_a_write_ends_as_write_busy_and_keeps_no_claim(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(write_log, "LOCK_WAIT_S", 0.3)
    monkeypatch.setattr(postgres, "WRITES_MAX", 2)
    async with running(database) as engine:
        holding, release = anyio.Event(), anyio.Event()

        async def hold(key: str, catalog: str) -> None:
            async with _write(engine, key) as write:
                await write.lock([catalog])
                holding.set()
                await release.wait()

        async def busy(key: str, catalog: str) -> str:
            started = anyio.current_time()
            with pytest.raises(ToolError) as refused:
                await _apply(engine, key, catalog)
            assert anyio.current_time() - started < 2.0
            assert refused.value.code == "WRITE_BUSY"
            assert "more than 0.3 s" in refused.value.message and "same idempotency_key" in refused.value.message
            return refused.value.message

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(hold, "held", "fr.json")
            await holding.wait()
            assert "writing one of these files" in await busy("k", "fr.json")
            assert "with this idempotency_key" in await busy("held", "de.json")  # the first call holds the claim
            holding = anyio.Event()
            tasks.start_soon(hold, "other", "es.json")  # both write slots taken now
            await holding.wait()
            assert "write slots" in await busy("k", "it.json")
            release.set()
        with anyio.fail_after(2):
            await _apply(engine, "k")  # the retry runs, as the first call let go of its claim
        rows = await query(database, "SELECT catalog FROM parlance_write_log")
        assert [row["catalog"] for row in rows] == [None]
        claims = await query(database, "SELECT outcome FROM parlance_idempotency")
        assert [row["outcome"] for row in claims] == ['{"ok": true}']


async def test_a_transaction_left_idle_too_long_is_ended_by_the_server(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres, "IDLE_IN_TRANSACTION_S", 0.3)
    async with running(database) as engine:
        with pytest.raises(ToolError) as refused:
            async with _write(engine, "k") as write:
                await write.lock(["fr.json"])
                await anyio.sleep(1.0)  # a pack stuck between its lock and its end
                write.log(files=[FileChange("fr.json", None, "1" * 64)], written=1)
        assert refused.value.code == "SHARED_STATE_UNAVAILABLE" and "read the files back" in refused.value.message
        await _apply(engine, "k")  # the lock and the claim went with the session; the pool opens another
        assert len(await query(database, "SELECT * FROM parlance_write_log")) == 1
