"""Which files a `[[packs.i18n.catalogs]]` entry matches, by locale: the pattern's `{locale}` and
`{domain}` read in each format's own spelling, the catalog's one format told from its files, and
what is skipped on the way (a link or folder that leads outside the project, a file no format
claims) as problems. Each file gets its format bound to the catalog's `syntax` or to the one the file
shows (`CatalogFormat.for_file`). Nothing is read but the first bytes a shared suffix needs to tell
its format, or a format its syntax.

Discovery also notes every folder it looked into (`watch`), with a stamp of each (`folder_stamp`):
a file created, deleted or renamed in one changes its stamp, so that a project sees new and removed
files by comparing stamps, without listing folders again while nothing changed. `new_file_path` is
where a new locale's file goes: the catalog's path with `{locale}` spelled as its format spells it.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Literal

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, CatalogFormat
from parlance_i18n.locales import LocaleTag
from parlance_i18n.settings import CatalogSource, fixed_folder
from parlance_i18n.store import DEFAULT_FILE_LIMITS, FileLimits, UnsafePath, check_file, read_bytes, read_head

__all__ = ["RACY_SECONDS", "CatalogFile", "FileProblem", "FolderStamp", "catalog_folder", "discover",
           "file_problem_reason", "folder_stamp", "new_file_path"]

logger = logging.getLogger(__name__)

_MAX_MATCHES = 10_000
RACY_SECONDS = 2.0
"""A folder changed this recently when it was looked at may change again within the same tick of its
file system's clock (a coarse clock, or FAT's 2 s) without its stamp showing it: such a stamp is not
trusted (`folder_stamp` marks it), as git treats a racily clean index entry."""

FolderStamp = tuple[int, int] | Literal["racy"] | None
"""(st_mtime_ns, st_ino) of a folder, None when it does not exist, "racy" when it cannot be trusted yet."""


@dataclass(frozen=True, slots=True)
class CatalogFile:
    """One file of a catalog, for one locale (a multi-locale file appears once per locale it holds)."""

    catalog: str
    path: Path
    tag: LocaleTag
    format: CatalogFormat
    folder: Path
    """The catalog's own folder (`catalog_folder`, its real path when the project was opened): the file is
    written only when it leads inside it."""
    domain: str | None = None
    root: Path | None = None
    """The folder the file is read only inside: the project's, or the catalog's own (None: `folder`)."""
    limits: FileLimits = DEFAULT_FILE_LIMITS
    """What the file may be and expand to (`[packs.i18n] max_file_bytes`, `max_file_messages`, `max_file_chars`)."""
    template: Path | None = None
    """The template whose entries are the file's keys (the catalog's `template`, for the file's domain)."""

    @property
    def bounds(self) -> Path:
        """The folder the file must lie inside to be read."""
        return self.root if self.root is not None else self.folder

    def template_file(self, tag: LocaleTag) -> CatalogFile | None:
        """The file's template, as a file of the catalog for `tag` (the source locale), or None."""
        if self.template is None:
            return None
        return replace(self, path=self.template, tag=tag, template=None)

    def read_bytes(self) -> bytes:
        """The file's bytes, through `store` (inside `bounds`, a regular file, under the size limit)."""
        return read_bytes(self.path, root=self.bounds, max_bytes=self.limits.max_bytes)


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A message skipped while reading (key and line known), or a file that could not be read."""

    catalog: str
    path: Path
    key: str | None
    line: int | None
    reason: str


def discover(source: CatalogSource, source_tag: LocaleTag, *, root: Path | None = None,
             limits: FileLimits = DEFAULT_FILE_LIMITS, watch: MutableMapping[Path, FolderStamp] | None = None
             ) -> tuple[list[CatalogFile], list[FileProblem]]:
    """The files `source.path` matches, with the locale each is for; problems for what was skipped
    (a folder that is not a locale is not a problem: `values-night` is simply not a catalog). Files
    are held to `root` (default: the catalog's own folder). `watch` gets the stamp of every folder
    looked into, taken before it was listed."""
    pattern = str(source.path)
    folder = Path(os.path.realpath(catalog_folder(source.path)))
    root = root if root is not None else folder
    files: list[CatalogFile] = []
    problems: list[FileProblem] = []
    matched = list(_expand(pattern, _pattern_format(source, pattern), root, watch if watch is not None else {}))
    # One format for the whole catalog: a locale's file with no i18next trait yet (a new, nearly empty
    # translation) is still an i18next file when its siblings are.
    catalog_format = _catalog_format(source, [path for path, _ in matched], root)
    for path, fields in matched:
        fmt = catalog_format or _format_of(source, path, root)
        if fmt is None:
            try:
                check_file(path, root)
            except UnsafePath as exc:
                problems.append(FileProblem(source.label, path, None, None, file_problem_reason(exc)))
                continue
            problems.append(FileProblem(source.label, path, None, None,
                                        "the format cannot be told from the file name: set `format` for this catalog"))
            continue
        try:
            fmt = fmt.for_file(path.name, source.syntax, partial(_head, path, root))
        except ValueError as exc:  # the catalog names a syntax its files' format does not know
            problems.append(FileProblem(source.label, path, None, None, str(exc)))
            continue
        if fmt.multi_locale:
            try:
                tags = fmt.locales(read_bytes(path, root=root, max_bytes=limits.max_bytes))
            except (CatalogFileError, UnsafePath, OSError) as exc:
                problems.append(FileProblem(source.label, path, None, None, file_problem_reason(exc)))
                continue
            files.extend(CatalogFile(source.label, path, tag, fmt, folder, fields.get("domain"), root, limits)
                         for tag in tags)
            continue
        spelled = fields.get("locale")
        # No {locale} (one file, or Android's unqualified res/values): the source locale's file.
        tag = source_tag if spelled is None else fmt.parse_spelling(spelled)
        if tag is not None:
            domain = fields.get("domain")
            files.append(CatalogFile(source.label, path, tag, fmt, folder, domain, root, limits,
                                     source.template_for(domain)))
    if not files and not problems:
        problems.append(FileProblem(source.label, source.path, None, None,
                                    "no file matches this catalog's path: check the path (relative to parlance.toml) "
                                    "and its {locale} placeholder"))
    return files, problems


# --- discovery -----------------------------------------------------------------------------------------


def catalog_folder(path: Path) -> Path:
    """The folders of a catalog path before its first placeholder (the file's folder without one): what
    the catalog's files are written inside (`settings.fixed_folder`)."""
    return fixed_folder(path)


def new_file_path(source: CatalogSource, fmt: CatalogFormat, tag: LocaleTag, domain: str | None) -> Path:
    """Where `tag`'s file of the catalog goes: its path with `{locale}` spelled as `fmt` spells it
    (Android `values-b+sr+Latn`, gettext `sr@latin`) and `{domain}` as `domain`. ValueError, with
    the reason a caller sees, when the path has no `{locale}` (or a `{domain}` and no domain)."""
    pattern = str(source.path)
    if "{locale}" not in pattern:
        raise ValueError(f"the catalog {source.label!r} has no {{locale}} in its path ({source.path.name}), so a new "
                         "locale has no file name of its own: add {locale} to the path in parlance.toml, or create "
                         "the file and list it as a catalog of its own")
    if "{domain}" in pattern and domain is None:
        raise ValueError(f"the catalog {source.label!r} has a {{domain}} in its path and no file of the source locale "
                         "says which: create the file, then write again")
    return Path(pattern.replace("{locale}", fmt.locale_spelling(tag)).replace("{domain}", domain or ""))


def folder_stamp(path: Path, now: float | None = None) -> FolderStamp:
    """The folder's stamp, or "racy" when it changed within `RACY_SECONDS` of `now` (see there)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if (now if now is not None else time.time()) - found.st_mtime < RACY_SECONDS:
        return "racy"
    return found.st_mtime_ns, found.st_ino


def _watch(watch: MutableMapping[Path, FolderStamp], folder: Path) -> None:
    if folder not in watch:
        watch[folder] = folder_stamp(folder)


def _expand(pattern: str, fmt: CatalogFormat | None, root: Path, watch: MutableMapping[Path, FolderStamp]
            ) -> Iterator[tuple[Path, dict[str, str]]]:
    """Every existing file the pattern matches, with what `{locale}` and `{domain}` matched (the
    default locale's file of `fmt`'s convention without a `{locale}`: `_segment_matcher`). A folder on the way that leads
    outside `root` is not looked into: it is listed itself, to be reported by its name."""
    parts = Path(pattern).parts
    fixed = 0
    while fixed < len(parts) and "{" not in parts[fixed]:
        fixed += 1
    base = Path(*parts[:fixed]) if fixed else Path(".")
    if fixed == len(parts):
        _watch(watch, base.parent)
        if _is_candidate(base):
            yield base, {}
        return
    found = 0
    for path, fields in _walk(base, parts[fixed:], {}, fmt, root, watch):
        found += 1
        if found > _MAX_MATCHES:
            logger.warning("i18n.catalog_too_many_files", extra={"pattern": pattern, "limit": _MAX_MATCHES})
            return
        yield path, fields


def _walk(directory: Path, parts: tuple[str, ...], fields: dict[str, str], fmt: CatalogFormat | None, root: Path,
          watch: MutableMapping[Path, FolderStamp]) -> Iterator[tuple[Path, dict[str, str]]]:
    head, rest = parts[0], parts[1:]
    _watch(watch, directory)
    if "{" not in head:
        child = directory / head
        if rest:
            if child.is_dir() and _leads_out(child, root):
                yield child, fields
            elif child.is_dir():
                yield from _walk(child, rest, fields, fmt, root, watch)
        elif _is_candidate(child):
            yield child, fields
        return
    matcher = _segment_matcher(head, fmt)
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        match = matcher.fullmatch(entry.name)
        if match is None:
            continue
        found = {**fields, **{k: v for k, v in match.groupdict().items() if v is not None}}
        path = Path(entry.path)
        if not rest:
            if not _is_folder(entry):  # a link or a FIFO too: listed, and judged when read
                yield path, found
        elif _is_folder(entry):
            if _leads_out(path, root):  # not looked into: listed itself, reported by its name
                yield path, found
            else:
                yield from _walk(path, rest, found, fmt, root, watch)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether `entry` is a folder (a link to one followed); False where that cannot be told (a link in a
    loop): such an entry is listed as a file and refused with its reason when read, never an error here."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _leads_out(folder: Path, root: Path) -> bool:
    """Whether a folder found on the way is a link leading outside `root` (its files are not listed)."""
    return not Path(os.path.realpath(folder)).is_relative_to(root)


def _is_candidate(path: Path) -> bool:
    """Whether a path the pattern names in full is a catalog file to list: anything there but a folder
    (a link leading out, a FIFO: listed, and refused with its reason when read)."""
    return path.is_symlink() or (path.exists() and not path.is_dir())


_PLACEHOLDER_REGEX = {"{locale}": "(?P<locale>[^/]+?)", "{domain}": "(?P<domain>[^/]+?)"}


def _segment_matcher(segment: str, fmt: CatalogFormat | None) -> re.Pattern[str]:
    """A regex for one path segment with placeholders. Where `fmt`'s convention keeps the default
    locale's file without a locale, the segment matches it too, as the source locale: Android's
    `values-{locale}` matches `values` (`default_folder`), a Java bundle's `messages_{locale}.properties`
    matches `messages.properties` (`base_file_separator`)."""
    default_folder = fmt.default_folder if fmt is not None else None
    if default_folder is not None and segment == f"{default_folder}-{{locale}}":
        return re.compile(rf"{re.escape(default_folder)}(?:-(?P<locale>[^/]+))?")
    separator = fmt.base_file_separator if fmt is not None else None
    if separator is not None and segment.count(f"{separator}{{locale}}") == 1 and "{domain}" not in segment:
        before, after = segment.split(f"{separator}{{locale}}")
        return re.compile(rf"{re.escape(before)}(?:{re.escape(separator)}(?P<locale>[^/]+?))?{re.escape(after)}")
    pieces = re.split(r"(\{locale\}|\{domain\})", segment)
    regex = "".join(
        _PLACEHOLDER_REGEX.get(piece) or re.escape(piece)
        for piece in pieces
    )
    return re.compile(regex)


def _pattern_format(source: CatalogSource, pattern: str) -> CatalogFormat | None:
    """The catalog's format as told before any file is found (by the configuration, or the pattern's
    suffix): whose convention says where the default locale's file is (`_segment_matcher`)."""
    return formats.get(source.format) if source.format is not None else formats.detect(pattern)


def _catalog_format(source: CatalogSource, paths: list[Path], root: Path) -> CatalogFormat | None:
    """The format every file of the catalog is read with: the configured one, else the first specific
    format any of its files shows (JSON files only look like icu-json when none shows more)."""
    if source.format is not None:
        return formats.get(source.format)
    found = [fmt for fmt in (_format_of(source, path, root) for path in paths) if fmt is not None]
    plain_json = formats.detect(Path("catalog.json"))  # what a .json file is when it shows nothing more
    return next((fmt for fmt in found if fmt is not plain_json), found[0] if found else None)


def _format_of(source: CatalogSource, path: Path, root: Path) -> CatalogFormat | None:
    if source.format is not None:
        return formats.get(source.format)
    head = b""
    if path.suffix.lower() == ".json":
        try:
            head = read_head(path, root=root)
        except (UnsafePath, OSError):
            return None
    return formats.detect(path, head)


def _head(path: Path, root: Path) -> bytes:
    """The first bytes of a file, for a format telling its syntax (nothing when it cannot be read: the
    read that serves it reports why)."""
    try:
        return read_head(path, root=root)
    except (UnsafePath, OSError):
        return b""


def file_problem_reason(exc: BaseException) -> str:
    if isinstance(exc, UnsafePath):
        return f"{exc.message} ({exc.code})"
    if isinstance(exc, CatalogFileError):
        return exc.message
    return f"the file cannot be read ({exc.__class__.__name__})"
