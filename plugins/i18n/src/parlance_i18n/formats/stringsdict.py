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

Rendering. Arguments are positional, as `String(format:)` numbers them: each specifier of the
format, a `%#@name@` included, takes the next position unless it names one (`%2$#@name@`). A
variable's form is chosen by its count: `values[<its position>]`, else `values[<its name>]`, else
`values["count"]`; `zero` when the count is 0 and the variable has a `zero` form (Foundation uses
it in every language), else the count's CLDR category, else `other`. The form replaces the variable
and its own unnumbered specifiers (`%d`) print the variable's argument, which the count fills when
the caller gave no such position. Then the whole is formatted with `printf` style "apple" (`%@`,
`%lld`, ...). A `%#@name@` inside a form is not expanded (it prints `values[name]` if given).

Problems (the entry is skipped): a rule type other than plural, a variable without an `other`
form, a format naming a variable the entry does not define, a specifier Foundation would refuse,
a duplicate key, an entry that is not a dict. A binary plist or a top level that is not a dict of
keys cannot be read at all. The DOCTYPE every plist carries is accepted and never fetched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
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
    escape_text,
    line_extent,
    scan,
    unescape,
)
from parlance_i18n.locales import LocaleTag
from parlance_i18n.plurals import CATEGORIES, PluralRules, as_number, plural_rules

__all__ = ["FORMAT_KEY", "PLIST_DOCTYPES", "StringsdictDocument", "StringsdictFormat", "StringsdictMessages"]

FORMAT_KEY = "NSStringLocalizedFormatKey"
_SPEC_TYPE = "NSStringFormatSpecTypeKey"
_VALUE_TYPE = "NSStringFormatValueTypeKey"
_PLURAL_RULE = "NSStringPluralRuleType"
PLIST_DOCTYPES = ("-//Apple//DTD PLIST 1.0//EN", "-//Apple Computer//DTD PLIST 1.0//EN")
_ORDER = {category: index for index, category in enumerate(CATEGORIES)}
_SPEC = re.compile(
    r"%(?:([0-9]+)\$)?(?:#@([A-Za-z_][A-Za-z0-9_]*)@"
    r"|[-+ 0#']*(?:[0-9]+|\*)?(?:\.(?:[0-9]*|\*))?(?:hh|h|ll|l|q|z|t|j|L)?([a-zA-Z@%]))")
_CACHED_CHOICES = 64
"""Most combinations of forms one message keeps compiled (one per category for a single variable)."""
_VARIABLE = re.compile(r"%(?:[0-9]+\$)?#@([A-Za-z_][A-Za-z0-9_]*)@")

_Forms = tuple[tuple[str, str], ...]
"""A variable's forms, (category, text), in file order."""
_Texts = tuple[str, tuple[tuple[str, _Forms], ...]]
"""An entry as read: its format and its variables with their forms."""


class _Invalid(Exception):
    """Why one entry cannot be used; becomes a Problem."""


# --- the message: positions, forms and rendering ---------------------------------------------------------


def _pieces(format_text: str) -> tuple[list[str | tuple[str, int]], list[str]]:
    """The format cut into text (unnumbered specifiers given their positions) and (variable,
    position) pieces, and the positions of its other specifiers."""
    pieces: list[str | tuple[str, int]] = []
    positions: list[str] = []
    ordinary = 0
    at = 0
    for match in _SPEC.finditer(format_text):
        if match.group(3) == "%":
            continue
        if match.group(1):
            position = int(match.group(1))
        else:
            ordinary += 1
            position = ordinary
        pieces.append(format_text[at:match.start()])
        if match.group(2):
            pieces.append((match.group(2), position))
        else:
            pieces.append("%" + (f"{position}$" if not match.group(1) else "") + match.group()[1:])
            positions.append(str(position))
        at = match.end()
    pieces.append(format_text[at:])
    return pieces, positions


