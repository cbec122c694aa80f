"""MCP clients of the team acceptance test: raw JSON-RPC over httpx, in both protocol eras.

A `Caller` is one team member's agent: its own bearer token (its own subject), its own keep-alive
connection, and either a 2025-11-25 session (initialize, then `Mcp-Session-Id` on every request, which
the proxy's stick table follows) or none (2026-07-28: every POST carries the envelope in `_meta`).
Answers come as SSE streams or JSON bodies; `call()` gives the JSON-RPC answer to its request.

`write()` is how a careful client writes: it retries a call that got no answer — the connection broke,
the proxy answered 502/503 because the replica died, the session is gone (404: it opens a new one) —
with the same `idempotency_key`, until an answer comes or `give_up_s` passes. Every attempt is kept,
so the test can tell what was acknowledged and how.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx

__all__ = ["Attempt", "Caller", "CallFailed", "NoAnswer", "sse_messages"]

LEGACY = "2025-11-25"
MODERN = "2026-07-28"


class NoAnswer(Exception):
    """The request got no JSON-RPC answer: a broken connection, a proxy error, a lost session."""


class CallFailed(Exception):
    """The request got an answer that is not a successful result (a JSON-RPC error, or isError)."""

    def __init__(self, message: str, answer: dict[str, Any]) -> None:
        super().__init__(message)
        self.answer = answer


@dataclass
class Attempt:
    """One try of a write: what came back (`result`, or the reason it did not) and how long it took."""

    started: float
    seconds: float
    result: dict[str, Any] | None = None
    problem: str | None = None


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an SSE body (events with data; the priming event has none)."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        data = [line[5:].lstrip(" ") for line in block.split("\n") if line.startswith("data:")]
        if data and any(data):
            messages.append(json.loads("\n".join(data)))
    return messages


@dataclass
class Caller:
    url: str
    token: str | None
    era: str = MODERN
    capabilities: dict[str, Any] = field(default_factory=dict)
    session: str | None = None
    sessions_opened: int = 0
    _ids: Any = field(default_factory=lambda: itertools.count(1))
    _http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Caller:
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(30, connect=5), trust_env=False,
                                       limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._http is not None
        await self._http.aclose()

    def _headers(self, method: str, name: str | None) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "MCP-Protocol-Version": self.era}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.era == MODERN:
            headers["Mcp-Method"] = method
            if name is not None:
                headers["Mcp-Name"] = name
        elif self.session is not None:
            headers["Mcp-Session-Id"] = self.session
        return headers

    async def post(self, method: str, params: dict[str, Any] | None = None, *, name: str | None = None,
                   notify: bool = False) -> httpx.Response:
        """One JSON-RPC request (or notification) as it goes on the wire; the raw HTTP answer."""
        assert self._http is not None
        params = dict(params or {})
        if self.era == MODERN:
            params["_meta"] = {**params.get("_meta", {}), "io.modelcontextprotocol/protocolVersion": MODERN,
                               "io.modelcontextprotocol/clientCapabilities": self.capabilities}
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            body["id"] = next(self._ids)
        return await self._http.post(self.url, json=body, headers=self._headers(method, name))

    async def open(self) -> None:
        """Start a 2025-11-25 session (nothing to do on 2026-07-28)."""
        if self.era == MODERN:
            return
        self.session = None
        reply = await self._send("initialize", {"protocolVersion": LEGACY, "capabilities": self.capabilities,
                                                "clientInfo": {"name": "team-test", "version": "0"}})
        session = reply.headers.get("mcp-session-id")
        if session is None:
            raise NoAnswer(f"initialize answered HTTP {reply.status_code} without a session")
        self.session = session
        self.sessions_opened += 1
        done = await self.post("notifications/initialized", notify=True)
        if done.status_code != 202:
            raise NoAnswer(f"notifications/initialized answered HTTP {done.status_code}")

    async def _send(self, method: str, params: dict[str, Any], name: str | None = None) -> httpx.Response:
        try:
            reply = await self.post(method, params, name=name)
            await reply.aread()
        except httpx.TransportError as exc:
            raise NoAnswer(f"{type(exc).__name__}: the connection broke") from exc
        if reply.status_code == 404 and self.session is not None:
            self.session = None  # the replica that held it is gone (or restarted): a new one is needed
            raise NoAnswer("HTTP 404: the session is gone")
        if reply.status_code >= 500:
            raise NoAnswer(f"HTTP {reply.status_code} (from the proxy: the replica did not answer)")
        return reply

    async def call(self, method: str, params: dict[str, Any], *, name: str | None = None) -> dict[str, Any]:
        """The JSON-RPC answer to one request (NoAnswer when none came)."""
        if self.era == LEGACY and self.session is None:
            await self.open()
        reply = await self._send(method, params, name)
        if reply.headers.get("content-type", "").startswith("text/event-stream"):
            messages = sse_messages(reply.text)
        elif reply.headers.get("content-type", "").startswith("application/json"):
            messages = [reply.json()]
        else:
            raise NoAnswer(f"HTTP {reply.status_code} with no JSON-RPC body: {reply.text[:200]!r}")
        answers = [m for m in messages if "id" in m and ("result" in m or "error" in m)]
        if len(answers) != 1:
            raise NoAnswer(f"HTTP {reply.status_code}: {len(answers)} answers in {reply.text[:300]!r}")
        return answers[0]

    async def tool(self, name: str, arguments: dict[str, Any], **params: Any) -> dict[str, Any]:
        """A tools/call's result (CallFailed for an error or isError, NoAnswer when none came)."""
        answer = await self.call("tools/call", {"name": name, "arguments": arguments, **params}, name=name)
        result = answer.get("result")
        if not isinstance(result, dict) or result.get("isError"):
            raise CallFailed(f"{name} failed: {json.dumps(answer)[:500]}", answer)
        return result

    async def write(self, name: str, arguments: dict[str, Any], *, give_up_s: float = 45) -> list[Attempt]:
        """Call the write tool `name` until it is answered, the same arguments (idempotency_key included)
        every time; every attempt, the last one answered (CallFailed is not retried: it is an answer)."""
        attempts: list[Attempt] = []
        deadline = time.monotonic() + give_up_s
        while True:
            started = time.monotonic()
            try:
                result = await self.tool(name, arguments)
            except NoAnswer as exc:
                attempts.append(Attempt(started, time.monotonic() - started, problem=str(exc)))
                if time.monotonic() > deadline:
                    raise NoAnswer(f"no answer in {give_up_s:.0f} s: {[a.problem for a in attempts]}") from exc
                await anyio.sleep(0.2)
                continue
            attempts.append(Attempt(started, time.monotonic() - started, result=result))
            return attempts
