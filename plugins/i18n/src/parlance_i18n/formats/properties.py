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

Java applies MessageFormat only when the application calls it, which applications do for messages
that take arguments (Spring's `MessageSource` with `alwaysUseMessageFormat=false` returns a message
as written when it is given none). So here a message without `{` is plain and returned as written
(`Don''t` keeps both apostrophes, `It's` its one), and a message with `{` is a pattern (`''` is one
apostrophe, a lone `'` quotes what follows, as in Java: `It's {0}` prints `Its {0}`). Patterns are
validated when the file is read (unmatched braces, a bad argument index, an unknown type, a broken
choice, number or date pattern: the message is reported and skipped) and formatted like
`new MessageFormat(pattern, locale).format(arguments)`. Arguments are positional and 0-based:
`{0}` is `values["0"]`. What Java does with them, and what it cannot do with JSON values:

- a missing argument prints `{N}`, as MessageFormat prints an index past the arguments it was given;
  a null prints `null`;
- `{N}` with a number prints it in the locale's decimal format (grouping, at most three fraction
  digits, half-even rounding of the exact binary value); a string prints as it is;
- `number`, `choice`, `date` and `time` need a number (Java throws for a string); here a string that
  spells a decimal number is taken as one, and a date or time also accepts an ISO 8601 string (a
  number is milliseconds since 1970, as for `java.util.Date`). Anything else prints the argument's
  own text, as written. Dates are formatted in UTC with Babel's CLDR data, which is newer than Java
  17's: English times use a narrow no-break space before AM/PM, as Java 20 and later do;
- `number,currency` uses the currency of the locale's region, or of its likely region where Java,
  given a locale without a region, prints the generic sign `¤`.

`locale_spelling` is Java's bundle suffix: `pt_BR`, `zh_Hant_TW` (`messages_pt_BR.properties`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Value,
)
from parlance_i18n.locales import LocaleTag, babel_locale, likely_region
from parlance_i18n.messageformat import PluralUse

__all__ = ["JavaMessage", "PropertiesFormat", "compile_java_message"]

_BOM = "\ufeff"
_LINES = re.compile(r"(\r\n|\r|\n)")
_BLANK = " \t\f"  # what Properties.load skips at the start of a line: not \v, not Unicode spaces
_KEY_VALUE = re.compile(r"((?:[^\\=: \t\f]|\\.|\\$)*)([ \t\f]*(?:[=:][ \t\f]*)?)", re.S)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|(u)|(.)|$)", re.S)
_CONTROL = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_TRAILING_BACKSLASHES = re.compile(r"\\+$")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SIMPLE_PATTERN = re.compile(
    r"(?:[^{}']|\{[0-9]{1,9}(?:,(?:number|date|time)(?:,(?:integer|percent|currency|short|medium|long|full))?)?\})*")
"""Patterns that are certainly valid (no quote, simple arguments): reading checks them without parsing."""
_LEGACY_LANGUAGES = {"iw": "he", "in": "id", "ji": "yi"}
_U_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})")


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


