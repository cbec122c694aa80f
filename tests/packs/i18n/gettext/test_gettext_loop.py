"""gettext as gettext tools see it, through a real MCP client over stdio: a project with no source
locale's file (each PO file's msgid/msgid_plural is the source), and a catalog whose `template`
(a `.pot`) is its key set, as `msgmerge` uses it.

The projects are in `projects/` (see its README); GNU gettext's own tools (`msgfmt --check`,
`msgfmt --statistics`, `msgmerge`) judge what is written and agree with what status counts.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from tests.support import git

pytestmark = pytest.mark.anyio

PROJECTS = Path(__file__).parent / "projects"
DJANGO = 'path = "locale/{locale}/LC_MESSAGES/{domain}.po"\nname = "django"\n'
GLIB = 'path = "po/{locale}.po"\ntemplate = "po/weatherapp.pot"\nname = "weatherapp"\n'
PLURAL_GAP = "lacks the plural category few that ru needs"


def _project(name: str, catalog: str, tmp_path: Path) -> Path:
    """A git copy of `projects/<name>` with a parlance.toml that has no source locale's file to name."""
    root = tmp_path / name
    shutil.copytree(PROJECTS / name, root)
    (root / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\nwrite = true\n\n'
        f"[[packs.i18n.catalogs]]\n{catalog}\n[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "project")
    return root


@asynccontextmanager
async def _client(root: Path, tmp_path: Path) -> AsyncIterator[Client]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    with open(tmp_path / "stderr.log", "a") as errlog:
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=elsewhere), errlog=errlog),
                          mode="legacy") as client:
            yield client


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content


def _msgfmt(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/usr/bin/msgfmt", "--check", *options, "-o", "/dev/null", str(path)],
                          capture_output=True, text=True)


def _statistics(path: Path) -> dict[str, int]:
    """What `msgfmt --statistics` counts: translated, fuzzy, untranslated."""
    done = _msgfmt(path, "--statistics")
    assert done.returncode == 0, done.stderr
    return {kind: int(count) for count, kind in re.findall(r"(\d+) (translated|fuzzy|untranslated)", done.stderr)}


def _diff_body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def _counts(report: dict[str, Any]) -> dict[str, int]:
    return {name: report[name] for name in ("total", "translated", "missing", "untranslated", "fuzzy", "invalid",
                                            "stale", "obsolete")}


# --- Django: no source locale's file --------------------------------------------------------------------------

GOOD = {
    "Hello, %(name)s!": "Здравствуйте, %(name)s!",
    "%(count)s book in your basket": {"one": "%(count)s книга в корзине", "few": "%(count)s книги в корзине",
                                      "many": "%(count)s книг в корзине", "other": "%(count)s книги в корзине"},
    "Total due: %(amount)s": "К оплате: %(amount)s",  # fuzzy: the flag and the previous msgid go
    "book binding\x04Hardcover": "Твёрдый переплёт",
    "The password must be at least %(min)d characters long.": "Пароль должен содержать не менее %(min)d символов.",
}
BAD = {
    "Signed in as %(name)s": ("Вы вошли", ["drops the placeholder %(name)s that the source uses"]),
    "%(count)s review": ({"one": "%(count)s отзыв", "other": "%(count)s отзыва"}, [PLURAL_GAP]),
    "Browse the shelf": ("Полка", ["ru's file has no msgid 'Browse the shelf' (the key is the msgid, with a context "
                                   "msgctxt + \\x04 + msgid): check the key; a new message comes from the source code, "
                                   "through xgettext and msgmerge"]),
}
DJANGO_DIFF = """\
-msgstr ""
+msgstr "Здравствуйте, %(name)s!"
-msgstr[0] ""
-msgstr[1] ""
-msgstr[2] ""
-msgstr[3] ""
+msgstr[0] "%(count)s книга в корзине"
+msgstr[1] "%(count)s книги в корзине"
+msgstr[2] "%(count)s книг в корзине"
+msgstr[3] "%(count)s книги в корзине"
-#, fuzzy, python-format
-#| msgid "Total: %(sum)s"
+#, python-format
-msgstr "Итого: %(sum)s"
+msgstr "К оплате: %(amount)s"
-msgstr ""
+msgstr "Твёрдый переплёт"
-msgstr ""
+msgstr "Пароль должен содержать не менее %(min)d символов."
"""


