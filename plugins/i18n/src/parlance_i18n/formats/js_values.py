"""JavaScript's value semantics, for the formats whose reference runs in JavaScript (i18next): how a
JSON value prints (`String(value)`, `Number.prototype.toString`), counts (`Number(value)`,
`parseInt`) and tests (truthiness), so that a variable renders as JavaScript would render it.
`UNDEFINED` stands for `undefined`: a variable or option that was not given.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

__all__ = [
    "JS_SPACE",
    "UNDEFINED",
    "js_number_text",
    "js_parse_int",
    "js_string",
    "js_to_number",
    "js_truthy",
    "reject_json_constant",
]

UNDEFINED: Any = object()
"""JavaScript's `undefined`: a variable or option that was not given."""
# JavaScript's String.prototype.trim() removes these (WhiteSpace and LineTerminator), not Python's set.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_JS_RADIX = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")
_JS_INT_PREFIX = re.compile(r"[\t\n\v\f\r \u00a0\ufeff]*([+-]?[0-9]+)")


def reject_json_constant(name: str) -> None:
    """`json.loads`' `parse_constant`: `NaN` and `Infinity` are not JSON, and `JSON.parse` refuses them."""
    raise ValueError(f"{name} is not JSON")


def js_truthy(value: Any) -> bool:
    if value is None or value is UNDEFINED:
        return False
    kind = value.__class__
    if kind is float:
        number: float = value
        return number == number and number != 0
    if kind in (dict, list):
        return True
    return bool(value)


def js_string(value: Any) -> str:
    """`String(value)` for a value that came from JSON."""
    kind = value.__class__
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is int:
        if -(2**53) <= value <= 2**53:
            return str(value)
        return js_number_text(_int_to_double(value))
    if kind is float or kind is Decimal:
        return js_number_text(float(value))
    if kind is list or kind is tuple:
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"


def _int_to_double(value: int) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def js_number_text(number: float) -> str:
    """Number::toString: the shortest digits that round-trip (as Python's repr), JavaScript's layout."""
    if number != number:
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(number))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent = int(exponent) + len(digit_tuple) - len(digits)
    count = len(digits)
    point = exponent + count  # the value is 0.<digits> x 10^point
    if count <= point <= 21:
        return sign + digits + "0" * (point - count)
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    power = point - 1
    mantissa = digits[0] + (f".{digits[1:]}" if count > 1 else "")
    return f"{sign}{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"


def js_to_number(value: Any) -> float:
    """`Number(value)` for a value that came from JSON."""
    kind = value.__class__
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return 1.0 if value else 0.0
    if kind is int:
        return _int_to_double(value)
    if value is None:
        return 0.0
    if kind is Decimal:
        return float(value)
    if kind is str:
        text = value.strip(JS_SPACE)
        if not text:
            return 0.0
        if _JS_DECIMAL.fullmatch(text):
            return float(text)
        if _JS_RADIX.fullmatch(text):
            return float(int(text, 0))
        return math.nan
    if kind is list or kind is tuple:
        return js_to_number(js_string(value))
    return math.nan


def js_parse_int(text: str) -> float:
    match = _JS_INT_PREFIX.match(text)
    return float(int(match.group(1))) if match else math.nan
