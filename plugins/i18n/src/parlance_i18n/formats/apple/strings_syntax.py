"""The syntax of Apple `.strings` files, as Core Foundation's old-style property list parser reads it.

The file is `"key" = "value";` entries with `/* */` and `//` comments, in UTF-16 with a byte order
mark (what Xcode long wrote) or UTF-8. As CF reads it: strings are quoted with `"` or `'`, or
unquoted when made only of letters, digits and `_$/:.-`; `"key";` alone maps a key to itself; the
escapes are `\\"` `\\\\` `\\n` `\\t` `\\r` `\\a` `\\b` `\\f` `\\v`, `\\Uxxxx` (upper-case U: CF reads
`\\u00e9` as `u00e9`), up to three octal digits, and a backslash before anything else keeps that
character. A duplicate key keeps its last value, as CF's dictionary does; the earlier one is
reported.

CF gives up on a whole file at its first mistake (a missing `;`, a stray character, a value that is
not a string), so an app shows raw keys for every string of it. Here the broken entry is reported
with its line and skipped, and reading resumes after the next `;` (or at the next line, when the
`;` is what is missing), so one bad line does not hide the others. An unterminated `/*` comment
hides everything after it from CF, silently: that is reported too.
"""

from __future__ import annotations

import bisect
import re

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFileError, ReadLimits
from parlance_i18n.formats.shared.limits import too_many_messages
from parlance_i18n.formats.shared.textedit import detect_bom, join_surrogates, line_end, line_starts

__all__ = ["COMMENT", "NEWLINES", "UNQUOTED", "Entry", "Parser", "comment_text", "decode", "trailing_comment"]

# CF's whitespace: tab through carriage return, space, and the Unicode line and paragraph separators.
_GAP = re.compile(r"(?:[\t-\r \u2028\u2029]+|//[^\n\r\u2028\u2029]*|/\*.*?\*/)*", re.S)
COMMENT = re.compile(r"//([^\n\r\u2028\u2029]*)|/\*(.*?)\*/", re.S)
_QUOTED = {
    '"': re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.S),
    "'": re.compile(r"'([^'\\]*(?:\\.[^'\\]*)*)'", re.S),
}
UNQUOTED = re.compile(r"[A-Za-z0-9_$/:.\-]+")
_ENTRY = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"([ \t]*=[ \t]*)"([^"\\]*(?:\\.[^"\\]*)*)"([ \t]*);', re.S)
"""The entry nearly every line is, matched whole; anything else goes through the general parser."""
_ESCAPE = re.compile(r"\\(?:U([0-9A-Fa-f]{0,4})|([0-7]{1,3})|(.)|$)", re.S)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\n": "\n"}
NEWLINES = re.compile(r"\r\n|\r|\n|\u2028|\u2029")
_USUAL_GAP = re.compile(r"((?:[ \t]*(?:\r\n|\r|\n))*)[ \t]*(/\*(?:[^*]|\*(?!/))*\*/|//[^\r\n]*)"
                        r"[ \t]*(?:\r\n|\r|\n)?[ \t]*")
_NO_COMMENT = "No comment provided by engineer."


class Entry:
    """One entry: its key and value, unescaped, and where its pieces are in the text."""

    __slots__ = ("key", "value", "start", "key_end", "value_start", "value_end", "end", "quote", "comment")

    def __init__(self, key: str, value: str, start: int, key_end: int, value_start: int, value_end: int,
                 end: int, quote: str, comment: tuple[int, int] | None) -> None:
        self.key = key
        self.value = value
        self.start = start  # the key's first character
        self.key_end = key_end
        self.value_start = value_start  # the value token ("..." with its quotes); == key_end for "key";
        self.value_end = value_end
        self.end = end  # just past the `;`
        self.quote = quote  # the value's quote character, or "" when it is unquoted or absent
        self.comment = comment  # the span of the comment written right above it, if any


