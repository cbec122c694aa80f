"""Java `.properties` catalogs: read as `java.util.Properties.load` reads them, rendered as
`java.text.MessageFormat` formats them, and edited in place.

Reading follows the JDK's `Properties.load` line by line: `key=value`, `key: value` and `key value`,
leading whitespace, `#` and `!` comment lines, continuation lines (an odd number of trailing
backslashes joins the next line, whose leading whitespace is dropped; a blank continuation line ends
the entry), `\\uXXXX`, `\\t \\n \\r \\f`, and any other escaped character standing for itself (`\\=`,
`\\:`, `\\ `, `\\#`). A duplicate key keeps its last value, as `Properties` does; the earlier one is
reported. The encoding is UTF-8 when the bytes are valid UTF-8, else ISO-8859-1, which is what
`PropertyResourceBundle` does since Java 9.

Where Java and this reader part, on purpose:

- A malformed `\\uXXXX` makes Java reject the whole file; here only that entry is skipped and reported.
- A UTF-8 byte order mark is not stripped by Java: it becomes part of the first key, which no lookup
  then finds. That entry is reported and left out, as Java would leave it unreachable; the Document
  keeps the BOM and edits the key as it reads.

Messages are `java.text.MessageFormat` patterns, compiled and rendered by `java_messageformat`
(arguments by 0-based position, `{0}` is `values["0"]`): a message with `{` is checked when the
file is read, and one MessageFormat rejects is reported and skipped; a message without `{` is plain
text, returned as written, as Java returns it when an application asks for it without arguments.

With `syntax = "always-messageformat"` (the application formats every message, as Jenkins' localizer
and Spring's `alwaysUseMessageFormat` do), every message is a pattern: `Don''t` prints `Don't`, and
a write whose apostrophe MessageFormat would swallow is refused (`runtime_refusals`).

`locale_spelling` is Java's bundle suffix: `pt_BR`, `zh_Hant_TW` (`messages_pt_BR.properties`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    CatalogFormat,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
)
from parlance_i18n.formats.properties.java_messageformat import (
    check_pattern,
    compile_java_message,
    quotes_without_braces,
)
from parlance_i18n.formats.shared.limits import check_text, too_many_messages
from parlance_i18n.formats.shared.messages import TextMessages, later_one_used
from parlance_i18n.formats.shared.spelling import LEGACY_LANGUAGES
from parlance_i18n.formats.shared.splices import Overlap
from parlance_i18n.formats.shared.textedit import (
    EscapeHabits,
    KeyedTextDocument,
    Siblings,
    back_over_line_break,
    escape_utf16,
    first_line_break,
    join_surrogates,
    line_start,
    line_starts,
    nearest_sibling,
    next_line,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["PropertiesDocument", "PropertiesFormat", "PropertiesMessages"]

_BOM = "\ufeff"
_LINES = re.compile(r"(\r\n|\r|\n)")
_BLANK = " \t\f"  # what Properties.load skips at the start of a line: not \v, not Unicode spaces
_KEY_VALUE = re.compile(r"((?:[^\\=: \t\f]|\\.|\\$)*)([ \t\f]*(?:[=:][ \t\f]*)?)", re.S)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|(u)|(.)|$)", re.S)
_CONTROL = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_TRAILING_BACKSLASHES = re.compile(r"\\+$")
_U_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})")
_ALWAYS = "always-messageformat"
_BOUND: dict[str, PropertiesFormat] = {}
"""The one format instance of each syntax (no syntax: the registry's own)."""


# --- the file as Properties.load reads it -------------------------------------------------------------


class _Entry:
    """One logical line: where it is in the text and what it says, escapes still in place."""

    __slots__ = ("first", "last", "raw_key", "raw_value", "key_start", "value_start", "end")

    def __init__(self, first: int, last: int, raw_key: str, raw_value: str,
                 key_start: int, value_start: int, end: int) -> None:
        self.first = first  # 0-based index of its first natural line
        self.last = last  # 0-based index of the last natural line that holds its text
        self.raw_key = raw_key
        self.raw_value = raw_value
        self.key_start = key_start  # text offsets (filled only when editing)
        self.value_start = value_start
        self.end = end


def _decode(data: bytes, limits: ReadLimits) -> tuple[str, str, bytes]:
    """(text without BOM, encoding, its UTF-8 BOM or b""): UTF-8 when valid, else ISO-8859-1 (Java 9+)."""
    if b"\x00" in data:
        raise CatalogFileError("the file holds NUL bytes, so it is UTF-16 or binary rather than a .properties "
                               "file (Java reads UTF-8 or ISO-8859-1): save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        check_text(text, limits)
        return text, "latin-1", b""
    check_text(text, limits)
    if text.startswith(_BOM):
        return text[1:], "utf-8", _BOM.encode()
    return text, "utf-8", b""


def _scan(text: str, spans: bool, limits: ReadLimits) -> tuple[list[_Entry], list[str], set[int]]:
    """The entries of `text` in order, its natural lines' contents, and which lines are comments.

    Mirrors the JDK's `Properties.LineReader` and `load0`; with `spans`, also where each entry's key,
    value and last line are in `text` (a Document needs them; reading does not pay for them). Raises
    CatalogFileError past `limits.max_messages` entries.
    """
    most = limits.max_messages
    parts = _LINES.split(text)
    contents = parts[0::2]
    offsets: list[int] = []
    if spans:
        position = 0
        for index, content in enumerate(contents):
            offsets.append(position)
            position += len(content) + (len(parts[2 * index + 1]) if 2 * index + 1 < len(parts) else 0)
    entries: list[_Entry] = []
    comments: set[int] = set()
    count = len(contents)
    index = 0
    while index < count:
        line = contents[index]
        piece = line.lstrip(_BLANK)
        if not piece:
            index += 1
            continue
        if piece[0] in "#!":
            comments.add(index)
            index += 1
            continue
        first = last = index
        if len(entries) >= most:
            raise too_many_messages(limits)
        if not piece.endswith("\\"):  # the common case: one line, one entry
            logical = piece
            index += 1
            match = _KEY_VALUE.match(logical)
            assert match is not None  # the pattern matches any text, possibly empty
            value_at = match.end()
            if spans:
                start = offsets[first] + len(line) - len(piece)
                entries.append(_Entry(first, first, match.group(1), logical[value_at:], start, start + value_at,
                                      offsets[first] + len(line)))
            else:
                entries.append(_Entry(first, first, match.group(1), logical[value_at:], 0, 0, 0))
            continue
        pieces: list[str] = []  # the logical line is these pieces joined
        starts: list[int] = []  # (with spans) each piece's offset in the text
        while True:
            if spans:
                starts.append(offsets[index] + len(contents[index]) - len(piece))
            last = index
            index += 1
            if not piece.endswith("\\") or not _odd_backslashes(piece):
                pieces.append(piece)
                break
            pieces.append(piece[:-1])  # a continuation: the backslash is not part of the line
            # The next line's leading whitespace is skipped; a blank line ends the entry (and is
            # consumed), unless nothing has been read yet (the entry's first line was a backslash).
            while index < count:
                piece = contents[index].lstrip(_BLANK)
                if piece or any(pieces):
                    break
                index += 1
            if index >= count:
                break
            if not piece:
                index += 1
                break
            if not any(pieces) and piece[0] in "#!":  # still nothing read: the JDK sees a comment here
                comments.add(index)
                index += 1
                pieces = []
                break
        if not any(pieces):  # only backslashes and blank lines: Java reads nothing here either
            continue
        logical = "".join(pieces)
        match = _KEY_VALUE.match(logical)
        assert match is not None  # the pattern matches any text, possibly empty
        raw_key = match.group(1)
        value_at = match.end()
        key_start = value_start = end = 0
        if spans:
            key_start = starts[0]
            value_start = _text_offset(pieces, starts, value_at)
            end = offsets[last] + len(contents[last])
        entries.append(_Entry(first, last, raw_key, logical[value_at:], key_start, value_start, end))
    return entries, contents, comments


def _text_offset(pieces: list[str], starts: list[int], logical: int) -> int:
    """Where position `logical` of the joined pieces is in the text."""
    for piece, start in zip(pieces, starts, strict=True):
        if logical <= len(piece):
            return start + logical
        logical -= len(piece)
    return starts[-1] + len(pieces[-1])


def _unescape(raw: str) -> str:
    """`Properties.loadConvert`: raises ValueError for a malformed `\\uXXXX`, as Java does, and for one
    naming half of a surrogate pair alone, which Java keeps but no answer can carry."""
    if "\\" not in raw:
        return raw

    def replace(match: re.Match[str]) -> str:
        hexadecimal, bad_u, other = match.groups()
        if hexadecimal is not None:
            return chr(int(hexadecimal, 16))
        if bad_u is not None:
            raise ValueError("has a malformed \\uXXXX escape (Java needs exactly four hexadecimal digits "
                             "after \\u and rejects the whole file); write \\\\u for a literal backslash-u")
        if other is None:
            return ""
        return _CONTROL.get(other, other)

    text = join_surrogates(_ESCAPE.sub(replace, raw), "surrogatepass")  # \uD83D\uDE00 is one character in Java
    if _LONE_SURROGATE.search(text):
        raise ValueError("has a \\uXXXX escape naming half of a surrogate pair (\\ud800-\\udfff) without the other "
                         "half: Java keeps it, but no answer nor UTF-8 text can carry it; write the character "
                         "itself, or both halves")
    return text


def _comment_above(contents: list[str], comments: set[int], first: int) -> list[int]:
    """The comment lines directly above line `first` (no blank line between), top to bottom."""
    found = []
    index = first - 1
    while index >= 0 and index in comments:
        found.append(index)
        index -= 1
    return found[::-1]


def _comment_text(contents: list[str], lines: list[int]) -> str | None:
    texts = []
    for index in lines:
        body = contents[index].lstrip(_BLANK)[1:]
        texts.append(body[1:] if body.startswith(" ") else body)
    text = "\n".join(texts).strip("\n")
    if "\\u" in text:  # native2ascii escapes comments too; Java never reads them, translators do
        text = _U_ESCAPE.sub(lambda match: chr(int(match.group(1), 16)), text)
    return text or None


# --- reading -------------------------------------------------------------------------------------------


class PropertiesMessages(TextMessages[str]):
    """One `.properties` file's messages: texts held, compiled into `JavaMessage`s on first use."""

    def __init__(self, texts: dict[str, str], comments: dict[str, str], problems: list[Problem],
                 tag: LocaleTag, *, always: bool = False) -> None:
        super().__init__(texts, comments, problems)
        self._tag = tag
        self._always = always

    def _compile(self, key: str, text: str) -> Renderable:
        return compile_java_message(text, self._tag, always=self._always)

    def _reason(self, key: str, error: Exception) -> str:
        return f"the message {error}"


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits, always: bool = False) -> PropertiesMessages:
    text, _, bom = _decode(data, limits)
    entries, contents, comments = _scan(text, False, limits)
    texts: dict[str, str] = {}
    lines: dict[str, int] = {}
    notes: dict[str, str] = {}
    problems: list[Problem] = []
    for number, entry in enumerate(entries):
        line = entry.first + 1
        try:
            key = _unescape(entry.raw_key)
            value = _unescape(entry.raw_value)
        except ValueError as error:
            problems.append(Problem(entry.raw_key, line, f"the entry {error}"))
            continue
        if bom and number == 0 and entry.first == 0:
            problems.append(Problem(key, line, "the file starts with a UTF-8 byte order mark, which Java reads "
                                               "as part of this first key, so no lookup finds it; save the "
                                               "file without a BOM"))
            continue
        earlier = lines.get(key)
        if earlier is not None:
            problems.append(later_one_used(key, earlier, line, "as in java.util.Properties"))
            texts.pop(key, None)  # the later value takes the earlier one's place in file order
            notes.pop(key, None)
        lines[key] = line
        if "{" in value or (always and "'" in value):
            try:
                check_pattern(value, tag)  # validated now to be reported; compiled when used
            except ValueError as error:
                problems.append(Problem(key, line, f"the message {error}"))
                continue
        texts[key] = value
        if entry.first - 1 not in comments:
            continue
        attached = _comment_above(contents, comments, entry.first)
        if attached:
            note = _comment_text(contents, attached)
            if note:
                notes[key] = note
    return PropertiesMessages(texts, notes, problems, tag, always=always)


# --- writing -------------------------------------------------------------------------------------------


class _Style:
    """How the file writes what it writes: encoding, escapes, line ending, separator. The escape
    habits are followed through the edits planned on the parse (`EscapeHabits`)."""

    def __init__(self, text: str, encoding: str) -> None:
        self.encoding = encoding
        self.newline = first_line_break(text)
        self.habits = EscapeHabits(text, "u")

    @property
    def ascii_only(self) -> bool:
        # A file of plain ASCII is written as native2ascii writes: anything else as \uXXXX, which
        # every Java version reads. A file holding UTF-8 (or Latin-1) text gets that text as it is.
        return self.habits.ascii

    @property
    def upper_hex(self) -> bool:
        return self.habits.upper

    def escape(self, text: str, key: bool) -> str:
        out = []
        for position, char in enumerate(text):
            if char == "\\":
                out.append("\\\\")
            elif char in "\t\n\r\f":
                out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}[char])
            elif char == " " and (key or position == 0):
                out.append("\\ ")
            elif key and (char in "=:" or (position == 0 and char in "#!")):
                out.append("\\" + char)
            elif char < " " or char == "\x7f" or not self._holds(char):
                out.append(escape_utf16(char, "u", self.upper_hex))
            else:
                out.append(char)
        return "".join(out)

    def _holds(self, char: str) -> bool:
        if self.ascii_only:
            return char.isascii()
        if self.encoding == "latin-1":
            return char <= "\xff"
        return not "\ud800" <= char <= "\udfff"


