"""The XLIFF format: reading each locale's texts from its units, rendering them as plain text.

Targets whose state is `new` or `needs-translation` (1.2) or `initial` (2.x) are not served:
`states` lists every unit's state, served or not. (XLIFF 2 makes a missing state mean `initial`;
tools omit it on finished translations, so only a written one counts.)

Rendering is plain text: an inline code prints its `equiv-text` (1.2) or `disp`, else `equiv` (2.x);
a 1.2 `<bpt>`/`<ept>`/`<ph>`/`<it>` without one prints the native code it holds; `<mrk>` prints its
content, `<sm/>`/`<em/>` nothing; any other element (`<x/>` without equiv-text, `<g>`, `<pc>`)
prints as written, its content rendered. A unit's `arguments` are the ids of its inline codes, so a
check can compare a translation's with its source's. Notes are `comment()`.

A unit carries its source beside its target (`carries_source`), and a 1.2 unit may say how long its
translation may be (`maxwidth` counted in characters: `max_lengths`).
"""

from __future__ import annotations

import html
import re

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFormat, ReadLimits, Renderable, Template
from parlance_i18n.formats.shared.messages import FixedText, TextMessages
from parlance_i18n.formats.shared.xmledit import split_markup
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.xmltext import attributes, scan, unescape
from parlance_i18n.formats.xliff.document import XliffDocument
from parlance_i18n.formats.xliff.units import (
    CODE_WITH_CONTENT,
    UNSERVED_STATES,
    XLIFF_DOCTYPES,
    local,
    scan_units,
    unit_text,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["XliffFormat", "XliffMessages"]

_TRANSPARENT = frozenset({"mrk"})
_SILENT = frozenset({"sm", "em"})
_UNIT_TAG = re.compile(rb"<(?:[\w.-]+:)?trans-unit\b[^>]*>")
_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


# --- reading ---------------------------------------------------------------------------------------------


class XliffMessages(TextMessages[str]):
    """One XLIFF file's units for one locale: texts kept, rendered on first `get`."""

    def __init__(self, version: int) -> None:
        super().__init__()
        self.version = version
        self.states: dict[str, str | None] = {}
        """Every unit's state (a 1.2 target's `state`, a 2.x segment's), served or not."""

    def _compile(self, key: str, text: str) -> Renderable:
        # plain text, inline codes shown as their equivalents; the codes' ids are its arguments
        shown, ids = _shown(text, self.version)
        return FixedText(text, shown, ids)


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits) -> XliffMessages:
    found = scan_units(scan(data, XLIFF_DOCTYPES, limits), tag)
    check_count(len(found.units), limits)
    file = found.file
    messages = XliffMessages(found.version)
    messages.problems.extend(found.problems)
    for unit in found.units:
        state = unit.state
        messages.states[unit.key] = state
        text = unit_text(file, unit)
        if text is None or (unit.side == "target" and state in UNSERVED_STATES):
            continue
        messages.texts[unit.key] = text
        if unit.notes:
            messages.comments[unit.key] = "\n".join(unescape(file.content(note)).strip() for note in unit.notes)
    return messages


def _shown(value: str, version: int) -> tuple[str, frozenset[str]]:
    """How a value renders as plain text, and the ids of its inline codes."""
    if "<" not in value:
        return value, frozenset()
    out: list[str] = []
    ids: set[str] = set()
    open_pcs: list[dict[str, str]] = []  # a 2.x <pc>'s end shows the dispEnd its start tag carries
    opaque = CODE_WITH_CONTENT if version == 1 else frozenset()
    for kind, piece in split_markup(value, opaque=opaque):
        if kind == "text":
            out.append(piece)
            continue
        name_match = re.match(r"<(/?)([^\s/>]+)", piece)
        assert name_match is not None
        closing, name = name_match.group(1), local(name_match.group(2))
        start_tag = piece[:piece.index(">") + 1]
        found = attributes(start_tag) if not closing else {}
        if "id" in found and name not in _TRANSPARENT and name not in _SILENT:
            ids.add(found["id"])
        if name in _TRANSPARENT or name in _SILENT:
            continue
        if version == 1:
            if "equiv-text" in found:
                out.append(found["equiv-text"])
            elif name in CODE_WITH_CONTENT and not closing and piece.endswith(f"</{name_match.group(2)}>"):
                out.append(unescape(piece[len(start_tag):-len(name_match.group(2)) - 3]))
            else:
                out.append(piece)
        elif name == "pc" and not closing:
            if not piece.endswith("/>"):
                open_pcs.append(found)
            out.append(found.get("dispStart") or found.get("equivStart") or piece)
        elif name == "pc":
            started = open_pcs.pop() if open_pcs else {}
            out.append(started.get("dispEnd") or started.get("equivEnd") or piece)
        else:
            out.append(found.get("disp") or found.get("equiv") or piece)
    return "".join(out), frozenset(ids)


# --- the format ------------------------------------------------------------------------------------------


class XliffFormat(CatalogFormat):
    """XLIFF 1.2 and 2.x: one file per target locale (or the source locale's view of one)."""

    placeholder_pattern = re.compile(r"<(?:[\w.-]+:)?(?:x|ph|bx|ex|it|sc|ec|sm|em|g|pc|bpt|ept)\b[^<>]*>")
    carries_source = True
    limits_length = True
    rename_refusal = ("XLIFF unit ids come from the tool that extracts them, and a unit carries its source text: "
                      "rename the id there and extract again")

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XliffMessages:
        return _read(data, tag, limits)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XliffDocument:
        return XliffDocument(data, tag, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """The template's units with empty targets in state `new`, the target language set (`new_file`)."""
        from parlance_i18n.formats.xliff.new_file import new_xliff_file

        return new_xliff_file(tag, source_tag, template.data if template is not None else None)

    def sniff(self, head: bytes) -> bool:
        return b"<xliff" in head

    def placeholder(self, name: str) -> str:
        """A unit's arguments are the ids of its inline codes."""
        return f'the inline element id="{name}"'

    def max_lengths(self, data: bytes) -> dict[str, int]:
        """XLIFF 1.2's `maxwidth` of each `<trans-unit>` whose `size-unit` is `char` (the standard's
        default unit is the pixel, which cannot be counted here)."""
        if b"maxwidth" not in data:
            return {}
        found: dict[str, int] = {}
        for tag_match in _UNIT_TAG.finditer(data):
            named = {name.decode("ascii", "replace").rpartition(":")[2]:
                          html.unescape((double or single).decode("utf-8", "replace"))
                          for name, double, single in _ATTRIBUTE.findall(tag_match[0])}
            width, unit, unit_id = named.get("maxwidth"), named.get("size-unit"), named.get("id")
            if unit_id is not None and unit == "char" and width is not None and width.strip().isdigit():
                found.setdefault(unit_id, int(width))
        return found
