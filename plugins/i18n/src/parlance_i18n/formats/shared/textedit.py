"""Editing a catalog held as text: what the line-oriented formats (Java `.properties`, Apple `.strings`,
Rails YAML, gettext PO) share to keep every byte they were not asked to change.

A `TextDocument` holds the file's decoded text and splices each change into it (`_splice`), then
parses the text again, so positions are always those of the current text; untouched, `to_bytes()`
gives back the original bytes, and once changed the text is encoded as the file was, BOM first.

The helpers around it answer the questions an edit asks of the text: where a line starts and ends
(CRLF, CR and LF each end one; a format whose parser also breaks lines elsewhere passes its own
`breaks`), which line break the file writes, what byte order mark it starts with, which entry a new
key goes after (`nearest_sibling`), and how the file writes a `\\uXXXX` escape.
"""

from __future__ import annotations

import codecs
import re
from abc import abstractmethod
from collections.abc import Sequence
from typing import TypeVar

from parlance_i18n.formats.base import Document

__all__ = [
    "LINE_BREAK",
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
    "upper_hex_escapes",
]

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What ends a line in every format here: CRLF, CR or LF."""

_UNICODE_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_SURROGATE = re.compile("[\ud800-\udfff]")

EntryT = TypeVar("EntryT")


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
    return max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1


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


# --- \uXXXX escapes ---------------------------------------------------------------------------------------


def upper_hex_escapes(text: str, marker: str) -> bool:
    """Whether the file writes the hex digits of its `\\<marker>XXXX` escapes in upper case (also when
    it has none, or only digits)."""
    sample = re.search(rf"\\{marker}[0-9A-Fa-f]{{0,3}}[A-Fa-f]", text)
    return sample is None or not sample.group()[-1].islower()


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


class TextDocument(Document):
    """A file being edited as text: each change is spliced into the text, which is then parsed again.

    A subclass decodes `data` into `text` (without its BOM), parses it in `_parse` (called here and
    after every change) and edits with `_splice`.
    """

    def __init__(self, data: bytes, text: str, codec: str, bom: bytes) -> None:
        self._data = data
        self._text = text
        self._codec = codec
        self._bom = bom
        self._changed = False
        self._parse()

    @abstractmethod
    def _parse(self) -> None:
        """Index the current text (entries and their offsets)."""

    def _splice(self, start: int, end: int, text: str) -> None:
        """Put `text` in place of the current text's `[start:end]`, then parse again."""
        self._text = self._text[:start] + text + self._text[end:]
        self._changed = True
        self._parse()

    def to_bytes(self) -> bytes:
        if not self._changed:
            return self._data
        return self._bom + self._text.encode(self._codec)
