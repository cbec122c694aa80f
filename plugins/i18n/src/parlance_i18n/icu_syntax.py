"""A parser for the ICU MessageFormat subset the pack supports, producing a small syntax tree.

    message     := (text | argument | '#')*           '#' only means something inside a plural
    argument    := '{' name '}'
                 | '{' name ',' 'number' [',' ('integer' | 'percent')] '}'
                 | '{' name ',' ('plural' | 'selectordinal') ',' ['offset:' N] (selector '{' message '}')+ '}'
                 | '{' name ',' 'select' ',' (word '{' message '}')+ '}'
    selector    := '=' number | 'zero' | 'one' | 'two' | 'few' | 'many' | 'other'
    name        := letters, digits, '_', '.', '-'      (a variable's name, never an expression)

Apostrophes follow ICU: `''` is one apostrophe; `'` before `{`, `}` (or `#` in a plural) starts
quoted literal text up to the next lone `'`; any other `'` is itself. `other` is required in every
plural and select. Date, time, spellout and custom number patterns are not supported: a template
may not choose formats, so each is a syntax error naming what is accepted.

Errors are `MessageSyntaxError` with the 0-based character position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from parlance_i18n.plurals import CATEGORIES as PLURAL_KEYWORDS

__all__ = [
    "POUND",
    "Argument",
    "MessageSyntaxError",
    "NumberArgument",
    "Parts",
    "PluralArgument",
    "Pound",
    "SelectArgument",
    "parse",
]

MAX_DEPTH = 12
NUMBER_STYLES = ("integer", "percent")

_NAME = re.compile(r"[\w.\-]+")
_SIMPLE_ARGUMENT = re.compile(r"\{([\w.\-]+)\}")
_WORD = re.compile(r"[A-Za-z]+")
_SELECT_KEY = re.compile(r"[\w\-]+")
_EXACT = re.compile(r"=(-?[0-9]{1,30}(?:\.[0-9]{1,30})?)")
_OFFSET = re.compile(r"offset:[ \t\r\n]*([0-9]{1,9})")
_SPACE = re.compile(r"[ \t\r\n]*")
_SPECIAL = re.compile(r"[{}']")
_SPECIAL_IN_PLURAL = re.compile(r"[{}'#]")


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
    """`{name, number[, style]}`: the value in the locale's number format."""

    name: str
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


Node = str | Argument | NumberArgument | Pound | PluralArgument | SelectArgument
Parts = tuple[Node, ...]

POUND = Pound()


