"""Android: the string resources (`res/values*/strings.xml`) that Kotlin, Java and the resource XML
name, read as Android lint's UnusedResources and HardcodedText checks read them.

References:
- code: every `R.string.x`, `R.plurals.x` and `R.array.x` field, whichever call takes it (`getString`,
  `getText`, `getQuantityString`, Compose's `stringResource` / `pluralStringResource`, a field stored
  for later), also fully qualified (`com.example.app.R.string.x`); `android.R.string.ok` is the
  platform's and not one. `R.plurals` is a plural reference. A `<string-array>`'s catalog keys are
  `x[0]`, `x[1]`, ...: `code_key` gives them back as `x`, the name the code calls.
- XML (layouts, menus, navigation graphs, `res/xml`, `res/values*` and `AndroidManifest.xml`):
  `@string/x`, `@plurals/x`, `@array/x` as a whole attribute value or as an element's whole text
  (`<item name="android:text">@string/x</item>` in a style, `@string/b` aliasing a string);
  `@android:string/...` is the platform's.
Dynamic: `getIdentifier(name, "string", package)` (`"plurals"`, `"array"`) with a name built at run
time, its static prefix kept (`"status_" + s`, `"status_$s"`); a literal name is a reference.
Hard-coded: in layouts, menus, navigation, `res/xml` and the manifest (never in `values`: those are
the catalog), a literal `android:text`, `hint`, `contentDescription`, `title`, `label` or `prompt`
(lint's HardcodedText attributes), kind `android-layout:<attribute>`; in Kotlin, Compose's
`Text("literal")` / `Text(text = "literal")`, kind `compose-text`. A value with no letter, a
reference (`@...`), a theme attribute (`?attr/...`), an element under `tools:ignore="HardcodedText"`
(lint's own suppression) and an element or attribute on the line of or after an `i18n-ignore`
comment are not reported.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from tree_sitter import Node

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework, KeyStyle
from parlance_i18n.code.frameworks.native_strings import literal
from parlance_i18n.code.frameworks.visible import ignored_lines, is_user_text
from parlance_i18n.code.model import Dynamic, FileScan, Hardcoded, Reference, Span
from parlance_i18n.code.parsing import LineIndex, captures, matches, node_text, parse, span_of
from parlance_i18n.formats.base import CatalogFileError
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlFile, XmlNode, scan, unescape

__all__ = ["Android"]

_RESOURCE_TYPES = ("string", "plurals", "array")
_XML_FOLDERS = frozenset({"layout", "menu", "navigation", "xml", "values"})
"""The res/ folders whose XML can name a string (a qualifier after '-' aside: `layout-land`)."""
_TEXT_ATTRIBUTES = frozenset({"text", "hint", "contentDescription", "title", "label", "prompt"})
_RESOURCE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_ARRAY_ITEM = re.compile(r"(.+)\[(?:0|[1-9][0-9]*)\]")
_XML_REFERENCE = re.compile(r"@(?:\*?([A-Za-z][\w.]*):)?(string|plurals|array)/([A-Za-z_][\w.]*)")
"""A word of two letters or more: what a user reads (`v1.0`, `x`, `42` are not reported)."""
_COMPOSE_STRING_RESOURCE = re.compile(r"import\s+androidx\.compose\.ui\.res\.(?:stringResource|\*)\s*$")

_KOTLIN_FIELDS = """(navigation_expression . (navigation_expression (_) @owner . "." . (identifier) @type .)
  . "." . (identifier) @name . (#any-of? @type "string" "plurals" "array"))"""
_JAVA_FIELDS = """(field_access object: (field_access object: (_) @owner field: (identifier) @type)
  field: (identifier) @name (#any-of? @type "string" "plurals" "array"))"""
_KOTLIN_GET_IDENTIFIER = """(call_expression [(identifier) @fn (navigation_expression (identifier) @fn .)]
  (value_arguments . (value_argument (_) @name) . "," . (value_argument (string_literal) @type))
  (#eq? @fn "getIdentifier"))"""
_JAVA_GET_IDENTIFIER = """(method_invocation name: (identifier) @fn
  arguments: (argument_list . (_) @name . (string_literal) @type) (#eq? @fn "getIdentifier"))"""
_COMPOSE_TEXT = """(call_expression (identifier) @fn (value_arguments (value_argument
  [(string_literal) (multiline_string_literal)] @text) @argument) (#eq? @fn "Text"))"""


class Android(Framework):
    name = "android"
    extensions = (".kt", ".java", ".xml")
    default_paths = ("**/src/main/**/*.kt", "**/src/main/**/*.java", "**/src/main/**/*.xml")

    def reads(self, path: str) -> bool:
        if path.endswith((".kt", ".java")):
            return True
        if not path.endswith(".xml"):
            return False
        parts = path.split("/")
        if parts[-1] == "AndroidManifest.xml":
            return True
        return len(parts) >= 3 and parts[-3] == "res" and parts[-2].split("-", 1)[0] in _XML_FOLDERS

    def scan(self, path: str, data: bytes) -> FileScan:
        if path.endswith(".xml"):
            return _scan_xml(path, data)
        return _scan_code("kotlin" if path.endswith(".kt") else "java", data)

    def code_key(self, catalog_key: str) -> str:
        """A `<string-array>` item (`planets[2]`) is called by its array's name."""
        item = _ARRAY_ITEM.fullmatch(catalog_key)
        return item.group(1) if item else catalog_key

    def suggest_key(self, literal: Hardcoded, path: str, style: KeyStyle, taken: Collection[str]) -> str:
        """A resource name: a Java identifier, so parts are joined with '_' (never '.'), in the
        catalog's case where it is snake or camel (`activity_main_sign_in`)."""
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        resource_style = KeyStyle("_", style.case if style.case in ("snake", "camel") else "snake")
        key = re.sub(r"\W", "_", resource_style.key([stem], literal.text, taken), flags=re.ASCII)
        return key if not key[:1].isdigit() else f"s_{key}"

    def key_problem(self, key: str) -> str | None:
        if not _RESOURCE_NAME.fullmatch(key):
            return ("an Android resource name is a Java identifier: letters, digits and '_' (or '.'), not starting "
                    "with a digit, as R.string.<name> needs")
        return None

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        if literal.kind.startswith("android-layout:"):
            return _extract_xml(data, literal, key)
        if literal.kind == "compose-text" and path.endswith(".kt"):
            return _extract_compose(data, literal, key)
        raise ExtractionRefused(f"a {literal.kind} literal cannot be extracted by the android framework")


# --- Kotlin and Java --------------------------------------------------------------------------------------


def _scan_code(language: str, data: bytes) -> FileScan:
    tree = parse(language, data)
    root = tree.root_node
    kotlin = language == "kotlin"
    references: list[Reference] = []
    for found in matches(language, _KOTLIN_FIELDS if kotlin else _JAVA_FIELDS, root):
        owner = re.sub(r"\s+", "", node_text(found["owner"][0]))
        if owner != "R" and not (owner.endswith(".R") and owner != "android.R"):
            continue
        kind, name = node_text(found["type"][0]), found["name"][0]
        references.append(Reference(node_text(name), span_of(name.parent or name, data), plural=kind == "plurals"))
    dynamic: list[Dynamic] = []
    for found in matches(language, _KOTLIN_GET_IDENTIFIER if kotlin else _JAVA_GET_IDENTIFIER, root):
        resource_type = literal(found["type"][0], data, kotlin)
        if resource_type is None or resource_type.text not in _RESOURCE_TYPES:
            continue
        name = found["name"][0]
        fixed = literal(name, data, kotlin) if "string_literal" in name.type else None
        if fixed is not None and fixed.fixed:
            references.append(Reference(fixed.text, span_of(name, data), plural=resource_type.text == "plurals"))
        else:
            dynamic.append(Dynamic(node_text(name)[:200], span_of(name, data), _static_prefix(name, data, kotlin)))
    hardcoded = _compose_texts(root, data) if kotlin else []
    problems = ("the file has syntax errors; the parts tree-sitter could not read were skipped",) \
        if root.has_error else ()
    return FileScan(tuple(references), tuple(dynamic), tuple(hardcoded), problems)


def _static_prefix(node: Node, data: bytes, kotlin: bool) -> str:
    """The literal start of a name built at run time: `"status_" + s` and `"status_$s"` give `status_`."""
    while node.type == "binary_expression" and node.named_children:
        node = node.named_children[0]
    if "string_literal" not in node.type:
        return ""
    value = literal(node, data, kotlin)
    if value is None:
        return ""
    return value.parts[0] or "" if value.parts else ""


def _compose_texts(root: Node, data: bytes) -> list[Hardcoded]:
    ignored = ignored_lines(data)
    found: list[Hardcoded] = []
    for match in matches("kotlin", _COMPOSE_TEXT, root):
        argument, node = match["argument"][0], match["text"][0]
        label = argument.named_children[0] if argument.named_child_count > 1 else None
        if label is not None and node_text(label) != "text":
            continue
        if label is None and argument.prev_named_sibling is not None:
            continue  # Text's first parameter is the text; another positional one is not
        value = literal(node, data, kotlin=True)
        if value is None or not is_user_text(" ".join(p for p in value.parts if p)):
            continue
        span = span_of(node, data)
        if span.line in ignored:
            continue
        found.append(Hardcoded(" ".join(value.text.split()), "compose-text", span))
    return found


def _extract_compose(data: bytes, hardcoded: Hardcoded, key: str) -> Extraction:
    tree = parse("kotlin", data)
    imports = captures("kotlin", "(import) @import", tree.root_node).get("import", [])
    if not any(_COMPOSE_STRING_RESOURCE.search(" ".join(node_text(node).split())) for node in imports):
        raise ExtractionRefused("the file does not import androidx.compose.ui.res.stringResource; import it, "
                                "then extract again (the call would not compile without it)")
    node = _literal_at(tree.root_node, hardcoded.span)
    value = literal(node, data, kotlin=True) if node is not None else None
    if node is None or value is None:
        raise ExtractionRefused(f"line {hardcoded.span.line} no longer holds the literal; scan the file again")
    if value.fixed:
        return Extraction((Edit(node.start_byte, node.end_byte, f"stringResource(R.string.{key})"),), value.text)
    # An interpolated text becomes a format string whose arguments are the interpolated expressions.
    message, number = [], 0
    for piece in value.parts:
        if piece is None:
            number += 1
            message.append(f"%{number}$s")
        else:
            message.append(piece.replace("%", "%%"))
    call = f"stringResource(R.string.{key}, {', '.join(value.expressions)})"
    return Extraction((Edit(node.start_byte, node.end_byte, call),), "".join(message))


def _literal_at(root: Node, span: Span) -> Node | None:
    node = root.descendant_for_byte_range(span.start_byte, span.end_byte)
    while node is not None and "string_literal" not in node.type:
        node = node.parent
    if node is None or (node.start_byte, node.end_byte) != (span.start_byte, span.end_byte):
        return None
    return node


# --- resource XML --------------------------------------------------------------------------------------


def _scan_xml(path: str, data: bytes) -> FileScan:
    try:
        file = scan(data)
    except CatalogFileError as error:
        return FileScan(problems=(f"the XML cannot be read: {error}",))
    # Offsets are counted in file.text: the file itself when UTF-8, else its UTF-8 copy (then the spans
    # are that copy's, which an extraction refuses to edit).
    shift = len(file.bom) if file.encoding == "utf-8" else 0
    values = "/values" in path
    ignored = ignored_lines(file.text)
    lines = LineIndex(file.text)
    references: list[Reference] = []
    hardcoded: list[Hardcoded] = []
    for node, suppressed in _elements(file.root, False):
        for name, value in node.attributes.items():
            reference = _xml_reference(value)
            hard = (not values and not suppressed and name.startswith("android:")
                    and name[8:] in _TEXT_ATTRIBUTES and _is_literal(value))
            if reference is None and not hard:
                continue
            start, end = _attribute_value_span(file, node, name)
            span = _shifted(lines.span(start, end), shift)
            if reference is not None:
                references.append(Reference(reference[1], span, plural=reference[0] == "plurals"))
            elif ignored.isdisjoint((span.line, node.line)) and file.encoding == "utf-8":
                hardcoded.append(Hardcoded(" ".join(value.split()), f"android-layout:{name[8:]}", span))
        if not node.children and not node.self_closing:
            raw = file.raw(node.open_end, node.close_start)
            reference = _xml_reference(raw.strip())
            if reference is not None:
                start = node.open_end + len(raw.encode()) - len(raw.lstrip().encode())
                end = start + len(raw.strip().encode())
                references.append(Reference(reference[1], _shifted(lines.span(start, end), shift),
                                            plural=reference[0] == "plurals"))
    return FileScan(tuple(references), (), tuple(hardcoded))


def _elements(node: XmlNode, suppressed: bool) -> Iterator[tuple[XmlNode, bool]]:
    """Every element under `node`, with whether lint's `tools:ignore="HardcodedText"` (or `all`)
    covers it (it does the element and everything inside)."""
    for child in node.children:
        if child.name == COMMENT:
            continue
        ignore = {part.strip() for part in child.attributes.get("tools:ignore", "").split(",")}
        covered = suppressed or "HardcodedText" in ignore or "all" in ignore
        yield child, covered
        yield from _elements(child, covered)


def _xml_reference(value: str) -> tuple[str, str] | None:
    """(type, name) of `@string/x` (`@plurals/x`, `@array/x`); None for another value or the platform's."""
    found = _XML_REFERENCE.fullmatch(value)
    if found is None or found.group(1) == "android":
        return None
    return found.group(2), found.group(3)


def _is_literal(value: str) -> bool:
    stripped = value.strip()
    return bool(stripped) and stripped[0] not in "@?" and is_user_text(stripped)


def _attribute_value_span(file: XmlFile, node: XmlNode, name: str) -> tuple[int, int]:
    """The bytes of attribute `name`'s value (between its quotes) in `node`'s start tag."""
    tag = file.text[node.start:node.open_end]
    found = re.search(rb"\s" + re.escape(name.encode()) + rb"""\s*=\s*(?:"([^"]*)"|'([^']*)')""", tag)
    if found is None:
        return node.start, node.start
    group = 1 if found.group(1) is not None else 2
    return node.start + found.start(group), node.start + found.end(group)


def _shifted(span: Span, shift: int) -> Span:
    """`span` of the file's text, as bytes of the file itself (past a byte-order mark)."""
    return Span(span.line, span.column, span.start_byte + shift, span.end_byte + shift)


def _extract_xml(data: bytes, hardcoded: Hardcoded, key: str) -> Extraction:
    raw = data[hardcoded.span.start_byte:hardcoded.span.end_byte].decode("utf-8", "replace")
    value = unescape(raw)
    if " ".join(value.split()) != hardcoded.text or data[hardcoded.span.start_byte - 1:][:1] not in (b'"', b"'"):
        raise ExtractionRefused(f"line {hardcoded.span.line} no longer holds the literal; scan the file again")
    return Extraction((Edit(hardcoded.span.start_byte, hardcoded.span.end_byte, f"@string/{key}"),), value)
