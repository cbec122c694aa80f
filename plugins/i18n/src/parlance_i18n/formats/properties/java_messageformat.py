"""`java.text.MessageFormat`, as Java formats a `.properties` message: compiled and checked as
`MessageFormat.applyPattern` does, rendered as `new MessageFormat(pattern, locale).format(arguments)`.

A message without `{` is plain and returned as written (`Don''t` keeps both apostrophes): Java
applies MessageFormat only when the application calls it, which applications do for messages that
take arguments, unless the application formats every message (Jenkins' localizer, Spring's
`alwaysUseMessageFormat`: `compile_java_message(..., always=True)`). A message with `{` is a pattern: `''` is one apostrophe, a lone `'` quotes what
follows (`It's {0}` prints `Its {0}`). `check_pattern` finds what `applyPattern` (and, for a
choice's texts, formatting) would reject: unmatched braces, a bad argument index, an unknown type, a
broken choice, number or date pattern; the reason is a sentence that follows "the message".

Arguments are positional and 0-based: `{0}` is `values["0"]`. What Java does with them, and what it
cannot do with JSON values:

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

A pattern compiles into a tuple of parts: literal strings and elements. An element is a tuple
(index, kind, style, source): kind None ({0}), "number" (style None, "integer", "percent",
"currency" or a DecimalFormat pattern), "date"/"time" (a length or a SimpleDateFormat pattern), or
"choice" (style: (limits, texts), a text being a str or, when it has a `{`, a compiled pattern).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from parlance_i18n.icu.messageformat import PluralUse
from parlance_i18n.locales import LocaleTag, babel_locale, likely_region

if TYPE_CHECKING:
    from parlance_i18n.formats.shared.conversions import Conversion

__all__ = ["JavaMessage", "argument_conversions", "check_pattern", "compile_java_message", "quotes_without_braces"]

_SIMPLE_PATTERN = re.compile(
    r"(?:[^{}']|\{[0-9]{1,9}(?:,(?:number|date|time)(?:,(?:integer|percent|currency|short|medium|long|full))?)?\})*")
"""Patterns that are certainly valid (no quote, simple arguments): reading checks them without parsing."""
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


def compile_java_message(text: str, tag: LocaleTag, *, always: bool = False) -> JavaMessage:
    """The message `text` of locale `tag`; raises ValueError (what is wrong, to follow "the message")
    when MessageFormat would reject it. A text without `{` is plain and never rejected, unless
    `always` (the application formats every message: `Don''t` prints `Don't`)."""
    return JavaMessage(text, _parse_pattern(text, tag) if always or "{" in text else None, tag)


def quotes_without_braces(text: str) -> int:
    """How many apostrophes of the pattern `text` MessageFormat takes as quotes and does not print, where
    the writer meant an apostrophe (`Don't` prints `Dont`; `''` prints one): a quote around no brace,
    or one left open to the end. A closed quote around a brace (`'{0}'`) is meant."""
    lost = 0
    depth = 0
    quoted: list[str] | None = None  # the text of the open quote, at the top level
    i = 0
    while i < len(text):
        char = text[i]
        if char == "'" and text[i + 1:i + 2] == "'":
            i += 2
            continue
        if char == "'" and depth == 0:
            if quoted is None:
                quoted = []
            else:
                lost += 0 if any(c in "{}" for c in quoted) else 2
                quoted = None
        elif quoted is not None:
            quoted.append(char)
        elif char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        i += 1
    if quoted is not None:  # a quote left open to the end is never meant (`It's {0}` prints `Its {0}`)
        lost += 1
    return lost


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
    source: str  # the element as written, shown where Java cannot format the argument
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
        return value  # type: ignore[no-any-return]
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


def check_pattern(text: str, tag: LocaleTag) -> None:
    """Raise ValueError (what is wrong, to follow "the message") when MessageFormat would reject the
    pattern `text`; most patterns are checked without parsing them."""
    if not _SIMPLE_PATTERN.fullmatch(text):
        _parse_pattern(text, tag)


_KINDS = {None: "any value", "number": "a number", "choice": "a number", "date": "a date", "time": "a date"}


def argument_conversions(text: str, tag: LocaleTag) -> list[Conversion]:
    """Each argument element of `text` with the type of value its format needs (`{0}` any value,
    `{0,number}` and `{0,choice,...}` a number, `{0,date}` and `{0,time}` a date), choices' texts
    included; ValueError when MessageFormat would reject `text`."""
    from parlance_i18n.formats.shared.conversions import Conversion

    if "{" not in text:
        return []
    found: list[Conversion] = []

    def collect(parts: tuple[Any, ...]) -> None:
        for part in parts:
            if part.__class__ is str:
                continue
            found.append(Conversion(str(part[0]), _KINDS[part[1]], part[3]))
            if part[1] == "choice":
                for choice in part[2][1]:
                    if choice.__class__ is not str:
                        collect(choice)

    collect(_parse_pattern(text, tag))
    return found
