"""Android string resources (`res/values*/strings.xml`), read as aapt2 compiles them and rendered as
`Resources.getString(id, args...)` / `getQuantityString(id, count, args...)` return them.

Keys and values:

- `<string name="k">` (and `<item type="string" name="k">`): key `k`; a `product` other than
  "default" is a build variant and is left alone.
- `<plurals name="k"><item quantity="one">...`: key `k`, a dict of forms by CLDR quantity.
- `<string-array name="k"><item>...`: keys `k[0]`, `k[1]`, ... (deleting one renumbers the rest).
- `translatable="false"` entries stay readable; their keys are `untranslatable_keys`.
- A value is the text aapt2 builds from the element (`\\'`, `\\"`, `\\n`, `\\t`, `\\@`, `\\?`,
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

from parlance_i18n.errors import InvalidLocale
from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Renderable,
    Value,
)
from parlance_i18n.formats.xmltext import (
    COMMENT,
    XmlBuffer,
    XmlFile,
    XmlNode,
    escape_attribute,
    line_extent,
    scan,
    split_markup,
    tokens,
    unescape,
)
from parlance_i18n.locales import LocaleTag
from parlance_i18n.plurals import CATEGORIES, PluralRules, as_number, plural_rules

__all__ = ["AndroidDocument", "AndroidFormat", "AndroidMessages", "android_escape", "flatten"]

_ASCII_SPACE = " \t\n\r\x0b\x0c"
"""What aapt2 collapses and trims: C `isspace` on ASCII."""
_PLAIN = re.compile(r"""[\\"'<&\t\n\r\x0b\x0c]|  """)
_ARRAY_KEY = re.compile(r"(.+)\[(0|[1-9][0-9]{0,5})\]")
_REFERENCE = re.compile(r"[@?]")
_STRING_REFERENCE = re.compile(r"@(?:\+)?string/([\w.]+)")
_MAX_ALIAS_DEPTH = 8
_ORDER = {category: index for index, category in enumerate(CATEGORIES)}


class _Invalid(ValueError):
    """What aapt2 would refuse in one entry; becomes a Problem."""


# --- aapt2's text rules ------------------------------------------------------------------------------------


class _Builder:
    """aapt2's StringBuilder: escapes, quotes and whitespace, over a string's text segments."""

    __slots__ = ("out", "quote", "last_space", "strict")

    def __init__(self, strict: bool) -> None:
        self.out: list[str] = []
        self.quote = False
        self.last_space = False
        self.strict = strict

    def reset(self) -> None:  # a styling tag starts or ends: quoting and space collapsing start afresh
        self.quote = False
        self.last_space = False

    def append(self, data: str) -> None:
        out = self.out
        i, n = 0, len(data)
        while i < n:
            c = data[i]
            i += 1
            if not self.quote and c in _ASCII_SPACE:
                if not self.last_space:
                    out.append(" ")
                    self.last_space = True
                continue
            self.last_space = False
            if c == "\\":
                if i < n:
                    c = data[i]
                    i += 1
                    if c == "t":
                        out.append("\t")
                    elif c == "n":
                        out.append("\n")
                    elif c == "u":
                        i = self._unicode(data, i)
                    else:
                        out.append(c)  # \' \" \\ \@ \? \# and any other: the character itself
            elif c == '"':
                self.quote = not self.quote
            elif c == "'" and not self.quote and self.strict:
                raise _Invalid("it has an unescaped apostrophe; write \\' or put the text in double quotes")
            else:
                out.append(c)

    def _unicode(self, data: str, i: int) -> int:
        digits = data[i:i + 4]
        hex_digits = len(digits) - len(digits.lstrip("0123456789abcdefABCDEF"))
        if hex_digits < len(digits):
            if self.strict:
                raise _Invalid("it has an invalid \\u escape; write four hexadecimal digits, as \\u00e9")
            self.out.append("\\u")
            return i
        code = int(digits, 16) if digits else 0
        i += len(digits)
        if 0xD800 <= code < 0xDC00 and data.startswith("\\u", i):  # a surrogate pair written as two escapes
            low = data[i + 2:i + 6]
            if len(low) == 4 and all(d in "0123456789abcdefABCDEF" for d in low) and 0xDC00 <= int(low, 16) < 0xE000:
                self.out.append(chr(0x10000 + ((code - 0xD800) << 10) + int(low, 16) - 0xDC00))
                return i + 6
        if 0xD800 <= code < 0xE000:
            if self.strict:
                raise _Invalid("its \\u escape names half of a surrogate pair; write the character itself")
            code = 0xFFFD
        self.out.append(chr(code))
        return i


