"""XLIFF 1.2 and 2.x catalogs: translation units with a source, a target, notes and a state.

XLIFF 1.2: `<xliff version="1.2"><file source-language target-language original><body>` with
`<trans-unit id><source><target state><note>`, in `<group>`s at any depth. XLIFF 2.x: `<xliff
version="2.0" srcLang trgLang><file id>` with `<unit id><notes><note><segment state><source>
<target>`, also in groups; a unit's text is its segments' (and `<ignorable>`s') in order.

Keys are unit ids. When the same id occurs in several `<file>`s, each occurrence is keyed
`<file>/<id>`, where `<file>` is the 2.x file's `id` or the 1.2 file's `original` (an id used in one
file only keeps its plain key); an id repeated within one file is a Problem (the first is kept).

Which text a locale gets: a file's `target-language`/`trgLang` matching the tag gives its targets,
its `source-language`/`srcLang` matching gives its sources (exact tags first, then the language
alone); with neither, targets. Targets whose state is `new` or `needs-translation` (1.2) or
`initial` (2.x) are not served: `states` lists every unit's state, served or not. (XLIFF 2 makes a
missing state mean `initial`; tools omit it on finished translations, so only a written one counts.)

Values keep inline elements as written (`<x id="1"/>`, `<g id="2">bold</g>`, `<ph id="3"
disp="{{ name }}"/>`), text unescaped around them. Rendering is plain text: an inline code prints its
`equiv-text` (1.2) or `disp`, else `equiv` (2.x); a 1.2 `<bpt>`/`<ept>`/`<ph>`/`<it>` without one
prints the native code it holds; `<mrk>` prints its content, `<sm/>`/`<em/>` nothing; any other
element (`<x/>` without equiv-text, `<g>`, `<pc>`) prints as written, its content rendered. A unit's
`arguments` are the ids of its inline codes, so a check can compare a translation's with its
source's. Notes are `comment()`.

Editing changes `<target>` (or `<source>` for the source language): created after the source (or
`<seg-source>`), indented as the source, when missing; deleting a translation removes its target,
deleting from the source-language view removes the unit. State attributes are never touched except
by `set_state(key, state)`. A unit of several segments can be read but not set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from parlance_i18n.formats.base import CatalogFileError, CatalogFormat, Problem, Renderable, Value
from parlance_i18n.formats.shared.messages import FixedText, TextMessages
from parlance_i18n.formats.shared.spelling import locale_or_none
from parlance_i18n.formats.shared.xmltext import (
    COMMENT,
    XmlDocument,
    XmlFile,
    XmlNode,
    attributes,
    content_edit,
    escape_attribute,
    escape_text,
    line_extent,
    scan,
    set_attribute,
    split_markup,
    tokens,
    unescape,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["STATES_1", "STATES_2", "UNSERVED_STATES", "XLIFF_DOCTYPES", "XliffDocument", "XliffFormat", "XliffMessages"]

XLIFF_DOCTYPES = ("-//XLIFF//DTD XLIFF//EN",)
"""The public identifier XLIFF 1.0/1.1 files name in a DOCTYPE (accepted, never fetched)."""
STATES_1 = frozenset({"new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
                      "needs-review-adaptation", "needs-review-l10n", "translated", "final", "signed-off"})
STATES_2 = frozenset({"initial", "translated", "reviewed", "final"})
UNSERVED_STATES = frozenset({"new", "needs-translation", "initial"})
_CODE_WITH_CONTENT = frozenset({"bpt", "ept", "ph", "it"})
"""1.2 inline elements whose content is the native code itself (escaped), kept whole in a value."""
_COPIED_ATTRIBUTES = ("datatype", "xml:space")
_TRANSPARENT = frozenset({"mrk"})
_SILENT = frozenset({"sm", "em"})


def _local(name: str) -> str:
    return name if ":" not in name else name.rpartition(":")[2]


def _by_name(node: XmlNode) -> dict[str, list[XmlNode]]:
    """`node`'s child elements grouped by local name, in order (one pass over them)."""
    found: dict[str, list[XmlNode]] = {}
    for child in node.children:
        if child.name != COMMENT:
            found.setdefault(_local(child.name), []).append(child)
    return found


def _first(found: dict[str, list[XmlNode]], name: str) -> XmlNode | None:
    nodes = found.get(name)
    return nodes[0] if nodes else None


