"""Apple `.strings` catalogs (`pt-BR.lproj/Localizable.strings`): read as Core Foundation's old-style
property list parser reads them, rendered as `String(format:)` formats them, and edited in place.

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

Messages are Apple printf formats (`%@`, `%1$@`, `%lld`, `%%`), compiled by
`parlance_i18n.formats.shared.printf` with `style="apple"` (arguments `values["1"]`, `values["2"]`, ...); a
message with an invalid specifier is reported and skipped. Plurals live in `.stringsdict`.

`comment(key)` is the comment right above an entry (or, failing that, after it on its line), as
Xcode writes them; Xcode's "No comment provided by engineer." is no comment.
"""

from __future__ import annotations

import bisect
import re

from parlance_i18n.formats.apple.base import AppleFormat
from parlance_i18n.formats.base import CatalogFileError, Problem, Renderable, Value
from parlance_i18n.formats.shared.messages import TextMessages, later_one_used
from parlance_i18n.formats.shared.spelling import lproj_locale
from parlance_i18n.formats.shared.textedit import (
    TextDocument,
    back_over_line_break,
    detect_bom,
    escape_utf16,
    first_line_break,
    join_surrogates,
    line_end,
    line_start,
    line_starts,
    nearest_sibling,
    previous_line_start,
    upper_hex_escapes,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["AppleStringsFormat"]

# CF's whitespace: tab through carriage return, space, and the Unicode line and paragraph separators.
_GAP = re.compile(r"(?:[\t-\r \u2028\u2029]+|//[^\n\r\u2028\u2029]*|/\*.*?\*/)*", re.S)
_COMMENT = re.compile(r"//([^\n\r\u2028\u2029]*)|/\*(.*?)\*/", re.S)
_QUOTED = {
    '"': re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.S),
    "'": re.compile(r"'([^'\\]*(?:\\.[^'\\]*)*)'", re.S),
}
_UNQUOTED = re.compile(r"[A-Za-z0-9_$/:.\-]+")
_ENTRY = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"([ \t]*=[ \t]*)"([^"\\]*(?:\\.[^"\\]*)*)"([ \t]*);', re.S)
"""The entry nearly every line is, matched whole; anything else goes through the general parser."""
_ESCAPE = re.compile(r"\\(?:U([0-9A-Fa-f]{0,4})|([0-7]{1,3})|(.)|$)", re.S)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\n": "\n"}
_NEWLINES = re.compile(r"\r\n|\r|\n|\u2028|\u2029")
_USUAL_GAP = re.compile(r"((?:[ \t]*(?:\r\n|\r|\n))*)[ \t]*(/\*(?:[^*]|\*(?!/))*\*/|//[^\r\n]*)"
                        r"[ \t]*(?:\r\n|\r|\n)?[ \t]*")
_SIMPLE_FORMAT = re.compile(r"(?:[^%]|%%|%(?:[1-9][0-9]{0,2}\$)?(?:@|(?:l|ll|q|z)?[diuxX]|(?:\.[0-9]{1,2})?f))*")
"""Messages whose specifiers are all of the common, valid shapes: reading skips compiling them."""
_NO_COMMENT = "No comment provided by engineer."
_LEGACY_FOLDERS = {"English": "en", "French": "fr", "German": "de", "Japanese": "ja", "Spanish": "es",
                   "Italian": "it", "Dutch": "nl"}
"""The language names old Xcode projects use as folder names (`English.lproj`)."""


# --- the file as CF reads it ---------------------------------------------------------------------------


class _Entry:
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


class _Parser:
    """Old-style property list "strings file" content, entry by entry, recovering from mistakes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.entries: list[_Entry] = []
        self.problems: list[tuple[str | None, int, str]] = []  # (key, offset, reason)
        self._starts: list[int] | None = None
        self._parse()

    def line(self, offset: int) -> int:
        """The 1-based line of `offset` (CR, LF, CRLF and the Unicode separators end lines)."""
        if self._starts is None:
            self._starts = line_starts(self.text, _NEWLINES)
        return bisect.bisect_right(self._starts, offset)

    def _parse(self) -> None:
        text = self.text
        length = len(text)
        previous_end = 0  # just past the last entry's `;`: the comments after it come before the next
        pos = self._gap(0)
        while pos < length:
            match = _ENTRY.match(text, pos)
            if match is not None:
                key, value = match.group(1), match.group(3)
                self.entries.append(_Entry(
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

    def _entry(self, pos: int, gap_start: int) -> _Entry:
        text = self.text
        key, quote, key_end = self._string(pos, None, "a key")
        try:
            at = self._gap(key_end)
            if at < len(text) and text[at] == ";":  # "key"; maps the key to itself
                return _Entry(key, key, pos, key_end, key_end, key_end, at + 1, "", self._comment_above(gap_start, pos))
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
        return _Entry(key, value, pos, key_end, value_start, value_end, end + 1, value_quote,
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
        match = _UNQUOTED.match(text, pos)
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
        comments = list(_COMMENT.finditer(gap))
        if gap_start > 0:
            first_break = _NEWLINES.search(gap)
            if first_break is None:
                return None
            comments = [comment for comment in comments if comment.start() >= first_break.end()]
        if not comments or len(_NEWLINES.findall(gap, comments[-1].end())) > 1:
            return None
        start = comments[-1].start()
        for previous in reversed(comments[:-1]):
            if len(_NEWLINES.findall(gap[previous.end():start])) > 1:
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


def _decode(data: bytes) -> tuple[str, str, bytes]:
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


def _trailing_comment(text: str, end: int) -> str | None:
    """The comment after an entry's `;` on its line, if it has one."""
    tail = text[end:line_end(text, end, _NEWLINES)].strip()
    return _comment_text(tail) if tail and _COMMENT.fullmatch(tail) else None


