"""The language packs' message bundles, loaded the way the i18n pack loads them.

The host discovers the packs, the i18n pack takes every `messages/*.json|*.po` of the packs it sees
and loads them into its catalog; translations then fall back per key along the BCP 47 chain
(`en-IE` -> `en`, `es-MX` -> `es`). One test goes through a real MCP client as well.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parlance_i18n.pack
from parlance.config import config_from_dict
from parlance.language_packs import discover_language_packs
from parlance.testing import connect
from parlance_i18n import Catalog, Translator, parse_locale

from tests.language_packs.layout import BUNDLES, PACK_DIRS, SEARCH_PATHS, label

LANGUAGE_PACKS_CONFIG = {"paths": [str(p) for p in SEARCH_PATHS], "autoload": False}


def pack_bundle_files() -> list[Path]:
    """What the i18n pack's lifespan hands to its catalog: each usable pack's messages, in pack order."""
    view = discover_language_packs(config_from_dict({"language_packs": LANGUAGE_PACKS_CONFIG})).view("i18n")
    return [f for lp in view.all() for f in lp.files("messages", "*.json") + lp.files("messages", "*.po")]


@pytest.fixture(scope="module")
def translator() -> Translator:
    catalog = Catalog(parse_locale("en"))
    report = catalog.load_bundle_files(pack_bundle_files())
    assert report.skipped == [], f"bundle files the i18n pack would skip: {report.skipped}"
    return Translator(catalog)


def test_every_bundle_reaches_the_catalog(translator: Translator) -> None:
    assert sorted(pack_bundle_files()) == sorted(BUNDLES)
    assert set(translator.bundles) == {"en", "en-IE", "de", "ja", "es"}


@pytest.mark.parametrize("pack_dir", [p for p in PACK_DIRS if (p / "messages").is_dir()], ids=label)
def test_bundle_dir_loads_cleanly(pack_dir: Path) -> None:
    report = Catalog(parse_locale("en")).load_bundle_dir(pack_dir / "messages")
    assert report.skipped == []
    assert len(report.loaded) == len([p for p in BUNDLES if p.parent == pack_dir / "messages"])


@pytest.mark.parametrize(
    ("key", "locale", "variables", "expected", "from_locale"),
    [
        ("cart.items", "de", {"count": 1}, "1 Artikel im Warenkorb", "de"),
        ("checkout.place_order", "de-AT", {}, "Zahlungspflichtig bestellen", "de"),
        ("order.review_prompt", "de", {"position": 3},
         "Das ist bereits Ihre 3. Bestellung bei uns. Wie zufrieden waren Sie?", "de"),
        ("notifications.unread", "ja", {"count": 0}, "新しいお知らせはありません", "ja"),
        ("notifications.unread", "ja-JP", {"count": 4}, "新しいお知らせが4件あります", "ja"),
        ("notifications.shared_list", "ja", {"name": "佐藤", "gender": "female"},
         "佐藤さんがお買い物リストを共有しました", "ja"),
        ("cart.title", "en-IE", {}, "Your basket", "en-IE"),
        ("app.greeting", "en-IE", {"name": "Aoife"}, "Hi Aoife, welcome back!", "en"),  # inherited per key
        ("order.review_prompt", "en-IE", {"position": 22}, "This is your 22nd order with us. How did we do?", "en"),
        ("cart.items", "es-MX", {"count": 1_000_000}, "1.000.000 de productos en tu carrito", "es"),
        ("support.reply_time", "es", {"hours": 1}, "Por lo general respondemos en menos de una hora.", "es"),
    ],
)
def test_translations_fall_back_per_key(translator: Translator, key: str, locale: str, variables: dict[str, object],
                                        expected: str, from_locale: str) -> None:
    result = translator.translate(key, locale, variables)
    assert (result.translation, result.locale, result.fallback) == (expected, from_locale, False)


@pytest.mark.anyio
async def test_i18n_pack_serves_language_pack_bundles_over_mcp() -> None:
    config = {"language_packs": LANGUAGE_PACKS_CONFIG,
              "packs": {"i18n": {"default_locale": "en", "language_pack_bundles": True}}}
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        translated = await client.call_tool("i18n_translate", {"key": "checkout.shipping_estimate", "locale": "en-IE",
                                                               "variables": {"days": 3}})
        checked = await client.call_tool("i18n_check", {})
    assert translated.structured_content == {"translation": "Arrives in 3 working days", "locale": "en-IE",
                                             "fallback": False}
    reports = {r["code"]: r for r in checked.structured_content["locales"]}
    assert checked.structured_content["reference_locale"] == "en", json.dumps(checked.structured_content)[:500]
    for code in ("de", "ja", "es", "en-IE"):
        report = reports[code]
        assert (report["missing_keys"], report["extra_keys"], report["argument_mismatches"], report["plural_gaps"]) == (
            [], [], [], []), f"i18n_check for {code}: {report}"
        assert report["coverage"] == 1.0  # en-IE counts the keys it inherits from en
