"""The state engines (`parlance._state`), the shared one against a real PostgreSQL (`tests.postgres`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import anyio.abc

from parlance._state.postgres import PostgresState

__all__ = ["Proxy", "eventually", "proxy_to", "query", "running"]


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


class Proxy:
    """A TCP proxy in front of a PostgreSQL, for a database that goes away in the two ways it does:
    `refusing` closes each new connection at once (a database that is down), `frozen` stops forwarding
    in both directions, and holds new connections unanswered (a database that stops answering: a
    network partition, a stopped machine). Clearing either lets the traffic through again."""

    def __init__(self, upstream_port: int, port: int) -> None:
        self.upstream_port, self.port = upstream_port, port
        self.refusing = False
        self._thawed = anyio.Event()
        self._thawed.set()

    def url(self, url: str) -> str:
        """`url` (a database on the upstream server) through the proxy."""
        return url.replace(f":{self.upstream_port}/", f":{self.port}/")

    @property
    def frozen(self) -> bool:
        return not self._thawed.is_set()

    @frozen.setter
    def frozen(self, frozen: bool) -> None:
        if frozen and not self.frozen:
            self._thawed = anyio.Event()
        elif not frozen:
            self._thawed.set()

    async def serve(self, client: Any) -> None:
        async with client:
            if self.refusing:
                return
            await self._thawed.wait()
            async with await anyio.connect_tcp("127.0.0.1", self.upstream_port) as server:
                async with anyio.create_task_group() as pumps:
                    pumps.start_soon(self._pump, client, server, pumps.cancel_scope)
                    pumps.start_soon(self._pump, server, client, pumps.cancel_scope)

    async def _pump(self, source: Any, sink: Any, both: anyio.CancelScope) -> None:
        try:
            async for data in source:
                while self.frozen:
                    await self._thawed.wait()
                await sink.send(data)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass
        finally:
            both.cancel()


@contextlib.asynccontextmanager
async def proxy_to(url: str) -> AsyncIterator[Proxy]:
    """A `Proxy` to the server of `url`, serving for as long as the block runs."""
    from urllib.parse import urlsplit

    upstream = urlsplit(url).port
    assert upstream is not None
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    proxy = Proxy(upstream, port)
    async with listener, anyio.create_task_group() as tasks:
        tasks.start_soon(listener.serve, proxy.serve)
        try:
            yield proxy
        finally:
            proxy.frozen = False
            tasks.cancel_scope.cancel()
