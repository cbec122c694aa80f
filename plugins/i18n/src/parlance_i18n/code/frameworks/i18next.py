"""i18next (react-i18next, next-i18next) read as i18next-cli's extractor reads it.

A reference is a call of a translation function (`functions`, default `t` and `*.t`; names bound by
`useTranslation`/`getT`/`useT`/`getFixedT`; `import { t as translate } from "i18next"`) or a
`<Trans>` element. The namespace comes from the call's `ns` option, else the key's `ns:` part, else
the binding's (`useTranslation("ns")`, the first of an array), else the default; a binding's
`keyPrefix` is put before the key. `t(k, { count })` asks for the plural forms (`k_one`, ...), and a
string `context` for `k_<context>`. See docs/code/i18next.md for the rules in full.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from parlance_i18n.code import parsing
from parlance_i18n.code.frameworks import javascript as js
from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework
from parlance_i18n.code.frameworks.visible import ignored_rows
from parlance_i18n.code.model import Dynamic, FileScan, Hardcoded, Reference
from parlance_i18n.formats.i18next.groups import FORM_SUFFIXES

__all__ = ["I18next"]

_HOOKS = frozenset({"useTranslation", "getT", "useT"})
"""i18next-cli's default `useTranslationNames`: calls returning a `t` bound to a namespace and prefix."""
_I18NEXT_MODULES = frozenset({"i18next", "react-i18next", "next-i18next"})

_QUERY = """
(call_expression function: [(identifier) (member_expression)] arguments: (arguments)) @call
(variable_declarator name: (_) value: [(call_expression) (await_expression (call_expression))]) @declarator
(import_statement (import_clause (named_imports (import_specifier)))) @import
(comment) @comment
""" + js.HARDCODED_QUERY

_COMMENT_OPTIONS_CHARS = 1000
"""How far after a call in a comment its options are looked for."""
_COMMENT_CALL = re.compile(r"""\bt\s*\(\s*(['"])([^'"]+)\1""")
"""i18next-cli also reads `t('key')` written in a comment: how projects declare keys built at run time."""


@dataclass(frozen=True, slots=True)
class _Binding:
    """What a `t` bound by `useTranslation(ns, { keyPrefix })` or `getFixedT` puts around its keys."""

    namespace: str | None = None
    key_prefix: str | None = None


@dataclass
class _Found:
    data: bytes
    references: list[Reference]
    dynamic: list[Dynamic]


