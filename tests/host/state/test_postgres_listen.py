"""Change propagation between replicas (`parlance._state.postgres`): NOTIFY on commit, the other replicas'
listeners, and the catch-up of what a replica missed while its LISTEN connection was down."""

from __future__ import annotations

import anyio
import pytest

from parlance.writes import FileChange, SharedWrite
from tests.host.state import eventually, query, running

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
        killed = await query(database, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE application_name = 'parlance-listen b'")
        assert [row[0] for row in killed] == [True]
        await _apply(a, "missed.json")  # nobody listens for b now
        await eventually(lambda: _true(len(heard.changes) == 2), within=5.0, what="b catching up")
        await eventually(b.ready, within=5.0, what="b ready again")
        await _apply(a, "after.json")
        await eventually(lambda: _true(len(heard.changes) == 3), within=1.0, what="b hearing again")
        await anyio.sleep(0.2)
        assert [c.files for c in heard.changes] == [("before.json",), ("missed.json",), ("after.json",)]


async def _true(value: object) -> bool:
    return bool(value)
