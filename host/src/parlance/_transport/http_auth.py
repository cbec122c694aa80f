"""Parlance as an OAuth 2.1 resource server: who may reach the MCP endpoint, and which tools they may call.

As the MCP authorization spec describes it (2025-11-25 and 2026-07-28 alike):

- `GET /.well-known/oauth-protected-resource` (RFC 9728), and the same document at the path-suffixed
  form for `[host] public_url`'s path (`/.well-known/oauth-protected-resource/mcp`), name this
  resource (`public_url`), its authorization server (`[auth] issuer`) and the scopes it knows. No
  token is needed to read it: it is how a client learns where to get one.
- Every request to the MCP endpoint carries `Authorization: Bearer <token>`, checked by
  `parlance._transport.bearer_tokens`. Without one: `401` and `WWW-Authenticate: Bearer
  resource_metadata="…", scope="…"` (no `error`: RFC 6750 §3.1 keeps it for a token that was sent).
  With one that is malformed, expired, from another issuer, signed by an unknown key or minted for
  another audience: `401` with `error="invalid_token"` and a description that never quotes the token.
- **Scopes per tool.** A `tools/call` needs the tool's scopes: `[auth.tool_scopes]` where it names the
  tool, else `read_scopes` for a tool declared read-only (`readOnlyHint`), `service_write_scopes` for a
  write that reaches a service outside the server (`openWorldHint`: strings_admin's create, which changes
  a team's shared strings service, not a checkout), and `write_scopes` for every other tool — a write
  need not be destructive to be a write. Any other request (initialize, lists, resource reads, prompts) needs `read_scopes`.
  A token lacking them gets `403` with `WWW-Authenticate: Bearer error="insufficient_scope",
  scope="…"` naming the scopes this operation needs (the spec's step-up challenge: the client asks
  for them and retries), and a JSON-RPC error with the request's id, for clients that do not step up.

The tool's name is inside the JSON-RPC body, so the check runs after `HttpGuard` has read and parsed
the body (it leaves the message in the ASGI scope under `PARSED_MESSAGE`) and before the SDK sees
it: the tool never starts. An accepted token's facts go on the scope as the SDK expects them
(`scope["user"]`, an `AuthenticatedUser`): the SDK then binds each session to the principal that
opened it, and `ctx.principal` reads it from there.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.handlers.metadata import ProtectedResourceMetadataHandler
from mcp.server.auth.routes import build_resource_metadata_url, cors_middleware
from mcp.shared.auth import ProtectedResourceMetadata
from pydantic import AnyHttpUrl
from starlette.authentication import AuthCredentials
from starlette.routing import Route

from parlance._transport.bearer_tokens import Refusal, TokenChecker
from parlance.config import AuthSettings
from parlance._transport.http_guard import INTERNAL, PARSED_MESSAGE, ASGIApp, Receive, Scope, Send

__all__ = ["BearerGate", "ResourceServer", "ScopePolicy", "metadata_routes", "require_auth", "resource_metadata_url",
           "resource_server"]

logger = logging.getLogger(__name__)

WELL_KNOWN = "/.well-known/oauth-protected-resource"


@dataclass(frozen=True)
class ScopePolicy:
    """The scopes each request needs (see the module docstring)."""

    read: tuple[str, ...]
    tools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    write: tuple[str, ...] = ()
    """What a request that cannot be told needs: a POST whose body was not read, a tool not served."""

    @classmethod
    def build(cls, *, read_scopes: Iterable[str], write_scopes: Iterable[str], read_only: Mapping[str, bool],
              overrides: Mapping[str, Iterable[str]], service_write_scopes: Iterable[str] | None = None,
              open_world: Mapping[str, bool] | None = None) -> ScopePolicy:
        """`read_only` maps each served tool to its `readOnlyHint`, `open_world` to its `openWorldHint`;
        `overrides` is `[auth.tool_scopes]`."""
        read, write = tuple(read_scopes), tuple(write_scopes)
        service = tuple(service_write_scopes) if service_write_scopes is not None else write
        reaches_out = open_world or {}
        tools = {name: read if is_read_only else service if reaches_out.get(name) else write
                 for name, is_read_only in read_only.items()}
        tools.update({name: tuple(scopes) for name, scopes in overrides.items()})
        return cls(read=read, tools=tools, write=write)

    def needed(self, method: str, message: Any) -> tuple[str, ...]:
        """The scopes a request needs: a tool's for a call of it; the write scopes where the request cannot
        be told (a POST whose body was not read, a tool not served: fail closed); else the read scopes."""
        if method == "POST" and message is None:
            return self.write or self.read
        if getattr(message, "method", None) == "tools/call":
            params = getattr(message, "params", None) or {}
            name = params.get("name") if isinstance(params, dict) else None
            return self.tools.get(name, self.write or self.read) if isinstance(name, str) else self.write or self.read
        return self.read

    @property
    def known(self) -> list[str]:
        """Every scope this resource uses (the metadata's `scopes_supported`)."""
        return sorted({*self.read, *(s for scopes in self.tools.values() for s in scopes)})


def resource_metadata_url(public_url: str) -> str:
    """Where the protected-resource metadata of `public_url` is (RFC 9728 §3.1: path-suffixed)."""
    return str(build_resource_metadata_url(AnyHttpUrl(public_url)))


def metadata_routes(public_url: str, issuer: str, scopes: list[str]) -> list[Route]:
    """The RFC 9728 document at the path-suffixed URL (`resource_metadata_url`), and at the bare well-known
    path too (clients of earlier drafts, and deployments whose proxy strips the path, look there).

    Built from strings through the SDK's own model, which keeps an issuer without a path as written:
    `AnyHttpUrl` alone would add a slash, and issuer identifiers compare exactly (RFC 8414 §3.3).
    """
    metadata = ProtectedResourceMetadata.model_validate({
        "resource": public_url, "authorization_servers": [issuer], "scopes_supported": scopes,
        "resource_name": "Parlance"})
    endpoint = cors_middleware(ProtectedResourceMetadataHandler(metadata).handle, ["GET", "OPTIONS"])
    paths = dict.fromkeys([urlsplit(resource_metadata_url(public_url)).path, WELL_KNOWN])
    return [Route(path, endpoint=endpoint, methods=["GET", "OPTIONS"]) for path in paths]


@dataclass(frozen=True)
class ResourceServer:
    """What `serve_http` needs to protect the MCP endpoint: built by `parlance serve` from `[auth]`."""

    public_url: str
    issuer: str
    checker: TokenChecker
    policy: ScopePolicy

    def protect(self, app: ASGIApp, path: str) -> BearerGate:
        return BearerGate(app, checker=self.checker, policy=self.policy, path=path,
                          metadata_url=resource_metadata_url(self.public_url))

    def routes(self) -> list[Route]:
        return metadata_routes(self.public_url, self.issuer, self.policy.known)


class BearerGate:
    """ASGI layer in front of the SDK's MCP endpoint: tokens and scopes (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, checker: TokenChecker, policy: ScopePolicy, path: str,
                 metadata_url: str) -> None:
        self.app = app
        self.checker = checker
        self.policy = policy
        self.path = path
        self.metadata_url = metadata_url

    async def authenticate(self, scope: Scope, send: Send) -> bool:
        """Whether the request carries a valid token (put on the scope as the SDK expects it); when not,
        answer 401 and say False. `HttpGuard` asks this first, before it reads a body or makes room for
        a session, so a request without a valid token can neither close another's session nor learn how
        its body parses."""
        token = _bearer_token(scope["headers"])
        if token is None:
            needed = self.policy.read
            await self._refuse(send, 401, None, "Unauthorized: this server needs an OAuth access token",
                               [("scope", " ".join(needed))] if needed else [])
            return False
        try:
            checked = await self.checker.check(token)
        except Exception as exc:  # a token that makes a checker fail is refused, never a 500 with a trace
            logger.warning("auth.token_check_failed", extra={"error": exc.__class__.__name__})
            checked = Refusal("unreadable", "the token cannot be read")
        if isinstance(checked, Refusal):
            logger.info("auth.token_refused", extra={"reason": checked.reason})
            await self._refuse(send, 401, None, f"Unauthorized: {checked.description}",
                               [("error", "invalid_token"), ("error_description", checked.description)])
            return False
        scope["user"] = AuthenticatedUser(checked)
        scope["auth"] = AuthCredentials(checked.scopes)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") != self.path or scope.get(INTERNAL):
            await self.app(scope, receive, send)  # the guard's own requests carry the session owner's user
            return
        user = scope.get("user")
        if not isinstance(user, AuthenticatedUser) and not await self.authenticate(scope, send):
            return
        checked = scope["user"].access_token
        message = scope.get(PARSED_MESSAGE)
        needed = self.policy.needed(scope["method"], message)
        if any(s not in checked.scopes for s in needed):
            description = f"this operation needs the scope{'s' if len(needed) > 1 else ''} {' '.join(needed)}"
            logger.info("auth.insufficient_scope", extra={"subject": checked.subject, "needed": " ".join(needed)})
            # the scopes granted and the ones needed: a client that asks for exactly what it is told
            # keeps what it could already do (the spec's step-up)
            asked = " ".join(dict.fromkeys([*checked.scopes, *needed]))
            await self._refuse(send, 403, message, f"Forbidden: {description}",
                               [("error", "insufficient_scope"), ("scope", asked),
                                ("error_description", description)])
            return
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send, status: int, message: Any, text: str,
                      params: list[tuple[str, str]]) -> None:
        challenge = ", ".join(f'{name}="{_quoted(value)}"' for name, value in
                              [*params, ("resource_metadata", self.metadata_url)])
        request_id = getattr(message, "id", None)
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32600, "message": text}}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"www-authenticate", f"Bearer {challenge}".encode())]})
        await send({"type": "http.response.body", "body": body})


def _bearer_token(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            token = token.strip()
            return token if scheme.lower() == "bearer" and token else None
    return None


def _quoted(value: str) -> str:
    """A value as an RFC 7235 quoted-string holds it."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


# --- from the configuration ------------------------------------------------------------------------


def require_auth(bind: str, auth: AuthSettings | None, *, source: str) -> None:
    """Refuse (ConfigError) a non-loopback bind without `[auth]`; log the explicit opt-out loudly.

    Run before anything loads. A deployment behind an authenticating proxy says so with
    `[auth] disabled_on_purpose = true`, and every start says it again at WARNING, so an unprotected
    team server never goes unnoticed in its logs.
    """
    from parlance._transport.serve import LOOPBACK
    from parlance.errors import ConfigError

    if auth is not None and auth.disabled_on_purpose:
        logger.warning("auth.disabled_on_purpose", extra={
            "bind": bind, "meaning": "HTTP requests are served without any token check: only an authenticating "
                                     "proxy in front keeps others out"})
        return
    if (auth is None or auth.issuer is None) and bind not in LOOPBACK:
        raise ConfigError(
            f"binding HTTP to {bind} exposes Parlance beyond this machine with no authentication", file=source,
            key="auth",
            fix='add [auth] issuer = "https://your-idp.example.org" (and [host] public_url), or, behind a proxy '
                "that authenticates every request, [auth] disabled_on_purpose = true; or bind 127.0.0.1")


def resource_server(auth: AuthSettings | None, public_url: str | None, read_only: Mapping[str, bool], *,
                    source: str, environ: Mapping[str, str],
                    open_world: Mapping[str, bool] | None = None) -> ResourceServer | None:
    """The `ResourceServer` `[auth]` describes, or None when there is no `[auth]` issuer (or on purpose).

    `read_only` maps each served tool to its `readOnlyHint`, `open_world` to its `openWorldHint`. `${env:NAME}` references in `[auth]`
    (the introspection secret) are resolved here, from `environ`.
    """
    from parlance.errors import ConfigError
    from parlance.pack_settings import resolve_env

    if auth is None or auth.disabled_on_purpose:
        return None
    if auth.issuer is None:
        raise ConfigError("[auth] names no issuer", file=source, key="auth.issuer",
                          fix='write issuer = "https://your-idp.example.org" (its metadata gives the keys)')
    settings = AuthSettings.model_validate(resolve_env(auth.model_dump(), file=source, key="auth", environ=environ))
    public = resolve_env(public_url, file=source, key="host.public_url", environ=environ)
    if not public:
        raise ConfigError("[auth] needs the server's canonical URL", file=source, key="host.public_url",
                          fix='write [host] public_url = "https://l10n.example.org/mcp" (what clients connect to)')
    for name, value in (("host.public_url", public), ("auth.issuer", settings.issuer),
                        ("auth.introspection_url", settings.introspection_url)):
        if value is not None and urlsplit(value).scheme not in ("https", "http"):
            raise ConfigError(f"{value!r} is not an http(s) URL", file=source, key=name)
    if settings.introspection_url and not (settings.client_id and settings.client_secret):
        raise ConfigError("introspection needs this server's client credentials", file=source,
                          key="auth.client_id", fix='write client_id = "…" and client_secret = "${env:NAME}"')
    unknown = sorted(set(settings.tool_scopes) - set(read_only))
    if unknown:
        logger.warning("auth.unknown_tool_scopes", extra={"tools": unknown})
    assert settings.issuer is not None
    policy = ScopePolicy.build(read_scopes=settings.read_scopes, write_scopes=settings.write_scopes,
                               read_only=read_only, overrides=settings.tool_scopes,
                               service_write_scopes=settings.service_write_scopes, open_world=open_world)
    checker = TokenChecker(issuer=settings.issuer, audience=settings.audience or public,
                           introspection_url=settings.introspection_url, client_id=settings.client_id,
                           client_secret=settings.client_secret)
    return ResourceServer(public_url=public, issuer=settings.issuer, checker=checker, policy=policy)
