"""A `.stringsdict` entry rendered as Foundation's `String.localizedStringWithFormat` renders it.

An entry is a format (`%#@files@ in %#@folders@`) and, for each `%#@name@` variable it names, that
variable's forms by CLDR category. Arguments are positional, as `String(format:)` numbers them: each
specifier of the format, a `%#@name@` included, takes the next position unless it names one
(`%2$#@name@`). A variable's form is chosen by its count: `values[<its position>]`, else
`values[<its name>]`, else `values["count"]`; `zero` when the count is 0 and the variable has a
`zero` form (Foundation uses it in every language), else the count's CLDR category, else `other`.
The form replaces the variable and its own unnumbered specifiers (`%d`) print the variable's
argument, which the count fills when the caller gave no such position. Then the whole is formatted
with `printf` style "apple" (`%@`, `%lld`, ...). A `%#@name@` inside a form is not expanded (it
prints `values[name]` if given). `foundation_category` is that choice of category, which an
`.xcstrings` plural variation makes too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Container, Mapping
from typing import Any

from parlance_i18n.formats.apple.base import SIMPLE_FORMAT
from parlance_i18n.formats.base import Renderable
from parlance_i18n.icu.plurals import PluralRules, as_number

__all__ = ["VARIABLE", "EntryTexts", "PluralFormat", "entry_problem", "foundation_category"]

_SPEC = re.compile(
    r"%(?:([0-9]+)\$)?(?:#@([A-Za-z_][A-Za-z0-9_]*)@"
    r"|[-+ 0#']*(?:[0-9]+|\*)?(?:\.(?:[0-9]*|\*))?(?:hh|h|ll|l|q|z|t|j|L)?([a-zA-Z@%]))")
_CACHED_CHOICES = 64
"""Most combinations of forms one message keeps compiled (one per category for a single variable)."""
VARIABLE = re.compile(r"%(?:[0-9]+\$)?#@([A-Za-z_][A-Za-z0-9_]*)@")


_Forms = tuple[tuple[str, str], ...]
"""A variable's forms, (category, text), in file order."""
EntryTexts = tuple[str, tuple[tuple[str, _Forms], ...]]
"""An entry as read: its format and its variables with their forms."""


def foundation_category(count: Any, forms: Container[str], rules: PluralRules) -> str:
    """The plural category Foundation renders `count` with: `zero` for 0 when there is a zero form (in
    every language, whatever its plural rules say), else the count's CLDR category; `other` for a
    count that is no number."""
    number = as_number(count)
    if number is None:
        return "other"
    return "zero" if number == 0 and "zero" in forms else rules.cardinal(number)


def _pieces(format_text: str) -> tuple[list[str | tuple[str, int]], list[str]]:
    """The format cut into text (unnumbered specifiers given their positions) and (variable,
    position) pieces, and the positions of its other specifiers."""
    pieces: list[str | tuple[str, int]] = []
    positions: list[str] = []
    ordinary = 0
    at = 0
    for match in _SPEC.finditer(format_text):
        if match.group(3) == "%":
            continue
        if match.group(1):
            position = int(match.group(1))
        else:
            ordinary += 1
            position = ordinary
        pieces.append(format_text[at:match.start()])
        if match.group(2):
            pieces.append((match.group(2), position))
        else:
            pieces.append("%" + (f"{position}$" if not match.group(1) else "") + match.group()[1:])
            positions.append(str(position))
        at = match.end()
    pieces.append(format_text[at:])
    return pieces, positions


def _own_positions(form: str, position: int) -> str:
    """A form whose unnumbered specifiers print its variable's argument (`%d` -> `%2$d`)."""
    def number(match: re.Match[str]) -> str:
        if match.group(1) or match.group(2) or match.group(3) == "%":
            return match.group()
        return f"%{position}$" + match.group()[1:]

    return _SPEC.sub(number, form) if "%" in form else form


