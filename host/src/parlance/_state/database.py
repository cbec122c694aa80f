"""What "the shared database does not answer" is, and what a client and the log are told then.

Every part of the shared engine catches the same errors (`DB_ERRORS`: the driver's, the socket's, a
timeout) and turns them into the same answers: a tool gets ToolError SHARED_STATE_UNAVAILABLE, a
sentence that never holds the URL (its password) or the driver's text; the log gets the error's class
and SQLSTATE and the database's address without its credentials (`where()`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]

from parlance.errors import ToolError

__all__ = ["DB_ERRORS", "UNAVAILABLE", "failure_fields", "unavailable", "where"]

DB_ERRORS: tuple[type[BaseException], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)
"""The database (or the way to it) failed: the server's errors, the driver's, the socket's, a timeout."""

UNAVAILABLE = "SHARED_STATE_UNAVAILABLE"


def unavailable(*, after_changes: bool = False, reading: bool = False) -> ToolError:
    """The ToolError a tool answers while the database does not answer. `after_changes`: it stopped
    answering as a write ended, after the write may have changed files; `reading`: a read of the log."""
    if reading:
        message = ("the shared database ([state] url) does not answer, so the write log cannot be read now; "
                   "try again shortly, or ask the server's operator to check the database")
    elif after_changes:
        message = ("the shared database ([state] url) stopped answering as this write ended: its files may "
                   "already be changed, but the write is not logged and a retry with its idempotency_key runs "
                   "again; read the files back before you retry, or ask the server's operator to check the "
                   "database")
    else:
        message = ("the shared database ([state] url) does not answer: writes are refused so that none goes "
                   "uncoordinated or unlogged, and reads keep working; try again shortly, or ask the server's "
                   "operator to check the database")
    return ToolError(UNAVAILABLE, message, {})


def failure_fields(exc: BaseException) -> dict[str, Any]:
    """Log fields of a database error: its class and SQLSTATE, never its text (it may quote a value)."""
    return {"error": type(exc).__name__, "sqlstate": getattr(exc, "sqlstate", None)}


def where(url: str) -> str:
    """The database's address for the log: host, port and name, never the user or password."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "localhost"
        port = parts.port or 5432
    except ValueError:
        return "(unparsable url)"
    return f"{host}:{port}{parts.path or '/'}"

