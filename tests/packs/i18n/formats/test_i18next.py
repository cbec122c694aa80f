"""The i18next format: reading (flattening, problems), i18next's lookup, interpolation, nesting and
formats rule by rule, what checks see, sniffing, and editing.

Every expected rendering in the tables below is what i18next 27.1.5 returns for the same resources
and options (test_i18next_interop.py compares whole catalogs with i18next in the test run itself).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.i18next.format import I18nextFormat, I18nextMessages
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import PluralUse

FORMAT = formats.get("i18next")


def _read(source: str | bytes | dict[str, Any], locale: str = "en") -> I18nextMessages:
    data = json.dumps(source).encode() if isinstance(source, dict) else source
    data = data.encode() if isinstance(data, str) else data
    messages = FORMAT.read(data, parse_locale(locale))
    assert isinstance(messages, I18nextMessages)
    return messages


def _render(messages: I18nextMessages, key: str, values: dict[str, Any] | None = None, limit: int = 10_000) -> str:
    message = messages.get(key)
    assert message is not None, f"{key!r} is not a message"
    return message.render(values, limit)


def test_the_registry_gives_this_format() -> None:
    assert isinstance(FORMAT, I18nextFormat)
    assert FORMAT.name == "i18next" and FORMAT.suffixes == (".json",)


# --- reading --------------------------------------------------------------------------------------------


def test_nested_objects_become_dot_keys_beside_literal_dotted_keys() -> None:
    messages = _read({"a": {"b": {"c": "deep"}}, "d.e": "flat", "f": "top"})
    assert list(messages) == ["a.b.c", "d.e", "f"]
    assert messages.text("a.b.c") == "deep" and messages.text("d.e") == "flat"
    assert messages.get("a") is None and messages.get("a.b") is None  # objects are not messages
    assert messages.problems == []


def test_values_that_are_not_strings_are_reported_with_their_lines_and_left_out() -> None:
    messages = _read('{\n  "ok": "Fine",\n  "list": ["a", "b"],\n  "nested": {\n    "count": 5,\n'
                     '    "flag": true\n  },\n  "gone": null\n}\n')
    assert list(messages) == ["ok"]
    assert messages.problems == [
        Problem("list", 3, "the value is an array, which i18next returns only to t(key, {returnObjects: true}): "
                           "write one string per key"),
        Problem("nested.count", 5, "the value is a number, not a string: i18next returns it unformatted; "
                                   "write it in quotes"),
        Problem("nested.flag", 6, "the value is a boolean, not a string: i18next returns it unformatted; "
                                  "write it in quotes"),
        Problem("gone", 8, "the value is null, which i18next treats as missing: write a string or remove the key"),
    ]
    assert messages.get("list") is None and messages.text("list") is None


def test_a_key_written_twice_is_reported_and_its_last_value_used_as_json_parse_does() -> None:
    messages = _read('{\n  "save": "Save",\n  "title": "Old",\n  "title": "New"\n}')
    assert _render(messages, "title") == "New"
    assert messages.problems == [Problem("title", 3, "the key is written more than once in its object; like i18next, "
                                                     "Parlance uses the last value: delete the others")]


def test_a_key_spelled_both_flat_and_nested_keeps_the_nested_value_as_i18next_does() -> None:
    messages = _read('{\n  "a.b": "literal",\n  "a": {"b": "nested"}\n}')
    assert _render(messages, "a.b") == "nested"
    assert messages.problems == [Problem("a.b", 2, "the key 'a.b' is also written with 1 more level(s) of nested "
                                                   "objects, which i18next reads instead: keep one spelling")]


def test_an_empty_string_is_kept_as_text_but_is_not_a_translation() -> None:
    messages = _read({"pending": "", "done": "Done"})
    assert messages.text("pending") == ""
    assert "pending" not in messages and messages.get("pending") is None
    assert list(messages) == ["done"] and len(messages) == 1


def test_plural_groups_are_listed_once_by_base_key() -> None:
    messages = _read({"title": "T", "items_one": "{{count}} item", "items_other": "{{count}} items",
                      "place_ordinal_one": "{{count}}st", "place_ordinal_other": "{{count}}th",
                      "own": "Own", "own_other": "Owns"})
    assert list(messages) == ["title", "items", "place", "own"]
    assert messages.file_keys == ["title", "items_one", "items_other", "place_ordinal_one", "place_ordinal_other",
                                  "own", "own_other"]
    assert "items_one" in messages and messages.get("items_one") is not None  # forms stay gettable
    assert len(messages) == 4
    assert "items" in messages and "place" in messages and "nothing" not in messages
    assert messages.text("items") == {"one": "{{count}} item", "other": "{{count}} items"}
    assert messages.text("place") == {"ordinal_one": "{{count}}st", "ordinal_other": "{{count}}th"}


def test_a_key_with_only_context_forms_renders_with_its_context() -> None:
    messages = _read({"greeting_male": "Hi sir", "greeting_female": "Hi madam"})
    assert "greeting" not in list(messages)
    assert _render(messages, "greeting", {"context": "female"}) == "Hi madam"
    assert _render(messages, "greeting") == "greeting"  # i18next answers the key itself


@pytest.mark.parametrize(("data", "expected"), [
    (b'\xef\xbb\xbf{"a": "BOM"}', "BOM"),
    ('{"a": "UTF-16 \u00e9"}'.encode("utf-16"), "UTF-16 \u00e9"),
    (b'{\r\n\t"a": "CRLF and tabs"\r\n}', "CRLF and tabs"),
    (b'{"a": "no newline at the end"}', "no newline at the end"),
], ids=["bom", "utf-16", "crlf-tabs", "no-final-newline"])
def test_encodings_and_layouts(data: bytes, expected: str) -> None:
    assert _render(_read(data), "a") == expected


@pytest.mark.parametrize(("data", "reason", "line"), [
    (b"", "the file is not valid JSON: expecting value", 1),
    (b'{\n  "a": "one",\n}\n', "the file is not valid JSON: expecting property name enclosed in double quotes", 3),
    (b'["a"]', "an i18next file holds one JSON object of keys and messages, not an array", 1),
    (b'"text"', "an i18next file holds one JSON object of keys and messages, not a string", 1),
    (b'{"a": NaN}', "the file is not valid JSON: NaN is not JSON", None),
    (b'{\n"a": "\xff"}', "the file is not valid UTF-8 (byte 8); save it as UTF-8", 2),
])
def test_a_file_that_cannot_be_read_at_all_is_refused_with_a_reason(data: bytes, reason: str, line: int | None) -> None:
    with pytest.raises(CatalogFileError) as caught:
        _read(data)
    assert (caught.value.reason, caught.value.line) == (reason, line)


# --- lookup: plural forms, ordinals, context ------------------------------------------------------------

LOOKUP = {
    "items_zero": "none", "items_one": "one {{count}}", "items_other": "other {{count}}",
    "apples": "base", "apples_one": "one apple", "apples_other": "other apples",
    "place_one": "cardinal one", "place_ordinal_two": "{{count}}nd", "place_ordinal_other": "{{count}}th",
    "friend": "a friend", "friend_male": "he", "friend_male_one": "one boyfriend",
    "friend_female_other": "{{count}} girlfriends", "friend_5": "five",
}


@pytest.mark.parametrize(("locale", "key", "values", "expected"), [
    ("en", "items", {"count": 0}, "none"),
    ("en", "items", {"count": 0.0}, "none"),
    ("en", "items", {"count": 1}, "one 1"),
    ("en", "items", {"count": 1.0}, "one 1"),
    ("en", "items", {"count": 2}, "other 2"),
    ("en", "items", {"count": 1.5}, "other 1.5"),
    ("en", "items", {"count": -1}, "one -1"),
    ("en", "items", {"count": "1"}, "items"),  # a string count selects nothing
    ("en", "items", {}, "items"),
    ("en", "items", {"count": None}, "other "),  # Number(null) is 0: "other"; null prints nothing
    ("en", "items", {"count": True}, "one true"),
    ("en", "items", {"count": 0, "ordinal": True}, "other 0"),  # no _zero for ordinals
    ("ru", "items", {"count": 0}, "none"),
    ("ru", "items", {"count": 21}, "one 21"),
    ("ru", "items", {"count": 3}, "other 3"),  # _few missing, and the base key: _other
    ("ru", "apples", {"count": 3}, "base"),  # the base key is tried before _other
    ("ru", "apples", {"count": 1.5}, "other apples"),
    ("en", "place", {"count": 1, "ordinal": True}, "cardinal one"),  # _ordinal_one missing: _one
    ("en", "place", {"count": 2, "ordinal": True}, "2nd"),
    ("en", "place", {"count": 22, "ordinal": True}, "22nd"),
    ("en", "place", {"count": 11, "ordinal": True}, "11th"),
    ("en", "place", {"count": 1}, "cardinal one"),
    ("en", "friend", {"context": "male"}, "he"),
    ("en", "friend", {"context": "male", "count": 1}, "one boyfriend"),
    ("en", "friend", {"context": "male", "count": 2}, "he"),
    ("en", "friend", {"context": "female", "count": 1}, "a friend"),
    ("en", "friend", {"context": "female", "count": 7}, "7 girlfriends"),
    ("en", "friend", {"context": "nobody"}, "a friend"),
    ("en", "friend", {"context": ""}, "a friend"),
    ("en", "friend", {"context": 5}, "five"),
    ("en", "friend", {"context": True}, "a friend"),
])
def test_lookup_follows_i18next(locale: str, key: str, values: dict[str, Any], expected: str) -> None:
    assert _render(_read(LOOKUP, locale), key, values) == expected


@pytest.mark.parametrize(("locale", "counts"), [
    ("ar", {0: "zero", 1: "one", 2: "two", 3: "few", 11: "many", 100: "other", 101: "other", 103: "few", 1.5: "other"}),
    ("cy", {0: "zero", 1: "one", 2: "two", 3: "few", 6: "many", 4: "other", 1.5: "other"}),
    ("pl", {0: "zero", 1: "one", 2: "few", 5: "many", 22: "few", 1.5: "other"}),
    ("ja", {0: "zero", 1: "other", 2: "other"}),  # _zero answers count 0 in every language
])
def test_categories_come_from_cldr(locale: str, counts: dict[float, str]) -> None:
    messages = _read({f"n_{category}": category for category in ("zero", "one", "two", "few", "many", "other")},
                     locale)
    assert {count: _render(messages, "n", {"count": count}) for count in counts} == counts


# --- interpolation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("message", "values", "expected"), [
    ("Hi {{name}}", {"name": "<b>A & B</b> \"q\" 'x' /"},
     "Hi &lt;b&gt;A &amp; B&lt;/b&gt; &quot;q&quot; &#39;x&#39; /"),
    ("Hi {{- name}} and {{-name}}", {"name": "<b>A & B</b>"}, "Hi <b>A & B</b> and <b>A & B</b>"),
    ("Hi {{ name }}", {"name": "Ann"}, "Hi Ann"),
    ("Hi {{name}} {{- missing}} {{missing}}", {"name": "Ann"}, "Hi Ann {{- missing}} {{missing}}"),
    ("Hi {{name}}", {}, "Hi {{name}}"),
    ("Hi {{name}}!", {"name": None}, "Hi !"),
    ("{{name}}", {"name": "{{other}} $t(x)", "other": "no"}, "{{other}} $t(x)"),
    ("{{- name}} {{name}}", {"name": "{{name}}"}, "{{name}} {{name}}"),
    ("{{a}}{{b}}", {"a": "{{", "b": "b}}"}, "{{b}}"),
    ("{{{name}}}", {"name": "n"}, "{{{name}}}"),
    ("{{name}}}", {"name": "n"}, "n}"),
    ("{{\nname}}", {"name": "n"}, "{{\nname}}"),
    ("{{user.name}}", {"user.name": "flat"}, "flat"),
    ("{{user.name}}", {"user": {"name": "deep"}}, "deep"),
    ("{{n}}|{{m}}|{{o}}|{{p}}|{{q}}|{{r}}|{{s}}", {"n": 1.0, "m": 1e21, "o": 1e-7, "p": 0.1 + 0.2, "q": True,
                                                 "r": 123456789012345678901, "s": -0.0},
     "1|1e+21|1e-7|0.30000000000000004|true|123456789012345680000|0"),
    ("{{count}} items", {"count": 1.5}, "1.5 items"),
])
def test_interpolation_follows_i18next(message: str, values: dict[str, Any], expected: str) -> None:
    assert _render(_read({"k": message}), "k", values) == expected


@pytest.mark.parametrize(("locale", "message", "values", "expected"), [
    ("en", "{{v, number}}", {"v": 1234.5678}, "1,234.568"),
    ("en", "{{v, NUMBER}}", {"v": "1e3"}, "1,000"),
    ("en", "{{v, number}}", {"v": "abc"}, "NaN"),
    ("en", "{{v, number}}", {"v": ""}, "0"),
    ("en", "{{v, number(minimumFractionDigits: 2)}}", {"v": 3}, "3.00"),
    ("en", "{{v, number(maximumSignificantDigits: 2)}}", {"v": 1234}, "1,200"),
    ("en", "{{v, number(style: percent)}}", {"v": 0.256}, "26%"),
    ("en", "{{v, number(useGrouping: false)}}", {"v": 12345}, "12345"),
    ("en", "{{v, number(signDisplay: always)}}", {"v": 5}, "+5"),
    ("en", "{{v, number}}", {"v": 1.0005}, "1.001"),  # half away from zero, on the shortest digits
    ("en", "{{v, number}}", {"v": -0.0001}, "-0"),
    ("en", "{{v, currency(USD)}}", {"v": 1234.5}, "$1,234.50"),
    ("en", "{{v, currency(CHF)}}", {"v": 1}, "CHF\u00a01.00"),
    ("en", "{{v, currency(USD)}}", {"v": 1, "currency": "EUR"}, "€1.00"),  # t()'s options override
    ("en", "{{v, currency(currency: USD; currencyDisplay: code)}}", {"v": 2}, "USD\u00a02.00"),
    ("en", "{{v, currency(USD; currencyDisplay: code)}}", {"v": 2}, "2"),  # "USD" is no option: Intl throws
    ("en", "{{v, currency(JPY)}}", {"v": 1234.5}, "¥1,235"),
    ("de", "{{v, number}}", {"v": 1234.5}, "1.234,5"),
    ("de", "{{v, currency(EUR)}}", {"v": -3}, "-3,00\u00a0€"),
    ("pl", "{{v, number}} {{w, number}}", {"v": 1234, "w": 12345}, "1234 12\u00a0345"),
    ("ar", "{{v, number}} {{w, number(style: percent)}}", {"v": -1, "w": 0.5}, "\u200e-1 50\u200e%\u200e"),
    ("ar-EG", "{{v, number}}", {"v": 1234.5}, "١٬٢٣٤٫٥"),
    ("en", "{{v, datetime}}", {"v": 1705312800000}, "1/15/2024"),
    ("de", "{{v, datetime}}", {"v": 1705312800000}, "15.1.2024"),
    ("ru", "{{v, datetime(dateStyle: long)}}", {"v": 1705312800000}, "15 января 2024 г."),
    ("en", "{{v, datetime(weekday: long; hour: numeric; minute: 2-digit)}}", {"v": 1705312800000},
     "Monday 10:00 AM"),
    ("it", "{{v, datetime(hour: numeric; minute: 2-digit)}}", {"v": 0}, "0:00"),
    ("en", "{{v, datetime}}", {"v": "2024-01-15"}, "2024-01-15"),  # Intl throws: the value stays
    ("en", "{{v, relativetime}}", {"v": 3}, "in 3 days"),
    ("en", "{{v, relativetime(month)}}", {"v": -1}, "1 month ago"),
    ("ru", "{{v, relativetime(range: year)}}", {"v": 2}, "через 2 года"),
    ("cy", "{{v, relativetime}}", {"v": 2}, "ymhen deuddydd"),
    ("en", "{{v, relativetime}}", {"v": 0.0005}, "in 0 days"),  # RelativeTimeFormat rounds half to even
    ("en", "{{v, list}}", {"v": "abc"}, "a, b, and c"),
    ("de", "{{v, list(type: disjunction)}}", {"v": "xy"}, "x oder y"),
    ("en", "{{v, list}}", {"v": 5}, "5"),
    ("en", "{{v, uppercase}}", {"v": "a<b"}, "a&lt;b"),  # no such format: the value as is
    ("en", "{{v, number}}", {"v": None}, ""),
    ("en", "{{v, number}}", {}, "{{v, number}}"),
])
def test_formats_emulate_intl(locale: str, message: str, values: dict[str, Any], expected: str) -> None:
    assert _render(_read({"k": message}, locale), "k", values) == expected


# --- nesting --------------------------------------------------------------------------------------------

NESTING = {
    "name": "Parlance",
    "hello": "Hello {{who}}!",
    "items_one": "one item", "items_other": "{{count}} items",
    "title": "Welcome to $t(name)",
    "withCount": "You have $t(items, {\"count\": 3})",
    "quoted": "You have $t(items, {'count': 1})",
    "interpolated": "You have $t(items, {\"count\": {{n}} })",
    "escaped": "a $t(hello, {\"who\": \"{{v}}\"}) b",
    "inherits": "$t(items) in total",
    "prefixed": "$t(translation:name) and $t(other:name)",
    "missing": "See $t(no.such.key)",
    "badOptions": "x $t(items, {oops}) y",
    "formatted": "$t(number, number) / $t(name, uppercase)",
    "number": " 1234.5 ",
    "self": "Again: $t(self)",
    "a": "A>$t(b)", "b": "B>$t(a)",
    "c1": "1>$t(c2)", "c2": "2>$t(c3)", "c3": "3>$t(c1)",
    "brought": "{{v}} then $t(name)",
    "lng": "$t(showLng)", "showLng": "language {{lng}}",
}


@pytest.mark.parametrize(("key", "values", "expected"), [
    ("title", {}, "Welcome to Parlance"),
    ("withCount", {}, "You have 3 items"),
    ("quoted", {}, "You have one item"),
    ("interpolated", {"n": 7}, "You have 7 items"),
    ("interpolated", {}, "You have items,{\"count\": {{n}} }"),  # unparsable options: the text as the key
    ("escaped", {"v": "<i>"}, "a Hello &amp;lt;i&amp;gt;! b"),  # escaped in the options, then again
    ("inherits", {"count": 5}, "5 items in total"),  # a nested call gets the caller's options
    ("prefixed", {}, "Parlance and name"),  # another namespace is not loaded: its key is answered
    ("missing", {}, "See no.such.key"),
    ("badOptions", {}, "x items,{oops} y"),
    ("formatted", {}, "1,234.5 / Parlance"),
    ("self", {}, "Again: Again: "),  # i18next refuses a key nesting the key that nested it
    ("a", {}, "A>B>"),
    ("brought", {"v": "$t(name)"}, "$t(name) then $t(name)"),  # a variable brought $t( in: no nesting
    ("lng", {}, "language en"),
])
def test_nesting_follows_i18next(key: str, values: dict[str, Any], expected: str) -> None:
    assert _render(_read(NESTING), key, values) == expected


def test_a_nesting_cycle_that_overflows_i18next_stops_and_renders() -> None:
    rendered = _render(_read(NESTING), "c1")
    assert rendered.startswith("1>2>3>1>2>3>") and rendered.endswith(">")


def test_nesting_fan_out_is_bounded_in_time_and_length() -> None:
    level = {f"l{i}": " ".join([f"$t(l{i + 1})"] * 10) for i in range(12)}
    messages = _read({**level, "l12": "leaf"})
    started = time.perf_counter()
    rendered = _render(messages, "l0", limit=1000)
    assert time.perf_counter() - started < 2
    assert len(rendered) == 1000 and rendered.startswith("leaf leaf")


def test_render_never_returns_more_than_the_limit() -> None:
    messages = _read({"k": "{{v}} and more", "plural_one": "{{count}} thing", "plural_other": "{{count}} things"})
    assert _render(messages, "k", {"v": "x" * 50}, limit=10) == "x" * 10
    assert _render(messages, "plural", {"count": 12345}, limit=4) == "1234"


# --- what checks see ------------------------------------------------------------------------------------


def test_arguments_plurals_and_source_for_checks() -> None:
    messages = _read({"plain": "Hi {{name}}, {{- link}} {{amount, number}} {{ user.name }}",
                      "items_one": "One item", "items_other": "{{count}} items from {{shop}}",
                      "rank_ordinal_one": "{{count}}st", "rank_ordinal_other": "{{count}}th", "rank_other": "n",
                      "nested": "$t(items, {\"count\": {{n}} })"})
    assert messages["plain"].arguments == frozenset({"name", "link", "amount", "user.name"})
    assert messages["plain"].plurals == ()
    assert messages["plain"].source == "Hi {{name}}, {{- link}} {{amount, number}} {{ user.name }}"
    assert messages["items"].arguments == frozenset({"count", "shop"})
    assert messages["items"].plurals == (PluralUse("count", False, frozenset({"one", "other"})),)
    assert messages["items"].source == "{{count}} items from {{shop}}"
    assert messages["items_one"].arguments == frozenset({"count"})  # a form is rendered with count too
    assert messages["items_one"].plurals == ()
    assert messages["rank"].plurals == (PluralUse("count", False, frozenset({"other"})),
                                        PluralUse("count", True, frozenset({"one", "other"})))
    assert messages["nested"].arguments == frozenset({"n"})


# --- sniffing -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("head", "claimed"), [
    (b'{"items_one": "One", "items_other": "Many"}', True),
    (b'{"a": "Go to $t(home)"}', True),
    (b'{"a": "Hello {{name}}"}', True),
    (b'{"a": "Hello {{ name, number }}"}', True),
    (b'{"a": "Hello {name}"}', False),
    (b'{"a": "{n, plural, one {{n} item} other {{n} items}}"}', False),
    (b'{"a": "{n, plural, other {{n}}} and {{name}}"}', False),
    (b'{"@@locale": "en", "a": "b"}', False),
])
def test_sniff_claims_json_with_i18next_traits(head: bytes, claimed: bool) -> None:
    assert FORMAT.sniff(head) is claimed


def test_detect_picks_i18next_for_an_i18next_file() -> None:
    assert formats.detect("locales/en/translation.json", b'{"cart_one": "x", "cart_other": "y"}') is FORMAT


# --- editing --------------------------------------------------------------------------------------------

NESTED = b'{\n  "cart": {\n    "title": "Cart",\n    "items_one": "{{count}} item"\n  },\n  "flat.key": "Flat"\n}\n'


def test_document_keys_are_raw_dot_keys_in_file_order() -> None:
    document = FORMAT.edit(NESTED, parse_locale("en"))
    assert document.keys() == ["cart.title", "cart.items_one", "flat.key"]
    assert document.get("cart.items_one") == "{{count}} item"
    assert document.get("cart") is None and document.get("cart.items") is None
    assert [document.line_of(k) for k in document.keys()] == [3, 4, 6]


def test_document_edits_splice_into_the_text() -> None:
    document = FORMAT.edit(NESTED, parse_locale("en"))
    document.add("cart.items_other", "{{count}} items")
    document.set("flat.key", "F & <b> \"q\"")
    document.delete("cart.title")
    assert document.to_bytes() == (b'{\n  "cart": {\n    "items_one": "{{count}} item",\n'
                                   b'    "items_other": "{{count}} items"\n  },\n'
                                   b'  "flat.key": "F & <b> \\"q\\""\n}\n')
    assert document.keys() == ["cart.items_one", "flat.key", "cart.items_other"]


def test_a_new_key_is_nested_in_a_nested_file_and_flat_in_a_flat_one() -> None:
    nested = FORMAT.edit(b'{\n  "cart": {\n    "title": "Cart"\n  }\n}\n', parse_locale("en"))
    nested.add("checkout.button.label", "Pay")
    assert nested.to_bytes() == (b'{\n  "cart": {\n    "title": "Cart"\n  },\n  "checkout": {\n    "button": {\n'
                                 b'      "label": "Pay"\n    }\n  }\n}\n')
    flat = FORMAT.edit(b'{\r\n\t"nav.home": "Home",\r\n\t"nav.help": "Help"\r\n}', parse_locale("en"))
    flat.add("nav.about", "About \u00e9")
    flat.set("nav.home", "Start")
    assert flat.to_bytes() == (b'{\r\n\t"nav.home": "Start",\r\n\t"nav.help": "Help",\r\n'
                               b'\t"nav.about": "About \xc3\xa9"\r\n}')


def test_setting_the_same_value_changes_no_byte_and_a_literal_dotted_key_is_its_own_member() -> None:
    data = b'{"a.b": "literal", "a": {"c": "nested"}, "n": 5}'
    document = FORMAT.edit(data, parse_locale("en"))
    assert document.keys() == ["a.b", "a.c"]
    for key in document.keys():
        document.set(key, document.get(key))  # type: ignore[arg-type]
    assert document.to_bytes() == data
    document.set("a.b", "changed")
    assert document.to_bytes() == b'{"a.b": "changed", "a": {"c": "nested"}, "n": 5}'


def test_document_refuses_what_it_cannot_do() -> None:
    document = FORMAT.edit(NESTED, parse_locale("en"))
    with pytest.raises(KeyError):
        document.set("nope", "x")
    with pytest.raises(KeyError):
        document.add("cart.title", "x")
    with pytest.raises(KeyError):
        document.delete("nope")
    with pytest.raises(TypeError, match="plural forms of 'cart.items' are keys of their own"):
        document.set("cart.items_one", {"one": "x"})  # type: ignore[arg-type]
    with pytest.raises(CatalogFileError, match="holds one JSON object"):
        FORMAT.edit(b"\xef\xbb\xbf [1, 2]", parse_locale("en"))


def _placed_by_a_walk_over_every_key(paths: list[tuple[str, ...]], key: str) -> tuple[str, ...]:
    """Where a new key goes, decided the slow, obvious way (the rule `KeyPaths.path_for` keeps indexed)."""
    container: tuple[str, ...] = ()
    rest = key
    while "." in rest:
        head, _, tail = rest.partition(".")
        inside = (*container, head)
        if not any(len(p) > len(inside) and p[:len(inside)] == inside for p in paths):
            break
        container, rest = inside, tail
    members = [p[len(container)] for p in paths if len(p) > len(container) and p[:len(container)] == container]
    flat = any("." in m for m in members) or (not container and bool(paths) and not any(len(p) > 1 for p in paths))
    return (*container, *rest.split(".")) if "." in rest and not flat else (*container, rest)


@pytest.mark.parametrize("leaves", [
    [("cart", "title"), ("cart", "items_one"), ("nav.home",), ("nav", "help", "label")],
    [("nav.home",), ("nav.help",)],
    [("a",), ("b",)],
    [("a", "b.c"), ("a", "d"), ("e", "f", "g")],
    [],
])
def test_key_placement_stays_the_same_as_a_walk_over_every_key_through_adds_and_deletes(
        leaves: list[tuple[str, ...]]) -> None:
    import random

    from parlance_i18n.formats.i18next.keys import KeyPaths

    placement = KeyPaths(leaves)
    paths = list(leaves)
    rng = random.Random(13)
    names = ["cart", "nav", "a", "b", "c", "d", "e", "f", "g", "home", "help.x", "items_other"]
    for step in range(400):
        if paths and rng.random() < 0.4:  # delete one key
            path = paths.pop(rng.randrange(len(paths)))
            assert placement.remove(".".join(path)) == path
            continue
        key = ".".join(rng.choice(names) for _ in range(rng.randint(1, 4)))
        if key in placement:
            continue
        expected = _placed_by_a_walk_over_every_key(paths, key)
        assert placement.path_for(key) == expected, (step, key, paths)
        if not any(p[:len(expected)] == expected or expected[:len(p)] == p for p in paths):
            placement.add(key, expected)  # a document adds it only where no value stands in the way
            paths.append(expected)
    assert sorted(placement.keys()) == sorted(".".join(p) for p in paths)


def test_a_deleted_keys_emptied_objects_go_with_it_as_i18next_cli_prunes_them() -> None:
    document = FORMAT.edit(b'{\n  "legacy": {\n    "old": {\n      "banner": "Try"\n    }\n  },\n  "cart": {\n'
                           b'    "title": "Cart",\n    "empty": {}\n  }\n}\n', parse_locale("en"))
    document.delete("legacy.old.banner")
    document.delete("cart.title")
    # the emptied objects go, up to the first that holds something else; an empty object the file had stays
    assert document.to_bytes() == b'{\n  "cart": {\n    "empty": {}\n  }\n}\n'


def test_a_key_added_into_an_object_its_deletes_emptied_goes_back_into_that_object() -> None:
    document = FORMAT.edit(b'{\n  "photos": {\n    "title": "Photos"\n  },\n  "cart": {\n    "title": "Cart"\n  }\n}\n',
                           parse_locale("en"))
    document.delete("photos.title")
    document.add("photos.count_one", "{{count}} photo")
    document.add("photos.count_other", "{{count}} photos")
    document.set("photos.count_one", "One photo")
    assert document.to_bytes() == (b'{\n  "photos": {\n    "count_one": "One photo",\n'
                                   b'    "count_other": "{{count}} photos"\n  },\n'
                                   b'  "cart": {\n    "title": "Cart"\n  }\n}\n')


def test_adds_into_a_large_file_cost_what_they_touch_not_a_scan_of_every_key() -> None:
    tree = {f"section{s}": {f"group{g}": {f"key_{k}": f"Your cart is empty ({s}.{g}.{k})" for k in range(50)}
                            for g in range(20)} for s in range(20)}  # 20,000 keys
    document = FORMAT.edit(json.dumps(tree, indent=2).encode(), parse_locale("en"))
    started = time.perf_counter()
    for number in range(200):  # a scan of every key per add took ~10 ms each: 2 s
        document.add(f"section{number % 20}.group{number % 7}.new_{number}", f"New {number}")
    document.delete("section0.group0.key_0")
    assert time.perf_counter() - started < 0.5
    after = json.loads(document.to_bytes())
    assert after["section3"]["group3"]["new_3"] == "New 3" and "key_0" not in after["section0"]["group0"]
    assert len(document.keys()) == 20_000 + 200 - 1
