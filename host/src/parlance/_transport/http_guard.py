"""What stands between the network and the SDK's streamable HTTP app.

The SDK's app serves MCP; this ASGI layer in front of it owns what the SDK leaves loose:

- **Host and Origin** are parsed and compared exactly (scheme, name and port): the SDK's own
  check matches prefixes, so `127.0.0.1:evil.com` passed for `127.0.0.1:*`.
- **Request bodies** are read by `parlance._transport.wire` before the SDK sees them: a body that
  is not a JSON-RPC message is answered 400 with the JSON-RPC error that names what was wrong, with
  the request's id when it can be read, and never with the input echoed back (the SDK answered
  -32602 with a pydantic dump).
- **Sessions** are capped (`[host] max_sessions`); at the cap, the least recently used idle
  session is closed (an internal DELETE, as a client would end it) to admit a new one, so
  abandoned sessions cannot lock new clients out until their idle timeout.
- **A client that disconnects mid-call** has the call cancelled (an internal
  `notifications/cancelled` to its session), so its work and backend connections end with it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import anyio

from parlance._transport.wire import Unreadable, parse_line, read_id

__all__ = ["INTERNAL", "PARSED_MESSAGE", "HttpGuard", "HostRule", "parse_host_rule"]

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Authenticate = Callable[[Scope, Send], Awaitable[bool]]
"""Whether a request may go on (answering it itself when not)."""

SESSION_HEADER = b"mcp-session-id"
PARSED_MESSAGE = "parlance.jsonrpc"
"""Where the guard leaves the POSTed JSON-RPC message it parsed, in the ASGI scope, for the layers behind it."""
INTERNAL = "parlance.internal"
"""Marks the requests the guard itself makes of the SDK (closing an idle session, cancelling a call whose
client left). Only an in-process caller can put a key in an ASGI scope, so the layers behind may trust it."""
VERSION_HEADER = b"mcp-protocol-version"


@dataclass(frozen=True)
class HostRule:
    """One allowed Host ('name:port', 'name:*', 'name') or Origin ('scheme://name:port', ...)."""

    scheme: str | None
    name: str
    port: str | None  # '*' for any port; None when the rule names no port

    def allows(self, scheme: str | None, name: str, port: str | None) -> bool:
        if self.scheme is not None and scheme != self.scheme:
            return False
        if name != self.name:
            return False
        return self.port == "*" or port == self.port


def parse_host_rule(rule: str, *, origin: bool) -> HostRule:
    """A configured allowed_hosts / allowed_origins entry as a rule (ValueError when malformed)."""
    scheme = None
    if origin:
        parts = urlsplit(rule)
        if not parts.scheme or not parts.netloc:
            raise ValueError(f"{rule!r} is not an origin such as 'https://app.example.com' or 'http://localhost:*'")
        scheme, rule = parts.scheme.lower(), parts.netloc
    name, port = _split_host(rule, wildcard=True)
    if name is None:
        raise ValueError(f"{rule!r} is not a host such as 'mcp.example.com:8000' or 'localhost:*'")
    return HostRule(scheme, name, port)


def _split_host(value: str, *, wildcard: bool = False) -> tuple[str | None, str | None]:
    """(name, port) of 'name[:port]' or '[v6][:port]', lower-cased; (None, None) when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None, None
        name, rest = value[: end + 1], value[end + 1:]
        if rest and not rest.startswith(":"):
            return None, None
        port = rest[1:] if rest else None
    else:
        name, _, port_text = value.partition(":")
        port = port_text if ":" in value else None
    if not name or any(c in name for c in "/?#@ \t") or (port is not None and not _valid_port(port, wildcard)):
        return None, None
    return name, port


def _valid_port(port: str, wildcard: bool) -> bool:
    return (wildcard and port == "*") or (port.isascii() and port.isdigit() and 0 < len(port) <= 5
                                          and int(port) <= 65535)


@dataclass
class _Session:
    version: bytes | None = None
    user: Any = None
    """Who opened it (`scope["user"]`, with `[auth]`): the SDK answers a session's requests only for them."""
    last_used: float = field(default_factory=time.monotonic)
    calls: int = 0
    """Requests being answered. A client's GET listener is not one: it stays open while the client
    idles, so counting it would make every connected session busy and unevictable."""


