"""The pack behind `parlance serve` in a real subprocess, over stdio, in both protocol eras."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params

pytestmark = pytest.mark.anyio


@pytest.fixture
def server_config(tmp_path: Path) -> Path:
    bundles = tmp_path / "bundles"
    bundles.mkdir()
    (bundles / "en.json").write_text(json.dumps({"cart": {"items": "{count, plural, one {# item} other {# items}}"}}))
    (bundles / "ru.po").write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
        '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        '#, python-format\nmsgid "cart.items"\nmsgid_plural "cart.items"\nmsgstr[0] "%(count)d товар"\n'
        'msgstr[1] "%(count)d товара"\nmsgstr[2] "%(count)d товаров"\n',
        encoding="utf-8",
    )
    (bundles / "broken.json").write_text("{")
    config = tmp_path / "parlance.toml"
    config.write_text(f'[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nbundle_dirs = [{json.dumps(str(bundles))}]\n'
                      'fallbacks = {"uk" = ["ru"]}\n'
                      '[language_packs]\npaths = []\nautoload = false\n')  # only these bundles, not the shipped packs
    return config


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_end_to_end(mode: str, server_config: Path, tmp_path: Path) -> None:
    transport_errors: list[Exception] = []
    progress: list[float] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):  # anything but JSON-RPC on the server's stdout
            transport_errors.append(message)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    errlog_path = tmp_path / "stderr.log"
    with anyio.fail_after(40), open(errlog_path, "w+") as errlog:
        params = stdio_server_params(server_config, cwd=tmp_path)
        async with Client(stdio_client(params, errlog=errlog), mode=mode, message_handler=on_message) as client:
            ru = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "ru_RU", "variables": {"count": 22}})
            uk = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "uk", "variables": {"count": 5}})
            en = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "ja", "variables": {"count": 1}})
            bad = await client.call_tool("i18n_add_messages", {"locale": "en-", "messages": {}})
            big = {f"k{i}": f"v{i} {{name}}" for i in range(2500)}
            added = await client.call_tool("i18n_add_messages", {"locale": "de", "messages": big},
                                           progress_callback=on_progress)
            german = await client.call_tool("i18n_translate", {"key": "k7", "locale": "de-CH", "variables": {"name": "Z"}})
    assert ru.structured_content == {"translation": "22 товара", "locale": "ru", "fallback": False}
    assert uk.structured_content == {"translation": "5 товаров", "locale": "ru", "fallback": True}
    assert en.structured_content == {"translation": "1 item", "locale": "en", "fallback": True}
    assert bad.is_error and bad.structured_content["code"] == "INVALID_LOCALE"
    assert added.structured_content["message_count"] == 2500 and progress == [1000, 2000, 2500]
    assert german.structured_content == {"translation": "v7 Z", "locale": "de", "fallback": False}
    assert transport_errors == []
    log = errlog_path.read_text()
    assert "i18n.bundle_file_skipped" in log and "broken.json" in log
    assert "товар" not in log and "v7 Z" not in log  # message text never reaches the log


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_listing_check_and_resources(mode: str, server_config: Path, tmp_path: Path) -> None:
    with anyio.fail_after(40), open(tmp_path / "stderr.log", "w") as errlog:
        params = stdio_server_params(server_config, cwd=tmp_path)
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            listing = await client.call_tool("i18n_list_locales", {})
            check = await client.call_tool("i18n_check", {"locale": "ru"})
            bundle = await client.read_resource("i18n://bundles/ru")
    assert [(entry["code"], entry["message_count"]) for entry in listing.structured_content["locales"]] == [
        ("en", 1), ("ru", 1)]
    [ru] = check.structured_content["locales"]
    assert ru["coverage"] == 1.0 and ru["plural_gaps"] == []  # the PO plural has every Russian category
    source = json.loads(bundle.contents[0].text)["messages"]["cart.items"]
    assert source == {"0": "%(count)d товар", "1": "%(count)d товара", "2": "%(count)d товаров"}  # as written
