"""The registry of frameworks: one line per framework, the one place that maps names to modules and
tells a framework from a catalog's format. Nothing here imports a framework: `get` loads one on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from parlance_i18n.code.frameworks.base import Framework

__all__ = ["FRAMEWORK_NAMES", "REGISTRY", "Registered", "framework_class", "guess"]

_PACKAGE = "parlance_i18n.code.frameworks"


class Registered(NamedTuple):
    name: str
    """Its `framework = "..."` name in parlance.toml."""
    target: str
    """"module:Class" under `parlance_i18n.code.frameworks`."""
    formats: tuple[str, ...]
    """The catalog formats its catalogs come in, the first its own: how a framework is told when
    `sources` names none (the catalog's format, then `marker`)."""
    marker: str = ""
    """A file at the project's root that says this framework where its formats are shared (Django's
    `manage.py` among gettext projects)."""


def _line(name: str, target: str, formats: str, marker: str = "") -> Registered:
    return Registered(name, target, tuple(formats.split()), marker)


REGISTRY = (
    #     name         module:Class                        catalog formats                     marker
    _line("i18next",   "i18next:I18next",                  "i18next"),
    _line("formatjs",  "formatjs:FormatJS",                "icu-json"),
    _line("django",    "django:Django",                    "po",                               "manage.py"),
    _line("gettext",   "gettext:Gettext",                  "po"),
    _line("android",   "android:Android",                  "android"),
    _line("apple",     "apple:Apple",                      "xcstrings apple-strings stringsdict"),
    _line("flutter",   "flutter:Flutter",                  "arb"),
    _line("rails",     "rails:Rails",                      "yaml"),
    _line("java",      "java:Java",                        "properties"),
)
"""Every framework. Where several share a format (`po`), the one whose `marker` the project has
wins, else the last line claiming the format."""

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
    """The framework a catalog of `catalog_format` is used by, where the format tells; `has_file`
    holds the markers the project's root has. None when no framework's catalogs come in it."""
    claiming = [line for line in REGISTRY if catalog_format in line.formats]
    for line in claiming:
        if line.marker and line.marker in has_file:
            return line.name
    unmarked = [line for line in claiming if not line.marker]
    return unmarked[-1].name if unmarked else (claiming[-1].name if claiming else None)