def _is_span(tag_name: str) -> bool:
    """aapt2 makes a styling span of a tag without a namespace; `xliff:g` and others are not spans."""
    return ":" not in tag_name


def flatten(raw: str, strict: bool = True) -> tuple[str, str]:
    """(value, plain) of an element's raw content: the text aapt2 builds with the markup kept as
    written, and without it. Raises _Invalid when `strict` and aapt2 would refuse the text."""
    if not _PLAIN.search(raw) and raw == raw.strip(_ASCII_SPACE):
        return raw, raw
    # Text continues across comments (aapt2 skips them), so merge text around them first.
    pieces: list[tuple[str, str, str]] = []  # (kind, raw tag or text, tag name)
    for token in tokens(raw):
        if token.kind == "text":
            if pieces and pieces[-1][0] == "text":
                pieces[-1] = ("text", pieces[-1][1] + token.value, "")
            else:
                pieces.append(("text", token.value, ""))
        elif token.kind in ("start", "end", "empty"):
            pieces.append((token.kind, token.raw, token.value))
    styled = any(kind != "text" and _is_span(name) for kind, _, name in pieces)
    texts = [index for index, piece in enumerate(pieces) if piece[0] == "text"]
    builder = _Builder(strict)
    value: list[str] = []
    plain: list[str] = []
    for index, (kind, text, name) in enumerate(pieces):
        if kind == "text":
            if not styled and index == texts[0]:
                text = text.lstrip(_ASCII_SPACE)
            if not styled and index == texts[-1]:
                text = text.rstrip(_ASCII_SPACE)
            builder.out = []
            builder.append(text)
            built = "".join(builder.out)
            value.append(built)
            plain.append(built)
            continue
        value.append(text)
        if _is_span(name):
            builder.reset()
    return "".join(value), "".join(plain)


def _control(c: str) -> str:
    return f"\\u{ord(c):04x}"


def android_escape(value: str, style: str = "plain", prefixes: frozenset[str] = frozenset()) -> str:
    """The raw element content aapt2 reads back as exactly `value`.

    `style`: "plain" (escapes only), "quoted" (the whole text in double quotes, as the entry was
    written) or "cdata" (in a CDATA section: no XML escaping and no markup). `prefixes`: namespace
    prefixes the file declares (a `xliff:g` tag is markup only when `xliff` is declared).
    """
    pieces = [("text", value)] if style == "cdata" else split_markup(
        value, lambda name: ":" not in name or name.split(":")[0] in prefixes)
    styled = any(kind == "tag" and _is_span(re.match(r"</?([^\s/>]+)", piece).group(1))  # type: ignore[union-attr]
                 for kind, piece in pieces)
    if style == "quoted" and (styled or any(kind == "tag" for kind, _ in pieces)):
        style = "plain"
    if style == "quoted":
        return '"' + _escape_quoted(value) + '"'
    texts = [index for index, (kind, _) in enumerate(pieces) if kind == "text"]
    last_text = texts[-1] if texts else -1
    out: list[str] = []
    previous_space = not styled  # unstyled text is trimmed at its start: a leading space must be escaped
    for index, (kind, piece) in enumerate(pieces):
        if kind == "tag":
            out.append(piece)
            if _is_span(re.match(r"</?([^\s/>]+)", piece).group(1)):  # type: ignore[union-attr]
                previous_space = False
            continue
        trailing_from = len(piece.rstrip(" ")) if (index == last_text and not styled) else len(piece)
        for position, c in enumerate(piece):
            if c == " ":
                if previous_space or position >= trailing_from:
                    out.append("\\u0020")
                    previous_space = False
                else:
                    out.append(" ")
                    previous_space = True
                continue
            previous_space = False
            if c == "\\":
                out.append("\\\\")
            elif c == '"':
                out.append('\\"')
            elif c == "'":
                out.append("\\'")
            elif c == "\n":
                out.append("\\n")
            elif c == "\t":
                out.append("\\t")
            elif c in "@?" and not out:
                out.append("\\" + c)  # else aapt2 reads a reference (@string/x, ?attr/y)
            elif c < " " or c in "\ufffe\uffff":
                out.append(_control(c))
            elif style == "cdata":
                out.append(c)
            elif c == "&":
                out.append("&amp;")
            elif c == "<":
                out.append("&lt;")
            elif c == ">" and out[-2:] == ["]", "]"]:
                out.append("&gt;")
            else:
                out.append(c)
    text = "".join(out)
    if style == "cdata":
        return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"
    return text


