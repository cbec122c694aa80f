"""A real OAuth 2 authorization server on loopback for the tests and the auth benchmark.

`running_authorization_server()` starts `tests/auth/server.mjs` (oauth2-mock-server, pinned in
tests/auth/package.json; `npm ci` there installs it) and yields an `AuthorizationServer` to talk to it:
tokens from its real token endpoint (client-credentials grant, bound to a resource per RFC 8707),
tokens minted with chosen claims and key (expired, another audience, ...), key rotation, opaque
tokens for introspection, and how often its JWKS and introspection endpoints were asked.
Skips the test without Node or the package, except under CI, where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.support import stop_process

HERE = Path(__file__).resolve().parent


@dataclass
class AuthorizationServer:
    url: str
    """Its issuer URL (`http://127.0.0.1:PORT`, what tokens carry as `iss`)."""

    def token(self, *, client_id: str, resource: str, scope: str, subject: str | None = None) -> str:
        """An access token from the token endpoint, as a client-credentials client gets one."""
        form = {"grant_type": "client_credentials", "client_id": client_id, "scope": scope, "resource": resource,
                **({"subject": subject} if subject else {})}
        reply = httpx.post(f"{self.url}/token", data=form)
        reply.raise_for_status()
        return str(reply.json()["access_token"])

    def mint(self, claims: dict[str, Any], *, kid: str = "key-1", expires_in: int = 3600,
             header: dict[str, Any] | None = None) -> str:
        """A JWT signed by key `kid` carrying `claims` over the issuer's defaults (iss, iat, exp, nbf);
        `header` overrides its header's fields (a `kid` naming another key than the one that signed)."""
        return str(self._control("mint", {"claims": claims, "kid": kid, "expires_in": expires_in,
                                          "header": header or {}})["token"])

    def rotate(self, kid: str) -> None:
        """A new signing key `kid`, published in the JWKS from now on."""
        self._control("rotate", {"kid": kid})

    def opaque(self, token: str, answer: dict[str, Any]) -> None:
        """What introspection answers for the opaque `token` (to a client authenticated as parlance:s3cret)."""
        self._control("opaque", {"token": token, "answer": answer})

    def counts(self) -> dict[str, int]:
        """How many times the JWKS and the introspection endpoint were asked."""
        return dict(self._control("counts", {}))

    def _control(self, what: str, body: dict[str, Any]) -> Any:
        reply = httpx.post(f"{self.url}/_test/{what}", json=body)
        reply.raise_for_status()
        return reply.json()


def missing() -> str | None:
    """Why the server cannot run here, or None."""
    if shutil.which("node") is None:
        return "Node.js 20.19 or newer is needed on PATH for the OAuth authorization server of the tests"
    if not (HERE / "node_modules" / "oauth2-mock-server").is_dir():
        return "run `npm ci` in tests/auth to install the pinned authorization server (oauth2-mock-server)"
    return None


@contextmanager
def running_authorization_server() -> Iterator[AuthorizationServer]:
    import pytest

    problem = missing()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    proc = subprocess.Popen(["node", str(HERE / "server.mjs")], cwd=HERE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the authorization server did not start: {proc.stderr.read() if proc.stderr else ''}")
        yield AuthorizationServer(json.loads(line)["url"])
    finally:
        stop_process(proc)
