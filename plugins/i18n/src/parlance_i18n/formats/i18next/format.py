"""The `i18next` catalog format (JSON v4): read as i18next reads it, render as `t()` renders, edit in place.

Reading: `json.loads`, then nested objects flattened into i18next's dot keys (`cart.title`). A value
that is not a string (an array, a number, null) is reported as a `Problem` and left out, and so is a
second spelling of one key; a key written twice in one object is reported, and its last value used,
as `JSON.parse` (and so i18next) uses it.

Rendering follows i18next 27 with its default options, rule by rule (`i18next.render`); the interop test
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
  16 levels or 500 nested calls per render.
- Formats `number`, `currency`, `datetime`, `relativetime` and `list` emulate `Intl` with Babel's
  CLDR data (`intl.Intl` says what differs).

Not emulated: options that reconfigure i18next itself when passed as variables (`lng`, `lngs`, `ns`,
`replace`, `interpolation`, `postProcess`, `returnObjects`, `keySeparator`, ...), and fallback to another
language for a plural form a locale lacks: `render` answers for this file alone, so where i18next would
try the fallback language's `items_other` before answering the key, this renders the key.

Editing goes through `jsontext.JsonDocument`, which splices each change into the original text;
`i18next.keys.KeyPaths` maps dot keys to the file's paths and places new keys, at a cost in proportion
to the key's depth rather than the file's size. Deleting a key leaves its parent object in place, empty
when the key was its last member (`"photos": {}`): i18next and FormatJS read an empty object as holding
no messages, so it is harmless, and removing it too would change lines the edit did not name.
"""


from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Template,
    Value,
)
from parlance_i18n.formats.i18next import groups
from parlance_i18n.formats.i18next.groups import CARDINAL_SUFFIXES, FORM_SUFFIXES, ORDINAL_SUFFIXES
from parlance_i18n.formats.i18next.keys import KeyPaths
from parlance_i18n.formats.i18next.render import OBJECT, I18nextRenderer, variable_names
from parlance_i18n.formats.shared.js_values import reject_json_constant
from parlance_i18n.formats.shared.jsonscan import refuse_lone_surrogates
from parlance_i18n.formats.shared.limits import check_count, check_text
from parlance_i18n.formats.shared.textedit import detect_bom
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:
    from parlance_i18n.formats.shared.jsontext import JsonDocument
    from parlance_i18n.icu.messageformat import PluralUse

__all__ = ["I18nextDocument", "I18nextFormat", "I18nextMessages"]

_SNIFF_PLURAL_KEY = re.compile(rb'_(?:zero|one|two|few|many|other)"\s*:')
_SNIFF_VARIABLE = re.compile(rb"\{\{-?\s*[\w.\-]+\s*(?:,[^{}\"]*)?\}\}")
_SNIFF_ICU = re.compile(rb"(?<!\{)\{\s*[\w.\-]+\s*,\s*(?:plural|select|selectordinal|number|date|time)\s*[,}]")


# --- reading ------------------------------------------------------------------------------------------


