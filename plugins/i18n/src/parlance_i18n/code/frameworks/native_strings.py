"""String literals of the mobile languages (Kotlin, Java, Swift, Objective-C, Dart) read from their
tree-sitter nodes: the text a literal holds, its interpolations marked, and the `i18n-ignore` rule.

`parsing.string_value` reads a literal from its quoted text, which these grammars do not always allow:
Objective-C's `@"..."` has a prefix that is not a letter, tree-sitter-kotlin 1.1 leaves a short `$name`
template as plain `string_content`, and Dart and Swift split a literal into text, escape and
interpolation children. Here a literal is read from its children: the text between the delimiters,
each escape decoded, each interpolation kept as its expression (`{name}`), so a caller can tell a
fixed text from one built at run time and show either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

__all__ = ["Literal", "literal"]

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "a": "\a"}
_INTERPOLATIONS = frozenset({"interpolation", "interpolated_expression", "template_substitution"})
_ESCAPE_NODES = frozenset({"escape_sequence", "str_escaped_char"})
_KOTLIN_SHORT_TEMPLATE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True, slots=True)
class Literal:
    """What a string literal holds."""

    text: str
    """The value, each interpolation written as `{expression}`."""
    parts: tuple[str | None, ...]
    """The value in pieces: text, and None where an interpolation stands (in order)."""
    expressions: tuple[str, ...]
    """The interpolated expressions, as written."""

    @property
    def fixed(self) -> bool:
        return not self.expressions


def literal(node: Node, data: bytes, kotlin: bool = False) -> Literal | None:
    """The literal `node` (a string literal of any of the five grammars) read from its children; None
    when it is not one whose delimiters can be told (a raw Dart string is read as written)."""
    text = data[node.start_byte:node.end_byte]
    opening = re.match(rb'@?r?("""|\'\'\'|"|\')', text)
    if opening is None or len(text) < 2 * len(opening.group(1)) + (opening.end() - len(opening.group(1))):
        return None
    raw = opening.group().startswith(b"r")
    start = node.start_byte + opening.end()
    end = node.end_byte - len(opening.group(1))
    pieces: list[str | None] = []
    expressions: list[str] = []
    position = start
    for child in node.named_children:
        if child.start_byte < start or child.end_byte > end:
            continue
        if child.type in _INTERPOLATIONS:
            before, after = child.start_byte, child.end_byte
            if data[before - 2:before] == b"\\(":  # Swift's `\(` and `)` are the node's siblings
                before -= 2
                after += data[after:after + 1] == b")"
            _add_text(pieces, expressions, data[position:before], kotlin)
            pieces.append(None)
            expressions.append(_interpolated(child, data))
            position = after
        elif child.type in _ESCAPE_NODES and not raw:
            _add_text(pieces, expressions, data[position:child.start_byte], kotlin)
            pieces.append(_decode(data[child.start_byte:child.end_byte].decode("utf-8", "replace")))
            position = child.end_byte
    _add_text(pieces, expressions, data[position:end], kotlin)
    if text.startswith(b'"""') and not kotlin:
        pieces = _swift_multiline(pieces)
    shown = "".join(piece if piece is not None else "{" + expressions[index] + "}"
                    for index, piece in _numbered(pieces))
    return Literal(shown, tuple(pieces), tuple(expressions))


def _add_text(pieces: list[str | None], expressions: list[str], raw: bytes, kotlin: bool) -> None:
    """Text between children: Kotlin's short `$name` templates are found here (the grammar leaves
    them as text); a Swift or Objective-C `\\(`/`\\"` is always its own child, so no decoding."""
    text = raw.decode("utf-8", "replace")
    if kotlin:
        text = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), text)
        last = 0
        for match in _KOTLIN_SHORT_TEMPLATE.finditer(text):
            if match.start() > 0 and text[match.start() - 1] == "\\":
                continue
            pieces.append(text[last:match.start()])
            pieces.append(None)
            expressions.append(match.group(1))
            last = match.end()
        text = text[last:]
    pieces.append(text)


def _interpolated(node: Node, data: bytes) -> str:
    """The expression of `${a.b}`, `$x` or `\\(x)`, without its delimiters."""
    named = node.named_children
    if named:
        inner = data[named[0].start_byte:named[-1].end_byte]
    else:
        inner = data[node.start_byte:node.end_byte].strip(b"${}()\\")
    return inner.decode("utf-8", "replace")[:200]


def _decode(escape: str) -> str:
    body = escape[1:]
    if body.startswith("u{") and body.endswith("}"):
        return _char(body[2:-1])
    if body[:1] in ("u", "x") and len(body) > 1:
        return _char(body[1:])
    if body and body[0] in _ESCAPES:
        return _ESCAPES[body[0]]
    return body


def _char(digits: str) -> str:
    try:
        return chr(int(digits, 16))
    except (ValueError, OverflowError):
        return "\ufffd"


def _numbered(pieces: list[str | None]) -> list[tuple[int, str | None]]:
    """Each piece with, for an interpolation, its index among the interpolations."""
    numbered: list[tuple[int, str | None]] = []
    count = 0
    for piece in pieces:
        numbered.append((count, piece))
        if piece is None:
            count += 1
    return numbered


def _swift_multiline(pieces: list[str | None]) -> list[str | None]:
    """A Swift `\"\"\"` literal's value: without the line breaks after the opening and before the
    closing delimiter, and without the closing delimiter's indentation on each line."""
    joined = "".join(piece if piece is not None else "\0" for piece in pieces)
    lines = joined.split("\n")
    if len(lines) < 2:
        return pieces
    indent = lines[-1] if not lines[-1].strip() else ""
    body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[1:-1]]
    text = "\n".join(body)
    out: list[str | None] = []
    for index, part in enumerate(text.split("\0")):
        if index:
            out.append(None)
        out.append(part)
    return out

