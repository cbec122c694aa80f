"""Rails i18n (and i18n-js) YAML catalogs: read as the `i18n` gem loads them through Ruby's Psych,
rendered as `I18n.t` renders them, and edited by splicing scalars into the original text.

Reading. A file holds one root key per locale (`en:`, `pt-BR:`): the one that spells `tag` is read,
else the only one. Nested keys join with dots (`cart.empty`). PyYAML's libyaml parser gives the
events with their offsets; scalars are typed as Psych types them, because that decides what Rails
finds, and differs from PyYAML's YAML 1.1 resolver:

- plain `yes`/`no`/`on`/`off`/`true`/`false` (any case) are booleans, also as keys. Rails keeps such
  a key as the boolean (`I18n.t("no")` finds nothing) and, since i18n 1.7, looks `"false"` and
  `"true"` up as booleans: so `no:` is read here as the key `false`, as Rails serves it, and `yes:`
  and `on:` as `true` (a second one in the same mapping is a duplicate). Quote them (`'no':`).
  Integer keys (`1:`) are reachable as `"1"` too. A key Ruby reads as null, a float, a date or a
  time, or one with a dot in it, cannot be looked up: it is reported and skipped;
- a plain `:name` is a Ruby symbol: as a value, Rails follows it to the key `name` (from the
  locale's root) and renders that message instead; so does `get` here, within the file (a symbol
  that leads to no message of the file is reported and left out);
- numbers, booleans, dates, arrays (`date.day_names`) are not messages: Rails returns them to code
  that formats dates and numbers. They are left out silently; a null value (`key:` or `~`), which
  Rails treats as missing, is reported;
- anchors, aliases and merge keys (`<<: *defaults`) are resolved as Psych resolves them: a merge
  overwrites the keys before it and is overwritten by those after it;
- a mapping whose keys are all CLDR plural categories (`zero one two few many other`), with `one`
  or `other` among them, is one plural message: a `dict` of forms;
- a duplicate key keeps its last value, as Psych does; the earlier one is reported.

Rendering follows `I18n.t` with rails-i18n's pluralization: with no variables the text is returned
as written (Rails interpolates only when it is given values); otherwise `%%` is `%`, `%{name}` is
the variable's Ruby `to_s` (null prints nothing) and `%<name>.2f` is `sprintf` of it. A missing
variable raises `I18n::MissingInterpolationArgument` in Rails; here `%{name}` is left as written. A
message using a name I18n reserves (`%{scope}`, `%{default}`, ...) raises in Rails whenever it is
translated: it is reported and skipped. A plural message picks, from `values["count"]`: `zero` when
the count is 0 and the form exists, else the CLDR category's form, else `other` (Rails raises
`InvalidPluralizationData` when that is missing too; here the first form is used). Without a count
(Rails returns the hash) the `other` form is rendered.

Editing splices only the scalar that changes, quoted as it was: plain while the new text stays a
string as plain (else single quotes), single or double quotes, or a literal `|` or folded `>` block
(double quotes when a block cannot hold the text). `add` puts a key after its last sibling with the
siblings' indentation (creating the missing parents), in the file's quoting; `delete` removes the
key's lines, its comment when that is clearly its own, and parents it leaves empty. Setting a key
whose value is an alias (`title: *brand`) gives that key its own text; setting an anchored scalar
(`brand: &brand Shop`) changes every alias of it too, as YAML makes them one value. Keys merged in
by `<<` are not the Document's: they are edited where they are written.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

import yaml

from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Value,
)
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.messageformat import PluralUse
from parlance_i18n.plurals import CATEGORIES, PluralRules, as_number, plural_rules

__all__ = ["YamlFormat"]

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOM = "\ufeff"
_PLURAL_KEYS = frozenset(CATEGORIES)
_MAX_DEPTH = 100
_MAX_LINKS = 10
_STR_TAGS = frozenset({"tag:yaml.org,2002:str", "!"})

# --- Psych's scalar types ------------------------------------------------------------------------------
# Ported from the rules of Psych::ScalarScanner#tokenize (the default libyaml backend).

_PSYCH_WORDISH = re.compile(r"[^\d.:-]?(?:[^\W\d]|[\s!@#$%^&*(){}<>|/\\~;=])+")
_PSYCH_TIME = re.compile(r"-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?"
                         r"(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$")
_PSYCH_DATE = re.compile(r"\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$")
_PSYCH_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?$")
_PSYCH_INT = re.compile(r"[-+]?(?:0b[_,]*[0-1][0-1_,]*|0[_,]*[0-7][0-7_,]*|(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)"
                        r"|0x[_,]*[0-9a-fA-F][0-9a-fA-F_,]*)$")
_PSYCH_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}(?:\.[0-9_]*)?$")


def _psych_type(text: str) -> str:
    """What Psych makes of a plain scalar: "str", "null", "true", "false", "int", "float", "time",
    "date" or "symbol" (Psych::ScalarScanner#tokenize, default backend)."""
    if not text:
        return "null"
    if _PSYCH_WORDISH.match(text) or "\n" in text:
        if len(text) > 5 or text[0] not in "yYtToOnNfF~":
            return "str"
        lower = text.lower()
        if text == "~" or lower == "null":
            return "null"
        if lower in ("yes", "true", "on"):
            return "true"
        if lower in ("no", "false", "off"):
            return "false"
        return "str"
    if _PSYCH_TIME.match(text):
        return "time"
    if _PSYCH_DATE.match(text):
        return "date"
    lower = text.lower()
    if lower in (".inf", "+.inf", "-.inf", ".nan"):
        return "float"
    if text.startswith(":") and len(text) > 1:
        return "symbol"
    if _PSYCH_SEXAGESIMAL.match(text):
        return "int" if "." not in text else "float"
    if _PSYCH_FLOAT.match(text):
        return "str" if text.strip("+-") == "." else "float"
    if _PSYCH_INT.match(text):
        return "int"
    return "str"


def _symbol_name(text: str) -> str:
    """The name of the symbol a plain `:name` or `:"dotted.name"` spells, as Psych reads it."""
    quoted = re.match(r""":(["'])(.*)\1""", text)
    return quoted.group(2).removeprefix(":") if quoted else text[1:]


# --- the node tree -------------------------------------------------------------------------------------


class _Node:
    __slots__ = ("start", "end", "line", "column", "anchor")

    def __init__(self, start: int, end: int, line: int, column: int, anchor: str | None) -> None:
        self.start = start
        self.end = end
        self.line = line  # 0-based, as libyaml counts
        self.column = column
        self.anchor = anchor


class _Scalar(_Node):
    __slots__ = ("value", "style", "kind")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, event.end_mark.index, mark.line, mark.column, event.anchor)
        self.value: str = event.value
        self.style: str = event.style or ""  # "" plain, "'", '"', "|", ">"
        if event.tag is not None and not event.implicit[0] and not event.implicit[1]:
            self.kind = "str" if event.tag in _STR_TAGS else "tagged"
        elif self.style:
            self.kind = "str"
        else:
            self.kind = _psych_type(self.value)


