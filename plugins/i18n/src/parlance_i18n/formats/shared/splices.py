"""Edits of one text planned on one parse of it, made together in one pass: what lets a Document take
thousands of edits at the cost of one parse and one serialization, rather than one of each per edit.

A Document parses its file once and plans each edit on that parse: `Splices.add(start, end, text)`
replaces `[start, end)` of the parsed text (an insertion where `start == end`). Positions never
move while edits are planned, because the parsed text does not change; `apply` makes every edit in
one pass. Insertions at one place keep the order they were added in, and come before a replacement
that starts there. Two edits that would change the same characters cannot both be planned on one
parse: `add` raises `Overlap` and the Document makes the edits before it (`apply`), parses the
result and plans again.

`touches(start, end)` says whether a planned edit changes, or inserts into, a stretch of the text:
an edit may be planned on the parse only when nothing it reads has been changed since (a comment
above an entry, the line after it); when something has, the Document applies and parses first.
"""

from __future__ import annotations

import bisect
from typing import Generic, TypeVar

__all__ = ["Overlap", "Splices"]

TextT = TypeVar("TextT", str, bytes)


class Overlap(Exception):
    """An edit would change characters another edit planned on the same parse changes."""


class Splices(Generic[TextT]):
    """Replacements of `[start, end)` of one parsed text, by offsets into it, applied in one pass."""

    __slots__ = ("_edits", "_starts", "_ends", "_points")

    def __init__(self) -> None:
        self._edits: list[tuple[int, int, int, TextT]] = []  # (start, end, order added, text)
        self._starts: list[int] = []  # the replacements' starts and ends, sorted (they never overlap)
        self._ends: list[int] = []
        self._points: list[int] = []  # where the insertions are, sorted

    def __bool__(self) -> bool:
        return bool(self._edits)

    def __len__(self) -> int:
        return len(self._edits)

    def add(self, start: int, end: int, text: TextT) -> None:
        """Plan replacing `[start, end)` with `text`; Overlap when another planned replacement
        changes a character of it, or an insertion falls strictly inside it (or it inside one)."""
        if start > end:
            raise ValueError(f"an edit from {start} to {end} runs backwards")
        if start == end:
            at = bisect.bisect_left(self._starts, start) - 1  # the last replacement starting before it
            if at >= 0 and self._ends[at] > start:
                raise Overlap(f"the insertion at {start} falls inside a replacement")
            bisect.insort(self._points, start)
        else:
            if self._replaced(start, end) or self._inserted(start + 1, end - 1):
                raise Overlap(f"the edit of {start}..{end} overlaps another")
            at = bisect.bisect_left(self._starts, start)
            self._starts.insert(at, start)
            self._ends.insert(at, end)
        self._edits.append((start, end, len(self._edits), text))

    def touches(self, start: int, end: int) -> bool:
        """Whether a planned edit changes a character of `[start, end]`, or inserts anywhere from
        `start` to `end` (both ends included)."""
        return self._replaced(start, end + 1) or self._inserted(start, end)

    def replaced_within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The planned replacements that lie inside `[start, end)`, in order, as (start, end)."""
        first = bisect.bisect_left(self._starts, start)
        last = bisect.bisect_left(self._starts, end)
        return [(self._starts[at], self._ends[at]) for at in range(first, last) if self._ends[at] <= end]

    def mark(self) -> int:
        """A point to `undo` to: the edits planned so far."""
        return len(self._edits)

    def undo(self, mark: int) -> None:
        """Forget the edits planned since `mark`."""
        for start, end, _, _ in self._edits[mark:]:
            if start < end:
                at = bisect.bisect_left(self._starts, start)
                del self._starts[at]
                del self._ends[at]
            else:
                del self._points[bisect.bisect_left(self._points, start)]
        del self._edits[mark:]

    def apply(self, text: TextT) -> TextT:
        """`text` (the parsed text the edits were planned on) with every edit made."""
        if not self._edits:
            return text
        pieces: list[TextT] = []
        position = 0
        for start, end, _, new in sorted(self._edits):  # at one place: insertions first, in order added
            pieces.append(text[position:start])
            pieces.append(new)
            position = end
        pieces.append(text[position:])
        return text[:0].join(pieces)

    def _replaced(self, start: int, end: int) -> bool:
        """Whether a planned replacement changes a character of `[start, end)`."""
        at = bisect.bisect_left(self._starts, end) - 1  # the last replacement starting before `end`
        return at >= 0 and self._ends[at] > start

    def _inserted(self, start: int, end: int) -> bool:
        """Whether a planned insertion is at a place from `start` to `end`, both included."""
        at = bisect.bisect_left(self._points, start)
        return at < len(self._points) and self._points[at] <= end
