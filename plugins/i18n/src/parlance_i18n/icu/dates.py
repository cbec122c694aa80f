"""Dates and times as FormatJS renders them, in UTC: `{t, date, medium}`, `{t, time, short}`,
`{t, date, ::yMMMd}`, with the value in milliseconds since the epoch.

FormatJS turns a style or a skeleton into `Intl.DateTimeFormat` options; V8 turns the options into
an ICU skeleton and asks ICU's DateTimePatternGenerator for the locale's best pattern. FormatJS's step is
`icu.skeletons.date_skeleton_options`; this module does V8's and ICU's with CLDR data from Babel
(`icu.cldr`):

- `DateFormatter(locale_id, options)`: V8's defaults and hour-cycle rules, then the pattern
  generator (field distance, field-width adjustment, a date and a time part joined by the locale's
  date-time glue when no single pattern has both);
- `format(ms)`: the pattern filled in for that instant in UTC (Parlance has no user time zone; the
  reference runs with TZ=UTC).

Like V8, every narrow no-break space (U+202F) in the output becomes a plain space ("3:04 PM").
Dates are Gregorian: Node uses a locale's default calendar where it is another (Persian for fa,
Buddhist for th). Where Node's CLDR differs from the CLDR that Babel packages, the output differs with it; in
particular CLDR's "at" glue for a long date with a time ("January 15, 2025 at 3:04 PM") is not
in Babel's data, so such a skeleton joins with the standard glue ("January 15, 2025, 3:04 PM").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from parlance_i18n.icu.cldr import cldr_data
from parlance_i18n.icu.skeletons import DateOptions

__all__ = ["COMPONENT_LETTERS", "DATE_STYLES", "HOUR_CYCLE_LETTER", "TIME_STYLES", "DateFormatter", "date_formatter",
           "instant", "locale_hour_char"]

DATE_STYLES: dict[str | None, DateOptions] = {
    None: (),
    "short": (("day", "numeric"), ("month", "numeric"), ("year", "2-digit")),
    "medium": (("day", "numeric"), ("month", "short"), ("year", "numeric")),
    "long": (("day", "numeric"), ("month", "long"), ("year", "numeric")),
    "full": (("day", "numeric"), ("month", "long"), ("weekday", "long"), ("year", "numeric")),
}
"""FormatJS's named date formats (`{t, date}` passes no options: the locale's numeric date)."""

TIME_STYLES: dict[str | None, DateOptions] = {
    "short": (("hour", "numeric"), ("minute", "numeric")),
    "medium": (("hour", "numeric"), ("minute", "numeric"), ("second", "numeric")),
    "long": (("hour", "numeric"), ("minute", "numeric"), ("second", "numeric"), ("timeZoneName", "short")),
    "full": (("hour", "numeric"), ("minute", "numeric"), ("second", "numeric"), ("timeZoneName", "short")),
}
TIME_STYLES[None] = TIME_STYLES["medium"]

# --- ICU's DateTimePatternGenerator ---------------------------------------------------------------------

_ERA, _YEAR, _QUARTER, _MONTH, _WEEK_OF_YEAR, _WEEK_OF_MONTH, _WEEKDAY, _DAY_OF_YEAR, _DAY_OF_WEEK_IN_MONTH, \
    _DAY, _DAYPERIOD, _HOUR, _MINUTE, _SECOND, _FRACTION, _ZONE = range(16)
_FIELDS = 16
_DATE_MASK = (1 << _DAYPERIOD) - 1
_TIME_MASK = (1 << _FIELDS) - 1 - _DATE_MASK
_NUMERIC, _NARROW, _SHORTER, _SHORT, _LONG, _DELTA = 0x100, -0x101, -0x102, -0x103, -0x104, 0x10
_EXTRA_FIELD, _MISSING_FIELD = 0x10000, 0x1000

# (letter, field, type, minimum length): ICU's table of pattern letters, in its order
_TYPES: tuple[tuple[str, int, int, int], ...] = (
    ("G", _ERA, _SHORT, 1), ("G", _ERA, _LONG, 4), ("G", _ERA, _NARROW, 5),
    ("y", _YEAR, _NUMERIC, 1), ("Y", _YEAR, _NUMERIC + _DELTA, 1), ("u", _YEAR, _NUMERIC + 2 * _DELTA, 1),
    ("r", _YEAR, _NUMERIC + 3 * _DELTA, 1), ("U", _YEAR, _SHORT, 1), ("U", _YEAR, _LONG, 4), ("U", _YEAR, _NARROW, 5),
    ("Q", _QUARTER, _NUMERIC, 1), ("Q", _QUARTER, _SHORT, 3), ("Q", _QUARTER, _LONG, 4), ("Q", _QUARTER, _NARROW, 5),
    ("q", _QUARTER, _NUMERIC + _DELTA, 1), ("q", _QUARTER, _SHORT - _DELTA, 3), ("q", _QUARTER, _LONG - _DELTA, 4),
    ("q", _QUARTER, _NARROW - _DELTA, 5),
    ("M", _MONTH, _NUMERIC, 1), ("M", _MONTH, _SHORT, 3), ("M", _MONTH, _LONG, 4), ("M", _MONTH, _NARROW, 5),
    ("L", _MONTH, _NUMERIC + _DELTA, 1), ("L", _MONTH, _SHORT - _DELTA, 3), ("L", _MONTH, _LONG - _DELTA, 4),
    ("L", _MONTH, _NARROW - _DELTA, 5), ("l", _MONTH, _NUMERIC + _DELTA, 1),
    ("w", _WEEK_OF_YEAR, _NUMERIC, 1), ("W", _WEEK_OF_MONTH, _NUMERIC, 1),
    ("E", _WEEKDAY, _SHORT, 1), ("E", _WEEKDAY, _LONG, 4), ("E", _WEEKDAY, _NARROW, 5), ("E", _WEEKDAY, _SHORTER, 6),
    ("c", _WEEKDAY, _NUMERIC + 2 * _DELTA, 1), ("c", _WEEKDAY, _SHORT - 2 * _DELTA, 3),
    ("c", _WEEKDAY, _LONG - 2 * _DELTA, 4), ("c", _WEEKDAY, _NARROW - 2 * _DELTA, 5),
    ("c", _WEEKDAY, _SHORTER - 2 * _DELTA, 6),
    ("e", _WEEKDAY, _NUMERIC + _DELTA, 1), ("e", _WEEKDAY, _SHORT - _DELTA, 3), ("e", _WEEKDAY, _LONG - _DELTA, 4),
    ("e", _WEEKDAY, _NARROW - _DELTA, 5), ("e", _WEEKDAY, _SHORTER - _DELTA, 6),
    ("d", _DAY, _NUMERIC, 1), ("g", _DAY, _NUMERIC + _DELTA, 1), ("D", _DAY_OF_YEAR, _NUMERIC, 1),
    ("F", _DAY_OF_WEEK_IN_MONTH, _NUMERIC, 1),
    ("a", _DAYPERIOD, _SHORT, 1), ("a", _DAYPERIOD, _LONG, 4), ("a", _DAYPERIOD, _NARROW, 5),
    ("b", _DAYPERIOD, _SHORT - _DELTA, 1), ("b", _DAYPERIOD, _LONG - _DELTA, 4), ("b", _DAYPERIOD, _NARROW - _DELTA, 5),
    ("B", _DAYPERIOD, _SHORT - 3 * _DELTA, 1), ("B", _DAYPERIOD, _LONG - 3 * _DELTA, 4),
    ("B", _DAYPERIOD, _NARROW - 3 * _DELTA, 5),
    ("H", _HOUR, _NUMERIC + 10 * _DELTA, 1), ("k", _HOUR, _NUMERIC + 11 * _DELTA, 1), ("h", _HOUR, _NUMERIC, 1),
    ("K", _HOUR, _NUMERIC + _DELTA, 1),
    ("m", _MINUTE, _NUMERIC, 1), ("s", _SECOND, _NUMERIC, 1), ("A", _SECOND, _NUMERIC + _DELTA, 1),
    ("S", _FRACTION, _NUMERIC, 1),
    ("v", _ZONE, _SHORT - 2 * _DELTA, 1), ("v", _ZONE, _LONG - 2 * _DELTA, 4), ("z", _ZONE, _SHORT, 1),
    ("z", _ZONE, _LONG, 4), ("Z", _ZONE, _NARROW - _DELTA, 1), ("Z", _ZONE, _LONG - _DELTA, 4),
    ("Z", _ZONE, _SHORT - _DELTA, 5), ("O", _ZONE, _SHORT - _DELTA, 1), ("O", _ZONE, _LONG - _DELTA, 4),
    ("V", _ZONE, _SHORT - _DELTA, 1), ("V", _ZONE, _LONG - _DELTA, 2), ("V", _ZONE, _LONG - 1 - _DELTA, 3),
    ("V", _ZONE, _LONG - 2 - _DELTA, 4), ("X", _ZONE, _NARROW - _DELTA, 1), ("X", _ZONE, _SHORT - _DELTA, 2),
    ("X", _ZONE, _LONG - _DELTA, 4), ("x", _ZONE, _NARROW - _DELTA, 1), ("x", _ZONE, _SHORT - _DELTA, 2),
    ("x", _ZONE, _LONG - _DELTA, 4),
)
_LETTERS = frozenset(row[0] for row in _TYPES)


def _row(field: str) -> tuple[str, int, int, int] | None:
    """ICU's FormatParser::getCanonicalIndex: the last row for the letter whose minimum length fits."""
    best = None
    for row in _TYPES:
        if row[0] == field[0]:
            if best is not None and row[3] > len(field):
                break
            best = row
        elif best is not None:
            break
    return best


