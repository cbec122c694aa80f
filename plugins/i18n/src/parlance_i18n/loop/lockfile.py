"""`parlance-i18n.lock`: the source text each translation was written from, so that a translation whose
source changed since is reported as stale (as a TMS tracks it).

    {
     "version": 1,
     "sources": {
      "<catalog>": {
       "<locale>": {
        "<key>": "<16 hex digits: the start of the SHA-256 of the source text>"
    }}}}

It lives beside `parlance.toml` (the config may name another place) and is meant to be committed
with the catalogs: sorted, one key a line, so that a merge conflict in it is one line. A plural
source is hashed by its forms' texts; `source_hash` is the one definition.

Only a recorded key can be stale: a translation written before the lock existed, or by another tool,
is not known to be out of date. `record` is what the write tools call after writing translations.

Reads and writes go through `store`, as catalogs' do: the lock file must lie inside the project's
folder (`root`), and is written only inside its own folder: a lock file that is a link leading
elsewhere (dangling or not), a path outside the project, or a FIFO is refused with UNSAFE_PATH, read
as empty and never written. Writes are atomic (temporary file, fsync,
rename), and never losing another writer's entries: writers take turns (a lock per file in this
process, `flock` on its folder across processes), and each merges its entries into what the file
holds at that moment; a content hash read just before the rename catches a writer that takes no
lock, and the merge is then made again. Do not call `record` from inside a `store.edit_file` change callback
for a catalog in the same folder: the folder lock is not re-entrant across file descriptors.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.store import ATTEMPTS, ConcurrentChange, UnsafePath, WriteResult, label_of, read_bytes, update_file

__all__ = ["LOCK_FILE_NAME", "LockFileError", "SourceLock", "source_hash"]

logger = logging.getLogger(__name__)

LOCK_FILE_NAME = "parlance-i18n.lock"
VERSION = 1
MAX_LOCK_BYTES = 64 * 1024 * 1024
"""A lock file larger than this is not read (one of a million keys is about 60 MB)."""
HASH_CHARS = 16
"""64 bits of SHA-256: enough to tell one source text from its next version, short in a diff."""


class LockFileError(I18nError):
    """The lock file cannot be read or written: the message names it and the fix."""

    code = "INVALID_LOCK_FILE"


def source_hash(source: str | Mapping[str, str]) -> str:
    """The hash recorded for a source text (a str, or plural forms). Forms are hashed by their texts
    alone, sorted, so that the names they go by (`one`/`other`, or PO's `0`/`1`) do not matter."""
    text = source if isinstance(source, str) else json.dumps(sorted(source.values()), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]


class SourceLock:
    """The lock file at `path` (which need not exist yet), read on first use, only inside `root` (the
    project's folder; None: the lock file's own folder)."""

    def __init__(self, path: Path, root: Path | None = None) -> None:
        self.path = path
        self.root = root
        self.problem: str | None = None
        """Why the file could not be read (it is then treated as empty), or None."""
        self._sources: dict[str, dict[str, dict[str, str]]] | None = None

    def stale(self, catalog: str, locale: str, key: str, source_text: str | Mapping[str, str]) -> bool:
        """True when the key's translation is recorded and its source text changed since."""
        recorded = self._loaded().get(catalog, {}).get(locale, {}).get(key)
        return recorded is not None and recorded != source_hash(source_text)

    def recorded(self, catalog: str, locale: str) -> Mapping[str, str]:
        """The hashes recorded for one catalog and locale, by key."""
        return self._loaded().get(catalog, {}).get(locale, {})

    def record(self, catalog: str, locale: str, entries: Mapping[str, str | Mapping[str, str]]) -> WriteResult | None:
        """Record that the translations of `entries`' keys were written from these source texts,
        merged into what the file holds now (see the module docstring); raises LockFileError when
        the file holds something that is not a lock file, which is left as it is. The file's write
        (its bytes before, empty when it did not exist, and after), or None without entries."""
        if not entries:
            return None
        hashes = {key: source_hash(source) for key, source in entries.items()}
        bounds = self._bounds()
        name = label_of(self.path, bounds)
        if not self.path.parent.is_dir():
            folder = label_of(self.path.parent, self.root) if self.root is not None else self.path.parent.name
            raise LockFileError(f"the folder {folder!r} of the lock file does not exist: create it, or "
                                "point [packs.i18n] lock_file elsewhere", {"file": name})
        merged: dict[str, dict[str, dict[str, str]]] = {}

        def merge(before: bytes | None, attempt: int) -> bytes:
            sources = _parse(before, self.path) if before is not None else {}
            sources.setdefault(catalog, {}).setdefault(locale, {}).update(hashes)
            merged.clear()
            merged.update(sources)
            return _dump(sources)

        try:
            result = update_file(self.path, merge, within=self.path.parent, place="its folder",
                                 max_bytes=MAX_LOCK_BYTES)
        except ConcurrentChange:
            raise LockFileError(f"{self.path.name} kept changing while it was being written ({ATTEMPTS} attempts); "
                                "the translations were written, their source texts not recorded: try again",
                                {"file": name}) from None
        self._sources, self.problem = merged, None
        return result

    def _bounds(self) -> Path:
        """The folder the lock file is read in; UnsafePath when the configured path is outside the project
        (the host resolved a link in it: its target is not named)."""
        if self.root is None:
            return self.path.parent
        if not Path(os.path.abspath(self.path)).is_relative_to(self.root):
            raise UnsafePath("the lock file ([packs.i18n] lock_file) leads outside the project's folder (a link, or "
                             "a path elsewhere): Parlance reads and writes only inside the project, so it was left "
                             "alone; remove the link, or point lock_file inside the project",
                             {"file": "lock_file"})
        return self.root

    def _loaded(self) -> dict[str, dict[str, dict[str, str]]]:
        if self._sources is None:
            try:
                data: bytes | None = read_bytes(self.path, root=self._bounds(), max_bytes=MAX_LOCK_BYTES,
                                                kind="lock files", setting=None)
            except FileNotFoundError:
                data = None
            except (UnsafePath, CatalogFileError) as error:
                self.problem, data = f"{error.message} ({error.code})", None
                logger.warning("i18n.lock_file_refused", extra={"code": error.code})
            except OSError as error:
                self.problem, data = f"{self.path.name} cannot be read ({error.__class__.__name__})", None
            try:
                self._sources = _parse(data, self.path) if data is not None else {}
            except LockFileError as error:
                self.problem, self._sources = error.message, {}
                logger.warning("i18n.lock_file_unreadable", extra={"file": str(self.path)})
        return self._sources


def _parse(data: bytes, path: Path) -> dict[str, dict[str, dict[str, str]]]:
    if len(data) > MAX_LOCK_BYTES:
        raise LockFileError(f"{path.name} has {len(data):,} bytes, more than a lock file holds; delete it to start over",
                            {"file": str(path)})
    if not data.strip():
        return {}
    try:
        root: Any = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise LockFileError(f"{path.name} is not UTF-8: delete it to start over", {"file": str(path)}) from None
    except json.JSONDecodeError as error:
        raise LockFileError(f"{path.name} is not valid JSON (line {error.lineno}: {error.msg.lower()}); if a merge left "
                            "conflict markers in it, keep both sides' lines, or delete it to start over",
                            {"file": str(path), "line": error.lineno}) from None
    sources = root.get("sources") if isinstance(root, dict) else None
    if not isinstance(sources, dict) or root.get("version") != VERSION:
        raise LockFileError(f"{path.name} is not a version {VERSION} Parlance lock file "
                            "({\"version\": 1, \"sources\": {...}}): delete it to start over", {"file": str(path)})
    valid = (isinstance(locales, dict) and all(
        isinstance(keys, dict) and all(isinstance(h, str) for h in keys.values()) for keys in locales.values())
        for locales in sources.values())
    if not all(valid):
        raise LockFileError(f"{path.name}: sources are catalog -> locale -> key -> hash; delete it to start over",
                            {"file": str(path)})
    return sources


def _dump(sources: dict[str, dict[str, dict[str, str]]]) -> bytes:
    text = json.dumps({"version": VERSION, "sources": sources}, indent=1, sort_keys=True, ensure_ascii=False)
    return (text + "\n").encode("utf-8")
