"""Change propagation between replicas (`parlance._state.postgres`): NOTIFY on commit, the other replicas'
listeners, and the catch-up of what a replica missed while its LISTEN connection was down."""

from __future__ import annotations

import json

import anyio
import pytest

from parlance._state import postgres
from parlance._state.postgres import PostgresState
from parlance.writes import FileChange, SharedWrite
from tests.host.state import eventually, proxy_to, query, running

pytestmark = pytest.mark.anyio


class Heard:
    def __init__(self) -> None:
        self.changes: list[SharedWrite] = []

    async def __call__(self, change: SharedWrite) -> None:
        self.changes.append(change)


async def _apply(engine, catalog: str, *, fail: bool = False) -> None:
    async with engine.write(pack="i18n", tool="i18n_set_messages", principal=None, idempotency_key=None,
                            fingerprint="f") as write:
        await write.lock([catalog])
        write.log(files=[FileChange(catalog, None, "1" * 64)], written=1, resources=[f"i18n://{catalog}"])
        if fail:
            raise RuntimeError("the pack failed")


async def test_a_write_reaches_the_other_replica_within_a_second_and_not_its_own(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        heard_a, heard_b = Heard(), Heard()
        a.listen(heard_a)
        b.listen(heard_b)
        started = anyio.current_time()
        await _apply(a, "fr.json")
        await eventually(lambda: _true(heard_b.changes), within=1.0, what="b hearing a's write")
        assert anyio.current_time() - started < 1.0
        assert heard_b.changes == [SharedWrite("i18n", "i18n_set_messages", files=("fr.json",),
                                               resources=("i18n://fr.json",))]
        with pytest.raises(RuntimeError):
            await _apply(a, "de.json", fail=True)  # rolled back: nothing to hear
        await _apply(b, "es.json")
        await eventually(lambda: _true(heard_a.changes), within=1.0, what="a hearing b's write")
        await anyio.sleep(0.2)
        assert [c.files for c in heard_a.changes] == [("es.json",)]
        assert [c.files for c in heard_b.changes] == [("fr.json",)]


async def test_a_failing_listener_does_not_stop_the_next_change(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        heard: list[tuple[str, ...]] = []

        async def fragile(change: SharedWrite) -> None:
            heard.append(change.files)
            raise ValueError("the pack's reload failed")

        b.listen(fragile)
        await _apply(a, "fr.json")
        await _apply(a, "de.json")
        await eventually(lambda: _true(len(heard) == 2), within=2.0, what="b hearing both writes")


async def test_writes_missed_while_the_listen_connection_was_down_are_caught_up_once(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        heard = Heard()
        b.listen(heard)
        await _apply(a, "before.json")
        await eventually(lambda: _true(heard.changes), within=1.0, what="b hearing the first write")
        await _kill_listen(database, "b")
        await _apply(a, "missed.json")  # nobody listens for b now
        await eventually(lambda: _true(len(heard.changes) == 2), within=5.0, what="b catching up")
        await eventually(b.ready, within=5.0, what="b ready again")
        await _apply(a, "after.json")
        await eventually(lambda: _true(len(heard.changes) == 3), within=1.0, what="b hearing again")
        await anyio.sleep(0.2)
        assert [c.files for c in heard.changes] == [("before.json",), ("missed.json",), ("after.json",)]


_ROW = ("INSERT INTO parlance_write_log (pack, tool, files, written, refused, idempotency_key, replica) "
        "VALUES ('i18n', 'i18n_set_messages', jsonb_build_array(jsonb_build_object('path', $1::text)), 1, 0, false, "
        "'z') RETURNING id")
"""A row of another replica's write, as `write_log` makes it."""


async def _kill_listen(database: str, replica: str) -> None:
    killed = await query(database, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE application_name = $1", f"parlance-listen {replica}")
    assert [row[0] for row in killed] == [True]


async def test_a_row_that_could_not_be_read_is_read_again(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncpg

    monkeypatch.setattr(postgres, "RETRY_S", 0.1)
    async with running(database, "b") as b:
        heard = Heard()
        b.listen(heard)
        connection = await asyncpg.connect(database)
        try:
            async with connection.transaction():  # the table is gone as the notification arrives: reading fails
                log_id = await connection.fetchval(_ROW, "fr.json")
                await connection.execute("SELECT pg_notify('parlance_writes', $1)",
                                         json.dumps({"replica": "z", "id": log_id}))
                await connection.execute("ALTER TABLE parlance_write_log RENAME TO parlance_write_log_away")
            await anyio.sleep(0.5)
            assert heard.changes == []
            await connection.execute("ALTER TABLE parlance_write_log_away RENAME TO parlance_write_log")
        finally:
            await connection.close()
        await eventually(lambda: _true(heard.changes), within=2.0, what="b reading the row again")
        await anyio.sleep(0.3)
        assert [c.files for c in heard.changes] == [("fr.json",)]


async def test_a_catch_up_reads_every_page(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres, "RETRY_S", 0.1)
    monkeypatch.setattr(postgres, "CATCH_UP_PAGE", 50)
    async with running(database, "b") as b:
        heard = Heard()
        b.listen(heard)
        for n in range(120):  # no NOTIFY: only a catch-up finds them
            await query(database, _ROW, f"f{n}.json")
        await _kill_listen(database, "b")
        await eventually(lambda: _true(len(heard.changes) == 120), within=5.0, what="b catching up 120 rows")
        assert [c.files for c in heard.changes] == [(f"f{n}.json",) for n in range(120)]


async def test_a_replica_that_started_without_the_database_catches_up_what_was_written_since(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres, "RETRY_S", 0.1)
    async with running(database, "a") as a, proxy_to(database) as proxy:
        await _apply(a, "before.json")
        await query(database, "UPDATE parlance_write_log SET at = now() - interval '1 hour'")  # before b started
        proxy.refusing = True
        late, heard = PostgresState(proxy.url(database), replica="b"), Heard()
        late.listen(heard)
        async with late.running():
            assert not await late.ready()
            await _apply(a, "since.json")  # b's packs read the files before this; b hears nothing
            proxy.refusing = False
            await eventually(late.ready, within=5.0, what="b connecting")
            await eventually(lambda: _true(heard.changes), within=1.0, what="b catching up")
            await anyio.sleep(0.2)
            assert [c.files for c in heard.changes] == [("since.json",)]


async def _true(value: object) -> bool:
    return bool(value)