class I18nextFormat(CatalogFormat):
    """i18next JSON v4 files, flat or nested (`locales/de/translation.json`); a plural's forms are keys
    of their own (`groups`)."""

    frameworks = ("i18next",)

    placeholder_pattern = re.compile(r"\{\{[^{}]+\}\}|\$t\([^()]*\)")

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> I18nextMessages:
        root, has_duplicates = _parse(data, limits)
        texts, blockers, skipped = _flatten(root)
        check_count(len(texts), limits)
        problems: list[Problem] = []
        if skipped or has_duplicates:
            problems = _problems(data, skipped, has_duplicates)
        return I18nextMessages(texts, blockers, problems, tag)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> I18nextDocument:
        return I18nextDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """An empty object in the layout's folder, as i18next-parser starts one (keys nest into it as the
        separator says)."""
        return b"{\n}\n"

    def sniff(self, head: bytes) -> bool:
        """JSON showing i18next's own traits: plural suffix keys, `$t(` nesting, or `{{name}}` without
        ICU arguments (ICU's `{n, plural, one {{n} item}}` also writes `{{`)."""
        if _SNIFF_PLURAL_KEY.search(head) or b"$t(" in head:
            return True
        return bool(_SNIFF_VARIABLE.search(head)) and not _SNIFF_ICU.search(head)

    def placeholder(self, name: str) -> str:
        return f"the placeholder {{{{{name}}}}}"

    def message_writes(self, document: Document, key: str, value: Value, tag: LocaleTag, *,
                       source: Value | None) -> list[tuple[str, Value]]:
        return groups.group_writes(document, key, value, source)

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """`Trans` tags kept and closed, no unclosed `{{` or `$t(` (`i18next.runtime`)."""
        from parlance_i18n.formats.i18next.runtime import runtime_refusals

        translation = written.text(key)
        return runtime_refusals(source, translation) if translation is not None else []

    def extra_plural_categories(self, tag: LocaleTag, ordinal: bool) -> frozenset[str]:
        """i18next looks a cardinal plural up as `key_zero` when the count is 0, whatever the language
        (since v21), and an ordinal one as `key_<ordinal category>` after `key_ordinal_<category>`:
        those forms are shown too."""
        if ordinal:
            return frozenset()
        from parlance_i18n.icu.plurals import plural_rules

        return frozenset({"zero"}) | plural_rules(tag).ordinal_categories

    def form_names(self, source: Mapping[str, str], cardinal: Sequence[str], ordinal: Sequence[str]) -> list[str]:
        return groups.form_names(source, cardinal, ordinal)

    def message_keys(self, document: Document, key: str) -> list[str]:
        return groups.group_keys(document, key)

    def part_order(self, key: str) -> Sequence[str]:
        return groups.part_order(key)

    def renamed_key(self, part: str, old: str, new: str) -> str:
        return groups.renamed_part(part, old, new) or super().renamed_key(part, old, new)


def _decode(data: bytes) -> str:
    bom, codec = detect_bom(data)
    try:
        return data[len(bom):].decode(codec)
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise CatalogFileError(f"the file is not valid {codec.upper()} (byte {error.start}); save it as UTF-8",
                               line) from None


def _parse(data: bytes, limits: ReadLimits) -> tuple[dict[str, Any], bool]:
    """The file's root object, and whether some object in it writes a key twice."""
    text = _decode(data)
    check_text(text, limits)
    duplicated = False

    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        found = dict(pairs)
        if len(found) != len(pairs):
            duplicated = True
        return found

    try:
        root = json.loads(text, object_pairs_hook=pairs_to_dict, parse_constant=reject_json_constant)
    except json.JSONDecodeError as error:
        raise CatalogFileError(f"the file is not valid JSON: {error.msg.lower()}", error.lineno) from None
    except ValueError as error:  # NaN or Infinity, which JSON.parse refuses
        raise CatalogFileError(f"the file is not valid JSON: {error}") from None
    except RecursionError:
        raise CatalogFileError("the file nests objects too deeply to read") from None
    refuse_lone_surrogates(text)
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
    (objects and arrays as `OBJECT`, numbers and booleans as themselves); paths left out, with why."""
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
            blockers.setdefault(flat, OBJECT)
            _walk(value, flat + ".", (*path, key), texts, blockers, skipped, root)
        elif value is None:
            skipped.append(((*path, key), "the value is null, which i18next treats as missing: write a string "
                                          "or remove the key"))
        elif kind is list:
            blockers[prefix + key] = OBJECT
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
    from parlance_i18n.formats.shared.jsontext import JsonDocument

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
    if key.endswith(FORM_SUFFIXES):
        for suffix in FORM_SUFFIXES:
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
        return key.__class__ is str and bool(self._texts.get(key) or self._has_forms(key))

    def __iter__(self) -> Iterator[str]:
        return iter(self._key_list())

    def __len__(self) -> int:
        return len(self._key_list())

    def document_order(self) -> Iterable[str]:
        """Every key as the file writes it, plural forms included (`items_one`), in file order: cheaper
        than the keys (no plural group is looked for) and what a Document names."""
        return self._texts.keys()

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
        return [(suffix, texts[key + suffix]) for suffix in CARDINAL_SUFFIXES + ORDINAL_SUFFIXES
                if texts.get(key + suffix)]

    def _has_forms(self, key: str) -> bool:
        texts = self._texts
        return any(texts.get(key + suffix) for suffix in FORM_SUFFIXES)

    def _has_context_forms(self, key: str) -> bool:
        """Whether some `key_<context>` has a text: `t(key, {context})` then finds a message."""
        if self._sorted is None:
            self._sorted = sorted(k for k, text in self._texts.items() if text)
        prefix = key + "_"
        at = bisect.bisect_left(self._sorted, prefix)
        return at < len(self._sorted) and self._sorted[at].startswith(prefix)

    @functools.cached_property
    def _renderer(self) -> I18nextRenderer:
        """i18next's `t()` over this file, made on the first render."""
        return I18nextRenderer(self._texts, self._blockers, self.tag)

    # --- what checks see -----------------------------------------------------------------------------

    def _source(self, key: str) -> str:
        own = self._texts.get(key)
        if own:
            return own
        forms = dict(self._forms(key))
        return forms.get("_other") or next(iter(forms.values()), "")

    def _arguments(self, key: str) -> frozenset[str]:
        texts = [self._texts.get(key) or ""] + [text for _, text in self._forms(key)]
        names = {name for text in texts for name in variable_names(text)}
        if len(texts) > 1 or _base_of(key) is not None:
            names.add("count")  # every form of a plural group is rendered with count
        return frozenset(names)

    def _plurals(self, key: str) -> tuple[PluralUse, ...]:
        from parlance_i18n.icu.messageformat import PluralUse

        forms = [suffix for suffix, _ in self._forms(key)]
        cardinal = frozenset(s[1:] for s in forms if not s.startswith("_ordinal_"))
        ordinal = frozenset(s[len("_ordinal_"):] for s in forms if s.startswith("_ordinal_"))
        uses = []
        if cardinal:
            uses.append(PluralUse("count", False, cardinal))
        if ordinal:
            uses.append(PluralUse("count", True, ordinal))
        return tuple(uses)


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
        return self._messages._renderer.render(self._key, values or {}, limit)

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


