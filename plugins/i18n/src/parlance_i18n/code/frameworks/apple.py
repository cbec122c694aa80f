"""Apple: the keys Swift and Objective-C look up in `.strings`, `.stringsdict` and `.xcstrings`
catalogs, read as Xcode's string extraction (and `genstrings`) reads them.

References (the key in full; `namespace` is the table, None for the default `Localizable`):
- Swift: `String(localized: "k", defaultValue:, table:, comment:)`, `NSLocalizedString("k", tableName:,
  value:, comment:)`, `LocalizedStringKey("k")`, `LocalizedStringResource("k", defaultValue:, table:)`,
  `Bundle.main.localizedString(forKey: "k", value:, table:)`, and SwiftUI's views and modifiers whose
  first parameter is a `LocalizedStringKey`, so that their string literal *is* a key: `Text("k")`
  (with `tableName:`), `Button`, `Label`, `Toggle`, `Link`, `TextField`, `SecureField`, `Section`,
  `Picker`, `Menu`, `.navigationTitle`, `.help`, `.accessibilityLabel`, `.alert`, `.confirmationDialog`.
  An interpolating literal is the key Xcode extracts for it: `Text("Hello \\(name)")` is
  `Hello %@`; an integer literal interpolated is `%lld`, a decimal one `%lf` (every other expression
  `%@`: the code does not say its type, and a String or any object is what most interpolations hold),
  and a literal `%` is `%%`.
- Objective-C: `NSLocalizedString(@"k", comment)`, `NSLocalizedStringFromTable(@"k", @"T", comment)`,
  `NSLocalizedStringFromTableInBundle(@"k", @"T", bundle, comment)`,
  `NSLocalizedStringWithDefaultValue(@"k", @"T", bundle, @"value", comment)`.
Dynamic: any of those calls whose key is not a literal (`NSLocalizedString(key, comment: "")`,
`Text(LocalizedStringKey(name))`); Swift's `Text(variable)` is not one (a String shows verbatim).
Hard-coded: `Text(verbatim: "...")` with a letter in it, kind `swiftui-text-verbatim`; a line under an
`i18n-ignore` comment is not reported.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework
from parlance_i18n.code.frameworks.native_strings import Literal, literal
from parlance_i18n.code.frameworks.visible import ignored_lines, is_user_text
from parlance_i18n.code.model import Dynamic, FileScan, Hardcoded, Reference
from parlance_i18n.code.parsing import matches, node_text, parse, span_of

__all__ = ["Apple"]

_DEFAULT_TABLE = "Localizable"
"""A word of two letters or more: what a user reads (`v2.1.0`, `x`, `42` are not reported)."""
_INTEGER = re.compile(r"-?[0-9][0-9_]*")
_DECIMAL = re.compile(r"-?[0-9][0-9_]*\.[0-9_]+(?:[eE][+-]?[0-9]+)?")

_KEY_VIEWS = ("Text", "Button", "Label", "Toggle", "Link", "TextField", "SecureField", "Section", "Picker",
              "Menu", "navigationTitle", "help", "accessibilityLabel", "alert", "confirmationDialog")
"""SwiftUI views and modifiers whose first, unlabeled parameter is a LocalizedStringKey."""
_LOOKUPS = ("String", "NSLocalizedString", "LocalizedStringKey", "LocalizedStringResource", "localizedString")
_SWIFT_CALLS = """(call_expression . [(simple_identifier) @fn
    (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @fn))]
  . (call_suffix (value_arguments) @arguments) (#any-of? @fn {names}))""".format(
    names=" ".join(f'"{name}"' for name in _KEY_VIEWS + _LOOKUPS))
_OBJC_CALLS = """(call_expression function: (identifier) @fn arguments: (argument_list) @arguments
  (#any-of? @fn "NSLocalizedString" "NSLocalizedStringFromTable" "NSLocalizedStringFromTableInBundle"
                "NSLocalizedStringWithDefaultValue"))"""
_OBJC_TABLE_ARGUMENT = {"NSLocalizedStringFromTable": 1, "NSLocalizedStringFromTableInBundle": 1,
                        "NSLocalizedStringWithDefaultValue": 1}
_STRINGS = ("line_string_literal", "multi_line_string_literal", "raw_string_literal", "string_literal")


class Apple(Framework):
    name = "apple"
    extensions = (".swift", ".m")
    default_paths = ("**/*.swift", "**/*.m")
    default_exclude = ("**/*Tests/**", "Pods/**", "**/.build/**")

    def scan(self, path: str, data: bytes) -> FileScan:
        found = _Found(data)
        if path.endswith(".swift"):
            root = parse("swift", data).root_node
            for match in matches("swift", _SWIFT_CALLS, root):
                found.swift_call(node_text(match["fn"][0]), match["arguments"][0])
        else:
            root = parse("objc", data).root_node
            for match in matches("objc", _OBJC_CALLS, root):
                found.objc_call(node_text(match["fn"][0]), match["arguments"][0])
        problems = ("the file has syntax errors; the parts tree-sitter could not read were skipped",) \
            if root.has_error else ()
        return FileScan(tuple(found.references), tuple(found.dynamic), tuple(found.hardcoded), problems)

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        """`Text(verbatim: "Save")` becomes `Text("key")`: a LocalizedStringKey, looked up in the
        default table (the catalog gets the text)."""
        if literal.kind != "swiftui-text-verbatim" or not path.endswith(".swift"):
            raise ExtractionRefused(f"a {literal.kind} literal cannot be extracted by the apple framework")
        root = parse("swift", data).root_node
        node = root.descendant_for_byte_range(literal.span.start_byte, literal.span.end_byte)
        while node is not None and node.type not in _STRINGS:
            node = node.parent
        argument = node.parent if node is not None else None
        value = literal_of(node, data) if node is not None else None
        if node is None or argument is None or argument.type != "value_argument" or value is None \
                or (node.start_byte, node.end_byte) != (literal.span.start_byte, literal.span.end_byte):
            raise ExtractionRefused(f"line {literal.span.line} no longer holds the literal; scan the file again")
        if not value.fixed:
            raise ExtractionRefused("the text interpolates values: its key needs their format specifiers "
                                    "(`%@`, `%lld`), which only their types tell; write Text(\"…\") by hand")
        return Extraction((Edit(argument.start_byte, argument.end_byte, _swift_string(key)),), value.text)


