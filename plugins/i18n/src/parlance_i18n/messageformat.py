"""Compiled messages: ICU MessageFormat parsed once, rendered by closures chosen for the message's shape.

`compile_message(text, rules)` returns a `Message` whose `render(values, limit)`:

- looks variables up by name only: no attribute, index or format-spec access, ever;
- substitutes each value once: a value that contains `{x}` is printed as is, never re-expanded;
- renders only JSON scalars (str, int, float, bool) and Decimals; a missing value, `None`, or any
  other object leaves the argument's own text (`{name}`) in place;
- never produces more than `limit` characters, and stops building output as soon as it would;
- never raises.

Three shapes are compiled differently because the hot path matters: plain text (returned as is),
text with `{name}` arguments only (one loop, no per-part calls), and everything else (a tree of
closures returning strings, with the common plural-of-a-small-integer case inlined).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from parlance_i18n.icu_syntax import (
    Argument,
    MessageSyntaxError,
    NumberArgument,
    POUND,
    Parts,
    PluralArgument,
    SelectArgument,
    parse,
)
from parlance_i18n.plurals import PluralRules, as_number

__all__ = ["Message", "MessageSyntaxError", "PluralUse", "compile_message", "value_text"]

_NAMES_ONLY = re.compile(r"(?:[^{}]|\{[\w.\-]+\})*")
_NAME_TOKEN = re.compile(r"\{([\w.\-]+)\}")

Values = Mapping[str, Any]
Renderer = Callable[[Values | None, int], str]

_NO_VALUES: Values = {}


@dataclass(frozen=True, slots=True)
class PluralUse:
    """One plural or selectordinal argument in a message, for the check tool."""

    argument: str
    ordinal: bool
    keywords: frozenset[str]


class Message:
    """A compiled message: its source text, its renderer, and what it refers to.

    A plain slotted class rather than a frozen dataclass: bundles build tens of thousands of these,
    and a frozen dataclass's `__init__` costs several times more. Treat instances as immutable.
    """

    __slots__ = ("source", "render", "arguments", "plurals")

    def __init__(self, source: str, render: Renderer, arguments: frozenset[str],
                 plurals: tuple[PluralUse, ...] = ()) -> None:
        self.source = source
        self.render = render
        self.arguments = arguments
        self.plurals = plurals

    def __repr__(self) -> str:
        return f"Message({self.source!r})"


def compile_message(text: str, rules: PluralRules) -> Message:
    """Compile `text`; raises `MessageSyntaxError` (with the position) when it is not valid ICU."""
    if "{" not in text and "}" not in text:  # plain text: only '' needs unescaping
        return _literal(text.replace("''", "'") if "''" in text else text, text)
    if "'" not in text and _NAMES_ONLY.fullmatch(text):  # the common shape, without the full parser
        pieces = _NAME_TOKEN.split(text)  # text, name, text, name, ..., text
        parts = tuple(piece if i % 2 == 0 else Argument(piece, "{" + piece + "}")
                      for i, piece in enumerate(pieces) if piece or i % 2)
        return Message(text, _simple_renderer(parts), frozenset(pieces[1::2]))
    parts = parse(text)
    arguments: set[str] = set()
    plurals: list[PluralUse] = []
    _collect(parts, arguments, plurals)
    if all(part.__class__ is str for part in parts):
        return _literal("".join(parts), text)  # type: ignore[arg-type]
    if all(part.__class__ is str or part.__class__ is Argument for part in parts):
        return Message(text, _simple_renderer(parts), frozenset(arguments))
    return Message(text, _tree_renderer(parts, rules), frozenset(arguments), tuple(plurals))


def value_text(value: Any) -> str | None:
    """How a variable's value prints, or None when it does not (missing, null, or not a scalar)."""
    kind = value.__class__
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is float:
        try:
            return str(value)
        except ValueError:  # an integer with more digits than Python prints
            return None
    if kind is Decimal:
        return str(value)
    return None


# --- plain text and {name}-only messages -------------------------------------------------------------


def _literal(text: str, source: str) -> Message:
    def render(values: Values | None, limit: int) -> str:
        return text if len(text) <= limit else text[:limit]

    return Message(source, render, frozenset())


def _simple_renderer(parts: Parts) -> Renderer:
    if len(parts) <= 3 and sum(part.__class__ is Argument for part in parts) == 1:
        return _one_argument_renderer(parts)
    # (text, None) for literal text, (the argument's own text, its name) for an argument
    steps = tuple((part, None) if isinstance(part, str) else (part.source, part.name)  # type: ignore[union-attr]
                  for part in parts)

    def render(values: Values | None, limit: int) -> str:
        get = (values or _NO_VALUES).get
        out: list[str] = []
        size = 0
        for text, name in steps:
            if name is None:
                piece = text
            else:
                value = get(name)
                piece = value if value.__class__ is str else (value_text(value) or text)
            out.append(piece)
            size += len(piece)
            if size > limit:
                return "".join(out)[:limit]
        return "".join(out)

    return render


