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
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.shared.intl_rules import (
    IntlError,
    adjust_widths,
    currency_spacing,
    digit_options,
    min_grouping,
    plural_operand_of,
    round_digits,
    skeleton_fields,
    string_option,
)
from parlance_i18n.formats.shared.js_values import js_string, js_to_number, js_truthy
from parlance_i18n.icu.dates import COMPONENT_LETTERS, HOUR_CYCLE_LETTER
from parlance_i18n.locales import LocaleTag, babel_locale

if TYPE_CHECKING:
    from babel import Locale

    from parlance_i18n.icu.plurals import PluralRules

__all__ = ["Intl", "IntlError", "intl_for", "plural_category"]


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
        self.min_grouping = min_grouping(tag)

    # --- numbers -------------------------------------------------------------------------------------

    def number(self, value: Any, options: Mapping[str, Any], style: str | None = None,
               mode: str = ROUND_HALF_UP) -> str:
        """`Intl.NumberFormat(locale, options).format(value)`; `mode` is how it rounds (half away from zero;
        RelativeTimeFormat's numbers round half to even)."""
        number = js_to_number(value)
        style = style or string_option(options, "style", ("decimal", "percent", "currency", "unit"), "decimal")
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
        display = string_option(options, "currencyDisplay", ("code", "symbol", "narrowSymbol", "name"), "symbol")
        sign = string_option(options, "currencySign", ("standard", "accounting"), "standard")
        sign_display = string_option(options, "signDisplay",
                                      ("auto", "never", "always", "exceptZero", "negative"), "auto")
        grouping = self._grouping(options)
        rounding = (*digit_options(options, style, currency), mode)
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
            prefix, suffix = currency_spacing(prefix, suffix, symbol, body)
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
        category = self.rules.cardinal(plural_operand_of(abs(number), rounding))
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
            whole, fraction = round_digits(abs(exact), rounding)
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
        date_style = string_option(options, "dateStyle", styles, None)
        time_style = string_option(options, "timeStyle", styles, None)
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
            pattern = adjust_widths(str(available[matched].pattern), skeleton_fields(skeleton), skeleton_fields(matched))
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
            chosen = string_option(options, field, tuple(letters), None)
            if chosen:
                skeleton += letters[chosen]
        if "j" in skeleton:
            cycle = string_option(options, "hourCycle", ("h11", "h12", "h23", "h24"), None)
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
        style = string_option(options, "style", ("long", "short", "narrow"), "long")
        string_option(options, "numeric", ("always", "auto"), "always")  # validated; "auto" renders as always
        fields = self.locale._data["date_fields"]
        direction = "past" if number < 0 or (number == 0 and math.copysign(1.0, number) < 0) else "future"
        shown = self.number(abs(number), {}, mode=ROUND_HALF_EVEN)
        category = self.rules.cardinal(plural_operand_of(abs(number), (1, "fraction", 0, 3, ROUND_HALF_EVEN)))
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
        kind = string_option(options, "type", ("conjunction", "disjunction", "unit"), "conjunction")
        style = string_option(options, "style", ("long", "short", "narrow"), "long")
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
