"""The per-session budget (messages, bytes, locales) and the per-bundle `max_messages`, which no
sequence of calls gets around: merges are counted, and every refusal names the limit, the value
that broke it and the `[packs.i18n]` setting to raise. Through a real MCP client, both eras."""

from __future__ import annotations

from typing import Any

import pytest

from parlance_i18n import SessionBudgetExceeded
from parlance_i18n.model.bundles import compile_bundle
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.locales import parse_locale
from parlance_i18n.settings import I18nSettings
from parlance_i18n.model.translator import Translator

pytestmark = pytest.mark.anyio


async def add(client: Any, locale: str, messages: dict[str, Any], merge: bool = False) -> dict[str, Any]:
    result = await client.call_tool("i18n_add_messages", {"locale": locale, "messages": messages, "merge": merge})
    return {"is_error": bool(result.is_error), "text": result.content[0].text, **result.structured_content}


def batch(start: int, count: int) -> dict[str, str]:
    return {f"k{i}": f"v{i}" for i in range(start, start + count)}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_repeated_merges_stop_at_max_messages(i18n_client: Any) -> None:
    async with i18n_client(max_messages=10) as client:
        for start in (0, 4):
            assert (await add(client, "de", batch(start, 4), merge=True))["message_count"] == start + 4
        refused = await add(client, "de", batch(8, 4), merge=True)
        overwrite = await add(client, "de", batch(6, 4), merge=True)  # keys 6 and 7 exist: 10 in all
        listing = await client.call_tool("i18n_list_locales", {})
    assert refused["is_error"] and refused["code"] == "INVALID_MESSAGES"
    assert "12 messages" in refused["error"] and "max_messages" in refused["error"]
    assert refused["data"] == {"locale": "de", "message_count": 12, "limit": 10, "setting": "max_messages"}
    assert overwrite["message_count"] == 10
    assert listing.structured_content["locales"][0]["message_count"] == 10


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_messages_across_locales_are_one_budget(i18n_client: Any) -> None:
    async with i18n_client(session_max_messages=10) as client:
        await add(client, "de", batch(0, 6))
        refused = await add(client, "fr", batch(0, 6))
        merged_too = await add(client, "de", batch(100, 5), merge=True)
        replaced = await add(client, "de", batch(0, 4))  # replacing a bundle frees what it held
        now_fits = await add(client, "fr", batch(0, 6))
    assert refused["code"] == "SESSION_BUDGET_EXCEEDED"
    assert refused["text"].startswith("SESSION_BUDGET_EXCEEDED: ")
    assert refused["data"] == {"locale": "fr", "budget": "messages", "value": 12, "limit": 10,
                               "setting": "session_max_messages"}
    for word in ("12 messages", "10", "[packs.i18n] session_max_messages", "Nothing was added"):
        assert word in refused["error"]
    assert merged_too["code"] == "SESSION_BUDGET_EXCEEDED" and merged_too["data"]["value"] == 11
    assert replaced["message_count"] == 4 and now_fits["message_count"] == 6


@pytest.mark.parametrize("mode", ["legacy"])
async def test_locales_budget(i18n_client: Any) -> None:
    async with i18n_client(session_max_locales=2) as client:
        await add(client, "de", {"a": "A"})
        await add(client, "fr", {"a": "A"})
        again = await add(client, "de", {"b": "B"}, merge=True)  # a locale it already has
        refused = await add(client, "pt-BR", {"a": "A"})
    assert again["message_count"] == 2
    assert refused["code"] == "SESSION_BUDGET_EXCEEDED"
    assert refused["data"] == {"locale": "pt-BR", "budget": "locales", "value": 3, "limit": 2,
                               "setting": "session_max_locales"}
    assert "3 locales" in refused["error"] and "[packs.i18n] session_max_locales" in refused["error"]


@pytest.mark.parametrize("mode", ["legacy"])
async def test_bytes_budget_counts_utf8_keys_and_messages(i18n_client: Any) -> None:
    async with i18n_client(session_max_bytes=1000) as client:
        fits = await add(client, "ja", {"k": "語" * 333})  # 1 + 999 bytes
        refused = await add(client, "ja", {"l": "x"}, merge=True)
    assert fits["message_count"] == 1
    assert refused["code"] == "SESSION_BUDGET_EXCEEDED"
    assert refused["data"] == {"locale": "ja", "budget": "bytes", "value": 1002, "limit": 1000,
                               "setting": "session_max_bytes"}
    assert "1,002 bytes" in refused["error"] and "[packs.i18n] session_max_bytes" in refused["error"]


@pytest.mark.parametrize("mode", ["legacy"])
async def test_the_budget_is_checked_before_anything_is_compiled(i18n_client: Any) -> None:
    async with i18n_client(session_max_messages=5) as client:
        refused = await add(client, "de", {f"k{i}": "{broken" for i in range(6)})
    assert refused["code"] == "SESSION_BUDGET_EXCEEDED"  # not INVALID_MESSAGES: nothing was parsed


@pytest.mark.parametrize("mode", ["legacy"])
async def test_sessions_have_budgets_of_their_own(mode: str) -> None:
    from parlance.testing import connect

    import parlance_i18n.pack

    config = {"packs": {"i18n": {"session_max_messages": 3}}}
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode=mode) as first:
        assert (await add(first, "de", batch(0, 3)))["message_count"] == 3
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode=mode) as second:
        assert (await add(second, "de", batch(0, 3)))["message_count"] == 3


def test_the_python_api_keeps_the_budget_too() -> None:
    settings = I18nSettings(session_max_messages=3)
    catalog = Catalog.from_settings(settings)
    catalog.add_bundle(compile_bundle(parse_locale("en"), batch(0, 5)))  # startup bundles cost sessions nothing
    translator = Translator(catalog)
    translator.add_messages("de", batch(0, 3))
    with pytest.raises(SessionBudgetExceeded) as caught:
        translator.add_messages("de", batch(10, 1), merge=True)
    assert caught.value.code == "SESSION_BUDGET_EXCEEDED" and caught.value.data["value"] == 4
    assert translator.translate("k0", "de").translation == "v0"


def test_budget_settings_have_bounded_defaults() -> None:
    settings = I18nSettings()
    assert settings.session_max_messages >= settings.max_messages
    assert settings.session_max_bytes <= 64 * 1024 * 1024
    assert 1 <= settings.session_max_locales <= 1000
    with pytest.raises(ValueError):
        I18nSettings(session_max_bytes=0)
