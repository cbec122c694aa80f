"""Checking an access token: a JWT against the issuer's keys, or an opaque token by introspection.

`TokenChecker.check(token)` answers an `mcp` `AccessToken` (subject, client id, scopes) or a
`Refusal` that says why, in words safe to send back and to log: a refusal never quotes the token.
The checker is also the SDK's `TokenVerifier` (`verify_token`), for anything of the SDK's that wants one.

- **JWT** (RFC 9068 shape): the issuer's metadata is discovered (RFC 8414
  `/.well-known/oauth-authorization-server`, then OpenID `/.well-known/openid-configuration`, both
  path-aware as the MCP authorization spec orders them), its `issuer` must be the configured one, and
  its `jwks_uri` gives the keys. Keys are cached; a token naming a `kid` the cache lacks (the issuer
  rotated its keys) refetches them, at most once per `JWKS_REFETCH_MIN_S`, so tokens with made-up
  `kid`s cannot make this server hammer the issuer. Only asymmetric algorithms are accepted (never
  `none` or an HMAC, which would let the public key sign). Checked: signature, `iss`, `exp` and `nbf`
  within `LEEWAY_S`, and `aud` holding this server's audience (RFC 8707: a token minted for another
  resource is refused, so one server cannot replay what it was given to another). An accepted token
  is remembered by its SHA-256 for `ACCEPTED_CACHE_S` (never past its `exp`).
- **Opaque** (no JWT shape), when `introspection_url` is configured: RFC 7662 with this server's
  client credentials; `active`, `exp`, `nbf`, `iss` and `aud` are checked as above. Answers are cached
  by the token's SHA-256 for a short while (never the token itself).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import anyio
import httpx
import jwt
from mcp.server.auth.provider import AccessToken

__all__ = ["JWKS_REFETCH_MIN_S", "LEEWAY_S", "Refusal", "TokenChecker", "discovery_urls"]

logger = logging.getLogger(__name__)

LEEWAY_S = 30
"""Clock skew tolerated on `exp` and `nbf` between this server and the issuer."""
JWKS_REFETCH_MIN_S = 2.0
"""An unknown `kid` refetches the issuer's keys at most this often."""
JWKS_MAX_AGE_S = 3600.0
"""Keys older than this are refetched on the next token, so a key the issuer withdrew stops working."""
INTROSPECTION_CACHE_S = 30.0
ACCEPTED_CACHE_S = 60.0
"""A JWT accepted once is accepted again without its signature for this long (never past its `exp`): a client
sends the same token with every call, and checking it costs more than the rest of the request path. Kept
short so that keys the issuer withdraws stop working soon after (they are refetched within the hour)."""
HTTP_TIMEOUT_S = 5.0
ASYMMETRIC = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})
_CACHE_LIMIT = 10_000
INTROSPECTIONS_AT_ONCE = 8
"""Introspection requests in flight at once: what unknown opaque tokens can make the issuer answer."""


@dataclass(frozen=True)
class Refusal:
    """Why a token was not accepted: `reason` is a short code for the log, `description` a sentence for
    the client (the `error_description` of the 401)."""

    reason: str
    description: str


