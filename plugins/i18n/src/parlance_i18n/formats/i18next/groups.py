"""i18next plural groups: a plural message's forms are keys of their own (`items_one`, `items_few`,
ordinal `items_ordinal_two`), so a message a caller gives as forms by CLDR category is written as one
key per form. Forms not given are kept as the file has them (`items_zero` stays), so a caller may fix
one form alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlance_i18n.formats.base import Document, Value

__all__ = ["CARDINAL_SUFFIXES", "FORM_SUFFIXES", "ORDINAL_SUFFIXES", "form_names", "group_keys", "group_writes",
           "part_order", "renamed_part"]

_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
CARDINAL_SUFFIXES = tuple(f"_{c}" for c in _CATEGORIES)
ORDINAL_SUFFIXES = tuple(f"_ordinal_{c}" for c in _CATEGORIES)
FORM_SUFFIXES = ORDINAL_SUFFIXES + CARDINAL_SUFFIXES
"""Every form's suffix, ordinal first: "_ordinal_one" also ends in "_one"."""
_IN_ORDER = CARDINAL_SUFFIXES + ORDINAL_SUFFIXES


def group_keys(document: Document, key: str) -> list[str]:
    """`key` itself when the document has it, then its plural forms (cardinal, then ordinal)."""
    found = [key] if document.get(key) is not None else []
    return found + [key + s for s in _IN_ORDER if document.get(key + s) is not None]


def part_order(key: str) -> list[str]:
    """Every key the message `key` may be held in, as a file writes them: itself, its cardinal
    forms in CLDR order (`items_one`, `items_few`, `items_many`, `items_other`), its ordinal forms."""
    return [key] + [key + suffix for suffix in _IN_ORDER]


def renamed_part(part: str, old: str, new: str) -> str | None:
    """A plural form of `old` under the key `new` (`items_one` -> `goods_one`), or None."""
    suffix = part[len(old):]
    return new + suffix if part.startswith(old) and suffix in _IN_ORDER else None


def group_writes(document: Document, key: str, value: Value, source: Value | None) -> list[tuple[str, Value]]:
    """The keys and texts that write `value` (a text, or forms by category; ordinal forms named
    `ordinal_one`, ...) for `key`; whether it is a plural group, the source says, else the file."""
    single = document.get(key) is not None
    forms = any(document.get(key + suffix) is not None for suffix in _IN_ORDER)
    plural = isinstance(source, dict) if source is not None else forms and not single
    if isinstance(value, str):
        if plural:
            raise ValueError(f"is a plural group ({key}_one, {key}_other, ...): give its forms as an object by "
                             "plural category ({\"one\": ..., \"other\": ...})")
        return [(key, value)]
    if source is not None and not plural:
        raise ValueError("is a single message, not a plural group: give its text as a string")
    ordered = [c for c in _CATEGORIES if c in value] + [f"ordinal_{c}" for c in _CATEGORIES if f"ordinal_{c}" in value]
    unknown = sorted(set(value) - set(ordered))
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many, other "
                         "(ordinal forms: ordinal_one, ...)")
    return [(f"{key}_{name}", value[name]) for name in ordered]


def form_names(source: Mapping[str, str], cardinal: Sequence[str], ordinal: Sequence[str]) -> list[str]:
    """The forms of a group: `ordinal_<category>` for an ordinal group, else the categories."""
    if source and all(name.startswith("ordinal_") for name in source):
        return [f"ordinal_{c}" for c in ordinal]
    return list(cardinal)
