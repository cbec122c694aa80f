"""Message bundles in language packs join the i18n catalog at startup when `[packs.i18n] language_pack_bundles`
asks for them (through a real `parlance serve`), and stay out of a project's locales and keys otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from mcp import Client

from parlance.testing import connect, stdio_server_params

pytestmark = pytest.mark.anyio


def _language_pack(root: Path, tag: str, messages: dict[str, str]) -> None:
    folder = root / tag
    (folder / "messages").mkdir(parents=True)
    (folder / "pack.toml").write_text(f'name = "{tag}"\nversion = "0.1.0"\nlanguages = ["{tag}"]\n')
    (folder / "messages" / f"{tag}.json").write_text(json.dumps(messages, ensure_ascii=False))


async def test_language_pack_bundles_are_translatable_over_stdio(tmp_path: Path) -> None:
    _language_pack(tmp_path / "lp", "de", {"cart": {"items": "{count, plural, one {# Artikel} other {# Artikel}} im Korb"}})
    _language_pack(tmp_path / "lp", "en", {"cart": {"items": "{count, plural, one {# item} other {# items}} in the cart"}})
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["i18n"]\n[packs.i18n]\nlanguage_pack_bundles = true\n'
                                            '[language_packs]\npaths = ["lp"]\n'
                                            'autoload = false\n')  # these packs only, not the shipped ones
    with anyio.fail_after(30):
        async with Client(stdio_server_params(tmp_path / "parlance.toml"), mode="legacy") as client:
            german = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "de-AT",
                                                               "variables": {"count": 3}})
            english = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "fr",
                                                                "variables": {"count": 1}})
            listed = await client.call_tool("i18n_list_locales", {})
    assert german.structured_content == {"translation": "3 Artikel im Korb", "locale": "de", "fallback": False}
    assert english.structured_content == {"translation": "1 item in the cart", "locale": "en", "fallback": True}
    assert sorted(loc["code"] for loc in listed.structured_content["locales"]) == ["de", "en"]


async def test_project_bundles_win_over_language_pack_bundles(tmp_path: Path) -> None:
    _language_pack(tmp_path / "lp", "de", {"greeting": "Hallo aus dem Sprachpaket"})
    own = tmp_path / "bundles"
    own.mkdir()
    (own / "de.json").write_text(json.dumps({"greeting": "Hallo aus dem Projekt"}))
    # No config file: the project's folder is set, as the working folder would be.
    config = {"packs": {"i18n": {"bundle_dirs": [str(own)], "default_locale": "de", "project_root": str(tmp_path),
                                 "language_pack_bundles": True}},
              "language_packs": {"paths": [str(tmp_path / "lp")]}}
    async with connect(["i18n"], config=config) as client:
        result = await client.call_tool("i18n_translate", {"key": "greeting", "locale": "de"})
    assert result.structured_content["translation"] == "Hallo aus dem Projekt"
