"""FormatJS (react-intl) read as `formatjs extract` reads it.

A reference is a message descriptor: the object given to `formatMessage` (any `x.formatMessage`,
`formatMessage` destructured from `useIntl()`, and the `functions` option's names), each entry of
`defineMessages({...})`, `defineMessage({...})`, and a `<FormattedMessage>`'s attributes. A descriptor
without an `id` gets the one `formatjs extract` generates: `id_interpolation_pattern` (default
`[sha512:contenthash:base64:6]`) over `defaultMessage` and `#description` when there is one.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re

from tree_sitter import Node

from parlance_i18n.code import parsing
from parlance_i18n.code.frameworks import javascript as js
from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework
from parlance_i18n.code.frameworks.visible import ignored_rows
from parlance_i18n.code.model import Dynamic, FileScan, Hardcoded, Reference

__all__ = ["FormatJS", "generated_id"]

_DEFAULT_PATTERN = "[sha512:contenthash:base64:6]"
_FORMAT_FUNCTIONS = frozenset({"formatMessage", "$formatMessage"})
_DEFINE_FUNCTIONS = frozenset({"defineMessages", "defineMessage"})
_COMPONENTS = frozenset({"FormattedMessage"})

_QUERY = """
(call_expression function: [(identifier) (member_expression)] arguments: (arguments . (object))) @call
(variable_declarator name: (identifier) value: (call_expression function: (identifier) @hook)) @declarator
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @key
                                                       value: (identifier)))) @destructure
