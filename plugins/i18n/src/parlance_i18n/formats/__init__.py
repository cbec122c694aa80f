"""Catalog formats: every format the i18n pack reads, renders and writes, one folder (or module) each,
and the registry that names them (`registry.REGISTRY`, one line per format).

Formats load on first use (a project of Android files never imports the YAML reader). `get(name)`
gives one by its parlance.toml name or an alias, `detect(path, head)` picks one from a file's name
and first bytes when the config names none. A format is a `CatalogFormat` (the contract and its
capabilities: `base`); adding one is its folder and a line in the registry.
"""

from __future__ import annotations

import importlib
from pathlib import PurePath

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    SourceText,
    Template,
    Value,
    facts_of,
)
from parlance_i18n.formats.registry import (
    ALIASES,
    FORMAT_NAMES,
    REGISTRY,
    SYNTAXES,
    Registered,
    canonical_name,
    claims,
    implementation,
    syntaxes_of,
)

__all__ = [
    "ALIASES",
    "DEFAULT_READ_LIMITS",
    "FORMAT_NAMES",
    "REGISTRY",
    "SYNTAXES",
    "CatalogFileError",
    "CatalogFormat",
    "Document",
    "LocaleMessages",
    "Problem",
    "ReadLimits",
    "Registered",
    "Renderable",
    "SourceText",
    "Template",
    "Value",
    "canonical_name",
    "claims",
    "detect",
    "facts_of",
    "get",
    "syntaxes_of",
]

_loaded: dict[str, CatalogFormat] = {}


def get(name: str) -> CatalogFormat:
    """The format called `name` (or an alias such as "pot"); KeyError naming the choices otherwise."""
    name = canonical_name(name)
    found = _loaded.get(name)
    if found is None:
        module, attribute = implementation(name)
        found = _loaded[name] = getattr(importlib.import_module(module), attribute)()
    return found


def detect(path: str | PurePath, head: bytes = b"") -> CatalogFormat | None:
    """The format of a file from its suffix, and where formats share it from its first bytes
    (`head`: the first 4 KiB); None when no format claims the suffix."""
    claim = claims(PurePath(path).suffix.lower())
    if claim is None:
        return None
    default, asked = claim
    for name in asked:
        candidate = get(name)
        if candidate.sniff(head):
            return candidate
    return get(default)
