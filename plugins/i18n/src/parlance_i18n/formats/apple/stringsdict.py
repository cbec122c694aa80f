"""Apple `.stringsdict` plural catalogs (XML property lists), rendered as Foundation's
`String.localizedStringWithFormat` does.

An entry is a key whose dict has an `NSStringLocalizedFormatKey` (e.g. `%#@files@`, or `%@ has
%#@files@`) and, for each `%#@name@` it names, a variable dict with `NSStringFormatSpecTypeKey` =
`NSStringPluralRuleType`, an optional `NSStringFormatValueTypeKey` (`d`, `lld`, ...) and its forms
`zero`, `one`, `two`, `few`, `many`, `other`.

Values (what `text` and the Document give and take):

- one variable and a format that is only that variable (`%#@files@`, the usual case): a dict of
  forms by category, `{"one": "%d file", "other": "%d files"}`;
- otherwise (text around the variable, or several variables): a dict with the format under
  `"NSStringLocalizedFormatKey"` and each form under `"<variable>.<category>"`, e.g.
  `{"NSStringLocalizedFormatKey": "%#@files@ in %#@folders@", "files.one": "%d file", ...}`.

Rendering is Foundation's (`foundation_plural`): each variable's form chosen by its count, then
the whole formatted as `String(format:)` formats it.

Problems (the entry is skipped): a rule type other than plural, a variable without an `other`
form, a format naming a variable the entry does not define, a specifier Foundation would refuse,
a duplicate key, an entry that is not a dict. A binary plist or a top level that is not a dict of
keys cannot be read at all. The DOCTYPE every plist carries is accepted and never fetched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlance_i18n.formats.apple.base import AppleFormat
from parlance_i18n.formats.apple.foundation_plural import VARIABLE, EntryTexts, PluralFormat, entry_problem
from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    Document,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
)
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.messages import TextMessages, first_one_used
from parlance_i18n.formats.shared.spelling import lproj_locale
from parlance_i18n.formats.shared.xmledit import XmlDocument, content_edit, escape_text, line_extent
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlFile, XmlNode, scan, unescape
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["FORMAT_KEY", "PLIST_DOCTYPES", "StringsdictDocument", "StringsdictFormat", "StringsdictMessages"]

FORMAT_KEY = "NSStringLocalizedFormatKey"
_SPEC_TYPE = "NSStringFormatSpecTypeKey"
_VALUE_TYPE = "NSStringFormatValueTypeKey"
_PLURAL_RULE = "NSStringPluralRuleType"
PLIST_DOCTYPES = ("-//Apple//DTD PLIST 1.0//EN", "-//Apple Computer//DTD PLIST 1.0//EN")
_ORDER = {category: index for index, category in enumerate(CATEGORIES)}
_TREE_DEPTH = 2
"""The levels of elements built when a file is parsed: its top-level dict and that dict's keys and
values. An entry's own elements are built when it is first looked at; reading takes most entries
straight from their text (`_plain_texts`)."""


class _Invalid(Exception):
    """Why one entry cannot be used; becomes a Problem."""


def _value(texts: EntryTexts) -> dict[str, str]:
    """The Document's value of an entry: its forms alone, or the format with `variable.category`s."""
    format_text, variables = texts
    only = VARIABLE.fullmatch(format_text)
    if len(variables) == 1 and only and only.group(1) == variables[0][0]:
        return dict(variables[0][1])
    value = {FORMAT_KEY: format_text}
    for name, forms in variables:
        value.update((f"{name}.{category}", text) for category, text in forms)
    return value


# --- the property list --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Pair:
    """A `<key>` of a dict and the element after it."""

    name: str
    key: XmlNode
    value: XmlNode


@dataclass(slots=True)
class _Variable:
    name: str
    pair: _Pair
    forms: dict[str, _Pair]
    value_type: str | None


@dataclass(slots=True)
class _Entry:
    name: str
    pair: _Pair
    format: _Pair
    variables: dict[str, _Variable] = field(default_factory=dict)


