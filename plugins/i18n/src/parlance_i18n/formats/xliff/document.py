"""Editing an XLIFF file for one locale: its targets, or its sources for the source language.

Editing changes `<target>` (or `<source>` for the source language): created after the source (or
`<seg-source>`), indented as the source, when missing; deleting a translation removes its target,
deleting from the source-language view removes the unit. State attributes are never touched except
by `set_state(key, state)` (and `mark_translated`, which makes an unserved target `translated`). A
unit of several segments can be read but not set.

Texts and states of the units the parse found, and new units after a container's last one, are
planned on the parse and written together (`XmlDocument`): each edited unit is read back on its own.
"""

from __future__ import annotations

import bisect

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, ReadLimits, Value
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.splices import Overlap
from parlance_i18n.formats.shared.xmledit import (
    XmlDocument,
    content_edit,
    escape_attribute,
    escape_text,
    line_extent,
    set_attribute,
    split_markup,
)
from parlance_i18n.formats.shared.xmltext import XmlFile, XmlNode
from parlance_i18n.formats.xliff.units import (
    CODE_WITH_CONTENT,
    UNSERVED_STATES,
    XLIFF_DOCTYPES,
    Unit,
    elements_named,
    first_child,
    scan_units,
    side_of,
    unit_text,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["STATES_1", "STATES_2", "XliffDocument"]

STATES_1 = frozenset({"new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
                      "needs-review-adaptation", "needs-review-l10n", "translated", "final", "signed-off"})
STATES_2 = frozenset({"initial", "translated", "reviewed", "final"})
_COPIED_ATTRIBUTES = ("datatype", "xml:space")


class XliffDocument(XmlDocument):
    """An XLIFF file being edited for one locale: targets (or sources, for the source language)."""

    def __init__(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._tag = tag
        super().__init__(data, XLIFF_DOCTYPES, limits)

    def _index(self) -> None:
        self._scan = scan_units(self._file, self._tag)
        check_count(len(self._scan.units), self._limits)
        self._units = {unit.key: unit for unit in self._scan.units}
        # "<file>/<id>" finds a unit whose id is unique too (and so is keyed by the id alone).
        self._qualified = {f"{unit.file_name}/{unit.id}": unit for unit in self._scan.units}
        self._states: dict[str, str | None] = {}  # states planned since the parse (None: its unit or target deleted)
        self._ids: set[str] = set()  # every unit id (made by the first add)
        self._in_container: dict[int, tuple[Unit, Unit]] | None = None  # id(container) -> (first, last) unit
        self._file_units: dict[str, Unit] | None = None  # file name -> its first unit

    def _unit(self, key: str) -> Unit | None:
        return self._units.get(key) or self._qualified.get(key)

    def keys(self) -> list[str]:
        self._settle()
        return [key for key, unit in self._units.items() if unit_text(self._file, unit) is not None]

    def get(self, key: str) -> Value | None:
        if key in self._edited:
            return self._edited[key]
        unit = self._unit(key)
        return unit_text(self._file, unit) if unit is not None else None

    def _read_alone(self, alone: XmlFile, key: str) -> Value | None:
        units = scan_units(alone, self._tag).units
        return unit_text(alone, units[0]) if len(units) == 1 else None

    def state(self, key: str) -> str | None:
        """The unit's state as written (None when it has none or there is no such unit)."""
        if key in self._states:
            return self._states[key]
        unit = self._unit(key)
        return unit.state if unit is not None else None

    def line_of(self, key: str) -> int | None:
        """The line of the unit's target (its source, for the source language), else of the unit."""
        self._settle()
        unit = self._unit(key)
        if unit is None:
            return None
        node = next((node for node in unit.text_nodes if node is not None), None)
        return (node or unit.node).line

    def _escape(self, value: str) -> str:
        opaque = CODE_WITH_CONTENT if self._scan.version == 1 else frozenset()
        return "".join(piece if kind == "tag" else escape_text(piece, self._file.newline)
                       for kind, piece in split_markup(value, opaque=opaque))

    def set(self, key: str, value: Value) -> None:
        if self.PLANS_EDITS and self._plan_text(key, value, adding=False):
            return
        self._settle()
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

    def _text_edit(self, unit: Unit, value: str) -> tuple[int, int, str]:
        segment = unit.segments[0]
        name = "target" if unit.side == "target" else "source"
        node = segment.target if unit.side == "target" else segment.source
        escaped = self._escape(value)
        if node is not None:
            return content_edit(self._file, node, escaped)
        after = first_child(segment.node, "seg-source") or segment.source
        if after is None:
            raise ValueError(f"the unit {unit.key!r} has no <source> to put a <target> after")
        gap = self._file.line_gap(after.start)
        prefix = after.name.rpartition(":")[0] + ":" if ":" in after.name else ""
        return after.end, after.end, f"{gap}<{prefix}{name}>{escaped}</{prefix}{name}>"

    def _plan_text(self, key: str, value: Value, *, adding: bool) -> bool:
        """Plan a text for a unit the parse found, untouched since (`adding`: one without a text);
        False (nothing planned) for anything `set` or `add` does otherwise, or refuses."""
        unit = self._unit(key)
        if unit is None or not isinstance(value, str) or key in self._edited or key in self._states:
            return False
        current = self.get(key)
        if (adding and current is not None) or len(unit.segments) != 1:
            return False
        if current == value:
            return True
        node = unit.node
        if not self._untouched(node.start, node.end):
            return False
        try:
            edit = self._text_edit(unit, value)
        except ValueError:
            return False  # `set` says why
        return self._plan_apply([edit], key, value, (node.start, node.end), self._ancestors(node))

    def add(self, key: str, value: Value) -> None:
        if self.PLANS_EDITS and (self._plan_text(key, value, adding=True) or self._plan_unit(key, value)):
            return
        self._settle()
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

    def _plan_unit(self, key: str, value: Value) -> bool:
        """Plan a new unit after its container's last one; False (nothing planned) where there is
        none, or the key names a file or an id the file has."""
        if not isinstance(value, str) or key in self._edited or self._unit(key) is not None \
                or not self._scan.containers:
            return False
        if not self._ids:
            self._ids = {unit.id for unit in self._scan.units}
        container, unit_id = self._container_for(key)
        if unit_id != key or unit_id in self._ids or self._units_in(container) is None:
            return False
        edit = self._new_unit(container, unit_id, value)
        if not self._plan_apply([edit], key, value, edit[:2], [*self._ancestors(container), container]):
            return False
        self._ids.add(unit_id)
        return True

    def _units_in(self, container: XmlNode) -> tuple[Unit, Unit] | None:
        """The first and last unit of a container (of the parse), None when it has none."""
        if self._in_container is None:
            self._in_container = {}
            containers = sorted(self._scan.containers, key=lambda node: node.start)
            starts = [node.start for node in containers]
            for unit in self._scan.units:
                at = bisect.bisect_right(starts, unit.node.start) - 1
                if at >= 0 and unit.node.start < containers[at].end:
                    first = self._in_container.get(id(containers[at]), (unit, unit))[0]
                    self._in_container[id(containers[at])] = (first, unit)
        return self._in_container.get(id(container))

    def _container_for(self, key: str) -> tuple[XmlNode, str]:
        """Where a new unit goes: the file its `<file>/` prefix names, else the last file."""
        if self._file_units is None:
            self._file_units = {}
            for unit in self._scan.units:
                self._file_units.setdefault(unit.file_name, unit)
        for name in sorted(self._file_units, key=len, reverse=True):  # a name may hold slashes (Xcode's)
            if key.startswith(name + "/") and len(key) > len(name) + 1:
                return self._container_of(self._file_units[name]), key[len(name) + 1:]
        return self._scan.containers[-1], key

    def _container_of(self, unit: Unit) -> XmlNode:
        for container in self._scan.containers:
            if container.start < unit.node.start < container.end:
                return container
        return self._scan.containers[-1]

    def _new_unit(self, container: XmlNode, unit_id: str, value: str) -> tuple[int, int, str]:
        """A unit after the container's last one, shaped and indented as that one is."""
        file = self._file
        newline = file.newline
        version = self._scan.version
        found = self._units_in(container)
        last_unit = found[1] if found is not None else None
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
        found = self._units_in(container)
        if found is not None:
            return found[0].side
        root = self._file.root
        file_node = next((node for node in elements_named(root, "file") if node.start <= container.start < node.end), root)
        return side_of(file_node, root, self._scan.version, self._tag)

    def _step(self, unit: Unit | None) -> str:
        """One level of indentation inside a unit, as the file indents, else two spaces."""
        file = self._file
        return (file.step_in(unit.node, file.indent_of(unit.node.start)) if unit is not None else None) or "  "

    def delete(self, key: str) -> None:
        if self._plan_delete(key):
            return
        self._settle()
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

    def _plan_delete(self, key: str) -> bool:
        """Plan deleting a unit (or its target) where every unit has a key of its own: then the unit's
        two keys (its id and file/id) answer None from what was planned."""
        unit = self._unit(key)
        if unit is None or key in self._edited or len(self._units) != len(self._scan.units) or self.get(key) is None:
            return False
        aliases = (unit.key, f"{unit.file_name}/{unit.id}")
        if any(alias in self._edited or alias in self._states for alias in aliases):
            return False
        nodes = [node for node in unit.text_nodes if node is not None] if unit.side == "target" else [unit.node]
        if not self._plan_removals(key, [(node.start, node.end) for node in nodes]):
            return False
        for alias in aliases:
            self._edited[alias] = None
            self._states[alias] = None
        return True

    def mark_translated(self, key: str) -> bool:
        """A target in an unserved state (`new`, `needs-translation`, `initial`) becomes `translated`."""
        if self.state(key) in UNSERVED_STATES:
            self.set_state(key, "translated")
            return True
        return False

    def set_state(self, key: str, state: str) -> None:
        """Set the unit's state: a 1.2 target's `state` (it needs a target), every 2.x segment's."""
        if self.PLANS_EDITS and self._plan_state(key, state):
            return
        self._settle()
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

    def _plan_state(self, key: str, state: str) -> bool:
        """Plan a state where the unit's elements that carry it are as the parse found them."""
        unit = self._unit(key)
        if unit is None or key in self._states or state not in (STATES_1 if unit.version == 1 else STATES_2):
            return False
        if unit.version == 1:
            target = unit.segments[0].target
            if target is None:
                return False
            nodes = [target]
        else:
            nodes = [segment.node for segment in unit.segments if not segment.ignorable]
        if not all(self._untouched(node.start, node.open_end) for node in nodes):
            return False
        try:
            self._buffer.plan([set_attribute(self._file, node, "state", state) for node in nodes
                               if node.attributes.get("state") != state])
        except Overlap:
            return False
        self._states[key] = state
        return True
