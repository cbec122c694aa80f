"""The `i18next` catalog format (JSON v4): read as i18next reads it, render as `t()` renders, edit in place.

Reading: `json.loads`, then nested objects flattened into i18next's dot keys (`cart.title`). A value
that is not a string (an array, a number, null) is reported as a `Problem` and left out, and so is a
second spelling of one key; a key written twice in one object is reported, and its last value used,
as `JSON.parse` (and so i18next) uses it.

Rendering follows i18next 27 with its default options, rule by rule; the interop test
(tests/packs/i18n/formats/test_i18next_interop.py) renders every test message with i18next itself.

- Lookup (`Translator.resolve`): `t(key, {count})` tries `key_zero` (only when count === 0), then
  `key_<CLDR category>`, `key`, `key_other`; with `ordinal: true` ordinal categories
  (`key_ordinal_two`, then `key_two`); with `context`, `key_<context>...` first. Empty strings and
  nulls count as missing; a key found nowhere renders as the key itself.
- Interpolation: `{{name}}` HTML-escaped (& < > " '), `{{- name}}` as is, `{{name, format}}`, dotted
  names (`{{user.name}}`) looked up as i18next does. A variable not given stays as written
  (skipOnVariables), a null one prints nothing; values print as JavaScript's String() prints them.
- Nesting: `$t(key)`, `$t(key, {"count": 2})` (JSON options, single quotes accepted), `$t(key, fmt)`,
  against the same file (the `translation:` namespace prefix too; another namespace's key renders as
  itself, as it does when that namespace is not loaded). A key nesting the key that nested it is
  refused, as i18next refuses it; longer cycles, which overflow i18next's stack, stop after
  `_MAX_DEPTH` levels or `_MAX_NESTED` nested calls per render.
- Formats `number`, `currency`, `datetime`, `relativetime` and `list` emulate `Intl` with Babel's
  CLDR data (`_Intl` says what differs).

Not emulated: options that reconfigure i18next itself when passed as variables (`lng`, `lngs`, `ns`,
`replace`, `interpolation`, `postProcess`, `returnObjects`, `keySeparator`, ...), and fallback to another
language for a plural form a locale lacks: `render` answers for this file alone, so where i18next would
try the fallback language's `items_other` before answering the key, this renders the key.

Editing goes through `jsontext.JsonDocument`, which splices each change into the original text.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import functools
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.base import CatalogFileError, CatalogFormat, Document, LocaleMessages, Problem, Value
from parlance_i18n.locales import LocaleTag, babel_locale, cldr_parent

if TYPE_CHECKING:
    from babel import Locale

    from parlance_i18n.formats.jsontext import JsonDocument
    from parlance_i18n.messageformat import PluralUse
    from parlance_i18n.plurals import PluralRules

__all__ = ["I18nextDocument", "I18nextFormat", "I18nextMessages"]

_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_ORDINAL_SUFFIXES = tuple(f"_ordinal_{c}" for c in _CATEGORIES)
_CARDINAL_SUFFIXES = tuple(f"_{c}" for c in _CATEGORIES)
_FORM_SUFFIXES = _ORDINAL_SUFFIXES + _CARDINAL_SUFFIXES  # ordinal first: "_ordinal_one" also ends in "_one"
_NAMESPACE = "translation"
"""i18next's default namespace: `$t(translation:key)` nests a key of the same file."""

_MAX_DEPTH = 16
_MAX_NESTED = 500
_MAX_REPLACES = 1000
"""i18next's interpolation.maxReplaces: each of its two passes stops after this many replacements."""

_MISSING: Any = object()
_OBJECT: Any = object()
"""What a lookup finds at an object or an array: i18next answers the key, as for a missing one."""