def _pairs(file: XmlFile, dictionary: XmlNode) -> list[_Pair]:
    elements = list(dictionary.elements())
    pairs = []
    for index in range(0, len(elements), 2):
        key = elements[index]
        if key.name != "key" or index + 1 >= len(elements) or elements[index + 1].name == "key":
            raise _Invalid(f"its dict is not a list of <key> and value pairs (line {key.line})")
        pairs.append(_Pair(unescape(file.content(key)), key, elements[index + 1]))
    return pairs


def _string(file: XmlFile, node: XmlNode, what: str) -> str:
    if node.name != "string":
        raise _Invalid(f"its {what} is a <{node.name[:20]}>, not a <string>")
    return unescape(file.content(node))


def _top(file: XmlFile) -> list[_Pair]:
    root = file.root
    top = root.first("dict") if root.name == "plist" else None
    if top is None:
        raise CatalogFileError("the file is not a property list with a top-level <dict>", root.line)
    try:
        return _pairs(file, top)
    except _Invalid as invalid:
        raise CatalogFileError(f"the top-level dict cannot be read: {invalid}", top.line) from None


def _entry(file: XmlFile, pair: _Pair) -> _Entry:
    if pair.value.name != "dict":
        raise _Invalid(f"its value is a <{pair.value.name[:20]}>, not a <dict>")
    format_pair = None
    variables: dict[str, _Variable] = {}
    for inner in _pairs(file, pair.value):
        if inner.name == FORMAT_KEY:
            _string(file, inner.value, FORMAT_KEY)
            format_pair = inner
            continue
        if inner.value.name != "dict":
            raise _Invalid(f"its {inner.name[:40]!r} is a <{inner.value.name[:20]}>, not a variable <dict>")
        forms: dict[str, _Pair] = {}
        rule = value_type = None
        for setting in _pairs(file, inner.value):
            if setting.name == _SPEC_TYPE:
                rule = _string(file, setting.value, _SPEC_TYPE)
            elif setting.name == _VALUE_TYPE:
                value_type = _string(file, setting.value, _VALUE_TYPE)
            elif setting.name in _ORDER:
                _string(file, setting.value, f"{setting.name!r} form")
                if setting.name in forms:
                    raise _Invalid(f"its variable {inner.name!r} gives the {setting.name!r} form twice")
                forms[setting.name] = setting
        if rule != _PLURAL_RULE:
            raise _Invalid(f"its variable {inner.name[:40]!r} has the rule type {rule!r}; only "
                           f"{_PLURAL_RULE} is supported")
        variables[inner.name] = _Variable(inner.name, inner, forms, value_type)
    if format_pair is None:
        raise _Invalid(f"it has no {FORMAT_KEY}")
    return _Entry(pair.name, pair, format_pair, variables)


_CATEGORY = {category: category for category in CATEGORIES}


def _texts(file: XmlFile, entry: _Entry, shared: dict[str, str] | None = None) -> EntryTexts:
    """An entry's texts. `shared` (kept while a file is read) makes repeated formats and variable
    names (`%#@count@`, `count`) one string each; categories are always the module's own."""
    common = shared.setdefault if shared is not None else (lambda text, _: text)
    format_text = unescape(file.content(entry.format.value))
    return (common(format_text, format_text),
            tuple((common(name, name), tuple((_CATEGORY[category], unescape(file.content(form.value)))
                                             for category, form in variable.forms.items()))
                  for name, variable in entry.variables.items()))


# The elements of an entry as almost every entry is written: <key> and <string> holding text, <dict>
# and </dict>, all without attributes.
_PLAIN_PIECE = re.compile(r"<(key|string)>([^<]*+)</\1>|<(/?)dict>")


def _plain(text: str) -> str:
    return unescape(text) if "&" in text or "\r" in text else text