def _one_argument_renderer(parts: Parts) -> Renderer:
    index = next(i for i, part in enumerate(parts) if part.__class__ is Argument)
    before = "".join(parts[:index])  # type: ignore[arg-type]
    after = "".join(parts[index + 1:])  # type: ignore[arg-type]
    argument: Argument = parts[index]  # type: ignore[assignment]
    name, source = argument.name, argument.source

    def render(values: Values | None, limit: int) -> str:
        value = values.get(name) if values else None
        if value.__class__ is not str:
            value = value_text(value) or source
        if len(value) > limit:
            value = value[:limit]
        text = f"{before}{value}{after}"
        return text if len(text) <= limit else text[:limit]

    return render


# --- everything else: closures that return bounded strings -----------------------------------------
#
# An emitter is `(values, limit, pound) -> str`; `pound` is what '#' prints in the innermost plural.
# A sequence stops joining as soon as its output passes `limit`, so memory stays bounded by the limit
# plus one value however the template repeats arguments; the top level cuts the result to `limit`.


Emitter = Callable[[Values, int, str], str]
Step = Any  # str | Pound | Emitter


def _tree_renderer(parts: Parts, rules: PluralRules) -> Renderer:
    run = _sequence(_compile_parts(parts, rules))

    def render(values: Values | None, limit: int) -> str:
        text = run(values or _NO_VALUES, limit, "")
        return text if len(text) <= limit else text[:limit]

    return render


def _compile_parts(parts: Parts, rules: PluralRules) -> tuple[Step, ...]:
    return tuple(part if part.__class__ is str or part is POUND else _compile_node(part, rules) for part in parts)


def _sequence(steps: tuple[Step, ...]) -> Emitter:
    if len(steps) == 1 and steps[0].__class__ is not str and steps[0] is not POUND:
        return steps[0]  # type: ignore[no-any-return]

    def run(values: Values, limit: int, pound: str) -> str:
        out = []
        size = 0
        for step in steps:
            if step.__class__ is str:
                piece = step
            elif step is POUND:
                piece = pound
            else:
                piece = step(values, limit, pound)
            out.append(piece)
            size += len(piece)
            if size > limit:
                return "".join(out)[:limit]
        return "".join(out)

    return run


def _compile_node(node: Any, rules: PluralRules) -> Emitter:
    return _EMITTERS[node.__class__](node, rules)


def _argument_emitter(node: Argument, rules: PluralRules) -> Emitter:
    name, source = node.name, node.source

    def emit(values: Values, limit: int, pound: str) -> str:
        value = values.get(name)
        return value if value.__class__ is str else (value_text(value) or source)

    return emit


def _number_emitter(node: NumberArgument, rules: PluralRules) -> Emitter:
    name, style, source = node.name, node.style, node.source

    def emit(values: Values, limit: int, pound: str) -> str:
        value = values.get(name)
        number = as_number(value)
        if number is None:
            return value_text(value) or source
        return rules.format_number(number, style)

    return emit


def _plural_emitter(node: PluralArgument, rules: PluralRules) -> Emitter:
    name, offset = node.name, node.offset
    missing = "{" + name + "}"
    select = rules.ordinal if node.ordinal else rules.cardinal
    table = rules.ordinal_table if node.ordinal else rules.cardinal_table
    tabulated = len(table)
    # Keyed by Decimal; ints, floats and Decimals that are equal hash equal, so any number finds its branch.
    exact: dict[Any, Emitter] = {key: _sequence(_compile_parts(parts, rules)) for key, parts in node.exact.items()}
    cases = {key: _sequence(_compile_parts(parts, rules)) for key, parts in node.cases.items()}
    other = cases["other"]

    def emit(values: Values, limit: int, pound: str) -> str:
        value = values.get(name)
        if value.__class__ is int and not offset and 0 <= value < tabulated:  # the common case, inlined
            branch = exact.get(value) if exact else None
            if branch is None:
                branch = cases.get(table[value], other)
            return branch(values, limit, str(value))
        number = as_number(value)
        if number is None:  # not a number: the `other` branch, with the value (or the token) for '#'
            return other(values, limit, value_text(value) or missing)
        branch = exact.get(number) if exact else None
        shifted = number - offset if offset else number
        if branch is None:
            branch = cases.get(select(shifted), other)
        return branch(values, limit, rules.format_number(shifted))

    return emit


def _select_emitter(node: SelectArgument, rules: PluralRules) -> Emitter:
    name = node.name
    cases = {key: _sequence(_compile_parts(parts, rules)) for key, parts in node.cases.items()}
    other = cases["other"]

    def emit(values: Values, limit: int, pound: str) -> str:
        value = values.get(name)
        key = value if value.__class__ is str else value_text(value)
        return (cases.get(key, other) if key is not None else other)(values, limit, pound)

    return emit


_EMITTERS: dict[type, Callable[[Any, PluralRules], Emitter]] = {
    Argument: _argument_emitter,
    NumberArgument: _number_emitter,
    PluralArgument: _plural_emitter,
    SelectArgument: _select_emitter,
}


def _collect(parts: Parts, arguments: set[str], plurals: list[PluralUse]) -> None:
    for part in parts:
        if isinstance(part, (Argument, NumberArgument)):
            arguments.add(part.name)
        elif isinstance(part, PluralArgument):
            arguments.add(part.name)
            plurals.append(PluralUse(part.name, part.ordinal, frozenset(part.cases)))
            for branch in (*part.exact.values(), *part.cases.values()):
                _collect(branch, arguments, plurals)
        elif isinstance(part, SelectArgument):
            arguments.add(part.name)
            for branch in part.cases.values():
                _collect(branch, arguments, plurals)