(import_statement) @import
(comment) @comment
""" + js.HARDCODED_QUERY

_PATTERN = re.compile(r"\[(?:(\w+):)?contenthash(?::(\w+))?(?::(\d+))?\]")


def generated_id(pattern: str, default_message: str, description: str | dict[str, object] | None) -> str | None:
    """The id `formatjs extract` gives a descriptor without one; None for a pattern it cannot follow here
    (a digest other than hex, base64 or base64url)."""
    content = default_message
    if description:
        described = description if isinstance(description, str) else json.dumps(description, separators=(",", ":"))
        content = f"{default_message}#{described}"

    def digest(match: re.Match[str]) -> str:
        algorithm = (match.group(1) or "md4").lower()
        encoding = match.group(2) or "hex"
        length = int(match.group(3)) if match.group(3) else None
        try:
            hashed = hashlib.new(algorithm, content.encode()).digest()
        except ValueError as error:
            raise _Unsupported from error
        if encoding == "hex":
            text = hashed.hex()
        elif encoding == "base64":
            text = base64.b64encode(hashed).decode()
        elif encoding == "base64url":
            text = base64.urlsafe_b64encode(hashed).decode().rstrip("=")
        else:
            raise _Unsupported
        return text[:length] if length else text

    try:
        return _PATTERN.sub(digest, pattern)
    except _Unsupported:
        return None


class _Unsupported(Exception):
    pass


class FormatJS(Framework):
    name = "formatjs"
    extensions = js.EXTENSIONS
    default_paths = js.DEFAULT_PATHS
    default_exclude = js.DEFAULT_EXCLUDE

    def scan(self, path: str, data: bytes) -> FileScan:
        file = js.read(path, data)
        captures = js.run(file, _QUERY)
        references: list[Reference] = []
        dynamic: list[Dynamic] = []
        problems = list(file.problems())
        functions = _FORMAT_FUNCTIONS | frozenset(self.options.functions or ()) | _aliases(captures)
        for call in captures.get("call", []):
            callee = call.child_by_field_name("function")
            name = js.call_name(callee) if callee is not None else None
            if name is None:
                continue
            last = name.rsplit(".", 1)[-1]
            arguments = call.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
            if first is None:
                continue
            if last in functions or name in functions:
                self._descriptor(js.object_properties(first), first, data, references, dynamic)
            elif name == "defineMessage":
                self._descriptor(js.object_properties(first), first, data, references, dynamic)
            elif name == "defineMessages":
                for entry in js.object_properties(first).values():
                    if entry is not None and entry.type == "object":
                        self._descriptor(js.object_properties(entry), entry, data, references, dynamic)
        for element in captures.get("element", []):
            if js.element_name(element) in _COMPONENTS:
                attrs = {name: js.attribute_expression(value) for name, value in js.attributes(element).items()}
                self._descriptor(attrs, element, data, references, dynamic)
        ignored = ignored_rows(captures.get("comment", []))
        literals = js.hardcoded(file, captures, ignored, _COMPONENTS)
        return FileScan(tuple(references), tuple(dynamic), tuple(literals), tuple(problems))

    def _descriptor(self, fields: dict[str, Node | None], node: Node, data: bytes, references: list[Reference],
                    dynamic: list[Dynamic]) -> None:
        span = parsing.span_of(node, data)
        default = js.single_string(fields.get("defaultMessage"))
        description: str | dict[str, object] | None = js.single_string(fields.get("description"))
        if description is None and fields.get("description") is not None:
            description = _object_value(fields["description"])
        id_node = fields.get("id")
        if id_node is not None:
            key = js.single_string(id_node)
            if key is None:
                prefix = js.template_prefix(id_node) or ""
                dynamic.append(Dynamic(parsing.node_text(id_node)[:200], span, prefix))
                return
        elif default is not None:
            key = generated_id(self.options.id_interpolation_pattern or _DEFAULT_PATTERN,
                               _normalized(default), description)
            if key is None:
                dynamic.append(Dynamic(parsing.node_text(node)[:200], span))
                return
        else:
            return  # neither an id nor a message: formatjs extract skips it too
        references.append(Reference(key, span, None, False, _normalized(default) if default is not None else None))

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        file = js.read(path, data)
        node = js.node_at(file, literal.span.start_byte, literal.span.end_byte)
        if node is None:
            raise ExtractionRefused(f"{path}:{literal.span.line}: the literal is no longer there; scan again")
        message = _icu_text(literal.text)
        captures = js.run(file, _QUERY)
        if literal.kind == "jsx-text":
            if not _imports(captures, "FormattedMessage"):
                raise ExtractionRefused(f"{path} does not import FormattedMessage: add "
                                        "`import { FormattedMessage } from \"react-intl\"`, then extract again")
            text = f"<FormattedMessage id={js.jsx_string(key)} defaultMessage={js.jsx_string(message)} />"
            return Extraction((Edit(literal.span.start_byte, literal.span.end_byte, text),), message)
        if literal.kind.startswith("jsx-attribute:"):
            intl = _intl_in_scope(node, captures)
            if intl is None:
                raise ExtractionRefused(f"{path}:{literal.span.line}: no `intl` is in scope here: call "
                                        "`const intl = useIntl()` in the component, then extract again")
            call = f"{intl}.formatMessage({{ id: {js.js_string(key)}, defaultMessage: {js.js_string(message)} }})"
            return Extraction((Edit(literal.span.start_byte, literal.span.end_byte, "{" + call + "}"),), message)
        raise ExtractionRefused(f"{literal.kind} literals are not extracted for FormatJS")


def _aliases(captures: dict[str, list[Node]]) -> frozenset[str]:
    """`fm` in `const { formatMessage: fm } = useIntl()` (or `= intl`)."""
    found: set[str] = set()
    for declarator in captures.get("destructure", []):
        pattern = declarator.child_by_field_name("name")
        for pair in pattern.named_children if pattern is not None else []:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type == "pair_pattern" and key is not None and value is not None \
                    and parsing.node_text(key) in _FORMAT_FUNCTIONS:
                found.add(parsing.node_text(value))
    return frozenset(found)


def _object_value(node: Node | None) -> dict[str, object] | None:
    properties = js.object_properties(node)
    if not properties:
        return None
    return {name: js.single_string(value) for name, value in properties.items()}


def _normalized(message: str) -> str:
    """The message as `formatjs extract` keeps it without --preserve-whitespace: runs of whitespace
    made one space, ends trimmed."""
    return " ".join(message.split())


def _icu_text(text: str) -> str:
    """Plain text as an ICU message: braces quoted so they stay text."""
    return text.replace("{", "'{'").replace("}", "'}'")


def _imports(captures: dict[str, list[Node]], name: str) -> bool:
    for statement in captures.get("import", []):
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if clause is not None and re.search(rf"\b{name}\b", parsing.node_text(clause)):
            return True
    return False


def _intl_in_scope(node: Node, captures: dict[str, list[Node]]) -> str | None:
    """The name of an `intl` object the enclosing functions hold (`const intl = useIntl()`, an `intl`
    prop from injectIntl), or None."""
    scopes = {scope.id for scope in js.enclosing_scopes(node)}
    for declarator in captures.get("declarator", []):
        value = declarator.child_by_field_name("value")
        callee = value.child_by_field_name("function") if value is not None else None
        name = declarator.child_by_field_name("name")
        if callee is None or name is None or parsing.node_text(callee) != "useIntl":
            continue
        if next(js.enclosing_scopes(declarator)).id in scopes:
            return parsing.node_text(name)
    if any(js.has_parameter(scope, "intl") for scope in js.enclosing_scopes(node)):
        return "intl"
    return None
