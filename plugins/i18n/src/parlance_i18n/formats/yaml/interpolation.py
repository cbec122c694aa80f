"""Rails messages rendered as `I18n.t` renders them, with rails-i18n's pluralization.

With no variables a text is returned as written (Rails interpolates only when it is given values);
otherwise `%%` is `%`, `%{name}` is the variable's Ruby `to_s` (null prints nothing) and
`%<name>.2f` is Ruby's `sprintf` of it. A missing variable raises
`I18n::MissingInterpolationArgument` in Rails; here `%{name}` is left as written. A message using a
name I18n reserves (`%{scope}`, `%{default}`, ...: `reserved_name`) raises in Rails whenever it is
translated, so the format reports and skips it. A plural message picks, from `values["count"]`:
`zero` when the count is 0 and the form exists, else the CLDR category's form, else `other` (Rails
raises `InvalidPluralizationData` when that is missing too; here the first form is used). Without a
count (Rails returns the hash) the `other` form is rendered.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from parlance_i18n.icu.messageformat import PluralUse
from parlance_i18n.icu.plurals import PluralRules, as_number

__all__ = ["RailsMessage", "RailsPlural", "reserved_name"]

_RESERVED = re.compile(r"(?<!%)%\{(cascade|deep_interpolation|skip_interpolation|default|exception_handler|fallback|"
                       r"fallback_in_progress|fallback_original_locale|format|object|raise|resolve|scope|"
                       r"separator|throw)\}")


def reserved_name(text: str) -> str | None:
    """The name I18n reserves for its own options that `text` interpolates (`scope` for `%{scope}`), if any."""
    found = _RESERVED.search(text)
    return found.group(1) if found else None


_INTERPOLATION = re.compile(r"%%|%\{([\w|]+)\}|%<(\w+)>([^\d]*?\d*\.?\d*[bBdiouxXeEfgGcps])", re.A)
_SPEC = re.compile(r"([-+ 0#]*)([0-9]*)(?:\.([0-9]*))?([bBdiouxXeEfgGcps])")
_PRECISION_CAP = 100


class RailsMessage:
    """A Rails message: `%{name}` and `%<name>fmt` interpolated as `I18n.interpolate` does."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return _interpolate(self.source, values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        return frozenset(match.group(1) or match.group(2) for match in _INTERPOLATION.finditer(self.source)
                         if match.group(1) or match.group(2))

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return ()

    def __repr__(self) -> str:
        return f"RailsMessage({self.source!r})"


