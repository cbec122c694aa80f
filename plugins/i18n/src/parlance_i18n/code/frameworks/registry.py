"""The registry of frameworks: one line per framework, the one place that maps names to modules. Which
framework a catalog's format means is the format's to say (`CatalogFormat.frameworks`), asked by `guess`.
Nothing here imports a framework: `framework_class` loads one on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

from parlance_i18n import formats

if TYPE_CHECKING:
    from parlance_i18n.code.frameworks.base import Framework

__all__ = ["FRAMEWORK_NAMES", "REGISTRY", "Registered", "framework_class", "guess"]

_PACKAGE = "parlance_i18n.code.frameworks"


class Registered(NamedTuple):
    name: str
    """Its `framework = "..."` name in parlance.toml."""
    target: str
    """"module:Class" under `parlance_i18n.code.frameworks`."""
    marker: str = ""
    """A file at the project's root that says this framework where its formats are shared (Django's
    `manage.py` among gettext projects)."""


REGISTRY = (
    #          name         module:Class              marker
    Registered("i18next",   "i18next:I18next"),
    Registered("formatjs",  "formatjs:FormatJS"),
    Registered("django",    "django:Django",          "manage.py"),
    Registered("gettext",   "gettext:Gettext"),
    Registered("android",   "android:Android"),
    Registered("apple",     "apple:Apple"),
    Registered("flutter",   "flutter:Flutter"),
    Registered("rails",     "rails:Rails"),
    Registered("java",      "java:Java"),
)
"""Every framework. Which catalogs each calls is the formats' to say (`CatalogFormat.frameworks`)."""

FRAMEWORK_NAMES = tuple(line.name for line in REGISTRY)
_BY_NAME = {line.name: line for line in REGISTRY}


def framework_class(name: str) -> type[Framework]:
    """The `Framework` class registered as `name` (KeyError naming the choices when none is)."""
    line = _BY_NAME.get(name)
    if line is None:
        raise KeyError(f"unknown framework {name!r}; choose one of: {', '.join(FRAMEWORK_NAMES)}")
    module, _, cls = line.target.partition(":")
    found: type[Framework] = getattr(importlib.import_module(f"{_PACKAGE}.{module}"), cls)
    return found


def guess(catalog_format: str | None, has_file: set[str]) -> str | None:
    """The framework a catalog of the format named `catalog_format` is used by, as the format says
    (`CatalogFormat.frameworks`); `has_file` holds the markers the project's root has. Where several
    frameworks share the format, the one whose marker is there, else the last without one. None when
    no framework's catalogs come in it."""
    try:
        named = formats.get(catalog_format).frameworks if catalog_format is not None else ()
    except KeyError:
        return None
    claiming = [_BY_NAME[name] for name in named if name in _BY_NAME]
    for line in claiming:
        if line.marker and line.marker in has_file:
            return line.name
    unmarked = [line for line in claiming if not line.marker]
    return unmarked[-1].name if unmarked else (claiming[-1].name if claiming else None)
