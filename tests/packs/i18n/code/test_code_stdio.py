"""Seeing the code, end to end through a real MCP client over stdio (issue 24): on a small React +
i18next project (`projects/shop`, see its README) with a dead key, a key the code calls but the
catalog lacks, a dynamic key and a hard-coded button label, `i18n_usage` and `i18n_hardcoded` name
each; `i18n_extract` (dry run, then for real) turns the label into a key with a one-line code diff
and a one-message catalog diff; `i18n_delete_keys` removes the dead key in every locale; and the
next `i18n_usage` sees all of it, as does `i18n_status`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params

pytestmark = pytest.mark.anyio

SHOP = Path(__file__).parent / "projects" / "shop"
CONFIG = """\
[packs]
enabled = ["i18n"]

[packs.i18n]
source_locale = "en"
write = true

[[packs.i18n.catalogs]]
path = "locales/{locale}/translation.json"
name = "app"

[[packs.i18n.sources]]
paths = ["src/**/*.tsx", "src/**/*.ts"]
exclude = ["**/*.test.tsx"]

[language_packs]
paths = []
autoload = false
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root, ignore=shutil.ignore_patterns("README.md"))
    (root / "parlance.toml").write_text(CONFIG, encoding="utf-8")
    return root


def _changed(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


class _Session:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, result
        return result.structured_content  # type: ignore[return-value]


async def test_find_what_is_dead_and_what_is_hardcoded_then_fix_both(tmp_path: Path) -> None:
    root = _project(tmp_path)
    cart = root / "src" / "components" / "Cart.tsx"
    with open(tmp_path / "stderr.log", "w") as errlog, anyio.fail_after(120):
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=tmp_path), errlog=errlog),
                          mode="legacy") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert {"i18n_usage", "i18n_hardcoded", "i18n_extract"} <= tools
            session = _Session(client)

            usage = await session.call("i18n_usage", {})
            assert usage["framework"] == "i18next" and usage["files_scanned"] == 2
            assert usage["unused"] == ["legacy.banner"]
            assert [u["key"] for u in usage["undefined"]] == ["cart.checkout"]
            assert usage["undefined"][0]["references"] == [{"file": "src/components/Cart.tsx", "line": 17,
                                                            "column": 28}]
            used = {u["key"]: u for u in usage["used"]}
            assert set(used) == {"cart.empty", "cart.title", "cart.items", "header.welcome", "header.signOut"}
            assert used["cart.items"]["plural"] is True
            [dynamic] = usage["dynamic"]
            assert dynamic["expression"] == "`status.${state}`" and dynamic["prefix"] == "status."
            assert dynamic["reachable"] == 2 and usage["counts"]["reachable"] == 2  # status.open, status.shipped

            found = await session.call("i18n_hardcoded", {})
            assert [(s["file"], s["line"], s["text"], s["kind"]) for s in found["strings"]] == [
                ("src/components/Cart.tsx", 18, "Save changes", "jsx-text")]
            label = found["strings"][0]
            assert label["suggested_key"] == "cart.saveChanges"  # the catalog's style: dotted, camelCase parts

            before = cart.read_bytes()
            where = {"file": label["file"], "line": label["line"], "column": label["column"]}
            dry = await session.call("i18n_extract", {**where, "key": "cart.save", "dry_run": True})
            assert cart.read_bytes() == before
            assert _changed(dry["code_diff"]) == ["-      <button onClick={onSave}>Save changes</button>",
                                                 '+      <button onClick={onSave}>{t("cart.save")}</button>']
            added = [line for line in _changed(dry["catalog_diff"]) if line.startswith("+")]
            assert [line for line in added if '"save"' in line] == ['+    "save": "Save changes"'], dry["catalog_diff"]
            assert all('"save"' in line or line.rstrip().endswith(",") for line in added)  # one message, and a comma

            done = await session.call("i18n_extract", {**where, "key": "cart.save"})
            assert done["code_diff"] == dry["code_diff"] and done["catalog_diff"] == dry["catalog_diff"]
            assert '{t("cart.save")}' in cart.read_text(encoding="utf-8")
            english = json.loads((root / "locales/en/translation.json").read_text(encoding="utf-8"))
            assert english["cart"]["save"] == "Save changes"

            deleted = await session.call("i18n_delete_keys", {"keys": usage["unused"]})
            assert deleted["written"] >= 1, deleted
            for locale in ("en", "de"):
                catalog = json.loads((root / f"locales/{locale}/translation.json").read_text(encoding="utf-8"))
                assert "legacy" not in catalog, locale  # its emptied parent goes with it, as i18next-cli prunes

            again = await session.call("i18n_usage", {})
            assert again["unused"] == [] and "cart.save" in {u["key"] for u in again["used"]}
            assert (await session.call("i18n_hardcoded", {}))["strings"] == []
            status = await session.call("i18n_status", {})
            assert status["usage"] == [{"catalog": "app", "used": 6, "unused": 0, "undefined": 1, "dynamic": 1,
                                        "files_scanned": 2}]
