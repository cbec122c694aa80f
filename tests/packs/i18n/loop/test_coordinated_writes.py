"""The write tools through the host's coordinated writes, on the embedded engine (no `[state]`): a retry
with the same `idempotency_key` is answered the first outcome and writes nothing twice (set, rename,
translate-missing with sampling, extract), a key reused with other arguments is refused, subscribers
of a locale's bundle hear it changed, `i18n_history` is not listed without a shared engine, and the
`parlance_shared_write` hook reads again what another replica wrote.

Real MCP clients on an in-process host, real files. The same over PostgreSQL, across two server
processes: `test_shared_writes_postgres`.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import MCPDeprecationWarning
from mcp.shared.exceptions import MCPError
from mcp.types import CreateMessageResult, ResourceUpdatedNotification, TextContent

import parlance_i18n.pack
from parlance import SharedWrite
from parlance.testing import connect
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.translator import Translator
from parlance_i18n.settings import I18nSettings
from tests.support import write_tree

pytestmark = pytest.mark.anyio

EN = '{\n  "cart.title": "Cart",\n  "cart.empty": "Your cart is empty",\n  "old.key": "Old"\n}\n'
DE = '{\n  "cart.title": "Einkaufswagen",\n  "old.key": "Alt"\n}\n'
PACKAGE_JSON = '{"name": "app", "dependencies": {"react": "^19.0.0", "react-i18next": "^16.0.0"}}\n'
BUTTON = ('import { useTranslation } from "react-i18next";\nexport function Buy() {\n'
          '  const { t } = useTranslation();\n  return <button>Buy now</button>;\n}\n')


def _project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "shop", {"locales/en.json": EN, "locales/de.json": DE, "package.json": PACKAGE_JSON,
                                          "src/Buy.tsx": BUTTON})


def _config(root: Path, **settings: Any) -> dict[str, Any]:
    return {"packs": {"i18n": {"source_locale": "en", "write": True, "project_root": str(root),
                               "lock_file": str(root / "parlance-i18n.lock"),
                               "catalogs": [{"path": str(root / "locales/{locale}.json"), "name": "app"}],
                               "sources": [{"paths": ["src/**/*.tsx"]}], **settings}}}


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[no-any-return]


def _de(root: Path) -> dict[str, str]:
    return json.loads((root / "locales/de.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _hand_edit(root: Path, key: str, text: str) -> None:
    """What someone else does between a call and its retry: the retry must not undo it."""
    data = _de(root)
    data[key] = text
    (root / "locales/de.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


async def test_a_retry_is_answered_the_first_outcome_and_writes_nothing_twice(tmp_path: Path) -> None:
    root = _project(tmp_path)
    call = {"locale": "de", "messages": {"cart.empty": "Dein Warenkorb ist leer"}, "idempotency_key": "call-1"}
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root), mode="legacy") as client:
        first = await _call(client, "i18n_set_messages", call)
        _hand_edit(root, "cart.empty", "Leer")  # after the first call was applied
        edited = (root / "locales/de.json").read_bytes()
        retried = await _call(client, "i18n_set_messages", call)
        assert (root / "locales/de.json").read_bytes() == edited  # the retry wrote nothing
        reused = await client.call_tool("i18n_set_messages", {**call, "messages": {"cart.empty": "Anders"}})
        assert (root / "locales/de.json").read_bytes() == edited
        again = await _call(client, "i18n_set_messages", {k: v for k, v in call.items() if k != "idempotency_key"})
    assert first["written"] == 1 and first["results"][0]["status"] == "written"
    assert retried == first
    assert reused.is_error and reused.structured_content["code"] == "IDEMPOTENCY_KEY_REUSED"  # type: ignore[index]
    assert "give a new call a new key" in reused.content[0].text  # type: ignore[union-attr]
    # without a key, the same call is a new write: it writes again, over the hand edit
    assert again["written"] == 1 and _de(root)["cart.empty"] == "Dein Warenkorb ist leer"


async def test_a_retried_rename_is_not_refused_as_already_done(tmp_path: Path) -> None:
    root = _project(tmp_path)
    rename = {"old": "old.key", "new": "new.key", "idempotency_key": "rename-1"}
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root), mode="legacy") as client:
        first = await _call(client, "i18n_rename_key", rename)
        retried = await _call(client, "i18n_rename_key", rename)
        unkeyed = await client.call_tool("i18n_rename_key", {"old": "old.key", "new": "new.key"})
    assert first["written"] == 2 and retried == first
    assert unkeyed.is_error or unkeyed.structured_content["refused"] == 1  # type: ignore[index]
    assert "new.key" in _de(root) and "old.key" not in _de(root)


@pytest.mark.parametrize("key", ["", "k" * 201])
async def test_an_idempotency_key_is_1_to_200_characters(key: str, tmp_path: Path) -> None:
    root = _project(tmp_path)
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root)) as client:
        for tool, arguments in (("i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}}),
                                ("i18n_delete_keys", {"keys": ["old.key"]}),
                                ("i18n_translate_missing", {"locale": "de"}),
                                ("i18n_extract", {"file": "src/Buy.tsx", "line": 4, "column": 18})):
            result = await client.call_tool(tool, {**arguments, "idempotency_key": key})
            assert result.is_error and "idempotency_key" in result.content[0].text, (tool, result)  # type: ignore[union-attr]
        schemas = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
    assert _de(root) == json.loads(DE)
    for tool in ("i18n_set_messages", "i18n_rename_key", "i18n_delete_keys", "i18n_translate_missing", "i18n_extract"):
        described = schemas[tool]["properties"]["idempotency_key"]
        assert "answered the first outcome and writes nothing twice" in described["description"], tool


async def test_a_retried_translate_missing_is_answered_without_sampling_again(tmp_path: Path) -> None:
    root = _project(tmp_path)
    asked: list[str] = []

    async def sampling(context: Any, params: Any) -> CreateMessageResult:
        asked.append(params.messages[0].content.text)
        return CreateMessageResult(role="assistant", model="m", stop_reason="endTurn",
                                   content=TextContent(type="text", text='{"cart.empty": "Leer"}'))

    call = {"locale": "de", "idempotency_key": "translate-1"}
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root), mode="legacy",
                       sampling_callback=sampling) as client:
        first = await _call(client, "i18n_translate_missing", call)
        _hand_edit(root, "cart.empty", "Hand")
        retried = await _call(client, "i18n_translate_missing", call)
    assert first["mode"] == "sampled" and first["written"] == 1 and len(asked) == 1
    assert retried == first and _de(root)["cart.empty"] == "Hand"


async def test_a_retried_extraction_is_answered_and_edits_the_code_once(tmp_path: Path) -> None:
    root = _project(tmp_path)
    extract = {"file": "src/Buy.tsx", "line": 4, "column": 18, "key": "buy_now", "idempotency_key": "extract-1"}
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root), mode="legacy") as client:
        [found] = (await _call(client, "i18n_hardcoded", {}))["strings"]
        assert (found["line"], found["column"]) == (4, 18)
        first = await _call(client, "i18n_extract", extract)
        code = (root / "src/Buy.tsx").read_bytes()
        retried = await _call(client, "i18n_extract", extract)
        unkeyed = await client.call_tool("i18n_extract", {k: v for k, v in extract.items() if k != "idempotency_key"})
    assert '{t("buy_now")}' in first["code_diff"] and first["catalog_diff"] and retried == first
    assert (root / "src/Buy.tsx").read_bytes() == code
    assert unkeyed.is_error  # run again, the literal is gone: what the retry was kept from


def _updated(seen: list[Any]) -> list[str]:
    return [str(m.params.uri) for m in seen if isinstance(m, ResourceUpdatedNotification)]


async def _until(condition: Callable[[], bool], seconds: float = 10) -> None:
    with anyio.fail_after(seconds):
        while not condition():
            await anyio.sleep(0.01)


async def test_subscribers_of_a_bundle_hear_it_was_written(tmp_path: Path) -> None:
    root = _project(tmp_path)
    seen: list[Any] = []

    async def on_message(message: Any) -> None:
        seen.append(message)

    async with connect({"i18n": parlance_i18n.pack}, config=_config(root), mode="legacy",
                       message_handler=on_message) as client:
        with warnings.catch_warnings():  # subscriptions are the handshake era's
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource("i18n://bundles/de")
            await client.subscribe_resource("i18n://bundles/en")
        await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}, "dry_run": True})
        await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}})
        await _until(lambda: bool(_updated(seen)))
        await _call(client, "i18n_delete_keys", {"keys": ["old.key"]})  # in both locales' files
        await _until(lambda: len(_updated(seen)) >= 3)
        bundle = await client.read_resource("i18n://bundles/de")
    assert _updated(seen) == ["i18n://bundles/de", "i18n://bundles/de", "i18n://bundles/en"]  # not for the dry run
    assert "Leer" in bundle.contents[0].text  # type: ignore[union-attr]


async def test_the_write_log_is_not_listed_without_a_shared_engine(tmp_path: Path) -> None:
    root = _project(tmp_path)
    async with connect({"i18n": parlance_i18n.pack}, config=_config(root)) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        with pytest.raises(MCPError, match="Unknown tool"):
            await client.call_tool("i18n_history", {})
    assert "i18n_set_messages" in tools and "i18n_history" not in tools


# --- another replica's write: the hook -----------------------------------------------------------------


async def test_the_hook_reads_again_the_files_another_replica_wrote(tmp_path: Path) -> None:
    root = _project(tmp_path)
    settings = I18nSettings.model_validate(_config(root)["packs"]["i18n"])
    catalog = Catalog.from_settings(settings)
    translator = Translator(catalog)
    translator.prepare("de")
    assert translator.translate("cart.title", "de").translation == "Einkaufswagen"
    _hand_edit(root, "cart.title", "Warenkorb")  # as another replica writes it, on the shared checkout
    write_tree(root, {"locales/fr.json": '{"cart.title": "Panier"}\n'})  # and starts a locale
    assert translator.translate("cart.title", "de").translation == "Einkaufswagen"  # kept until told

    await parlance_i18n.pack.parlance_shared_write(
        state=catalog, change=SharedWrite("i18n", "i18n_set_messages", ("locales/de.json",), ("i18n://bundles/de",)))
    assert translator.translate("cart.title", "de").translation == "Warenkorb"
    assert "fr" not in catalog.bundles  # a file it was not told of

    await parlance_i18n.pack.parlance_shared_write(  # the lock file and .git are no catalog's: nothing listed
        state=catalog, change=SharedWrite("i18n", "i18n_set_messages", ("parlance-i18n.lock", ".git"), ()))
    assert "fr" not in catalog.bundles

    await parlance_i18n.pack.parlance_shared_write(
        state=catalog, change=SharedWrite("i18n", "i18n_set_messages", ("locales/fr.json",), ("i18n://bundles/fr",)))
    assert "fr" in catalog.bundles  # a file no locale had: the catalogs are listed again
    later = Translator(catalog)  # a new locale is a new session's (as without replicas: the README says so)
    later.prepare("fr")
    assert later.translate("cart.title", "fr").translation == "Panier"
