"""The shortcut through ICU parsing (`icu_quick`) against the full parser, on generated messages.

Messages are drawn from ICU-shaped pieces, most of them near the shapes the shortcut takes (plurals
and selects with text, `#` and `{name}` branches) and many a character away from them: quotes,
stray braces, repeated or missing selectors, `=1` beside `=1.0`, offsets, nested arguments, spaces
where the grammar allows them and where it does not. Whatever the full parser returns or raises,
`parse`, `validate`, `quick_parse` and `quick_check` must agree with it exactly (the tree, the
order of branches, how each `=N` is written, the error and its position); the engine's steps built
through the shortcut must equal those built from the full tree, and the facts the check tool reads
must be those of the steps. The common shapes must take the shortcut (or nothing would be tested),
hostile messages must be read in linear time, and messages compiled through the shortcut render by
their own branches whatever the order they are written in.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parlance_i18n.icu.compiler import Compiler
from parlance_i18n.icu.facts import steps_facts
from parlance_i18n.icu.quick import quick_check, quick_parse
from parlance_i18n.icu.syntax import MessageSyntaxError, Parts, parse, parse_fully, validate
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import compile_message, message_facts
from parlance_i18n.icu.plurals import plural_rules

NAMES = ["n", "count", "name", "a.b", "x-y", "é", "_1", "0"]
SPACE = st.sampled_from(["", "", "", " ", " ", "  ", "\n", "\t "])
PLURAL_SELECTORS = ["zero", "one", "two", "few", "many", "other", "=0", "=1", "=2.5"] * 3 + [
    "=1.0", "=-0", "=01", "one1", "ONE", "=", "=1.", "=" + "1" * 31, "x", "offset:1", "offset"]
SELECT_KEYS = ["a", "b", "male", "1", "x-y", "other", "é"] * 3 + ["=1", "a b", "a.b"]
PLURAL_KINDS = ["plural"] * 10 + ["selectordinal"] * 5 + ["plurals", "number"]
SELECT_KINDS = ["select"] * 10 + ["selectx"]
OFFSETS = ["", "", "", "", "offset:1 ", "offset: +2 ", "offset:-1", "offset:1234567890 ", "offset:x "]

# Mostly text that means itself; now and then a quote, a brace or an apostrophe that starts one.
plain_pieces = st.sampled_from(["photo", " shared ", "it's", "l'album", "''", "#", "<b>", "é", "\n", ",", "one",
                                "=1", "photos", " ", "a b", "#s"])
text_pieces = st.one_of(
    plain_pieces, plain_pieces, plain_pieces, plain_pieces,
    st.sampled_from(["'", "'{'", "'}'", "'#'", "{", "}", "'<b>'", "'>'", "'''", "x''{", "'{n}'"]),
    st.text(alphabet="ab '#{}<>=,\n", max_size=6),
)
names = st.sampled_from(NAMES)
simple_arguments = st.one_of(names.map(lambda n: "{" + n + "}"),
                             st.tuples(SPACE, names, SPACE).map(lambda t: "{" + "".join(t) + "}"))


def _choice(body: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A plural or select, mostly with the selectors of its kind, sometimes with another kind's."""
    def kind(kinds: list[str], selectors: list[str], offsets: list[str]) -> st.SearchStrategy[str]:
        branch = st.tuples(SPACE, st.sampled_from(selectors), SPACE, body).map(lambda t: "%s%s%s{%s}" % t)
        last = st.sampled_from(["", " other {#}", " other {}", " other {# x}", "other{}", " other {'#'}"])
        return st.tuples(SPACE, names, SPACE, SPACE, st.sampled_from(kinds), SPACE, SPACE, st.sampled_from(offsets),
                         st.lists(branch, max_size=3).map("".join), last, SPACE).map(
            lambda t: "{%s%s%s,%s%s%s,%s%s%s%s%s}" % t)

    plurals, selects = kind(PLURAL_KINDS, PLURAL_SELECTORS, OFFSETS), kind(SELECT_KINDS, SELECT_KEYS, [""])
    return st.one_of(plurals, selects, plurals, selects, kind(PLURAL_KINDS + SELECT_KINDS,
                                                             PLURAL_SELECTORS + SELECT_KEYS, OFFSETS))


