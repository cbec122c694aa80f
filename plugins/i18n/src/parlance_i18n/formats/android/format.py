"""Android string resources (`res/values*/strings.xml`), read as aapt2 compiles them and rendered as
`Resources.getString(id, args...)` / `getQuantityString(id, count, args...)` return them.

Keys and values:

- `<string name="k">` (and `<item type="string" name="k">`): key `k`; a `product` other than
  "default" is a build variant and is left alone.
- `<plurals name="k"><item quantity="one">...`: key `k`, a dict of forms by CLDR quantity.
- `<string-array name="k"><item>...`: keys `k[0]`, `k[1]`, ... (deleting one renumbers the rest).
- `translatable="false"` entries stay readable; their keys are `untranslatable_keys`.
- A value is the text aapt2 builds from the element (by `aapt_text`: `\\'`, `\\"`, `\\n`, `\\t`, `\\@`, `\\?`,
  `\\\\`, `\\uXXXX`; outside double quotes a run of whitespace is one space; without styling tags
  the ends are trimmed; an unescaped apostrophe outside quotes is an error), with inline markup
  (`<b>`, `<i>`, `<u>`, `<xliff:g id=".." example="..">`) kept as written. Writing a value back
  escapes it so aapt2 gives exactly that text again: tag-shaped text that opens and closes in
  balance (`<b>…</b>`) is written as markup, any other `<` as `&lt;`; an entry written in double
  quotes or in CDATA keeps that style.
- A value that is a reference (`@string/other`) renders as the string it names in the same file;
  `@null` and `@empty` are empty; a reference to anything else is reported and skipped.
- `comment(key)` is the comment aapt2 attaches to an entry: the last one since the entry before.

Rendering: the markup is dropped (getString returns the unstyled text) and, unless the element says
`formatted="false"`, the text is a java.util.Formatter pattern (`%1$s`, `%d`, `%%`) whose arguments
are the variables "1", "2", ... A `<plurals>` picks its item by the CLDR category of
`values["count"]` (then "other"); when "1" is not given, the count is argument 1, as apps call
`getQuantityString(id, n, n)`.

Problems (the entry is skipped, the file still loads): aapt2's own errors (unescaped apostrophe,
bad `\\u` escape, several non-positional arguments in a `<string>`, a plural item without a valid
or with a repeated quantity), a pattern java.util.Formatter refuses, a missing name, a duplicate
key (the first is kept), a reference that cannot be resolved.

Editing: `set` replaces an entry's content only (a `<string/>` opens to hold it; a plural's items
are rewritten only when quantities come or go); `add` puts the entry on the line after the last
one, indented as it is (run on, in a file written on one line); `delete` takes the entry's lines,
and the comment just above it when that comment is its own (followed by a blank line, another
comment or the end of the file, rather than by more entries it may head). Every edit is parsed
again and read back: a value that would not come back unchanged is refused with ValueError.

Locale folders: `values-pt-rBR` is pt-BR, `values-b+sr+Latn` is sr-Latn, `values-iw` is he (also
`in` -> id, `ji` -> yi); `values` alone is no locale (the caller maps it to the source locale).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from parlance_i18n.formats.android.aapt_text import (
    ASCII_SPACE,
    Unusable,
    aapt_true,
    android_escape,
    content_style,
    flatten,
    several_unnumbered,
    string_reference,
)
from parlance_i18n.formats.base import CatalogFileError, CatalogFormat, Problem, Renderable, Value
from parlance_i18n.formats.shared.messages import FixedText, Relabeled, TextMessages, first_one_used
from parlance_i18n.formats.shared.spelling import LEGACY_LANGUAGES, locale_or_none
from parlance_i18n.formats.shared.xmltext import (
    COMMENT,
    XmlDocument,
    XmlFile,
    XmlNode,
    content_edit,
    escape_attribute,
    line_extent,
    scan,
    unescape,
)
from parlance_i18n.locales import LocaleTag
from parlance_i18n.icu.plurals import CATEGORIES, PluralRules, as_number, plural_rules

__all__ = ["AndroidDocument", "AndroidFormat", "AndroidMessages"]

_ARRAY_KEY = re.compile(r"(.+)\[(0|[1-9][0-9]{0,5})\]")
_MAX_ALIAS_DEPTH = 8
_ORDER = {category: index for index, category in enumerate(CATEGORIES)}


# --- the file's entries --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Entry:
    """One message in the file: `node` holds its text (or, for plurals, its items)."""

    key: str
    kind: str  # "string", "plurals" or "item" (of a string-array)
    owner: XmlNode  # the <string>, <plurals> or <string-array> under <resources>
    node: XmlNode
    comment: XmlNode | None


def _resources(file: XmlFile) -> XmlNode:
    root = file.root
    if root.name != "resources":
        raise CatalogFileError(f"the root element is <{root.name[:40]}>, not <resources>: this is not an Android "
                               "values file", root.line)
    return root


def _entries(file: XmlFile, problems: list[Problem] | None) -> Iterator[_Entry]:
    """Every message entry under <resources>, in file order (duplicates included)."""
    comment: XmlNode | None = None
    for child in _resources(file).children:
        if child.name == COMMENT:
            comment = child
            continue
        attached, comment = comment, None
        name = child.name
        if name == "item" and child.attributes.get("type") == "string":
            name = "string"
        if name not in ("string", "plurals", "string-array"):
            continue
        if child.attributes.get("product", "default") != "default":
            continue
        key = child.attributes.get("name", "").strip()
        if not key:
            if problems is not None:
                problems.append(Problem(None, child.line, f"a <{child.name}> has no name attribute; name it"))
            continue
        if name == "string":
            yield _Entry(key, "string", child, child, attached)
        elif name == "plurals":
            yield _Entry(key, "plurals", child, child, attached)
        else:
            for index, item in enumerate(child.elements("item")):
                yield _Entry(f"{key}[{index}]", "item", child, item, attached)


def _quantities(file: XmlFile, plurals: XmlNode) -> Iterator[tuple[str | None, XmlNode]]:
    for item in plurals.elements("item"):
        quantity = item.attributes.get("quantity", "").strip()
        yield (quantity if quantity in _ORDER else None), item


def _prefixes(file: XmlFile) -> frozenset[str]:
    return frozenset(name[6:] for name in file.root.attributes if name.startswith("xmlns:"))


# --- reading -----------------------------------------------------------------------------------------------


def _compile(text: str, plain: str, formatted: bool) -> Renderable:
    if not formatted:  # formatted="false": printed as it is
        return FixedText(text, plain)
    from parlance_i18n.formats.shared.printf import compile_printf

    compiled = compile_printf(plain, style="java")
    return compiled if plain == text else Relabeled(text, compiled)  # the markup stays in its source


class _Plural:
    """A <plurals>: the item of `values["count"]`'s CLDR category (else "other"), formatted."""

    __slots__ = ("_compiled", "_forms", "_rules", "source")

    def __init__(self, forms: dict[str, tuple[str, str]], rules: PluralRules, formatted: bool) -> None:
        self._forms = forms
        self._rules = rules
        self._compiled = {category: _compile(text, plain, formatted) for category, (text, plain) in forms.items()}
        self.source = forms.get("other", next(iter(forms.values())))[0]

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        count = values.get("count")
        number = as_number(count)
        category = self._rules.cardinal(number) if number is not None else "other"
        compiled = self._compiled.get(category) or self._compiled.get("other") or next(iter(self._compiled.values()))
        if count is not None and "1" not in values:
            values = {**values, "1": count}  # getQuantityString(id, n, n): the count is argument 1
        return compiled.render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        found = {"count"}
        for compiled in self._compiled.values():
            found |= compiled.arguments
        return frozenset(found)

    @property
    def plurals(self) -> tuple[Any, ...]:
        from parlance_i18n.icu.messageformat import PluralUse

        return (PluralUse("count", False, frozenset(self._forms)),)


