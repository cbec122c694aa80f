"""A shortcut through ICU parsing for the shapes nearly every real message has, a few regular expressions deep.

    message  := (text | '{' name '}' | choice)*
    choice   := '{' name ',' ('plural' | 'selectordinal') ',' ['offset:' N] (('=' N | keyword) '{' body '}')+ '}'
              | '{' name ',' 'select' ',' (key '{' body '}')+ '}'
    body     := (text | '{' name '}' | '#')*            ('#' is the plural's number; in a select, text)
    text     := no braces, and apostrophes only where they are themselves: `''`, or `'` before
                anything but `{`, `}`, `<`, `>`, `#` and `'`

The full parser (`icu.syntax`) reads these one character class at a time through a dozen method
calls per argument; a catalog of 20,000 messages, a tenth of them plurals, spent most of a check
there. Here each argument is one match of a regular expression, its branches one `findall`.

The message is checked whole before anything is built, and this module answers only when it is
sure, leaving everything else to the full parser: `quick_check` is True only for a valid message;
`quick_build` hands the pieces of a valid one to a `Builder` (the syntax tree for `quick_parse`,
which is exactly what the full parser returns; the engine's steps for `compiler.Compiler`), and
returns None otherwise (another shape, or not valid: the full parser then says why, with the same
position as ever). So nothing the full parser accepts, rejects or builds changes; a property test
in tests/packs/i18n/test_i18n_icu_quick.py holds the two side by side on generated messages.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Protocol

from parlance_i18n.icu.nodes import POUND, Argument, Parts, PluralArgument, SelectArgument
from parlance_i18n.icu.plurals import CATEGORIES as PLURAL_KEYWORDS

__all__ = ["Builder", "quick_build", "quick_check", "quick_parse"]

# Each pattern reads its input one way only: every piece ends where the next must begin (a name
# before a space, ',' or '}'; text before a brace; spaces before anything but a space: no two runs
# of spaces are adjacent), so whatever a match finds is the reading the full parser makes, and a
# match that fails gives up in linear time. Text runs are unrolled (`[^{}']*(?:sep[^{}']*)*`) for
# the same reason. No possessive quantifiers: Python before 3.11.5 mismatched some.
_S = r"[ \t\r\n]*"
_QUOTE = r"''|'(?![{}<>#'])"
"""An apostrophe that means itself wherever it is: `''`, or one that does not start a quotation."""
_TEXT = re.compile(rf"[^{{}}']*(?:(?:{_QUOTE})[^{{}}']*)*")
_BODY = rf"[^{{}}']*(?:(?:{_QUOTE}|\{{[\w.\-]+\}})[^{{}}']*)*"
_PLURAL_SELECTOR = r"=-?[0-9]{1,30}(?:\.[0-9]{1,30})?|[A-Za-z]+"  # `=N` or a keyword
_SELECT_KEY = r"[\w\-]+"


def _branch(selector: str, body: str) -> str:
    """A selector, its branch, and the spaces after it (those before the first are the argument's)."""
    return rf"{selector}{_S}\{{{body}\}}{_S}"


_ARGUMENT = re.compile(
    r"\{(?:([\w.\-]+)\}"  # 1: the name of a `{name}`
    rf"|{_S}([\w.\-]+){_S},{_S}(?:"  # 2: the name of a choice; 3: plural's kind, 4: offset; 5, 6: the branches
    rf"(plural|selectordinal){_S},{_S}(?:offset:{_S}([+-]?[0-9]{{1,9}}){_S})?"
    rf"((?:{_branch(f'(?:{_PLURAL_SELECTOR})', _BODY)})+)"
    rf"|select{_S},{_S}((?:{_branch(_SELECT_KEY, _BODY)})+)"
    r")\})"
)
_PLURAL_BRANCHES = re.compile(_branch(f"({_PLURAL_SELECTOR})", f"({_BODY})"))
_SELECT_BRANCHES = re.compile(_branch(f"({_SELECT_KEY})", f"({_BODY})"))
_IN_PLURAL = re.compile(r"\{([\w.\-]+)\}|#")
_IN_SELECT = re.compile(r"\{([\w.\-]+)\}")


class Builder(Protocol):
    """What `quick_build` makes of a message: a syntax tree (`quick_parse`), or the engine's steps
    (`compiler.Compiler`), from the same reading. Branches are built before the node that holds them."""

    pound: Any
    """What a plural's `#` becomes."""

    def text(self, text: str) -> Any:
        """Literal text, as the message means it."""

    def argument(self, name: str, source: str) -> Any:
        """`{name}`, written `source`."""

    def sequence(self, items: tuple[Any, ...]) -> Any:
        """A message or branch: texts and arguments in order (texts are never adjacent)."""

    def plural(self, name: str, ordinal: bool, offset: int, exact: list[tuple[Decimal, Any]],
               cases: list[tuple[str, Any]]) -> Any:
        """A plural or selectordinal: its `=N` branches and keyword branches, each in source order."""

    def select(self, name: str, cases: list[tuple[str, Any]]) -> Any:
        """A select: its branches in source order."""


def quick_build(text: str, builder: Builder) -> Any:
    """What `builder` makes of the message when it has one of the common shapes and is valid; else
    None, having asked `builder` for nothing (the whole message is checked before the first piece
    is built)."""
    items = _scan(text)
    if items is None:
        return None
    built: list[Any] = []
    for item in items:
        if isinstance(item, str):
            built.append(builder.text(_unquoted(item)))
        elif isinstance(item, tuple):
            found, exact, cases = item
            branches = [(key, _body(body, exact is not None, builder)) for key, body in cases]
            if exact is None:
                built.append(builder.select(found[2], branches))
            else:
                offset = found[4]
                built.append(builder.plural(found[2], found[3] == "selectordinal", int(offset) if offset else 0,
                                            [(number, _body(body, True, builder)) for number, body in exact],
                                            branches))
        else:
            built.append(builder.argument(item[1], item[0]))
    return builder.sequence(tuple(built))


def quick_parse(text: str) -> Parts | None:
    """The message's parts when it has one of the common shapes and is valid; None otherwise."""
    parts: Parts | None = quick_build(text, _PARTS)
    return parts


def quick_check(text: str) -> bool:
    """True when the message has one of the common shapes and is valid; False says nothing."""
    return _scan(text) is not None


_Choice = tuple[re.Match[str], list[tuple[Decimal, str]] | None, list[tuple[str, str]]]
"""A plural (its match, its `=N` branches, its keyword branches) or a select (match, None, branches)."""


def _scan(text: str) -> list[str | re.Match[str] | _Choice] | None:
    """The message's pieces, checked, or None: its texts (as written), `{name}` matches and choices."""
    items: list[str | re.Match[str] | _Choice] = []
    pos, end = 0, len(text)
    while True:
        # `_TEXT` may match nothing, so it always matches.
        stop = pos if text.startswith("{", pos) else _TEXT.match(text, pos).end()  # type: ignore[union-attr]
        if stop > pos:
            items.append(text[pos:stop])
        if stop == end:
            return items
        if text[stop] != "{":  # a stray '}' or a quoting apostrophe: the full parser's business
            return None
        found = _ARGUMENT.match(text, stop)
        if found is None:
            return None
        if found[1] is not None:
            items.append(found)
        else:
            choice = _choice(text, found)
            if choice is None:
                return None
            items.append(choice)
        pos = found.end()


def _choice(text: str, found: re.Match[str]) -> _Choice | None:
    """The branches of the plural or select `found` matched; None when its selectors are not what
    the full parser accepts: CLDR keywords or `=N` in a plural, none twice, and `other`."""
    if found[3] is None:
        cases = _SELECT_BRANCHES.findall(text, found.start(6), found.end(6))
        keys = {key for key, _ in cases}
        return (found, None, cases) if "other" in keys and len(keys) == len(cases) else None
    exact: list[tuple[Decimal, str]] = []
    cases = []
    for key, body in _PLURAL_BRANCHES.findall(text, found.start(5), found.end(5)):
        if key[0] == "=":
            exact.append((Decimal(key[1:]), body))
        elif key in PLURAL_KEYWORDS:
            cases.append((key, body))
        else:
            return None
    keys = {key for key, _ in cases}
    if "other" not in keys or len(keys) != len(cases):
        return None
    if len(exact) > 1 and len({number for number, _ in exact}) != len(exact):  # `=1` and `=1.0` are one selector
        return None
    return found, exact, cases


def _body(body: str, in_plural: bool, builder: Builder) -> Any:
    """A branch: its text, `{name}` arguments and (in a plural) `#`."""
    if "{" not in body:  # the commonest bodies, without a regular expression
        if not in_plural or "#" not in body:
            return builder.sequence((builder.text(_unquoted(body)),) if body else ())
        pieces = body.split("#")
        items = [builder.text(_unquoted(pieces[0]))] if pieces[0] else []
        for piece in pieces[1:]:
            items.append(builder.pound)
            if piece:
                items.append(builder.text(_unquoted(piece)))
        return builder.sequence(tuple(items))
    pieces = (_IN_PLURAL if in_plural else _IN_SELECT).split(body)  # text, name (None: '#'), text, ...
    items = [builder.text(_unquoted(pieces[0]))] if pieces[0] else []
    for index in range(1, len(pieces), 2):
        name = pieces[index]
        items.append(builder.pound if name is None else builder.argument(name, f"{{{name}}}"))
        piece = pieces[index + 1]
        if piece:
            items.append(builder.text(_unquoted(piece)))
    return builder.sequence(tuple(items))


def _unquoted(text: str) -> str:
    """Literal text as the message means it: `''` is one apostrophe (a lone one is itself already)."""
    return text.replace("''", "'") if "'" in text else text


class _PartsBuilder:
    """Builds the syntax tree, as the full parser does."""

    pound = POUND

    @staticmethod
    def text(text: str) -> str:
        return text

    @staticmethod
    def argument(name: str, source: str) -> Argument:
        return Argument(name, source)

    @staticmethod
    def sequence(items: Parts) -> Parts:
        return items

    @staticmethod
    def plural(name: str, ordinal: bool, offset: int, exact: list[tuple[Decimal, Parts]],
               cases: list[tuple[str, Parts]]) -> PluralArgument:
        return PluralArgument(name, ordinal, offset, dict(exact), dict(cases))

    @staticmethod
    def select(name: str, cases: list[tuple[str, Parts]]) -> SelectArgument:
        return SelectArgument(name, dict(cases))


_PARTS = _PartsBuilder()