async def test_django_layout_without_a_source_file_status_missing_set_translate(tmp_path: Path) -> None:
    root = _project("django", DJANGO, tmp_path)
    ru_po = root / "locale" / "ru" / "LC_MESSAGES" / "django.po"
    before = _statistics(ru_po)
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            status = await _call(client, "i18n_status", {"details": True})
            missing = await _call(client, "i18n_missing", {"locale": "ru"})
            written = await _call(client, "i18n_set_messages", {"locale": "ru", "messages": {
                **GOOD, **{key: value for key, (value, _) in BAD.items()}}})
            rendered = [(await _call(client, "i18n_translate", {"locale": "ru", "key": key, "variables": variables}))
                        ["translation"] for key, variables in [("Hello, %(name)s!", {"name": "Аня"}),
                                                               ("%(count)s book in your basket", {"count": 3}),
                                                               ("%(count)s book in your basket", {"count": 11}),
                                                               ("book binding\x04Hardcover", {})]]
            after = await _call(client, "i18n_status", {"locale": "ru"})

    reports = {report["locale"]: report for report in status["catalogs"]}
    assert status["source_locale"] == "en" and set(reports) == {"de", "ru"}
    # each locale's own msgids are its keys, counted as msgfmt --statistics counts them
    assert _counts(reports["ru"]) == {"total": 8, "translated": 1, "missing": 6, "untranslated": 0, "fuzzy": 1,
                                      "invalid": 0, "stale": 0, "obsolete": 0}
    assert (before["translated"], before["fuzzy"], before["untranslated"]) == (1, 1, 6)
    assert _counts(reports["de"]) == {"total": 4, "translated": 3, "missing": 1, "untranslated": 0, "fuzzy": 0,
                                      "invalid": 0, "stale": 0, "obsolete": 0}
    assert reports["ru"]["fuzzy_keys"] == ["Total due: %(amount)s"]

    items = {item["key"]: item for item in missing["items"]}
    assert list(items) == ["Hello, %(name)s!", "%(count)s book in your basket", "book binding\x04Hardcover",
                           "The password must be at least %(min)d characters long.", "Signed in as %(name)s",
                           "%(count)s review"]
    assert items["Hello, %(name)s!"]["placeholders"] == ["%(name)s"]
    assert items["Hello, %(name)s!"]["comment"] == "Greeting above the basket; name is the reader's first name."
    assert items["%(count)s book in your basket"]["source"] == {"one": "%(count)s book in your basket",
                                                                 "other": "%(count)s books in your basket"}
    assert items["%(count)s book in your basket"]["plural_categories"] == ["one", "few", "many", "other"]
    assert items["book binding\x04Hardcover"]["context"] == "book binding"
    assert items["book binding\x04Hardcover"]["file"] == "locale/ru/LC_MESSAGES/django.po"

    results = {result["key"]: result for result in written["results"]}
    assert {key for key, result in results.items() if result["status"] == "written"} == set(GOOD)
    assert {key: result["reasons"] for key, result in results.items() if result["status"] == "refused"} == {
        key: reasons for key, (_, reasons) in BAD.items()}
    assert _diff_body(git(root, "diff")) == DJANGO_DIFF.splitlines()
    assert _diff_body(written["diff"]) == DJANGO_DIFF.splitlines()
    assert rendered == ["Здравствуйте, Аня!", "3 книги в корзине", "11 книг в корзине", "Твёрдый переплёт"]

    done = _msgfmt(ru_po)
    assert done.returncode == 0, done.stderr
    assert _statistics(ru_po) == {"translated": 6, "untranslated": 2}
    [report] = after["catalogs"]
    assert (report["total"], report["translated"], report["missing"], report["fuzzy"]) == (8, 6, 2, 0)


