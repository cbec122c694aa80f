"""YAML as Ruby's Psych loads it, with the offset of every node: what the Rails format reads, and the
scalars it writes so that Psych reads them back as the same strings.

`compose(text)` parses with PyYAML's libyaml parser (its C composer events carry the marks) into a
small tree (`Scalar`, `Map`, `Seq`, `Alias`) whose nodes know where they are written, so an edit can
splice a new scalar into exactly the bytes of the old one; only the first document is read, as Psych
reads it. An alias is one node that refers to its anchor's: the tree is as large as the text, however
often an anchor is used (what following the aliases may cost is the reader's to bound). It also
gives how many nodes the text writes, which that bound is measured against. A plain scalar is typed as `Psych::ScalarScanner#tokenize` types it (`psych_type`), which
differs from PyYAML's YAML 1.1 resolver: `yes`/`no`/`on`/`off` are booleans, `:name` is a Ruby
symbol, `1_000` and `0b101` are integers, `2024-01-31` is a date; quoted, block and `!!str`-tagged
scalars are strings.

Writing a scalar (`plain_ok`, `quoted`, `block_scalar`) picks text that reads back as the same
string in Psych and in libyaml, in the style asked for when it can hold the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml  # type: ignore[import-untyped, unused-ignore]  # clean with or without types-PyYAML

from parlance_i18n.formats.base import CatalogFileError
from parlance_i18n.formats.shared.textedit import detect_bom

__all__ = [
    "Alias",
    "Map",
    "Node",
    "Scalar",
    "Seq",
    "block_scalar",
    "compose",
    "decode",
    "is_merge",
    "plain_ok",
    "psych_type",
    "quoted",
    "resolve",
    "ruby_integer",
    "symbol_name",
    "text_of",
]

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAGS = frozenset({"tag:yaml.org,2002:str", "!"})
_CORE = "tag:yaml.org,2002:"
_STANDARD_TAGS = frozenset(_CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp", "binary",
                                                     "merge", "value", "map", "omap", "pairs", "set", "seq"))
"""YAML 1.1's own types (`!!int 5`, `!!map`): data as untagged values are. Any other tag
(`!!python/object/apply:...`, `!ruby/object:...`) is no type a message or a hash of them has,
except Ruby's own hash (`!ruby/hash:...`), which I18n reads as any hash."""


def _foreign(tag: str | None) -> str | None:
    """A tag as written (`!!python/object:os.system`) when it is none of YAML's own types."""
    if tag is None or tag in _STANDARD_TAGS:
        return None
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag

# --- Psych's scalar types ------------------------------------------------------------------------------
# Ported from the rules of Psych::ScalarScanner#tokenize (the default libyaml backend).

_PSYCH_WORDISH = re.compile(r"[^\d.:-]?(?:[^\W\d]|[\s!@#$%^&*(){}<>|/\\~;=])+")
_PSYCH_TIME = re.compile(r"-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?"
                         r"(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$")
_PSYCH_DATE = re.compile(r"\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$")
_PSYCH_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?$")
_PSYCH_INT = re.compile(r"[-+]?(?:0b[_,]*[0-1][0-1_,]*|0[_,]*[0-7][0-7_,]*|(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)"
                        r"|0x[_,]*[0-9a-fA-F][0-9a-fA-F_,]*)$")
_PSYCH_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}(?:\.[0-9_]*)?$")


def psych_type(text: str) -> str:
    """What Psych makes of a plain scalar: "str", "null", "true", "false", "int", "float", "time",
    "date" or "symbol" (Psych::ScalarScanner#tokenize, default backend)."""
    if not text:
        return "null"
    if _PSYCH_WORDISH.match(text) or "\n" in text:
        if len(text) > 5 or text[0] not in "yYtToOnNfF~":
            return "str"
        lower = text.lower()
        if text == "~" or lower == "null":
            return "null"
        if lower in ("yes", "true", "on"):
            return "true"
        if lower in ("no", "false", "off"):
            return "false"
        return "str"
    if _PSYCH_TIME.match(text):
        return "time"
    if _PSYCH_DATE.match(text):
        return "date"
    lower = text.lower()
    if lower in (".inf", "+.inf", "-.inf", ".nan"):
        return "float"
    if text.startswith(":") and len(text) > 1:
        return "symbol"
    if _PSYCH_SEXAGESIMAL.match(text):
        return "int" if "." not in text else "float"
    if _PSYCH_FLOAT.match(text):
        return "str" if text.strip("+-") == "." else "float"
    if _PSYCH_INT.match(text):
        return "int"
    return "str"