def _plain_texts(raw: str, shared: dict[str, str]) -> EntryTexts | None:
    """The texts of a usable entry whose dict's content is `raw`, read straight from the text, as
    `_entry` and `_texts` read them from its elements; None when `raw` holds other markup (a
    comment, an attribute, `<string/>`, ...) or the entry is anything but usable (then its
    elements are read, to say why). Text between the elements is ignored, as it is there."""
    pieces = _PLAIN_PIECE.findall(raw)  # (tag, text, "/" or "") each; a <dict> or </dict> has no tag
    count = len(pieces)
    format_text: str | None = None
    variables: dict[str, tuple[tuple[str, str], ...]] = {}
    dicts = 0  # the pieces that are a <dict> or a </dict>: two per variable
    index = 0
    while index < count:
        tag, name, _ = pieces[index]
        if tag != "key" or index + 1 >= count:
            return None
        name = _plain(name)
        tag, value, slash = pieces[index + 1]
        if tag == "string" and name == FORMAT_KEY:
            format_text = _plain(value)
            index += 2
            continue
        if tag or slash or name == FORMAT_KEY:
            return None
        index += 2
        forms: dict[str, str] = {}
        rule = None
        while index < count and pieces[index][0]:
            if index + 1 >= count or pieces[index][0] != "key" or pieces[index + 1][0] != "string":
                return None
            setting = _plain(pieces[index][1])
            if setting == _SPEC_TYPE:
                rule = _plain(pieces[index + 1][1])
            elif setting in _ORDER:
                if setting in forms:
                    return None
                forms[_CATEGORY[setting]] = _plain(pieces[index + 1][1])
            index += 2
        if index >= count or not pieces[index][2] or rule != _PLURAL_RULE:
            return None  # a <dict> inside a variable, or a rule that is not plural
        index += 1
        dicts += 2
        variables[name] = tuple(forms.items())
    # Every '<' of `raw` is one of these pieces' (a <key> or <string> has two): no other markup.
    if format_text is None or raw.count("<") != 2 * count - dicts:
        return None
    common = shared.setdefault
    return common(format_text, format_text), tuple((common(name, name), forms) for name, forms in variables.items())


def _comments(file: XmlFile, parent: XmlNode) -> dict[int, str]:
    """The comment just before each child of `parent` (by the child's offset), where there is one."""
    found = {}
    previous = None
    for child in parent.children:
        if previous is not None and previous.name == COMMENT and child.name != COMMENT:
            found[child.start] = file.raw(previous.open_end, previous.close_start).strip()
        previous = child
    return found


# --- reading --------------------------------------------------------------------------------------------------


class StringsdictMessages(TextMessages[EntryTexts]):
    """One .stringsdict's entries, kept as texts and compiled on first `get`."""

    def __init__(self, tag: LocaleTag) -> None:
        super().__init__()
        self.tag = tag
        self.order: list[str] = []
        """Every entry's key in file order, those not read (`read_keys`) and those skipped too."""

    def document_order(self) -> Iterable[str]:
        """Every entry's key in file order, even where only some entries were read (a write's source)."""
        return self.order

    def text(self, key: str) -> Value | None:
        found = self.texts.get(key)
        return _value(found) if found is not None else None

    def _compile(self, key: str, text: EntryTexts) -> Renderable:
        return PluralFormat(text, plural_rules(self.tag))


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits, keys: Collection[str] | None = None) -> StringsdictMessages:
    """The file's entries; only those of `keys` when given (every key is still counted and the
    whole file checked)."""
    file = _scan(data, limits)
    messages = StringsdictMessages(tag)
    top = file.root.first("dict")
    lines: dict[str, int] = {}
    notes = _comments(file, top) if top is not None else {}
    shared: dict[str, str] = {}
    for pair in _top(file):
        line = pair.key.line
        if pair.name in lines:
            if keys is None or pair.name in keys:
                messages.problems.append(first_one_used(pair.name, line, lines[pair.name]))
            continue
        lines[pair.name] = line
        check_count(len(lines), limits)
        if keys is not None and pair.name not in keys:
            continue
        try:
            value = pair.value
            plain = _plain_texts(file.content(value), shared) if value.name == "dict" else None
            texts = plain if plain is not None else _texts(file, _entry(file, pair), shared)
            reason = entry_problem(texts)
            if reason is not None:
                raise _Invalid(reason)
        except _Invalid as invalid:
            messages.problems.append(Problem(pair.name, line, f"{pair.name!r} cannot be used: {invalid}"))
            continue
        messages.texts[pair.name] = texts
        note = notes.get(pair.key.start)
        if note:
            messages.comments[pair.name] = note
    messages.order = list(lines)
    return messages


