"""JavaScript's value semantics, for the formats whose reference runs in JavaScript (i18next): how a
JSON value prints (`String(value)`, with the engine's `icu.locale_formats.js_number_text` for a number),
counts (`Number(value)`, `parseInt`) and tests (truthiness), so that a variable renders as JavaScript
would render it.
`UNDEFINED` stands for `undefined`: a variable or option that was not given.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

# Number::toString is the engine's too (an ICU argument prints a double as FormatJS's JavaScript does):
# one definition, imported from there, since the engine must not import the formats.
from parlance_i18n.icu.locale_formats import js_number_text

__all__ = [
    "JS_SPACE",
    "UNDEFINED",
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
