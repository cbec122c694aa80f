"""Numbers an agent acts on, through a real MCP client over stdio (issue 23, item 4): a project's locales and
keys are its own (language packs' sample bundles join only when asked), i18n_check agrees with i18n_status
on every count of every catalog and pages what does not fit, a file that cannot be read is invalid with a
file-level problem, a catalog path that matches no file is named, and no read tool answers INTERNAL on the
catalogs the pack reads (ARB apostrophes included).

Every catalog here is written by the test.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params

from tests.packs.i18n.loop.cases import CASES, PROJECTS

pytestmark = pytest.mark.anyio

SIZE_BUDGET = 9000
"""An answer's JSON stays within about 8 KB (a page's reports) plus its envelope."""


@asynccontextmanager
async def _client(config: Path, tmp_path: Path) -> AsyncIterator[Client]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    with anyio.fail_after(90), open(tmp_path / "stderr.log", "a") as errlog:
        async with Client(stdio_client(stdio_server_params(config, cwd=elsewhere), errlog=errlog),
                          mode="legacy") as client:
            yield client


def _config(root: Path, catalogs: str, *, extra: str = "") -> Path:
    # No [language_packs] section: the shipped language packs are found, as in a user's setup.
    config = root / "parlance.toml"
    config.write_text(f'[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n{extra}\n{catalogs}',
                      encoding="utf-8")
    return config


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _arb_project(root: Path) -> Path:
    """A Flutter app whose messages keep their apostrophes (gen-l10n's default: they print as written)."""
    _write(root / "lib" / "l10n" / "app_en.arb", json.dumps({
        "@@locale": "en", "title": "Don't panic", "@title": {"description": "The app's title"},
        "hello": "Hello {name}, it's {day}", "@hello": {"placeholders": {"name": {}, "day": {}}},
        "items": "{count, plural, one{One item} other{{count} items}}", "bye": "See you, y'all"}))
    _write(root / "lib" / "l10n" / "app_fr.arb", json.dumps({
        "@@locale": "fr", "title": "Pas d'panique", "hello": "Bonjour {nom}, c'est {day}",
        "items": "{count, plural, one{Un article} other{{count} articles}}"}))
    return _config(root, '[[packs.i18n.catalogs]]\npath = "lib/l10n/app_{locale}.arb"\nname = "app"\n')


async def _structured(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, (tool, result.structured_content)
    return result.structured_content  # type: ignore[return-value]


# --- language packs' sample bundles stay out ------------------------------------------------------------


async def test_language_pack_sample_bundles_stay_out_of_a_project_unless_asked(tmp_path: Path) -> None:
    config = _arb_project(tmp_path / "app")
    async with _client(config, tmp_path) as client:
        check = await _structured(client, "i18n_check", {})
        listed = await _structured(client, "i18n_list_locales", {})
        sample = await _structured(client, "i18n_translate", {"key": "cart.items", "locale": "de",
                                                              "variables": {"count": 2}})
    assert [(r["catalog"], r["code"]) for r in check["locales"]] == [("app", "en"), ("app", "fr")]
    assert [locale["code"] for locale in listed["locales"]] == ["en", "fr"] and listed["total"] == 2
    assert (sample["translation"], sample["fallback"]) == ("cart.items", True)  # the raw key, not the German sample

    # Asked for, the shipped language packs' bundles join (what `parlance demo` may do).
    asked = _config(tmp_path / "app", '[[packs.i18n.catalogs]]\npath = "lib/l10n/app_{locale}.arb"\nname = "app"\n',
                    extra="language_pack_bundles = true\n")
    async with _client(asked, tmp_path) as client:
        listed = await _structured(client, "i18n_list_locales", {})
    assert {"de", "en-IE"} <= {locale["code"] for locale in listed["locales"]}


async def test_an_empty_config_has_no_bundles_as_the_seed_says(tmp_path: Path) -> None:
    config = tmp_path / "parlance.toml"
    config.write_text('[packs]\nenabled = ["i18n"]\n', encoding="utf-8")
    async with _client(config, tmp_path) as client:
        translated = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "de"})
        listed = await _structured(client, "i18n_list_locales", {})
    assert translated.is_error and translated.structured_content["code"] == "NO_BUNDLES_LOADED"  # type: ignore[index]
    assert listed["locales"] == [] and listed["total"] == 0


# --- i18n_check agrees with i18n_status ------------------------------------------------------------------


