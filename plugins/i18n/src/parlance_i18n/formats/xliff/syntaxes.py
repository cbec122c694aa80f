"""What a framework writes inside XLIFF units, beside XLIFF's own inline codes, and how a file shows it.

- `symfony`: Symfony's translator: `%name%` / `{{ name }}` parameters and `|` plurals (`symfony`
  module). Its `+intl-icu` domains (`messages+intl-icu.fr.xlf`) are `symfony-icu`.
- `symfony-icu`: every unit is ICU MessageFormat, formatted by PHP's `MessageFormatter` (ICU4C),
  whose parameters Symfony passes without their `%` or braces (`%name%` fills `{name}`).
- `angular`: `ng extract-i18n` files: interpolations and elements are inline codes
  (`<x id="INTERPOLATION" equiv-text="{{ name }}"/>`, `<x id="START_TAG_SPAN"/>`), and a unit holding
  `{` is an ICU message (`{VAR_PLURAL, plural, =0 {...} other {...}}`) whose branches hold codes too.
- `plain` (and no syntax): the text as written, inline codes shown as their equivalents.

Unset, a file's syntax is told from what only that framework writes (`detect`): a `+intl-icu` file
name; the header `<tool tool-id="symfony">` that `translation:extract` writes; Angular's file
`original="ng2.template"` (`ng.template` in XLIFF 2), `datatype="html"` units with `<context-group
purpose="location">`, or its placeholder ids (`INTERPOLATION`, `VAR_PLURAL`, `VAR_SELECT`).

ICU messages are parsed with their inline codes set aside (each becomes one private-use character,
so an `equiv-text="{{ name }}"` cannot break the ICU syntax), rendered, and the codes put back: an
Angular interpolation as the value of the variable its `equiv-text` names (or of its id), else as its
equivalent text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from parlance_i18n.formats.shared.xmledit import split_markup
from parlance_i18n.formats.shared.xmltext import attributes
from parlance_i18n.formats.xliff.units import CODE_WITH_CONTENT
from parlance_i18n.icu.messageformat import Message, PluralUse, compile_message, value_text
from parlance_i18n.icu.plurals import PluralRules

__all__ = ["ANGULAR", "ICU_SYNTAXES", "PLAIN", "SYMFONY", "SYMFONY_ICU", "IcuUnitMessage", "compile_icu", "detect",
           "resolve", "set_codes_aside"]

SYMFONY, SYMFONY_ICU, ANGULAR, PLAIN = "symfony", "symfony-icu", "angular", "plain"
ICU_SYNTAXES = frozenset({SYMFONY_ICU, ANGULAR})

_INTL_ICU_DOMAIN = "+intl-icu."
_SYMFONY_TOOL = re.compile(rb"""<(?:[\w.-]+:)?tool\b[^>]*\btool-id\s*=\s*["']symfony["']""")
_ANGULAR_FILE = re.compile(rb"""\boriginal\s*=\s*["']ng2?\.template["']""")
_ANGULAR_IDS = re.compile(rb"""\bid\s*=\s*["'](?:INTERPOLATION|VAR_PLURAL|VAR_SELECT)|\{VAR_(?:PLURAL|SELECT)\b""")
_CODE_BASE = 0xF0000
"""Inline codes set aside become characters from here on (Supplementary Private Use Area-A)."""
_EXPRESSION = re.compile(r"\{\{\s*([A-Za-z_$][\w$.]*)\s*\}\}")


def detect(file_name: str, head: Callable[[], bytes]) -> str | None:
    """The syntax a file shows without doubt (by its name, then its first bytes), or None."""
    if _INTL_ICU_DOMAIN in file_name:
        return SYMFONY_ICU
    data = head()
    if _SYMFONY_TOOL.search(data):
        return SYMFONY
    if _ANGULAR_FILE.search(data) or _ANGULAR_IDS.search(data) or (
            b'datatype="html"' in data and b'purpose="location"' in data):
        return ANGULAR
    return None


def resolve(setting: str | None, file_name: str, head: Callable[[], bytes]) -> str | None:
    """The syntax a file is read in: the catalog's setting (`symfony` files of an `+intl-icu` domain
    are ICU, as Symfony reads them), else the one the file shows; None for none."""
    if setting == PLAIN:
        return None
    if setting == SYMFONY and _INTL_ICU_DOMAIN in file_name:
        return SYMFONY_ICU
    return setting if setting is not None else detect(file_name, head)


def set_codes_aside(text: str, version: int) -> tuple[str, tuple[str, ...]]:
    """`text` with each inline code (an XLIFF element as the value writes it) replaced by one
    private-use character, and the codes in order."""
    if "<" not in text:
        return text, ()
    codes: list[str] = []
    out: list[str] = []
    for kind, piece in split_markup(text, opaque=CODE_WITH_CONTENT if version == 1 else ()):
        if kind == "text":
            out.append(piece)
        else:
            out.append(chr(_CODE_BASE + len(codes)))
            codes.append(piece)
    return "".join(out), tuple(codes)


def _variable_names(code: str) -> tuple[str, ...]:
    """The variables that fill an inline code: the expression its `equiv-text` interpolates
    (`{{ name }}` -> `name`), then its id."""
    start = code[:code.index(">") + 1] if ">" in code else code
    found = attributes(start)
    names = []
    expression = _EXPRESSION.fullmatch(found.get("equiv-text", "").strip())
    if expression is not None:
        names.append(expression.group(1))
    if "id" in found:
        names.append(found["id"])
    return tuple(names)


class IcuUnitMessage:
    """An ICU message inside a unit, its inline codes set aside: `arguments` are its ICU arguments as
    written (`{name}`) and its codes' ids; `plurals` its ICU plurals."""

    __slots__ = ("_codes", "_ids", "_inner", "_shown", "_strip_names", "source")

    def __init__(self, source: str, inner: Message | None, codes: tuple[str, ...], shown: tuple[str, ...],
                 ids: frozenset[str], *, strip_names: bool, aside: str = "") -> None:
        self.source = source
        self._inner = inner if inner is not None else aside  # text without ICU: shown as it is
        self._codes = codes
        self._shown = shown
        self._ids = ids
        self._strip_names = strip_names

    @property
    def arguments(self) -> frozenset[str]:
        if isinstance(self._inner, str):
            return self._ids
        return self._ids | frozenset(f"{{{name}}}" for name in self._inner.arguments)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return () if isinstance(self._inner, str) else self._inner.plurals

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        if self._strip_names:  # Symfony passes `%name%` and `{name}` parameters as `name`
            values = {(key.strip("%{} ") if key[:1] in ("%", "{") else key): value for key, value in values.items()}
        text = self._inner if isinstance(self._inner, str) else self._inner.render(values, limit)
        if self._codes:
            text = "".join(self._code_text(ord(char) - _CODE_BASE, values) if _CODE_BASE <= ord(char) <
                           _CODE_BASE + len(self._codes) else char for char in text)
        return text[:max(limit, 0)]

    def _code_text(self, index: int, values: Mapping[str, Any]) -> str:
        for name in _variable_names(self._codes[index]):
            if name in values:
                shown = value_text(values[name])
                if shown is not None:
                    return shown
        return self._shown[index]


def compile_icu(text: str, version: int, rules: PluralRules, show: Callable[[str], tuple[str, frozenset[str]]], *,
                symfony: bool) -> IcuUnitMessage:
    """A unit's text as an ICU message. `symfony`: as Symfony's `MessageFormatter` reads every message
    of an `+intl-icu` domain, even one without `{` (`''` is then one apostrophe), its parameters given
    without `%` or braces; else as Angular writes ICU, in a text holding `{` only. `show` gives an
    inline code's plain-text form and ids. Raises `MessageSyntaxError`."""
    aside, codes = set_codes_aside(text, version)
    shown: list[str] = []
    ids: set[str] = set()
    for code in codes:
        code_shown, code_ids = show(code)
        shown.append(code_shown)
        ids.update(code_ids)
    inner = compile_message(aside, rules) if symfony or "{" in aside or "}" in aside else None
    return IcuUnitMessage(text, inner, codes, tuple(shown), frozenset(ids), strip_names=symfony, aside=aside)
