"""Which framework's code calls a catalog, where `sources` does not say, and what `parlance init` proposes
as a catalog's `[[packs.i18n.sources]]`: that framework's usual folders (`Framework.default_paths`) where
they hold a file, so the first `i18n_usage` works without reading the docs first.

The catalog's format tells the framework (`frameworks.guess`), with two refinements a project shows at
its root: `manage.py` makes a gettext project Django's, and a plain JSON catalog (which the format
reads as ICU JSON: FormatJS's) is i18next's when `package.json` depends on i18next and not on
react-intl or FormatJS."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from parlance_i18n.code.files import source_files
from parlance_i18n.code.frameworks import framework_class, guess
from parlance_i18n.errors import I18nError
from parlance_i18n.store import read_bytes

__all__ = ["MARKERS", "SourceProposal", "framework_for", "propose"]

MARKERS = ("manage.py",)
"""Files at the project's root that tell one framework from another sharing a format (`registry`)."""


@dataclass(frozen=True, slots=True)
class SourceProposal:
    framework: str
    paths: tuple[str, ...]
    exclude: tuple[str, ...]


_I18NEXT_PACKAGES = frozenset({"i18next", "react-i18next", "next-i18next", "vue-i18next", "i18next-vue"})
_FORMATJS_PACKAGES = frozenset({"react-intl", "@formatjs/intl", "vue-intl", "@formatjs/cli"})


def framework_for(root: Path, catalog_format: str) -> str | None:
    """The framework whose code calls a catalog of `catalog_format` in the project at `root`, or None."""
    name = guess(catalog_format, {marker for marker in MARKERS if (root / marker).is_file()})
    if name == "formatjs":
        packages = _dependencies(root)
        if packages & _I18NEXT_PACKAGES and not packages & _FORMATJS_PACKAGES:
            return "i18next"
    return name


def _dependencies(root: Path) -> set[str]:
    """The packages `package.json` at `root` names (every kind of dependency); none where it cannot be read."""
    try:
        manifest = json.loads(read_bytes(root / "package.json", root=root, max_bytes=1024 * 1024,
                                         kind="package manifests", setting=None))
    except (I18nError, OSError, ValueError):
        return set()
    if not isinstance(manifest, dict):
        return set()
    return {name for field in ("dependencies", "devDependencies", "peerDependencies")
            if isinstance(manifest.get(field), dict) for name in manifest[field]}


def propose(root: Path, catalog_format: str) -> SourceProposal | None:
    """The sources entry for a catalog of `catalog_format` under `root`, or None when no framework's
    catalogs come in that format or none of its usual folders holds a file."""
    name = framework_for(root, catalog_format)
    if name is None:
        return None
    framework = framework_class(name)
    paths = tuple(glob for glob in framework.default_paths
                  if next(source_files(root, [glob], framework.default_exclude), None) is not None)
    return SourceProposal(name, paths, framework.default_exclude) if paths else None
