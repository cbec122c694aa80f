"""ICU skeletons (`{n, number, ::currency/EUR .00}`, `{t, date, ::yMMMd}`) read exactly as FormatJS's
`@formatjs/icu-skeleton-parser` and `icu-messageformat-parser` read them, into the options FormatJS
hands to `Intl.NumberFormat` and `Intl.DateTimeFormat`.

FormatJS is lenient in its own ways, and those are kept: an unknown number stem is ignored, `%x100`
scales by 100 before the percent style scales again, `unit-width-short` asks for the currency's
code, `j` in a date skeleton becomes the locale's hour letter, and date letters its parser does not
know are skipped. What it refuses (quarters, weeks, `b`/`B`, exact integer widths, ...) raises
`ValueError` with a sentence, which the message parser reports as a syntax error.

Options are tuples of sorted (name, value) pairs: hashable, and ignored by the garbage collector
when a compiled message holds them.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["DateOptions", "NUMBER_INTEGER", "NUMBER_PERCENT", "NumberOptions", "date_skeleton_options",
           "number_skeleton_options"]

NumberOptions = tuple[tuple[str, Any], ...]
"""`Intl.NumberFormat` options as sorted (name, value) pairs, plus FormatJS's own `scale`."""
DateOptions = tuple[tuple[str, Any], ...]
"""`Intl.DateTimeFormat` options as sorted (name, value) pairs."""

NUMBER_INTEGER: NumberOptions = (("maximumFractionDigits", 0),)
"""FormatJS's `{n, number, integer}`."""
NUMBER_PERCENT: NumberOptions = (("style", "percent"),)
"""FormatJS's `{n, number, percent}`."""

# --- number skeletons ---------------------------------------------------------------------------------

_SIGNS = {
    "sign-auto": (("signDisplay", "auto"),), "sign-accounting": (("currencySign", "accounting"),),
    "()": (("currencySign", "accounting"),), "sign-always": (("signDisplay", "always"),),
    "+!": (("signDisplay", "always"),),
    "sign-accounting-always": (("signDisplay", "always"), ("currencySign", "accounting")),
    "()!": (("signDisplay", "always"), ("currencySign", "accounting")),
    "sign-except-zero": (("signDisplay", "exceptZero"),), "+?": (("signDisplay", "exceptZero"),),
    "sign-accounting-except-zero": (("signDisplay", "exceptZero"), ("currencySign", "accounting")),
    "()?": (("signDisplay", "exceptZero"), ("currencySign", "accounting")),
    "sign-never": (("signDisplay", "never"),), "+_": (("signDisplay", "never"),),
}
_SIMPLE_STEMS: dict[str, tuple[tuple[str, Any], ...]] = {
    "percent": (("style", "percent"),), "%": (("style", "percent"),),
    "%x100": (("style", "percent"), ("scale", 100.0)),
    "group-off": (("useGrouping", False),), ",_": (("useGrouping", False),),
    "precision-integer": (("maximumFractionDigits", 0),), ".": (("maximumFractionDigits", 0),),
    "compact-short": (("notation", "compact"), ("compactDisplay", "short")),
    "K": (("notation", "compact"), ("compactDisplay", "short")),
    "compact-long": (("notation", "compact"), ("compactDisplay", "long")),
    "KK": (("notation", "compact"), ("compactDisplay", "long")),
    "notation-simple": (("notation", "standard"),),
    "unit-width-narrow": (("currencyDisplay", "narrowSymbol"), ("unitDisplay", "narrow")),
    "unit-width-short": (("currencyDisplay", "code"), ("unitDisplay", "short")),
    "unit-width-full-name": (("currencyDisplay", "name"), ("unitDisplay", "long")),
    "unit-width-iso-code": (("currencyDisplay", "symbol"),),
    "rounding-mode-floor": (("roundingMode", "floor"),), "rounding-mode-ceiling": (("roundingMode", "ceil"),),
    "rounding-mode-down": (("roundingMode", "trunc"),), "rounding-mode-up": (("roundingMode", "expand"),),
    "rounding-mode-half-even": (("roundingMode", "halfEven"),),
    "rounding-mode-half-down": (("roundingMode", "halfTrunc"),),
    "rounding-mode-half-up": (("roundingMode", "halfExpand"),),
}
_SKELETON_SPACE = "\t\n\x0b\x0c\r \x85\u200e\u200f\u2028\u2029"


def number_skeleton_options(skeleton: str) -> NumberOptions:
    """The options FormatJS reads from a number skeleton (the text after `::`); ValueError if it refuses it."""
    tokens = [token for token in _split_any(skeleton, _SKELETON_SPACE) if token]
    if not tokens:
        raise ValueError("the number skeleton after '::' is empty")
    options: dict[str, Any] = {}
    for token in tokens:
        stem, *args = token.split("/")
        if any(not arg for arg in args):
            raise ValueError(f"the skeleton token {token!r} has an empty option after '/'")
        _read_stem(stem, args, options)
    return tuple(sorted(options.items()))


