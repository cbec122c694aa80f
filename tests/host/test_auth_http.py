"""`[auth]`: Parlance as an OAuth 2.1 resource server, end to end.

A real authorization server (oauth2-mock-server, tests/auth) issues signed JWTs from its JWKS; a real
`parlance serve --transport http` subprocess checks them; real clients (httpx, and the mcp SDK's
client with a bearer token) call it. One server for the module, its stderr kept: the last test reads
every log line it wrote for any token.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from parlance._transport.bearer_tokens import JWKS_REFETCH_MIN_S
from tests.auth.authorization_server import AuthorizationServer, running_authorization_server
from tests.support import (
    ERAS,
    bearer_challenge,
    free_port,
    modern_call,
    start_http_server,
    stop_process,
    wait_listening,
    write_fake_dist,
)

PACK = '''
    import anyio
    from pydantic import BaseModel
    from parlance import ToolContext, hookimpl

    class Nothing(BaseModel):
        pass

    class Who(BaseModel):
        subject: str | None
        client_id: str | None
        scopes: list[str]

    class Done(BaseModel):
        ok: bool

    async def whoami(args: Nothing, ctx: ToolContext) -> Who:
        p = ctx.principal
        return Who(subject=p and p.subject, client_id=p and p.client_id, scopes=list(p.scopes) if p else [])

    async def note(args: Nothing) -> Done:
        return Done(ok=True)

    async def wipe(args: Nothing) -> Done:
        return Done(ok=True)

    async def sleepy(args: Nothing) -> Done:
        await anyio.sleep(1.5)
        return Done(ok=True)

    @hookimpl
    def parlance_register_tools(register):
        register(whoami, name="whoami", description="Who the call acts for.", read_only=True)
        register(note, name="note", description="An additive write.", read_only=False, destructive=False)
        register(wipe, name="wipe", description="A write with a scope of its own.", read_only=False)
        register(sleepy, name="sleepy", description="Takes a while.", read_only=True)
'''
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2025-11-25"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
SECRET_ENV = "PARLANCE_TEST_INTROSPECTION_SECRET"


@dataclass
class Served:
    url: str  # the server's base URL; the MCP endpoint is {url}/mcp, which is also public_url
    issuer: AuthorizationServer
    stderr: Path
    tokens: list[str] = field(default_factory=list)  # every token sent: none may appear in the log

    @property
    def mcp(self) -> str:
        return f"{self.url}/mcp"

    def token(self, scope: str = "parlance:read parlance:write", *, subject: str = "ada") -> str:
        token = self.issuer.token(client_id="agent-7", resource=self.mcp, scope=scope, subject=subject)
        self.tokens.append(token)
        return token

    def minted(self, claims: dict[str, object], *, expires_in: int = 3600, kid: str = "key-1",
               header: dict[str, object] | None = None) -> str:
        token = self.issuer.mint({"aud": self.mcp, "sub": "ada", "scope": "parlance:read", **claims},
                                 kid=kid, expires_in=expires_in, header=header)
        self.tokens.append(token)
        return token


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("auth")
    write_fake_dist(tmp, "whoami", PACK)
    port = free_port()
    with running_authorization_server() as issuer:
        (tmp / "parlance.toml").write_text(f'''
[host]
log_format = "json"
public_url = "http://127.0.0.1:{port}/mcp"
[auth]
issuer = "{issuer.url}"
introspection_url = "{issuer.url}/introspect"
client_id = "parlance"
client_secret = "${{env:{SECRET_ENV}}}"
[auth.tool_scopes]
wipe = ["parlance:admin"]
[packs]
enabled = ["whoami"]
''')
        proc = start_http_server(tmp / "parlance.toml", port, {"PYTHONPATH": str(tmp), SECRET_ENV: "s3cret"},
                            tmp / "stderr.log")
        try:
            yield Served(f"http://127.0.0.1:{port}", issuer, tmp / "stderr.log")
        finally:
            stop_process(proc)


def post(served: Served, token: str | None, body: object, **headers: str) -> httpx.Response:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(served.mcp, json=body, headers={**HEADERS, **auth, **headers})


def call(name: str, request_id: int = 2) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": name, "arguments": {}}}


# --- metadata ---------------------------------------------------------------------------------------


def test_protected_resource_metadata_names_the_issuer(served: Served) -> None:
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
        reply = httpx.get(served.url + path)
        assert reply.status_code == 200, path
        document = reply.json()
        assert document["resource"] == served.mcp
        assert document["authorization_servers"] == [served.issuer.url]
        assert document["scopes_supported"] == ["parlance:admin", "parlance:read", "parlance:write"]
        assert document["bearer_methods_supported"] == ["header"]


# --- 401 --------------------------------------------------------------------------------------------


def test_no_token_is_401_with_where_to_get_one(served: Served) -> None:
    reply = post(served, None, INITIALIZE)
    assert reply.status_code == 401
    assert bearer_challenge(reply) == {"scope": "parlance:read",
                                "resource_metadata": f"{served.url}/.well-known/oauth-protected-resource/mcp"}
    # a JSON-RPC error too, for clients that read the body; its id is null: the body is not read before the
    # token is checked (JSON-RPC 2.0 §5: null where the request was not read)
    assert reply.json()["id"] is None and reply.json()["error"]["code"] == -32600


@pytest.mark.parametrize("case", ["wrong_audience", "expired", "other_issuer", "no_audience", "unpublished_key",
                                  "not_a_token", "inactive_opaque"])
def test_an_unacceptable_token_is_401_invalid_token(served: Served, case: str) -> None:
    cases: dict[str, Callable[[], str]] = {
        "wrong_audience": lambda: served.minted({"aud": "https://other.example/mcp"}),
        "expired": lambda: served.minted({}, expires_in=-120),  # beyond the 30 s leeway
        "other_issuer": lambda: served.minted({"iss": "https://evil.example"}),
        "no_audience": lambda: served.minted({"aud": None}),
        "unpublished_key": lambda: served.minted({}, header={"kid": "never-published"}),
        "not_a_token": lambda: "a.b.c",
        "inactive_opaque": lambda: "opaque-never-issued",
    }
    token = cases[case]()
    reply = post(served, token, INITIALIZE)
    assert reply.status_code == 401, reply.text
    params = bearer_challenge(reply)
    assert params["error"] == "invalid_token"
    assert params["resource_metadata"] == f"{served.url}/.well-known/oauth-protected-resource/mcp"
    assert token not in reply.text and token not in reply.headers["www-authenticate"]


# --- scopes -----------------------------------------------------------------------------------------


def test_a_write_tool_needs_the_write_scope(served: Served) -> None:
    read_only = served.token("parlance:read")
    reply = post(served, read_only, call("note", 9))
    assert reply.status_code == 403
    params = bearer_challenge(reply)
    # the scopes granted and the one needed: a client that asks for exactly these keeps what it had
    assert params["error"] == "insufficient_scope" and params["scope"] == "parlance:read parlance:write"
    assert params["error_description"] == "this operation needs the scope parlance:write"
    assert reply.json()["id"] == 9
    # A read-only tool with the same token passes the gate (the SDK then asks for a session: 400, not 403).
    assert post(served, read_only, call("whoami")).status_code != 403


def test_a_tool_scope_override_replaces_the_default(served: Served) -> None:
    refused = bearer_challenge(post(served, served.token(), call("wipe")))
    assert refused["error_description"].endswith("scope parlance:admin")
    assert post(served, served.token("parlance:read parlance:admin"), call("wipe")).status_code != 403


def test_every_request_needs_the_read_scope(served: Served) -> None:
    reply = post(served, served.token("parlance:write"), INITIALIZE)
    assert reply.status_code == 403 and bearer_challenge(reply)["scope"] == "parlance:write parlance:read"


# --- the happy path, both eras, through the SDK's client ---------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("mode", list(ERAS))
async def test_a_valid_token_reaches_the_tool_with_its_subject(served: Served, mode: str) -> None:
    token = served.token(subject=f"ada-{mode}")
    with anyio.fail_after(15):
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
            async with Client(streamable_http_client(served.mcp, http_client=http), mode=mode) as client:
                assert client.protocol_version == ERAS[mode]
                who = await client.call_tool("whoami", {})
                note = await client.call_tool("note", {})
    assert who.structured_content == {"subject": f"ada-{mode}", "client_id": "agent-7",
                                      "scopes": ["parlance:read", "parlance:write"]}
    assert note.structured_content == {"ok": True}


def test_an_opaque_token_is_introspected(served: Served) -> None:
    token = "opaque-token-for-bea"
    served.tokens.append(token)
    served.issuer.opaque(token, {"active": True, "sub": "bea", "client_id": "ci-bot", "scope": "parlance:read",
                                 "aud": served.mcp, "iss": served.issuer.url, "exp": int(time.time()) + 600})
    before = served.issuer.counts()["introspect"]
    body, headers = modern_call("whoami")
    for _ in range(3):
        reply = post(served, token, body, **headers)
        assert reply.status_code == 200, reply.text
    assert '"subject":"bea"' in reply.text.replace(" ", "")
    assert served.issuer.counts()["introspect"] == before + 1  # answers are cached briefly


# --- key rotation ------------------------------------------------------------------------------------


def test_a_rotated_key_is_fetched_once(served: Served) -> None:
    assert post(served, served.minted({}), INITIALIZE).status_code == 200  # the keys are cached now
    served.issuer.rotate("key-2")
    time.sleep(JWKS_REFETCH_MIN_S)
    fetched = served.issuer.counts()["jwks"]
    for _ in range(5):
        assert post(served, served.minted({}, kid="key-2"), INITIALIZE).status_code == 200
    assert served.issuer.counts()["jwks"] == fetched + 1
    # Tokens naming keys nobody published cannot make the server hammer the issuer.
    for n in range(10):
        assert post(served, served.minted({}, header={"kid": f"made-up-{n}"}), INITIALIZE).status_code == 401
    assert served.issuer.counts()["jwks"] <= fetched + 2


# --- probes, access log, no tokens in the log --------------------------------------------------------


def test_probes_need_no_token(served: Served) -> None:
    assert httpx.get(f"{served.url}/healthz").status_code == 200
    ready = httpx.get(f"{served.url}/readyz", headers={"Host": "elsewhere.example"})  # probes skip the Host rule
    assert ready.status_code == 200 and ready.json() == {"status": "ok"}


def test_the_access_log_names_the_subject_and_never_a_token(served: Served) -> None:
    post(served, served.token(subject="logged-subject"), INITIALIZE)
    time.sleep(0.2)
    lines = served.stderr.read_text().splitlines()
    assert len(served.tokens) >= 20
    leaked = [line for line in lines for token in served.tokens if token in line or token[-40:] in line]
    assert leaked == []
    requests = [json.loads(line) for line in lines if '"http.request"' in line]
    mine = [r for r in requests if r.get("subject") == "logged-subject"]
    assert mine and mine[-1]["status"] == 200 and mine[-1]["method"] == "POST" and mine[-1]["path"] == "/mcp"
    assert mine[-1]["client_id"] == "agent-7" and mine[-1]["duration_ms"] > 0
    assert any(r["status"] == 401 and "subject" not in r for r in requests)


# --- without [auth] ----------------------------------------------------------------------------------


def test_readyz_is_503_while_draining(tmp_path: Path) -> None:
    write_fake_dist(tmp_path, "whoami", PACK)
    (tmp_path / "parlance.toml").write_text('[host]\nshutdown_grace_s = 5\n[packs]\nenabled = ["whoami"]\n')
    port = free_port()
    proc = start_http_server(tmp_path / "parlance.toml", port, {"PYTHONPATH": str(tmp_path)})
    url = f"http://127.0.0.1:{port}"
    try:
        body, headers = modern_call("sleepy")
        answers: list[int] = []
        slow = threading.Thread(target=lambda: answers.append(
            httpx.post(f"{url}/mcp", json=body, headers={**HEADERS, **headers}, timeout=10).status_code))
        slow.start()
        time.sleep(0.5)
        assert httpx.get(f"{url}/readyz").status_code == 200
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert httpx.get(f"{url}/readyz").status_code == 503
        assert httpx.get(f"{url}/healthz").status_code == 200
        slow.join()
        assert answers == [200]  # the call in flight was answered while the server drained
    finally:
        stop_process(proc)


def test_a_non_loopback_bind_needs_auth_or_an_explicit_opt_out(tmp_path: Path) -> None:
    port = free_port()
    hosts = f'[host]\nallowed_hosts = ["127.0.0.1:{port}"]\n[packs]\nenabled = []\n'
    (tmp_path / "parlance.toml").write_text(hosts)
    command = [sys.executable, "-m", "parlance", "serve", "--transport", "http", "--host", "0.0.0.0", "--port",
               str(port), "--config", str(tmp_path / "parlance.toml")]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "[auth]" in refused.stderr and "disabled_on_purpose" in refused.stderr

    (tmp_path / "parlance.toml").write_text(hosts + "[auth]\ndisabled_on_purpose = true\n")
    with open(tmp_path / "stderr.log", "wb") as err:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
    try:
        wait_listening(port, proc)
        assert httpx.post(f"http://127.0.0.1:{port}/mcp", json=INITIALIZE, headers=HEADERS).status_code == 200
    finally:
        stop_process(proc)
    warnings = [line for line in (tmp_path / "stderr.log").read_text().splitlines() if "auth.disabled_on_purpose" in line]
    assert len(warnings) == 1 and "warn" in warnings[0].lower()


# --- the configuration -------------------------------------------------------------------------------


def test_config_show_masks_the_secret_and_keeps_env_references() -> None:
    from parlance.config import config_from_dict

    literal = config_from_dict({"auth": {"issuer": "https://idp.example", "client_secret": "s3cret"}}).show()
    assert literal["auth"]["client_secret"] == "********" and literal["auth"]["issuer"] == "https://idp.example"
    referenced = config_from_dict({"auth": {"client_secret": "${env:IDP_SECRET}"}}).show()
    assert referenced["auth"]["client_secret"] == "${env:IDP_SECRET}"
    assert "auth" not in config_from_dict({}).show()


def test_auth_needs_a_public_url_and_resolves_env_references() -> None:
    from parlance._transport.http_auth import resource_server
    from parlance.config import AuthSettings
    from parlance.errors import ConfigError

    auth = AuthSettings(issuer="https://idp.example", introspection_url="https://idp.example/introspect",
                        client_id="parlance", client_secret="${env:IDP_SECRET}")
    with pytest.raises(ConfigError, match="host.public_url"):
        resource_server(auth, None, {}, source="parlance.toml", environ={"IDP_SECRET": "x"})
    with pytest.raises(ConfigError, match="IDP_SECRET"):
        resource_server(auth, "https://l10n.example/mcp", {}, source="parlance.toml", environ={})
    served = resource_server(auth, "https://l10n.example/mcp", {"t_read": True, "t_write": False, "t_service": False},
                             open_world={"t_read": True, "t_service": True},
                             source="parlance.toml", environ={"IDP_SECRET": "x"})
    assert served is not None and served.checker.audience == "https://l10n.example/mcp"
    # A write that reaches a service outside the server (openWorldHint) needs the service write scopes.
    assert dict(served.policy.tools) == {"t_read": ("parlance:read",), "t_write": ("parlance:write",),
                                         "t_service": ("parlance:admin",)}


@pytest.mark.parametrize("header", [{"alg": ["RS256"]}, {"alg": "HS256"}, {"alg": "none"}, {"alg": "ES256"},
                                    {"alg": "EdDSA"}])
def test_a_token_whose_header_lies_is_401_never_a_500(served: Served, header: dict[str, object]) -> None:
    """A forged header (a list for alg, a symmetric or another family's algorithm on the issuer's key) is a
    refused token; before, some of these raised inside the checker and answered 500 with a logged trace."""
    import base64
    import json as json_module

    real = served.token("parlance:read").split(".")
    kid = json_module.loads(base64.urlsafe_b64decode(real[0] + "=" * (-len(real[0]) % 4)))["kid"]
    forged = base64.urlsafe_b64encode(json_module.dumps({**header, "kid": kid, "typ": "JWT"}).encode()).decode()
    reply = post(served, ".".join([forged.rstrip("="), real[1], real[2]]), INITIALIZE)
    assert reply.status_code == 401 and bearer_challenge(reply)["error"] == "invalid_token"


def test_a_request_without_a_token_closes_no_ones_session(tmp_path: Path) -> None:
    """At the session cap, an initialize with no token is refused before room is made for it, so it cannot
    evict another client's idle session (before, the guard made room first and the token was checked after)."""
    write_fake_dist(tmp_path, "whoami", PACK)
    port = free_port()
    with running_authorization_server() as issuer:
        (tmp_path / "parlance.toml").write_text(f'''
[host]
max_sessions = 1
public_url = "http://127.0.0.1:{port}/mcp"
[auth]
issuer = "{issuer.url}"
[packs]
enabled = ["whoami"]
''')
        proc = start_http_server(tmp_path / "parlance.toml", port, {"PYTHONPATH": str(tmp_path)})
        try:
            served = Served(f"http://127.0.0.1:{port}", issuer, tmp_path / "unused.log")
            token = served.token("parlance:read")
            opened = post(served, token, INITIALIZE)
            assert opened.status_code == 200, opened.text
            session = opened.headers["mcp-session-id"]
            for _ in range(2):
                assert post(served, None, INITIALIZE).status_code == 401
            still = post(served, token, {"jsonrpc": "2.0", "id": 2, "method": "ping"},
                         **{"mcp-session-id": session})
            assert still.status_code == 200, still.text
        finally:
            stop_process(proc)