def _fields(pattern: str) -> list[str]:
    """A pattern cut into runs of one letter, quoted literals (kept with their quotes) and other text."""
    parts: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "'":
            end = i + 1
            while end < len(pattern):
                if pattern[end] == "'":
                    if pattern.startswith("''", end):
                        end += 2
                        continue
                    break
                end += 1
            parts.append(pattern[i:end + 1])
            i = end + 1
        elif char in _LETTERS or char.isascii() and char.isalpha():
            end = i
            while end < len(pattern) and pattern[end] == char:
                end += 1
            parts.append(pattern[i:end])
            i = end
        else:
            parts.append(char)
            i += 1
    return parts


class _Skeleton:
    """ICU's PtnSkeleton: per field, the letters given and a type that encodes letter and width."""

    __slots__ = ("original", "type")

    def __init__(self, text: str) -> None:
        self.original: list[str] = [""] * _FIELDS
        self.type: list[int] = [0] * _FIELDS
        for field in _fields(text):
            row = _row(field) if field[0] in _LETTERS else None
            if row is None:
                continue
            letter, index, kind, _ = row
            self.original[index] = field
            self.type[index] = kind + len(field) if kind > 0 else kind
        hour = self.original[_HOUR][:1]
        if hour in ("h", "K"):  # a 12-hour cycle implies a day period
            if not self.original[_DAYPERIOD]:
                self.original[_DAYPERIOD] = "a"
                self.type[_DAYPERIOD] = _SHORT
        elif hour:
            self.original[_DAYPERIOD] = ""
            self.type[_DAYPERIOD] = 0

    def mask(self) -> int:
        return sum(1 << i for i in range(_FIELDS) if self.type[i])

    def distance(self, other: _Skeleton, include: int) -> tuple[int, int, int]:
        """(distance, missing fields, extra fields) from this (requested) skeleton to `other`."""
        result = missing = extra = 0
        for i in range(_FIELDS):
            mine = self.type[i] if include & (1 << i) else 0
            theirs = other.type[i]
            if mine == theirs:
                continue
            if mine == 0:
                result += _EXTRA_FIELD
                extra |= 1 << i
            elif theirs == 0:
                result += _MISSING_FIELD
                missing |= 1 << i
            else:
                result += abs(mine - theirs)
        return result, missing, extra