class I18next(Framework):
    name = "i18next"
    extensions = js.EXTENSIONS
    default_paths = js.DEFAULT_PATHS
    default_exclude = js.DEFAULT_EXCLUDE

    @property
    def _ns_separator(self) -> str | None:
        sep = self.options.ns_separator
        return None if sep is False else (sep or ":")

    @property
    def _key_separator(self) -> str:
        return self.options.key_separator or "."

    @property
    def _default_namespace(self) -> str:
        return self.options.default_namespace or "translation"

    @property
    def _trans_components(self) -> frozenset[str]:
        return frozenset(self.options.trans_components or ["Trans"])

    # -- scanning ---------------------------------------------------------------------------------

    def scan(self, path: str, data: bytes) -> FileScan:
        file = js.read(path, data)
        captures = js.run(file, _QUERY)
        bindings, aliases = self._bindings(captures)
        found = _Found(data, [], [])
        for call in captures.get("call", []):
            self._read_call(call, bindings, aliases, found)
        for element in captures.get("element", []):
            if js.element_name(element) in self._trans_components:
                self._read_trans(element, bindings, found)
        comments = captures.get("comment", [])
        for comment in comments:
            self._read_comment(comment, file, found)
        ignored = ignored_rows(comments)
        literals = js.hardcoded(file, captures, ignored, self._trans_components)
        return FileScan(tuple(found.references), tuple(found.dynamic), tuple(literals), file.problems())

    def _bindings(self, captures: dict[str, list[Node]]) -> tuple[dict[tuple[int, str], _Binding], dict[str, str]]:
        """The `t`s the file binds, by (scope node id, name), and the names imported as i18next's `t`."""
        bindings: dict[tuple[int, str], _Binding] = {}
        for declarator in captures.get("declarator", []):
            value = declarator.child_by_field_name("value")
            pattern = declarator.child_by_field_name("name")
            if value is None or pattern is None:
                continue
            call = value if value.type == "call_expression" else value.named_children[0]
            binding = self._binding_of(call)
            if binding is None:
                continue
            scope = next(js.enclosing_scopes(declarator))
            for name in _bound_names(pattern):
                bindings[(scope.id, name)] = binding
        aliases: dict[str, str] = {}
        for statement in captures.get("import", []):
            source = statement.child_by_field_name("source")
            if source is None or parsing.string_value(source) not in _I18NEXT_MODULES:
                continue
            for specifier in _import_specifiers(statement):
                imported, local = specifier
                if imported == "t":
                    aliases[local] = imported
        return bindings, aliases

    def _binding_of(self, call: Node) -> _Binding | None:
        callee = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if callee is None or arguments is None:
            return None
        args = [a for a in arguments.named_children if a.type != "comment"]
        name = parsing.node_text(callee)
        if name in _HOOKS:
            namespace = _first_string(args[0]) if args else None
            key_prefix = None
            if len(args) > 1:
                options = js.object_properties(args[1])
                prefix = options.get("keyPrefix")
                key_prefix = js.single_string(prefix) if prefix is not None else js.single_string(args[1])
            return _Binding(namespace, key_prefix)
        if callee.type == "member_expression" and name.endswith(".getFixedT"):
            return _Binding(js.single_string(args[1]) if len(args) > 1 else None, js.single_string(args[2]) if len(args) > 2 else None)
        return None

    def _is_function(self, name: str) -> bool:
        for pattern in self.options.functions or ["t", "*.t"]:
            if pattern.startswith("*.") and name.endswith(pattern[1:]) or pattern == name:
                return True
        return False

    def _read_call(self, call: Node, bindings: dict[tuple[int, str], _Binding], aliases: dict[str, str],
                   found: _Found) -> None:
        callee = call.child_by_field_name("function")
        name = js.call_name(callee) if callee is not None else None
        if name is None:
            return
        binding = None
        if any(bound == name for _, bound in bindings):
            binding = next((bindings[(s.id, name)] for s in js.enclosing_scopes(call) if (s.id, name) in bindings),
                           None)
        if binding is None and name not in aliases and not self._is_function(name):
            return
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        if not args:
            return
        binding = binding or _Binding()
        first = args[0]
        options = js.object_properties(args[2] if len(args) > 2 else args[1] if len(args) > 1 else None)
        default = js.single_string(args[1]) if len(args) > 1 and args[1].type in ("string", "template_string") else None
        if "defaultValue" in options:
            default = js.single_string(options["defaultValue"]) if options["defaultValue"] is not None else default
        namespace = js.single_string(options["ns"]) if options.get("ns") is not None else None
        plural = "count" in options or (options.get("ordinal") is not None
                                        and parsing.node_text(options["ordinal"]) == "true")  # type: ignore[arg-type]
        context: list[str] | None = []
        if "context" in options:
            value = options["context"]
            context = js.static_strings(value) if value is not None else None
        span = parsing.span_of(call, found.data)
        keys = _argument_keys(first)
        if keys is None:
            self._dynamic(first, namespace, binding, found, call)
            return
        for key in keys:
            if not key:
                continue
            ordinal = key.endswith("_ordinal")
            key = key[:-len("_ordinal")] if ordinal else key
            ns, key = self._split(key, namespace, binding)
            key = self._prefixed(key, binding)
            if context is None:  # a context known only at run time: the base key and any `key_<context>`
                found.references.append(Reference(key, span, ns, plural or ordinal, default))
                found.dynamic.append(Dynamic(parsing.node_text(call)[:200], span, key + "_", ns))
                continue
            for suffix in [f"_{c}" for c in context] or [""]:
                found.references.append(Reference(key + suffix, span, ns, plural or ordinal, default))

    def _dynamic(self, first: Node, namespace: str | None, binding: _Binding, found: _Found, call: Node) -> None:
        prefix = js.template_prefix(first) or ""
        ns = namespace
        sep = self._ns_separator
        if ns is None and sep and sep in prefix:
            ns, prefix = prefix.split(sep, 1)
        ns = ns or binding.namespace
        if binding.key_prefix:
            prefix = binding.key_prefix + self._key_separator + prefix
        found.dynamic.append(Dynamic(parsing.node_text(first)[:200], parsing.span_of(call, found.data), prefix, ns))

    def _split(self, key: str, namespace: str | None, binding: _Binding) -> tuple[str | None, str]:
        sep = self._ns_separator
        if namespace is None and sep and sep in key:
            namespace, key = key.split(sep, 1)
        return namespace or binding.namespace, key

    def _prefixed(self, key: str, binding: _Binding) -> str:
        return binding.key_prefix + self._key_separator + key if binding.key_prefix else key

    def _read_trans(self, element: Node, bindings: dict[tuple[int, str], _Binding], found: _Found) -> None:
        attrs = js.attributes(element)
        span = parsing.span_of(element.parent if element.type == "jsx_opening_element" and element.parent else element,
                               found.data)
        namespace = js.single_string(js.attribute_expression(attrs.get("ns"))) if attrs.get("ns") is not None else None
        options = js.object_properties(js.attribute_expression(attrs.get("tOptions")))
        if namespace is None and options.get("ns") is not None:
            namespace = js.single_string(options["ns"])
        values = js.object_properties(js.attribute_expression(attrs.get("values")))
        plural = "count" in attrs or "count" in values
        default = js.single_string(js.attribute_expression(attrs.get("defaults"))) if attrs.get("defaults") else None
        binding = _Binding()
        t_attr = js.attribute_expression(attrs.get("t"))
        if t_attr is not None and t_attr.type == "identifier":
            name = parsing.node_text(t_attr)
            binding = next((bindings[(s.id, name)] for s in js.enclosing_scopes(element) if (s.id, name) in bindings),
                           _Binding())
        children = _trans_children(element) if element.type == "jsx_opening_element" else ""
        key_value = attrs.get("i18nKey")
        if key_value is None:
            keys: list[str] | None = [children] if children else []
            default = default or None
        else:
            expression = js.attribute_expression(key_value)
            keys = js.static_strings(expression) if expression is not None else None
            if keys is None and expression is not None:
                self._dynamic(expression, namespace, _Binding(binding.namespace), found, element)
                return
        for key in keys or []:
            if not key:
                continue
            ns, key = self._split(key, namespace, _Binding(binding.namespace))
            found.references.append(Reference(key, span, ns, plural, default or children or None))

    def _read_comment(self, comment: Node, file: js.JsFile, found: _Found) -> None:
        text = parsing.node_text(comment)
        if "t" not in text or "(" not in text:
            return
        for match in _COMMENT_CALL.finditer(text):
            # what follows the call, up to a bound: one option object, not the rest of a long comment per call
            rest = text[match.end():match.end() + _COMMENT_OPTIONS_CHARS]
            ns, key = self._split(match.group(2), _comment_option(rest, "ns"), _Binding())
            default = _comment_default(rest)
            found.references.append(Reference(key, parsing.span_of(comment, found.data), ns, False, default))

    # -- spelling ---------------------------------------------------------------------------------

    def catalog_key(self, key: str, namespace: str | None, namespaced: bool) -> str:
        if not namespaced:
            return key
        return f"{namespace or self._default_namespace}{self._ns_separator or ':'}{key}"

    def called_key(self, key: str, in_catalog: Callable[[str], bool]) -> str:
        # The catalog holds a plural group under its base key (the i18next format groups `items_one`,
        # `items_other` as `items`): an explicit form reads that group, where the catalog has it.
        if in_catalog(key):
            return key
        for suffix in FORM_SUFFIXES:
            if key.endswith(suffix) and len(key) > len(suffix) and in_catalog(key[:-len(suffix)]):
                return key[:-len(suffix)]
        return key

    # -- extraction -------------------------------------------------------------------------------

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        file = js.read(path, data)
        node = js.node_at(file, literal.span.start_byte, literal.span.end_byte)
        if node is None:
            raise ExtractionRefused(f"{path}:{literal.span.line}: the literal is no longer there; scan again")
        if literal.kind != "jsx-text" and not literal.kind.startswith("jsx-attribute:"):
            raise ExtractionRefused(f"{literal.kind} literals are not extracted for i18next")
        captures = js.run(file, _QUERY)
        bindings, aliases = self._bindings(captures)
        name, binding = self._t_in_scope(node, bindings, aliases)
        sep = self._ns_separator
        namespace = None
        if sep and sep in key:
            namespace, key = key.split(sep, 1)
        if binding.key_prefix:
            start = binding.key_prefix + self._key_separator
            if not key.startswith(start):
                raise ExtractionRefused(f"{path}:{literal.span.line}: `{name}` here has keyPrefix "
                                        f"{binding.key_prefix!r}, so the key must start with {start!r}; choose such a key")
            key = key[len(start):]
        catalog_key = f"{binding.key_prefix}{self._key_separator}{key}" if binding.key_prefix else key
        reads = binding.namespace or self._default_namespace
        if namespace is not None and namespace != reads:
            key, reads = f"{namespace}{sep}{key}", namespace
        call = f"{name}({js.js_string(key)})"
        replacement = "{" + call + "}"
        return Extraction((Edit(literal.span.start_byte, literal.span.end_byte, replacement),), literal.text,
                          namespace=reads, key=catalog_key)

    def _t_in_scope(self, node: Node, bindings: dict[tuple[int, str], _Binding], aliases: dict[str, str]
                    ) -> tuple[str, _Binding]:
        """The name of a `t` the enclosing functions can call, and what it binds; refused when none."""
        for scope in js.enclosing_scopes(node):
            for (scope_id, name), binding in bindings.items():
                if scope_id == scope.id:
                    return name, binding
            if scope.type in js.FUNCTION_TYPES and js.has_parameter(scope, "t"):
                return "t", _Binding()
        if aliases:
            return next(iter(aliases)), _Binding()
        raise ExtractionRefused("no `t` is in scope here: call `const { t } = useTranslation()` in the component "
                                "(or import `t` from i18next), then extract again")


