"""The sources a PO file carries: gettext's keys are the source texts themselves (msgid, and
msgid_plural for a plural), so every locale's file holds them, translated or not.

`source_texts` gives every entry's source with its `#.` notes and its msgctxt, read from the file's
lines (an untranslated or fuzzy entry is not served, so `PoMessages` does not keep it);
`source_messages` compiles the sources of some keys as their translations are compiled, with the
entry's own flags (`python-format`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlance_i18n.formats.base import CatalogFileError, CatalogFormat, Document, Renderable, SourceText, Value
from parlance_i18n.formats.po.scanner import CONTEXT_SEPARATOR, UTF8_BOM
from parlance_i18n.locales import LocaleTag

__all__ = ["source_messages", "source_texts"]

_ESCAPE = re.compile(r'\\(["\\abfnrtv]|[0-7]{1,3}|x[0-9A-Fa-f]{1,2})')
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", '"': '"', "\\": "\\"}
_STRING = re.compile(r'^\s*"(.*)"\s*$')
_UNDECODABLE = re.compile("[\udc80-\udcff]")
"""What the document keeps of a byte its charset refuses (surrogateescape), so that the file round-trips."""


def source_texts(fmt: CatalogFormat, data: bytes, tag: LocaleTag) -> dict[str, SourceText]:
    """Every key of the file, in file order: its msgid (a plural's `one`/`other`: msgid, msgid_plural),
    the `#.` notes above it and its msgctxt. Raises CatalogFileError when the file cannot be parsed."""
    document = fmt.edit(data, tag)
    lines = _lines(data)
    found: dict[str, SourceText] = {}
    for key in document.keys():
        if key in found or _UNDECODABLE.search(key):  # bytes the charset refuses: the reader reports the entry
            continue
        line = document.line_of(key)
        comment, plural = _around(lines, line - 1) if line else (None, None)
        context, separator, msgid = key.rpartition(CONTEXT_SEPARATOR)
        text: Value = msgid if plural is None else {"one": msgid, "other": plural}
        found[key] = SourceText(text, comment, context if separator else None)
    return found


def source_messages(fmt: CatalogFormat, data: bytes, tag: LocaleTag, keys: Sequence[str]
                    ) -> dict[str, tuple[Value, Renderable | None]]:
    """For `keys` the file has: each one's msgid (and msgid_plural) as its source message.

    Read through the PO format: a copy of the file with each entry's msgstr set to its msgid is read
    back, so the source compiles with the entry's own flags (`python-format`) as the translation does.
    """
    try:
        probe = fmt.edit(data, tag)
        present = [key for key in keys if probe.get(key) is not None]
        if not present:
            return {}
        for key in present:  # any text will do to learn msgid_plural: the entry must be served to say it
            current = probe.get(key)
            _write(probe, key, {i: f"x{i}" for i in current} if isinstance(current, dict) else "x")
        read = fmt.read(probe.to_bytes(), tag)
        texts: dict[str, Value] = {}
        for key in present:
            found = read.source_text(key)  # type: ignore[attr-defined]
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
            _write(mirror, key, value)
        compiled = fmt.read(mirror.to_bytes(), tag)
    except (CatalogFileError, KeyError, ValueError):
        return {}
    return {key: (text, compiled.get(key)) for key, text in texts.items()}


def _write(document: Document, key: str, value: Value) -> None:
    """Give an entry the file has a text, served (not fuzzy)."""
    if document.get(key) != value:
        document.set(key, value)
    document.mark_translated(key)


# --- notes and plural ids, read from the lines ---------------------------------------------------------


def _lines(data: bytes) -> list[str]:
    if data.startswith(UTF8_BOM):
        data = data[3:]
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").split("\n")


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code in _ESCAPES:
            return _ESCAPES[code]
        return chr(int(code[1:], 16) if code[0] == "x" else int(code, 8))
    return _ESCAPE.sub(one, text)


def _around(lines: list[str], index: int) -> tuple[str | None, str | None]:
    """(the `#.` comments above the entry whose key starts at line `index`, its msgid_plural or None)."""
    notes: list[str] = []
    above = index - 1
    while above >= 0 and lines[above].startswith("#") and not lines[above].startswith("#~"):
        if lines[above].startswith("#."):
            notes.append(lines[above][2:].strip())
        above -= 1
    notes.reverse()
    plural: list[str] | None = None
    for line in lines[index:]:
        stripped = line.strip()
        if stripped.startswith("msgstr"):
            break
        if stripped.startswith("msgid_plural"):
            plural = []
            stripped = stripped[len("msgid_plural"):]
        elif plural is None or not stripped.startswith('"'):
            continue
        found = _STRING.match(stripped)
        if found:
            plural.append(_unescape(found.group(1)))
    return ("\n".join(notes) or None), ("".join(plural) if plural is not None else None)
