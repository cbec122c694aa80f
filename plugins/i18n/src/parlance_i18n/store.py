"""The catalog files on disk: read within one size limit, and written back atomically, only inside the
folder they belong to, never losing a change someone else made meanwhile.

`read_bytes(path)` is how the catalog model reads a file (a project's, a bundle file); over
`MAX_FILE_BYTES`, the one limit every catalog file is read under (planning a write too), it is not
read at all.

`edit_file(path, fmt, tag, change, within=folder)` reads the file, applies `change` to its
`Document` (which splices only what changes), and replaces the file with the result;
`update_file(path, change, within=folder)` does the same with a function of the bytes (the lock
file's writer). They are the only way this pack writes a file, and both take the folder the file
must stay in:

- **Inside its folder.** A file is written only when its real path (links followed) is inside the
  real path of `within`, its catalog's own folder: a catalog file that is a link to a file
  elsewhere (a cloned repository can hold one) is refused with UNSAFE_PATH and nothing is written.
  `check_inside` is the same check, for a caller that checks every file before writing any.
- **Atomic.** The new bytes go to a temporary file in the same folder, which is flushed and
  fsynced, then renamed over the original (and the folder fsynced): a reader sees the old file or
  the new one, never half of one; a crash leaves the old file. The file's permission bits are kept,
  and its owner where the process may set it (a server running as root leaves a user's file the
  user's). A symbolic link that stays inside the folder is followed (its target is replaced, the
  link stays); a hard link is not (the path gets a new file, as every editor that saves atomically
  does).
- **No lost updates.** Writers in this process take a lock per file, and writers in any process an
  advisory lock on the folder (POSIX `flock`), so two Parlance sessions take turns. An editor that
  takes no lock is caught by the content hash: just before the rename the file is read again, and if
  it changed since it was read, `change` is applied again to what is there now (it is a function of
  the document, not of the old bytes). When it can no longer apply (the key it sets was deleted
  meanwhile) or the file keeps changing, nothing is written and `ConcurrentChange` says so.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError, CatalogFormat, Document
from parlance_i18n.locales import LocaleTag

__all__ = ["ATTEMPTS", "MAX_FILE_BYTES", "ConcurrentChange", "UnsafePath", "WriteResult", "check_inside",
           "edit_file", "read_bytes", "unified_diff", "update_file"]

ATTEMPTS = 5
MAX_FILE_BYTES = 64 * 1024 * 1024
"""A catalog file larger than this is reported and not read: the largest real ones are a few MB, and one of
a million messages about 60 MB."""
_path_locks: dict[str, threading.Lock] = {}
_path_locks_guard = threading.Lock()


class ConcurrentChange(I18nError):
    """The file changed while it was being edited and the edit could not be applied again."""

    code = "CONCURRENT_CHANGE"


class UnsafePath(I18nError):
    """A file to write whose real path leads outside the folder it must be written in."""

    code = "UNSAFE_PATH"


def read_bytes(path: Path) -> bytes:
    """The file's bytes; CatalogFileError (naming the limit) when it is over `MAX_FILE_BYTES`, OSError
    when it cannot be read."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise CatalogFileError(f"the file has {size:,} bytes; catalog files over {MAX_FILE_BYTES:,} bytes are not read")
    return path.read_bytes()


def check_inside(path: Path, within: Path, *, place: str = "its catalog's folder") -> Path:
    """The real path of `path` (links followed), after checking that it is inside the real path of
    `within`; UnsafePath (naming `place`, where it leads and the fix) when it is not."""
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(Path(os.path.realpath(within))):
        raise UnsafePath(f"{path} leads outside {place} (to {real}): Parlance writes only inside it, so nothing was "
                         "written; replace the link with the file", {"file": str(path)})
    return real


@dataclass(frozen=True)
class WriteResult:
    path: Path
    changed: bool
    before: bytes
    after: bytes
    attempts: int = 1
    """How many times `change` ran: more than once when someone else changed the file meanwhile."""

    def diff(self, label: str | None = None) -> str:
        return unified_diff(self.before, self.after, label or str(self.path))


