"""Whether a translation may be written: each check a small function over what the format read back.

A translation is judged as the project's file will hold it: `writes` applies it to the file's
Document in memory and reads the new bytes with the format, then `check_candidate` looks at what
that reading found for the key (its `Renderable` and its `Problem`s) beside the source's message:

- the format's own syntax: the problems the format reported for the key (a broken ICU message, a
  `%` that starts no conversion, a reserved Rails name, ...), or that it did not read back at all;
- the placeholders: the same `arguments` as the source, none dropped, none invented (the count of
  a plural is implied: a Japanese `{count, plural, other {...}}` or i18next's `items_other` need not
  print it);
- the plurals: every CLDR category the locale needs, for each plural the translation has (`=0`
  branches do not count), and a plural where the source has one, unless the locale needs `other` only;
- the glossary terms the caller found missing;
- `max_length`, compared with the length of the message as the file writes it (placeholders
  included, as CAT tools count `maxwidth` in characters of the text as written).

Reasons are sentences about the message, without its text: "drops the placeholder {name} that the
source uses".
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlance_i18n.formats import CatalogFormat, Problem, Renderable
from parlance_i18n.locales import LocaleTag
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules

__all__ = ["Refusal", "check_candidate", "max_lengths", "placeholder", "plural_gap_reason"]

_PLURAL_COUNT = "count"
_XLIFF_UNIT = re.compile(rb"<(?:[\w.-]+:)?trans-unit\b[^>]*>")
_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True)
class Refusal:
    """A message that is not written, and why (sentences)."""

    key: str
    reasons: list[str] = field(default_factory=list)


def check_candidate(fmt: CatalogFormat, tag: LocaleTag, key: str, rendered: Renderable | None,
                    problems: Sequence[Problem], source: Renderable | None, needed_categories: frozenset[str],
                    glossary_missing: Sequence[str], max_length: int | None) -> list[str]:
    """Why the translation of `key`, as the format read it back, may not be written (empty: it may).

    `problems`: what the format reported for the key after the write; `source`: the source locale's
    message (None for a new key: nothing to compare); `needed_categories`: the locale's CLDR cardinal
    categories (ordinal plurals are checked against its ordinal ones).
    """
    reasons = [problem.reason for problem in problems]
    if rendered is None:
        if not reasons:
            reasons.append(f"the {fmt.name} file does not serve it once written (an empty or unreadable message)")
        return reasons + _glossary_reasons(glossary_missing)
    if source is not None:
        reasons += _placeholder_reasons(fmt.name, rendered, source)
    reasons += _plural_reasons(tag, rendered, source, needed_categories)
    reasons += _glossary_reasons(glossary_missing)
    if max_length is not None and len(rendered.source) > max_length:
        reasons.append(f"is {len(rendered.source)} characters long; the file allows at most {max_length}")
    return reasons


def plural_gap_reason(missing: Sequence[str], tag: LocaleTag, argument: str | None = None) -> str:
    """The reason for plural categories the locale needs that a message has no form for."""
    names = ", ".join(missing)
    plural = "categories" if len(missing) > 1 else "category"
    where = f" (the plural of {argument})" if argument and argument != _PLURAL_COUNT else ""
    return f"lacks the plural {plural} {names} that {tag.code} needs{where}"


def placeholder(format_name: str, name: str) -> str:
    """A placeholder named as the format writes it, for reasons: "the placeholder {name}", "the
    placeholder %1$@", "the inline element id="b"" (XLIFF)."""
    positional = name.isdigit()
    if format_name in ("icu-json", "arb", "properties"):
        spelled = f"{{{name}}}"
    elif format_name == "i18next":
        spelled = f"{{{{{name}}}}}"
    elif format_name == "yaml":
        spelled = f"%{{{name}}}"
    elif format_name == "xliff":
        return f'the inline element id="{name}"'
    elif format_name == "po":
        spelled = f"%s (argument {name})" if positional else f"%({name})s"
    elif format_name == "android":
        spelled = f"%{name}$s" if positional else name
    elif format_name in ("apple-strings", "stringsdict", "xcstrings"):
        spelled = f"%{name}$@" if positional else name
    else:
        spelled = name
    return f"the placeholder {spelled}"


def _placeholder_reasons(format_name: str, rendered: Renderable, source: Renderable) -> list[str]:
    want, have = set(source.arguments), set(rendered.arguments)
    if rendered.plurals or source.plurals:  # a plural's count is implied by the plural itself
        want.discard(_PLURAL_COUNT)
        have.discard(_PLURAL_COUNT)
    reasons = []
    for name in sorted(want - have, key=_natural):
        reasons.append(f"drops {placeholder(format_name, name)} that the source uses")
    for name in sorted(have - want, key=_natural):
        reasons.append(f"uses {placeholder(format_name, name)}, which the source does not have")
    return reasons


def _plural_reasons(tag: LocaleTag, rendered: Renderable, source: Renderable | None,
                    needed: frozenset[str]) -> list[str]:
    reasons = []
    rules = None
    for use in rendered.plurals:
        if use.ordinal:
            rules = rules or plural_rules(tag)
            wanted = rules.ordinal_categories
        else:
            wanted = needed
        missing = [c for c in CATEGORIES if c in wanted and c not in use.keywords]
        if missing:
            reasons.append(plural_gap_reason(missing, tag, use.argument))
    if source is not None and needed - {"other"}:
        plural_here = {(use.argument, use.ordinal) for use in rendered.plurals}
        for use in source.plurals:
            if not use.ordinal and (use.argument, False) not in plural_here:
                reasons.append(f"has no plural for {use.argument} where the source has one; {tag.code} needs the "
                               f"categories {', '.join(c for c in CATEGORIES if c in needed)}")
    return reasons


def _glossary_reasons(missing: Sequence[str]) -> list[str]:
    if not missing:
        return []
    return [f"does not use the glossary's translation of {', '.join(missing)}"]


def _natural(name: str) -> tuple[int, Any]:
    return (0, int(name)) if name.isdigit() else (1, name)


def max_lengths(fmt: CatalogFormat, data: bytes, messages: Any = None) -> dict[str, int]:
    """The longest text each key of a file may have, where the format carries one.

    A format's messages may say it themselves (`messages.max_lengths`, a mapping); otherwise XLIFF
    1.2's `maxwidth` is read from each `<trans-unit>`, when its `size-unit` is `char` (the
    standard's default unit is the pixel, which cannot be counted here).
    """
    own = getattr(messages, "max_lengths", None)
    if isinstance(own, dict):
        return dict(own)
    if fmt.name != "xliff" or b"maxwidth" not in data:
        return {}
    found: dict[str, int] = {}
    for tag_match in _XLIFF_UNIT.finditer(data):
        attributes = {name.decode("ascii", "replace").rpartition(":")[2]:
                      html.unescape((double or single).decode("utf-8", "replace"))
                      for name, double, single in _ATTRIBUTE.findall(tag_match[0])}
        width, unit, unit_id = attributes.get("maxwidth"), attributes.get("size-unit"), attributes.get("id")
        if unit_id is not None and unit == "char" and width is not None and width.strip().isdigit():
            found.setdefault(unit_id, int(width))
    return found
