"""The options of `Intl.NumberFormat` as its constructor completes and checks them (ECMA-402,
InitializeNumberFormat), for `icu.numbers` to format with.

`resolve(options)` takes the options FormatJS hands to the constructor (from a named style or a
skeleton, see `icu.skeletons`) and completes them: digit defaults, currency digits, rounding
priority. It raises `ValueError` with a sentence where the constructor throws, which the parser
reports as a syntax error, since FormatJS would throw on every render of such a message.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import (
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
)
from typing import Any

from parlance_i18n.icu.skeletons import NumberOptions

__all__ = ["Resolved", "resolve"]

_ROUNDING = {"ceil": ROUND_CEILING, "floor": ROUND_FLOOR, "expand": ROUND_UP, "trunc": ROUND_DOWN,
             "halfEven": ROUND_HALF_EVEN, "halfTrunc": ROUND_HALF_DOWN, "halfExpand": ROUND_HALF_UP}


_SANCTIONED_UNITS = frozenset(
    "acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram "
    "hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile "
    "mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound "
    "second stone terabit terabyte week yard year".split()
)
"""ECMA-402's units (a unit may also be `X-per-Y` of two of them)."""


@dataclass(frozen=True, slots=True)
class Resolved:
    """What the Intl.NumberFormat constructor makes of the options (ECMA-402, InitializeNumberFormat)."""

    style: str
    currency: str | None
    currency_display: str
    currency_sign: str
    unit: str | None
    unit_display: str
    notation: str
    compact_display: str
    sign_display: str
    grouping: str | None  # "auto", "min2", "always" or None for none
    min_integer: int
    min_fraction: int
    max_fraction: int
    min_significant: int
    max_significant: int
    rounding_type: str  # "fraction", "significant", "morePrecision" or "lessPrecision"
    rounding: str
    strip_if_integer: bool
    scale: float | None


def _digits(options: dict[str, Any], name: str, low: int, high: int, default: int | None) -> int | None:
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, (int, float)) or value != value or not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value!r} (Intl.NumberFormat throws a RangeError)")
    return int(value)


@functools.lru_cache(maxsize=1024)
def resolve(options: NumberOptions) -> Resolved:
    """Check and complete the options as `new Intl.NumberFormat(locale, options)` does; ValueError if it throws."""
    from babel.numbers import get_currency_precision

    given = dict(options)
    style = given.get("style", "decimal")
    currency = given.get("currency")
    if currency is not None and not (len(currency) == 3 and currency.isascii() and currency.isalpha()):
        raise ValueError(f"{currency!r} is not a currency code: use three letters such as EUR (Intl throws a RangeError)")
    if style == "currency" and currency is None:
        raise ValueError("the currency style needs a currency code, such as ::currency/EUR "
                         "(FormatJS throws 'Currency code is required with currency style.')")
    currency = currency.upper() if currency else None
    unit = given.get("unit")
    if unit is not None and unit not in _SANCTIONED_UNITS and not (
            unit.count("-per-") == 1 and all(part in _SANCTIONED_UNITS for part in unit.split("-per-"))):
        raise ValueError(f"{unit!r} is not a unit Intl.NumberFormat knows: use one such as kilometer, "
                         "megabyte or kilometer-per-hour")
    if style == "unit" and unit is None:
        raise ValueError("the unit style needs a unit, such as ::unit/kilometer (Intl throws a TypeError)")
    notation = given.get("notation", "standard")
    min_integer = _digits(given, "minimumIntegerDigits", 1, 21, 1)
    min_sig = _digits(given, "minimumSignificantDigits", 1, 21, None)
    max_sig = _digits(given, "maximumSignificantDigits", min_sig or 1, 21, None)
    min_frac = _digits(given, "minimumFractionDigits", 0, 100, None)
    max_frac = _digits(given, "maximumFractionDigits", 0, 100, None)
    if style == "currency" and notation == "standard" and currency is not None:  # it is, for this style
        default_min = default_max = get_currency_precision(currency)
    else:
        default_min, default_max = 0, (0 if style == "percent" else 3)
    priority = given.get("roundingPriority", "auto")
    has_sig = min_sig is not None or max_sig is not None
    has_frac = min_frac is not None or max_frac is not None
    need_sig = need_frac = True
    if priority == "auto":
        need_sig = has_sig
        if need_sig or (not has_frac and notation == "compact"):
            need_frac = False
    if need_sig:
        min_sig = min_sig or 1
        max_sig = max_sig if max_sig is not None else 21
    if need_frac:
        if has_frac:
            if min_frac is None:
                min_frac = min(default_min, max_frac)  # type: ignore[type-var]  # has_frac: max_frac is set
            elif max_frac is None:
                max_frac = max(default_max, min_frac)
            elif min_frac > max_frac:
                raise ValueError("the minimum fraction digits exceed the maximum (Intl throws a RangeError)")
        else:
            min_frac, max_frac = default_min, default_max
    if not need_sig and not need_frac:  # compact notation without digit options
        min_frac, max_frac, min_sig, max_sig, rounding_type = 0, 0, 1, 2, "morePrecision"
    elif priority == "auto":
        rounding_type = "significant" if need_sig else "fraction"
    else:
        rounding_type = priority
    grouping: str | None = given.get("useGrouping", "min2" if notation == "compact" else "auto")
    return Resolved(
        style=style, currency=currency, currency_display=given.get("currencyDisplay", "symbol"),
        currency_sign=given.get("currencySign", "standard"), unit=unit,
        unit_display=given.get("unitDisplay", "short"), notation=notation,
        compact_display=given.get("compactDisplay", "short"), sign_display=given.get("signDisplay", "auto"),
        grouping=grouping or None, min_integer=min_integer or 1, min_fraction=min_frac or 0,
        max_fraction=max_frac or 0, min_significant=min_sig or 1, max_significant=max_sig or 21,
        rounding_type=rounding_type, rounding=_ROUNDING.get(given.get("roundingMode", "halfExpand"), ROUND_HALF_UP),
        strip_if_integer=given.get("trailingZeroDisplay") == "stripIfInteger", scale=given.get("scale"),
    )

