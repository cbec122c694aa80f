"""Editing a catalog held as text: what the line-oriented formats (Java `.properties`, Apple `.strings`,
Rails YAML, gettext PO) share to keep every byte they were not asked to change.

A `TextDocument` holds the file's decoded text, plans each change on its one parse of it and makes
them all when the file is written (`TextDocument` says how); untouched, `to_bytes()` gives back the
original bytes, and once changed the text is encoded as the file was, BOM first.

The helpers around it answer the questions an edit asks of the text: where a line starts and ends
(CRLF, CR and LF each end one; a format whose parser also breaks lines elsewhere passes its own
`breaks`), which line break the file writes, what byte order mark it starts with, which entry a new
key goes after (`nearest_sibling`), and how the file writes a `\\uXXXX` escape.
"""

from __future__ import annotations

import codecs
import re
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import ClassVar, Generic, TypeVar

from parlance_i18n.formats.base import CatalogFileError, Document, ReadLimits, Value
from parlance_i18n.formats.shared.splices import Overlap, Splices

__all__ = [
    "LINE_BREAK",
    "EscapeHabits",
    "KeyedTextDocument",
    "Siblings",
    "TextDocument",
    "back_over_line_break",
    "detect_bom",
    "escape_utf16",
    "first_line_break",
    "join_surrogates",
    "line_end",
    "line_start",
    "line_starts",
    "nearest_sibling",
    "next_line",
    "previous_line_start",
]

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What ends a line in every format here: CRLF, CR or LF."""

_UNICODE_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_SURROGATE = re.compile("[\ud800-\udfff]")

EntryT = TypeVar("EntryT")
AddedT = TypeVar("AddedT")


def detect_bom(data: bytes, default: str = "utf-8") -> tuple[bytes, str]:
    """The byte order mark `data` starts with (UTF-8 or UTF-16) and the codec it names; (b"", `default`)
    when it has none."""
    for bom, codec in _UNICODE_BOMS:
        if data.startswith(bom):
            return bom, codec
    return b"", default


# --- lines ------------------------------------------------------------------------------------------------


def line_start(text: str, pos: int) -> int:
    """Where the line holding `pos` starts."""
    newline = text.rfind("\n", 0, pos)
    return max(newline, text.rfind("\r", newline + 1, pos)) + 1  # a CR only after the last LF: not a search of the whole text


def previous_line_start(text: str, start: int) -> int:
    """Where the line before the one starting at `start` starts (a CRLF is one line break)."""
    before = start - 1
    if before > 0 and text[before] == "\n" and text[before - 1] == "\r":
        before -= 1
    return line_start(text, before)


def line_end(text: str, pos: int, breaks: re.Pattern[str] = LINE_BREAK) -> int:
    """The end of the line holding `pos`, before its line break."""
    found = breaks.search(text, pos)
    return found.start() if found else len(text)


def next_line(text: str, pos: int, breaks: re.Pattern[str] = LINE_BREAK) -> int:
    """The start of the line after the one holding `pos` (the end of the text on the last line)."""
    found = breaks.search(text, pos)
    return found.end() if found else len(text)


def line_starts(text: str, breaks: re.Pattern[str] = LINE_BREAK) -> list[int]:
    """Where each line starts: `bisect_right(line_starts(text), offset)` is the 1-based line of `offset`."""
    return [0] + [match.end() for match in breaks.finditer(text)]


def first_line_break(text: str, breaks: re.Pattern[str] = LINE_BREAK) -> str:
    """The line break the file writes (its first), LF when it has none: what a new line ends with."""
    found = breaks.search(text)
    return found.group() if found else "\n"


def back_over_line_break(text: str, pos: int) -> int:
    """Where the line break ending just before `pos` starts (a CRLF is one): what a removal that runs
    to the end of a file without a final line break starts from, so that the file still ends so."""
    return pos - (2 if text.endswith("\r\n", 0, pos) else 1)


def nearest_sibling(key: str, entries: Sequence[tuple[str, EntryT]]) -> EntryT | None:
    """The entry a new `key` goes after: the last of those sharing most of its leading dotted
    segments (`cart.total` goes after the last `cart.` key), else the last entry; None when there
    are none."""
    if not entries:
        return None
    segments = key.split(".")
    best, best_shared = entries[-1][1], 0
    for other, entry in entries:
        parts = other.split(".")
        shared = 0
        while shared < min(len(parts), len(segments)) and parts[shared] == segments[shared]:
            shared += 1
        if shared and shared >= best_shared:
            best, best_shared = entry, shared
    return best


class Siblings(Generic[EntryT]):
    """`nearest_sibling` for one key after another, where each key placed goes in as that key's
    entry: found by the key's leading segments, not by a pass over every entry.

    Built from the entries in the order `nearest_sibling` would see them, each with a key that
    sorts as that order (its place in the file); `place` adds a new entry with the key of where it
    is put. `nearest` then answers what `nearest_sibling` would over the entries and the placed ones.
    """

    def __init__(self, entries: Iterable[tuple[str, EntryT, tuple[int, ...]]]) -> None:
        self._last: dict[tuple[str, ...], tuple[tuple[int, ...], EntryT]] = {}  # prefix -> its last entry
        self._final: tuple[tuple[int, ...], EntryT] | None = None
        for key, entry, order in entries:
            self.place(key, entry, order)

    def place(self, key: str, entry: EntryT, order: tuple[int, ...]) -> None:
        segments = tuple(key.split("."))
        found = (order, entry)
        last = self._last
        for length in range(1, len(segments) + 1):
            prefix = segments[:length]
            known = last.get(prefix)
            if known is None or known[0] <= order:
                last[prefix] = found
        if self._final is None or self._final[0] <= order:
            self._final = found

    def nearest(self, key: str) -> EntryT | None:
        """The entry a new `key` goes after (`nearest_sibling`), or None when there are none."""
        segments = tuple(key.split("."))
        for length in range(len(segments), 0, -1):
            found = self._last.get(segments[:length])
            if found is not None:
                return found[1]
        return self._final[1] if self._final is not None else None


# --- \uXXXX escapes ---------------------------------------------------------------------------------------


def _non_ascii(text: str) -> int:
    return len(text) - len(text.encode("ascii", "ignore"))


class EscapeHabits:
    """How a file writes what it escapes, followed through planned edits without writing the text:
    whether it is all ASCII, whether it holds `\\<marker>`, and `upper`: whether it writes the hex
    digits of its `\\<marker>XXXX` escapes in upper case (its first escape with a letter says; upper
    when it has none). `follow` takes an edit, or says it cannot tell what the edit does to them (it
    changes the first escape, or writes one of the other case before it): then the Document makes
    its edits and reads the habits from the text again."""

    __slots__ = ("_marker", "_escape", "_non_ascii", "_markers", "_first", "upper")

    def __init__(self, text: str, marker: str) -> None:
        self._marker = "\\" + marker
        self._escape = re.compile(rf"\\{marker}[0-9A-Fa-f]{{0,3}}[A-Fa-f]")
        self._non_ascii = _non_ascii(text)
        self._markers = text.count(self._marker)
        first = self._escape.search(text)
        self._first = first.start() if first else None  # where the first escape is (in the parsed text)
        self.upper = first is None or not first.group()[-1].islower()

    @property
    def ascii(self) -> bool:
        return not self._non_ascii

    @property
    def has_marker(self) -> bool:
        return self._markers > 0

    def follow(self, text: str, start: int, end: int, new: str) -> bool:
        """Take the edit of `text` (the parsed text) putting `new` in place of `[start:end]`; False,
        with nothing taken, when what it does to the first escape cannot be told here."""
        reach = 6  # an escape is at most six characters long
        before, after = text[max(start - reach, 0):start], text[end:end + reach]
        window = before + new + after
        written = self._escape.search(window)
        first = self._first
        if first is not None and start <= first < end:
            return False  # the first escape goes: the next one may be of the other case
        if written is not None and (first is None or start <= first + reach):
            if written.group()[-1].islower() == self.upper:
                return False  # an escape of the other case, before the first one
            if first is None or start < first:
                self._first = start
        old = text[start:end]
        self._non_ascii += _non_ascii(new) - _non_ascii(old)
        self._markers += window.count(self._marker) - (before + old + after).count(self._marker)
        return True


def escape_utf16(char: str, marker: str, upper: bool) -> str:
    """`char` as `\\<marker>XXXX` escapes, one per UTF-16 code unit (two for a character past U+FFFF)."""
    units = char.encode("utf-16-be", "surrogatepass")
    pattern = f"\\{marker}{{:04X}}" if upper else f"\\{marker}{{:04x}}"
    return "".join(pattern.format(int.from_bytes(units[i:i + 2], "big")) for i in range(0, len(units), 2))


def join_surrogates(text: str, errors: str) -> str:
    """`text` with the surrogate pairs its `\\uD83D\\uDE00` escapes gave joined into one character each;
    a lone surrogate is handled by the codec error handler `errors`."""
    if _SURROGATE.search(text):
        return text.encode("utf-16", "surrogatepass").decode("utf-16", errors)
    return text


# --- the document -----------------------------------------------------------------------------------------


def _common_prefix(one: str, other: str) -> int:
    """How many characters `one` and `other` start with alike."""
    low, high = 0, min(len(one), len(other))
    while low < high:  # halving: each step compares a stretch at C speed
        middle = (low + high + 1) // 2
        if one[low:middle] == other[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


class TextDocument(Document):
    """A file being edited as text: edits planned on one parse of it, made together when it is written.

    A subclass decodes `data` into `text` (without its BOM) and parses it in `_parse` (called here,
    and again only when an edit cannot be planned on the current parse). An edit is planned with
    `_plan` (offsets into the parsed text, made by `to_bytes` in one pass: `splices`), where nothing
    it depends on has changed since the parse; where something has (the lines around it, an entry
    written earlier in the same Document), the subclass calls `_settle` first, which makes the
    planned edits and parses the result, and then edits with `_splice`, which changes the text and
    parses it again at once. A delete is planned with `_plan_removal`: made, one edit at a time,
    on a piece of the text around the key as the planned removals leave it, and what went planned
    as removals. A subclass answers `get` for the keys it has planned edits of from what it planned
    (`_parse` forgets that). `PLANS_EDITS = False` makes every edit settle first: the
    reference the planned edits are tested against.
    """

    PLANS_EDITS: ClassVar[bool] = True
    _limits: ReadLimits
    """What one file may hold (a subclass sets it before parsing)."""

    def __init__(self, data: bytes, text: str, codec: str, bom: bytes) -> None:
        self._data = data
        self._text = text
        self._codec = codec
        self._bom = bom
        self._changed = False
        self._planned: Splices[str] = Splices()
        self._kept: Splices[str] = Splices()  # the planned edits that are not removals (where they are)
        self._removed = False  # a delete was planned since the parse (the entries it took are still in it)
        self._stale = False  # the text holds edits the parse does not know of yet
        self._parse()

    @abstractmethod
    def _parse(self) -> None:
        """Index the current text (entries and their offsets), forgetting what was planned on the
        previous parse."""

    def _plan(self, start: int, end: int, text: str) -> None:
        """Plan putting `text` in place of the parsed text's `[start:end]`; Overlap, with nothing
        planned, when another planned edit changes those characters (see `splices`) or `_follows`
        cannot take it."""
        mark = self._planned.mark()
        self._planned.add(start, end, text)
        if not self._follows(start, end, text):
            self._planned.undo(mark)
            raise Overlap(f"what the edit of {start}..{end} does to the file's style is not known")
        if text or start == end:
            self._kept.add(start, end, text)
        self._changed = True

    def _plan_removal(self, key: str, lo: int, hi: int) -> bool:
        """Plan deleting `key` (defined once, inside `[lo, hi)` of the parsed text) as the reference
        would delete it from the text as it stands now: `[lo, hi)` is cut out, with the removals
        planned in it made, and `key` is deleted from that piece on its own, one edit at a time
        (`_piece`). What the delete removed from the piece is planned as removals of the parsed
        text. False (nothing planned) when another kind of edit is planned in the piece, or the
        delete removes anything but one stretch of it.

        The caller chooses the piece: from the line of an entry the parse found, untouched, far
        enough before `key`'s (and its comment) that what decides what goes with it is in the piece,
        to the end of the line of such an entry after it; the piece then reads as that part of the
        whole text does, and the delete takes from it what it would take from the whole."""
        if lo >= hi or self._kept.touches(lo, hi) or self._planned.touches(lo, lo) or self._planned.touches(hi - 1, hi - 1):
            return False
        text = self._text
        gone = self._planned.replaced_within(lo, hi)
        kept: list[tuple[int, int]] = []  # the stretches of the parsed text the piece is made of
        position = lo
        for start, end in gone:
            if start > position:
                kept.append((position, start))
            position = end
        if hi > position:
            kept.append((position, hi))
        piece = "".join(text[start:end] for start, end in kept)
        try:
            window = self._piece(piece)
            window.delete(key)
        except (KeyError, ValueError, TypeError, CatalogFileError):
            return False  # the whole text decides: the caller settles and deletes there
        after = window._text
        cut = len(piece) - len(after)
        if cut <= 0:
            return False
        same = _common_prefix(piece, after)
        if piece[same + cut:] != after[same:]:
            return False  # more than one stretch went
        removals: list[tuple[int, int]] = []  # the parsed text's characters behind piece[same:same + cut]
        offset = 0
        for start, end in kept:
            low, high = max(same - offset, 0), min(same + cut - offset, end - start)
            if low < high:
                removals.append((start + low, start + high))
            offset += end - start
        mark = self._planned.mark()
        try:
            for start, end in removals:
                self._plan(start, end, "")
        except Overlap:
            self._planned.undo(mark)
            return False
        self._removed = True
        return True

    def _piece(self, text: str) -> TextDocument:
        """A Document of `text` alone (a piece of this one's), of the same class and read within the same
        limits, making each edit at once; for a subclass whose `_parse` needs nothing but those."""
        piece = object.__new__(type(self))
        piece._limits = self._limits
        TextDocument.__init__(piece, b"", text, "utf-8", b"")
        piece.PLANS_EDITS = False  # type: ignore[misc]
        return piece

    def _follows(self, start: int, end: int, text: str) -> bool:
        """Take a planned edit into what the subclass keeps of the file's style (`EscapeHabits`);
        False when it cannot tell what the edit does to it."""
        return True

    def _planning(self) -> bool:
        """Whether edits may be planned on the current parse (else the caller settles and splices)."""
        return self.PLANS_EDITS and not self._stale

    def _before_writing(self) -> None:
        """Plan what the subclass gathers rather than plans at once (YAML's added keys): called
        before the planned edits are made."""

    def _settle(self) -> None:
        """Make the planned edits and parse the result: the current text is the parsed one again."""
        self._before_writing()
        if self._planned or self._stale:
            self._text = self._planned.apply(self._text)
            self._planned, self._kept = Splices(), Splices()
            self._removed = False
            self._stale = False
            self._parse()

    def _splice(self, start: int, end: int, text: str) -> None:
        """Put `text` in place of the current text's `[start:end]`, then parse again (the caller has
        settled: no edit is planned)."""
        assert not self._planned, "settle the planned edits before splicing"
        self._text = self._text[:start] + text + self._text[end:]
        self._changed = True
        self._parse()

    def _written(self) -> str:
        """The text with every planned edit made; later edits settle before they are planned."""
        self._before_writing()
        if self._planned:
            self._text = self._planned.apply(self._text)
            self._planned, self._kept = Splices(), Splices()
            self._removed = False
            self._stale = True
        return self._text

    def to_bytes(self) -> bytes:
        if not self._changed:
            return self._data
        return self._bom + self._written().encode(self._codec)


class KeyedTextDocument(TextDocument, Generic[EntryT, AddedT]):
    """A TextDocument of `key = value` lines where a key may be written twice and the last one counts
    (Apple `.strings`, Java `.properties`): the index each parse makes, what is planned on it, and the
    answers both give from them.

    A subclass's `_parse` reads the entries and calls `_index` with each one's key; `_value_of` is an
    entry's text as written (unescaped). `_edited` holds what was planned since the parse (a set or
    added key's text, None for a deleted one), `_added` where each added key goes, `_last_at` the last
    key added at each place, `_positions` each entry's place among the entries (found once), and
    `_siblings` the nearest-sibling index made by the first add.
    """

    def _index(self, entries: Iterable[tuple[str, EntryT]]) -> None:
        """Index the parse's entries by key (in file order), forgetting what was planned on the last parse."""
        self._by_key: dict[str, list[EntryT]] = {}
        for key, entry in entries:
            self._by_key.setdefault(key, []).append(entry)
        self._edited: dict[str, str | None] = {}
        self._positions: dict[int, int] | None = None
        self._siblings: Siblings[EntryT | AddedT] | None = None
        self._last_at: dict[int, AddedT] = {}
        self._added: dict[str, AddedT] = {}

    @abstractmethod
    def _value_of(self, entry: EntryT) -> str:
        """The entry's value as written, unescaped."""

    def _anchor(self, key: str | None) -> EntryT | AddedT | None:
        """The entry of `key`, of the parse or added since, that a new key is asked to go after."""
        if key is None:
            return None
        found = self._by_key.get(key)
        return found[-1] if found else self._added.get(key)

    def keys(self) -> list[str]:
        self._settle()
        return list(self._by_key)

    def get(self, key: str) -> Value | None:
        if key in self._edited:
            return self._edited[key]
        found = self._by_key.get(key)
        return self._value_of(found[-1]) if found else None  # the last definition: the one the runtime reads