async def test_a_translation_whose_msgid_plural_changed_is_stale_by_the_lock_file(tmp_path: Path) -> None:
    root = _project("django", DJANGO, tmp_path)
    ru_po = root / "locale" / "ru" / "LC_MESSAGES" / "django.po"
    key = "%(count)s book in your basket"
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            await _call(client, "i18n_set_messages", {"locale": "ru", "messages": {key: GOOD[key]}})
            fresh = await _call(client, "i18n_status", {"locale": "ru", "details": True})
            # the source code now says "books in the basket": msgmerge keeps the entry (same msgid)
            ru_po.write_text(ru_po.read_text(encoding="utf-8").replace(
                'msgid_plural "%(count)s books in your basket"', 'msgid_plural "%(count)s books in the basket"'),
                encoding="utf-8")
            changed = await _call(client, "i18n_status", {"locale": "ru", "details": True})
            missing = await _call(client, "i18n_missing", {"locale": "ru"})

    lock = json.loads((root / "parlance-i18n.lock").read_text(encoding="utf-8"))
    assert list(lock["sources"]["django"]["ru"]) == [key]
    assert fresh["catalogs"][0]["stale"] == 0
    assert changed["catalogs"][0]["stale"] == 1 and changed["catalogs"][0]["stale_keys"] == [key]
    assert {item["key"]: item["reason"] for item in missing["items"]}[key] == "stale"