def _split_any(text: str, separators: str) -> list[str]:
    for separator in separators[1:]:
        text = text.replace(separator, separators[0])
    return text.split(separators[0])


def _read_stem(stem: str, args: list[str], options: dict[str, Any]) -> None:
    simple = _SIMPLE_STEMS.get(stem)
    if simple is not None:
        options.update(simple)
    elif stem == "currency":
        options["style"] = "currency"
        options["currency"] = args[0] if args else None
    elif stem in ("measure-unit", "unit"):
        options["style"] = "unit"
        unit = args[0] if args else None
        options["unit"] = unit.split("-", 1)[1] if stem == "measure-unit" and unit and "-" in unit else unit
    elif stem in ("scientific", "engineering"):
        options["notation"] = stem
        for arg in args:
            options.update(_SIGNS.get(arg, ()))
    elif stem == "scale":
        options["scale"] = _js_parse_float(args[0] if args else "")
    elif stem == "integer-width":
        if len(args) != 1:
            raise ValueError("the integer-width stem takes exactly one option, such as integer-width/*00")
        _integer_width(args[0], options)
    elif stem and stem.strip("0") == "":
        options["minimumIntegerDigits"] = len(stem)
    elif _fraction_precision(stem, args, options):
        pass
    elif _significant_precision(stem, options):
        pass
    else:  # FormatJS ignores any other stem; these two may still carry a sign or a notation
        options.update(_SIGNS.get(stem, ()))
        _concise_notation(stem, options)


def _integer_width(arg: str, options: dict[str, Any]) -> None:
    # FormatJS scans the option for `*0..`, `#..0..` or `0..` runs; only the first kind is supported
    position = 0
    while position < len(arg):
        rest = arg[position:]
        if rest.startswith("*") and rest[1:2] == "0":
            zeros = len(rest[1:]) - len(rest[1:].lstrip("0"))
            options["minimumIntegerDigits"] = zeros
            position += 1 + zeros
        elif rest[0] == "#" and rest.lstrip("#")[:1] == "0":
            raise ValueError("integer-width with a maximum (such as integer-width/##0) is not supported by FormatJS")
        elif rest[0] == "0":
            raise ValueError("integer-width with an exact width (integer-width/+00) is not supported by FormatJS; "
                             "use integer-width/*00")
        else:
            position += 1


def _fraction_precision(stem: str, args: list[str], options: dict[str, Any]) -> bool:
    if not stem.startswith(".") or len(stem) < 2:
        return False
    body = stem[1:]
    zeros = len(body) - len(body.lstrip("0"))
    rest = body[zeros:]
    if zeros and rest == "*":
        options["minimumFractionDigits"] = zeros
    elif zeros and rest == "":
        options["minimumFractionDigits"] = options["maximumFractionDigits"] = zeros
    elif not zeros and rest and rest.strip("#") == "":
        options["maximumFractionDigits"] = len(rest)
    elif zeros and rest and rest.strip("#") == "":
        options["minimumFractionDigits"] = zeros
        options["maximumFractionDigits"] = zeros + len(rest)
    else:
        return False
    if len(args) > 1:
        raise ValueError("a fraction-precision stem takes at most one option, such as .00/w or .##/@@@r")
    if args and args[0] == "w":
        options["trailingZeroDisplay"] = "stripIfInteger"
    elif args:
        _significant_precision(args[0], options, fallback=True)
    return True


def _significant_precision(text: str, options: dict[str, Any], fallback: bool = False) -> bool:
    body = text
    priority = None
    if body[-1:] in ("r", "s"):
        priority = "morePrecision" if body[-1] == "r" else "lessPrecision"
        body = body[:-1]
    ats = len(body) - len(body.lstrip("@"))
    tail = body[ats:]
    if not (tail == "" or tail == "+" or tail.strip("#") == ""):
        if fallback:  # FormatJS then only records the rounding priority
            if priority:
                options["roundingPriority"] = priority
            return True
        return False
    if priority:
        options["roundingPriority"] = priority
    if not ats:  # FormatJS's parser fails on such a match (it reads the length of the missing '@' run)
        raise ValueError(f"the precision stem {text!r} needs at least one '@', as in @@ or @@#")
    if tail == "":
        options["minimumSignificantDigits"] = options["maximumSignificantDigits"] = ats
    elif tail == "+":
        options["minimumSignificantDigits"] = ats
    else:
        options["minimumSignificantDigits"] = ats
        options["maximumSignificantDigits"] = ats + len(tail)
    return True


