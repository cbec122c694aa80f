"""An ERB view split into its Ruby and its HTML, each a text the size of the file (the other part
blanked to spaces, line breaks kept), so a node's bytes and lines in either are the file's own.

tree-sitter-embedded-template finds the directives (`<% %>`, `<%= %>`, `<%- -%>`, `<%== %>`,
comments `<%# %>`). The Ruby text keeps each directive's code and ends it with `;` where its `%>`
was, as Erubi ends each statement, so `<% if x %>...<% end %>` and two `<%= %>` on one line parse
as the Ruby Rails compiles. The HTML text blanks every directive, so tree-sitter-html reads the
markup around them; the hard-coded text of the view is its HTML text nodes (outside `<script>`,
`<style>` and comments) and its `title`, `alt`, `placeholder` and `aria-label` values, each split
where a directive was: `Hello <%= name %>!` holds the text `Hello` (and `!`, no letters: not reported).
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass

from tree_sitter import Node

from parlance_i18n.code.frameworks.visible import IGNORE_MARK, ignored_rows, is_user_text
from parlance_i18n.code.model import Hardcoded
from parlance_i18n.code.parsing import LineIndex, captures, matches, node_text, parse

__all__ = ["ErbSplit", "TRANSLATED_ATTRIBUTES", "hardcoded", "split"]

TRANSLATED_ATTRIBUTES = frozenset({"title", "alt", "placeholder", "aria-label"})
_DIRECTIVES = "[(directive) (output_directive) (comment_directive) (graphql_directive)] @directive"
_HTML_TEXT = "[(text) (entity)] @text (comment) @comment"
_HTML_ATTRIBUTES = """
(attribute (attribute_name) @name [(attribute_value) @value (quoted_attribute_value (attribute_value) @value)])
"""
_SPACE = re.compile(r"\s+")
@dataclass(frozen=True, slots=True)
class ErbSplit:
    ruby: bytes
    html: bytes
    directives: tuple[tuple[int, int], ...]
    """Each directive's bytes (start, end), in order."""
    ignored_lines: frozenset[int]
    """0-based lines an `i18n-ignore` comment covers (its own and the next)."""


def split(data: bytes) -> ErbSplit:
    ruby = bytearray(_blank(data))
    markup = bytearray(data)
    directives: list[tuple[int, int]] = []
    ignored: set[int] = set()
    tree = parse("erb", data)
    for node in captures("erb", _DIRECTIVES, tree.root_node).get("directive", []):
        start, end = node.start_byte, node.end_byte
        directives.append((start, end))
        markup[start:end] = _blank(data[start:end])
        if IGNORE_MARK.encode() in data[start:end]:
            ignored.update((node.end_point[0], node.end_point[0] + 1))
        if node.type == "comment_directive":
            continue
        for child in node.children:
            if child.type == "code":
                ruby[child.start_byte:child.end_byte] = data[child.start_byte:child.end_byte]
        closing = node.children[-1] if node.children else None
        if closing is not None and closing.type.endswith("%>"):
            ruby[closing.start_byte] = ord(";")
    directives.sort()
    return ErbSplit(bytes(ruby), bytes(markup), tuple(directives), frozenset(ignored))


def _blank(data: bytes) -> bytes:
    return bytes(byte if byte in b"\r\n" else 0x20 for byte in data)


def hardcoded(view: ErbSplit, data: bytes) -> list[Hardcoded]:
    """The view's user-visible text and attribute values that do not go through `t`."""
    root = parse("html", view.html).root_node
    found = captures("html", _HTML_TEXT, root)
    ignored = set(view.ignored_lines) | ignored_rows(found.get("comment", []))
    literals: list[Hardcoded] = []
    lines = LineIndex(data)
    for run_start, run_end in _text_runs(found.get("text", []), view.html):
        for start, end in _between_directives(view.directives, run_start, run_end):
            literal = _literal(data, lines, start, end, "erb-text")
            if literal is not None and literal.span.line - 1 not in ignored:
                literals.append(literal)
    for attribute_match in matches("html", _HTML_ATTRIBUTES, root):
        name, value = attribute_match["name"][0], attribute_match["value"][0]
        attribute = node_text(name).lower()
        if attribute not in TRANSLATED_ATTRIBUTES or _overlaps(view.directives, value.start_byte, value.end_byte):
            continue
        literal = _literal(data, lines, value.start_byte, value.end_byte, f"html-attribute:{attribute}", strip=False)
        if literal is not None and literal.span.line - 1 not in ignored:
            literals.append(literal)
    literals.sort(key=lambda literal: literal.span.start_byte)
    return literals


def _text_runs(nodes: list[Node], markup: bytes) -> list[tuple[int, int]]:
    """Text and entity nodes joined where only spaces part them under one element (`a &amp; b` is one
    text, which tree-sitter-html cuts at the entity)."""
    runs: list[tuple[int, int]] = []
    parents: list[int | None] = []
    for node in sorted(nodes, key=lambda node: node.start_byte):
        parent = node.parent
        parent_id = parent.id if parent is not None else None
        if runs and parents[-1] == parent_id and not markup[runs[-1][1]:node.start_byte].strip():
            runs[-1] = (runs[-1][0], node.end_byte)
        else:
            runs.append((node.start_byte, node.end_byte))
            parents.append(parent_id)
    return runs


def _between_directives(directives: tuple[tuple[int, int], ...], start: int, end: int) -> list[tuple[int, int]]:
    """The parts of `start:end` outside every directive."""
    parts: list[tuple[int, int]] = []
    index = max(bisect.bisect_right(directives, (start, start)) - 1, 0)
    cursor = start
    while index < len(directives):  # by index: a slice of the rest per text was quadratic over a long view
        d_start, d_end = directives[index]
        index += 1
        if d_start >= end:
            break
        if d_end <= cursor:
            continue
        if d_start > cursor:
            parts.append((cursor, d_start))
        cursor = max(cursor, d_end)
    if cursor < end:
        parts.append((cursor, end))
    return parts


def _overlaps(directives: tuple[tuple[int, int], ...], start: int, end: int) -> bool:
    return _between_directives(directives, start, end) != [(start, end)]


def _literal(data: bytes, lines: LineIndex, start: int, end: int, kind: str, strip: bool = True) -> Hardcoded | None:
    raw = data[start:end]
    if strip:
        stripped = raw.strip()
        if not stripped:
            return None
        start += len(raw) - len(raw.lstrip())
        end = start + len(stripped)
        raw = stripped
    text = _SPACE.sub(" ", html.unescape(raw.decode("utf-8", "replace"))).strip()
    if not is_user_text(text):
        return None
    return Hardcoded(text, kind, lines.span(start, end))  # a text between directives: no node spans it alone