def _escape_quoted(value: str) -> str:
    out = []
    for c in value:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r" or c < " " or c in "\ufffe\uffff":
            out.append(_control(c))
        elif c == "&":
            out.append("&amp;")
        elif c == "<":
            out.append("&lt;")
        else:
            out.append(c)
    return "".join(out)


def _style_of(raw: str) -> str:
    """How an entry's content is written: "cdata", "quoted" or "plain"."""
    stripped = raw.strip(_ASCII_SPACE)
    if stripped.startswith("<![CDATA[") and stripped.endswith("]]>") and stripped.count("<![CDATA[") == 1:
        return "cdata"
    if (len(stripped) >= 2 and stripped[0] == '"' and stripped[-1] == '"' and stripped[-2] != "\\"
            and "<" not in stripped and stripped.count('"') - stripped.count('\\"') == 2):
        return "quoted"
    return "plain"


_AAPT_ARGUMENT = re.compile(r"%(?:(?P<skip>[%n])|(?P<digits>[0-9]*)(?P<sep>\$|<\$?)?[-#+ ,(0-9]*(?P<letter>.?))", re.S)
_TIME_LETTERS = frozenset("DFKMWZkmwyz")
"""Conversions that only Time.format() has: aapt2 leaves such a string alone."""


def _several_unnumbered(text: str) -> bool:
    """aapt2's check on a <string>: more than one `%` argument, and some of them not numbered."""
    count = 0
    unnumbered = False
    for match in _AAPT_ARGUMENT.finditer(text):
        if match.group("skip") or match.start() + 1 == len(text):
            continue
        count += 1
        numbered = bool(match.group("digits")) and match.group("sep") == "$"
        if not numbered:
            unnumbered = True
            if match.group("letter") in _TIME_LETTERS and match.group("letter"):
                return False
    return count > 1 and unnumbered


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


class _Text:
    """A message printed as it is: an element with formatted="false"."""

    __slots__ = ("_shown", "source")
    arguments: frozenset[str] = frozenset()
    plurals: tuple[Any, ...] = ()

    def __init__(self, source: str, shown: str) -> None:
        self.source = source
        self._shown = shown

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._shown[:max(limit, 0)]


class _Styled:
    """A formatted string with markup: renders its unstyled text, keeps the markup in `source`."""

    __slots__ = ("_inner", "source")

    def __init__(self, source: str, inner: Renderable) -> None:
        self.source = source
        self._inner = inner

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._inner.render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        return self._inner.arguments

    @property
    def plurals(self) -> tuple[Any, ...]:
        return self._inner.plurals


def _compile(text: str, plain: str, formatted: bool) -> Renderable:
    if not formatted:
        return _Text(text, plain)
    from parlance_i18n.formats.printf import compile_printf

    compiled = compile_printf(plain, style="java")
    return compiled if plain == text else _Styled(text, compiled)


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
        from parlance_i18n.messageformat import PluralUse

        return (PluralUse("count", False, frozenset(self._forms)),)


_NOT_FORMATTED = 1
_STYLED = 2


class AndroidMessages(LocaleMessages):
    """One values file's messages: texts kept as aapt2 builds them, compiled on first `get`."""

    def __init__(self, tag: LocaleTag) -> None:
        self.tag = tag
        self.problems: list[Problem] = []
        self._texts: dict[str, str | tuple[tuple[str, str], ...]] = {}
        self._plain: dict[str, str | tuple[tuple[str, str], ...]] = {}  # only where markup makes it differ
        self._not_formatted: set[str] = set()
        self._aliases: dict[str, str] = {}
        self._comments: dict[str, str] = {}
        self._compiled: dict[str, Renderable] = {}
        self.untranslatable_keys: frozenset[str] = frozenset()

    def text(self, key: str) -> Value | None:
        found = self._texts.get(key)
        if isinstance(found, tuple):
            return dict(found)
        return found

    def comment(self, key: str) -> str | None:
        return self._comments.get(key)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        return self._build(key, 0) or default

    def _build(self, key: str, depth: int) -> Renderable | None:
        target = self._aliases.get(key)
        if target is not None:
            if depth >= _MAX_ALIAS_DEPTH:
                return None
            found = self._compiled.get(target) or self._build(target, depth + 1)
            if found is not None:
                self._compiled[key] = found
            return found
        text = self._texts.get(key)
        if text is None:
            return None
        plain = self._plain.get(key, text)
        formatted = key not in self._not_formatted
        try:
            if isinstance(text, tuple):
                plains = dict(plain) if isinstance(plain, tuple) else {}
                forms = {category: (form, plains.get(category, form)) for category, form in text}
                compiled: Renderable = _Plural(forms, plural_rules(self.tag), formatted)
            else:
                compiled = _compile(text, plain, formatted)  # type: ignore[arg-type]
        except ValueError as error:  # checked when read; kept as a guard
            self.problems.append(Problem(key, None, f"{key!r} cannot be used: {error}"))
            self._texts.pop(key, None)
            return None
        self._compiled[key] = compiled
        return compiled

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __contains__(self, key: object) -> bool:
        return key in self._texts