class _PatternGenerator:
    """A locale's patterns by skeleton, and ICU's getBestPattern over them."""

    def __init__(self, cldr: Mapping[str, Any], hour_char: str) -> None:
        self.hour_char = hour_char
        self.glue = {style: _text(cldr.get("datetime_formats", {}).get(style)) or "{1} {0}"
                     for style in ("full", "long", "medium", "short")}
        entries: dict[str, tuple[str, _Skeleton]] = {}
        for table in ("date_formats", "time_formats"):
            for style in ("full", "long", "medium", "short"):
                pattern = _text((cldr.get(table) or {}).get(style))
                if pattern:
                    entries.setdefault(_skeleton_key(pattern), (pattern, _Skeleton(pattern)))
        for key, value in (cldr.get("datetime_skeletons") or {}).items():
            pattern = _text(value)
            if pattern:
                entries[key] = (pattern, _Skeleton(key))
        for letter in "GyQMwWEDFdaHmsSv":  # ICU's canonical items, for single fields nothing else covers
            entries.setdefault(letter, (letter, _Skeleton(letter)))
        self.entries = list(entries.values())

    def best(self, requested: str) -> str:
        wanted = _Skeleton(requested)
        pattern, skeleton, _, missing, extra = self._best_raw(wanted, -1)
        if not missing and not extra:
            return self._adjust(pattern, wanted, skeleton)
        needed = wanted.mask()
        date = self._best_appending(wanted, needed & _DATE_MASK)
        time = self._best_appending(wanted, needed & _TIME_MASK)
        if not date or not time:
            return date or time
        month = wanted.original[_MONTH]
        # A field kept in `original` has a row, so `_row` is not None here.
        month_width = 1 if month and _row(month)[2] > 0 else len(month)  # type: ignore[index]
        if month_width == 4:
            style = "full" if wanted.original[_WEEKDAY] else "long"
        elif month_width == 3:
            style = "medium"
        else:
            style = "short"
        return _glue(self.glue[style], time, date)

    def _best_raw(self, wanted: _Skeleton, include: int) -> tuple[str, _Skeleton, int, int, int]:
        best: tuple[str, _Skeleton, int, int, int] | None = None
        for pattern, skeleton in self.entries:
            distance, missing, extra = wanted.distance(skeleton, include)
            if best is None or distance < best[2] or (distance == best[2] and best[3] < missing):
                best = (pattern, skeleton, distance, missing, extra)
                if distance == 0:
                    break
        assert best is not None
        return best

    def _best_appending(self, wanted: _Skeleton, fields: int) -> str:
        if not fields:
            return ""
        pattern, skeleton, _, missing, _ = self._best_raw(wanted, fields)
        result = self._adjust(pattern, wanted, skeleton)
        last = 0
        while missing and missing != last:  # ICU appends what no pattern covered ("{0} {1}" here)
            last = missing
            pattern, skeleton, _, missing, _ = self._best_raw(wanted, missing)
            result = f"{result} {self._adjust(pattern, wanted, skeleton)}"
        return result

    def _adjust(self, pattern: str, wanted: _Skeleton, found: _Skeleton) -> str:
        """ICU's adjustFieldTypes: the found pattern's fields widened to the requested widths."""
        out: list[str] = []
        for field in _fields(pattern):
            row = _row(field) if field[0] in _LETTERS else None
            if row is None or not wanted.type[row[1]]:
                out.append(field)
                continue
            letter, index, kind, _ = row
            requested = wanted.original[index]
            requested_char, requested_len = requested[0], len(requested)
            if requested_char == "E" and requested_len < 3:
                requested_len = 3
            width = requested_len
            if index in (_MINUTE, _SECOND):  # V8 asks ICU to match the hour's width only
                width = len(field)
            elif requested_char not in ("c", "e"):
                found_len = len(found.original[index])
                pattern_numeric = kind > 0
                found_numeric = found.type[index] > 0
                if found_len == requested_len or pattern_numeric != found_numeric:
                    width = len(field)
            if index in (_HOUR, _MONTH, _WEEKDAY) or (index == _YEAR and requested_char != "Y"):
                char = field[0]
            else:
                char = requested_char
            if char == "E" and width < 3:
                char = "e"
            if index == _HOUR:
                default = self.hour_char
                if requested_char == default:
                    char = default
                elif (requested_char, default) in (("h", "K"), ("H", "k"), ("k", "H"), ("K", "h")):
                    char = default
            out.append(char * width)
        return "".join(out)


