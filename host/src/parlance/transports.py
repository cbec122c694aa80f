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

__all__ = ["serve_http", "serve_stdio"]

logger = logging.getLogger(__name__)


async def serve_stdio(server: Server[Any]) -> None:
    """Serve on stdin/stdout until stdin closes. Only JSON-RPC ever reaches stdout."""
    async with stdio_server() as (read_stream, write_stream):
        # stdio_server() moved fd 1 onto stderr, but print() writes into sys.stdout's Python buffer,
        # which would be flushed at exit, after fd 1 is restored to the wire. Send it to stderr instead
        # (inside the block: stdio_server() finds the wire through sys.stdout).
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
        errors = problem.errors() if isinstance(problem, ValidationError) else []
        if errors and isinstance(errors[0].get("input"), str) and not errors[0]["input"].strip():
            return  # a blank line is not a message; some clients send them between messages
        is_json = bool(errors) and all(e["type"] != "json_invalid" for e in errors)
        request_id = _request_id(errors[0].get("input")) if errors else None
        if request_id is not None:  # valid JSON the SDK refused (e.g. a lone surrogate escape): answer that request
            is_json = True
        code, message = (INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message the server can decode") \
            if is_json else (PARSE_ERROR, "Parse error: the line is not valid JSON")
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