def _children(node: XmlNode, name: str) -> Iterator[XmlNode]:
    return (child for child in node.elements() if _local(child.name) == name)


def _child(node: XmlNode, name: str) -> XmlNode | None:
    return next(_children(node, name), None)


# --- structure ----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Segment:
    """Where a unit's text lives: a 2.x <segment> (or <ignorable>), or the 1.2 <trans-unit> itself."""

    node: XmlNode
    source: XmlNode | None
    target: XmlNode | None
    ignorable: bool = False


@dataclass(slots=True)
class _Unit:
    key: str
    id: str
    node: XmlNode
    file_name: str
    segments: list[_Segment]
    notes: list[XmlNode]
    version: int
    side: str  # "target" or "source": which text this locale gets from the unit's file

    @property
    def text_nodes(self) -> list[XmlNode | None]:
        return [segment.target if self.side == "target" else segment.source for segment in self.segments]

    @property
    def state(self) -> str | None:
        """The unit's state: the first unserved one of its segments, else the first written."""
        if self.version == 1:
            target = self.segments[0].target
            return target.attributes.get("state") if target is not None else None
        states = [segment.node.attributes.get("state") for segment in self.segments if not segment.ignorable]
        return next((state for state in states if state in UNSERVED_STATES), next((s for s in states if s), None))


@dataclass(slots=True)
class _Scan:
    file: XmlFile
    version: int
    units: list[_Unit] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    containers: list[XmlNode] = field(default_factory=list)  # 1.2 <body>s / 2.x <file>s, in order


def _version(root: XmlNode) -> int:
    if _local(root.name) != "xliff":
        raise CatalogFileError(f"the root element is <{root.name[:40]}>, not <xliff>", root.line)
    version = root.attributes.get("version", "")
    if version.startswith("2"):
        return 2
    if version.startswith("1"):
        return 1
    namespace = root.attributes.get("xmlns", "")
    return 2 if "xliff:document:2" in namespace else 1


def _matches(language: str | None, tag: LocaleTag, exact: bool) -> bool:
    parsed = locale_or_none(language.strip()) if language else None
    if parsed is None:
        return False
    return parsed == tag if exact else parsed.language == tag.language


def _side(file_node: XmlNode, root: XmlNode, version: int, tag: LocaleTag) -> str:
    if version == 1:
        source, target = file_node.attributes.get("source-language"), file_node.attributes.get("target-language")
    else:
        source, target = root.attributes.get("srcLang"), root.attributes.get("trgLang")
    for exact in (True, False):
        if _matches(target, tag, exact):
            return "target"
        if _matches(source, tag, exact):
            return "source"
    return "target"


def _walk_units(container: XmlNode, unit_name: str) -> Iterator[XmlNode]:
    """Units in document order, through <group>s at any depth (iteratively: nesting is unbounded)."""
    stack = [iter(list(container.elements()))]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        name = _local(child.name)
        if name == unit_name:
            yield child
        elif name == "group":
            stack.append(iter(list(child.elements())))


def _scan_units(file: XmlFile, tag: LocaleTag) -> _Scan:
    root = file.root
    version = _version(root)
    found = _Scan(file, version)
    raw: list[tuple[str, XmlNode, str, int, str]] = []  # (id, unit, file name, file index, side)
    for index, file_node in enumerate(_children(root, "file")):
        side = _side(file_node, root, version, tag)
        name = file_node.attributes.get("id" if version == 2 else "original") or f"file{index + 1}"
        container = file_node if version == 2 else _child(file_node, "body")
        if container is None:
            continue
        found.containers.append(container)
        for unit in _walk_units(container, "unit" if version == 2 else "trans-unit"):
            unit_id = unit.attributes.get("id", "")
            if not unit_id:
                found.problems.append(Problem(None, unit.line, f"a <{_local(unit.name)}> has no id; give it one"))
                continue
            raw.append((unit_id, unit, name, index, side))
    files_of: dict[str, set[int]] = {}
    for unit_id, _, _, index, _ in raw:
        files_of.setdefault(unit_id, set()).add(index)
    seen: dict[str, int] = {}
    for unit_id, unit, name, _, side in raw:
        key = unit_id if len(files_of[unit_id]) == 1 else f"{name}/{unit_id}"
        if key in seen:
            found.problems.append(Problem(key, unit.line, f"the unit id {unit_id!r} is used again (first on line "
                                                          f"{seen[key]}); the first one is used"))
            continue
        seen[key] = unit.line
        parts = _by_name(unit)
        if version == 1:
            segments = [_Segment(unit, _first(parts, "source"), _first(parts, "target"))]
            notes = parts.get("note", [])
        else:
            segments = []
            for child in unit.elements():
                kind = _local(child.name)
                if kind in ("segment", "ignorable"):
                    texts = _by_name(child)
                    segments.append(_Segment(child, _first(texts, "source"), _first(texts, "target"),
                                             ignorable=kind == "ignorable"))
            holder = _first(parts, "notes")
            notes = list(_children(holder, "note")) if holder is not None else []
        found.units.append(_Unit(key, unit_id, unit, name, segments, notes, version, side))
    return found


