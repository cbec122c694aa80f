"""Apple `.strings` catalogs (`pt-BR.lproj/Localizable.strings`): read as Core Foundation's old-style
property list parser reads them, rendered as `String(format:)` formats them, and edited in place.

The file's syntax, as CF reads it, is `strings_syntax`'s.

Messages are Apple printf formats (`%@`, `%1$@`, `%lld`, `%%`), compiled by
`parlance_i18n.formats.shared.printf` with `style="apple"` (arguments `values["1"]`, `values["2"]`, ...); a
message with an invalid specifier is reported and skipped. Plurals live in `.stringsdict`.

`comment(key)` is the comment right above an entry (or, failing that, after it on its line), as
Xcode writes them; Xcode's "No comment provided by engineer." is no comment.
"""

from __future__ import annotations

from typing import NamedTuple

from parlance_i18n.formats.apple.base import SIMPLE_FORMAT, AppleFormat
from parlance_i18n.formats.apple.strings_syntax import (
    COMMENT,
    NEWLINES,
    UNQUOTED,
    Entry,
    Parser,
    comment_text,
    decode,
    trailing_comment,
)
from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, Problem, ReadLimits, Renderable, Template, Value
from parlance_i18n.formats.shared.limits import check_text
from parlance_i18n.formats.shared.messages import TextMessages, later_one_used
from parlance_i18n.formats.shared.spelling import lproj_locale
from parlance_i18n.formats.shared.splices import Overlap
from parlance_i18n.formats.shared.textedit import (
    EscapeHabits,
    KeyedTextDocument,
    Siblings,
    back_over_line_break,
    escape_utf16,
    first_line_break,
    line_end,
    line_start,
    nearest_sibling,
    previous_line_start,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["AppleStringsFormat"]

_LEGACY_FOLDERS = {"English": "en", "French": "fr", "German": "de", "Japanese": "ja", "Spanish": "es",
                   "Italian": "it", "Dutch": "nl"}
"""The language names old Xcode projects use as folder names (`English.lproj`)."""


# --- reading -------------------------------------------------------------------------------------------


class AppleStringsMessages(TextMessages[str]):
    """One `.strings` file's messages: texts held, compiled as Apple printf formats on first use."""

    def _compile(self, key: str, text: str) -> Renderable:
        from parlance_i18n.formats.shared.printf import compile_printf

        return compile_printf(text, "apple")

    def _reason(self, key: str, error: Exception) -> str:
        return f"the message has {error}"


def _read(data: bytes, limits: ReadLimits) -> AppleStringsMessages:
    from parlance_i18n.formats.shared.printf import compile_printf

    text, _, _ = decode(data)
    check_text(text, limits)
    parser = Parser(text, limits)
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
        if "%" in value and not SIMPLE_FORMAT.fullmatch(value):
            try:
                compile_printf(value, "apple")  # validated now so that it is reported; compiled when used
            except ValueError as error:
                problems.append(Problem(key, parser.line(entry.start), f"the message has {error}"))
                continue
        texts[key] = value
        note = comment_text(text[entry.comment[0]:entry.comment[1]]) if entry.comment else trailing_comment(
            text, entry.end)
        if note:
            notes[key] = note
    problems.sort(key=lambda problem: problem.line or 0)
    return AppleStringsMessages(texts, notes, problems)


# --- writing -------------------------------------------------------------------------------------------


class _Style(NamedTuple):
    """How a `.strings` file writes its entries."""

    separator: str  # between a key and its value: ` = ` or `=`
    newline: str
    apart: bool  # entries stand apart, a blank line between them (Xcode's comment-and-entry blocks)
    escapes: EscapeHabits  # followed through the planned edits


class _Added:
    """A key planned on the parse: where its line goes."""

    __slots__ = ("at",)

    def __init__(self, at: int) -> None:
        self.at = at


class AppleStringsDocument(KeyedTextDocument[Entry, _Added]):
    """A `.strings` file being edited: edits planned on one parse of its text (`TextDocument`).

    A new key's line goes after its nearest sibling (`Siblings`); it is planned where that is an
    entry of the parse nothing was added after yet, or the last key added at one place. The file's
    style (separator, spacing, escapes) is read once: what is planned writes in it.
    """

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._limits = limits
        text, codec, bom = decode(data)
        check_text(text, limits)
        super().__init__(data, text, codec, bom)

    def _parse(self) -> None:
        self._parser = Parser(self._text, self._limits)
        self._index((entry.key, entry) for entry in self._parser.entries)
        self._style: _Style | None = None

    def _value_of(self, entry: Entry) -> str:
        return entry.value

    def line_of(self, key: str) -> int | None:
        self._settle()
        found = self._by_key.get(key)
        return self._parser.line(found[-1].start) if found else None

    def set(self, key: str, value: Value) -> None:
        if self._planning() and self._plan_set(key, value):
            return
        self._settle()
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .strings file; use add")
        value = _text_value(key, value)
        edit = self._value_edit(found[-1], value)  # the last definition: the one Apple reads
        if edit is not None:
            self._splice(*edit)

    def _value_edit(self, entry: Entry, value: str) -> tuple[int, int, str] | None:
        """The edit that gives `entry` the text `value` (None when it has it)."""
        if entry.value == value and entry.value_start != entry.key_end:
            return None
        if entry.value_start == entry.key_end:  # "key"; becomes "key" = "value";
            if entry.value == value:
                return None
            return entry.key_end, entry.key_end, self._separator() + self._quote(value, '"')
        unquoted = not entry.quote and UNQUOTED.fullmatch(value)
        written = value if unquoted else self._quote(value, entry.quote or '"')
        return entry.value_start, entry.value_end, written

    def _plan_set(self, key: str, value: Value) -> bool:
        found = self._by_key.get(key)
        if not found or key in self._edited or not isinstance(value, str):
            return False
        entry = found[-1]
        if self._planned.touches(entry.start, entry.end - 1):
            return False
        edit = self._value_edit(entry, value)
        if edit is not None:
            try:
                self._plan(*edit)
            except Overlap:
                return False
            self._edited[key] = value
        return True

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if self._planning() and self._plan_add(key, value, after):
            return
        self._settle()
        if key in self._by_key:
            raise KeyError(f"{key!r} is already in this .strings file; use set")
        value = _text_value(key, value)
        entries = self._parser.entries
        line = self._line(key, value)
        newline = self._file_style().newline
        if not entries:
            end = len(self._text)
            ending = "" if not self._text or self._text.endswith(("\n", "\r")) else newline
            self._splice(end, end, ending + line + newline)
            return
        anchor = self._by_key.get(after) if after is not None else None
        entry = anchor[-1] if anchor else nearest_sibling(key, [(entry.key, entry) for entry in entries])
        assert entry is not None
        at = line_end(self._text, entry.end, NEWLINES)
        self._splice(at, at, self._spacing() + line)

    def _line(self, key: str, value: str) -> str:
        return f"{self._quote(key, chr(34))}{self._separator()}{self._quote(value, chr(34))};"

    def _spacing(self) -> str:
        """What goes before a new entry's line: a line break, two where entries stand apart."""
        style = self._file_style()
        return style.newline * 2 if style.apart else style.newline

    def _plan_add(self, key: str, value: Value, anchor: str | None = None) -> bool:
        """Plan a new key's line where `add` would put it: right after an entry of the parse that
        nothing has been added after yet, or right after the last key added at one place."""
        entries = self._parser.entries
        if key in self._by_key or key in self._edited or not isinstance(value, str) or not entries:
            return False
        if self._removed:
            return False  # a key deleted since the parse may be the one it would go after
        if self._siblings is None:
            self._siblings = Siblings((entry.key, entry, (entry.start, 0, 0)) for entry in entries)
        after = self._anchor(anchor) or self._siblings.nearest(key)
        if isinstance(after, _Added):
            if self._last_at[after.at] is not after:
                return False  # it goes between keys added at one place
            at = after.at
        else:
            assert after is not None
            at = line_end(self._text, after.end, NEWLINES)
            if at in self._last_at or self._planned.touches(after.start, max(at - 1, after.start)):
                return False
        try:
            self._plan(at, at, self._spacing() + self._line(key, value))
        except Overlap:
            return False
        added = self._last_at[at] = self._added[key] = _Added(at)
        self._siblings.place(key, added, (at, 1, len(self._planned)))
        self._edited[key] = value
        return True

    def delete(self, key: str) -> None:
        if self._planning() and self._plan_delete(key):
            return
        self._settle()
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .strings file")
        for entry in reversed(found):  # every definition, last first so that offsets hold
            self._splice(*self._entry_span(entry), "")

    def _plan_delete(self, key: str) -> bool:
        """Plan deleting a key defined once, untouched, on the parse: on the piece of the text from two
        untouched entries before it to two after it (`TextDocument._plan_removal`)."""
        found = self._by_key.get(key)
        if not found or len(found) > 1 or key in self._edited:
            return False
        entries = self._parser.entries
        if self._positions is None:
            self._positions = {id(entry): at for at, entry in enumerate(entries)}
        at = self._positions[id(found[0])]
        text = self._text
        lo = self._bound(entries, at, -1)
        hi = self._bound(entries, at, 1)
        if lo is None or hi is None:
            return False
        if self._plan_removal(key, lo, hi):
            self._edited[key] = None
            return True
        return False

    def _bound(self, entries: list[Entry], at: int, step: int) -> int | None:
        """Where the piece deleting `entries[at]` starts (`step` -1: the line of the second untouched
        entry before it, or the start of the text) or ends (1: the end of the line of the second
        untouched entry after it, or the end of the text); None when that line holds more than the
        entry."""
        text = self._text
        untouched = 0
        index = at + step
        while 0 <= index < len(entries):
            entry = entries[index]
            first = entry.comment[0] if entry.comment else entry.start
            if not self._planned.touches(first, entry.end):
                untouched += 1
                if untouched == 2:
                    if step < 0:
                        start = line_start(text, first)
                        return start if not text[start:first].strip() else None
                    end = line_end(text, entry.end, NEWLINES)
                    if text[entry.end:end].strip():
                        return None
                    newline = NEWLINES.match(text, end)
                    return newline.end() if newline else end
            index += step
        return 0 if step < 0 else len(text)

    # --- the file's style ---

    def _file_style(self) -> _Style:
        """How the file writes, read once a parse: the edits planned on it write in that style, so
        it stays the file's."""
        if self._style is None:
            text = self._text
            self._style = _Style(self._last_separator(), first_line_break(text, NEWLINES),
                                 self._blank_line_between_entries(), EscapeHabits(text, "U"))
        return self._style

    def _follows(self, start: int, end: int, text: str) -> bool:
        return self._file_style().escapes.follow(self._text, start, end, text)

    def _separator(self) -> str:
        return self._file_style().separator

    def _last_separator(self) -> str:
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
        return len(NEWLINES.findall(gap)) > 1

    def _quote(self, value: str, quote: str) -> str:
        escapes = self._file_style().escapes
        escape_non_ascii = escapes.ascii and escapes.has_marker  # as the file does, in its hex case
        upper = escapes.upper
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

    def _entry_span(self, entry: Entry) -> tuple[int, int]:
        """What deleting `entry` removes: its whole lines (with its comment above, unless that comment
        heads a run of entries) when it has them to itself, else just its text. Where the file parts
        entries with blank lines, one goes along, so that the spacing stays even."""
        text = self._text
        start = entry.comment[0] if entry.comment and self._owns_comment(entry) else entry.start
        first = line_start(text, start)
        last_end = line_end(text, entry.end, NEWLINES)
        tail = text[entry.end:last_end].strip()
        if text[first:start].strip() or (tail and not COMMENT.fullmatch(tail)):  # it shares a line
            end = entry.end
            while end < len(text) and text[end] in " \t":
                end += 1
            return start, end
        newline = NEWLINES.match(text, last_end)
        end = newline.end() if newline else last_end
        blank_before = first > 0 and not text[previous_line_start(text, first):first].strip()
        after = NEWLINES.search(text, end)
        blank_after = end < len(text) and after is not None and not text[end:after.start()].strip()
        if blank_after and (blank_before or not first):
            end = after.end()  # type: ignore[union-attr]
        elif end >= len(text) and blank_before:
            first = previous_line_start(text, first)
        if end >= len(text) and newline is None and first > 0:  # the file ends without a line break: keep it so
            first = back_over_line_break(text, first)
        return first, end

    def _owns_comment(self, entry: Entry) -> bool:
        """Whether the comment right above `entry` is its own: not when it stands after a blank line
        (or at the top) and another entry follows on the next line without a comment, as a heading
        of that run does."""
        assert entry.comment is not None
        text = self._text
        first = line_start(text, entry.comment[0])
        after_blank = first == 0 or not text[previous_line_start(text, first):first].strip()
        newline = NEWLINES.match(text, line_end(text, entry.end, NEWLINES))
        if newline is None or not after_blank:
            return True
        following = NEWLINES.search(text, newline.end())
        next_line = text[newline.end():following.start() if following else len(text)].strip()
        return not (next_line.startswith(('"', "'")) or UNQUOTED.match(next_line))


def _text_value(key: str, value: Value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a .strings message is text (plurals go in a .stringsdict); got {type(value).__name__} "
                        f"for {key!r}")
    return value


# --- the format ----------------------------------------------------------------------------------------


class AppleStringsFormat(AppleFormat):
    """Apple `.strings` files, one per `<locale>.lproj` folder."""

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> AppleStringsMessages:
        return _read(data, limits)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> AppleStringsDocument:
        return AppleStringsDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """An empty file: entries are added in UTF-8, which Xcode reads as it reads UTF-16 ones."""
        return b""

    def locale_spelling(self, tag: LocaleTag) -> str:
        """The `.lproj` folder's name: `pt-BR`, `zh-Hans`, `zh-Hant-TW`."""
        return tag.code

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt-BR`, `zh-Hans`, `pt_BR` (older projects), `English` (oldest); `Base` is no locale."""
        name = text.removesuffix(".lproj")
        return lproj_locale(_LEGACY_FOLDERS.get(name, name))
