"""Symfony's own message syntax inside XLIFF units, as its translator (`TranslatorTrait::trans`)
formats a message that is not in an `+intl-icu` domain.

- **Parameters** are plain text replaced as they are written: `%name%` (the convention for
  messages) and `{{ name }}` (the validators' convention), each given by the caller as
  `["%name%" => ...]`. Nothing else in the text is special.
- **Plurals** are chosen only when the parameters hold a numeric `%count%`. The message is cut at
  each `|` (`||` is a literal pipe) into parts; a part may start with an interval, `{0}`, `{1,2,3}`,
  `[2,Inf[`, `]1,10]`, `[-Inf,0]`, which takes the count it holds, or with a label (`one: `), which is
  dropped. The first interval holding the count wins; otherwise the parts without an interval are
  the locale's plural forms, in the order of Symfony's own rules (`_FORM_RULES`: French takes two,
  0 and 1 the first; Russian three; Japanese one). A message whose forms do not reach the position
  the rules give makes Symfony throw (`InvalidArgumentException`), unless it is a single part.

What breaks at run time, and so is refused on write (`plural_refusals`): a count no part can take
(too few forms for the locale, an interval that covers less than the source's), a part that starts
like an interval but is not one (Symfony then takes it as a form, shifting every form after it),
and forms beyond those the locale's rules choose (never shown).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from parlance_i18n.locales import LocaleTag

__all__ = ["PARAMETER", "SymfonyMessage", "form_count", "is_plural", "plural_refusals", "select"]

PARAMETER = re.compile(r"%[A-Za-z_][\w.\-]*%|\{\{ *[A-Za-z_][\w.\-]* *\}\}")
"""A parameter as Symfony messages write it: `%name%`, `{{ name }}`."""
_PARTS = re.compile(r"(?:\|\||[^|])+")
_NUMBER = r"-?\d+(?:\.\d+)?"
_INTERVAL = re.compile(
    rf"(?:\{{\s*(?P<set>{_NUMBER}(?:\s*,\s*{_NUMBER})*)\s*\}}"
    rf"|(?P<open>[\[\]])\s*(?P<left>-Inf|{_NUMBER})\s*,\s*(?P<right>\+?Inf|{_NUMBER})\s*(?P<close>[\[\]]))"
    r"\s*(?P<message>.*)", re.S)
_LOOKS_LIKE_INTERVAL = re.compile(r"[{\[\]]\s*(?:[-+]?\d|[-+]?Inf)")
_LABEL = re.compile(r"\w+:\s*(.*)", re.S)
_SAMPLED_COUNTS = range(200)
"""Counts whose form a plural is checked for: every rule below repeats its choice past 100 (they
look at the count's last two digits at most), so 0..199 meets each position a rule can give."""


# --- Symfony's plural rules (per language, from its translator) ----------------------------------------------


def _one_or_other(n: float) -> int:
    return 0 if n == 1 else 1


def _below_two(n: float) -> int:
    return 0 if n < 2 else 1


def _east_slavic(n: float) -> int:
    i = int(n)
    if i % 10 == 1 and i % 100 != 11:
        return 0
    return 1 if 2 <= i % 10 <= 4 and not 10 <= i % 100 < 20 else 2


def _czech(n: float) -> int:
    return 0 if n == 1 else 1 if 2 <= n <= 4 else 2


def _irish(n: float) -> int:
    return 0 if n == 1 else 1 if n == 2 else 2


def _lithuanian(n: float) -> int:
    i = int(n)
    if i % 10 == 1 and i % 100 != 11:
        return 0
    return 1 if i % 10 >= 2 and not 10 <= i % 100 < 20 else 2


def _slovenian(n: float) -> int:
    i = int(n) % 100
    return {1: 0, 2: 1, 3: 2, 4: 2}.get(i, 3)


def _macedonian(n: float) -> int:
    return 0 if int(n) % 10 == 1 else 1


def _maltese(n: float) -> int:
    i = int(n) % 100
    if n == 1:
        return 0
    if n == 0 or 1 < i < 11:
        return 1
    return 2 if 10 < i < 20 else 3


def _latvian(n: float) -> int:
    i = int(n)
    if n == 0:
        return 0
    return 1 if i % 10 == 1 and i % 100 != 11 else 2


def _polish(n: float) -> int:
    i = int(n)
    if n == 1:
        return 0
    return 1 if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14 else 2


def _welsh(n: float) -> int:
    return 0 if n == 1 else 1 if n == 2 else 2 if n in (8, 11) else 3


def _romanian(n: float) -> int:
    i = int(n) % 100
    if n == 1:
        return 0
    return 1 if n == 0 or 0 < i < 20 else 2


def _arabic(n: float) -> int:
    i = int(n) % 100
    if n in (0, 1, 2):
        return int(n)
    if 3 <= i <= 10:
        return 3
    return 4 if 11 <= i <= 99 else 5


def _languages(rule: Callable[[float], int], names: str) -> dict[str, Callable[[float], int]]:
    return dict.fromkeys(names.split(), rule)


_FORM_RULES: dict[str, Callable[[float], int]] = {
    **_languages(_one_or_other, "af bn bg ca da de el en en_US_POSIX eo es et eu fa fi fo fur fy gl gu ha he hu is it "
                                "ku lb ml mn mr nah nb ne nl nn no oc om or pa pap ps pt so sq sv sw ta te tk ur zu"),
    **_languages(_below_two, "am bh fil fr gun hi hy ln mg nso pt_BR ti wa"),
    **_languages(_east_slavic, "be bs hr ru sh sr uk"),
    **_languages(_czech, "cs sk"),
    "ga": _irish, "lt": _lithuanian, "sl": _slovenian, "mk": _macedonian, "mt": _maltese, "lv": _latvian,
    "pl": _polish, "cy": _welsh, "ro": _romanian, "ar": _arabic,
}
"""Which form (0-based) a count takes, by Symfony locale; any other locale has one form."""


def _symfony_locale(tag: LocaleTag) -> str:
    """The key Symfony looks its rules up by: the locale (`pt_BR`) without its last part, except
    `pt_BR` and `en_US_POSIX` and codes of three characters or fewer."""
    code = tag.code.replace("-", "_")
    if code not in ("pt_BR", "en_US_POSIX") and len(code) > 3:
        return code.rpartition("_")[0]
    return code


def _position(count: float, tag: LocaleTag) -> int:
    rule = _FORM_RULES.get(_symfony_locale(tag))
    return rule(abs(count)) if rule is not None else 0


def form_count(tag: LocaleTag) -> int:
    """How many forms Symfony's rules choose among for `tag`."""
    return max(_position(count, tag) for count in _SAMPLED_COUNTS) + 1


# --- parts ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Part:
    text: str
    takes: Callable[[float], bool] | None  # an interval's test of a count; None for a standard form
    broken_interval: bool = False


def _parts(message: str) -> list[_Part]:
    if message and not message.strip("|"):
        pieces = message.split("|")
    else:
        pieces = _PARTS.findall(message)
    parts = []
    for piece in pieces:
        piece = piece.replace("||", "|").strip()
        found = _INTERVAL.fullmatch(piece)
        if found is not None:
            parts.append(_Part(found["message"], _interval_test(found)))
            continue
        labelled = _LABEL.fullmatch(piece)
        text = labelled.group(1) if labelled is not None else piece
        parts.append(_Part(text, None, broken_interval=_LOOKS_LIKE_INTERVAL.match(piece) is not None))
    return parts


def _interval_test(found: re.Match[str]) -> Callable[[float], bool]:
    if found["set"] is not None:
        members = {float(n) for n in found["set"].split(",")}
        return lambda count: count in members
    left = -math.inf if found["left"] == "-Inf" else float(found["left"])
    right = math.inf if found["right"].lstrip("+") == "Inf" else float(found["right"])
    closed_left, closed_right = found["open"] == "[", found["close"] == "]"
    return lambda count: ((count >= left) if closed_left else (count > left)) and (
        (count <= right) if closed_right else (count < right))


def select(message: str, count: float, tag: LocaleTag) -> str | None:
    """The part of `message` Symfony shows for `count` (interval or label taken off), or None where
    it throws."""
    parts = _parts(message)
    forms = []
    for part in parts:
        if part.takes is None:
            forms.append(part.text)
        elif part.takes(count):
            return part.text
    position = _position(count, tag)
    if position < len(forms):
        return forms[position]
    if len(parts) == 1 and forms:
        return forms[0]
    return None


def is_plural(message: str) -> bool:
    """Whether `message` is written as a Symfony plural: parts cut at `|` with an interval or a
    `%count%` (a title such as `Home | Shop` is not one)."""
    if "|" not in message.replace("||", ""):
        return False
    return "%count%" in message or any(part.takes is not None or part.broken_interval for part in _parts(message))


def plural_refusals(message: str, tag: LocaleTag) -> list[str]:
    """Why Symfony would throw on `message`, or never show part of it, for `tag`: one sentence each."""
    parts = _parts(message)
    reasons = []
    for index, part in enumerate(parts):
        if part.broken_interval:
            reasons.append(f"part {index + 1} of the plural starts like an interval but is not one, so Symfony "
                           "takes it as a plural form and shifts the forms after it: write it as {0}, {1,2}, "
                           "[2,Inf[ or ]1,10] followed by the text")
    forms = sum(1 for part in parts if part.takes is None)
    needed = form_count(tag)
    failing = next((count for count in _SAMPLED_COUNTS if select(message, count, tag) is None), None)
    if failing is not None:
        reasons.append(f"has no form Symfony can show for a count of {failing}: {tag.code} takes {needed} plural "
                       f"form{'s' if needed > 1 else ''} (in Symfony's order, separated by |) beside the "
                       "intervals, and Symfony throws for a count that none covers")
    elif forms > needed and len(parts) > 1:
        reasons.append(f"has {forms} plural forms where Symfony's rules for {tag.code} choose among {needed}, so "
                       f"the form{'s' if forms - needed > 1 else ''} after form {needed} "
                       f"{'are' if forms - needed > 1 else 'is'} never shown: remove "
                       f"{'them' if forms - needed > 1 else 'it'}")
    return reasons


# --- rendering -----------------------------------------------------------------------------------------------


def _php_text(value: Any) -> str | None:
    """How PHP's `strtr` prints a parameter's value (None: not a value this renders)."""
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, int | float | Decimal | str):
        return str(value)
    return None