async def test_a_project_with_no_source_file_and_no_bilingual_catalog_still_says_so(tmp_path: Path) -> None:
    root = tmp_path / "json"
    (root / "lang").mkdir(parents=True)
    (root / "lang" / "de.json").write_text('{"a": "b"}\n', encoding="utf-8")
    (root / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n\n'
        '[[packs.i18n.catalogs]]\npath = "lang/{locale}.json"\nformat = "icu-json"\n\n'
        "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    async with _client(root, tmp_path) as client:
        result = await client.call_tool("i18n_status", {"locale": "de"})
    assert result.is_error
    assert result.structured_content["code"] == "NO_SOURCE_FILES"  # type: ignore[index]


# --- GLib: po/{locale}.po and a template ---------------------------------------------------------------------

TEMPLATE_KEYS = ["Weather", "Feels like %d°", "Forecast for %s", "%d day ahead", "units\x04Metric",
                 "Wind gusts up to %1$d %2$s"]


async def test_template_is_the_key_set_and_entries_it_lacks_are_obsolete(tmp_path: Path) -> None:
    root = _project("glib", GLIB, tmp_path)
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            brief = await _call(client, "i18n_status", {})
            detailed = await _call(client, "i18n_status", {"locale": "de", "details": True})
            missing = await _call(client, "i18n_missing", {"locale": "de"})

    reports = {report["locale"]: report for report in brief["catalogs"]}
    # missing = in the template, absent or empty in de.po; de.po's other entries are obsolete (not #~ ones)
    assert _counts(reports["de"]) == {"total": 6, "translated": 2, "missing": 4, "untranslated": 0, "fuzzy": 0,
                                      "invalid": 0, "stale": 0, "obsolete": 2}
    assert reports["de"]["obsolete_keys"] == []  # the keys only with details
    assert _counts(reports["fr"]) == {"total": 6, "translated": 6, "missing": 0, "untranslated": 0, "fuzzy": 0,
                                      "invalid": 0, "stale": 0, "obsolete": 0}
    [de] = detailed["catalogs"]
    assert de["obsolete_keys"] == ["Radar", "Show the rain radar"]
    assert de["missing_keys"] == ["Forecast for %s", "%d day ahead", "units\x04Metric", "Wind gusts up to %1$d %2$s"]
    items = {item["key"]: item for item in missing["items"]}
    assert list(items) == de["missing_keys"]
    assert items["Forecast for %s"]["comment"] == 'TRANSLATORS: %s is the name of a town, e.g. "Lisbon"'
    assert items["Forecast for %s"]["file"] == "po/de.po"  # not in de.po yet: where it will be written
    assert items["Wind gusts up to %1$d %2$s"]["placeholders"] == ["%1$d", "%2$s"]
    assert items["units\x04Metric"]["context"] == "units"


async def test_writing_a_template_message_adds_its_entry_as_msgmerge_would(tmp_path: Path) -> None:
    root = _project("glib", GLIB, tmp_path)
    de_po = root / "po" / "de.po"
    good = {"Forecast for %s": "Vorhersage für %s", "%d day ahead": {"one": "%d Tag voraus", "other": "%d Tage voraus"},
            "units\x04Metric": "Metrisch", "Wind gusts up to %1$d %2$s": "Böen bis %1$d %2$s"}
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            written = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {
                **good, "Humidity": "Luftfeuchtigkeit", "Weather": {"one": "Wetter", "other": "Wetter"}}})
            status = await _call(client, "i18n_status", {"locale": "de"})
            rendered = await _call(client, "i18n_translate", {"locale": "de", "key": "units\x04Metric"})

    results = {result["key"]: result for result in written["results"]}
    assert {key for key, result in results.items() if result["status"] == "written"} == set(good)
    assert results["Humidity"]["reasons"] == [
        "the template po/weatherapp.pot has no msgid 'Humidity' (the key is the msgid, with a context msgctxt + "
        "\\x04 + msgid): check the key; a new message comes from the source code, through xgettext and msgmerge"]
    assert results["Weather"]["status"] == "refused"
    assert rendered["translation"] == "Metrisch"
    [report] = status["catalogs"]
    assert (report["total"], report["translated"], report["missing"], report["obsolete"]) == (6, 6, 0, 2)

    done = _msgfmt(de_po)
    assert done.returncode == 0, done.stderr
    assert _statistics(de_po) == {"translated": 7, "untranslated": 1}  # the template's 6, and the obsolete Radar
    # msgmerge, merging the template into what was written, gives the same entries: the comments, references
    # and flags came from the template, and nothing written is made fuzzy
    merged = subprocess.run(["/usr/bin/msgmerge", "--quiet", "--no-wrap", "-o", "-", str(de_po),
                             str(root / "po" / "weatherapp.pot")], capture_output=True, text=True, check=True).stdout
    ours = _entries(de_po.read_text(encoding="utf-8"))
    theirs = _entries(merged)
    for key in TEMPLATE_KEYS:
        assert ours[key] == theirs[key], key
    assert "fuzzy" not in merged


def _entries(text: str) -> dict[str, str]:
    """Each live entry's block of lines by msgid (msgctxt + \\x04 + msgid), header and #~ ones left out."""
    found = {}
    for block in text.strip("\n").split("\n\n"):
        lines = block.splitlines()
        ctxt = next((line[9:-1] for line in lines if line.startswith("msgctxt ")), None)
        msgid = next((line[7:-1] for line in lines if line.startswith("msgid ")), None)
        if msgid:
            found[msgid if ctxt is None else f"{ctxt}\x04{msgid}"] = block
    return found


async def test_an_unreadable_template_is_a_problem_and_the_files_own_msgids_serve(tmp_path: Path) -> None:
    root = _project("glib", GLIB.replace("weatherapp.pot", "gone.pot"), tmp_path)
    async with _client(root, tmp_path) as client:
        status = await _call(client, "i18n_status", {"locale": "de", "details": True})
    [report] = status["catalogs"]
    assert (report["total"], report["translated"], report["obsolete"]) == (5, 3, 0)
    [problem] = report["invalid_messages"]
    assert problem["key"] is None
    assert problem["reason"].startswith("the template po/gone.pot cannot be read, so each locale's own msgids are "
                                        "its keys: ")


