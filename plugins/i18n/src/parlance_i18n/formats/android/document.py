"""Editing an Android values file: values are aapt2's texts (markup kept), written back escaped.

`set` replaces an entry's content only (a `<string/>` opens to hold it; a plural's items
are rewritten only when quantities come or go); `add` puts the entry on the line after the last
one, indented as it is (run on, in a file written on one line); `delete` takes the entry's lines,
and the comment just above it when that comment is its own (followed by a blank line, another
comment or the end of the file, rather than by more entries it may head). Every edit is read back:
a value that would not come back unchanged is refused with ValueError.

Sets of entries the parse found, adds and deletes are planned on the parse and written together
(`XmlDocument`); the file's layout (its last entry, indentation) is read once a parse, and what is
planned keeps it. A delete reads the comment above the entry as planned deletes leave the file: where
one comes right above it only once the entries between go, it settles first.
"""

from __future__ import annotations

from parlance_i18n.formats.android.aapt_text import android_escape, content_style, flatten
from parlance_i18n.formats.android.entries import ARRAY_KEY, ORDER, Entry, entries, prefixes, quantities
from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, ReadLimits, Value
from parlance_i18n.formats.shared.splices import Overlap
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.xmledit import XmlDocument, content_edit, escape_attribute, line_extent
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlFile, XmlNode

__all__ = ["AndroidDocument"]


