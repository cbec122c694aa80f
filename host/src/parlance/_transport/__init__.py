"""Bytes in and out: serving a built MCP server over stdio or streamable HTTP (private to the host).

    serve          serve_stdio / serve_http, and the Host and Origin rules HTTP needs (`http_security`)
    wire           one JSON-RPC message read off the wire, or the error that answers it; both transports
    stdio_pipes    stdio framing on the event loop, over the process's own stdin and stdout
    http_guard     the ASGI layer in front of the SDK's HTTP app: Host/Origin, bodies, session cap
    http_server    uvicorn, stopping only once the calls in flight are answered
    http_auth      OAuth resource server: protected-resource metadata, 401/403, scopes per tool
    bearer_tokens  checking an access token: JWT against the issuer's JWKS, or introspection
    replica        /healthz, /readyz and the access log, for a load balancer
    stop_deadline  once stopping begins, the process is gone on time, even with a call stuck in a thread
    event_store    resumable HTTP streams: recent SSE events kept in memory, per session

Nothing here knows about packs or the host: these modules take an `mcp.server.Server` that
`parlance.server.build_server` made and carry its messages. Only `parlance serve` (and the
benchmarks) import them, so nothing is imported here.
"""
