"""A new locale started through MCP (`i18n_set_messages` with `create_locale`), over stdio with a real
client, in every writable format: the file lands where the catalog's path names it, the format's
reference reader reads it (GNU msgfmt --check, Python's XML and plist parsers, json, YAML), and
`i18n_status` lists the locale with its counts in the next call, without a restart. Then files
created and deleted by hand while the server runs are noticed by the next call.

The projects are `cases.py`'s; Ukrainian needs the same plural categories as their Russian target,
so the Russian translations serve as the new locale's messages.
"""

from __future__ import annotations

import json
import plistlib
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml

from tests.packs.i18n.loop.cases import CASES, Case
from tests.packs.i18n.loop.test_loop_stdio import _client, _project

pytestmark = pytest.mark.anyio

NEW_FILES = {
    "icu-json": "lang/uk.json",
    "i18next": "locales/uk/translation.json",
    "arb": "l10n/app_uk.arb",
    "po": "locale/uk/LC_MESSAGES/messages.po",
    "android": "res/values-uk/strings.xml",
    "yaml": "config/locales/uk.yml",
    "xliff": "translations/uk.xlf",
    "properties": "i18n/messages_uk.properties",
    "apple-strings": "uk.lproj/Localizable.strings",
    "stringsdict": "uk.lproj/Localizable.stringsdict",
    "xcstrings": "Localizable.xcstrings",
}


def _messages(case: Case) -> dict[str, Any]:
    if case.format == "stringsdict":  # the Russian case fixes two forms of an entry; a new file needs them all
        return {"cart.items": {"one": "%lld товар", "few": "%lld товара", "many": "%lld товарів", "other": "%lld товару"}}
    return dict(case.good)


def _read_by_reference(case: Case, path: Path) -> None:
    """The file as the format's own tools read it (an exception, or a failed assertion, when they would not)."""
    data = path.read_bytes()
    if case.format == "po":
        checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0 and checked.stderr == "", checked.stderr
        assert b'"Language: uk\\n"' in data and b"nplurals=3;" in data
    elif case.format in ("android", "xliff"):
        root = ET.fromstring(data)
        if case.format == "xliff":
            assert root.find("{urn:oasis:names:tc:xliff:document:1.2}file").get("target-language") == "uk"
        else:
            assert root.tag == "resources" and len(root) == len(_messages(case))
    elif case.format == "stringsdict":
        assert set(plistlib.loads(data)) == set(_messages(case))
    elif case.format in ("icu-json", "i18next", "arb", "xcstrings"):
        parsed = json.loads(data)
        if case.format == "arb":
            assert parsed["@@locale"] == "uk"
        if case.format == "xcstrings":
            assert all("uk" in parsed["strings"][key]["localizations"] for key in _messages(case))
    elif case.format == "yaml":
        assert set(yaml.safe_load(data)) == {"uk"}
    elif case.format == "properties":
        assert data.isascii() and data.count(b"\n") == len(_messages(case))
    elif case.format == "apple-strings":
        assert data.decode("utf-8").count('" = "') == len(_messages(case))


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_a_new_locale_is_started_in_every_format(case: Case, tmp_path: Path) -> None:
    root = _project(case, tmp_path)
    messages = _messages(case)
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            refused = await client.call_tool("i18n_set_messages", {"locale": "uk", "messages": messages})
            dry = await client.call_tool("i18n_set_messages", {"locale": "uk", "messages": messages,
                                                                "create_locale": True, "dry_run": True})
            assert not (root / NEW_FILES[case.format]).exists() or case.format == "xcstrings"
            written = await client.call_tool("i18n_set_messages", {"locale": "uk", "messages": messages,
                                                                    "create_locale": True})
            status = await client.call_tool("i18n_status", {"locale": "uk"})
    assert refused.is_error and refused.structured_content["code"] == "UNKNOWN_LOCALE"  # type: ignore[index]
    assert "create_locale" in refused.content[0].text  # type: ignore[union-attr]
    assert not dry.is_error and dry.structured_content["written"] == len(messages), dry  # type: ignore[index]
    assert not written.is_error, written
    content = written.structured_content
    assert content["written"] == len(messages) and content["refused"] == 0, content  # type: ignore[index]
    assert NEW_FILES[case.format] in content["diff"]  # type: ignore[index]
    _read_by_reference(case, root / NEW_FILES[case.format])
    [report] = status.structured_content["catalogs"]  # type: ignore[index]
    assert report["locale"] == "uk" and report["translated"] == len(messages)
    assert report["translated"] + report["missing"] + report["untranslated"] + report["fuzzy"] == report["total"]


