"""The code tools on every framework's tree that holds its catalog, through a real MCP client (in process):
the framework is told from the catalog's format (no `framework` set), the catalog's keys as the
format reads them meet the references as the framework reads them, `i18n_hardcoded` lists what the
framework finds, and `i18n_extract` writes a key the catalog's own format reads back, with a code diff
of the literal alone. The frameworks' own rules are tested beside each (`test_<framework>.py`); this is
the wiring between them and the catalogs.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import parlance_i18n.pack
from parlance.testing import connect
from parlance_i18n import formats
from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.locales import parse_locale

pytestmark = pytest.mark.anyio

TREES = Path(__file__).parent / "trees"


@dataclass(frozen=True)
class Tree:
    framework: str
    catalog: str
    """The catalog's path pattern."""
    source_file: str
    """The source locale's file, read back after an extraction."""
    paths: tuple[str, ...]
    format: str

    def __str__(self) -> str:
        return self.framework


CASES = [
    Tree("android", "app/src/main/res/values-{locale}/strings.xml", "app/src/main/res/values/strings.xml",
         ("app/src/main/**/*.kt", "app/src/main/**/*.java", "app/src/main/**/*.xml"), "android"),
    Tree("rails", "config/locales/{locale}.yml", "config/locales/en.yml", ("app/**/*.rb", "app/**/*.erb"), "yaml"),
    Tree("flutter", "lib/l10n/app_{locale}.arb", "lib/l10n/app_en.arb", ("lib/**/*.dart",), "arb"),
    Tree("java", "src/main/resources/messages_{locale}.properties", "src/main/resources/messages.properties",
         ("src/**/*.java",), "properties"),
    Tree("apple", "Notes/{locale}.lproj/Localizable.strings", "Notes/en.lproj/Localizable.strings",
         ("Notes/**/*.swift", "Notes/**/*.m"), "apple-strings"),
]


def _config(tree: Tree, root: Path) -> dict[str, Any]:
    return {"packs": {"i18n": {
        "source_locale": "en", "write": True, "project_root": str(root), "lock_file": str(root / "parlance-i18n.lock"),
        "catalogs": [{"path": str(root / tree.catalog), "name": "app"}],
        "sources": [{"paths": list(tree.paths)}],
    }}}


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[no-any-return]


def _changed(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("tree", CASES, ids=str)
async def test_usage_hardcoded_and_extract_meet_the_catalog(tree: Tree, tmp_path: Path) -> None:
    root = tmp_path / tree.framework
    shutil.copytree(TREES / tree.framework, root)
    fmt = formats.get(tree.format)
    keys_before = fmt.edit((root / tree.source_file).read_bytes(), parse_locale("en")).keys()
    async with connect({"i18n": parlance_i18n.pack}, config=_config(tree, root), mode="legacy") as client:
        usage = await _call(client, "i18n_usage", {"limit": 1000})
        assert usage["framework"] == tree.framework and usage["files_scanned"] > 0
        used = {u["key"] for u in usage["used"]}
        assert used, usage
        counted = usage["counts"]
        assert counted["used"] == len(used) and counted["unused"] == len(usage["unused"])
        # every catalog key is accounted for once: used, unused, or reachable through a dynamic prefix
        reader = framework_class(tree.framework)(SourceSettings(paths=list(tree.paths)))
        catalog = {reader.code_key(key) for key in keys_before}
        assert used | set(usage["unused"]) <= catalog and not used & set(usage["unused"])
        assert counted["used"] + counted["unused"] + counted["reachable"] == len(catalog)

        strings = (await _call(client, "i18n_hardcoded", {"limit": 1000}))["strings"]
        assert strings, "each tree holds hard-coded strings"
        attempts = []
        for candidate in strings:
            where = {"file": candidate["file"], "line": candidate["line"], "column": candidate["column"]}
            result = await client.call_tool("i18n_extract", {**where, "dry_run": True})
            if not result.is_error:
                chosen, dry = candidate, result.structured_content
                break
            attempts.append(result.content[0].text)
            assert "EXTRACTION_REFUSED" in attempts[-1], attempts[-1]  # a reason, never a failure
        else:
            pytest.fail(f"no hard-coded string of {tree} could be extracted: {attempts}")
        source = root / chosen["file"]
        before = source.read_bytes()
        done = await _call(client, "i18n_extract", {"file": chosen["file"], "line": chosen["line"],
                                                    "column": chosen["column"]})
        assert done["code_diff"] == dry["code_diff"] and done["key"] == chosen["suggested_key"]
        assert source.read_bytes() != before
        removed = [line for line in _changed(done["code_diff"]) if line.startswith("-")]
        assert len(removed) <= 2, done["code_diff"]  # the literal's line (and an import where one was needed)
        keys_after = fmt.edit((root / tree.source_file).read_bytes(), parse_locale("en")).keys()
        assert set(keys_after) - set(keys_before) == {done["key"]}  # the one new message, read back by the format

        after = await _call(client, "i18n_usage", {"limit": 1000})
        assert done["key"] in {u["key"] for u in after["used"]}
        assert chosen["text"] not in {s["text"] for s in (await _call(client, "i18n_hardcoded", {"limit": 1000}))[
            "strings"] if s["file"] == chosen["file"] and s["line"] == chosen["line"]}
