"""Xcode String Catalogs (`Localizable.xcstrings`): every locale of an app's strings in one JSON file.

    {"sourceLanguage": "en", "version": "1.0", "strings": {
        "<key>": {"comment": "...", "extractionState": "manual", "shouldTranslate": false,
                  "localizations": {"<language>": <localization>}}}}
    <localization> := {"stringUnit": {"state": "translated", "value": "..."}, "substitutions": {...}}
                    | {"variations": {"plural": {"one": {"stringUnit": ...}, "other": ...}}}
                    | {"variations": {"device": {"iphone": <localization>, "other": ...}}}

`read(data, tag)` gives `tag`'s localizations (languages spelled as Xcode spells them: `en`,
`pt-BR`, `zh-Hans`). In the source language a key without a localization is its own text, as
Xcode shows it. Values are Apple format strings (`formats/printf.py`, style "apple"). A plural
variation chooses its form by the CLDR category of `values["count"]` (or of argument "1" when
there is no count), with `zero` for 0 when the variation has one, as Foundation does;
`%#@name@` substitutions render their own plural variation chosen by argument `argNum`, with
`%arg` standing for that argument. Device variations read the `other` device's text.

A `Document` for `tag` edits that language's localizations only: a value is the stringUnit's text,
or a dict of plural forms by category; setting a changed value marks its stringUnit `translated`;
`add` creates the localization (and the key when new); `delete` removes that language's
localization, not the key (and the `localizations` object too when it was the last). Xcode's own
layout (`" : "`, two spaces) is kept, since the JSON document splices only what changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from parlance_i18n.formats.apple.base import AppleFormat
from parlance_i18n.formats.apple.foundation_plural import foundation_category
from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    Document,
    Problem,
    ReadLimits,
    Renderable,
    Value,
)
from parlance_i18n.formats.shared.jsontext import JsonDocument, Path
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.messages import TextMessages
from parlance_i18n.formats.shared.printf import PrintfMessage, compile_printf
from parlance_i18n.formats.shared.spelling import locale_or_none, spells
from parlance_i18n.icu.messageformat import PluralUse
from parlance_i18n.icu.plurals import PluralRules, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["XcstringsDocument", "XcstringsFormat", "XcstringsMessages"]

_SNIFF_SOURCE = re.compile(rb'"sourceLanguage"\s*:')
_SNIFF_STRINGS = re.compile(rb'"strings"\s*:\s*\{')
_TRANSLATED = "translated"


class _Plural:
    """A plural variation: one Apple format per CLDR category, chosen by a count."""

    __slots__ = ("source", "_forms", "_rules", "_argument")

    def __init__(self, forms: dict[str, PrintfMessage], rules: PluralRules, argument: str | None) -> None:
        self.source = forms.get("other", next(iter(forms.values()))).source
        self._forms = forms
        self._rules = rules
        self._argument = argument  # the argument that counts; None: values["count"], else "1"

    def choose(self, values: Mapping[str, Any]) -> PrintfMessage:
        forms = self._forms
        value = values.get(self._argument) if self._argument else values.get("count", values.get("1"))
        category = foundation_category(value, forms, self._rules)
        return forms.get(category) or forms.get("other") or next(iter(forms.values()))

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        if self._argument is None and "1" not in values and "count" in values:
            values = {**values, "1": values["count"]}  # `%lld items` with only a count: the count
        return self.choose(values).render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        return frozenset().union(*(form.arguments for form in self._forms.values()))

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return (PluralUse(self._argument or "count", False, frozenset(self._forms)),)


class _Substituted:
    """A format with `%#@name@` substitutions, each a plural variation rendered first."""

    __slots__ = ("source", "_main", "_substitutions")

    def __init__(self, main: PrintfMessage, substitutions: dict[str, _Plural]) -> None:
        self.source = main.source
        self._main = main
        self._substitutions = substitutions

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        filled = dict(values or {})
        for name, plural in self._substitutions.items():
            filled[name] = plural.render(values, limit)  # a substitution's text, never a caller's value
        return self._main.render(filled, limit)

    @property
    def arguments(self) -> frozenset[str]:
        found = set(self._main.arguments)
        for plural in self._substitutions.values():
            found |= plural.arguments
        return frozenset(found)

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        return tuple(use for plural in self._substitutions.values() for use in plural.plurals)


class XcstringsMessages(TextMessages[Value]):
    """One language's strings: texts (a str or plural forms) and substitutions, compiled on `get`."""

    rejected = (ValueError, TypeError)

    def __init__(self, texts: dict[str, Value], substitutions: dict[str, dict[str, Any]],
                 comments: dict[str, str], problems: list[Problem], rules: PluralRules) -> None:
        super().__init__(texts, comments, problems)
        self._substitutions = substitutions
        self._rules = rules

    def _compile(self, key: str, text: Value) -> Renderable:
        return _compile(text, self._substitutions.get(key), self._rules)


