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

What differs by format, the format says: its syntax (the problems its reader reports), how it
spells a placeholder in a reason (`CatalogFormat.placeholder`) and where its files set a maximum
length (`CatalogFormat.max_lengths`). Reasons are sentences about the message, without its text:
"drops the placeholder {name} that the source uses".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlance_i18n.formats import CatalogFormat, Problem, Renderable
from parlance_i18n.formats.shared.messages import plural_gap_reason
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["Refusal", "check_candidate", "plural_gap_reason"]

_PLURAL_COUNT = "count"


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
        reasons += _placeholder_reasons(fmt, rendered, source)
    reasons += _plural_reasons(tag, rendered, source, needed_categories)
    reasons += _glossary_reasons(glossary_missing)
    if max_length is not None and len(rendered.source) > max_length:
        reasons.append(f"is {len(rendered.source)} characters long; the file allows at most {max_length}")
    return reasons


def _placeholder_reasons(fmt: CatalogFormat, rendered: Renderable, source: Renderable) -> list[str]:
    want, have = set(source.arguments), set(rendered.arguments)
    if rendered.plurals or source.plurals:  # a plural's count is implied by the plural itself
        want.discard(_PLURAL_COUNT)
        have.discard(_PLURAL_COUNT)
    reasons = []
    for name in sorted(want - have, key=_natural):
        reasons.append(f"drops {fmt.placeholder(name)} that the source uses")
    for name in sorted(have - want, key=_natural):
        reasons.append(f"uses {fmt.placeholder(name)}, which the source does not have")
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