def _decode(data: bytes) -> tuple[str, str, bool]:
    """(text without BOM, encoding, had a UTF-8 BOM): UTF-8 when valid, else ISO-8859-1 (Java 9+)."""
    if b"\x00" in data:
        raise CatalogFileError("the file holds NUL bytes, so it is UTF-16 or binary rather than a .properties "
                               "file (Java reads UTF-8 or ISO-8859-1): save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1", False
    if text.startswith(_BOM):
        return text[1:], "utf-8", True
    return text, "utf-8", False


def _scan(text: str, spans: bool) -> tuple[list[_Entry], list[str], set[int]]:
    """The entries of `text` in order, its natural lines' contents, and which lines are comments.

    Mirrors the JDK's `Properties.LineReader` and `load0`; with `spans`, also where each entry's key,
    value and last line are in `text` (a Document needs them; reading does not pay for them).
    """
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
    """`Properties.loadConvert`: raises ValueError for a malformed `\\uXXXX`, as Java does."""
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

    text = _ESCAPE.sub(replace, raw)
    if _SURROGATE.search(text):  # \uD83D\uDE00 is one character in Java
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
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


class PropertiesMessages(LocaleMessages):
    """One `.properties` file's messages: texts held, compiled into `JavaMessage`s on first use."""

    def __init__(self, texts: dict[str, str], comments: dict[str, str], problems: list[Problem],
                 tag: LocaleTag) -> None:
        self.texts = texts
        self.problems = problems
        self._comments = comments
        self._tag = tag
        self._compiled: dict[str, JavaMessage] = {}

    def text(self, key: str) -> Value | None:
        return self.texts.get(key)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        text = self.texts.get(key)
        if text is None:
            return default
        try:
            found = self._compiled[key] = compile_java_message(text, self._tag)
        except ValueError as error:  # validated when read; kept for texts that reach here otherwise
            del self.texts[key]
            self.problems.append(Problem(key, None, f"the message {error}"))
            return default
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __contains__(self, key: object) -> bool:
        return key in self.texts

    def comment(self, key: str) -> str | None:
        return self._comments.get(key)


def _read(data: bytes, tag: LocaleTag) -> PropertiesMessages:
    text, _, bom = _decode(data)
    entries, contents, comments = _scan(text, spans=False)
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
            problems.append(Problem(key, earlier, f"the key is defined again on line {line}; the later "
                                                  "value wins, as in java.util.Properties: delete one of them"))
            texts.pop(key, None)  # the later value takes the earlier one's place in file order
            notes.pop(key, None)
        lines[key] = line
        if "{" in value:
            try:
                if not _SIMPLE_PATTERN.fullmatch(value):  # validated now to be reported; compiled when used
                    _parse_pattern(value, tag)
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
    return PropertiesMessages(texts, notes, problems, tag)


# --- java.text.MessageFormat ---------------------------------------------------------------------------
#
# A pattern compiles into a tuple of parts: literal strings and elements. An element is a tuple
# (index, kind, style, source): kind None ({0}), "number" (style None, "integer", "percent",
# "currency" or a DecimalFormat pattern), "date"/"time" (a length or a SimpleDateFormat pattern), or
# "choice" (style: (limits, texts), a text being a str or, when it has a `{`, a compiled pattern).

_INDEX = re.compile(r"[+-]?\d+")
_JAVA_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)", re.A)
_DATE_LETTERS = frozenset("GyMdkHmsSEDFwWahKzZYuXL")
_LENGTHS = ("short", "medium", "long", "full")
_INT_MAX = 2**31 - 1
_ELEMENT_TYPES = ("", "number", "date", "time", "choice")
_NUMBER_STYLES = ("", "currency", "percent", "integer")


def _keyword(text: str, choices: tuple[str, ...]) -> str | None:
    """`MessageFormat.findKeyword`: exact, else trimmed (of chars <= U+0020) and lower-cased."""
    if text in choices:
        return text
    trimmed = _java_trim(text).lower()
    return trimmed if trimmed in choices else None