def _text(value: Any) -> str:
    if value is None:
        return ""
    return str(getattr(value, "pattern", value))


def _skeleton_key(pattern: str) -> str:
    return "".join(field for field in _fields(pattern) if field[0] in _LETTERS and not field.startswith("'"))


def _glue(pattern: str, time: str, date: str) -> str:
    return pattern.replace("{0}", "\x00").replace("{1}", date).replace("\x00", time)


# --- V8's Intl.DateTimeFormat ------------------------------------------------------------------------------

# Also what `formats.intl` (i18next's `{{value, datetime}}`) builds its skeletons from: one table of V8's.
HOUR_CYCLE_LETTER = {"h11": "K", "h12": "h", "h23": "H", "h24": "k"}
_CYCLE = {"K": "h11", "h": "h12", "H": "h23", "k": "h24"}
COMPONENT_LETTERS = {  # an Intl.DateTimeFormat option's values -> the skeleton letters V8 asks ICU for
    "weekday": {"narrow": "EEEEE", "short": "EEE", "long": "EEEE"},
    "era": {"narrow": "GGGGG", "short": "G", "long": "GGGG"},
    "year": {"2-digit": "yy", "numeric": "y"},
    "month": {"2-digit": "MM", "numeric": "M", "narrow": "MMMMM", "short": "MMM", "long": "MMMM"},
    "day": {"2-digit": "dd", "numeric": "d"},
    "minute": {"2-digit": "mm", "numeric": "m"},
    "second": {"2-digit": "ss", "numeric": "s"},
    "timeZoneName": {"short": "z", "long": "zzzz"},
}
_COMPONENTS = ("weekday", "era", "year", "month", "day", "hour", "minute", "second", "timeZoneName")


