"""Property tests of the renderer: it never raises, never evaluates attributes, stays under the cap,
and never re-expands a value. Templates are drawn both as arbitrary text and from ICU-shaped pieces
so that most of them compile."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlance_i18n.icu.syntax import MessageSyntaxError
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import Message, compile_message
from parlance_i18n.icu.plurals import plural_rules

LOCALES = ["en", "ru", "ar", "pl", "ja", "cy", "de", "fr", "pt-PT", "xx"]
NAMES = ["n", "x", "name", "count", "x.__class__", "__globals__", "0", "a.b"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**5000), max_value=10**5000),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=50),
    st.sampled_from(["1", "1.0", "2.50", "-3", "0.0", "{x}", "{n, plural, other {#}}", "'{'", "#"]),
)
values = st.dictionaries(st.sampled_from(NAMES), scalars, max_size=6)


def _branches(inner: st.SearchStrategy[str], keys: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(st.sampled_from(keys), inner), max_size=4, unique_by=lambda pair: pair[0]).map(
        lambda pairs: " ".join(f"{k} {{{v}}}" for k, v in pairs))


def _icu(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    name = st.sampled_from(NAMES)
    return st.one_of(
        name.map(lambda n: "{" + n + "}"),
        st.tuples(name, st.sampled_from(["", ", integer", ", percent"])).map(lambda t: "{%s, number%s}" % t),
        st.tuples(name, st.sampled_from(["plural", "selectordinal"]), st.sampled_from(["", "offset:1 "]),
                  _branches(inner, ["zero", "one", "two", "few", "many", "=0", "=1", "=2.5"]), inner).map(
            lambda t: "{%s, %s, %s%s other {%s}}" % t),
        st.tuples(name, _branches(inner, ["a", "b", "true", "1"]), inner).map(lambda t: "{%s, select, %s other {%s}}" % t),
        st.sampled_from(["#", "'", "''", "'{'", "'#'", "text ", "é", "{", "}", "\n"]),
        st.text(max_size=8),
    )


# Deferred rather than st.recursive: the same grammar, with a strategy repr that stays small.
icu_templates: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(st.just(""), st.lists(_icu(icu_templates), max_size=4).map("".join))
)
templates = st.one_of(st.text(max_size=60), icu_templates)


def _compile(template: str, locale: str) -> Message | None:
    try:
        return compile_message(template, plural_rules(parse_locale(locale)))
    except MessageSyntaxError as exc:
        assert 0 <= exc.position <= len(template)
        return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template=templates, vals=values, locale=st.sampled_from(LOCALES), limit=st.integers(min_value=1, max_value=200))
def test_render_never_raises_and_stays_under_the_cap(template: str, vals: dict[str, Any], locale: str, limit: int) -> None:
    message = _compile(template, locale)
    if message is None:
        return
    out = message.render(vals, limit)
    assert isinstance(out, str)
    assert len(out) <= limit


class Trap:
    """Fails the test if the renderer reads an attribute, indexes, formats or stringifies it."""

    def __getattribute__(self, name: str) -> Any:
        if name == "__class__":  # type checks (`value.__class__ is str`) are how the renderer refuses it
            return object.__getattribute__(self, name)
        raise AssertionError(f"attribute {name!r} was read")

    def __getitem__(self, key: Any) -> Any:
        raise AssertionError("indexed")

    def __str__(self) -> str:
        raise AssertionError("__str__ was called")

    def __format__(self, spec: str) -> str:
        raise AssertionError("__format__ was called")


@settings(max_examples=300, deadline=None)
@given(template=icu_templates, locale=st.sampled_from(LOCALES))
def test_render_never_evaluates_attributes(template: str, locale: str) -> None:
    message = _compile(template, locale)
    if message is None:
        return
    # A value the renderer may not touch must behave exactly like a missing one.
    assert message.render({name: Trap() for name in NAMES}, 10_000) == message.render({}, 10_000)


@settings(max_examples=200, deadline=None)
@given(payload=st.text(alphabet="{}#'xn, plural", max_size=40))
def test_values_are_never_re_expanded(payload: str) -> None:
    message = compile_message("<{x}|{n, plural, other {# {x}}}>", plural_rules(parse_locale("en")))
    assert message.render({"x": payload, "n": 2}, 10_000) == f"<{payload}|2 {payload}>"


@settings(max_examples=100, deadline=None)
@given(template=templates)
def test_compiling_is_deterministic(template: str) -> None:
    first, second = _compile(template, "en"), _compile(template, "en")
    assert (first is None) == (second is None)
    if first is not None and second is not None:
        assert first.render({"n": 3, "x": "v"}, 500) == second.render({"n": 3, "x": "v"}, 500)
