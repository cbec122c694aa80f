"""The registry of catalog formats: one line per format, the one place that maps names, aliases and
file suffixes to formats.

A line names its format, the `module:Class` under `parlance_i18n.formats` that implements it, the
file suffixes it claims and its aliases. The class takes its `name` and `suffixes` from its line
(`registered`), so a format's identity is written once. Nothing here imports a format: `formats.get`
loads one on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from parlance_i18n.formats.base import CatalogFormat

__all__ = ["ALIASES", "FORMAT_NAMES", "REGISTRY", "SYNTAXES", "Registered", "canonical_name", "claims",
           "implementation", "registered", "syntaxes_of"]

_PACKAGE = "parlance_i18n.formats"


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
    syntaxes: tuple[str, ...] = ()
    """The inner syntaxes a catalog of this format may name (`syntax = "..."`): what a framework
    writes inside the format's messages (Symfony parameters in XLIFF). The format says what each means
    (`CatalogFormat.for_file`)."""


def _line(name: str, target: str, suffixes: str, aliases: str = "", syntaxes: str = "") -> Registered:
    return Registered(name, target, tuple(suffixes.split()), tuple(aliases.split()), tuple(syntaxes.split()))


REGISTRY = (
    #     name             module:Class                            suffixes            aliases, syntaxes
    _line("icu-json",      "icu_json:IcuJsonFormat",               ".json",            "json formatjs react-intl"),
    _line("i18next",       "i18next.format:I18nextFormat",         ".json"),
    _line("arb",           "arb:ArbFormat",                        ".arb .json"),
    _line("xcstrings",     "apple.xcstrings:XcstringsFormat",      ".xcstrings .json"),
    _line("po",            "po.format:PoFormat",                   ".po .pot",         "pot"),
    _line("xliff",         "xliff.format:XliffFormat",             ".xliff .xlf",      "xlf",
          syntaxes="symfony symfony-icu angular plain"),
    _line("android",       "android.format:AndroidFormat",         ".xml"),
    _line("apple-strings", "apple.strings:AppleStringsFormat",     ".strings",         "strings"),
    _line("stringsdict",   "apple.stringsdict:StringsdictFormat",  ".stringsdict"),
    _line("yaml",          "yaml.format:YamlFormat",               ".yml .yaml",       "yml"),
    _line("properties",    "properties.format:PropertiesFormat",   ".properties",
          syntaxes="always-messageformat"),
)
"""Every format. Where formats share a suffix (`.json`), `detect` asks them from the last line up
whether a file is theirs (`sniff`), and the first line claiming the suffix takes what none claims:
a format that must be asked before another goes below it."""

FORMAT_NAMES = tuple(line.name for line in REGISTRY)
ALIASES = {alias: line.name for line in REGISTRY for alias in line.aliases}
"""alias -> name."""

SYNTAXES = tuple(dict.fromkeys(syntax for line in REGISTRY for syntax in line.syntaxes))
"""Every inner syntax some format knows, in registry order."""

_BY_NAME = {line.name: line for line in REGISTRY}
_BY_CLASS = {f"{_PACKAGE}.{line.target.replace(':', '.')}": line for line in REGISTRY}


def _suffix_claims() -> dict[str, tuple[str, tuple[str, ...]]]:
    """suffix -> (the format a file with it is when none claims it, the formats to ask first, in order)."""
    claiming: dict[str, list[str]] = {}
    for line in REGISTRY:
        for suffix in line.suffixes:
            claiming.setdefault(suffix, []).append(line.name)
    return {suffix: (names[0], tuple(reversed(names[1:]))) for suffix, names in claiming.items()}


_BY_SUFFIX = _suffix_claims()


def canonical_name(name: str) -> str:
    """The registry's name for `name` or its alias ("pot" -> "po"), without loading the format;
    KeyError naming the choices when there is no such format."""
    canonical = ALIASES.get(name, name)
    if canonical not in _BY_NAME:
        raise KeyError(f"unknown catalog format {name!r}; choose one of: {', '.join(FORMAT_NAMES)}")
    return canonical


def syntaxes_of(name: str) -> tuple[str, ...]:
    """The inner syntaxes the format called `name` (a registry name) knows, without loading it."""
    return _BY_NAME[name].syntaxes


def implementation(name: str) -> tuple[str, str]:
    """(module, class name) of the format called `name` (a registry name, not an alias)."""
    module, _, attribute = _BY_NAME[name].target.partition(":")
    return f"{_PACKAGE}.{module}", attribute


def claims(suffix: str) -> tuple[str, tuple[str, ...]] | None:
    """For a lower-case file suffix: (the format a file with it is when none claims it, the formats
    to ask first, in order), or None when no format claims it."""
    return _BY_SUFFIX.get(suffix)


def registered(cls: type[CatalogFormat]) -> Registered:
    """The registry's line for a format class (TypeError for a class it has no line for)."""
    found = _BY_CLASS.get(f"{cls.__module__}.{cls.__qualname__}")
    if found is None:
        raise TypeError(f"{cls.__qualname__} has no line in the format registry (parlance_i18n.formats.registry)")
    return found
