"""Catalog formats: the registry of every format the i18n pack reads, renders and writes.

Formats load on first use (a project of Android files never imports the YAML reader). `get(name)`
gives one by its parlance.toml name, `detect(path, head)` picks one from a file's name and first
bytes when the config names none.
"""

from __future__ import annotations

import importlib
from pathlib import PurePath

from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Renderable,
    Value,
)

__all__ = [
    "FORMAT_NAMES",
    "CatalogFileError",
    "CatalogFormat",
    "Document",
    "LocaleMessages",
    "Problem",
    "Renderable",
    "Value",
    "canonical_name",
    "detect",
    "get",
]

_MODULES: dict[str, tuple[str, str]] = {
    "icu-json": ("parlance_i18n.formats.icu_json", "IcuJsonFormat"),
    "i18next": ("parlance_i18n.formats.i18next.format", "I18nextFormat"),
    "arb": ("parlance_i18n.formats.arb", "ArbFormat"),
    "xcstrings": ("parlance_i18n.formats.apple.xcstrings", "XcstringsFormat"),
    "po": ("parlance_i18n.formats.po.format", "PoFormat"),
    "xliff": ("parlance_i18n.formats.xliff", "XliffFormat"),
    "android": ("parlance_i18n.formats.android.format", "AndroidFormat"),
    "apple-strings": ("parlance_i18n.formats.apple.strings", "AppleStringsFormat"),
    "stringsdict": ("parlance_i18n.formats.apple.stringsdict", "StringsdictFormat"),
    "yaml": ("parlance_i18n.formats.yaml.format", "YamlFormat"),
    "properties": ("parlance_i18n.formats.properties.format", "PropertiesFormat"),
}
_ALIASES = {"pot": "po", "json": "icu-json", "formatjs": "icu-json", "react-intl": "icu-json",
            "strings": "apple-strings", "xlf": "xliff", "yml": "yaml"}
_BY_SUFFIX = {
    ".po": "po", ".pot": "po", ".xliff": "xliff", ".xlf": "xliff", ".xml": "android", ".arb": "arb",
    ".strings": "apple-strings", ".stringsdict": "stringsdict", ".xcstrings": "xcstrings",
    ".yaml": "yaml", ".yml": "yaml", ".properties": "properties",
}
_JSON_CANDIDATES = ("xcstrings", "arb", "i18next", "icu-json")
"""Formats sharing `.json`, asked in this order; icu-json is the default when none claims a file."""

FORMAT_NAMES = tuple(_MODULES)
_loaded: dict[str, CatalogFormat] = {}


def canonical_name(name: str) -> str:
    """The registry's name for `name` or its alias ("pot" -> "po"), without loading the format;
    KeyError naming the choices when there is no such format."""
    canonical = _ALIASES.get(name, name)
    if canonical not in _MODULES:
        raise KeyError(f"unknown catalog format {name!r}; choose one of: {', '.join(FORMAT_NAMES)}")
    return canonical


def get(name: str) -> CatalogFormat:
    """The format called `name` (or an alias such as "pot"); KeyError naming the choices otherwise."""
    name = canonical_name(name)
    found = _loaded.get(name)
    if found is None:
        module, attribute = _MODULES[name]
        found = _loaded[name] = getattr(importlib.import_module(module), attribute)()
    return found


def detect(path: str | PurePath, head: bytes = b"") -> CatalogFormat | None:
    """The format of a file from its suffix, and for `.json` from its first bytes; None when unknown."""
    suffix = PurePath(path).suffix.lower()
    if suffix in _BY_SUFFIX:
        return get(_BY_SUFFIX[suffix])
    if suffix == ".json":
        for name in _JSON_CANDIDATES[:-1]:
            candidate = get(name)
            if candidate.sniff(head):
                return candidate
        return get(_JSON_CANDIDATES[-1])
    return None
