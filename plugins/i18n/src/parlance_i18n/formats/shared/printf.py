"""printf-style messages, as Android and Apple format them: `compile_printf(text, style)`.

`style="java"` follows `java.util.Formatter`, which Android's `getString(id, args...)` runs:
`%[index$][flags][width][.precision]conversion` with the conversions `b B h H s S c C d o x X e E
f g G % n`, the flags `- # + space 0 , (` and `<` (the previous specifier's argument), checked as
Formatter checks them (a flag the conversion refuses, a precision on `%d`, `-` without a width...
raise ValueError, as Formatter throws). Numbers print as in the root locale (digits 0-9, `,`
grouping, `.` decimal point); `%f %e %g` round half up from the shortest decimal that names the
double, as Java does (`%.2f` of 1.005 is 1.01, not C's 1.00).

`style="apple"` follows `String(format:)` / `NSString stringWithFormat:`: `%@ %d %i %u %x %X %o %c
%C %s %S %f %F %e %E %g %G %%` with the length modifiers `h hh l ll q z t j L` and the flags
`- + space 0 # '` (`'` groups nothing: the POSIX locale has no grouping). Integers wrap to the
width their modifier names (`%d` and `%x` of -1 are 32-bit, `%lld` 64-bit), as C does. `%#@name@`
(a `.stringsdict`/`.xcstrings` substitution) renders `values[name]` when the caller supplies it.

Arguments are positional: `values["1"]`, `values["2"]`, ... (1-based). `%2$s` names one; each
specifier without an index takes the next position (counted apart from indexed ones, as Java does).
`render` never raises. A missing argument (absent, null, or not a JSON scalar) leaves the
specifier as written (`%1$s`). A value of the wrong type is not an error: it prints as
`messageformat.value_text` prints it (`%d` of "three" is `three`, `%d` of 2.5 is `2.5`), except
that an integer is a number for `%f %e %g` and an integral float is one for `%d` (Java and C would
throw or print garbage). Widths and precisions are honoured up to `limit`.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import TYPE_CHECKING, Any, Literal

from parlance_i18n.icu.messageformat import PluralUse, value_text

if TYPE_CHECKING:
    from parlance_i18n.formats.shared.conversions import Conversion

__all__ = ["PrintfMessage", "PrintfStyle", "compile_printf", "printf_conversions"]

PrintfStyle = Literal["java", "apple"]

_JAVA = re.compile(r"%(?:([0-9]+)\$)?([-#+ 0,(<]*)([0-9]+)?(?:\.([0-9]+))?([tT]?[a-zA-Z%])")
_APPLE = re.compile(
    r"%(?:([0-9]+)\$)?(?:#@([A-Za-z_][A-Za-z0-9_]*)@|([-+ 0#']*)([0-9]+|\*)?(?:\.([0-9]*|\*))?"
    r"(hh|h|ll|l|q|z|t|j|L)?([a-zA-Z@%]))"
)

# Java: the flags each conversion accepts (Formatter throws FormatFlagsConversionMismatchException
# for others); which take a precision.
_JAVA_FLAGS = {
    "b": "-", "h": "-", "s": "-", "c": "-", "d": "-+ 0,(", "o": "-#0", "x": "-#0",
    "e": "-#+ 0(", "f": "-#+ 0,(", "g": "-+ 0,(", "%": "-", "n": "",
}
_JAVA_PRECISION = frozenset("bhsefg")
_APPLE_CONVERSIONS = frozenset("@dDiuUxXoOcCsSfFeEgG%")
_BITS = {"hh": 8, "h": 16, "": 32, "l": 64, "ll": 64, "q": 64, "z": 64, "t": 64, "j": 64, "L": 64}
_PRECISION_CAP = 60
"""Digits computed beyond the visible `limit` (a precision only pads a double's <= 17 digits with zeros)."""


@dataclass(frozen=True, slots=True)
class _Spec:
    """One conversion: what was written, the argument's position (0: none), and how to print it."""

    text: str
    position: int
    conversion: str  # lower case; `upper` says whether to print in capitals
    upper: bool
    flags: str
    width: int | None
    precision: int | None
    bits: int  # Apple: the integer width its length modifier names (Java: by the value)
    substitution: str | None = None  # Apple `%#@name@`


def compile_printf(text: str, style: PrintfStyle) -> PrintfMessage:
    """Compile `text`; raises ValueError (a sentence naming the specifier) when one is invalid."""
    if "%" not in text:
        return PrintfMessage(text, (text,) if text else (), style)
    parse = _java_spec if style == "java" else _apple_spec
    pieces: list[str | _Spec] = []
    literal: list[str] = []
    pos = 0
    ordinary = 0  # the last position an unnumbered specifier took
    previous = 0  # the last argument used, for Java's `%<s`
    while True:
        found = text.find("%", pos)
        if found < 0:
            literal.append(text[pos:])
            break
        literal.append(text[pos:found])
        spec, end = parse(text, found)
        if spec.conversion == "n" or (spec.conversion == "%" and spec.width is None):
            literal.append("\n" if spec.conversion == "n" else "%")  # plain text: no argument, nothing to pad
            pos = end
            continue
        if spec.conversion != "%":  # a `%#@name@` substitution takes an argument too: its count
            if "<" in spec.flags:
                if not previous:
                    raise ValueError(f"{spec.text!r} reuses the previous argument, but no specifier precedes it")
                position = previous
            elif spec.position:
                position = spec.position
            else:
                ordinary += 1
                position = ordinary
            spec = _with_position(spec, position)
            previous = position
        pieces.append("".join(literal))
        literal = []
        pieces.append(spec)
        pos = end
    pieces.append("".join(literal))
    return PrintfMessage(text, tuple(piece for piece in pieces if piece), style)


class PrintfMessage:
    """A compiled printf message: `render(values, limit)` fills its specifiers from values["1"], ..."""

    __slots__ = ("source", "_pieces", "_style")

    def __init__(self, source: str, pieces: tuple[str | _Spec, ...], style: PrintfStyle) -> None:
        self.source = source
        self._pieces = pieces
        self._style = style

    @property
    def arguments(self) -> frozenset[str]:
        """The positions the message uses, as strings ("1", "2", ...)."""
        return frozenset(str(piece.position) for piece in self._pieces if isinstance(piece, _Spec) and piece.position)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return ()

    @property
    def substitutions(self) -> tuple[str, ...]:
        """The names of Apple `%#@name@` substitutions, in order (a plural format fills them)."""
        return tuple(piece.substitution for piece in self._pieces
                     if isinstance(piece, _Spec) and piece.substitution is not None)

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        out: list[str] = []
        size = 0
        values = values or {}
        java = self._style == "java"
        for piece in self._pieces:
            if isinstance(piece, str):
                text = piece
            else:
                try:
                    text = _render_spec(piece, values, limit, java)
                except (ArithmeticError, ValueError, TypeError, OverflowError):  # a value no rule foresaw
                    text = piece.text
            out.append(text)
            size += len(text)
            if size >= limit:
                break
        result = "".join(out)
        return result if len(result) <= limit else result[:limit]

    def __repr__(self) -> str:
        return f"PrintfMessage({self.source!r})"


# --- parsing --------------------------------------------------------------------------------------------


def _with_position(spec: _Spec, position: int) -> _Spec:
    return _Spec(spec.text, position, spec.conversion, spec.upper, spec.flags, spec.width, spec.precision,
                 spec.bits, spec.substitution)


def _bad(text: str, at: int, reason: str, written: str | None = None) -> ValueError:
    shown = written if written is not None else text[at:at + 2]
    return ValueError(f"invalid format specifier {shown!r} at position {at}: {reason}")


def _java_spec(text: str, at: int) -> tuple[_Spec, int]:
    match = _JAVA.match(text, at)
    if match is None:
        raise _bad(text, at, "a '%' must start a conversion such as %s or %1$d; write %% for a percent sign")
    index, flags, width, precision, conversion = match.groups()
    written = match.group()
    if conversion[0] in "tT":
        raise _bad(text, at, "date and time conversions (%t, %T) are not supported; format the date first", written)
    lower = conversion.lower()
    if lower not in _JAVA_FLAGS or (conversion != lower and lower in "dofn%"):
        raise _bad(text, at, f"unknown conversion '{conversion}' (use s, d, f, x, o, e, g, c, b, %% or %n)", written)
    for flag in set(flags):
        if flags.count(flag) > 1:
            raise _bad(text, at, f"the flag '{flag}' is repeated", written)
    if index is not None and int(index) == 0:
        raise _bad(text, at, "argument indexes start at 1 (%1$s)", written)
    if lower in "%n" and index is not None:
        raise _bad(text, at, f"%{conversion} takes no argument index", written)
    refused = set(flags) - set(_JAVA_FLAGS[lower]) - {"<"}
    if refused:
        raise _bad(text, at, f"the flag '{sorted(refused)[0]}' does not apply to %{conversion}", written)
    if "<" in flags and lower in "%n":
        raise _bad(text, at, "the flag '<' does not apply to %% or %n", written)
    if lower == "n" and width is not None:
        raise _bad(text, at, "%n takes no width", written)
    if precision is not None and lower not in _JAVA_PRECISION:
        raise _bad(text, at, f"%{conversion} takes no precision", written)
    if ("-" in flags or "0" in flags) and width is None:
        raise _bad(text, at, "the flags '-' and '0' need a width", written)
    if "-" in flags and "0" in flags:
        raise _bad(text, at, "the flags '-' and '0' cannot be combined", written)
    if "+" in flags and " " in flags:
        raise _bad(text, at, "the flags '+' and ' ' cannot be combined", written)
    spec = _Spec(written, int(index) if index else 0, lower, conversion != lower, flags,
                 int(width) if width else None, int(precision) if precision is not None else None, 0)
    return spec, match.end()


def _apple_spec(text: str, at: int) -> tuple[_Spec, int]:
    match = _APPLE.match(text, at)
    if match is None:
        raise _bad(text, at, "a '%' must start a conversion such as %@ or %1$d; write %% for a percent sign")
    index, substitution, flags, width, precision, length, conversion = match.groups()
    written = match.group()
    if index is not None and int(index) == 0:
        raise _bad(text, at, "argument indexes start at 1 (%1$@)", written)
    if substitution is not None:
        return _Spec(written, int(index) if index else 0, "@", False, "", None, None, 0, substitution), match.end()
    if conversion not in _APPLE_CONVERSIONS:
        raise _bad(text, at, f"unknown conversion '{conversion}' (use @, d, i, u, f, x, o, c, s, e, g or %%)", written)
    if width == "*" or precision == "*":
        raise _bad(text, at, "a width or precision taken from an argument ('*') is not supported", written)
    if conversion == "%" and index is not None:
        raise _bad(text, at, "%% takes no argument index", written)
    lower = {"i": "d", "D": "d", "U": "u", "O": "o"}.get(conversion, conversion.lower())
    if conversion in "DUO":
        length = "l"  # the old synonyms of %ld, %lu, %lo
    upper = conversion in "XEFG"  # %C and %S are unichar forms, not capitals
    spec = _Spec(written, int(index) if index else 0, lower, upper, flags.replace("'", ""),
                 int(width) if width else None, int(precision or 0) if precision is not None else None,
                 _BITS[length or ""])
    return spec, match.end()


# --- rendering -------------------------------------------------------------------------------------------


def _render_spec(spec: _Spec, values: Mapping[str, Any], limit: int, java: bool) -> str:
    if spec.conversion == "%":
        return _pad("%", spec, limit)
    if spec.substitution is not None:
        value = values.get(spec.substitution)
        return value if isinstance(value, str) else spec.text
    value = values.get(str(spec.position))
    if value is None or value_text(value) is None:
        return spec.text  # missing: left as written
    conversion = spec.conversion
    if conversion == "d" or conversion == "u":
        body = _integer(value, spec, java)
    elif conversion == "x" or conversion == "o":
        body = _unsigned(value, spec, java)
    elif conversion in "efg":
        body = _floating(value, spec, java, limit)
    elif conversion == "c":
        body = _character(value)
    elif conversion == "b":
        body = ("true" if value else "false") if value.__class__ is bool else "true"
    elif conversion == "h":
        body = _java_hash(value)
    elif conversion == "@":
        body = _object_description(value)
    else:  # s
        body = _java_string(value) if java else value_text(value) or ""
        if spec.precision is not None:
            body = body[:spec.precision]
    if spec.upper:
        body = body.upper()
    return _pad(body, spec, limit)


def _pad(body: str, spec: _Spec, limit: int) -> str:
    width = spec.width
    if width is None or len(body) >= width:
        return body
    padding = " " * min(width - len(body), limit + 1)
    return body + padding if "-" in spec.flags else padding + body


def _as_integer(value: Any) -> int | None:
    kind = value.__class__
    if kind is int:
        return value  # type: ignore[no-any-return]
    if kind is float and math.isfinite(value) and value == int(value):
        return int(value)
    return None


def _integer(value: Any, spec: _Spec, java: bool) -> str:
    number = int(value) if (value.__class__ is bool and not java) else _as_integer(value)
    if number is None:
        return value_text(value) or ""
    if not java:
        number = _wrap(number, spec.bits, signed=spec.conversion == "d")
    digits = str(abs(number))
    if "," in spec.flags:
        digits = f"{abs(number):,}"
    if number < 0:
        prefix, suffix = ("(", ")") if "(" in spec.flags else ("-", "")
    else:
        prefix, suffix = ("+" if "+" in spec.flags else " " if " " in spec.flags else ""), ""
    if not java and spec.precision is not None:  # C: a minimum number of digits
        digits = digits.rjust(spec.precision, "0")
    if "0" in spec.flags and spec.width is not None and (java or spec.precision is None):
        digits = digits.rjust(spec.width - len(prefix) - len(suffix), "0")
    return prefix + digits + suffix


def _unsigned(value: Any, spec: _Spec, java: bool) -> str:
    number = int(value) if (value.__class__ is bool and not java) else _as_integer(value)
    if number is None:
        return value_text(value) or ""
    if java:  # an int, a long, or (beyond) a BigInteger, which keeps its sign
        bits = 32 if -2**31 <= number < 2**31 else 64 if -2**63 <= number < 2**63 else 0
        if bits:
            number &= (1 << bits) - 1
    else:
        number = _wrap(number, spec.bits, signed=False)
    sign = "-" if number < 0 else ""
    digits = format(abs(number), "x" if spec.conversion == "x" else "o")
    if not java and spec.precision is not None:
        digits = digits.rjust(spec.precision, "0")
    prefix = ""
    if "#" in spec.flags and (number or java):
        prefix = "0x" if spec.conversion == "x" else ("" if digits.startswith("0") else "0")
    if "0" in spec.flags and spec.width is not None and (java or spec.precision is None):
        digits = digits.rjust(spec.width - len(sign) - len(prefix), "0")
    return sign + prefix + digits


def _wrap(number: int, bits: int, signed: bool) -> int:
    """`number` as C reads it from an argument of `bits` bits (two's complement)."""
    number &= (1 << bits) - 1
    if signed and number >= 1 << (bits - 1):
        number -= 1 << bits
    return number


def _floating(value: Any, spec: _Spec, java: bool, limit: int) -> str:
    kind = value.__class__
    if kind is bool or not (kind is int or kind is float or kind is Decimal):
        return value_text(value) or ""
    if kind is float and not math.isfinite(value):
        return value_text(value) or ""
    precision = 6 if spec.precision is None else min(spec.precision, limit + _PRECISION_CAP)
    if java:
        return _java_floating(value, spec, precision)
    number = float(value) if kind is not float else value
    flags = "".join(flag for flag in spec.flags if flag in "-+ 0#")
    width = str(spec.width) if spec.width is not None and spec.width <= limit else ""
    text = ("%" + flags + width + "." + str(precision) + spec.conversion) % number  # a spec built from parsed parts
    return text if spec.width is None or spec.width <= limit else text.rjust(limit + 1)


def _java_floating(value: Any, spec: _Spec, precision: int) -> str:
    exact = Decimal(repr(value)) if value.__class__ is float else Decimal(value)
    negative = exact.is_signed() and exact != 0 or (value.__class__ is float and math.copysign(1, value) < 0)
    magnitude = abs(exact)
    conversion = spec.conversion
    if conversion == "g":
        precision = precision or 1
        rounded = _round_significant(magnitude, precision) if magnitude else magnitude
        if magnitude == 0 or Decimal("0.0001") <= rounded < Decimal(10) ** precision:
            conversion = "f"
            adjusted = rounded.adjusted() if magnitude else 0
            precision = max(precision - adjusted - 1, 0)
            magnitude = rounded
        else:
            conversion = "e"
            precision -= 1
    if conversion == "f":
        digits = _fixed(magnitude, precision)
        if "," in spec.flags:
            whole, _, fraction = digits.partition(".")
            digits = f"{int(whole):,}" + ("." + fraction if fraction else "")
        if "#" in spec.flags and precision == 0:
            digits += "."
    else:
        digits = _scientific(magnitude, precision, "#" in spec.flags)
    if negative:
        prefix, suffix = ("(", ")") if "(" in spec.flags else ("-", "")
    else:
        prefix, suffix = ("+" if "+" in spec.flags else " " if " " in spec.flags else ""), ""
    if "0" in spec.flags and spec.width is not None:
        digits = digits.rjust(spec.width - len(prefix) - len(suffix), "0")
    return prefix + digits + suffix


def _context(number: Decimal, precision: int) -> Context:
    return Context(prec=max(28, number.adjusted() + precision + 3), rounding=ROUND_HALF_UP)


def _fixed(number: Decimal, precision: int) -> str:
    quantum = Decimal(1).scaleb(-precision)
    return format(number.quantize(quantum, context=_context(number, precision)), "f")


def _round_significant(number: Decimal, digits: int) -> Decimal:
    return number.quantize(Decimal(1).scaleb(number.adjusted() - digits + 1), context=_context(number, digits))


def _scientific(number: Decimal, precision: int, point: bool) -> str:
    if number == 0:
        mantissa, exponent = "0" + ("." + "0" * precision if precision else ""), 0
    else:
        rounded = _round_significant(number, precision + 1)
        exponent = rounded.adjusted()
        mantissa = _fixed(rounded.scaleb(-exponent), precision)
    if point and "." not in mantissa:
        mantissa += "."
    return f"{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _character(value: Any) -> str:
    if value.__class__ is int and 0 <= value <= 0x10FFFF:
        return chr(value)
    return value_text(value) or ""


def _java_string(value: Any) -> str:
    """`String.valueOf(value)` as Java prints a JSON value (a double as `Double.toString` does)."""
    if value.__class__ is float:
        magnitude = abs(value)
        if not math.isfinite(value):
            return "NaN" if value != value else ("-Infinity" if value < 0 else "Infinity")
        if magnitude == 0 or 1e-3 <= magnitude < 1e7:
            return repr(value)
        exact = Decimal(repr(value))
        digits = exact.as_tuple().digits
        exponent = exact.adjusted()
        mantissa = str(digits[0]) + "." + ("".join(map(str, digits[1:])).rstrip("0") or "0")
        return ("-" if value < 0 else "") + f"{mantissa}E{exponent}"
    return value_text(value) or ""


def _object_description(value: Any) -> str:
    """What `%@` prints for a JSON value: an NSString as is, an NSNumber as its description."""
    if value.__class__ is bool:
        return "1" if value else "0"
    if value.__class__ is float:
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return value_text(value) or ""


def _java_hash(value: Any) -> str:
    """`Integer.toHexString(value.hashCode())` for a JSON value (String, Integer/Long, Double, Boolean)."""
    kind = value.__class__
    if kind is str:
        code = 0
        units = value.encode("utf-16-le", "surrogatepass")
        for unit in struct.unpack(f"<{len(units) // 2}H", units):
            code = (code * 31 + unit) & 0xFFFFFFFF
    elif kind is bool:
        code = 1231 if value else 1237
    elif kind is int and -2**31 <= value < 2**31:
        code = value & 0xFFFFFFFF
    elif kind is int and -2**63 <= value < 2**63:
        bits = value & 0xFFFFFFFFFFFFFFFF
        code = (bits ^ (bits >> 32)) & 0xFFFFFFFF
    elif kind is float:
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        code = (bits ^ (bits >> 32)) & 0xFFFFFFFF
    else:
        return value_text(value) or ""
    return format(code, "x")


# --- conversions, for comparing a translation's with the source's ---------------------------------------

_JAVA_KINDS = {"s": "a string", "b": "a boolean", "h": "a hash code", "c": "a character", "d": "an integer",
               "o": "an integer", "x": "an integer", "e": "a floating-point number", "f": "a floating-point number",
               "g": "a floating-point number"}
_C_KINDS = {"@": "an object", "s": "a C string", "c": "a character", "e": "a floating-point number",
            "f": "a floating-point number", "g": "a floating-point number"}


def printf_conversions(text: str, style: PrintfStyle) -> list[Conversion]:
    """The conversions of `text` with the type of value each needs, as `conversions.Conversion`s
    (Java: `%s` a string, `%d %o %x` an integer, ...; C and Apple: `%@` an object, `%d %u %x` an
    integer of the width its length modifier names, ...). `%%`, `%n` and Apple's `%#@name@`
    substitutions (a plural's own) take no typed argument and are left out. ValueError when `text`
    is not a valid format string."""
    from parlance_i18n.formats.shared.conversions import Conversion

    found: list[Conversion] = []
    for piece in compile_printf(text, style)._pieces:
        if isinstance(piece, str) or piece.conversion == "%" or piece.substitution is not None:
            continue
        if style == "java":
            kind = _JAVA_KINDS.get(piece.conversion, f"%{piece.conversion}")
        elif piece.conversion in "duxo":
            kind = f"a {piece.bits}-bit integer"
        else:
            kind = _C_KINDS.get(piece.conversion, f"%{piece.conversion}")
        found.append(Conversion(str(piece.position), kind, piece.text, "$" in piece.text or "<" in piece.flags))
    return found