# JavaScript's String.prototype.trim() removes these (WhiteSpace and LineTerminator), not Python's set.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000\ufeff"
# `.` in i18next's regular expressions matches anything but a line terminator.
_VARIABLE = re.compile(r"\{\{([^\n\r\u2028\u2029]+?)\}\}")
_RAW_VARIABLE = re.compile(r"\{\{-([^\n\r\u2028\u2029]+?)\}\}")
_NESTING = re.compile(r"""\$t\(((?:[^()"']|"[^"]*"|'[^']*'|\((?:[^()"']|"[^"]*"|'[^']*')*\))*?)\)""")
_OPTIONS_START = re.compile(r",[ ]*\{")
_HAS_BRACES = re.compile(r"\{.*\}", re.DOTALL)
_NATURAL_LANGUAGE = re.compile(r"[ ,?!;]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})

_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_JS_RADIX = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")
_JS_INT_PREFIX = re.compile(r"[\t\n\v\f\r \u00a0\ufeff]*([+-]?[0-9]+)")

_SNIFF_PLURAL_KEY = re.compile(rb'_(?:zero|one|two|few|many|other)"\s*:')
_SNIFF_VARIABLE = re.compile(rb"\{\{-?\s*[\w.\-]+\s*(?:,[^{}\"]*)?\}\}")
_SNIFF_ICU = re.compile(rb"(?<!\{)\{\s*[\w.\-]+\s*,\s*(?:plural|select|selectordinal|number|date|time)\s*[,}]")


class _IntlError(Exception):
    """What `Intl` throws (RangeError, TypeError): i18next then keeps the value unformatted."""


# --- reading ------------------------------------------------------------------------------------------


class I18nextFormat(CatalogFormat):
    """i18next JSON v4 files, flat or nested (`locales/de/translation.json`)."""

    name = "i18next"
    suffixes = (".json",)

    def read(self, data: bytes, tag: LocaleTag) -> I18nextMessages:
        root, has_duplicates = _parse(data)
        texts, blockers, skipped = _flatten(root)
        problems: list[Problem] = []
        if skipped or has_duplicates:
            problems = _problems(data, skipped, has_duplicates)
        return I18nextMessages(texts, blockers, problems, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> I18nextDocument:
        return I18nextDocument(data)

    def sniff(self, head: bytes) -> bool:
        """JSON showing i18next's own traits: plural suffix keys, `$t(` nesting, or `{{name}}` without
        ICU arguments (ICU's `{n, plural, one {{n} item}}` also writes `{{`)."""
        if _SNIFF_PLURAL_KEY.search(head) or b"$t(" in head:
            return True
        return bool(_SNIFF_VARIABLE.search(head)) and not _SNIFF_ICU.search(head)


def _decode(data: bytes) -> str:
    codec, start = "utf-8", 0
    if data.startswith(b"\xef\xbb\xbf"):
        start = 3
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        codec, start = ("utf-16-le" if data[0] == 0xFF else "utf-16-be"), 2
    try:
        return data[start:].decode(codec)
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise CatalogFileError(f"the file is not valid {codec.upper()} (byte {error.start}); save it as UTF-8",
                               line) from None


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _parse(data: bytes) -> tuple[dict[str, Any], bool]:
    """The file's root object, and whether some object in it writes a key twice."""
    text = _decode(data)
    duplicated = False

    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        found = dict(pairs)
        if len(found) != len(pairs):
            duplicated = True
        return found

    try:
        root = json.loads(text, object_pairs_hook=pairs_to_dict, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise CatalogFileError(f"the file is not valid JSON: {error.msg.lower()}", error.lineno) from None
    except ValueError as error:  # NaN or Infinity, which JSON.parse refuses
        raise CatalogFileError(f"the file is not valid JSON: {error}") from None
    except RecursionError:
        raise CatalogFileError("the file nests objects too deeply to read") from None
    if root.__class__ is not dict:
        raise CatalogFileError(f"an i18next file holds one JSON object of keys and messages, not "
                               f"{_json_kind(root)}", 1)
    return root, duplicated


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    return {str: "a string", list: "an array", bool: "a boolean", dict: "an object"}.get(value.__class__, "a number")


Skipped = list[tuple[tuple[str, ...], str]]


def _flatten(root: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any], Skipped]:
    """(texts, blockers, skipped): string leaves by dot key; what a lookup finds that is not a string
    (objects and arrays as `_OBJECT`, numbers and booleans as themselves); paths left out, with why."""
    for value in root.values():
        if value.__class__ is not str:
            break
    else:
        return root, {}, []  # a flat file of strings is its own texts: no copy
    texts: dict[str, str] = {}
    blockers: dict[str, Any] = {}
    skipped: Skipped = []
    _walk(root, "", (), texts, blockers, skipped, root)
    return texts, blockers, skipped


def _walk(node: dict[str, Any], prefix: str, path: tuple[str, ...], texts: dict[str, str],
          blockers: dict[str, Any], skipped: Skipped, root: dict[str, Any]) -> None:
    for key, value in node.items():
        kind = value.__class__
        if kind is str:
            flat = prefix + key
            if flat in texts:
                _two_spellings(root, flat, texts, skipped)
            else:
                texts[flat] = value
        elif kind is dict:
            flat = prefix + key
            blockers.setdefault(flat, _OBJECT)
            _walk(value, flat + ".", (*path, key), texts, blockers, skipped, root)
        elif value is None:
            skipped.append(((*path, key), "the value is null, which i18next treats as missing: write a string "
                                          "or remove the key"))
        elif kind is list:
            blockers[prefix + key] = _OBJECT
            skipped.append(((*path, key), "the value is an array, which i18next returns only to "
                                          "t(key, {returnObjects: true}): write one string per key"))
        else:
            blockers[prefix + key] = value
            skipped.append(((*path, key), f"the value is {_json_kind(value)}, not a string: i18next returns it "
                                          "unformatted; write it in quotes"))


def _two_spellings(root: dict[str, Any], flat: str, texts: dict[str, str], skipped: Skipped) -> None:
    """One dot key written twice (`"a.b"` and `"a": {"b"}`): i18next's getPath walks the nested
    spelling first, so the one with the most levels is kept; the others are reported."""
    spellings = [path for path in _string_paths(root, ()) if ".".join(path) == flat]
    kept = max(spellings, key=len)
    value: Any = root
    for part in kept:
        value = value[part]
    texts[flat] = value
    for path in spellings:
        if path != kept and not any(done == path for done, _ in skipped):
            skipped.append((path, f"the key {flat!r} is also written with {len(kept) - 1} more level(s) of "
                                  "nested objects, which i18next reads instead: keep one spelling"))


def _string_paths(node: dict[str, Any], path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    for key, value in node.items():
        if value.__class__ is str:
            yield (*path, key)
        elif value.__class__ is dict:
            yield from _string_paths(value, (*path, key))


def _problems(data: bytes, skipped: Skipped, has_duplicates: bool) -> list[Problem]:
    """Problems with their lines, which only a parse that keeps offsets knows (a rare, slower path)."""
    from parlance_i18n.formats.jsontext import JsonDocument

    document: JsonDocument | None
    try:
        document = JsonDocument(data)
    except CatalogFileError:
        document = None
    problems = [Problem(".".join(path), document.line_of(path) if document else None, reason)
                for path, reason in skipped]
    if has_duplicates and document is not None:
        problems += [Problem(".".join(path), line, "the key is written more than once in its object; like "
                                                   "i18next, Parlance uses the last value: delete the others")
                     for path, line in document.duplicates()]
    problems.sort(key=lambda p: p.line or 0)
    return problems


# --- messages -----------------------------------------------------------------------------------------


def _base_of(key: str) -> str | None:
    """The key a plural form belongs to (`items` for `items_one`, `rank_ordinal_two`), or None."""
    if key.endswith(_FORM_SUFFIXES):
        for suffix in _FORM_SUFFIXES:
            if key.endswith(suffix) and len(key) > len(suffix):
                return key[:-len(suffix)]
    return None


class I18nextMessages(LocaleMessages):
    """One i18next file of one locale. Keys are i18next's dot keys; a plural group's base key
    (`items` for `items_one`, `items_other`) is a key too, rendered by `count` as `t()` renders it."""

    def __init__(self, texts: dict[str, str], blockers: dict[str, Any], problems: list[Problem],
                 tag: LocaleTag) -> None:
        self._texts = texts
        self._blockers = blockers
        self.problems = problems
        self.tag = tag
        self._messages: dict[str, _Message] = {}
        self._keys: tuple[str, ...] | None = None
        self._sorted: list[str] | None = None

    # --- the mapping ---------------------------------------------------------------------------------

    def text(self, key: str) -> Value | None:
        found = self._texts.get(key)
        if found is not None:
            return found
        forms = {suffix[1:]: text for suffix, text in self._forms(key)}
        return forms or None

    def get(self, key: str, default: Any = None) -> Any:
        found = self._messages.get(key)
        if found is None:
            if not (self._texts.get(key) or self._has_forms(key) or self._has_context_forms(key)):
                return default
            found = self._messages[key] = _Message(self, key)
        return found

    def __contains__(self, key: object) -> bool:
        return key.__class__ is str and bool(self._texts.get(key) or self._has_forms(key))  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        return iter(self._key_list())

    def __len__(self) -> int:
        return len(self._key_list())

    @property
    def file_keys(self) -> list[str]:
        """Every key with a text as the file writes it, plural forms included (`items_one`)."""
        return [key for key, text in self._texts.items() if text]

    def _key_list(self) -> tuple[str, ...]:
        """Translatable keys in file order; a plural group is one key, its base, where its first form is.

        The forms (`items_one`, `items_few`) stay gettable, but are not listed: which a locale has is
        its plural rules' business, so checks compare groups, not forms (`ru` has `items_few`, `ja`
        only `items_other`), and find a group's missing categories from its `plurals`.
        """
        if self._keys is None:
            keys: list[str] = []
            texts = self._texts
            bases: set[str] = set()
            for key, text in texts.items():
                if not text:
                    continue
                base = _base_of(key)
                if base is None:
                    if key not in bases:
                        keys.append(key)
                        bases.add(key)
                elif base not in bases:
                    bases.add(base)
                    keys.append(base)
            self._keys = tuple(keys)
        return self._keys

    def _forms(self, key: str) -> list[tuple[str, str]]:
        """(suffix, text) of `key`'s plural forms present with a text, cardinal then ordinal."""
        texts = self._texts
        return [(suffix, texts[key + suffix]) for suffix in _CARDINAL_SUFFIXES + _ORDINAL_SUFFIXES
                if texts.get(key + suffix)]

    def _has_forms(self, key: str) -> bool:
        texts = self._texts
        return any(texts.get(key + suffix) for suffix in _FORM_SUFFIXES)

    def _has_context_forms(self, key: str) -> bool:
        """Whether some `key_<context>` has a text: `t(key, {context})` then finds a message."""
        if self._sorted is None:
            self._sorted = sorted(k for k, text in self._texts.items() if text)
        prefix = key + "_"
        at = bisect.bisect_left(self._sorted, prefix)
        return at < len(self._sorted) and self._sorted[at].startswith(prefix)

    @functools.cached_property
    def _intl(self) -> _Intl:
        return _intl_for(self.tag)

    # --- rendering (i18next's Translator, Interpolator and Formatter, in that order) -------------------

    def _render(self, key: str, values: Mapping[str, Any], limit: int) -> str:
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
        if found is not _MISSING and found is not _OBJECT:
            return _js_string(found)  # a number or boolean in the file: t() returns it as is
        default = _default_value(values, self)
        if default is _MISSING or default is None:
            return self._extend(key, called, values, parent, False, budget, depth)
        if default.__class__ is str:
            return self._extend(default, called, values, parent, False, budget, depth) if default else ""
        return _js_string(default)

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
        if _js_truthy(values.get("skipInterpolation")):
            return text
        before = len(_NESTING.findall(text)) if "$t(" in text else 0
        text = self._interpolate(text, values)
        after = len(_NESTING.findall(text)) if "$t(" in text else 0
        # a variable that brought `$t(` in turns nesting off for this message (skipOnVariables)
        if values.get("nest") is False or before < after:
            return text
        if resolved and not _js_truthy(values.get("lng")):
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
                value = self._variable(match.group(1).strip(_JS_SPACE), data)
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
        """A `{{...}}`'s value: `name`, or `name, format` formatted; `_MISSING` when not given."""
        if "," not in name:
            return _find_variable(data, name)
        variable, _, spec = name.partition(",")
        variable = variable.strip(_JS_SPACE)
        value = _find_variable(data, variable)
        return self._format(value, spec.strip(_JS_SPACE), {**data, "interpolationkey": variable})

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
            except (_IntlError, ArithmeticError, ValueError, TypeError, OverflowError, LookupError):
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
                formats = [f for f in (p.strip(_JS_SPACE) for p in inner[cut:].split(",")) if f]
                inner = inner[:cut]
            key, nested_options = self._nesting_options(inner.strip(_JS_SPACE), inherited)
            value = ""
            if key == parent and not _js_truthy(options.get("context")):
                value = ""  # i18next refuses a key nesting the key that nested it
            elif depth < _MAX_DEPTH and budget.calls < _MAX_NESTED:
                budget.calls += 1
                value = self._translate(key, nested_options, called, budget, depth + 1)
            if formats:
                formatted: Any = value.strip(_JS_SPACE)
                for spec in formats:
                    formatted = self._format(formatted, spec, {**options, "interpolationkey": inner.strip(_JS_SPACE)})
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
            parsed = json.loads(written, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return f"{key},{written}", inherited
        if parsed.__class__ is not dict:
            return f"{key},{written}", inherited
        return key, {**inherited, **parsed}

    # --- what checks see -----------------------------------------------------------------------------

    def _source(self, key: str) -> str:
        own = self._texts.get(key)
        if own:
            return own
        forms = dict(self._forms(key))
        return forms.get("_other") or next(iter(forms.values()), "")

    def _arguments(self, key: str) -> frozenset[str]:
        texts = [self._texts.get(key) or ""] + [text for _, text in self._forms(key)]
        names = {name for text in texts for name in _variable_names(text)}
        if len(texts) > 1 or _base_of(key) is not None:
            names.add("count")  # every form of a plural group is rendered with count
        return frozenset(names)

    def _plurals(self, key: str) -> tuple[PluralUse, ...]:
        from parlance_i18n.messageformat import PluralUse

        forms = [suffix for suffix, _ in self._forms(key)]
        cardinal = frozenset(s[1:] for s in forms if not s.startswith("_ordinal_"))
        ordinal = frozenset(s[len("_ordinal_"):] for s in forms if s.startswith("_ordinal_"))
        uses = []
        if cardinal:
            uses.append(PluralUse("count", False, cardinal))
        if ordinal:
            uses.append(PluralUse("count", True, ordinal))
        return tuple(uses)


class _Budget:
    """What one render may still spend: nested calls, and the length past which text is not kept."""

    __slots__ = ("calls", "limit")

    def __init__(self, limit: int) -> None:
        self.calls = 0
        self.limit = limit


class _Message:
    """A key as the app calls it: resolved (plural form, context) and rendered on each `render`."""

    __slots__ = ("_messages", "_key", "_arguments", "_plurals")

    def __init__(self, messages: I18nextMessages, key: str) -> None:
        self._messages = messages
        self._key = key
        self._arguments: frozenset[str] | None = None
        self._plurals: tuple[PluralUse, ...] | None = None

    @property
    def source(self) -> str:
        return self._messages._source(self._key)

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._messages._render(self._key, values or {}, limit)

    @property
    def arguments(self) -> frozenset[str]:
        if self._arguments is None:
            self._arguments = self._messages._arguments(self._key)
        return self._arguments

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        if self._plurals is None:
            self._plurals = self._messages._plurals(self._key)
        return self._plurals

    def __repr__(self) -> str:
        return f"<i18next message {self._key!r}>"


def _variable_names(text: str) -> list[str]:
    names = []
    for match in _VARIABLE.finditer(text):
        inner = match.group(1)
        if inner.startswith("-"):
            inner = inner[1:]
        name = inner.partition(",")[0].strip(_JS_SPACE)
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
    ordinal = _js_truthy(values.get("ordinal"))
    zero = plural and not ordinal and (count.__class__ is int or count.__class__ is float) and count == 0
    keys = [key]
    suffix = category = ""
    if plural:
        category = _plural_category(count, ordinal, rules)
        suffix = f"_ordinal_{category}" if ordinal else f"_{category}"
        if ordinal:
            keys.append(f"{key}_{category}")
        keys.append(key + suffix)
        if zero:
            keys.append(f"{key}_zero")
    if contextual:
        with_context = f"{key}_{_js_string(context)}"
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


def _plural_category(count: Any, ordinal: bool, rules: PluralRules) -> str:
    """`Intl.PluralRules.select(count)`: the number as Intl sees it, rounded to 3 fraction digits."""
    number = _js_to_number(count)
    if not math.isfinite(number):
        return "other"
    operand: int | Decimal
    if number == int(number):
        operand = int(number)
    else:
        with localcontext(prec=400):
            exact = Decimal(repr(number))
            if exact.as_tuple().exponent < -3:  # type: ignore[operator]
                exact = exact.quantize(Decimal("0.001"), ROUND_HALF_UP)
            exact = exact.normalize()
            operand = int(exact) if exact == exact.to_integral_value() else exact
    return rules.ordinal(operand) if ordinal else rules.cardinal(operand)


def _default_value(values: Mapping[str, Any], messages: I18nextMessages) -> Any:
    """The `defaultValue` (or `defaultValue_<suffix>`) option t() would use, or `_MISSING`."""
    if not any(k.__class__ is str and k.startswith("defaultValue") for k in values):
        return _MISSING
    rules = messages._intl.rules
    count = values.get("count", _MISSING)
    plural = count is not _MISSING and count.__class__ is not str
    ordinal = _js_truthy(values.get("ordinal"))
    found: Any = None
    if plural:
        category = _plural_category(count, ordinal, rules)
        zero = not ordinal and count.__class__ in (int, float) and count == 0
        candidates = [values.get("defaultValue_zero") if zero else None,
                      values.get(f"defaultValue_ordinal_{category}" if ordinal else f"defaultValue_{category}"),
                      values.get(f"defaultValue_{_plural_category(count, False, rules)}") if ordinal else None]
        found = next((c for c in candidates if _js_truthy(c)), None)
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
        if not _js_truthy(node) or node.__class__ is str:
            return _MISSING
        node = _own(node, part.replace("###", "."))
        if node is _MISSING:
            node = {}
    if not _js_truthy(node) or node.__class__ is str:
        return _MISSING
    return _own(node, parts[-1].replace("###", "."))


def _deep_find(data: Any, name: str) -> Any:
    if not _js_truthy(data):
        return _MISSING
    direct = _own(data, name)
    if direct is not _MISSING and _js_truthy(direct):
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


# --- JavaScript values --------------------------------------------------------------------------------


def _js_truthy(value: Any) -> bool:
    if value is None or value is _MISSING:
        return False
    kind = value.__class__
    if kind is float:
        return value == value and value != 0
    if kind in (dict, list):
        return True
    return bool(value)


def _make_string(value: Any) -> str:
    """i18next's makeString: String(value), but '' for null."""
    return "" if value is None or value is _MISSING else _js_string(value)


def _js_string(value: Any) -> str:
    """`String(value)` for a value that came from JSON."""
    kind = value.__class__
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is int:
        if -(2**53) <= value <= 2**53:
            return str(value)
        return _js_number_text(_int_to_double(value))
    if kind is float or kind is Decimal:
        return _js_number_text(float(value))
    if kind is list or kind is tuple:
        return ",".join("" if item is None else _js_string(item) for item in value)
    return "[object Object]"


def _int_to_double(value: int) -> float:
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _js_number_text(number: float) -> str:
    """Number::toString: the shortest digits that round-trip (as Python's repr), JavaScript's layout."""
    if number != number:
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(number))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent = int(exponent) + len(digit_tuple) - len(digits)
    count = len(digits)
    point = exponent + count  # the value is 0.<digits> x 10^point
    if count <= point <= 21:
        return sign + digits + "0" * (point - count)
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    power = point - 1
    mantissa = digits[0] + (f".{digits[1:]}" if count > 1 else "")
    return f"{sign}{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"


def _js_to_number(value: Any) -> float:
    """`Number(value)` for a value that came from JSON."""
    kind = value.__class__
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return 1.0 if value else 0.0
    if kind is int:
        return _int_to_double(value)
    if value is None:
        return 0.0
    if kind is Decimal:
        return float(value)
    if kind is str:
        text = value.strip(_JS_SPACE)
        if not text:
            return 0.0
        if _JS_DECIMAL.fullmatch(text):
            return float(text)
        if _JS_RADIX.fullmatch(text):
            return float(int(text, 0))
        return math.nan
    if kind is list or kind is tuple:
        return _js_to_number(_js_string(value))
    return math.nan


def _js_parse_int(text: str) -> float:
    match = _JS_INT_PREFIX.match(text)
    return float(int(match.group(1))) if match else math.nan


# --- formats: i18next's Formatter over an emulation of Intl --------------------------------------------


def _parse_format(spec: str) -> tuple[str, dict[str, Any]]:
    """`parseFormatStr`: `currency(EUR)`, `number(minimumFractionDigits: 2; useGrouping: false)`."""
    name = spec.lower().strip(_JS_SPACE)
    options: dict[str, Any] = {}
    if "(" in spec:
        parts = spec.split("(")
        name = parts[0].lower().strip(_JS_SPACE)
        written = parts[1][:-1]
        if name == "currency" and ":" not in written:
            options["currency"] = written.strip(_JS_SPACE)
        elif name == "relativetime" and ":" not in written:
            options["range"] = written.strip(_JS_SPACE)
        else:
            for option in written.split(";"):
                if not option:
                    continue
                option_name, *rest = option.split(":")
                value: Any = re.sub(r"^'+|'+$", "", ":".join(rest).strip(_JS_SPACE))
                option_name = option_name.strip(_JS_SPACE)
                text = value
                if not _js_truthy(options.get(option_name)):
                    options[option_name] = value
                if text == "false":
                    options[option_name] = False
                if text == "true":
                    options[option_name] = True
                if not math.isnan(_js_to_number(text)):
                    options[option_name] = _js_parse_int(text)
    return name, options


# Numbering systems CLDR makes a locale's default, by the code point of their zero.
_ZEROS = {"arab": 0x660, "arabext": 0x6F0, "beng": 0x9E6, "deva": 0x966, "mymr": 0x1040, "tibt": 0xF20,
          "olck": 0x1C50, "mtei": 0xABF0, "adlm": 0x1E950, "nkoo": 0x7C0, "rohg": 0x10D30, "hmnp": 0x1E140,
          "gujr": 0xAE6, "guru": 0xA66, "knda": 0xCE6, "mlym": 0xD66, "orya": 0xB66, "tamldec": 0xBE6,
          "telu": 0xC66, "thai": 0xE50, "laoo": 0xED0, "khmr": 0x17E0, "java": 0xA9D0, "fullwide": 0xFF10}
# CLDR's minimumGroupingDigits (numbers.json), which Babel's data does not carry: these locales write
# 1234 ungrouped and group from 10 000 on (es except Latin America, pt except Brazil and Angola).
_MIN_GROUPING_TWO = frozenset({"be", "bg", "es", "et", "hu", "hy", "ia", "ie", "it", "ka", "lv", "pl", "sl", "sq"})
_MIN_GROUPING_TWO_REGIONS = {"pt": frozenset({"CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "PT", "ST", "TL"}),
                             "ru": frozenset({"UA"})}
_UNITS = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
_LIST_STYLES = {("conjunction", "long"): "standard", ("conjunction", "short"): "standard-short",
                ("conjunction", "narrow"): "standard-narrow", ("disjunction", "long"): "or",
                ("disjunction", "short"): "or-short", ("disjunction", "narrow"): "or-narrow",
                ("unit", "long"): "unit", ("unit", "short"): "unit-short", ("unit", "narrow"): "unit-narrow"}


@functools.lru_cache(maxsize=64)
def _intl_for(tag: LocaleTag) -> _Intl:
    return _Intl(tag)


class _Intl:
    """`Intl.NumberFormat`, `DateTimeFormat`, `RelativeTimeFormat`, `ListFormat` and `PluralRules` for one
    locale, from Babel's CLDR data, as far as that data allows.

    Matches Intl (Node 20, CLDR 48) for: decimal, percent and currency numbers with the fraction,
    integer and significant digit options, grouping (with CLDR's minimum grouping digits), sign display
    and the locale's own digits; dates with the default or component options; relative times with
    `numeric: "always"`; lists. Differs: `notation` other than standard, `style: "unit"` and
    `currencyDisplay: "narrowSymbol"` render as standard / as the value / as the symbol; relative times
    with `numeric: "auto"` say "in 1 day", not "tomorrow" (Babel has no such phrases); dates format in UTC
    unless `timeZone` is given (Intl: the process's zone); `dateStyle` with `timeStyle` joins them with
    CLDR's plain pattern ("{1}, {0}") where ICU may use "{1} 'at' {0}"; Spanish lists keep "y" before an
    "i" sound (ICU writes "e").
    """

    def __init__(self, tag: LocaleTag) -> None:
        from babel import Locale

        from parlance_i18n.plurals import plural_rules

        self.tag = tag
        self.rules = plural_rules(tag)
        self.locale: Locale = babel_locale(tag) or Locale("en")
        system = self.locale.default_numbering_system or "latn"
        symbols = self.locale.number_symbols
        self.symbols = symbols[system] if system in symbols else symbols["latn"]
        zero = _ZEROS.get(system)
        self.digits = str.maketrans("0123456789", "".join(chr(zero + i) for i in range(10))) if zero else None
        self.min_grouping = _min_grouping(tag)

    # --- numbers -------------------------------------------------------------------------------------

    def number(self, value: Any, options: Mapping[str, Any], style: str | None = None,
               mode: str = ROUND_HALF_UP) -> str:
        """`Intl.NumberFormat(locale, options).format(value)`; `mode` is how it rounds (half away from zero;
        RelativeTimeFormat's numbers round half to even)."""
        number = _js_to_number(value)
        style = style or _string_option(options, "style", ("decimal", "percent", "currency", "unit"), "decimal")
        currency = options.get("currency")
        if currency is not None:
            currency = _js_string(currency)
            if not re.fullmatch("[A-Za-z]{3}", currency):
                raise _IntlError(f"invalid currency code {currency!r}")
            currency = currency.upper()
        if style == "currency" and currency is None:
            raise _IntlError("currency style needs a currency")
        if style == "unit":
            raise _IntlError("unit style is not emulated")
        display = _string_option(options, "currencyDisplay", ("code", "symbol", "narrowSymbol", "name"), "symbol")
        sign = _string_option(options, "currencySign", ("standard", "accounting"), "standard")
        sign_display = _string_option(options, "signDisplay",
                                      ("auto", "never", "always", "exceptZero", "negative"), "auto")
        grouping = self._grouping(options)
        rounding = (*_digit_options(options, style, currency), mode)
        if style == "currency" and display == "name":
            return self._currency_name(number, currency or "", rounding, grouping)
        if style == "percent":
            pattern = self.locale.percent_formats[None]
        elif style == "currency":
            pattern = self.locale.currency_formats["accounting" if sign == "accounting" else "standard"]
        else:
            pattern = self.locale.decimal_formats[None]
        body, negative, zero = self._digits(number, style == "percent", rounding, pattern.grouping, grouping)
        if math.isnan(number) or sign_display == "never":
            form = "positive"
        elif sign_display == "auto":
            form = "negative" if negative else "positive"
        elif sign_display == "always":
            form = "negative" if negative else "plus"
        elif sign_display == "exceptZero":
            form = "positive" if zero else ("negative" if negative else "plus")
        else:
            form = "negative" if negative and not zero else "positive"
        index = 0 if form == "positive" else 1
        prefix, suffix = pattern.prefix[index], pattern.suffix[index]
        if form == "plus":
            prefix, suffix = prefix.replace("-", "+"), suffix.replace("-", "+")
        symbol = ""
        if style == "currency" and currency is not None:
            symbol = currency if display == "code" else self._currency_symbol(currency)
        prefix, suffix = self._affix(prefix, symbol), self._affix(suffix, symbol)
        if symbol and body[:1].isdigit() or symbol and body[-1:].isdigit():
            prefix, suffix = _currency_spacing(prefix, suffix, symbol, body)
        return prefix + body + suffix

    def _currency_symbol(self, currency: str) -> str:
        from babel.numbers import get_currency_symbol

        return str(get_currency_symbol(currency, self.locale))

    def _currency_name(self, number: float, currency: str, rounding: tuple[Any, ...],
                       grouping: int | None) -> str:
        from babel.numbers import get_currency_name

        pattern = self.locale.decimal_formats[None]
        body, negative, _ = self._digits(number, False, rounding, pattern.grouping, grouping)
        shown = (self._affix(pattern.prefix[1], "") if negative else "") + body
        category = self.rules.cardinal(_plural_operand_of(abs(number), rounding))
        name = get_currency_name(currency, 2 if category != "one" else 1, self.locale)
        units = self.locale._data["currency_unit_patterns"]
        template = units.get(category) or units.get("other") or "{0} {1}"
        return str(template).replace("{0}", shown).replace("{1}", str(name))

    def _grouping(self, options: Mapping[str, Any]) -> int | None:
        """The least number of digits before the first group separator, or None for no grouping."""
        if "useGrouping" not in options:
            return self.min_grouping
        value = options["useGrouping"]
        if value is True:
            return 1
        if not _js_truthy(value):
            return None
        text = _js_string(value)
        if text in ("true", "false", "auto"):
            return self.min_grouping
        if text == "always":
            return 1
        if text == "min2":
            return 2
        raise _IntlError(f"invalid useGrouping {text!r}")

    def _digits(self, number: float, percent: bool, rounding: tuple[Any, ...], sizes: tuple[int, int],
                grouping: int | None) -> tuple[str, bool, bool]:
        """(the number's digits with separators, whether it is negative, whether it shows as zero)."""
        symbols = self.symbols
        if math.isnan(number):
            return str(symbols.get("nan", "NaN")), False, False
        if math.isinf(number):
            return str(symbols.get("infinity", "∞")), number < 0, False
        with localcontext(prec=1000):
            exact = Decimal(repr(number))
            if percent:
                exact = exact.scaleb(2)
            negative = exact.is_signed()
            whole, fraction = _round(abs(exact), rounding)
        whole = whole.rjust(rounding[0], "0")
        first, rest = sizes
        if grouping is not None and 0 < first < len(whole) and len(whole) >= first + grouping:
            groups = [whole[-first:]]
            head = whole[:-first]
            while len(head) > rest > 0:
                groups.append(head[-rest:])
                head = head[:-rest]
            groups.append(head)
            whole = str(symbols.get("group", ",")).join(reversed(groups))
        body = whole + (str(symbols.get("decimal", ".")) + fraction if fraction else "")
        if self.digits is not None:
            body = body.translate(self.digits)
        zero = not any(c in "123456789" for c in whole + fraction)
        return body, negative, zero

    def _affix(self, affix: str, symbol: str) -> str:
        if not affix:
            return affix
        symbols = self.symbols
        out = []
        for char in re.sub(r"'([^']*)'", lambda m: m.group(1) or "'", affix):
            if char == "-":
                out.append(str(symbols.get("minusSign", "-")))
            elif char == "+":
                out.append(str(symbols.get("plusSign", "+")))
            elif char == "%":
                out.append(str(symbols.get("percentSign", "%")))
            elif char == "‰":
                out.append(str(symbols.get("perMille", "‰")))
            elif char == "¤":
                out.append(symbol)
            else:
                out.append(char)
        return "".join(out)

    # --- dates, relative times, lists ----------------------------------------------------------------

    def datetime(self, value: Any, options: Mapping[str, Any]) -> str:
        from babel.dates import format_date, format_time

        number = _js_to_number(value)
        if not math.isfinite(number) or abs(number) > 8.64e15:
            raise _IntlError("Invalid time value")
        zone: _dt.tzinfo = _dt.UTC
        if options.get("timeZone") is not None:
            from zoneinfo import ZoneInfo

            try:
                zone = ZoneInfo(_js_string(options["timeZone"]))
            except (ValueError, OSError, LookupError) as error:
                raise _IntlError(f"invalid time zone: {error}") from None
        moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(milliseconds=math.trunc(number))
        styles = ("full", "long", "medium", "short")
        date_style = _string_option(options, "dateStyle", styles, None)
        time_style = _string_option(options, "timeStyle", styles, None)
        skeleton = self._skeleton(options)
        if date_style or time_style:
            if skeleton:
                raise _IntlError("dateStyle and timeStyle cannot be combined with other date options")
            local = moment.astimezone(zone)
            date = format_date(local, date_style, locale=self.locale) if date_style else None
            time = format_time(moment, time_style, tzinfo=zone, locale=self.locale) if time_style else None
            if date and time:
                joined = str(self.locale.datetime_formats[date_style]).replace("{1}", date).replace("{0}", time)
            else:
                joined = date or time or ""
        else:
            joined = self._skeleton_text(skeleton or "yMd", moment, zone)
        joined = str(joined).replace("\u202f", " ")  # V8 writes a plain space where CLDR has U+202F
        return joined.translate(self.digits) if self.digits is not None else joined

    def _skeleton_text(self, skeleton: str, moment: _dt.datetime, zone: _dt.tzinfo) -> str:
        """A moment by a skeleton, as ICU's DateTimePatternGenerator picks and adjusts the pattern (with
        V8's option that hours take the requested width); a skeleton CLDR has no pattern for is split
        into its date and time parts, joined by the locale's date-time pattern."""
        from babel.dates import format_datetime, match_skeleton

        available = self.locale.datetime_skeletons
        matched = skeleton if skeleton in available else match_skeleton(skeleton, available)
        if matched is not None:
            pattern = _adjust_widths(str(available[matched].pattern), _fields(skeleton), _fields(matched))
            return str(format_datetime(moment, pattern, tzinfo=zone, locale=self.locale))
        date = "".join(c for c in skeleton if c in _DATE_LETTERS)
        time = "".join(c for c in skeleton if c not in _DATE_LETTERS)
        if not date or not time:
            raise _IntlError(f"no pattern for {skeleton!r}")
        style = "full" if "MMMM" in date and "E" in date else "long" if "MMMM" in date else \
            "medium" if "MMM" in date else "short"
        template = str(self.locale.datetime_formats[style])
        return template.replace("{1}", self._skeleton_text(date, moment, zone)).replace(
            "{0}", self._skeleton_text(time, moment, zone))

    def _skeleton(self, options: Mapping[str, Any]) -> str:
        fields = {"weekday": {"narrow": "EEEEE", "short": "EEE", "long": "EEEE"},
                  "year": {"numeric": "y", "2-digit": "yy"},
                  "month": {"numeric": "M", "2-digit": "MM", "short": "MMM", "long": "MMMM", "narrow": "MMMMM"},
                  "day": {"numeric": "d", "2-digit": "dd"},
                  "hour": {"numeric": "j", "2-digit": "jj"},
                  "minute": {"numeric": "m", "2-digit": "mm"},
                  "second": {"numeric": "s", "2-digit": "ss"},
                  "timeZoneName": {"short": "z", "long": "zzzz", "shortOffset": "O", "longOffset": "OOOO"}}
        skeleton = ""
        for field, letters in fields.items():
            chosen = _string_option(options, field, tuple(letters), None)
            if chosen:
                skeleton += letters[chosen]
        if "j" in skeleton:
            cycle = _string_option(options, "hourCycle", ("h11", "h12", "h23", "h24"), None)
            hour12 = options.get("hour12")
            if hour12 is not None:
                letter = "h" if _js_truthy(hour12) else "H"
            elif cycle:
                letter = {"h11": "K", "h12": "h", "h23": "H", "h24": "k"}[cycle]
            else:
                short_time = str(self.locale.time_formats["short"].pattern)
                letter = next((c for c in "hHKk" if c in short_time), "H")
            skeleton = skeleton.replace("j", letter)
        return skeleton

    def relativetime(self, value: Any, options: Mapping[str, Any]) -> str:
        number = _js_to_number(value)
        if not math.isfinite(number):
            raise _IntlError("relative time needs a finite number")
        unit = _js_string(options.get("range") or "day")
        if unit.endswith("s") and unit[:-1] in _UNITS:
            unit = unit[:-1]
        if unit not in _UNITS:
            raise _IntlError(f"invalid unit {unit!r}")
        style = _string_option(options, "style", ("long", "short", "narrow"), "long")
        _string_option(options, "numeric", ("always", "auto"), "always")  # validated; "auto" renders as always
        fields = self.locale._data["date_fields"]
        direction = "past" if number < 0 or (number == 0 and math.copysign(1.0, number) < 0) else "future"
        shown = self.number(abs(number), {}, mode=ROUND_HALF_EVEN)
        category = self.rules.cardinal(_plural_operand_of(abs(number), (1, "fraction", 0, 3, ROUND_HALF_EVEN)))
        template = None
        for name in ((f"{unit}-{style}",) if style != "long" else ()) + (unit,):  # a short style inherits
            patterns = fields.get(name, {}).get(direction)
            if patterns:
                template = patterns.get(category) or patterns.get("other")
                break
        if template is None:
            raise _IntlError(f"no relative time pattern for {unit!r}")
        return str(template).replace("{0}", shown)

    def list(self, value: Any, options: Mapping[str, Any]) -> str:
        from babel.lists import format_list

        if value.__class__ is str:
            items = list(value)
        elif value.__class__ in (list, tuple) and all(item.__class__ is str for item in value):
            items = list(value)
        else:
            raise _IntlError("a list format needs a list of strings")
        kind = _string_option(options, "type", ("conjunction", "disjunction", "unit"), "conjunction")
        style = _string_option(options, "style", ("long", "short", "narrow"), "long")
        if not items:
            return ""
        return str(format_list(items, style=_LIST_STYLES[kind, style], locale=self.locale))  # type: ignore[arg-type]


_DATE_LETTERS = frozenset("GyYuUrQqMLlwWdDFgEec")
_FIELD_KIND = {"L": "M", "c": "E", "e": "E", "h": "H", "K": "H", "k": "H", "Y": "y", "u": "y"}


def _fields(skeleton: str) -> dict[str, tuple[str, int]]:
    """Each field of a skeleton by kind (hours are one kind, whatever their cycle): (letter, width)."""
    found: dict[str, tuple[str, int]] = {}
    for run in re.finditer(r"([A-Za-z])\1*", skeleton):
        letter = run.group(1)
        found[_FIELD_KIND.get(letter, letter)] = (letter, len(run.group()))
    return found


def _numeric(letter: str, width: int) -> bool:
    if letter in "MLec":
        return width <= 2
    return letter in "yYudDHhKkmsSgFw"


def _adjust_widths(pattern: str, wanted: dict[str, tuple[str, int]], matched: dict[str, tuple[str, int]]) -> str:
    """ICU's adjustFieldTypes: a field takes the requested width when the matched skeleton wrote it at
    another width and both are numbers or both are words; hours always do; minutes and seconds never."""
    def adjust(run: re.Match[str]) -> str:
        token = run.group()
        if token.startswith("'"):
            return token
        letter, width = token[0], len(token)
        kind = _FIELD_KIND.get(letter, letter)
        if kind not in wanted or kind in ("m", "s"):
            return token
        wanted_letter, wanted_width = wanted[kind]
        if kind == "H":
            return letter * wanted_width
        matched_width = matched.get(kind, ("", 0))[1]
        if matched_width == wanted_width or _numeric(letter, width) != _numeric(wanted_letter, wanted_width):
            return token
        return letter * wanted_width

    return re.sub(r"'(?:[^']|'')*'|([A-Za-z])\1*", adjust, pattern)


def _min_grouping(tag: LocaleTag) -> int:
    if tag.language == "es":
        parent = cldr_parent(tag) if tag.region else None
        return 1 if tag.region == "419" or (parent is not None and parent.region == "419") else 2
    if tag.language in _MIN_GROUPING_TWO:
        return 2
    regions = _MIN_GROUPING_TWO_REGIONS.get(tag.language)
    if regions is not None and tag.region in regions:
        return 2
    return 3 if tag.language == "ee" else 1


def _string_option(options: Mapping[str, Any], name: str, allowed: tuple[str, ...], default: Any) -> Any:
    value = options.get(name)
    if value is None:
        return default
    text = _js_string(value)
    if text not in allowed:
        raise _IntlError(f"invalid {name} {text!r}")
    return text


def _number_option(options: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = options.get(name)
    if value is None:
        return None
    number = _js_to_number(value)
    if math.isnan(number) or not low <= number <= high:
        raise _IntlError(f"{name} out of range")
    return math.floor(number)


def _digit_options(options: Mapping[str, Any], style: str, currency: str | None) -> tuple[Any, ...]:
    """(minimum integer digits, "fraction", min, max) or (minimum integer digits, "significant", min, max),
    resolved as `SetNumberFormatDigitOptions` resolves them."""
    integer = _number_option(options, "minimumIntegerDigits", 1, 21) or 1
    least_sig = _number_option(options, "minimumSignificantDigits", 1, 21)
    most_sig = _number_option(options, "maximumSignificantDigits", 1, 21)
    if least_sig is not None or most_sig is not None:
        least_sig = least_sig or 1
        most_sig = most_sig if most_sig is not None else 21
        if least_sig > most_sig:
            raise _IntlError("minimumSignificantDigits is above maximumSignificantDigits")
        return integer, "significant", least_sig, most_sig
    if style == "currency":
        from babel.numbers import get_currency_precision

        default_least = default_most = get_currency_precision(currency or "XXX")
    else:
        default_least, default_most = 0, (0 if style == "percent" else 3)
    least = _number_option(options, "minimumFractionDigits", 0, 100)
    most = _number_option(options, "maximumFractionDigits", 0, 100)
    if least is None and most is None:
        least, most = default_least, default_most
    elif most is None:
        assert least is not None
        most = max(default_most, least)
    elif least is None:
        least = min(default_least, most)
    elif least > most:
        raise _IntlError("minimumFractionDigits is above maximumFractionDigits")
    return integer, "fraction", least, most


def _round(value: Decimal, rounding: tuple[Any, ...]) -> tuple[str, str]:
    """(integer digits, fraction digits) of a non-negative value rounded half away from zero."""
    _, kind, least, most, mode = rounding
    if kind == "fraction":
        rounded = value.quantize(Decimal(1).scaleb(-most), mode)
        whole, _, fraction = f"{rounded:f}".partition(".")
        fraction = fraction.rstrip("0")
        return whole, fraction.ljust(least, "0")
    if value == 0:
        return "0", "0" * (least - 1)
    rounded = value.quantize(Decimal(1).scaleb(value.adjusted() - most + 1), mode)
    whole, _, fraction = f"{rounded.normalize():f}".partition(".")
    shown = len((whole + fraction).lstrip("0"))
    return whole, fraction + "0" * max(0, least - shown)


def _plural_operand_of(number: float, rounding: tuple[Any, ...]) -> int | Decimal:
    whole, fraction = _round(Decimal(repr(number)), rounding)
    return Decimal(f"{whole}.{fraction}") if fraction else int(whole)


def _currency_spacing(prefix: str, suffix: str, symbol: str, body: str) -> tuple[str, str]:
    """CLDR currencySpacing: a no-break space between a currency symbol ending (or starting) in a letter
    and the digits it touches (`CHF 1.00`, but `$1.00`)."""
    def letter_like(char: str) -> bool:
        category = unicodedata.category(char)
        return not category.startswith(("S", "Z"))

    if prefix.endswith(symbol) and body[:1].isdigit() and letter_like(symbol[-1]):
        prefix += "\u00a0"
    if suffix.startswith(symbol) and body[-1:].isdigit() and letter_like(symbol[0]):
        suffix = "\u00a0" + suffix
    return prefix, suffix


Formatter = Callable[[_Intl, Any, Mapping[str, Any]], Any]
_FORMATTERS: dict[str, Formatter] = {
    "number": lambda intl, value, options: intl.number(value, options),
    "currency": lambda intl, value, options: intl.number(value, options, "currency"),
    "datetime": lambda intl, value, options: intl.datetime(value, options),
    "relativetime": lambda intl, value, options: intl.relativetime(value, options),
    "list": lambda intl, value, options: intl.list(value, options),
}


# --- editing ------------------------------------------------------------------------------------------


class I18nextDocument(Document):
    """An i18next file to edit, keyed by dot keys (`cart.items_one`) mapped to the file's paths.

    A key written literally with dots (`"cart.title": ...`) is that member, not a nested path; a new
    key goes where the file would write it: into the deepest existing object its dots name, then as
    one literal key in a flat object (one whose keys hold dots, or a root with no objects) or as
    nested objects otherwise.
    """

    def __init__(self, data: bytes) -> None:
        from parlance_i18n.formats.jsontext import JsonDocument

        self._json = JsonDocument(data)
        if not _decode(data).lstrip(" \t\r\n").startswith("{"):
            raise CatalogFileError("an i18next file holds one JSON object of keys and messages", 1)
        self._paths: dict[str, tuple[str, ...]] = {}
        for path, _ in self._json.leaves():
            key = ".".join(path)
            known = self._paths.get(key)
            if known is None or len(path) < len(known):
                self._paths[key] = path

    def keys(self) -> list[str]:
        return list(self._paths)

    def get(self, key: str) -> Value | None:
        path = self._paths.get(key)
        if path is None:
            return None
        value = self._json.value_at(path)
        return value if value.__class__ is str else None  # type: ignore[return-value]

    def line_of(self, key: str) -> int | None:
        path = self._paths.get(key)
        return None if path is None else self._json.line_of(path)

    def set(self, key: str, value: Value) -> None:
        path = self._paths[key]
        self._json.set_string(path, _string_value(key, value))

    def add(self, key: str, value: Value) -> None:
        if key in self._paths:
            raise KeyError(key)
        text = _string_value(key, value)
        path = self._path_for(key)
        self._json.add_string(path, text)
        self._paths[key] = path

    def delete(self, key: str) -> None:
        self._json.delete(self._paths.pop(key))

    def to_bytes(self) -> bytes:
        return self._json.to_bytes()

    def _path_for(self, key: str) -> tuple[str, ...]:
        paths = list(self._paths.values())
        container: tuple[str, ...] = ()
        rest = key
        while "." in rest:
            head, _, tail = rest.partition(".")
            inside = (*container, head)
            if not any(len(p) > len(inside) and p[:len(inside)] == inside for p in paths):
                break
            container, rest = inside, tail
        members = [p[len(container)] for p in paths if len(p) > len(container) and p[:len(container)] == container]
        flat = any("." in m for m in members) or (
            not container and not any(len(p) > 1 for p in paths) and bool(paths))
        if "." in rest and not flat:
            return (*container, *rest.split("."))
        return (*container, rest)


def _string_value(key: str, value: Value) -> str:
    if value.__class__ is not str:
        base = _base_of(key) or key
        raise TypeError(f"i18next messages are strings, and the plural forms of {base!r} are keys of their own "
                        f"({base}_one, {base}_other, ...): set each as a string")
    return value  # type: ignore[return-value]
