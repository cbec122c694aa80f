"""tree-sitter parsers per language, loaded on first use, and the helpers frameworks read trees with.

A grammar is a compiled library from the package index (`tree-sitter-typescript`, ...): loading one
costs a few milliseconds, so each loads when a file of its language is first parsed, and one parser
per language and thread is kept (a `Parser` is not thread-safe). Queries, compiled once per language
and pattern, are how frameworks find calls: tree-sitter matches them in C, which is what keeps a scan
of thousands of files fast (a walk of every node in Python is ten times slower).
"""

from __future__ import annotations

import bisect
import importlib
import re
import threading
from collections.abc import Iterator
from functools import cache

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from parlance_i18n.code.model import Span

__all__ = ["LANGUAGES", "LineIndex", "captures", "language", "node_text", "parse", "query", "span_of", "string_value"]

LANGUAGES: dict[str, tuple[str, str]] = {
    "javascript": ("tree_sitter_javascript", "language"),
    "jsx": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "python": ("tree_sitter_python", "language"),
    "java": ("tree_sitter_java", "language"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "objc": ("tree_sitter_objc", "language"),
    "dart": ("tree_sitter_dart", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "erb": ("tree_sitter_embedded_template", "language"),
    "html": ("tree_sitter_html", "language"),
}
"""Language name -> (module, function) of its grammar on the package index."""

_local = threading.local()


@cache
def language(name: str) -> Language:
    module, function = LANGUAGES[name]
    return Language(getattr(importlib.import_module(module), function)())


def parse(name: str, data: bytes) -> Tree:
    """`data` parsed as `name`'s language (a parser per language and thread, kept)."""
    parsers: dict[str, Parser] = _local.__dict__.setdefault("parsers", {})
    parser = parsers.get(name)
    if parser is None:
        parser = parsers[name] = Parser(language(name))
    return parser.parse(data)


@cache
def query(name: str, source: str) -> Query:
    """`source` compiled once for `name`'s language."""
    return Query(language(name), source)


def captures(name: str, source: str, node: Node) -> dict[str, list[Node]]:
    """Every capture of the query `source` under `node`, by capture name."""
    return QueryCursor(query(name, source)).captures(node)


def matches(name: str, source: str, node: Node) -> Iterator[dict[str, list[Node]]]:
    """Each match of the query `source` under `node`: its captures by name."""
    for _, found in QueryCursor(query(name, source)).matches(node):
        yield found


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def span_of(node: Node, data: bytes) -> Span:
    """Where `node` starts (1-based line, 1-based column in characters) and its byte span."""
    row, byte_column = node.start_point
    line_start = node.start_byte - byte_column
    column = len(data[line_start:node.start_byte].decode("utf-8", "replace")) + 1
    return Span(row + 1, column, node.start_byte, node.end_byte)


class LineIndex:
    """Where each line of a file starts, found once per file: the line of a byte offset by bisection.
    (Counting the line breaks before each item anew is quadratic: a 2 MB template of many tags took
    half a minute.)"""

    __slots__ = ("_column_at", "_data", "_starts")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._starts = [0, *(found.end() for found in _NEWLINE.finditer(data))]
        self._column_at = (0, 1)
        """The last (byte offset, column) measured: a file's items come in order, so the next column
        is counted on from there rather than from its line's start (a one-line file of many items)."""

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte `offset`."""
        return bisect.bisect_right(self._starts, offset)

    def span(self, start: int, end: int) -> Span:
        """The span of bytes `start:end`, as `span_of` gives a node's: 1-based line and column in characters."""
        line = self.line_of(start)
        line_start = self._starts[line - 1]
        measured, column = self._column_at
        if not line_start <= measured <= start or _continues_a_character(self._data, measured):
            measured, column = line_start, 1
        column += len(self._data[measured:start].decode("utf-8", "replace"))
        self._column_at = (start, column)
        return Span(line, column, start, end)


_NEWLINE = re.compile(b"\n")


def _continues_a_character(data: bytes, offset: int) -> bool:
    """Whether byte `offset` is inside a UTF-8 character (decoding from there would count differently)."""
    return offset < len(data) and 0x80 <= data[offset] < 0xC0


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\\": "\\", "'": "'",
            '"': '"', "`": "`", "$": "$", "\n": ""}


def string_value(node: Node) -> str | None:
    """The value of a string literal node whose text is fixed (no interpolation): quotes removed and
    the common backslash escapes decoded; None when the literal interpolates or is not a string.

    Works on every grammar here whose string node holds the quoted text (JavaScript `string` and a
    template without substitutions, Python `string` without an f prefix, Java, Kotlin, Swift, Dart,
    Ruby); a framework whose language escapes differently decodes the content itself.
    """
    if any(child.type in _INTERPOLATIONS for child in node.children):
        return None
    text = node_text(node)
    prefix = ""
    while text and text[0].isalpha() and text[0] not in "\"'`":
        prefix += text[0]
        text = text[1:]
    if "f" in prefix.lower():
        return None
    for quote in ('"""', "'''", '"', "'", "`"):
        if len(text) >= 2 * len(quote) and text.startswith(quote) and text.endswith(quote):
            body = text[len(quote):-len(quote)]
            return body if "r" in prefix.lower() else _unescape(body)
    return None


_INTERPOLATIONS = frozenset({"template_substitution", "interpolation", "string_interpolation",
                             "interpolated_expression", "template_string_substitution", "line_string_expression",
                             "multi_line_string_expression", "interpolated_identifier"})


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char != "\\" or i + 1 == len(body):
            out.append(char)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "u" and body[i + 2:i + 3] == "{":
            end = body.find("}", i + 3)
            if end > 0:
                out.append(_char(body[i + 3:end]))
                i = end + 1
                continue
        if nxt in "ux" and i + (6 if nxt == "u" else 4) <= len(body):
            width = 4 if nxt == "u" else 2
            out.append(_char(body[i + 2:i + 2 + width]))
            i += 2 + width
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i += 2
    return "".join(out)


def _char(digits: str) -> str:
    try:
        return chr(int(digits, 16))
    except ValueError:
        return "\ufffd"
