"""Parlance's ICU engine against FormatJS, in the same run.

Every message of `tests/packs/i18n/catalogs-icu-interop/<locale>.json` is rendered by Parlance
(`compile_message(text, plural_rules(tag))`) and by `intl-messageformat` 12.1.5 (`new
IntlMessageFormat(message, locale, undefined, {ignoreTag: true}).format(values)`, Node with TZ=UTC,
through tests/interop/icu_render.mjs) with the counts 0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5 and a few
negative and large numbers for every plural and number argument, each select key (and one no key
names), and a fixed instant for every date and time argument. They must agree on every case,
except the differences listed one by one in EXPECTED_DIFFERENCES with the reason; an entry that no
longer differs fails the test, so the table stays as short as the truth.

DOCUMENTED_CASES pins the behaviours where Parlance deliberately differs from FormatJS (a missing
value, `#` in a select inside a plural, ...): both sides are asserted exactly.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from parlance_i18n.icu_syntax import (
    Argument,
    DateArgument,
    MessageSyntaxError,
    NumberArgument,
    Parts,
    PluralArgument,
    SelectArgument,
    parse,
)
from parlance_i18n.locales import parse_locale
from parlance_i18n.messageformat import compile_message
from parlance_i18n.plurals import plural_rules

from tests.support import run_node_reference

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs-icu-interop"
COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5)
NEGATIVE_AND_LARGE = (-1, -2.5, 1234, 1234567.891)
MOMENT = 1_736_953_445_123  # 2025-01-15T15:04:05.123Z, a Wednesday afternoon
TEXTS = {"name": "Ana", "host": "Ana", "album": "Summer 2024", "field": "password", "city": "Lisboa", "id": "A-7"}
LIMIT = 10_000

EXPECTED_DIFFERENCES: dict[tuple[str, str], str] = {
    ("*", "event.starts_at"): (
        "A long date with a time joins with CLDR's `atTime` glue in Node ('January 15, 2025 at 3:04 PM'); "
        "Babel's CLDR has only the standard glue, so Parlance writes 'January 15, 2025, 3:04 PM'."),
    ("cy", "event.reminder"): (
        "CLDR 48 (Node) joins a medium date and a time with '{1}, {0}' in Welsh; CLDR 47 (Babel) with '{1} {0}'."),
    ("pt-BR", "event.reminder"): (
        "CLDR 48 (Node) joins a medium date and a time with '{1}, {0}' in Brazilian Portuguese; CLDR 47 (Babel) "
        "with '{1} {0}'."),
}
"""(locale or "*", message key) -> why that message renders differently from FormatJS."""


@dataclass(frozen=True)
class DocumentedCase:
    reason: str
    locale: str
    message: str
    values: dict[str, Any]
    parlance: str | None  # None: Parlance rejects the message (MessageSyntaxError)
    formatjs: str  # FormatJS's text, "error: <fragment of what it throws>", or the JSON of a non-string result


DOCUMENTED_CASES = [
    DocumentedCase(
        "A missing value: FormatJS throws; Parlance leaves the argument's own text, so a half-filled message "
        "still reads (and i18n_check reports the missing variable).",
        "en", "Hello, {name}!", {}, "Hello, {name}!",
        'error: The intl string context variable "name" was not provided'),
    DocumentedCase(
        "A null value: FormatJS prints nothing; Parlance treats null as missing.",
        "en", "Hello, {name}!", {"name": None}, "Hello, {name}!", "Hello, !"),
    DocumentedCase(
        "`#` in a select nested in a plural: FormatJS prints '#' (its parser only reads `#` directly in a plural "
        "branch); Parlance keeps its documented behaviour of printing the plural's number there.",
        "en", "{n, plural, other {{kind, select, photo {# photos} other {# files}}}}", {"n": 7, "kind": "photo"},
        "7 photos", "# photos"),
    DocumentedCase(
        "A numeric string: FormatJS converts it to a double ('1.50' is 1.5, English 'other'); Parlance keeps the "
        "fraction digits the string spells, as CLDR's plural operands count them.",
        "en", "{n, plural, one {# file} other {# files}}", {"n": "1.50"}, "1.50 files", "1.5 files"),
    DocumentedCase(
        "`{x, number, currency}` without a currency: FormatJS throws on every render; Parlance rejects the message "
        "when it loads, so the check tool reports it.",
        "en", "{x, number, currency}", {"x": 3}, None, "error: Currency code is required with currency style"),
    DocumentedCase(
        "An ICU pattern style: FormatJS ignores it and prints the default format; Parlance rejects the message, "
        "since the pattern never applies (use a skeleton such as ::.00).",
        "en", "{x, number, #,##0.00}", {"x": 3}, None, "3"),
    DocumentedCase(
        "A lone '}' outside any argument: FormatJS prints it; Parlance rejects the message as a probable typo "
        "(quote it: '}').",
        "en", "Saved }", {}, None, "Saved }"),
    DocumentedCase(
        "A plural keyword CLDR does not define: FormatJS accepts it (it is never selected); Parlance rejects it "
        "as a probable typo.",
        "en", "{n, plural, ones {# file} other {# files}}", {"n": 1}, None, "1 files"),
    DocumentedCase(
        "A boolean: FormatJS returns it unconverted (format() then gives a list, not a string); Parlance prints "
        "'true' or 'false'.",
        "en", "Notifications: {enabled}", {"enabled": True}, "Notifications: true",
        '["Notifications: ",true]'),
    DocumentedCase(
        "Calendars: Node formats in the locale's default calendar (Persian for fa, Buddhist for th); Parlance "
        "always uses the Gregorian calendar.",
        "fa", "{when, date, medium}", {"when": MOMENT}, "۱۵ ژانویه ۲۰۲۵", "۲۶ دی ۱۴۰۳"),
    DocumentedCase(
        "A dotted argument name: FormatJS rejects it; Parlance accepts names with '.' and '-' (its own bundles "
        "use them).",
        "en", "Hi {user.name}", {"user.name": "Ana"}, "Hi Ana", "error: MALFORMED_ARGUMENT"),
]


# --- cases ---------------------------------------------------------------------------------------------


def _catalogs() -> dict[str, dict[str, str]]:
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(CATALOGS.glob("*.json"))}


def _arguments(parts: Parts, found: dict[str, Any]) -> dict[str, Any]:
    """name -> "text" | "number" | "date" | set of select keys, over every branch."""
    for part in parts:
        if isinstance(part, Argument):
            found.setdefault(part.name, "text")
        elif isinstance(part, (NumberArgument, PluralArgument)):
            found[part.name] = "number"
        elif isinstance(part, DateArgument):
            found[part.name] = "date"
        if isinstance(part, SelectArgument):
            keys = found.get(part.name)
            found[part.name] = (keys if isinstance(keys, set) else set()) | set(part.cases)
        if isinstance(part, (PluralArgument, SelectArgument)):
            for branch in (*part.cases.values(), *getattr(part, "exact", {}).values()):
                _arguments(branch, found)
    return found


def _value_sets(message: str) -> list[dict[str, Any]]:
    kinds = _arguments(parse(message), {})
    base: dict[str, Any] = {}
    for name, kind in kinds.items():
        if kind == "number":
            base[name] = 3
        elif kind == "date":
            base[name] = MOMENT
        elif isinstance(kind, set):
            base[name] = "someone-else"
        else:
            base[name] = TEXTS.get(name, name.title())
    sets = [base]
    for name, kind in sorted(kinds.items(), key=lambda item: item[0]):
        if kind == "number":
            sets += [{**base, name: n} for n in (*COUNTS, *NEGATIVE_AND_LARGE)]
        elif isinstance(kind, set):
            sets += [{**base, name: key} for key in sorted(kind - {"other"})]
    return sets


@dataclass(frozen=True)
class Rendered:
    locale: str
    key: str
    message: str
    values: dict[str, Any]
    parlance: str
    formatjs: dict[str, str]


@functools.lru_cache(maxsize=1)
def _rendered() -> tuple[Rendered, ...]:
    cases = []
    for locale, messages in _catalogs().items():
        rules = plural_rules(parse_locale(locale))
        for key, message in messages.items():
            compiled = compile_message(message, rules)
            for values in _value_sets(message):
                cases.append((locale, key, message, values, compiled.render(values, LIMIT)))
    reference = run_node_reference(
        "icu_render.mjs", {"cases": [{"locale": c[0], "message": c[2], "values": c[3]} for c in cases]})
    assert len(reference) == len(cases)
    return tuple(Rendered(*case, formatjs=ref) for case, ref in zip(cases, reference))


def _expected(locale: str, key: str) -> str | None:
    return EXPECTED_DIFFERENCES.get((locale, key)) or EXPECTED_DIFFERENCES.get(("*", key))


# --- tests ---------------------------------------------------------------------------------------------


def test_the_catalogs_cover_the_locales_and_features() -> None:
    catalogs = _catalogs()
    assert set(catalogs) == {"en", "de", "fr", "ru", "ar", "pl", "cy", "ja", "pt-BR", "es-419", "hi"}
    english = catalogs["en"]
    for locale, messages in catalogs.items():
        assert set(messages) == set(english), f"{locale} has other keys than en"
    text = "\n".join(english.values())
    for feature in (", plural,", ", selectordinal,", ", select,", "offset:", "=0", ", number}", ", number, ::",
                    ", number, integer", ", number, percent", ", date}", ", date, short", ", date, full",
                    ", time, short", ", date, ::", "<b>", "<0>", "/>", "''", "'{", "'<"):
        assert feature in text, f"no English message uses {feature!r}"


def test_every_message_renders_as_formatjs_does() -> None:
    failures: list[str] = []
    differing: set[tuple[str, str]] = set()
    for case in _rendered():
        if "error" in case.formatjs:
            failures.append(f"{case.locale} {case.key}: FormatJS cannot render it ({case.formatjs['error']})")
            continue
        wanted = case.formatjs.get("text")
        if case.parlance == wanted:
            continue
        differing.add((case.locale, case.key))
        if _expected(case.locale, case.key) is None:
            failures.append(f"{case.locale} {case.key} {json.dumps(case.values, ensure_ascii=False)}:\n"
                            f"    FormatJS {wanted!r}\n    Parlance {case.parlance!r}")
    assert not failures, f"{len(failures)} renders differ from FormatJS:\n" + "\n".join(failures[:40])
    messages = {(c.locale, c.key) for c in _rendered()}
    for locale, key in EXPECTED_DIFFERENCES:
        covered = {(loc, k) for loc, k in messages if k == key and locale in ("*", loc)}
        assert covered, f"EXPECTED_DIFFERENCES names {(locale, key)}, which no catalog has"
        assert covered & differing, f"{(locale, key)} now renders as FormatJS does: remove it from EXPECTED_DIFFERENCES"


def test_agreement_is_counted() -> None:
    cases = _rendered()
    agreeing = sum(1 for case in cases if case.parlance == case.formatjs.get("text"))
    print(f"\n{agreeing} of {len(cases)} renders agree with FormatJS "
          f"({len({(c.locale, c.key) for c in cases})} messages in {len({c.locale for c in cases})} locales)")
    assert len(cases) > 5000
    assert agreeing / len(cases) > 0.98


ODD_VALUES = (None, True, "", "abc", "-0", "1e5", "12.50", 0.0, -0.0, 1e-300, 1e300, -1e308, 2**53 + 1, 10**400,
              -(10**400), float("nan"), float("inf"), 8.64e15, 8.64e15 + 1, -62_135_596_800_001, "{x}")


@pytest.mark.parametrize("locale", ["en", "ar", "hi", "ja"])
def test_odd_values_never_make_a_render_fail(locale: str) -> None:
    rules = plural_rules(parse_locale(locale))
    for key, message in _catalogs()[locale].items():
        compiled = compile_message(message, rules)
        names = list(_arguments(parse(message), {}))
        for value in ODD_VALUES:
            rendered = compiled.render({name: value for name in names}, 200)
            assert isinstance(rendered, str) and len(rendered) <= 200, (key, value)


@pytest.mark.parametrize("case", DOCUMENTED_CASES, ids=lambda case: case.message)
def test_documented_differences(case: DocumentedCase) -> None:
    rules = plural_rules(parse_locale(case.locale))
    if case.parlance is None:
        with pytest.raises(MessageSyntaxError):
            compile_message(case.message, rules)
    else:
        assert compile_message(case.message, rules).render(case.values, LIMIT) == case.parlance
    [reference] = run_node_reference("icu_render.mjs", {"cases": [
        {"locale": case.locale, "message": case.message, "values": case.values}]})
    if case.formatjs.startswith("error: "):
        assert case.formatjs[len("error: "):] in reference.get("error", ""), reference
    elif "other" in reference:
        assert reference == {"other": case.formatjs}
    else:
        assert reference == {"text": case.formatjs}
