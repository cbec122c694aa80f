"""The catalog: bundles loaded at startup, shared read-only by every session, plus the shared config.

Built by the pack's lifespan from the language packs' `messages/` folders, `[packs.i18n]
bundle_dirs` and `[[packs.i18n.catalogs]]`. Anything that contributes bundles at startup calls
`catalog.load_bundle_dir(path)` or `catalog.load_bundle_files(paths)` (bundle files, read now) or
`catalog.add_bundle(bundle)` (messages compiled in memory) before the server starts serving;
sessions take their view of the catalog when they start.

Every file is read as a project's catalog files are (`project.ProjectLocale`): a bundle file is a
read-only catalog (`loaders`). What several files, directories or added bundles give one locale is
layered in load order, the later winning per key. A file that cannot be used is logged as a
warning and skipped; the rest load.

A project's `[[packs.i18n.catalogs]]` come last and win: each of their locales is a bundle whose
messages are a `ProjectLocale`, read when the locale is first needed, with the bundles above
consulted after its files.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from parlance_i18n.errors import I18nError
from parlance_i18n.locales import LocaleTag
from parlance_i18n.model.bundles import DEFAULT_LIMITS, Bundle, Limits
from parlance_i18n.model.fallback import FallbackResolver
from parlance_i18n.model.loaders import BUNDLE_SUFFIXES, load_bundle_file
from parlance_i18n.model.project import Project
from parlance_i18n.settings import I18nSettings
from parlance_i18n.store import DEFAULT_FILE_LIMITS, FileLimits

__all__ = ["Catalog", "LoadReport"]

logger = logging.getLogger(__name__)


@dataclass
class LoadReport:
    """What `load_bundle_dir` did: (file, locale, message count) loaded, and (file, reason) skipped."""

    loaded: list[tuple[Path, str, int]] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)


class Catalog:
    """Startup bundles plus what every session shares: the fallback resolver and the size limits."""

    def __init__(self, default_locale: LocaleTag, fallbacks: Mapping[str, list[LocaleTag]] | None = None,
                 limits: Limits = DEFAULT_LIMITS, source_locale: LocaleTag | None = None) -> None:
        self.resolver = FallbackResolver(default_locale, fallbacks)
        self.limits = limits
        self.source_locale = source_locale or default_locale
        """The locale translations are made from: what checks compare every other locale with."""
        self.project: Project | None = None
        self.file_limits = DEFAULT_FILE_LIMITS
        """What each bundle file may be and expand to (`[packs.i18n] max_file_*`)."""
        self._bundles: dict[str, Bundle] = {}
        self._before_project: dict[str, Bundle] = {}  # the bundles a project's locales were layered over
        self._project_codes: set[str] = set()

    @classmethod
    def from_settings(cls, settings: I18nSettings, language_pack_files: Iterable[Path] = ()) -> Catalog:
        """A catalog configured by `settings`: language packs' bundles first, then every `bundle_dirs`
        entry, so a project's own bundles win over a language pack's for the same key."""
        catalog = cls(settings.default_tag, settings.fallback_tags, settings.limits, settings.source_tag)
        catalog.file_limits = FileLimits.of(settings)
        if language_pack_files:
            catalog.load_bundle_files(language_pack_files)
        root = settings.root
        for directory in settings.bundle_dirs:
            inside = root is not None and Path(os.path.realpath(directory)).is_relative_to(root)
            if root is not None and not inside and not settings.allow_outside_project:
                logger.warning("i18n.bundle_dir_outside_project", extra={"path": str(directory)})
                continue
            catalog.load_bundle_dir(directory, root=root if inside else None)
        if settings.catalogs:
            catalog.open_project(Project(settings.catalogs, settings.source_tag, root=root,
                                         allow_outside=settings.allow_outside_project, limits=catalog.file_limits))
        return catalog

    def open_project(self, project: Project) -> None:
        """Serve `project`'s locales (read on first use), over the bundles loaded so far."""
        self.project = project
        self._project_codes = set()
        self._serve_project_locales()

    def refresh_project(self, *, force: bool = False) -> bool:
        """Notice catalog files created, deleted or replaced since the project was opened (`Project.rescan`):
        a new locale gets its bundle, a locale whose files are all gone loses it (what was loaded for
        it before the project is served again). Whether anything changed."""
        if self.project is None or not self.project.rescan(force=force):
            return False
        self._serve_project_locales()
        return True

    def _serve_project_locales(self) -> None:
        """Bundles for the project's locales that have none yet, layered over what was loaded before;
        those of locales the project no longer has give way to what they were layered over."""
        assert self.project is not None
        locales = self.project.locales
        bundles = dict(self._bundles)
        for code in self._project_codes - set(locales):
            previous = self._before_project.pop(code, None)
            if previous is not None:
                bundles[code] = previous
            else:
                bundles.pop(code, None)
        for code, locale in locales.items():
            if code in self._project_codes:
                continue  # the same ProjectLocale: its files were replaced in place
            current = bundles.get(code)
            if current is not None:
                self._before_project[code] = current
            messages = locale.with_overlay(current.messages) if current is not None else locale
            bundles[code] = Bundle(locale.tag, messages, current.size if current is not None else 0)
        self._project_codes = set(locales)
        self._bundles = bundles

    @property
    def default_locale(self) -> LocaleTag:
        return self.resolver.default_locale

    @property
    def bundles(self) -> Mapping[str, Bundle]:
        """Bundles by canonical locale code (read-only)."""
        return MappingProxyType(self._bundles)

    def add_bundle(self, bundle: Bundle) -> None:
        """Add a bundle, merging into an existing one for the same locale (the new one wins per key)."""
        current = self._bundles.get(bundle.code)
        self._bundles[bundle.code] = current.merged_with(bundle) if current else bundle

    def load_bundle_dir(self, path: str | os.PathLike[str], *, root: Path | None = None) -> LoadReport:
        """Load every `<locale>.json` and `<locale>.po` in `path` (not recursive), in name order, each read
        only inside `root` (default: the folder's own real path; a file that is a link leading out of it,
        or not a regular file, is skipped).

        Bad files are logged and listed in the report's `skipped`; nothing raises for them.
        """
        directory = Path(path)
        if not directory.is_dir():
            logger.warning("i18n.bundle_dir_missing", extra={"path": str(directory)})
            return LoadReport(skipped=[(directory, "not a directory")])
        bounds = root if root is not None else Path(os.path.realpath(directory))
        report = self.load_bundle_files(_bundle_files(sorted(directory.iterdir())), root=bounds)
        logger.info("i18n.bundle_dir_loaded", extra={"path": str(directory), "files": len(report.loaded),
                                                     "skipped": len(report.skipped)})
        return report

    def load_bundle_files(self, files: Iterable[str | os.PathLike[str]], *, root: Path | None = None) -> LoadReport:
        """Load the given `<locale>.json` / `<locale>.po` files in order (later files win per key), each
        read only inside `root` (default: the folder it leads to when it is given).

        For callers that pick the files themselves, e.g. a language pack's
        `pack.files("messages", "*.json")`, which the host has already kept inside the pack.
        """
        report = LoadReport()
        for file in map(Path, files):
            try:
                bundle = load_bundle_file(file, self.limits, root=root, file_limits=self.file_limits)
            except I18nError as exc:
                logger.warning("i18n.bundle_file_skipped", extra={"path": str(file), "reason": exc.message})
                report.skipped.append((file, exc.message))
                continue
            self.add_bundle(bundle)
            report.loaded.append((file, bundle.code, len(bundle.messages)))
        return report


def _bundle_files(paths: Iterable[Path]) -> Iterable[Path]:
    # A link or a special file too: the store refuses it, with its reason, when it is read.
    return (p for p in paths if p.suffix in BUNDLE_SUFFIXES and not p.name.startswith(".") and not p.is_dir())
