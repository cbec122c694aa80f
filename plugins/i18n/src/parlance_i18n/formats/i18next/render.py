"""i18next's `t()`, as i18next 27 with its default options runs it over one file's messages: its
Translator (which key answers), Interpolator (`{{name}}`, `{{- name}}`, `{{name, format}}`, `$t(...)`
nesting) and Formatter (`number`, `currency`, `datetime`, `relativetime`, `list`, over `intl.Intl`).

The rules, and where this emulation stops, are described in the `i18next` format's docstring; the
interop test (tests/packs/i18n/formats/test_i18next_interop.py) renders every test message with
i18next itself. A render never raises: whatever a file or a variable holds, the worst it gives is
the message as written.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.shared.intl import Intl, IntlError, intl_for, plural_category
from parlance_i18n.formats.shared.js_values import (
    JS_SPACE,
    UNDEFINED,
    js_parse_int,
    js_string,
    js_to_number,
    js_truthy,
    reject_json_constant,
)
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:
    from parlance_i18n.icu.plurals import PluralRules

__all__ = ["NESTING", "OBJECT", "VARIABLE", "I18nextRenderer", "variable_names"]

_NAMESPACE = "translation"
"""i18next's default namespace: `$t(translation:key)` nests a key of the same file."""

_MAX_DEPTH = 16
_MAX_NESTED = 500
_MAX_REPLACES = 1000
"""i18next's interpolation.maxReplaces: each of its two passes stops after this many replacements."""

_MISSING: Any = UNDEFINED
OBJECT: Any = object()
"""What a lookup finds at an object or an array: i18next answers the key, as for a missing one."""