_AndroidText = str | tuple[tuple[str, str], ...]
"""A message as read: a text, or a <plurals>' (quantity, text) items."""


class AndroidMessages(TextMessages[_AndroidText]):
    """One values file's messages: texts kept as aapt2 builds them, compiled on first `get`."""

    def __init__(self, tag: LocaleTag) -> None:
        super().__init__()
        self.tag = tag
        self._plain: dict[str, _AndroidText] = {}  # only where markup makes it differ
        self._not_formatted: set[str] = set()
        self._aliases: dict[str, str] = {}
        self.untranslatable_keys: frozenset[str] = frozenset()

    def text(self, key: str) -> Value | None:
        found = self.texts.get(key)
        if isinstance(found, tuple):
            return dict(found)
        return found

    def get(self, key: str, default: Any = None) -> Any:
        target, hops = key, 0
        while target in self._aliases:  # `@string/other`: that string's message
            if hops >= _MAX_ALIAS_DEPTH:
                return default
            target, hops = self._aliases[target], hops + 1
        return super().get(target, default)

    def _compile(self, key: str, text: _AndroidText) -> Renderable:
        plain = self._plain.get(key, text)
        formatted = key not in self._not_formatted
        if isinstance(text, tuple):
            plains = dict(plain) if isinstance(plain, tuple) else {}
            forms = {category: (form, plains.get(category, form)) for category, form in text}
            return _Plural(forms, plural_rules(self.tag), formatted)
        return _compile(text, plain, formatted)  # type: ignore[arg-type]

    def _reason(self, key: str, error: Exception) -> str:
        return f"{key!r} cannot be used: {error}"