def symbol_name(text: str) -> str:
    """The name of the symbol a plain `:name` or `:"dotted.name"` spells, as Psych reads it."""
    quoted = re.match(r""":(["'])(.*)\1""", text)
    return quoted.group(2).removeprefix(":") if quoted else text[1:]


# --- the node tree -------------------------------------------------------------------------------------


class Node:
    __slots__ = ("start", "end", "line", "column", "anchor", "tag")

    def __init__(self, start: int, end: int, line: int, column: int, anchor: str | None) -> None:
        self.start = start
        self.end = end
        self.line = line  # 0-based, as libyaml counts
        self.column = column
        self.anchor = anchor
        self.tag: str | None = None  # a tag written on it (not a string's): `!!int`, `!!python/...`

    @property
    def foreign_tag(self) -> str | None:
        """The tag as written (`!!python/object:os.system`) when it is none of YAML's own types."""
        return _foreign(self.tag)


class Scalar(Node):
    __slots__ = ("value", "style", "kind")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, event.end_mark.index, mark.line, mark.column, event.anchor)
        self.value: str = event.value
        self.style: str = event.style or ""  # "" plain, "'", '"', "|", ">"
        if event.tag is not None and not event.implicit[0] and not event.implicit[1]:
            self.kind = "str" if event.tag in _STR_TAGS else "tagged"
            if self.kind == "tagged":
                self.tag = event.tag
        elif self.style:
            self.kind = "str"
        else:
            self.kind = psych_type(self.value)


class Map(Node):
    __slots__ = ("items", "flow")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, mark.index, mark.line, mark.column, event.anchor)
        self.items: list[tuple[Node, Node]] = []
        self.flow: bool = bool(event.flow_style)
        if not event.implicit:
            self.tag = event.tag

    @property
    def foreign_tag(self) -> str | None:
        tag = super().foreign_tag
        return None if tag is not None and tag.startswith("!ruby/hash") else tag


class Seq(Node):
    __slots__ = ("items", "flow")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, mark.index, mark.line, mark.column, event.anchor)
        self.items: list[Node] = []
        self.flow = bool(event.flow_style)
        if not event.implicit:
            self.tag = event.tag


class Alias(Node):
    __slots__ = ("target",)

    def __init__(self, event: Any, target: Node) -> None:
        mark = event.start_mark
        super().__init__(mark.index, event.end_mark.index, mark.line, mark.column, None)
        self.target = target


