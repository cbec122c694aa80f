"""What a message refers to, for the check tool: the names of its arguments and its plural uses.

`Message.facts()` reads them from a compiled message's steps (`steps_facts`); `message_facts(text)`
from one parse, without compiling.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlance_i18n.icu.compiler import PLURAL, SELECT, Steps
from parlance_i18n.icu.syntax import POUND, Parts, PluralArgument, SelectArgument, parse

__all__ = ["NO_FACTS", "Facts", "PluralUse", "message_facts", "steps_facts"]


@dataclass(frozen=True, slots=True)
class PluralUse:
    """One plural or selectordinal argument in a message, for the check tool."""

    argument: str
    ordinal: bool
    keywords: frozenset[str]


Facts = tuple[frozenset[str], tuple[PluralUse, ...]]
"""A message's argument names and plural uses (`Message.facts`)."""
NO_FACTS: Facts = (frozenset(), ())


def message_facts(text: str) -> Facts:
    """`compile_message(text, rules).facts()` from one parse, compiling nothing: the names of the
    arguments `text` uses and its plural uses. Raises `MessageSyntaxError` as `compile_message` does."""
    if "{" not in text and "}" not in text:
        return NO_FACTS
    names: set[str] = set()
    uses: list[PluralUse] = []
    _collect_parts(parse(text), names, uses)
    return frozenset(names), tuple(uses)


def steps_facts(steps: Steps) -> Facts:
    """The facts of a message compiled into `steps`."""
    names: set[str] = set()
    uses: list[PluralUse] = []
    _collect(steps, names, uses)
    return frozenset(names), tuple(uses)


def _collect_parts(parts: Parts, arguments: set[str], plurals: list[PluralUse]) -> None:
    """What `_collect` finds in the steps of `parts`, read from the syntax tree itself."""
    for part in parts:
        kind = part.__class__
        if kind is str or part is POUND:
            continue
        # The rest are nodes with a name; mypy narrows on `part.__class__`, not on `kind` (read once).
        arguments.add(part.name)  # type: ignore[union-attr]
        if kind is PluralArgument:
            plurals.append(PluralUse(part.name, part.ordinal, frozenset(part.cases)))  # type: ignore[union-attr]
            for branch in (*part.exact.values(), *part.cases.values()):  # type: ignore[union-attr]
                _collect_parts(branch, arguments, plurals)
        elif kind is SelectArgument:
            for branch in part.cases.values():  # type: ignore[union-attr]
                _collect_parts(branch, arguments, plurals)


def _collect(steps: Steps, arguments: set[str], plurals: list[PluralUse]) -> None:
    for step in steps:
        if step.__class__ is str or step is None:
            continue
        kind, name = step[0], step[1]
        arguments.add(name)
        if kind == PLURAL:
            _, _, ordinal, _, exact, keywords, branches, _ = step
            plurals.append(PluralUse(name, ordinal, frozenset(keywords)))
            for branch in (*(branch for _, branch in exact), *branches):
                _collect(branch, arguments, plurals)
        elif kind == SELECT:
            for branch in step[3]:
                _collect(branch, arguments, plurals)
