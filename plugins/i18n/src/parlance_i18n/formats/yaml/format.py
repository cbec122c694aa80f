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
  overwrites the keys before it and is overwritten by those after it. Following them is bounded:
  reading may visit at most `EXPANSION_FACTOR` (10) times the nodes the file writes, and never
  fewer than `EXPANSION_FLOOR` (10,000); past that the file is refused (`CatalogFileError`) as an
  alias bomb. Real Rails catalogs reuse through `<<: *defaults` merges and the odd scalar alias, so
  their expansion stays within a few times their size (each merge re-reads one small mapping); the
  floor keeps a small file that merges one mapping into many places readable. A bomb (nine levels
  of nine aliases, 9^9 keys from 700 bytes) grows exponentially and meets the bound within a few
  levels, after work and memory proportional to the file;
- a value with a tag that is none of YAML's own types (`!!python/object/apply:...`,
  `!ruby/object:...`; Ruby's own `!ruby/hash:...` is a hash like any other) is no message, nor a
  hash of them: it is reported and left out;
- a mapping whose keys are all CLDR plural categories (`zero one two few many other`), with `one`
  or `other` among them, is one plural message: a `dict` of forms;
- a duplicate key keeps its last value, as Psych does; the earlier one is reported.

Messages render as `I18n.t` renders them (`yaml.interpolation`: `%{name}`, `%<name>.2f`, plural
forms by `values["count"]` with Rails' zero rule). Editing (`yaml.document`) splices scalars into
the original text. YAML is read as Psych reads it by `psych`.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    CatalogFormat,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
)
from parlance_i18n.formats.shared.limits import check_text, too_many_messages
from parlance_i18n.formats.shared.messages import TextMessages, later_one_used
from parlance_i18n.formats.shared.textedit import line_starts
from parlance_i18n.formats.yaml.interpolation import RailsMessage, RailsPlural, reserved_name
from parlance_i18n.formats.yaml.keys import MAX_DEPTH, PLURAL_KEYS, key_name, locale_root
from parlance_i18n.formats.yaml.psych import (
    Map,
    Node,
    Scalar,
    Seq,
    compose,
    decode,
    is_merge,
    resolve,
    symbol_name,
)
from parlance_i18n.icu.plurals import plural_rules
from parlance_i18n.locales import LocaleTag

_YAML11_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
"""Plain words YAML 1.1 (Psych) reads as booleans or null: a root key spelled so is quoted."""

if TYPE_CHECKING:  # the editor loads when a file is edited, not when it is read
    from parlance_i18n.formats.yaml.document import YamlDocument

__all__ = ["EXPANSION_FACTOR", "EXPANSION_FLOOR", "YamlFormat", "YamlMessages"]

_MAX_LINKS = 10
EXPANSION_FACTOR = 10
"""How many times the nodes a file writes its aliases may make reading visit (see the module docstring)."""
EXPANSION_FLOOR = 10_000
"""Visits any file may make, however few nodes it writes."""


# --- reading -------------------------------------------------------------------------------------------


class _Link:
    """A value that is a Ruby symbol: Rails renders the message at that key instead."""

    __slots__ = ("target", "source")

    def __init__(self, target: str, source: str) -> None:
        self.target = target
        self.source = source


