"""Where a new key goes in a target file: where the source locale's file has it.

A key the target file lacks is added right after the key that precedes it in the source's file and
that the target has (`Document.add(..., after=...)`), so a sorted file stays sorted and a file kept
in the source's order stays in it. A message held in several document keys (i18next's plural forms
`items_one`, `items_few`, ...) keeps its parts together: a new part goes after the part before it
in the format's order (`CatalogFormat.part_order`) that the file has, and only the first part of a
message new to the file is placed by the source's order.

`Placement` is made once per target Document from the source file's key order. It answers an
anchor by looking back from the key's place in the source over a few keys (keys added in the
source's order find the one before them at once); past `_WALK` keys it lists, once, the positions
(in the source's order) of the keys the target has, and answers every later anchor by a binary
search there, kept up to date as keys are added: placing n keys costs O(n log n) in all, never a
scan of the file per key.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from parlance_i18n.formats import CatalogFormat, Document
from parlance_i18n.loop.forms import Write

__all__ = ["Placement"]

_WALK = 32
"""How many source keys an anchor is looked for among, one by one, before the positions of every key
the target has are listed."""


class Placement:
    """The anchors of the keys added to one Document, from the source file's key order."""

    def __init__(self, source_keys: Iterable[str], document: Document) -> None:
        self._order = list(dict.fromkeys(source_keys))
        self._position = {key: at for at, key in enumerate(self._order)}
        self._document = document
        self._added: set[int] = set()  # positions of the keys added, until `_present` is listed
        self._present: list[int] | None = None  # positions of the keys the target has, sorted

    def anchors(self, fmt: CatalogFormat, document: Document, key: str, writes: Sequence[Write]) -> dict[str, str]:
        """The key each document key of `writes` that `document` lacks goes after (when one is
        found): see the module docstring. Call before the writes are made; `added` after."""
        found: dict[str, str] = {}
        adding = [part for part, value in writes if value is not None and document.get(part) is None]
        if not adding:
            return found
        order = list(fmt.part_order(key)) if len(writes) > 1 or writes[0][0] != key else [key]
        rank = {part: at for at, part in enumerate(order)}
        placed: set[str] = set()  # the parts added before this one (they are in the file by then)
        for part in adding:
            at = rank.get(part)
            before = None
            if at is not None:
                before = next((order[index] for index in range(at - 1, -1, -1)
                               if order[index] in placed or document.get(order[index]) is not None), None)
            if before is None:
                before = self._preceding(part, key)
            if before is not None:
                found[part] = before
            placed.add(part)
        return found

    def added(self, keys: Iterable[str]) -> None:
        """Record that `keys` are in the Document now (later keys may go after them)."""
        for key in keys:
            at = self._position.get(key)
            if at is None:
                continue
            if self._present is None:
                self._added.add(at)
                continue
            index = bisect.bisect_left(self._present, at)
            if index == len(self._present) or self._present[index] != at:
                self._present.insert(index, at)

    def _preceding(self, part: str, key: str) -> str | None:
        """The last key before `part` (else before the message `key`) in the source's order that
        the Document has."""
        at = self._position.get(part, self._position.get(key))
        if at is None:
            return None
        order, document = self._order, self._document
        if self._present is None:
            for before in range(at - 1, max(at - 1 - _WALK, -1), -1):
                if before in self._added or document.get(order[before]) is not None:
                    return order[before]
            if at <= _WALK:
                return None  # none before it in the source is in the target
            position = self._position
            self._present = sorted({position[key] for key in document.keys() if key in position} | self._added)
        index = bisect.bisect_left(self._present, at)
        return order[self._present[index - 1]] if index > 0 else None
