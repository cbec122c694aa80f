"""Editing XML in place, what the XML catalog formats share: text and attribute values escaped as
XML 1.0 allows, tag-shaped text in a value told from text (`split_markup`), the offsets that replace
an element's content, an attribute or whole lines, and `XmlDocument`.

`XmlBuffer` holds the current text, applies replacements given as offsets into it, checks the result
still parses, and writes it back in the file's encoding and BOM. An `XmlDocument` (every XML
format's `Document`) edits through one, and refuses an edit whose value would not read back as it
was given.

Edits are planned on one parse (`splices`) wherever the entry they change, or the place a new entry
goes, is as the parse found it: the edited element is read back on its own, inside copies of its
ancestors' start tags (`XmlDocument._plan_apply`), which tells what reading the whole file would;
the file is written, and parsed again, once. A delete is planned as the removal of its lines
(`_plan_removals`) where no planned edit touches them. An edit that needs the current text (an entry
edited twice, a delete beside another planned edit) makes the planned edits and parses first.
"""

from __future__ import annotations

import bisect
import re
from abc import abstractmethod
from collections.abc import Callable, Collection, Sequence
from typing import ClassVar

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFileError, Document, ReadLimits, Value
from parlance_i18n.formats.shared.splices import Overlap, Splices
from parlance_i18n.formats.shared.xmltext import XmlFile, XmlNode, parse_root, scan

__all__ = [
    "XmlBuffer",
    "XmlDocument",
    "content_edit",
    "escape_attribute",
    "escape_text",
    "line_extent",
    "set_attribute",
    "split_markup",
]

_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# --- writing --------------------------------------------------------------------------------------------


def _check_characters(text: str) -> None:
    bad = _XML_CHAR.search(text)
    if bad:
        raise ValueError(f"the character U+{ord(bad.group()):04X} cannot be written in XML 1.0; remove it")


def escape_text(text: str, newline: str = "\n") -> str:
    """`text` as element content: `&` and `<` escaped (and `>` after `]]`), a carriage return as
    `&#13;`, and each line break written as `newline` (the file's). Raises ValueError for a
    character XML 1.0 cannot hold."""
    _check_characters(text)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace("]]>", "]]&gt;").replace("\r", "&#13;")
    return escaped.replace("\n", newline) if newline != "\n" else escaped


def escape_attribute(text: str, quote: str = '"') -> str:
    """`text` as an attribute value between `quote`s (line breaks and tabs as references)."""
    _check_characters(text)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(quote, "&quot;" if quote == '"' else "&apos;")
    return escaped.replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#9;")


# Tag-shaped text in a value: a start, end or empty tag with a plain or prefixed name.
_VALUE_TAG = re.compile(
    r"""<(/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[A-Za-z_:][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(/?)>""")


def split_markup(value: str, accept: Callable[[str], bool] = lambda name: True,
                 opaque: Collection[str] = ()) -> list[tuple[str, str]]:
    """`value` (text with markup kept as written) cut into ("text", ...) and ("tag", ...) pieces.

    Markup is what can be written back as XML: tags whose name `accept`s that open and close in
    balance, or are empty; an `opaque` element (XLIFF 1.2's `<ph>`, whose content is code already
    escaped) is one piece from its start tag to its end tag. Any other `<` is text.
    """
    found = list(_VALUE_TAG.finditer(value))
    if not found:
        return [("text", value)]
    markup: dict[int, int] = {}  # start offset -> end offset of a piece that is markup
    stack: list[tuple[int, str]] = []
    skip_to = -1
    for index, match in enumerate(found):
        if match.start() < skip_to:
            continue
        name = match.group(2)
        if not accept(name):
            continue
        if match.group(4):
            markup[match.start()] = match.end()
        elif match.group(1):
            if stack and stack[-1][1] == name:
                opened = stack.pop()[0]
                markup[found[opened].start()] = found[opened].end()
                markup[match.start()] = match.end()
            else:
                stack.clear()  # an end tag out of order: what was open cannot balance across it
        elif name in opaque:
            close = value.find(f"</{name}>", match.end())
            if close >= 0:
                markup[match.start()] = skip_to = close + len(name) + 3
        else:
            stack.append((index, name))
    pieces: list[tuple[str, str]] = []
    position = 0
    for start in sorted(markup):
        if start > position:
            pieces.append(("text", value[position:start]))
        pieces.append(("tag", value[start:markup[start]]))
        position = markup[start]
    if position < len(value):
        pieces.append(("text", value[position:]))
    return pieces