async def test_an_invalid_locale_or_a_path_without_locale_is_refused(tmp_path: Path) -> None:
    case = next(case for case in CASES if case.format == "icu-json")
    root = _project(case, tmp_path)
    single = root / "single.json"
    single.write_text('{"hello": "Hello"}', encoding="utf-8")
    with open(root / "parlance.toml", "a", encoding="utf-8") as config:
        config.write('\n[[packs.i18n.catalogs]]\npath = "single.json"\nformat = "icu-json"\nname = "single"\n')
    async with _client(root, tmp_path) as client:
        invalid = await client.call_tool("i18n_set_messages", {"locale": "en-", "messages": {"cart.empty": "x"},
                                                               "create_locale": True})
        no_slot = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {"hello": "Hallo"},
                                                               "catalog": "single", "create_locale": True})
    assert invalid.is_error and invalid.structured_content["code"] == "INVALID_LOCALE"  # type: ignore[index]
    [result] = no_slot.structured_content["results"]  # type: ignore[index]
    assert result["status"] == "refused" and "has no {locale} in its path" in result["reasons"][0]
    assert sorted(path.name for path in (root / "lang").iterdir()) == ["cy.json", "en.json", "ru.json"]


async def test_files_created_and_deleted_by_hand_are_noticed_without_a_restart(tmp_path: Path) -> None:
    case = next(case for case in CASES if case.format == "po")
    root = _project(case, tmp_path)
    async with _client(root, tmp_path) as client:
        before = await client.call_tool("i18n_status", {})
        german = root / "locale" / "de" / "LC_MESSAGES"
        german.mkdir(parents=True)
        shutil.copy(root / "locale" / "cy" / "LC_MESSAGES" / "messages.po", german / "messages.po")
        created = await client.call_tool("i18n_status", {})
        shutil.rmtree(root / "locale" / "cy")
        deleted = await client.call_tool("i18n_status", {})
        gone = await client.call_tool("i18n_missing", {"locale": "cy"})
        written = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {
            "Your cart is empty": "Ihr Warenkorb ist leer"}})
    assert [r["locale"] for r in before.structured_content["catalogs"]] == ["cy", "ru"]  # type: ignore[index]
    assert [r["locale"] for r in created.structured_content["catalogs"]] == ["cy", "de", "ru"]  # type: ignore[index]
    assert [r["locale"] for r in deleted.structured_content["catalogs"]] == ["de", "ru"]  # type: ignore[index]
    assert gone.is_error and gone.structured_content["code"] == "UNKNOWN_LOCALE"  # type: ignore[index]
    assert written.structured_content["written"] == 1, written  # type: ignore[index]


async def test_android_qualifiers_and_a_locale_started_without_messages(tmp_path: Path) -> None:
    case = next(case for case in CASES if case.format == "android")
    root = _project(case, tmp_path)
    async with _client(root, tmp_path) as client:
        serbian = await client.call_tool("i18n_set_messages", {"locale": "sr-Latn", "create_locale": True,
                                                               "messages": {"cart_greeting": "Zdravo, %1$s!"}})
        empty = await client.call_tool("i18n_set_messages", {"locale": "pt_BR", "messages": {}, "create_locale": True})
        status = await client.call_tool("i18n_status", {})
    assert serbian.structured_content["written"] == 1, serbian  # type: ignore[index]
    assert ET.parse(root / "res" / "values-b+sr+Latn" / "strings.xml").getroot()[0].text == "Zdravo, %1$s!"
    assert "res/values-pt-rBR/strings.xml" in empty.structured_content["diff"]  # type: ignore[index]
    assert ET.parse(root / "res" / "values-pt-rBR" / "strings.xml").getroot().tag == "resources"
    assert [r["locale"] for r in status.structured_content["catalogs"]] == ["cy", "pt-BR", "ru", "sr-Latn"]  # type: ignore[index]
