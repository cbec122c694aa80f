"""ICU MessageFormat: arguments, plural, select, selectordinal, nesting, apostrophes, errors, safety."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from parlance_i18n.icu.syntax import MessageSyntaxError
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import compile_message
from parlance_i18n.icu.plurals import plural_rules

LIMIT = 10_000


def render(template: str, values: dict[str, Any] | None = None, locale: str = "en", limit: int = LIMIT) -> str:
    return compile_message(template, plural_rules(parse_locale(locale))).render(values, limit)


@pytest.mark.parametrize(
    ("template", "values", "expected"),
    [
        ("Hello", None, "Hello"),
        ("Hello, {name}!", {"name": "World"}, "Hello, World!"),
        ("Hello, { name }!", {"name": "World"}, "Hello, World!"),
        ("{a}{b}{a}", {"a": "1", "b": "2"}, "121"),
        ("{0} and {1}", {"0": "zero", "1": "one"}, "zero and one"),
        ("Hello, {name}!", {}, "Hello, {name}!"),  # missing: the token stays
        ("Hello, {name}!", None, "Hello, {name}!"),
        ("Hello, {name}!", {"name": None}, "Hello, {name}!"),  # null counts as missing
        ("{a} {b} {c} {d}", {"a": 3, "b": 1.5, "c": True, "d": False}, "3 1.5 true false"),
        ("{n}", {"n": Decimal("2.50")}, "2.50"),
        ("{user.name}", {"user.name": "Ada"}, "Ada"),  # a dotted name is a name, not an attribute path
        ("Count: {n, number}", {"n": 1234567}, "Count: 1,234,567"),
        ("{n, number, integer}", {"n": 1234.7}, "1,235"),
        ("{n, number, percent}", {"n": 0.25}, "25%"),
        ("{n, number}", {"n": "lots"}, "lots"),
        ("{n, number}", {}, "{n, number}"),
    ],
)
def test_arguments(template: str, values: dict[str, Any] | None, expected: str) -> None:
    assert render(template, values) == expected


def test_numbers_follow_the_locale() -> None:
    assert render("{n, number}", {"n": 1234.5}, "de") == "1.234,5"
    assert render("{n, plural, other {# Dateien}}", {"n": 1500}, "de") == "1.500 Dateien"
    assert render("{n, plural, one {# soubor} few {# soubory} many {# souboru} other {# souborů}}", {"n": "1.5"}, "cs") == "1,5 souboru"


PLURAL = "{count, plural, =0 {no files} one {# file} other {# files}}"


@pytest.mark.parametrize(
    ("values", "expected"),
    [({"count": 0}, "no files"), ({"count": 1}, "1 file"), ({"count": 2}, "2 files"),
     ({"count": "3"}, "3 files"), ({"count": "1.0"}, "1.0 files"), ({"count": 1000}, "1,000 files"),
     ({"count": "many"}, "many files"), ({}, "{count} files"), ({"count": True}, "true files")],
)
def test_plural(values: dict[str, Any], expected: str) -> None:
    assert render(PLURAL, values) == expected


def test_plural_with_offset_and_exact_matches() -> None:
    template = ("{guests, plural, offset:1 =0 {nobody came} =1 {{host} came alone} "
                "one {{host} and # other came} other {{host} and # others came}}")
    assert render(template, {"guests": 0, "host": "Ann"}) == "nobody came"
    assert render(template, {"guests": 1, "host": "Ann"}) == "Ann came alone"
    assert render(template, {"guests": 2, "host": "Ann"}) == "Ann and 1 other came"
    assert render(template, {"guests": 5, "host": "Ann"}) == "Ann and 4 others came"


def test_select_and_nesting() -> None:
    template = ("{gender, select, female {{n, plural, one {She has # cat} other {She has # cats}}} "
                "male {{n, plural, one {He has # cat} other {He has # cats}}} other {They have {n} cats}}")
    assert render(template, {"gender": "female", "n": 1}) == "She has 1 cat"
    assert render(template, {"gender": "male", "n": 3}) == "He has 3 cats"
    assert render(template, {"gender": "robot", "n": 3}) == "They have 3 cats"
    assert render(template, {"n": 3}) == "They have 3 cats"


def test_pound_inside_a_select_inside_a_plural_is_the_plural_number() -> None:
    template = "{n, plural, other {{kind, select, a {# a} other {# other}}}}"
    assert render(template, {"n": 7, "kind": "a"}) == "7 a"


def test_selectordinal() -> None:
    template = "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"
    assert [render(template, {"n": n}) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("It''s", "It's"),
        ("It's {x}", "It's X"),
        ("'{x}' is literal", "{x} is literal"),
        ("'{'{x}'}'", "{X}"),
        ("a '' b", "a ' b"),
        ("'{it''s}'", "{it's}"),
        ("'{unterminated", "{unterminated"),
        ("# is literal outside plurals", "# is literal outside plurals"),
        ("{n, plural, other {'#' is # here}}", "# is 5 here"),
        ("'#' outside", "'#' outside"),
    ],
)
def test_apostrophes(template: str, expected: str) -> None:
    assert render(template, {"x": "X", "n": 5}) == expected


@pytest.mark.parametrize(
    ("template", "position", "fragment"),
    [
        ("Hello {", 7, "argument name"),
        ("Hello }", 6, "unmatched '}'"),
        ("Hello {}", 7, "argument name"),
        ("{name", 5, "expected '}' or ','"),
        ("{a b}", 3, "expected '}' or ','"),
        ("{d, duration}", 4, "unsupported argument type 'duration'"),
        ("{n, number, ::currency}", 12, "currency code"),
        ("{n, number, #,##0.00}", 12, "number style"),
        ("{n, plural, one {x}}", 0, "'other'"),
        ("{n, plural, ones {x} other {y}}", 12, "not a CLDR plural category"),
        ("{n, plural, one {x} one {y} other {z}}", 20, "appears twice"),
        ("{n, plural, other {x}", 21, "not closed"),
        ("{n, plural, other x}", 18, "expected '{'"),
        ("{s, select, a {x}}", 0, "'other'"),
        ("{x.__class__, number, {0}}", 22, "number style"),
        ("{" * 20 + "x" + "}" * 20, 1, "argument name"),
    ],
)
def test_syntax_errors_name_the_position(template: str, position: int, fragment: str) -> None:
    with pytest.raises(MessageSyntaxError) as caught:
        compile_message(template, plural_rules(parse_locale("en")))
    assert caught.value.position == position
    assert fragment in str(caught.value)


def test_nesting_is_bounded() -> None:
    deep = "{n, select, other {" * 13 + "x" + "}}" * 13
    with pytest.raises(MessageSyntaxError, match="nested more than 12"):
        compile_message(deep, plural_rules(parse_locale("en")))
    assert render("{n, select, other {" * 12 + "x" + "}}" * 12, {}) == "x"


def test_values_are_substituted_once() -> None:
    assert render("{a} {b}", {"a": "{b}", "b": "{a}"}) == "{b} {a}"
    assert render("{n, plural, other {# {a}}}", {"n": 1, "a": "{n, plural, other {#}}"}) == "1 {n, plural, other {#}}"


def test_output_is_capped() -> None:
    assert render("{x}{x}{x}", {"x": "y" * 100}, limit=50) == "y" * 50
    assert render("prefix {x}", {"x": "y" * 100}, limit=10) == "prefix yyy"
    assert render("{a}-{b}-{c}-{d}", {k: "z" * 30 for k in "abcd"}, limit=64) == ("z" * 30 + "-" + "z" * 30 + "-" + "z" * 30)[:64]
    assert len(render("{n, plural, other {{x}{x}{x}}}", {"n": 1, "x": "q" * 1000}, limit=100)) == 100
    assert render("a" * 200, None, limit=20) == "a" * 20


class Sneaky:
    """An object a careless renderer would stringify, format or walk: every such use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"attribute {name!r} was evaluated")

    def __str__(self) -> str:
        raise AssertionError("__str__ was called")

    def __format__(self, spec: str) -> str:
        raise AssertionError("__format__ was called")