def set_attribute(file: XmlFile, node: XmlNode, name: str, value: str) -> tuple[int, int, str]:
    """The edit that sets `name="value"` on `node`'s start tag: in place (keeping its quotes) when
    the attribute is there, else added after the last attribute."""
    tag = file.raw(node.start, node.open_end)
    written = re.search(rf"""(\s{re.escape(name)}\s*=\s*)("[^"]*"|'[^']*')""", tag)
    if written:
        quote = written.group(2)[0]
        start = node.start + len(tag[:written.start(2)].encode("utf-8"))
        end = start + len(written.group(2).encode("utf-8"))
        return start, end, quote + escape_attribute(value, quote) + quote
    closing = len(tag) - (2 if tag.endswith("/>") else 1)
    while closing > 0 and tag[closing - 1] in " \t\r\n":
        closing -= 1
    at = node.start + len(tag[:closing].encode("utf-8"))
    return at, at, f' {name}="{escape_attribute(value)}"'


def content_edit(file: XmlFile, node: XmlNode, content: str) -> tuple[int, int, str]:
    """The edit that makes `content` (raw XML) `node`'s content: between its tags, or, for an empty
    element (`<target/>`), the element written again with a start and an end tag around it."""
    if node.self_closing:
        head = file.raw(node.start, node.open_end - 2).rstrip()
        return node.start, node.end, f"{head}>{content}</{node.name}>"
    return node.open_end, node.close_start, content


def line_extent(text: bytes, start: int, end: int) -> tuple[int, int]:
    """`start`..`end` widened to whole lines (with the line break after) when only whitespace shares
    those lines with it; else unchanged. What deleting an entry removes."""
    newline = text.rfind(b"\n", 0, start)
    line_start = max(newline, text.rfind(b"\r", newline + 1, start)) + 1  # not a search of the whole text for a CR
    if text[line_start:start].strip():
        return start, end
    line_end = end
    while line_end < len(text) and text[line_end] in b" \t":
        line_end += 1
    if line_end < len(text) and text[line_end] not in b"\r\n":
        return start, end
    if text.startswith(b"\r\n", line_end):
        line_end += 2
    elif line_end < len(text):
        line_end += 1
    elif line_start > 0:  # the last line, with no break after it: take the break before instead
        before = line_start - (2 if text[line_start - 2:line_start] == b"\r\n" else 1)
        return before, line_end
    return line_start, line_end


def _line_of(text: bytes, start: int, end: int) -> tuple[int, int]:
    """Where the line holding `start` starts, and where the line break after `end` is (the end of the
    text when there is none)."""
    newline = text.rfind(b"\n", 0, start)
    first = max(newline, text.rfind(b"\r", newline + 1, start)) + 1
    line_feed = text.find(b"\n", end)
    if line_feed < 0:
        line_feed = len(text)
    carriage_return = text.find(b"\r", end, line_feed)  # only before the LF: not a search of the whole text
    return first, carriage_return if carriage_return >= 0 else line_feed