def _own_positions(form: str, position: int) -> str:
    """A form whose unnumbered specifiers print its variable's argument (`%d` -> `%2$d`)."""
    def number(match: re.Match[str]) -> str:
        if match.group(1) or match.group(2) or match.group(3) == "%":
            return match.group()
        return f"%{position}$" + match.group()[1:]

    return _SPEC.sub(number, form) if "%" in form else form


class _PluralFormat:
    """A compiled entry: chooses each variable's form by its count, then formats the whole."""

    __slots__ = ("_cache", "_forms", "_pieces", "_positions", "_rules", "_variables", "source")

    def __init__(self, texts: _Texts, rules: PluralRules) -> None:
        format_text, variables = texts
        self._forms = {name: dict(forms) for name, forms in variables}
        self._pieces, self._positions = _pieces(format_text)
        self._variables = [piece for piece in self._pieces if isinstance(piece, tuple)]
        self._rules = rules
        self._cache: dict[tuple[str, ...], Renderable] = {}
        # What a reader recognises: the format with each variable's "other" form, as written.
        self.source = _VARIABLE.sub(lambda found: self._forms.get(found.group(1), {}).get("other", found.group()),
                                    format_text)

    def _template(self, choices: tuple[str, ...]) -> str:
        out = []
        chosen = iter(choices)
        for piece in self._pieces:
            if isinstance(piece, str):
                out.append(piece)
            else:
                name, position = piece
                out.append(_own_positions(self._forms[name][next(chosen)], position))
        return "".join(out)

    def compiled(self, choices: tuple[str, ...]) -> Renderable:
        """The printf message for one choice of forms (raises ValueError when one is invalid)."""
        found = self._cache.get(choices)
        if found is None:
            from parlance_i18n.formats.printf import compile_printf

            if len(self._cache) >= _CACHED_CHOICES:
                self._cache.clear()
            found = self._cache[choices] = compile_printf(self._template(choices), style="apple")
        return found

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        choices = []
        filled: dict[str, Any] = {}
        for name, position in self._variables:
            count = values.get(str(position))
            if count is None:
                count = values.get(name)
                if count is None:
                    count = values.get("count")
                if count is not None:
                    filled[str(position)] = count
            forms = self._forms[name]
            number = as_number(count)
            if number is not None and number == 0 and "zero" in forms:
                category = "zero"
            else:
                category = self._rules.cardinal(number) if number is not None else "other"
            choices.append(category if category in forms else "other")
        try:
            compiled = self.compiled(tuple(choices))
        except ValueError:  # validated when read; a form refused now prints nothing rather than raise
            return ""
        return compiled.render({**values, **filled} if filled else values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        found = set(self._positions) | {"count"}
        for name, position in self._variables:
            found.add(str(position))
            for form in self._forms[name].values():
                found.update(match.group(1) for match in re.finditer(r"%([0-9]+)\$", _own_positions(form, position)))
        return frozenset(found)

    @property
    def plurals(self) -> tuple[Any, ...]:
        from parlance_i18n.messageformat import PluralUse

        names = {name for name, _ in self._variables}
        if len(names) == 1:
            return (PluralUse("count", False, frozenset(self._forms[next(iter(names))])),)
        return tuple(PluralUse(name, False, frozenset(self._forms[name])) for name in sorted(names))


def _validate(texts: _Texts) -> None:
    format_text, variables = texts
    defined = {name for name, _ in variables}
    for name, forms in variables:
        if not any(category == "other" for category, _ in forms):
            raise _Invalid(f"its variable {name!r} has no 'other' form, which Foundation needs; add one")
    pieces, _ = _pieces(format_text)
    for piece in pieces:
        if isinstance(piece, tuple) and piece[0] not in defined:
            raise _Invalid(f"its format names the variable {piece[0]!r}, which it does not define")
    from parlance_i18n.formats.printf import compile_printf

    # Specifiers are checked one form at a time: combinations grow as 6 ** variables.
    texts_to_check = ["".join(piece for piece in pieces if isinstance(piece, str))]
    positions = {name: position for name, position in (piece for piece in pieces if isinstance(piece, tuple))}
    texts_to_check += [_own_positions(text, positions.get(name, 1)) for name, forms in variables for _, text in forms]
    try:
        for text in texts_to_check:
            compile_printf(text, style="apple")
    except ValueError as error:
        raise _Invalid(str(error)) from None


def _value(texts: _Texts) -> dict[str, str]:
    """The Document's value of an entry: its forms alone, or the format with `variable.category`s."""
    format_text, variables = texts
    only = _VARIABLE.fullmatch(format_text)
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


def _texts(file: XmlFile, entry: _Entry, shared: dict[str, str] | None = None) -> _Texts:
    """An entry's texts. `shared` (kept while a file is read) makes repeated formats and variable
    names (`%#@count@`, `count`) one string each; categories are always the module's own."""
    common = shared.setdefault if shared is not None else (lambda text, _: text)
    format_text = unescape(file.content(entry.format.value))
    return (common(format_text, format_text),
            tuple((common(name, name), tuple((_CATEGORY[category], unescape(file.content(form.value)))
                                             for category, form in variable.forms.items()))
                  for name, variable in entry.variables.items()))


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


class StringsdictMessages(LocaleMessages):
    """One .stringsdict's entries, kept as texts and compiled on first `get`."""

    def __init__(self, tag: LocaleTag) -> None:
        self.tag = tag
        self.problems: list[Problem] = []
        self._texts: dict[str, _Texts] = {}
        self._comments: dict[str, str] = {}
        self._compiled: dict[str, Renderable] = {}

    def text(self, key: str) -> Value | None:
        found = self._texts.get(key)
        return _value(found) if found is not None else None

    def comment(self, key: str) -> str | None:
        return self._comments.get(key)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is None:
            texts = self._texts.get(key)
            if texts is None:
                return default
            found = self._compiled[key] = _PluralFormat(texts, plural_rules(self.tag))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __contains__(self, key: object) -> bool:
        return key in self._texts


def _read(data: bytes, tag: LocaleTag) -> StringsdictMessages:
    file = _scan(data)
    messages = StringsdictMessages(tag)
    top = file.root.first("dict")
    lines: dict[str, int] = {}
    notes = _comments(file, top) if top is not None else {}
    shared: dict[str, str] = {}
    for pair in _top(file):
        line = pair.key.line
        if pair.name in lines:
            messages.problems.append(Problem(pair.name, line, f"{pair.name!r} is defined again (first on line "
                                                              f"{lines[pair.name]}); the first one is used"))
            continue
        lines[pair.name] = line
        try:
            texts = _texts(file, _entry(file, pair), shared)
            _validate(texts)
        except _Invalid as invalid:
            messages.problems.append(Problem(pair.name, line, f"{pair.name!r} cannot be used: {invalid}"))
            continue
        messages._texts[pair.name] = texts
        note = notes.get(pair.key.start)
        if note:
            messages._comments[pair.name] = note
    return messages


def _scan(data: bytes) -> XmlFile:
    if data.startswith(b"bplist"):
        raise CatalogFileError("the file is a binary property list; convert it to XML with "
                               "`plutil -convert xml1 <file>`", None)
    return scan(data, PLIST_DOCTYPES)


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


class StringsdictDocument(Document):
    """A .stringsdict being edited: values as described in the module docstring."""

    def __init__(self, data: bytes) -> None:
        self._buffer = XmlBuffer(data, PLIST_DOCTYPES) if not data.startswith(b"bplist") else None
        if self._buffer is None:
            _scan(data)  # raises, naming the fix
        self._index()

    @property
    def _file(self) -> XmlFile:
        assert self._buffer is not None
        return self._buffer.file

    def _index(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._names: list[str] = []  # every top-level key, usable or not
        for pair in _top(self._file):
            self._names.append(pair.name)
            if pair.name in self._entries:
                continue
            try:
                self._entries[pair.name] = _entry(self._file, pair)
            except _Invalid:
                continue

    def keys(self) -> list[str]:
        return list(self._entries)

    def get(self, key: str) -> Value | None:
        entry = self._entries.get(key)
        return _value(_texts(self._file, entry)) if entry is not None else None

    def line_of(self, key: str) -> int | None:
        """The line of the entry's first form: where the text a translator edits starts."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        forms = [form.key.line for variable in entry.variables.values() for form in variable.forms.values()]
        return min(forms, default=entry.pair.key.line)

    def set(self, key: str, value: Value) -> None:
        entry = self._entries.get(key)
        if entry is None:
            raise KeyError(key)
        if self.get(key) == value:
            return
        format_text, wanted = _split(value, entry)
        edits: list[tuple[int, int, str]] = []
        if FORMAT_KEY in value and format_text != unescape(self._file.content(entry.format.value)):
            edits.append(self._string_edit(entry.format.value, format_text))
        for name, forms in wanted.items():
            edits += self._form_edits(entry.variables[name], forms)
        self._apply(edits, key, value)

    def _string_edit(self, node: XmlNode, text: str) -> tuple[int, int, str]:
        escaped = escape_text(text, self._file.newline)
        if node.self_closing:
            return node.start, node.end, f"<string>{escaped}</string>"
        return node.open_end, node.close_start, escaped

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
            indent = file.indent_of(elements[0].start) if elements else None
            gap = file.newline + indent if indent is not None else ""
        return gap, inside

    def _apply(self, edits: list[tuple[int, int, str]], key: str, value: Value | None) -> None:
        assert self._buffer is not None
        before = self._buffer.file, self._buffer.changed
        self._buffer.replace(edits)
        self._index()
        if value is not None and self.get(key) != value:
            self._buffer.file, self._buffer.changed = before
            self._index()
            raise ValueError(f"{key!r} cannot be written so that it reads back unchanged")

    def add(self, key: str, value: Value) -> None:
        if key in self._names:
            raise KeyError(f"{key!r} is already in the file; use set to change it")
        if not isinstance(value, dict) or not value:
            raise ValueError("a .stringsdict entry is a dict of plural forms by category")
        file = self._file
        top = file.root.first("dict")
        assert top is not None
        pairs = _top(file)
        indent = file.indent_of(pairs[-1].key.start) if pairs else file.child_indent(top, "\t")
        one_line = indent is None
        newline = "" if one_line else file.newline
        step = self._step(indent or "")
        inside = self._inside(pairs)
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
        anchor = pairs[-1].value.end if pairs else top.open_end
        self._apply([(anchor, anchor, "".join(out))], key, value)

    def _step(self, indent: str) -> str:
        """One level of indentation: as the first entry's dict is indented, else a tab."""
        file = self._file
        for pair in _top(file):
            for child in pair.value.elements():
                inner = file.indent_of(child.start)
                if inner is not None and inner.startswith(indent) and len(inner) > len(indent):
                    return inner[len(indent):]
                break
        return "\t"

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
        if key not in self._entries:
            raise KeyError(key)
        file = self._file
        edits = [(*line_extent(file.text, pair.key.start, pair.value.end), "") for pair in _top(file)
                 if pair.name == key]
        self._apply(edits, key, None)

    def to_bytes(self) -> bytes:
        assert self._buffer is not None
        return self._buffer.to_bytes()


def _pairs_or_empty(file: XmlFile, dictionary: XmlNode) -> list[_Pair]:
    try:
        return _pairs(file, dictionary)
    except _Invalid:
        return []


class StringsdictFormat(CatalogFormat):
    """`Localizable.stringsdict`: plural entries of an Apple project, one locale per file."""

    name = "stringsdict"
    suffixes = (".stringsdict",)

    def read(self, data: bytes, tag: LocaleTag) -> StringsdictMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> StringsdictDocument:
        return StringsdictDocument(data)

    def sniff(self, head: bytes) -> bool:
        return b"<plist" in head

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`pt-BR`, `pt-BR.lproj`, `zh-Hans.lproj`; `Base.lproj` is no locale."""
        from parlance_i18n.locales import parse_locale

        name = text[:-len(".lproj")] if text.endswith(".lproj") else text
        if name == "Base":
            return None
        try:
            return parse_locale(name)
        except InvalidLocale:
            return None
