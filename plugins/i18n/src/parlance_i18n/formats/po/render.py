"""gettext translations rendered as `gettext`/`ngettext` return them: GNU gettext's rules, not ICU's
(braces and apostrophes are plain text).

- A plural entry (`PoPlural`) picks `msgstr[i]` with the file's own `Plural-Forms` expression
  (compiled by the stdlib's validating `gettext.c2py`, checked as `msgfmt --check` checks it), n =
  `values["count"]`. GNU's `ngettext` takes an `unsigned long`, so a count is truncated toward zero
  (1.5 -> 1) and a negative one wraps modulo 2**64, as a C caller's would; an index past `nplurals`
  gives form 0, as libintl does. Python's `GNUTranslations.ngettext` differs: it evaluates the
  expression on 1.5 itself (with a DeprecationWarning), so `n != 1` picks the plural form where GNU
  picks the singular. A missing or non-numeric count picks the last form (the general plural of
  every common Plural-Forms).
- A `python-format` translation (`PoPythonFormat`) is interpolated as `msgstr % values` would be:
  `%(name)s`, `%(n)d`, `%(x).2f`, `%%`, each value formatted by Python's own `%` (by name only, never
  attribute or index access). A name that is missing, or a value the conversion refuses (`%d` of a
  string), leaves the specifier as written where Python would raise. Positional specifiers (`%s`,
  `%d`) take the values "1", "2", ... in order (the pack's convention for printf-style positions:
  what `msgstr % (v1, v2)` prints), and are left as written in a message that also has named ones
  (Python raises for that mix). A `%` that starts no conversion makes the message invalid (Python
  raises ValueError): `Unrenderable`.
- `c-format` and unflagged translations (`PoText`) are returned exactly as written.
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from parlance_i18n.icu.messageformat import PluralUse
from parlance_i18n.icu.plurals import as_number, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = [
    "GERMANIC",
    "PLURAL_ARGUMENT",
    "PYTHON_SPEC",
    "PluralChoice",
    "PoPlural",
    "PoPythonFormat",
    "PoText",
    "Unrenderable",
    "compile_python_format",
    "plural_forms",
]

PLURAL_ARGUMENT = "count"
GERMANIC = "n != 1"
"""gettext's plural expression when the header has none (or an invalid one)."""
_ULONG = 2**64
_MAX_PADDING = 1000
"""Widths and precisions above this are left as written rather than expanded (`%(x)99999999s`)."""
_PYTHON_SPEC = re.compile(r"%(?:\(([^()]*)\))?([-#0 +]*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]?([diouxXeEfFgGcrsa%])")
PYTHON_SPEC = _PYTHON_SPEC
"""One `%` conversion as Python's `%` reads it: (name, flags, width, precision, conversion)."""


# --- Plural-Forms ------------------------------------------------------------------------------------------


def plural_forms(header: Mapping[str, str]) -> tuple[int, str, str | None]:
    """nplurals, the expression, and the reason they are not usable (then: 2, `n != 1`)."""
    value = next((v for k, v in header.items() if k.lower() == "plural-forms"), None)
    if value is None or "INTEGER" in value:  # absent, or a template's placeholder
        return 2, GERMANIC, None
    nplurals: int | None = None
    expression: str | None = None
    for part in value.split(";"):
        name, sep, setting = part.partition("=")
        name = name.strip()
        if sep and name == "nplurals" and setting.strip().isdigit():
            nplurals = int(setting.strip())
        elif sep and name == "plural":
            expression = setting.strip()
    if nplurals is None or expression is None or not 1 <= nplurals <= 100:
        return 2, GERMANIC, ("the header's Plural-Forms must read `nplurals=N; plural=EXPRESSION;`; "
                              "using nplurals=2; plural=n != 1")
    reason = _plural_function(expression, nplurals)[1]
    if reason is not None:  # keep nplurals: the entries were written for it
        return nplurals, GERMANIC, reason
    return nplurals, expression, None