def _scan(data: bytes, limits: ReadLimits) -> XmlFile:
    if data.startswith(b"bplist"):
        raise CatalogFileError("the file is a binary property list; convert it to XML with "
                               "`plutil -convert xml1 <file>`", None)
    return scan(data, PLIST_DOCTYPES, limits, _TREE_DEPTH)


# --- editing ---------------------------------------------------------------------------------------------------


def _split(value: Value, entry: _Entry) -> tuple[str, dict[str, dict[str, str]]]:
    """(format, forms by variable) that `value` asks for, checked against the entry's variables."""
    if not isinstance(value, dict):
        raise ValueError(f"{entry.name!r} is a plural entry: give its forms as a dict by category")
    if FORMAT_KEY not in value:
        if len(entry.variables) != 1:
            raise ValueError(f"{entry.name!r} has {len(entry.variables)} variables: give {FORMAT_KEY} and "
                             "'<variable>.<category>' keys")
        name = next(iter(entry.variables))
        wanted: dict[str, dict[str, str]] = {name: dict(value)}
        format_text = None
    else:
        format_text = value[FORMAT_KEY]
        wanted = {name: {} for name in entry.variables}
        for key, text in value.items():
            if key == FORMAT_KEY:
                continue
            name, _, category = key.rpartition(".")
            if name not in wanted:
                raise ValueError(f"{key!r} names no variable of {entry.name!r} ({', '.join(entry.variables)})")
            wanted[name][category] = text
    for name, forms in wanted.items():
        unknown = [category for category in forms if category not in _ORDER]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many or other")
        if not forms:
            raise ValueError(f"the variable {name!r} would have no form left")
    return format_text if format_text is not None else "", wanted