def test_non_scalar_values_are_never_touched() -> None:
    values = {"x": Sneaky(), "n": Sneaky(), "s": Sneaky()}
    assert render("{x}", values) == "{x}"
    assert render("{n, number} {n, plural, other {# left}}", values) == "{n, number} {n} left"
    assert render("{s, select, a {A} other {O}}", values) == "O"


def test_metadata_lists_arguments_and_plurals() -> None:
    message = compile_message("{g, select, other {{n, plural, one {#} other {# {x}}}}}",
                              plural_rules(parse_locale("en")))
    assert message.arguments == {"g", "n", "x"}
    assert [(p.argument, p.ordinal, p.keywords) for p in message.plurals] == [("n", False, {"one", "other"})]


# --- memory: compiled size linear in the source, whatever the message repeats -------------------------

TEN_THOUSAND = {
    "{v} only": "{v}" * 3333,
    "distinct names": "".join(f"{{a{i}}}" for i in range(1600))[:9995] + "}",
    "distinct texts": "".join(f"{{v}}{i:04d}" for i in range(1428)),
    "plural of {v}": "{n, plural, other {" + "{v}" * 3320 + "}}",
    "selects": "{a, select, x {y} other {}}" * 370,
    "numbers": "{a, number}" * 900,
}


@pytest.mark.parametrize("shape", list(TEN_THOUSAND))
def test_a_compiled_message_costs_at_most_twice_its_text(shape: str) -> None:
    import gc
    import sys
    import tracemalloc

    text, rules = TEN_THOUSAND[shape], plural_rules(parse_locale("en"))
    compile_message(text, rules)  # warm up: what the regex module caches is not the message's
    tracemalloc.start()
    try:
        message = compile_message(text, rules)
        gc.collect()  # also empties the interpreter's free lists, which are not the message's either
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept <= 2 * sys.getsizeof(text) + 1024, f"{shape}: {kept:,} bytes for {len(text):,} characters"
    rendered = message.render({"v": "x", "n": 2, "a": 1}, LIMIT)  # those kept as text compile, into the cache
    assert message.render({"v": "x", "n": 2, "a": 1}, LIMIT) == rendered
    if shape == "{v} only":
        assert rendered == "x" * 3333


