"""The XML scanner the XML catalog formats share: where each element starts and ends, byte for byte,
so a format can read its messages and splice a new value into exactly the bytes that held the old one.

`scan(data)` parses with the standard library's expat (no new dependency) and returns an `XmlFile`:

- `text`: the document as UTF-8 bytes (the file itself when it is UTF-8 without a BOM), on which
  every offset is counted; `encoding`, `bom` and `newline` say how to write it back (`encode`).
- `root`: an `XmlNode` tree of elements and comments with the offsets of each start tag, content
  and end tag, and the line each starts on. Content is never decoded up front: a format slices the
  raw content (`content`) and reads it with `tokens`, `unescape` or its own rules (aapt2's, ...).
  With `depth`, only that many levels below the root are built as the file is parsed, each deeper
  element's children when first asked for (`.stringsdict`: its entries, which it mostly reads
  straight from their text); the whole text is checked by expat first either way.

Hostile XML is refused before it can cost anything, with a `CatalogFileError` naming the reason:
entity declarations (billion laughs, quadratic blowup, external entities: `<!ENTITY` is refused
where it is declared, so nothing is ever expanded), references to undefined entities, and any
external DTD except the few public identifiers a format names (`allowed_doctypes`: every plist
names Apple's). No DTD or entity is ever fetched: parameter entities are never parsed and the
external-entity handler refuses. A file past its `ReadLimits` is refused too: more text than it may
hold, before parsing, and more elements than `ELEMENTS_PER_MESSAGE` times the messages it may hold,
counted as they are parsed (a message takes a few elements: a unit, its source, target and note;
a plural's items), so that no file can make the tree outgrow what its messages need (a tree built
in part is counted before anything is built, when the file has more '<' than that).

The editing side (escaping, offsets to splice, `XmlDocument`) is `xmledit`.
"""

from __future__ import annotations

import codecs
import gc
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple
from xml.parsers import expat

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFileError, ReadLimits
from parlance_i18n.formats.shared.limits import check_text

__all__ = ["COMMENT", "ELEMENTS_PER_MESSAGE", "Token", "XmlFile", "XmlNode", "attributes", "parse_root", "scan",
           "tokens", "unescape"]

COMMENT = "#comment"
"""The `name` of an `XmlNode` that is a comment."""
ELEMENTS_PER_MESSAGE = 20
"""Elements and comments a file may hold per message it may hold (`ReadLimits.max_messages`): a
.stringsdict plural takes 16, an XLIFF unit with inline codes a dozen."""