def _check_printf(plain: str) -> str | None:
    """Why java.util.Formatter would refuse `plain`, or None."""
    if "%" not in plain:
        return None
    from parlance_i18n.formats.shared.printf import compile_printf

    try:
        compile_printf(plain, style="java")
    except ValueError as error:
        return f"{error} (or add formatted=\"false\" to the element)"
    return None


def _read(data: bytes, tag: LocaleTag) -> AndroidMessages:
    file = scan(data)
    messages = AndroidMessages(tag)
    problems = messages.problems
    seen_lines: dict[str, int] = {}
    untranslatable: set[str] = set()
    for entry in _entries(file, problems):
        key = entry.key
        line = entry.node.line
        if key in seen_lines:
            problems.append(first_one_used(key, line, seen_lines[key]))
            continue
        seen_lines[key] = line
        attributes = entry.owner.attributes
        formatted = aapt_true(attributes.get("formatted"))
        translatable = aapt_true(attributes.get("translatable"))
        try:
            if entry.kind == "plurals":
                forms, plains = _read_plural(file, entry.node, formatted)
                messages.texts[key] = forms
                if plains != forms:
                    messages._plain[key] = plains
            else:
                content = file.content(entry.node)
                value, plain = flatten(content)
                # aapt2 reads a reference from the text before its escapes (`\@` is not one) and
                # only when there is no styling.
                alias, reason = (string_reference(unescape(content).strip(ASCII_SPACE)) if value == plain
                                 else (None, None))
                if reason:
                    raise Unusable(reason)
                if alias == "":
                    value = plain = ""
                elif alias is not None:
                    messages._aliases[key] = alias
                elif formatted:
                    if (entry.kind == "string" and translatable and value == plain and plain.count("%") > 1
                            and several_unnumbered(plain)):
                        raise Unusable('it has several arguments, not all numbered (%1$s, %2$d); number them, '
                                       'or add formatted="false"')
                    reason = _check_printf(plain)
                    if reason:
                        raise Unusable(reason)
                messages.texts[key] = value
                if plain != value:
                    messages._plain[key] = plain
        except Unusable as invalid:
            problems.append(Problem(key, line, f"{key!r} cannot be used: {invalid}"))
            continue
        if not formatted:
            messages._not_formatted.add(key)
        if not translatable:
            untranslatable.add(key)
        if entry.comment is not None:
            messages.comments[key] = file.raw(entry.comment.open_end, entry.comment.close_start).strip()
    unresolved = True
    while unresolved:  # until stable: dropping one reference can leave another pointing at nothing
        unresolved = False
        for key, target in list(messages._aliases.items()):
            if target not in messages.texts:
                problems.append(Problem(key, seen_lines.get(key), f"{key!r} refers to @string/{target}, which this "
                                                                  "file does not define (or cannot use)"))
                messages._aliases.pop(key)
                messages.texts.pop(key, None)
                unresolved = True
    messages.untranslatable_keys = frozenset(untranslatable)
    return messages


