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
  and no category the locale does not have (a Russian `two` is never shown), beyond those the
  format's runtime selects (`CatalogFormat.extra_plural_categories`: i18next's `zero`);
- what the format's runtime would do differently with the translation than with the source
  (`CatalogFormat.runtime_refusals`: a printf conversion of another type, a component tag dropped);
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

from parlance_i18n.formats import CatalogFormat, LocaleMessages, Problem, Renderable, Value
from parlance_i18n.formats.shared.messages import plural_gap_reason
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["Refusal", "check_candidate", "completed_forms", "plural_gap_reason"]

_PLURAL_COUNT = "count"


@dataclass(frozen=True)
class Refusal:
    """A message that is not written, and why (sentences)."""

    key: str
    reasons: list[str] = field(default_factory=list)


def check_candidate(fmt: CatalogFormat, tag: LocaleTag, key: str, rendered: Renderable | None,
                    problems: Sequence[Problem], source: Renderable | None, needed_categories: frozenset[str],
                    glossary_missing: Sequence[str], max_length: int | None, *,
                    written: LocaleMessages | None = None, source_value: Value | None = None,
                    given: Value | None = None) -> list[str]:
    """Why the translation of `key`, as the format read it back, may not be written (empty: it may).

    `problems`: what the format reported for the key after the write; `source`: the source locale's
    message (None for a new key: nothing to compare); `needed_categories`: the locale's CLDR cardinal
    categories (ordinal plurals are checked against its ordinal ones). `written` (the file read back),
    `source_value` (the source's message as its file writes it) and `given` (the caller's message)
    let the format judge what its runtime does with the translation, and the plural forms given.
    """
    reasons = [problem.reason for problem in problems]
    if rendered is None:
        if not reasons:
            reasons.append(f"the {fmt.name} file does not serve it once written (an empty or unreadable message)")
        return reasons + _glossary_reasons(glossary_missing)
    if source is not None:
        reasons += _placeholder_reasons(fmt, rendered, source)
    reasons += _plural_reasons(tag, rendered, source, needed_categories)
    reasons += _unknown_category_reasons(fmt, tag, rendered, given, source_value)
    if written is not None and source_value is not None:
        reasons += fmt.runtime_refusals(key, written, source_value, tag)
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


def _unknown_category_reasons(fmt: CatalogFormat, tag: LocaleTag, rendered: Renderable, given: Value | None,
                              source_value: Value | None) -> list[str]:
    """A form in a plural category the locale does not have is never shown: the caller's forms (when it
    gave forms), else the categories of the plurals its text writes (an ICU `two {...}` branch)."""
    rules = plural_rules(tag)
    if isinstance(given, dict):
        allowed = set(_form_names(fmt, tag, source_value, extras=True))
        unknown = [name for name in given if name not in allowed and _category_of(name) is not None]
        return [_unknown_category_reason(fmt, tag, _category_of(name) or name, name.startswith("ordinal_"), False)
                for name in unknown]
    if given is None:
        return []
    reasons = []
    for use in rendered.plurals:
        wanted = rules.ordinal_categories if use.ordinal else rules.cardinal_categories
        wanted = wanted | fmt.extra_plural_categories(tag, use.ordinal)
        for keyword in sorted(use.keywords - wanted, key=_category_order):
            if not keyword.startswith("="):
                reasons.append(_unknown_category_reason(fmt, tag, keyword, use.ordinal, True))
    return reasons


def _unknown_category_reason(fmt: CatalogFormat, tag: LocaleTag, category: str, ordinal: bool,
                             branches: bool) -> str:
    """`branches`: the plural is written in the message's own syntax, which has exact-number branches."""
    rules = plural_rules(tag)
    kind = "ordinal " if ordinal else ""
    categories = rules.ordinal_categories if ordinal else rules.cardinal_categories
    listed = ", ".join(c for c in CATEGORIES if c in categories)
    extras = sorted(fmt.extra_plural_categories(tag, ordinal) - categories, key=_category_order)
    also = f"; {fmt.name} also shows {', '.join(extras)}" if extras else ""
    exact = "; an exact number can have a branch of its own, such as =2" if branches else ""
    return (f"{tag.code} has no {kind}plural category {category}, so that form is never shown: remove it "
            f"({tag.code}'s {kind}categories are {listed}{also}{exact})")


def completed_forms(fmt: CatalogFormat, tag: LocaleTag, given: Value, source_value: Value | None) -> list[str]:
    """The forms of a plural the caller did not give, which the file's own forms complete (the write
    passed the check that every needed category is there): empty for a message given as a text."""
    if not isinstance(given, dict):
        return []
    return [name for name in _form_names(fmt, tag, source_value, extras=False) if name not in given]


def _form_names(fmt: CatalogFormat, tag: LocaleTag, source_value: Value | None, *, extras: bool) -> list[str]:
    """The forms a caller gives for a plural of `tag` shaped as `source_value` (with `extras`: also
    those the format's runtime selects beyond the CLDR categories)."""
    rules = plural_rules(tag)
    cardinal, ordinal = set(rules.cardinal_categories), set(rules.ordinal_categories)
    if extras:
        cardinal |= fmt.extra_plural_categories(tag, False)
        ordinal |= fmt.extra_plural_categories(tag, True)
    shape = source_value if isinstance(source_value, dict) else {}
    return fmt.form_names(shape, [c for c in CATEGORIES if c in cardinal], [c for c in CATEGORIES if c in ordinal])


def _category_of(name: str) -> str | None:
    """The CLDR category a form's name names (`two`; i18next's `ordinal_two`), or None."""
    category = name.rpartition("_")[2]
    return category if category in CATEGORIES else None


def _category_order(keyword: str) -> tuple[int, str]:
    return (CATEGORIES.index(keyword), "") if keyword in CATEGORIES else (len(CATEGORIES), keyword)


def _glossary_reasons(missing: Sequence[str]) -> list[str]:
    if not missing:
        return []
    return [f"does not use the glossary's translation of {', '.join(missing)}"]


def _natural(name: str) -> tuple[int, Any]:
    return (0, int(name)) if name.isdigit() else (1, name)
