"""A caller's plural forms, given by CLDR category, as the msgstr indexes of a PO entry.

The file's own Plural-Forms says which index each CLDR category reaches (the PO format's
`category_forms`); where several reach one index, the form of the category covering most whole
numbers is written, and an index no category reaches first (Welsh msgstr[3], for 8 and 11) gets
`other`. Indexes may also be given directly (`"0"`). Forms not given keep the entry's own; an index
left without any text is refused as a missing category.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections import Counter

from parlance_i18n.formats.base import CatalogFormat, Document, Value
from parlance_i18n.formats.shared.messages import plural_gap_reason
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["msgstr_forms", "nplurals_of"]

_CATEGORY_SET = frozenset(CATEGORIES)
_BLANK_LINE = re.compile(rb"\n[ \t\r]*\n")


def msgstr_forms(fmt: CatalogFormat, document: Document, value: dict[str, str], current: Value | None,
                 tag: LocaleTag) -> dict[str, str]:
    """msgstr forms by index for forms given by category (or by index), over the entry's current ones."""
    nplurals, by_index = _plural_map(fmt, document, tag)
    existing = current if isinstance(current, dict) else {}
    if all(name.isdigit() for name in value):
        beyond = sorted((name for name in value if int(name) >= nplurals), key=int)
        if beyond:
            raise ValueError(f"msgstr[{beyond[0]}] is past the file's Plural-Forms (nplurals={nplurals})")
        given = {str(int(name)): text for name, text in value.items()}
    else:
        unknown = sorted(set(value) - _CATEGORY_SET)
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many or other")
        given = {}
        for index in range(nplurals):
            # An index no CLDR category reaches first (Welsh msgstr[3], for 8 and 11) takes `other`:
            # those numbers are `other` to CLDR.
            categories = by_index.get(index) or ["other"]
            chosen = next((c for c in categories if c in value), None)
            if chosen is not None:
                given[str(index)] = value[chosen]
    forms: dict[str, str] = {}
    missing: list[str] = []
    for index in range(nplurals):
        text = given.get(str(index)) or existing.get(str(index), "")
        if not text:
            missing.extend(by_index.get(index, [])[:1] or [f"msgstr[{index}]"])
        forms[str(index)] = text
    if missing:
        raise ValueError(plural_gap_reason([m for m in CATEGORIES if m in missing] or missing, tag))
    return forms


def nplurals_of(fmt: CatalogFormat, document: Document, tag: LocaleTag) -> int:
    """How many msgstr forms a plural entry of `document` has, by its Plural-Forms."""
    return _plural_map(fmt, document, tag)[0]


_maps: weakref.WeakKeyDictionary[Document, tuple[int, dict[int, list[str]]]] = weakref.WeakKeyDictionary()


def _plural_map(fmt: CatalogFormat, document: Document, tag: LocaleTag) -> tuple[int, dict[int, list[str]]]:
    """nplurals, and the CLDR categories reaching each msgstr index by the file's Plural-Forms, each
    index's categories in order of preference: the one that covers most whole numbers first, since
    that form is what most counts print (Russian index 0 is `one` before `other`, which only
    fractions reach; French index 1 is `other` before `many`; Welsh index 2 is `other` before
    `zero`, `few` and `many`, which GNU's four forms cannot tell apart)."""
    found = _maps.get(document)
    if found is None:
        data = document.to_bytes()
        blank = _BLANK_LINE.search(data)
        messages = fmt.read(data[:blank.end()] if blank else data, tag)  # the header is the first entry
        if not getattr(messages, "header", None) and b"Plural-Forms" in data:
            messages = fmt.read(data, tag)  # ... unless the file puts it elsewhere
        found = _maps[document] = _category_indexes(
            fmt, tag, getattr(messages, "nplurals", 2), getattr(messages, "plural_expression", "n != 1"))
    return found


@functools.lru_cache(maxsize=128)
def _category_indexes(fmt: CatalogFormat, tag: LocaleTag, nplurals: int,
                      expression: str) -> tuple[int, dict[int, list[str]]]:
    # The PO format's own reading of a one-entry file with this Plural-Forms says which index each
    # category reaches (its `category_forms`), so this agrees with how the file is rendered.
    forms = "".join(f'msgstr[{i}] "{i}"\n' for i in range(nplurals))
    probe = (f'msgid ""\nmsgstr "Plural-Forms: nplurals={nplurals}; plural={expression};\\n"\n\n'
             f'msgid "a"\nmsgid_plural "b"\n{forms}')
    compiled = fmt.read(probe.encode("utf-8"), tag).get("a")
    mapping: dict[str, int] = dict(getattr(compiled, "category_forms", None) or {"one": 0, "other": nplurals - 1})
    rules = plural_rules(tag)
    covered = Counter(rules.cardinal(n) for n in range(1000))
    by_index: dict[int, list[str]] = {}
    for category in sorted(mapping, key=lambda c: (-covered[c], CATEGORIES.index(c))):
        by_index.setdefault(mapping[category], []).append(category)
    return nplurals, by_index