class _Map(_Node):
    __slots__ = ("items", "flow")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, mark.index, mark.line, mark.column, event.anchor)
        self.items: list[tuple[_Node, _Node]] = []
        self.flow: bool = bool(event.flow_style)


class _Seq(_Node):
    __slots__ = ("items", "flow")

    def __init__(self, event: Any) -> None:
        mark = event.start_mark
        super().__init__(mark.index, mark.index, mark.line, mark.column, event.anchor)
        self.items: list[_Node] = []
        self.flow = bool(event.flow_style)


class _Alias(_Node):
    __slots__ = ("target",)

    def __init__(self, event: Any, target: _Node) -> None:
        mark = event.start_mark
        super().__init__(mark.index, event.end_mark.index, mark.line, mark.column, None)
        self.target = target


def _compose(text: str) -> _Node | None:
    """The first document of `text` as a tree with offsets; CatalogFileError when it is not YAML."""
    anchors: dict[str, _Node] = {}
    stack: list[list[Any]] = []  # [container, pending key]
    root: _Node | None = None
    ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
    MappingStartEvent, SequenceStartEvent = yaml.MappingStartEvent, yaml.SequenceStartEvent
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    events: Iterator[Any] = yaml.parse(text, Loader=_LOADER)
    try:
        for event in events:
            kind = event.__class__
            node: _Node
            if kind is ScalarEvent:
                node = _Scalar(event)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                container: _Node = _Map(event) if kind is MappingStartEvent else _Seq(event)
                if event.anchor:
                    anchors[event.anchor] = container
                stack.append([container, None])
                continue
            elif kind in ends:
                closed: _Map | _Seq = stack.pop()[0]
                closed.end = event.end_mark.index if closed.flow else _subtree_end(closed)
                node = closed
            elif kind is AliasEvent:
                target = anchors.get(event.anchor)
                if target is None:
                    raise CatalogFileError(f"the alias *{event.anchor} names no anchor defined before it",
                                           event.start_mark.line + 1)
                node = _Alias(event, target)
            elif kind is yaml.DocumentEndEvent:
                break  # Psych loads the first document only
            else:
                continue
            if node.anchor and kind is ScalarEvent:
                anchors[node.anchor] = node
            if not stack:
                root = node
                continue
            frame = stack[-1]
            parent = frame[0]
            if isinstance(parent, _Seq):
                parent.items.append(node)
            elif frame[1] is None:
                frame[1] = node
            else:
                parent.items.append((frame[1], node))
                frame[1] = None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "it is not valid YAML"
        raise CatalogFileError(f"the file is not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    except yaml.YAMLError as error:
        raise CatalogFileError(f"the file is not valid YAML: {error}") from None
    return root


def _subtree_end(node: _Node) -> int:
    """Where a block collection's text ends: its last item's end (libyaml's end mark is later, past
    the comments and blank lines that follow)."""
    if isinstance(node, _Map) and node.items:
        return node.items[-1][1].end
    if isinstance(node, _Seq) and node.items:
        return node.items[-1].end
    return node.start


def _decode(data: bytes) -> tuple[str, str, bool]:
    """(text without BOM, codec, had a BOM): UTF-8, or UTF-16 with its BOM."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec), codec, True
            except UnicodeDecodeError as error:
                raise CatalogFileError(f"the file is not valid {codec.upper()} (byte {error.start + len(bom)})"
                                       ) from None
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError as error:
        raise CatalogFileError(f"the file is not UTF-8 (byte {error.start} is not), as YAML must be: save it "
                               "as UTF-8") from None


def _locale_root(root: _Node | None, tag: LocaleTag) -> tuple[_Scalar | None, _Map | None]:
    """(root key, its mapping) for `tag`: the root that spells it, else the only one."""
    if root is None or (isinstance(root, _Scalar) and root.kind == "null"):
        return None, None
    if not isinstance(root, _Map):
        raise CatalogFileError("the file's top level is not a mapping of locales (en: ...)", root.line + 1)
    roots = [(key, value) for key, value in root.items if isinstance(key, _Scalar)]
    chosen = next(((key, value) for key, value in roots if _spells(key.value, tag)), None)
    if chosen is None:
        if len(roots) != 1:
            names = ", ".join(repr(key.value[:20]) for key, _ in roots[:8])
            raise CatalogFileError(f"no root key spells {tag.code!r} (the roots are {names}): a Rails file "
                                   "holds one root key per locale, such as en: or pt-BR:")
        chosen = roots[0]
    key, value = chosen
    value = _resolve(value)
    if isinstance(value, _Map):
        return key, value
    if isinstance(value, _Scalar) and value.kind == "null":
        return key, None  # `en:` with nothing under it yet
    raise CatalogFileError(f"the root key {key.value[:20]!r} holds a single value, not the locale's messages",
                           key.line + 1)


def _spells(text: str, tag: LocaleTag) -> bool:
    try:
        return parse_locale(text) == tag
    except Exception:  # noqa: BLE001 - a root that is no locale code (defaults:, shared:) spells no tag
        return False


def _resolve(node: _Node) -> _Node:
    while isinstance(node, _Alias):
        node = node.target
    return node


def _key_name(key: _Node) -> tuple[str | None, str | None]:
    """(the name Rails looks the key up by, or None; why it cannot be looked up)."""
    key = _resolve(key)
    if not isinstance(key, _Scalar):
        return None, "the key is a collection, which no I18n lookup can name"
    kind, value = key.kind, key.value
    if kind == "str":
        name = value
    elif kind in ("true", "false"):
        name = kind  # Rails (i18n >= 1.7) looks "true" and "false" up as the booleans Psych made
    elif kind == "int":
        name = str(_ruby_integer(value))
    elif kind == "symbol":
        name = _symbol_name(value)
    else:
        what = {"null": "null", "float": "a float", "time": "a time", "date": "a date"}.get(kind, "a tagged value")
        return None, (f"Ruby's YAML reads the key {value[:40]!r} as {what}, so no I18n lookup finds it; "
                      "quote it")
    if "." in name:
        return None, f"the key {name[:40]!r} has a dot, which I18n reads as a separator: nest it instead"
    return name, None


def _ruby_integer(text: str) -> int:
    digits = text.replace("_", "").replace(",", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    if ":" in digits:  # base 60
        total = 0
        for part in digits.split(":"):
            total = total * 60 + int(part)
        return sign * total
    if digits.startswith(("0b", "0B")):
        return sign * int(digits[2:], 2)
    if digits.startswith(("0x", "0X")):
        return sign * int(digits[2:], 16)
    if len(digits) > 1 and digits.startswith("0"):
        return sign * int(digits[1:], 8)
    return sign * int(digits)


# --- reading -------------------------------------------------------------------------------------------


class _Link:
    """A value that is a Ruby symbol: Rails renders the message at that key instead."""

    __slots__ = ("target", "source")

    def __init__(self, target: str, source: str) -> None:
        self.target = target
        self.source = source


class _Reader:
    """The locale's messages, as the i18n gem stores them after `deep_symbolize_keys`."""

    def __init__(self, text: str) -> None:
        self.texts: dict[str, Any] = {}
        self.problems: list[Problem] = []
        self.notes: dict[str, str] = {}  # only the keys that have a comment
        self.link_lines: dict[str, int] = {}
        self._comment_lines = _comment_lines(text) if "#" in text else {}

    def walk(self, mapping: _Map, prefix: str, depth: int,
             entries: list[tuple[str, _Node, _Node]] | None = None) -> None:
        if depth > _MAX_DEPTH:
            self.problems.append(Problem(prefix.rstrip(".") or None, mapping.line + 1,
                                         f"the keys nest deeper than {_MAX_DEPTH} levels"))
            return
        for name, key, value in entries if entries is not None else self._entries(mapping, prefix, depth, True):
            full = prefix + name
            line = key.line + 1
            target = _resolve(value)
            if isinstance(target, _Scalar):
                scalar_kind = target.kind
                if scalar_kind == "str":
                    self._message(full, line, target.value)
                elif scalar_kind == "symbol":
                    self._store(full, line, _Link(_symbol_name(target.value), target.value))
                    self.link_lines[full] = line
                elif scalar_kind == "null":
                    self.problems.append(Problem(full, line, "the key has no value (empty or ~ is nil in Ruby, so "
                                                             "Rails treats the key as missing): give it a text"))
            elif isinstance(target, _Map):
                # Problems inside a mapping are reported where it is written, not where it is merged in.
                children = self._entries(target, full + ".", depth + 1, value is target)
                forms = _plural_forms(children)
                if forms is not None:
                    self._plural(full, line, forms)
                else:
                    self.walk(target, full + ".", depth + 1, children)
            # Sequences (day names, ...), numbers, booleans and dates are data for Rails' own
            # formatting helpers, not messages: left out without a problem.

    def _entries(self, mapping: _Map, prefix: str, depth: int, report: bool) -> list[tuple[str, _Node, _Node]]:
        """The mapping's (name, key, value) as Psych builds the Ruby hash: merges in order, the last
        of equal keys winning at the place of the first; unreachable keys and duplicates reported."""
        found: dict[str, tuple[_Node, _Node, bool]] = {}  # name -> (key, value, written here)
        for key, value in mapping.items:
            if _is_merge(key):
                for merged_name, merged_key, merged_value in self._merged(value, prefix, depth):
                    found[merged_name] = (merged_key, merged_value, False)
                continue
            name, reason = _key_name(key)
            if name is None:
                if report:
                    self.problems.append(Problem(prefix + (getattr(key, "value", "") or "")[:40], key.line + 1,
                                                 reason or "the key cannot be looked up"))
                continue
            earlier = found.get(name)
            if report and earlier is not None and earlier[2]:
                self.problems.append(Problem(prefix + name, earlier[0].line + 1,
                                             f"the key is defined again on line {key.line + 1}; the later value "
                                             "wins, as in Rails: delete one of them"))
            found[name] = (key, value, True)
        return [(name, key, value) for name, (key, value, _) in found.items()]

    def _merged(self, value: _Node, prefix: str, depth: int) -> list[tuple[str, _Node, _Node]]:
        target = _resolve(value)
        if depth > _MAX_DEPTH:
            return []
        if isinstance(target, _Map):
            return self._entries(target, prefix, depth + 1, False)
        if isinstance(target, _Seq):
            merged: dict[str, tuple[str, _Node, _Node]] = {}
            for item in reversed(target.items):
                for name, key, item_value in self._merged(item, prefix, depth + 1):
                    merged[name] = (name, key, item_value)
            return list(merged.values())
        return []

    def check_links(self) -> None:
        """Leave out the symbols that lead to no message of this file (nor through other symbols)."""
        texts = self.texts
        for key, value in list(texts.items()):
            if not isinstance(value, _Link):
                continue
            target: Any = value
            hops = 0
            while isinstance(target, _Link) and hops < _MAX_LINKS:
                target = texts.get(target.target)
                hops += 1
            if target is None or isinstance(target, _Link):
                del texts[key]
                self.problems.append(Problem(key, self.link_lines.get(key), (
                    f"the value {value.source[:40]} is a Ruby symbol, which Rails follows to the key "
                    f"{value.target[:40]!r}; this file holds no message there (nor does a chain of symbols reach "
                    "one)")))

    def _message(self, key: str, line: int, text: str) -> None:
        reserved = _RESERVED.search(text)
        if reserved is not None:
            self._reject(key, line, f"the message uses %{{{reserved.group(1)}}}, a name I18n reserves for its "
                                    "own options, so Rails raises ReservedInterpolationKey: rename it")
            return
        self._store(key, line, text)

    def _plural(self, key: str, line: int, forms: dict[str, str]) -> None:
        for text in forms.values():
            reserved = _RESERVED.search(text)
            if reserved is not None:
                self._reject(key, line, f"a plural form uses %{{{reserved.group(1)}}}, a name I18n reserves for "
                                        "its own options, so Rails raises ReservedInterpolationKey: rename it")
                return
        self._store(key, line, forms)

    def _store(self, key: str, line: int, value: Any) -> None:
        self.texts[key] = value
        if line - 1 in self._comment_lines:
            self.notes[key] = self._comment_above(line)

    def _reject(self, key: str, line: int, reason: str) -> None:
        self.texts.pop(key, None)
        self.problems.append(Problem(key, line, reason))

    def _comment_above(self, line: int) -> str:
        """The comment lines right above 1-based `line` (no blank line between), joined."""
        found = []
        number = line - 1
        while number in self._comment_lines:
            found.append(self._comment_lines[number])
            number -= 1
        return "\n".join(reversed(found)).strip()


def _comment_lines(text: str) -> dict[int, str]:
    """The 1-based numbers of the lines that are only a comment, with the comment's text."""
    starts = _line_starts(text)
    return {bisect.bisect_right(starts, match.start()): match.group(1).strip()
            for match in _COMMENT_LINE.finditer(text)}


def _text_of(node: _Node) -> str:
    """The text of a string scalar, or of the one an alias names."""
    target = _resolve(node)
    assert isinstance(target, _Scalar)
    return target.value


def _is_merge(key: _Node) -> bool:
    return isinstance(key, _Scalar) and key.value == "<<" and key.kind != "tagged"


def _plural_forms(entries: list[tuple[str, _Node, _Node]]) -> dict[str, str] | None:
    """The forms of a plural mapping (all keys CLDR categories, `one` or `other` among them, all
    values strings), else None."""
    if not entries or len(entries) > len(_PLURAL_KEYS):
        return None
    forms: dict[str, str] = {}
    for name, _, value in entries:
        if name not in _PLURAL_KEYS:
            return None
        target = _resolve(value)
        if not isinstance(target, _Scalar) or target.kind != "str":
            return None
        forms[name] = target.value
    return forms if "one" in forms or "other" in forms else None


_RESERVED = re.compile(r"(?<!%)%\{(cascade|deep_interpolation|skip_interpolation|default|exception_handler|fallback|"
                       r"fallback_in_progress|fallback_original_locale|format|object|raise|resolve|scope|"
                       r"separator|throw)\}")
_COMMENT_LINE = re.compile(r"^[ \t]*#([^\r\n]*)", re.M)


class YamlMessages(LocaleMessages):
    """One locale's messages of a Rails YAML file: texts held, compiled on first use."""

    def __init__(self, reader: _Reader, tag: LocaleTag) -> None:  # keeps what it needs, not the reader
        self.texts = reader.texts
        self.problems = reader.problems
        self._notes = reader.notes
        self._rules = plural_rules(tag)
        self._compiled: dict[str, Any] = {}

    def text(self, key: str) -> Value | None:
        found = self.texts.get(key)
        if isinstance(found, _Link):
            return found.source
        return found

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        text = self.texts.get(key)
        hops = 0
        while isinstance(text, _Link) and hops < _MAX_LINKS:  # a symbol: Rails renders that key instead
            text = self.texts.get(text.target)
            hops += 1
        if text is None or isinstance(text, _Link):
            return default
        found = RailsPlural(text, self._rules) if text.__class__ is dict else RailsMessage(text)
        self._compiled[key] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __contains__(self, key: object) -> bool:
        return key in self.texts

    def comment(self, key: str) -> str | None:
        return self._notes.get(key) or None


def _read(data: bytes, tag: LocaleTag) -> YamlMessages:
    text, _, _ = _decode(data)
    reader = _Reader(text)
    _, mapping = _locale_root(_compose(text), tag)
    if mapping is not None:
        reader.walk(mapping, "", 0)
        reader.check_links()
    reader.problems.sort(key=lambda problem: problem.line or 0)
    return YamlMessages(reader, tag)


# --- rendering as I18n.t -------------------------------------------------------------------------------

_INTERPOLATION = re.compile(r"%%|%\{([\w|]+)\}|%<(\w+)>([^\d]*?\d*\.?\d*[bBdiouxXeEfgGcps])", re.A)
_SPEC = re.compile(r"([-+ 0#]*)([0-9]*)(?:\.([0-9]*))?([bBdiouxXeEfgGcps])")
_PRECISION_CAP = 100


class RailsMessage:
    """A Rails message: `%{name}` and `%<name>fmt` interpolated as `I18n.interpolate` does."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return _interpolate(self.source, values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        return frozenset(match.group(1) or match.group(2) for match in _INTERPOLATION.finditer(self.source)
                         if match.group(1) or match.group(2))

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return ()

    def __repr__(self) -> str:
        return f"RailsMessage({self.source!r})"


class RailsPlural:
    """A plural message: the form for `values["count"]` as rails-i18n's pluralization picks it."""

    __slots__ = ("_forms", "_rules", "source")

    def __init__(self, forms: dict[str, str], rules: PluralRules) -> None:
        self._forms = forms
        self._rules = rules
        self.source = forms.get("other", next(iter(forms.values())))

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        forms = self._forms
        count = values.get("count") if values else None
        number = as_number(count)
        if number is None:
            form = forms.get("other")
        elif number == 0 and "zero" in forms:
            form = forms["zero"]
        else:
            form = forms.get(self._rules.cardinal(number)) or forms.get("other")
        if form is None:
            form = next(iter(forms.values()))
        return _interpolate(form, values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        names = {"count"}
        for form in self._forms.values():
            names |= RailsMessage(form).arguments
        return frozenset(names)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return (PluralUse("count", False, frozenset(self._forms)),)

    def __repr__(self) -> str:
        return f"RailsPlural({self._forms!r})"


def _interpolate(text: str, values: Mapping[str, Any] | None, limit: int) -> str:
    if not values or "%" not in text:  # Rails interpolates only when it is given values
        return text[:limit]

    def replace(match: re.Match[str]) -> str:
        whole = match.group()
        if whole == "%%":
            return "%"
        name = match.group(1) or match.group(2)
        if name not in values:
            return whole  # Rails raises MissingInterpolationArgument; the placeholder stays visible
        value = values[name]
        shown = _ruby_to_s(value) if match.group(1) else _ruby_format(match.group(3), value, limit)
        if shown is None:
            return whole
        return shown[:limit]

    return _INTERPOLATION.sub(replace, text)[:limit]


def _ruby_to_s(value: Any) -> str | None:
    kind = value.__class__
    if kind is str:
        return value
    if value is None:
        return ""  # nil.to_s
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is Decimal:
        return str(value)
    if kind is float:
        return _ruby_float(value)
    return None


def _ruby_float(value: float) -> str:
    """Float#to_s: `1.0`, `1.5`, `1.0e+20`, `1.0e-05`, `Infinity`, `NaN`."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    text = repr(value)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        sign = exponent[0] if exponent[0] in "+-" else "+"
        return f"{mantissa}e{sign}{exponent.lstrip('+-').rjust(2, '0')}"
    return text


def _ruby_format(spec: str, value: Any, limit: int) -> str | None:
    """`sprintf("%" + spec, value)` as Ruby's Kernel#format prints it; None when Ruby would raise."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        return None
    flags, width_text, precision_text, conversion = match.groups()
    width = min(int(width_text), limit) if width_text else 0
    precision = min(int(precision_text or "0"), _PRECISION_CAP) if precision_text is not None else None
    if conversion in "sp":
        shown = _ruby_to_s(value) if conversion == "s" else _ruby_inspect(value)
        if shown is None:
            return None
        if precision is not None:
            shown = shown[:precision]
        return _pad(shown, flags, width, numeric=False)
    if conversion == "c":
        if value.__class__ is int and 0 <= value <= 0x10FFFF:
            shown = chr(value)
        elif value.__class__ is str and value:
            shown = value[0]
        else:
            return None
        return _pad(shown, flags, width, numeric=False)
    if conversion in "eEfgG":
        number = _ruby_float_arg(value)
        if number is None:
            return None
        return ("%" + flags + (str(width) if width else "") + ("." + str(precision) if precision is not None else "")
                + conversion) % number
    integer = _ruby_integer_arg(value)
    if integer is None:
        return None
    base = {"b": 2, "B": 2, "o": 8, "x": 16, "X": 16}.get(conversion, 10)
    digits = _digits(abs(integer), base)
    if conversion == "X":
        digits = digits.upper()
    if precision is not None:
        digits = digits.rjust(precision, "0")
    sign = "-" if integer < 0 else "+" if "+" in flags else " " if " " in flags else ""
    prefix = ""
    if "#" in flags and integer:
        prefix = {"b": "0b", "B": "0B", "o": "0", "x": "0x", "X": "0X"}.get(conversion, "")
    if "0" in flags and "-" not in flags and precision is None and width > len(sign + prefix + digits):
        digits = digits.rjust(width - len(sign + prefix), "0")
    return _pad(sign + prefix + digits, flags, width, numeric=True)


def _digits(number: int, base: int) -> str:
    if base == 10:
        return str(number)
    return format(number, {2: "b", 8: "o", 16: "x"}[base])


def _pad(body: str, flags: str, width: int, numeric: bool) -> str:
    if len(body) >= width:
        return body
    if "-" in flags:
        return body.ljust(width)
    return body.rjust(width)


def _ruby_float_arg(value: Any) -> float | None:
    """Kernel#Float: numbers, and strings that spell one."""
    if value.__class__ in (int, float) and value.__class__ is not bool:
        try:
            return float(value)
        except OverflowError:
            return None
    if value.__class__ is str and re.fullmatch(r"\s*[-+]?(?:\d[\d_]*)?(?:\.\d[\d_]*)?(?:[eE][-+]?\d+)?\s*", value) \
            and any(char.isdigit() for char in value):
        return float(value.replace("_", ""))
    return None


def _ruby_integer_arg(value: Any) -> int | None:
    """Kernel#Integer as sprintf's %d uses it: integers, floats (truncated), decimal strings."""
    kind = value.__class__
    if kind is int:
        return value
    if kind is float and math.isfinite(value):
        return int(value)
    if kind is str and re.fullmatch(r"\s*[-+]?[0-9][0-9_]*\s*", value) and len(value) < 400:
        return int(value.replace("_", ""))
    return None


def _ruby_inspect(value: Any) -> str | None:
    if value.__class__ is str:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'
    if value is None:
        return "nil"
    return _ruby_to_s(value)


# --- writing -------------------------------------------------------------------------------------------

_NEWLINE = re.compile(r"\r\n|\r|\n")
_PROPERTIES = re.compile(r"(?:[&!][^\s]*\s+)*")
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")


def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in _NEWLINE.finditer(text)]


def _line_start(text: str, pos: int) -> int:
    """Where the line holding `pos` starts."""
    return max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1


def _previous_line_start(text: str, start: int) -> int:
    """Where the line before the one starting at `start` starts (a CRLF is one line break)."""
    before = start - 1
    if before > 0 and text[before] == "\n" and text[before - 1] == "\r":
        before -= 1
    return _line_start(text, before)


def _line_end(text: str, pos: int) -> int:
    """The end of the line holding `pos`, before its line break."""
    found = _NEWLINE.search(text, pos)
    return found.start() if found else len(text)


def _next_line(text: str, pos: int) -> int:
    """The start of the line after the one holding `pos` (the end of the text on the last line)."""
    found = _NEWLINE.search(text, pos)
    return found.end() if found else len(text)


def _plain_ok(value: str, flow: bool) -> bool:
    """Whether `value` written plain reads back as this same string, in Psych and in libyaml."""
    if not value or value != value.strip(" \t") or value[0] in _INDICATORS:
        return False
    if any(char < " " or char in "\x7f\x85\u2028\u2029\ufeff" for char in value):
        return False
    if ": " in value or " #" in value or value.endswith(":") or "\t" in value:
        return False
    if flow and any(char in value for char in ",[]{}"):
        return False
    return _psych_type(value) == "str" and value not in ("<<", "=")


def _single(value: str) -> str | None:
    if any(char < " " or char in "\x7f\x85\u2028\u2029\ufeff" for char in value):
        return None
    return "'" + value.replace("'", "''") + "'"


_DOUBLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0", "\x85": "\\N",
                   "\u2028": "\\L", "\u2029": "\\P", "\ufeff": "\\uFEFF"}


