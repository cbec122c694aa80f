"""Whether a translation passes its arguments to the same conversions as the source: what a format
string's runtime does with a value depends on the conversion that takes it (`getString(id, "Ann")`
throws `IllegalFormatConversionException` when the translation reads argument 1 with `%1$d`;
`%lld` reads 64 bits where `%d` reads 32; Python's `%(name)d` raises `TypeError` for a string).

A format lists each message's conversions as `Conversion`s (its own parser knows the syntax);
`conversion_reasons` compares a translation's with the source's, argument by argument, as `msgfmt
--check` and Android lint's `StringFormatMatches` do: a numbered argument (`%2$d`, `%(name)s`,
`{1,number}`) may move anywhere in the text, as long as it keeps its type; an unnumbered one takes
the next position, so the conversions must keep the source's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlance_i18n.formats.base import Value

__all__ = ["Conversion", "conversion_reasons", "message_conversion_reasons", "source_kinds"]


@dataclass(frozen=True, slots=True)
class Conversion:
    """One conversion of a message: the argument it takes ("1", "2", ... or a name), what type of
    value it needs (a phrase: "a string", "a 64-bit integer"), and how the text writes it."""

    argument: str
    kind: str
    written: str
    numbered: bool = True
    """Whether the text names its argument (`%2$d`, `%(name)s`); else it takes the next position."""


def source_kinds(forms: Iterable[Sequence[Conversion]]) -> dict[str, Conversion]:
    """The conversion each argument of the source takes, over all its forms (a plural's forms may each
    use some of the arguments); an argument the source itself reads as two types is left out."""
    found: dict[str, Conversion] = {}
    conflicting: set[str] = set()
    for conversions in forms:
        for conversion in conversions:
            seen = found.get(conversion.argument)
            if seen is None:
                found[conversion.argument] = conversion
            elif seen.kind != conversion.kind:
                conflicting.add(conversion.argument)
    return {argument: conversion for argument, conversion in found.items() if argument not in conflicting}


def conversion_reasons(source: dict[str, Conversion], forms: Iterable[Sequence[Conversion]], *,
                       shown: str = "{}", compatible: tuple[tuple[str, str], ...] = (),
                       keep: str = "keep the conversion the source uses") -> list[str]:
    """Why a translation whose forms have the conversions `forms` would format the source's arguments
    (`source`, from `source_kinds`) differently: one sentence per argument whose type changed.
    `shown` spells an argument in a sentence ("{}" -> "argument 1"; "{{{}}}" -> "argument {1}");
    `compatible` lists (source kind, translation kind) pairs the runtime accepts; `keep` is the fix
    a sentence ends with (`{}`: the argument)."""
    reasons: list[str] = []
    reported: set[str] = set()
    for conversions in forms:
        for conversion in conversions:
            want = source.get(conversion.argument)
            if want is None or want.kind == conversion.kind or conversion.argument in reported:
                continue
            if (want.kind, conversion.kind) in compatible:
                continue
            reported.add(conversion.argument)
            name = shown.format(conversion.argument)
            reason = (f"argument {name} is {want.written} ({want.kind}) in the source and {conversion.written} "
                      f"({conversion.kind}) here")
            if not conversion.numbered:
                reason += ("; unnumbered conversions take the arguments in order: keep the source's conversions in "
                           "the source's order, or number them to move one")
            else:
                reason += ": " + keep.format(conversion.argument)
            reasons.append(reason)
    return reasons


def message_conversion_reasons(source: Value, translation: Value | None,
                               conversions_of: Callable[[str], list[Conversion]], **options: Any) -> list[str]:
    """`conversion_reasons` for a message and its source as their files write them (a text, or a
    plural's forms: each translated form is held to the types any of the source's forms gives an
    argument). `conversions_of` lists a text's conversions (ValueError for a text that is not a
    valid format string: an invalid source is not compared, an invalid form is the reader's problem
    to report). `options` go to `conversion_reasons`."""
    if translation is None:
        return []
    try:
        want = source_kinds(conversions_of(text) for text in _texts(source))
    except ValueError:
        return []
    if not want:
        return []
    forms = []
    for text in _texts(translation):
        try:
            forms.append(conversions_of(text))
        except ValueError:
            continue
    return conversion_reasons(want, forms, **options)


def _texts(value: Value) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())
