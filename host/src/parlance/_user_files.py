"""Reading a file a user, or a repository they cloned, put in Parlance's way: bounded, never blocking.

`parlance.toml`, a language pack's `pack.toml`, a client's configuration, a project's
`pyproject.toml`: each is read whole and parsed, so a path that leads to a FIFO would hang the
command, a link to `/dev/zero` would read until memory runs out, and a huge file would be read whole
before being found wrong. `read_user_file` opens without waiting (`O_NONBLOCK`: a FIFO with no writer
opens at once), checks that what it opened is a regular file (`fstat` on the descriptor, so a file
swapped after a check is still caught) and reads at most `max_bytes` + 1. Its refusals are `OSError`s,
so callers that already answer an unreadable file answer these too; `strerror` is a sentence.

Parsers that recurse (the standard library's `json` and `tomllib`) raise `RecursionError` on deeply
nested input and `ValueError` on an integer past 4,300 digits: `PARSER_LIMITS` names both, for the
callers to answer as a bad file rather than a traceback.
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["MAX_USER_FILE_BYTES", "PARSER_LIMITS", "FileTooLarge", "NotARegularFile", "read_user_file", "reason"]

MAX_USER_FILE_BYTES = 4 * 1024 * 1024
"""The largest configuration file read: ample for any parlance.toml, manifest or client file."""
PARSER_LIMITS = (RecursionError, ValueError)
"""What the standard library's parsers raise for input they cannot hold (besides their own errors)."""


class NotARegularFile(OSError):
    """The path leads to a FIFO, a device, a socket or a folder (or, when links are refused, a link)."""


class FileTooLarge(OSError):
    """The file is larger than the limit it was read with."""


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_user_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_USER_FILE_BYTES,
                   follow_links: bool = True) -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes` of them.

    Raises FileNotFoundError (and other OSErrors) as `open` would, `NotARegularFile` for anything but
    a regular file, and `FileTooLarge` past `max_bytes`. With `follow_links=False` a link as the
    last component is refused (`O_NOFOLLOW`), for a path already resolved: one swapped in since is not
    followed.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow_links and exc.errno == errno.ELOOP:
            raise NotARegularFile(errno.ELOOP, "a symbolic link, which is not followed here", str(path)) from None
        if exc.errno == errno.ENXIO:  # POSIX: a socket, or a FIFO opened for writing, cannot be opened
            raise NotARegularFile(errno.ENXIO, "not a regular file (a socket?)", str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise NotARegularFile(errno.EINVAL, f"{kind}, not a regular file", str(path))
        data = _read_at_most(fd, max_bytes + 1)  # the size may change between fstat and read: count what is read
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise FileTooLarge(errno.EFBIG, f"larger than the {_size(max_bytes)} read for a file like this", str(path))
    return data


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n:,} bytes"


def reason(exc: OSError) -> str:
    """An OSError as the end of a sentence: its `strerror` ("a named pipe (FIFO), not a regular file")."""
    return exc.strerror or exc.__class__.__name__
