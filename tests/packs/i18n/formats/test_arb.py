"""The arb format (Flutter): ICU messages with `@key` metadata, apostrophes as Flutter's default reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.arb import ArbFormat
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import PluralUse

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "arb"
EN = parse_locale("en")
FORMAT = ArbFormat()
APP_EN = (CATALOGS / "en" / "app_en.arb").read_bytes()


def test_detected_by_suffix_and_by_content_for_json() -> None:
    assert formats.detect("lib/l10n/app_en.arb") is formats.get("arb")
    assert formats.detect("l10n/en.json", b'{\n  "@@locale": "en",\n  "title": "Hi"\n}') is formats.get("arb")
    assert FORMAT.sniff(b'{"title": "Hi", "@title": {"description": "x"}}') is True
    assert FORMAT.sniff(b'{"title": "Hi"}') is False


def test_metadata_is_not_a_message_and_a_broken_message_is_reported() -> None:
    messages = FORMAT.read(APP_EN, EN)
    assert list(messages) == ["appTitle", "cartItems", "welcome", "dontForget", "quoted", "pronoun", "emptyState",
                              "lastSeen"]
    assert messages.problems == [Problem("brokenMessage", 29, "not a valid ICU message at position 18: expected '}' "
                                                             "or ',' after the argument name 'date'")]
    assert messages.comment("appTitle") == "The application title shown in the app bar"
    assert messages.comment("welcome") is None
    assert messages.text("cartItems") == ("{count, plural, =0{Your cart is empty} =1{One item in your cart} "
                                          "other{{count} items in your cart}}")


@pytest.mark.parametrize(("key", "values", "expected"), [
    ("appTitle", {}, "Parlance Shop"),
    ("cartItems", {"count": 0}, "Your cart is empty"),
    ("cartItems", {"count": 1}, "One item in your cart"),
    ("cartItems", {"count": 7}, "7 items in your cart"),
    ("welcome", {"userName": "Ann"}, "Welcome back, Ann!"),
    ("welcome", {}, "Welcome back, {userName}!"),
    ("dontForget", {}, "Don't forget your receipt"),
    ("quoted", {}, "She said ''hello''"),  # gen-l10n's default: apostrophes are plain text
    ("pronoun", {"gender": "male"}, "He liked your photo"),
    ("pronoun", {"gender": "x"}, "They liked your photo"),
    ("emptyState", {}, ""),
    ("lastSeen", {"when": "5/1/2024"}, "Last seen 5/1/2024"),
])
def test_messages_render(key: str, values: dict[str, object], expected: str) -> None:
    assert FORMAT.read(APP_EN, EN)[key].render(values, 200) == expected


def test_renderables_expose_their_source_arguments_and_plurals() -> None:
    messages = FORMAT.read(APP_EN, EN)
    quoted = messages["quoted"]
    assert (quoted.source, quoted.arguments, quoted.plurals) == ("She said ''hello''", frozenset(), ())
    items = messages["cartItems"]
    assert items.arguments == frozenset({"count"})
    assert items.plurals == (PluralUse("count", False, frozenset({"other"})),)
    apostrophe_and_argument = FORMAT.read(b'{"a": "It\'s {name}\'s {n, plural, one{# day} other{# days}}"}', EN)["a"]
    assert apostrophe_and_argument.render({"name": "Bo", "n": 2}, 100) == "It's Bo's 2 days"
    assert apostrophe_and_argument.arguments == frozenset({"name", "n"})


def test_positions_in_problems_count_apostrophes_as_written() -> None:
    messages = FORMAT.read(b'{\n"a": "It\'s {x y} now",\n"b": 5,\n"@b": {}}', EN)
    assert messages.problems == [
        Problem("a", 2, "not a valid ICU message at position 8: expected '}' or ',' after the argument name 'x'"),
        Problem("b", 3, "an ARB message is a string; metadata goes in an '@b' entry"),
    ]


def test_a_duplicated_key_uses_the_last_and_reports_the_first() -> None:
    french = FORMAT.read((CATALOGS / "fr" / "intl_fr.arb").read_bytes(), parse_locale("fr"))
    assert french["welcome"].render({"userName": "Zoé"}, 100) == "Re-bonjour, Zoé !"
    assert french.problems == [Problem("welcome", 8, "the key 'welcome' is written again later in the same object; "
                                                     "the last one is used (as JSON.parse does), so this one is "
                                                     "ignored: remove one of them")]
    assert french["itemsLeft"].render({"count": 1}, 100) == "Il reste 1 article"


@pytest.mark.parametrize("data", [b'[{"a": "b"}]', b"{'a': 'b'}", b'{"a": "b"'])
def test_a_file_that_is_not_an_object_is_refused(data: bytes) -> None:
    with pytest.raises(CatalogFileError):
        FORMAT.read(data, EN)


def test_set_keeps_the_metadata_and_delete_removes_it() -> None:
    document = FORMAT.edit(APP_EN, EN)
    assert document.keys()[0] == "appTitle" and "@appTitle" not in document.keys()
    document.set("appTitle", "Parlance Store")
    document.delete("cartItems")
    document.add("goodbye", "See you soon, {userName}")
    expected = APP_EN.decode().replace('"appTitle": "Parlance Shop"', '"appTitle": "Parlance Store"')
    start = expected.index('  "cartItems"')
    expected = expected[:start] + expected[expected.index('  "welcome"'):]
    expected = expected[:-len("  }\n}\n")] + '  },\n  "goodbye": "See you soon, {userName}"\n}\n'
    assert document.to_bytes().decode() == expected
    with pytest.raises(KeyError):
        document.add("@@locale", "fr")
    with pytest.raises(KeyError):
        document.set("@appTitle", "x")
    with pytest.raises(TypeError):
        document.set("appTitle", {"other": "x"})


def test_crlf_four_spaces_and_escapes_survive_an_edit() -> None:
    data = (CATALOGS / "de" / "app_de.arb").read_bytes()
    document = FORMAT.edit(data, parse_locale("de"))
    document.set("welcome", "Hallo wieder, {userName}!")
    document.add("tsch\u00fcss", "Tsch\u00fcss")
    assert document.to_bytes() == data.replace(b"Willkommen zur\\u00fcck", b"Hallo wieder").replace(
        b'"lastSeen": "Zuletzt gesehen {when}"',
        b'"lastSeen": "Zuletzt gesehen {when}",\r\n    "tsch\\u00fcss": "Tsch\\u00fcss"')