def locale_hour_char(cldr: Mapping[str, Any]) -> str:
    """The hour letter of the locale's short time pattern: its default hour cycle (h, H, K or k)."""
    pattern = _text((cldr.get("time_formats") or {}).get("short"))
    for field in _fields(pattern):
        if field[0] in "hHKk":
            return field[0]
    return "H"


class DateFormatter:
    """Formats instants in one locale with one set of options, as Node's Intl.DateTimeFormat does in UTC."""

    __slots__ = ("pattern", "_cldr", "_digits", "_parts")

    def __init__(self, locale_id: str, options: DateOptions) -> None:
        from parlance_i18n.icu.number_data import numbering_digits

        cldr = cldr_data(locale_id)
        self._cldr = cldr
        self._digits = numbering_digits(cldr)
        default_char = locale_hour_char(cldr)
        given = dict(options)
        if not any(given.get(name) for name in ("weekday", "year", "month", "day", "hour", "minute", "second")):
            given.update(year="numeric", month="numeric", day="numeric")  # ECMA-402 ToDateTimeOptions
        cycle = None
        if given.get("hour"):
            default = _CYCLE[default_char]
            hour12 = given.get("hour12")
            if hour12 is not None:  # V8 (Node 20) keeps the pre-2023 rule
                cycle = ("h11" if default in ("h11", "h23") else "h12") if hour12 else \
                    ("h23" if default in ("h11", "h23") else "h24")
            else:
                cycle = given.get("hourCycle") or default
        skeleton = ""
        for name in _COMPONENTS:
            value = given.get(name)
            if not value:
                continue
            if name == "hour":
                letter = HOUR_CYCLE_LETTER[cycle or "h23"]
                skeleton += letter * (2 if value == "2-digit" else 1)
            else:
                skeleton += COMPONENT_LETTERS[name].get(value, "")
        pattern = _generator(locale_id, default_char).best(skeleton)
        if cycle is not None:
            pattern = _replace_hour_cycle(pattern, HOUR_CYCLE_LETTER[cycle])
        self.pattern = pattern
        self._parts = tuple(_fields(pattern))

    def format(self, moment: datetime) -> str:
        """The instant (a UTC datetime) in this formatter's pattern."""
        out: list[str] = []
        for field in self._parts:
            if field.startswith("'"):
                out.append("'" if field == "''" else field[1:-1].replace("''", "'"))
            elif field[0] in _LETTERS:
                out.append(self._field(field, moment))
            else:
                out.append(field)
        return "".join(out).replace("\u202f", " ")  # V8 prints every narrow no-break space as a space

    def _number(self, value: int, width: int) -> str:
        text = str(value).rjust(width, "0")
        return text.translate(self._digits) if self._digits else text

    def _field(self, field: str, moment: datetime) -> str:
        char, size = field[0], len(field)
        cldr = self._cldr
        if char == "G":
            width = "abbreviated" if size <= 3 else "wide" if size == 4 else "narrow"
            return _name(cldr, "eras", width, 1 if moment.year > 0 else 0)
        if char in "yY":
            if size == 2:
                return self._number(moment.year % 100, 2)
            return self._number(moment.year, size)
        if char in "ML":
            if size <= 2:
                return self._number(moment.month, size)
            width = {3: "abbreviated", 4: "wide"}.get(size, "narrow")
            context = "format" if char == "M" else "stand-alone"
            return _name(cldr, "months", context, width, moment.month)
        if char == "d":
            return self._number(moment.day, size)
        if char in "Eec":
            width = {4: "wide", 5: "narrow", 6: "short"}.get(size, "abbreviated")
            context = "stand-alone" if char == "c" else "format"
            return _name(cldr, "days", context, width, moment.weekday())
        if char in "abB":
            width = {4: "wide", 5: "narrow"}.get(size, "abbreviated")
            period = "am" if moment.hour < 12 else "pm"
            return _name(cldr, "day_periods", "format", width, period)
        if char == "h":
            return self._number(moment.hour % 12 or 12, size)
        if char == "H":
            return self._number(moment.hour, size)
        if char == "K":
            return self._number(moment.hour % 12, size)
        if char == "k":
            return self._number(moment.hour or 24, size)
        if char == "m":
            return self._number(moment.minute, size)
        if char == "s":
            return self._number(moment.second, size)
        if char == "S":
            return self._number(moment.microsecond // 1000, 3)[:size].ljust(size, "0")
        if char in "zZOvVXx":
            if size >= 4:
                names = (cldr.get("time_zones") or {}).get("Etc/UTC") or {}
                long_name = (names.get("long") or {}).get("standard")
                if long_name:
                    return str(long_name)
            return "UTC"
        return field


def _name(cldr: Mapping[str, Any], section: str, *keys: Any) -> str:
    """A name from a CLDR section (months, days, eras, day periods); a width the locale lacks falls
    back to the abbreviated, then the wide one."""
    data: Any = cldr.get(section) or {}
    for key in keys:
        if not isinstance(data, Mapping):
            return ""
        found = data.get(key)
        if found is None and key in ("short", "narrow"):
            found = data.get("abbreviated") or data.get("wide")
        if found is None and key == "stand-alone":
            found = data.get("format")
        data = found
    return "" if data is None else str(data)


def _replace_hour_cycle(pattern: str, letter: str) -> str:
    out = []
    quoted = False
    for char in pattern:
        if char == "'":
            quoted = not quoted
        elif not quoted and char in "hHKk":
            char = letter
        out.append(char)
    return "".join(out)


@functools.lru_cache(maxsize=64)
def _generator(locale_id: str, hour_char: str) -> _PatternGenerator:
    return _PatternGenerator(cldr_data(locale_id), hour_char)


@functools.lru_cache(maxsize=512)
def date_formatter(locale_id: str, options: DateOptions) -> DateFormatter:
    """The formatter for these options in this locale (a Babel identifier such as `pt_BR`)."""
    return DateFormatter(locale_id, options)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def instant(milliseconds: float) -> datetime | None:
    """The UTC datetime of a JavaScript time value (ms since the epoch, truncated as Date does), or
    None when it is not a valid date (beyond ±8.64e15 ms) or outside what Python's datetime holds."""
    if not milliseconds == milliseconds or abs(milliseconds) > 8.64e15:
        return None
    try:
        return _EPOCH + timedelta(milliseconds=int(milliseconds))
    except OverflowError:
        return None
