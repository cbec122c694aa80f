"""Serving a built MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Any

from mcp.server import Server
from mcp.server.stdio import stdio_server

__all__ = ["serve_http", "serve_stdio"]

logger = logging.getLogger(__name__)


async def serve_stdio(server: Server[Any]) -> None:
    """Serve on stdin/stdout until stdin closes. Only JSON-RPC ever reaches stdout."""
    async with stdio_server() as (read_stream, write_stream):
        # stdio_server() moved fd 1 onto stderr, but print() writes into sys.stdout's Python buffer,
        # which would be flushed at exit, after fd 1 is restored to the wire. Send it to stderr instead
        # (inside the block: stdio_server() finds the wire through sys.stdout).
        with contextlib.redirect_stdout(sys.stderr):
            await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_http(server: Server[Any], *, bind: str, port: int) -> None:
    """Serve streamable HTTP at http://{bind}:{port}/mcp. Host/Origin are checked on loopback binds."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path="/mcp", host=bind)
    config = uvicorn.Config(app, host=bind, port=port, log_level="warning", access_log=False, lifespan="on")
    logger.info("http.listening", extra={"url": f"http://{bind}:{port}/mcp"})
    await uvicorn.Server(config).serve()
