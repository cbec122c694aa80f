"""A parser for ICU MessageFormat as FormatJS (`intl-messageformat`) reads it, producing a small syntax tree.

    message     := (text | argument | '#')*           '#' only means something inside a plural
    argument    := '{' name '}'
                 | '{' name ',' 'number' [',' ('integer' | 'percent' | '::' number-skeleton)] '}'
                 | '{' name ',' ('date' | 'time') [',' ('short' | 'medium' | 'long' | 'full' | '::' date-skeleton)] '}'
                 | '{' name ',' ('plural' | 'selectordinal') ',' ['offset:' N] (selector '{' message '}')+ '}'
                 | '{' name ',' 'select' ',' (word '{' message '}')+ '}'
    selector    := '=' number | 'zero' | 'one' | 'two' | 'few' | 'many' | 'other'
    name        := letters, digits, '_', '.', '-'      (a variable's name, never an expression)

Apostrophes follow ICU as FormatJS applies them: `''` is one apostrophe; `'` before `{`, `}`, `<`,
`>` (or `#` in a plural) starts quoted literal text up to the next lone `'`; any other `'` is
itself. Tags such as `<b>...</b>` are text, as FormatJS reads them with `ignoreTag: true`.
`other` is required in every plural and select.

Skeletons are read as FormatJS reads them (`icu.skeletons`); one FormatJS would refuse or fail to format with (`::currency`
without a code, `::yQQQ`, ...) is a syntax error here. Named styles other than FormatJS's own, and
ICU's pattern styles (`#,##0.00`, `dd.MM.yyyy`), are errors too: FormatJS silently ignores such a
pattern (unless the app configures a format of that name), so they never print what they say.

Errors are `MessageSyntaxError` with the 0-based character position. The syntax tree's nodes are
defined in `icu.nodes` and exported here too. `validate(text)` answers whether a message is valid
(and why not) faster than `parse`, for readers that keep only the text.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NoReturn

from parlance_i18n.icu.nodes import (
    POUND,
    Argument,
    DateArgument,
    MessageSyntaxError,
    Node,
    NumberArgument,
    Parts,
    PluralArgument,
    Pound,
    SelectArgument,
)
from parlance_i18n.icu.number_options import resolve
from parlance_i18n.icu.plurals import CATEGORIES as PLURAL_KEYWORDS
from parlance_i18n.icu.quick import quick_check, quick_parse
from parlance_i18n.icu.skeletons import (
    NUMBER_INTEGER,
    NUMBER_PERCENT,
    NumberOptions,
    date_skeleton_options,
    number_skeleton_options,
)

__all__ = [
    "POUND",
    "Argument",
    "DateArgument",
    "MessageSyntaxError",
    "NumberArgument",
    "Parts",
    "PluralArgument",
    "Pound",
    "SelectArgument",
    "parse",
    "parse_fully",
    "validate",
]

MAX_DEPTH = 12
NUMBER_STYLES = {"integer": NUMBER_INTEGER, "percent": NUMBER_PERCENT}
"""FormatJS's named number formats that need no configuration (`currency` needs a currency code)."""
DATE_STYLES = ("short", "medium", "long", "full")

_NAME = re.compile(r"[\w.\-]+")
_SIMPLE_ARGUMENT = re.compile(r"\{([\w.\-]+)\}")
_WORD = re.compile(r"[A-Za-z]+")
_SELECT_KEY = re.compile(r"[\w\-]+")
_EXACT = re.compile(r"=(-?[0-9]{1,30}(?:\.[0-9]{1,30})?)")
_OFFSET = re.compile(r"offset:[ \t\r\n]*([+-]?[0-9]{1,9})")
_SPACE = re.compile(r"[ \t\r\n]*")
_SPECIAL = re.compile(r"[{}']")
_SPECIAL_IN_PLURAL = re.compile(r"[{}'#]")


def parse(text: str) -> Parts:
    """Parse a message; adjacent literal text is merged into one str. Raises `MessageSyntaxError`.

    The common shapes (text, `{name}`, plurals and selects whose branches hold text, `#` and
    `{name}`) take the shortcut in `icu.quick`, which answers only with what the full parser
    returns; anything else, and every error, is read by the full parser."""
    quick = quick_parse(text)
    return quick if quick is not None else _Parser(text).parse()


def validate(text: str) -> MessageSyntaxError | None:
    """The error `parse(text)` raises, or None when `text` is valid, without building the syntax tree
    of a common shape: what reading a catalog asks of each message (a few microseconds for a plural)."""
    if quick_check(text):
        return None
    try:
        _Parser(text).parse()
    except MessageSyntaxError as error:
        return error
    return None


