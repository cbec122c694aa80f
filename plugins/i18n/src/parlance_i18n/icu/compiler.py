"""Compiling a message into steps: the compact form `icu.messageformat` keeps and `icu.render` walks.

A step that is a str is literal text; None is `#` (the innermost plural's number), which the
garbage collector, unlike `POUND`, ignores; a tuple says what it is in its first item:

- `(ARG, name, text)`: `{name}`, and the text it leaves when it has no value;
- `(NUMBER, name, style, text)` and `(DATE, name, kind, style, text)`;
- `(PLURAL, name, ordinal, offset, exact, keywords, branches, other)`, `exact` being `(N, branch)` pairs;
- `(SELECT, name, keys, branches, other)`.

Steps are plain tuples of strings, numbers and tuples, which the garbage collector stops tracking:
a bundle adds one tracked object per message, not per piece. While messages compile, equal pieces
(texts, arguments, branches, whole nodes) are made once and shared: `{v}` written 3,000 times is
one tuple and 3,000 slots of 8 bytes. What the steps cost beyond the source is counted as they are
made (`Compiler.cost`), for `icu.messageformat` to decide which steps to keep.
"""

from __future__ import annotations

import re
import sys
from decimal import Decimal
from typing import Any, TypeVar

from parlance_i18n.icu.quick import quick_build
from parlance_i18n.icu.syntax import (
    POUND,
    Argument,
    DateArgument,
    NumberArgument,
    Parts,
    PluralArgument,
    SelectArgument,
    parse_fully,
)

__all__ = ["ARG", "DATE", "NUMBER", "PLURAL", "SELECT", "Compiler", "Steps"]

ARG, NUMBER, PLURAL, SELECT, DATE = 0, 1, 2, 3, 4
"""The opcodes: what a step that is a tuple is, in its first item."""

Steps = tuple[Any, ...]

_NAMES_ONLY = re.compile(r"(?:[^{}]|\{[\w.\-]+\})*")
_NAME_TOKEN = re.compile(r"\{([\w.\-]+)\}")

_SHARED_LIMIT = 4096
"""Most pieces a `shared` dict holds; it starts afresh when full (it lives while one bundle compiles)."""
_SHARED_PIECE = 256
"""Larger pieces are shared within their message only, so `shared` never holds much."""

_sizeof = sys.getsizeof
_Piece = TypeVar("_Piece")


class Compiler:
    """Turns one message into steps, sharing equal pieces and adding up what new ones cost.

    The common shapes are read by `icu.quick`, which builds the steps through this compiler's
    `Builder` methods (text, argument, sequence, plural, select) without a syntax tree; the others
    are parsed in full and their tree walked into the same methods."""

    __slots__ = ("cost", "_memo", "_shared")
    pound = None

    def __init__(self, shared: dict[Any, Any] | None = None) -> None:
        self.cost = 0
        """Bytes of the pieces made for this message (each counted once, shared ones not at all)."""
        self._memo: dict[Any, Any] = {}
        if shared is not None and len(shared) >= _SHARED_LIMIT:
            shared.clear()  # what keeps repeating is soon back; one-off texts do not pile up
        self._shared = shared

    def message(self, text: str) -> Steps:
        if "'" not in text and _NAMES_ONLY.fullmatch(text):  # the common shape, without the full parser
            pieces = _NAME_TOKEN.split(text)  # text, name, text, name, ..., text
            return self.share(tuple(self.share(piece) if i % 2 == 0 else self.share((ARG, piece, f"{{{piece}}}"))
                                    for i, piece in enumerate(pieces) if piece or i % 2))
        steps = quick_build(text, self)
        return steps if steps is not None else self._sequence(parse_fully(text))

    # --- the Builder methods, which icu.quick calls -------------------------------------------------

    def text(self, text: str) -> str:
        return self.share(text)

    def sequence(self, items: tuple[Any, ...]) -> Steps:
        return self.share(items)

    def argument(self, name: str, source: str) -> Steps:
        return self.share((ARG, self.share(name), source))

    def plural(self, name: str, ordinal: bool, offset: int, exact: list[tuple[Decimal, Steps]],
               cases: list[tuple[str, Steps]]) -> Steps:
        share = self.share
        keys = share(tuple([share(key) for key, _ in cases]))
        branches = share(tuple([branch for _, branch in cases]))
        exact_branches = share(tuple([share(pair) for pair in exact]))
        node = (PLURAL, share(name), ordinal, offset, exact_branches, keys, branches, branches[keys.index("other")])
        return share(node)

    def select(self, name: str, cases: list[tuple[str, Steps]]) -> Steps:
        share = self.share
        keys = share(tuple([share(key) for key, _ in cases]))
        branches = share(tuple([branch for _, branch in cases]))
        node = (SELECT, share(name), keys, branches, branches[keys.index("other")])
        return share(node)

    # --- the syntax tree of the other shapes ---------------------------------------------------------

    def _sequence(self, parts: Parts) -> Steps:
        return self.share(tuple(map(self._step, parts)))

    def _step(self, part: Any) -> Any:
        kind = part.__class__
        if kind is str:
            return self.share(part)
        if part is POUND:
            return None
        if kind is Argument:
            return self.argument(part.name, part.source)
        if kind is NumberArgument:
            return self.share((NUMBER, self.share(part.name), part.style, part.source))
        if kind is DateArgument:
            return self.share((DATE, self.share(part.name), part.kind, part.style, part.source))
        if kind is PluralArgument:
            return self.plural(part.name, part.ordinal, part.offset,
                               [(number, self._sequence(branch)) for number, branch in part.exact.items()],
                               [(key, self._sequence(branch)) for key, branch in part.cases.items()])
        if kind is SelectArgument:
            return self.select(part.name, [(key, self._sequence(branch)) for key, branch in part.cases.items()])
        raise TypeError(f"unexpected syntax node {kind.__name__}")  # pragma: no cover

    def share(self, piece: _Piece) -> _Piece:
        """The equal piece made before, or `piece` itself, counted, when it is the first."""
        shared = self._shared
        if shared is not None:  # a small piece is looked for, and kept, in `shared` alone
            found: _Piece = shared.setdefault(piece, piece)  # one lookup, whether it is there or not
            if found is not piece:
                return found
            size = _sizeof(piece)
            if size <= _SHARED_PIECE:
                self.cost += size
                return piece
            del shared[piece]  # too large to keep beyond this message
        made: _Piece | None = self._memo.get(piece)
        if made is None:
            made = self._memo[piece] = piece
            self.cost += _sizeof(piece)
        return made