# --- text and rendering -----------------------------------------------------------------------------------------


def _value(file: XmlFile, node: XmlNode | None, version: int) -> str:
    """An element's content as a value: text unescaped, inline elements as written (a 1.2 code
    element with its escaped content kept whole)."""
    if node is None or node.self_closing:
        return ""
    raw = file.content(node)
    if "<" not in raw:
        return unescape(raw)
    out: list[str] = []
    opaque_depth = 0
    opaque_name = ""
    for token in tokens(raw):
        if opaque_depth:
            out.append(token.raw)
            if token.kind == "start" and _local(token.value) == opaque_name:
                opaque_depth += 1
            elif token.kind == "end" and _local(token.value) == opaque_name:
                opaque_depth -= 1
            continue
        if token.kind == "text":
            out.append(token.value)
        elif token.kind in ("start", "end", "empty"):
            out.append(token.raw)
            if version == 1 and token.kind == "start" and _local(token.value) in _CODE_WITH_CONTENT:
                opaque_depth, opaque_name = 1, _local(token.value)
    return "".join(out)


def _shown(value: str, version: int) -> tuple[str, frozenset[str]]:
    """How a value renders as plain text, and the ids of its inline codes."""
    if "<" not in value:
        return value, frozenset()
    out: list[str] = []
    ids: set[str] = set()
    open_pcs: list[dict[str, str]] = []  # a 2.x <pc>'s end shows the dispEnd its start tag carries
    opaque = _CODE_WITH_CONTENT if version == 1 else frozenset()
    for kind, piece in split_markup(value, opaque=opaque):
        if kind == "text":
            out.append(piece)
            continue
        name_match = re.match(r"<(/?)([^\s/>]+)", piece)
        assert name_match is not None
        closing, name = name_match.group(1), _local(name_match.group(2))
        start_tag = piece[:piece.index(">") + 1]
        found = attributes(start_tag) if not closing else {}
        if "id" in found and name not in _TRANSPARENT and name not in _SILENT:
            ids.add(found["id"])
        if name in _TRANSPARENT or name in _SILENT:
            continue
        if version == 1:
            if "equiv-text" in found:
                out.append(found["equiv-text"])
            elif name in _CODE_WITH_CONTENT and not closing and piece.endswith(f"</{name_match.group(2)}>"):
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


# --- reading -------------------------------------------------------------------------------------------------


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


def _unit_text(file: XmlFile, unit: _Unit) -> str | None:
    nodes = unit.text_nodes
    if unit.side == "target" and all(node is None for node, segment in zip(nodes, unit.segments, strict=True)
                                     if not segment.ignorable):
        return None
    if unit.side == "source" and all(node is None for node in nodes):
        return None
    parts = []
    for node, segment in zip(nodes, unit.segments, strict=True):
        if node is None and segment.ignorable:  # an ignorable without a target reads as its source
            node = segment.source
        parts.append(_value(file, node, unit.version))
    return "".join(parts)


def _read(data: bytes, tag: LocaleTag) -> XliffMessages:
    found = _scan_units(scan(data, XLIFF_DOCTYPES), tag)
    file = found.file
    messages = XliffMessages(found.version)
    messages.problems.extend(found.problems)
    for unit in found.units:
        state = unit.state
        messages.states[unit.key] = state
        text = _unit_text(file, unit)
        if text is None or (unit.side == "target" and state in UNSERVED_STATES):
            continue
        messages.texts[unit.key] = text
        if unit.notes:
            messages.comments[unit.key] = "\n".join(unescape(file.content(note)).strip() for note in unit.notes)
    return messages


# --- editing -------------------------------------------------------------------------------------------------