def _multi_catalog_project(root: Path) -> Path:
    """Two catalogs of different formats (nested ICU JSON for the web, gettext for the backend) in seven
    locales: some keys missing, an invalid ICU message, a PO entry whose placeholder breaks, a German
    file the web catalog cannot read, and keys the source lacks."""
    web_en = {"nav": {f"item{i}": f"Menu item {i}" for i in range(120)},
              "cart": {"items": "{count, plural, one {# item} other {# items}}", "hello": "Hello {name}"}}
    _write(root / "web" / "en.json", json.dumps(web_en))
    _write(root / "web" / "fr.json", json.dumps({
        "nav": {f"item{i}": f"Élément {i}" for i in range(0, 120, 2)},
        "cart": {"items": "{count, plural, one {# article} other {# articles}}", "hello": "Bonjour {nom}"},
        "old": "Ancien"}))
    _write(root / "web" / "ru.json", json.dumps({
        "nav": {"item0": "Пункт 0", "item1": "{broken"},
        "cart": {"items": "{count, plural, one {# товар} other {# товаров}}"}}))
    _write(root / "web" / "de.json", '{"nav": {"item0": "Eins",}}')  # cannot be read
    for lang in ("es", "it", "pl"):  # a third of the web catalog each, and no backend
        _write(root / "web" / f"{lang}.json", json.dumps({"nav": {f"item{i}": f"{lang} {i}" for i in range(0, 120, 3)}}))
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    entries = [(f"Backend message {i}", f"%(n)s thing {i}" if i % 5 == 0 else f"Backend {i}") for i in range(30)]

    def po(lang: str, translated: dict[int, str]) -> str:
        body = [header.replace('charset', f'Language: {lang}\\n"\n"Content-Type: text/plain; charset')]
        for i, (_, source) in enumerate(entries):
            flag = "#, python-format\n" if "%(" in source else ""
            body.append(f'{flag}msgid "{source}"\nmsgstr "{translated.get(i, "")}"\n')
        return "\n".join(body)

    for lang, translated in {
        "en": {i: source for i, (_, source) in enumerate(entries)},
        "fr": {i: (f"%(n)s chose {i}" if i % 5 == 0 else f"Serveur {i}") for i in range(0, 30, 3)},
        "de": {i: (f"%(n)s Ding {i}" if i % 5 == 0 else f"Server {i}") for i in range(30)},
        "ru": {0: "%(n)s вещь 0", 5: "%(n вещь", 7: "Сервер 7"},
    }.items():
        _write(root / "backend" / lang / "LC_MESSAGES" / "django.po", po(lang, translated))
    return _config(root, '[[packs.i18n.catalogs]]\npath = "web/{locale}.json"\nformat = "icu-json"\nname = "web"\n\n'
                         '[[packs.i18n.catalogs]]\npath = "backend/{locale}/LC_MESSAGES/{domain}.po"\nname = "backend"\n')


COUNTS = ("total", "missing", "invalid")


async def test_check_agrees_with_status_on_every_count_of_every_catalog(tmp_path: Path) -> None:
    config = _multi_catalog_project(tmp_path / "project")
    async with _client(config, tmp_path) as client:
        status = await _structured(client, "i18n_status", {})
        check = await _structured(client, "i18n_check", {})
        web_only = await _structured(client, "i18n_check", {"catalog": "backend", "locale": "ru"})
        unknown = await client.call_tool("i18n_check", {"catalog": "nope"})
    by_status = {(r["catalog"], r["locale"]): r for r in status["catalogs"]}
    by_check = {(r["catalog"], r["code"]): r for r in check["locales"] if r["code"] != "en"}
    assert set(by_status) == set(by_check) == {*((c, l) for c in ("web", "backend") for l in ("de", "fr", "ru")),
                                               ("web", "es"), ("web", "it"), ("web", "pl")}
    for where, reported in by_status.items():
        checked = by_check[where]
        assert (checked["total"], checked["missing_count"], checked["invalid_count"], checked["coverage"]) == (
            reported["total"], reported["missing"], reported["invalid"], reported["coverage"]), where
    # The numbers are the project's, one catalog at a time, not a mix of both.
    assert (by_status[("web", "fr")]["total"], by_status[("web", "fr")]["missing"]) == (122, 60)
    assert by_status[("web", "ru")]["invalid"] >= 1 and by_status[("backend", "ru")]["invalid"] >= 1
    assert by_check[("web", "fr")]["extra_count"] == 1  # "old": the source has no such key
    assert by_check[("web", "fr")]["argument_mismatches"] == []  # a summary lists nothing
    assert len(json.dumps(check)) < SIZE_BUDGET
    [backend_ru] = web_only["locales"]
    assert (backend_ru["catalog"], backend_ru["missing_count"]) == ("backend", by_status[("backend", "ru")]["missing"])
    assert unknown.is_error and unknown.structured_content["code"] == "UNKNOWN_CATALOG"  # type: ignore[index]