class _Reader:
    """The locale's messages, as the i18n gem stores them after `deep_symbolize_keys`."""

    def __init__(self, text: str, written: int, limits: ReadLimits) -> None:
        self.texts: dict[str, Any] = {}
        self.problems: list[Problem] = []
        self.notes: dict[str, str] = {}  # only the keys that have a comment
        self.link_lines: dict[str, int] = {}
        self._comment_lines = _comment_lines(text) if "#" in text else {}
        self._limits = limits
        self._written = written
        self._visits = self._allowed = max(EXPANSION_FACTOR * written, EXPANSION_FLOOR)

    def _visit(self, count: int) -> None:
        """Count `count` more nodes visited (through aliases and merges as well); refuse the file
        once it has cost more than the file's size allows."""
        self._visits -= count
        if self._visits < 0:
            raise CatalogFileError(
                f"the file's anchors and aliases expand to more than {self._allowed:,} keys and values "
                f"({EXPANSION_FACTOR} times the {self._written:,} it writes, at least {EXPANSION_FLOOR:,}): a "
                "Rails catalog reuses a mapping a few times at most, so this looks like an alias bomb; write "
                "the keys out instead of aliasing mappings of aliases")

    def walk(self, mapping: Map, prefix: str, depth: int,
             entries: list[tuple[str, Node, Node]] | None = None) -> None:
        if depth > MAX_DEPTH:
            self.problems.append(Problem(prefix.rstrip(".") or None, mapping.line + 1,
                                         f"the keys nest deeper than {MAX_DEPTH} levels"))
            return
        for name, key, value in entries if entries is not None else self._entries(mapping, prefix, depth, True):
            full = prefix + name
            line = key.line + 1
            target = resolve(value)
            foreign = target.foreign_tag
            if foreign is not None:
                self.problems.append(Problem(full, line, (
                    f"the value has the tag {foreign[:60]}, which is none of YAML's own types: Ruby's YAML builds an "
                    "object from it (or refuses the file), so it holds no message; remove the tag")))
                continue
            if isinstance(target, Scalar):
                scalar_kind = target.kind
                if scalar_kind == "str":
                    self._message(full, line, target.value)
                elif scalar_kind == "symbol":
                    self._store(full, line, _Link(symbol_name(target.value), target.value))
                    self.link_lines[full] = line
                elif scalar_kind == "null":
                    self.problems.append(Problem(full, line, "the key has no value (empty or ~ is nil in Ruby, so "
                                                             "Rails treats the key as missing): give it a text"))
            elif isinstance(target, Map):
                # Problems inside a mapping are reported where it is written, not where it is merged in.
                children = self._entries(target, full + ".", depth + 1, value is target)
                forms = _plural_forms(children)
                if forms is not None:
                    self._plural(full, line, forms)
                else:
                    self.walk(target, full + ".", depth + 1, children)
            # Sequences (day names, ...), numbers, booleans and dates are data for Rails' own
            # formatting helpers, not messages: left out without a problem.

    def _entries(self, mapping: Map, prefix: str, depth: int, report: bool) -> list[tuple[str, Node, Node]]:
        """The mapping's (name, key, value) as Psych builds the Ruby hash: merges in order, the last
        of equal keys winning at the place of the first; unreachable keys and duplicates reported."""
        found: dict[str, tuple[Node, Node, bool]] = {}  # name -> (key, value, written here)
        self._visit(len(mapping.items))
        for key, value in mapping.items:
            if is_merge(key):
                for merged_name, merged_key, merged_value in self._merged(value, prefix, depth):
                    found[merged_name] = (merged_key, merged_value, False)
                continue
            name, reason = key_name(key)
            if name is None:
                if report:
                    self.problems.append(Problem(prefix + (getattr(key, "value", "") or "")[:40], key.line + 1,
                                                 reason or "the key cannot be looked up"))
                continue
            earlier = found.get(name)
            if report and earlier is not None and earlier[2]:
                self.problems.append(later_one_used(prefix + name, earlier[0].line + 1, key.line + 1, "as in Rails"))
            found[name] = (key, value, True)
        return [(name, key, value) for name, (key, value, _) in found.items()]

    def _merged(self, value: Node, prefix: str, depth: int) -> list[tuple[str, Node, Node]]:
        target = resolve(value)
        if depth > MAX_DEPTH:
            return []
        if isinstance(target, Map):
            return self._entries(target, prefix, depth + 1, False)
        if isinstance(target, Seq):
            merged: dict[str, tuple[str, Node, Node]] = {}
            self._visit(len(target.items))
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
        self._unless_reserved(key, line, text, (text,), "the message uses")

    def _plural(self, key: str, line: int, forms: dict[str, str]) -> None:
        self._unless_reserved(key, line, forms, tuple(forms.values()), "a plural form uses")

    def _unless_reserved(self, key: str, line: int, value: Any, texts: tuple[str, ...], what: str) -> None:
        """Store `value` unless one of its `texts` interpolates a name I18n reserves (then Rails raises)."""
        for text in texts:
            reserved = reserved_name(text)
            if reserved is not None:
                self._reject(key, line, f"{what} %{{{reserved}}}, a name I18n reserves for its own options, so "
                                        "Rails raises ReservedInterpolationKey: rename it")
                return
        self._store(key, line, value)

    def _store(self, key: str, line: int, value: Any) -> None:
        self.texts[key] = value
        if len(self.texts) > self._limits.max_messages:
            raise too_many_messages(self._limits)
        if line - 1 in self._comment_lines:
            note = self._comment_above(line)
            if note:
                self.notes[key] = note
            else:  # a bare `#` above: no comment, nor the one an earlier definition had
                self.notes.pop(key, None)

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
    starts = line_starts(text)
    return {bisect.bisect_right(starts, match.start()): match.group(1).strip()
            for match in _COMMENT_LINE.finditer(text)}