class XmlBuffer:
    """An editable document: replacements by offset into the current `file.text`, checked to parse,
    and written back in the original encoding. Untouched, `to_bytes()` is the original bytes."""

    def __init__(self, data: bytes, allowed_doctypes: Collection[str] = (),
                 limits: ReadLimits = DEFAULT_READ_LIMITS, depth: int | None = None) -> None:
        self._original = data
        self._allowed = allowed_doctypes
        self._depth = depth  # as `scan` takes it
        self.file = scan(data, allowed_doctypes, limits, depth)
        self.changed = False
        self.planned: Splices[bytes] = Splices()  # edits of `file.text` not made yet

    def replace(self, edits: list[tuple[int, int, str]]) -> None:
        """Apply `(start, end, new_text)` replacements (offsets into the current text, not overlapping)
        and parse the result; ValueError, with the text unchanged, when it would not be well-formed."""
        assert not self.planned, "settle the planned edits before replacing"
        if not edits:
            return
        text = self.file.text
        pieces = []
        position = 0
        for start, end, new in sorted(edits, key=lambda edit: edit[0]):
            pieces += [text[position:start], new.encode("utf-8")]
            position = end
        pieces.append(text[position:])
        new_text = b"".join(pieces)
        self.file = XmlFile(new_text, self.parse(new_text), self.file.encoding, self.file.bom, self.file.newline)
        self.changed = True

    def parse(self, text: bytes) -> XmlNode:
        """The root of `text`; ValueError when an edit left it not well-formed."""
        try:
            return parse_root(text, self._allowed, depth=self._depth)
        except CatalogFileError as error:
            raise ValueError(f"the edit would leave the file unreadable ({error.reason})") from None

    def plan(self, edits: Sequence[tuple[int, int, str]]) -> None:
        """Plan `(start, end, new_text)` replacements of the current text; Overlap, with none of them
        planned, when one changes what an edit planned before changes."""
        mark = self.planned.mark()
        try:
            for start, end, new in edits:
                self.planned.add(start, end, new.encode("utf-8"))
        except BaseException:
            self.planned.undo(mark)
            raise
        self.changed = self.changed or bool(edits)

    def settle(self) -> bool:
        """Make the planned edits and parse the result; whether there were any."""
        if not self.planned:
            return False
        text = self.planned.apply(self.file.text)
        self.planned = Splices()
        self.file = XmlFile(text, self.parse(text), self.file.encoding, self.file.bom, self.file.newline)
        return True

    def to_bytes(self) -> bytes:
        if not self.changed:
            return self._original
        return self.file.encode(self.planned.apply(self.file.text))


