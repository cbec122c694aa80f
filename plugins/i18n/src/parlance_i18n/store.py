"""The files the pack opens — catalogs, the lock file, glossaries and style notes — read within size
limits and only inside the folder they belong to, and written back atomically, never losing a change
someone else made meanwhile. A cloned repository is untrusted input: nothing in it (a link, a `..`,
a FIFO, a file that changes while it is opened) makes this module read or write outside the project.

**One containment rule.** Every function here takes the folder the file must stay in (`root` to
read, `within` to write) as the trusted anchor, written as the project opened it (links resolved
then, and checked against the project's folder: `model.project`, `settings`). The file's real path,
every link followed *now*, must lie inside that folder *as written*; comparing with the folder's own
real path instead would let a folder that became a link (`locales -> ../elsewhere`) pass, as both
resolve outside together. A link that stays inside is followed (`fr.json -> fr-FR.json`); one that
leads out is refused with UNSAFE_PATH, which names the file relative to its folder, never the link's
target nor anything read from it. So is anything that is not a regular file (a FIFO, a device, a
socket): it is never opened for a blocking read.

The check holds against a file changing under it: a file is opened by its real path with
`O_NOFOLLOW` (the last component may not have become a link) and `O_NONBLOCK` (a FIFO does not
block the open), the opened descriptor is checked to be a regular file, and the path, resolved
again, must still lead inside and to that same file (`st_dev`, `st_ino`). A write works through a
descriptor of the checked folder: the temporary file is created, read back and renamed over the
target relative to it, so a folder swapped for a link meanwhile cannot redirect it.

`read_bytes(path, root=...)` is how a file is read; over `max_bytes` (`[packs.i18n] max_file_bytes`
for catalogs, `MAX_FILE_BYTES` by default) it is not read at all. `read_head` reads the first bytes
(to tell a format), `check_file` checks without opening (before a write is planned).

`edit_file(path, fmt, tag, change, within=folder)` reads the file, applies `change` to its
`Document` (which splices only what changes), and replaces the file with the result;
`update_file(path, change, within=folder)` does the same with a function of the bytes (the lock
file's writer), and `create_file` with a file that may not exist yet (a new locale's: its missing
folders are made first, each checked to be inside `within`). They are the only way this pack writes
a file:

- **Inside its folder.** `within` is the catalog's own folder; `check_inside` is the same check, for
  a caller that checks every file before writing any.
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

Windows has no `O_NOFOLLOW` nor folder descriptors: there the checks run on paths, just before each
step.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import hashlib
import os
import secrets
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError, CatalogFormat, Document
from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, ReadLimits
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:
    from parlance_i18n.settings import I18nSettings

__all__ = ["ATTEMPTS", "DEFAULT_FILE_LIMITS", "MAX_FILE_BYTES", "ConcurrentChange", "FileLimits", "UnsafePath", "WriteResult", "check_file",
           "check_inside", "create_file", "edit_file", "label_of", "read_bytes", "read_head", "unified_diff", "update_file"]

ATTEMPTS = 5
REOPENS = 3
"""How many times a file replaced while it was being opened is opened again (`_opened`)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""A catalog file larger than this is reported and not read (the default of `[packs.i18n] max_file_bytes`):
the largest real ones are a few MB, and one of a million messages about 60 MB."""
_SETTING = "[packs.i18n] max_file_bytes"
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_NEW_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
              | getattr(os, "O_BINARY", 0))
_BY_FOLDER = {os.open, os.rename, os.unlink} <= os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
"""Whether files can be opened, renamed and removed relative to a folder's descriptor (POSIX)."""
_path_locks: dict[str, threading.Lock] = {}
_path_locks_guard = threading.Lock()


