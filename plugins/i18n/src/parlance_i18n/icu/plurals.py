"""CLDR plural rules for one locale, ready for the renderer's hot path (numbers are formatted by
`icu.numbers`).

Babel supplies the rules (cardinal for `plural`, ordinal for `selectordinal`). Categories of small non-negative integers are tabulated once per locale, so the common
`{count, plural, ...}` costs a tuple index rather than a rule evaluation. Nothing here raises on a
value: anything that is not a finite number selects `other` and prints as given.
"""

from __future__ import annotations

import functools
import math
import re
from decimal import Decimal
from typing import Any

from babel import Locale

from parlance_i18n.locales import LocaleTag, babel_locale

__all__ = ["CATEGORIES", "TABLE_SIZE", "Number", "PluralRules", "as_number", "plural_rules"]

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""CLDR plural categories, in CLDR's order."""

Number = int | float | Decimal

TABLE_SIZE = 200
"""Categories of the integers 0 to TABLE_SIZE - 1 are looked up in `cardinal_table` / `ordinal_table`."""
_NUMERIC_TEXT = re.compile(r"-?[0-9]{1,30}(?:\.[0-9]{1,30})?")


def as_number(value: Any) -> Number | None:
    """The number a plural or number argument stands for, or None when it is not one.

    Strings count when they spell a plain decimal ("3", "1.50"); they become Decimals so that
    visible fraction digits matter as CLDR says (English "1.0" is `other`). Booleans, NaN and
    infinities are not numbers here.
    """
    kind = value.__class__  # read once for every test below, which is why mypy cannot narrow `value`
    if kind is int:
        return value  # type: ignore[no-any-return]  # an int: `kind is int`
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is str and _NUMERIC_TEXT.fullmatch(value):
        return int(value) if "." not in value else Decimal(value)
    if kind is Decimal and value.is_finite():
        return value  # type: ignore[no-any-return]  # a Decimal: `kind is Decimal`
    return None


class PluralRules:
    """Plural selection and number formatting for one locale (None: CLDR knows only `other`)."""

    def __init__(self, locale: Locale | None) -> None:
        self.locale = locale
        self.cardinal_categories = frozenset(locale.plural_form.tags | {"other"}) if locale else frozenset({"other"})
        self.ordinal_categories = frozenset(locale.ordinal_form.tags | {"other"}) if locale else frozenset({"other"})
        self._cardinal_rule = locale.plural_form if locale else None
        self._ordinal_rule = locale.ordinal_form if locale else None
        self.cardinal_table = self._tabulate(self._cardinal_rule)
        self.ordinal_table = self._tabulate(self._ordinal_rule)

    @staticmethod
    def _tabulate(rule: Any) -> tuple[str, ...]:
        if rule is None:
            return ("other",) * TABLE_SIZE
        return tuple(rule(n) for n in range(TABLE_SIZE))

    def cardinal(self, n: Number) -> str:
        """The CLDR cardinal category of `n` ("one", "few", ...)."""
        if n.__class__ is int and 0 <= n < TABLE_SIZE:
            return self.cardinal_table[n]
        return self._select(self._cardinal_rule, n)

    def ordinal(self, n: Number) -> str:
        """The CLDR ordinal category of `n` ("one" for 1st, "two" for 2nd in English, ...)."""
        if n.__class__ is int and 0 <= n < TABLE_SIZE:
            return self.ordinal_table[n]
        return self._select(self._ordinal_rule, n)

    @staticmethod
    def _select(rule: Any, n: Number) -> str:
        if rule is None:
            return "other"
        try:
            return str(rule(n))
        except (ArithmeticError, ValueError, TypeError):  # a number beyond what the rule's operands handle
            return "other"


@functools.lru_cache(maxsize=256)
def plural_rules(tag: LocaleTag) -> PluralRules:
    """Plural rules for `tag`, shared by every message of that locale."""
    return PluralRules(babel_locale(tag))