def _first_string(node: Node) -> str | None:
    """`useTranslation("ns")` or the first of `useTranslation(["ns", "other"])`."""
    if node.type == "array":
        first = next((n for n in node.named_children if n.type != "comment"), None)
        return js.single_string(first)
    return js.single_string(node)


def _argument_keys(node: Node) -> list[str] | None:
    """The keys a first argument names: one, each branch of a ternary, each of an array of fallbacks."""
    if node.type == "array":
        keys: list[str] = []
        for element in node.named_children:
            values = js.static_strings(element)
            if values is None:
                return None
            keys += values
        return keys
    return js.static_strings(node)


def _bound_names(pattern: Node) -> list[str]:
    """`t` in `const t = ...`, `const [t] = ...`, `const { t } = ...`, `translate` in `{ t: translate }`."""
    if pattern.type == "identifier":
        return [parsing.node_text(pattern)]
    if pattern.type == "array_pattern":
        first = next(iter(pattern.named_children), None)
        return [parsing.node_text(first)] if first is not None and first.type == "identifier" else []
    if pattern.type == "object_pattern":
        for child in pattern.named_children:
            if child.type == "shorthand_property_identifier_pattern" and parsing.node_text(child) == "t":
                return ["t"]
            if child.type == "pair_pattern":
                key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
                if key is not None and value is not None and parsing.node_text(key) == "t" \
                        and value.type == "identifier":
                    return [parsing.node_text(value)]
            if child.type == "object_assignment_pattern" and parsing.node_text(child).startswith("t"):
                left = child.child_by_field_name("left")
                if left is not None and parsing.node_text(left) == "t":
                    return ["t"]
    return []


