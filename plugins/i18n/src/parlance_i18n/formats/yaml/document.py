"""Editing a Rails YAML catalog by splicing scalars into its original text.

Only the scalar that changes is written, quoted as it was: plain while the new text stays a string
as plain (else single quotes), single or double quotes, or a literal `|` or folded `>` block (double
quotes when a block cannot hold the text). `add` puts a key after its last sibling with the
siblings' indentation (creating the missing parents), in the file's quoting; `delete` removes the
key's lines, its comment when that is clearly its own, and parents it leaves empty. Setting a key
whose value is an alias (`title: *brand`) gives that key its own text; setting an anchored scalar
(`brand: &brand Shop`) changes every alias of it too, as YAML makes them one value. Keys merged in
by `<<` are not the Document's: they are edited where they are written.

The file is parsed once (`psych.compose`) and edits are planned on that parse (`TextDocument`): a
scalar's new text replaces the old one's bytes, and new keys are gathered per mapping they go into
(`_NewKeys`, a tree where an add creates parents) and written after that mapping's last item when
the file is written, deeper mappings first where two end at one place, so that they come out as
adding them one by one would have put them. The file's quoting style is kept as counts of how its
texts are written, updated with every edit. A delete is planned as the removal of the key's lines
where the line above them, as planned deletes leave it, is no comment (or the comment and the lines
around it are as parsed) and its mapping keeps other items. What cannot be planned so (an anchored
scalar, a flow mapping, a text that becomes a plural, a delete that empties a mapping, an add after a
delete, keys asked after edits) makes the planned edits and parses again first.
"""

from __future__ import annotations

