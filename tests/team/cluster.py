"""A team deployment on this machine, from real parts: the shape of deploy/, on loopback ports.

`running_team(folder, database_url=...)` starts, and stops on the way out:

- an OAuth authorization server (oauth2-mock-server, tests/auth) that signs each member's token;
- three `parlance serve --transport http` replicas (`Replica`) on one shared checkout (`write_project`:
  one catalog `app` of four JSON files, en the source, and a small `onboarding` catalog), each with the
  same parlance.toml: `[auth]` naming that issuer, `[state] url` the database when one is given, the
  i18n pack's write tools, and the conformance suite's fixture pack (examples/parlance-conformance);
- HAProxy (`Proxy`) from deploy/haproxy.cfg itself, its addresses given through the environment it
  reads them from, plus one frontend of the test's own (`SUITE_FRONTEND`) that adds a valid bearer token
  to every request, for the official conformance suite, which cannot send one.

Replicas and HAProxy log to files in `folder` (each start of a replica to a file of its own).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.auth.authorization_server import AuthorizationServer, running_authorization_server
from tests.support import free_port, start_http_server, stop_process, wait_listening

__all__ = ["HAPROXY_CFG", "LOCALES", "Proxy", "Replica", "Team", "haproxy_missing", "running_team",
           "write_project"]

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
CONFORMANCE_PACK = ROOT / "examples" / "parlance-conformance" / "src"
LOCALES = ("fr", "de", "it")
"""The three catalog files the load writes (en is the source)."""
SCOPES = "parlance:read parlance:write"

# The conformance suite (tests/conformance/run) has no option to send a bearer token (`server --help`:
# --url, --scenario, --suite, ...; the only variable it reads is GITHUB_TOKEN), so it is pointed at a
# frontend of this test that adds one, in front of deploy/haproxy.cfg's own backends.
SUITE_FRONTEND = """
frontend conformance_suite
    bind "${PARLANCE_TEST_SUITE_BIND}"
    http-request set-header Authorization "Bearer ${PARLANCE_TEST_SUITE_TOKEN}"
    use_backend parlance_live if { nbsrv(parlance) eq 0 }
    default_backend parlance
"""


def haproxy_missing() -> str | None:
    if shutil.which("haproxy") is None:
        return "HAProxy is not installed (.ci/run installs it: apt-get install haproxy)"
    return None


def write_project(root: Path, keys: list[str]) -> None:
    """The shared checkout: catalog `app` (locales/{locale}.json: en with every key of the load and
    `banner`, the three others with `banner` only) and catalog `onboarding` (en `welcome`, fr empty)."""
    (root / "locales").mkdir(parents=True)
    (root / "onboarding").mkdir()
    source = {key: f"Source of {key}" for key in keys}
    (root / "locales" / "en.json").write_text(json.dumps({"banner": "Banner", **source}, indent=2) + "\n")
    for locale in LOCALES:
        (root / "locales" / f"{locale}.json").write_text(json.dumps({"banner": f"banner {locale} 0"}, indent=2) + "\n")
    (root / "onboarding" / "en.json").write_text(json.dumps({"welcome": "Welcome, {name}!"}) + "\n")
    (root / "onboarding" / "fr.json").write_text("{}\n")


def write_config(root: Path, *, public_url: str, issuer: str, shared: bool) -> Path:
    state = '[state]\nurl = "${env:PARLANCE_DATABASE_URL}"\n\n' if shared else ""
    config = root / "parlance.toml"
    config.write_text(f'''[host]
transport = "http"
log_format = "json"
public_url = "{public_url}"
shutdown_grace_s = 5

[auth]
issuer = "{issuer}"

{state}[packs]
enabled = ["i18n", "conformance"]

[packs.i18n]
source_locale = "en"
write = true

[[packs.i18n.catalogs]]
name = "app"
path = "locales/{{locale}}.json"
format = "icu-json"

[[packs.i18n.catalogs]]
name = "onboarding"
path = "onboarding/{{locale}}.json"
format = "icu-json"

[language_packs]
autoload = false
paths = []
''')
    return config


def conformance_site(folder: Path) -> str:
    """A PYTHONPATH on which the fixture pack `conformance` is installed (its source and a dist-info)."""
    site = folder / "site"
    dist = site / "parlance_conformance-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: parlance-conformance\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text("[parlance.packs]\nconformance = parlance_conformance.pack\n")
    return f"{site}{os.pathsep}{CONFORMANCE_PACK}"


@dataclass
class Replica:
    name: str
    port: int
    config: Path
    env: dict[str, str]
    logs: Path
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def mcp(self) -> str:
        return f"{self.url}/mcp"

    @property
    def log(self) -> Path:
        return self.logs / f"{self.name}.{self.starts}.log"

    def start(self) -> None:
        self.starts += 1
        try:
            self.process = start_http_server(self.config, self.port, self.env, stderr=self.log)
        except AssertionError:
            tail = self.log.read_text(errors="replace").splitlines()[-15:]
            raise AssertionError(f"replica {self.name} did not start; its log ends:\n" + "\n".join(tail)) from None

    def kill(self) -> None:
        """SIGKILL: the process dies mid-whatever, as after an OOM kill or a power cut of its machine."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, timeout=15)


