"""`parlance serve --transport http` against what an outside reliability campaign sent it.

A real server process on loopback, driven by raw HTTP (httpx) where the point is the bytes, and by
the SDK's client where it is the protocol.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.host.packs_for_tests import SOURCES
from tests.host.test_stdio_hostile_input import SLEEPER
from tests.support import free_port, wait_listening, write_fake_dist

ACCEPT = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}

class Server:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.url = f"http://127.0.0.1:{port}/mcp"

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def serving(tmp_path: Path, host_toml: str = "", *, log_level: str = "INFO", env: dict[str, str] | None = None
            ) -> Iterator[Server]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    write_fake_dist(site, "printer", SOURCES["printer"])
    write_fake_dist(site, "sleeper", SLEEPER)
    (tmp_path / "parlance.toml").write_text(f'[host]\n{host_toml}\n[packs]\nenabled = ["printer", "sleeper"]\n')
    port = free_port()
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                                 "--config", str(tmp_path / "parlance.toml"), "--log-level", log_level],
                                env={**os.environ, "PYTHONPATH": str(site), **(env or {})}, cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_listening(port, proc)
        yield Server(proc, port, log)
    finally:
        proc.kill()
        proc.wait()


def _open_session(client: httpx.Client, url: str) -> str:
    reply = client.post(url, headers=ACCEPT, json=INITIALIZE)
    assert reply.status_code == 200, reply.text
    session = reply.headers["mcp-session-id"]
    client.post(url, headers={**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"},
                json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return session


def _rpc(reply: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC message of a reply, whether sent as JSON or as one SSE event."""
    if reply.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in reply.text.splitlines() if line.startswith("data:") and line[5:].strip()]
        return json.loads(data[-1])  # type: ignore[no-any-return]
    return reply.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("http-hostile")) as running:
        yield running


