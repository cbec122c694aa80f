"""Java: `ResourceBundle` lookups and Spring's `MessageSource` in `.java` files, keys as the
`.properties` catalog names them (the key is the key: no namespace, no plural suffix).

A reference is a call whose receiver is a bundle, with a string first argument:

- `getString`, `getObject`, `getStringArray` on a `ResourceBundle`: a variable, field or parameter
  declared as one (or assigned `ResourceBundle.getBundle(...)`), `ResourceBundle.getBundle(...)` or
  a `getBundle()`/`getResourceBundle()` call itself, or, where the declaration is elsewhere (an
  inherited or injected field), a receiver with a bundle's usual name (`bundle`, `messages`, `rb`, ...)
  that the file does not declare as something else. `org.json`'s `json.getString("name")` is not
  one: its receiver is neither;
- `getMessage(code, args[, default], locale)` on a Spring `MessageSource` (declared so, or named
  `messageSource`/`messages`); a string third argument of four is the default text.

`MessageFormat.format(bundle.getString("k"), ...)` is the `getString` inside it. A key that is a
`static final String` constant of the file is the constant's value. A key built at run time
(`"prefix." + x`) is a `Dynamic` with its static start; any other expression one without a prefix.
`@Value("#{...}")` (Spring expressions) is not read.

Hard-coded: string literals (alone, or a `+` concatenation's pieces) passed to Swing/AWT/JavaFX
widgets' constructors (`new JButton("Save")`: kind `java-ui:new JButton`) and text setters
(`setText`, `setToolTipText`, `setTitle`, ...: `java-ui:setText`), and `JOptionPane` dialogs'
messages and titles. Loggers, `System.out` and exceptions are none of these calls, so they are not
reported; nor is a literal under an `i18n-ignore` comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework
from parlance_i18n.code.frameworks.visible import ignored_rows, is_user_text
from parlance_i18n.code.model import Dynamic, FileScan, Hardcoded, Reference
from parlance_i18n.code.parsing import captures, matches, node_text, parse, span_of, string_value

__all__ = ["Java"]

_LOOKUPS = """
(method_invocation
  object: (_)? @object
  name: (identifier) @name (#any-of? @name "getString" "getObject" "getStringArray" "getMessage")
  arguments: (argument_list) @args) @call
"""
_DECLARATIONS = """
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @var value: (_)? @value)) @decl
(local_variable_declaration type: (_) @type
  declarator: (variable_declarator name: (identifier) @var value: (_)? @value)) @decl
(formal_parameter type: (_) @type name: (identifier) @var) @decl
"""
_UI = """
(object_creation_expression type: (_) @type arguments: (argument_list) @args) @call
(method_invocation
  name: (identifier) @name (#any-of? @name "setText" "setToolTipText" "setTitle" "setPromptText" "setHeaderText"
                                         "setContentText" "setLabel" "createTitledBorder" "showMessageDialog"
                                         "showConfirmDialog" "showInputDialog" "showOptionDialog")
  arguments: (argument_list) @args) @call
"""
_COMMENTS = "[(line_comment) (block_comment)] @comment"
BUNDLE_TYPES = frozenset({"ResourceBundle", "PropertyResourceBundle", "ListResourceBundle"})
MESSAGE_SOURCE_TYPES = frozenset({"MessageSource", "MessageSourceAccessor", "ApplicationContext",
                                  "ResourceBundleMessageSource", "ReloadableResourceBundleMessageSource",
                                  "StaticMessageSource", "AbstractMessageSource"})
BUNDLE_NAMES = re.compile(r"(?i)^(bundle|resourceBundle|resources?|messages|msgs?|rb|res|i18n|labels|texts?|"
                          r"[a-z]*Bundle|[A-Z_]*BUNDLE)$")
"""Receivers read as a bundle when the file does not declare them (an inherited or injected field)."""
MESSAGE_SOURCE_NAMES = re.compile(r"(?i)^(messageSource|messageSourceAccessor|messages|[a-z]*MessageSource)$")
UI_WIDGETS = frozenset({
    # Swing
    "JButton", "JLabel", "JMenu", "JMenuItem", "JCheckBox", "JCheckBoxMenuItem", "JRadioButton",
    "JRadioButtonMenuItem", "JToggleButton", "JFrame", "JDialog", "JInternalFrame", "TitledBorder",
    # AWT
    "Button", "Label", "Checkbox", "Menu", "MenuItem", "CheckboxMenuItem", "Frame", "Dialog",
    # JavaFX
    "CheckBox", "RadioButton", "ToggleButton", "Hyperlink", "Tab", "Tooltip", "TitledPane", "Text",
    "RadioMenuItem", "CheckMenuItem",
})
"""Widgets whose constructor's string arguments a user reads (a label, a title, a tool tip)."""


