"""Every source file of a `sources` entry scanned once per content: a re-scan after one file changed
parses one file.

A file found with the (inode, size, mtime) it had at its last scan is not read again; one whose stamp
changed is read and hashed, and parsed only when its content hash changed (a `touch`, a checkout of
the same content, costs a read). A stamp taken within two seconds of its own mtime is not trusted (a
file written twice within the file system's timestamp granularity could keep it: git's "racily clean"
rule), so such a file is hashed again on the next scan. Results are kept per framework's options, so
two `sources` entries reading one file each keep their own.

A file that cannot be read (too large, outside the project, not a regular file) is skipped and named
with the reason; a framework that fails on one file loses that file, never the scan.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from parlance_i18n.code.files import source_files
from parlance_i18n.code.frameworks.base import Framework
from parlance_i18n.code.model import FileScan
from parlance_i18n.errors import I18nError
from parlance_i18n.store import read_bytes

__all__ = ["ScanCache", "Scanned", "Skipped", "scan_one"]

logger = logging.getLogger(__name__)

_RACY_SECONDS = 2


@dataclass(frozen=True, slots=True)
class Skipped:
    file: str
    reason: str


@dataclass(frozen=True, slots=True)
class Scanned:
    """One entry's scan: each file read, with what it holds, and the files skipped with the reason."""

    files: dict[str, FileScan]
    """Relative path -> what the file holds; the same `FileScan` object as the last scan's for a file that
    did not change (so an index of them updates only what changed: `usage.UsageIndex`)."""
    skipped: tuple[Skipped, ...]
    parsed: int
    """How many files were parsed by this scan (the rest came from the cache)."""


@dataclass(slots=True)
class _Kept:
    stamp: tuple[int, int, int]
    digest: bytes
    scan: FileScan
    trusted: bool


class ScanCache:
    """The scans of one project's source files, kept between calls (shared by every session). One scan
    of an entry at a time: two sessions asking at once share the second's work, not double it."""

    def __init__(self) -> None:
        self._kept: dict[str, dict[str, _Kept]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def scan(self, root: Path, framework: Framework) -> Scanned:
        """Every file `framework`'s entry names under `root`, scanned or taken from the cache."""
        options = framework.options
        identity = f"{framework.name}:{options.model_dump_json()}"
        with self._guard:
            lock = self._locks.setdefault(identity, threading.Lock())
        with lock:
            kept = self._kept.get(identity, {})
            fresh: dict[str, _Kept] = {}
            skipped: list[Skipped] = []
            parsed = 0
            now = time.time()
            # A generator: each file's record is dropped once looked at, so a re-scan of thousands of
            # unchanged files leaves next to nothing behind for the garbage collector.
            for file in source_files(root, options.paths, options.exclude):
                if not framework.reads(file.relative):
                    continue
                before = kept.get(file.relative)
                if before is not None and before.trusted and before.stamp == file.stamp:
                    fresh[file.relative] = before
                    continue
                try:
                    data = read_bytes(Path(file.path), root=root, max_bytes=options.max_file_bytes,
                                      kind="source files", setting="[[packs.i18n.sources]] max_file_bytes")
                except I18nError as exc:  # UnsafePath, a size past the limit (CatalogFileError)
                    skipped.append(Skipped(file.relative, exc.message))
                    continue
                except OSError as exc:
                    skipped.append(Skipped(file.relative,
                                           f"it could not be read ({exc.strerror or exc.__class__.__name__})"))
                    continue
                digest = hashlib.sha256(data).digest()
                trusted = now - file.stamp[2] / 1e9 > _RACY_SECONDS
                if before is not None and before.digest == digest:
                    scan = before.scan
                else:
                    scan = scan_one(framework, file.relative, data)
                    parsed += 1
                fresh[file.relative] = _Kept(file.stamp, digest, scan, trusted)
            self._kept[identity] = fresh  # files gone since are dropped with the old dictionary
            return Scanned({relative: record.scan for relative, record in fresh.items()}, tuple(skipped), parsed)


def scan_one(framework: Framework, relative: str, data: bytes) -> FileScan:
    """What `framework` reads in one file: a framework's failure on it is the file's problem, not the caller's."""
    try:
        return framework.scan(relative, data)
    except RecursionError:
        return FileScan(problems=("the file nests too deeply to be read",))
    except Exception as exc:  # a framework's bug on one file loses that file, never the scan
        logger.warning("i18n.source_scan_failed", extra={"framework": framework.name, "error": exc.__class__.__name__})
        return FileScan(problems=(f"the {framework.name} reader failed on this file ({exc.__class__.__name__})",))

