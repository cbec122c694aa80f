"""The shared engine's tables, created on first use and migrated by version.

Every replica runs `prepare()` as it connects, so a fresh database needs no setup step. The replicas of
one deployment usually start together: the work runs under a transaction-scoped advisory lock, so one
creates the tables while the others wait and then find them made (`CREATE TABLE IF NOT EXISTS` alone
races: two sessions creating one table at once fail on the catalog's unique index).

`parlance_schema` holds one row, the version the tables are at. A later Parlance appends a statement to
`MIGRATIONS` and the first replica of the new version to connect applies it. A replica that finds the
tables at a version newer than it knows stays off the database (`SchemaTooNew`): it cannot know what
the newer tables expect of a write.

The tables, each prefixed `parlance_` so that they can share a database with others:

- `parlance_write_log`: one row per applied write (who, which tool, which files with their hashes,
  which keys, counts — never a message's text); `i18n_history` pages through it, and the row's id is
  what a replica announces to the others.
- `parlance_idempotency`: a write call's claim of its idempotency key, and the outcome a retry gets.
  The key is stored as its SHA-256, so that a client's key of any length fits the index.
- `parlance_request_keys`: the ring of keys 2026-07-28 `requestState` is sealed with (`request_keys`).
- `parlance_events`: the events of resumable HTTP streams (`events`). UNLOGGED: they live two minutes,
  and a crash of the database that loses them costs a client a resumption, not data.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MIGRATIONS", "VERSION", "SchemaTooNew", "prepare"]

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS parlance_write_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        subject text,
        client_id text,
        pack text NOT NULL,
        tool text NOT NULL,
        catalog text,
        locale text,
        keys text[] NOT NULL DEFAULT '{}',
        files jsonb NOT NULL DEFAULT '[]',
        written integer NOT NULL,
        refused integer NOT NULL,
        idempotency_key boolean NOT NULL,
        resources text[] NOT NULL DEFAULT '{}',
        replica text NOT NULL
    );
    CREATE INDEX IF NOT EXISTS parlance_write_log_by_pack ON parlance_write_log (pack, id DESC);
    CREATE TABLE IF NOT EXISTS parlance_idempotency (
        subject text NOT NULL,
        pack text NOT NULL,
        tool text NOT NULL,
        key_sha256 text NOT NULL,
        fingerprint text NOT NULL,
        outcome jsonb,
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject, pack, tool, key_sha256)
    );
    CREATE INDEX IF NOT EXISTS parlance_idempotency_by_age ON parlance_idempotency (at);
    CREATE TABLE IF NOT EXISTS parlance_request_keys (
        id bigserial PRIMARY KEY,
        secret bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNLOGGED TABLE IF NOT EXISTS parlance_events (
        id bigserial PRIMARY KEY,
        session uuid NOT NULL,
        stream text NOT NULL,
        message text,
        at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS parlance_events_by_stream ON parlance_events (session, stream, id);
    """,
)
"""Statement `n - 1` takes the tables from version `n - 1` to `n`. Append; never edit one that shipped."""

VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The tables are at a version this Parlance does not know: a newer one migrated them."""

    def __init__(self, found: int) -> None:
        super().__init__(f"the shared database's tables are at version {found}, this Parlance knows up to "
                         f"{VERSION}: upgrade this replica to the version the others run")
        self.found = found


async def prepare(connection: Any) -> None:
    """Create or migrate the tables, under the advisory lock (see the module docstring)."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(hashtextextended('parlance:schema', 0))")
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS parlance_schema (single boolean PRIMARY KEY DEFAULT true CHECK (single), "
            "version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())")
        found = int(await connection.fetchval("SELECT version FROM parlance_schema") or 0)
        if found > VERSION:
            raise SchemaTooNew(found)
        for statement in MIGRATIONS[found:]:
            await connection.execute(statement)
        if found < VERSION:
            await connection.execute(
                "INSERT INTO parlance_schema (version) VALUES ($1) "
                "ON CONFLICT (single) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()", VERSION)
