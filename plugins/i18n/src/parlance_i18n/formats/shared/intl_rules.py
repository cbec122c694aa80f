"""The rules `Intl` follows beyond CLDR's data: ECMA-402's reading of options (`string_option`,
`digit_options`, as V8 validates them), rounding to the digits asked for, CLDR's minimum grouping
digits and currency spacing (which Babel's data lacks), and ICU's adjustment of a date pattern's
field widths to the skeleton asked for.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from parlance_i18n.formats.shared.js_values import js_string, js_to_number
from parlance_i18n.locales import LocaleTag, cldr_parent

__all__ = ["IntlError", "adjust_widths", "currency_spacing", "digit_options", "min_grouping", "plural_operand_of",
           "round_digits", "skeleton_fields", "string_option"]


class IntlError(Exception):
    """What `Intl` throws (RangeError, TypeError): i18next then keeps the value unformatted."""


# CLDR's minimumGroupingDigits (numbers.json), which Babel's data does not carry: these locales write
# 1234 ungrouped and group from 10 000 on (es except Latin America, pt except Brazil and Angola).
_MIN_GROUPING_TWO = frozenset({"be", "bg", "es", "et", "hu", "hy", "ia", "ie", "it", "ka", "lv", "pl", "sl", "sq"})
_MIN_GROUPING_TWO_REGIONS = {"pt": frozenset({"CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "PT", "ST", "TL"}),
                             "ru": frozenset({"UA"})}
_FIELD_KIND = {"L": "M", "c": "E", "e": "E", "h": "H", "K": "H", "k": "H", "Y": "y", "u": "y"}


def skeleton_fields(skeleton: str) -> dict[str, tuple[str, int]]:
    """Each field of a skeleton by kind (hours are one kind, whatever their cycle): (letter, width)."""
    found: dict[str, tuple[str, int]] = {}
    for run in re.finditer(r"([A-Za-z])\1*", skeleton):
        letter = run.group(1)
        found[_FIELD_KIND.get(letter, letter)] = (letter, len(run.group()))
    return found


def _numeric(letter: str, width: int) -> bool:
    if letter in "MLec":
        return width <= 2
    return letter in "yYudDHhKkmsSgFw"


def adjust_widths(pattern: str, wanted: dict[str, tuple[str, int]], matched: dict[str, tuple[str, int]]) -> str:
    """ICU's adjustFieldTypes: a field takes the requested width when the matched skeleton wrote it at
    another width and both are numbers or both are words; hours always do; minutes and seconds never."""
    def adjust(run: re.Match[str]) -> str:
        token = run.group()
        if token.startswith("'"):
            return token
        letter, width = token[0], len(token)
        kind = _FIELD_KIND.get(letter, letter)
        if kind not in wanted or kind in ("m", "s"):
            return token
        wanted_letter, wanted_width = wanted[kind]
        if kind == "H":
            return letter * wanted_width
        matched_width = matched.get(kind, ("", 0))[1]
        if matched_width == wanted_width or _numeric(letter, width) != _numeric(wanted_letter, wanted_width):
            return token
        return letter * wanted_width

    return re.sub(r"'(?:[^']|'')*'|([A-Za-z])\1*", adjust, pattern)


def min_grouping(tag: LocaleTag) -> int:
    if tag.language == "es":
        parent = cldr_parent(tag) if tag.region else None
        return 1 if tag.region == "419" or (parent is not None and parent.region == "419") else 2
    if tag.language in _MIN_GROUPING_TWO:
        return 2
    regions = _MIN_GROUPING_TWO_REGIONS.get(tag.language)
    if regions is not None and tag.region in regions:
        return 2
    return 3 if tag.language == "ee" else 1


def string_option(options: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: Any) -> Any:
    value = options.get(name)
    if value is None:
        return default
    text = js_string(value)
    if text not in allowed:
        raise IntlError(f"invalid {name} {text!r}")
    return text


def _number_option(options: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = options.get(name)
    if value is None:
        return None
    number = js_to_number(value)
    if math.isnan(number) or not low <= number <= high:
        raise IntlError(f"{name} out of range")
    return math.floor(number)


def digit_options(options: Mapping[str, Any], style: str, currency: str | None) -> tuple[Any, ...]:
    """(minimum integer digits, "fraction", min, max) or (minimum integer digits, "significant", min, max),
    resolved as `SetNumberFormatDigitOptions` resolves them."""
    integer = _number_option(options, "minimumIntegerDigits", 1, 21) or 1
    least_sig = _number_option(options, "minimumSignificantDigits", 1, 21)
    most_sig = _number_option(options, "maximumSignificantDigits", 1, 21)
    if least_sig is not None or most_sig is not None:
        least_sig = least_sig or 1
        most_sig = most_sig if most_sig is not None else 21
        if least_sig > most_sig:
            raise IntlError("minimumSignificantDigits is above maximumSignificantDigits")
        return integer, "significant", least_sig, most_sig
    if style == "currency":
        from babel.numbers import get_currency_precision

        default_least = default_most = get_currency_precision(currency or "XXX")
    else:
        default_least, default_most = 0, (0 if style == "percent" else 3)
    least = _number_option(options, "minimumFractionDigits", 0, 100)
    most = _number_option(options, "maximumFractionDigits", 0, 100)
    if least is None and most is None:
        least, most = default_least, default_most
    elif most is None:
        assert least is not None
        most = max(default_most, least)
    elif least is None:
        least = min(default_least, most)
    elif least > most:
        raise IntlError("minimumFractionDigits is above maximumFractionDigits")
    return integer, "fraction", least, most


def round_digits(value: Decimal, rounding: tuple[Any, ...]) -> tuple[str, str]:
    """(integer digits, fraction digits) of a non-negative value rounded half away from zero."""
    _, kind, least, most, mode = rounding
    if kind == "fraction":
        rounded = value.quantize(Decimal(1).scaleb(-most), mode)
        whole, _, fraction = f"{rounded:f}".partition(".")
        fraction = fraction.rstrip("0")
        return whole, fraction.ljust(least, "0")
    if value == 0:
        return "0", "0" * (least - 1)
    rounded = value.quantize(Decimal(1).scaleb(value.adjusted() - most + 1), mode)
    whole, _, fraction = f"{rounded.normalize():f}".partition(".")
    shown = len((whole + fraction).lstrip("0"))
    return whole, fraction + "0" * max(0, least - shown)


def plural_operand_of(number: float, rounding: tuple[Any, ...]) -> int | Decimal:
    whole, fraction = round_digits(Decimal(repr(number)), rounding)
    return Decimal(f"{whole}.{fraction}") if fraction else int(whole)


def currency_spacing(prefix: str, suffix: str, symbol: str, body: str) -> tuple[str, str]:
    """CLDR currencySpacing: a no-break space between a currency symbol ending (or starting) in a letter
    and the digits it touches (`CHF 1.00`, but `$1.00`)."""
    def letter_like(char: str) -> bool:
        category = unicodedata.category(char)
        return not category.startswith(("S", "Z"))

    if prefix.endswith(symbol) and body[:1].isdigit() and letter_like(symbol[-1]):
        prefix += "\u00a0"
    if suffix.startswith(symbol) and body[-1:].isdigit() and letter_like(symbol[0]):
        suffix = "\u00a0" + suffix
    return prefix, suffix
