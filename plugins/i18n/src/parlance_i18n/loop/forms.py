"""What a message given by a caller becomes in each format's `Document`, and how it is written there.

Callers (a model answering `i18n_missing`, a person) give a message one way for every format: its
text, or its plural forms by CLDR category (`{"one": ..., "few": ..., "other": ...}`). Formats hold
them differently (see `formats/base.py`), so `document_writes` turns one into the (document key,
value) pairs that write it:

- i18next: a plural group is one key per form, so `{"one": a, "few": b}` for `items` writes
  `items_one` and `items_few` (ordinal forms are given as `"ordinal_one"`, ...). Forms not given are
  kept as the file has them (`items_zero` stays), so a caller may fix one form alone.
- po: plural forms are msgstr indexes, and the file's own Plural-Forms says which index each CLDR
  category reaches (the PO format's `category_forms`); where several reach one index, the form of the
  category covering most whole numbers is written, and an index no category reaches first (Welsh
  msgstr[3], for 8 and 11) gets `other`. Indexes may also be given directly (`"0"`). Forms not given
  keep the entry's own; an index left without any text is refused as a missing category.
- android, stringsdict, xcstrings, yaml: a dict of forms by category, as given. Here too forms not
  given are kept (merged over the entry's current forms). A `.stringsdict` entry with text around
  its variable, or several variables, is given in the format's own shape
  (`{"NSStringLocalizedFormatKey": ..., "files.one": ...}`).
- icu-json, arb, properties, apple-strings, xliff hold plurals in the message's own syntax (or not
  at all): a dict is refused.

The shape follows the source locale's message (the target's when the source has none): a plural
must be given as forms, a single message as a string; anything else is a ValueError whose text is
the reason a caller sees.

`write_into` applies the pairs to a document and marks the entry as translated where the format
would otherwise not serve it: a fuzzy PO entry loses its `fuzzy` flag, an XLIFF target in state
`new`/`needs-translation`/`initial` becomes `translated`. (Xcode's stringUnit states are the
format's own business: its Document marks what it sets.)
"""

from __future__ import annotations

import functools
import re
import weakref
from collections import Counter
from collections.abc import Iterable
from typing import Any

from parlance_i18n.formats import CatalogFileError, CatalogFormat, Document, Renderable, Value
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.validate import plural_gap_reason
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules

__all__ = [
    "Candidate",
    "FORMS_BY_CATEGORY",
    "Write",
    "candidate_problem",
    "document_keys",
    "document_writes",
    "has_key",
    "msgid_sources",
    "renamed_key",
    "write_into",
]

Candidate = str | dict[str, str]
"""A message as callers give it: its text, or plural forms by CLDR category ("one", "few", ...)."""

Write = tuple[str, "Value | None"]
"""A document key and what it gets: a value, or None to delete it."""

FORMS_BY_CATEGORY = frozenset({"android", "stringsdict", "xcstrings", "yaml"})
"""Formats whose Document holds a plural entry as one dict of forms by CLDR category."""

_CATEGORY_SET = frozenset(CATEGORIES)
_I18NEXT_SUFFIXES = tuple(f"_{c}" for c in CATEGORIES) + tuple(f"_ordinal_{c}" for c in CATEGORIES)
_FORMAT_KEY = "NSStringLocalizedFormatKey"
_ARRAY_ITEM = re.compile(r"\[\d+\]")
_UNSERVED_XLIFF = frozenset({"new", "needs-translation", "initial"})
_BLANK_LINE = re.compile(rb"\n[ \t\r]*\n")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def candidate_problem(value: Any) -> str | None:
    """Why `value` is not a message a caller may give (None when it is one)."""
    texts = [value] if isinstance(value, str) else list(value.values()) if isinstance(value, dict) else None
    if texts is not None and any(_LONE_SURROGATE.search(text) for text in texts if isinstance(text, str)):
        # JSON lets "\ud800" through; no file encoding can hold it, so the write would fail later
        return "the message holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff), which no file can hold"
    if isinstance(value, str):
        return None
    if isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return None
    return "a message is a string, or an object of strings by plural category ({\"one\": ..., \"other\": ...})"