def _import_specifiers(statement: Node) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
    named = next((c for c in clause.named_children if c.type == "named_imports"), None) if clause else None
    for specifier in named.named_children if named is not None else []:
        if specifier.type != "import_specifier":
            continue
        imported = specifier.child_by_field_name("name")
        alias = specifier.child_by_field_name("alias")
        if imported is not None:
            found.append((parsing.node_text(imported), parsing.node_text(alias or imported)))
    return found


_KEEP_BASIC_HTML = frozenset({"br", "strong", "i", "p"})


def _trans_children(opening: Node) -> str:
    """The key react-i18next gives a `<Trans>` without `i18nKey`: its children as i18next-cli writes them
    (text as is, `{name}` as `{{name}}`, kept basic HTML by name, other elements by their index)."""
    element = opening.parent
    if element is None:
        return ""
    return re.sub(r"\s{2,}", " ", _serialize(element).strip())


def _serialize(element: Node) -> str:
    out: list[str] = []
    index = 0
    previous_end = None
    for child in element.named_children:
        if child.type in ("jsx_opening_element", "jsx_closing_element"):
            previous_end = child.end_byte
            continue
        if previous_end is not None and child.start_byte > previous_end and child.type != "jsx_text":
            index += 1  # whitespace between elements: a text node to Babel and SWC, none to tree-sitter
        previous_end = child.end_byte
        if child.type == "jsx_text":
            out.append(parsing.node_text(child))
        elif child.type == "jsx_expression":
            inner = [c for c in child.named_children if c.type != "comment"]
            if inner and inner[0].type in ("string", "template_string"):
                out.append(parsing.string_value(inner[0]) or "")
            elif inner and inner[0].type == "identifier":
                out.append("{{" + parsing.node_text(inner[0]) + "}}")
            elif inner and inner[0].type == "object" and inner[0].named_children:
                out.append("{{" + parsing.node_text(inner[0].named_children[0]).split(":")[0].strip() + "}}")
        elif child.type in ("jsx_element", "jsx_self_closing_element"):
            opening = child.named_children[0] if child.type == "jsx_element" else child
            name = js.element_name(opening)
            inner_text = _serialize(child) if child.type == "jsx_element" else ""
            tag = name if name in _KEEP_BASIC_HTML and not js.attributes(opening) else str(index)
            out.append(f"<{tag}>{inner_text}</{tag}>" if inner_text or child.type == "jsx_element" else f"<{tag}/>")
        index += 1
    return "".join(out)


def _comment_option(rest: str, option: str) -> str | None:
    match = re.match(r"""\s*,\s*\{[^}]{0,200}?\b""" + option + r"""\s*:\s*(['"])(.*?)\1""", rest)
    return match.group(2) if match else None


def _comment_default(rest: str) -> str | None:
    match = re.match(r"""\s*,\s*(['"])(.*?)\1""", rest)
    return match.group(2) if match else _comment_option(rest, "defaultValue")