class _Broken(Exception):
    """An entry CF would reject: why, where, and where reading resumes (None: after the next `;`)."""

    def __init__(self, reason: str, at: int, resume: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.at = at
        self.resume = resume
        self.key: str | None = None


class Parser:
    """Old-style property list "strings file" content, entry by entry, recovering from mistakes."""

    def __init__(self, text: str, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self.text = text
        self.entries: list[Entry] = []
        self.problems: list[tuple[str | None, int, str]] = []  # (key, offset, reason)
        self._starts: list[int] | None = None
        self._limits = limits
        self._parse()

    def line(self, offset: int) -> int:
        """The 1-based line of `offset` (CR, LF, CRLF and the Unicode separators end lines)."""
        if self._starts is None:
            self._starts = line_starts(self.text, NEWLINES)
        return bisect.bisect_right(self._starts, offset)

    def _parse(self) -> None:
        text = self.text
        length = len(text)
        previous_end = 0  # just past the last entry's `;`: the comments after it come before the next
        pos = self._gap(0)
        most = self._limits.max_messages
        while pos < length:
            if len(self.entries) > most:
                raise too_many_messages(self._limits)
            match = _ENTRY.match(text, pos)
            if match is not None:
                key, value = match.group(1), match.group(3)
                self.entries.append(Entry(
                    _unescape(key) if "\\" in key else key, _unescape(value) if "\\" in value else value,
                    pos, match.end(1) + 1, match.start(3) - 1, match.end(3) + 1, match.end(), '"',
                    self._comment_above(previous_end, pos)))
                previous_end = match.end()
            else:
                try:
                    entry = self._entry(pos, previous_end)
                except _Broken as broken:
                    self.problems.append((broken.key, broken.at, broken.reason))
                    previous_end = broken.resume if broken.resume is not None else self._resync(broken.at)
                else:
                    self.entries.append(entry)
                    previous_end = entry.end
            pos = self._gap(previous_end)

    def _gap(self, pos: int) -> int:
        """Past the whitespace and comments at `pos`."""
        end = _GAP.match(self.text, pos).end()  # type: ignore[union-attr]
        if self.text.startswith("/*", end):  # CF reads an unterminated comment to the end, silently
            self.problems.append((None, end, "an unterminated /* comment hides everything after it from Apple's "
                                             "parser, silently: close it with */"))
            return len(self.text)
        return end

    def _entry(self, pos: int, gap_start: int) -> Entry:
        text = self.text
        key, quote, key_end = self._string(pos, None, "a key")
        try:
            at = self._gap(key_end)
            if at < len(text) and text[at] == ";":  # "key"; maps the key to itself
                return Entry(key, key, pos, key_end, key_end, key_end, at + 1, "", self._comment_above(gap_start, pos))
            if at >= len(text) or text[at] != "=":
                found = "the end of the file" if at >= len(text) else repr(text[at])
                raise _Broken(f"the entry has {found} after its key where '=' or ';' belongs: Apple's parser "
                              "rejects the whole file over it; write \"key\" = \"value\";", at)
            value_start = self._gap(at + 1)
            if value_start < len(text) and text[value_start] in "{(<":
                raise _Broken("the value is a dictionary, array or data, not a string: a .strings file holds "
                              "text only (plurals go in a .stringsdict)", value_start, self._past_brackets(value_start))
            value, value_quote, value_end = self._string(value_start, key, "a value")
            end = self._gap(value_end)
            if end >= len(text) or text[end] != ";":
                # The `;` is what is missing when the next entry starts on a later line: resume there.
                later = end >= len(text) or self.line(end) > self.line(value_end)
                found = "no ';'" if later else f"{text[end]!r} where ';' belongs"
                raise _Broken(f"the entry has {found} after its value: Apple's parser rejects the whole file "
                              "over it; end the entry with ;", value_end, value_end if later else None)
        except _Broken as broken:
            broken.key = key
            raise
        return Entry(key, value, pos, key_end, value_start, value_end, end + 1, value_quote,
                      self._comment_above(gap_start, pos))

    def _string(self, pos: int, key: str | None, what: str) -> tuple[str, str, int]:
        """A quoted or unquoted string at `pos`: (unescaped, quote character or "", end)."""
        text = self.text
        char = text[pos] if pos < len(text) else ""
        if char in ('"', "'"):
            match = _QUOTED[char].match(text, pos)
            if match is None:
                raise _Broken(f"{what} starts a quoted string that never ends: Apple's parser rejects the whole "
                              f"file over it, and nothing after it can be read; close it with {char}",
                              pos, len(text))
            body = match.group(1)
            return (_unescape(body) if "\\" in body else body), char, match.end()
        match = UNQUOTED.match(text, pos)
        if match is None:
            found = "the end of the file" if not char else repr(char)
            raise _Broken(f"the entry has {found} where {what} belongs: quote keys and values, "
                          "\"key\" = \"value\";", pos)
        return match.group(), "", match.end()

    def _past_brackets(self, pos: int) -> int | None:
        """Past the `{...}`, `(...)` or `<...>` at `pos` and the `;` after it; None when it never closes."""
        text = self.text
        closing = {"{": "}", "(": ")", "<": ">"}
        expected: list[str] = []
        while pos < len(text):
            char = text[pos]
            if char in closing:
                expected.append(closing[char])
            elif expected and char == expected[-1]:
                expected.pop()
                if not expected:
                    after = self._gap(pos + 1)
                    return after + 1 if after < len(text) and text[after] == ";" else pos + 1
            elif char in ('"', "'"):
                match = _QUOTED[char].match(text, pos)
                if match is None:
                    return None
                pos = match.end()
                continue
            pos += 1
        return None

    def _resync(self, pos: int) -> int:
        """After the next `;` outside strings and comments (or the end of the file)."""
        text = self.text
        length = len(text)
        while pos < length:
            pos = self._gap(pos)
            if pos >= length:
                break
            char = text[pos]
            if char == ";":
                return pos + 1
            if char in ('"', "'"):
                match = _QUOTED[char].match(text, pos)
                if match is None:
                    return length
                pos = match.end()
            else:
                pos += 1
        return length

    def _comment_above(self, gap_start: int, key_start: int) -> tuple[int, int] | None:
        """The span of the comments right above `key_start` (none when a blank line parts them), leaving
        out a comment on the line of the previous entry's `;` (that one is the previous entry's)."""
        gap = self.text[gap_start:key_start]
        if "/" not in gap:
            return None
        usual = _USUAL_GAP.fullmatch(gap)  # Xcode's layout: blank line, one comment, the entry
        if usual is not None and (usual.group(1) or not gap_start):
            return gap_start + usual.start(2), gap_start + usual.end(2)
        comments = list(COMMENT.finditer(gap))
        if gap_start > 0:
            first_break = NEWLINES.search(gap)
            if first_break is None:
                return None
            comments = [comment for comment in comments if comment.start() >= first_break.end()]
        if not comments or len(NEWLINES.findall(gap, comments[-1].end())) > 1:
            return None
        start = comments[-1].start()
        for previous in reversed(comments[:-1]):
            if len(NEWLINES.findall(gap[previous.end():start])) > 1:
                break
            start = previous.start()
        return gap_start + start, gap_start + comments[-1].end()


def _unescape(body: str) -> str:
    def replace(match: re.Match[str]) -> str:
        hexadecimal, octal, other = match.groups()
        if hexadecimal is not None:
            return chr(int(hexadecimal, 16)) if hexadecimal else "\0"
        if octal is not None:
            number = int(octal, 8) & 0xFF  # CF keeps the low byte, in NeXTSTEP Latin (ASCII below 128)
            return chr(number) if number < 0x80 else bytes([number]).decode("latin-1")
        if other is None:
            return ""
        return _SIMPLE_ESCAPES.get(other, other)

    return join_surrogates(_ESCAPE.sub(replace, body), "replace")  # \UD83D\UDE00 is one character, as CF builds UTF-16


def decode(data: bytes) -> tuple[str, str, bytes]:
    """(text, codec, BOM): UTF-16 when it starts with its BOM, else UTF-8 (with or without BOM)."""
    bom, codec = detect_bom(data)
    if codec != "utf-8":
        try:
            return data[2:].decode(codec), codec, bom
        except UnicodeDecodeError as error:
            raise CatalogFileError(f"the file starts as UTF-16 but is not valid UTF-16 (byte {error.start + 2})"
                                   ) from None
    try:
        text = data[len(bom):].decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogFileError(f"the file is neither UTF-8 (byte {error.start + len(bom)} is not) nor UTF-16 with a "
                               "byte order mark: save it as UTF-8 or UTF-16") from None
    if text.lstrip().startswith(("<?xml", "<!DOCTYPE plist", "<plist")) or data.startswith(b"bplist"):
        raise CatalogFileError("the file is an XML or binary property list, not a text .strings file: "
                               "convert it with `plutil -convert ... ` or export it as \"key\" = \"value\"; lines")
    return text, "utf-8", bom


def trailing_comment(text: str, end: int) -> str | None:
    """The comment after an entry's `;` on its line, if it has one."""
    tail = text[end:line_end(text, end, NEWLINES)].strip()
    return comment_text(tail) if tail and COMMENT.fullmatch(tail) else None


def comment_text(text: str) -> str | None:
    if text.startswith("/*") and text.endswith("*/") and "\n" not in text and text.count("*/") == 1:
        comment = text[2:-2].strip(" \t*")  # the usual one-line comment
        return comment if comment and comment != _NO_COMMENT else None
    parts = []
    for match in COMMENT.finditer(text):
        line, block = match.groups()
        body = line if line is not None else block
        parts.append("\n".join(piece.strip(" \t*") if block is not None else piece.strip()
                               for piece in body.strip().splitlines()))
    comment = "\n".join(part for part in parts if part).strip()
    return comment if comment and comment != _NO_COMMENT else None
