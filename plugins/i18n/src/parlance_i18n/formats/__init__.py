"""Catalog formats: the registry of every format the i18n pack reads, renders and writes.

`REGISTRY` is the one place that maps names, aliases and file suffixes to formats: one line per
format. A format's class takes its `name` and `suffixes` from its line (see `CatalogFormat`), so
adding a format is its module (or folder) and one line here.

Formats load on first use (a project of Android files never imports the YAML reader). `get(name)`
gives one by its parlance.toml name or an alias, `detect(path, head)` picks one from a file's name
and first bytes when the config names none.
"""

from __future__ import annotations

import importlib
from pathlib import PurePath
from typing import NamedTuple

from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Renderable,
    SourceText,
    Value,
)

__all__ = [
    "ALIASES",
    "FORMAT_NAMES",
    "REGISTRY",
    "CatalogFileError",
    "CatalogFormat",
    "Document",
    "LocaleMessages",
    "Problem",
    "Registered",
    "Renderable",
    "SourceText",
    "Value",
    "canonical_name",
    "detect",
    "get",
    "registered",
]


class Registered(NamedTuple):
    """A format's line in the registry."""

    name: str
    """Its `format = "..."` name in parlance.toml."""
    target: str
    """"module:Class" of its `CatalogFormat`, the module under `parlance_i18n.formats`."""
    suffixes: tuple[str, ...]
    """The file name endings it claims when detecting; several formats may claim one (see `detect`)."""
    aliases: tuple[str, ...] = ()
    """Other names parlance.toml may give it."""


def _line(name: str, target: str, suffixes: str, aliases: str = "") -> Registered:
    return Registered(name, target, tuple(suffixes.split()), tuple(aliases.split()))


REGISTRY = (
    #     name             module:Class                            suffixes            aliases
    _line("icu-json",      "icu_json:IcuJsonFormat",               ".json",            "json formatjs react-intl"),
    _line("i18next",       "i18next.format:I18nextFormat",         ".json"),
    _line("arb",           "arb:ArbFormat",                        ".arb .json"),
    _line("xcstrings",     "apple.xcstrings:XcstringsFormat",      ".xcstrings .json"),
    _line("po",            "po.format:PoFormat",                   ".po .pot",         "pot"),
    _line("xliff",         "xliff.format:XliffFormat",             ".xliff .xlf",      "xlf"),
    _line("android",       "android.format:AndroidFormat",         ".xml"),
    _line("apple-strings", "apple.strings:AppleStringsFormat",     ".strings",         "strings"),
    _line("stringsdict",   "apple.stringsdict:StringsdictFormat",  ".stringsdict"),
    _line("yaml",          "yaml.format:YamlFormat",               ".yml .yaml",       "yml"),
    _line("properties",    "properties.format:PropertiesFormat",   ".properties"),
)
"""Every format. Where formats share a suffix (`.json`), `detect` asks them from the last line up
whether a file is theirs (`sniff`), and the first line claiming the suffix takes what none claims:
a format that must be asked before another goes below it."""

FORMAT_NAMES = tuple(line.name for line in REGISTRY)
ALIASES = {alias: line.name for line in REGISTRY for alias in line.aliases}
"""alias -> name."""

_PACKAGE = __name__
_BY_NAME = {line.name: line for line in REGISTRY}
_BY_CLASS = {f"{_PACKAGE}.{line.target.replace(':', '.')}": line for line in REGISTRY}


def _claims() -> dict[str, tuple[str, tuple[str, ...]]]:
    """suffix -> (the format a file with it is when none claims it, the formats to ask first, in order)."""
    claiming: dict[str, list[str]] = {}
    for line in REGISTRY:
        for suffix in line.suffixes:
            claiming.setdefault(suffix, []).append(line.name)
    return {suffix: (names[0], tuple(reversed(names[1:]))) for suffix, names in claiming.items()}


_BY_SUFFIX = _claims()

_loaded: dict[str, CatalogFormat] = {}


def canonical_name(name: str) -> str:
    """The registry's name for `name` or its alias ("pot" -> "po"), without loading the format;
    KeyError naming the choices when there is no such format."""
    canonical = ALIASES.get(name, name)
    if canonical not in _BY_NAME:
        raise KeyError(f"unknown catalog format {name!r}; choose one of: {', '.join(FORMAT_NAMES)}")
    return canonical


def get(name: str) -> CatalogFormat:
    """The format called `name` (or an alias such as "pot"); KeyError naming the choices otherwise."""
    name = canonical_name(name)
    found = _loaded.get(name)
    if found is None:
        module, _, attribute = _BY_NAME[name].target.partition(":")
        found = _loaded[name] = getattr(importlib.import_module(f"{_PACKAGE}.{module}"), attribute)()
    return found


def detect(path: str | PurePath, head: bytes = b"") -> CatalogFormat | None:
    """The format of a file from its suffix, and where formats share it from its first bytes
    (`head`: the first 4 KiB); None when no format claims the suffix."""
    claim = _BY_SUFFIX.get(PurePath(path).suffix.lower())
    if claim is None:
        return None
    default, asked = claim
    for name in asked:
        candidate = get(name)
        if candidate.sniff(head):
            return candidate
    return get(default)


def registered(cls: type[CatalogFormat]) -> Registered:
    """The registry's line for a format class (TypeError for a class it has no line for)."""
    found = _BY_CLASS.get(f"{cls.__module__}.{cls.__qualname__}")
    if found is None:
        raise TypeError(f"{cls.__qualname__} has no line in the format registry (parlance_i18n.formats.REGISTRY)")
    return found