_START_TAG = re.compile(rb"""<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*/?>""")
_DECLARED_ENCODING = re.compile(rb"""<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']""")
_NEWLINE = re.compile(rb"\r\n|\n|\r")
"""Characters XML 1.0 cannot hold at all, not even as a character reference."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(slots=True, eq=False)
class XmlNode:
    """An element (or a comment, `name == COMMENT`) with its offsets in `XmlFile.text`.

    `start` is its `<`; `open_end` is just past its start tag's `>`; `close_start` is its end tag's
    `<` (== `open_end` for `<x/>`); `end` is just past its last `>`. For a comment, `open_end` and
    `close_start` bound the comment's text. `line` is the 1-based line of `start`.
    """

    name: str
    attributes: dict[str, str]
    start: int
    open_end: int
    close_start: int
    end: int
    line: int
    children: Sequence[XmlNode] = ()
    """Child elements and comments in order (a shared empty tuple for a leaf, a list otherwise)."""

    @property
    def self_closing(self) -> bool:
        return self.open_end == self.end

    def elements(self, name: str | None = None) -> Iterator[XmlNode]:
        """The child elements (not comments), or only those called `name`."""
        for child in self.children:
            if child.name != COMMENT and (name is None or child.name == name):
                yield child

    def first(self, name: str) -> XmlNode | None:
        return next(self.elements(name), None)


_CHILDREN = XmlNode.__dict__["children"]  # the slot itself, which `_UnbuiltNode.children` stands in front of


class _UnbuiltNode(XmlNode):
    """An element whose children are built when first asked for (`scan`'s `depth`); an `XmlNode`
    like any other to its reader. Only these nodes pay for the check, not every other node's
    `children`."""

    __slots__ = ("source",)

    def __init__(self, source: _Source, *fields: Any) -> None:
        super().__init__(*fields)
        self.source: _Source | None = source

    @property
    def children(self) -> Sequence[XmlNode]:
        source = self.source
        if source is not None:
            self.source = None
            source.build_children(self)
        return _CHILDREN.__get__(self)  # type: ignore[no-any-return]

    @children.setter
    def children(self, value: Sequence[XmlNode]) -> None:
        _CHILDREN.__set__(self, value)


@dataclass(slots=True)
class XmlFile:
    """A parsed document: UTF-8 `text` with the node tree on it, and how to write it back."""

    text: bytes
    root: XmlNode
    encoding: str
    bom: bytes
    newline: str

    def content(self, node: XmlNode) -> str:
        """The raw XML between `node`'s start and end tags (escapes, CDATA and markup as written)."""
        return self.text[node.open_end:node.close_start].decode("utf-8")

    def raw(self, start: int, end: int) -> str:
        return self.text[start:end].decode("utf-8")

    def indent_of(self, offset: int) -> str | None:
        """The whitespace between the start of `offset`'s line and `offset`, or None when the line has
        something else before it."""
        line_start = self.text.rfind(b"\n", 0, offset) + 1
        line_start = max(line_start, self.text.rfind(b"\r", 0, offset) + 1)
        before = self.text[line_start:offset]
        return before.decode("utf-8") if not before.strip() else None

    def line_gap(self, offset: int) -> str:
        """What puts a new sibling on a line of its own, aligned with what is at `offset`: the file's
        line break and that line's indentation; "" when `offset` shares its line (a file written on
        one line), so that the sibling runs on as the file does."""
        indent = self.indent_of(offset)
        return self.newline + indent if indent is not None else ""

    def step_in(self, node: XmlNode, outer: str | None) -> str | None:
        """How much further than `outer` (an indentation) `node`'s first child element is indented:
        one level of the file's indentation; None when that child is not on a deeper line of its own."""
        for child in node.elements():
            inner = self.indent_of(child.start)
            if outer is not None and inner is not None and inner.startswith(outer) and len(inner) > len(outer):
                return inner[len(outer):]
            break
        return None

    def child_indent(self, parent: XmlNode, fallback_unit: str = "    ") -> str:
        """The indentation of `parent`'s children: its first child's on its own line, else the
        parent's own plus one step (a tab when the parent is tab-indented, else `fallback_unit`)."""
        for child in parent.children:
            indent = self.indent_of(child.start)
            if indent is not None:
                return indent
        own = self.indent_of(parent.start) or ""
        return own + ("\t" if own.startswith("\t") else fallback_unit)

    def line_at(self, offset: int) -> int:
        """The 1-based line of `offset` (CRLF, LF and CR each end a line, as expat counts)."""
        return len(_NEWLINE.findall(self.text, 0, offset)) + 1

    def encode(self, text: bytes) -> bytes:
        """`text` (UTF-8, as edited) in the file's own encoding, BOM first."""
        if self.encoding == "utf-8":
            return self.bom + text
        return self.bom + text.decode("utf-8").encode(self.encoding, "xmlcharrefreplace")


# --- scanning ---------------------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, reason: str, line: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def scan(data: bytes, allowed_doctypes: Collection[str] = (), limits: ReadLimits = DEFAULT_READ_LIMITS,
         depth: int | None = None) -> XmlFile:
    """Parse `data`; raises CatalogFileError when it is not well-formed, hostile, undecodable, or
    more than `limits` allow.

    `allowed_doctypes`: public identifiers (`-//Apple//DTD PLIST 1.0//EN`) a DOCTYPE may name. The
    DTD is never read; any other external DTD is refused. `depth`: how many levels of elements below
    the root are built up front (None: all); a deeper element's children are built when first asked
    for, so that a format that reads most entries from their raw text builds no node inside them.
    The whole text is checked either way.
    """
    encoding, bom = _detect_encoding(data)
    if encoding == "utf-8":
        text = data[len(bom):]
    else:
        try:
            decoded = data[len(bom):].decode(encoding)
        except UnicodeDecodeError as error:
            raise CatalogFileError(
                f"the file is not valid {encoding} (byte {error.start + len(bom)}); save it in the encoding "
                "its XML declaration names", None) from None
        if decoded.encode(encoding) != data[len(bom):]:
            raise CatalogFileError(f"the file's {encoding} bytes do not read back the same, so it cannot be "
                                   "edited byte-exactly; save it as UTF-8", None)
        text = decoded.encode("utf-8")
    check_text(text, limits)
    root = parse_root(text, allowed_doctypes, limits.max_messages * ELEMENTS_PER_MESSAGE, depth)
    first_newline = _NEWLINE.search(text)
    newline = first_newline.group().decode("ascii") if first_newline else "\n"
    return XmlFile(text=text, root=root, encoding=encoding, bom=bom, newline=newline)


