"""The REST client for the strings-admin service: its two calls, retries, one deadline, a size cap.

Plain Python over `httpx`; the pack's tools wrap it, and tests can drive it without MCP.

Retries. Only failures that leave us without an answer are retried (connection refused or reset,
the connection closed before a reply, a timeout while budget remains) — never a reply, whatever
its status. Every call has one deadline (`timeout_s`) that covers all attempts and backoff, so a
dead service costs at most `timeout_s`.

Idempotent create. If an attempt of `create_key` may have reached the service (the connection
broke after the request was sent) and the retry is answered 409 "key exists", the earlier attempt
created the key: that counts as success. A 409 when no earlier attempt can have been delivered
(first attempt, or only connection-refused before it) is somebody else's key, and an error.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import httpx

from parlance_strings_admin.errors import (
    ServiceRejected,
    ServiceUnreachable,
    UnexpectedReply,
    UnsendableURL,
    body_excerpt,
)
from parlance_strings_admin.paths import path_segment
from parlance_strings_admin.settings import Endpoint, StringsAdminSettings, resolve_endpoint

if TYPE_CHECKING:  # the tool's output model describes what _scopes_problem accepts; tools imports this module
    from parlance_strings_admin.tools import KeysScope

__all__ = ["Created", "Scopes", "StringsAdminClient", "open_client"]

logger = logging.getLogger(__name__)

FIRST_BACKOFF_S = 0.05
MAX_BACKOFF_S = 1.0

# The request certainly never reached the service: retrying cannot duplicate anything.
_NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# No answer, but the service is or may become reachable: worth another attempt.
_RETRYABLE = (httpx.NetworkError, httpx.RemoteProtocolError, httpx.TimeoutException)


@dataclass(frozen=True)
class Scopes:
    """The service's scopes, parsed (each checked to be a `KeysScope`), and the JSON text exactly as
    the service sent it."""

    scopes: list[KeysScope]
    text: str


@dataclass(frozen=True)
class Created:
    """A key was created. `confirmed_by_conflict`: an unanswered earlier attempt created it, and
    our retry was answered 409."""

    attempts: int
    confirmed_by_conflict: bool = False


@dataclass(frozen=True)
class _Exchange:
    status: int
    body: bytes
    truncated: bool
    attempts: int
    earlier_attempt_may_have_arrived: bool


class StringsAdminClient:
    """`GET {root}scopes/` and `POST {root}keys/{scopeValue}` with the policies described above."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        endpoint: Endpoint,
        *,
        timeout_s: float,
        retries: int,
        max_response_bytes: int,
    ) -> None:
        self._http = http
        self.endpoint = endpoint
        self._timeout_s = timeout_s
        self._retries = retries
        self._max_response_bytes = max_response_bytes

    async def get_scopes(self) -> Scopes:
        url = f"{self.endpoint.root}scopes/"
        reply = await self._exchange("GET", url, route="scopes/")
        if not 200 <= reply.status < 300:
            raise ServiceRejected("GET", url, reply.status, body_excerpt(reply.body, reply.truncated))

        def unexpected(problem: str) -> UnexpectedReply:
            return UnexpectedReply("GET", url, reply.status, body_excerpt(reply.body, reply.truncated), problem)

        if reply.truncated:
            raise unexpected(f"the reply is longer than max_response_bytes ({self._max_response_bytes})")
        try:
            parsed = json.loads(reply.body)
        except ValueError:
            raise unexpected("the reply is not JSON") from None
        problem = _scopes_problem(parsed)
        if problem:
            raise unexpected(problem)
        return Scopes(scopes=parsed, text=reply.body.decode("utf-8", errors="replace").strip())

    async def create_key(self, scope_value: str, key: str, value: str, should_translate: bool) -> Created:
        url = f"{self.endpoint.root}keys/{path_segment(scope_value)}"
        body = {"key": key, "value": value, "shouldTranslate": should_translate}
        reply = await self._exchange("POST", url, route="keys/{scopeValue}", json_body=body)
        if 200 <= reply.status < 300:
            return Created(attempts=reply.attempts)
        if reply.status == 409 and reply.earlier_attempt_may_have_arrived:
            return Created(attempts=reply.attempts, confirmed_by_conflict=True)
        raise ServiceRejected("POST", url, reply.status, body_excerpt(reply.body, reply.truncated))

    async def _exchange(self, method: str, url: str, *, route: str, json_body: Any = None) -> _Exchange:
        deadline = time.monotonic() + self._timeout_s
        may_have_arrived = False
        backoff = FIRST_BACKOFF_S
        attempt = 0
        while True:
            attempt += 1
            started = time.perf_counter()
            try:
                status, body, truncated = await self._attempt(method, url, json_body, deadline - time.monotonic())
            except (*_RETRYABLE, TimeoutError) as exc:
                reason = self._describe(exc)
                _log_attempt(method, route, attempt, started, outcome=type(exc).__name__)
                remaining = deadline - time.monotonic()
                if attempt > self._retries or remaining <= backoff or not isinstance(exc, _RETRYABLE):
                    raise ServiceUnreachable(method, url, reason, attempt) from exc
                may_have_arrived = may_have_arrived or not isinstance(exc, _NEVER_SENT)
                await anyio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_S)
                continue
            except httpx.InvalidURL:  # not an httpx.HTTPError: raised while building the request, before any I/O
                _log_attempt(method, route, attempt, started, outcome="InvalidURL")
                raise UnsendableURL(method, route) from None
            except httpx.HTTPError as exc:  # e.g. an unsupported protocol: retrying cannot help
                _log_attempt(method, route, attempt, started, outcome=type(exc).__name__)
                raise ServiceUnreachable(method, url, self._describe(exc), attempt) from exc
            _log_attempt(method, route, attempt, started, outcome=status)
            return _Exchange(status, body, truncated, attempt, may_have_arrived)

    async def _attempt(self, method: str, url: str, json_body: Any, budget_s: float) -> tuple[int, bytes, bool]:
        if budget_s <= 0:
            raise TimeoutError
        # httpx's timeout applies per phase (connect, each read); fail_after bounds the whole attempt.
        with anyio.fail_after(budget_s):
            async with self._http.stream(method, url, json=json_body, timeout=budget_s) as response:
                body, truncated = await _read_capped(response, self._max_response_bytes)
        return response.status_code, body, truncated

    def _describe(self, exc: BaseException) -> str:
        # Fixed phrases only: the text of a transport exception can carry addresses or internals, and
        # this reaches the client. The exception itself is in the debug log.
        logger.debug("strings_admin.transport_error", extra={"error": type(exc).__name__})
        if isinstance(exc, TimeoutError | httpx.TimeoutException):
            return f"no reply within timeout_s={self._timeout_s:g}"
        if isinstance(exc, httpx.ConnectError):
            return "connection failed (nothing accepted the connection, or the name did not resolve)"
        if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
            return "the connection closed before a reply arrived"
        return "the request failed before a reply arrived"


