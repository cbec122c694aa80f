"""The syntax tree of an ICU message, and its syntax error: what `icu.syntax.parse` returns or raises.

A message is `Parts`: a tuple of literal text (adjacent text merged into one str) and argument
nodes. The nodes live apart from the parsers so that both readers of the syntax, the full parser
(`icu.syntax`) and the shortcut for the common shapes (`icu.quick`), build the same objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from parlance_i18n.icu.skeletons import NumberOptions

__all__ = [
    "POUND",
    "Argument",
    "DateArgument",
    "MessageSyntaxError",
    "Node",
    "NumberArgument",
    "Parts",
    "PluralArgument",
    "Pound",
    "SelectArgument",
]


class MessageSyntaxError(ValueError):
    """A message is not valid ICU MessageFormat; `position` is the 0-based offset of the problem."""

    def __init__(self, problem: str, position: int) -> None:
        super().__init__(f"at position {position}: {problem}")
        self.problem = problem
        self.position = position


@dataclass(frozen=True, slots=True)
class Argument:
    """`{name}`: the variable's value, as text. `source` is what to show when it is missing."""

    name: str
    source: str


@dataclass(frozen=True, slots=True)
class NumberArgument:
    """`{name, number[, style]}`: the value in the locale's number format; `style` is the
    Intl.NumberFormat options the style or skeleton stands for (None: the default format)."""

    name: str
    style: NumberOptions | None
    source: str


@dataclass(frozen=True, slots=True)
class DateArgument:
    """`{name, date|time[, style]}`: an instant (ms since the epoch) in the locale's format, in UTC.
    `style` is a named style, `::` and a skeleton, or None."""

    name: str
    kind: str
    style: str | None
    source: str


@dataclass(frozen=True, slots=True)
class Pound:
    """`#` inside a plural: the plural's number (minus its offset) in the locale's format."""


@dataclass(frozen=True, slots=True)
class PluralArgument:
    """`{name, plural|selectordinal, ...}`: a branch chosen by `=N` or the CLDR category."""

    name: str
    ordinal: bool
    offset: int
    exact: dict[Decimal, Parts]
    cases: dict[str, Parts]


@dataclass(frozen=True, slots=True)
class SelectArgument:
    """`{name, select, ...}`: a branch chosen by the value's text (`other` when none matches)."""

    name: str
    cases: dict[str, Parts]


Node = str | Argument | NumberArgument | DateArgument | Pound | PluralArgument | SelectArgument
Parts = tuple[Node, ...]

POUND = Pound()