class StringsdictDocument(XmlDocument):
    """A .stringsdict being edited: values as described in the module docstring."""

    TREE_DEPTH = _TREE_DEPTH

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        if data.startswith(b"bplist"):
            _scan(data, limits)  # raises, naming the fix
        super().__init__(data, PLIST_DOCTYPES, limits)

    def _index(self) -> None:
        self._pairs = _top(self._file)
        check_count(len(self._pairs), self._limits)
        self._named: dict[str, list[_Pair]] = {}  # every top-level key, usable or not: its pairs
        for pair in self._pairs:
            self._named.setdefault(pair.name, []).append(pair)
        self._names = self._named.keys()
        self._read: dict[str, _Entry | None] = {}  # the entries looked at: read when first asked for
        self._layout: tuple[str | None, str, Callable[[int], str]] | None = None  # (indent, step, inside)
        self._added_at: dict[str, _Pair] = {}  # entries planned as new -> the pair of the parse they follow
        self._last_at: dict[int, str] = {}  # where entries are planned -> the last one planned there

    def _entry_of(self, key: str) -> _Entry | None:
        """The entry `key` names (its first usable pair), or None."""
        if key in self._read:
            return self._read[key]
        found: _Entry | None = None
        for pair in self._named.get(key, ()):
            try:
                found = _entry(self._file, pair)
                break
            except _Invalid:
                continue
        self._read[key] = found
        return found

    def keys(self) -> list[str]:
        self._settle()
        found = [(entry.pair.key.start, name) for name in self._named if (entry := self._entry_of(name)) is not None]
        return [name for _, name in sorted(found)]  # in the order of the pairs used

    def get(self, key: str) -> Value | None:
        if key in self._edited:
            return self._edited[key]
        entry = self._entry_of(key)
        return _value(_texts(self._file, entry)) if entry is not None else None

    def _read_alone(self, alone: XmlFile, key: str) -> Value | None:
        pair = next((pair for pair in _top(alone) if pair.name == key), None)
        try:
            return _value(_texts(alone, _entry(alone, pair))) if pair is not None else None
        except _Invalid:
            return None

    def _top_ancestors(self) -> list[XmlNode]:
        root = self._file.root
        top = root.first("dict")
        assert top is not None
        return [root, top]

    def line_of(self, key: str) -> int | None:
        """The line of the entry's first form: where the text a translator edits starts."""
        self._settle()
        entry = self._entry_of(key)
        if entry is None:
            return None
        forms = [form.key.line for variable in entry.variables.values() for form in variable.forms.values()]
        return min(forms, default=entry.pair.key.line)

    def set(self, key: str, value: Value) -> None:
        if self.PLANS_EDITS and self._plan_set(key, value):
            return
        self._settle()
        entry = self._entry_of(key)
        if entry is None:
            raise KeyError(key)
        if self.get(key) == value:
            return
        self._apply(self._entry_edits(entry, value), key, value)

    def _entry_edits(self, entry: _Entry, value: Value) -> list[tuple[int, int, str]]:
        format_text, wanted = _split(value, entry)
        edits: list[tuple[int, int, str]] = []
        if FORMAT_KEY in value and format_text != unescape(self._file.content(entry.format.value)):
            edits.append(self._string_edit(entry.format.value, format_text))
        for name, forms in wanted.items():
            edits += self._form_edits(entry.variables[name], forms)
        return edits

    def _plan_set(self, key: str, value: Value) -> bool:
        """Plan a set of an entry the parse found, untouched since; False (nothing planned) else."""
        entry = self._entry_of(key)
        if entry is None or key in self._edited:
            return False
        span = entry.pair.key.start, entry.pair.value.end
        if not self._untouched(*span):
            return False
        if self.get(key) == value:
            return True
        try:
            edits = self._entry_edits(entry, value)
        except ValueError:
            return False  # `set` says why
        return self._plan_apply(edits, key, value, span, self._top_ancestors())

    def _string_edit(self, node: XmlNode, text: str) -> tuple[int, int, str]:
        return content_edit(self._file, node, escape_text(text, self._file.newline))

    def _form_edits(self, variable: _Variable, forms: dict[str, str]) -> list[tuple[int, int, str]]:
        file = self._file
        edits = []
        present = variable.forms
        for category, pair in present.items():
            if category not in forms:
                edits.append((*line_extent(file.text, pair.key.start, pair.value.end), ""))
            elif unescape(file.content(pair.value)) != forms[category]:
                edits.append(self._string_edit(pair.value, forms[category]))
        kept = {name: pair for name, pair in present.items() if name in forms}  # anchors that stay
        removed = {id(node) for name, pair in present.items() if name not in forms for node in (pair.key, pair.value)}
        for category in sorted((c for c in forms if c not in present), key=_ORDER.__getitem__):
            before = [pair for name, pair in kept.items() if _ORDER[name] < _ORDER[category]]
            after = [pair for name, pair in kept.items() if _ORDER[name] > _ORDER[category]]
            gap, inside = self._pair_style(variable.pair.value)
            pair_text = f"<key>{category}</key>{inside}<string>{escape_text(forms[category], file.newline)}</string>"
            if before:
                anchor = max(before, key=lambda pair: pair.value.end).value.end
                edits.append((anchor, anchor, gap + pair_text))
            elif after:
                anchor = min(after, key=lambda pair: pair.key.start).key.start
                edits.append((anchor, anchor, pair_text + gap))
            else:
                last = [node for node in variable.pair.value.elements() if id(node) not in removed][-1].end
                edits.append((last, last, gap + pair_text))
        merged: dict[tuple[int, int], str] = {}
        for start, end, text in edits:
            merged[(start, end)] = merged.get((start, end), "") + text
        return [(start, end, text) for (start, end), text in merged.items()]

    def _pair_style(self, dictionary: XmlNode) -> tuple[str, str]:
        """(what goes between two pairs, what goes between a key and its value) in `dictionary`."""
        file = self._file
        elements = list(dictionary.elements())
        inside = file.raw(elements[0].end, elements[1].start) if len(elements) >= 2 else ""
        if len(elements) >= 3:
            gap = file.raw(elements[1].end, elements[2].start)
        else:
            gap = file.line_gap(elements[0].start) if elements else ""
        return gap, inside

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if self.PLANS_EDITS and self._plan_add(key, value, after):
            return
        self._settle()
        if key in self._names:
            raise KeyError(f"{key!r} is already in the file; use set to change it")
        if not isinstance(value, dict) or not value:
            raise ValueError("a .stringsdict entry is a dict of plural forms by category")
        anchor = self._named[after][-1] if after is not None and after in self._named else None
        self._apply([self._new_entry(key, value, anchor)], key, value)

    def _plan_add(self, key: str, value: Value, after: str | None = None) -> bool:
        """Plan a new entry after the entry of `after` (else the last one), or after the entries
        planned there before it when it was added itself (or is the last); False (nothing planned)
        for a first entry, a key the file has, or an entry to go before others planned at its place."""
        if key in self._names or key in self._edited or not isinstance(value, dict) or not value \
                or not self._pairs:
            return False
        anchor = self._named[after][-1] if after is not None and after in self._named else None
        if anchor is None and after is not None and after in self._added_at:
            anchor = self._added_at[after]
            if self._last_at[anchor.value.end] != after:
                return False  # between entries planned at one place
        elif anchor is None:
            anchor = self._pairs[-1]
        elif anchor.value.end in self._last_at:
            return False  # before the entries planned after its anchor: made on the current text
        edit = self._new_entry(key, value, anchor)
        if not self._plan_apply([edit], key, value, edit[:2], self._top_ancestors()):
            return False
        self._added_at[key] = anchor
        self._last_at[anchor.value.end] = key
        return True

    def _new_entry(self, key: str, value: dict[str, str], after: _Pair | None = None) -> tuple[int, int, str]:
        """The edit that writes a new entry after the pair `after` (else the last one), laid out as
        the file's entries are."""
        file = self._file
        top = file.root.first("dict")
        assert top is not None
        pairs = self._pairs
        if self._layout is None:
            found_indent = file.indent_of(pairs[-1].key.start) if pairs else file.child_indent(top, "\t")
            self._layout = found_indent, self._step(found_indent or ""), self._inside(pairs)
        indent, step, inside = self._layout
        one_line = indent is None
        newline = "" if one_line else file.newline
        if FORMAT_KEY in value:
            format_text = value[FORMAT_KEY]
            variables: dict[str, dict[str, str]] = {}
            for name, text in value.items():
                if name != FORMAT_KEY:
                    variable, _, category = name.rpartition(".")
                    variables.setdefault(variable, {})[category] = text
        else:
            format_text, variables = "%#@count@", {"count": dict(value)}
        if any(category not in _ORDER for forms in variables.values() for category in forms) or not variables:
            raise ValueError("give the forms by category: zero, one, two, few, many or other")

        def line(level: int, text: str) -> str:
            return newline + ("" if one_line else (indent or "") + step * level) + text

        def pair(level: int, name: str, text: str) -> str:
            return line(level, f"<key>{name}</key>{inside(level)}<string>{escape_text(text, file.newline)}</string>")

        out = [line(0, f"<key>{escape_text(key)}</key>"), line(0, "<dict>"), pair(1, FORMAT_KEY, format_text)]
        for name, forms in variables.items():
            out += [line(1, f"<key>{escape_text(name)}</key>"), line(1, "<dict>"),
                    pair(2, _SPEC_TYPE, _PLURAL_RULE), pair(2, _VALUE_TYPE, "d")]
            out += [pair(2, category, forms[category]) for category in sorted(forms, key=_ORDER.__getitem__)]
            out.append(line(1, "</dict>"))
        out.append(line(0, "</dict>"))
        anchor = (after or pairs[-1]).value.end if pairs else top.open_end
        return anchor, anchor, "".join(out)

    def _step(self, indent: str) -> str:
        """One level of indentation: as the first entry's dict is indented, else a tab."""
        file = self._file
        return next((step for pair in self._pairs if (step := file.step_in(pair.value, indent))), "\t")

    def _inside(self, pairs: list[_Pair]) -> Any:
        """How a key and its <string> are joined: on one line as the file does, else on the next
        line at the same indentation."""
        file = self._file
        for pair in pairs:
            if pair.value.name == "dict":
                inner = _pairs_or_empty(file, pair.value)
                if inner:
                    between = file.raw(inner[0].key.end, inner[0].value.start)
                    if "\n" not in between and "\r" not in between:
                        return lambda level: between
                    break
        indent = file.indent_of(pairs[-1].key.start) if pairs else None
        if indent is None:
            return lambda level: ""
        step = self._step(indent)
        return lambda level: file.newline + indent + step * level

    def delete(self, key: str) -> None:
        if self.PLANS_EDITS and key not in self._edited and self._entry_of(key) is not None:
            pairs = self._named.get(key, ())
            if self._plan_removals(key, [(pair.key.start, pair.value.end) for pair in pairs]):
                return
        self._settle()
        if self._entry_of(key) is None:
            raise KeyError(key)
        file = self._file
        edits = [(*line_extent(file.text, pair.key.start, pair.value.end), "") for pair in _top(file)
                 if pair.name == key]
        self._apply(edits, key, None)


