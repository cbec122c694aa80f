"""JavaScript and TypeScript as i18next and FormatJS read them: which grammar a file is parsed with,
the values of literal arguments, the scopes a binding lives in, imports, `i18n-ignore` comments and
the user-visible literals JSX holds.

Both frameworks parse a file once and run one query over it (matched in C); what is left for Python
is the handful of nodes the query caught, never a walk of every node.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node, QueryCursor, Tree

from parlance_i18n.code import parsing
from parlance_i18n.code.frameworks.visible import is_user_text
from parlance_i18n.code.model import Hardcoded, Span

__all__ = ["DEFAULT_EXCLUDE", "DEFAULT_PATHS", "EXTENSIONS", "USER_VISIBLE_ATTRIBUTES", "JsFile", "call_name",
           "enclosing_scopes", "grammar", "hardcoded", "has_parameter", "JSX_PATTERNS", "object_properties", "read", "run",
           "single_string", "static_strings", "template_prefix"]

_GRAMMARS = {".tsx": "tsx", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
             ".jsx": "javascript", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript"}
"""tree-sitter-javascript reads JSX in any .js file (React projects put JSX in .js); TypeScript's
grammar would misread `<T>x` casts as JSX, so only .tsx gets the TSX grammar."""
EXTENSIONS = tuple(_GRAMMARS)

DEFAULT_PATHS = tuple(f"{folder}/**/*.{{js,jsx,ts,tsx,mjs,cjs}}" for folder in ("src", "app", "pages", "components", "lib"))
"""Where React, Next.js and Node projects keep their code: what i18next and FormatJS read by default."""
DEFAULT_EXCLUDE = ("**/*.test.*", "**/*.spec.*", "**/*.stories.*", "**/*.d.ts")
"""Tests, stories and type declarations: code whose text no user reads."""

USER_VISIBLE_ATTRIBUTES = frozenset({"title", "alt", "placeholder", "aria-label", "label"})
"""JSX attributes whose string a user reads (a tooltip, a screen reader); `className`, `id`, `key`,
`href`, `data-*` hold code-facing values and are never reported."""

_CODE_TAGS = frozenset({"code", "pre", "script", "style", "kbd", "samp"})
"""Elements whose text is code or markup, not prose for translators."""

FUNCTION_TYPES = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                            "generator_function_declaration", "generator_function", "function"})
"""Nodes that open a scope for a binding (`const { t } = useTranslation()` lives in its function)."""

_NAME = re.compile(r"^(?:this|[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)*$")


def grammar(path: str) -> str:
    """The tree-sitter grammar a file is parsed with, told by its suffix."""
    dot = path.rfind(".")
    return _GRAMMARS.get(path[dot:].lower(), "tsx") if dot >= 0 else "tsx"


@dataclass(frozen=True, slots=True)
class JsFile:
    path: str
    data: bytes
    grammar: str
    tree: Tree

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def problems(self) -> tuple[str, ...]:
        """The first unreadable part, if any (tree-sitter recovered around it)."""
        if not self.root.has_error:
            return ()
        found = next(iter(run(self, "(ERROR) @error").get("error", [])), None)
        line = found.start_point[0] + 1 if found is not None else 1
        return (f"{self.path}:{line}: a syntax error; the code around it may be read incompletely",)


def read(path: str, data: bytes) -> JsFile:
    name = grammar(path)
    return JsFile(path, data, name, parsing.parse(name, data))


def run(file: JsFile, source: str) -> dict[str, list[Node]]:
    """Every capture of the query `source` over the whole file, by capture name; JSX patterns (those
    after `JSX_PATTERNS`) are left out for plain TypeScript, whose grammar has no JSX."""
    if file.grammar == "typescript":
        source = source.split(JSX_PATTERNS, 1)[0]
    return parsing.captures(file.grammar, source, file.root)


def run_matches(file: JsFile, source: str) -> Iterator[tuple[int, dict[str, list[Node]]]]:
    """Each match of `source` (a query of several patterns) with its pattern's index."""
    yield from QueryCursor(parsing.query(file.grammar, source)).matches(file.root)