def _read_plural(file: XmlFile, plurals: XmlNode, formatted: bool
                 ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    forms: list[tuple[str, str]] = []
    plains: list[tuple[str, str]] = []
    for quantity, item in _quantities(file, plurals):
        if quantity is None:
            written = item.attributes.get("quantity")
            raise Unusable(f"an <item> has the quantity {written[:20]!r}; use zero, one, two, few, many or other"
                           if written else "an <item> has no quantity attribute")
        if any(quantity == seen for seen, _ in forms):
            raise Unusable(f"the quantity {quantity!r} is given twice (line {item.line})")
        value, plain = flatten(file.content(item))
        if formatted:
            reason = _check_printf(plain)
            if reason:
                raise Unusable(f"its {quantity!r} item: {reason}")
        forms.append((quantity, value))
        plains.append((quantity, plain))
    if not forms:
        raise Unusable("the <plurals> has no <item>")
    return tuple(forms), tuple(plains)


# --- editing -------------------------------------------------------------------------------------------------


class AndroidDocument(XmlDocument):
    """A values file being edited: values are aapt2's texts (markup kept), written back escaped."""

    _unreadable = "cannot be written so that aapt2 reads it back unchanged"

    def _index(self) -> None:
        self._entries: dict[str, _Entry] = {}
        for entry in _entries(self._file, None):  # raises for a root other than <resources>
            self._entries.setdefault(entry.key, entry)

    def keys(self) -> list[str]:
        return list(self._entries)

    def get(self, key: str) -> Value | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.kind == "plurals":
            return {quantity: flatten(self._file.content(item), strict=False)[0]
                    for quantity, item in _quantities(self._file, entry.node) if quantity is not None}
        return flatten(self._file.content(entry.node), strict=False)[0]

    def line_of(self, key: str) -> int | None:
        entry = self._entries.get(key)
        return entry.node.line if entry else None

    def _escape(self, value: str, old_raw: str | None) -> str:
        style = content_style(old_raw) if old_raw else "plain"
        return android_escape(value, style, _prefixes(self._file))

    def set(self, key: str, value: Value) -> None:
        entry = self._entries.get(key)
        if entry is None:
            raise KeyError(key)
        if self.get(key) == value:
            return
        if entry.kind == "plurals":
            if not isinstance(value, dict):
                raise ValueError(f"{key!r} is a <plurals>: give its forms as a dict by quantity")
            edits = self._plural_edits(entry.node, value)
        else:
            if not isinstance(value, str):
                raise ValueError(f"{key!r} is a <{entry.node.name}>: give its text as a string")
            edits = [self._content_edit(entry.node, value)]
        self._apply(edits, key, value)

    def _content_edit(self, node: XmlNode, value: str) -> tuple[int, int, str]:
        file = self._file
        return content_edit(file, node, self._escape(value, None if node.self_closing else file.content(node)))

    def _plural_edits(self, plurals: XmlNode, forms: dict[str, str]) -> list[tuple[int, int, str]]:
        """Changed items in place; when quantities come or go, the run of items written again with
        the untouched ones as they were, the new ones in CLDR order, one per line as the file has."""
        file = self._file
        unknown = [category for category in forms if category not in _ORDER]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a plural quantity; use zero, one, two, few, many or other")
        present: dict[str, XmlNode] = {}
        for quantity, item in _quantities(file, plurals):
            if quantity is not None:
                present.setdefault(quantity, item)
        changed = [(item, forms[quantity]) for quantity, item in present.items()
                   if quantity in forms and flatten(file.content(item), strict=False)[0] != forms[quantity]]
        if set(present) == set(forms):
            return [self._content_edit(item, value) for item, value in changed]
        new_text = {id(item): self._item_text(item, value) for item, value in changed}
        pieces: list[tuple[int, str]] = []  # (CLDR order of the item, or -1 to stay where it is; its XML)
        for child in plurals.children:
            quantity = child.attributes.get("quantity", "").strip() if child.name == "item" else None
            if quantity in _ORDER and present.get(quantity) is child:
                if quantity in forms:
                    pieces.append((_ORDER[quantity], new_text.get(id(child)) or file.raw(child.start, child.end)))
            else:
                pieces.append((-1, file.raw(child.start, child.end)))
        for category in sorted((c for c in forms if c not in present), key=_ORDER.__getitem__):
            text = f'<item quantity="{category}">{self._escape(forms[category], None)}</item>'
            later = next((index for index, (order, _) in enumerate(pieces) if order > _ORDER[category]), len(pieces))
            pieces.insert(later, (_ORDER[category], text))
        children = list(plurals.children)
        if children:
            gap = file.line_gap(children[0].start)
            return [(children[0].start, children[-1].end, gap.join(text for _, text in pieces))]
        gap = file.newline + self._item_indent(self._unit()) if file.indent_of(plurals.start) is not None else ""
        closing = file.newline + (file.indent_of(plurals.start) or "") if gap else ""
        items = "".join(gap + text for _, text in pieces)
        return [content_edit(file, plurals, items + closing)]

    def _item_text(self, item: XmlNode, value: str) -> str:
        """An <item> as written, with a new text."""
        start, end, text = self._content_edit(item, value)
        file = self._file
        return file.raw(item.start, start) + text + file.raw(end, item.end)

    def _unit(self) -> str:
        """The indentation of <resources>' children (one step), four spaces when none shows it."""
        for child in self._file.root.elements():
            indent = self._file.indent_of(child.start)
            if indent:
                return indent
        return "    "

    def _item_indent(self, unit: str) -> str:
        """The indentation of an <item> in a <plurals> or <string-array>: as the file has one, else
        two steps."""
        for entry in self._entries.values():
            if entry.kind in ("plurals", "item"):
                for item in entry.owner.elements("item"):
                    indent = self._file.indent_of(item.start)
                    if indent:
                        return indent
        return unit * 2

    def add(self, key: str, value: Value) -> None:
        if key in self._entries:
            raise KeyError(f"{key!r} is already in the file; use set to change it")
        file = self._file
        array_item = _ARRAY_KEY.fullmatch(key)
        if array_item and isinstance(value, str):
            name, index = array_item.group(1), int(array_item.group(2))
            items = [entry for entry in self._entries.values() if entry.kind == "item" and entry.owner.attributes.get(
                "name", "").strip() == name]
            if items:
                if index != len(items):
                    raise KeyError(f"the next item of the string-array {name!r} is {name}[{len(items)}], not {key}")
                last = items[-1].node
                gap = file.line_gap(last.start)
                self._apply([(last.end, last.end, f"{gap}<item>{self._escape(value, None)}</item>")], key, value)
                return
            if index != 0:
                raise KeyError(f"the string-array {name!r} does not exist; its first item is {name}[0]")
        element = self._element(key, value, array_item.group(1) if array_item and isinstance(value, str) else None)
        self._apply([self._insert_at_end(element)], key, value)

    def _element(self, key: str, value: Value, array: str | None) -> str:
        """A new entry's XML: nested items on their own lines, unless the file is written on one line."""
        file = self._file
        last = max((entry.owner for entry in self._entries.values()), key=lambda node: node.end, default=None)
        one_line = last is not None and file.indent_of(last.start) is None
        indent = "" if one_line else self._unit()
        gap = "" if one_line else file.newline + self._item_indent(indent)
        closing = "" if one_line else file.newline + indent
        if array is not None:
            item = f"<item>{self._escape(value, None)}</item>"  # type: ignore[arg-type]
            return f'<string-array name="{escape_attribute(array)}">{gap}{item}{closing}</string-array>'
        if isinstance(value, dict):
            if not value or any(category not in _ORDER for category in value):
                raise ValueError("give a <plurals> as a dict of forms by quantity: zero, one, two, few, many, other")
            items = "".join(f'{gap}<item quantity="{category}">{self._escape(value[category], None)}</item>'
                            for category in sorted(value, key=_ORDER.__getitem__))
            return f'<plurals name="{escape_attribute(key)}">{items}{closing}</plurals>'
        return f'<string name="{escape_attribute(key)}">{self._escape(value, None)}</string>'

    def _insert_at_end(self, element: str) -> tuple[int, int, str]:
        """Where a new entry goes: on the line after the last entry, indented as it is."""
        file = self._file
        root = file.root
        newline = file.newline
        entries = [entry.owner for entry in self._entries.values()]
        last = max(entries, key=lambda node: node.end) if entries else None
        if last is None:
            last = max(root.elements(), key=lambda node: node.end, default=None)
        if last is not None:
            indent = file.indent_of(last.start)
            if indent is None:  # a file written on one line: run on after the last entry
                return last.end, last.end, element
            line_end = last.end
            while line_end < len(file.text) and file.text[line_end] not in b"\r\n":
                line_end += 1
            if line_end < len(file.text):
                return line_end, line_end, newline + indent + element
            return last.end, last.end, newline + indent + element
        closing = file.indent_of(root.start) or ""
        return content_edit(file, root, f"{newline}{self._unit()}{element}{newline}{closing}")

    def delete(self, key: str) -> None:
        entry = self._entries.get(key)
        if entry is None:
            raise KeyError(key)
        file = self._file
        if entry.kind == "item" and sum(1 for _ in entry.owner.elements("item")) > 1:
            start, end = line_extent(file.text, entry.node.start, entry.node.end)
            self._apply([(start, end, "")], key, None)
            return
        owners = [entry.owner for entry in _entries(file, None) if entry.key == key]  # duplicates go too
        self._apply([(*_entry_extent(file, owner), "") for owner in owners], key, None)


def _entry_extent(file: XmlFile, owner: XmlNode) -> tuple[int, int]:
    """The lines an entry occupies, with a trailing comment on its last line and the comment just
    above it when that comment clearly belongs to it: nothing but a line break between them, and
    the entry followed by a blank line, the end of <resources>, or another comment (so a heading
    comment over several entries stays)."""
    siblings = file.root.children
    position = next(index for index, node in enumerate(siblings) if node is owner)
    end_node = owner
    following = siblings[position + 1] if position + 1 < len(siblings) else None
    if following is not None and following.name == COMMENT and b"\n" not in file.text[owner.end:following.start] \
            and b"\r" not in file.text[owner.end:following.start]:
        end_node = following  # `<string .../> <!-- note -->` on one line
        following = siblings[position + 2] if position + 2 < len(siblings) else None
    start, end = line_extent(file.text, owner.start, end_node.end)
    previous = siblings[position - 1] if position > 0 else None
    if previous is not None and previous.name == COMMENT and file.indent_of(previous.start) is not None:
        gap = file.text[previous.end:owner.start]
        alone = following is None or following.name == COMMENT or _blank_line(file.text[end_node.end:following.start])
        if not gap.strip() and not _blank_line(gap) and alone:
            start = line_extent(file.text, previous.start, previous.end)[0]
    return start, end


def _blank_line(whitespace: bytes) -> bool:
    return whitespace.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") >= 2


# --- the format ------------------------------------------------------------------------------------------------

_LEGACY = {modern: legacy for legacy, modern in LEGACY_LANGUAGES.items()}
_NOT_LANGUAGES = frozenset({"car", "hdr"})
"""Three-letter resource qualifiers that are not languages (UI mode car, HDR screens)."""
_LEGACY_QUALIFIER = re.compile(r"([a-z]{2,3})(?:-r([a-z]{2}))?", re.IGNORECASE)
_BCP47_QUALIFIER = re.compile(r"b\+([a-z]{2,3}(?:\+[a-z0-9]{1,8})*)", re.IGNORECASE)


class AndroidFormat(CatalogFormat):
    """`res/values*/strings.xml`, as aapt2 reads it."""

    name = "android"
    suffixes = (".xml",)

    def read(self, data: bytes, tag: LocaleTag) -> AndroidMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> AndroidDocument:
        return AndroidDocument(data)

    def sniff(self, head: bytes) -> bool:
        return b"<resources" in head

    def locale_spelling(self, tag: LocaleTag) -> str:
        """The resource qualifier after `values-`: `pt-rBR`, `b+sr+Latn`, `iw` for Hebrew."""
        if tag.script or tag.variants or (tag.region is not None and tag.region.isdigit()):
            return "b+" + "+".join(part for part in (tag.language, tag.script, tag.region, *tag.variants) if part)
        language = _LEGACY.get(tag.language, tag.language)
        return f"{language}-r{tag.region}" if tag.region else language

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """The locale of a `values-...` folder name or of its qualifier; None for `values` alone or
        for folders whose qualifier is not a locale (`values-night`, `values-fr-land`)."""
        qualifier = text[len("values-"):] if text.startswith("values-") else text
        if qualifier in ("values", ""):
            return None
        legacy = _LEGACY_QUALIFIER.fullmatch(qualifier)
        if legacy:
            language = legacy.group(1).lower()
            if language in _NOT_LANGUAGES:
                return None
            region = legacy.group(2)
            return LocaleTag(LEGACY_LANGUAGES.get(language, language), None, region.upper() if region else None)
        modern = _BCP47_QUALIFIER.fullmatch(qualifier)
        if modern:
            parsed = locale_or_none("-".join(modern.group(1).split("+")))
            if parsed is None:
                return None
            language = LEGACY_LANGUAGES.get(parsed.language, parsed.language)
            return LocaleTag(language, parsed.script, parsed.region, parsed.variants)
        return None