def _java_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def _parse_pattern(pattern: str, locale_tag: LocaleTag) -> tuple[Any, ...]:
    """`MessageFormat.applyPattern`: the parts of `pattern`; ValueError (a sentence) when Java throws."""
    parts: list[Any] = []
    raw: list[str] = []
    segments: list[list[str]] = [[], [], [], []]
    part = 0
    in_quote = False
    braces = 0
    start = 0
    length = len(pattern)
    i = 0
    while i < length:
        char = pattern[i]
        if part == 0:
            if char == "'":
                if i + 1 < length and pattern[i + 1] == "'":
                    raw.append("'")
                    i += 1
                else:
                    in_quote = not in_quote
            elif char == "{" and not in_quote:
                part = 1
                start = i
                segments = [[], [], [], []]
            else:
                raw.append(char)
        elif in_quote:  # quotes inside an element are kept for its style (a choice unquotes its texts)
            segments[part].append(char)
            if char == "'":
                in_quote = False
        elif char == ",":
            if part < 3:
                part += 1
            else:
                segments[part].append(char)
        elif char == "{":
            braces += 1
            segments[part].append(char)
        elif char == "}":
            if braces == 0:
                part = 0
                if raw:
                    parts.append("".join(raw))
                    raw = []
                parts.append(_element(["".join(s) for s in segments], pattern[start:i + 1], locale_tag))
            else:
                braces -= 1
                segments[part].append(char)
        elif char == " ":
            if part != 2 or segments[2]:  # spaces before the type are skipped
                segments[part].append(char)
        else:
            if char == "'":
                in_quote = True
            segments[part].append(char)
        i += 1
    if braces == 0 and part != 0:
        raise ValueError("has an unmatched brace: MessageFormat rejects it; close the argument with } or "
                         "quote a literal brace as '{'")
    # With braces still open inside an argument, Java silently drops that argument: so do we.
    if raw:
        parts.append("".join(raw))
    return tuple(parts)


def _element(segments: list[str], source: str, locale_tag: LocaleTag) -> tuple[Any, ...]:
    """`MessageFormat.makeFormat` for one `{index,type,style}`."""
    index_text, type_text, style = segments[1], segments[2], segments[3]
    if len(index_text) > 12 or not _INDEX.fullmatch(index_text) or abs(int(index_text)) > _INT_MAX:
        shown = index_text if len(index_text) <= 20 else index_text[:20] + "..."
        raise ValueError(f"has an argument {{{shown}}} that is not a number: MessageFormat arguments are "
                         "0-based positions such as {0}")
    index = int(index_text)
    if index < 0:
        raise ValueError(f"has a negative argument number {index}: MessageFormat arguments are 0-based")
    if not type_text:
        return (index, None, None, source)
    kind = _keyword(type_text, _ELEMENT_TYPES)
    if kind is None:
        shown = type_text if len(type_text) <= 20 else type_text[:20] + "..."
        raise ValueError(f"has an unknown format type {shown!r}: use number, date, time or choice")
    if kind == "":
        return (index, None, None, source)
    if kind == "number":
        keyword = _keyword(style, _NUMBER_STYLES)
        if keyword is None:
            _check_decimal_pattern(style)
            return (index, "number", style, source)
        return (index, "number", keyword or None, source)
    if kind in ("date", "time"):
        keyword = _keyword(style, ("", *_LENGTHS))
        if keyword is None:
            _check_date_pattern(style)
            return (index, kind, style, source)
        return (index, kind, keyword or "medium", source)
    return (index, "choice", _parse_choice(style, locale_tag), source)


