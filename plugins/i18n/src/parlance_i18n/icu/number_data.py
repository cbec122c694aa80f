"""The CLDR number data `icu.numbers` formats with, read from Babel (through `icu.cldr`) once.

- `locale_numbers(locale)`: one locale's symbols, digits and minimum grouping digits (CLDR's, which
  Babel does not carry, are kept here), and its plural rules for the numbers it prints;
- `number_pattern(text)`: a CLDR number pattern read into its affixes and grouping sizes;
- `unit_patterns(locale_id)`: the locale's unit patterns by ECMA-402 unit name;
- `numbering_digits(cldr)`: the digits of the locale's default numbering system (dates use them too).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from parlance_i18n.icu.cldr import cldr_data, cldr_parent

if TYPE_CHECKING:
    from babel import Locale

__all__ = ["LocaleNumbers", "NumberPattern", "locale_numbers", "number_pattern", "numbering_digits", "unit_patterns"]


# --- CLDR patterns ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumberPattern:
    """One CLDR number pattern: affixes (with `¤ % ‰ - +` still symbolic) and grouping sizes."""

    prefix: str
    suffix: str
    negative_prefix: str | None  # None without an explicit negative subpattern
    negative_suffix: str | None
    primary: int  # digits in the first group, 0 for no grouping
    secondary: int
    has_digits: bool  # False for a compact pattern such as French "mille"


_NUMBER_CHARS = frozenset("#0123456789,.@E")


def _split_pattern(text: str) -> tuple[str, str, str]:
    """(prefix, number, suffix) of one subpattern; quoted text becomes literal, `''` an apostrophe."""
    prefix: list[str] = []
    number: list[str] = []
    suffix: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        char = text[i]
        if char == "'":
            if text.startswith("''", i):
                (suffix if number else prefix).append("'")
                i += 2
                continue
            quoted = not quoted
            i += 1
            continue
        if not quoted and char in _NUMBER_CHARS and not suffix:
            number.append(char)
        elif quoted and char in "¤%‰-+":
            (suffix if number else prefix).append("\x00" + char)  # a quoted symbol is literal
        else:
            (suffix if number else prefix).append(char)
        i += 1
    return "".join(prefix), "".join(number), "".join(suffix)


@functools.lru_cache(maxsize=512)
def number_pattern(text: str) -> NumberPattern:
    positive, _, negative = _split_unquoted(text)
    prefix, number, suffix = _split_pattern(positive)
    negative_prefix = negative_suffix = None
    if negative:
        negative_prefix, _, negative_suffix = _split_pattern(negative)
    integer = number.split(".")[0].split("E")[0]
    groups = integer.split(",")
    primary = len(groups[-1]) if len(groups) > 1 else 0
    secondary = len(groups[-2]) if len(groups) > 2 else primary
    return NumberPattern(prefix, suffix, negative_prefix, negative_suffix, primary, secondary, bool(number))


def _split_unquoted(text: str) -> tuple[str, str, str]:
    quoted = False
    for i, char in enumerate(text):
        if char == "'":
            quoted = not quoted
        elif char == ";" and not quoted:
            return text[:i], ";", text[i + 1:]
    return text, "", ""


# --- minimum grouping digits (CLDR; Babel does not carry them) and digits -------------------------------

_MIN_GROUPING = {"be": 2, "bg": 2, "ee": 3, "es": 2, "es_419": 1, "et": 2, "hu": 2, "hy": 2, "ia": 2, "ie": 2,
                 "it": 2, "ka": 2, "lv": 2, "pl": 2, "pt_PT": 2, "ru_UA": 2, "sl": 2, "sq": 2}
"""CLDR 48 `minimumGroupingDigits` where it is not 1: Spanish writes 1234 but 12.345; Latin American
Spanish (es-419 and the locales under it) groups from 1,234 again."""

_ZEROS = {"arab": 0x660, "arabext": 0x6F0, "beng": 0x9E6, "deva": 0x966, "gujr": 0xAE6, "guru": 0xA66,
          "khmr": 0x17E0, "knda": 0xCE6, "laoo": 0xED0, "mlym": 0xD66, "mtei": 0xABF0, "mymr": 0x1040,
          "nkoo": 0x7C0, "olck": 0x1C50, "orya": 0xB66, "taml": 0xBE6, "telu": 0xC66, "thai": 0xE50,
          "tibt": 0xF20, "adlm": 0x1E950, "java": 0xA9D0, "sund": 0x1BB0, "rohg": 0x10D30, "cakm": 0x11136}
"""The zero of each decimal numbering system a CLDR locale defaults to (the other nine follow it)."""


def numbering_digits(cldr: Any) -> dict[int, int] | None:
    """A `str.translate` table from ASCII digits to the locale's default digits (None: they are ASCII)."""
    zero = _ZEROS.get(cldr.get("default_numbering_system") or "latn")
    return None if zero is None else str.maketrans("0123456789", "".join(chr(zero + i) for i in range(10)))


def _cldr_chain(locale_id: str) -> list[str]:
    chain = [locale_id]
    while (parent := cldr_parent(chain[-1])) not in (None, "root") and parent not in chain:
        chain.append(parent)
    return chain


# --- one locale's number data -------------------------------------------------------------------------------


class LocaleNumbers:
    """The CLDR number data of one locale that formatting needs, read from Babel once."""

    def __init__(self, locale: Locale) -> None:
        self.cldr = cldr = cldr_data(str(locale))
        system = cldr.get("default_numbering_system") or "latn"
        table = cldr.get("number_symbols") or {}
        symbols = table.get(system) or table.get("latn") or {}
        if system not in _ZEROS and system != "latn":
            system, symbols = "latn", table.get("latn") or symbols
        self.locale = locale
        self.decimal = symbols.get("decimal", ".")
        self.group = symbols.get("group", ",")
        self.minus = symbols.get("minusSign", "-")
        self.plus = symbols.get("plusSign", "+")
        self.percent = symbols.get("percentSign", "%")
        self.permille = symbols.get("perMille", "‰")
        self.exponential = symbols.get("exponential", "E")
        self.infinity = symbols.get("infinity", "∞")
        self.currency_decimal = symbols.get("currencyDecimal", self.decimal)
        self.currency_group = symbols.get("currencyGroup", self.group)
        self.digits = numbering_digits(cldr)
        chain = _cldr_chain(str(locale))
        self.min_grouping = next((_MIN_GROUPING[i] for i in chain if i in _MIN_GROUPING), 1)

    def plural(self, value: Decimal) -> str:
        try:
            return str(self.locale.plural_form(value))
        except (ArithmeticError, ValueError, TypeError):
            return "other"


@functools.lru_cache(maxsize=256)
def locale_numbers(locale: Locale) -> LocaleNumbers:
    return LocaleNumbers(locale)


@functools.lru_cache(maxsize=64)
def unit_patterns(locale_id: str) -> dict[str, Any]:
    """CLDR's unit patterns by ECMA-402 unit name (`kilometer`, not `length-kilometer`)."""
    table: dict[str, Any] = {}
    for key, value in (cldr_data(locale_id).get("unit_patterns") or {}).items():
        if "-" in key:
            table.setdefault(key.split("-", 1)[1], value)
    return table
