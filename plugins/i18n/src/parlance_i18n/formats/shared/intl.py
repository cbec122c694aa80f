"""JavaScript's `Intl` for the formats whose reference runs in JavaScript: what i18next's
`{{value, number}}`, `currency`, `datetime`, `relativetime` and `list` formats print.

`Intl` emulates `Intl.NumberFormat`, `DateTimeFormat`, `RelativeTimeFormat`, `ListFormat` and
`PluralRules` for one locale from Babel's CLDR data, as far as that data allows (the class says what
differs); an option `Intl` would reject raises `IntlError`, as V8 throws a RangeError or TypeError.
`plural_category` is `Intl.PluralRules.select`, with the number as JavaScript sees it.
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import re
import unicodedata
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.shared.js_values import js_string, js_to_number, js_truthy
from parlance_i18n.icu.dates import COMPONENT_LETTERS, HOUR_CYCLE_LETTER
from parlance_i18n.locales import LocaleTag, babel_locale, cldr_parent

if TYPE_CHECKING:
    from babel import Locale

    from parlance_i18n.icu.plurals import PluralRules

__all__ = ["Intl", "IntlError", "intl_for", "plural_category"]


class IntlError(Exception):
    """What `Intl` throws (RangeError, TypeError): i18next then keeps the value unformatted."""


def plural_category(count: Any, ordinal: bool, rules: PluralRules) -> str:
    """`Intl.PluralRules.select(count)`: the number as Intl sees it, rounded to 3 fraction digits."""
    number = js_to_number(count)
    if not math.isfinite(number):
        return "other"
    operand: int | Decimal
    if number == int(number):
        operand = int(number)
    else:
        with localcontext(prec=400):
            exact = Decimal(repr(number))
            if exact.as_tuple().exponent < -3:  # type: ignore[operator]
                exact = exact.quantize(Decimal("0.001"), ROUND_HALF_UP)
            exact = exact.normalize()
            operand = int(exact) if exact == exact.to_integral_value() else exact
    return rules.ordinal(operand) if ordinal else rules.cardinal(operand)


# --- Intl ---------------------------------------------------------------------------------------------

# Numbering systems CLDR makes a locale's default, by the code point of their zero.
_ZEROS = {"arab": 0x660, "arabext": 0x6F0, "beng": 0x9E6, "deva": 0x966, "mymr": 0x1040, "tibt": 0xF20,
          "olck": 0x1C50, "mtei": 0xABF0, "adlm": 0x1E950, "nkoo": 0x7C0, "rohg": 0x10D30, "hmnp": 0x1E140,
          "gujr": 0xAE6, "guru": 0xA66, "knda": 0xCE6, "mlym": 0xD66, "orya": 0xB66, "tamldec": 0xBE6,
          "telu": 0xC66, "thai": 0xE50, "laoo": 0xED0, "khmr": 0x17E0, "java": 0xA9D0, "fullwide": 0xFF10}
# CLDR's minimumGroupingDigits (numbers.json), which Babel's data does not carry: these locales write
# 1234 ungrouped and group from 10 000 on (es except Latin America, pt except Brazil and Angola).
_MIN_GROUPING_TWO = frozenset({"be", "bg", "es", "et", "hu", "hy", "ia", "ie", "it", "ka", "lv", "pl", "sl", "sq"})
_MIN_GROUPING_TWO_REGIONS = {"pt": frozenset({"CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "PT", "ST", "TL"}),
                             "ru": frozenset({"UA"})}
_UNITS = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
_LIST_STYLES = {("conjunction", "long"): "standard", ("conjunction", "short"): "standard-short",
                ("conjunction", "narrow"): "standard-narrow", ("disjunction", "long"): "or",
                ("disjunction", "short"): "or-short", ("disjunction", "narrow"): "or-narrow",
                ("unit", "long"): "unit", ("unit", "short"): "unit-short", ("unit", "narrow"): "unit-narrow"}


@functools.lru_cache(maxsize=64)
def intl_for(tag: LocaleTag) -> Intl:
    return Intl(tag)


class Intl:
    """`Intl.NumberFormat`, `DateTimeFormat`, `RelativeTimeFormat`, `ListFormat` and `PluralRules` for one
    locale, from Babel's CLDR data, as far as that data allows.

    Matches Intl (Node 20, CLDR 48) for: decimal, percent and currency numbers with the fraction,
    integer and significant digit options, grouping (with CLDR's minimum grouping digits), sign display
    and the locale's own digits; dates with the default or component options; relative times with
    `numeric: "always"`; lists. Differs: `notation` other than standard, `style: "unit"` and
    `currencyDisplay: "narrowSymbol"` render as standard / as the value / as the symbol; relative times
    with `numeric: "auto"` say "in 1 day", not "tomorrow" (Babel has no such phrases); dates format in UTC
    unless `timeZone` is given (Intl: the process's zone); `dateStyle` with `timeStyle` joins them with
    CLDR's plain pattern ("{1}, {0}") where ICU may use "{1} 'at' {0}"; Spanish lists keep "y" before an
    "i" sound (ICU writes "e").
    """

    def __init__(self, tag: LocaleTag) -> None:
        from babel import Locale

        from parlance_i18n.icu.plurals import plural_rules

        self.tag = tag
        self.rules = plural_rules(tag)
        self.locale: Locale = babel_locale(tag) or Locale("en")
        system = self.locale.default_numbering_system or "latn"
        symbols = self.locale.number_symbols
        self.symbols = symbols[system] if system in symbols else symbols["latn"]
        zero = _ZEROS.get(system)
        self.digits = str.maketrans("0123456789", "".join(chr(zero + i) for i in range(10))) if zero else None
        self.min_grouping = _min_grouping(tag)

    # --- numbers -------------------------------------------------------------------------------------

    def number(self, value: Any, options: Mapping[str, Any], style: str | None = None,
               mode: str = ROUND_HALF_UP) -> str:
        """`Intl.NumberFormat(locale, options).format(value)`; `mode` is how it rounds (half away from zero;
        RelativeTimeFormat's numbers round half to even)."""
        number = js_to_number(value)
        style = style or _string_option(options, "style", ("decimal", "percent", "currency", "unit"), "decimal")
        currency = options.get("currency")
        if currency is not None:
            currency = js_string(currency)
            if not re.fullmatch("[A-Za-z]{3}", currency):
                raise IntlError(f"invalid currency code {currency!r}")
            currency = currency.upper()
        if style == "currency" and currency is None:
            raise IntlError("currency style needs a currency")
        if style == "unit":
            raise IntlError("unit style is not emulated")
        display = _string_option(options, "currencyDisplay", ("code", "symbol", "narrowSymbol", "name"), "symbol")
        sign = _string_option(options, "currencySign", ("standard", "accounting"), "standard")
        sign_display = _string_option(options, "signDisplay",
                                      ("auto", "never", "always", "exceptZero", "negative"), "auto")
        grouping = self._grouping(options)
        rounding = (*_digit_options(options, style, currency), mode)
        if style == "currency" and display == "name":
            return self._currency_name(number, currency or "", rounding, grouping)
        if style == "percent":
            pattern = self.locale.percent_formats[None]
        elif style == "currency":
            pattern = self.locale.currency_formats["accounting" if sign == "accounting" else "standard"]
        else:
            pattern = self.locale.decimal_formats[None]
        body, negative, zero = self._digits(number, style == "percent", rounding, pattern.grouping, grouping)
        if math.isnan(number) or sign_display == "never":
            form = "positive"
        elif sign_display == "auto":
            form = "negative" if negative else "positive"
        elif sign_display == "always":
            form = "negative" if negative else "plus"
        elif sign_display == "exceptZero":
            form = "positive" if zero else ("negative" if negative else "plus")
        else:
            form = "negative" if negative and not zero else "positive"
        index = 0 if form == "positive" else 1
        prefix, suffix = pattern.prefix[index], pattern.suffix[index]
        if form == "plus":
            prefix, suffix = prefix.replace("-", "+"), suffix.replace("-", "+")
        symbol = ""
        if style == "currency" and currency is not None:
            symbol = currency if display == "code" else self._currency_symbol(currency)
        prefix, suffix = self._affix(prefix, symbol), self._affix(suffix, symbol)
        if symbol and body[:1].isdigit() or symbol and body[-1:].isdigit():
            prefix, suffix = _currency_spacing(prefix, suffix, symbol, body)
        return prefix + body + suffix

    def _currency_symbol(self, currency: str) -> str:
        from babel.numbers import get_currency_symbol

        return str(get_currency_symbol(currency, self.locale))

    def _currency_name(self, number: float, currency: str, rounding: tuple[Any, ...],
                       grouping: int | None) -> str:
        from babel.numbers import get_currency_name

        pattern = self.locale.decimal_formats[None]
        body, negative, _ = self._digits(number, False, rounding, pattern.grouping, grouping)
        shown = (self._affix(pattern.prefix[1], "") if negative else "") + body
        category = self.rules.cardinal(_plural_operand_of(abs(number), rounding))
        name = get_currency_name(currency, 2 if category != "one" else 1, self.locale)
        units = self.locale._data["currency_unit_patterns"]
        template = units.get(category) or units.get("other") or "{0} {1}"
        return str(template).replace("{0}", shown).replace("{1}", str(name))

    def _grouping(self, options: Mapping[str, Any]) -> int | None:
        """The least number of digits before the first group separator, or None for no grouping."""
        if "useGrouping" not in options:
            return self.min_grouping
        value = options["useGrouping"]
        if value is True:
            return 1
        if not js_truthy(value):
            return None
        text = js_string(value)
        if text in ("true", "false", "auto"):
            return self.min_grouping
        if text == "always":
            return 1
        if text == "min2":
            return 2
        raise IntlError(f"invalid useGrouping {text!r}")

    def _digits(self, number: float, percent: bool, rounding: tuple[Any, ...], sizes: tuple[int, int],
                grouping: int | None) -> tuple[str, bool, bool]:
        """(the number's digits with separators, whether it is negative, whether it shows as zero)."""
        symbols = self.symbols
        if math.isnan(number):
            return str(symbols.get("nan", "NaN")), False, False
        if math.isinf(number):
            return str(symbols.get("infinity", "∞")), number < 0, False
        with localcontext(prec=1000):
            exact = Decimal(repr(number))
            if percent:
                exact = exact.scaleb(2)
            negative = exact.is_signed()
            whole, fraction = _round(abs(exact), rounding)
        whole = whole.rjust(rounding[0], "0")
        first, rest = sizes
        if grouping is not None and 0 < first < len(whole) and len(whole) >= first + grouping:
            groups = [whole[-first:]]
            head = whole[:-first]
            while len(head) > rest > 0:
                groups.append(head[-rest:])
                head = head[:-rest]
            groups.append(head)
            whole = str(symbols.get("group", ",")).join(reversed(groups))
        body = whole + (str(symbols.get("decimal", ".")) + fraction if fraction else "")
        if self.digits is not None:
            body = body.translate(self.digits)
        zero = not any(c in "123456789" for c in whole + fraction)
        return body, negative, zero

    def _affix(self, affix: str, symbol: str) -> str:
        if not affix:
            return affix
        symbols = self.symbols
        out = []
        for char in re.sub(r"'([^']*)'", lambda m: m.group(1) or "'", affix):
            if char == "-":
                out.append(str(symbols.get("minusSign", "-")))
            elif char == "+":
                out.append(str(symbols.get("plusSign", "+")))
            elif char == "%":
                out.append(str(symbols.get("percentSign", "%")))
            elif char == "‰":
                out.append(str(symbols.get("perMille", "‰")))
            elif char == "¤":
                out.append(symbol)
            else:
                out.append(char)
        return "".join(out)

    # --- dates, relative times, lists ----------------------------------------------------------------

    def datetime(self, value: Any, options: Mapping[str, Any]) -> str:
        from babel.dates import format_date, format_time

        number = js_to_number(value)
        if not math.isfinite(number) or abs(number) > 8.64e15:
            raise IntlError("Invalid time value")
        zone: _dt.tzinfo = _dt.UTC
        if options.get("timeZone") is not None:
            from zoneinfo import ZoneInfo

            try:
                zone = ZoneInfo(js_string(options["timeZone"]))
            except (ValueError, OSError, LookupError) as error:
                raise IntlError(f"invalid time zone: {error}") from None
        moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(milliseconds=math.trunc(number))
        styles = ("full", "long", "medium", "short")
        date_style = _string_option(options, "dateStyle", styles, None)
        time_style = _string_option(options, "timeStyle", styles, None)
        skeleton = self._skeleton(options)
        if date_style or time_style:
            if skeleton:
                raise IntlError("dateStyle and timeStyle cannot be combined with other date options")
            local = moment.astimezone(zone)
            date = format_date(local, date_style, locale=self.locale) if date_style else None
            time = format_time(moment, time_style, tzinfo=zone, locale=self.locale) if time_style else None
            if date and time:
                joined = str(self.locale.datetime_formats[date_style]).replace("{1}", date).replace("{0}", time)
            else:
                joined = date or time or ""
        else:
            joined = self._skeleton_text(skeleton or "yMd", moment, zone)
        joined = str(joined).replace("\u202f", " ")  # V8 writes a plain space where CLDR has U+202F
        return joined.translate(self.digits) if self.digits is not None else joined

    def _skeleton_text(self, skeleton: str, moment: _dt.datetime, zone: _dt.tzinfo) -> str:
        """A moment by a skeleton, as ICU's DateTimePatternGenerator picks and adjusts the pattern (with
        V8's option that hours take the requested width); a skeleton CLDR has no pattern for is split
        into its date and time parts, joined by the locale's date-time pattern."""
        from babel.dates import format_datetime, match_skeleton

        available = self.locale.datetime_skeletons
        matched = skeleton if skeleton in available else match_skeleton(skeleton, available)
        if matched is not None:
            pattern = _adjust_widths(str(available[matched].pattern), _fields(skeleton), _fields(matched))
            return str(format_datetime(moment, pattern, tzinfo=zone, locale=self.locale))
        date = "".join(c for c in skeleton if c in _DATE_LETTERS)
        time = "".join(c for c in skeleton if c not in _DATE_LETTERS)
        if not date or not time:
            raise IntlError(f"no pattern for {skeleton!r}")
        style = "full" if "MMMM" in date and "E" in date else "long" if "MMMM" in date else \
            "medium" if "MMM" in date else "short"
        template = str(self.locale.datetime_formats[style])
        return template.replace("{1}", self._skeleton_text(date, moment, zone)).replace(
            "{0}", self._skeleton_text(time, moment, zone))

    def _skeleton(self, options: Mapping[str, Any]) -> str:
        skeleton = ""
        for field, letters in _SKELETON_LETTERS.items():
            chosen = _string_option(options, field, tuple(letters), None)
            if chosen:
                skeleton += letters[chosen]
        if "j" in skeleton:
            cycle = _string_option(options, "hourCycle", ("h11", "h12", "h23", "h24"), None)
            hour12 = options.get("hour12")
            if hour12 is not None:
                letter = "h" if js_truthy(hour12) else "H"
            elif cycle:
                letter = HOUR_CYCLE_LETTER[cycle]
            else:
                short_time = str(self.locale.time_formats["short"].pattern)
                letter = next((c for c in "hHKk" if c in short_time), "H")
            skeleton = skeleton.replace("j", letter)
        return skeleton

    def relativetime(self, value: Any, options: Mapping[str, Any]) -> str:
        number = js_to_number(value)
        if not math.isfinite(number):
            raise IntlError("relative time needs a finite number")
        unit = js_string(options.get("range") or "day")
        if unit.endswith("s") and unit[:-1] in _UNITS:
            unit = unit[:-1]
        if unit not in _UNITS:
            raise IntlError(f"invalid unit {unit!r}")
        style = _string_option(options, "style", ("long", "short", "narrow"), "long")
        _string_option(options, "numeric", ("always", "auto"), "always")  # validated; "auto" renders as always
        fields = self.locale._data["date_fields"]
        direction = "past" if number < 0 or (number == 0 and math.copysign(1.0, number) < 0) else "future"
        shown = self.number(abs(number), {}, mode=ROUND_HALF_EVEN)
        category = self.rules.cardinal(_plural_operand_of(abs(number), (1, "fraction", 0, 3, ROUND_HALF_EVEN)))
        template = None
        for name in ((f"{unit}-{style}",) if style != "long" else ()) + (unit,):  # a short style inherits
            patterns = fields.get(name, {}).get(direction)
            if patterns:
                template = patterns.get(category) or patterns.get("other")
                break
        if template is None:
            raise IntlError(f"no relative time pattern for {unit!r}")
        return str(template).replace("{0}", shown)

    def list(self, value: Any, options: Mapping[str, Any]) -> str:
        from babel.lists import format_list

        if value.__class__ is str:
            items = list(value)
        elif value.__class__ in (list, tuple) and all(item.__class__ is str for item in value):
            items = list(value)
        else:
            raise IntlError("a list format needs a list of strings")
        kind = _string_option(options, "type", ("conjunction", "disjunction", "unit"), "conjunction")
        style = _string_option(options, "style", ("long", "short", "narrow"), "long")
        if not items:
            return ""
        return str(format_list(items, style=_LIST_STYLES[kind, style], locale=self.locale))  # type: ignore[arg-type]


# The options `{{value, datetime}}` takes, in the order the skeleton writes them, as the engine's table of
# V8's letters has them (`j`: the locale's hour cycle, settled once the options are read), with the offset
# time-zone names, which the engine's ICU date skeletons never ask for.
_SKELETON_LETTERS = {
    **{field: COMPONENT_LETTERS[field] for field in ("weekday", "year", "month", "day")},
    "hour": {"numeric": "j", "2-digit": "jj"},
    **{field: COMPONENT_LETTERS[field] for field in ("minute", "second")},
    "timeZoneName": {**COMPONENT_LETTERS["timeZoneName"], "shortOffset": "O", "longOffset": "OOOO"},
}
_DATE_LETTERS = frozenset("GyYuUrQqMLlwWdDFgEec")
_FIELD_KIND = {"L": "M", "c": "E", "e": "E", "h": "H", "K": "H", "k": "H", "Y": "y", "u": "y"}


def _fields(skeleton: str) -> dict[str, tuple[str, int]]:
    """Each field of a skeleton by kind (hours are one kind, whatever their cycle): (letter, width)."""
    found: dict[str, tuple[str, int]] = {}
    for run in re.finditer(r"([A-Za-z])\1*", skeleton):
        letter = run.group(1)
        found[_FIELD_KIND.get(letter, letter)] = (letter, len(run.group()))
    return found


def _numeric(letter: str, width: int) -> bool:
    if letter in "MLec":
        return width <= 2
    return letter in "yYudDHhKkmsSgFw"


def _adjust_widths(pattern: str, wanted: dict[str, tuple[str, int]], matched: dict[str, tuple[str, int]]) -> str:
    """ICU's adjustFieldTypes: a field takes the requested width when the matched skeleton wrote it at
    another width and both are numbers or both are words; hours always do; minutes and seconds never."""
    def adjust(run: re.Match[str]) -> str:
        token = run.group()
        if token.startswith("'"):
            return token
        letter, width = token[0], len(token)
        kind = _FIELD_KIND.get(letter, letter)
        if kind not in wanted or kind in ("m", "s"):
            return token
        wanted_letter, wanted_width = wanted[kind]
        if kind == "H":
            return letter * wanted_width
        matched_width = matched.get(kind, ("", 0))[1]
        if matched_width == wanted_width or _numeric(letter, width) != _numeric(wanted_letter, wanted_width):
            return token
        return letter * wanted_width

    return re.sub(r"'(?:[^']|'')*'|([A-Za-z])\1*", adjust, pattern)


def _min_grouping(tag: LocaleTag) -> int:
    if tag.language == "es":
        parent = cldr_parent(tag) if tag.region else None
        return 1 if tag.region == "419" or (parent is not None and parent.region == "419") else 2
    if tag.language in _MIN_GROUPING_TWO:
        return 2
    regions = _MIN_GROUPING_TWO_REGIONS.get(tag.language)
    if regions is not None and tag.region in regions:
        return 2
    return 3 if tag.language == "ee" else 1


def _string_option(options: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: Any) -> Any:
    value = options.get(name)
    if value is None:
        return default
    text = js_string(value)
    if text not in allowed:
        raise IntlError(f"invalid {name} {text!r}")
    return text


def _number_option(options: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = options.get(name)
    if value is None:
        return None
    number = js_to_number(value)
    if math.isnan(number) or not low <= number <= high:
        raise IntlError(f"{name} out of range")
    return math.floor(number)


def _digit_options(options: Mapping[str, Any], style: str, currency: str | None) -> tuple[Any, ...]:
    """(minimum integer digits, "fraction", min, max) or (minimum integer digits, "significant", min, max),
    resolved as `SetNumberFormatDigitOptions` resolves them."""
    integer = _number_option(options, "minimumIntegerDigits", 1, 21) or 1
    least_sig = _number_option(options, "minimumSignificantDigits", 1, 21)
    most_sig = _number_option(options, "maximumSignificantDigits", 1, 21)
    if least_sig is not None or most_sig is not None:
        least_sig = least_sig or 1
        most_sig = most_sig if most_sig is not None else 21
        if least_sig > most_sig:
            raise IntlError("minimumSignificantDigits is above maximumSignificantDigits")
        return integer, "significant", least_sig, most_sig
    if style == "currency":
        from babel.numbers import get_currency_precision

        default_least = default_most = get_currency_precision(currency or "XXX")
    else:
        default_least, default_most = 0, (0 if style == "percent" else 3)
    least = _number_option(options, "minimumFractionDigits", 0, 100)
    most = _number_option(options, "maximumFractionDigits", 0, 100)
    if least is None and most is None:
        least, most = default_least, default_most
    elif most is None:
        assert least is not None
        most = max(default_most, least)
    elif least is None:
        least = min(default_least, most)
    elif least > most:
        raise IntlError("minimumFractionDigits is above maximumFractionDigits")
    return integer, "fraction", least, most


def _round(value: Decimal, rounding: tuple[Any, ...]) -> tuple[str, str]:
    """(integer digits, fraction digits) of a non-negative value rounded half away from zero."""
    _, kind, least, most, mode = rounding
    if kind == "fraction":
        rounded = value.quantize(Decimal(1).scaleb(-most), mode)
        whole, _, fraction = f"{rounded:f}".partition(".")
        fraction = fraction.rstrip("0")
        return whole, fraction.ljust(least, "0")
    if value == 0:
        return "0", "0" * (least - 1)
    rounded = value.quantize(Decimal(1).scaleb(value.adjusted() - most + 1), mode)
    whole, _, fraction = f"{rounded.normalize():f}".partition(".")
    shown = len((whole + fraction).lstrip("0"))
    return whole, fraction + "0" * max(0, least - shown)


def _plural_operand_of(number: float, rounding: tuple[Any, ...]) -> int | Decimal:
    whole, fraction = _round(Decimal(repr(number)), rounding)
    return Decimal(f"{whole}.{fraction}") if fraction else int(whole)


def _currency_spacing(prefix: str, suffix: str, symbol: str, body: str) -> tuple[str, str]:
    """CLDR currencySpacing: a no-break space between a currency symbol ending (or starting) in a letter
    and the digits it touches (`CHF 1.00`, but `$1.00`)."""
    def letter_like(char: str) -> bool:
        category = unicodedata.category(char)
        return not category.startswith(("S", "Z"))

    if prefix.endswith(symbol) and body[:1].isdigit() and letter_like(symbol[-1]):
        prefix += "\u00a0"
    if suffix.startswith(symbol) and body[-1:].isdigit() and letter_like(symbol[0]):
        suffix = "\u00a0" + suffix
    return prefix, suffix
