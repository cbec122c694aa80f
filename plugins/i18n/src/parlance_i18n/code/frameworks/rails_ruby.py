"""Rails' `t` calls read off a tree-sitter-ruby tree: which key each names, as the `i18n` gem and
Rails' `translate` helpers resolve it.

A call is `t`/`translate` (and the bang forms) with no receiver (the view and controller helpers),
or on `I18n`, `::I18n`, `helpers` or `view_context`. Its key is its first argument: a string or a
symbol. Options are read as the gem reads them:

- `scope:` (a string, a symbol, or an array of them) goes before the key: `I18n.normalize_keys`
  joins scope and key on `.` and drops empty parts, so `t("b", scope: [:a])` is `a.b`;
- `count:` makes the call plural (the catalog's `one`/`other` children);
- `default:` a string is the source text; a symbol (or symbols in an array) is another key looked
  up with the same scope, which the call uses too;
- a key starting with `.` is a lazy lookup, resolved by the caller's `LazyScope` (only the helpers
  resolve it; `I18n.t(".x")` is `x`, as the gem drops the empty part).

A key built at run time (`"status.#{s}"`, `"a." + b`, a variable) is a `Dynamic` with its static start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from parlance_i18n.code.model import Dynamic, Reference
from parlance_i18n.code.parsing import matches, node_text, span_of

__all__ = ["CALLS", "KeyPart", "RubyCalls", "lazy_resolvers"]

CALLS = """
(call
  receiver: (_)? @receiver
  method: (identifier) @method (#any-of? @method "t" "translate" "t!" "translate!")
  arguments: (argument_list) @args) @call
"""
_I18N_RECEIVERS = frozenset({"I18n", "::I18n"})
_HELPER_RECEIVERS = frozenset({"helpers", "view_context"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "s": " ", "0": "\0", "e": "\x1b"}


@dataclass(frozen=True, slots=True)
class KeyPart:
    """A key (or scope) expression: `value` when fixed, else the static start it has (`prefix`)."""

    value: str | None
    prefix: str = ""


LazyResolver = Callable[[str, Node], KeyPart]
"""A lazy key (`.title`) and its call -> the full key (`users.index.title`), or a Dynamic's prefix."""


def lazy_resolvers(resolve: LazyResolver | None) -> LazyResolver:
    """`resolve`, or (outside views and controllers, where the scope is the template rendering at run
    time) a resolver that says the key is unknown."""
    return resolve if resolve is not None else (lambda key, call: KeyPart(None, ""))


class RubyCalls:
    """The references and dynamic keys of the `t` calls under a tree's root."""

    def __init__(self, data: bytes, lazy: LazyResolver) -> None:
        self.data = data
        self.lazy = lazy
        self.references: list[Reference] = []
        self.dynamic: list[Dynamic] = []

    def read(self, root: Node) -> None:
        for found in matches("ruby", CALLS, root):
            receiver = found.get("receiver")
            receiver_text = node_text(receiver[0]) if receiver else None
            helper = receiver_text is None or receiver_text in _HELPER_RECEIVERS
            if not helper and receiver_text not in _I18N_RECEIVERS:
                continue
            self._call(found["call"][0], found["args"][0], helper)

    def _call(self, call: Node, args: Node, helper: bool) -> None:
        positional = [child for child in args.named_children if child.type not in ("pair", "hash", "comment")]
        if not positional:
            return
        key_node = positional[0]
        options = _options(args)
        plural = "count" in options
        scope = _scope(options.get("scope"))
        default_text, default_keys = _defaults(options.get("default"))
        key = key_of(key_node)
        if key.value is not None and helper and key.value.startswith("."):
            key = self.lazy(key.value, call)
        elif key.value is None and helper and key.prefix.startswith("."):
            resolved = self.lazy(key.prefix, call)
            key = KeyPart(None, resolved.value if resolved.value is not None else resolved.prefix)
        if scope.value is None:
            self._dynamic(key_node, scope.prefix)
            return
        if key.value is None:
            self._dynamic(key_node, _join(scope.value, key.prefix, keep_dot=True))
            return
        span = span_of(key_node, self.data)
        self.references.append(Reference(_join(scope.value, key.value), span, plural=plural, default=default_text))
        for fallback in default_keys:
            self.references.append(Reference(_join(scope.value, fallback), span, plural=plural))

    def _dynamic(self, node: Node, prefix: str) -> None:
        self.dynamic.append(Dynamic(node_text(node)[:200], span_of(node, self.data), prefix))


def _join(scope: str, key: str, keep_dot: bool = False) -> str:
    """Scope and key as `I18n.normalize_keys` joins them: on `.`, empty parts dropped (a prefix keeps
    its trailing dot, which says where the next part starts)."""
    joined = ".".join(part for part in f"{scope}.{key}".split(".") if part)
    return joined + "." if keep_dot and key.endswith(".") and joined else joined


def _options(args: Node) -> dict[str, Node]:
    """The call's keyword options (`scope: x`, `:scope => x`, a trailing `{...}`) by name."""
    options: dict[str, Node] = {}
    pairs = [child for child in args.named_children if child.type == "pair"]
    for child in args.named_children:
        if child.type == "hash":
            pairs.extend(grand for grand in child.named_children if grand.type == "pair")
    for pair in pairs:
        name_node, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if name_node is None or value is None:
            continue
        name = node_text(name_node)
        if name_node.type == "simple_symbol":
            name = name[1:]
        elif name_node.type == "string":
            name = key_of(name_node).value or ""
        options[name] = value
    return options


def _scope(node: Node | None) -> KeyPart:
    """The scope option as a dotted prefix ("" without one); an unknown part ends what is known."""
    if node is None:
        return KeyPart("")
    items = node.named_children if node.type == "array" else [node]
    known: list[str] = []
    for item in items:
        part = key_of(item)
        if part.value is None:
            return KeyPart(None, "".join(f"{known_part}." for known_part in known) + part.prefix)
        known.append(part.value)
    return KeyPart(".".join(known))


def _defaults(node: Node | None) -> tuple[str | None, list[str]]:
    """(the first string default: the source text; the symbol defaults: keys the call falls back to)."""
    if node is None:
        return None, []
    items = node.named_children if node.type == "array" else [node]
    text: str | None = None
    keys: list[str] = []
    for item in items:
        value = key_of(item).value
        if value is None:
            continue
        if item.type in ("simple_symbol", "delimited_symbol"):
            keys.append(value)
        elif text is None:
            text = value
    return text, keys


def key_of(node: Node) -> KeyPart:
    """A string or symbol's value; for one built at run time, its static start."""
    if node.type == "simple_symbol":
        return KeyPart(node_text(node)[1:])
    if node.type in ("string", "delimited_symbol"):
        return _string(node)
    if node.type == "binary" and node.child_count == 3 and node.children[1].type == "+":
        left = node.children[0]
        head = key_of(left) if left is not None else KeyPart(None)
        return KeyPart(None, head.value if head.value is not None else head.prefix)
    if node.type == "parenthesized_statements" and node.named_child_count == 1:
        inner = node.named_children[0]
        return key_of(inner)
    return KeyPart(None, "")


def _string(node: Node) -> KeyPart:
    opening = node.children[0].type if node.children else '"'
    single = opening.endswith("'")
    out: list[str] = []
    for child in node.children[1:-1]:
        if child.type == "string_content":
            text = node_text(child)
            out.append(text.replace("\\\\", "\\").replace("\\'", "'") if single else text)
        elif child.type == "escape_sequence":
            text = node_text(child)
            out.append(_ESCAPES.get(text[1:2], text[1:]))
        elif child.type == "interpolation":
            return KeyPart(None, "".join(out))
        else:
            return KeyPart(None, "".join(out))
    return KeyPart("".join(out))
