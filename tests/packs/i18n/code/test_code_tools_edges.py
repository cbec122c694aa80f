"""The code tools' edges, through a real MCP client (in process) on projects written here: a catalog of
several i18next namespaces (usage spelled `ns:key`, an extraction written into the namespace's file the
call reads), explicit plural forms, paging, non-ASCII columns, a file gone, a key a framework cannot
hold, a sources entry whose framework cannot be told (i18n_status still answers), and an edit made by
someone else between the plan and the write of an extraction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import parlance_i18n.pack
from parlance.testing import connect
from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.proposals import framework_for
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.store import ConcurrentChange
from parlance_i18n.tools.code import _again, _applied, _Planned
from tests.support import write_tree

pytestmark = pytest.mark.anyio


def _config(root: Path, catalog: str, **source: Any) -> dict[str, Any]:
    return {"packs": {"i18n": {"source_locale": "en", "write": True, "project_root": str(root),
                               "lock_file": str(root / "parlance-i18n.lock"),
                               "catalogs": [{"path": str(root / catalog), "name": "app"}],
                               "sources": [{"paths": ["src/**/*.tsx"], **source}]}}}


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[no-any-return]


async def _error(client: Any, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result
    return result.content[0].text  # type: ignore[no-any-return]


PACKAGE_JSON = '{"name": "app", "dependencies": {"react": "^19.0.0", "react-i18next": "^16.0.0"}}\n'

NAMESPACED = {
    "locales/en/common.json": '{\n  "save": "Save",\n  "old": "Old"\n}\n',
    "locales/en/account.json": '{\n  "title": "Account",\n  "tab_one": "{{count}} tab",\n  "tab_other": "{{count}} tabs"\n}\n',
    "src/Account.tsx": 'import { useTranslation } from "react-i18next";\n'
                       'export function Account() {\n'
                       '  const { t } = useTranslation("account");\n'
                       '  return <div title={t("common:save")}>{t("title")} {t("tab_one")}\n'
                       '    <button>Close account</button></div>;\n}\n',
}


async def test_a_catalog_of_namespaces_is_spelled_ns_key_and_extraction_writes_the_namespace_read(
        tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ns", NAMESPACED)
    config = _config(root, "locales/{locale}/{domain}.json", default_namespace="common")
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        usage = await _call(client, "i18n_usage", {})
        # `t("tab_one")` reads the plural group `tab` the catalog holds its forms in
        assert [u["key"] for u in usage["used"]] == ["account:tab", "account:title", "common:save"]
        assert usage["unused"] == ["common:old"] and usage["undefined"] == []

        [label] = (await _call(client, "i18n_hardcoded", {}))["strings"]
        where = {"file": label["file"], "line": label["line"], "column": label["column"]}
        done = await _call(client, "i18n_extract", {**where, "key": "close"})
        assert '{t("close")}' in done["code_diff"] and "account.json" in done["catalog_diff"]
        assert json.loads((root / "locales/en/account.json").read_text())["close"] == "Close account"
        assert "close" not in json.loads((root / "locales/en/common.json").read_text())
        assert "account:close" in {u["key"] for u in (await _call(client, "i18n_usage", {}))["used"]}

        deleted = await _call(client, "i18n_delete_keys", {"keys": ["common:old"]})
        assert deleted["written"] == 1 and "old" not in json.loads((root / "locales/en/common.json").read_text())


async def test_every_list_pages_to_its_end_and_no_further(tmp_path: Path) -> None:
    calls = "".join(f'<p title="Label number {n}">{{t("k{n}")}}</p>' for n in range(5))
    root = write_tree(tmp_path / "paged", {
        "package.json": PACKAGE_JSON,  # plain JSON catalogs are i18next's where the project depends on it
        "locales/en.json": json.dumps({f"k{n}": str(n) for n in range(7)}),
        "src/A.tsx": f'import {{ useTranslation }} from "react-i18next";\nexport function A() {{ '
                     f'const {{ t }} = useTranslation(); return <div>{calls}</div>; }}\n'})
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root, "locales/{locale}.json"),
                       mode="legacy") as client:
        for tool, field, total in (("i18n_usage", "used", 5), ("i18n_usage", "unused", 2),
                                   ("i18n_hardcoded", "strings", 5)):
            seen: list[Any] = []
            cursor = None
            pages = 0
            while True:
                page = await _call(client, tool, {"limit": 2, **({"cursor": cursor} if cursor else {})})
                seen += page[field]
                pages += 1
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            assert len(seen) == total and pages == 3, (tool, field, pages)  # the longest list sets the pages
            assert "INVALID_ARGUMENTS" in await _error(client, tool, {"limit": 3, "cursor": "bm90LWEtY3Vyc29y"})
        for glob in ("src/[z-a].tsx", "*a" * 40):  # a client's glob that is not one, or past the limits
            assert (await _error(client, "i18n_hardcoded", {"paths": [glob]})).startswith("INVALID_ARGUMENTS")


async def test_columns_count_characters_and_the_extraction_replaces_the_right_bytes(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "utf8", {
        "package.json": PACKAGE_JSON,
        "locales/en.json": '{\n  "greeting": "Grüße"\n}\n',
        "src/B.tsx": 'import { useTranslation } from "react-i18next";\nexport function B() { const { t } = '
                     'useTranslation();\n  return <p>{t("greeting")} — <b>Schön</b></p>; }\n'})
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root, "locales/{locale}.json"),
                       mode="legacy") as client:
        [label] = (await _call(client, "i18n_hardcoded", {}))["strings"]
        line = (root / "src/B.tsx").read_text().splitlines()[label["line"] - 1]
        assert line[label["column"] - 1:].startswith("Schön")
        done = await _call(client, "i18n_extract", {"file": "src/B.tsx", "line": label["line"],
                                                    "column": label["column"], "key": "nice"})
        assert '— <b>{t("nice")}</b></p>' in (root / "src/B.tsx").read_text() and "Schön" in done["catalog_diff"]


async def test_refusals_are_sentences(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "refusals", {
        "res/values/strings.xml": '<resources>\n    <string name="ok">OK</string>\n</resources>\n',
        "res/layout/main.xml": '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">\n'
                               '    <Button android:text="Sign in" />\n</LinearLayout>\n'})
    config = _config(root, "res/values-{locale}/strings.xml")
    config["packs"]["i18n"]["sources"] = [{"paths": ["res/**/*.xml"]}]
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        [label] = (await _call(client, "i18n_hardcoded", {}))["strings"]
        where = {"file": label["file"], "line": label["line"], "column": label["column"]}
        injected = await _error(client, "i18n_extract", {**where, "key": 'ok" android:onClick="evil'})
        assert injected.startswith("INVALID_ARGUMENTS: key: an Android resource name")
        assert "onClick" not in (root / "res/layout/main.xml").read_text()
        gone = await _error(client, "i18n_extract", {**where, "file": "res/layout/gone.xml"})
        assert gone.startswith("NOT_FOUND: res/layout/gone.xml does not exist")
        outside = await _error(client, "i18n_extract", {**where, "file": "../elsewhere.xml"})
        assert outside.startswith("INVALID_ARGUMENTS")


async def test_a_sources_entry_that_cannot_be_read_is_a_problem_of_the_status_not_its_failure(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "xliff", {
        "translations/messages.en.xlf": '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:'
                                        'xliff:document:1.2"><file source-language="en" datatype="plaintext" '
                                        'original="m"><body><trans-unit id="a"><source>A</source></trans-unit>'
                                        '</body></file></xliff>\n',
        "src/C.tsx": "export const C = 1;\n"})
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root, "translations/messages.{locale}.xlf"),
                       mode="legacy") as client:
        status = await _call(client, "i18n_status", {})
        [problem] = status["catalog_problems"]
        assert problem["catalog"] == "[[packs.i18n.sources]]" and "set framework" in problem["reason"]
        assert status["usage"] == []
        assert (await _error(client, "i18n_usage", {})).startswith("UNKNOWN_FRAMEWORK")


LABELS = ('import { useTranslation } from "react-i18next";\nexport function D() { const { t } = useTranslation();\n'
          '  return <div>\n    <button>Save changes</button>\n    <p>{t("x")}</p>\n    <button>Save changes</button>\n'
          '  </div>; }\n')


def _planned(data: bytes, rank: int) -> tuple[Any, _Planned]:
    framework = framework_class("i18next")(SourceSettings(paths=["**/*.tsx"], framework="i18next"))
    literal = [h for h in framework.scan("D.tsx", data).hardcoded if h.text == "Save changes"][rank]
    after = _applied(data, framework.extraction("D.tsx", data, literal, "save").edits)
    return framework, _Planned(data, literal, "save", "save", after, "Save changes", None)


def test_a_concurrent_edit_elsewhere_keeps_the_extraction_on_its_literal() -> None:
    data = LABELS.encode()
    framework, planned = _planned(data, 1)
    moved = data.replace(b"  return <div>\n", b"  // a comment someone added\n  return <div>\n")
    result = _again(framework, "D.tsx", planned, moved).decode()
    assert result.count("Save changes") == 1 and result.index("Save changes") < result.index('{t("save")}')
    assert "// a comment someone added" in result


def test_a_concurrent_edit_of_the_literals_own_kind_writes_nothing() -> None:
    data = LABELS.encode()
    framework, planned = _planned(data, 1)
    # someone else extracted the first of the two: which one is meant can no longer be told for sure
    taken = data.replace(b"<button>Save changes</button>", b'<button>{t("other")}</button>', 1)
    with pytest.raises(ConcurrentChange, match="cannot be told for sure"):
        _again(framework, "D.tsx", planned, taken)
    with pytest.raises(ConcurrentChange, match="deleted"):
        _again(framework, "D.tsx", planned, None)


@pytest.mark.parametrize(("manifest", "framework"), [
    ({"dependencies": {"react-i18next": "1"}}, "i18next"),
    ({"devDependencies": {"i18next": "1"}}, "i18next"),
    ({"dependencies": {"react-intl": "1"}}, "formatjs"),
    ({"dependencies": {"react-intl": "1", "i18next": "1"}}, "formatjs"),
    (None, "formatjs"),
    ("not a manifest", "formatjs"),
])
def test_a_plain_json_catalogs_framework_is_told_by_the_projects_dependencies(manifest: object, framework: str,
                                                                             tmp_path: Path) -> None:
    if manifest is not None:
        (tmp_path / "package.json").write_text(json.dumps(manifest) if isinstance(manifest, dict) else manifest)
    assert framework_for(tmp_path, "icu-json") == framework
    assert framework_for(tmp_path, "i18next") == "i18next"  # a catalog the format reads as i18next's is