def _check_printf(plain: str) -> str | None:
    """Why java.util.Formatter would refuse `plain`, or None."""
    if "%" not in plain:
        return None
    from parlance_i18n.formats.printf import compile_printf

    try:
        compile_printf(plain, style="java")
    except ValueError as error:
        return f"{error} (or add formatted=\"false\" to the element)"
    return None


def _reference(raw: str) -> tuple[str | None, str | None]:
    """(key it aliases, problem) for a raw text aapt2 reads as a reference, or (None, None)."""
    if not _REFERENCE.match(raw):
        return None, None
    value = raw
    if value in ("@null", "@empty"):
        return "", None
    found = _STRING_REFERENCE.fullmatch(value)
    if found:
        return found.group(1), None
    return None, (f"it is a reference ({value[:60]!r}) to a resource this file does not hold; "
                  "write \\@ or \\? to start a text with @ or ?")


def _true(attribute: str | None) -> bool:
    """An aapt2 boolean attribute that defaults to true (`formatted`, `translatable`)."""
    return attribute is None or attribute.strip().lower() != "false"


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
            problems.append(Problem(key, line, f"{key!r} is defined again (first on line {seen_lines[key]}); "
                                               "the first one is used"))
            continue
        seen_lines[key] = line
        attributes = entry.owner.attributes
        formatted = _true(attributes.get("formatted"))
        translatable = _true(attributes.get("translatable"))
        try:
            if entry.kind == "plurals":
                forms, plains = _read_plural(file, entry.node, formatted)
                messages._texts[key] = forms
                if plains != forms:
                    messages._plain[key] = plains
            else:
                content = file.content(entry.node)
                value, plain = flatten(content)
                # aapt2 reads a reference from the text before its escapes (`\@` is not one) and
                # only when there is no styling.
                alias, reason = _reference(unescape(content).strip(_ASCII_SPACE)) if value == plain else (None, None)
                if reason:
                    raise _Invalid(reason)
                if alias == "":
                    value = plain = ""
                elif alias is not None:
                    messages._aliases[key] = alias
                elif formatted:
                    if (entry.kind == "string" and translatable and value == plain and plain.count("%") > 1
                            and _several_unnumbered(plain)):
                        raise _Invalid('it has several arguments, not all numbered (%1$s, %2$d); number them, '
                                       'or add formatted="false"')
                    reason = _check_printf(plain)
                    if reason:
                        raise _Invalid(reason)
                messages._texts[key] = value
                if plain != value:
                    messages._plain[key] = plain
        except _Invalid as invalid:
            problems.append(Problem(key, line, f"{key!r} cannot be used: {invalid}"))
            continue
        if not formatted:
            messages._not_formatted.add(key)
        if not translatable:
            untranslatable.add(key)
        if entry.comment is not None:
            messages._comments[key] = file.raw(entry.comment.open_end, entry.comment.close_start).strip()
    unresolved = True
    while unresolved:  # until stable: dropping one reference can leave another pointing at nothing
        unresolved = False
        for key, target in list(messages._aliases.items()):
            if target not in messages._texts:
                problems.append(Problem(key, seen_lines.get(key), f"{key!r} refers to @string/{target}, which this "
                                                                  "file does not define (or cannot use)"))
                messages._aliases.pop(key)
                messages._texts.pop(key, None)
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
            raise _Invalid(f"an <item> has the quantity {written[:20]!r}; use zero, one, two, few, many or other"
                           if written else "an <item> has no quantity attribute")
        if any(quantity == seen for seen, _ in forms):
            raise _Invalid(f"the quantity {quantity!r} is given twice (line {item.line})")
        value, plain = flatten(file.content(item))
        if formatted:
            reason = _check_printf(plain)
            if reason:
                raise _Invalid(f"its {quantity!r} item: {reason}")
        forms.append((quantity, value))
        plains.append((quantity, plain))
    if not forms:
        raise _Invalid("the <plurals> has no <item>")
    return tuple(forms), tuple(plains)