def _parse_choice(pattern: str, locale_tag: LocaleTag) -> tuple[tuple[float, ...], tuple[Any, ...]]:
    """`ChoiceFormat.applyPattern`, then each text with a `{` compiled as MessageFormat does when it
    formats the choice (Java finds a broken one only then; here it is found when the file is read)."""
    limits: list[float] = []
    texts: list[str] = []
    segments: list[list[str]] = [[], []]
    part = 0
    start = 0.0
    previous = math.nan
    in_quote = False
    i = 0
    length = len(pattern)
    broken = "has a choice that MessageFormat rejects: write limit#text|limit<text, limits ascending"
    while i < length:
        char = pattern[i]
        if char == "'":
            if i + 1 < length and pattern[i + 1] == "'":
                segments[part].append(char)
                i += 1
            else:
                in_quote = not in_quote
        elif in_quote:
            segments[part].append(char)
        elif char in "<#\u2264":
            number = "".join(segments[0])
            if not number:
                raise ValueError(broken + " (a # or < inside a text must be quoted: '#')")
            if number == "\u221e":
                start = math.inf
            elif number == "-\u221e":
                start = -math.inf
            else:
                trimmed = _java_trim(number)
                if not _JAVA_DOUBLE.fullmatch(trimmed):
                    raise ValueError(broken)
                start = float(trimmed.rstrip("fFdD"))
            if char == "<" and not math.isinf(start):
                start = math.nextafter(start, math.inf)
            if start <= previous:
                raise ValueError(broken)
            segments[0] = []
            part = 1
        elif char == "|":
            limits.append(start)
            texts.append("".join(segments[1]))
            previous = start
            segments[1] = []
            part = 0
        else:
            segments[part].append(char)
        i += 1
    if part == 1:
        limits.append(start)
        texts.append("".join(segments[1]))
    if not limits:
        raise ValueError("has a choice without any option: write {0,choice,0#none|1#one|1<many}")
    compiled = tuple(_parse_pattern(text, locale_tag) if "{" in text else text for text in texts)
    return tuple(limits), compiled


def _check_decimal_pattern(pattern: str) -> None:
    """The `DecimalFormat` pattern mistakes Java rejects: two decimal separators, `#` after `0`
    in the integer digits, `0` after `#` in the fraction, two percent or per-mille signs."""
    subpattern = _unquoted(pattern).split(";", 1)[0]
    digits = re.search(r"[#0,.]+", subpattern)
    shown = pattern if len(pattern) <= 20 else pattern[:20] + "..."
    if digits is not None:
        number = digits.group()
        integer, _, fraction = number.partition(".")
        if "." in fraction or re.search(r"0[#,]*#", integer) or re.search(r"#0", fraction):
            raise ValueError(f"has a number pattern {shown!r} that Java's DecimalFormat rejects: digits go "
                             "#,##0.00 (# before 0 left of the point, 0 before # right of it)")
    if sum(_unquoted(pattern).count(sign) for sign in "%\u2030") > 1:
        raise ValueError(f"has a number pattern {shown!r} with more than one percent or per-mille sign")


def _check_date_pattern(pattern: str) -> None:
    if pattern.count("'") % 2:
        raise ValueError("has a date pattern with an unterminated quote: close it with '")
    for char in _unquoted(pattern):
        if char.isascii() and char.isalpha() and char not in _DATE_LETTERS:
            raise ValueError(f"has a date pattern with the letter {char!r}, which SimpleDateFormat rejects: "
                             "quote literal text as 'text'")


def _unquoted(pattern: str) -> str:
    return "".join(piece for number, piece in enumerate(pattern.split("'")) if number % 2 == 0)


def compile_java_message(text: str, tag: LocaleTag) -> JavaMessage:
    """The message `text` of locale `tag`; raises ValueError (what is wrong, to follow "the message")
    when MessageFormat would reject it. A text without `{` is plain and never rejected."""
    return JavaMessage(text, _parse_pattern(text, tag) if "{" in text else None, tag)


class JavaMessage:
    """A `.properties` message: `render` formats it as `MessageFormat.format` does (see the module)."""

    __slots__ = ("source", "_parts", "_tag")

    def __init__(self, source: str, parts: tuple[Any, ...] | None, tag: LocaleTag) -> None:
        self.source = source
        self._parts = parts
        self._tag = tag

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        if self._parts is None:
            return self.source[:limit]
        try:
            return _format(self._parts, values or {}, self._tag, limit)[:limit]
        except Exception:  # noqa: BLE001 - a renderer never raises: show the pattern rather than fail
            return self.source[:limit]

    @property
    def arguments(self) -> frozenset[str]:
        names: set[str] = set()
        if self._parts is not None:
            _collect(self._parts, names)
        return frozenset(names)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return ()  # ChoiceFormat chooses by numeric limits, not by CLDR categories

    def __repr__(self) -> str:
        return f"JavaMessage({self.source!r})"