def _pieces(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    others = st.one_of(st.just("#"), st.just("{n, number}"), inner)
    return st.lists(st.one_of(text_pieces, simple_arguments, text_pieces, simple_arguments, others), max_size=5).map(
        "".join)


# Deferred rather than st.recursive: the same grammar, with a strategy repr that stays small.
messages: st.SearchStrategy[str] = st.deferred(
    lambda: st.lists(st.one_of(text_pieces, simple_arguments, _choice(_pieces(st.just("") | _choice(messages)))),
                     max_size=4).map("".join))

# The shapes the shortcut is for, always valid: it must take them (or it would test nothing).
plain_texts = st.text(alphabet="ab #<>=,.\n", max_size=8)
bodies = st.lists(st.one_of(plain_texts, names.map(lambda n: "{" + n + "}"), st.just("#")), max_size=4).map("".join)
common_branches = st.lists(st.tuples(st.sampled_from(["zero", "one", "two", "few", "many", "=0", "=1", "=2.5"]),
                                     SPACE, bodies), max_size=3, unique_by=lambda t: t[0])
common_plurals = st.tuples(names, st.sampled_from(["plural", "selectordinal"]), st.sampled_from(["", "offset:1 "]),
                           common_branches, bodies).map(
    lambda t: "{%s, %s, %s%s other {%s}}" % (t[0], t[1], t[2], "".join(f"{k}{s}{{{b}}} " for k, s, b in t[3]), t[4]))
common_selects = st.tuples(names, st.lists(st.sampled_from(["a", "male", "x-y", "1"]), max_size=3, unique=True),
                           bodies, bodies).map(
    lambda t: "{%s, select, %s other {%s}}" % (t[0], "".join(f"{k} {{{t[2]}}} " for k in t[1]), t[3]))
common_messages = st.lists(st.one_of(plain_texts, names.map(lambda n: "{" + n + "}"), common_plurals, common_selects),
                           max_size=4).map("".join)

# One choice at a time, from small alphabets: selectors written twice (`=1` and `=01`), missing
# `other`, keywords of the wrong kind, and branches of apostrophes, '#' and braces.
quoted_bodies = st.lists(st.sampled_from(["a", " ", "#", "{n}", "''", "it's"] * 3
                                        + ["'", "'#'", "'{'", "{", "}", "<", ">"]), max_size=5).map("".join)


def _single(kinds: list[str], selectors: list[str]) -> st.SearchStrategy[str]:
    branches = st.lists(st.tuples(st.sampled_from(selectors), SPACE, quoted_bodies), max_size=3)
    return st.tuples(names, st.sampled_from(kinds), branches, st.sampled_from(["", " other", "other"]),
                     quoted_bodies).map(lambda t: "{%s, %s, %s%s}" % (
                         t[0], t[1], " ".join(f"{k}{s}{{{b}}}" for k, s, b in t[2]),
                         f"{t[3]} {{{t[4]}}}" if t[3] else ""))


single_choices = st.one_of(
    _single(["plural", "selectordinal"],
            ["one", "few", "=1", "=1.0", "=01", "=-0", "=0", "=2.50", "other", "x", "ONE"]),
    _single(["select"], ["a", "b", "1", "other", "a-b", "é", "=1", "a.b"]),
)

EXAMPLES = [
    "{count, plural, one {# photo shared} other {# photos shared}}",
    "Hello {name}, {n, select, a {it''s {x} #} other {z}}",
    "it's {n, plural, offset:1 =0 {none} =1.5 {{x}} one {# it''s} other {#}} done",
    "{n, plural, =1 {a} =1.0 {b} other {c}}",
    "{n, plural, one {a} other {b} one {c}}",
    "{n, plural, one {a}}",
    "{n, select, a {x} a {y} other {z}}",
    "{n, plural, one {a '#' b} other {'{'}}",
    "{n, plural, other {'#' x}}",
    "{n, select, other {'#' x}}",
    "{n, plural, x {a} other {b}}",
    "{n, plural, ONE {a} other {b}}",
    "{n, selectordinal, offset:2 one {#st} other {#th}}",
    "{n, plural, one {a} other {b}",
    "{n, plural, offset:1234567890 one {a} other {b}}",
    "{n}}",
    "'{n}' {n}",
]


def shape(parts: Any) -> Any:
    """The tree as plain data: node types, every field, branch order, and each `=N` as written."""
    if isinstance(parts, tuple):
        return tuple(shape(part) for part in parts)
    if isinstance(parts, str):
        return parts
    fields = {}
    for name in parts.__slots__:
        value = getattr(parts, name)
        if isinstance(value, dict):
            value = [(str(key) if isinstance(key, Decimal) else key, shape(branch)) for key, branch in value.items()]
        fields[name] = value
    return type(parts).__name__, fields


def full(text: str) -> Parts | MessageSyntaxError:
    try:
        return parse_fully(text)
    except MessageSyntaxError as error:
        return error


def assert_agree(text: str) -> None:
    expected = full(text)
    quick, checked, invalid = quick_parse(text), quick_check(text), validate(text)
    if isinstance(expected, MessageSyntaxError):
        assert quick is None and not checked
        assert invalid is not None and (invalid.problem, invalid.position) == (expected.problem, expected.position)
        with pytest.raises(MessageSyntaxError) as raised:
            parse(text)
        assert (raised.value.problem, raised.value.position) == (expected.problem, expected.position)
        return
    assert invalid is None
    assert shape(parse(text)) == shape(expected)
    if quick is not None:
        assert shape(quick) == shape(expected)
    steps = Compiler().message(text)  # through the shortcut when it takes the message
    assert steps == Compiler()._sequence(expected)  # the same steps as from the full tree
    facts = steps_facts(steps)
    assert message_facts(text) == facts
    assert compile_message(text, plural_rules(parse_locale("ru"))).facts() == facts


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_the_shortcut_agrees_with_the_full_parser_on_generated_messages(text: str) -> None:
    assert_agree(text)


@settings(max_examples=600, deadline=None)
@given(single_choices)
def test_the_shortcut_agrees_with_the_full_parser_on_selectors_and_quotes(text: str) -> None:
    assert_agree(text)


@pytest.mark.parametrize("text", EXAMPLES)
def test_the_shortcut_agrees_with_the_full_parser_on_chosen_messages(text: str) -> None:
    assert_agree(text)


@settings(max_examples=300, deadline=None)
@given(common_messages)
@example("{count, plural, one {# photo shared} other {# photos shared}}")
@example("Hello {name}, it's {n, select, male {he} other {they}} here")
def test_the_common_shapes_take_the_shortcut(text: str) -> None:
    assert quick_parse(text) is not None and quick_check(text)
    assert_agree(text)


def test_the_shortcut_answers_what_it_does_not_take_with_the_full_parsers_error() -> None:
    text = "Hi {n, plural, one {# a} one {# b} other {c}}"
    assert quick_parse(text) is None and not quick_check(text)
    error = validate(text)
    assert error is not None and (error.problem, error.position) == ("the selector 'one' appears twice", 25)
    assert validate("{n, plural, one {# a} other {# b}}") is None


@pytest.mark.parametrize("text", [
    "{n, plural," + " " * 100_000 + "x",
    "{n, plural, one {" + "a" * 100_000 + " other {x}}",
    "{n, plural, " + "one {a} " * 20_000,
    "{n, select, " + "".join(f"k{i} {{a{{x}}#b}} " for i in range(10_000)) + "other {z}}",
    "{v}" * 30_000 + "}",
    "{" + " " * 100_000 + "n" + " " * 100_000,
    "{n, plural, offset:" + " " * 100_000 + "1" + " " * 100_000 + "one {#}",
])
def test_the_shortcut_reads_hostile_messages_in_linear_time(text: str) -> None:
    import time

    started = time.perf_counter()
    quick_check(text)
    quick_parse(text)
    assert time.perf_counter() - started < 2  # a quadratic reading of 100,000 characters takes minutes
    assert_agree(text)


@pytest.mark.parametrize(("text", "values", "rendered"), [
    ("{g, select, other {they} female {she}}", {"g": "x"}, "they"),
    ("{g, select, other {they} female {she}}", {"g": "female"}, "she"),
    ("{n, plural, other {# files} one {# file}}", {"n": 1}, "1 file"),
    ("{n, plural, other {# files} one {# file}}", {"n": 2}, "2 files"),
    ("{n, plural, =0 {none} other {#} =2 {two}}", {"n": 2}, "two"),
    ("{n, plural, =0 {none} other {#} =2 {two}}", {"n": 0}, "none"),
    ("{n, plural, offset:1 other {# more} =1 {just {who}}}", {"n": 3, "who": "Ann"}, "2 more"),
    ("{n, selectordinal, other {#th} one {#st} two {#nd} few {#rd}}", {"n": 22}, "22nd"),
])
def test_messages_compiled_through_the_shortcut_render_by_their_own_branches(
        text: str, values: dict[str, Any], rendered: str) -> None:
    assert quick_parse(text) is not None
    assert compile_message(text, plural_rules(parse_locale("en"))).render(values, 1000) == rendered
