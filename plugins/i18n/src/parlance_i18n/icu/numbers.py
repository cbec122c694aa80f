"""Numbers as FormatJS renders them: formatted as `Intl.NumberFormat` (ECMA-402 on ICU, as Node 20
runs it) formats them, with the options its constructor makes of a named style or a skeleton
(`icu.number_options`).

Why not Babel's own formatters: they round half-even, keep every fraction digit of a float, know no
minimum grouping digits, no sign display and no skeletons, so `{n, number}` would differ from
FormatJS for 2.5, 1.23456, Spanish 1234 and most skeletons. Babel still supplies every piece of
CLDR data (symbols, patterns, currencies, units, compact forms, plural rules), read through
`icu.cldr` and `icu.number_data`.

- `NumberFormatter(locale, resolved).format(x)`: ECMA-402's digit rounding (half-expand by
  default, on the shortest decimal that round-trips the float, as ICU does), sign display, ICU's
  affix and currency-spacing rules, grouping with CLDR's minimum grouping digits, compact and
  scientific notation, currency and unit styles.
- `js_decimal(value)`: the exact decimal ICU formats for a number as JavaScript holds it.

Where Babel's CLDR (47) and Node's (48) disagree, so does the output: the narrow currency symbol
(not in Babel's data: the standard one is used), some compact and unit forms.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from decimal import Context, Decimal
from typing import TYPE_CHECKING, Any

from parlance_i18n.icu.number_data import LocaleNumbers, NumberPattern, locale_numbers, number_pattern, unit_patterns

if TYPE_CHECKING:
    from babel import Locale

    from parlance_i18n.icu.number_options import Resolved

__all__ = ["NumberFormatter", "js_decimal"]

_CONTEXT = Context(prec=800, Emax=999_999, Emin=-999_999)
"""Room for every digit of any double (about 770 with the fraction) and of the digit options."""

# --- numbers as JavaScript holds them ---------------------------------------------------------------------

_SAFE = 2**53


def js_decimal(value: int | float | Decimal) -> Decimal:
    """The exact decimal ICU formats for a value: a float's shortest round-trip digits (an integer
    beyond 2**53 first becomes the double JSON.parse would make of it). Infinities stay infinite."""
    kind = value.__class__  # read once for both tests, which is why mypy cannot narrow `value`
    if kind is int and -_SAFE <= value <= _SAFE:
        return Decimal(value)
    if kind is Decimal:
        return value  # type: ignore[return-value]  # a Decimal: `kind is Decimal`
    try:
        number = float(value)
    except OverflowError:
        number = float("inf") if value > 0 else float("-inf")
    return Decimal(repr(number)) if number == number and abs(number) != float("inf") else Decimal(number)


# --- rounding (ECMA-402 ToRawFixed / ToRawPrecision) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rounded:
    value: Decimal  # rounded, signed
    integer: str  # digits before the decimal point (no sign)
    fraction: str  # digits shown after it
    magnitude: int  # the power of ten rounded to


def _fixed(x: Decimal, min_frac: int, max_frac: int, rounding: str) -> _Rounded:
    rounded = x.quantize(Decimal(1).scaleb(-max_frac), rounding=rounding, context=_CONTEXT)
    integer, _, fraction = format(abs(rounded), "f").partition(".")
    keep = len(fraction)
    while keep > min_frac and fraction[keep - 1] == "0":
        keep -= 1
    return _Rounded(rounded, integer, fraction[:keep], -max_frac)


def _precision(x: Decimal, min_sig: int, max_sig: int, rounding: str) -> _Rounded:
    exponent = 0 if x.is_zero() else x.adjusted()
    rounded = x.quantize(Decimal(1).scaleb(exponent - max_sig + 1), rounding=rounding, context=_CONTEXT)
    if not rounded.is_zero() and rounded.adjusted() > exponent:  # rounded up to the next power of ten
        exponent += 1
        rounded = rounded.quantize(Decimal(1).scaleb(exponent - max_sig + 1), context=_CONTEXT)
    integer, _, fraction = format(abs(rounded), "f").partition(".")
    keep, removable = len(fraction), max_sig - min_sig
    while removable > 0 and keep and fraction[keep - 1] == "0":
        keep -= 1
        removable -= 1
    return _Rounded(rounded, integer, fraction[:keep], exponent - max_sig + 1)


def _round(x: Decimal, spec: Resolved) -> _Rounded:
    kind = spec.rounding_type
    if kind == "fraction":
        result = _fixed(x, spec.min_fraction, spec.max_fraction, spec.rounding)
    elif kind == "significant":
        result = _precision(x, spec.min_significant, spec.max_significant, spec.rounding)
    else:
        by_sig = _precision(x, spec.min_significant, spec.max_significant, spec.rounding)
        by_frac = _fixed(x, spec.min_fraction, spec.max_fraction, spec.rounding)
        sig_wins = by_sig.magnitude <= by_frac.magnitude
        result = by_sig if sig_wins == (kind == "morePrecision") else by_frac
    if spec.strip_if_integer and result.fraction.strip("0") == "":
        result = _Rounded(result.value, result.integer, "", result.magnitude)
    if len(result.integer) < spec.min_integer:
        result = _Rounded(result.value, result.integer.rjust(spec.min_integer, "0"), result.fraction, result.magnitude)
    return result


# --- formatting ----------------------------------------------------------------------------------------------


class NumberFormatter:
    """Formats numbers in one locale with one set of resolved options, as Intl.NumberFormat does."""

    __slots__ = ("_data", "_spec", "_pattern", "_decimal", "_group")

    def __init__(self, locale: Locale, spec: Resolved) -> None:
        self._data = data = locale_numbers(locale)
        self._spec = spec
        formats = data.cldr
        if spec.style == "percent" or spec.unit == "percent":  # ICU writes the percent unit as a percent
            text = formats["percent_formats"][None].pattern
        elif spec.style == "currency" and spec.currency_display != "name":
            table = formats["currency_formats"]
            chosen = table.get("accounting" if spec.currency_sign == "accounting" else "standard") or table["standard"]
            text = chosen.pattern
        else:
            text = formats["decimal_formats"][None].pattern
        self._pattern = number_pattern(text)
        currency = spec.style == "currency"
        self._decimal = data.currency_decimal if currency else data.decimal
        self._group = data.currency_group if currency else data.group

    def format(self, value: int | float | Decimal) -> str:
        """`value` as Intl.NumberFormat.prototype.format prints it (FormatJS's scale applied first)."""
        spec, data = self._spec, self._data
        if spec.scale and spec.scale == spec.scale:  # FormatJS skips a scale of 0 or NaN
            value = float(value) * spec.scale  # JavaScript multiplies doubles
        x = js_decimal(value) if value.__class__ is not Decimal else value
        negative = x.is_signed()
        if not x.is_finite():
            return self._affixed(data.infinity if x.is_infinite() else "NaN", negative, False, self._pattern, None)
        if spec.style == "percent":
            x = x.scaleb(2, context=_CONTEXT)
        if spec.notation == "compact":
            return self._compact(x, negative)
        if spec.notation in ("scientific", "engineering"):
            return self._scientific(x, negative)
        rounded = _round(x, spec)
        body = self._body(rounded, self._pattern)
        zero = rounded.value.is_zero()
        if spec.style == "unit" and spec.unit != "percent":
            return self._unit(self._affixed(body, negative, zero, self._pattern, None), rounded)
        if spec.style == "currency" and spec.currency_display == "name":
            return self._currency_name(self._affixed(body, negative, zero, self._pattern, None), rounded)
        return self._affixed(body, negative, zero, self._pattern, self._currency_symbol())

    # --- the number's own digits ---

    def _body(self, rounded: _Rounded, pattern: NumberPattern) -> str:
        integer = rounded.integer
        minimum = {"auto": self._data.min_grouping, "min2": 2, "always": 1}.get(self._spec.grouping or "", 0)
        if minimum and pattern.primary and len(integer) >= pattern.primary + minimum:
            head, groups = integer[:-pattern.primary], [integer[-pattern.primary:]]
            size = pattern.secondary or pattern.primary
            while len(head) > size:
                groups.append(head[-size:])
                head = head[:-size]
            groups.append(head)
            integer = "\x01".join(reversed(groups))
        text = integer + ("\x02" + rounded.fraction if rounded.fraction else "")
        if self._data.digits is not None:
            text = text.translate(self._data.digits)
        return text.replace("\x01", self._group).replace("\x02", self._decimal)

    # --- signs and affixes (ICU's PatternStringUtils::patternInfoToStringBuilder) ---

    def _sign_type(self, negative: bool, zero: bool) -> str:
        display = self._spec.sign_display
        if display == "never":
            return "positive"
        if display == "exceptZero":
            return "positive" if zero else ("negative" if negative else "plus")
        if display == "negative":
            return "negative" if negative and not zero else "positive"
        if negative:
            return "negative"
        return "plus" if display == "always" else "positive"

    def _affixed(self, body: str, negative: bool, zero: bool, pattern: NumberPattern, symbol: str | None) -> str:
        kind = self._sign_type(negative, zero)
        plus_for_minus = kind == "plus" and "+" not in _plain_symbols(pattern.prefix + pattern.suffix)
        use_negative = pattern.negative_prefix is not None and (
            kind == "negative" or (plus_for_minus and "-" in _plain_symbols(
                (pattern.negative_prefix or "") + (pattern.negative_suffix or ""))))
        prefix = (pattern.negative_prefix if use_negative else pattern.prefix) or ""
        suffix = (pattern.negative_suffix if use_negative else pattern.suffix) or ""
        if not use_negative and (kind == "negative" or plus_for_minus):
            prefix = "-" + prefix
        before, _, currency_last = self._symbols(prefix, plus_for_minus, symbol)
        after, currency_first, _ = self._symbols(suffix, plus_for_minus, symbol)
        # ICU's currency spacing: a symbol that does not end (or start) with a symbol or a space,
        # right next to a digit, is set off by a no-break space ("USD 1.00", but "$1.00").
        if currency_last and symbol and _spaced(symbol[-1]) and body[:1].isdigit():
            before += "\u00a0"
        if currency_first and symbol and _spaced(symbol[0]) and body[-1:].isdigit():
            after = "\u00a0" + after
        return before + body + after

    def _symbols(self, affix: str, plus_for_minus: bool, symbol: str | None) -> tuple[str, bool, bool]:
        """The affix with its symbols localised, and whether it starts and ends with the currency."""
        data = self._data
        out: list[str] = []
        first = last = False
        literal = False
        for char in affix:
            if char == "\x00":
                literal = True
                continue
            currency = False
            if literal:
                piece, literal = char, False
            elif char == "-":
                piece = data.plus if plus_for_minus else data.minus
            elif char == "+":
                piece = data.plus
            elif char == "%":
                piece = data.percent
            elif char == "‰":
                piece = data.permille
            elif char == "¤":
                if last:  # ¤¤ and ¤¤¤ name the same currency
                    continue
                piece, currency = symbol or "", True
            else:
                piece = char
            if not out:
                first = currency
            out.append(piece)
            last = currency
        return "".join(out), first, last

    def _currency_symbol(self) -> str | None:
        spec = self._spec
        if spec.style != "currency" or spec.currency is None:
            return None
        if spec.currency_display == "code":
            return spec.currency
        return str((self._data.cldr.get("currency_symbols") or {}).get(spec.currency, spec.currency))

    # --- notations ---

    def _compact(self, x: Decimal, negative: bool) -> str:
        # ICU's CompactHandler: the power of ten comes from the unrounded number, unless rounding
        # carries it to the next one (999,999 is "1M", not "1000K").
        spec, data = self._spec, self._data
        formats = data.cldr
        if spec.style == "currency":
            table = formats["compact_currency_formats"].get("short") or {}
        else:
            compact = formats["compact_decimal_formats"]
            table = compact.get(spec.compact_display) or compact.get("short") or {}
        shift = 0
        if x.is_zero():
            rounded = _round(x, spec)
        else:
            magnitude = x.adjusted()
            shift = _compact_shift(table, magnitude)
            rounded = _round(x.scaleb(shift, context=_CONTEXT), spec)
            if not rounded.value.is_zero() and rounded.value.adjusted() != magnitude + shift:
                carried = _compact_shift(table, magnitude + 1)
                if carried != shift:
                    shift = carried
                    rounded = _round(x.scaleb(shift, context=_CONTEXT), spec)
        zero = rounded.value.is_zero()
        pattern = self._pattern
        if shift:
            text = _compact_pattern(table, rounded.value.adjusted() - shift, rounded, data)
            if text is not None:
                found = number_pattern(text)
                pattern = NumberPattern(found.prefix, found.suffix, found.negative_prefix, found.negative_suffix,
                                   pattern.primary, pattern.secondary, found.has_digits)
        body = self._body(rounded, pattern) if pattern.has_digits else ""
        return self._affixed(body, negative, zero, pattern, self._currency_symbol())

    def _scientific(self, x: Decimal, negative: bool) -> str:
        spec, data = self._spec, self._data
        step = 3 if spec.notation == "engineering" else 1
        exponent = 0 if x.is_zero() else (x.adjusted() // step) * step
        rounded = _round(x.scaleb(-exponent, context=_CONTEXT), spec)
        if not rounded.value.is_zero() and rounded.value.adjusted() >= step:
            exponent += step
            rounded = _round(x.scaleb(-exponent, context=_CONTEXT), spec)
        plain = NumberPattern("", "", None, None, 0, 0, True)
        body = self._body(rounded, plain)
        power = str(abs(exponent))
        if data.digits is not None:
            power = power.translate(data.digits)
        body += data.exponential + (data.minus if exponent < 0 else "") + power
        return self._affixed(body, negative, rounded.value.is_zero(), self._pattern, self._currency_symbol())

    # --- styles that wrap the number in a unit pattern ---

    def _unit(self, number: str, rounded: _Rounded) -> str:
        spec, data = self._spec, self._data
        unit = spec.unit or ""
        width = {"narrow": "narrow", "long": "long"}.get(spec.unit_display, "short")
        patterns = unit_patterns(str(data.locale))
        category = data.plural(_plural_operand(rounded))
        whole = patterns.get(unit)
        if whole is not None or "-per-" not in unit:
            return _fill(_unit_form(whole, width, category), number)
        numerator, denominator = unit.split("-per-")
        top = _fill(_unit_form(patterns.get(numerator), width, category), number)
        below = patterns.get(denominator)
        per = (below or {}).get(width, {}).get("per")
        if per:
            return _fill(per, top)
        compound = (data.cldr.get("compound_unit_patterns") or {}).get("per", {}).get(width, {})
        joiner = compound.get("compound") if hasattr(compound, "get") else None
        single = _unit_form(below, width, "one").replace("{0}", "").strip()
        return str(joiner or "{0}/{1}").replace("{0}", top).replace("{1}", single)

    def _currency_name(self, number: str, rounded: _Rounded) -> str:
        data, code = self._data, self._spec.currency or ""
        formats = data.cldr
        category = data.plural(_plural_operand(rounded))
        names = formats["currency_names_plural"].get(code) or {}
        name = names.get(category) or names.get("other") or formats["currency_names"].get(code) or code
        patterns = formats["currency_unit_patterns"]
        pattern = patterns.get(category) or patterns.get("other") or "{0} {1}"
        return str(pattern).replace("{0}", number).replace("{1}", str(name))


def _plain_symbols(affix: str) -> str:
    """The affix without its quoted characters (a quoted '-' is text, not a sign)."""
    out = []
    skip = False
    for char in affix:
        if char == "\x00":
            skip = True
        elif skip:
            skip = False
        else:
            out.append(char)
    return "".join(out)


def _spaced(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category.startswith("S") or category.startswith("Z"))


def _plural_operand(rounded: _Rounded) -> Decimal:
    """The rounded number with exactly the fraction digits shown: what CLDR's plural operands read."""
    text = rounded.integer[-18:].lstrip("0") or "0"  # ICU keeps the low 18 integer digits
    return Decimal(text + ("." + rounded.fraction if rounded.fraction else ""))


def _compact_key(table: Any, magnitude: int) -> str | None:
    """The compact table's key (\"1000\", \"10000\", ...) for a number of that magnitude, if any."""
    chosen = None
    for key in (table.get("other") or {}):
        power = len(key) - 1
        if power <= magnitude and (chosen is None or power > len(chosen) - 1):
            chosen = key
    return chosen


def _compact_shift(table: Any, magnitude: int) -> int:
    """How many powers of ten the compact pattern for `magnitude` takes off, as a negative number
    (0 when none applies, as German "0" for thousands means: write them in full)."""
    key = _compact_key(table, magnitude)
    if key is None:
        return 0
    text: str = table["other"][key].pattern
    zeros = text.count("0")
    if text == "0" or zeros == 0:
        return 0
    return -(len(key) - 1 - zeros + 1)


def _compact_pattern(table: Any, magnitude: int, rounded: _Rounded, data: LocaleNumbers) -> str | None:
    key = _compact_key(table, magnitude)
    if key is None:
        return None
    operand = _plural_operand(rounded)
    forms = ["1"] if operand == 1 else []  # CLDR's explicit "1" form (French "mille")
    forms += [data.plural(operand), "other"]
    for form in forms:
        found = (table.get(form) or {}).get(key)
        if found is not None:
            return None if found.pattern == "0" else str(found.pattern)
    return None


def _unit_form(patterns: Any, width: str, category: str) -> str:
    """The unit's pattern for a plural category; a width CLDR leaves out inherits the short one's."""
    if patterns is None:
        return "{0}"
    for forms in (patterns.get(width) or {}, patterns.get("short") or {}):
        for form in (category, "other"):
            if forms.get(form):
                return str(forms[form])
    return "{0}"


def _fill(pattern: str, number: str) -> str:
    return pattern.replace("{0}", number)