def call_name(callee: Node) -> str | None:
    """`t`, `i18n.t`, `this.props.t`: the dotted name a call's function is written as, or None when it
    is computed (`a[b]()`, `f()()`, optional chaining)."""
    text = parsing.node_text(callee)
    return text if len(text) < 200 and _NAME.match(text) else None


def _unwrap(node: Node) -> Node:
    while node.type in ("parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"):
        inner = node.named_children[0] if node.named_children else None
        if inner is None:
            break
        node = inner
    return node


def static_strings(node: Node) -> list[str] | None:
    """The values an argument can take when the code fixes them: a string, a template without
    substitutions, a number, each branch of `a ? "x" : "y"`; None when any part is computed."""
    node = _unwrap(node)
    if node.type in ("string", "template_string"):
        value = parsing.string_value(node)
        return None if value is None else [value]
    if node.type == "number":
        return [parsing.node_text(node)]
    if node.type == "ternary_expression":
        branches = [static_strings(n) for n in (node.child_by_field_name("consequence"),
                                                node.child_by_field_name("alternative")) if n is not None]
        if len(branches) == 2 and branches[0] is not None and branches[1] is not None:
            return branches[0] + branches[1]
    if node.type == "binary_expression" and node.child_by_field_name("operator") is not None \
            and parsing.node_text(node.child_by_field_name("operator")) == "+":  # type: ignore[arg-type]
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None:
            ls, rs = static_strings(left), static_strings(right)
            if ls is not None and rs is not None and len(ls) == 1 and len(rs) == 1:
                return [ls[0] + rs[0]]
    return None


def single_string(node: Node | None) -> str | None:
    """The one string an argument is fixed to (`"x"`, `` `x` ``, `"a" + "b"`); None when it is computed or
    may be either of two (`a ? "x" : "y"`)."""
    if node is None:
        return None
    values = static_strings(node)
    return values[0] if values is not None and len(values) == 1 else None


def has_parameter(function: Node, name: str) -> bool:
    """Whether `function` takes a parameter named `name`, alone or destructured (`(t) => ...`, `t => ...`,
    `function Row({ t })`, `({ intl, ...rest })`): a `t` or an `intl` passed as a prop."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if parameters is None:
        return False
    if parameters.type == "identifier":
        return parsing.node_text(parameters) == name
    return re.search(rf"(?<![\w$.:]){re.escape(name)}(?![\w$])", parsing.node_text(parameters)) is not None


def template_prefix(node: Node) -> str | None:
    """The static start of a template with substitutions (`status.` in `` `status.${s}` ``), else None."""
    node = _unwrap(node)
    if node.type != "template_string":
        return None
    text = parsing.node_text(node)[1:]
    raw = text.split("${", 1)[0]
    # The grammar has no node for a template's leading text alone; keys rarely escape anything.
    return raw.replace("\\`", "`").replace("\\$", "$")


def object_properties(node: Node | None) -> dict[str, Node | None]:
    """An object literal's properties by name: the value node, or None for shorthand `{ count }`."""
    found: dict[str, Node | None] = {}
    if node is None:
        return found
    node = _unwrap(node)
    if node.type != "object":
        return found
    for child in node.named_children:
        if child.type == "shorthand_property_identifier":
            found[parsing.node_text(child)] = None
        elif child.type == "pair":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is None or value is None:
                continue
            name = parsing.string_value(key) if key.type == "string" else parsing.node_text(key)
            if name is not None:
                found[name] = value
    return found


def enclosing_scopes(node: Node) -> Iterator[Node]:
    """The functions around `node`, innermost first, then the program: where its names are bound."""
    parent = node.parent
    while parent is not None:
        if parent.type in FUNCTION_TYPES or parent.parent is None:
            yield parent
        parent = parent.parent


def element_name(opening: Node) -> str:
    """`Trans`, `Foo.Bar`, `div`: a JSX opening or self-closing element's name ('' for a fragment)."""
    name = opening.child_by_field_name("name")
    return parsing.node_text(name) if name is not None else ""


