"""What a message given by a caller becomes in a format's `Document`, and how it is written there.

Callers (a model answering `i18n_missing`, a person) give a message one way for every format: its
text, or its plural forms by CLDR category (`{"one": ..., "few": ..., "other": ...}`). Formats hold
them differently (see `formats/base.py`), so `document_writes` asks the format (`message_writes`)
for the (document key, value) pairs that write one: i18next writes a plural's forms as keys of their
own, PO as msgstr indexes by the file's Plural-Forms, Android, YAML, `.stringsdict` and `.xcstrings`
as one dict of forms (those not given kept as the file has them, so a caller may fix one form
alone), and the formats that write a plural in the message's own syntax refuse forms.

The shape follows the source locale's message (the target's when the source has none): a plural
must be given as forms, a single message as a string; anything else is a ValueError whose text is
the reason a caller sees.

`write_into` applies the pairs to a document and marks the entry as translated where the format
would otherwise not serve it (`Document.mark_translated`: a fuzzy PO entry loses its `fuzzy` flag,
an XLIFF target in state `new`/`needs-translation`/`initial` becomes `translated`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from parlance_i18n.formats import CatalogFormat, Document, Value
from parlance_i18n.locales import LocaleTag

__all__ = [
    "Candidate",
    "Write",
    "candidate_problem",
    "document_writes",
    "has_key",
    "write_into",
]

Candidate = str | dict[str, str]
"""A message as callers give it: its text, or plural forms by CLDR category ("one", "few", ...)."""

Write = tuple[str, "Value | None"]
"""A document key and what it gets: a value, or None to delete it."""

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
    return list(fmt.message_writes(document, key, value, tag, source=source))


def write_into(document: Document, writes: Iterable[Write], anchors: Mapping[str, str] | None = None) -> bool:
    """Apply `writes` (set, add or delete each) and mark what they wrote as translated where the
    format would not serve it otherwise; whether anything changed. A key added goes after the key
    `anchors` gives it (`loop.placement`), where the Document can put it there. Document errors
    propagate."""
    changed = False
    for doc_key, value in writes:
        current = document.get(doc_key)
        if value is None:
            if current is not None:
                document.delete(doc_key)
                changed = True
            continue
        if current == value:
            changed = document.mark_translated(doc_key) or changed
            continue
        if current is None:
            try:
                document.add(doc_key, value, after=anchors.get(doc_key) if anchors else None)
            except KeyError:  # there without a text the format reads as one: set may still give it one
                document.set(doc_key, value)
        else:
            document.set(doc_key, value)
        document.mark_translated(doc_key)
        changed = True
    return changed


def has_key(fmt: CatalogFormat, document: Document, key: str) -> bool:
    """Whether `document` holds a message for `key` (with a text or, in PO, an untranslated entry)."""
    return document.get(key) is not None or bool(fmt.message_keys(document, key))