class RailsPlural:
    """A plural message: the form for `values["count"]` as rails-i18n's pluralization picks it."""

    __slots__ = ("_forms", "_rules", "source")

    def __init__(self, forms: dict[str, str], rules: PluralRules) -> None:
        self._forms = forms
        self._rules = rules
        self.source = forms.get("other", next(iter(forms.values())))

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        forms = self._forms
        count = values.get("count") if values else None
        number = as_number(count)
        if number is None:
            form = forms.get("other")
        elif number == 0 and "zero" in forms:
            form = forms["zero"]
        else:
            form = forms.get(self._rules.cardinal(number)) or forms.get("other")
        if form is None:
            form = next(iter(forms.values()))
        return _interpolate(form, values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        names = {"count"}
        for form in self._forms.values():
            names |= RailsMessage(form).arguments
        return frozenset(names)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return (PluralUse("count", False, frozenset(self._forms)),)

    def __repr__(self) -> str:
        return f"RailsPlural({self._forms!r})"


def _interpolate(text: str, values: Mapping[str, Any] | None, limit: int) -> str:
    if not values or "%" not in text:  # Rails interpolates only when it is given values
        return text[:limit]

    def replace(match: re.Match[str]) -> str:
        whole = match.group()
        if whole == "%%":
            return "%"
        name = match.group(1) or match.group(2)
        if name not in values:
            return whole  # Rails raises MissingInterpolationArgument; the placeholder stays visible
        value = values[name]
        shown = _ruby_to_s(value) if match.group(1) else _ruby_format(match.group(3), value, limit)
        if shown is None:
            return whole
        return shown[:limit]

    return _INTERPOLATION.sub(replace, text)[:limit]


def _ruby_to_s(value: Any) -> str | None:
    kind = value.__class__
    if kind is str:
        return value  # type: ignore[no-any-return]
    if value is None:
        return ""  # nil.to_s
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is Decimal:
        return str(value)
    if kind is float:
        return _ruby_float(value)
    return None


def _ruby_float(value: float) -> str:
    """Float#to_s: `1.0`, `1.5`, `1.0e+20`, `1.0e-05`, `Infinity`, `NaN`."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        sign = exponent[0] if exponent[0] in "+-" else "+"
        return f"{mantissa}e{sign}{exponent.lstrip('+-').rjust(2, '0')}"
    return text


def _ruby_format(spec: str, value: Any, limit: int) -> str | None:
    """`sprintf("%" + spec, value)` as Ruby's Kernel#format prints it; None when Ruby would raise."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        return None
    flags, width_text, precision_text, conversion = match.groups()
    width = min(int(width_text), limit) if width_text else 0
    precision = min(int(precision_text or "0"), _PRECISION_CAP) if precision_text is not None else None
    if conversion in "sp":
        shown = _ruby_to_s(value) if conversion == "s" else _ruby_inspect(value)
        if shown is None:
            return None
        if precision is not None:
            shown = shown[:precision]
        return _pad(shown, flags, width, numeric=False)
    if conversion == "c":
        if value.__class__ is int and 0 <= value <= 0x10FFFF:
            shown = chr(value)
        elif value.__class__ is str and value:
            shown = value[0]
        else:
            return None
        return _pad(shown, flags, width, numeric=False)
    if conversion in "eEfgG":
        number = _ruby_float_arg(value)
        if number is None:
            return None
        return ("%" + flags + (str(width) if width else "") + ("." + str(precision) if precision is not None else "")
                + conversion) % number
    integer = _ruby_integer_arg(value)
    if integer is None:
        return None
    base = {"b": 2, "B": 2, "o": 8, "x": 16, "X": 16}.get(conversion, 10)
    digits = _digits(abs(integer), base)
    if conversion == "X":
        digits = digits.upper()
    if precision is not None:
        digits = digits.rjust(precision, "0")
    sign = "-" if integer < 0 else "+" if "+" in flags else " " if " " in flags else ""
    prefix = ""
    if "#" in flags and integer:
        prefix = {"b": "0b", "B": "0B", "o": "0", "x": "0x", "X": "0X"}.get(conversion, "")
    if "0" in flags and "-" not in flags and precision is None and width > len(sign + prefix + digits):
        digits = digits.rjust(width - len(sign + prefix), "0")
    return _pad(sign + prefix + digits, flags, width, numeric=True)


def _digits(number: int, base: int) -> str:
    if base == 10:
        return str(number)
    return format(number, {2: "b", 8: "o", 16: "x"}[base])


def _pad(body: str, flags: str, width: int, numeric: bool) -> str:
    if len(body) >= width:
        return body
    if "-" in flags:
        return body.ljust(width)
    return body.rjust(width)


def _ruby_float_arg(value: Any) -> float | None:
    """Kernel#Float: numbers, and strings that spell one."""
    if value.__class__ in (int, float) and value.__class__ is not bool:
        try:
            return float(value)
        except OverflowError:
            return None
    if value.__class__ is str and re.fullmatch(r"\s*[-+]?(?:\d[\d_]*)?(?:\.\d[\d_]*)?(?:[eE][-+]?\d+)?\s*", value) \
            and any(char.isdigit() for char in value):
        return float(value.replace("_", ""))
    return None


def _ruby_integer_arg(value: Any) -> int | None:
    """Kernel#Integer as sprintf's %d uses it: integers, floats (truncated), decimal strings."""
    kind = value.__class__
    if kind is int:
        return value  # type: ignore[no-any-return]
    if kind is float and math.isfinite(value):
        return int(value)
    if kind is str and re.fullmatch(r"\s*[-+]?[0-9][0-9_]*\s*", value) and len(value) < 400:
        return int(value.replace("_", ""))
    return None


def _ruby_inspect(value: Any) -> str | None:
    if value.__class__ is str:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'
    if value is None:
        return "nil"
    return _ruby_to_s(value)