def compose(text: str) -> tuple[Node | None, int]:
    """The first document of `text` as a tree with offsets, and how many nodes the text writes (an
    alias counts once); CatalogFileError when it is not YAML."""
    anchors: dict[str, Node] = {}
    stack: list[list[Any]] = []  # [container, pending key]
    root: Node | None = None
    written = 0
    ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
    MappingStartEvent, SequenceStartEvent = yaml.MappingStartEvent, yaml.SequenceStartEvent
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    events: Iterator[Any] = yaml.parse(text, Loader=_LOADER)
    try:
        for event in events:
            kind = event.__class__
            node: Node
            if kind is ScalarEvent:
                node = Scalar(event)
                written += 1
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                written += 1
                container: Node = Map(event) if kind is MappingStartEvent else Seq(event)
                if event.anchor:
                    anchors[event.anchor] = container
                stack.append([container, None])
                continue
            elif kind in ends:
                closed: Map | Seq = stack.pop()[0]
                closed.end = event.end_mark.index if closed.flow else _subtree_end(closed)
                node = closed
            elif kind is AliasEvent:
                target = anchors.get(event.anchor)
                if target is None:
                    raise CatalogFileError(f"the alias *{event.anchor} names no anchor defined before it",
                                           event.start_mark.line + 1)
                node = Alias(event, target)
                written += 1
            elif kind is yaml.DocumentEndEvent:
                break  # Psych loads the first document only
            else:
                continue
            if node.anchor and kind is ScalarEvent:
                anchors[node.anchor] = node
            if not stack:
                root = node
                continue
            frame = stack[-1]
            parent = frame[0]
            if isinstance(parent, Seq):
                parent.items.append(node)
            elif frame[1] is None:
                frame[1] = node
            else:
                parent.items.append((frame[1], node))
                frame[1] = None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "it is not valid YAML"
        raise CatalogFileError(f"the file is not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as error:
        raise CatalogFileError(f"the file is not valid YAML: {error}") from None
    return root, written


def _subtree_end(node: Node) -> int:
    """Where a block collection's text ends: its last item's end (libyaml's end mark is later, past
    the comments and blank lines that follow)."""
    if isinstance(node, Map) and node.items:
        return node.items[-1][1].end
    if isinstance(node, Seq) and node.items:
        return node.items[-1].end
    return node.start


def decode(data: bytes) -> tuple[str, str, bytes]:
    """(text without BOM, codec, BOM): UTF-8, or UTF-16 with its BOM."""
    bom, codec = detect_bom(data)
    if bom:
        try:
            return data[len(bom):].decode(codec), codec, bom
        except UnicodeDecodeError as error:
            raise CatalogFileError(f"the file is not valid {codec.upper()} (byte {error.start + len(bom)})"
                                   ) from None
    try:
        return data.decode("utf-8"), "utf-8", bom
    except UnicodeDecodeError as error:
        raise CatalogFileError(f"the file is not UTF-8 (byte {error.start} is not), as YAML must be: save it "
                               "as UTF-8") from None


def resolve(node: Node) -> Node:
    while isinstance(node, Alias):
        node = node.target
    return node


def text_of(node: Node) -> str:
    """The text of a string scalar, or of the one an alias names."""
    target = resolve(node)
    assert isinstance(target, Scalar)
    return target.value


def is_merge(key: Node) -> bool:
    return isinstance(key, Scalar) and key.value == "<<" and key.kind != "tagged"


def ruby_integer(text: str) -> int:
    digits = text.replace("_", "").replace(",", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    if ":" in digits:  # base 60
        total = 0
        for part in digits.split(":"):
            total = total * 60 + int(part)
        return sign * total
    if digits.startswith(("0b", "0B")):
        return sign * int(digits[2:], 2)
    if digits.startswith(("0x", "0X")):
        return sign * int(digits[2:], 16)
    if len(digits) > 1 and digits.startswith("0"):
        return sign * int(digits[1:], 8)
    return sign * int(digits)


# --- writing a scalar Psych reads back ------------------------------------------------------------------

_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")


def plain_ok(value: str, flow: bool) -> bool:
    """Whether `value` written plain reads back as this same string, in Psych and in libyaml."""
    if not value or value != value.strip(" \t") or value[0] in _INDICATORS:
        return False
    if any(char < " " or char in "\x7f\x85\u2028\u2029\ufeff" for char in value):
        return False
    if ": " in value or " #" in value or value.endswith(":") or "\t" in value:
        return False
    if flow and any(char in value for char in ",[]{}"):
        return False
    return psych_type(value) == "str" and value not in ("<<", "=")


def _single(value: str) -> str | None:
    if any(char < " " or char in "\x7f\x85\u2028\u2029\ufeff" for char in value):
        return None
    return "'" + value.replace("'", "''") + "'"


_DOUBLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0", "\x85": "\\N",
                   "\u2028": "\\L", "\u2029": "\\P", "\ufeff": "\\uFEFF"}


def _double(value: str) -> str:
    out = ['"']
    for char in value:
        escaped = _DOUBLE_ESCAPES.get(char)
        if escaped is None and (char < " " or char == "\x7f"):
            escaped = f"\\x{ord(char):02X}"
        out.append(escaped or char)
    out.append('"')
    return "".join(out)


def quoted(value: str, style: str) -> str:
    """`value` as a single- or double-quoted scalar, the quote style `style` when it can hold it."""
    if style == "'":
        single = _single(value)
        if single is not None:
            return single
    return _double(value)


def block_scalar(value: str, style: str, indent: str, newline: str) -> str | None:
    """`value` as a literal or folded block scalar with its header, or None when one cannot hold it
    without an indentation indicator or keep-chomping."""
    if not value or value[0] in " \t\n" or any(char < " " and char not in "\n" for char in value) or "\r" in value:
        return None
    body = value.rstrip("\n")
    trailing = len(value) - len(body)
    if trailing > 1:
        return None
    chomp = "" if trailing == 1 else "-"
    lines = body.split("\n")
    if style == ">":
        if any(line[:1] in (" ", "\t") for line in lines if line):
            return None  # more-indented lines keep their breaks in a folded scalar: not worth the risk
        written: list[str] = []
        for line in lines:  # a single break folds into a space: write each break as an empty line
            if written:
                written.append("")
            written.append(line)
        lines = written
    return style + chomp + "".join(newline + (indent + line if line else "") for line in lines)
