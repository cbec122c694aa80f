"""Editing a PO file without disturbing a byte that was not asked to change.

`PoDocument` keeps the file's lines (with their own endings) and an index of its live entries, as
`po.scanner.scan` finds them, and splices only the `msgstr` lines of the entry set, written the way
the file writes strings: wrapped as GNU's msgmerge (79 columns) or Babel (76) wraps, or not at all,
whichever reproduces the file's own strings (`_detect_style`); split after `\\n`; in its charset, BOM
and line endings. `clear_fuzzy` is how a write tool un-fuzzies an entry it has reviewed.

Edits are planned on the lines as they were read: a new `msgstr` (or flags line) is a patch of the
entry's own lines, a new entry a block after the last one, and the lines are put together, and the
entries' line numbers moved, once (`_settle`), when the file is written or asked where a key is; a
delete is a patch of no lines in place of the entry's (and one blank line beside it). An edit of lines
already patched, a delete beside one planned or at the end of the file, settle first.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import ClassVar

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, Document, ReadLimits, Value
from parlance_i18n.formats.shared.limits import check_count, check_text
from parlance_i18n.formats.po.scanner import (
    CONTEXT_SEPARATOR,
    UTF8_BOM,
    Raw,
    Unreadable,
    charset_codec,
    decode,
    escape,
    first_guess,
    header_charset,
    key_of,
    parse_flags,
    parse_string,
    scan,
    shown_key,
)

__all__ = ["PoDocument"]

_NEWLINE_PIECES = re.compile(r"[^\n]*\n|[^\n]+")
_Style = tuple[str, "int | None", bool]
"""How a file writes strings: the wrapping tool ("gnu" or "babel"), its width (None: no wrapping),
and whether strings are split after each `\\n`."""
_STYLES: tuple[_Style, ...] = (
    ("gnu", 79, True), ("babel", 76, True), ("gnu", None, True),
    ("gnu", 79, False), ("babel", 76, False), ("gnu", None, False),
)
"""The styles a file may be written in, the first preferred when the file does not tell: GNU's
msgmerge/msgcat (79 columns), Babel's (76), either with --no-wrap; all split after newlines by
default."""
_FIELD_LINE = re.compile(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[[0-9]+\])?) (".*")')
_BABEL_BREAKS = re.compile(r"(\s+|[^\s\w]*\w+[A-Za-z]-(?=\w+[A-Za-z]))")
"""Where Babel may break a line: at runs of blanks, and after the hyphen of a hyphenated word."""
_SAMPLES = 200


def _wrap(keyword: str, value: str, style: _Style) -> list[str]:
    """`keyword "value"` as the tool of `style` writes it (lines without endings).

    GNU: on one line when `keyword "..."` fits in the width or cannot break; else `keyword ""` then
    each newline-ended piece on lines of at most `width` columns, broken after spaces (GNU also
    applies the rest of Unicode's line breaking rules; breaking after spaces covers the usual text).
    Babel: the same, measuring only the quoted string, and lines shorter than `width`, broken
    before or after runs of blanks and after hyphens inside words.
    """
    tool, width, split = style
    segments = _NEWLINE_PIECES.findall(value) if split and "\n" in value[:-1] else [value]
    escaped = escape(value)
    if len(segments) <= 1:
        if width is None or " " not in value.strip(" "):
            return [f'{keyword} "{escaped}"']
        if (len(keyword) + 3 if tool == "gnu" else 2) + len(escaped) <= width:
            return [f'{keyword} "{escaped}"']
    lines = [f'{keyword} ""']
    for segment in segments:
        piece = escape(segment)
        if width is None or len(piece) + 2 <= width:
            lines.append(f'"{piece}"')
            continue
        if tool == "gnu":
            words, limit = re.findall(r"[^ ]+ *| +", piece), width
        else:
            words, limit = [escape(w) for w in _BABEL_BREAKS.split(segment) if w], width - 1
        current = ""
        for word in words:
            if current and len(current) + len(word) + 2 > limit:
                lines.append(f'"{current}"')
                current = word
            else:
                current += word
        lines.append(f'"{current}"')
    return lines


def _detect_style(lines: list[str], codec: str) -> _Style:
    """The style that reproduces most of the file's telling strings: those on several lines, and
    long ones on one line (short one-line strings look the same in every style)."""
    samples: list[tuple[str, str, list[str]]] = []
    index = 0
    while index < len(lines) and len(samples) < _SAMPLES:
        line = lines[index].rstrip("\r\n")
        index += 1
        found = _FIELD_LINE.fullmatch(line)
        if found is None:
            continue
        raw = [line]
        while index < len(lines) and lines[index].startswith('"'):
            raw.append(lines[index].rstrip("\r\n"))
            index += 1
        if len(raw) == 1 and len(line) <= 70:
            continue
        try:
            value = "".join(parse_string(piece, codec) for piece in [found[2], *raw[1:]])
        except Unreadable:
            continue
        samples.append((found[1], value, raw))
    return max(_STYLES, key=lambda style: sum(_wrap(k, v, style) == raw for k, v, raw in samples))


class _Entry:
    """A live entry of a Document: its key, line span (0-based, end exclusive) and strings."""

    __slots__ = ("key", "first", "keyline", "strline", "end", "plural", "strs", "indexed", "block")

    def __init__(self, key: str, raw: Raw) -> None:
        self.key = key
        self.first, self.keyline, self.strline, self.end = raw[0], raw[1], raw[2], raw[3]
        self.plural = raw[6]
        self.strs = list(raw[7])
        self.indexed = raw[8]
        self.block: list[str] | None = None  # an added entry's lines (line numbers from 0) until settled

    def shift(self, delta: int) -> None:
        self.first += delta
        self.keyline += delta
        self.strline += delta
        self.end += delta


class PoDocument(Document):
    """An editable PO file: its lines (with their own endings) and an index of its live entries.

    Keys are every live entry's, the header's excepted: translated, fuzzy and untranslated alike.
    Values are msgstr texts: a str, or {"0": ..., "1": ...} for msgstr[N]. Edits replace only the
    lines they must; flags (`#, fuzzy`) are left alone unless `clear_fuzzy` is called. Edits are
    planned (see the module docstring); `PLANS_EDITS = False` settles before each one: the reference
    the planned edits are tested against.
    """

    PLANS_EDITS: ClassVar[bool] = True

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._data = data
        self._limits = limits
        self._bom = data.startswith(UTF8_BOM)
        body = data[3:] if self._bom else data
        self._codec = first_guess(body, self._bom)
        self._load(body)
        header = next((e for e in self._all if e.key == ""), None)
        if header is not None and not self._bom:
            declared = charset_codec(header_charset(header.strs[0]))
            if declared != self._codec:
                self._codec = declared
                self._load(body)
        self._dirty = False
        self._style: _Style | None = None
        self._patches: dict[int, tuple[int, list[str]]] = {}  # first line -> (end line, its new lines)
        self._added: list[_Entry] = []  # entries added since the last settle, in order
        self._gone_ends: dict[int, int] = {}  # planned deletions: end line -> first line, as read
        self._gone_starts: set[int] = set()

    def _load(self, body: bytes) -> None:
        text, _ = decode(body, self._codec)
        check_text(text, self._limits)
        parts = text.split("\n")
        lines = [part + "\n" for part in parts[:-1]]
        if parts[-1]:
            lines.append(parts[-1])
        self._lines = lines
        self._newline = "\r\n" if 2 * sum(1 for line in lines if line.endswith("\r\n")) > len(lines) else "\n"
        raws, self.problems = scan([line.rstrip("\r\n") for line in lines], self._codec)
        self._all: list[_Entry] = []
        self._index: dict[str, _Entry] = {}
        for raw in raws:
            key = key_of(raw[4], raw[5])
            assert key is not None
            if key in self._index:
                continue  # a duplicate stays in the file untouched; the first one is the entry
            entry = _Entry(key, raw)
            self._all.append(entry)
            self._index[key] = entry
        check_count(len(self._all), self._limits)

    # -- reading --

    def keys(self) -> list[str]:
        index = self._index
        return [entry.key for entry in self._all if entry.key and index.get(entry.key) is entry]

    def get(self, key: str) -> Value | None:
        entry = self._index.get(key) if key else None
        if entry is None:
            return None
        if entry.indexed:
            return {str(i): form for i, form in enumerate(entry.strs)}
        return entry.strs[0]

    def line_of(self, key: str) -> int | None:
        self._settle()
        entry = self._index.get(key) if key else None
        return None if entry is None else entry.keyline + 1

    def lines(self) -> list[str]:
        """The file's lines as they are now, each with its line ending."""
        self._settle()
        return list(self._lines)

    def spans(self) -> list[tuple[str, int, int, str | None]]:
        """Each entry's key, first line (its comments'), key line (0-based, of `lines`) and msgid_plural."""
        self._settle()
        return [(entry.key, entry.first, entry.keyline, entry.plural) for entry in self._all if entry.key]

    def is_fuzzy(self, key: str) -> bool:
        entry = self._entry(key)
        return any(_is_flags_line(line) and "fuzzy" in parse_flags(line.strip()[2:])
                   for line in self._lines_of(entry, entry.first, entry.keyline))

    def _lines_of(self, entry: _Entry, start: int, end: int) -> list[str]:
        """Lines `start` to `end` of an entry, as planned."""
        if entry.block is not None:
            return entry.block[start:end]
        patched = self._patches.get(start)
        if patched is not None and patched[0] == end:
            return patched[1]
        return self._lines[start:end]

    def _plannable(self, entry: _Entry, start: int) -> bool:
        """Whether the entry's lines from `start` may be patched on the lines as read."""
        if not self.PLANS_EDITS:
            self._settle()
            return False
        if entry.block is not None or start in self._patches:
            self._settle()
            return False
        return True

    # -- editing --

    def set(self, key: str, value: Value) -> None:
        entry = self._entry(key)
        if self.get(key) == value:
            return
        if entry.indexed != (not isinstance(value, str)):
            kind = "a dict of forms {'0': ..., '1': ...}" if entry.indexed else "a str"
            raise ValueError(f"{shown_key(key)} is {'a plural' if entry.indexed else 'a singular'} entry: "
                             f"its value must be {kind}")
        new = self._msgstr_lines(value)
        if self._plannable(entry, entry.strline):
            self._patch(entry.strline, entry.end, new)
        else:
            entry = self._entry(key)
            self._replace(entry, entry.strline, entry.end, new)
        entry.strs = _forms(value)

    def add(self, key: str, value: Value, *, msgid_plural: str | None = None, comments: Sequence[str] = ()) -> None:
        """Append a new entry after the last one. A plural value ({"0": ..., ...}) needs a
        msgid_plural; without one the msgid is used for both. `comments` are the entry's comment
        lines as written (`#. ...`, `#: ...`, `#, c-format`), put above it."""
        if not key or key in self._index:
            raise KeyError(key)
        if any(not line.startswith("#") or "\n" in line or "\r" in line for line in comments):
            raise ValueError("a PO comment line starts with # and holds no line break")
        ctxt, sep, msgid = key.rpartition(CONTEXT_SEPARATOR)
        lines: list[str] = list(comments)
        if sep:
            lines += self._wrap("msgctxt", ctxt)
        lines += self._wrap("msgid", msgid)
        if isinstance(value, dict):
            lines += self._wrap("msgid_plural", msgid if msgid_plural is None else msgid_plural)
        lines += self._msgstr_lines(value)
        self._encodable("".join(lines))
        raw: Raw = (0, len(comments), len(lines) - len(self._msgstr_lines(value)), len(lines), ctxt if sep else None, msgid,
                    msgid_plural if isinstance(value, dict) else None, _forms(value), isinstance(value, dict), None, None)
        entry = _Entry(key, raw)  # its line numbers counted from its first line, until it is put in the file
        self._index[key] = entry
        self._dirty = True
        if self.PLANS_EDITS and self._all:  # planned: the lines go in with the others added, when settled
            entry.block = lines
            self._added.append(entry)
            self._all.append(entry)
            return
        self._settle()
        self._put_after_last(entry, lines)

    def delete(self, key: str) -> None:
        entry = self._entry(key)
        span = self._deletion(entry) if self._planned_deletion(entry) else None
        if span is None:
            self._settle()
            self._delete_now(self._entry(key))
            return
        start, end = span
        self._patches[start] = (end, [])
        self._gone_ends[end] = start
        self._gone_starts.add(start)
        del self._index[key]  # its line in `_all` goes when the patches are made (`_settle`): not one per delete
        self._dirty = True

    def _deletion(self, entry: _Entry) -> tuple[int, int]:
        """The lines deleting `entry` removes: its own, and the blank line before it (else the one after),
        so one blank stays between its neighbours."""
        start, end = entry.first, entry.end
        lines = self._lines
        if start > 0 and not lines[start - 1].strip():
            start -= 1
        elif end < len(lines) and not lines[end].strip():
            end += 1
        return start, end

    def _planned_deletion(self, entry: _Entry) -> bool:
        """Whether deleting `entry` may be planned on the lines as read: it is one of them, no edit of its
        lines is planned, it does not end the file, and no planned deletion borders it (that one may have
        taken the blank line this one would take, or left another beside it)."""
        if not self.PLANS_EDITS or entry.block is not None or self._added:
            return False
        if entry.first in self._patches or entry.strline in self._patches:
            return False
        if entry.first in self._gone_ends or entry.end in self._gone_starts or entry.end + 1 >= len(self._lines):
            return False
        return True

    def _delete_now(self, entry: _Entry) -> None:
        start, end = self._deletion(entry)
        lines = self._lines
        unterminated_tail = end == len(lines) and not lines[-1].endswith("\n")
        del lines[start:end]
        if unterminated_tail and lines:
            lines[-1] = lines[-1].rstrip("\r\n")  # keep "no newline at the end of the file"
        self._all.remove(entry)
        del self._index[entry.key]
        for other in self._all:
            if other.first >= end:
                other.shift(start - end)
        self._dirty = True

    def mark_translated(self, key: str) -> bool:
        """A written entry is served once it is not fuzzy: its `fuzzy` flag goes (see `clear_fuzzy`)."""
        return self.is_fuzzy(key) and self.clear_fuzzy(key)

    def clear_fuzzy(self, key: str, *, previous: bool = True) -> bool:
        """Remove the `fuzzy` flag from `key`'s `#,` line (the line goes when no flag is left) and,
        with `previous`, its `#|` lines (the earlier msgid msgmerge kept for the translator).
        Returns whether the entry was fuzzy."""
        entry = self._entry(key)
        changed = False
        kept: list[str] = []
        for line in self._lines_of(entry, entry.first, entry.keyline):
            stripped = line.strip()
            if _is_flags_line(stripped):
                flags = [flag.strip() for flag in stripped[2:].split(",") if flag.strip()]
                if "fuzzy" in flags:
                    changed = True
                    flags.remove("fuzzy")
                    if flags:
                        ending = line[len(line.rstrip("\r\n")):]
                        kept.append("#, " + ", ".join(flags) + ending)
                    continue
            kept.append(line)
        if not changed:
            return False
        if previous:
            kept = [line for line in kept if not line.startswith("#|")]
        new = [line.rstrip("\r\n") for line in kept]
        if self._plannable(entry, entry.first):
            self._patch(entry.first, entry.keyline, new)
        else:
            entry = self._entry(key)
            self._replace(entry, entry.first, entry.keyline, new, from_top=True)
        return True

    def to_bytes(self) -> bytes:
        if not self._dirty:
            return self._data
        self._settle()
        body = "".join(self._lines).encode(self._codec, "surrogateescape")
        return UTF8_BOM + body if self._bom else body

    def _patch(self, start: int, end: int, new: list[str]) -> None:
        """Plan putting `new` (lines without endings) in place of lines[start:end] as read, ended as
        `_replace` ends them."""
        self._encodable("".join(new))
        self._patches[start] = (end, self._ended(self._lines[start:end], new))
        self._dirty = True

    def _ended(self, old: list[str], new: list[str]) -> list[str]:
        """`new` lines with the file's line ending; the last without one where `old` ended the file so."""
        endings = [line[len(line.rstrip("\r\n")):] for line in old]
        ending = endings[-1] if endings else self._newline
        replacement = [line + self._newline for line in new]
        if replacement and not ending:  # the entry was the file's last line, without a newline
            replacement[-1] = new[-1]
        return replacement

    def _settle(self) -> None:
        """Make the planned patches and added entries: the lines and every entry's line numbers
        are what making the edits one at a time gives."""
        if not self._patches and not self._added:
            return
        lines = self._lines
        out: list[str] = []
        ends: list[int] = []  # each patch's end, in order, and how far lines from there move
        moves: list[int] = []
        position = moved = 0
        for start in sorted(self._patches):
            end, new = self._patches[start]
            out += lines[position:start]
            out += new
            position = end
            moved += len(new) - (end - start)
            ends.append(end)
            moves.append(moved)
        out += lines[position:]
        if ends:
            def where(line: int) -> int:
                at = bisect.bisect_right(ends, line) - 1
                return line + (moves[at] if at >= 0 else 0)

            for entry in self._all:
                if entry.block is None:
                    entry.first, entry.keyline = where(entry.first), where(entry.keyline)
                    entry.strline, entry.end = where(entry.strline), where(entry.end)
        self._lines = out
        self._patches = {}
        if self._gone_ends:  # the entries whose deletion was planned leave the list, all in one pass
            index = self._index
            self._all = [entry for entry in self._all if index.get(entry.key) is entry]
            self._gone_ends, self._gone_starts = {}, set()
        added, self._added = self._added, []
        if added:
            self._all = [entry for entry in self._all if entry.block is None]
        for entry in added:  # as `add` puts each: after the entry that ends last, one blank line between
            block, entry.block = entry.block or [], None
            self._put_after_last(entry, block)

    def _put_after_last(self, entry: _Entry, lines: list[str]) -> None:
        """Put a new entry's `lines` after the entry that ends last (`_all` is in file order, and no
        entry starts after the last one's end, so none moves), one blank line between them."""
        after = self._all[-1] if self._all else None
        at = after.end if after is not None else len(self._lines)
        newline = self._newline
        block = ([newline] if at > 0 else []) + [line + newline for line in lines]
        if at == len(self._lines) and self._lines and not self._lines[-1].endswith("\n"):
            self._lines[-1] += newline  # the file ended without a newline: so will it still
            block[-1] = block[-1][: -len(newline)]
        self._lines[at:at] = block
        start = at + (1 if at > 0 else 0)
        entry.shift(start)
        self._all.append(entry)

    # -- helpers --

    def _entry(self, key: str) -> _Entry:
        entry = self._index.get(key) if key else None
        if entry is None:
            raise KeyError(key)
        return entry

    def _replace(self, entry: _Entry, start: int, end: int, new: list[str], *, from_top: bool = False) -> None:
        """Put `new` (lines without endings) in place of lines[start:end] of `entry`."""
        self._encodable("".join(new))
        old = self._lines[start:end]
        replacement = self._ended(old, new)
        self._lines[start:end] = replacement
        delta = len(replacement) - len(old)
        if delta:
            if from_top:
                entry.keyline += delta
                entry.strline += delta
            entry.end += delta
            for other in self._all:
                if other.first >= end and other is not entry:
                    other.shift(delta)
        self._dirty = True

    def _encodable(self, text: str) -> None:
        try:
            text.encode(self._codec)
        except UnicodeEncodeError as exc:
            raise ValueError(f"{text[exc.start]!r} cannot be written in {self._codec}, the file's charset") from None

    def _msgstr_lines(self, value: Value) -> list[str]:
        forms = _forms(value)
        if isinstance(value, str):
            return self._wrap("msgstr", value)
        lines: list[str] = []
        for index, form in enumerate(forms):
            lines += self._wrap(f"msgstr[{index}]", form)
        return lines

    def _wrap(self, keyword: str, value: str) -> list[str]:
        if self._style is None:
            self._style = _detect_style(self._lines, self._codec)
        return _wrap(keyword, value, self._style)


def _is_flags_line(line: str) -> bool:
    return line.startswith("#,")


def _forms(value: Value) -> list[str]:
    """A value's msgstr texts in order; ValueError unless a str or {"0": str, "1": str, ...}."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, dict) or sorted(value, key=lambda i: (len(i), i)) != [str(i) for i in range(len(value))]:
        raise ValueError("plural forms are a dict keyed by msgstr index: {'0': ..., '1': ...}")
    if not all(isinstance(form, str) for form in value.values()):
        raise ValueError("each plural form must be a str")
    return [value[str(i)] for i in range(len(value))]