def discovery_urls(issuer: str) -> list[str]:
    """Where the issuer's metadata may be, in the order the MCP authorization spec tries them."""
    parts = urlsplit(issuer)
    path = parts.path.rstrip("/")

    def at(well_known_path: str) -> str:
        return urlunsplit((parts.scheme, parts.netloc, well_known_path, "", ""))

    if not path:
        return [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")]
    return [at(f"/.well-known/oauth-authorization-server{path}"), at(f"/.well-known/openid-configuration{path}"),
            at(f"{path}/.well-known/openid-configuration")]


class TokenChecker:
    """Checks bearer tokens for one resource (see the module docstring). One per server process."""

    def __init__(self, *, issuer: str, audience: str, introspection_url: str | None = None,
                 client_id: str | None = None, client_secret: str | None = None,
                 http: httpx.AsyncClient | None = None) -> None:
        self.issuer = issuer
        self.audience = audience
        self._introspection_url = introspection_url
        self._client_auth = httpx.BasicAuth(client_id, client_secret) if client_id and client_secret else None
        self._http = http
        self._keys: dict[str | None, jwt.PyJWK] = {}
        self._key_algorithms: dict[str | None, str] = {}  # a key's own `alg`, where the JWKS names one
        self._keys_fetched_at: float | None = None
        self._jwks_uri: str | None = None
        self._fetching = anyio.Lock()
        self._introspected: dict[bytes, tuple[float, AccessToken | Refusal]] = {}
        self._introspecting = anyio.CapacityLimiter(INTROSPECTIONS_AT_ONCE)
        self._accepted: dict[bytes, tuple[float, AccessToken]] = {}  # by the token's SHA-256: until when, what

    async def verify_token(self, token: str) -> AccessToken | None:
        """The SDK's `TokenVerifier`: the token's facts, or None when it is not accepted."""
        checked = await self.check(token)
        return checked if isinstance(checked, AccessToken) else None

    async def check(self, token: str) -> AccessToken | Refusal:
        if token.count(".") == 2:
            digest = hashlib.sha256(token.encode()).digest()
            accepted = self._accepted.get(digest)
            if accepted is not None and accepted[0] > time.time():
                return accepted[1]
            checked = await self._check_jwt(token)
            if isinstance(checked, AccessToken):
                _make_room(self._accepted)
                until = time.time() + ACCEPTED_CACHE_S
                if checked.expires_at is not None:
                    until = min(until, checked.expires_at + LEEWAY_S)
                self._accepted[digest] = (until, checked)
            return checked
        if self._introspection_url is not None:
            return await self._introspect(token)
        return Refusal("not_a_jwt", "the token is not a JWT, and this server has no introspection endpoint")

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()

    # --- JWT ---------------------------------------------------------------------------------------

    async def _check_jwt(self, token: str) -> AccessToken | Refusal:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            return Refusal("malformed", "the token is not a well-formed JWT")
        algorithm, kid = header.get("alg"), header.get("kid")
        if not isinstance(algorithm, str) or algorithm not in ASYMMETRIC:
            return Refusal("algorithm", "the token is not signed with an asymmetric algorithm")
        key = await self._key(kid if isinstance(kid, str) else None)
        if key is None:
            return Refusal("unknown_key", "the token is signed with a key the issuer does not publish")
        if self._key_algorithms.get(kid if isinstance(kid, str) else None) not in (None, algorithm):
            return Refusal("algorithm", "the token's algorithm is not its key's")
        try:
            claims = jwt.decode(token, key=key.key, algorithms=[algorithm], audience=self.audience,
                                issuer=self.issuer, leeway=LEEWAY_S,
                                options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError:
            return Refusal("expired", "the token has expired")
        except jwt.ImmatureSignatureError:
            return Refusal("not_yet_valid", "the token is not valid yet")
        except jwt.InvalidAudienceError:
            return Refusal("audience", f"the token is not for this resource (audience {self.audience})")
        except jwt.InvalidIssuerError:
            return Refusal("issuer", "the token is from another issuer")
        except jwt.MissingRequiredClaimError as exc:
            return Refusal("claims", f"the token lacks the {exc.claim} claim")
        except jwt.InvalidTokenError:
            return Refusal("signature", "the token's signature does not verify")
        except (jwt.PyJWTError, TypeError, ValueError):  # an algorithm of another family than its key's
            return Refusal("algorithm", "the token's algorithm is not its key's")
        return _access_token(token, claims, self.audience)

    async def _key(self, kid: str | None) -> jwt.PyJWK | None:
        now = time.monotonic()
        fetched = self._keys_fetched_at
        stale = fetched is None or now - fetched > JWKS_MAX_AGE_S
        # An unknown kid waits for a fetch under way (a fresh server's first requests come together), and
        # otherwise refetches only when the last fetch ended long enough ago.
        if stale or (kid not in self._keys and (self._fetching.locked()
                                                or now - fetched > JWKS_REFETCH_MIN_S)):  # type: ignore[operator]
            async with self._fetching:
                if self._keys_fetched_at == fetched:  # nobody fetched while this call waited
                    await self._fetch_keys()
        return self._keys.get(kid) or (self._keys.get(None) if kid is None else None)

    async def _fetch_keys(self) -> None:
        """The issuer's keys, fetched now. A failure keeps the keys already held (and is tried again after
        `JWKS_REFETCH_MIN_S`): a passing outage of the issuer must not lock out tokens already checkable.
        Its time is noted when it is over, so that a call which waited for it finds it done."""
        try:
            if self._jwks_uri is None:
                self._jwks_uri = await self._discover_jwks_uri()
            reply = await self._client().get(self._jwks_uri)
            reply.raise_for_status()
            keys: dict[str | None, jwt.PyJWK] = {}
            algorithms: dict[str | None, str] = {}
            for data in reply.json().get("keys", []):
                try:
                    key = jwt.PyJWK.from_dict(data)
                except (jwt.PyJWKError, jwt.InvalidKeyError):
                    continue  # a key of a kind this server cannot use
                if data.get("use", "sig") != "sig":
                    continue  # an encryption key
                kid = data.get("kid") if isinstance(data.get("kid"), str) else None
                keys[kid] = key
                if isinstance(data.get("alg"), str):
                    algorithms[kid] = data["alg"]
        except (httpx.HTTPError, ValueError, AttributeError) as exc:
            logger.warning("auth.jwks_unavailable", extra={"issuer": self.issuer, "error": exc.__class__.__name__})
            return
        finally:
            self._keys_fetched_at = time.monotonic()
        self._keys, self._key_algorithms = keys, algorithms
        logger.info("auth.jwks_fetched", extra={"issuer": self.issuer, "keys": len(keys)})

    async def _discover_jwks_uri(self) -> str:
        for url in discovery_urls(self.issuer):
            reply = await self._client().get(url)
            if reply.status_code != 200:
                continue
            metadata = reply.json()
            if metadata.get("issuer") != self.issuer:  # RFC 8414 §3.3: what is served must name itself
                raise ValueError(f"the metadata at {url} names issuer {metadata.get('issuer')!r}")
            jwks_uri = metadata.get("jwks_uri")
            if isinstance(jwks_uri, str):
                return jwks_uri
            raise ValueError(f"the metadata at {url} gives no jwks_uri")
        raise ValueError("the issuer serves no authorization-server or OpenID metadata")

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=HTTP_TIMEOUT_S, follow_redirects=False)
        return self._http

    # --- introspection -----------------------------------------------------------------------------

    async def _introspect(self, token: str) -> AccessToken | Refusal:
        digest = hashlib.sha256(token.encode()).digest()
        now = time.monotonic()
        cached = self._introspected.get(digest)
        if cached is not None and cached[0] > now:
            return _with_token(cached[1], token)
        async with self._introspecting:  # unknown opaque tokens cannot flood the issuer
            answer = await self._ask_introspection(token)
        if isinstance(answer, Refusal) and answer.reason == "introspection_failed":
            return answer  # the issuer was out of reach: asked again next time, not refused for 30 s
        _make_room(self._introspected)
        until = now + INTROSPECTION_CACHE_S
        if isinstance(answer, AccessToken) and answer.expires_at is not None:
            until = min(until, now + max(0.0, answer.expires_at - time.time()))
        self._introspected[digest] = (until, _with_token(answer, ""))
        return answer

    async def _ask_introspection(self, token: str) -> AccessToken | Refusal:
        assert self._introspection_url is not None
        try:
            form = {"token": token, "token_type_hint": "access_token"}
            reply = await (self._client().post(self._introspection_url, data=form, auth=self._client_auth)
                           if self._client_auth else self._client().post(self._introspection_url, data=form))
            reply.raise_for_status()
            claims = reply.json()
        except (httpx.HTTPError, ValueError) as exc:
            logger.warning("auth.introspection_unavailable", extra={"error": exc.__class__.__name__})
            return Refusal("introspection_failed", "the token could not be checked with the issuer")
        if not isinstance(claims, dict) or claims.get("active") is not True:
            return Refusal("inactive", "the token is not active")
        now = time.time()
        if isinstance(claims.get("exp"), int | float) and claims["exp"] < now - LEEWAY_S:
            return Refusal("expired", "the token has expired")
        if isinstance(claims.get("nbf"), int | float) and claims["nbf"] > now + LEEWAY_S:
            return Refusal("not_yet_valid", "the token is not valid yet")
        if "iss" in claims and claims["iss"] != self.issuer:
            return Refusal("issuer", "the token is from another issuer")
        audiences = claims.get("aud")
        if self.audience not in ([audiences] if isinstance(audiences, str) else audiences or []):
            return Refusal("audience", f"the token is not for this resource (audience {self.audience})")
        if not isinstance(claims.get("sub"), str) or not claims["sub"]:
            return Refusal("claims", "the token lacks the sub claim")  # every write is attributed to someone
        return _access_token(token, claims, self.audience)


def _make_room(cache: dict[bytes, Any]) -> None:
    """Drop the oldest entry of a full cache (dicts keep insertion order), keeping the answers still good."""
    while len(cache) >= _CACHE_LIMIT:
        del cache[next(iter(cache))]


def _access_token(token: str, claims: dict[str, Any], audience: str) -> AccessToken:
    scope = claims.get("scope")
    scopes = scope.split() if isinstance(scope, str) else [s for s in claims.get("scp") or [] if isinstance(s, str)]
    client_id = next((claims[c] for c in ("client_id", "azp", "cid") if isinstance(claims.get(c), str)), "")
    expires = claims.get("exp")
    subject = claims.get("sub")
    return AccessToken(token=token, client_id=client_id, scopes=scopes,
                       expires_at=int(expires) if isinstance(expires, int | float) else None,
                       resource=audience, subject=subject if isinstance(subject, str) else None,
                       claims={"iss": claims.get("iss")})


def _with_token(answer: AccessToken | Refusal, token: str) -> AccessToken | Refusal:
    """A cached introspection answer with the token it is for (the cache never holds a token)."""
    return answer.model_copy(update={"token": token}) if isinstance(answer, AccessToken) else answer