def _double(value: str) -> str:
    out = ['"']
    for char in value:
        escaped = _DOUBLE_ESCAPES.get(char)
        if escaped is None and (char < " " or char == "\x7f"):
            escaped = f"\\x{ord(char):02X}"
        out.append(escaped or char)
    out.append('"')
    return "".join(out)


def _quoted(value: str, style: str) -> str:
    """`value` as a single- or double-quoted scalar, the quote style `style` when it can hold it."""
    if style == "'":
        single = _single(value)
        if single is not None:
            return single
    return _double(value)


def _block(value: str, style: str, indent: str, newline: str) -> str | None:
    """`value` as a literal or folded block scalar with its header, or None when one cannot hold it
    without an indentation indicator or keep-chomping."""
    if not value or value[0] in " \t\n" or any(char < " " and char not in "\n" for char in value) or "\r" in value:
        return None
    body = value.rstrip("\n")
    trailing = len(value) - len(body)
    if trailing > 1:
        return None
    chomp = "" if trailing == 1 else "-"
    lines = body.split("\n")
    if style == ">":
        if any(line[:1] in (" ", "\t") for line in lines if line):
            return None  # more-indented lines keep their breaks in a folded scalar: not worth the risk
        written: list[str] = []
        for line in lines:  # a single break folds into a space: write each break as an empty line
            if written:
                written.append("")
            written.append(line)
        lines = written
    return style + chomp + "".join(newline + (indent + line if line else "") for line in lines)