@functools.lru_cache(maxsize=64)
def _plural_function(expression: str, nplurals: int) -> tuple[Callable[[int], int], str | None]:
    """The compiled expression and, when it is unusable, why (then the function is `n != 1`).

    Checked as `msgfmt --check` does, on n = 0..1000: it must not divide by zero or pick a form
    past nplurals.
    """
    germanic = gettext.c2py(GERMANIC)
    try:
        function = gettext.c2py(expression)
    except (ValueError, SyntaxError):
        return germanic, (f"the header's plural expression {expression[:60]!r} is not a valid C expression "
                          "of n; using n != 1")
    try:
        largest = max(function(n) for n in range(1001))
    except ZeroDivisionError:
        return germanic, "the header's plural expression divides by zero for some n; using n != 1"
    if largest >= nplurals or largest < 0:
        return germanic, (f"the header's plural expression picks form {largest} but nplurals={nplurals}; "
                          "using n != 1")
    return function, None


@functools.lru_cache(maxsize=256)
def _category_forms(tag: LocaleTag, expression: str, nplurals: int) -> dict[str, int]:
    """Which msgstr index each CLDR cardinal category of `tag` reaches (by a sample number of it).

    A category only decimals reach (Russian `other`: 1.5) maps where GNU's truncation sends its
    sample (1.5 -> 1).
    """
    rules = plural_rules(tag)
    function = _plural_function(expression, nplurals)[0]
    samples: dict[str, int] = {}
    for n in (*range(0, 1001), 1_000_000, 10_000_000):
        samples.setdefault(rules.cardinal(n), n)
    for whole in range(0, 101):
        for fraction in ("5", "1", "25"):
            decimal = Decimal(f"{whole}.{fraction}")
            samples.setdefault(rules.cardinal(decimal), int(decimal))
    mapping: dict[str, int] = {}
    for category in sorted(rules.cardinal_categories):
        if category in samples:
            mapping[category] = _gnu_index(function, samples[category], nplurals)
    return mapping


def _gnu_index(function: Callable[[int], int], n: int, nplurals: int) -> int:
    """What libintl picks: the expression on an unsigned long, form 0 when out of range."""
    try:
        index = function(n % _ULONG)
    except ZeroDivisionError:
        return 0
    return index if 0 <= index < nplurals else 0


class PluralChoice:
    """One file's plural rule: the compiled expression, nplurals, and its CLDR category map."""

    __slots__ = ("expression", "nplurals", "tag", "_function")

    def __init__(self, expression: str, nplurals: int, tag: LocaleTag) -> None:
        self.expression = expression
        self.nplurals = nplurals
        self.tag = tag
        self._function = _plural_function(expression, nplurals)[0]

    def index(self, values: Mapping[str, Any] | None) -> int:
        count = values.get(PLURAL_ARGUMENT) if values else None
        number = as_number(count) if count is not None else None
        if number is None:
            return self.nplurals - 1
        n = number if number.__class__ is int else int(number)  # C truncates toward zero
        return _gnu_index(self._function, n, self.nplurals)

    def category_forms(self) -> dict[str, int]:
        return dict(_category_forms(self.tag, self.expression, self.nplurals))


# --- compiled messages --------------------------------------------------------------------------------------


class Unrenderable(Exception):
    """A translation that cannot be rendered (a python-format `%` that starts no conversion)."""


_EMPTY: frozenset[str] = frozenset()
_MISSING = object()


class PoText:
    """A translation returned exactly as written (c-format, unflagged, or python-format without `%`)."""

    __slots__ = ("source",)
    arguments: ClassVar[frozenset[str]] = _EMPTY
    plurals: ClassVar[tuple[PluralUse, ...]] = ()

    def __init__(self, source: str) -> None:
        self.source = source

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        source = self.source
        return source if len(source) <= limit else source[:limit]

    def __repr__(self) -> str:
        return f"PoText({self.source!r})"