# `.` in i18next's regular expressions matches anything but a line terminator.
_VARIABLE = re.compile(r"\{\{([^\n\r\u2028\u2029]+?)\}\}")
_RAW_VARIABLE = re.compile(r"\{\{-([^\n\r\u2028\u2029]+?)\}\}")
_NESTING = re.compile(r"""\$t\(((?:[^()"']|"[^"]*"|'[^']*'|\((?:[^()"']|"[^"]*"|'[^']*')*\))*?)\)""")
VARIABLE, NESTING = _VARIABLE, _NESTING
"""i18next's interpolation and nesting patterns, as `runtime` checks that a translation closes each."""
_OPTIONS_START = re.compile(r",[ ]*\{")
_HAS_BRACES = re.compile(r"\{.*\}", re.DOTALL)
_NATURAL_LANGUAGE = re.compile(r"[ ,?!;]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


class I18nextRenderer:
    """`t()` over one file's texts (by dot key) and blockers (what a lookup finds that is no string)."""

    def __init__(self, texts: dict[str, str], blockers: dict[str, Any], tag: LocaleTag) -> None:
        self._texts = texts
        self._blockers = blockers
        self.tag = tag

    @functools.cached_property
    def _intl(self) -> Intl:
        return intl_for(self.tag)

    def render(self, key: str, values: Mapping[str, Any], limit: int) -> str:
        """What `t(key, values)` returns, cut at `limit` characters."""
        if values.__class__ is not dict:
            values = dict(values)
        try:
            text = self._translate(key, values, None, _Budget(limit), 0)
        except Exception:  # a boundary: rendering never raises, whatever a file or a variable holds
            text = self._texts.get(key) or key
        return text if len(text) <= limit else text[:limit]

    def _translate(self, called: str, values: Mapping[str, Any], parent: str | None, budget: _Budget,
                   depth: int) -> str:
        """What `t(called, values)` returns; `parent` is the key whose message nested this call."""
        key, foreign = _extract_namespace(called)
        found = _MISSING if foreign else self._resolve(key, values)
        if found.__class__ is str:
            return self._extend(found, called, values, parent, True, budget, depth)
        if found is not _MISSING and found is not OBJECT:
            return js_string(found)  # a number or boolean in the file: t() returns it as is
        default = _default_value(values, self)
        if default is _MISSING or default is None:
            return self._extend(key, called, values, parent, False, budget, depth)
        if default.__class__ is str:
            return self._extend(default, called, values, parent, False, budget, depth) if default else ""
        return js_string(default)

    def _resolve(self, key: str, values: Mapping[str, Any]) -> Any:
        """The first of the keys i18next tries that holds a message (or a non-string that stops it)."""
        texts, blockers = self._texts, self._blockers
        plural_or_context = values and ("count" in values or "context" in values)
        for candidate in _lookup_keys(key, values, self._intl.rules) if plural_or_context else (key,):
            text = texts.get(candidate)
            if text:
                return text
            if text is None and candidate in blockers:
                return blockers[candidate]
        return _MISSING

    def _extend(self, text: str, called: str, values: Mapping[str, Any], parent: str | None, resolved: bool,
                budget: _Budget, depth: int) -> str:
        """Interpolation, then nesting, as `Translator.extendTranslation` does them."""
        if "{{" not in text and "$t(" not in text:
            return text
        if js_truthy(values.get("skipInterpolation")):
            return text
        before = len(_NESTING.findall(text)) if "$t(" in text else 0
        text = self._interpolate(text, values)
        after = len(_NESTING.findall(text)) if "$t(" in text else 0
        # a variable that brought `$t(` in turns nesting off for this message (skipOnVariables)
        if values.get("nest") is False or before < after:
            return text
        if resolved and not js_truthy(values.get("lng")):
            values = {**values, "lng": self.tag.code}  # i18next sets opt.lng before nesting
        return self._nest(text, values, called, parent, budget, depth)

    def _interpolate(self, text: str, data: Mapping[str, Any]) -> str:
        """`Interpolator.interpolate`: the unescaped pass (`{{- name}}`), then the escaping one."""
        if "{{" not in text:
            return text
        written: list[tuple[int, int]] = []  # where the first pass put values, which the second skips
        for raw, pattern in ((True, _RAW_VARIABLE), (False, _VARIABLE)):
            position = shift = replaces = 0
            while True:
                match = pattern.search(text, position)
                if match is None:
                    break
                start, end = match.span()
                at = start - shift
                inside = next((span for span in written if span[0] <= at < span[1]), None)
                if inside is not None:
                    position = inside[1] + shift
                    continue
                value = self._variable(match.group(1).strip(JS_SPACE), data)
                if value is _MISSING:
                    position = end  # left as written
                    continue
                shown = _make_string(value) if value.__class__ is not str else value
                if not raw:
                    shown = shown.translate(_ESCAPES)
                text = text[:start] + shown + text[end:]
                if raw:
                    written.append((start, start + len(shown)))
                else:
                    shift += len(shown) - (end - start)
                position = start + len(shown)
                replaces += 1
                if replaces >= _MAX_REPLACES:
                    break
        return text

    def _variable(self, name: str, data: Mapping[str, Any]) -> Any:
        """A `{{...}}`'s value: `name`, or `name, format` formatted; `_MISSING` (undefined) when not given."""
        if "," not in name:
            return _find_variable(data, name)
        variable, _, spec = name.partition(",")
        variable = variable.strip(JS_SPACE)
        value = _find_variable(data, variable)
        return self._format(value, spec.strip(JS_SPACE), {**data, "interpolationkey": variable})

    def _format(self, value: Any, spec: str, options: Mapping[str, Any]) -> Any:
        """`Formatter.format`: each comma-separated format in turn; one that throws keeps the value."""
        if not spec or value is None or value is _MISSING:
            return value
        pieces = spec.split(",")
        specs: list[str] = []
        index = 0
        while index < len(pieces):
            piece = pieces[index]
            while "(" in piece and ")" not in piece and index + 1 < len(pieces):
                index += 1
                piece = f"{piece},{pieces[index]}"
            specs.append(piece)
            index += 1
        for piece in specs:
            name, format_options = _parse_format(piece)
            formatter = _FORMATTERS.get(name)
            if formatter is None:
                continue
            try:
                value = formatter(self._intl, value, {**format_options, **options})
            except (IntlError, ArithmeticError, ValueError, TypeError, OverflowError, LookupError):
                pass
        return value

    def _nest(self, text: str, options: Mapping[str, Any], called: str, parent: str | None, budget: _Budget,
              depth: int) -> str:
        """`Interpolator.nest`: each `$t(...)` of the text replaced by the nested key's rendering."""
        if "$t(" not in text:
            return text
        out: list[str] = []
        written = 0
        last_end = 0
        for match in _NESTING.finditer(text):
            inner = match.group(1)
            inherited = {k: v for k, v in options.items() if k != "defaultValue"}
            formats: list[str] = []
            cut = inner.rfind("}") + 1 if _HAS_BRACES.search(inner) else inner.find(",")
            if cut != -1:
                formats = [f for f in (p.strip(JS_SPACE) for p in inner[cut:].split(",")) if f]
                inner = inner[:cut]
            key, nested_options = self._nesting_options(inner.strip(JS_SPACE), inherited)
            value = ""
            if key == parent and not js_truthy(options.get("context")):
                value = ""  # i18next refuses a key nesting the key that nested it
            elif depth < _MAX_DEPTH and budget.calls < _MAX_NESTED:
                budget.calls += 1
                value = self._translate(key, nested_options, called, budget, depth + 1)
            if formats:
                formatted: Any = value.strip(JS_SPACE)
                for spec in formats:
                    formatted = self._format(formatted, spec, {**options, "interpolationkey": inner.strip(JS_SPACE)})
                value = _make_string(formatted)
            piece = text[last_end:match.start()]
            out.append(piece)
            out.append(value)
            written += len(piece) + len(value)
            last_end = match.end()
            if written > budget.limit:  # what follows cannot reach the rendered text
                return "".join(out)
        return "".join(out) + text[last_end:] if last_end else text

    def _nesting_options(self, key: str, inherited: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """`handleHasOptions`: the key and the options of `key, {"count": 2}`."""
        if "," not in key:
            return key, inherited
        parts = _OPTIONS_START.split(key)
        key = parts[0]
        written = "{" + (parts[1] if len(parts) > 1 else "undefined")
        written = self._interpolate(written, inherited)
        singles, doubles = written.count("'"), written.count('"')
        if (singles % 2 == 0 and doubles == 0) or doubles % 2 != 0:
            written = written.replace("'", '"')
        try:
            parsed = json.loads(written, parse_constant=reject_json_constant)
        except (ValueError, RecursionError):
            return f"{key},{written}", inherited
        if parsed.__class__ is not dict:
            return f"{key},{written}", inherited
        return key, {**inherited, **parsed}


class _Budget:
    """What one render may still spend: nested calls, and the length past which text is not kept."""

    __slots__ = ("calls", "limit")

    def __init__(self, limit: int) -> None:
        self.calls = 0
        self.limit = limit


def variable_names(text: str) -> list[str]:
    names = []
    for match in _VARIABLE.finditer(text):
        inner = match.group(1)
        if inner.startswith("-"):
            inner = inner[1:]
        name = inner.partition(",")[0].strip(JS_SPACE)
        if name:
            names.append(name)
    return names


def _lookup_keys(key: str, values: Mapping[str, Any], rules: PluralRules) -> list[str]:
    """The keys `Translator.resolve` tries for `t(key, values)`, in the order it tries them."""
    count = values.get("count", _MISSING)
    plural = count is not _MISSING and count.__class__ is not str
    context = values.get("context")
    kind = context.__class__
    contextual = (kind is str and context != "") or kind is int or kind is float
    if not plural and not contextual:
        return [key]
    ordinal = js_truthy(values.get("ordinal"))
    zero = plural and not ordinal and (count.__class__ is int or count.__class__ is float) and count == 0
    keys = [key]
    suffix = category = ""
    if plural:
        category = plural_category(count, ordinal, rules)
        suffix = f"_ordinal_{category}" if ordinal else f"_{category}"
        if ordinal:
            keys.append(f"{key}_{category}")
        keys.append(key + suffix)
        if zero:
            keys.append(f"{key}_zero")
    if contextual:
        with_context = f"{key}_{js_string(context)}"
        keys.append(with_context)
        if plural:
            if ordinal:
                keys.append(f"{with_context}_{category}")
            keys.append(with_context + suffix)
            if zero:
                keys.append(f"{with_context}_zero")
    if plural:
        other = "_ordinal_other" if ordinal else "_other"
        if suffix != other:
            if contextual:
                keys.insert(0, with_context + other)
            keys.insert(0, key + other)
    keys.reverse()  # i18next pops them from the end
    return keys


def _default_value(values: Mapping[str, Any], messages: I18nextRenderer) -> Any:
    """The `defaultValue` (or `defaultValue_<suffix>`) option t() would use, or `_MISSING`."""
    if not any(k.__class__ is str and k.startswith("defaultValue") for k in values):
        return _MISSING
    rules = messages._intl.rules
    count = values.get("count", _MISSING)
    plural = count is not _MISSING and count.__class__ is not str
    ordinal = js_truthy(values.get("ordinal"))
    found: Any = None
    if plural:
        category = plural_category(count, ordinal, rules)
        zero = not ordinal and count.__class__ in (int, float) and count == 0
        candidates = [values.get("defaultValue_zero") if zero else None,
                      values.get(f"defaultValue_ordinal_{category}" if ordinal else f"defaultValue_{category}"),
                      values.get(f"defaultValue_{plural_category(count, False, rules)}") if ordinal else None]
        found = next((c for c in candidates if js_truthy(c)), None)
    if found is None:
        found = values.get("defaultValue")
        if found is None and plural:
            found = values.get("defaultValue_ordinal_other" if ordinal else "defaultValue_other")
    if found is None or found.__class__ in (dict, list):
        return _MISSING
    return found


def _extract_namespace(key: str) -> tuple[str, bool]:
    """`Translator.extractFromKey`: (key without an `ns:` prefix, whether it names another namespace)."""
    if ":" not in key or not _looks_like_object_path(key) or _NESTING.search(key):
        return key, False
    namespace, *rest = key.split(":")
    return ".".join(rest), namespace != _NAMESPACE


def _looks_like_object_path(key: str) -> bool:
    """False for a natural-language key (`Error: try again`), which i18next never splits at ':'."""
    if not _NATURAL_LANGUAGE.search(key):
        return True
    dot = key.find(".")
    return dot > 0 and not _NATURAL_LANGUAGE.search(key[:dot])


def _find_variable(data: Any, name: str) -> Any:
    """A variable as i18next's `deepFindWithDefaults` finds it: the dotted path through objects first,
    then the longest keys that exist (`{{user.name}}` finds `{"user.name": ...}` too)."""
    found = _get_path(data, name)
    return _deep_find(data, name) if found is None or found is _MISSING else found


def _get_path(data: Any, name: str) -> Any:
    node = data
    parts = name.split(".")
    for part in parts[:-1]:
        if not js_truthy(node) or node.__class__ is str:
            return _MISSING
        node = _own(node, part.replace("###", "."))
        if node is _MISSING:
            node = {}
    if not js_truthy(node) or node.__class__ is str:
        return _MISSING
    return _own(node, parts[-1].replace("###", "."))


def _deep_find(data: Any, name: str) -> Any:
    if not js_truthy(data):
        return _MISSING
    direct = _own(data, name)
    if direct is not _MISSING and js_truthy(direct):
        return direct
    tokens = name.split(".")
    current = data
    index = 0
    while index < len(tokens):
        if current is None or current is _MISSING or current.__class__ not in (dict, list):
            return _MISSING
        found = _MISSING
        for end in range(index, len(tokens)):
            found = _own(current, ".".join(tokens[index:end + 1]))
            if found is not _MISSING:
                if found.__class__ in (str, int, float, bool) and end < len(tokens) - 1:
                    continue
                index = end + 1
                break
        current = found
    return current


def _own(node: Any, key: str) -> Any:
    """`node[key]` when it is node's own property, else `_MISSING`."""
    kind = node.__class__
    if kind is dict:
        return node.get(key, _MISSING)
    if kind is list:
        if key == "length":
            return len(node)
        if key.isdigit() and (key == "0" or not key.startswith("0")) and int(key) < len(node):
            return node[int(key)]
    return _MISSING


def _make_string(value: Any) -> str:
    """i18next's makeString: String(value), but '' for null."""
    return "" if value is None or value is _MISSING else js_string(value)


# --- formats: i18next's Formatter over Intl --------------------------------------------------------


def _parse_format(spec: str) -> tuple[str, dict[str, Any]]:
    """`parseFormatStr`: `currency(EUR)`, `number(minimumFractionDigits: 2; useGrouping: false)`."""
    name = spec.lower().strip(JS_SPACE)
    options: dict[str, Any] = {}
    if "(" in spec:
        parts = spec.split("(")
        name = parts[0].lower().strip(JS_SPACE)
        written = parts[1][:-1]
        if name == "currency" and ":" not in written:
            options["currency"] = written.strip(JS_SPACE)
        elif name == "relativetime" and ":" not in written:
            options["range"] = written.strip(JS_SPACE)
        else:
            for option in written.split(";"):
                if not option:
                    continue
                option_name, *rest = option.split(":")
                value: Any = re.sub(r"^'+|'+$", "", ":".join(rest).strip(JS_SPACE))
                option_name = option_name.strip(JS_SPACE)
                text = value
                if not js_truthy(options.get(option_name)):
                    options[option_name] = value
                if text == "false":
                    options[option_name] = False
                if text == "true":
                    options[option_name] = True
                if not math.isnan(js_to_number(text)):
                    options[option_name] = js_parse_int(text)
    return name, options


Formatter = Callable[[Intl, Any, Mapping[str, Any]], Any]
_FORMATTERS: dict[str, Formatter] = {
    "number": lambda intl, value, options: intl.number(value, options),
    "currency": lambda intl, value, options: intl.number(value, options, "currency"),
    "datetime": lambda intl, value, options: intl.datetime(value, options),
    "relativetime": lambda intl, value, options: intl.relativetime(value, options),
    "list": lambda intl, value, options: intl.list(value, options),
}