def _compile(text: Value, substitutions: dict[str, Any] | None, rules: PluralRules) -> Renderable:
    """A string's Renderable; raises ValueError (naming the form or substitution) when invalid."""
    if isinstance(text, dict):
        return _Plural(_forms(text, None), rules, None)
    main = compile_printf(text, "apple")
    names = main.substitutions
    if not names:
        return main
    plurals: dict[str, _Plural] = {}
    for order, name in enumerate(names, 1):
        spec = (substitutions or {}).get(name)
        if not isinstance(spec, dict):
            raise ValueError(f"the substitution %#@{name}@ has no entry under 'substitutions'")
        argument = spec.get("argNum", order)
        specifier = spec.get("formatSpecifier", "lld")
        forms = _variation_forms(spec)
        if not isinstance(argument, int) or not isinstance(specifier, str) or forms is None:
            raise ValueError(f"the substitution {name!r} needs an argNum, a formatSpecifier and plural variations")
        # checked first with `%arg` as a specifier of its length, so that positions are those of the text as written
        _forms({category: form.replace("%arg", "%lld") for category, form in forms.items()}, name)
        # `%arg` is the substitution's own argument, formatted as its formatSpecifier says
        written = {category: form.replace("%arg", f"%{argument}${specifier}") for category, form in forms.items()}
        plurals[name] = _Plural(_forms(written, name), rules, str(argument))
    return _Substituted(main, plurals)


def _forms(forms: Mapping[str, str], substitution: str | None) -> dict[str, PrintfMessage]:
    compiled = {}
    for category, form in forms.items():
        try:
            compiled[category] = compile_printf(form, "apple")
        except ValueError as error:
            where = f"the {category!r} form" + (f" of the substitution {substitution!r}" if substitution else "")
            raise ValueError(f"{where}: {error}") from None
    return compiled


def _unit_value(node: Any) -> str | None:
    """The text of `{"stringUnit": {"value": ...}}`, or None."""
    unit = node.get("stringUnit") if isinstance(node, dict) else None
    value = unit.get("value") if isinstance(unit, dict) else None
    return value if isinstance(value, str) else None


def _variation_forms(node: Any) -> dict[str, str] | None:
    """The plural forms of `{"variations": {"plural": {...}}}` by category, or None."""
    variations = node.get("variations") if isinstance(node, dict) else None
    plural = variations.get("plural") if isinstance(variations, dict) else None
    if not isinstance(plural, dict):
        return None
    forms = {category: _unit_value(form) for category, form in plural.items()}
    return {category: text for category, text in forms.items() if text is not None} or None


def _localization_text(localization: Any) -> Value | None:
    """What a localization says: its stringUnit's text, its plural forms, or its `other` device's."""
    text = _unit_value(localization)
    if text is not None:
        return text
    forms = _variation_forms(localization)
    if forms is not None:
        return forms
    variations = localization.get("variations") if isinstance(localization, dict) else None
    device = variations.get("device") if isinstance(variations, dict) else None
    if isinstance(device, dict) and device:
        return _localization_text(device.get("other", next(iter(device.values()))))
    return None


