"""The benchmarks' peer: a bare mcp low-level server over stdio with one `echo` tool.

No plugin host, no config, no validation: the floor any MCP server written with the same SDK pays.
Run as `python bench/bare_server.py`; it serves until stdin closes, over the SDK's `stdio_server()`.
With `--pipes` it serves over Parlance's stdio transport instead
(`parlance._transport.stdio_pipes`), which separates what the host costs from what the transport
saves.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams, TextContent, Tool

ECHO = Tool(
    name="echo",
    description="Return the arguments.",
    input_schema={"type": "object", "properties": {"text": {"type": "string"}}},
    output_schema={"type": "object", "properties": {"text": {"type": "string"}}},
)


async def list_tools(ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=[ECHO])


async def call_tool(ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> CallToolResult:
    out = {"text": str((params.arguments or {}).get("text", ""))}
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(out))], structured_content=out)


async def main() -> None:
    server = Server("bare", version="0.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
    if "--pipes" in sys.argv[1:]:
        from parlance._transport.stdio_pipes import wire_streams

        streams = wire_streams()
    else:
        streams = stdio_server()
    async with streams as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