def parse(text: str) -> Parts:
    """Parse a message; adjacent literal text is merged into one string."""
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def parse(self) -> Parts:
        return self._message(0, in_plural=False)  # at the top level a stray '}' raises, so this reads to the end

    # --- text ---------------------------------------------------------------------------------------

    def _message(self, depth: int, in_plural: bool) -> Parts:
        """Text and arguments up to a closing '}' (left unconsumed) or the end."""
        text, end = self.text, len(self.text)
        special = _SPECIAL_IN_PLURAL if in_plural else _SPECIAL
        parts: list[Node] = []
        literal: list[str] = []
        while self.pos < end:
            found = special.search(text, self.pos)
            if found is None:
                literal.append(text[self.pos:])
                self.pos = end
                break
            start = found.start()
            if start > self.pos:
                literal.append(text[self.pos:start])
            char = text[start]
            self.pos = start
            if char == "'":
                literal.append(self._apostrophe(in_plural))
                continue
            if char == "}":
                if depth == 0:
                    raise MessageSyntaxError(
                        "unmatched '}': to mean the character, quote it with apostrophes: '}'", start
                    )
                break
            if literal:
                parts.append("".join(literal))
                literal = []
            if char == "#":
                parts.append(POUND)
                self.pos += 1
                continue
            simple = _SIMPLE_ARGUMENT.match(text, start) if depth < MAX_DEPTH else None
            if simple is not None:  # `{name}`, by far the commonest argument, in one match
                parts.append(Argument(simple[1], simple[0]))
                self.pos = simple.end()
            else:
                parts.append(self._argument(depth + 1, in_plural))
        if literal:
            parts.append("".join(literal))
        return tuple(parts)

    def _apostrophe(self, in_plural: bool) -> str:
        text, pos = self.text, self.pos
        following = text[pos + 1] if pos + 1 < len(text) else ""
        if following == "'":
            self.pos = pos + 2
            return "'"
        if following in ("{", "}") or (in_plural and following == "#"):
            quoted: list[str] = []
            pos += 1
            while True:
                close = text.find("'", pos)
                if close < 0:  # ICU: an unterminated quote runs to the end of the message
                    quoted.append(text[pos:])
                    self.pos = len(text)
                    return "".join(quoted)
                quoted.append(text[pos:close])
                if text.startswith("''", close):
                    quoted.append("'")
                    pos = close + 2
                    continue
                self.pos = close + 1
                return "".join(quoted)
        self.pos = pos + 1
        return "'"

    # --- arguments ------------------------------------------------------------------------------------

    def _argument(self, depth: int, in_plural: bool) -> Node:
        opened = self.pos
        if depth > MAX_DEPTH:
            raise MessageSyntaxError(f"arguments are nested more than {MAX_DEPTH} deep", opened)
        self.pos += 1
        self._skip_space()
        name = self._expect(_NAME, "an argument name (letters, digits, '_', '.', '-') after '{'",
                            "; to mean a literal brace, quote it with apostrophes: '{'")
        self._skip_space()
        if self._take("}"):
            return Argument(name, self.text[opened:self.pos])
        if not self._take(","):
            raise MessageSyntaxError(f"expected '}}' or ',' after the argument name {name!r}", self.pos)
        self._skip_space()
        kind_at = self.pos
        kind = self._expect(_WORD, "an argument type: number, plural, select or selectordinal")
        self._skip_space()
        if kind == "number":
            return self._number(name, opened)
        if kind in ("plural", "selectordinal"):
            self._require(",", f"expected ',' after '{kind}'")
            return self._plural(name, kind == "selectordinal", opened, depth)
        if kind == "select":
            self._require(",", "expected ',' after 'select'")
            return self._select(name, opened, depth, in_plural)
        raise MessageSyntaxError(
            f"unsupported argument type {kind!r}: use number, plural, select or selectordinal", kind_at
        )

    def _number(self, name: str, opened: int) -> NumberArgument:
        style = None
        if self._take(","):
            self._skip_space()
            style_at = self.pos
            style = self._expect(_WORD, "a number style: integer or percent")
            if style not in NUMBER_STYLES:
                raise MessageSyntaxError(
                    f"unsupported number style {style!r}: use integer or percent (templates cannot choose formats)",
                    style_at,
                )
            self._skip_space()
        self._require("}", "expected '}' to close the number argument")
        return NumberArgument(name, style, self.text[opened:self.pos])

    def _plural(self, name: str, ordinal: bool, opened: int, depth: int) -> PluralArgument:
        self._skip_space()
        offset = 0
        found = _OFFSET.match(self.text, self.pos)
        if found:
            offset = int(found[1])
            self.pos = found.end()
        exact: dict[Decimal, Parts] = {}
        cases: dict[str, Parts] = {}
        while True:
            self._skip_space()
            if self._take("}"):
                break
            at = self.pos
            number = _EXACT.match(self.text, at)
            if number:
                self.pos = number.end()
                key = Decimal(number[1])
                if key in exact:
                    raise MessageSyntaxError(f"the selector ={number[1]} appears twice", at)
                exact[key] = self._branch(depth, in_plural=True, opened=opened)
                continue
            word = _WORD.match(self.text, at)
            if word is None:
                self._unclosed_or(opened, "a plural selector such as one, other or =0")
            keyword = word[0]  # type: ignore[index]
            if keyword not in PLURAL_KEYWORDS:
                raise MessageSyntaxError(
                    f"{keyword!r} is not a CLDR plural category: use zero, one, two, few, many, other or =N", at
                )
            if keyword in cases:
                raise MessageSyntaxError(f"the selector {keyword!r} appears twice", at)
            self.pos = word.end()  # type: ignore[union-attr]
            cases[keyword] = self._branch(depth, in_plural=True, opened=opened)
        if "other" not in cases:
            raise MessageSyntaxError("a plural argument needs an 'other' branch", opened)
        return PluralArgument(name, ordinal, offset, exact, cases)

    def _select(self, name: str, opened: int, depth: int, in_plural: bool) -> SelectArgument:
        cases: dict[str, Parts] = {}
        while True:
            self._skip_space()
            if self._take("}"):
                break
            at = self.pos
            word = _SELECT_KEY.match(self.text, at)
            if word is None:
                self._unclosed_or(opened, "a select keyword such as other")
            if word[0] in cases:  # type: ignore[index]
                raise MessageSyntaxError(f"the selector {word[0]!r} appears twice", at)  # type: ignore[index]
            self.pos = word.end()  # type: ignore[union-attr]
            cases[word[0]] = self._branch(depth, in_plural, opened)  # type: ignore[index]
        if "other" not in cases:
            raise MessageSyntaxError("a select argument needs an 'other' branch", opened)
        return SelectArgument(name, cases)

    def _branch(self, depth: int, in_plural: bool, opened: int) -> Parts:
        self._skip_space()
        self._require("{", "expected '{' to open the branch after its selector")
        parts = self._message(depth, in_plural)
        if not self._take("}"):
            raise MessageSyntaxError(f"the argument opened at position {opened} is not closed (missing '}}')", self.pos)
        return parts

    # --- small helpers ---------------------------------------------------------------------------------

    def _skip_space(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def _take(self, char: str) -> bool:
        if self.text.startswith(char, self.pos):
            self.pos += 1
            return True
        return False

    def _require(self, char: str, problem: str) -> None:
        if not self._take(char):
            raise MessageSyntaxError(problem, self.pos)

    def _expect(self, pattern: re.Pattern[str], what: str, hint: str = "") -> str:
        found = pattern.match(self.text, self.pos)
        if found is None:
            if self.pos >= len(self.text):
                raise MessageSyntaxError(f"the message ends where {what} was expected{hint}", self.pos)
            raise MessageSyntaxError(f"expected {what}{hint}", self.pos)
        self.pos = found.end()
        return found[0]

    def _unclosed_or(self, opened: int, what: str) -> None:
        if self.pos >= len(self.text):
            raise MessageSyntaxError(f"the argument opened at position {opened} is not closed (missing '}}')", self.pos)
        raise MessageSyntaxError(f"expected {what}, or '}}' to close the argument", self.pos)
