"""Rendering compiled steps (`icu.compiler`) with a message's values, as FormatJS renders them.

`run(steps, values, limit, pound, rules)` walks a sequence of steps; `EMIT[opcode]` renders one
node of that kind. A sequence stops joining as soon as its output passes `limit`, so memory stays
bounded by the limit plus one value however the template repeats arguments; the message cuts the
result to `limit`. `argument_text(value)` is how `{name}` prints a value; `value_text(value)` the
same but for floats, printed as Python prints them (1.0 is "1.0"), for the formats that do so.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from parlance_i18n.icu.compiler import ARG, DATE, NUMBER, PLURAL, SELECT, Steps
from parlance_i18n.icu.locale_formats import LocaleFormats, js_number_text
from parlance_i18n.icu.plurals import TABLE_SIZE, Number, as_number

__all__ = ["EMIT", "Values", "argument_text", "run", "value_text"]

Values = Mapping[str, Any]


def argument_text(value: Any) -> str | None:
    """How `{name}` prints a value, as FormatJS does (`String(value)`: 1.0 is "1"); None when it does not."""
    if value.__class__ is float:
        return js_number_text(value)
    return value_text(value)


def value_text(value: Any) -> str | None:
    """How a variable's value prints, or None when it does not (missing, null, or not a scalar)."""
    kind = value.__class__  # read once for every test below, which is why mypy cannot narrow `value`
    if kind is str:
        return value  # type: ignore[no-any-return]  # a str: `kind is str`
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


def run(steps: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    out = []
    size = 0
    get = values.get
    for step in steps:
        if step.__class__ is str:
            piece = step
        elif step is None:
            piece = pound
        elif step[0] == ARG:
            value = get(step[1])
            piece = value if value.__class__ is str else (argument_text(value) or step[2])
        else:
            piece = EMIT[step[0]](step, values, limit, pound, rules)
        out.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(out)[:limit]
    return "".join(out)


def _argument(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    value = values.get(node[1])
    return value if value.__class__ is str else (argument_text(value) or node[2])


def _number(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, style, missing = node
    value = values.get(name)
    number = as_number(value)
    if number is None:
        return argument_text(value) or missing
    return rules.number(number, style)


def _date(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, kind, style, missing = node
    value = values.get(name)
    number = as_number(value)
    text = rules.date(number, kind, style) if number is not None else None
    return text if text is not None else (argument_text(value) or missing)


def _plural(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, ordinal, offset, exact, keywords, branches, other = node
    value = values.get(name)
    if value.__class__ is int and 0 <= value < TABLE_SIZE and not offset:  # the common case, inlined
        if exact:
            branch = _exact(exact, value)
            if branch is not None:
                return run(branch, values, limit, rules.small[value], rules)
        category = (rules.ordinal_table if ordinal else rules.cardinal_table)[value]
        branch = branches[keywords.index(category)] if category in keywords else other
        return run(branch, values, limit, rules.small[value], rules)
    number = as_number(value)
    if number is None:  # not a number: the `other` branch, with the value (or the token) for '#'
        return run(other, values, limit, argument_text(value) or "{" + name + "}", rules)
    branch = _exact(exact, number) if exact else None
    shifted = number - offset if offset else number
    if branch is None:
        category = (rules.ordinal if ordinal else rules.cardinal)(shifted)
        branch = branches[keywords.index(category)] if category in keywords else other
    return run(branch, values, limit, rules.number(shifted), rules)


def _exact(exact: tuple[tuple[Decimal, Steps], ...], number: Number) -> Steps | None:
    # `=N` keys are Decimals; ints, floats and Decimals that are equal compare equal.
    for key, branch in exact:
        if key == number:
            return branch
    return None


def _select(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, keys, branches, other = node
    value = values.get(name)
    key = value if value.__class__ is str else argument_text(value)
    branch = branches[keys.index(key)] if key is not None and key in keys else other
    return run(branch, values, limit, pound, rules)


EMIT = {ARG: _argument, NUMBER: _number, PLURAL: _plural, SELECT: _select, DATE: _date}