def _comment_text(text: str) -> str | None:
    if text.startswith("/*") and text.endswith("*/") and "\n" not in text and text.count("*/") == 1:
        comment = text[2:-2].strip(" \t*")  # the usual one-line comment
        return comment if comment and comment != _NO_COMMENT else None
    parts = []
    for match in _COMMENT.finditer(text):
        line, block = match.groups()
        body = line if line is not None else block
        parts.append("\n".join(piece.strip(" \t*") if block is not None else piece.strip()
                               for piece in body.strip().splitlines()))
    comment = "\n".join(part for part in parts if part).strip()
    return comment if comment and comment != _NO_COMMENT else None


# --- reading -------------------------------------------------------------------------------------------


class AppleStringsMessages(TextMessages[str]):
    """One `.strings` file's messages: texts held, compiled as Apple printf formats on first use."""

    def _compile(self, key: str, text: str) -> Renderable:
        from parlance_i18n.formats.shared.printf import compile_printf

        return compile_printf(text, "apple")

    def _reason(self, key: str, error: Exception) -> str:
        return f"the message has {error}"


def _read(data: bytes) -> AppleStringsMessages:
    from parlance_i18n.formats.shared.printf import compile_printf

    text, _, _ = _decode(data)
    parser = _Parser(text)
    problems = [Problem(key, parser.line(at), reason) for key, at, reason in parser.problems]
    texts: dict[str, str] = {}
    starts: dict[str, int] = {}
    notes: dict[str, str] = {}
    for entry in parser.entries:
        key = entry.key
        earlier = starts.get(key)
        if earlier is not None:
            line = parser.line(entry.start)
            problems.append(later_one_used(key, parser.line(earlier), line, "as on Apple platforms"))
            texts.pop(key, None)
            notes.pop(key, None)
        starts[key] = entry.start
        value = entry.value
        if "%" in value and not _SIMPLE_FORMAT.fullmatch(value):
            try:
                compile_printf(value, "apple")  # validated now so that it is reported; compiled when used
            except ValueError as error:
                problems.append(Problem(key, parser.line(entry.start), f"the message has {error}"))
                continue
        texts[key] = value
        note = _comment_text(text[entry.comment[0]:entry.comment[1]]) if entry.comment else _trailing_comment(
            text, entry.end)
        if note:
            notes[key] = note
    problems.sort(key=lambda problem: problem.line or 0)
    return AppleStringsMessages(texts, notes, problems)


# --- writing -------------------------------------------------------------------------------------------


