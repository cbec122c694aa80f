"""Flutter: the ARB messages Dart code reads through the class `flutter gen-l10n` generates, whose
getters and methods are the ARB keys.

References (the member's name is the key):
- `AppLocalizations.of(context)!.key`, `AppLocalizations.of(context).key` (nullable-getter: false),
  `AppLocalizations.of(context)?.key`, and `S.of(context).key` (the class intl_utils generates);
- `<expr>.l10n.key`: the `l10n` extension getter apps declare on BuildContext (`context.l10n.key`);
- `local.key` where `local` is a variable initialized with one of the above without a member
  (`final l10n = AppLocalizations.of(context)!;`, `final t = context.l10n;`), anywhere in the file.
A method call (`l10n.itemCount(n)`) is its key too; whether the message is a plural only the ARB
says, so `plural` stays False. `localeName` is the generated class's own getter, not a key.
Dynamic: none (gen-l10n has no lookup by name).
Hard-coded: `Text('literal')` (also `const Text(...)`), kind `flutter-text`; and a literal `hintText:`,
`labelText:`, `helperText:`, `errorText:`, `tooltip:`, `semanticsLabel:` or `semanticLabel:` argument,
kind `flutter-argument:<name>`. A text needs a word of two letters or more; a line on or after an
`i18n-ignore` comment is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tree_sitter import Node

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework, KeyStyle, name_words
from parlance_i18n.code.frameworks.native_strings import literal
from parlance_i18n.code.frameworks.visible import ignored_lines, is_user_text
from parlance_i18n.code.model import FileScan, Hardcoded, Reference
from parlance_i18n.code.parsing import captures, matches, node_text, parse, span_of

__all__ = ["Flutter"]

_CLASSES = ("AppLocalizations", "S")
_NOT_KEYS = frozenset({"localeName", "delegate", "supportedLocales", "localizationsDelegates", "of"})
_ARGUMENTS = ("hintText", "labelText", "helperText", "errorText", "tooltip", "semanticsLabel", "semanticLabel")
_GENERATED_IMPORT = re.compile(r"app_localizations\.dart|flutter_gen/gen_l10n/|/generated/l10n\.dart")

_CLASS_HEADS = '((identifier) @head (#any-of? @head "AppLocalizations" "S"))'
_L10N_SELECTORS = '((selector (unconditional_assignable_selector (identifier) @l10n)) @selector (#eq? @l10n "l10n"))'
_ANY_HEAD = "(_ (identifier) @head . (selector))"
_TEXTS = """
(_ (identifier) @fn . (selector (argument_part (arguments . (argument (string_literal) @text)))) (#eq? @fn "Text"))
(const_object_expression (type_identifier) @fn (arguments . (argument (string_literal) @text)) (#eq? @fn "Text"))
(named_argument (label (identifier) @name) (string_literal) @text (#any-of? @name {names}))
""".format(names=" ".join(f'"{name}"' for name in _ARGUMENTS))


class Flutter(Framework):
    name = "flutter"
    extensions = (".dart",)
    default_paths = ("lib/**/*.dart",)
    default_exclude = ("**/*.g.dart", "**/app_localizations*.dart", "**/generated/**")

    def scan(self, path: str, data: bytes) -> FileScan:
        root = parse("dart", data).root_node
        references: list[Reference] = []
        locals_: set[str] = set()
        for head in captures("dart", _CLASS_HEADS, root).get("head", []):
            chain = _selectors_after(head)
            if len(chain) >= 2 and _member(chain[0]) == "of" and _is_call(chain[1]):
                _read_member(head, chain[2:], data, references, locals_)
        for selector in captures("dart", _L10N_SELECTORS, root).get("selector", []):
            _read_member(selector, _selectors_after(selector), data, references, locals_)
        if locals_:
            for head in captures("dart", _ANY_HEAD, root).get("head", []):
                if node_text(head) in locals_ and head.parent is not None \
                        and head.parent.type != "initialized_variable_definition":
                    _read_member(head, _selectors_after(head), data, references, set())
        problems = ("the file has syntax errors; the parts tree-sitter could not read were skipped",) \
            if root.has_error else ()
        return FileScan(tuple(references), (), tuple(_hardcoded(root, data)), problems)

    def suggest_key(self, literal: Hardcoded, path: str, style: KeyStyle, taken: Collection[str]) -> str:
        """A Dart identifier in lowerCamelCase (gen-l10n makes each key a getter): the file's stem and
        the text's first words (`homePageSignIn`), a number added when taken."""
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        words = name_words(stem)
        words += re.findall(r"[A-Za-z0-9]+", literal.text)[:4] or ["text"]
        lowered = [word.lower() for word in words]
        key: str = lowered[0] + "".join(word.capitalize() for word in lowered[1:])
        if not key[:1].isalpha():
            key = "text" + key[:1].upper() + key[1:]
        found: str = key
        number = 2
        while found in taken:
            found, number = f"{key}{number}", number + 1
        return found

    def key_problem(self, key: str) -> str | None:
        if not re.fullmatch(r"[a-z][A-Za-z0-9_]*", key):
            return ("an ARB key is the getter flutter gen-l10n generates: a Dart identifier in lowerCamelCase "
                    "(a lower-case letter, then letters and digits)")
        return None

    def extraction(self, path: str, data: bytes, literal_: Hardcoded, key: str) -> Extraction:
        """The literal becomes `AppLocalizations.of(context)!.key` where the file imports the generated
        localizations and a `context` is in scope; the catalog gets the text as an ICU message."""
        root = parse("dart", data).root_node
        imports = captures("dart", "(import_or_export) @import", root).get("import", [])
        if not any(_GENERATED_IMPORT.search(node_text(node)) for node in imports):
            raise ExtractionRefused("the file does not import the generated localizations "
                                    "(app_localizations.dart); import them, then extract again")
        node = root.descendant_for_byte_range(literal_.span.start_byte, literal_.span.end_byte)
        while node is not None and node.type != "string_literal":
            node = node.parent
        value = literal(node, data) if node is not None else None
        if node is None or value is None or (node.start_byte, node.end_byte) != (literal_.span.start_byte,
                                                                                 literal_.span.end_byte):
            raise ExtractionRefused(f"line {literal_.span.line} no longer holds the literal; scan the file again")
        if not value.fixed:
            raise ExtractionRefused("the text interpolates values: the ARB message needs placeholders "
                                    "declared in its @key metadata; extract it by hand")
        if "{" in value.text or "}" in value.text:
            raise ExtractionRefused("the text holds a brace, which ICU reads as a placeholder; extract it by hand")
        if _in_const(node):
            raise ExtractionRefused("the literal is in a const expression, where a localized text cannot go; "
                                    "remove the const, then extract again")
        if not _context_in_scope(node):
            raise ExtractionRefused("no `context` is in scope here (a BuildContext parameter or a State's "
                                    "context); extract where one is")
        return Extraction((Edit(node.start_byte, node.end_byte, f"AppLocalizations.of(context)!.{key}"),),
                          value.text)


def _selectors_after(node: Node) -> list[Node]:
    """The selectors that follow `node` (Dart's tree keeps `a.b(c)!.d` as `a` and its selectors, siblings)."""
    chain: list[Node] = []
    sibling = node.next_named_sibling
    while sibling is not None and sibling.type == "selector" and len(chain) < 8:
        chain.append(sibling)
        sibling = sibling.next_named_sibling
    return chain


def _member(selector: Node) -> str | None:
    """`x` of a `.x` / `?.x` selector."""
    for child in selector.named_children:
        if child.type in ("unconditional_assignable_selector", "conditional_assignable_selector"):
            name = child.named_children
            return node_text(name[0]) if name else None
    return None


def _is_call(selector: Node) -> bool:
    return any(child.type == "argument_part" for child in selector.named_children)


def _read_member(start: Node, chain: list[Node], data: bytes, references: list[Reference],
                 locals_: set[str]) -> None:
    """After the localizations object (`start` and what precedes it): its member is a key; with no
    member, a variable it initializes is one more name for it."""
    rest = [selector for selector in chain if node_text(selector).strip() != "!"]
    if rest:
        member = _member(rest[0])
        if member is not None and member not in _NOT_KEYS:
            references.append(Reference(member, span_of(rest[0], data)))
        return
    parent = start.parent
    if parent is not None and parent.type == "initialized_variable_definition":
        name = parent.child_by_field_name("name")
        if name is not None:
            locals_.add(node_text(name))


def _hardcoded(root: Node, data: bytes) -> list[Hardcoded]:
    ignored = ignored_lines(data)
    found: list[Hardcoded] = []
    for match in matches("dart", _TEXTS, root):
        node = match["text"][0]
        value = literal(node, data)
        if value is None or not is_user_text(" ".join(p for p in value.parts if p)):
            continue
        span = span_of(node, data)
        if span.line in ignored:
            continue
        kind = f"flutter-argument:{node_text(match['name'][0])}" if "name" in match else "flutter-text"
        found.append(Hardcoded(" ".join(value.text.split()), kind, span))
    return found


def _in_const(node: Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type not in ("function_body", "class_body", "program"):
        if parent.type == "const_object_expression" or node_text(parent).startswith("const "):
            return True
        parent = parent.parent
    return False


def _context_in_scope(node: Node) -> bool:
    """A `context` parameter of an enclosing function or closure, or an enclosing State subclass."""
    parent = node.parent
    while parent is not None:
        if parent.type == "class_definition":
            superclass = parent.child_by_field_name("superclass")
            return superclass is not None and node_text(superclass).split("<", 1)[0].split()[-1:] == ["State"]
        for candidate in (parent, parent.prev_named_sibling):
            if candidate is not None and _declares_context(candidate):
                return True
        parent = parent.parent
    return False


def _declares_context(node: Node) -> bool:
    for child in node.children:
        if child.type in ("function_signature", "method_signature"):
            return _declares_context(child)
        if child.type == "formal_parameter_list":
            return any(node_text(name) == "context" for name in captures(
                "dart", "(formal_parameter (identifier) @name)", child).get("name", []))
    return False