def document_writes(fmt: CatalogFormat, document: Document, key: str, value: Candidate, tag: LocaleTag, *,
                    source: Value | None) -> list[Write]:
    """The (document key, value or None = delete) pairs that write `value` for `key` in `document`.

    `source` is the source locale's message for `key` as its file writes it (None when it has none):
    it decides whether the message is a plural. Raises ValueError with the reason when `value` does
    not fit (see the module docstring).
    """
    problem = candidate_problem(value)
    if problem is not None:
        raise ValueError(problem)
    if fmt.name == "i18next":
        return _i18next_writes(document, key, value, source)
    current = document.get(key)
    plural = isinstance(source, dict) if source is not None else isinstance(current, dict)
    if isinstance(value, str):
        if plural:
            raise ValueError("is a plural message: give its forms as an object by plural category "
                             "({\"one\": ..., \"other\": ...})")
        return [(key, value)]
    if fmt.name != "po" and fmt.name not in FORMS_BY_CATEGORY:
        raise ValueError(f"{fmt.name} messages hold no plural forms of their own: give one string "
                         "(with the plural written in the message's own syntax where it has one)")
    if not plural and (source is not None or current is not None):
        raise ValueError("is a single message, not a plural: give its text as a string")
    if fmt.name == "po":
        return [(key, _po_forms(fmt, document, value, current, tag))]
    shaped = source if isinstance(source, dict) else current if isinstance(current, dict) else {}
    _check_form_names(fmt.name, value, shaped)
    merged = {**current, **value} if isinstance(current, dict) else dict(value)
    return [(key, merged)]


def write_into(document: Document, writes: Iterable[Write]) -> bool:
    """Apply `writes` (set, add or delete each) and mark what they wrote as translated where the
    format would not serve it otherwise; whether anything changed. Document errors propagate."""
    changed = False
    for doc_key, value in writes:
        current = document.get(doc_key)
        if value is None:
            if current is not None:
                document.delete(doc_key)
                changed = True
            continue
        if current == value:
            changed = _mark_translated(document, doc_key) or changed
            continue
        if current is None:
            try:
                document.add(doc_key, value)
            except KeyError:  # there without a text the format reads as one: set may still give it one
                document.set(doc_key, value)
        else:
            document.set(doc_key, value)
        _mark_translated(document, doc_key)
        changed = True
    return changed


def has_key(fmt: CatalogFormat, document: Document, key: str) -> bool:
    """Whether `document` holds a message for `key` (with a text or, in PO, an untranslated entry)."""
    if document.get(key) is not None:
        return True
    if fmt.name == "i18next":
        return any(document.get(key + suffix) is not None for suffix in _I18NEXT_SUFFIXES)
    if fmt.name == "android":
        return document.get(f"{key}[0]") is not None
    return False


def document_keys(fmt: CatalogFormat, document: Document, key: str) -> list[str]:
    """The document keys that make up the message `key`: itself, or its i18next plural forms, or
    the items of an Android `<string-array>`, in file order."""
    if fmt.name == "i18next":
        found = [key] if document.get(key) is not None else []
        return found + [key + s for s in _I18NEXT_SUFFIXES if document.get(key + s) is not None]
    if fmt.name == "android" and document.get(key) is None:
        items: list[str] = []
        while document.get(f"{key}[{len(items)}]") is not None:
            items.append(f"{key}[{len(items)}]")
        return items
    return [key] if document.get(key) is not None else []


def renamed_key(fmt: CatalogFormat, doc_key: str, old: str, new: str) -> str:
    """`doc_key` (one of `document_keys(old)`) under the message key `new`."""
    if doc_key == old:
        return new
    suffix = doc_key[len(old):]
    if (fmt.name == "i18next" and suffix in _I18NEXT_SUFFIXES) or (fmt.name == "android" and _ARRAY_ITEM.fullmatch(suffix)):
        return new + suffix
    raise ValueError(f"{doc_key!r} is not a part of {old!r}")


# --- i18next -------------------------------------------------------------------------------------------


def _i18next_writes(document: Document, key: str, value: Candidate, source: Value | None) -> list[Write]:
    single = document.get(key) is not None
    forms = any(document.get(key + suffix) is not None for suffix in _I18NEXT_SUFFIXES)
    plural = isinstance(source, dict) if source is not None else forms and not single
    if isinstance(value, str):
        if plural:
            raise ValueError(f"is a plural group ({key}_one, {key}_other, ...): give its forms as an object by "
                             "plural category ({\"one\": ..., \"other\": ...})")
        return [(key, value)]
    if source is not None and not plural:
        raise ValueError("is a single message, not a plural group: give its text as a string")
    ordered = [c for c in CATEGORIES if c in value] + [f"ordinal_{c}" for c in CATEGORIES if f"ordinal_{c}" in value]
    unknown = sorted(set(value) - set(ordered))
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many, other "
                         "(ordinal forms: ordinal_one, ...)")
    return [(f"{key}_{name}", value[name]) for name in ordered]


# --- forms by category ------------------------------------------------------------------------------------