def _detect_encoding(data: bytes) -> tuple[str, bytes]:
    """The Python codec name and the BOM of `data`, from its BOM or else its XML declaration."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, bom
    if data.startswith(b"<\x00?\x00"):
        return "utf-16-le", b""
    if data.startswith(b"\x00<\x00?"):
        return "utf-16-be", b""
    declared = _DECLARED_ENCODING.match(data, 0, 200)
    if declared is None:
        return "utf-8", b""
    name = declared.group(1).decode("ascii")
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise CatalogFileError(f"the XML declaration names the encoding {name!r}, which is not known; "
                               "declare UTF-8 and save the file as UTF-8", 1) from None
    if codec.startswith(("utf-16", "utf-32")):
        raise CatalogFileError(f"the XML declaration says {name} but the file has no byte order mark and "
                               "does not start like UTF-16; save it as UTF-8", 1)
    return ("utf-8" if codec == "utf-8" else codec), b""


_HANDLERS = ("StartElementHandler", "EndElementHandler", "CommentHandler", "StartDoctypeDeclHandler",
             "EntityDeclHandler", "UnparsedEntityDeclHandler", "ExternalEntityRefHandler", "SkippedEntityHandler")


def parse_root(text: bytes, allowed_doctypes: Collection[str], max_nodes: int | None = None,
               depth: int | None = None) -> XmlNode:
    """The element tree of `text` (UTF-8, as `XmlFile.text`); CatalogFileError as `scan` raises it,
    and when it holds more than `max_nodes` elements and comments; `depth` as `scan` takes it.

    The whole tree is built from expat's calls as it parses (`_expat_tree`). A tree built in part
    (`depth`) takes two passes: expat checks the whole text with no Python call per element
    (`_check`), then `_Source` builds the elements it is asked for with one regular expression match
    per tag (per element, for an element holding only text), which on checked text finds exactly
    the elements expat does. A DOCTYPE with an internal subset can give attributes defaults, which
    only expat applies: such a file's tree is always built whole, from expat's calls.
    """
    if depth is not None:
        root = _check(text, allowed_doctypes, max_nodes)
        if not root.internal_subset:
            return _without_collecting(lambda: _Source(text).tree(root.start, root.line, depth + 1))
    return _without_collecting(lambda: _expat_tree(text, allowed_doctypes, max_nodes))


def _without_collecting(build: Callable[[], XmlNode]) -> XmlNode:
    """`build()` with the cyclic garbage collector paused: the tree is one object per element and
    creates no cycle, so collecting while it grows only costs time (a third of it on a 7 MB file)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return build()
    finally:
        if collecting:
            gc.enable()


class _Root(NamedTuple):
    start: int
    line: int
    internal_subset: bool