import re

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, ReadLimits, Value
from parlance_i18n.formats.shared.limits import check_count, check_text
from parlance_i18n.formats.shared.splices import Overlap
from parlance_i18n.formats.shared.textedit import (
    TextDocument,
    back_over_line_break,
    first_line_break,
    line_end,
    line_start,
    next_line,
    previous_line_start,
)
from parlance_i18n.formats.yaml.keys import MAX_DEPTH, PLURAL_KEYS, key_name, locale_root
from parlance_i18n.formats.yaml.psych import (
    Alias,
    Map,
    Node,
    Scalar,
    Seq,
    block_scalar,
    compose,
    decode,
    is_merge,
    plain_ok,
    quoted,
    resolve,
    text_of,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["YamlDocument"]

_PROPERTIES = re.compile(r"(?:[&!][^\s]*\s+)*")
"""A scalar's anchor and tag (`&brand !!str `), which an edit keeps in front of the new text."""


class _Located:
    """One key of the Document: where its key and value are, and in which mapping."""

    __slots__ = ("key", "value", "parent", "plural")

    def __init__(self, key: Scalar, value: Node, parent: Map,
                 plural: dict[str, tuple[Scalar, Node]] | None) -> None:
        self.key = key
        self.value = value
        self.parent = parent
        self.plural = plural


class _NewKeys:
    """Keys adds put into one mapping, by name, in order: a key's lines (rendered when it was added,
    in the style of that moment), or a mapping an add created, with its own line (`head`) and keys
    (indented by `indent`)."""

    __slots__ = ("head", "indent", "items")

    def __init__(self, head: str, indent: str) -> None:
        self.head = head
        self.indent = indent
        self.items: dict[str, list[str] | _NewKeys] = {}

    def lines(self) -> list[str]:
        out: list[str] = []
        for item in self.items.values():
            if isinstance(item, _NewKeys):
                out.append(item.head)
                out.extend(item.lines())
            else:
                out.extend(item)
        return out


_QUOTES = ("", "'", '"')


def _counted_style(style: str, value: str) -> str | None:
    """The style a text written so counts for in the file's quoting (`_quote_style`): plain always,
    quotes only where the text needs none."""
    if style not in _QUOTES or (style and not plain_ok(value, False)):
        return None
    return style


def _style_of(written: str) -> str:
    """The style of a scalar as written: "", "'", '"', "|" or ">"."""
    return written[0] if written[:1] in ("'", '"', "|", ">") else ""


class YamlDocument(TextDocument):
    """A Rails YAML file being edited: edits planned on one parse, written together."""

    def __init__(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._tag = tag
        self._limits = limits
        text, codec, bom = decode(data)
        check_text(text, limits)
        super().__init__(data, text, codec, bom)

    def _parse(self) -> None:
        self._root_key, self._root = locale_root(compose(self._text)[0], self._tag)
        self._index: dict[str, _Located] = {}
        self._maps: dict[str, Map] = {}
        if self._root is not None:
            self._walk(self._root, "", 0)
        check_count(len(self._index), self._limits)
        self._edited: dict[str, Value | None] = {}  # keys set, added (their values) or deleted (None) since the parse
        self._removed_ends: dict[int, int] = {}  # planned deletes: where one ends -> where it starts
        self._taken: dict[int, int] = {}  # id(mapping) -> how many of its items planned deletes take
        self._new_maps: dict[str, _NewKeys] = {}  # mappings adds created, by path
        self._appended: dict[int, tuple[int, int, _NewKeys]] = {}  # id(mapping) -> (where, indentation, keys)
        self._children: dict[int, dict[str, Node]] = {}  # id(mapping) -> its items by name, found once
        self._counts = self._style_counts()
        self._step_width = self._measure_step()
        self._line_break = first_line_break(self._text)

    def _walk(self, mapping: Map, prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        self._maps[prefix.rstrip(".")] = mapping
        for key, value in mapping.items:
            if is_merge(key) or not isinstance(key, Scalar):
                continue
            name, _ = key_name(key)
            if name is None:
                continue
            full = prefix + name
            target = resolve(value)
            if isinstance(target, Scalar):
                if target.kind == "str":
                    self._index[full] = _Located(key, value, mapping, None)
            elif isinstance(target, Map) and isinstance(value, Map) and value.foreign_tag is None:
                forms = self._in_place_forms(target)
                if forms is not None:
                    self._index[full] = _Located(key, value, mapping, forms)
                else:
                    self._walk(target, full + ".", depth + 1)

    @staticmethod
    def _in_place_forms(mapping: Map) -> dict[str, tuple[Scalar, Node]] | None:
        forms: dict[str, tuple[Scalar, Node]] = {}
        for key, value in mapping.items:
            if not isinstance(key, Scalar) or is_merge(key):
                return None
            name, _ = key_name(key)
            target = resolve(value)
            if name not in PLURAL_KEYS or not isinstance(target, Scalar) or target.kind != "str":
                return None
            forms[name] = (key, value)
        return forms if forms and ("one" in forms or "other" in forms) else None

    # --- reading the Document ---

    def keys(self) -> list[str]:
        self._settle()
        return list(self._index)

    def get(self, key: str) -> Value | None:
        if key in self._edited:
            return self._edited[key]
        found = self._index.get(key)
        if found is None:
            return None
        if found.plural is not None:
            return {name: text_of(value) for name, (_, value) in found.plural.items()}
        return text_of(found.value)

    def line_of(self, key: str) -> int | None:
        self._settle()
        found = self._index.get(key)
        return found.key.line + 1 if found else None

    # --- changing it ---

    def set(self, key: str, value: Value) -> None:
        if self._planning() and self._plan_set(key, value):
            return
        self._settle()
        found = self._index.get(key)
        if found is None:
            raise KeyError(f"{key!r} is not a message of this YAML file; use add")
        if self.get(key) == value:
            return
        if isinstance(value, str) and found.plural is None:
            self._set_scalar(found.value, found.parent.flow, value)
            return
        if isinstance(value, dict) and found.plural is not None:
            self._set_forms(key, value)
            return
        self._replace_value(found, value)

    def _plan_set(self, key: str, value: Value) -> bool:
        """Plan setting a key untouched since the parse: a text, or plural forms that add or change
        forms but drop none; False (nothing planned) for anything else."""
        found = self._index.get(key)
        if found is None or key in self._edited:
            return False
        current = self.get(key)
        if current == value:
            return True
        if isinstance(value, str) and found.plural is None:
            if not self._plannable(found.value):
                return False
            try:
                self._plan_scalar(found.value, found.parent.flow, value)
            except Overlap:
                return False
            self._edited[key] = value
            return True
        if not (isinstance(value, dict) and found.plural is not None and isinstance(current, dict)):
            return False
        mapping = found.value
        forms = found.plural
        if not isinstance(mapping, Map) or mapping.flow or set(forms) - set(value) or not mapping.items:
            return False
        if not all(self._plannable(node) for name, (_, node) in forms.items() if name in value):
            return False
        mark, counts = self._planned.mark(), dict(self._counts)
        try:
            for name, form in value.items():  # as `_set_forms` makes them: in the given order
                if name not in forms:
                    self._plan_insert(mapping, [name], form)
                elif text_of(forms[name][1]) != form:
                    self._plan_scalar(forms[name][1], False, form)
        except Overlap:
            self._planned.undo(mark)
            self._counts = counts
            return False
        self._edited[key] = {**{name: value[name] for name in forms}, **value}  # file order: the old forms first
        return True

    def _plannable(self, node: Node) -> bool:
        """Whether a scalar's new text can be planned on the parse: it is no anchor other keys share,
        and nothing planned has changed its lines."""
        if isinstance(node, Scalar) and node.anchor:
            return False
        return not self._planned.touches(line_start(self._text, node.start), max(node.end - 1, node.start))

    def _plan_scalar(self, node: Node, flow: bool, value: str) -> None:
        start, end, written = self._scalar_edit(node, flow, value)
        self._plan(start, end, written)
        if isinstance(node, Scalar):
            self._count(_counted_style(node.style, node.value), -1)
        self._count(_counted_style(_style_of(written), value), 1)

    def _set_scalar(self, node: Node, flow: bool, value: str) -> None:
        self._splice(*self._scalar_edit(node, flow, value))

    def _scalar_edit(self, node: Node, flow: bool, value: str) -> tuple[int, int, str]:
        """The edit that gives a scalar (or the key an alias stands for) the text `value`."""
        text = self._text
        if isinstance(node, Alias):  # the key gets its own text; the anchor keeps its own
            return node.start, node.end, self._new_scalar(value, flow)
        assert isinstance(node, Scalar)
        scalar = node
        properties = _PROPERTIES.match(text, scalar.start).end()  # type: ignore[union-attr]  # &anchor !tag
        style = scalar.style
        written: str | None = None
        end = scalar.end
        if style in ("|", ">"):
            end = self._block_end(scalar)
            written = block_scalar(value, style, self._block_indent(scalar), self._newline())
        elif style == "" and plain_ok(value, flow):
            written = value
        if written is None:  # plain becomes single-quoted, a block double-quoted, when they cannot hold it
            written = quoted(value, style if style in ("'", '"') else "'" if style == "" else '"')
        return properties, end, written

    def _block_end(self, scalar: Scalar) -> int:
        """The end of a block scalar's last line of text, before its line break (libyaml's end mark is
        past the blank lines that follow)."""
        text = self._text
        end = scalar.end
        while end > scalar.start:
            line = line_start(text, end - 1) if text[end - 1] not in "\r\n" else previous_line_start(text, end)
            content_end = line_end(text, line)
            if text[line:content_end].strip(" \t") or line <= scalar.start:
                return max(content_end, scalar.start)
            end = line
        return line_end(text, scalar.start)

    def _block_indent(self, scalar: Scalar) -> str:
        """The indentation of a block scalar's text (from its first line that has some)."""
        text = self._text
        position = next_line(text, scalar.start)
        while position < scalar.end:
            line = text[position:line_end(text, position)]
            if line.strip():
                return line[:len(line) - len(line.lstrip(" "))]
            position = next_line(text, position)
        return " " * (self._column_of_key(scalar) + self._step())

    def _column_of_key(self, node: Node) -> int:
        text = self._text
        start = line_start(text, node.start)
        line = text[start:node.start]
        return len(line) - len(line.lstrip(" "))

    def _set_forms(self, key: str, value: dict[str, str]) -> None:
        """Each form set, dropped or added in turn (the file is parsed again after each)."""
        for name in [*value, *(name for name in self._forms(key) if name not in value)]:
            forms = self._forms(key)
            mapping = self._index[key].value
            assert isinstance(mapping, Map)
            if name not in value:
                self._remove_item(mapping, *forms[name])
            elif name not in forms:
                self._insert(mapping, [name], value[name])
            elif text_of(forms[name][1]) != value[name]:
                self._set_scalar(forms[name][1], mapping.flow, value[name])

    def _forms(self, key: str) -> dict[str, tuple[Scalar, Node]]:
        forms = self._index[key].plural
        assert forms is not None
        return forms

    def _replace_value(self, found: _Located, value: Value) -> None:
        """A message that changes shape (text to plural forms or back): its value is written anew."""
        text = self._text
        colon = text.index(":", found.key.end)
        end = self._entry_end(found.value)
        if found.parent.flow or getattr(found.value, "flow", False):
            written = " " + self._flow_value(value)
        elif isinstance(value, dict):
            indent = " " * (found.key.column + self._step())
            written = "".join(f"{self._newline()}{indent}{self._new_key(name)}: {self._new_scalar(form, False)}"
                              for name, form in value.items())
        else:
            written = " " + self._new_scalar(value, False)
        self._splice(colon + 1, end, written)

    def add(self, key: str, value: Value) -> None:
        if self._planning() and self._plan_add(key, value):
            return
        self._settle()
        if key in self._index:
            raise KeyError(f"{key!r} is already a message of this YAML file; use set")
        segments = key.split(".")
        if any(not segment for segment in segments):
            raise KeyError(f"{key!r} has an empty segment: Rails keys are names joined by dots")
        if self._root is None:
            self._add_root(segments, value)
            return
        depth = len(segments) - 1
        while depth > 0 and ".".join(segments[:depth]) not in self._maps:
            depth -= 1
        parent_path = ".".join(segments[:depth])
        mapping = self._maps[parent_path]
        rest = segments[depth:]
        existing = self._child(mapping, rest[0])
        if existing is None:
            self._insert(mapping, rest, value)
            return
        if len(rest) > 1 and isinstance(existing, Scalar) and existing.kind == "null" and not mapping.flow:
            item_key = next(item for item, item_value in mapping.items if item_value is existing)
            colon = self._text.index(":", item_key.end)
            lines = self._block_lines(rest[1:], value, " " * (self._column_of_key(item_key) + self._step()))
            self._splice(colon + 1, max(existing.end, colon + 1), "".join(self._newline() + line for line in lines))
            return
        raise KeyError(f"{'.'.join(segments[:depth + 1])!r} already holds a value that is not a mapping of "
                       f"messages, so {key!r} cannot go under it")

    def _plan_add(self, key: str, value: Value) -> bool:
        """Plan adding a key into a block mapping of the parse, or into one an add created; False
        (nothing planned) where `add` must see the current text (or refuses the key)."""
        segments = key.split(".")
        if self._removed:
            return False  # a key deleted since the parse may be where it would go
        if (self._root is None or key in self._index or key in self._edited or any(not s for s in segments)
                or len(segments) > MAX_DEPTH // 2):
            return False
        depth = len(segments) - 1
        while depth > 0 and ".".join(segments[:depth]) not in self._maps \
                and ".".join(segments[:depth]) not in self._new_maps:
            depth -= 1
        path = ".".join(segments[:depth])
        rest = segments[depth:]
        into = self._new_maps.get(path)
        if into is None:
            mapping = self._maps[path]
            if mapping.flow or not mapping.items or rest[0] in self._items_of(mapping):
                return False  # `add` writes it another way, or refuses it
            into = self._appending_to(mapping)
        if rest[0] in into.items:
            return False
        step = " " * self._step()
        for name in rest[:-1]:  # the parents this add creates
            created = _NewKeys(f"{into.indent}{self._new_key(name)}:", into.indent + step)
            into.items[name] = created
            path = f"{path}.{name}" if path else name
            self._new_maps[path] = created
            into = created
        into.items[rest[-1]] = self._block_lines(rest[-1:], value, into.indent)
        self._count_new(value, False)
        self._edited[key] = value
        self._changed = True
        return True

    def _items_of(self, mapping: Map) -> dict[str, Node]:
        """A parsed mapping's items by the name I18n looks them up by (the first of equal names)."""
        found = self._children.get(id(mapping))
        if found is None:
            found = self._children[id(mapping)] = {}
            for key, value in mapping.items:
                if not is_merge(key):
                    name = key_name(key)[0]
                    if name is not None:
                        found.setdefault(name, value)
        return found

    def _appending_to(self, mapping: Map) -> _NewKeys:
        """The keys added after a parsed block mapping's last item (`_insert`'s place and indentation)."""
        found = self._appended.get(id(mapping))
        if found is None:
            indent = " " * self._column_of_key(mapping.items[0][0])
            at = line_end(self._text, self._entry_end(mapping.items[-1][1]))
            found = self._appended[id(mapping)] = (at, len(indent), _NewKeys("", indent))
        return found[2]

    def _before_writing(self) -> None:
        """Plan the added keys' lines: after each mapping's last item, the deeper mapping's first
        where two end at one place (as adding them one at a time puts them)."""
        newline = self._newline()
        for at, _, added in sorted(self._appended.values(), key=lambda found: (found[0], -found[1])):
            self._plan(at, at, "".join(newline + line for line in added.lines()))
        self._appended.clear()

    def _child(self, mapping: Map, name: str) -> Node | None:
        for key, value in mapping.items:
            if not is_merge(key) and key_name(key)[0] == name:
                return value
        return None

    def _insert(self, mapping: Map, path: list[str], value: Value) -> None:
        self._splice(*self._insert_edit(mapping, path, value))

    def _plan_insert(self, mapping: Map, path: list[str], value: Value) -> None:
        self._plan(*self._insert_edit(mapping, path, value))
        self._count_new(value, mapping.flow)

    def _insert_edit(self, mapping: Map, path: list[str], value: Value) -> tuple[int, int, str]:
        """The edit that writes `path` (keys, the last one holding `value`) into `mapping`, after its
        last item."""
        text = self._text
        newline = self._newline()
        if mapping.flow:
            entry = self._flow_entry(path, value)
            if mapping.items:
                at = mapping.items[-1][1].end
                return at, at, ", " + entry
            at = text.index("{", mapping.start) + 1
            return at, at, entry
        if mapping.items:
            indent = " " * self._column_of_key(mapping.items[0][0])
            last_key, last_value = mapping.items[-1]
            end = self._entry_end(last_value)
            at = line_end(text, end)
        else:
            indent = " " * mapping.column
            at = line_end(text, mapping.start)
        lines = self._block_lines(path, value, indent)
        return at, at, "".join(newline + line for line in lines)

    def _block_lines(self, path: list[str], value: Value, indent: str) -> list[str]:
        step = " " * self._step()
        lines = []
        for depth, name in enumerate(path[:-1]):
            lines.append(f"{indent}{step * depth}{self._new_key(name)}:")
        inner = indent + step * (len(path) - 1)
        if isinstance(value, dict):
            lines.append(f"{inner}{self._new_key(path[-1])}:")
            lines.extend(f"{inner}{step}{self._new_key(name)}: {self._new_scalar(form, False)}"
                         for name, form in value.items())
        else:
            lines.append(f"{inner}{self._new_key(path[-1])}: {self._new_scalar(value, False)}")
        return lines

    def _flow_entry(self, path: list[str], value: Value) -> str:
        written = self._flow_value(value)
        for name in reversed(path[1:]):
            written = f"{{{self._new_key(name)}: {written}}}"
        return f"{self._new_key(path[0])}: {written}"

    def _flow_value(self, value: Value) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self._new_key(name)}: {self._new_scalar(form, True)}"
                                   for name, form in value.items()) + "}"
        return self._new_scalar(value, True)

    def _add_root(self, segments: list[str], value: Value) -> None:
        """The file has no messages yet: the locale's root key gets the first."""
        newline = self._newline()
        lines = self._block_lines(segments, value, " " * self._step())
        body = "".join(newline + line for line in lines)
        if self._root_key is not None:  # `en:` with nothing under it
            at = line_end(self._text, self._root_key.end)
            self._splice(at, at, body)
            return
        start = "" if not self._text or self._text.endswith(("\n", "\r")) else newline
        spelling = self._new_key(self._tag.code)
        self._splice(len(self._text), len(self._text), f"{start}{spelling}:{body}{newline}")

    def delete(self, key: str) -> None:
        if self._planning() and self._plan_delete(key):
            return
        self._settle()
        found = self._index.get(key)
        if found is None:
            raise KeyError(f"{key!r} is not a message of this YAML file")
        self._remove_item(found.parent, found.key, found.value)
        # A parent left empty goes too (not the locale's root): `cart:` with nothing under it is nil.
        segments = key.split(".")
        for depth in range(len(segments) - 1, 0, -1):
            parent = self._maps.get(".".join(segments[:depth - 1]))
            if parent is None:
                break
            item = next(((item_key, item_value) for item_key, item_value in parent.items
                         if not is_merge(item_key) and key_name(item_key)[0] == segments[depth - 1]), None)
            if item is None:
                break
            item_key, item_value = item
            emptied = (isinstance(item_value, Scalar) and item_value.kind == "null" and not item_value.style
                       and item_value.value == "") or (isinstance(item_value, Map) and not item_value.items)
            if not emptied:
                break
            self._remove_item(parent, item_key, item_value)

    def _plan_delete(self, key: str) -> bool:
        """Plan deleting a key of a block mapping that keeps other items (no parent goes with it),
        where what `_remove_item` reads is as it will be: its lines, and the line above them as
        planned deletes leave it (only a comment there makes the lines around count, and those must
        be as parsed). False (nothing planned) where the file must be parsed again first: an add is
        pending, the key is written twice or merged into, its text holds an anchor, it holds the
        line the file's indentation step is measured on, or it ends the file."""
        found = self._index.get(key)
        if found is None or key in self._edited or self._appended or self._new_maps:
            return False
        parent, node, value = found.parent, found.key, found.value
        if parent.flow or isinstance(value, Alias) or len(parent.items) - self._taken.get(id(parent), 0) <= 1:
            return False
        if parent is self._root and parent.items[0][0] is node:
            return False  # `_measure_step` reads the root's first item
        name = key_name(node)[0]
        if sum(1 for item, _ in parent.items if is_merge(item) or key_name(item)[0] == name) > 1:
            return False  # written twice, or maybe merged in too: once it goes, another answers
        text = self._text
        first = line_start(text, node.start)
        end = next_line(text, self._entry_end(value))
        if text[first:node.start].strip() or end >= len(text) or "&" in text[node.start:end]:
            return False
        above = first
        while above in self._removed_ends:
            above = self._removed_ends[above]
        start = first
        if above > 0:
            previous = previous_line_start(text, above)
            if self._kept.touches(previous, above):
                return False
            if text[previous:above].strip().startswith("#"):
                if above != first:
                    return False  # a comment comes right above it once the keys between go: the file decides
                top = self._comment_top(first)
                following = next_line(text, self._entry_end(value))
                lo = previous_line_start(text, top) if top > 0 else 0
                if self._planned.touches(lo, line_end(text, following)):
                    return False
                owned = self._owned_comment(first, node, value)
                if owned is not None:
                    start = owned
        try:
            self._plan(start, end, "")
        except Overlap:
            return False
        self._removed_ends[end] = start
        self._taken[id(parent)] = self._taken.get(id(parent), 0) + 1
        for scalar in ([form for _, form in found.plural.values()] if found.plural else [value]):
            if isinstance(scalar, Scalar):
                self._count(_counted_style(scalar.style, scalar.value), -1)  # as `_style_counts` counted it
        self._edited[key] = None
        self._removed = True
        return True

    def _comment_top(self, first: int) -> int:
        """Where the comment lines right above the line at `first` start (`first` when there are none)."""
        text = self._text
        start = first
        while start > 0:
            previous = previous_line_start(text, start)
            if not text[previous:start].strip().startswith("#"):
                break
            start = previous
        return start

    def _remove_item(self, mapping: Map, key: Node, value: Node) -> None:
        text = self._text
        if mapping.flow:
            items = mapping.items
            index = next(i for i, (item_key, _) in enumerate(items) if item_key is key)
            if index + 1 < len(items):
                start, end = key.start, items[index + 1][0].start
            elif index > 0:
                start, end = items[index - 1][1].end, self._flow_item_end(value)
            else:
                start, end = key.start, self._flow_item_end(value)
            self._splice(start, end, "")
            return
        first = line_start(text, key.start)
        comment = self._owned_comment(first, key, value)
        if comment is not None:
            first = comment
        end = next_line(text, self._entry_end(value))
        if end >= len(text) and not text.endswith(("\n", "\r")) and first > 0:
            first = back_over_line_break(text, first)  # the file ends without a line break: keep it so
        self._splice(first, end, "")

    def _flow_item_end(self, value: Node) -> int:
        return value.end

    def _entry_end(self, value: Node) -> int:
        """Where an entry's text ends: its value's (a block scalar's last text line)."""
        if isinstance(value, Scalar) and value.style in ("|", ">"):
            return self._block_end(value)
        if isinstance(value, (Map, Seq)) and not value.flow:
            items = value.items
            if not items:
                return value.start
            last: Node = items[-1][1] if isinstance(value, Map) else items[-1]  # type: ignore[index,assignment]
            return self._entry_end(last)
        return value.end

    def _owned_comment(self, first: int, key: Node, value: Node) -> int | None:
        """The start of the comment lines right above an entry, when they are its own: not when they
        stand after a blank line (or at the top) and a sibling follows the entry on the next line
        (then the comment heads that run of keys)."""
        text = self._text
        start = first
        while start > 0:
            previous = previous_line_start(text, start)
            line = text[previous:start].strip()
            if not line.startswith("#"):
                break
            start = previous
        if start == first:
            return None
        if start > 0 and text[previous_line_start(text, start):start].strip():
            return start  # right under other text (its parent key, a sibling): the entry's own
        following = next_line(text, self._entry_end(value))
        after = text[following:line_end(text, following)]
        if after.strip() and not after.lstrip().startswith("#"):
            column = len(after) - len(after.lstrip(" "))
            if column == self._column_of_key(key):
                return None
        return start

    # --- the file's style ---

    def _newline(self) -> str:
        return self._line_break

    def _step(self) -> int:
        return self._step_width

    def _measure_step(self) -> int:
        """The file's indentation step: how far its first nested key sits right of its parent."""
        root = self._root
        if root is not None and root.items:
            outer = self._column_of_key(self._root_key) if self._root_key is not None else 0
            inner = self._column_of_key(root.items[0][0])
            if inner > outer:
                return inner - outer
        return 2

    def _style_counts(self) -> dict[str, int]:
        """How many of the file's texts are written plain, in single and in double quotes (quotes a
        text needs say nothing about the file's taste, so those are not counted)."""
        counts = dict.fromkeys(_QUOTES, 0)
        for located in self._index.values():
            nodes = [value for _, value in located.plural.values()] if located.plural else [located.value]
            for node in nodes:
                if isinstance(node, Scalar):
                    style = _counted_style(node.style, node.value)
                    if style is not None:
                        counts[style] += 1
        return counts

    def _count(self, style: str | None, change: int) -> None:
        if style is not None:
            self._counts[style] += change

    def _count_new(self, value: Value, flow: bool) -> None:
        """Count the texts of a value just written with `_new_scalar` (all in the style of before)."""
        texts = [value] if isinstance(value, str) else list(value.values())
        for text, style in [(text, _style_of(self._new_scalar(text, flow))) for text in texts]:
            self._count(_counted_style(style, text), 1)

    def _quote_style(self) -> str:
        """How the file writes its texts: "" (plain where it can), "'" or '"', by majority."""
        counts = self._counts
        best = max(counts, key=lambda style: counts[style])
        return best if counts[best] else ""

    def _new_scalar(self, value: str, flow: bool) -> str:
        style = self._quote_style()
        if style == "" and plain_ok(value, flow):
            return value
        return quoted(value, style or "'")

    def _new_key(self, name: str) -> str:
        return name if plain_ok(name, True) and name != "<<" else quoted(name, "'")
