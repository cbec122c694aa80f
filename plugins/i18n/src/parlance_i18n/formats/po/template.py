"""A template's entry (a `.pot`, as `xgettext` writes it) added to a locale's PO file, as `msgmerge`
adds a message the file lacks: the template's comment lines (`#.` notes for translators, `#:`
references, `#,` flags, `#` comments) above the msgctxt, msgid and msgid_plural, with an empty
msgstr (as many `msgstr[N]` as the file's own Plural-Forms says), written in the file's style.

Previous-msgid lines (`#|`) and a `fuzzy` flag are not carried over: they describe the template's
own history, not the new entry. Where `msgmerge` sorts the entry into the template's order, it goes
after the file's last entry here, as every added PO entry does.
"""

from __future__ import annotations

import functools

from parlance_i18n.formats.base import CatalogFormat, Value
from parlance_i18n.formats.po.document import PoDocument
from parlance_i18n.formats.po.msgstr_forms import nplurals_of
from parlance_i18n.locales import LocaleTag

__all__ = ["add_from_template"]


def add_from_template(fmt: CatalogFormat, document: PoDocument, template: bytes, tag: LocaleTag, key: str) -> bool:
    """Add `key`'s entry of `template` to `document`, untranslated; whether the template has it (KeyError
    when the document has it already, ValueError when the file's charset cannot hold it)."""
    found = _entries(template).get(key)
    if found is None:
        return False
    comments, msgid_plural = found
    value: Value = {str(i): "" for i in range(nplurals_of(fmt, document, tag))} if msgid_plural is not None else ""
    document.add(key, value, msgid_plural=msgid_plural, comments=comments)
    return True


@functools.lru_cache(maxsize=4)  # one plan adds several keys of one template: it is parsed once
def _entries(template: bytes) -> dict[str, tuple[tuple[str, ...], str | None]]:
    """Each entry of the template: its comment lines to carry over and its msgid_plural."""
    parsed = PoDocument(template)
    lines = parsed.lines()
    found: dict[str, tuple[tuple[str, ...], str | None]] = {}
    for key, first, keyline, msgid_plural in parsed.spans():
        comments = tuple(_carried(line.rstrip("\r\n")) for line in lines[first:keyline])
        found[key] = (tuple(line for line in comments if line), msgid_plural)
    return found


def _carried(line: str) -> str:
    """A template's comment line as the new entry carries it ("" for one it does not)."""
    if line.startswith(("#|", "#~")) or not line.startswith("#"):
        return ""
    if line.startswith("#,"):
        flags = [flag for flag in (part.strip() for part in line[2:].split(",")) if flag and flag != "fuzzy"]
        return "#, " + ", ".join(flags) if flags else ""
    return line