def _collect(parts: tuple[Any, ...], names: set[str]) -> None:
    for part in parts:
        if part.__class__ is str:
            continue
        names.add(str(part[0]))
        if part[1] == "choice":
            for text in part[2][1]:
                if text.__class__ is not str:
                    _collect(text, names)


def _format(parts: tuple[Any, ...], values: Mapping[str, Any], tag: LocaleTag, limit: int) -> str:
    out: list[str] = []
    size = 0
    for part in parts:
        piece = part if part.__class__ is str else _format_element(part, values, tag, limit)
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    return "".join(out)


def _format_element(element: tuple[Any, ...], values: Mapping[str, Any], tag: LocaleTag, limit: int) -> str:
    index, kind, style, source = element
    key = str(index)
    if key not in values:
        return f"{{{index}}}"  # what MessageFormat prints for an index past its arguments
    value = values[key]
    if value is None:
        return "null"
    if kind is None:
        if value.__class__ is str:
            return value
        if value.__class__ is bool:
            return "true" if value else "false"
        if value.__class__ in (int, float, Decimal):
            return _format_number(value, None, tag)
        return source
    if kind == "date" or kind == "time":
        moment = _as_moment(value)
        return source if moment is None else _format_moment(moment, kind, style, tag)
    number = _as_number(value)
    if number is None:
        return source
    if kind == "number":
        return _format_number(number, style, tag)
    limits, texts = style
    try:
        selected = float(number)
    except OverflowError:
        selected = math.inf if number > 0 else -math.inf
    chosen = 0
    for position, bound in enumerate(limits):
        if not selected >= bound:
            break
        chosen = position
    text = texts[chosen]
    return text if text.__class__ is str else _format(text, values, tag, limit)


def _as_number(value: Any) -> int | float | Decimal | None:
    kind = value.__class__
    if kind is int or kind is Decimal:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is str and re.fullmatch(r"-?[0-9]{1,30}(?:\.[0-9]{1,30})?", value):
        return int(value) if "." not in value else Decimal(value)
    return None


def _format_number(number: int | float | Decimal, style: str | None, tag: LocaleTag) -> str:
    from babel.numbers import format_currency, format_decimal, format_percent

    if style is None and number.__class__ is int and 0 <= number < 1000:
        return str(number)
    locale = babel_locale(tag) or "en"
    # Java rounds the double's exact binary value (half-even): 0.0125 prints 0.013, as it is 0.01250000...069
    exact = Decimal(number) if number.__class__ is float else number
    if style is None:
        return str(format_decimal(exact, locale=locale))
    if style == "integer":
        return str(format_decimal(exact, format="#,##0", locale=locale))
    if style == "percent":
        return str(format_percent(exact, locale=locale))
    if style == "currency":
        return str(format_currency(exact, _currency(tag), locale=locale))
    return str(format_decimal(exact, format=style, locale=locale))


def _currency(tag: LocaleTag) -> str:
    from babel.numbers import get_territory_currencies

    region = likely_region(tag)
    found = get_territory_currencies(region) if region else []
    return found[0] if found else "XXX"


