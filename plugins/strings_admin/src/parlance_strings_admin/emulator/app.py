"""The emulator's HTTP face: the strings-admin REST contract as a Starlette app.

    GET  {base_path}scopes/         200, JSON array of {"value", "shouldTranslate"}
    POST {base_path}keys/{scope}    body {"key", "value", "shouldTranslate"?}
                                    204 created · 400 invalid body · 404 unknown scope · 409 key exists

Routing reads the *raw* request path: ASGI's `path` is already percent-decoded, so `keys/a%2Fb`
would look like two segments there. Here `{scope}` must be exactly one raw segment, which is then
decoded — the emulator sees precisely what the client put on the wire.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_to_bytes

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from parlance_strings_admin.emulator.store import AddKeyOutcome, StringsStore
from parlance_strings_admin.settings import DEFAULT_BASE_PATH, normalize_base_path

__all__ = ["MAX_BODY_BYTES", "MAX_KEY_LENGTH", "create_app"]

MAX_KEY_LENGTH = 255
"""Longer keys are refused with 400, like a VARCHAR(255) column behind the real service would."""
MAX_BODY_BYTES = 1_048_576


def create_app(store: StringsStore, base_path: str = DEFAULT_BASE_PATH) -> Starlette:
    """A Starlette app serving `store` under `base_path`."""
    prefix = normalize_base_path(base_path).encode("ascii")
    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    async def dispatch(request: Request) -> Response:
        raw_path: bytes = request.scope.get("raw_path") or request.url.path.encode("utf-8")
        if not raw_path.startswith(prefix):
            return _error(404, f"no route for {request.url.path!r}")
        rest = raw_path[len(prefix) :]
        if rest == b"scopes/":
            if request.method != "GET":
                return _error(405, "scopes/ supports GET only")
            scopes = await anyio.to_thread.run_sync(store.list_scopes)
            return JSONResponse([scope.to_json() for scope in scopes])
        if rest.startswith(b"keys/"):
            segment = rest[len(b"keys/") :]
            if not segment or b"/" in segment:
                return _error(404, "keys/ takes exactly one path segment: the scope")
            if request.method != "POST":
                return _error(405, "keys/{scope} supports POST only")
            try:
                scope = unquote_to_bytes(segment).decode("utf-8")
            except UnicodeDecodeError:
                return _error(400, "the scope segment is not percent-encoded UTF-8")
            return await _add_key(request, store, scope)
        return _error(404, f"no route for {request.url.path!r}")

    return Starlette(routes=[Route("/{path:path}", dispatch, methods=methods)])


async def _add_key(request: Request, store: StringsStore, scope: str) -> Response:
    body = b""
    async for chunk in request.stream():  # stop reading at the cap instead of buffering it all
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return _error(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body)
    except ValueError:
        return _error(400, "the body is not JSON")
    problem = _body_problem(data)
    if problem:
        return _error(400, problem)
    outcome = await anyio.to_thread.run_sync(
        store.add_key, scope, data["key"], data["value"], bool(data.get("shouldTranslate") or False)
    )
    if outcome is AddKeyOutcome.UNKNOWN_SCOPE:
        return _error(404, "scope not found")
    if outcome is AddKeyOutcome.KEY_EXISTS:
        return _error(409, "Key already exists")
    return Response(status_code=204)


def _body_problem(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "the body must be a JSON object"
    for field in ("key", "value"):
        if not isinstance(data.get(field), str) or not data[field].strip():
            return f"{field!r} must be a non-blank string"
    if len(data["key"]) > MAX_KEY_LENGTH:
        return f"'key' must be at most {MAX_KEY_LENGTH} characters"
    if data.get("shouldTranslate") is not None and not isinstance(data["shouldTranslate"], bool):
        return "'shouldTranslate' must be a boolean"
    return None


_REASONS = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 413: "Payload Too Large"}


def _error(status: int, message: str) -> JSONResponse:
    # Shaped like a Spring Boot error body, which is what the real service sends.
    return JSONResponse({"status": status, "error": _REASONS.get(status, ""), "message": message}, status_code=status)