class PoPythonFormat:
    """A python-format translation: literal pieces and `(name, spec, as written)` specifiers."""

    __slots__ = ("source", "arguments", "_steps")
    plurals: ClassVar[tuple[PluralUse, ...]] = ()

    def __init__(self, source: str, steps: tuple[Any, ...], arguments: frozenset[str]) -> None:
        self.source = source
        self.arguments = arguments
        self._steps = steps

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        out: list[str] = []
        size = 0
        for step in self._steps:
            if step.__class__ is str:
                piece = step
            else:
                name, spec, written = step
                value = values.get(name, _MISSING) if values else _MISSING
                if value is _MISSING:
                    piece = written
                else:
                    if value.__class__ is str and len(value) > limit:
                        value = value[:limit]
                    try:
                        piece = spec % (value,)
                    except (TypeError, ValueError, OverflowError):
                        piece = written  # where `msgstr % values` would raise
            out.append(piece)
            size += len(piece)
            if size >= limit:
                break
        text = "".join(out)
        return text if len(text) <= limit else text[:limit]

    def __repr__(self) -> str:
        return f"PoPythonFormat({self.source!r})"


def compile_python_format(text: str) -> PoText | PoPythonFormat:
    """Steps for a python-format translation; raises Unrenderable where Python's `%` would raise ValueError."""
    if "%" not in text:
        return PoText(text)
    steps: list[Any] = []
    named: set[str] = set()
    positional: list[int] = []  # indexes into steps of positional specifiers
    position = 0
    literal: list[str] = []
    while (percent := text.find("%", position)) >= 0:
        literal.append(text[position:percent])
        match = _PYTHON_SPEC.match(text, percent)
        if match is None:
            raise Unrenderable(f"the python-format translation has a % at character {percent + 1} that starts no "
                           "conversion (write %% for a percent sign); Python's % would raise ValueError")
        name, flags, width, precision, conversion = match.groups()
        written = match[0]
        position = match.end()
        if conversion == "%":
            literal.append("%")
            continue
        if literal:
            steps.append("".join(literal))
            literal = []
        if _too_wide(width) or _too_wide(precision):
            steps.append(written)  # `*` needs a tuple; absurd padding is not expanded
            continue
        spec = f"%{flags}{width or ''}{'' if precision is None else '.' + precision}{conversion}"
        if name is None:
            positional.append(len(steps))
            steps.append((str(len(positional)), spec, written))
        else:
            named.add(name)
            steps.append((name, spec, written))
    literal.append(text[position:])
    steps.append("".join(literal))
    if named and positional:  # Python cannot mix them: positional ones stay as written
        for index in positional:
            steps[index] = steps[index][2]
        positional = []
    merged: list[Any] = []
    for step in steps:
        if step.__class__ is str and merged and merged[-1].__class__ is str:
            merged[-1] += step
        elif step != "":
            merged.append(step)
    if all(step.__class__ is str for step in merged):
        return PoText(text) if "".join(merged) == text else PoPythonFormat(text, tuple(merged), _EMPTY)
    arguments = frozenset(named | {str(i + 1) for i in range(len(positional))})
    return PoPythonFormat(text, tuple(merged), arguments)


def _too_wide(digits: str | None) -> bool:
    return digits is not None and (digits == "*" or len(digits) > 4 or int(digits) > _MAX_PADDING)


class PoPlural:
    """A plural entry: its forms (each a PoText or PoPythonFormat) and the file's Plural-Forms."""

    __slots__ = ("source", "forms", "_compiled", "_choice")

    def __init__(self, forms: tuple[str, ...], compiled: tuple[PoText | PoPythonFormat, ...],
                 choice: PluralChoice) -> None:
        self.source = forms[0]
        """msgstr[0]; every form is in `forms`."""
        self.forms = forms
        self._compiled = compiled
        self._choice = choice

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._compiled[self._choice.index(values)].render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        names = {PLURAL_ARGUMENT}
        for form in self._compiled:
            names.update(form.arguments)
        return frozenset(names)

    @property
    def category_forms(self) -> dict[str, int]:
        """Which msgstr index each CLDR cardinal category of the locale reaches."""
        return self._choice.category_forms()

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        reached = frozenset(category for category, index in self.category_forms.items() if index < len(self.forms))
        return (PluralUse(PLURAL_ARGUMENT, False, reached),)

    def __repr__(self) -> str:
        return f"PoPlural({self.forms!r})"
