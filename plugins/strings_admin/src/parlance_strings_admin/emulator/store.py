"""The emulator's data: scopes and keys in SQLite, safe under concurrent requests and restarts.

Every operation opens its own connection (SQLite connections must not be shared across threads,
and Starlette runs sync endpoints in a thread pool). Uniqueness is the database's job: a key is
created by a single INSERT against a primary key, so of two concurrent creates of the same key
exactly one succeeds. WAL lets readers proceed while a writer commits.
"""

from __future__ import annotations

import enum
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["AddKeyOutcome", "Scope", "StoredKey", "StringsStore", "default_db_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS scopes (
    value            TEXT PRIMARY KEY,
    should_translate INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS keys (
    scope            TEXT NOT NULL REFERENCES scopes(value),
    key              TEXT NOT NULL,
    value            TEXT NOT NULL,
    should_translate INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
);
"""


def default_db_path() -> Path:
    """Where `parlance strings-admin emulator` keeps its data unless told otherwise."""
    data_home = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data_home) / "parlance" / "strings-admin-emulator.sqlite3"


@dataclass(frozen=True)
class Scope:
    value: str
    should_translate: bool

    def to_json(self) -> dict[str, object]:
        """The service's `KeysScope` DTO."""
        return {"value": self.value, "shouldTranslate": self.should_translate}


@dataclass(frozen=True)
class StoredKey:
    scope: str
    key: str
    value: str
    should_translate: bool


class AddKeyOutcome(enum.Enum):
    CREATED = "created"
    UNKNOWN_SCOPE = "unknown scope"
    KEY_EXISTS = "key exists"


class StringsStore:
    """Scopes and keys in the SQLite file at `path` (created on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # timeout: wait for a concurrent writer's lock instead of failing with "database is locked".
        db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            db.close()

    def add_scopes(self, scopes: Iterable[Scope]) -> None:
        """Create scopes that do not exist yet; existing ones keep their settings."""
        with self._connect() as db:
            db.executemany(
                "INSERT OR IGNORE INTO scopes (value, should_translate) VALUES (?, ?)",
                [(scope.value, int(scope.should_translate)) for scope in scopes],
            )

    def list_scopes(self) -> list[Scope]:
        with self._connect() as db:
            rows = db.execute("SELECT value, should_translate FROM scopes ORDER BY value").fetchall()
        return [Scope(value, bool(flag)) for value, flag in rows]

    def add_key(self, scope: str, key: str, value: str, should_translate: bool) -> AddKeyOutcome:
        with self._connect() as db:
            try:
                db.execute(
                    "INSERT INTO keys (scope, key, value, should_translate) VALUES (?, ?, ?, ?)",
                    (scope, key, value, int(should_translate)),
                )
            except sqlite3.IntegrityError:
                # Either constraint can fire; ask which (the scope table only grows).
                known = db.execute("SELECT 1 FROM scopes WHERE value = ?", (scope,)).fetchone()
                return AddKeyOutcome.KEY_EXISTS if known else AddKeyOutcome.UNKNOWN_SCOPE
        return AddKeyOutcome.CREATED

    def list_keys(self, scope: str | None = None) -> list[StoredKey]:
        """Every stored key (of one scope, if given): for tests and for looking around."""
        query = "SELECT scope, key, value, should_translate FROM keys"
        params: tuple[str, ...] = ()
        if scope is not None:
            query, params = query + " WHERE scope = ?", (scope,)
        with self._connect() as db:
            rows = db.execute(query + " ORDER BY scope, key", params).fetchall()
        return [StoredKey(s, k, v, bool(flag)) for s, k, v, flag in rows]
