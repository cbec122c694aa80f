"""What a compiled ICU message needs from its locale, in one object per locale: plural categories
and number, date and time formatting, each as FormatJS (`intl-messageformat` on Node's Intl) does.

`locale_formats(rules)` gives the `LocaleFormats` of a `PluralRules`; messages hold it instead of
the rules. It keeps the rules' category tables (the hot path indexes them directly), the plain
numbers 0..199 already formatted (`#` of a small count is a tuple index), and caches a formatter
per number or date style the locale's messages use.

Values arrive as JSON scalars. A float counts as JavaScript would see it: its plural category and
its printed form come from its shortest round-trip digits rounded to 3 decimals (Intl's default),
so 1.0 is "one" in English and 1.23456 prints as 1.235. A Decimal (a numeric string such as
"1.50") keeps the fraction digits it spells, as CLDR's plural operands count them; FormatJS would
convert the string to a double first (documented among the differences in the interop test).
"""

from __future__ import annotations

import functools
import math
import threading
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from parlance_i18n.icu.dates import DATE_STYLES, TIME_STYLES, date_formatter, instant, locale_hour_char
from parlance_i18n.icu.number_options import resolve
from parlance_i18n.icu.numbers import NumberFormatter, js_decimal
from parlance_i18n.icu.plurals import TABLE_SIZE, Number, PluralRules
from parlance_i18n.icu.skeletons import DateOptions, NumberOptions, date_skeleton_options

__all__ = ["LocaleFormats", "js_number_text", "locale_formats"]

_THOUSANDTH = Decimal("0.001")


class LocaleFormats:
    """Plural selection and formatting for one locale, shared by every message compiled for it."""

    __slots__ = ("rules", "cardinal_table", "ordinal_table", "small", "_babel_id", "_numbers", "_dates", "_lock")

    def __init__(self, rules: PluralRules) -> None:
        self.rules = rules
        self.cardinal_table = rules.cardinal_table
        self.ordinal_table = rules.ordinal_table
        self._babel_id = str(rules.locale) if rules.locale is not None else "en"  # Node's default locale
        self._numbers: dict[NumberOptions | None, NumberFormatter] = {}
        self._dates: dict[tuple[str, str | None], Any] = {}
        self._lock = threading.Lock()
        system = getattr(rules.locale, "default_numbering_system", None) or "latn"
        if system == "latn":  # below 1000 nothing is grouped: the digits as Python writes them
            self.small = tuple(str(n) for n in range(TABLE_SIZE))
        else:
            self.small = tuple(self._number_formatter(None).format(n) for n in range(TABLE_SIZE))
        """`#` and `{n, number}` of the integers 0 .. TABLE_SIZE - 1, formatted once."""

    # --- plural categories ---

    def cardinal(self, n: Number) -> str:
        """The cardinal category of `n` as Intl.PluralRules selects it (a Decimal keeps its digits)."""
        return self.rules.cardinal(_plural_operand(n))

    def ordinal(self, n: Number) -> str:
        return self.rules.ordinal(_plural_operand(n))

    # --- numbers ---

    def number(self, n: Number, style: NumberOptions | None = None) -> str:
        """`n` as `{n, number[, style]}` prints it; `style` is an options tuple (None: the default)."""
        if style is None:
            if n.__class__ is int and 0 <= n < TABLE_SIZE:
                return self.small[n]
            if n.__class__ is Decimal:
                exponent = n.as_tuple().exponent
                if isinstance(exponent, int) and exponent < 0:  # keep the digits the value spells
                    digits = min(-exponent, 100)
                    style = (("maximumFractionDigits", digits), ("minimumFractionDigits", digits))
        try:
            return self._number_formatter(style).format(n)
        except (ArithmeticError, LookupError, ValueError, TypeError):  # data a locale lacks: never fail a render
            return str(n)

    def _number_formatter(self, style: NumberOptions | None) -> NumberFormatter:
        found = self._numbers.get(style)
        if found is None:
            from babel import Locale

            found = NumberFormatter(Locale.parse(self._babel_id), resolve(style or ()))
            with self._lock:
                if len(self._numbers) > 256:  # styles come from templates: bound what odd ones cost
                    self._numbers.clear()
                self._numbers[style] = found
        return found

    # --- dates and times ---

    def date(self, milliseconds: Number, kind: str, style: str | None) -> str | None:
        """The instant as `{t, date|time[, style]}` prints it in UTC; None when it is no valid date."""
        try:
            moment = instant(float(milliseconds))
            if moment is None:
                return None
            key = (kind, style)
            formatter = self._dates.get(key)
            if formatter is None:
                formatter = date_formatter(self._babel_id, self._date_options(kind, style))
                with self._lock:
                    if len(self._dates) > 256:
                        self._dates.clear()
                    self._dates[key] = formatter
            return formatter.format(moment)
        except (ArithmeticError, LookupError, ValueError, TypeError):  # data a locale lacks: never fail a render
            return None

    def _date_options(self, kind: str, style: str | None) -> DateOptions:
        if style is not None and style.startswith("::"):
            from parlance_i18n.icu.cldr import cldr_data

            return date_skeleton_options(style[2:].strip(), locale_hour_char(cldr_data(self._babel_id)))
        return (DATE_STYLES if kind == "date" else TIME_STYLES)[style]


def _plural_operand(n: Number) -> Number:
    """The number Intl.PluralRules reads: a float rounded to 3 decimals (half away from zero)."""
    if n.__class__ is float:
        if not math.isfinite(n):
            return n
        exact = js_decimal(n)
        if exact.as_tuple().exponent < -3:  # type: ignore[operator]  # finite, so an int
            exact = exact.quantize(_THOUSANDTH, rounding=ROUND_HALF_UP)
        exact = exact.normalize() if exact else Decimal(0)
        return int(exact) if exact == exact.to_integral_value() else exact
    if n.__class__ is int and not -(2**53) <= n <= 2**53:
        return _plural_operand(float(n)) if abs(n) < 1e308 else n
    return n


_by_locale: dict[str, LocaleFormats] = {}
_by_rules: dict[int, tuple[PluralRules, LocaleFormats]] = {}
_formats_lock = threading.Lock()


def locale_formats(rules: PluralRules) -> LocaleFormats:
    """The shared `LocaleFormats` for the locale of `rules` (one per locale in the process).

    Looked up by the rules object first (compiling a bundle asks once per message), then by locale.
    """
    seen = _by_rules.get(id(rules))
    if seen is not None and seen[0] is rules:
        return seen[1]
    key = str(rules.locale) if rules.locale is not None else ""
    found = _by_locale.get(key)
    if found is None:
        found = LocaleFormats(rules)
    with _formats_lock:
        _by_locale.setdefault(key, found)
        if len(_by_rules) >= 1024:  # rules objects come from a bounded cache; bound this map too
            _by_rules.clear()
        _by_rules[id(rules)] = (rules, found)  # holding `rules` keeps its id from being reused
    return found


@functools.lru_cache(maxsize=1024)
def _exponent_text(exponent: int) -> str:
    return ("e+" if exponent >= 0 else "e-") + str(abs(exponent))


def js_number_text(x: float) -> str:
    """JavaScript's `String(x)` for a double: 1.0 → "1", 1e21 → "1e+21", 1e-7 → "1e-7"."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    _, digits_tuple, exponent = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, digits_tuple))
    k = len(digits)
    n = exponent + k  # type: ignore[operator]  # finite, so an int
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return sign + mantissa + _exponent_text(n - 1)
