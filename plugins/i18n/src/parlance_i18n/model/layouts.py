"""Which catalogs a repository keeps, told from its files alone (`parlance init`): every file a format
claims by its suffix, the path segment that spells a locale in that format's convention, and the
`[[packs.i18n.catalogs]]` pattern (`{locale}` in place of that spelling) the files of one catalog share.

Nothing here names a format: a file's format is `formats.detect` (suffix, then `sniff` where formats
share one), a locale in a path is the format's `parse_spelling`, the unqualified folder of the default
locale is its `default_folder`, a file holding every locale is `multi_locale` with `locales`, and a
file that is a template (gettext's `.pot`: no locale of its own, the key set) is a file of a
`source_is_key` format whose path spells no locale.

A repository is untrusted input (README, Reliability): the walk visits at most `Bounds.max_entries`
folder entries, `Bounds.max_depth` folders deep, skips what is not the project's own (dependencies,
build output, virtual environments: `SKIPPED_FOLDERS`), never follows a link, and reads each
candidate through `store` (inside the repository, a regular file, under `Bounds.max_file_bytes`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from parlance_i18n import formats
from parlance_i18n.formats import DEFAULT_READ_LIMITS, CatalogFileError, CatalogFormat
from parlance_i18n.locales import LocaleTag, babel_locale, parse_locale
from parlance_i18n.store import UnsafePath, read_bytes, read_head

__all__ = ["SKIPPED_FOLDERS", "Bounds", "FoundCatalog", "Survey", "propose_source", "survey"]

SKIPPED_FOLDERS = frozenset({
    "node_modules", "bower_components", "jspm_packages", "vendor", "third_party", "third-party", "external",
    "build", "dist", "out", "target", "bin", "obj", "coverage", "htmlcov", "site-packages", "venv", "env",
    "Pods", "Carthage", "DerivedData", "xcuserdata", "__pycache__", "fixtures", "__fixtures__", "testdata",
    "__snapshots__", "tmp", "temp",
})
"""Folders that hold what is not the project's own catalogs: dependencies, build output, virtual
environments, test fixtures. Folders whose name starts with a dot (`.git`, `.venv`, `.gradle`,
`.dart_tool`, `.next`) are skipped too."""

LOCALIZATION_WORDS = frozenset({
    "locale", "locales", "i18n", "l10n", "lang", "langs", "language", "languages", "translation",
    "translations", "messages", "intl", "resources",
})
"""Folder names that say "localization" whatever the format: a catalog with one locale only is
proposed when its path has one, or one of its format's `layout_folders` (with two locales or more,
the files say it themselves)."""

_SEPARATORS = "._-"
_SOURCE_LANGUAGE = parse_locale("en")
"""The language assumed for texts whose file does not spell one: gettext msgids and Android's
unqualified `values/` (what their tools assume, and what nearly every project writes)."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """How much of a repository `survey` looks at."""

    max_entries: int = 200_000
    """Folder entries visited (files and folders); past it the walk stops and says so."""
    max_depth: int = 12
    """Folders below the repository's root."""
    max_file_bytes: int = 16 * 1024 * 1024
    """A larger candidate is reported, not read."""
    max_catalog_files: int = 5_000
    """Candidate files read in all; past it the rest are reported, not read."""


@dataclass
class FoundCatalog:
    """One catalog: the files that share a pattern, with the keys each locale's file holds."""

    pattern: str
    """Relative to the repository's root, `/`-separated, with `{locale}` (none for a multi-locale file)."""
    format: CatalogFormat
    keys: dict[LocaleTag, int] = field(default_factory=dict)
    """Messages (keys) per locale."""
    default_keys: int | None = None
    """The keys of the file in the format's default folder (Android `values/`), which holds the source
    texts in a language its path does not spell; None without one."""
    declared_source: LocaleTag | None = None
    """The source language the file itself declares (a multi-locale file's first locale)."""
    templates: list[str] = field(default_factory=list)
    """Template files beside the catalog (gettext `.pot`), relative to the repository's root."""

    @property
    def folder(self) -> str:
        """The pattern's folders before `{locale}`."""
        parts = PurePosixPath(self.pattern).parts[:-1]
        fixed = []
        for part in parts:
            if "{" in part:
                break
            fixed.append(part)
        return "/".join(fixed)