@dataclass
class _Declarations:
    """What the file declares: bundle and message-source names, the names of other types (which a
    bundle's usual name does not make a bundle), and `final String` constants."""

    bundles: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)
    constants: dict[str, str] = field(default_factory=dict)


def _type_name(node: Node) -> str:
    """`javax.swing.JButton` and `JButton<T>` -> `JButton`."""
    if node.type == "generic_type" and node.named_children:
        return _type_name(node.named_children[0])
    return node_text(node).rsplit(".", 1)[-1]


def _opens_bundle(node: Node | None) -> bool:
    """`ResourceBundle.getBundle(...)`, `getBundle()`, `getResourceBundle()`."""
    if node is None or node.type != "method_invocation":
        return False
    name = node.child_by_field_name("name")
    return name is not None and node_text(name) in ("getBundle", "getResourceBundle")


def _declarations(root: Node) -> _Declarations:
    found = _Declarations()
    for match in matches("java", _DECLARATIONS, root):
        type_name, name = _type_name(match["type"][0]), node_text(match["var"][0])
        value = match.get("value", [None])[0]
        if type_name in BUNDLE_TYPES or _opens_bundle(value):
            found.bundles.add(name)
        elif type_name in MESSAGE_SOURCE_TYPES:
            found.sources.add(name)
        elif type_name != "var":
            found.others.add(name)
            if type_name == "String" and value is not None and value.type == "string_literal":
                modifiers = next((c for c in match["decl"][0].children if c.type == "modifiers"), None)
                text = string_value(value)
                if modifiers is not None and "final" in node_text(modifiers).split() and text is not None:
                    found.constants[name] = text
    return found


def _receiver_name(node: Node) -> str | None:
    if node.type == "identifier":
        return node_text(node)
    if node.type == "field_access":  # this.bundle
        name = node.child_by_field_name("field")
        return node_text(name) if name is not None else None
    return None


class Java(Framework):
    name = "java"
    extensions = (".java",)
    default_paths = ("src/main/java/**/*.java",)

    def scan(self, path: str, data: bytes) -> FileScan:
        root = parse("java", data).root_node
        declared = _declarations(root)
        references: list[Reference] = []
        dynamic: list[Dynamic] = []
        for match in matches("java", _LOOKUPS, root):
            method = node_text(match["name"][0])
            receiver = match.get("object", [None])[0]
            if receiver is None or not self._is_lookup(method, receiver, declared):
                continue
            args = match["args"][0].named_children
            if not args:
                continue
            key_node = args[0]
            default = None
            if method == "getMessage" and len(args) == 4 and args[2].type == "string_literal":
                default = string_value(args[2])
            key, prefix = _key(key_node, declared.constants)
            if key is not None:
                references.append(Reference(key, span_of(key_node, data), default=default))
            elif prefix is not None:
                dynamic.append(Dynamic(node_text(key_node)[:200], span_of(key_node, data), prefix))
        return FileScan(tuple(references), tuple(dynamic), tuple(_hardcoded(root, data)), _problems(root))

    @staticmethod
    def _is_lookup(method: str, receiver: Node, declared: _Declarations) -> bool:
        name = _receiver_name(receiver)
        if name is None:
            return method != "getMessage" and _opens_bundle(receiver)
        undeclared = name not in declared.others
        if method == "getMessage":
            return name in declared.sources or (undeclared and name not in declared.bundles
                                                and bool(MESSAGE_SOURCE_NAMES.match(name)))
        return name in declared.bundles or (undeclared and name not in declared.sources
                                            and bool(BUNDLE_NAMES.match(name)))

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        """`"Save"` -> `bundle.getString("key")`, with the one bundle the literal's class holds."""
        start, end = literal.span.start_byte, literal.span.end_byte
        if not 0 <= start < end <= len(data):
            raise ExtractionRefused(f"{path}:{literal.span.line}: the literal's span is outside the file; scan again")
        if "{" in literal.text:
            raise ExtractionRefused(f"{path}:{literal.span.line}: the text has braces, which the .properties catalog "
                                    "reads as a MessageFormat pattern; extract it by hand")
        root = parse("java", data).root_node
        node = root.descendant_for_byte_range(start, end)
        if node is None or node.type != "string_literal":
            raise ExtractionRefused(f"{path}:{literal.span.line}: no string literal at the literal's span; scan again")
        names = _bundles_in_scope(node)
        if len(names) != 1:
            found = ", ".join(sorted(names)) or "none"
            raise ExtractionRefused(f"{path}:{literal.span.line}: the class holds {len(names)} ResourceBundle "
                                    f"variables or fields in scope ({found}); the call needs exactly one: declare "
                                    "one (ResourceBundle bundle = ResourceBundle.getBundle(\"messages\")) or write "
                                    "the call by hand")
        call = f'{names.pop()}.getString("{_java_string(key)}")'
        return Extraction((Edit(start, end, call),), literal.text)