class XmlDocument(Document):
    """What the XML formats' Documents share: the file in an `XmlBuffer`, an index of its entries
    (`_index`, rebuilt after every parse), `_apply`, which makes a set of edits at once and keeps
    them only when the value they write reads back unchanged, and `_plan_apply`, which plans them
    on the parse on the same terms (see the module docstring).

    A subclass answers `get` for the keys in `_edited` (what was planned) before its index, and
    calls `_settle` before whatever needs the current text. `PLANS_EDITS = False` makes every edit
    settle first: the reference the planned edits are tested against.
    """

    PLANS_EDITS: ClassVar[bool] = True
    TREE_DEPTH: ClassVar[int | None] = None
    """How many levels of elements below the root are built when the file is parsed (`scan`'s
    `depth`): those of a deeper element when first asked for. None: all of them."""
    _unreadable: ClassVar[str] = "cannot be written so that it reads back unchanged"
    """What `_apply` says, after the key, when a value does not read back as it was given."""

    def __init__(self, data: bytes, allowed_doctypes: Collection[str] = (),
                 limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._buffer = XmlBuffer(data, allowed_doctypes, limits, self.TREE_DEPTH)
        self._allowed = allowed_doctypes
        self._limits = limits
        self._reindex()

    @property
    def _file(self) -> XmlFile:
        return self._buffer.file

    @abstractmethod
    def _index(self) -> None:
        """Find the entries of the current file."""

    def _reindex(self) -> None:
        self._edited: dict[str, Value | None] = {}  # keys planned since the parse: their values (None: gone)
        self._child_starts: dict[int, list[int]] = {}  # id(node) -> where its children start
        self._index()

    def _settle(self) -> None:
        """Make the planned edits and parse the result (the entries are the current text's again)."""
        if self._buffer.settle():
            self._reindex()

    def _apply(self, edits: list[tuple[int, int, str]], key: str, value: Value | None) -> None:
        """Make `edits` (the caller has settled); when `value` is given and `key` does not then read
        back as it, undo them and raise ValueError."""
        before = self._buffer.file, self._buffer.changed
        self._buffer.replace(edits)
        self._reindex()
        if value is not None and self.get(key) != value:
            self._buffer.file, self._buffer.changed = before
            self._reindex()
            raise ValueError(f"{key!r} {self._unreadable}")

    def _plan_apply(self, edits: list[tuple[int, int, str]], key: str, value: Value | None,
                    span: tuple[int, int], ancestors: Sequence[XmlNode]) -> bool:
        """Plan `edits`, all within `span` of the text (an element, or where a new one goes), as
        `_apply` would make them: the span is read back on its own, inside `ancestors`' start tags,
        and when it is not well-formed or `key` does not read back as `value` nothing is planned and
        ValueError says why. False (nothing planned) when an edit planned before is in the way."""
        if value is not None or edits:
            alone = self._alone(ancestors, span, edits)
            if value is not None and self._read_alone(alone, key) != value:
                raise ValueError(f"{key!r} {self._unreadable}")
        try:
            self._buffer.plan(edits)
        except Overlap:
            return False
        self._edited[key] = value
        return True

    def _read_alone(self, alone: XmlFile, key: str) -> Value | None:
        """`key`'s value in a file cut down to the element that holds it (`_plan_apply`)."""
        raise NotImplementedError

    def _alone(self, ancestors: Sequence[XmlNode], span: tuple[int, int],
               edits: Sequence[tuple[int, int, str]]) -> XmlFile:
        """`span` of the text with `edits` made in it, inside copies of `ancestors`' start tags (and
        their end tags): the edited part of the file, as a file of its own."""
        text = self._file.text
        start, end = span
        pieces = [text[node.start:node.open_end] for node in ancestors]
        position = start
        for edit_start, edit_end, new in sorted(edits, key=lambda edit: edit[0]):
            pieces += [text[position:edit_start], new.encode("utf-8")]
            position = edit_end
        pieces.append(text[position:end])
        pieces += [f"</{node.name}>".encode() for node in reversed(ancestors)]
        alone = b"".join(pieces)
        return XmlFile(alone, self._buffer.parse(alone), "utf-8", b"", self._file.newline)

    def _ancestors(self, node: XmlNode) -> list[XmlNode]:
        """The elements `node` is inside, the root first."""
        found: list[XmlNode] = []
        current = self._file.root
        while current is not node:
            found.append(current)
            children = current.children
            starts = self._child_starts.get(id(current))
            if starts is None:
                starts = self._child_starts[id(current)] = [child.start for child in children]
            at = bisect.bisect_right(starts, node.start) - 1
            if at < 0:
                raise ValueError("the node is not in this file")
            current = children[at]
        return found

    def _plan_removals(self, key: str, spans: Sequence[tuple[int, int]]) -> bool:
        """Plan deleting `key` by removing each of `spans` with its lines (`line_extent`), as `_apply`
        would remove them now: what is removed depends only on the lines a span is on, so it may be
        planned when no planned edit touches those lines and one ends with a line break. False
        (nothing planned) otherwise."""
        if not self.PLANS_EDITS or key in self._edited:
            return False
        text = self._file.text
        edits = []
        for start, end in spans:
            first, last = _line_of(text, start, end)
            if last >= len(text) or self._buffer.planned.touches(first, last):
                return False
            edits.append((*line_extent(text, start, end), ""))
        try:
            self._buffer.plan(edits)
        except Overlap:
            return False
        self._edited[key] = None
        return True

    def _untouched(self, start: int, end: int) -> bool:
        """Whether no planned edit changes `[start, end)` of the parsed text, or inserts inside it."""
        return not self._buffer.planned.touches(start, max(end - 1, start))

    def to_bytes(self) -> bytes:
        return self._buffer.to_bytes()