def _check_form_names(format_name: str, value: dict[str, str], shaped: dict[str, str]) -> None:
    if format_name == "stringsdict" and (_FORMAT_KEY in shaped or _FORMAT_KEY in value):
        variables = {name.partition(".")[0] for name in shaped if "." in name} or \
            {name.partition(".")[0] for name in value if "." in name}
        for name in value:
            variable, dot, category = name.partition(".")
            if name != _FORMAT_KEY and not (dot and category in _CATEGORY_SET and variable in variables):
                raise ValueError(f"{name!r} is not a part of this .stringsdict entry: give {_FORMAT_KEY!r} and "
                                 f"forms as '<variable>.<category>' for the variables {', '.join(sorted(variables))}")
        return
    unknown = sorted(set(value) - _CATEGORY_SET)
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many or other")


# --- po ---------------------------------------------------------------------------------------------------


def _po_forms(fmt: CatalogFormat, document: Document, value: dict[str, str], current: Value | None,
              tag: LocaleTag) -> dict[str, str]:
    """msgstr forms by index for forms given by category (or by index), over the entry's current ones."""
    nplurals, by_index = _po_plural_map(fmt, document, tag)
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


_po_maps: weakref.WeakKeyDictionary[Document, tuple[int, dict[int, list[str]]]] = weakref.WeakKeyDictionary()


def _po_plural_map(fmt: CatalogFormat, document: Document, tag: LocaleTag) -> tuple[int, dict[int, list[str]]]:
    """nplurals, and the CLDR categories reaching each msgstr index by the file's Plural-Forms, each
    index's categories in order of preference: the one that covers most whole numbers first, since
    that form is what most counts print (Russian index 0 is `one` before `other`, which only
    fractions reach; French index 1 is `other` before `many`; Welsh index 2 is `other` before
    `zero`, `few` and `many`, which GNU's four forms cannot tell apart)."""
    found = _po_maps.get(document)
    if found is None:
        data = document.to_bytes()
        blank = _BLANK_LINE.search(data)
        messages = fmt.read(data[:blank.end()] if blank else data, tag)  # the header is the first entry
        if not getattr(messages, "header", None) and b"Plural-Forms" in data:
            messages = fmt.read(data, tag)  # ... unless the file puts it elsewhere
        found = _po_maps[document] = _category_indexes(
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


def _mark_translated(document: Document, doc_key: str) -> bool:
    """Make a written entry one the format serves: PO without `fuzzy`, an XLIFF target `translated`."""
    is_fuzzy = getattr(document, "is_fuzzy", None)
    if is_fuzzy is not None:
        return bool(is_fuzzy(doc_key) and document.clear_fuzzy(doc_key))  # type: ignore[attr-defined]
    state = getattr(document, "state", None)
    if callable(state) and state(doc_key) in _UNSERVED_XLIFF:
        document.set_state(doc_key, "translated")  # type: ignore[attr-defined]
        return True
    return False


def msgid_sources(fmt: CatalogFormat, data: bytes, tag: LocaleTag, keys: Iterable[str]) -> dict[str, tuple[Value, Renderable | None]]:
    """For gettext files: each key's msgid (and msgid_plural) as its source message, for keys the
    source locale has no translation of (gettext's source text is the msgid itself).

    Read through the PO format: a copy of the file with each entry's msgstr set to its msgid is read
    back, so the source compiles with the entry's own flags (`python-format`) as the translation does.
    """
    keys = list(keys)
    try:
        probe = fmt.edit(data, tag)
        present = [key for key in keys if probe.get(key) is not None]
        if not present:
            return {}
        for key in present:  # any text will do to learn msgid_plural: the entry must be served to say it
            current = probe.get(key)
            write_into(probe, [(key, {i: f"x{i}" for i in current} if isinstance(current, dict) else "x")])
        read = fmt.read(probe.to_bytes(), tag)
        texts: dict[str, Value] = {}
        for key in present:
            found = read.source_text(key) if hasattr(read, "source_text") else None
            if found is not None:
                texts[key] = found
        mirror = fmt.edit(data, tag)
        for key, text in texts.items():
            current = mirror.get(key)
            if isinstance(current, dict) and isinstance(text, dict):
                plural = text.get("1", text.get("0", ""))
                value: Value = {i: (text.get("0", "") if i == "0" else plural) for i in current}
            else:
                value = text if isinstance(text, str) else text.get("0", "")
            write_into(mirror, [(key, value)])
        compiled = fmt.read(mirror.to_bytes(), tag)
    except (CatalogFileError, KeyError, ValueError):
        return {}
    return {key: (text, compiled.get(key)) for key, text in texts.items()}
