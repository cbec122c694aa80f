"""XLIFF's structure: which units a file has, under which keys, and which of their texts a locale gets.

XLIFF 1.2: `<xliff version="1.2"><file source-language target-language original><body>` with
`<trans-unit id><source><target state><note>`, in `<group>`s at any depth. XLIFF 2.x: `<xliff
version="2.0" srcLang trgLang><file id>` with `<unit id><notes><note><segment state><source>
<target>`, also in groups; a unit's text is its segments' (and `<ignorable>`s') in order.

Keys are unit ids. When the same id occurs in several `<file>`s, each occurrence is keyed
`<file>/<id>`, where `<file>` is the 2.x file's `id` or the 1.2 file's `original` (an id used in one
file only keeps its plain key); an id repeated within one file is a Problem (the first is kept).

Which text a locale gets: a file's `target-language`/`trgLang` matching the tag gives its targets,
its `source-language`/`srcLang` matching gives its sources (exact tags first, then the language
alone); with neither, targets. Values keep inline elements as written (`<x id="1"/>`, `<g
id="2">bold</g>`), text unescaped around them (`unit_text`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from parlance_i18n.formats.base import CatalogFileError, Problem
from parlance_i18n.formats.shared.spelling import locale_or_none
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlFile, XmlNode, tokens, unescape
from parlance_i18n.locales import LocaleTag

__all__ = ["CODE_WITH_CONTENT", "UNSERVED_STATES", "XLIFF_DOCTYPES", "Scan", "Segment", "Unit", "elements_named",
           "first_child", "local", "scan_units", "side_of", "unit_text", "value_of"]

XLIFF_DOCTYPES = ("-//XLIFF//DTD XLIFF//EN",)
"""The public identifier XLIFF 1.0/1.1 files name in a DOCTYPE (accepted, never fetched)."""
UNSERVED_STATES = frozenset({"new", "needs-translation", "initial"})
"""The states of a target that is not served (its text is no translation yet)."""
CODE_WITH_CONTENT = frozenset({"bpt", "ept", "ph", "it"})
"""1.2 inline elements whose content is the native code itself (escaped), kept whole in a value."""


def local(name: str) -> str:
    """An element's name without its namespace prefix."""
    return name if ":" not in name else name.rpartition(":")[2]


def _by_name(node: XmlNode) -> dict[str, list[XmlNode]]:
    """`node`'s child elements grouped by local name, in order (one pass over them)."""
    found: dict[str, list[XmlNode]] = {}
    for child in node.children:
        if child.name != COMMENT:
            found.setdefault(local(child.name), []).append(child)
    return found


def _first(found: dict[str, list[XmlNode]], name: str) -> XmlNode | None:
    nodes = found.get(name)
    return nodes[0] if nodes else None


def elements_named(node: XmlNode, name: str) -> Iterator[XmlNode]:
    """`node`'s child elements of the local name `name`."""
    return (child for child in node.elements() if local(child.name) == name)


def first_child(node: XmlNode, name: str) -> XmlNode | None:
    """`node`'s first child element of the local name `name`, or None."""
    return next(elements_named(node, name), None)


# --- units ----------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Segment:
    """Where a unit's text lives: a 2.x <segment> (or <ignorable>), or the 1.2 <trans-unit> itself."""

    node: XmlNode
    source: XmlNode | None
    target: XmlNode | None
    ignorable: bool = False


@dataclass(slots=True)
class Unit:
    key: str
    id: str
    node: XmlNode
    file_name: str
    segments: list[Segment]
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
class Scan:
    file: XmlFile
    version: int
    units: list[Unit] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    containers: list[XmlNode] = field(default_factory=list)  # 1.2 <body>s / 2.x <file>s, in order


def _version(root: XmlNode) -> int:
    if local(root.name) != "xliff":
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


def side_of(file_node: XmlNode, root: XmlNode, version: int, tag: LocaleTag) -> str:
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
        name = local(child.name)
        if name == unit_name:
            yield child
        elif name == "group":
            stack.append(iter(list(child.elements())))


def scan_units(file: XmlFile, tag: LocaleTag) -> Scan:
    root = file.root
    version = _version(root)
    found = Scan(file, version)
    raw: list[tuple[str, XmlNode, str, int, str]] = []  # (id, unit, file name, file index, side)
    for index, file_node in enumerate(elements_named(root, "file")):
        side = side_of(file_node, root, version, tag)
        name = file_node.attributes.get("id" if version == 2 else "original") or f"file{index + 1}"
        container = file_node if version == 2 else first_child(file_node, "body")
        if container is None:
            continue
        found.containers.append(container)
        for unit in _walk_units(container, "unit" if version == 2 else "trans-unit"):
            unit_id = unit.attributes.get("id", "")
            if not unit_id:
                found.problems.append(Problem(None, unit.line, f"a <{local(unit.name)}> has no id; give it one"))
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
            segments = [Segment(unit, _first(parts, "source"), _first(parts, "target"))]
            notes = parts.get("note", [])
        else:
            segments = []
            for child in unit.elements():
                kind = local(child.name)
                if kind in ("segment", "ignorable"):
                    texts = _by_name(child)
                    segments.append(Segment(child, _first(texts, "source"), _first(texts, "target"),
                                             ignorable=kind == "ignorable"))
            holder = _first(parts, "notes")
            notes = list(elements_named(holder, "note")) if holder is not None else []
        found.units.append(Unit(key, unit_id, unit, name, segments, notes, version, side))
    return found


# --- a unit's text ------------------------------------------------------------------------------------------


def unit_text(file: XmlFile, unit: Unit) -> str | None:
    """The text the locale gets from `unit` as a value, or None when it has none."""
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
        parts.append(value_of(file, node, unit.version))
    return "".join(parts)


def value_of(file: XmlFile, node: XmlNode | None, version: int) -> str:
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
            if token.kind == "start" and local(token.value) == opaque_name:
                opaque_depth += 1
            elif token.kind == "end" and local(token.value) == opaque_name:
                opaque_depth -= 1
            continue
        if token.kind == "text":
            out.append(token.value)
        elif token.kind in ("start", "end", "empty"):
            out.append(token.raw)
            if version == 1 and token.kind == "start" and local(token.value) in CODE_WITH_CONTENT:
                opaque_depth, opaque_name = 1, local(token.value)
    return "".join(out)