@dataclass
class Survey:
    """What `survey` found, and what it did not look at."""

    root: Path
    catalogs: list[FoundCatalog]
    visited: int
    notes: list[str] = field(default_factory=list)
    """What was skipped or cut short, for the person running `parlance init` (paths relative)."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    relative: PurePosixPath
    format: CatalogFormat


def survey(root: Path, bounds: Bounds = Bounds()) -> Survey:
    """The catalogs under `root`, in the order their patterns sort."""
    root = Path(os.path.realpath(root))
    notes: list[str] = []
    candidates, visited = _candidates(root, bounds, notes)
    groups: dict[str, list[tuple[_Candidate, LocaleTag | None]]] = {}
    multi: list[_Candidate] = []
    templates: list[PurePosixPath] = []
    for candidate in candidates:
        if candidate.format.multi_locale:
            multi.append(candidate)
            continue
        located = _locate(candidate.relative, candidate.format)
        if located is None:
            if candidate.format.source_is_key:
                templates.append(candidate.relative)
            continue
        pattern, tag = located
        groups.setdefault(pattern, []).append((candidate, tag))
    catalogs: list[FoundCatalog] = []
    budget = [bounds.max_catalog_files]
    for pattern, members in sorted(groups.items()):
        found = _catalog(root, pattern, members, bounds, budget, notes)
        if found is not None and _is_localization(found):
            found.templates = [str(t) for t in templates if _beside(t, found)]
            catalogs.append(found)
    for candidate in multi:
        found = _multi_locale_catalog(root, candidate, bounds, budget, notes)
        if found is not None:
            catalogs.append(found)
    catalogs.sort(key=lambda c: c.pattern)
    return Survey(root, catalogs, visited, notes)


def propose_source(catalogs: list[FoundCatalog]) -> tuple[LocaleTag, str]:
    """The locale every other is a translation of, and why, in a sentence for a comment."""
    every = {tag for catalog in catalogs for tag in catalog.keys}
    if _SOURCE_LANGUAGE in every:
        return _SOURCE_LANGUAGE, "English files are present"
    english = sorted((tag for tag in every if tag.language == _SOURCE_LANGUAGE.language), key=lambda t: t.code)
    if english:
        return english[0], "the project's English files"
    declared = [c.declared_source for c in catalogs if c.declared_source is not None]
    if declared:
        return declared[0], "the source language the string catalog declares"
    if any(c.default_keys is not None for c in catalogs):
        return _SOURCE_LANGUAGE, ("the files of the unqualified default folder hold the source texts; assumed "
                                  "English: set source_locale to their language if it is another")
    if any(c.format.source_is_key for c in catalogs):
        return _SOURCE_LANGUAGE, ("the msgids are the source texts; assumed English: set source_locale to their "
                                  "language if it is another")
    totals: dict[LocaleTag, int] = {}
    for catalog in catalogs:
        for tag, count in catalog.keys.items():
            totals[tag] = totals.get(tag, 0) + count
    best = sorted(totals.items(), key=lambda item: (-item[1], item[0].code))
    if not best:
        return _SOURCE_LANGUAGE, "no locale was found"
    return best[0][0], "the locale with the most keys"


# --- the walk ------------------------------------------------------------------------------------------


def _candidates(root: Path, bounds: Bounds, notes: list[str]) -> tuple[list[_Candidate], int]:
    """Every file under `root` that a format claims by its suffix, links and skipped folders left out."""
    found: list[_Candidate] = []
    visited = 0
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            notes.append(f"{_relative(folder, root)}: the folder cannot be read; skipped")
            continue
        below: list[tuple[Path, int]] = []
        for entry in entries:
            visited += 1
            if visited > bounds.max_entries:
                notes.append(f"stopped after {bounds.max_entries:,} folder entries: run `parlance init` in the "
                              "folder that holds the catalogs, or add what it missed by hand")
                return found, visited
            if entry.is_symlink():  # a link may lead out of the repository: never followed
                continue
            if entry.is_dir(follow_symlinks=False):
                if entry.name.startswith(".") or entry.name in SKIPPED_FOLDERS:
                    continue
                if depth + 1 > bounds.max_depth:
                    notes.append(f"{_relative(Path(entry.path), root)}: deeper than {bounds.max_depth} folders; "
                                 "not looked into")
                    continue
                below.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False):
                candidate = _candidate(Path(entry.path), root)
                if candidate is not None:
                    found.append(candidate)
        stack.extend(reversed(below))
    return found, visited


def _candidate(path: Path, root: Path) -> _Candidate | None:
    claim = formats.claims(path.suffix.lower())
    if claim is None:
        return None
    head = b""
    if claim[1]:  # formats share the suffix: their first bytes tell them apart
        try:
            head = read_head(path, root=root)
        except (UnsafePath, OSError):
            return None
    fmt = formats.detect(path, head)
    if fmt is None:
        return None
    return _Candidate(PurePosixPath(path.relative_to(root).as_posix()), fmt)


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else "."


# --- where the locale is in a path --------------------------------------------------------------------


def _locate(relative: PurePosixPath, fmt: CatalogFormat) -> tuple[str, LocaleTag | None] | None:
    """(the pattern, the locale) of a file, the segment nearest the file that spells a locale in the
    format's convention replaced by `{locale}`; the locale is None for the default folder's file
    (Android `values/`). None when no segment spells a locale."""
    parts = list(relative.parts)
    suffix = relative.suffix
    for index in range(len(parts) - 1, -1, -1):
        is_file = index == len(parts) - 1
        segment = parts[index].removesuffix(suffix) if is_file else parts[index]
        located = _locate_segment(segment, fmt, is_file)
        if located is not None:
            template, tag = located
            parts[index] = template + (suffix if is_file else "")
            return "/".join(parts), tag
    return None


def _locate_segment(segment: str, fmt: CatalogFormat, is_file: bool) -> tuple[str, LocaleTag | None] | None:
    default = fmt.default_folder
    if default is not None and not is_file:
        if segment == default:
            return f"{default}-{{locale}}", None
        if segment.startswith(default + "-"):
            tag = _spelled(segment[len(default) + 1:], fmt)
            return (f"{default}-{{locale}}", tag) if tag is not None else None
    if not is_file:  # a locale then an extension: `pt-BR.lproj`
        for index, char in enumerate(segment):
            if char == "." and index:
                tag = _spelled(segment[:index], fmt)
                if tag is not None:
                    return "{locale}" + segment[index:], tag
    tag = _spelled(segment, fmt)
    if tag is not None:
        return "{locale}", tag
    for index, char in enumerate(segment):  # a name then a locale: `app_pt_BR`, `messages.fr`
        if char in _SEPARATORS and 0 < index < len(segment) - 1:
            tag = _spelled(segment[index + 1:], fmt)
            if tag is not None:
                return segment[:index + 1] + "{locale}", tag
    return None


def _spelled(text: str, fmt: CatalogFormat) -> LocaleTag | None:
    """The locale `text` spells in the format's convention, when its language is one CLDR knows and is
    written in lower case as every convention writes it (`US`, `app`, `LC_MESSAGES` are no locales)."""
    if not text or not text[0].islower():
        return None
    tag = fmt.parse_spelling(text)
    if tag is None or babel_locale(LocaleTag(language=tag.language)) is None:
        return None
    return tag


# --- one catalog ---------------------------------------------------------------------------------------


def _catalog(root: Path, pattern: str, members: list[tuple[_Candidate, LocaleTag | None]], bounds: Bounds,
             budget: list[int], notes: list[str]) -> FoundCatalog | None:
    fmt = _catalog_format([candidate.format for candidate, _ in members])
    found = FoundCatalog(pattern, fmt)
    for candidate, tag in members:
        data = _read(root, candidate.relative, bounds, budget, notes)
        if data is None:
            continue
        count = _count(fmt, data, tag or _SOURCE_LANGUAGE, candidate.relative, notes)
        if count is None:
            continue
        if tag is None:
            found.default_keys = (found.default_keys or 0) + count
        else:
            found.keys[tag] = found.keys.get(tag, 0) + count
    return found if any(found.keys.values()) or found.default_keys else None


def _multi_locale_catalog(root: Path, candidate: _Candidate, bounds: Bounds, budget: list[int],
                          notes: list[str]) -> FoundCatalog | None:
    fmt = candidate.format
    data = _read(root, candidate.relative, bounds, budget, notes)
    if data is None:
        return None
    try:
        tags = fmt.locales(data)
    except CatalogFileError:
        notes.append(f"{candidate.relative}: cannot be parsed; not proposed")
        return None
    found = FoundCatalog(str(candidate.relative), fmt, declared_source=tags[0] if tags else None)
    for tag in tags:
        count = _count(fmt, data, tag, candidate.relative, notes)
        if count is not None:
            found.keys[tag] = count
    return found if found.keys else None


def _catalog_format(found: list[CatalogFormat]) -> CatalogFormat:
    """The format the files show, as discovery tells it: the first one more specific than what a plain
    `.json` file is (a nearly empty i18next file shows no trait of its own)."""
    plain_json = formats.detect(PurePosixPath("catalog.json"))
    return next((fmt for fmt in found if fmt is not plain_json), found[0])


def _read(root: Path, relative: PurePosixPath, bounds: Bounds, budget: list[int], notes: list[str]) -> bytes | None:
    if budget[0] <= 0:
        if budget[0] == 0:
            notes.append(f"read {bounds.max_catalog_files:,} candidate files; the rest were not looked at")
            budget[0] -= 1
        return None
    budget[0] -= 1
    try:
        return read_bytes(root / relative, root=root, max_bytes=bounds.max_file_bytes, setting=None)
    except CatalogFileError:
        notes.append(f"{relative}: larger than {bounds.max_file_bytes:,} bytes; not read")
    except (UnsafePath, OSError):
        notes.append(f"{relative}: cannot be read; skipped")
    return None


def _count(fmt: CatalogFormat, data: bytes, tag: LocaleTag, relative: PurePosixPath, notes: list[str]) -> int | None:
    """The keys one file holds for `tag` (gettext: its msgids, translated or not); None when it cannot
    be parsed as the format."""
    try:
        if fmt.source_is_key:
            return len(fmt.source_texts(data, tag))
        return len(fmt.read(data, tag, DEFAULT_READ_LIMITS))
    except CatalogFileError:
        notes.append(f"{relative}: cannot be parsed as {fmt.name}; not proposed")
        return None
    except Exception:  # noqa: BLE001 - a reader's bug on a stranger's file must not stop the survey
        notes.append(f"{relative}: could not be read as {fmt.name}; not proposed")
        return None


def _is_localization(catalog: FoundCatalog) -> bool:
    """Two locales or more; or one, with a folder on the way that says localization, or in the format's
    default folder (a project that has not been translated yet)."""
    if len(catalog.keys) > 1 or catalog.default_keys is not None:
        return True
    words = {part.lower() for part in PurePosixPath(catalog.pattern).parts[:-1]}
    words |= {part.lower().split(".")[-1] for part in PurePosixPath(catalog.pattern).parts[:-1] if "." in part}
    return bool(words & (LOCALIZATION_WORDS | catalog.format.layout_folders))


def _beside(template: PurePosixPath, catalog: FoundCatalog) -> bool:
    """Whether a template file lies in the catalog's folder or the folder above it, in its format."""
    if formats.detect(template) is not catalog.format:
        return False
    folder = PurePosixPath(catalog.folder) if catalog.folder else PurePosixPath(".")
    parent = template.parent
    return parent == folder or parent == folder.parent or folder in parent.parents