def _as_moment(value: Any) -> datetime | None:
    number = _as_number(value)
    if number is not None:
        try:
            return datetime.fromtimestamp(float(number) / 1000, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if value.__class__ is str and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return None


def _format_moment(moment: datetime, kind: str, style: str, tag: LocaleTag) -> str:
    from babel.dates import format_date, format_datetime, format_time

    locale = babel_locale(tag) or "en"
    if style in _LENGTHS:
        if kind == "date":
            return str(format_date(moment.date(), format=style, locale=locale))
        return str(format_time(moment, format=style, tzinfo=UTC, locale=locale))
    return str(format_datetime(moment, format=style, tzinfo=UTC, locale=locale))


# --- writing -------------------------------------------------------------------------------------------


class _Style:
    """How the file writes what it writes: encoding, escapes, line ending, separator."""

    def __init__(self, text: str, encoding: str) -> None:
        self.encoding = encoding
        newline = _LINES.search(text)
        self.newline = newline.group() if newline else "\n"
        # A file of plain ASCII is written as native2ascii writes: anything else as \uXXXX, which
        # every Java version reads. A file holding UTF-8 (or Latin-1) text gets that text as it is.
        self.ascii_only = text.isascii()
        escape = re.search(r"\\u[0-9A-Fa-f]{0,3}[A-Fa-f]", text)
        self.upper_hex = escape is None or not escape.group()[-1].islower()

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
                out.append(self._u(char))
            else:
                out.append(char)
        return "".join(out)

    def _holds(self, char: str) -> bool:
        if self.ascii_only:
            return char.isascii()
        if self.encoding == "latin-1":
            return char <= "\xff"
        return not "\ud800" <= char <= "\udfff"

    def _u(self, char: str) -> str:
        units = char.encode("utf-16-be", "surrogatepass")
        pattern = "\\u{:04X}" if self.upper_hex else "\\u{:04x}"
        return "".join(pattern.format(int.from_bytes(units[i:i + 2], "big")) for i in range(0, len(units), 2))


class PropertiesDocument(Document):
    """A `.properties` file being edited: its text, re-scanned after each change."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._text, self._encoding, self._bom = _decode(data)
        self._changed = False
        self._rescan()

    def _rescan(self) -> None:
        self._entries, self._contents, self._comments = _scan(self._text, spans=True)
        self._by_key: dict[str, list[_Entry]] = {}
        for entry in self._entries:
            try:
                key = _unescape(entry.raw_key)
            except ValueError:
                key = entry.raw_key
            self._by_key.setdefault(key, []).append(entry)

    def keys(self) -> list[str]:
        return list(self._by_key)

    def get(self, key: str) -> Value | None:
        found = self._by_key.get(key)
        if not found:
            return None
        try:
            return _unescape(found[-1].raw_value)
        except ValueError:
            return found[-1].raw_value

    def line_of(self, key: str) -> int | None:
        found = self._by_key.get(key)
        return found[-1].first + 1 if found else None

    def set(self, key: str, value: Value) -> None:
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .properties file; use add")
        if not isinstance(value, str):
            raise TypeError(f"a .properties message is text; got {type(value).__name__} for {key!r}")
        if self.get(key) == value:
            return
        entry = found[-1]  # the one Java reads
        style = _Style(self._text, self._encoding)
        written = self._continued(entry, value, style) if entry.last > entry.first else None
        if written is None:
            written = style.escape(value, key=False)
        if not entry.raw_value and entry.value_start == entry.end and self._text[entry.end - 1] not in "=: \t\f":
            written = self._file_separator() + written  # a key that had no separator gets one
        self._splice(entry.value_start, entry.end, written)

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

    def add(self, key: str, value: Value) -> None:
        if key in self._by_key:
            raise KeyError(f"{key!r} is already in this .properties file; use set")
        if not isinstance(value, str):
            raise TypeError(f"a .properties message is text; got {type(value).__name__} for {key!r}")
        style = _Style(self._text, self._encoding)
        after = _nearest_sibling(key, [(k, found[-1]) for k, found in self._by_key.items()])
        separator = self._separator(after) if after is not None else "="
        line = f"{style.escape(key, key=True)}{separator}{style.escape(value, key=False)}"
        end = len(self._text)
        if after is None:  # no entry yet: after whatever the file holds (comments)
            if not self._text or self._text.endswith(("\n", "\r")):
                self._splice(end, end, line + style.newline)
            else:
                self._splice(end, end, style.newline + line)
            return
        at = after.end
        if after.last + 1 < len(self._contents) and _odd_backslashes(self._contents[after.last]):
            at += len(style.newline) + len(self._contents[after.last + 1])  # past the blank line ending it
        self._splice(at, at, style.newline + line)

    def _separator(self, entry: _Entry) -> str:
        between = self._text[entry.key_start + len(entry.raw_key):entry.value_start]
        return between if between and "\n" not in between and "\r" not in between and "\\" not in between else "="

    def delete(self, key: str) -> None:
        found = self._by_key.get(key)
        if not found:
            raise KeyError(f"{key!r} is not in this .properties file")
        # Every definition goes (else an earlier one would come back); last first, so offsets hold.
        for entry in reversed(found):
            first = entry.first
            attached = _comment_above(self._contents, self._comments, first)
            if attached and self._owns_comment(entry, attached[0]):
                first = attached[0]
            start = self._line_start(first)
            end = self._line_start(entry.last + 1)
            if end >= len(self._text) and start > 0 and not self._text.endswith(("\n", "\r")):
                start -= len(self._eol_before(start))  # the file ends without a line break: keep it so
            self._text = self._text[:start] + self._text[end:]
            self._changed = True
            self._rescan()

    def _owns_comment(self, entry: _Entry, comment: int) -> bool:
        """Whether the comment starting on line `comment`, right above `entry`, is the entry's own: not
        when it stands after a blank line (or at the top) and the entry starts a run of uncommented
        entries, as a heading does."""
        following = entry.last + 1
        starts_run = any(other.first == following for other in self._entries)
        after_blank = comment == 0 or not self._contents[comment - 1].strip(_BLANK)
        return not (starts_run and after_blank)

    def _line_start(self, index: int) -> int:
        position = 0
        parts = _LINES.split(self._text)
        for number in range(min(index, len(parts[0::2]))):
            position += len(parts[2 * number]) + (len(parts[2 * number + 1]) if 2 * number + 1 < len(parts) else 0)
        return position

    def _eol_before(self, position: int) -> str:
        if self._text[:position].endswith("\r\n"):
            return "\r\n"
        return self._text[position - 1:position]

    def _splice(self, start: int, end: int, text: str) -> None:
        self._text = self._text[:start] + text + self._text[end:]
        self._changed = True
        self._rescan()

    def to_bytes(self) -> bytes:
        if not self._changed:
            return self._data
        return ((_BOM if self._bom else "") + self._text).encode(self._encoding)


def _odd_backslashes(line: str) -> bool:
    run = _TRAILING_BACKSLASHES.search(line)
    return run is not None and len(run.group()) % 2 == 1


def _nearest_sibling(key: str, entries: list[tuple[str, Any]]) -> Any:
    """The entry a new `key` goes after: the last of those sharing most of its leading dotted
    segments (`cart.total` goes after the last `cart.` key), else the last entry."""
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


# --- the format ----------------------------------------------------------------------------------------


class PropertiesFormat(CatalogFormat):
    """Java `.properties` resource bundles (`messages_pt_BR.properties`)."""

    name = "properties"
    suffixes = (".properties",)

    def read(self, data: bytes, tag: LocaleTag) -> LocaleMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> Document:
        return PropertiesDocument(data)

    def locale_spelling(self, tag: LocaleTag) -> str:
        """Java's bundle suffix (`ResourceBundle.Control.toBundleName`): `pt_BR`, `zh_Hant_TW`."""
        return "_".join(part for part in (tag.language, tag.script, tag.region, *tag.variants) if part)

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt_BR`, `zh_Hant_TW`, and Java's old codes `iw`, `in`, `ji` (Hebrew, Indonesian, Yiddish)."""
        language, _, rest = text.partition("_")
        if language in _LEGACY_LANGUAGES:
            text = _LEGACY_LANGUAGES[language] + ("_" + rest if rest else "")
        if text == "no_NO_NY":  # Java's spelling of Norwegian Nynorsk
            text = "nn_NO"
        return super().parse_spelling(text)
