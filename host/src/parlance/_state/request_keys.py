"""The keys 2026-07-28 `requestState` is sealed with, shared by the replicas through the database.

On 2026-07-28 a question a tool asks (`ctx.elicit()`) travels to the client inside a sealed
`requestState`, and the answer may come back through another replica: each must open what any other
sealed. The ring lives in `parlance_request_keys`, 32 random bytes a key: the newest key seals, every
key in the ring opens. The crypto is the SDK's (`AESGCMRequestStateCodec`); this module only keeps its
ring current, and `SharedRequestKeys` is the `RequestStateCodec` the server is given.

Rotation: a replica that finds the newest key older than `ROTATE_S` (a day) adds one, under an
advisory lock so that two replicas do not both add one, and announces it (NOTIFY
`parlance_request_keys`: the others load it at once rather than within the minute). Keys older than
`ROTATE_S + GRACE_S` are dropped: a key seals for a day and opens for an hour more, far longer than a
state lives (ten minutes). The engine reloads the ring every minute (`PostgresState.upkeep`).

Until the ring is loaded (the database did not answer when this replica started), states are sealed
with a key of this process's own: such a state opens on this replica only, as with the embedded
engine. That key keeps opening what it sealed once the ring is in, and never seals again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

__all__ = ["CHANNEL", "GRACE_S", "ROTATE_S", "SharedRequestKeys", "load_ring"]

ROTATE_S = 24 * 3600.0
GRACE_S = 3600.0
CHANNEL = "parlance_request_keys"

_FRESH = "SELECT count(*) FROM parlance_request_keys WHERE created_at > now() - make_interval(secs => $1)"


class SharedRequestKeys:
    """A `RequestStateCodec` (the SDK's protocol: `seal`, `unseal`) over the shared ring."""

    def __init__(self) -> None:
        self._local = os.urandom(32)
        self._ring: tuple[bytes, ...] = ()
        self._codec: Any = None

    @property
    def loaded(self) -> bool:
        """Whether the ring has been read from the database (until then, the process's own key seals)."""
        return bool(self._ring)

    def use(self, ring: Sequence[bytes]) -> None:
        """Seal with `ring[0]` from now on, and open with every key of it (and the process's own)."""
        if tuple(ring) != self._ring:
            self._ring, self._codec = tuple(ring), None

    def seal(self, payload: bytes) -> str:
        return str(self._current().seal(payload))

    def unseal(self, token: str) -> bytes:
        """The payload; raises the SDK's `InvalidRequestState` for a token no key of the ring sealed."""
        return bytes(self._current().unseal(token))

    def _current(self) -> Any:
        codec = self._codec
        if codec is None:  # built on first use: the SDK is imported by the server only
            from mcp.server.request_state import AESGCMRequestStateCodec

            codec = self._codec = AESGCMRequestStateCodec([*self._ring, self._local])
        return codec


async def load_ring(connection: Any, *, rotate: bool) -> tuple[list[bytes], bool]:
    """The ring, newest key first, and whether this call added a key. With `rotate`, first add a key when
    none is younger than `ROTATE_S` (a new database has none) and drop the expired ones."""
    added = False
    if rotate:
        async with connection.transaction():
            if not await connection.fetchval(_FRESH, ROTATE_S):
                await connection.execute("SELECT pg_advisory_xact_lock(hashtextextended('parlance:request_keys', 0))")
                if not await connection.fetchval(_FRESH, ROTATE_S):  # another replica may have added one meanwhile
                    await connection.execute("INSERT INTO parlance_request_keys (secret) VALUES ($1)", os.urandom(32))
                    await connection.execute("SELECT pg_notify($1, '')", CHANNEL)
                    added = True
            await connection.execute(
                "DELETE FROM parlance_request_keys WHERE created_at < now() - make_interval(secs => $1)",
                ROTATE_S + GRACE_S)
    rows = await connection.fetch("SELECT secret FROM parlance_request_keys ORDER BY created_at DESC, id DESC")
    return [bytes(row["secret"]) for row in rows], added
