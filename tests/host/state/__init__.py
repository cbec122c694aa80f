"""The state engines (`parlance._state`), the shared one against a real PostgreSQL (`tests.postgres`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio

from parlance._state.postgres import PostgresState

__all__ = ["eventually", "query", "running"]


async def eventually(check: Callable[[], Awaitable[bool]], *, within: float = 10.0,
                     what: str = "the condition") -> float:
    """Wait until `check()` is true; how long it took. Fails the test after `within` seconds."""
    started = anyio.current_time()
    with anyio.move_on_after(within):
        while not await check():
            await anyio.sleep(0.02)
        return anyio.current_time() - started
    raise AssertionError(f"{what} did not happen within {within} s")


@contextlib.asynccontextmanager
async def running(url: str, replica: str | None = None) -> AsyncIterator[PostgresState]:
    """A shared engine on `url`, running and ready (a replica of its own)."""
    engine = PostgresState(url, replica=replica)
    async with engine.running():
        await eventually(engine.ready, what=f"engine {replica} becoming ready")
        yield engine


async def query(url: str, sql: str, *args: Any) -> list[Any]:
    """The rows of one statement, on a connection of the test's own."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return list(await connection.fetch(sql, *args))
    finally:
        await connection.close()
