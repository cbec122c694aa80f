"""What a plan reads: each file's bytes, messages and Document, from disk, once per plan (never what
a `ProjectLocale` cached, which may be older than the file), through `store` as every read is: inside
the file's folder, a regular file, within the catalog's `max_file_bytes`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from parlance_i18n.formats import DEFAULT_READ_LIMITS, CatalogFileError, Document, LocaleMessages, ReadLimits
from parlance_i18n.locales import LocaleTag
from parlance_i18n.model.project import CatalogFile
from parlance_i18n.store import MAX_FILE_BYTES, UnsafePath

__all__ = ["Reader", "in_catalog"]


class Reader:
    """Each file's bytes, messages and Document, read from disk once per plan, each file within
    `limits` (past them, it is a file that cannot be read, with the reason). Given `keys`, the
    messages are those of `keys` (`CatalogFormat.read_keys`): all a plan that writes them asks for."""

    def __init__(self, limits: ReadLimits = DEFAULT_READ_LIMITS, keys: Collection[str] | None = None) -> None:
        self.limits = limits
        self.keys = keys
        self.errors: dict[Path, str] = {}
        self._data: dict[Path, bytes | None] = {}
        self._files: dict[Path, CatalogFile] = {}  # how each path was met, so it is read as its catalog's file
        self._messages: dict[tuple[Path, LocaleTag], LocaleMessages | None] = {}
        self._documents: dict[tuple[Path, LocaleTag], Document | None] = {}

    def data(self, path: Path) -> bytes | None:
        if path not in self._data:
            file = self._files.get(path)
            try:
                if file is not None:
                    self._data[path] = file.read_bytes()
                else:  # a path met before its catalog file: still bounded
                    size = path.stat().st_size
                    if size > MAX_FILE_BYTES:
                        raise CatalogFileError(f"the file has {size:,} bytes, over the {MAX_FILE_BYTES:,} read")
                    self._data[path] = path.read_bytes()
            except CatalogFileError as exc:
                self._fail(path, exc.reason)
            except UnsafePath as exc:
                self._fail(path, exc.message)
            except OSError as exc:
                self._fail(path, f"the file cannot be read ({exc.strerror or exc.__class__.__name__})")
        return self._data[path]

    def file_data(self, file: CatalogFile) -> bytes | None:
        """The bytes of a catalog's file (a template too), read as that file: inside its bounds."""
        self._files.setdefault(file.path, file)
        return self.data(file.path)

    def start(self, file: CatalogFile, data: bytes) -> None:
        """Read `file`, which is not on disk yet, as holding `data` (a new locale's file: `new_files`)."""
        self._files[file.path] = file
        self._data[file.path] = data

    def messages(self, file: CatalogFile) -> LocaleMessages | None:
        slot = (file.path, file.tag)
        if slot not in self._messages:
            keys = self.keys
            read = file.format.read if keys is None else \
                lambda data, tag, limits: file.format.read_keys(data, tag, keys, limits)
            self._messages[slot] = self._parse(file, read)
        return self._messages[slot]

    def document(self, file: CatalogFile) -> Document | None:
        slot = (file.path, file.tag)
        if slot not in self._documents:
            self._documents[slot] = self._parse(file, file.format.edit)
        return self._documents[slot]

    def take_document(self, file: CatalogFile) -> Document | None:
        """The Document read for lookups, handed over to be edited (the next `document` reads again)."""
        return self._documents.pop((file.path, file.tag), None)

    def _parse(self, file: CatalogFile, parse: Callable[[bytes, LocaleTag, ReadLimits], Any]) -> Any:
        self._files.setdefault(file.path, file)
        data = self.data(file.path)
        if data is None:
            return None
        try:
            # Limits the plan was given, else the catalog's own (its [packs.i18n] settings).
            limits = self.limits if self.limits != DEFAULT_READ_LIMITS else file.limits.read
            return parse(data, file.tag, limits)
        except CatalogFileError as exc:
            self.errors.setdefault(file.path, exc.reason)
            return None

    def _fail(self, path: Path, reason: str) -> None:
        self._data[path] = None
        self.errors[path] = reason


def in_catalog(files: Iterable[CatalogFile], catalog: str | None) -> list[CatalogFile]:
    return [file for file in files if catalog is None or file.catalog == catalog]