class AppleStringsDocument(TextDocument):
    """A `.strings` file being edited: its text, parsed again after each change."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data, *_decode(data))

    def _parse(self) -> None:
        self._parser = _Parser(self._text)
        self._by_key: dict[str, list[_Entry]] = {}
        for entry in self._parser.entries:
            self._by_key.setdefault(entry.key, []).append(entry)

    def keys(self) -> list[str]:
        return list(self._by_key)

    def get(self, key: str) -> Value | None:
        found = self._by_key.get(key)
        return found[-1].value if found else None

    def line_of(self, key: str) -> int | None:
        found = self._by_key.get(key)
        return self._parser.line(found[-1].start) if found else None

    def set(self, key: str, value: Value) -> None:
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .strings file; use add")
        value = _text_value(key, value)
        entry = found[-1]  # the one Apple reads
        if entry.value == value and entry.value_start != entry.key_end:
            return
        if entry.value_start == entry.key_end:  # "key"; becomes "key" = "value";
            if entry.value == value:
                return
            self._splice(entry.key_end, entry.key_end, self._separator() + self._quote(value, '"'))
            return
        unquoted = not entry.quote and _UNQUOTED.fullmatch(value)
        written = value if unquoted else self._quote(value, entry.quote or '"')
        self._splice(entry.value_start, entry.value_end, written)

    def add(self, key: str, value: Value) -> None:
        if key in self._by_key:
            raise KeyError(f"{key!r} is already in this .strings file; use set")
        value = _text_value(key, value)
        entries = self._parser.entries
        line = f"{self._quote(key, chr(34))}{self._separator()}{self._quote(value, chr(34))};"
        newline = first_line_break(self._text, _NEWLINES)
        if not entries:
            end = len(self._text)
            ending = "" if not self._text or self._text.endswith(("\n", "\r")) else newline
            self._splice(end, end, ending + line + newline)
            return
        after = nearest_sibling(key, [(entry.key, entry) for entry in entries])
        assert after is not None
        at = line_end(self._text, after.end, _NEWLINES)
        spacing = newline * 2 if self._blank_line_between_entries() else newline
        self._splice(at, at, spacing + line)

    def delete(self, key: str) -> None:
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .strings file")
        for entry in reversed(found):  # every definition, last first so that offsets hold
            self._splice(*self._entry_span(entry), "")

    # --- the file's style ---

    def _separator(self) -> str:
        """What the file writes between a key and its value (` = ` or `=`), from its last entry."""
        for entry in reversed(self._parser.entries):
            if entry.value_start != entry.key_end:
                between = self._text[entry.key_end:entry.value_start]
                if between.strip() == "=" and "\n" not in between:
                    return between
        return " = "

    def _blank_line_between_entries(self) -> bool:
        """Whether the file parts entries with a blank line (Xcode's comment-and-entry blocks)."""
        entries = self._parser.entries
        if len(entries) < 2:
            return False
        previous, last = entries[-2], entries[-1]
        gap = self._text[previous.end:last.comment[0] if last.comment else last.start]
        return len(_NEWLINES.findall(gap)) > 1

    def _quote(self, value: str, quote: str) -> str:
        escape_non_ascii = self._text.isascii() and "\\U" in self._text  # as the file does, in its hex case
        upper = upper_hex_escapes(self._text, "U")
        out = [quote]
        for char in value:
            if char == "\\" or char == quote:
                out.append("\\" + char)
            elif char in "\n\r\t":
                out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
            elif char < " " or char == "\x7f" or (escape_non_ascii and not char.isascii()):
                out.append(escape_utf16(char, "U", upper))
            else:
                out.append(char)
        out.append(quote)
        return "".join(out)

    def _entry_span(self, entry: _Entry) -> tuple[int, int]:
        """What deleting `entry` removes: its whole lines (with its comment above, unless that comment
        heads a run of entries) when it has them to itself, else just its text. Where the file parts
        entries with blank lines, one goes along, so that the spacing stays even."""
        text = self._text
        start = entry.comment[0] if entry.comment and self._owns_comment(entry) else entry.start
        first = line_start(text, start)
        last_end = line_end(text, entry.end, _NEWLINES)
        tail = text[entry.end:last_end].strip()
        if text[first:start].strip() or (tail and not _COMMENT.fullmatch(tail)):  # it shares a line
            end = entry.end
            while end < len(text) and text[end] in " \t":
                end += 1
            return start, end
        newline = _NEWLINES.match(text, last_end)
        end = newline.end() if newline else last_end
        blank_before = first > 0 and not text[previous_line_start(text, first):first].strip()
        after = _NEWLINES.search(text, end)
        blank_after = end < len(text) and after is not None and not text[end:after.start()].strip()
        if blank_after and (blank_before or not first):
            end = after.end()  # type: ignore[union-attr]
        elif end >= len(text) and blank_before:
            first = previous_line_start(text, first)
        if end >= len(text) and newline is None and first > 0:  # the file ends without a line break: keep it so
            first = back_over_line_break(text, first)
        return first, end

    def _owns_comment(self, entry: _Entry) -> bool:
        """Whether the comment right above `entry` is its own: not when it stands after a blank line
        (or at the top) and another entry follows on the next line without a comment, as a heading
        of that run does."""
        assert entry.comment is not None
        text = self._text
        first = line_start(text, entry.comment[0])
        after_blank = first == 0 or not text[previous_line_start(text, first):first].strip()
        newline = _NEWLINES.match(text, line_end(text, entry.end, _NEWLINES))
        if newline is None or not after_blank:
            return True
        following = _NEWLINES.search(text, newline.end())
        next_line = text[newline.end():following.start() if following else len(text)].strip()
        return not (next_line.startswith(('"', "'")) or _UNQUOTED.match(next_line))


def _text_value(key: str, value: Value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a .strings message is text (plurals go in a .stringsdict); got {type(value).__name__} "
                        f"for {key!r}")
    return value


# --- the format ----------------------------------------------------------------------------------------


class AppleStringsFormat(AppleFormat):
    """Apple `.strings` files, one per `<locale>.lproj` folder."""

    def read(self, data: bytes, tag: LocaleTag) -> AppleStringsMessages:
        return _read(data)

    def edit(self, data: bytes, tag: LocaleTag) -> AppleStringsDocument:
        return AppleStringsDocument(data)

    def locale_spelling(self, tag: LocaleTag) -> str:
        """The `.lproj` folder's name: `pt-BR`, `zh-Hans`, `zh-Hant-TW`."""
        return tag.code

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt-BR`, `zh-Hans`, `pt_BR` (older projects), `English` (oldest); `Base` is no locale."""
        name = text.removesuffix(".lproj")
        return lproj_locale(_LEGACY_FOLDERS.get(name, name))
