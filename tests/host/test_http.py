"""`parlance serve --transport http`: a real server process on loopback, a real MCP client over HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from tests.host.packs_for_tests import SOURCES
from tests.support import ERAS, write_fake_dist


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("http")
    site = tmp / "site"
    site.mkdir()
    write_fake_dist(site, "printer", SOURCES["printer"])
    (tmp / "parlance.toml").write_text('[packs]\nenabled = ["printer"]\n')
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(site)}
    proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                             "--config", str(tmp / "parlance.toml")], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", list(ERAS))
async def test_tools_over_http(base_url: str, mode: str) -> None:
    with anyio.fail_after(20):
        async with Client(f"{base_url}/mcp", mode=mode) as client:
            assert client.protocol_version == ERAS[mode]
            assert [t.name for t in (await client.list_tools()).tools] == ["shout"]
            result = await client.call_tool("shout", {"text": "over http"})
    assert result.structured_content == {"text": "OVER HTTP"}


def test_foreign_host_header_is_refused(base_url: str) -> None:
    reply = httpx.post(f"{base_url}/mcp", headers={"Host": "evil.example", "Content-Type": "application/json",
                                                   "Accept": "application/json, text/event-stream"},
                       content=b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
    assert reply.status_code == 421