def parse_fully(text: str) -> Parts:
    """`parse` without the shortcut: the full parser alone, which the shortcut is tested against."""
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
        if following in ("{", "}", "<", ">") or (in_plural and following == "#"):
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
        kind = self._expect(_WORD, "an argument type: number, date, time, plural, select or selectordinal")
        self._skip_space()
        if kind == "number":
            return self._number(name, opened)
        if kind in ("date", "time"):
            return self._date(name, kind, opened)
        if kind in ("plural", "selectordinal"):
            self._require(",", f"expected ',' after '{kind}'")
            return self._plural(name, kind == "selectordinal", opened, depth)
        if kind == "select":
            self._require(",", "expected ',' after 'select'")
            return self._select(name, opened, depth, in_plural)
        raise MessageSyntaxError(
            f"unsupported argument type {kind!r}: use number, date, time, plural, select or selectordinal", kind_at
        )

    def _number(self, name: str, opened: int) -> NumberArgument:
        options: NumberOptions | None = None
        style_at, style = self._style()
        if style is not None and style.startswith("::"):
            try:
                options = number_skeleton_options(style[2:].strip())
                resolve(options)  # what the Intl.NumberFormat constructor would throw on
            except ValueError as exc:
                raise MessageSyntaxError(f"invalid number skeleton: {exc}", style_at) from None
        elif style is not None:
            if style == "currency":
                raise MessageSyntaxError(
                    "the number style 'currency' needs a currency code, which FormatJS takes from the app's "
                    "formats: use a skeleton such as ::currency/EUR", style_at)
            if style not in NUMBER_STYLES:
                raise MessageSyntaxError(
                    f"unsupported number style {_shown(style)}: use integer, percent or a skeleton such as "
                    "::currency/EUR or ::.00 (FormatJS ignores other patterns)", style_at)
            options = NUMBER_STYLES[style]
        self._require("}", "expected '}' to close the number argument")
        return NumberArgument(name, options, self.text[opened:self.pos])

    def _date(self, name: str, kind: str, opened: int) -> DateArgument:
        style_at, style = self._style()
        if style is not None and style.startswith("::"):
            skeleton = style[2:].strip()
            if not skeleton:
                raise MessageSyntaxError(f"the {kind} skeleton after '::' is empty", style_at)
            try:
                date_skeleton_options(skeleton, "h")
            except ValueError as exc:
                raise MessageSyntaxError(f"invalid {kind} skeleton: {exc}", style_at) from None
            style = "::" + skeleton
        elif style is not None and style not in DATE_STYLES:
            raise MessageSyntaxError(
                f"unsupported {kind} style {_shown(style)}: use short, medium, long, full or a skeleton such as "
                "::yMMMd (FormatJS ignores other patterns)", style_at)
        self._require("}", f"expected '}}' to close the {kind} argument")
        return DateArgument(name, kind, style, self.text[opened:self.pos])

    def _style(self) -> tuple[int, str | None]:
        """After `{name, number|date|time`: (position, the style text up to the closing '}', trimmed)
        or (position, None) without one. FormatJS reads the style as ICU does: nested braces and
        quoted text are part of it."""
        if not self._take(","):
            return self.pos, None
        self._skip_space()
        depth, start = 0, self.pos
        text, end = self.text, len(self.text)
        while self.pos < end:
            char = text[self.pos]
            if char == "'":
                close = text.find("'", self.pos + 1)
                if close < 0:
                    raise MessageSyntaxError("the quote in the argument style is not closed", self.pos)
                self.pos = close + 1
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                if depth == 0:
                    break
                depth -= 1
            self.pos += 1
        style = text[start:self.pos].rstrip(" \t\r\n")
        if not style:
            raise MessageSyntaxError("expected a style after ','", start)
        return start, style

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
            keyword = word[0]
            if keyword not in PLURAL_KEYWORDS:
                raise MessageSyntaxError(
                    f"{keyword!r} is not a CLDR plural category: use zero, one, two, few, many, other or =N", at
                )
            if keyword in cases:
                raise MessageSyntaxError(f"the selector {keyword!r} appears twice", at)
            self.pos = word.end()
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
            if word[0] in cases:
                raise MessageSyntaxError(f"the selector {word[0]!r} appears twice", at)
            self.pos = word.end()
            cases[word[0]] = self._branch(depth, in_plural, opened)
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
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # matches nothing at worst

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

    def _unclosed_or(self, opened: int, what: str) -> NoReturn:
        if self.pos >= len(self.text):
            raise MessageSyntaxError(f"the argument opened at position {opened} is not closed (missing '}}')", self.pos)
        raise MessageSyntaxError(f"expected {what}, or '}}' to close the argument", self.pos)


def _shown(style: str) -> str:
    return repr(style if len(style) <= 40 else style[:40] + "...")