def edit_file(path: Path, fmt: CatalogFormat, tag: LocaleTag, change: Callable[[Document], None], *, within: Path,
              attempts: int = ATTEMPTS) -> WriteResult:
    """Apply `change` to the file's document and write the result; see the module docstring.
    `within` is the catalog's folder (UnsafePath when the file leads outside it).

    `change` may raise (KeyError, ValueError, ...): nothing is written and the exception propagates
    (as ConcurrentChange when it raises only on a second attempt, because of the other change).
    """
    def edited(before: bytes | None, attempt: int) -> bytes:
        if before is None:
            raise FileNotFoundError(str(path))
        document = fmt.edit(before, tag)
        if attempt == 1:
            change(document)
            return document.to_bytes()
        try:
            change(document)
        except (KeyError, ValueError) as exc:  # what we were asked to change was changed meanwhile
            raise ConcurrentChange(
                f"{Path(path).name} was changed by someone else while it was being written, and the edit no "
                f"longer applies to it ({exc.__class__.__name__}): nothing was written; read it again",
                {"file": str(path)},
            ) from None
        return document.to_bytes()

    return update_file(path, edited, within=within, attempts=attempts)


def update_file(path: Path, change: Callable[[bytes | None, int], bytes], *, within: Path,
                place: str = "its catalog's folder", attempts: int = ATTEMPTS) -> WriteResult:
    """Replace the file with `change(current bytes or None when it does not exist, attempt number)`,
    atomically and under the locks, calling `change` again on what another writer saved meanwhile.
    UnsafePath, naming `place`, when the file leads outside `within`."""
    target = check_inside(path, within, place=place)
    with _locked(target):
        for attempt in range(1, attempts + 1):
            before = target.read_bytes() if target.exists() else None
            after = change(before, attempt)
            if after == before:
                return WriteResult(target, False, before or b"", after, attempt)
            if _replace_if_unchanged(target, before, after):
                return WriteResult(target, True, before or b"", after, attempt)
    raise ConcurrentChange(
        f"{target.name} kept changing while it was being written ({attempts} attempts): nothing was written; "
        "try again once whatever else is writing it has finished",
        {"file": str(target)},
    )


def unified_diff(before: bytes, after: bytes, label: str) -> str:
    """A unified diff of two versions of a file, as text (`a/label`, `b/label`)."""
    old, new = _text(before).splitlines(keepends=True), _text(after).splitlines(keepends=True)
    lines = difflib.unified_diff(old, new, f"a/{label}", f"b/{label}", n=1)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


# --- replacing -----------------------------------------------------------------------------------------


def _replace_if_unchanged(target: Path, before: bytes | None, after: bytes) -> bool:
    """Write `after` over `target` unless it no longer holds `before` (None: it did not exist);
    False when it changed."""
    status = target.stat() if before is not None else None
    mode = status.st_mode & 0o7777 if status is not None else _new_file_mode()
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".parlance-tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(after)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        if status is not None and hasattr(os, "chown"):
            with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
                if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
                    os.chown(temporary, status.st_uid, status.st_gid)
        # The last look before the rename: an editor that takes no lock may have saved meanwhile.
        now = target.read_bytes() if target.exists() else None
        if (now is None) != (before is None) or (now is not None and _digest(now) != _digest(before or b"")):
            os.unlink(temporary)
            return False
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(target.parent)
    return True


def _new_file_mode() -> int:
    """What a new file gets under the process's umask (mkstemp's file is private until then). Read,
    not set and restored: os.umask would briefly change it for every thread of the server."""
    umask = 0o022
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                umask = int(line.split()[1], 8)
    return 0o666 & ~umask


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


@contextmanager
def _locked(target: Path) -> Iterator[None]:
    key = str(target)
    with _path_locks_guard:
        lock = _path_locks.setdefault(key, threading.Lock())
    with lock, _folder_lock(target.parent):
        yield


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An advisory lock other Parlance processes honour (flock on the folder; none on Windows)."""
    try:
        import fcntl
    except ImportError:  # Windows: the hash check alone guards against other writers
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX); a folder cannot be opened for this on Windows."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _text(data: bytes) -> str:
    for bom, encoding in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