def test_requests_that_arrive_while_the_keys_are_first_fetched_wait_for_them(tmp_path: Path) -> None:
    """A fresh server's first requests come at once (a team's agents after a restart): those that arrive while
    the first one fetches the issuer's keys wait for that fetch. Before, they found no key yet, and no refetch
    was due for 2 s, so they were refused as signed by a key the issuer does not publish."""
    write_fake_dist(tmp_path, "whoami", PACK)
    port = free_port()
    with running_authorization_server() as issuer:
        (tmp_path / "parlance.toml").write_text(f'[host]\npublic_url = "http://127.0.0.1:{port}/mcp"\n'
                                                f'[auth]\nissuer = "{issuer.url}"\n[packs]\nenabled = ["whoami"]\n')
        proc = start_http_server(tmp_path / "parlance.toml", port, {"PYTHONPATH": str(tmp_path)})
        try:
            served = Served(f"http://127.0.0.1:{port}", issuer, tmp_path / "unused.log")
            tokens = [served.token("parlance:read", subject=f"member-{n}") for n in range(12)]
            body, headers = modern_call("whoami")
            statuses: list[int] = []
            barrier = threading.Barrier(len(tokens))

            def at_once(token: str) -> None:
                barrier.wait()
                statuses.append(post(served, token, body, **headers).status_code)

            threads = [threading.Thread(target=at_once, args=(token,)) for token in tokens]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert statuses == [200] * len(tokens)
            assert issuer.counts()["jwks"] == 1
        finally:
            stop_process(proc)