# --- editing -------------------------------------------------------------------------------------------------


class AndroidDocument(Document):
    """A values file being edited: values are aapt2's texts (markup kept), written back escaped."""

    def __init__(self, data: bytes) -> None:
        self._buffer = XmlBuffer(data)
        _resources(self._buffer.file)
        self._index()

    def _index(self) -> None:
        self._entries: dict[str, _Entry] = {}
        for entry in _entries(self._buffer.file, None):
            self._entries.setdefault(entry.key, entry)

    @property
    def _file(self) -> XmlFile:
        return self._buffer.file

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
        style = _style_of(old_raw) if old_raw else "plain"
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
        if node.self_closing:
            head = file.raw(node.start, node.open_end - 2).rstrip()
            return node.start, node.end, f"{head}>{self._escape(value, None)}</{node.name}>"
        return node.open_end, node.close_start, self._escape(value, file.content(node))

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
            indent = file.indent_of(children[0].start)
            gap = file.newline + indent if indent is not None else ""
            return [(children[0].start, children[-1].end, gap.join(text for _, text in pieces))]
        gap = file.newline + self._item_indent(self._unit()) if file.indent_of(plurals.start) is not None else ""
        closing = file.newline + (file.indent_of(plurals.start) or "") if gap else ""
        items = "".join(gap + text for _, text in pieces)
        if plurals.self_closing:
            head = file.raw(plurals.start, plurals.open_end - 2).rstrip()
            return [(plurals.start, plurals.end, f"{head}>{items}{closing}</plurals>")]
        return [(plurals.open_end, plurals.close_start, items + closing)]

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

    def _apply(self, edits: list[tuple[int, int, str]], key: str, value: Value | None) -> None:
        before = self._buffer.file, self._buffer.changed
        self._buffer.replace(edits)
        self._index()
        if value is not None and self.get(key) != value:
            self._buffer.file, self._buffer.changed = before
            self._index()
            raise ValueError(f"{key!r} cannot be written so that aapt2 reads it back unchanged")

    def add(self, key: str, value: Value) -> None:
        if key in self._entries:
            raise KeyError(f"{key!r} is already in the file; use set to change it")
        file = self._file
        newline = file.newline
        array_item = _ARRAY_KEY.fullmatch(key)
        if array_item and isinstance(value, str):
            name, index = array_item.group(1), int(array_item.group(2))
            items = [entry for entry in self._entries.values() if entry.kind == "item" and entry.owner.attributes.get(
                "name", "").strip() == name]
            if items:
                if index != len(items):
                    raise KeyError(f"the next item of the string-array {name!r} is {name}[{len(items)}], not {key}")
                last = items[-1].node
                indent = file.indent_of(last.start)
                gap = newline + indent if indent is not None else ""
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
        if root.self_closing:
            head = file.raw(root.start, root.open_end - 2).rstrip()
            return root.start, root.end, f"{head}>{newline}{self._unit()}{element}{newline}{closing}</{root.name}>"
        return root.open_end, root.close_start, f"{newline}{self._unit()}{element}{newline}{closing}"

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

    def to_bytes(self) -> bytes:
        return self._buffer.to_bytes()


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

_LEGACY = {"he": "iw", "id": "in", "yi": "ji"}
_MODERN = {legacy: modern for modern, legacy in _LEGACY.items()}
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
        from parlance_i18n.locales import parse_locale

        qualifier = text[len("values-"):] if text.startswith("values-") else text
        if qualifier in ("values", ""):
            return None
        legacy = _LEGACY_QUALIFIER.fullmatch(qualifier)
        if legacy:
            language = legacy.group(1).lower()
            if language in _NOT_LANGUAGES:
                return None
            region = legacy.group(2)
            return LocaleTag(_MODERN.get(language, language), None, region.upper() if region else None)
        modern = _BCP47_QUALIFIER.fullmatch(qualifier)
        if modern:
            try:
                parsed = parse_locale("-".join(modern.group(1).split("+")))
            except InvalidLocale:
                return None
            language = _MODERN.get(parsed.language, parsed.language)
            return LocaleTag(language, parsed.script, parsed.region, parsed.variants)
        return None