class ConcurrentChange(I18nError):
    """The file changed while it was being edited and the edit could not be applied again. The message
    names the file by its name; `what` is the rest of the sentence, for a caller that names it otherwise
    (a write's result names it by its path)."""

    code = "CONCURRENT_CHANGE"

    def __init__(self, name: str, what: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(f"{name} {what}", data)
        self.what = what


class UnsafePath(I18nError):
    """A file whose real path leads outside the folder it must stay in, or that is not a regular file."""

    code = "UNSAFE_PATH"


@dataclass(frozen=True, slots=True)
class FileLimits:
    """What one catalog file may hold: its size on disk (`[packs.i18n] max_file_bytes`), and what reading
    it may expand to (`max_file_messages`, `max_file_chars`: the format's `ReadLimits`)."""

    max_bytes: int = MAX_FILE_BYTES
    read: ReadLimits = DEFAULT_READ_LIMITS

    @classmethod
    def of(cls, settings: I18nSettings) -> FileLimits:
        """The limits `[packs.i18n]` sets."""
        return cls(settings.max_file_bytes, ReadLimits(settings.max_file_messages, settings.max_file_chars))


DEFAULT_FILE_LIMITS = FileLimits()


def label_of(path: Path, folder: Path | None) -> str:
    """How a message names `path`: relative to `folder` when it is inside it as written (a project's file
    relative to the project), else its name alone, never a full path."""
    if folder is not None:
        inside = Path(os.path.abspath(path))
        anchor = Path(os.path.abspath(folder))
        if inside.is_relative_to(anchor):
            return inside.relative_to(anchor).as_posix()
    return path.name


def read_bytes(path: Path, *, root: Path | None = None, max_bytes: int = MAX_FILE_BYTES,
               kind: str = "catalog files", setting: str | None = _SETTING) -> bytes:
    """The file's bytes, read as the module docstring says: UnsafePath when it leads outside `root` (no
    check without one) or is not a regular file, CatalogFileError naming the limit (and `setting`)
    when it is over `max_bytes`, OSError when it cannot be read."""
    with _opened(path, root) as (descriptor, status):
        if status.st_size > max_bytes:
            raise _too_large(status.st_size, max_bytes, kind, setting)
        data = _read_all(descriptor, max_bytes + 1)
    if len(data) > max_bytes:  # it grew since it was opened
        raise _too_large(len(data), max_bytes, kind, setting)
    return data


def read_head(path: Path, *, root: Path | None = None, size: int = 4096) -> bytes:
    """The first `size` bytes of the file, under the same checks as `read_bytes`."""
    with _opened(path, root) as (descriptor, _):
        return _read_all(descriptor, size)


def check_file(path: Path, root: Path) -> Path:
    """The real path of `path` after checking, without opening it, that it leads inside `root` and is a
    regular file (or does not exist); UnsafePath otherwise."""
    real = _contained(path, root, reading=True)
    try:
        status = os.stat(real)
    except FileNotFoundError:
        return real
    except OSError as error:
        if error.errno == errno.ELOOP:  # a folder on the way is a link in a circle (the file's own: `_contained`)
            raise _circular(label_of(path, root)) from None
        raise
    if not stat.S_ISREG(status.st_mode):
        raise _special(label_of(path, root), status.st_mode)
    return real


def check_inside(path: Path, within: Path, *, place: str = "its catalog's folder") -> Path:
    """The real path of `path` (links followed), after checking that it is inside `within` as written;
    UnsafePath (naming the file relative to `within`, and `place`) when it is not."""
    return _contained(path, within, place=place)


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
            raise FileNotFoundError(path.name)
        document = fmt.edit(before, tag)
        if attempt == 1:
            change(document)
            return document.to_bytes()
        try:
            change(document)
        except (KeyError, ValueError) as exc:  # what we were asked to change was changed meanwhile
            raise ConcurrentChange(
                Path(path).name, "was changed by someone else while it was being written, and the edit no "
                f"longer applies to it ({exc.__class__.__name__}): nothing was written; read it again",
                {"file": label_of(path, within)},
            ) from None
        return document.to_bytes()

    return update_file(path, edited, within=within, attempts=attempts)


def update_file(path: Path, change: Callable[[bytes | None, int], bytes], *, within: Path,
                place: str = "its catalog's folder", attempts: int = ATTEMPTS,
                max_bytes: int = MAX_FILE_BYTES) -> WriteResult:
    """Replace the file with `change(current bytes or None when it does not exist, attempt number)`,
    atomically and under the locks, calling `change` again on what another writer saved meanwhile.
    UnsafePath, naming `place`, when the file leads outside `within` or is not a regular file."""
    target = _contained(path, within, place=place)
    label = label_of(path, within)
    with _locked(target):
        for attempt in range(1, attempts + 1):
            if _contained(path, within, place=place) != target:  # made to lead elsewhere while we waited
                raise UnsafePath(f"{label} was changed to lead elsewhere while it was being written: nothing was "
                                 "written; read it again", {"file": label})
            before = _current(target, label, max_bytes)
            after = change(before, attempt)
            if after == before:
                return WriteResult(target, False, before or b"", after, attempt)
            if _replace_if_unchanged(target, before, after):
                return WriteResult(target, True, before or b"", after, attempt)
    raise ConcurrentChange(
        target.name, f"kept changing while it was being written ({attempts} attempts): nothing was written; "
        "try again once whatever else is writing it has finished",
        {"file": label},
    )


def create_file(path: Path, change: Callable[[bytes | None, int], bytes], *, within: Path,
                attempts: int = ATTEMPTS) -> WriteResult:
    """`update_file` for a file that may not exist yet: the folders it needs are made first, inside
    `within` (UnsafePath when one leads outside it, a link made meanwhile included)."""
    _make_folders(path.parent, within)
    return update_file(path, change, within=within, attempts=attempts)


def _make_folders(folder: Path, within: Path) -> None:
    anchor = Path(os.path.abspath(within))
    target = Path(os.path.abspath(folder))
    if not target.is_relative_to(anchor):
        raise UnsafePath(f"{label_of(folder, within)} is outside its catalog's folder: nothing was written",
                         {"file": label_of(folder, within)})
    current = anchor
    for part in target.relative_to(anchor).parts:
        current = current / part
        with contextlib.suppress(FileExistsError):
            os.mkdir(current)  # the umask decides its mode, as for any folder a user's tool makes
        _contained(current, within)  # one that is (or became) a link leading out is not written into


def unified_diff(before: bytes, after: bytes, label: str) -> str:
    """A unified diff of two versions of a file, as text (`a/label`, `b/label`)."""
    old, new = _text(before).splitlines(keepends=True), _text(after).splitlines(keepends=True)
    lines = difflib.unified_diff(old, new, f"a/{label}", f"b/{label}", n=1)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


# --- checking and reading ------------------------------------------------------------------------------


def _contained(path: Path, folder: Path | None, *, place: str = "its catalog's folder", reading: bool = False) -> Path:
    """The real path of `path`, every link followed, after checking it is inside `folder` as written."""
    real = Path(os.path.realpath(path))
    if folder is not None and not real.is_relative_to(Path(os.path.abspath(folder))):
        label = label_of(path, folder)
        if reading:
            raise UnsafePath(f"{label} leads outside the project's folder (a link): Parlance reads and writes only "
                             "inside it, so it was left alone; replace the link with the file", {"file": label})
        raise UnsafePath(f"{label} leads outside {place} (a link, or a folder that is one): Parlance writes only "
                         "inside it, so nothing was written; replace the link with the file", {"file": label})
    if os.path.islink(real):  # realpath stops at a link it cannot resolve: one that leads to itself, or round
        raise _circular(label_of(path, folder))
    return real


def _circular(label: str) -> UnsafePath:
    return UnsafePath(f"{label} is a link that leads back to itself (directly or round a circle of links): there is "
                      "no file to open, so it was left alone; replace the link with the file", {"file": label})


@contextmanager
def _opened(path: Path, root: Path | None) -> Iterator[tuple[int, os.stat_result]]:
    """A descriptor of the regular file `path` leads to inside `root`, and its status (see the module
    docstring); closed on exit.

    A path that still resolves to the same place but names another file than the one opened was replaced
    meanwhile — what every atomic save does, another Parlance process's (a replica on the same checkout)
    included — so the new file is opened and checked in turn, up to `REOPENS` times."""
    label = label_of(path, root)
    changed = UnsafePath(f"{label} was changed while it was being opened: it was left out; read it again",
                         {"file": label})
    for attempt in range(1, REOPENS + 1):
        real = _contained(path, root, reading=True)
        try:
            descriptor = os.open(real, _READ_FLAGS)
        except OSError as error:
            if _is_link_error(error, real):
                raise changed from None
            raise
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                raise _special(label, status.st_mode)
            again = _contained(path, root, reading=True)
            replaced = again == real and not _same_file(os.stat(again), status)
            if again != real or (replaced and attempt == REOPENS):
                raise changed
        except BaseException:
            os.close(descriptor)
            raise
        if not replaced:
            break
        os.close(descriptor)
    try:
        yield descriptor, status
    finally:
        os.close(descriptor)


def _current(target: Path, label: str, max_bytes: int, folder: int | None = None) -> bytes | None:
    """What the real path `target` holds now (None when it does not exist), never following a link it
    became meanwhile nor blocking on a special file; relative to the folder's descriptor when given."""
    try:
        if folder is not None:
            descriptor = os.open(target.name, _READ_FLAGS, dir_fd=folder)
        else:
            descriptor = os.open(target, _READ_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as error:
        if _is_link_error(error, target):
            raise UnsafePath(f"{label} was changed to a link while it was being written: nothing was written; "
                             "read it again", {"file": label}) from None
        raise
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise _special(label, status.st_mode)
        if status.st_size > max_bytes:
            raise _too_large(status.st_size, max_bytes, "files", None)
        return _read_all(descriptor, max_bytes + 1)
    finally:
        os.close(descriptor)


def _read_all(descriptor: int, most: int) -> bytes:
    chunks = []
    left = most
    while left > 0:
        chunk = os.read(descriptor, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _is_link_error(error: OSError, path: Path) -> bool:
    """Whether opening with O_NOFOLLOW failed because the last component is a link (ELOOP on Linux,
    EMLINK on FreeBSD, ...): checked on the path itself, whatever the code."""
    return os.path.islink(path)


def _same_file(one: os.stat_result, other: os.stat_result) -> bool:
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _special(label: str, mode: int) -> UnsafePath:
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a folder" if stat.S_ISDIR(mode) else "not a file")
    return UnsafePath(f"{label} is {kind}, not a regular file: Parlance opens only regular files, so it was left "
                      "alone", {"file": label})


def _too_large(size: int, limit: int, kind: str, setting: str | None) -> CatalogFileError:
    named = f" (setting {setting})" if setting else ""
    return CatalogFileError(f"the file has {size:,} bytes; {kind} over {limit:,} bytes are not read{named}")


# --- replacing -----------------------------------------------------------------------------------------


def _replace_if_unchanged(target: Path, before: bytes | None, after: bytes) -> bool:
    """Write `after` over `target` unless it no longer holds `before` (None: it did not exist);
    False when it changed. Every step is relative to a descriptor of the checked folder (POSIX)."""
    label = target.name
    with _folder(target.parent) as folder:
        status = _lstat(target, folder) if before is not None else None
        mode = status.st_mode & 0o7777 if status is not None else _new_file_mode()
        name, handle = _temporary(target, folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(after)
                stream.flush()
                os.fsync(stream.fileno())
                _keep_mode_and_owner(stream.fileno(), target.parent / name, mode, status)
            # The last look before the rename: an editor that takes no lock may have saved meanwhile.
            now = _current(target, label, max(len(before or b""), MAX_FILE_BYTES), folder)
            if (now is None) != (before is None) or (now is not None and _digest(now) != _digest(before or b"")):
                _remove(name, target.parent, folder)
                return False
            if folder is not None:
                os.rename(name, target.name, src_dir_fd=folder, dst_dir_fd=folder)  # replaces, as POSIX rename does
            else:
                os.replace(target.parent / name, target)
        except BaseException:
            with contextlib.suppress(OSError):
                _remove(name, target.parent, folder)
            raise
        _fsync_folder(target.parent, folder)
    return True


@contextmanager
def _folder(path: Path) -> Iterator[int | None]:
    """A descriptor of the folder `path` (a real path), checked to be it still: no link got into the path
    since it was checked, and the folder opened is the one the path names. None where files cannot be
    handled relative to a folder (Windows)."""
    if not _BY_FOLDER:
        yield None
        return
    changed = UnsafePath(f"the folder {path.name} was changed to a link while a file in it was being written: "
                         "nothing was written; read it again", {"file": path.name})
    try:
        descriptor = os.open(path, _FOLDER_FLAGS)
    except OSError:
        if Path(os.path.realpath(path)) != path:
            raise changed from None
        raise
    try:
        if Path(os.path.realpath(path)) != path or not _same_file(os.stat(path), os.fstat(descriptor)):
            raise changed
        yield descriptor
    finally:
        os.close(descriptor)


def _lstat(target: Path, folder: int | None) -> os.stat_result | None:
    try:
        if folder is not None:
            return os.stat(target.name, dir_fd=folder, follow_symlinks=False)
        return os.lstat(target)
    except FileNotFoundError:
        return None


def _temporary(target: Path, folder: int | None) -> tuple[str, int]:
    """A new, private temporary file beside `target`: its name and an open descriptor."""
    for _ in range(100):
        name = f".{target.name}.{secrets.token_hex(4)}.parlance-tmp"
        try:
            if folder is not None:
                return name, os.open(name, _NEW_FLAGS, 0o600, dir_fd=folder)
            return name, os.open(target.parent / name, _NEW_FLAGS, 0o600)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target.name}")


def _keep_mode_and_owner(descriptor: int, path: Path, mode: int, status: os.stat_result | None) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(descriptor, mode)
    else:  # Windows
        os.chmod(path, mode)
    if status is not None and hasattr(os, "fchown"):
        with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
            if (status.st_uid, status.st_gid) != (os.geteuid(), os.getegid()):
                os.fchown(descriptor, status.st_uid, status.st_gid)


def _remove(name: str, parent: Path, folder: int | None) -> None:
    if folder is not None:
        os.unlink(name, dir_fd=folder)
    else:
        os.unlink(parent / name)


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


def _fsync_folder(path: Path, folder: int | None) -> None:
    """Make the rename durable (POSIX); a folder cannot be opened for this on Windows."""
    with contextlib.suppress(OSError):
        if folder is not None:
            os.fsync(folder)
            return
        descriptor = os.open(path, os.O_RDONLY)
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