# --- editing ------------------------------------------------------------------------------------------


class I18nextDocument(Document):
    """An i18next file to edit, keyed by dot keys (`cart.items_one`) mapped to the file's paths.

    A key written literally with dots (`"cart.title": ...`) is that member, not a nested path; a new
    key goes where the file would write it: into the deepest existing object its dots name, then as
    one literal key in a flat object (one whose keys hold dots, or a root with no objects) or as
    nested objects otherwise.
    """

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        from parlance_i18n.formats.shared.jsontext import JsonDocument

        self._json = JsonDocument(data, limits)
        if not self._json.text().lstrip(" \t\r\n").startswith("{"):
            raise CatalogFileError("an i18next file holds one JSON object of keys and messages", 1)
        self._paths = KeyPaths(path for path, _ in self._json.leaves())
        check_count(len(self._paths.keys()), limits)

    def keys(self) -> list[str]:
        return self._paths.keys()

    def get(self, key: str) -> Value | None:
        path = self._paths.get(key)
        if path is None:
            return None
        value = self._json.value_at(path)
        return value if value.__class__ is str else None

    def line_of(self, key: str) -> int | None:
        path = self._paths.get(key)
        return None if path is None else self._json.line_of(path)

    def set(self, key: str, value: Value) -> None:
        path = self._paths.get(key)
        if path is None:
            raise KeyError(key)
        self._json.set_string(path, _string_value(key, value))

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if key in self._paths:
            raise KeyError(key)
        text = _string_value(key, value)
        path = self._paths.path_for(key)
        self._json.add_string(path, text, self._paths.get(after) if after is not None else None)
        self._paths.add(key, path)

    def delete(self, key: str) -> None:
        self._json.delete(self._paths.remove(key), prune=True)

    def to_bytes(self) -> bytes:
        return self._json.to_bytes()


def _string_value(key: str, value: Value) -> str:
    if value.__class__ is not str:
        base = _base_of(key) or key
        raise TypeError(f"i18next messages are strings, and the plural forms of {base!r} are keys of their own "
                        f"({base}_one, {base}_other, ...): set each as a string")
    return value
