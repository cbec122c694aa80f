"""Fixtures for the strings_admin pack: the emulator, and small real loopback servers.

Everything here listens on 127.0.0.1 only. Nothing is mocked: the pack's httpx client talks real
HTTP to real sockets. Helpers live in this file (as fixtures) because the test directory is not a
package.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import parlance_strings_admin.pack
from parlance.testing import connect
from parlance_strings_admin.emulator import RunningEmulator, Scope, emulator_thread

from tests.support import ERAS

SCOPES = [Scope("checkout", True), Scope("emails", False)]



@pytest.fixture(autouse=True)
def _no_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's shell must not redirect in-process tests; stdio tests pass env explicitly.
    monkeypatch.delenv("STRINGS_ADMIN_HOST", raising=False)
    monkeypatch.delenv("BASE_PATH", raising=False)



@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[RunningEmulator]:
    with emulator_thread(tmp_path / "emulator.sqlite3", SCOPES) as running:
        yield running


ConnectPack = Callable[..., Any]


@pytest.fixture
def connect_pack(mode: str) -> ConnectPack:
    """`connect_pack(host, **settings)`: an MCP client on a host running only this pack, in `mode`."""

    @asynccontextmanager
    async def open_(host: str, **settings: Any) -> AsyncIterator[Any]:
        config = {"packs": {"strings_admin": {"host": host, **settings}}}
        async with connect({"strings_admin": parlance_strings_admin.pack}, config=config, mode=mode) as client:
            assert client.protocol_version == ERAS[mode]
            yield client

    return open_


# --- a tiny HTTP server that answers whatever the test tells it to ----------------------------------


@dataclass
class Canned:
    status: int = 200
    body: bytes = b"[]"
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    delay_s: float = 0.0
    """Wait this long before answering."""
    drip_s: float = 0.0
    """Send the body one byte at a time, this long apart (each read is quick; the whole is slow)."""


@dataclass
class Seen:
    method: str
    raw_path: str
    body: bytes
    client_port: int


class StatusServer:
    """A real HTTP/1.1 server on 127.0.0.1 that replies with `self.reply` and records every request.

    It exists because the emulator, being correct, cannot be made to answer 500, 418, a redirect, a
    malformed or oversized scopes list, or to stall: those replies come from here.
    """

    def __init__(self) -> None:
        self.reply = Canned()
        self.seen: list[Seen] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, so connection reuse is observable

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                owner.seen.append(Seen(self.command, self.path, body, self.client_address[1]))
                canned = owner.reply
                if canned.delay_s:
                    time.sleep(canned.delay_s)
                self.send_response(canned.status)
                for name, value in canned.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(canned.body)))
                self.end_headers()
                if not canned.drip_s:
                    self.wfile.write(canned.body)
                    return
                for index in range(len(canned.body)):
                    self.wfile.write(canned.body[index : index + 1])
                    self.wfile.flush()
                    time.sleep(canned.drip_s)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def status_server() -> Iterator[StatusServer]:
    server = StatusServer()
    yield server
    server.close()


@pytest.fixture
def make_status_server() -> Iterator[Callable[[], StatusServer]]:
    servers: list[StatusServer] = []

    def make() -> StatusServer:
        servers.append(StatusServer())
        return servers[-1]

    yield make
    for server in servers:
        server.close()


# --- a proxy that loses the first reply --------------------------------------------------------------


class ReplyDroppingProxy:
    """A TCP proxy on 127.0.0.1 in front of `upstream`.

    The first connection (when `drop_first`): read one full HTTP request, forward it, wait for the
    upstream's reply (so the request certainly took effect), then close the client's connection
    without relaying a byte. Every later connection is relayed both ways. The client sees
    "connection closed before a reply" although its request succeeded — the situation idempotent
    retries are for.
    """

    def __init__(self, upstream_port: int, *, port: int = 0, drop_first: bool = True) -> None:
        self._upstream = ("127.0.0.1", upstream_port)
        self._drop_first = drop_first
        self._listener = socket.create_server(("127.0.0.1", port))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self.connections = 0
        self.dropped_replies: list[bytes] = []
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            handler = self._drop_reply if self._drop_first and self.connections == 1 else self._relay
            threading.Thread(target=handler, args=(client,), daemon=True).start()

    def _drop_reply(self, client: socket.socket) -> None:
        with client, socket.create_connection(self._upstream) as upstream:
            upstream.sendall(_read_http_request(client))
            self.dropped_replies.append(upstream.recv(65536))

    def _relay(self, client: socket.socket) -> None:
        upstream = socket.create_connection(self._upstream)

        def pump(source: socket.socket, sink: socket.socket) -> None:
            try:
                while chunk := source.recv(65536):
                    sink.sendall(chunk)
            except OSError:
                pass
            finally:
                for sock in (source, sink):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        pump(client, upstream)

    def close(self) -> None:
        self._closed = True
        self._listener.close()


def _read_http_request(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
        0,
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


@pytest.fixture
def reply_dropping_proxy() -> Iterator[Callable[[int], ReplyDroppingProxy]]:
    proxies: list[ReplyDroppingProxy] = []

    def make(upstream_port: int, *, port: int = 0, drop_first: bool = True) -> ReplyDroppingProxy:
        proxies.append(ReplyDroppingProxy(upstream_port, port=port, drop_first=drop_first))
        return proxies[-1]

    yield make
    for proxy in proxies:
        proxy.close()


@pytest.fixture
def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def black_hole() -> Iterator[str]:
    """A loopback address that accepts TCP connections (kernel backlog) but never answers."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=16)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