class AndroidDocument(XmlDocument):
    """A values file being edited: values are aapt2's texts (markup kept), written back escaped."""

    _unreadable = "cannot be written so that aapt2 reads it back unchanged"

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        super().__init__(data, (), limits)

    def _index(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._twice: set[str] = set()  # keys written more than once (a delete takes every one)
        for entry in entries(self._file, None):  # raises for a root other than <resources>
            if self._entries.setdefault(entry.key, entry) is not entry:
                self._twice.add(entry.key)
        self._places: dict[int, int] | None = None  # id(node under <resources>) -> its place there, found once
        self._gone: set[int] = set()  # id() of the nodes under <resources> that planned deletes take
        check_count(len(self._entries), self._limits)
        self._last: XmlNode | None = None  # the entry that ends last (found on the first add)
        self._indents: dict[str, str] = {}  # what `_unit` and `_item_indent` found

    def keys(self) -> list[str]:
        self._settle()
        return list(self._entries)

    def get(self, key: str) -> Value | None:
        if key in self._edited:
            return self._edited[key]
        entry = self._entries.get(key)
        return _value_of(self._file, entry) if entry is not None else None

    def _read_alone(self, alone: XmlFile, key: str) -> Value | None:
        entry = next((entry for entry in entries(alone, None) if entry.key == key), None)
        return _value_of(alone, entry) if entry is not None else None

    def line_of(self, key: str) -> int | None:
        self._settle()
        entry = self._entries.get(key)
        return entry.node.line if entry else None

    def _escape(self, value: str, old_raw: str | None) -> str:
        style = content_style(old_raw) if old_raw else "plain"
        return android_escape(value, style, prefixes(self._file))

    def set(self, key: str, value: Value) -> None:
        if self.PLANS_EDITS and self._plan_set(key, value):
            return
        self._settle()
        entry = self._entries.get(key)
        if entry is None:
            raise KeyError(key)
        if self.get(key) == value:
            return
        self._apply(self._value_edits(entry, key, value), key, value)

    def _value_edits(self, entry: Entry, key: str, value: Value) -> list[tuple[int, int, str]]:
        if entry.kind == "plurals":
            if not isinstance(value, dict):
                raise ValueError(f"{key!r} is a <plurals>: give its forms as a dict by quantity")
            return self._plural_edits(entry.node, value)
        if not isinstance(value, str):
            raise ValueError(f"{key!r} is a <{entry.node.name}>: give its text as a string")
        return [self._content_edit(entry.node, value)]

    def _plan_set(self, key: str, value: Value) -> bool:
        """Plan a set of an entry the parse found and nothing has changed since; False (nothing
        planned) otherwise."""
        entry = self._entries.get(key)
        if entry is None or key in self._edited or not self._untouched(entry.owner.start, entry.owner.end):
            return False
        if self.get(key) == value:
            return True
        edits = self._value_edits(entry, key, value)
        return self._plan_apply(edits, key, value, (entry.owner.start, entry.owner.end), [self._file.root])

    def _content_edit(self, node: XmlNode, value: str) -> tuple[int, int, str]:
        file = self._file
        return content_edit(file, node, self._escape(value, None if node.self_closing else file.content(node)))

    def _plural_edits(self, plurals: XmlNode, forms: dict[str, str]) -> list[tuple[int, int, str]]:
        """Changed items in place; when quantities come or go, the run of items written again with
        the untouched ones as they were, the new ones in CLDR order, one per line as the file has."""
        file = self._file
        unknown = [category for category in forms if category not in ORDER]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a plural quantity; use zero, one, two, few, many or other")
        present: dict[str, XmlNode] = {}
        for quantity, item in quantities(file, plurals):
            if quantity is not None:
                present.setdefault(quantity, item)
        changed = [(item, forms[quantity]) for quantity, item in present.items()
                   if quantity in forms and flatten(file.content(item), strict=False)[0] != forms[quantity]]
        if set(present) == set(forms):
            return [self._content_edit(item, value) for item, value in changed]
        new_text = {id(item): self._item_text(item, value) for item, value in changed}
        pieces: list[tuple[int, str]] = []  # (CLDR order of the item, or -1 to stay where it is; its XML)
        for child in plurals.children:
            quantity = child.attributes.get("quantity", "").strip() if child.name == "item" else None
            if quantity in ORDER and present.get(quantity) is child:
                if quantity in forms:
                    pieces.append((ORDER[quantity], new_text.get(id(child)) or file.raw(child.start, child.end)))
            else:
                pieces.append((-1, file.raw(child.start, child.end)))
        for category in sorted((c for c in forms if c not in present), key=ORDER.__getitem__):
            text = f'<item quantity="{category}">{self._escape(forms[category], None)}</item>'
            later = next((index for index, (order, _) in enumerate(pieces) if order > ORDER[category]), len(pieces))
            pieces.insert(later, (ORDER[category], text))
        children = list(plurals.children)
        if children:
            gap = file.line_gap(children[0].start)
            return [(children[0].start, children[-1].end, gap.join(text for _, text in pieces))]
        gap = file.newline + self._item_indent(self._unit()) if file.indent_of(plurals.start) is not None else ""
        closing = file.newline + (file.indent_of(plurals.start) or "") if gap else ""
        items = "".join(gap + text for _, text in pieces)
        return [content_edit(file, plurals, items + closing)]

    def _item_text(self, item: XmlNode, value: str) -> str:
        """An <item> as written, with a new text."""
        start, end, text = self._content_edit(item, value)
        file = self._file
        return file.raw(item.start, start) + text + file.raw(end, item.end)

    def _unit(self) -> str:
        """The indentation of <resources>' children (one step), four spaces when none shows it."""
        found = self._indents.get("")
        if found is None:
            found = self._indents[""] = next((indent for child in self._file.root.elements()
                                              if (indent := self._file.indent_of(child.start))), "    ")
        return found

    def _item_indent(self, unit: str) -> str:
        """The indentation of an <item> in a <plurals> or <string-array>: as the file has one, else
        two steps."""
        found = self._indents.get("item")
        if found is None:
            found = self._indents["item"] = next((indent for entry in self._entries.values()
                                                  if entry.kind in ("plurals", "item")
                                                  for item in entry.owner.elements("item")
                                                  if (indent := self._file.indent_of(item.start))), "")
        return found or unit * 2

    def _last_entry(self) -> XmlNode | None:
        """The entry (its element under <resources>) that ends last; new entries go after it."""
        if self._last is None and self._entries:
            self._last = max((entry.owner for entry in self._entries.values()), key=lambda node: node.end)
        return self._last

    def add(self, key: str, value: Value) -> None:
        if self.PLANS_EDITS and self._plan_add(key, value):
            return
        self._settle()
        if key in self._entries:
            raise KeyError(f"{key!r} is already in the file; use set to change it")
        file = self._file
        array_item = ARRAY_KEY.fullmatch(key)
        if array_item and isinstance(value, str):
            name, index = array_item.group(1), int(array_item.group(2))
            items = [entry for entry in self._entries.values() if entry.kind == "item" and entry.owner.attributes.get(
                "name", "").strip() == name]
            if items:
                if index != len(items):
                    raise KeyError(f"the next item of the string-array {name!r} is {name}[{len(items)}], not {key}")
                last = items[-1].node
                gap = file.line_gap(last.start)
                self._apply([(last.end, last.end, f"{gap}<item>{self._escape(value, None)}</item>")], key, value)
                return
            if index != 0:
                raise KeyError(f"the string-array {name!r} does not exist; its first item is {name}[0]")
        element = self._element(key, value, array_item.group(1) if array_item and isinstance(value, str) else None)
        self._apply([self._insert_at_end(element)], key, value)

    def _plan_add(self, key: str, value: Value) -> bool:
        """Plan a new entry after the last one (or after the entries planned there before it); False
        (nothing planned) for a string-array's item, a first entry, or a key the file has."""
        if self._gone:
            return False  # the entry it would go after may be one a planned delete takes
        if key in self._entries or key in self._edited or self._last_entry() is None or (
                ARRAY_KEY.fullmatch(key) and isinstance(value, str)):
            return False
        edit = self._insert_at_end(self._element(key, value, None))
        return self._plan_apply([edit], key, value, edit[:2], [self._file.root])

    def _element(self, key: str, value: Value, array: str | None) -> str:
        """A new entry's XML: nested items on their own lines, unless the file is written on one line."""
        file = self._file
        last = self._last_entry()
        one_line = last is not None and file.indent_of(last.start) is None
        indent = "" if one_line else self._unit()
        gap = "" if one_line else file.newline + self._item_indent(indent)
        closing = "" if one_line else file.newline + indent
        if array is not None:
            item = f"<item>{self._escape(value, None)}</item>"  # type: ignore[arg-type]
            return f'<string-array name="{escape_attribute(array)}">{gap}{item}{closing}</string-array>'
        if isinstance(value, dict):
            if not value or any(category not in ORDER for category in value):
                raise ValueError("give a <plurals> as a dict of forms by quantity: zero, one, two, few, many, other")
            items = "".join(f'{gap}<item quantity="{category}">{self._escape(value[category], None)}</item>'
                            for category in sorted(value, key=ORDER.__getitem__))
            return f'<plurals name="{escape_attribute(key)}">{items}{closing}</plurals>'
        return f'<string name="{escape_attribute(key)}">{self._escape(value, None)}</string>'

    def _insert_at_end(self, element: str) -> tuple[int, int, str]:
        """Where a new entry goes: on the line after the last entry, indented as it is."""
        file = self._file
        root = file.root
        newline = file.newline
        last = self._last_entry()
        if last is None:
            last = max(root.elements(), key=lambda node: node.end, default=None)
        if last is not None:
            indent = file.indent_of(last.start)
            if indent is None:  # a file written on one line: run on after the last entry
                return last.end, last.end, element
            line_end = last.end
            while line_end < len(file.text) and file.text[line_end] not in b"\r\n":
                line_end += 1
            if line_end < len(file.text):
                return line_end, line_end, newline + indent + element
            return last.end, last.end, newline + indent + element
        closing = file.indent_of(root.start) or ""
        return content_edit(file, root, f"{newline}{self._unit()}{element}{newline}{closing}")

    def delete(self, key: str) -> None:
        if self.PLANS_EDITS and self._plan_delete(key):
            return
        self._settle()
        entry = self._entries.get(key)
        if entry is None:
            raise KeyError(key)
        file = self._file
        if entry.kind == "item" and sum(1 for _ in entry.owner.elements("item")) > 1:
            start, end = line_extent(file.text, entry.node.start, entry.node.end)
            self._apply([(start, end, "")], key, None)
            return
        owners = [entry.owner for entry in entries(file, None) if entry.key == key]  # duplicates go too
        self._apply([(*_entry_extent(file, owner), "") for owner in owners], key, None)


    def _plan_delete(self, key: str) -> bool:
        """Plan deleting an entry written once (not an array's item: the items after it would be
        numbered anew) where what `_entry_extent` reads is as the parse found it: its lines, and,
        when a comment stands right above it in the file as planned, that comment and the entry
        after it. False (nothing planned) otherwise."""
        entry = self._entries.get(key)
        if entry is None or key in self._edited or key in self._twice or entry.kind == "item":
            return False
        file = self._file
        siblings = file.root.children
        if self._places is None:
            self._places = {id(node): at for at, node in enumerate(siblings)}
        owner = entry.owner
        position = self._places[id(owner)]
        previous = position - 1
        while previous >= 0 and id(siblings[previous]) in self._gone:
            previous -= 1
        commented = previous >= 0 and siblings[previous].name == COMMENT
        if commented and previous != position - 1:
            return False  # a comment comes right above it once the entries between go: the file decides
        start, end = _entry_extent(file, owner, position)
        following = position + 1
        if commented and following + 1 < len(siblings):
            following += 1  # `alone` reads the sibling after a trailing comment too
        text = file.text
        reach = max(_line_end(text, owner.end), end)  # the rest of its line decides whether the line goes
        if commented:
            reach = max(reach, siblings[min(following, len(siblings) - 1)].end)
        lo = min(start, siblings[previous].start) if commented else start
        if end >= len(text) or self._buffer.planned.touches(_line_start(text, lo), reach):
            return False
        try:
            self._buffer.plan([(start, end, "")])
        except Overlap:
            return False
        self._gone.update(id(node) for node in siblings[max(previous, 0):position + 3] if start <= node.start < end)
        self._edited[key] = None
        return True


def _line_start(text: bytes, position: int) -> int:
    newline = text.rfind(b"\n", 0, position)
    return max(newline, text.rfind(b"\r", newline + 1, position)) + 1  # a CR searched for after the LF only


def _line_end(text: bytes, position: int) -> int:
    """Where the line holding `position` ends (its line break, or the end of the text)."""
    line_feed = text.find(b"\n", position)
    if line_feed < 0:
        line_feed = len(text)
    carriage_return = text.find(b"\r", position, line_feed)
    return carriage_return if carriage_return >= 0 else line_feed


def _value_of(file: XmlFile, entry: Entry) -> Value:
    """An entry's value: its text as aapt2 reads it (markup kept), or a plural's forms by quantity."""
    if entry.kind == "plurals":
        return {quantity: flatten(file.content(item), strict=False)[0]
                for quantity, item in quantities(file, entry.node) if quantity is not None}
    return flatten(file.content(entry.node), strict=False)[0]


def _entry_extent(file: XmlFile, owner: XmlNode, position: int | None = None) -> tuple[int, int]:
    """The lines an entry occupies, with a trailing comment on its last line and the comment just
    above it when that comment clearly belongs to it: nothing but a line break between them, and
    the entry followed by a blank line, the end of <resources>, or another comment (so a heading
    comment over several entries stays)."""
    siblings = file.root.children
    if position is None:
        position = next(index for index, node in enumerate(siblings) if node is owner)
    end_node = owner
    following = siblings[position + 1] if position + 1 < len(siblings) else None
    if following is not None and following.name == COMMENT and b"\n" not in file.text[owner.end:following.start] \
            and b"\r" not in file.text[owner.end:following.start]:
        end_node = following  # `<string .../> <!-- note -->` on one line
        following = siblings[position + 2] if position + 2 < len(siblings) else None
    start, end = line_extent(file.text, owner.start, end_node.end)
    previous = siblings[position - 1] if position > 0 else None
    if previous is not None and previous.name == COMMENT and file.indent_of(previous.start) is not None:
        gap = file.text[previous.end:owner.start]
        alone = following is None or following.name == COMMENT or _blank_line(file.text[end_node.end:following.start])
        if not gap.strip() and not _blank_line(gap) and alone:
            start = line_extent(file.text, previous.start, previous.end)[0]
    return start, end


def _blank_line(whitespace: bytes) -> bool:
    return whitespace.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") >= 2