def _check(text: bytes, allowed_doctypes: Collection[str], max_nodes: int | None) -> _Root:
    """Parse `text` with expat, building nothing; where its root element starts, and whether its
    DOCTYPE has an internal subset. Raises CatalogFileError for what `scan` refuses."""
    parser = _parser()
    found: list[int] = []
    internal: list[bool] = []
    # More elements than `max_nodes` need more '<' than that: only then is each one counted.
    counting = max_nodes is not None and text.count(b"<") > max_nodes
    left = max_nodes or 0

    def root(name: str, attrs: object) -> None:
        found.extend((parser.CurrentByteIndex, parser.CurrentLineNumber))
        parser.StartElementHandler = None  # the rest of the elements cost expat alone

    def counted_element(name: str, attrs: object) -> None:
        if not found:
            found.extend((parser.CurrentByteIndex, parser.CurrentLineNumber))
        counted()

    def counted(*_: object) -> None:
        nonlocal left
        left -= 1
        if left < 0:
            raise _too_many(parser, max_nodes)

    def doctype(name: str, system_id: str | None, public_id: str | None, has_internal_subset: int) -> None:
        internal.append(bool(has_internal_subset))
        _check_doctype(parser, allowed_doctypes, system_id, public_id)

    if not counting:
        parser.StartElementHandler = root
    else:
        parser.StartElementHandler = counted_element
        parser.CommentHandler = counted
    parser.StartDoctypeDeclHandler = doctype
    _run(parser, text)
    return _Root(found[0], found[1], any(internal))


def _parser() -> expat.XMLParserType:
    """An expat parser that never reads a DTD and refuses what `scan` refuses (its doctype check aside)."""
    parser = expat.ParserCreate("UTF-8")  # the text is UTF-8 whatever the declaration says
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = False

    def entity(name: str, *_: object) -> None:
        raise _Refused(f"the DOCTYPE declares the entity {name[:40]!r}; entity declarations are refused "
                       "(they can expand without bound or read other files): remove them and write the text",
                       parser.CurrentLineNumber)

    def external(*_: object) -> int:
        raise _Refused("the file refers to an external entity, which is never read", parser.CurrentLineNumber)

    def skipped(name: str, _: int) -> None:
        raise _Refused(f"the entity &{name[:40]}; is not defined (entities of a DTD are never read); write the "
                       "character itself or a character reference such as &#160;", parser.CurrentLineNumber)

    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.ExternalEntityRefHandler = external
    parser.SkippedEntityHandler = skipped
    return parser


def _check_doctype(parser: expat.XMLParserType, allowed_doctypes: Collection[str], system_id: str | None,
                   public_id: str | None) -> None:
    if (system_id or public_id) and public_id not in allowed_doctypes:
        named = public_id or system_id or ""
        raise _Refused(f"the DOCTYPE names an external DTD ({named[:80]!r}), which is never fetched; "
                       "remove the DOCTYPE line", parser.CurrentLineNumber)


def _run(parser: expat.XMLParserType, text: bytes) -> None:
    """Parse all of `text`; CatalogFileError for what is not well-formed or refused."""
    try:
        parser.Parse(text, True)
    except _Refused as refused:
        raise CatalogFileError(refused.reason, refused.line) from None
    except expat.ExpatError as error:
        if error.code == expat.errors.codes[expat.errors.XML_ERROR_UNDEFINED_ENTITY]:
            raise CatalogFileError("the file uses an undefined entity (XML defines only &lt; &gt; &amp; &quot; "
                                   "&apos;); write the character itself or a reference such as &#160;",
                                   error.lineno) from None
        raise CatalogFileError(f"the file is not well-formed XML: {expat.ErrorString(error.code)}",
                               error.lineno) from None
    finally:  # the handlers refer to the parser: break that cycle so it is freed
        for handler in _HANDLERS:
            setattr(parser, handler, None)


# One match per piece of markup inside the root element. A start tag followed by text and its own end
# tag is matched whole (a leaf: most elements of a catalog), so that it takes one step, not two.
# Inside checked XML a '<' starts markup and nothing else, and a tag ends at the first '>' outside
# its quoted attribute values.
_MARKUP = re.compile(rb"""
    <(?:
        (?P<name>[^\s/>!?]+)(?P<attributes>(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*
            (?:(?P<empty>/)>|>(?:(?P<text>[^<]*+)</(?P=name)\s*>)?)
      | (?P<close>/)[^>]*>
      | (?P<comment>!--).*?-->
      | !\[CDATA\[.*?\]\]>
      | \?.*?\?>
    )""", re.S | re.X)
