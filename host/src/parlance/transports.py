"""Serving a built MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from parlance import stdio_pipes

__all__ = ["serve_http", "serve_stdio"]

logger = logging.getLogger(__name__)


async def serve_stdio(server: Server[Any]) -> None:
    """Serve on stdin/stdout until stdin closes. Only JSON-RPC ever reaches stdout.

    Pipes and sockets (how clients spawn servers) are served by the event loop itself
    (`parlance.stdio_pipes`); anything else by the SDK's thread-based `stdio_server()`.
    """
    streams = stdio_pipes.pipe_streams() if stdio_pipes.usable() else stdio_server()
    async with streams as (read_stream, write_stream):
        # fd 1 now goes to stderr, but print() writes into sys.stdout's Python buffer, which would be
        # flushed at exit, after fd 1 is restored to the wire. Send it to stderr instead (inside the
        # block: stdio_server() finds the wire through sys.stdout).
        with contextlib.redirect_stdout(sys.stderr):
            incoming = _AnsweringReceiveStream(read_stream, write_stream)
            await server.run(incoming, write_stream, server.create_initialization_options())


def _request_id(raw: Any) -> int | str | None:
    """The id of a request the SDK could not take, so the error reaches the caller that waits for it."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)  # stricter parsers refuse some valid JSON, e.g. "\\ud800"
        except ValueError:
            return None
    request_id = raw.get("id") if isinstance(raw, dict) else None
    return request_id if isinstance(request_id, (int, str)) and not isinstance(request_id, bool) else None


def _diagnose(problem: Exception) -> tuple[int | str | None, int, str] | None:
    """(request id, JSON-RPC code, message) answering a line the transport could not take; None for a blank line."""
    if isinstance(problem, stdio_pipes.NotUtf8):
        return _request_id(problem.text), PARSE_ERROR, "Parse error: the line is not UTF-8, as JSON-RPC text must be"
    if isinstance(problem, stdio_pipes.MessageTooLarge):
        limit_mib = stdio_pipes.MAX_MESSAGE_BYTES // (1024 * 1024)
        return None, INVALID_REQUEST, f"Invalid Request: the message is longer than the {limit_mib} MiB this server reads"
    errors = problem.errors() if isinstance(problem, ValidationError) else []
    if errors and isinstance(errors[0].get("input"), str) and not errors[0]["input"].strip():
        return None  # a blank line is not a message; some clients send them between messages
    request_id = _request_id(errors[0].get("input")) if errors else None
    # Valid JSON the SDK refused (e.g. a lone surrogate escape) is answered to its request.
    if request_id is not None or (errors and all(e["type"] != "json_invalid" for e in errors)):
        return request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message the server can decode"
    return None, PARSE_ERROR, "Parse error: the line is not valid JSON"


class _AnsweringReceiveStream:
    """The stdio read stream, answering each line that is not JSON-RPC with an error, as JSON-RPC requires.

    The SDK hands such lines to the server as exceptions and drops them, so the client would wait
    forever for an answer. The check runs inline in `receive()` (no extra task or stream on the hot
    path). The line itself is never logged: it may hold a user's text.
    """

    def __init__(self, inner: Any, replies: MemoryObjectSendStream[SessionMessage]) -> None:
        self._inner = inner
        self._replies = replies

    @property
    def last_context(self) -> Any:  # the SDK reads the sender's contextvars snapshot from here
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def _answer(self, problem: Exception) -> None:
        answer = _diagnose(problem)
        if answer is None:
            return
        request_id, code, message = answer
        logger.warning("stdio.unreadable_line", extra={"code": code})
        reply = JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))
        await self._replies.send(SessionMessage(reply))

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


def http_security(bind: str, allowed_hosts: list[str], allowed_origins: list[str]) -> Any:
    """Host/Origin checks for the HTTP transport (DNS-rebinding protection), or a ConfigError.

    Loopback binds accept loopback names unless told otherwise. Any other bind makes Parlance reachable
    from other machines, with no authentication of its own, so it must name the Host headers it will
    answer to: a server that accepts any Host header can be driven by any web page a user visits.
    """
    from mcp.server.transport_security import TransportSecuritySettings

    from parlance.errors import ConfigError

    if not allowed_hosts and bind in LOOPBACK:
        return None  # the SDK's loopback defaults: 127.0.0.1:*, localhost:*, [::1]:*
    if not allowed_hosts:
        raise ConfigError(
            f"binding HTTP to {bind} exposes Parlance beyond this machine, with no authentication of its own",
            key="host.allowed_hosts",
            fix='list the Host headers clients use, e.g. allowed_hosts = ["mcp.example.com:8000"] (and '
                "allowed_origins for browsers), put it behind an authenticating proxy, or bind 127.0.0.1",
        )
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=list(allowed_hosts),
                                     allowed_origins=list(allowed_origins))


async def serve_http(server: Server[Any], *, bind: str, port: int, security: Any = None) -> None:
    """Serve streamable HTTP at http://{bind}:{port}/mcp, checking Host/Origin (see `http_security`)."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path="/mcp", host=bind, transport_security=security)
    config = uvicorn.Config(app, host=bind, port=port, log_level="warning", access_log=False, lifespan="on")
    logger.info("http.listening", extra={"url": f"http://{bind}:{port}/mcp"})
    await uvicorn.Server(config).serve()
