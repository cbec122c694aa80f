"""Serving a built MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
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
            checked_send, checked_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_answer_unreadable_lines, read_stream, checked_send, write_stream)
                await server.run(checked_receive, write_stream, server.create_initialization_options())
                tasks.cancel_scope.cancel()


async def _answer_unreadable_lines(
    incoming: MemoryObjectReceiveStream[SessionMessage | Exception],
    forward: MemoryObjectSendStream[SessionMessage | Exception],
    replies: MemoryObjectSendStream[SessionMessage],
) -> None:
    """Pass messages through; answer a line that is not JSON-RPC with an error, as JSON-RPC requires.

    The SDK hands such lines to the server as exceptions and drops them, so the client would wait
    forever for an answer. The line itself is never logged: it may hold a user's text.
    """
    async with forward:
        async for item in incoming:
            if not isinstance(item, Exception):
                await forward.send(item)
                continue
            errors = item.errors() if isinstance(item, ValidationError) else []
            if errors and isinstance(errors[0].get("input"), str) and not errors[0]["input"].strip():
                continue  # a blank line is not a message; some clients send them between messages
            is_json = bool(errors) and all(e["type"] != "json_invalid" for e in errors)
            code, message = (INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message") if is_json else \
                (PARSE_ERROR, "Parse error: the line is not valid JSON")
            logger.warning("stdio.unreadable_line", extra={"code": code})
            reply = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))
            await replies.send(SessionMessage(reply))


async def serve_http(server: Server[Any], *, bind: str, port: int) -> None:
    """Serve streamable HTTP at http://{bind}:{port}/mcp. Host/Origin are checked on loopback binds."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path="/mcp", host=bind)
    config = uvicorn.Config(app, host=bind, port=port, log_level="warning", access_log=False, lifespan="on")
    logger.info("http.listening", extra={"url": f"http://{bind}:{port}/mcp"})
    await uvicorn.Server(config).serve()