def _catalog(root: Any) -> tuple[str, dict[str, Any]]:
    if not isinstance(root, dict) or not isinstance(root.get("strings"), dict):
        raise CatalogFileError('a String Catalog is a JSON object with "sourceLanguage" and "strings" objects', 1)
    source = root.get("sourceLanguage")
    return (source if isinstance(source, str) else ""), root["strings"]


def _language(strings: dict[str, Any], source: str, tag: LocaleTag) -> str:
    """How the file spells `tag` (its own spelling when a localization or the source uses it)."""
    seen = {source}
    for entry in strings.values():
        localizations = entry.get("localizations") if isinstance(entry, dict) else None
        if isinstance(localizations, dict):
            seen.update(localizations)
    for code in sorted(seen):
        if code and spells(code, tag):
            return code
    return tag.code


class XcstringsFormat(AppleFormat):
    """Xcode String Catalog: all locales in one file, Apple format strings, plural variations."""

    multi_locale = True
    plural_forms = True
    rename_refusal = ("String Catalog keys come from the code Xcode extracts them from: rename the key in the code "
                      "and build, and Xcode moves its translations")

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XcstringsMessages:
        document = JsonDocument(data, limits)
        source, strings = _catalog(document.value_at(()))
        language = _language(strings, source, tag)
        is_source = language == source
        rules = plural_rules(tag)
        texts: dict[str, Value] = {}
        substitutions: dict[str, dict[str, Any]] = {}
        comments: dict[str, str] = {}
        pending: list[tuple[str, str]] = []
        for key, entry in strings.items():
            if not isinstance(entry, dict):
                pending.append((key, "a string's entry is an object with its localizations"))
                continue
            localizations = entry.get("localizations")
            localization = localizations.get(language) if isinstance(localizations, dict) else None
            if localization is None:
                if not is_source or not key:  # Xcode keeps an empty key for an empty Text(""): nothing to say
                    continue
                text: Value = key  # the source language's text is the key itself
            else:
                found_text = _localization_text(localization)
                if found_text is None:
                    pending.append((key, f"the {language!r} localization has no stringUnit value or plural variations"))
                    continue
                text = found_text
            found = localization.get("substitutions") if isinstance(localization, dict) else None
            try:
                _compile(text, found, rules)  # checked now, so that a bad string is reported; compiled again on use
            except ValueError as error:
                pending.append((key, str(error)))
                continue
            texts[key] = text
            if isinstance(found, dict):
                substitutions[key] = found
            if isinstance(entry.get("comment"), str):
                comments[key] = entry["comment"]
        check_count(len(texts), limits)
        problems = [Problem(path[1] if len(path) > 1 else None, line, "a key is written twice in the same object; "
                            "the last one is used, so this one is ignored: remove one of them")
                    for path, line in document.duplicates()]
        problems.extend(Problem(key, document.line_of(("strings", key)), reason) for key, reason in pending)
        return XcstringsMessages(texts, substitutions, comments, problems, rules)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XcstringsDocument:
        return XcstringsDocument(data, tag, limits)

    def locales(self, data: bytes) -> list[LocaleTag]:
        """The source language, then every other language a localization is written in."""
        source, strings = _catalog(JsonDocument(data).value_at(()))
        codes = dict.fromkeys([source])
        for entry in strings.values():
            localizations = entry.get("localizations") if isinstance(entry, dict) else None
            if isinstance(localizations, dict):
                codes.update(dict.fromkeys(localizations))
        found: list[LocaleTag] = []
        for code in codes:
            tag = locale_or_none(code)
            if tag is not None and tag not in found:  # a language Xcode knows by a name BCP 47 does not is not servable
                found.append(tag)
        return found

    def sniff(self, head: bytes) -> bool:
        return _SNIFF_SOURCE.search(head) is not None and _SNIFF_STRINGS.search(head) is not None

    def drop_entries(self, data: bytes, keys: Sequence[str]) -> tuple[bytes, list[str]]:
        """Whole entries go: every language's localization, the comment and the state. The language
        Documents edit one language each; this uses the JSON splicer they use, so the rest of the
        file keeps its bytes."""
        document = JsonDocument(data)
        present = [key for key in keys if document.value_at(("strings", key)) is not None]
        for key in present:
            document.delete(("strings", key))
        return document.to_bytes(), present