def _count_of(values: Mapping[str, Any]) -> float | None:
    """The numeric `%count%` that makes Symfony choose a plural form (`count` taken for it too)."""
    value = values.get("%count%", values.get("count"))
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float | Decimal):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


class SymfonyMessage:
    """A message rendered as Symfony's translator renders it: the plural part for `%count%`, then each
    parameter replaced by the value given under its own spelling (`%name%`) or its bare name (`name`).
    Its `arguments` are its parameters as written (`%name%`, `{{ name }}`) and its inline codes' ids."""

    __slots__ = ("_ids", "_shown", "_tag", "source")
    plurals: ClassVar[tuple[Any, ...]] = ()

    def __init__(self, source: str, shown: str, ids: frozenset[str], tag: LocaleTag) -> None:
        self.source = source
        self._shown = shown
        self._ids = ids
        self._tag = tag

    @property
    def arguments(self) -> frozenset[str]:
        return self._ids | frozenset(PARAMETER.findall(self._shown))

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        text = self._shown
        count = _count_of(values)
        if count is not None:
            chosen = select(text, count, self._tag)
            if chosen is not None:  # where Symfony throws, the message is shown whole
                text = chosen

        def replace(found: re.Match[str]) -> str:
            written = found.group()
            bare = written.strip("%{} ")
            value = values[written] if written in values else values.get(bare)
            shown = _php_text(value) if value is not None else None
            return written if shown is None else shown

        return PARAMETER.sub(replace, text)[:max(limit, 0)]
