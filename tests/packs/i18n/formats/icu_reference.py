"""What the ICU interop tests share: the values a sweep renders with, the arguments a message uses,
FormatJS run on a batch of cases, and the differences from FormatJS that Parlance keeps on purpose.

Two tests compare Parlance's ICU rendering with FormatJS `intl-messageformat` 12.1.5 in the same
run: `test_icu_interop.py` sweeps the engine over `catalogs-icu-interop/`, and
`test_icu_catalogs_interop.py` sweeps every icu-json and ARB test catalog read through its format.
They render with the same values and judge a difference by the same documented reasons, kept here
once: `DOCUMENTED_CASES` pins each deliberate difference on both sides, and its reasons are the
constants the tests' expected-difference tables cite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlance_i18n.icu.syntax import (
    Argument,
    DateArgument,
    NumberArgument,
    Parts,
    PluralArgument,
    SelectArgument,
    parse,
)

from tests.support import run_node_reference

__all__ = [
    "BOOLEAN",
    "CALENDAR",
    "COUNTS",
    "CURRENCY_WITHOUT_CODE",
    "DOCUMENTED_CASES",
    "DOTTED_NAME",
    "LIMIT",
    "LONE_BRACE",
    "MISSING_VALUE",
    "MOMENT",
    "NEGATIVE_AND_LARGE",
    "NULL_VALUE",
    "NUMERIC_STRING",
    "PATTERN_STYLE",
    "POUND_IN_SELECT",
    "TEXTS",
    "UNKNOWN_PLURAL_KEYWORD",
    "UNKNOWN_SELECT_KEY",
    "DocumentedCase",
    "argument_kinds",
    "formatjs",
    "value_sets",
]

COUNTS: tuple[int | float, ...] = (0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5)
"""Every plural, selectordinal and number argument is rendered with each (issue 13's list)."""
NEGATIVE_AND_LARGE: tuple[int | float, ...] = (-1, -2.5, 1234, 1234567.891)
MOMENT = 1_736_953_445_123  # 2025-01-15T15:04:05.123Z, a Wednesday afternoon
TEXTS = {"name": "Ana", "host": "Ana", "album": "Summer 2024", "field": "password", "city": "Lisboa", "id": "A-7"}
"""Values of plain arguments by name; any other plain argument gets its name, title-cased."""
UNKNOWN_SELECT_KEY = "someone-else"
"""A select value no catalog names, so the `other` branch is chosen."""
LIMIT = 10_000


# --- the differences Parlance keeps on purpose ------------------------------------------------------

MISSING_VALUE = ("A missing value: FormatJS throws; Parlance leaves the argument's own text, so a half-filled "
                 "message still reads (and i18n_check reports the missing variable).")
NULL_VALUE = "A null value: FormatJS prints nothing; Parlance treats null as missing."
POUND_IN_SELECT = ("`#` in a select nested in a plural: FormatJS prints '#' (its parser only reads `#` directly in a "
                   "plural branch); Parlance keeps its documented behaviour of printing the plural's number there.")
NUMERIC_STRING = ("A numeric string: FormatJS converts it to a double ('1.50' is 1.5, English 'other'); Parlance keeps "
                  "the fraction digits the string spells, as CLDR's plural operands count them.")
CURRENCY_WITHOUT_CODE = ("`{x, number, currency}` without a currency: FormatJS throws on every render; Parlance "
                         "rejects the message when it loads, so the check tool reports it.")
PATTERN_STYLE = ("An ICU pattern style: FormatJS ignores it and prints the default format; Parlance rejects the "
                 "message, since the pattern never applies (use a skeleton such as ::.00).")
LONE_BRACE = ("A lone '}' outside any argument: FormatJS prints it; Parlance rejects the message as a probable typo "
              "(quote it: '}').")
UNKNOWN_PLURAL_KEYWORD = ("A plural keyword CLDR does not define: FormatJS accepts it (it is never selected); "
                          "Parlance rejects it as a probable typo.")
BOOLEAN = ("A boolean: FormatJS returns it unconverted (format() then gives a list, not a string); Parlance prints "
           "'true' or 'false'.")
CALENDAR = ("Calendars: Node formats in the locale's default calendar (Persian for fa, Buddhist for th); Parlance "
            "always uses the Gregorian calendar.")
DOTTED_NAME = ("A dotted argument name: FormatJS rejects it; Parlance accepts names with '.' and '-' (its own bundles "
               "use them).")


@dataclass(frozen=True)
class DocumentedCase:
    reason: str
    locale: str
    message: str
    values: dict[str, Any]
    parlance: str | None  # None: Parlance rejects the message (MessageSyntaxError)
    formatjs: str  # FormatJS's text, "error: <fragment of what it throws>", or the JSON of a non-string result


DOCUMENTED_CASES = [
    DocumentedCase(MISSING_VALUE, "en", "Hello, {name}!", {}, "Hello, {name}!",
                   'error: The intl string context variable "name" was not provided'),
    DocumentedCase(NULL_VALUE, "en", "Hello, {name}!", {"name": None}, "Hello, {name}!", "Hello, !"),
    DocumentedCase(POUND_IN_SELECT, "en", "{n, plural, other {{kind, select, photo {# photos} other {# files}}}}",
                   {"n": 7, "kind": "photo"}, "7 photos", "# photos"),
    DocumentedCase(NUMERIC_STRING, "en", "{n, plural, one {# file} other {# files}}", {"n": "1.50"},
                   "1.50 files", "1.5 files"),
    DocumentedCase(CURRENCY_WITHOUT_CODE, "en", "{x, number, currency}", {"x": 3}, None,
                   "error: Currency code is required with currency style"),
    DocumentedCase(PATTERN_STYLE, "en", "{x, number, #,##0.00}", {"x": 3}, None, "3"),
    DocumentedCase(LONE_BRACE, "en", "Saved }", {}, None, "Saved }"),
    DocumentedCase(UNKNOWN_PLURAL_KEYWORD, "en", "{n, plural, ones {# file} other {# files}}", {"n": 1}, None,
                   "1 files"),
    DocumentedCase(BOOLEAN, "en", "Notifications: {enabled}", {"enabled": True}, "Notifications: true",
                   '["Notifications: ",true]'),
    DocumentedCase(CALENDAR, "fa", "{when, date, medium}", {"when": MOMENT}, "۱۵ ژانویه ۲۰۲۵", "۲۶ دی ۱۴۰۳"),
    DocumentedCase(DOTTED_NAME, "en", "Hi {user.name}", {"user.name": "Ana"}, "Hi Ana", "error: MALFORMED_ARGUMENT"),
]


# --- values to render with ----------------------------------------------------------------------------


def argument_kinds(parts: Parts, found: dict[str, Any] | None = None) -> dict[str, Any]:
    """name -> "text" | "number" | "date" | set of select keys, over every branch of `parts`."""
    found = {} if found is None else found
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
                argument_kinds(branch, found)
    return found


def value_sets(message: str, numbers: Sequence[int | float], *, name_other: bool = False) -> list[dict[str, Any]]:
    """The values to render `message` with: one set giving every argument a value (3 for numbers,
    MOMENT for dates and times, an unknown key for selects, TEXTS or the title-cased name for the
    rest), then that set with each number argument set to each of `numbers` in turn, and with each
    select argument set to each of its keys (`other` too when `name_other`)."""
    kinds = argument_kinds(parse(message))
    base: dict[str, Any] = {}
    for name, kind in kinds.items():
        if kind == "number":
            base[name] = 3
        elif kind == "date":
            base[name] = MOMENT
        elif isinstance(kind, set):
            base[name] = UNKNOWN_SELECT_KEY
        else:
            base[name] = TEXTS.get(name, name.title())
    sets = [base]
    for name, kind in sorted(kinds.items(), key=lambda item: item[0]):
        if kind == "number":
            sets += [{**base, name: n} for n in numbers]
        elif isinstance(kind, set):
            sets += [{**base, name: key} for key in sorted(kind if name_other else kind - {"other"})]
    return sets


def formatjs(cases: Iterable[tuple[str, Any, dict[str, Any]]]) -> list[dict[str, str]]:
    """FormatJS's answer for each (locale, message, values), in one Node run (tests/interop/icu_render.mjs):
    {"text": ...}, {"error": "<name>: <message>"} or {"other": "<JSON of a non-string result>"}. The
    message is a str, or any JSON value a catalog holds instead (to see FormatJS refuse it too)."""
    payload = [{"locale": locale, "message": message, "values": values} for locale, message, values in cases]
    answers: list[dict[str, str]] = run_node_reference("icu_render.mjs", {"cases": payload})
    assert len(answers) == len(payload), "icu_render.mjs answered a different number of cases than it was given"
    return answers
