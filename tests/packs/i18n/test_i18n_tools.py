"""The tools and resources through a real MCP client, in both protocol eras (the `mode` fixture)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.types import ResourceTemplateReference

from parlance.testing import connect
from mcp import MCPError

pytestmark = pytest.mark.anyio


async def call(client: Any, tool: str, arguments: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments, **kwargs)
    content = result.structured_content
    if not result.is_error:  # the text block is the same JSON (errors read "CODE: message")
        assert json.loads(result.content[0].text) == content
    return {"is_error": bool(result.is_error), "text": result.content[0].text, **content}


async def test_the_seed_example(i18n_client: Any) -> None:
    async with i18n_client() as client:
        added = await call(client, "i18n_add_messages", {"locale": "es", "messages": {"greeting.hello": "Hola, {name}"}})
        assert added == {"is_error": False, "text": added["text"], "locale": "es", "message_count": 1, "status": "success"}
        found = await call(client, "i18n_translate", {"key": "greeting.hello", "locale": "es_MX", "variables": {"name": "World"}})
        assert (found["translation"], found["locale"], found["fallback"]) == ("Hola, World", "es", False)


async def test_fallbacks_and_interpolation_through_the_tool(i18n_client: Any) -> None:
    async with i18n_client() as client:
        await call(client, "i18n_add_messages", {"locale": "en", "messages": {
            "welcome": {"message": "Welcome, {user}! You have {count, plural, one {# message} other {# messages}}."}}})
        await call(client, "i18n_add_messages", {"locale": "zh-Hant", "messages": {"welcome.message": "歡迎 {user}"}})
        await call(client, "i18n_add_messages", {"locale": "zh", "messages": {"welcome.message": "欢迎 {user}"}})
        french = await call(client, "i18n_translate", {"key": "welcome.message", "locale": "fr",
                                                       "variables": {"user": "Alice", "count": "3"}})
        assert (french["translation"], french["locale"], french["fallback"]) == (
            "Welcome, Alice! You have 3 messages.", "en", True)
        taiwan = await call(client, "i18n_translate", {"key": "welcome.message", "locale": "zh_TW", "variables": {"user": "A"}})
        assert (taiwan["translation"], taiwan["locale"]) == ("歡迎 A", "zh-Hant")
        missing = await call(client, "i18n_translate", {"key": "welcome.message", "variables": {}})
        assert missing["translation"] == "Welcome, {user}! You have {count} messages."
        raw = await call(client, "i18n_translate", {"key": "no.such.key", "locale": "de-AT"})
        assert (raw["translation"], raw["locale"], raw["fallback"]) == ("no.such.key", "de-AT", True)


async def test_replace_and_merge(i18n_client: Any) -> None:
    async with i18n_client() as client:
        await call(client, "i18n_add_messages", {"locale": "de", "messages": {"a": "A", "b": "B"}})
        replaced = await call(client, "i18n_add_messages", {"locale": "de", "messages": {"c": "C"}})
        assert replaced["message_count"] == 1
        merged = await call(client, "i18n_add_messages", {"locale": "de", "messages": {"d": "D"}, "merge": True})
        assert merged["message_count"] == 2
        gone = await call(client, "i18n_translate", {"key": "a", "locale": "de"})
        assert gone["translation"] == "a" and gone["fallback"] is True


ERRORS = [
    # (tool, arguments, code, words the message must contain, data that must be present)
    ("i18n_translate", {"key": "x"}, "NO_BUNDLES_LOADED", ["i18n_add_messages", "bundle_dirs"], {}),
    ("i18n_check", {}, "NO_BUNDLES_LOADED", ["nothing to check"], {}),
    ("i18n_translate", {"key": "x", "locale": "en-"}, "INVALID_LOCALE", ["'en-'", "BCP 47"], {"locale": "en-"}),
    ("i18n_translate", {"key": "x", "locale": 7}, "INVALID_LOCALE", ["locale"], {}),
    ("i18n_add_messages", {"locale": "../../etc", "messages": {}}, "INVALID_LOCALE", ["'../../etc'"], {}),
    ("i18n_add_messages", {"locale": "de_DE.UTF-8", "messages": {}}, "INVALID_LOCALE", ["BCP 47"], {}),
    ("i18n_add_messages", {"messages": {}}, "INVALID_LOCALE", ["locale"], {}),
    ("i18n_add_messages", {"locale": ["de"], "messages": {}}, "INVALID_LOCALE", ["locale"], {}),
    ("i18n_check", {"locale": "nope-nope-nope!"}, "INVALID_LOCALE", ["BCP 47"], {}),
    ("i18n_add_messages", {"locale": "de", "messages": "Hallo"}, "INVALID_MESSAGES", ["object"], {"field": "messages"}),
    ("i18n_add_messages", {"locale": "de", "messages": ["Hallo"]}, "INVALID_MESSAGES", ["object"], {}),
    ("i18n_add_messages", {"locale": "de"}, "INVALID_MESSAGES", ["messages"], {}),
    ("i18n_add_messages", {"locale": "de", "messages": {"ok": "fine", "count": 3, "nested": {"flag": True}}},
     "INVALID_MESSAGES", ["'count'", "'nested.flag'", "a number", "a boolean"], {"keys": ["count", "nested.flag"]}),
    ("i18n_add_messages", {"locale": "de", "messages": {"broken": "Hallo {name"}},
     "INVALID_MESSAGES", ["'broken'", "position 11"], {"keys": ["broken"]}),
    ("i18n_translate", {"locale": "en"}, "INVALID_ARGUMENTS", [], {}),
    ("i18n_translate", {"key": "x", "variables": {"v": {"nested": 1}}}, "INVALID_ARGUMENTS", [], {}),
]


@pytest.mark.parametrize(("tool", "arguments", "code", "words", "data"), ERRORS)
async def test_every_error_code(i18n_client: Any, tool: str, arguments: dict[str, Any], code: str,
                                words: list[str], data: dict[str, Any]) -> None:
    async with i18n_client() as client:
        if code != "NO_BUNDLES_LOADED":
            await call(client, "i18n_add_messages", {"locale": "en", "messages": {"x": "X"}})
        error = await call(client, tool, arguments)
    assert error["is_error"] is True
    assert error["code"] == code
    assert error["text"].startswith(f"{code}: ")
    for word in words:
        assert word in error["error"]
    for key, value in data.items():
        assert error["data"][key] == value


async def test_a_rejected_bundle_changes_nothing(i18n_client: Any) -> None:
    async with i18n_client() as client:
        await call(client, "i18n_add_messages", {"locale": "de", "messages": {"a": "A"}})
        await call(client, "i18n_add_messages", {"locale": "de", "messages": {"b": "{"}})
        kept = await call(client, "i18n_translate", {"key": "a", "locale": "de"})
        assert kept["translation"] == "A" and kept["fallback"] is False


async def test_list_locales(i18n_client: Any) -> None:
    async with i18n_client(default_locale="en-US") as client:
        empty = await call(client, "i18n_list_locales", {})
        assert (empty["locales"], empty["default_locale"], empty["total"]) == ([], "en-US", 0)
        await call(client, "i18n_add_messages", {"locale": "en_US", "messages": {"a": "A", "b": "B"}})
        await call(client, "i18n_add_messages", {"locale": "zh_Hant_TW", "messages": {"a": "甲"}})
        listing = await call(client, "i18n_list_locales", {})
    assert listing["total"] == 2 and listing["default_locale"] == "en-US"
    assert listing["locales"][1] == {"code": "zh-Hant-TW", "language": "zh", "region": "TW", "message_count": 1,
                                     "script": "Hant", "display_name": "Chinese (Traditional, Taiwan)", "coverage": 0.5}


async def test_check_tool(i18n_client: Any) -> None:
    async with i18n_client() as client:
        await call(client, "i18n_add_messages", {"locale": "en", "messages": {
            "hi": "Hi {name}", "files": "{n, plural, one {# file} other {# files}}"}})
        await call(client, "i18n_add_messages", {"locale": "pl", "messages": {
            "hi": "Cześć {imie}", "files": "{n, plural, one {# plik} other {# plików}}", "extra": "x"}})
        report = await call(client, "i18n_check", {"locale": "pl_PL"})
        summary = await call(client, "i18n_check", {})
        everything = await call(client, "i18n_check", {"details": True})
    assert report["reference_locale"] == "en"
    [pl_pl] = report["locales"]
    assert pl_pl["code"] == "pl-PL" and pl_pl["coverage"] == 1.0 and pl_pl["message_count"] == 0
    # Without details, the counts and no lists; a locale of bundles belongs to no catalog.
    counted = next(r for r in summary["locales"] if r["code"] == "pl")
    assert (counted["extra_count"], counted["extra_keys"], counted["argument_mismatches"]) == (1, [], [])
    assert counted["catalog"] is None and counted["total"] is None and summary["next_cursor"] is None
    pl = next(r for r in everything["locales"] if r["code"] == "pl")
    assert pl["extra_keys"] == ["extra"]
    assert pl["argument_mismatches"] == [{"key": "hi", "missing": ["name"], "unexpected": ["imie"]}]
    assert pl["plural_gaps"] == [{"key": "files", "argument": "n", "ordinal": False, "missing": ["few", "many"]}]


async def test_check_reports_progress_locale_by_locale(i18n_client: Any) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with i18n_client() as client:
        for locale in ("en", "de", "fr"):
            await call(client, "i18n_add_messages", {"locale": locale, "messages": {"hi": "Hi"}})
        await call(client, "i18n_check", {}, progress_callback=on_progress)
    assert seen == [(1, 3, "checked de (1 of 3)"), (2, 3, "checked en (2 of 3)"), (3, 3, "checked fr (3 of 3)")]


async def test_large_bundles_report_progress(i18n_client: Any) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    messages = {f"k{i}": f"Message {i}" for i in range(3500)}
    async with i18n_client() as client:
        added = await call(client, "i18n_add_messages", {"locale": "en", "messages": messages},
                           progress_callback=on_progress)
        small: list[Any] = []

        async def on_small(*args: Any) -> None:
            small.append(args)

        await call(client, "i18n_add_messages", {"locale": "de", "messages": {"a": "b"}}, progress_callback=on_small)
    assert added["message_count"] == 3500
    assert [(p, t) for p, t, _ in seen] == [(1000, 3500), (2000, 3500), (3000, 3500), (3500, 3500)]
    assert seen[-1][2] == "compiled 3500 of 3500 messages"
    assert small == []


async def test_resources(i18n_client: Any) -> None:
    async with i18n_client() as client:
        await call(client, "i18n_add_messages", {"locale": "fr", "messages": {"b": "Bonjour {name}", "a": "Salut"}})
        await call(client, "i18n_add_messages", {"locale": "pt-BR", "messages": {"a": "Oi"}})
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        locales = await client.read_resource("i18n://locales")
        bundle = await client.read_resource("i18n://bundles/fr")
        underscore = await client.read_resource("i18n://bundles/pt_BR")
        with pytest.raises(MCPError):
            await client.read_resource("i18n://bundles/de")
        with pytest.raises(MCPError):
            await client.read_resource("i18n://bundles/..%2F..%2Fetc")
    assert [r.uri for r in listed.resources] == ["i18n://locales"]
    assert [t.uri_template for t in templates.resource_templates] == ["i18n://bundles/{locale}"]
    assert json.loads(locales.contents[0].text)["locales"][0]["code"] == "fr"
    assert json.loads(bundle.contents[0].text) == {"locale": "fr", "message_count": 2,
                                                   "messages": {"a": "Salut", "b": "Bonjour {name}"}}
    assert underscore is not None and json.loads(underscore.contents[0].text)["locale"] == "pt-BR"


async def test_the_bundle_templates_locale_completes_from_the_sessions_locales(i18n_client: Any,
                                                                                tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"a": "A"}))
    (tmp_path / "pt-PT.json").write_text(json.dumps({"a": "A (PT)"}))
    async with i18n_client(bundle_dirs=[str(tmp_path)], project_root=str(tmp_path)) as client:
        await call(client, "i18n_add_messages", {"locale": "pt-BR", "messages": {"a": "Oi"}})
        ref = ResourceTemplateReference(type="ref/resource", uri="i18n://bundles/{locale}")
        everything = await client.complete(ref, {"name": "locale", "value": ""})
        portuguese = await client.complete(ref, {"name": "locale", "value": "pt_"})
        nothing = await client.complete(ref, {"name": "locale", "value": "xx"})
    assert everything.completion.values == ["en", "pt-BR", "pt-PT"]
    assert portuguese.completion.values == ["pt-BR", "pt-PT"]
    assert (nothing.completion.values, nothing.completion.total) == ([], 0)


async def test_startup_bundles_and_configured_fallbacks(i18n_client: Any, tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"color": "color"}))
    (tmp_path / "pt-PT.json").write_text(json.dumps({"color": "cor (PT)"}))
    (tmp_path / "pt.po").write_text('msgid "color"\nmsgstr "cor"\n\nmsgid "only_pt"\nmsgstr "só"\n')
    async with i18n_client(bundle_dirs=[str(tmp_path)], project_root=str(tmp_path),
                           fallbacks={"pt-BR": ["pt-PT"]}) as client:
        listing = await call(client, "i18n_list_locales", {})
        brazil = await call(client, "i18n_translate", {"key": "color", "locale": "pt-BR"})
        only = await call(client, "i18n_translate", {"key": "only_pt", "locale": "pt-BR"})
        # A session's own bundle replaces the startup one for that session only.
        await call(client, "i18n_add_messages", {"locale": "pt-PT", "messages": {"other": "x"}})
        after = await call(client, "i18n_translate", {"key": "color", "locale": "pt-BR"})
    assert [entry["code"] for entry in listing["locales"]] == ["en", "pt", "pt-PT"]
    assert (brazil["translation"], brazil["locale"], brazil["fallback"]) == ("cor (PT)", "pt-PT", False)
    assert (only["translation"], only["locale"]) == ("só", "pt")
    assert (after["translation"], after["locale"]) == ("cor", "pt")


async def test_output_cap_setting(i18n_client: Any) -> None:
    async with i18n_client(max_output_chars=20) as client:
        await call(client, "i18n_add_messages", {"locale": "en", "messages": {"echo": "{a}{a}{a}"}})
        found = await call(client, "i18n_translate", {"key": "echo", "variables": {"a": "x" * 1000}})
    assert found["translation"] == "x" * 20


async def test_tool_definitions(i18n_client: Any) -> None:
    async with i18n_client() as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"i18n_translate", "i18n_add_messages", "i18n_list_locales", "i18n_check"}
    assert tools["i18n_translate"].annotations.read_only_hint is True
    assert tools["i18n_add_messages"].annotations.read_only_hint is False
    assert _output_fields(tools["i18n_translate"]) == {"translation", "locale", "fallback"}
    assert _output_fields(tools["i18n_add_messages"]) == {"locale", "message_count", "status"}
    assert _output_fields(tools["i18n_list_locales"]) == {"locales", "default_locale", "total"}
    assert tools["i18n_add_messages"].input_schema["required"] == ["locale", "messages"]


def _output_fields(tool: Any) -> set[str]:
    """The success branch's properties (the host also admits its error envelope via anyOf)."""
    schema = tool.output_schema
    branches = schema.get("anyOf", [schema])
    return next(set(b["properties"]) for b in branches if "error" not in b.get("properties", {}))


@pytest.mark.anyio
async def test_overlong_keys_are_invalid_messages() -> None:
    async with connect(["i18n"], config={"packs": {"i18n": {"max_message_chars": 100}}}) as client:
        result = await client.call_tool("i18n_add_messages", {"locale": "en", "messages": {"k" * 101: "v"}})
    assert result.structured_content["code"] == "INVALID_MESSAGES"
    assert "the key has 101 characters" in result.content[0].text
