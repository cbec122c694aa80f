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

import re

from parlance_i18n.formats.apple.base import AppleFormat
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
from parlance_i18n.formats.base import Problem, Renderable, Value
from parlance_i18n.formats.shared.messages import TextMessages, later_one_used
from parlance_i18n.formats.shared.spelling import lproj_locale
from parlance_i18n.formats.shared.textedit import (
    TextDocument,
    back_over_line_break,
    escape_utf16,
    first_line_break,
    line_end,
    line_start,
    nearest_sibling,
    previous_line_start,
    upper_hex_escapes,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["AppleStringsFormat"]

_SIMPLE_FORMAT = re.compile(r"(?:[^%]|%%|%(?:[1-9][0-9]{0,2}\$)?(?:@|(?:l|ll|q|z)?[diuxX]|(?:\.[0-9]{1,2})?f))*")
"""Messages whose specifiers are all of the common, valid shapes: reading skips compiling them."""
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


def _read(data: bytes) -> AppleStringsMessages:
    from parlance_i18n.formats.shared.printf import compile_printf

    text, _, _ = decode(data)
    parser = Parser(text)
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
        note = comment_text(text[entry.comment[0]:entry.comment[1]]) if entry.comment else trailing_comment(
            text, entry.end)
        if note:
            notes[key] = note
    problems.sort(key=lambda problem: problem.line or 0)
    return AppleStringsMessages(texts, notes, problems)


# --- writing -------------------------------------------------------------------------------------------


class AppleStringsDocument(TextDocument):
    """A `.strings` file being edited: its text, parsed again after each change."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data, *decode(data))

    def _parse(self) -> None:
        self._parser = Parser(self._text)
        self._by_key: dict[str, list[Entry]] = {}
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
        unquoted = not entry.quote and UNQUOTED.fullmatch(value)
        written = value if unquoted else self._quote(value, entry.quote or '"')
        self._splice(entry.value_start, entry.value_end, written)

    def add(self, key: str, value: Value) -> None:
        if key in self._by_key:
            raise KeyError(f"{key!r} is already in this .strings file; use set")
        value = _text_value(key, value)
        entries = self._parser.entries
        line = f"{self._quote(key, chr(34))}{self._separator()}{self._quote(value, chr(34))};"
        newline = first_line_break(self._text, NEWLINES)
        if not entries:
            end = len(self._text)
            ending = "" if not self._text or self._text.endswith(("\n", "\r")) else newline
            self._splice(end, end, ending + line + newline)
            return
        after = nearest_sibling(key, [(entry.key, entry) for entry in entries])
        assert after is not None
        at = line_end(self._text, after.end, NEWLINES)
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
        return len(NEWLINES.findall(gap)) > 1

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