def _key(node: Node, constants: dict[str, str]) -> tuple[str | None, str | None]:
    """(the key, when fixed; else the static start of one built at run time, or None for a first
    argument that is no key at all, such as Spring's `MessageSourceResolvable`)."""
    if node.type == "string_literal":
        value = string_value(node)
        return (value, None) if value is not None else (None, "")
    if node.type == "identifier" and node_text(node) in constants:
        return constants[node_text(node)], None
    if node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        if operator is not None and node_text(operator) == "+" and left is not None:
            key, prefix = _key(left, constants)
            return None, key if key is not None else prefix or ""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _key(node.named_children[0], constants)
    if node.type in ("object_creation_expression", "null_literal", "array_creation_expression"):
        return None, None
    return None, ""


def _hardcoded(root: Node, data: bytes) -> list[Hardcoded]:
    ignored = ignored_rows(captures("java", _COMMENTS, root).get("comment", []))
    found: list[Hardcoded] = []
    for match in matches("java", _UI, root):
        if "type" in match:
            widget = _type_name(match["type"][0])
            if widget not in UI_WIDGETS:
                continue
            kind = f"java-ui:new {widget}"
        else:
            kind = f"java-ui:{node_text(match['name'][0])}"
        for argument in match["args"][0].named_children:
            for literal in _literals(argument):
                text = string_value(literal)
                if text is None or not is_user_text(text) or literal.start_point[0] in ignored:
                    continue
                found.append(Hardcoded(text, kind, span_of(literal, data)))
    found.sort(key=lambda literal: literal.span.start_byte)
    return found


def _literals(node: Node) -> list[Node]:
    """A string argument's literals: itself, or the pieces of a `+` concatenation."""
    if node.type == "string_literal":
        return [node]
    if node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        if operator is not None and node_text(operator) == "+":
            return [piece for child in node.named_children for piece in _literals(child)]
    if node.type == "parenthesized_expression":
        return [piece for child in node.named_children for piece in _literals(child)]
    return []


def _bundles_in_scope(literal: Node) -> set[str]:
    """The ResourceBundle names the literal's code can use: fields of its enclosing classes (only
    static ones in a static method), parameters and locals declared before it in its method."""
    names: set[str] = set()
    static_context = False
    node: Node | None = literal.parent
    while node is not None:
        if node.type in ("method_declaration", "constructor_declaration"):
            static_context = static_context or _is_static(node)
            for match in matches("java", _DECLARATIONS, node):
                declaration = match["decl"][0]
                if declaration.type != "field_declaration" and declaration.start_byte < literal.start_byte and \
                        _is_bundle(match):
                    names.add(node_text(match["var"][0]))
        elif node.type in ("class_body", "enum_body"):
            for child in node.named_children:
                if child.type == "field_declaration" and (not static_context or _is_static(child)):
                    names.update(_bundle_fields(child))
        node = node.parent
    return names


def _is_static(node: Node) -> bool:
    modifiers = next((child for child in node.children if child.type == "modifiers"), None)
    return modifiers is not None and "static" in node_text(modifiers).split()


def _is_bundle(match: dict[str, list[Node]]) -> bool:
    value = match.get("value", [None])[0]
    return _type_name(match["type"][0]) in BUNDLE_TYPES or _opens_bundle(value)


def _bundle_fields(declaration: Node) -> list[str]:
    type_node = declaration.child_by_field_name("type")
    names: list[str] = []
    for declarator in declaration.children_by_field_name("declarator"):
        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
        if name is not None and ((type_node is not None and _type_name(type_node) in BUNDLE_TYPES)
                                 or _opens_bundle(value)):
            names.append(node_text(name))
    return names


def _java_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _problems(root: Node) -> tuple[str, ...]:
    if not root.has_error:
        return ()
    errors = captures("java", "(ERROR) @error", root).get("error", [])
    line = errors[0].start_point[0] + 1 if errors else 1
    return (f"line {line}: a Java syntax error the parser recovered from; calls around it may be missed",)