class _Located:
    """One key of the Document: where its key and value are, and in which mapping."""

    __slots__ = ("key", "value", "parent", "plural")

    def __init__(self, key: _Scalar, value: _Node, parent: _Map,
                 plural: dict[str, tuple[_Scalar, _Node]] | None) -> None:
        self.key = key
        self.value = value
        self.parent = parent
        self.plural = plural


class YamlDocument(Document):
    """A Rails YAML file being edited: its text, parsed again after each change."""

    def __init__(self, data: bytes, tag: LocaleTag) -> None:
        self._data = data
        self._tag = tag
        self._text, self._codec, self._bom = _decode(data)
        self._changed = False
        self._parse()

    def _parse(self) -> None:
        self._root_key, self._root = _locale_root(_compose(self._text), self._tag)
        self._index: dict[str, _Located] = {}
        self._maps: dict[str, _Map] = {}
        if self._root is not None:
            self._walk(self._root, "", 0)

    def _walk(self, mapping: _Map, prefix: str, depth: int) -> None:
        if depth > _MAX_DEPTH:
            return
        self._maps[prefix.rstrip(".")] = mapping
        for key, value in mapping.items:
            if _is_merge(key) or not isinstance(key, _Scalar):
                continue
            name, _ = _key_name(key)
            if name is None:
                continue
            full = prefix + name
            target = _resolve(value)
            if isinstance(target, _Scalar):
                if target.kind == "str":
                    self._index[full] = _Located(key, value, mapping, None)
            elif isinstance(target, _Map) and isinstance(value, _Map):
                forms = self._in_place_forms(target)
                if forms is not None:
                    self._index[full] = _Located(key, value, mapping, forms)
                else:
                    self._walk(target, full + ".", depth + 1)

    @staticmethod
    def _in_place_forms(mapping: _Map) -> dict[str, tuple[_Scalar, _Node]] | None:
        forms: dict[str, tuple[_Scalar, _Node]] = {}
        for key, value in mapping.items:
            if not isinstance(key, _Scalar) or _is_merge(key):
                return None
            name, _ = _key_name(key)
            target = _resolve(value)
            if name not in _PLURAL_KEYS or not isinstance(target, _Scalar) or target.kind != "str":
                return None
            forms[name] = (key, value)
        return forms if forms and ("one" in forms or "other" in forms) else None

    # --- reading the Document ---

    def keys(self) -> list[str]:
        return list(self._index)

    def get(self, key: str) -> Value | None:
        found = self._index.get(key)
        if found is None:
            return None
        if found.plural is not None:
            return {name: _text_of(value) for name, (_, value) in found.plural.items()}
        return _text_of(found.value)

    def line_of(self, key: str) -> int | None:
        found = self._index.get(key)
        return found.key.line + 1 if found else None

    # --- changing it ---

    def set(self, key: str, value: Value) -> None:
        found = self._index.get(key)
        if found is None:
            raise KeyError(f"{key!r} is not a message of this YAML file; use add")
        if self.get(key) == value:
            return
        if isinstance(value, str) and found.plural is None:
            self._set_scalar(found.value, found.parent.flow, value)
            return
        if isinstance(value, dict) and found.plural is not None:
            self._set_forms(key, value)
            return
        self._replace_value(found, value)

    def _set_scalar(self, node: _Node, flow: bool, value: str) -> None:
        text = self._text
        if isinstance(node, _Alias):  # the key gets its own text; the anchor keeps its own
            self._splice(node.start, node.end, self._new_scalar(value, flow))
            return
        assert isinstance(node, _Scalar)
        scalar = node
        properties = _PROPERTIES.match(text, scalar.start).end()  # type: ignore[union-attr]  # &anchor !tag
        style = scalar.style
        written: str | None = None
        end = scalar.end
        if style in ("|", ">"):
            end = self._block_end(scalar)
            written = _block(value, style, self._block_indent(scalar), self._newline())
        elif style == "" and _plain_ok(value, flow):
            written = value
        if written is None:  # plain becomes single-quoted, a block double-quoted, when they cannot hold it
            written = _quoted(value, style if style in ("'", '"') else "'" if style == "" else '"')
        self._splice(properties, end, written)

    def _block_end(self, scalar: _Scalar) -> int:
        """The end of a block scalar's last line of text, before its line break (libyaml's end mark is
        past the blank lines that follow)."""
        text = self._text
        end = scalar.end
        while end > scalar.start:
            line = _line_start(text, end - 1) if text[end - 1] not in "\r\n" else _previous_line_start(text, end)
            content_end = _line_end(text, line)
            if text[line:content_end].strip(" \t") or line <= scalar.start:
                return max(content_end, scalar.start)
            end = line
        return _line_end(text, scalar.start)

    def _block_indent(self, scalar: _Scalar) -> str:
        """The indentation of a block scalar's text (from its first line that has some)."""
        text = self._text
        position = _next_line(text, scalar.start)
        while position < scalar.end:
            line = text[position:_line_end(text, position)]
            if line.strip():
                return line[:len(line) - len(line.lstrip(" "))]
            position = _next_line(text, position)
        return " " * (self._column_of_key(scalar) + self._step())

    def _column_of_key(self, node: _Node) -> int:
        text = self._text
        start = _line_start(text, node.start)
        line = text[start:node.start]
        return len(line) - len(line.lstrip(" "))

    def _set_forms(self, key: str, value: dict[str, str]) -> None:
        """Each form set, dropped or added in turn (the file is parsed again after each)."""
        for name in [*value, *(name for name in self._forms(key) if name not in value)]:
            forms = self._forms(key)
            mapping = self._index[key].value
            assert isinstance(mapping, _Map)
            if name not in value:
                self._remove_item(mapping, *forms[name])
            elif name not in forms:
                self._insert(mapping, [name], value[name])
            elif _text_of(forms[name][1]) != value[name]:
                self._set_scalar(forms[name][1], mapping.flow, value[name])

    def _forms(self, key: str) -> dict[str, tuple[_Scalar, _Node]]:
        forms = self._index[key].plural
        assert forms is not None
        return forms

    def _replace_value(self, found: _Located, value: Value) -> None:
        """A message that changes shape (text to plural forms or back): its value is written anew."""
        text = self._text
        colon = text.index(":", found.key.end)
        end = self._entry_end(found.value)
        if found.parent.flow or getattr(found.value, "flow", False):
            written = " " + self._flow_value(value)
        elif isinstance(value, dict):
            indent = " " * (found.key.column + self._step())
            written = "".join(f"{self._newline()}{indent}{self._new_key(name)}: {self._new_scalar(form, False)}"
                              for name, form in value.items())
        else:
            written = " " + self._new_scalar(value, False)
        self._splice(colon + 1, end, written)

    def add(self, key: str, value: Value) -> None:
        if key in self._index:
            raise KeyError(f"{key!r} is already a message of this YAML file; use set")
        segments = key.split(".")
        if any(not segment for segment in segments):
            raise KeyError(f"{key!r} has an empty segment: Rails keys are names joined by dots")
        if self._root is None:
            self._add_root(segments, value)
            return
        depth = len(segments) - 1
        while depth > 0 and ".".join(segments[:depth]) not in self._maps:
            depth -= 1
        parent_path = ".".join(segments[:depth])
        mapping = self._maps[parent_path]
        rest = segments[depth:]
        existing = self._child(mapping, rest[0])
        if existing is None:
            self._insert(mapping, rest, value)
            return
        if len(rest) > 1 and isinstance(existing, _Scalar) and existing.kind == "null" and not mapping.flow:
            item_key = next(item for item, item_value in mapping.items if item_value is existing)
            colon = self._text.index(":", item_key.end)
            lines = self._block_lines(rest[1:], value, " " * (self._column_of_key(item_key) + self._step()))
            self._splice(colon + 1, max(existing.end, colon + 1), "".join(self._newline() + line for line in lines))
            return
        raise KeyError(f"{'.'.join(segments[:depth + 1])!r} already holds a value that is not a mapping of "
                       f"messages, so {key!r} cannot go under it")

    def _child(self, mapping: _Map, name: str) -> _Node | None:
        for key, value in mapping.items:
            if not _is_merge(key) and _key_name(key)[0] == name:
                return value
        return None

    def _insert(self, mapping: _Map, path: list[str], value: Value) -> None:
        """Write `path` (keys, the last one holding `value`) into `mapping`, after its last item."""
        text = self._text
        newline = self._newline()
        if mapping.flow:
            entry = self._flow_entry(path, value)
            if mapping.items:
                at = mapping.items[-1][1].end
                self._splice(at, at, ", " + entry)
            else:
                at = text.index("{", mapping.start) + 1
                self._splice(at, at, entry)
            return
        if mapping.items:
            indent = " " * self._column_of_key(mapping.items[0][0])
            last_key, last_value = mapping.items[-1]
            end = self._entry_end(last_value)
            at = _line_end(text, end)
        else:
            indent = " " * mapping.column
            at = _line_end(text, mapping.start)
        lines = self._block_lines(path, value, indent)
        self._splice(at, at, "".join(newline + line for line in lines))

    def _block_lines(self, path: list[str], value: Value, indent: str) -> list[str]:
        step = " " * self._step()
        lines = []
        for depth, name in enumerate(path[:-1]):
            lines.append(f"{indent}{step * depth}{self._new_key(name)}:")
        inner = indent + step * (len(path) - 1)
        if isinstance(value, dict):
            lines.append(f"{inner}{self._new_key(path[-1])}:")
            lines.extend(f"{inner}{step}{self._new_key(name)}: {self._new_scalar(form, False)}"
                         for name, form in value.items())
        else:
            lines.append(f"{inner}{self._new_key(path[-1])}: {self._new_scalar(value, False)}")
        return lines

    def _flow_entry(self, path: list[str], value: Value) -> str:
        written = self._flow_value(value)
        for name in reversed(path[1:]):
            written = f"{{{self._new_key(name)}: {written}}}"
        return f"{self._new_key(path[0])}: {written}"

    def _flow_value(self, value: Value) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self._new_key(name)}: {self._new_scalar(form, True)}"
                                   for name, form in value.items()) + "}"
        return self._new_scalar(value, True)

    def _add_root(self, segments: list[str], value: Value) -> None:
        """The file has no messages yet: the locale's root key gets the first."""
        newline = self._newline()
        lines = self._block_lines(segments, value, " " * self._step())
        body = "".join(newline + line for line in lines)
        if self._root_key is not None:  # `en:` with nothing under it
            at = _line_end(self._text, self._root_key.end)
            self._splice(at, at, body)
            return
        start = "" if not self._text or self._text.endswith(("\n", "\r")) else newline
        spelling = self._new_key(self._tag.code)
        self._splice(len(self._text), len(self._text), f"{start}{spelling}:{body}{newline}")

    def delete(self, key: str) -> None:
        found = self._index.get(key)
        if found is None:
            raise KeyError(f"{key!r} is not a message of this YAML file")
        self._remove_item(found.parent, found.key, found.value)
        # A parent left empty goes too (not the locale's root): `cart:` with nothing under it is nil.
        segments = key.split(".")
        for depth in range(len(segments) - 1, 0, -1):
            parent = self._maps.get(".".join(segments[:depth - 1]))
            if parent is None:
                break
            item = next(((item_key, item_value) for item_key, item_value in parent.items
                         if not _is_merge(item_key) and _key_name(item_key)[0] == segments[depth - 1]), None)
            if item is None:
                break
            item_key, item_value = item
            emptied = (isinstance(item_value, _Scalar) and item_value.kind == "null" and not item_value.style
                       and item_value.value == "") or (isinstance(item_value, _Map) and not item_value.items)
            if not emptied:
                break
            self._remove_item(parent, item_key, item_value)

    def _remove_item(self, mapping: _Map, key: _Node, value: _Node) -> None:
        text = self._text
        if mapping.flow:
            items = mapping.items
            index = next(i for i, (item_key, _) in enumerate(items) if item_key is key)
            if index + 1 < len(items):
                start, end = key.start, items[index + 1][0].start
            elif index > 0:
                start, end = items[index - 1][1].end, self._flow_item_end(value)
            else:
                start, end = key.start, self._flow_item_end(value)
            self._splice(start, end, "")
            return
        first = _line_start(text, key.start)
        comment = self._owned_comment(first, key, value)
        if comment is not None:
            first = comment
        end = _next_line(text, self._entry_end(value))
        if end >= len(text) and not text.endswith(("\n", "\r")) and first > 0:
            first -= 2 if text[:first].endswith("\r\n") else 1  # the file ends without a line break: keep it so
        self._splice(first, end, "")

    def _flow_item_end(self, value: _Node) -> int:
        return value.end

    def _entry_end(self, value: _Node) -> int:
        """Where an entry's text ends: its value's (a block scalar's last text line)."""
        if isinstance(value, _Scalar) and value.style in ("|", ">"):
            return self._block_end(value)
        if isinstance(value, (_Map, _Seq)) and not value.flow:
            items = value.items
            if not items:
                return value.start
            last: _Node = items[-1][1] if isinstance(value, _Map) else items[-1]  # type: ignore[index,assignment]
            return self._entry_end(last)
        return value.end

    def _owned_comment(self, first: int, key: _Node, value: _Node) -> int | None:
        """The start of the comment lines right above an entry, when they are its own: not when they
        stand after a blank line (or at the top) and a sibling follows the entry on the next line
        (then the comment heads that run of keys)."""
        text = self._text
        start = first
        while start > 0:
            previous = _previous_line_start(text, start)
            line = text[previous:start].strip()
            if not line.startswith("#"):
                break
            start = previous
        if start == first:
            return None
        if start > 0 and text[_previous_line_start(text, start):start].strip():
            return start  # right under other text (its parent key, a sibling): the entry's own
        following = _next_line(text, self._entry_end(value))
        next_line = text[following:_line_end(text, following)]
        if next_line.strip() and not next_line.lstrip().startswith("#"):
            column = len(next_line) - len(next_line.lstrip(" "))
            if column == self._column_of_key(key):
                return None
        return start

    # --- the file's style ---

    def _splice(self, start: int, end: int, text: str) -> None:
        self._text = self._text[:start] + text + self._text[end:]
        self._changed = True
        self._parse()

    def _newline(self) -> str:
        found = _NEWLINE.search(self._text)
        return found.group() if found else "\n"

    def _step(self) -> int:
        """The file's indentation step: how far its first nested key sits right of its parent."""
        root = self._root
        if root is not None and root.items:
            outer = self._column_of_key(self._root_key) if self._root_key is not None else 0
            inner = self._column_of_key(root.items[0][0])
            if inner > outer:
                return inner - outer
        return 2

    def _quote_style(self) -> str:
        """How the file writes its texts: "" (plain where it can), "'" or '"', by majority."""
        counts = {"": 0, "'": 0, '"': 0}
        for located in self._index.values():
            nodes = [value for _, value in located.plural.values()] if located.plural else [located.value]
            for node in nodes:
                if not isinstance(node, _Scalar) or node.style not in counts:
                    continue
                if node.style and not _plain_ok(node.value, False):
                    continue  # quotes it needs say nothing about the file's taste
                counts[node.style] += 1
        best = max(counts, key=lambda style: counts[style])
        return best if counts[best] else ""

    def _new_scalar(self, value: str, flow: bool) -> str:
        style = self._quote_style()
        if style == "" and _plain_ok(value, flow):
            return value
        return _quoted(value, style or "'")

    def _new_key(self, name: str) -> str:
        return name if _plain_ok(name, True) and name != "<<" else _quoted(name, "'")

    def to_bytes(self) -> bytes:
        if not self._changed:
            return self._data
        return ((_BOM if self._bom else "") + self._text).encode(self._codec)


# --- the format ----------------------------------------------------------------------------------------


class YamlFormat(CatalogFormat):
    """Rails i18n and i18n-js YAML (`config/locales/pt-BR.yml`)."""

    name = "yaml"
    suffixes = (".yml", ".yaml")

    def read(self, data: bytes, tag: LocaleTag) -> LocaleMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> Document:
        return YamlDocument(data, tag)

    def locale_spelling(self, tag: LocaleTag) -> str:
        """As Rails and rails-i18n spell locales: `pt-BR`, `zh-TW`."""
        return tag.code