@pytest.mark.parametrize(("body", "request_id", "code", "says"), [
    (b'{"jsonrpc":"2.0","id":3,"method":123}', 3, -32600, '"method"'),
    (b'{"jsonrpc":"1.0","id":4,"method":"ping"}', 4, -32600, '"jsonrpc"'),
    (b'{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}', 5, -32600, '"params"'),
    (b'[{"jsonrpc":"2.0","id":6,"method":"ping"}]', None, -32600, "batch"),
    (b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":NaN}}', 7, -32700, "NaN"),
    (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', None, -32600, "id must be a string"),
    (b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":' + b"[" * 990 + b"]" * 990 + b"}}", 8, -32600, "nests"),
])
def test_invalid_jsonrpc_is_answered_with_its_id_and_never_echoed(server: Server, body: bytes,
                                                                  request_id: Any, code: int, says: str) -> None:
    marker = b"MARKER-echo-5d1"
    body = body.replace(b'"ping"', b'"ping","extra":"' + marker + b'"', 1) if b'"ping"' in body else body
    with httpx.Client(timeout=10) as client:
        session = _open_session(client, server.url)
        reply = client.post(server.url, content=body,
                            headers={**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"})
        assert reply.status_code == 400
        error = reply.json()
        assert (error["id"], error["error"]["code"]) == (request_id, code)
        assert says in error["error"]["message"]
        assert marker.decode() not in reply.text and "input_value" not in reply.text and "pydantic" not in reply.text
        ping = client.post(server.url, json={"jsonrpc": "2.0", "id": 9, "method": "ping"},
                           headers={**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"})
        assert _rpc(ping) == {"jsonrpc": "2.0", "id": 9, "result": {}}


@pytest.mark.parametrize(("header", "value", "status"), [
    ("Origin", "http://localhost:{port}.evil.com", 403),
    ("Origin", "http://127.0.0.1:{port}@evil.com", 403),
    ("Origin", "http://evil.com", 403),
    ("Host", "127.0.0.1:evil.com", 421),
    ("Host", "localhost.evil.com:{port}", 421),
    ("Host", "127.0.0.1:{port}", 200),
    ("Origin", "http://localhost:{port}", 200),
])
def test_host_and_origin_are_compared_exactly(server: Server, header: str, value: str, status: int) -> None:
    reply = httpx.post(server.url, json=INITIALIZE, headers={**ACCEPT, header: value.format(port=server.port)},
                       timeout=10)
    assert reply.status_code == status


def _listening(client: httpx.Client, url: str, session: str) -> contextlib.AbstractContextManager[httpx.Response]:
    """A client's standalone GET listener on `session`, open for the block."""
    return client.stream("GET", url, headers={"Accept": "text/event-stream", "mcp-session-id": session,
                                              "mcp-protocol-version": "2025-11-25"})


def test_at_the_session_cap_the_least_recently_used_idle_session_makes_room(tmp_path: Path) -> None:
    with serving(tmp_path, "max_sessions = 3") as running, httpx.Client(timeout=10) as client:
        sessions = [_open_session(client, running.url) for _ in range(3)]
        # Connected clients keep a GET listener open while they idle: that must not make them busy.
        with contextlib.ExitStack() as listeners:
            for session in sessions:
                assert listeners.enter_context(_listening(client, running.url, session)).status_code == 200
            for session in sessions[1:]:  # the first is now the least recently used
                client.post(running.url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
                            headers={**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"})
            newest = _open_session(client, running.url)  # a fourth client is admitted, not refused with 503

            def ping(session: str) -> int:
                return client.post(running.url, json={"jsonrpc": "2.0", "id": 3, "method": "ping"},
                                   headers={**ACCEPT, "mcp-session-id": session,
                                            "mcp-protocol-version": "2025-11-25"}).status_code

            assert [ping(s) for s in [*sessions, newest]] == [404, 200, 200, 200]


MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}}


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_a_client_that_disconnects_mid_call_has_the_call_cancelled(tmp_path: Path, era: str) -> None:
    marker = tmp_path / "cancelled.txt"
    with serving(tmp_path, env={"CANCEL_MARKER": str(marker)}) as running, httpx.Client(timeout=10) as client:
        call: dict[str, Any] = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                                "params": {"name": "nap", "arguments": {"seconds": 30}}}
        if era == "2025-11-25":
            headers = {**ACCEPT, "mcp-session-id": _open_session(client, running.url), "mcp-protocol-version": era}
        else:  # stateless: the envelope rides on the request
            headers = {**ACCEPT, "mcp-protocol-version": era, "mcp-method": "tools/call", "mcp-name": "nap"}
            call["params"]["_meta"] = MODERN
        with pytest.raises(httpx.ReadTimeout):
            client.post(running.url, json=call, headers=headers, timeout=0.5)  # then the client hangs up
        deadline = time.monotonic() + 5
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), "the call kept running after its client went away"
        if era == "2025-11-25":  # the session itself goes on
            assert _rpc(client.post(running.url, json={"jsonrpc": "2.0", "id": 6, "method": "ping"},
                                    headers=headers))["id"] == 6


def test_sigterm_lets_the_call_in_flight_finish_and_logs_only_json(tmp_path: Path) -> None:
    with serving(tmp_path) as running, httpx.Client(timeout=15) as client:
        session = _open_session(client, running.url)
        headers = {**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nap", "arguments": {"seconds": 1}}}
        with _listening(client, running.url, session) as listener, \
                client.stream("POST", running.url, json=call, headers=headers) as reply:
            assert listener.status_code == 200  # a connected client's GET listener stays open throughout
            deadline = time.monotonic() + 20
            while "nap started" not in running.stderr():  # the call is running
                assert time.monotonic() < deadline
                time.sleep(0.02)
            running.proc.send_signal(signal.SIGTERM)
            body = reply.read().decode()
            listener.read()  # the listener is ended cleanly, not cut off
        assert running.proc.wait(timeout=20) == 0
        log = running.stderr()
    data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:") and line[5:].strip()]
    assert json.loads(data[-1])["result"]["structuredContent"] == {"slept": 1.0}
    assert "sleeper lifespan exited" in log
    for line in log.splitlines():
        if line not in ("", "sleeper lifespan exited", "printed at import time", "nap started"):  # what the fake packs print
            entry = json.loads(line)  # uvicorn's own lines are Parlance's JSON too, never its plain "ERROR: ..."
            assert entry["level"] not in ("error", "critical"), line
