"""loop.validate: each check on its own, over messages as the formats compile them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import Problem
from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.validate import Refusal, check_candidate, plural_gap_reason
from parlance_i18n.icu.messageformat import PluralUse, compile_message
from parlance_i18n.icu.plurals import plural_rules

RU, JA, EN, CY = (parse_locale(code) for code in ("ru", "ja", "en", "cy"))
ICU = formats.get("icu-json")


def icu(text: str, tag: Any = RU) -> Any:
    return compile_message(text, plural_rules(tag))


def check(rendered: Any, source: Any, tag: Any = RU, *, fmt: Any = ICU, problems: list[Problem] | None = None,
          glossary: list[str] | None = None, max_length: int | None = None) -> list[str]:
    return check_candidate(fmt, tag, "k", rendered, problems or [], source, plural_rules(tag).cardinal_categories,
                           glossary or [], max_length)


@dataclass
class Fake:
    source: str = ""
    arguments: frozenset[str] = frozenset()
    plurals: tuple[PluralUse, ...] = ()
    shown: str = field(default="", repr=False)

    def render(self, values: Any, limit: int) -> str:
        return self.shown[:limit]


def test_a_valid_translation_has_no_reasons() -> None:
    assert check(icu("Привет, {name}!"), icu("Hello, {name}!", EN)) == []
    assert check(icu("{count, plural, one {# товар} few {# товара} many {# товаров} other {# товара}}"),
                 icu("{count, plural, one {# item} other {# items}}", EN)) == []


def test_the_formats_problems_are_the_reasons() -> None:
    problem = Problem("k", 3, "not a valid ICU message at position 4: expected '}'")
    assert check(None, icu("Hi {name}", EN), problems=[problem]) == [
        "not a valid ICU message at position 4: expected '}'"]
    assert check(None, icu("Hi", EN)) == [
        "the icu-json file does not serve it once written (an empty or unreadable message)"]


def test_placeholders_dropped_and_invented_are_named_as_the_format_writes_them() -> None:
    assert check(icu("Привет, {user}!"), icu("Hello, {name}!", EN)) == [
        "drops the placeholder {name} that the source uses",
        "uses the placeholder {user}, which the source does not have"]
    i18next = formats.get("i18next")
    assert check(Fake(arguments=frozenset({"2"})), Fake(arguments=frozenset({"1", "2"})), fmt=i18next) == [
        "drops the placeholder {{1}} that the source uses"]
    android = formats.get("android")
    assert check(Fake(arguments=frozenset()), Fake(arguments=frozenset({"1", "10", "2"})), fmt=android) == [
        "drops the placeholder %1$s that the source uses", "drops the placeholder %2$s that the source uses",
        "drops the placeholder %10$s that the source uses"]


def test_a_plurals_count_is_implied() -> None:
    # ICU: Japanese needs only `other`, whose text need not print the count
    assert check(icu("{count, plural, other {写真}}", JA), icu("{count, plural, one {# photo} other {# photos}}", EN),
                 JA) == []
    # i18next-like groups count `count` as an argument of every plural; a plain translation drops it
    assert check(Fake(arguments=frozenset({"count"}), plurals=(PluralUse("count", False, frozenset({"other"})),)),
                 Fake(arguments=frozenset()), JA) == []


def test_every_category_the_locale_needs_and_exact_branches_do_not_count() -> None:
    assert check(icu("{count, plural, =0 {нет} =1 {один} =2 {два} other {#}}"),
                 icu("{count, plural, one {# item} other {# items}}", EN)) == [
        "lacks the plural categories one, few, many that ru needs"]
    assert check(icu("{n, plural, zero {#} one {#} few {#} many {#} other {#}}", CY), None, CY) == [
        "lacks the plural category two that cy needs (the plural of n)"]


def test_ordinals_are_checked_against_the_ordinal_categories() -> None:
    assert check(icu("{n, selectordinal, one {#st} other {#th}}", EN), None, EN) == [
        "lacks the plural categories two, few that en needs (the plural of n)"]


def test_a_plural_the_source_has_must_stay_a_plural_where_the_locale_needs_forms() -> None:
    source = icu("{count, plural, one {# item} other {# items}}", EN)
    assert check(icu("{count} товаров"), source) == [
        "has no plural for count where the source has one; ru needs the categories one, few, many, other"]
    assert check(icu("{count} 個", JA), source, JA) == []


def test_glossary_terms_and_max_length() -> None:
    assert check(icu("Тележка пуста"), icu("Cart is empty", EN), glossary=["'cart' (Корзина)"]) == [
        "does not use the glossary's translation of 'cart' (Корзина)"]
    # the length of the message as written, placeholders included
    assert check(icu("Привет, {name}"), icu("Hi {name}", EN), max_length=13) == [
        "is 14 characters long; the file allows at most 13"]
    assert check(icu("Привет, {name}"), icu("Hi {name}", EN), max_length=14) == []


def test_reasons_accumulate() -> None:
    assert check(icu("{count, plural, one {#} other {#}}"), icu("{count, plural, one {# of {total}} other {#}}", EN),
                 glossary=["'x'"], max_length=5) == [
        "drops the placeholder {total} that the source uses",
        "lacks the plural categories few, many that ru needs",
        "does not use the glossary's translation of 'x'",
        "is 34 characters long; the file allows at most 5"]


@pytest.mark.parametrize(("format_name", "name", "spelled"), [
    ("icu-json", "name", "the placeholder {name}"), ("arb", "name", "the placeholder {name}"),
    ("properties", "0", "the placeholder {0}"), ("i18next", "name", "the placeholder {{name}}"),
    ("yaml", "name", "the placeholder %{name}"), ("po", "name", "the placeholder %(name)s"),
    ("po", "1", "the placeholder %s (argument 1)"), ("android", "2", "the placeholder %2$s"),
    ("apple-strings", "1", "the placeholder %1$@"), ("xcstrings", "1", "the placeholder %1$@"),
    ("stringsdict", "1", "the placeholder %1$@"), ("xliff", "ph1", 'the inline element id="ph1"'),
])
def test_placeholder_names(format_name: str, name: str, spelled: str) -> None:
    assert formats.get(format_name).placeholder(name) == spelled


def test_plural_gap_reason() -> None:
    assert plural_gap_reason(["few"], RU) == "lacks the plural category few that ru needs"
    assert plural_gap_reason(["two", "few"], CY, "files") == (
        "lacks the plural categories two, few that cy needs (the plural of files)")


def test_xliff_max_lengths_are_read_where_counted_in_characters() -> None:
    data = (b'<xliff version="1.2"><file><body>'
            b'<trans-unit id="a" maxwidth="12" size-unit="char"><source>x</source></trans-unit>'
            b"<trans-unit size-unit='char' maxwidth='7' id='b&amp;c'><source>x</source></trans-unit>"
            b'<trans-unit id="px" maxwidth="120"><source>x</source></trans-unit>'
            b'<trans-unit id="bad" maxwidth="wide" size-unit="char"><source>x</source></trans-unit>'
            b"</body></file></xliff>")
    assert formats.get("xliff").max_lengths(data) == {"a": 12, "b&c": 7}
    assert ICU.max_lengths(data) == {}


def test_a_refusal_keeps_its_reasons() -> None:
    assert Refusal("k", ["why"]) == Refusal("k", ["why"])
    assert Refusal("k").reasons == []
