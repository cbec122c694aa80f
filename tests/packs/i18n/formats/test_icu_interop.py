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

from parlance_i18n.icu.syntax import MessageSyntaxError, parse
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import compile_message
from parlance_i18n.icu.plurals import plural_rules

from tests.packs.i18n.formats.icu_reference import (
    COUNTS,
    DOCUMENTED_CASES,
    LIMIT,
    NEGATIVE_AND_LARGE,
    DocumentedCase,
    argument_kinds,
    formatjs,
    value_sets,
)

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs-icu-interop"

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


# --- cases ---------------------------------------------------------------------------------------------


def _catalogs() -> dict[str, dict[str, str]]:
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(CATALOGS.glob("*.json"))}


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
            for values in value_sets(message, (*COUNTS, *NEGATIVE_AND_LARGE)):
                cases.append((locale, key, message, values, compiled.render(values, LIMIT)))
    reference = formatjs((c[0], c[2], c[3]) for c in cases)
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
        names = list(argument_kinds(parse(message)))
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
    [reference] = formatjs([(case.locale, case.message, case.values)])
    if case.formatjs.startswith("error: "):
        assert case.formatjs[len("error: "):] in reference.get("error", ""), reference
    elif "other" in reference:
        assert reference == {"other": case.formatjs}
    else:
        assert reference == {"text": case.formatjs}