_NAME, _ATTRIBUTES, _EMPTY, _TEXT, _CLOSE, _COMMENT_GROUP = (_MARKUP.groupindex[group] for group in (
    "name", "attributes", "empty", "text", "close", "comment"))


class _Source:
    """Checked text (`_check`) the tree is built from: each element and comment inside the root, to
    `levels` levels below the document (the root is the first; None: all), the children of a deeper
    element being built when first asked for (`XmlNode.children`)."""

    __slots__ = ("_lines", "_names", "_same_name", "text")

    def __init__(self, text: bytes) -> None:
        self.text = text
        # Lines are counted as expat counts them: CRLF, LF and CR each end one (a copy of the text
        # with every line break one LF, at the same offsets, is counted when the file has a CR).
        self._lines = text.replace(b"\r\n", b" \n").replace(b"\r", b"\n") if b"\r" in text else text
        self._names: dict[bytes, str] = {}
        self._same_name: dict[bytes, re.Pattern[bytes]] = {}

    def tree(self, root_start: int, root_line: int, levels: int | None) -> XmlNode:
        """The root element, which starts at `root_start` on line `root_line`."""
        document = XmlNode("", {}, 0, 0, len(self.text), len(self.text), 1)
        self._build(document, root_start, root_line, len(self.text), levels)
        return document.children[0]

    def build_children(self, node: XmlNode) -> None:
        line = node.line + self._lines.count(b"\n", node.start, node.open_end)
        self._build(node, node.open_end, line, node.close_start, None)

    def _build(self, parent: XmlNode, position: int, line: int, stop: int, levels: int | None) -> None:
        """Build `parent`'s children from `position` (on `line`) to `stop`."""
        text = self.text
        count_lines = self._lines.count
        names = self._names
        stack = [parent]
        current = parent
        counted_to = position
        document = not parent.name
        while True:  # once per element skipped (`levels`): matching goes on after it
            for match in _MARKUP.finditer(text, position, stop):
                kind = match.lastindex  # which group closed last says what was matched
                if kind == _CLOSE:
                    node = stack.pop()
                    node.close_start, node.end = match.span()
                    if document and len(stack) == 1:
                        return  # the root element has ended: what follows it is no element's
                    current = stack[-1]
                    continue
                if kind is None:
                    continue  # CDATA or a processing instruction: content, as text is
                start, end = match.span()
                line += count_lines(b"\n", counted_to, start)
                counted_to = start
                if kind == _COMMENT_GROUP:
                    node = XmlNode(COMMENT, {}, start, start + 4, end - 3, end, line)
                else:
                    raw_name = match.group(_NAME)
                    name = names.get(raw_name)
                    if name is None:
                        name = names[raw_name] = raw_name.decode("utf-8")
                    attributes_raw = match.group(_ATTRIBUTES)
                    attrs = _attribute_values(attributes_raw) if attributes_raw else {}
                    if kind == _TEXT:
                        open_end, close_start = match.span(_TEXT)
                        node = XmlNode(name, attrs, start, open_end, close_start, end, line)
                    elif kind == _ATTRIBUTES and levels is not None and len(stack) >= levels:
                        close_start, position = self._skip(raw_name, end)
                        node = _UnbuiltNode(self, name, attrs, start, end, close_start, position, line)
                    else:
                        node = XmlNode(name, attrs, start, end, end, end, line)
                if current.children:
                    current.children.append(node)  # type: ignore[attr-defined]
                else:
                    current.children = [node]
                if kind != _ATTRIBUTES:  # a comment, an empty element or one holding only text
                    if document and current is parent:
                        return  # the root element is one of these
                    continue
                if node.__class__ is _UnbuiltNode:
                    break  # matching goes on after its end
                stack.append(node)
                current = node
            else:
                return

    def _skip(self, name: bytes, position: int) -> tuple[int, int]:
        """(`close_start`, `end`) of the element `name` whose start tag ends at `position`, found
        by its name alone: in checked text only a comment, CDATA or a processing instruction can
        hold a '<' that is no tag, and when one is inside, every piece of markup is walked instead."""
        text = self.text
        same = self._same_name.get(name)
        if same is None:
            same = self._same_name[name] = re.compile(b"<(/?)" + re.escape(name) + rb"(?=[\s/>])")
        depth = 1
        for found in same.finditer(text, position):
            if found.group(1):
                depth -= 1
                if depth == 0:
                    close_start = found.start()
                    break
            elif text[found.end()] == 62:  # `<name>`
                depth += 1
            else:
                tag = _START_TAG.match(text, found.start())
                assert tag is not None
                if text[tag.end() - 2] != 47:  # not `<name .../>`
                    depth += 1
        else:
            raise AssertionError("checked text closes every element")
        if text.find(b"<!", position, close_start) < 0 and text.find(b"<?", position, close_start) < 0:
            return close_start, text.index(b">", close_start) + 1
        return self._walk_to_end(position)

    def _walk_to_end(self, position: int) -> tuple[int, int]:
        """`_skip`'s answer from every piece of markup after `position`."""
        depth = 1
        for match in _MARKUP.finditer(self.text, position):
            if match.group(_CLOSE) is not None:
                depth -= 1
                if depth == 0:
                    return match.span()
            elif match.group(_NAME) is not None and match.group(_TEXT) is None and match.group(_EMPTY) is None:
                depth += 1
        raise AssertionError("checked text closes every element")