class XcstringsDocument(Document):
    """One language's localizations in a String Catalog, to edit in place."""

    def __init__(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._json = JsonDocument(data, limits)
        source, strings = _catalog(self._json.value_at(()))
        check_count(len(strings), limits)
        self._language = _language(strings, source, tag)
        # in file order, as a dict so that finding one costs the same in a file of any size
        self._keys = dict.fromkeys(key for key, entry in strings.items()
                                   if isinstance(entry, dict) and self._shape(key) is not None)

    def _localization(self, key: str) -> Path:
        return ("strings", key, "localizations", self._language)

    def _shape(self, key: str) -> str | None:
        """"unit" (a stringUnit), "plural" (plural variations) or None (absent, or another shape)."""
        localization = self._json.value_at(self._localization(key))
        if _unit_value(localization) is not None:
            return "unit"
        return "plural" if _variation_forms(localization) is not None else None

    def keys(self) -> list[str]:
        return list(self._keys)

    def get(self, key: str) -> Value | None:
        if key not in self._keys:
            return None
        localization = self._json.value_at(self._localization(key))
        return _unit_value(localization) if self._shape(key) == "unit" else _variation_forms(localization)

    def line_of(self, key: str) -> int | None:
        return self._json.line_of(self._localization(key)) if key in self._keys else None

    def set(self, key: str, value: Value) -> None:
        if key not in self._keys:
            raise KeyError(key)
        here = self._localization(key)
        shape = self._shape(key)
        if isinstance(value, str) and shape == "unit":
            self._set_unit((*here, "stringUnit"), value)
        elif isinstance(value, dict) and shape == "plural":
            plural = (*here, "variations", "plural")
            current = _variation_forms(self._json.value_at(here)) or {}
            for category in current:
                if category not in value:
                    self._json.delete((*plural, category))
            for category, form in value.items():
                if category in current:
                    self._set_unit((*plural, category, "stringUnit"), form)
                else:
                    self._add_unit((*plural, category, "stringUnit"), form)
        else:  # the value changes shape: the localization is written anew
            self._json.delete(here)
            self._write(here, value)

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if key in self._keys:
            raise KeyError(key)
        here = self._localization(key)
        if self._json.value_at(here) is not None:  # a localization this reader cannot edit (device variations)
            raise KeyError(key)
        # a key the catalog has no entry for yet: its entry goes after `after`'s (the entry of a key
        # the catalog has already holds every language's localizations, placed by Xcode)
        self._write(here, value, ("strings", after) if after is not None else None)
        self._keys[key] = None

    def delete(self, key: str) -> None:
        if key not in self._keys:
            raise KeyError(key)
        here = self._localization(key)
        localizations = self._json.value_at(here[:-1])
        self._json.delete(here if isinstance(localizations, dict) and len(localizations) > 1 else here[:-1])
        del self._keys[key]

    def to_bytes(self) -> bytes:
        return self._json.to_bytes()

    def _set_unit(self, unit: Path, text: str) -> None:
        if self._json.value_at((*unit, "value")) == text:
            return
        self._json.set_string((*unit, "value"), text)
        state = self._json.value_at((*unit, "state"))
        if isinstance(state, str) and state != _TRANSLATED:
            self._json.set_string((*unit, "state"), _TRANSLATED)

    def _add_unit(self, unit: Path, text: str, after: Path | None = None) -> None:
        self._json.add_string((*unit, "state"), _TRANSLATED, after)  # Xcode writes the state first
        self._json.add_string((*unit, "value"), text)

    def _write(self, localization: Path, value: Value, after: Path | None = None) -> None:
        if isinstance(value, str):
            self._add_unit((*localization, "stringUnit"), value, after)
            return
        for category, form in value.items():
            self._add_unit((*localization, "variations", "plural", category, "stringUnit"), form, after)
            after = None  # the first form made the entry
