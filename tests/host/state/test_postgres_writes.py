"""A write on the shared engine (`parlance._state.write_log`): idempotency claims, locks across replicas,
the write log and its history, against a real PostgreSQL."""

from __future__ import annotations

import json

import anyio
import pytest

from parlance._state.engine import fingerprint
from parlance._state.postgres import WRITES_MAX
from parlance.errors import ToolError
from parlance.types import Principal
from parlance.writes import FileChange
from tests.host.state import query, running

pytestmark = pytest.mark.anyio

ALICE = Principal("alice", "claude-code", ("parlance:write",))
BOB = Principal("bob", "cursor", ("parlance:write",))


def _write(engine, key: str | None = None, arguments: dict | None = None, principal: Principal | None = ALICE,
           tool: str = "i18n_set_messages"):
    return engine.write(pack="i18n", tool=tool, principal=principal, idempotency_key=key,
                        fingerprint=fingerprint(arguments or {"n": 1}))


async def _apply(engine, key: str | None = None, arguments: dict | None = None, *, outcome: dict | None = None,
                 principal: Principal | None = ALICE, catalog: str = "fr.json", locale: str = "fr",
                 keys: tuple[str, ...] = ("a",)):
    """One write as a pack makes it; the `earlier` it found."""
    async with _write(engine, key, arguments, principal) as write:
        if write.earlier is not None:
            return write.earlier
        await write.lock([catalog])
        write.log(files=[FileChange(catalog, "0" * 64, "1" * 64)], written=len(keys), refused=0, catalog=catalog,
                  locale=locale, keys=keys, resources=[f"i18n://catalogs/{locale}"])
        write.answer(outcome or {"written": len(keys)})
    return None


async def _rows(url: str) -> list:
    return await query(url, "SELECT * FROM parlance_write_log ORDER BY id")