class _Added:
    """A key planned on the parse: where its line goes and the separator it was written with."""

    __slots__ = ("at", "separator")

    def __init__(self, at: int, separator: str) -> None:
        self.at = at
        self.separator = separator


def _unescaped_or_raw(text: str) -> str:
    """A key or value unescaped; as written where its escapes are broken (read so, and reported, by `read`)."""
    try:
        return _unescape(text)
    except ValueError:
        return text


class PropertiesDocument(KeyedTextDocument[_Entry, _Added]):
    """A `.properties` file being edited: edits planned on one scan of its text (`TextDocument`).

    A new key's line goes after its nearest sibling (`Siblings` keeps that answer for keys added
    one after another); a key can be added in one pass where it goes right after an entry of the
    scan, or right after the last key added at one place. Other edits make the planned ones and
    scan again first.
    """

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._limits = limits
        super().__init__(data, *_decode(data, limits))

    def _parse(self) -> None:
        self._entries, self._contents, self._comments = _scan(self._text, True, self._limits)
        self._index((_unescaped_or_raw(entry.raw_key), entry) for entry in self._entries)
        self._style: _Style | None = None

    def _value_of(self, entry: _Entry) -> str:
        return _unescaped_or_raw(entry.raw_value)

    def line_of(self, key: str) -> int | None:
        self._settle()
        found = self._by_key.get(key)
        return found[-1].first + 1 if found else None

    def _file_style(self) -> _Style:
        if self._style is None:
            self._style = _Style(self._text, self._codec)
        return self._style

    def _follows(self, start: int, end: int, text: str) -> bool:
        return self._file_style().habits.follow(self._text, start, end, text)

    def _untouched(self, entry: _Entry) -> bool:
        """Whether no planned edit has changed the entry's lines (nor the blank line ending it)."""
        end = entry.end
        if entry.last + 1 < len(self._contents) and _odd_backslashes(self._contents[entry.last]):
            end += len(self._contents[entry.last + 1]) + 2
        return not self._planned.touches(entry.key_start, max(end - 1, entry.key_start))

    def set(self, key: str, value: Value) -> None:
        if self._planning() and self._plan_set(key, value):
            return
        self._settle()
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .properties file; use add")
        if not isinstance(value, str):
            raise TypeError(f"a .properties message is text; got {type(value).__name__} for {key!r}")
        if self.get(key) == value:
            return
        self._splice(*self._value_edit(found[-1], value))

    def _plan_set(self, key: str, value: Value) -> bool:
        found = self._by_key.get(key)
        if not found or key in self._edited or not isinstance(value, str):
            return False
        if self.get(key) == value:
            return True
        entry = found[-1]
        if not self._untouched(entry) or (not entry.raw_value and entry.value_start == entry.end):
            return False  # a key without a separator takes the file's last one, which adds may change
        try:
            self._plan(*self._value_edit(entry, value))
        except Overlap:
            return False
        self._edited[key] = value
        return True

    def _value_edit(self, entry: _Entry, value: str) -> tuple[int, int, str]:
        """The edit that gives `entry` (the definition Java reads) the text `value`."""
        style = self._file_style()
        written = self._continued(entry, value, style) if entry.last > entry.first else None
        if written is None:
            written = style.escape(value, key=False)
        if not entry.raw_value and entry.value_start == entry.end and self._text[entry.end - 1] not in "=: \t\f":
            written = self._file_separator() + written  # a key that had no separator gets one
        return entry.value_start, entry.end, written

    def _continued(self, entry: _Entry, value: str, style: _Style) -> str | None:
        """`value` laid out as the entry was, when its lines break after each `\\n` as such files do
        (`First line\\n\\` then the next line indented); None when the entry is laid out otherwise."""
        breaks = [self._contents[index].rstrip(_BLANK) for index in range(entry.first, entry.last)]
        if not all(line.endswith("\\n\\") for line in breaks):
            return None
        following = self._contents[entry.first + 1]
        indent = following[:len(following) - len(following.lstrip(_BLANK))]
        lines = value.split("\n")
        written = style.escape(lines[0], key=False)
        for line in lines[1:]:  # each continuation line's leading space is escaped, as Java skips it
            written += f"\\n\\{style.newline}{indent}{style.escape(line, key=False)}" if line else "\\n"
        return written

    def _file_separator(self) -> str:
        return self._separator(self._entries[-1]) if self._entries else "="

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if self._planning() and self._plan_add(key, value, after):
            return
        self._settle()
        if key in self._by_key:
            raise KeyError(f"{key!r} is already in this .properties file; use set")
        if not isinstance(value, str):
            raise TypeError(f"a .properties message is text; got {type(value).__name__} for {key!r}")
        style = self._file_style()
        anchor = self._by_key.get(after) if after is not None else None
        entry = anchor[-1] if anchor else nearest_sibling(key, [(k, found[-1]) for k, found in self._by_key.items()])
        separator = self._separator(entry) if entry is not None else "="
        line = f"{style.escape(key, key=True)}{separator}{style.escape(value, key=False)}"
        end = len(self._text)
        if entry is None:  # no entry yet: after whatever the file holds (comments)
            if not self._text or self._text.endswith(("\n", "\r")):
                self._splice(end, end, line + style.newline)
            else:
                self._splice(end, end, style.newline + line)
            return
        self._splice(*self._after(entry, style.newline + line))

    def _after(self, entry: _Entry, line: str) -> tuple[int, int, str]:
        """The edit that puts `line` after `entry` (past the blank line that ends a continued one)."""
        at = entry.end
        if entry.last + 1 < len(self._contents) and _odd_backslashes(self._contents[entry.last]):
            at += len(self._file_style().newline) + len(self._contents[entry.last + 1])
        return at, at, line

    def _plan_add(self, key: str, value: Value, anchor: str | None = None) -> bool:
        """Plan a new key's line where `add` would put it: right after an entry of the scan that
        nothing has been added after yet, or right after the last key added at one place."""
        if key in self._by_key or key in self._edited or not isinstance(value, str) or not self._entries:
            return False
        if self._removed:
            return False  # a key deleted since the scan may be the one it would go after
        if self._siblings is None:
            self._siblings = Siblings((name, found[-1], (found[0].key_start, 0, 0))
                                      for name, found in self._by_key.items())
        after = self._anchor(anchor) or self._siblings.nearest(key)
        style = self._file_style()
        if isinstance(after, _Added):
            if self._last_at[after.at] is not after:
                return False  # it goes between keys added at one place
            at, separator = after.at, after.separator
        else:
            assert after is not None
            at = self._after(after, "")[0]
            if at in self._last_at or not self._untouched(after):
                return False
            separator = self._separator(after)
        line = f"{style.escape(key, key=True)}{separator}{style.escape(value, key=False)}"
        try:
            self._plan(at, at, style.newline + line)
        except Overlap:
            return False
        added = self._last_at[at] = self._added[key] = _Added(at, separator)
        self._siblings.place(key, added, (at, 1, len(self._planned)))
        self._edited[key] = value
        return True

    def _separator(self, entry: _Entry) -> str:
        between = self._text[entry.key_start + len(entry.raw_key):entry.value_start]
        return between if between and "\n" not in between and "\r" not in between and "\\" not in between else "="

    def delete(self, key: str) -> None:
        if self._planning() and self._plan_delete(key):
            return
        self._settle()
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .properties file")
        # Every definition goes (else an earlier one would come back); last first, so offsets hold.
        for entry in reversed(found):
            first = entry.first
            attached = _comment_above(self._contents, self._comments, first)
            if attached and self._owns_comment(entry, attached[0]):
                first = attached[0]
            starts = line_starts(self._text)
            start = starts[first] if first < len(starts) else len(self._text)
            end = starts[entry.last + 1] if entry.last + 1 < len(starts) else len(self._text)
            if end >= len(self._text) and start > 0 and not self._text.endswith(("\n", "\r")):
                start = back_over_line_break(self._text, start)  # the file ends without a line break: keep it so
            self._splice(start, end, "")

    def _plan_delete(self, key: str) -> bool:
        """Plan deleting a key defined once, untouched, on the scan: on the piece of the text from two
        untouched entries before it to two after it (`TextDocument._plan_removal`)."""
        found = self._by_key.get(key)
        if not found or len(found) > 1 or key in self._edited:
            return False
        if self._positions is None:
            self._positions = {id(entry): at for at, entry in enumerate(self._entries)}
        at = self._positions[id(found[0])]
        lo, hi = self._bound(at, -1), self._bound(at, 1)
        if lo is None or hi is None or not self._plan_removal(key, lo, hi):
            return False
        self._edited[key] = None
        return True

    def _bound(self, at: int, step: int) -> int | None:
        """Where the piece deleting `self._entries[at]` starts (`step` -1: the line of the second
        untouched entry before it, or the start of the text) or ends (1: past the last line of the
        second untouched entry after it, or the end of the text); None when a line break continues
        that entry."""
        entries, text = self._entries, self._text
        untouched = 0
        index = at + step
        while 0 <= index < len(entries):
            entry = entries[index]
            first = line_start(text, entry.key_start)
            if not self._planned.touches(first, entry.end):
                untouched += 1
                if untouched == 2:
                    if step < 0:
                        return first
                    return None if _odd_backslashes(self._contents[entry.last]) else next_line(text, entry.end)
            index += step
        return 0 if step < 0 else len(text)

    def _owns_comment(self, entry: _Entry, comment: int) -> bool:
        """Whether the comment starting on line `comment`, right above `entry`, is the entry's own: not
        when it stands after a blank line (or at the top) and the entry starts a run of uncommented
        entries, as a heading does."""
        following = entry.last + 1
        starts_run = any(other.first == following for other in self._entries)
        after_blank = comment == 0 or not self._contents[comment - 1].strip(_BLANK)
        return not (starts_run and after_blank)