def _plural_forms(entries: list[tuple[str, Node, Node]]) -> dict[str, str] | None:
    """The forms of a plural mapping (all keys CLDR categories, `one` or `other` among them, all
    values strings), else None."""
    if not entries or len(entries) > len(PLURAL_KEYS):
        return None
    forms: dict[str, str] = {}
    for name, _, value in entries:
        if name not in PLURAL_KEYS:
            return None
        target = resolve(value)
        if not isinstance(target, Scalar) or target.kind != "str":
            return None
        forms[name] = target.value
    return forms if "one" in forms or "other" in forms else None


_COMMENT_LINE = re.compile(r"^[ \t]*#([^\r\n]*)", re.M)


class YamlMessages(TextMessages[Any]):
    """One locale's messages of a Rails YAML file: texts held, compiled on first use."""

    def __init__(self, reader: _Reader, tag: LocaleTag) -> None:  # keeps what it needs, not the reader
        super().__init__(reader.texts, reader.notes, reader.problems)
        self._rules = plural_rules(tag)

    def text(self, key: str) -> Value | None:
        found = self.texts.get(key)
        if isinstance(found, _Link):
            return found.source
        return found

    def _compile(self, key: str, text: Any) -> Renderable:
        hops = 0
        while isinstance(text, _Link) and hops < _MAX_LINKS:  # a symbol: Rails renders that key instead
            text = self.texts.get(text.target)
            hops += 1
        if text is None or isinstance(text, _Link):  # reading left out every symbol that leads nowhere
            raise ValueError("the Ruby symbol leads to no message of this file")
        return RailsPlural(text, self._rules) if text.__class__ is dict else RailsMessage(text)


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits) -> YamlMessages:
    text, _, _ = decode(data)
    check_text(text, limits)
    root, written = compose(text)
    reader = _Reader(text, written, limits)
    _, mapping = locale_root(root, tag)
    if mapping is not None:
        reader.walk(mapping, "", 0)
        reader.check_links()
    reader.problems.sort(key=lambda problem: problem.line or 0)
    return YamlMessages(reader, tag)


# --- the format ----------------------------------------------------------------------------------------


class YamlFormat(CatalogFormat):
    """Rails i18n and i18n-js YAML (`config/locales/pt-BR.yml`)."""

    frameworks = ("rails",)

    placeholder_pattern = re.compile(r"%\{[^{}]+\}|%<[^<>]+>[a-zA-Z]")
    plural_forms = True

    def placeholder(self, name: str) -> str:
        return f"the placeholder %{{{name}}}"

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> YamlMessages:
        return _read(data, tag, limits)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> YamlDocument:
        from parlance_i18n.formats.yaml.document import YamlDocument  # reading never needs the editor

        return YamlDocument(data, tag, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """The locale's root key alone (`pt-BR:`), as rails-i18n files start; quoted where YAML 1.1
        would read it as something else (Norwegian `no:` is `false` to Psych)."""
        code = tag.code
        plain = re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", code) and code.lower() not in _YAML11_WORDS
        return (f"{code}:\n" if plain else f"\"{code}\":\n").encode()

    def locale_spelling(self, tag: LocaleTag) -> str:
        """As Rails and rails-i18n spell locales: `pt-BR`, `zh-TW`."""
        return tag.code