async def _read_capped(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """Read at most `limit` bytes of the body; the flag says there was more (left unread)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw():
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return b"".join(chunks)[:limit], True
    return b"".join(chunks), False


def _scopes_problem(parsed: Any) -> str | None:
    """Why `parsed` is not the `array<KeysScope>` the PRD promises, or None when it is."""
    if not isinstance(parsed, list):
        return "the reply is not a JSON array of scopes"
    for index, item in enumerate(parsed):
        if not isinstance(item, dict) or not isinstance(item.get("value"), str):
            return f"scope #{index} is not an object with a string 'value'"
        if item.get("shouldTranslate") is not None and not isinstance(item["shouldTranslate"], bool):
            return f"scope #{index} has a 'shouldTranslate' that is not a boolean"
    return None


def _log_attempt(method: str, route: str, attempt: int, started: float, *, outcome: int | str) -> None:
    # The route template, never the URL: a scope value is caller data and stays out of the logs.
    latency_ms = round((time.perf_counter() - started) * 1000, 2)
    logger.debug(
        "strings_admin.downstream",
        extra={
            "downstream_method": method,
            "downstream_route": route,
            "downstream_status": outcome,
            "downstream_latency_ms": latency_ms,
            "attempt": attempt,
        },
    )


class _HideScopeValues(logging.Filter):
    """httpx logs each request's URL (at INFO, shown when the host runs at DEBUG); ours end in the
    caller's scopeValue, which must stay out of the logs, so it is replaced by the route template."""

    def __init__(self, root: str) -> None:
        super().__init__()
        self._keys = f"{root}keys/"

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(str(arg).startswith(self._keys) for arg in record.args):
            record.args = tuple(
                f"{self._keys}{{scopeValue}}" if str(arg).startswith(self._keys) else arg for arg in record.args
            )
        return True


@asynccontextmanager
async def open_client(settings: StringsAdminSettings, environ: dict[str, str] | None = None) -> AsyncIterator[StringsAdminClient]:
    """One connection pool for the server's life, aimed by `settings` plus the environment overrides."""
    endpoint = resolve_endpoint(settings, environ)
    http = httpx.AsyncClient(
        # Redirects are not followed: a 3xx must never carry a request (and its body) to another host.
        follow_redirects=False,
        # Proxy variables could route the request off the configured host; the service is internal.
        trust_env=False,
        timeout=settings.timeout_s,
        # identity: the size cap counts the bytes we actually buffer, no decompression surprises.
        headers={"Accept": "application/json", "Accept-Encoding": "identity", "User-Agent": "parlance-strings-admin"},
    )
    hide_scope_values = _HideScopeValues(endpoint.root)
    httpx_logger = logging.getLogger("httpx")
    httpx_logger.addFilter(hide_scope_values)
    try:
        async with http:
            yield StringsAdminClient(
                http,
                endpoint,
                timeout_s=settings.timeout_s,
                retries=settings.retries,
                max_response_bytes=settings.max_response_bytes,
            )
    finally:
        httpx_logger.removeFilter(hide_scope_values)