class XliffDocument(XmlDocument):
    """An XLIFF file being edited for one locale: targets (or sources, for the source language)."""

    def __init__(self, data: bytes, tag: LocaleTag) -> None:
        self._tag = tag
        super().__init__(data, XLIFF_DOCTYPES)

    def _index(self) -> None:
        self._scan = _scan_units(self._file, self._tag)
        self._units = {unit.key: unit for unit in self._scan.units}
        # "<file>/<id>" finds a unit whose id is unique too (and so is keyed by the id alone).
        self._qualified = {f"{unit.file_name}/{unit.id}": unit for unit in self._scan.units}

    def _unit(self, key: str) -> _Unit | None:
        return self._units.get(key) or self._qualified.get(key)

    def keys(self) -> list[str]:
        return [key for key, unit in self._units.items() if _unit_text(self._file, unit) is not None]

    def get(self, key: str) -> Value | None:
        unit = self._unit(key)
        return _unit_text(self._file, unit) if unit is not None else None

    def state(self, key: str) -> str | None:
        """The unit's state as written (None when it has none or there is no such unit)."""
        unit = self._unit(key)
        return unit.state if unit is not None else None

    def line_of(self, key: str) -> int | None:
        """The line of the unit's target (its source, for the source language), else of the unit."""
        unit = self._unit(key)
        if unit is None:
            return None
        node = next((node for node in unit.text_nodes if node is not None), None)
        return (node or unit.node).line

    def _escape(self, value: str) -> str:
        opaque = _CODE_WITH_CONTENT if self._scan.version == 1 else frozenset()
        return "".join(piece if kind == "tag" else escape_text(piece, self._file.newline)
                       for kind, piece in split_markup(value, opaque=opaque))

    def set(self, key: str, value: Value) -> None:
        unit = self._unit(key)
        if unit is None:
            raise KeyError(key)
        if not isinstance(value, str):
            raise ValueError(f"{key!r} is a translation unit: give its text as a string")
        if self.get(key) == value:
            return
        if len(unit.segments) != 1:
            raise ValueError(f"the unit {key!r} has {len(unit.segments)} segments; edit it in a CAT tool, "
                             "which knows where each segment's text goes")
        self._apply([self._text_edit(unit, value)], key, value)

    def _text_edit(self, unit: _Unit, value: str) -> tuple[int, int, str]:
        segment = unit.segments[0]
        name = "target" if unit.side == "target" else "source"
        node = segment.target if unit.side == "target" else segment.source
        escaped = self._escape(value)
        if node is not None:
            return content_edit(self._file, node, escaped)
        after = _child(segment.node, "seg-source") or segment.source
        if after is None:
            raise ValueError(f"the unit {unit.key!r} has no <source> to put a <target> after")
        gap = self._file.line_gap(after.start)
        prefix = after.name.rpartition(":")[0] + ":" if ":" in after.name else ""
        return after.end, after.end, f"{gap}<{prefix}{name}>{escaped}</{prefix}{name}>"

    def add(self, key: str, value: Value) -> None:
        if not isinstance(value, str):
            raise ValueError("an XLIFF unit's text is a string")
        unit = self._unit(key)
        if unit is not None:
            if self.get(key) is not None:
                raise KeyError(f"{key!r} is already in the file; use set to change it")
            self._apply([self._text_edit(unit, value)], key, value)  # the unit is there: give it its text
            return
        if not self._scan.containers:
            raise ValueError("the file has no <file> (1.2: no <body>) to add a unit to")
        container, unit_id = self._container_for(key)
        self._apply([self._new_unit(container, unit_id, value)], key, value)

    def _container_for(self, key: str) -> tuple[XmlNode, str]:
        """Where a new unit goes: the file its `<file>/` prefix names, else the last file."""
        names = sorted({unit.file_name for unit in self._scan.units}, key=len, reverse=True)
        for name in names:  # a file's name may hold slashes itself (Xcode: "App/en.lproj/...")
            if key.startswith(name + "/") and len(key) > len(name) + 1:
                unit = next(unit for unit in self._scan.units if unit.file_name == name)
                return self._container_of(unit), key[len(name) + 1:]
        return self._scan.containers[-1], key

    def _container_of(self, unit: _Unit) -> XmlNode:
        for container in self._scan.containers:
            if container.start < unit.node.start < container.end:
                return container
        return self._scan.containers[-1]

    def _new_unit(self, container: XmlNode, unit_id: str, value: str) -> tuple[int, int, str]:
        """A unit after the container's last one, shaped and indented as that one is."""
        file = self._file
        newline = file.newline
        version = self._scan.version
        last_unit = None
        for unit in self._scan.units:
            if container.start < unit.node.start < container.end:
                last_unit = unit
        if last_unit is not None:
            anchor = last_unit.node
            indent = file.indent_of(anchor.start)
        else:
            anchor = None
            indent = file.child_indent(container, "  ")
        one_line = indent is None
        step = self._step(last_unit)

        def line(level: int) -> str:
            return "" if one_line else newline + (indent or "") + step * level

        escaped = self._escape(value)
        with_target = self._side_of(container) == "target"
        texts = f"{line(2 if version == 2 else 1)}<source>{escaped}</source>"
        if with_target:
            texts += f"{line(2 if version == 2 else 1)}<target>{escaped}</target>"
        # The neighbour's file-wide habits carry over (Xcode's xml:space, Angular's datatype); its
        # own facts (resname, approved, translate) do not.
        habits = "".join(f' {name}="{escape_attribute(last_unit.node.attributes[name])}"'
                         for name in _COPIED_ATTRIBUTES if last_unit is not None and name in last_unit.node.attributes)
        if version == 2:
            body = (f'<unit id="{escape_attribute(unit_id)}"{habits}>{line(1)}<segment>{texts}{line(1)}</segment>'
                    f'{line(0)}</unit>')
        else:
            body = f'<trans-unit id="{escape_attribute(unit_id)}"{habits}>{texts}{line(0)}</trans-unit>'
        if anchor is not None:
            return anchor.end, anchor.end, line(0) + body
        closing = newline + (file.indent_of(container.start) or "") if not one_line else ""
        if container.self_closing:
            return content_edit(file, container, line(0) + body + closing)
        inside = file.raw(container.open_end, container.close_start)
        at = container.close_start - len(inside.encode("utf-8")) + len(inside.rstrip().encode("utf-8"))
        return at, container.close_start, line(0) + body + closing

    def _side_of(self, container: XmlNode) -> str:
        for unit in self._scan.units:
            if container.start < unit.node.start < container.end:
                return unit.side
        root = self._file.root
        file_node = next((node for node in _children(root, "file") if node.start <= container.start < node.end), root)
        return _side(file_node, root, self._scan.version, self._tag)

    def _step(self, unit: _Unit | None) -> str:
        """One level of indentation inside a unit, as the file indents, else two spaces."""
        file = self._file
        return (file.step_in(unit.node, file.indent_of(unit.node.start)) if unit is not None else None) or "  "

    def delete(self, key: str) -> None:
        unit = self._unit(key)
        if unit is None or self.get(key) is None:
            raise KeyError(key)
        file = self._file
        if unit.side == "target":
            edits = [(*line_extent(file.text, node.start, node.end), "") for node in unit.text_nodes
                     if node is not None]
        else:
            edits = [(*line_extent(file.text, unit.node.start, unit.node.end), "")]
        self._apply(edits, key, None)

    def set_state(self, key: str, state: str) -> None:
        """Set the unit's state: a 1.2 target's `state` (it needs a target), every 2.x segment's."""
        unit = self._unit(key)
        if unit is None:
            raise KeyError(key)
        allowed = STATES_1 if unit.version == 1 else STATES_2
        if state not in allowed and not (unit.version == 1 and state.startswith("x-")):
            choices = ", ".join(sorted(allowed))
            raise ValueError(f"{state!r} is not an XLIFF {unit.version} state; use one of: {choices}")
        if unit.version == 1:
            target = unit.segments[0].target
            if target is None:
                raise ValueError(f"the unit {key!r} has no target to give a state to; set its text first")
            nodes = [target]
        else:
            nodes = [segment.node for segment in unit.segments if not segment.ignorable]
        self._apply([set_attribute(self._file, node, "state", state) for node in nodes
                     if node.attributes.get("state") != state], key, None)


class XliffFormat(CatalogFormat):
    """XLIFF 1.2 and 2.x: one file per target locale (or the source locale's view of one)."""

    name = "xliff"
    suffixes = (".xliff", ".xlf")

    def read(self, data: bytes, tag: LocaleTag) -> XliffMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> XliffDocument:
        return XliffDocument(data, tag)

    def sniff(self, head: bytes) -> bool:
        return b"<xliff" in head
