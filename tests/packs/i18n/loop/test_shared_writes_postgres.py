"""The i18n pack's writes on the shared engine (`[state] url`, a real PostgreSQL): `i18n_history` is
listed and reads the write log (who, what, which files with their hashes, never a message's text);
and with two `parlance serve --transport http` replicas on one checkout and one database, a write
through one is rendered by `i18n_translate` through the other within a second, announced to the
other's subscribers, and a retry through the other is answered the first outcome without writing.

These need the PostgreSQL engine (`parlance._state.postgres`); without PostgreSQL installed the
`postgres_url` fixture skips them (fails under CI).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
import warnings
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPDeprecationWarning
from mcp.types import ResourceUpdatedNotification

import parlance_i18n.pack
from parlance.testing import connect
from tests.postgres import fresh_database
from tests.support import parlance_http, write_tree

pytestmark = pytest.mark.anyio

EN = '{\n  "cart.title": "Cart",\n  "cart.empty": "Your cart is empty",\n  "old.key": "Old"\n}\n'
DE = '{\n  "cart.title": "Einkaufswagen",\n  "old.key": "Alt"\n}\n'
TEXT = "Dein Warenkorb ist leer"


@pytest.fixture
def database(postgres_url: str) -> str:
    """A clean database of its own (made outside the test's event loop: `fresh_database` runs one)."""
    return fresh_database(postgres_url)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[no-any-return]


async def test_the_write_log_is_listed_with_a_shared_engine_and_names_who_wrote_what(
        database: str, tmp_path: Path) -> None:
    root = write_tree(tmp_path / "shop", {"locales/en.json": EN, "locales/de.json": DE})
    settings = {"source_locale": "en", "write": True, "project_root": str(root),
                "lock_file": str(root / "parlance-i18n.lock"),
                "catalogs": [{"path": str(root / "locales/{locale}.json"), "name": "app"}]}
    config = {"state": {"url": database}, "packs": {"i18n": settings}}
    set_call = {"locale": "de", "messages": {"cart.empty": TEXT}, "idempotency_key": "set-1"}
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        first = await _call(client, "i18n_set_messages", set_call)
        after_set = (root / "locales/de.json").read_bytes()
        assert await _call(client, "i18n_set_messages", set_call) == first  # a retry: no second row
        await _call(client, "i18n_delete_keys", {"keys": ["old.key"]})
        page = await _call(client, "i18n_history", {})
        by_key = await _call(client, "i18n_history", {"key": "cart.empty"})
        one = await _call(client, "i18n_history", {"limit": 1})
        two = await _call(client, "i18n_history", {"limit": 1, "cursor": one["next_cursor"]})
    assert tools["i18n_history"].annotations.read_only_hint is True  # type: ignore[union-attr]
    deleted, written = page["records"]  # newest first
    assert page["next_cursor"] is None and by_key["records"] == [written]
    assert [one["records"], two["records"], two["next_cursor"]] == [[deleted], [written], None]
    assert (written["tool"], written["catalog"], written["locale"], written["keys"]) == (
        "i18n_set_messages", "app", "de", ["cart.empty"])
    assert (written["written"], written["refused"], written["subject"], written["client_id"]) == (1, 0, None, None)
    assert {f["path"]: (f["before"], f["after"]) for f in written["files"]} == {
        "locales/de.json": (_sha(DE.encode()), _sha(after_set)),
        "parlance-i18n.lock": (None, _sha((root / "parlance-i18n.lock").read_bytes()))}
    assert (deleted["tool"], deleted["locale"], deleted["keys"], deleted["written"]) == (
        "i18n_delete_keys", None, ["old.key"], 2)
    assert {f["path"]: f["before"] for f in deleted["files"]} == {"locales/de.json": _sha(after_set),
                                                                   "locales/en.json": _sha(EN.encode())}
    at = dt.datetime.fromisoformat(written["at"])
    assert at.utcoffset() == dt.timedelta(0) and abs(dt.datetime.now(dt.timezone.utc) - at) < dt.timedelta(minutes=5)
    assert TEXT not in json.dumps(page)  # never a message's text


async def test_a_call_that_changed_no_file_has_its_row_too(database: str, tmp_path: Path) -> None:
    """A replica killed after writing a file, before its row was committed: the client's retry (same key, the
    first claim rolled back) finds the value there already. The call was applied; its row must say so."""
    root = write_tree(tmp_path / "shop", {"locales/en.json": EN, "locales/de.json": DE})
    settings = {"source_locale": "en", "write": True, "project_root": str(root),
                "catalogs": [{"path": str(root / "locales/{locale}.json"), "name": "app"}]}
    config = {"state": {"url": database}, "packs": {"i18n": settings}}
    already = {"locale": "de", "messages": {"cart.title": "Einkaufswagen"}, "idempotency_key": "retry-after-crash"}
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        answered = await _call(client, "i18n_set_messages", already)
        page = await _call(client, "i18n_history", {})
    assert (answered["written"], answered["unchanged"]) == (0, 1)
    assert [(r["keys"], r["written"], r["files"]) for r in page["records"]] == [(["cart.title"], 0, [])]
    assert (root / "locales/de.json").read_text(encoding="utf-8") == DE


def _replica_config(root: Path, database: str) -> Path:
    (root / "parlance.toml").write_text(
        f'[state]\nurl = "{database}"\n\n[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n'
        'write = true\n\n[[packs.i18n.catalogs]]\npath = "locales/{locale}.json"\nname = "app"\n\n'
        "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    return root / "parlance.toml"


async def test_a_write_through_one_replica_is_rendered_and_announced_by_another(
        database: str, tmp_path: Path) -> None:
    root = write_tree(tmp_path / "shop", {"locales/en.json": EN, "locales/de.json": DE})
    config = _replica_config(root, database)
    seen: list[Any] = []

    async def on_message(message: Any) -> None:
        seen.append(message)

    translate = {"key": "cart.empty", "locale": "de"}
    set_call = {"locale": "de", "messages": {"cart.empty": TEXT}, "idempotency_key": "set-across"}
    with parlance_http(config) as one, parlance_http(config) as other:
        with anyio.fail_after(60):
            async with Client(f"{one}/mcp", mode="legacy") as writer, \
                    Client(f"{other}/mcp", mode="legacy", message_handler=on_message) as reader:
                before = await _call(reader, "i18n_translate", translate)  # the other replica has read de
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await reader.subscribe_resource("i18n://bundles/de")
                first = await _call(writer, "i18n_set_messages", set_call)
                written_at = time.monotonic()
                while (now := await _call(reader, "i18n_translate", translate))["translation"] != TEXT:
                    assert time.monotonic() - written_at < 1.0, "the other replica still renders the old text"
                    await anyio.sleep(0.02)
                rendered_after = time.monotonic() - written_at
                while not any(isinstance(m, ResourceUpdatedNotification) for m in seen):
                    assert time.monotonic() - written_at < 5.0, "the other replica's subscriber heard nothing"
                    await anyio.sleep(0.02)
                on_disk = (root / "locales/de.json").read_bytes()
                retried = await _call(reader, "i18n_set_messages", set_call)  # the proxy retried elsewhere
                history = await _call(reader, "i18n_history", {})
    assert before == {"translation": "Your cart is empty", "locale": "en", "fallback": True}
    assert now == {"translation": TEXT, "locale": "de", "fallback": False} and rendered_after < 1.0
    assert [str(m.params.uri) for m in seen if isinstance(m, ResourceUpdatedNotification)] == ["i18n://bundles/de"]
    assert retried == first and (root / "locales/de.json").read_bytes() == on_disk
    assert [record["tool"] for record in history["records"]] == ["i18n_set_messages"]  # one row, not two