async def test_check_details_come_in_pages_of_about_eight_kilobytes(tmp_path: Path) -> None:
    config = _multi_catalog_project(tmp_path / "project")
    pages: list[dict[str, Any]] = []
    async with _client(config, tmp_path) as client:
        cursor = None
        while True:
            arguments: dict[str, Any] = {"details": True, **({"cursor": cursor} if cursor else {})}
            page = await _structured(client, "i18n_check", arguments)
            pages.append(page)
            cursor = page["next_cursor"]
            if cursor is None or len(pages) > 20:
                break
        everything = await _structured(client, "i18n_check", {})
        stale = await client.call_tool("i18n_check", {"details": False, "cursor": pages[0]["next_cursor"]})
    assert len(pages) > 1 and pages[-1]["next_cursor"] is None
    assert all(len(json.dumps(page)) < SIZE_BUDGET for page in pages)
    reports = [(r["catalog"], r["code"]) for page in pages for r in page["locales"]]
    assert reports == [(r["catalog"], r["code"]) for r in everything["locales"]]  # each once, in order
    fr = next(r for page in pages for r in page["locales"] if (r["catalog"], r["code"]) == ("web", "fr"))
    assert fr["argument_mismatches"] == [{"key": "cart.hello", "missing": ["name"], "unexpected": ["nom"]}]
    assert len(fr["missing_keys"]) == fr["missing_count"] == 60
    assert stale.is_error and stale.structured_content["code"] == "INVALID_ARGUMENTS"  # type: ignore[index]


# --- a file that cannot be read --------------------------------------------------------------------------


async def test_a_file_that_cannot_be_read_is_invalid_with_its_file_and_line_in_the_summary(tmp_path: Path) -> None:
    config = _multi_catalog_project(tmp_path / "project")
    async with _client(config, tmp_path) as client:
        status = await _structured(client, "i18n_status", {"locale": "de", "catalog": "web"})
        check = await _structured(client, "i18n_check", {"locale": "de", "catalog": "web"})
        missing = await _structured(client, "i18n_missing", {"locale": "de", "catalog": "web"})
    [web] = status["catalogs"]
    assert web["invalid"] == web["total"] == 122 and web["missing"] == 0  # not 122 keys to translate
    [problem] = web["file_problems"]
    assert problem["file"] == "web/de.json" and problem["line"] == 1 and "not valid JSON" in problem["reason"]
    [report] = check["locales"]
    assert report["invalid_count"] == 122 and report["missing_count"] == 0
    assert report["file_problems"] == [problem]
    assert missing["items"] == []


# --- a catalog path that matches no file -----------------------------------------------------------------


async def test_a_catalog_path_matching_no_file_is_named_by_status(tmp_path: Path) -> None:
    root = tmp_path / "project"
    _write(root / "locales" / "en.json", json.dumps({"hello": "Hello"}))
    config = _config(root, '[[packs.i18n.catalogs]]\npath = "locale/{locale}.json"\n')
    async with _client(config, tmp_path) as client:
        status = await client.call_tool("i18n_status", {})
    assert not status.is_error  # not NO_SOURCE_FILES advising another source_locale
    [problem] = status.structured_content["catalog_problems"]  # type: ignore[index]
    assert problem["file"] == "locale/{locale}.json" and "no file matches" in problem["reason"]
    assert "set [packs.i18n] source_locale" not in json.dumps(status.structured_content)


# --- no INTERNAL on any catalog the pack reads -----------------------------------------------------------


READ_TOOLS = ("i18n_status", "i18n_check", "i18n_list_locales", "i18n_missing", "i18n_translate")


async def _every_read_tool(client: Client, locale: str, key: str) -> list[tuple[str, Any]]:
    calls = {"i18n_status": {"details": True}, "i18n_check": {"details": True}, "i18n_list_locales": {},
             "i18n_missing": {"locale": locale}, "i18n_translate": {"key": key, "locale": locale}}
    answers = [(tool, await client.call_tool(tool, calls[tool])) for tool in READ_TOOLS]
    answers.append(("i18n://bundles", await client.read_resource(f"i18n://bundles/{locale}")))
    return answers


async def test_no_read_tool_answers_internal_on_an_arb_catalog_with_apostrophes(tmp_path: Path) -> None:
    config = _arb_project(tmp_path / "app")
    async with _client(config, tmp_path) as client:
        answers = await _every_read_tool(client, "fr", "title")
        check = await _structured(client, "i18n_check", {"locale": "fr", "details": True})
        bye = await _structured(client, "i18n_translate", {"key": "bye", "locale": "en"})
    for tool, answer in answers:
        assert not getattr(answer, "is_error", False), (tool, answer)
    [fr] = check["locales"]
    assert fr["argument_mismatches"] == [{"key": "hello", "missing": ["name"], "unexpected": ["nom"]}]
    assert fr["missing_keys"] == ["bye"]
    assert bye["translation"] == "See you, y'all"  # Flutter prints the apostrophe as written


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_no_read_tool_answers_internal_on_any_format(case: Any, tmp_path: Path) -> None:
    root = tmp_path / case.format
    shutil.copytree(PROJECTS / case.format, root, ignore=shutil.ignore_patterns("expected-*.diff"))
    config = _config(root, f'[[packs.i18n.catalogs]]\npath = "{case.pattern}"\nformat = "{case.format}"\n'
                           'name = "app"\n')
    key = next(iter(case.good))
    async with _client(config, tmp_path) as client:
        answers = await _every_read_tool(client, "ru", key)
    for tool, answer in answers:
        assert not getattr(answer, "is_error", False), (tool, answer)