def attributes(opening: Node) -> dict[str, Node | None]:
    """A JSX element's attributes by name: the value node (a string or `{...}`), None when bare."""
    found: dict[str, Node | None] = {}
    for child in opening.named_children:
        if child.type != "jsx_attribute" or not child.named_children:
            continue
        name = child.named_children[0]
        value = child.named_children[1] if len(child.named_children) > 1 else None
        found[parsing.node_text(name)] = value
    return found


def attribute_expression(value: Node | None) -> Node | None:
    """The expression an attribute gives: the string itself, or what `{...}` holds."""
    if value is None:
        return None
    if value.type == "jsx_expression":
        inner = [c for c in value.named_children if c.type != "comment"]
        return inner[0] if inner else None
    return value


JSX_PATTERNS = ";; JSX\n"

HARDCODED_QUERY = JSX_PATTERNS + """
(jsx_text) @text
(jsx_attribute (property_identifier) [(string) (jsx_expression (string))]) @attribute
(jsx_opening_element name: (_)) @element
(jsx_self_closing_element name: (_)) @element
"""
"""The JSX places a user reads: text, attribute strings, and the elements around them (to skip text
already inside `<Trans>` or `<code>`)."""


def hardcoded(file: JsFile, captures: dict[str, list[Node]], ignored: set[int], translated: frozenset[str]
              ) -> list[Hardcoded]:
    """The user-visible JSX literals of `file`, from `HARDCODED_QUERY`'s captures: text with a letter
    in it and strings of `USER_VISIBLE_ATTRIBUTES`, except under an `i18n-ignore` comment or inside an
    element named in `translated` (the framework's own components) or a code element."""
    skipped = [(e.parent.start_byte, e.parent.end_byte) for e in captures.get("element", [])
               if e.type == "jsx_opening_element" and e.parent is not None
               and (element_name(e) in translated or element_name(e) in _CODE_TAGS)]
    found: list[Hardcoded] = []

    def inside_skipped(node: Node) -> bool:
        return any(start <= node.start_byte and node.end_byte <= end for start, end in skipped)

    for text in captures.get("text", []):
        raw = parsing.node_text(text)
        visible = " ".join(raw.split())
        if not is_user_text(visible):
            continue
        lead = raw[:len(raw) - len(raw.lstrip())]
        line = text.start_point[0] + lead.count("\n")
        if line in ignored or inside_skipped(text):
            continue
        start = text.start_byte + len(lead.encode())
        end = text.end_byte - len(raw[len(raw.rstrip()):].encode())
        span = parsing.span_of(text, file.data)
        column = span.column + len(lead) if "\n" not in lead else len(lead.rsplit("\n", 1)[1]) + 1
        found.append(Hardcoded(visible, "jsx-text", Span(line + 1, column, start, end)))
    for attribute in captures.get("attribute", []):
        name = parsing.node_text(attribute.named_children[0])
        value = attribute.named_children[-1]
        if name not in USER_VISIBLE_ATTRIBUTES or value.start_point[0] in ignored or inside_skipped(value):
            continue
        literal = attribute_expression(value)
        value_text = parsing.string_value(literal) if literal is not None else None
        if value_text is None or not is_user_text(value_text) or "://" in value_text:
            continue
        found.append(Hardcoded(" ".join(value_text.split()), f"jsx-attribute:{name}", parsing.span_of(value, file.data)))
    found.sort(key=lambda h: h.span.start_byte)
    return found


def node_at(file: JsFile, start: int, end: int) -> Node | None:
    return file.root.descendant_for_byte_range(start, end)


def jsx_string(text: str) -> str:
    """`text` as a JSX attribute value: `"..."` when JSX can hold it as written, else `{"..."}`."""
    if '"' not in text and "\\" not in text and "\n" not in text:
        return f'"{text}"'
    return "{" + js_string(text) + "}"


def js_string(text: str) -> str:
    """`text` as a double-quoted JavaScript string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