class _Found:
    """What one file's calls give, gathered as they are read."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.ignored = ignored_lines(data)
        self.references: list[Reference] = []
        self.dynamic: list[Dynamic] = []
        self.hardcoded: list[Hardcoded] = []

    def swift_call(self, function: str, arguments: Node) -> None:
        pairs = _swift_arguments(arguments)
        labels = {label: value for label, value in pairs if label}
        first = pairs[0] if pairs else (None, None)
        label, key = first
        if function == "String":
            if "localized" in labels:
                self._lookup(labels["localized"], labels.get("table"), labels.get("defaultValue"), formats=True)
            return
        if function == "localizedString":
            if "forKey" in labels:
                self._lookup(labels["forKey"], labels.get("table"), labels.get("value"))
            return
        if function == "Text" and "verbatim" in labels:
            self._verbatim(labels["verbatim"])
            return
        if label is not None or key is None:
            return
        if function in ("NSLocalizedString", "LocalizedStringKey", "LocalizedStringResource"):
            table = labels.get("tableName") or labels.get("table")
            self._lookup(key, table, labels.get("value") or labels.get("defaultValue"),
                         formats=function != "NSLocalizedString")
        elif key.type in _STRINGS:  # a view's LocalizedStringKey; a variable there is a String, shown verbatim
            self._lookup(key, labels.get("tableName") if function == "Text" else None, None, formats=True)

    def objc_call(self, function: str, arguments: Node) -> None:
        values = arguments.named_children
        if not values:
            return
        table_index = _OBJC_TABLE_ARGUMENT.get(function)
        table = values[table_index] if table_index is not None and table_index < len(values) else None
        default = values[3] if function == "NSLocalizedStringWithDefaultValue" and len(values) > 3 else None
        self._lookup(values[0], table, default)

    def _lookup(self, key: Node, table: Node | None, default: Node | None, formats: bool = False) -> None:
        """A lookup of `key` in `table`. `formats`: the key is a LocalizedStringKey or
        String.LocalizationValue, whose interpolations are format arguments (Xcode extracts
        `Hello %@`); elsewhere (NSLocalizedString) an interpolated key is built at run time."""
        value = literal_of(key, self.data) if key.type in _STRINGS else None
        namespace = _table(table, self.data)
        span = span_of(key, self.data)
        if value is None or not (value.fixed or formats):
            prefix = (value.parts[0] or "") if value is not None and value.parts else ""
            self.dynamic.append(Dynamic(node_text(key)[:200], span, prefix, namespace))
            return
        default_value = literal_of(default, self.data) if default is not None and default.type in _STRINGS else None
        self.references.append(Reference(xcode_key(value), span, namespace,
                                         default=default_value.text if default_value and default_value.fixed
                                         else None))

    def _verbatim(self, node: Node) -> None:
        value = literal_of(node, self.data) if node.type in _STRINGS else None
        if value is None or not is_user_text(" ".join(p for p in value.parts if p)):
            return
        span = span_of(node, self.data)
        if span.line not in self.ignored:
            self.hardcoded.append(Hardcoded(" ".join(value.text.split()), "swiftui-text-verbatim", span))


def literal_of(node: Node, data: bytes) -> Literal | None:
    """A Swift or Objective-C string literal's value (Swift's raw `#"..."#` strings are not read)."""
    if node.type == "raw_string_literal":
        return None
    return literal(node, data)


def xcode_key(value: Literal) -> str:
    """The key Xcode extracts for a literal: itself, or with each interpolation's format specifier."""
    if value.fixed:
        return value.text
    parts: list[str] = []
    expressions = iter(value.expressions)
    for piece in value.parts:
        if piece is None:
            parts.append(_specifier(next(expressions, "")))
        else:
            parts.append(piece.replace("%", "%%"))
    return "".join(parts)


def _specifier(expression: str) -> str:
    if _INTEGER.fullmatch(expression):
        return "%lld"
    if _DECIMAL.fullmatch(expression):
        return "%lf"
    return "%@"


def _table(node: Node | None, data: bytes) -> str | None:
    if node is None or node.type not in _STRINGS:
        return None
    value = literal_of(node, data)
    if value is None or not value.fixed or value.text in ("", _DEFAULT_TABLE):
        return None
    return value.text


def _swift_arguments(arguments: Node) -> list[tuple[str | None, Node]]:
    """Each argument of a Swift call: (its label or None, its value)."""
    pairs: list[tuple[str | None, Node]] = []
    for argument in arguments.named_children:
        if argument.type != "value_argument":
            continue
        label = argument.child_by_field_name("name")
        value = argument.child_by_field_name("value")
        if value is None:
            continue
        pairs.append((node_text(label).strip() if label is not None else None, value))
    return pairs


def _swift_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