@dataclass
class Proxy:
    port: int
    suite_port: int
    admin: Path
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def mcp(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def suite_mcp(self) -> str:
        return f"http://127.0.0.1:{self.suite_port}/mcp"

    def start(self, replicas: list[Replica], suite_token: str, folder: Path) -> None:
        extra = folder / "suite-frontend.cfg"
        extra.write_text(SUITE_FRONTEND)
        env = {**os.environ, "PARLANCE_LB_BIND": f"127.0.0.1:{self.port}", "PARLANCE_LB_ADMIN_SOCKET": str(self.admin),
               "PARLANCE_TEST_SUITE_BIND": f"127.0.0.1:{self.suite_port}", "PARLANCE_TEST_SUITE_TOKEN": suite_token,
               **{f"PARLANCE_REPLICA_{n}": f"127.0.0.1:{r.port}" for n, r in enumerate(replicas, 1)}}
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(["haproxy", "-db", "-f", str(HAPROXY_CFG), "-f", str(extra)], env=env,
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        wait_listening(self.port, self.process)

    def stats(self) -> list[dict[str, str]]:
        """HAProxy's `show stat`, one row per frontend, backend and server."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(self.admin))
            sock.sendall(b"show stat\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        text = b"".join(chunks).decode().lstrip("# ")
        return list(csv.DictReader(io.StringIO(text)))

    def states(self, backend: str = "parlance") -> dict[str, str]:
        """Each server of `backend` and its state as HAProxy sees it: UP, DOWN, NOLB (draining), ..."""
        return {row["svname"]: row["status"].split(" ")[0] for row in self.stats()
                if row["pxname"] == backend and row["svname"] not in ("FRONTEND", "BACKEND")}

    def wait_for(self, wanted: dict[str, str], seconds: float = 20, backend: str = "parlance") -> None:
        deadline = time.monotonic() + seconds
        while (states := self.states(backend)) and any(states.get(n) != s for n, s in wanted.items()):
            assert time.monotonic() < deadline, f"HAProxy still sees {states}, not {wanted}"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)


@dataclass
class Team:
    folder: Path
    root: Path
    issuer: AuthorizationServer
    replicas: list[Replica]
    proxy: Proxy
    database_url: str | None
    tokens: list[str] = field(default_factory=list)

    @property
    def public_url(self) -> str:
        return self.proxy.mcp

    def token(self, subject: str, scope: str = SCOPES) -> str:
        """A token from the issuer's token endpoint, bound to this deployment's public_url, for `subject`."""
        token = self.issuer.token(client_id=f"agent-of-{subject}", resource=self.public_url, scope=scope,
                                  subject=subject)
        self.tokens.append(token)
        return token

    def minted(self, claims: dict[str, object], *, expires_in: int = 3600) -> str:
        """A token signed by the issuer with `claims` over valid ones (another audience, expired, ...)."""
        token = self.issuer.mint({"aud": self.public_url, "sub": "mallory", "scope": SCOPES, **claims},
                                 expires_in=expires_in)
        self.tokens.append(token)
        return token


@contextlib.contextmanager
def running_team(folder: Path, *, keys: list[str], database_url: str | None) -> Iterator[Team]:
    """See the module docstring. `keys` are the load's keys (the source file has them); with no
    `database_url` the replicas run the embedded engine (each its own process: nothing shared)."""
    root = folder / "checkout"
    write_project(root, keys)
    logs = folder / "logs"
    logs.mkdir()
    proxy = Proxy(free_port(), free_port(), folder / "haproxy.sock", logs / "haproxy.log")
    with running_authorization_server() as issuer:
        config = write_config(root, public_url=proxy.mcp, issuer=issuer.url, shared=database_url is not None)
        env = {"PYTHONPATH": conformance_site(folder),
               **({"PARLANCE_DATABASE_URL": database_url} if database_url else {})}
        replicas = [Replica(f"r{n}", free_port(), config, env, logs) for n in (1, 2, 3)]
        team = Team(folder, root, issuer, replicas, proxy, database_url)
        try:
            for replica in replicas:
                replica.start()
            proxy.start(replicas, team.token("conformance-suite"), folder)
            proxy.wait_for({r.name: "UP" for r in replicas})
            yield team
        finally:
            try:
                proxy.stop()
            finally:
                for replica in replicas:
                    replica.stop()