async def test_a_template_that_links_outside_the_project_is_not_read(tmp_path: Path) -> None:
    root = _project("glib", GLIB, tmp_path)
    outside = tmp_path / "outside.pot"
    async with _client(root, tmp_path) as client:
        # after the server started (at startup, parlance.toml naming such a link is a configuration error)
        shutil.move(root / "po" / "weatherapp.pot", outside)
        (root / "po" / "weatherapp.pot").symlink_to(outside)
        status = await _call(client, "i18n_status", {"locale": "de", "details": True})
    [report] = status["catalogs"]
    assert (report["total"], report["obsolete"]) == (5, 0)  # de.po's own msgids, not the template's
    [problem] = report["invalid_messages"]
    assert "UNSAFE_PATH" in problem["reason"] and str(tmp_path) not in problem["reason"]


# --- the setting ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("template", "path", "says"), [
    ("../elsewhere/app.pot", "po/{locale}.po", "catalogs[0].template leads outside the project's folder"),
    ("{root}/../elsewhere/app.pot", "po/{locale}.po", "catalogs[0].template leads outside the project's folder"),
    ("po/{locale}.pot", "po/{locale}.po", "unknown placeholder {locale} in the template"),
    ("po/{domain}.pot", "po/{locale}.po", "the template names {domain} but the path does not"),
])
def test_the_template_setting_is_checked_like_a_catalog_path(template: str, path: str, says: str,
                                                            tmp_path: Path) -> None:
    from pydantic import ValidationError

    from parlance_i18n.settings import I18nSettings

    root = tmp_path / "project"
    root.mkdir()
    catalog = {"path": str(root / path), "template": template.replace("{root}", str(root))}
    with pytest.raises(ValidationError, match=re.escape(says)):
        I18nSettings(catalogs=[catalog], project_root=str(root))


def test_a_template_inside_the_project_is_taken_per_domain(tmp_path: Path) -> None:
    from parlance_i18n.settings import I18nSettings

    root = tmp_path / "project"
    catalog = {"path": str(root / "locale/{locale}/LC_MESSAGES/{domain}.po"), "template": str(root / "po/{domain}.pot")}
    [source] = I18nSettings(catalogs=[catalog], project_root=str(root)).catalogs
    assert source.template_for("djangojs") == root / "po" / "djangojs.pot"


@pytest.mark.parametrize(("name", "catalog"), [("django", DJANGO), ("glib", GLIB)])
async def test_check_agrees_with_status_without_a_source_file(name: str, catalog: str, tmp_path: Path) -> None:
    root = _project(name, catalog, tmp_path)
    async with _client(root, tmp_path) as client:
        status = await _call(client, "i18n_status", {})
        check = await _call(client, "i18n_check", {})
    assert check["reference_locale"] == "en"
    by_check = {(r["catalog"], r["code"]): r for r in check["locales"]}
    assert status["catalogs"]
    for reported in status["catalogs"]:
        checked = by_check[(reported["catalog"], reported["locale"])]
        assert (checked["total"], checked["missing_count"], checked["invalid_count"], checked["coverage"]) == (
            reported["total"], reported["missing"], reported["invalid"], reported["coverage"]), reported["locale"]
    assert any(reported["missing"] for reported in status["catalogs"])  # the counts compared are not all zero


async def test_a_new_locale_without_a_source_file_is_refused_with_how_to_start_it(tmp_path: Path) -> None:
    root = _project("django", DJANGO, tmp_path)
    async with _client(root, tmp_path) as client:
        for messages in ({}, {"Hello": "Bonjour"}):
            result = await client.call_tool("i18n_set_messages", {"locale": "fr", "messages": messages,
                                                                   "create_locale": True})
            assert result.is_error and result.structured_content["code"] == "NO_SOURCE_FILES"  # type: ignore[index]
            assert "msginit" in result.content[0].text  # type: ignore[union-attr]
    assert git(root, "status", "--porcelain") == ""  # nothing made