class PluralFormat:
    """A compiled entry: chooses each variable's form by its count, then formats the whole."""

    __slots__ = ("_cache", "_forms", "_pieces", "_positions", "_rules", "_variables", "source")

    def __init__(self, texts: EntryTexts, rules: PluralRules) -> None:
        format_text, variables = texts
        self._forms = {name: dict(forms) for name, forms in variables}
        self._pieces, self._positions = _pieces(format_text)
        self._variables = [piece for piece in self._pieces if isinstance(piece, tuple)]
        self._rules = rules
        self._cache: dict[tuple[str, ...], Renderable] = {}
        # What a reader recognises: the format with each variable's "other" form, as written.
        self.source = VARIABLE.sub(lambda found: self._forms.get(found.group(1), {}).get("other", found.group()),
                                    format_text)

    def _template(self, choices: tuple[str, ...]) -> str:
        out = []
        chosen = iter(choices)
        for piece in self._pieces:
            if isinstance(piece, str):
                out.append(piece)
            else:
                name, position = piece
                out.append(_own_positions(self._forms[name][next(chosen)], position))
        return "".join(out)

    def compiled(self, choices: tuple[str, ...]) -> Renderable:
        """The printf message for one choice of forms (raises ValueError when one is invalid)."""
        found = self._cache.get(choices)
        if found is None:
            from parlance_i18n.formats.shared.printf import compile_printf

            if len(self._cache) >= _CACHED_CHOICES:
                self._cache.clear()
            found = self._cache[choices] = compile_printf(self._template(choices), style="apple")
        return found

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        choices = []
        filled: dict[str, Any] = {}
        for name, position in self._variables:
            count = values.get(str(position))
            if count is None:
                count = values.get(name)
                if count is None:
                    count = values.get("count")
                if count is not None:
                    filled[str(position)] = count
            forms = self._forms[name]
            category = foundation_category(count, forms, self._rules)
            choices.append(category if category in forms else "other")
        try:
            compiled = self.compiled(tuple(choices))
        except ValueError:  # validated when read; a form refused now prints nothing rather than raise
            return ""
        return compiled.render({**values, **filled} if filled else values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        found = set(self._positions) | {"count"}
        for name, position in self._variables:
            found.add(str(position))
            for form in self._forms[name].values():
                found.update(match.group(1) for match in re.finditer(r"%([0-9]+)\$", _own_positions(form, position)))
        return frozenset(found)

    @property
    def plurals(self) -> tuple[Any, ...]:
        from parlance_i18n.icu.messageformat import PluralUse

        names = {name for name, _ in self._variables}
        if len(names) == 1:
            return (PluralUse("count", False, frozenset(self._forms[next(iter(names))])),)
        return tuple(PluralUse(name, False, frozenset(self._forms[name])) for name in sorted(names))


def entry_problem(texts: EntryTexts) -> str | None:
    """Why Foundation cannot render the entry `texts` (a variable without an `other` form, a variable
    the format names but the entry does not define, a specifier Foundation refuses), or None."""
    format_text, variables = texts
    defined = {name for name, _ in variables}
    for name, forms in variables:
        if not any(category == "other" for category, _ in forms):
            return f"its variable {name!r} has no 'other' form, which Foundation needs; add one"
    around, positions = _format_parts(format_text)
    for name in positions:
        if name not in defined:
            return f"its format names the variable {name!r}, which it does not define"
    from parlance_i18n.formats.shared.printf import compile_printf

    # Specifiers are checked one form at a time: combinations grow as 6 ** variables.
    texts_to_check = [around]
    for name, forms in variables:
        position = positions.get(name, 1)
        for _, text in forms:
            # A form of common specifiers numbered for its variable has common specifiers still
            # (`%d` -> `%2$d`), which are valid: only another form is numbered and compiled.
            if "%" in text and not (1 <= position <= _SIMPLE_POSITIONS and SIMPLE_FORMAT.fullmatch(text)):
                texts_to_check.append(_own_positions(text, position))
    try:
        for text in texts_to_check:
            if "%" in text and not SIMPLE_FORMAT.fullmatch(text):
                compile_printf(text, style="apple")
    except ValueError as error:
        return str(error)
    return None


_SIMPLE_POSITIONS = 999
"""The highest position `SIMPLE_FORMAT` accepts (`%999$d`)."""


@functools.lru_cache(maxsize=256)
def _format_parts(format_text: str) -> tuple[str, dict[str, int]]:
    """A format's text around its variables, and each variable's position (the last, where it is
    named twice), in the order they are first named; the few formats of a file are cut once each."""
    pieces, _ = _pieces(format_text)
    positions = {piece[0]: piece[1] for piece in pieces if isinstance(piece, tuple)}
    return "".join(piece for piece in pieces if isinstance(piece, str)), positions
