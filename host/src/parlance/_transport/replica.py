"""What a load balancer needs of `parlance serve --transport http`: probes, and one access-log line per request.

- `GET /healthz`: 200 while the process serves (a liveness check: no auth, no Host rule, nothing read).
- `GET /readyz`: 200 while it takes new requests, 503 once a stop signal has it draining, so the
  balancer sends new clients elsewhere while the calls in flight finish, and 503 while the shared
  database (`[state] url`) does not answer (the replica still serves reads; writes are refused).

The probes answer ahead of the Host and Origin rules: balancers probe by address, and the answer tells
a web page nothing. Every other request gets one `http.request` line at INFO: method, path, status,
duration and, where a token was accepted, its subject and client id — never the query string, a
header or a body, so no token and no user's text reaches the log. The probes' own lines are at DEBUG:
a balancer probing every second would otherwise drown the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from parlance._transport.http_guard import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PROBES", "ReplicaFront"]

logger = logging.getLogger(__name__)

PROBES = ("/healthz", "/readyz")


class ReplicaFront:
    """The outermost ASGI layer (see the module docstring). `draining` says whether the server is stopping."""

    def __init__(self, app: ASGIApp, *, draining: Callable[[], bool],
                 database: Callable[[], Awaitable[bool]] | None = None) -> None:
        self.app = app
        self.draining = draining
        self.database = database

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path = scope.get("path", "")
        status = 0

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            if path in PROBES and scope["method"] in ("GET", "HEAD"):
                await self._probe(path, scope["method"], watch)
            else:
                await self.app(scope, receive, watch)
        finally:
            # a path is the client's: its control characters escaped, so it cannot start a forged log line
            fields = {"method": scope["method"], "path": path[:200].encode("unicode_escape").decode("ascii"),
                      "status": status or None,
                      "duration_ms": round((time.perf_counter() - started) * 1000, 3)}
            user = scope.get("user")
            token = getattr(user, "access_token", None)
            if token is not None:
                fields["subject"] = token.subject
                fields["client_id"] = token.client_id or None
            logger.log(logging.DEBUG if path in PROBES else logging.INFO, "http.request", extra=fields)

    async def _probe(self, path: str, method: str, send: Send) -> None:
        status = "ok"
        if path == "/readyz":
            if self.draining():
                status = "draining"
            elif self.database is not None and not await self.database():
                status = "database unreachable"
        ready = status == "ok"
        body = b'{"status":"%s"}' % status.encode()
        await send({"type": "http.response.start", "status": 200 if ready else 503,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