OPEN_ENDED_METHODS = frozenset({b"subscriptions/listen"})
"""2026-07-28 requests answered with a stream that lasts until the client or the server ends it."""


class HttpGuard:
    """ASGI middleware in front of the SDK's streamable HTTP app (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, hosts: list[HostRule], origins: list[HostRule], path: str,
                 max_sessions: int, max_body_bytes: int, authenticate: Authenticate | None = None) -> None:
        self.app = app
        self.authenticate = authenticate
        """Asked first for every request to the endpoint (`http_auth.BearerGate.authenticate`): one it
        refuses is answered there, before a body is read or a session is made room for."""
        self.hosts = hosts
        self.origins = origins
        self.path = path
        self.max_sessions = max_sessions
        self.max_body_bytes = max_body_bytes
        self.sessions: dict[bytes, _Session] = {}
        self.draining = False
        """Set on a stop signal: new requests are refused while the calls in flight finish."""
        self._admission = anyio.Lock()
        self._calls = 0  # requests being served, but not clients' GET listeners, which never end by themselves

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])  # ASGI header names are lower-case bytes
        refusal = self._refuse_host_or_origin(headers)
        if refusal is not None:
            await _respond(send, *refusal)
            return
        if scope.get("path") != self.path:
            await self.app(scope, receive, send)
            return
        if self.draining:
            await _respond(send, 503, _error_body("Service Unavailable: the server is shutting down"),
                           extra=[(b"retry-after", b"5"), (b"connection", b"close")])
            return
        if self.authenticate is not None and not await self.authenticate(scope, send):
            return
        session_id = headers.get(SESSION_HEADER)
        if scope["method"] == "POST":
            body, receive = await self._read_body(receive)
            message = parse_line(body) if body is not None else None
            if isinstance(message, Unreadable):
                if message.answer:
                    await _respond(send, 400, message.reply().model_dump_json(by_alias=True, exclude_unset=True))
                else:
                    await _respond(send, 202, b"")
                return
            scope[PARSED_MESSAGE] = message  # for the layers behind this one (the scope check of `http_auth`)
            opening = session_id is None and getattr(message, "method", None) == "initialize"
            if opening and not await self._admit():
                await _respond(send, 503, _error_body("Service Unavailable: every session is busy; retry shortly"),
                               extra=[(b"retry-after", b"5")])
                return
            await self._serve(scope, receive, send, session_id, headers, body)
            return
        await self._serve(scope, receive, send, session_id, headers, None)

    async def settled(self) -> None:
        """Wait until no request is being served (clients' GET listeners aside)."""
        while self._calls:
            await anyio.sleep(0.02)

    async def close_sessions(self) -> None:
        """End every session as its client would (DELETE), so the SDK closes their GET streams properly."""
        for session_id in list(self.sessions):
            await self._close_session(session_id)

    # --- Host and Origin ---------------------------------------------------------------------------

    def _refuse_host_or_origin(self, headers: dict[bytes, bytes]) -> tuple[int, bytes] | None:
        if not self.hosts:
            return None
        name, port = _split_host(headers.get(b"host", b"").decode("latin-1"))
        if name is None or not any(rule.allows(None, name, port) for rule in self.hosts):
            return 421, _error_body("Misdirected Request: this server does not answer to that Host header")
        origin = headers.get(b"origin")
        if origin is not None:
            parts = urlsplit(origin.decode("latin-1").strip().lower())
            name, port = _split_host(parts.netloc) if parts.scheme and parts.netloc and not parts.path else (None, None)
            if name is None or not any(rule.allows(parts.scheme, name, port) for rule in self.origins):
                return 403, _error_body("Forbidden: requests from that Origin are not allowed")
        return None

    # --- bodies ------------------------------------------------------------------------------------

    async def _read_body(self, receive: Receive) -> tuple[bytes | None, Receive]:
        """The whole body and a `receive` that replays it, or (None, ...) when it is over the limit
        (the SDK then refuses it with 413 as it reads the rest)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away before sending it all
                return None, _replay([message], receive)
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            if size > self.max_body_bytes:
                replayed: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                                            "more_body": message.get("more_body")}]
                return None, _replay(replayed, receive)
            if not message.get("more_body"):
                body = b"".join(chunks)
                return body, _replay([{"type": "http.request", "body": body, "more_body": False}], receive)

    # --- sessions ----------------------------------------------------------------------------------

    async def _admit(self) -> bool:
        """Room for one more session: close the least recently used idle one when at the cap."""
        async with self._admission:
            while len(self.sessions) >= self.max_sessions:
                idle = [(s.last_used, sid) for sid, s in self.sessions.items() if s.calls == 0]
                if not idle:
                    logger.warning("http.sessions_busy", extra={"max_sessions": self.max_sessions})
                    return False
                _, oldest = min(idle)
                await self._close_session(oldest)
            return True

    async def _close_session(self, session_id: bytes) -> None:
        session = self.sessions.pop(session_id, None)
        headers = [(SESSION_HEADER, session_id)]
        if session is not None and session.version is not None:
            headers.append((VERSION_HEADER, session.version))
        await _call_inside(self.app, "DELETE", self.path, headers, b"", session.user if session else None)
        logger.info("http.session_closed")

    async def _serve(self, scope: Scope, receive: Receive, send: Send, session_id: bytes | None,
                     headers: dict[bytes, bytes], body: bytes | None) -> None:
        session = self.sessions.get(session_id) if session_id is not None else None
        # A GET listener, or a 2026-07-28 subscription stream, lasts as long as the client stays: not a call.
        counted = scope["method"] != "GET" and headers.get(b"mcp-method") not in OPEN_ENDED_METHODS
        if session is not None:
            session.calls += counted
            session.last_used = time.monotonic()
            session.version = headers.get(VERSION_HEADER, session.version)
        created: list[bytes] = []
        answered = False

        async def watch(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start" and session_id is None and message["status"] < 400:
                created.extend(v for k, v in message.get("headers", []) if k.lower() == SESSION_HEADER)
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                answered = True
            await send(message)

        disconnected = anyio.Event()

        async def receive_watched() -> Message:
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected.set()
            return message

        self._calls += counted
        try:
            await self.app(scope, receive_watched, watch)
        finally:
            self._calls -= counted
            if session is not None:
                session.calls -= counted
                session.last_used = time.monotonic()
            if scope["method"] == "DELETE" and session_id is not None:
                self.sessions.pop(session_id, None)
            for new_id in created:
                self.sessions[new_id] = _Session(version=headers.get(VERSION_HEADER), user=scope.get("user"))
            if disconnected.is_set() and not answered and body is not None and session_id is not None:
                request_id = read_id(body)
                if request_id is not None:
                    with anyio.CancelScope(shield=True):
                        await self._cancel(session_id, headers.get(VERSION_HEADER), request_id, scope.get("user"))

    async def _cancel(self, session_id: bytes, version: bytes | None, request_id: int | str, user: Any) -> None:
        """Cancel a request whose client went away, as the client itself would."""
        import json

        note = {"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": request_id, "reason": "the HTTP client disconnected"}}
        headers = [(SESSION_HEADER, session_id)] + ([(VERSION_HEADER, version)] if version else [])
        await _call_inside(self.app, "POST", self.path, headers, json.dumps(note).encode(), user)
        logger.info("http.call_cancelled", extra={"reason": "client_disconnected"})


def _replay(messages: list[Message], receive: Receive) -> Receive:
    queue = list(messages)

    async def replayed() -> Message:
        if queue:
            return queue.pop(0)
        return await receive()

    return replayed


async def _call_inside(app: ASGIApp, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes,
                       user: Any = None) -> None:
    """One request to the SDK's app from inside the server, its answer discarded, made as `user` (the
    session's owner: see `_Session.user`)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"accept", b"application/json, text/event-stream"),
                    *headers],
        "client": ("127.0.0.1", 0), "server": ("127.0.0.1", 0), INTERNAL: True,
    }
    if user is not None:
        scope["user"] = user
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        return None

    with anyio.move_on_after(5):
        try:
            await app(scope, receive, send)
        except Exception:  # noqa: BLE001 - housekeeping must never fail the request that triggered it
            logger.warning("http.internal_request_failed", extra={"method": method})


def _error_body(message: str) -> bytes:
    import json

    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}).encode()


async def _respond(send: Send, status: int, body: bytes | str,
                   extra: list[tuple[bytes, bytes]] | None = None) -> None:
    data = body.encode() if isinstance(body, str) else body
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})
