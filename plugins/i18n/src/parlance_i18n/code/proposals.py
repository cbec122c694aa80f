"""What `parlance init` proposes as a catalog's `[[packs.i18n.sources]]`: the framework its format tells
(`frameworks.guess`), and that framework's usual folders (`Framework.default_paths`) where they hold a
file, so the first `i18n_usage` works without reading the docs first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from parlance_i18n.code.files import source_files
from parlance_i18n.code.frameworks import framework_class, guess

__all__ = ["MARKERS", "SourceProposal", "propose"]

MARKERS = ("manage.py",)
"""Files at the project's root that tell one framework from another sharing a format (`registry`)."""


@dataclass(frozen=True, slots=True)
class SourceProposal:
    framework: str
    paths: tuple[str, ...]
    exclude: tuple[str, ...]


def propose(root: Path, catalog_format: str) -> SourceProposal | None:
    """The sources entry for a catalog of `catalog_format` under `root`, or None when no framework's
    catalogs come in that format or none of its usual folders holds a file."""
    name = guess(catalog_format, {marker for marker in MARKERS if (root / marker).is_file()})
    if name is None:
        return None
    framework = framework_class(name)
    paths = tuple(glob for glob in framework.default_paths
                  if next(source_files(root, [glob], framework.default_exclude), None) is not None)
    return SourceProposal(name, paths, framework.default_exclude) if paths else None