_ATTRIBUTE_BYTES = re.compile(rb"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ATTRIBUTE_WHITESPACE = re.compile(r"\r\n|[\t\n\r]")
_PLAIN_VALUE = re.compile(r"[^\t\n\r&]*").fullmatch
_REFERENCE = re.compile(r"&(#x[0-9A-Fa-f]+|#[0-9]+|[^;]*);")


def _attribute_values(raw: bytes) -> dict[str, str]:
    """The attributes of a checked start tag's `raw` attribute list, as expat gives them: line breaks
    and tabs written in a value read as spaces, references resolved, and a reference to an entity
    of an external DTD (never read) dropped."""
    found = {}
    for name, double, single in _ATTRIBUTE_BYTES.findall(raw):
        value = (double or single).decode("utf-8")
        if not _PLAIN_VALUE(value):
            value = _ATTRIBUTE_WHITESPACE.sub(" ", value)
            if "&" in value:
                value = _REFERENCE.sub(_attribute_reference, value)
        found[name.decode("utf-8")] = value
    return found


def _attribute_reference(match: re.Match[str]) -> str:
    name = match.group(1)
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _PREDEFINED.get(name, "")


def _expat_tree(text: bytes, allowed_doctypes: Collection[str], max_nodes: int | None) -> XmlNode:
    """The tree of `text` built from expat's calls as it parses (attributes as a DTD's internal
    subset gives them); CatalogFileError as `parse_root` raises it."""
    parser = _parser()
    document = XmlNode("", {}, 0, 0, len(text), len(text), 1)
    stack = [document]
    start_tag = _START_TAG.match
    find = text.find
    count = text.count
    left = max_nodes if max_nodes is not None else -1  # counting down from -1 never reaches it: no limit

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal left
        left -= 1
        if left == -1:
            raise _too_many(parser, max_nodes)
        at = parser.CurrentByteIndex
        open_end = find(b">", at) + 1
        # A '>' inside a quoted attribute value leaves a quote open before it: then match properly.
        if attrs and (count(b'"', at, open_end) % 2 or count(b"'", at, open_end) % 2):
            tag = start_tag(text, at)
            open_end = tag.end() if tag else open_end
        node = XmlNode(name, attrs, at, open_end, open_end, open_end, parser.CurrentLineNumber)
        parent = stack[-1]
        if parent.children:
            parent.children.append(node)  # type: ignore[attr-defined]
        else:
            parent.children = [node]
        stack.append(node)

    def end(name: str) -> None:
        node = stack.pop()
        at = parser.CurrentByteIndex
        if text[node.open_end - 2:node.open_end] == b"/>" and at <= node.open_end:
            return  # `<x/>`: expat reports its end just past the tag, where it already ends
        node.close_start = at
        node.end = text.index(b">", at) + 1

    def comment(_: str) -> None:
        nonlocal left
        left -= 1
        if left == -1:
            raise _too_many(parser, max_nodes)
        at = parser.CurrentByteIndex
        close = text.index(b"-->", at + 4)
        node = XmlNode(COMMENT, {}, at, at + 4, close, close + 3, parser.CurrentLineNumber)
        parent = stack[-1]
        if parent.children:
            parent.children.append(node)  # type: ignore[attr-defined]
        else:
            parent.children = [node]

    def doctype(name: str, system_id: str | None, public_id: str | None, _: int) -> None:
        _check_doctype(parser, allowed_doctypes, system_id, public_id)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CommentHandler = comment
    parser.StartDoctypeDeclHandler = doctype
    _run(parser, text)
    roots = list(document.elements())
    if not roots:
        raise CatalogFileError("the file has no root element", None)
    return roots[0]


def _too_many(parser: expat.XMLParserType, max_nodes: int | None) -> _Refused:
    return _Refused(f"the file holds more than {max_nodes:,} elements, more than "
                    f"{(max_nodes or 0) // ELEMENTS_PER_MESSAGE:,} messages can take ([packs.i18n] "
                    "max_file_messages)", parser.CurrentLineNumber)


# --- reading content ----------------------------------------------------------------------------------


class Token(NamedTuple):
    """A piece of element content: `kind` is "text" (with `value` unescaped; CDATA included),
    "start", "end" or "empty" (a tag, `value` its name), "comment" or "pi"; `raw` as written."""

    kind: str
    raw: str
    value: str


_TOKEN = re.compile(
    r"""
    <!\[CDATA\[(?P<cdata>.*?)\]\]>
    | (?P<comment><!--.*?-->)
    | (?P<pi><\?.*?\?>)
    | <(?P<close>/)?(?P<name>[^\s/>]+)(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(?P<empty>/)?>
    | &(?P<ref>\#x[0-9A-Fa-f]+|\#[0-9]+|[A-Za-z_][\w.-]*);
    | (?P<text>[^<&]+)
    """,
    re.S | re.X,
)
_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_TAG_NAME = re.compile(r"</?[^\s/>]+")
_ATTRIBUTE = re.compile(r"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _reference(name: str) -> str:
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _PREDEFINED.get(name, f"&{name};")  # expat refused any other entity already


def tokens(raw: str) -> Iterator[Token]:
    """The pieces of well-formed element content `raw`; adjacent text, references and CDATA merge."""
    pending: list[str] = []
    pending_raw: list[str] = []
    for match in _TOKEN.finditer(raw):
        kind = match.lastgroup
        if kind in ("text", "ref", "cdata"):
            piece = match.group(kind)
            pending.append(_newlines(piece) if kind != "ref" else _reference(piece))
            pending_raw.append(match.group())
            continue
        if pending:
            yield Token("text", "".join(pending_raw), "".join(pending))
            pending, pending_raw = [], []
        if kind in ("comment", "pi"):
            yield Token(kind, match.group(), "")
        else:
            tag = "end" if match.group("close") else "empty" if match.group("empty") else "start"
            yield Token(tag, match.group(), match.group("name"))
    if pending:
        yield Token("text", "".join(pending_raw), "".join(pending))


def unescape(raw: str) -> str:
    """The text of content `raw` with references and CDATA resolved, comments and any markup dropped."""
    if "&" not in raw and "<" not in raw and "\r" not in raw:
        return raw
    return "".join(token.value for token in tokens(raw) if token.kind == "text")


def attributes(tag: str) -> dict[str, str]:
    """The attributes of a raw start tag such as `<ph id="1" disp="{{ name }}"/>`, unescaped."""
    found = {}
    name = _TAG_NAME.match(tag)
    for match in _ATTRIBUTE.finditer(tag, name.end() if name else 0):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        found[match.group(1)] = unescape(value).replace("\n", " ").replace("\t", " ")
    return found