def _concise_notation(stem: str, options: dict[str, Any]) -> None:
    if stem.startswith("EE"):
        notation, rest = "engineering", stem[2:]
    elif stem.startswith("E"):
        notation, rest = "scientific", stem[1:]
    else:
        return
    sign = {"+!": "always", "+?": "exceptZero"}.get(rest[:2])
    if sign:
        rest = rest[2:]
    if not rest or rest.strip("0"):
        raise ValueError(f"the notation stem {stem!r} is malformed: use E0, EE0 or E+!00")
    options["notation"] = notation
    if sign:
        options["signDisplay"] = sign
    options["minimumIntegerDigits"] = len(rest)


def _js_parse_float(text: str) -> float:
    """JavaScript's parseFloat: the longest leading decimal number, NaN when there is none."""
    found = re.match(r"[\t\n\v\f\r \xa0\ufeff]*([+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))",
                     text)
    if found is None:
        return float("nan")
    return float(found[1].replace("Infinity", "inf"))


# --- date skeletons -----------------------------------------------------------------------------------

_FORMATJS_TOKEN = re.compile(
    r"(?:[Eec]{1,6}|G{1,5}|[Qq]{1,5}|(?:[yYur]+|U{1,5})|[ML]{1,5}|d{1,2}|D{1,3}|F{1}|[abB]{1,5}|[hkHK]{1,2}"
    r"|w{1,2}|W{1}|m{1,2}|s{1,2}|[zZOvVxX]{1,4})(?=(?:[^']*'[^']*')*[^']*$)"
)
_NUMERIC_2 = ("numeric", "2-digit")


def date_skeleton_options(skeleton: str, hour_char: str) -> DateOptions:
    """The options FormatJS reads from a date skeleton; `hour_char` is what `j` means in the locale
    (h, H, K or k). Raises ValueError for the fields FormatJS refuses (quarters, weeks, `b`/`B`, ...)."""
    options: dict[str, Any] = {}
    for token in _FORMATJS_TOKEN.findall(_expand_hour_metachars(skeleton, hour_char)):
        _read_token(token, options)
    return tuple(sorted(options.items()))


def _expand_hour_metachars(skeleton: str, hour_char: str) -> str:
    # FormatJS (getBestPattern): `j` becomes the locale's hour letter, with `a` after a 12-hour one;
    # `J` becomes `H`.
    out = ""
    i = 0
    while i < len(skeleton):
        char = skeleton[i]
        if char == "j":
            extra = 0
            while i + 1 < len(skeleton) and skeleton[i + 1] == "j":
                extra += 1
                i += 1
            hour_len = 1 + (extra & 1)
            period_len = 1 if extra < 2 else 3 + (extra >> 1)
            if hour_char in ("H", "k"):
                period_len = 0
            out = hour_char * hour_len + out + "a" * period_len
        elif char == "J":
            out += "H"
        else:
            out += char
        i += 1
    return out


def _read_token(token: str, options: dict[str, Any]) -> None:
    size, char = len(token), token[0]
    if char == "G":
        options["era"] = "long" if size == 4 else "narrow" if size == 5 else "short"
    elif char == "y":
        options["year"] = "2-digit" if size == 2 else "numeric"
    elif char in "YuUr":
        raise ValueError("`Y/u/U/r` (year) patterns are not supported by FormatJS: use `y`")
    elif char in "qQ":
        raise ValueError("`q/Q` (quarter) patterns are not supported by FormatJS")
    elif char in "ML":
        options["month"] = ("numeric", "2-digit", "short", "long", "narrow")[size - 1]
    elif char in "wW":
        raise ValueError("`w/W` (week) patterns are not supported by FormatJS")
    elif char == "d":
        options["day"] = _NUMERIC_2[size - 1]
    elif char in "DFg":
        raise ValueError("`D/F/g` (day) patterns are not supported by FormatJS: use `d`")
    elif char == "E":
        options["weekday"] = "long" if size == 4 else "narrow" if size == 5 else "short"
    elif char in "ec":
        if size < 4:
            raise ValueError(f"`{char}..{char * 3}` (weekday) patterns are not supported by FormatJS: use `E`")
        options["weekday"] = ("short", "long", "narrow", "short")[size - 3]
    elif char == "a":
        options["hour12"] = True
    elif char in "bB":
        raise ValueError("`b/B` (day period) patterns are not supported by FormatJS: use `a`")
    elif char in "hHKk":
        options["hourCycle"] = {"h": "h12", "H": "h23", "K": "h11", "k": "h24"}[char]
        options["hour"] = _NUMERIC_2[size - 1]
    elif char == "m":
        options["minute"] = _NUMERIC_2[size - 1]
    elif char == "s":
        options["second"] = _NUMERIC_2[size - 1]
    elif char == "z":
        options["timeZoneName"] = "short" if size < 4 else "long"
    else:  # Z O v V X x
        raise ValueError("`Z/O/v/V/X/x` (time zone) patterns are not supported by FormatJS: use `z`")
