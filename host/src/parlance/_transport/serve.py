"""Serving a built MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import TYPE_CHECKING, Any, Protocol

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST
from pydantic import ValidationError

from parlance._transport import stdio_pipes
from parlance._transport.event_store import MemoryEventStore
from parlance._transport.http_guard import HostRule, HttpGuard, parse_host_rule
from parlance._transport.stop_deadline import StopDeadline
from parlance._transport.wire import Unreadable, diagnose

if TYPE_CHECKING:
    from parlance._state.engine import StateEngine
    from parlance._transport.http_auth import ResourceServer

__all__ = ["serve_http", "serve_stdio"]

logger = logging.getLogger(__name__)


async def serve_stdio(server: Server[Any], *, shutdown_grace_s: float = stdio_pipes.ANSWER_LIMIT_S,
                      deadline: StopDeadline | None = None) -> None:
    """Serve on stdin/stdout until stdin closes or a stop signal. Only JSON-RPC ever reaches stdout.

    Served by the event loop itself (`parlance._transport.stdio_pipes`) wherever asyncio runs on
    POSIX, and by the SDK's thread-based `stdio_server()` elsewhere (Windows, trio). At the end of
    input or a stop signal, requests already read have `shutdown_grace_s` to be answered; with a
    `deadline` (`parlance._transport.stop_deadline`), the process is gone a moment later, whatever runs.
    """
    on_end = getattr(server, "end_subscriptions", None)
    streams = stdio_pipes.wire_streams(shutdown_grace_s, on_end, deadline) if stdio_pipes.usable() \
        else stdio_server()
    async with streams as (read_stream, write_stream):
        # fd 1 now goes to stderr, but print() writes into sys.stdout's Python buffer, which would be
        # flushed at exit, after fd 1 is restored to the wire. Send it to stderr instead (inside the
        # block: stdio_server() finds the wire through sys.stdout).
        with contextlib.redirect_stdout(sys.stderr):
            incoming = _AnsweringReceiveStream(read_stream, write_stream)
            await server.run(incoming, write_stream, server.create_initialization_options())


def _unreadable(problem: Exception) -> Unreadable:
    """What answers a line the transport could not take. Never raises: the reader must go on."""
    if isinstance(problem, Unreadable):
        return problem
    try:  # the SDK's transport hands on pydantic's error, which holds the line when it was not JSON
        errors = problem.errors() if isinstance(problem, ValidationError) else []
        if errors and errors[0]["type"] == "json_invalid" and isinstance(errors[0].get("input"), str):
            return diagnose(errors[0]["input"])
    except Exception:  # noqa: BLE001
        pass
    return Unreadable(None, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message this server can decode")


class _Replies(Protocol):
    async def send(self, item: SessionMessage, /) -> None: ...


class _AnsweringReceiveStream:
    """The stdio read stream, answering each line that is not JSON-RPC with an error, as JSON-RPC requires.

    The transports hand such lines to the server as exceptions, which the SDK drops, so the client
    would wait forever for an answer. The check runs inline in `receive()` (no extra task or stream on the hot
    path). The line itself is never logged: it may hold a user's text.
    """

    def __init__(self, inner: Any, replies: _Replies) -> None:
        self._inner = inner
        self._replies = replies

    @property
    def last_context(self) -> Any:  # the SDK reads the sender's contextvars snapshot from here
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item: SessionMessage | Exception = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def _answer(self, problem: Exception) -> None:
        unreadable = _unreadable(problem)
        logger.warning("stdio.unreadable_line", extra={"code": unreadable.code})
        if unreadable.answer:
            await self._replies.send(SessionMessage(unreadable.reply()))

    def __aiter__(self) -> _AnsweringReceiveStream:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _AnsweringReceiveStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


LOOPBACK = ("127.0.0.1", "localhost", "::1")
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
LOOPBACK_ORIGINS = [f"{scheme}://{host}" for scheme in ("http", "https") for host in LOOPBACK_HOSTS]
MCP_PATH = "/mcp"


def http_security(bind: str, allowed_hosts: list[str], allowed_origins: list[str]) -> tuple[list[HostRule],
                                                                                            list[HostRule]]:
    """The Host and Origin rules for the HTTP transport (DNS-rebinding protection), or a ConfigError.

    Loopback binds accept loopback names unless told otherwise. Any other bind makes Parlance reachable
    from other machines, so it must name the Host headers it will answer to: a server that accepts any
    Host header can be driven by any web page a user visits. (Such a bind also needs `[auth]`:
    `parlance._transport.http_auth.require_auth`.)
    """
    from parlance.errors import ConfigError

    if not allowed_hosts and bind not in LOOPBACK:
        raise ConfigError(
            f"binding HTTP to {bind} exposes Parlance beyond this machine",
            key="host.allowed_hosts",
            fix='list the Host headers clients use, e.g. allowed_hosts = ["mcp.example.com:8000"] (and '
                "allowed_origins for browsers), put it behind an authenticating proxy, or bind 127.0.0.1",
        )
    hosts, origins = allowed_hosts or LOOPBACK_HOSTS, allowed_origins if allowed_hosts else LOOPBACK_ORIGINS
    try:
        return ([parse_host_rule(rule, origin=False) for rule in hosts],
                [parse_host_rule(rule, origin=True) for rule in origins])
    except ValueError as exc:
        key = "host.allowed_origins" if "origin" in str(exc) else "host.allowed_hosts"
        raise ConfigError(str(exc), key=key, fix="write hosts as 'name:port' or 'name:*', origins as "
                                                 "'https://name:port'") from None


def _event_store_per_session(server: Server[Any], events: Any) -> None:
    """Give each HTTP session an event store of its own (see `parlance._transport.event_store`).

    The SDK's session manager hands every new session the one store it was given; it reads that
    attribute as it admits a session, synchronously, so setting a fresh view just before is exact.
    Should a future SDK admit sessions another way, resumability is switched off rather than shared.
    """
    manager = server.session_manager
    admit = getattr(manager, "_admit_session", None)
    if admit is None or not hasattr(manager, "event_store"):
        logger.warning("http.resumable_streams_off", extra={"reason": "this mcp version cannot scope them per session"})
        manager.event_store = None
        return

    def admit_with_own_events(*args: Any, **kwargs: Any) -> Any:
        manager.event_store = events.for_session()
        return admit(*args, **kwargs)

    manager._admit_session = admit_with_own_events  # type: ignore[method-assign]


async def serve_http(server: Server[Any], *, bind: str, port: int, security: tuple[list[HostRule], list[HostRule]],
                     max_sessions: int, session_idle_timeout_s: float, shutdown_grace_s: float,
                     stateless: bool = False, json_response: bool = False, sse_retry_ms: int = 0,
                     deadline: StopDeadline | None = None, auth: ResourceServer | None = None,
                     state: StateEngine | None = None) -> None:
    """Serve streamable HTTP at http://{bind}:{port}/mcp behind `HttpGuard` until SIGTERM or SIGINT.

    The layers, outermost first: `ReplicaFront` (probes, access log), `HttpGuard` (Host and Origin,
    bodies, sessions, draining), with `auth` the `BearerGate` (tokens, scopes per tool) and the
    protected-resource metadata routes, then the SDK's app.

    On a stop signal uvicorn stops accepting connections, lets the calls in flight finish for up to
    `shutdown_grace_s`, then exits the pack lifespans; the signal also arms `deadline`, if given, and
    a second one ends the process through it. Its log lines go through Parlance's handler.
    `stateless` and `json_response` are the SDK's modes of the same names; with `sse_retry_ms`, SSE
    streams are resumable (`parlance._transport.event_store`), from memory, or with a shared `state`
    engine from its database, so any replica can replay them; `/readyz` asks that engine too.
    """
    import uvicorn
    from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings

    from parlance._transport.http_server import DrainingServer
    from parlance._transport.replica import ReplicaFront

    hosts, origins = security
    # The guard checks Host and Origin exactly; the SDK's prefix check is switched off behind it.
    resumable = sse_retry_ms > 0 and not json_response and not stateless
    events = ((state.event_store() if state is not None else None) or MemoryEventStore()) if resumable else None
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=bind, max_sessions=max_sessions,
        session_idle_timeout=session_idle_timeout_s, stateless_http=stateless, json_response=json_response,
        event_store=events.for_session() if events else None, retry_interval=sse_retry_ms if events else None,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        custom_starlette_routes=auth.routes() if auth is not None else None,
    )
    if events is not None:
        _event_store_per_session(server, events)
    gate = auth.protect(app, MCP_PATH) if auth is not None else None
    guarded = HttpGuard(gate or app, hosts=hosts, origins=origins, path=MCP_PATH, max_sessions=max_sessions,
                        max_body_bytes=DEFAULT_MAX_REQUEST_BODY_SIZE,
                        authenticate=gate.authenticate if gate is not None else None)
    front = ReplicaFront(guarded, draining=lambda: guarded.draining,
                         database=state.ready if state is not None and state.shared else None)
    config = uvicorn.Config(front, host=bind, port=port, log_config=None, log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=2)
    logger.info("http.listening", extra={"url": f"http://{bind}:{port}{MCP_PATH}"})
    try:
        await DrainingServer(config, guarded, shutdown_grace_s, getattr(server, "end_subscriptions", None),
                             deadline).serve()
    finally:
        if auth is not None:
            await auth.checker.aclose()