def _pairs_or_empty(file: XmlFile, dictionary: XmlNode) -> list[_Pair]:
    try:
        return _pairs(file, dictionary)
    except _Invalid:
        return []


class StringsdictFormat(AppleFormat):
    """`Localizable.stringsdict`: plural entries of an Apple project, one locale per file."""

    plural_forms = True
    rename_refusal = ("a .stringsdict entry would be written anew, losing its variable names and value types: "
                      "rename it in Xcode or a text editor")

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> StringsdictMessages:
        return _read(data, tag, limits)

    def read_keys(self, data: bytes, tag: LocaleTag, keys: Collection[str],
                  limits: ReadLimits = DEFAULT_READ_LIMITS) -> StringsdictMessages:
        """`read`, reading the entries of `keys` alone: the others' names are still counted and
        compared, and the whole file checked."""
        return _read(data, tag, limits, keys)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> StringsdictDocument:
        return StringsdictDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """An empty plist dictionary, as Xcode's "Stringsdict File" template starts one."""
        return (b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n</dict>\n</plist>\n')

    def sniff(self, head: bytes) -> bool:
        return b"<plist" in head

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt-BR`, `pt-BR.lproj`, `zh-Hans.lproj`; `Base.lproj` is no locale."""
        return lproj_locale(text)

    def plural_value(self, document: Document, forms: dict[str, str], current: Value | None, tag: LocaleTag, *,
                     shaped: dict[str, str]) -> Value:
        """Forms by category; for an entry with text around its variable, or several variables, the
        entry's own shape: its format and `<variable>.<category>` forms of the variables it has."""
        if FORMAT_KEY not in shaped and FORMAT_KEY not in forms:
            return super().plural_value(document, forms, current, tag, shaped=shaped)
        variables = _variables(shaped) or _variables(forms)
        for name in forms:
            variable, dot, category = name.partition(".")
            if name != FORMAT_KEY and not (dot and category in _ORDER and variable in variables):
                raise ValueError(f"{name!r} is not a part of this .stringsdict entry: give {FORMAT_KEY!r} and "
                                 f"forms as '<variable>.<category>' for the variables {', '.join(sorted(variables))}")
        return {**current, **forms} if isinstance(current, dict) else dict(forms)

    def form_names(self, source: Mapping[str, str], cardinal: Sequence[str], ordinal: Sequence[str]) -> list[str]:
        """The categories; for an entry in its own shape, its format and each variable's categories."""
        if FORMAT_KEY not in source:
            return list(cardinal)
        return [FORMAT_KEY] + [f"{variable}.{c}" for variable in _variables(source) for c in cardinal]


def _variables(forms: Mapping[str, str]) -> list[str]:
    """The variables of forms named `<variable>.<category>`, in order."""
    return list(dict.fromkeys(name.partition(".")[0] for name in forms if "." in name))
