"""The per-call floor: an MCP `echo` server in plain Python (json + stdin/stdout), no SDK, no asyncio.

    python bench/jsonrpc_echo.py    # serves newline-delimited JSON-RPC until stdin closes

It answers what a 2025-11-25 client sends (initialize, notifications/initialized, ping,
tools/list, tools/call `echo`) with the same result shape as bench/bare_server.py's `echo`: the
arguments' `text` as structuredContent and as a JSON text block. Anything else gets -32601.
bench/per_call.py measures every server's CPU per call against this one: it is what a call
costs when a server does nothing but parse a line and write one back.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Return the arguments.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}


def answer(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The result for a request; raises LookupError for a method this server does not have."""
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {"protocolVersion": offered if offered in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "jsonrpc-echo", "version": "0.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [ECHO_TOOL]}
    if method == "tools/call" and params.get("name") == "echo":
        out = {"text": str((params.get("arguments") or {}).get("text", ""))}
        return {"content": [{"type": "text", "text": json.dumps(out)}], "structuredContent": out, "isError": False}
    raise LookupError(method)


def main() -> None:
    reader, writer = sys.stdin.buffer, sys.stdout.buffer
    while line := reader.readline():
        message = json.loads(line)
        if "id" not in message:  # a notification (notifications/initialized): nothing to answer
            continue
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        try:
            reply["result"] = answer(message.get("method", ""), message.get("params") or {})
        except LookupError:
            reply["error"] = {"code": -32601, "message": "Method not found"}
        writer.write(json.dumps(reply).encode() + b"\n")
        writer.flush()  # one reply per request, written now: the client waits for it


if __name__ == "__main__":
    main()