def _odd_backslashes(line: str) -> bool:
    run = _TRAILING_BACKSLASHES.search(line)
    return run is not None and len(run.group()) % 2 == 1


# --- the format ----------------------------------------------------------------------------------------


class PropertiesFormat(CatalogFormat):
    """Java `.properties` resource bundles (`messages_pt_BR.properties`). `syntax`
    `always-messageformat`: the application formats every message with MessageFormat (Jenkins'
    localizer, Spring's `alwaysUseMessageFormat`), so `''` prints one apostrophe in every message."""

    frameworks = ("java",)

    base_file_separator = "_"  # ResourceBundle's base name: messages.properties is the root bundle

    def __init__(self, syntax: str | None = None) -> None:
        self.syntax = syntax
        self._always = syntax == _ALWAYS

    def for_file(self, file_name: str, syntax: str | None, head: Callable[[], bytes]) -> CatalogFormat:
        """Bound to the catalog's `syntax`: the application's use of MessageFormat cannot be told from
        the files."""
        super().for_file(file_name, syntax, head)
        if syntax is None:
            return self
        if syntax not in _BOUND:
            _BOUND[syntax] = PropertiesFormat(syntax)
        return _BOUND[syntax]

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> PropertiesMessages:
        return _read(data, tag, limits, self._always)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> PropertiesDocument:
        return PropertiesDocument(data, limits)

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """No argument given a format type the source does not give it: `{0,number}` throws
        IllegalArgumentException for the String the application passes where the source has `{0}`,
        `{0,date}` for a Number. A plain `{0}` formats any value, so it may replace any type."""
        from parlance_i18n.formats.properties.java_messageformat import argument_conversions
        from parlance_i18n.formats.shared.conversions import message_conversion_reasons

        compatible = tuple((kind, "any value") for kind in ("a number", "a date"))
        reasons = message_conversion_reasons(source, written.text(key), lambda text: argument_conversions(text, tag),
                                             shown="{{{}}}", compatible=compatible,
                                             keep="keep the source's format type, or write {{{}}} alone")
        return reasons + self._apostrophe_reasons(written.text(key))

    def _apostrophe_reasons(self, text: Value | None) -> list[str]:
        """An apostrophe MessageFormat takes as a quote, so it never prints (and hides what follows from
        formatting): in every message when the application formats them all, else in a pattern."""
        if not isinstance(text, str) or "'" not in text or not (self._always or "{" in text):
            return []
        lost = quotes_without_braces(text)
        if not lost:
            return []
        why = ("the application formats every message with MessageFormat" if self._always
               else "the message is a MessageFormat pattern")
        return [f"has {'an apostrophe' if lost == 1 else f'{lost} apostrophes'} that MessageFormat takes as a quote "
                f"and does not print ({why}): write '' for each apostrophe (Don''t prints Don't)"]

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """An empty bundle (`messages_fr.properties`): entries are added with `\\uXXXX` escapes, which
        every Java version reads (ISO-8859-1 before Java 9, UTF-8 since)."""
        return b""

    def locale_spelling(self, tag: LocaleTag) -> str:
        """Java's bundle suffix (`ResourceBundle.Control.toBundleName`): `pt_BR`, `zh_Hant_TW`."""
        return "_".join(part for part in (tag.language, tag.script, tag.region, *tag.variants) if part)

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt_BR`, `zh_Hant_TW`, and Java's old codes `iw`, `in`, `ji` (Hebrew, Indonesian, Yiddish)."""
        language, _, rest = text.partition("_")
        if language in LEGACY_LANGUAGES:
            text = LEGACY_LANGUAGES[language] + ("_" + rest if rest else "")
        if text == "no_NO_NY":  # Java's spelling of Norwegian Nynorsk
            text = "nn_NO"
        return super().parse_spelling(text)