async def test_a_retry_gets_the_first_outcome_and_logs_nothing(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        assert await _apply(a, "k1", outcome={"written": 1, "ok": True}) is None
        assert await _apply(a, "k1", outcome={"written": 99}) == {"written": 1, "ok": True}
        assert await _apply(b, "k1", outcome={"written": 99}) == {"written": 1, "ok": True}  # on any replica
        assert await _apply(a, "k1", principal=BOB) is None  # a key is its subject's own
        assert len(await _rows(database)) == 2


async def test_a_key_used_with_other_arguments_is_refused(database: str) -> None:
    async with running(database) as engine:
        await _apply(engine, "k1", {"keys": ["a"]})
        with pytest.raises(ToolError) as refused:
            await _apply(engine, "k1", {"keys": ["b"]})
        assert refused.value.code == "IDEMPOTENCY_KEY_REUSED"
        assert "new key" in refused.value.message
        # the key itself is not one of the arguments compared
        assert await _apply(engine, "k1", {"keys": ["a"], "idempotency_key": "k1"}) is not None
        assert len(await _rows(database)) == 1


async def test_a_concurrent_claim_waits_for_the_first_and_then_gets_its_outcome(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        first_inside, finish_first = anyio.Event(), anyio.Event()
        second: dict = {}

        async def first() -> None:
            async with _write(a, "k") as write:
                first_inside.set()
                await finish_first.wait()
                write.log(files=[FileChange("fr.json", None, "1" * 64)], written=1)
                write.answer({"from": "first"})

        async def retry() -> None:
            async with _write(b, "k") as write:
                second["earlier"] = write.earlier

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(first)
            await first_inside.wait()
            tasks.start_soon(retry)
            await anyio.sleep(0.4)
            assert second == {}  # waiting on the claim
            finish_first.set()
        assert second == {"earlier": {"from": "first"}}
        assert len(await _rows(database)) == 1


async def test_a_raising_block_logs_nothing_and_releases_the_key(database: str) -> None:
    async with running(database) as engine:
        with pytest.raises(ToolError, match="PACK_ERROR"):
            async with _write(engine, "k") as write:
                await write.lock(["fr.json"])
                write.log(files=[], written=1)
                write.answer({"never": True})
                raise ToolError("PACK_ERROR", "the pack refused")
        assert await _rows(database) == []
        assert await query(database, "SELECT * FROM parlance_idempotency") == []
        assert await _apply(engine, "k") is None  # the retry runs
        async with _write(engine, "k2") as write:  # a block that answers nothing keeps no claim either
            write.log(files=[], written=0)
        assert await _apply(engine, "k2") is None
        assert len(await _rows(database)) == 3


async def test_a_claim_older_than_a_day_is_taken_over_and_upkeep_deletes_it(database: str) -> None:
    async with running(database) as engine:
        await _apply(engine, "old", {"v": 1})
        await _apply(engine, "purged", {"v": 1})
        await query(database, "UPDATE parlance_idempotency SET at = now() - interval '25 hours'")
        assert await _apply(engine, "old", {"v": 2}) is None  # forgotten: new arguments are a new call
        await engine.upkeep()
        kept = await query(database, "SELECT fingerprint FROM parlance_idempotency")
        assert [row["fingerprint"] for row in kept] == [fingerprint({"v": 2})]


async def test_locks_serialize_replicas_on_one_name_and_not_on_others(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        holding, release = anyio.Event(), anyio.Event()
        order: list[str] = []

        async def hold() -> None:
            async with _write(a) as write:
                await write.lock(["catalogs/fr.json", "catalogs/de.json"])
                holding.set()
                await release.wait()
                order.append("a done")

        async def take(name: str) -> None:
            async with _write(b) as write:
                await write.lock([name])
                order.append(f"b has {name}")

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(hold)
            await holding.wait()
            with anyio.fail_after(2):
                await take("catalogs/es.json")  # another name: no wait
            tasks.start_soon(take, "catalogs/fr.json")
            await anyio.sleep(0.4)
            assert order == ["b has catalogs/es.json"]
            release.set()
        assert order == ["b has catalogs/es.json", "a done", "b has catalogs/fr.json"]
        async with _write(a) as write:
            await write.lock(["x"])
            with pytest.raises(RuntimeError, match="once per write"):
                await write.lock(["y"])


async def test_one_log_row_per_applied_write_with_who_and_what(database: str) -> None:
    async with running(database, "replica-1") as engine:
        await _apply(engine, "k", keys=("greeting", "farewell"))
        await _apply(engine, "k", keys=("greeting", "farewell"))  # a retry: no second row
        await _apply(engine, None, principal=None, catalog="de.json", locale="de")
        async with _write(engine) as write:  # logged nothing: no row
            await write.lock(["fr.json"])
        first, second = await _rows(database)
    assert (first["subject"], first["client_id"], first["pack"], first["tool"], first["catalog"], first["locale"]) == (
        "alice", "claude-code", "i18n", "i18n_set_messages", "fr.json", "fr")
    assert (first["keys"], first["written"], first["refused"], first["idempotency_key"], first["replica"]) == (
        ["greeting", "farewell"], 2, 0, True, "replica-1")
    assert json.loads(first["files"]) == [{"path": "fr.json", "before": "0" * 64, "after": "1" * 64}]
    assert first["resources"] == ["i18n://catalogs/fr"]
    assert (second["subject"], second["client_id"], second["idempotency_key"], second["catalog"]) == (
        None, None, False, "de.json")


async def test_history_filters_and_pages_newest_first(database: str) -> None:
    async with running(database) as engine:
        for n in range(5):
            await _apply(engine, None, {"n": n}, catalog="fr.json", locale="fr", keys=(f"k{n}", "common"))
        await _apply(engine, None, catalog="de.json", locale="de", keys=("k0",))
        async with engine.write(pack="other", tool="t", principal=None, idempotency_key=None, fingerprint="x") as w:
            w.log(files=[], written=1, keys=["k0"])

        everything = await engine.history(pack="i18n")
        assert len(everything.records) == 6 and everything.next_cursor is None
        assert [r.id for r in everything.records] == sorted((r.id for r in everything.records), reverse=True)
        newest = everything.records[0]
        assert (newest.catalog, newest.subject, newest.files[0].path, newest.replayed_key) == (
            "de.json", "alice", "de.json", False)
        assert [r.keys for r in (await engine.history(pack="i18n", key="k0")).records] == [("k0",), ("k0", "common")]
        assert {r.locale for r in (await engine.history(pack="i18n", locale="fr")).records} == {"fr"}
        assert len((await engine.history(pack="i18n", catalog="de.json")).records) == 1

        pages, cursor = [], None
        while True:
            page = await engine.history(pack="i18n", key="common", limit=2, cursor=cursor)
            pages.append([r.keys[0] for r in page.records])
            cursor = page.next_cursor
            if cursor is None:
                break
        assert pages == [["k4", "k3"], ["k2", "k1"], ["k0"]]
        for bad in ("not a cursor", "MTIz", ""):
            with pytest.raises(ToolError) as refused:
                await engine.history(pack="i18n", cursor=bad)
            assert refused.value.code == "INVALID_CURSOR"


async def test_a_cancelled_write_rolls_back_and_lets_go_of_its_lock_and_key(database: str) -> None:
    async with running(database, "a") as a, running(database, "b") as b:
        with anyio.move_on_after(0.3):  # the client gave up mid-write
            async with _write(a, "k") as write:
                await write.lock(["fr.json"])
                write.log(files=[], written=1)
                write.answer({"never": True})
                await anyio.sleep(30)
        with anyio.fail_after(2):
            assert await _apply(b, "k") is None
        assert len(await _rows(database)) == 1

        # a's connection went back to its pool: every write slot can hold a write at once
        inside, all_in = 0, anyio.Event()

        async def hold(n: int) -> None:
            nonlocal inside
            async with _write(a) as write:
                await write.lock([f"file-{n}"])
                inside += 1
                if inside == WRITES_MAX:
                    all_in.set()
                await all_in.wait()

        with anyio.fail_after(5):
            async with anyio.create_task_group() as tasks:
                for n in range(WRITES_MAX):
                    tasks.start_soon(hold, n)