def test_messages_compiled_on_demand_render_the_same_once_pushed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlance_i18n.icu import messageformat

    cache = messageformat._Cache(limit=20_000)
    monkeypatch.setattr(messageformat, "_cache", cache)
    rules = plural_rules(parse_locale("ru"))
    messages = [compile_message(f"{{n, plural, one {{# файл {i}}} few {{# файла}} other {{# файлов}}}} {{who}}", rules)
                for i in range(100)]
    first = [m.render({"n": i, "who": "Ann"}, LIMIT) for i, m in enumerate(messages)]
    assert first[21] == "21 файл 21 Ann" and first[22] == "22 файла Ann" and first[25] == "25 файлов Ann"
    assert cache.size <= cache.limit  # most were pushed out again
    assert [m.render({"n": i, "who": "Ann"}, LIMIT) for i, m in enumerate(messages)] == first
    assert messages[0].arguments == {"n", "who"}


def test_compiled_steps_add_no_objects_for_the_garbage_collector_to_walk() -> None:
    import gc

    rules = plural_rules(parse_locale("en"))
    texts = [f"Hi {{name}}, {{n, plural, =0 {{none}} one {{# file {i}}} other {{# files}}}} in "
             f"{{place, select, home {{home}} other {{{{place}}}}}}" for i in range(2000)]
    gc.collect()
    before = len(gc.get_objects())
    messages = [compile_message(text, rules) for text in texts]
    assert [m.render({"name": "A", "n": 1, "place": "x"}, LIMIT) for m in messages][7] == "Hi A, 1 file 7 in x"
    for _ in range(4):  # each pass stops tracking one more level of nested tuples
        gc.collect()
    tracked = len(gc.get_objects()) - before
    assert tracked <= 2.2 * len(messages)  # the message, and its place in the on-demand cache
