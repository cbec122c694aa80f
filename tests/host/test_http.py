"""`parlance serve --transport http`: a real server process on loopback, a real MCP client over HTTP."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from tests.host.packs_for_tests import SOURCES
from tests.support import ERAS, free_port, parlance_http, write_fake_dist


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("http")
    site = tmp / "site"
    site.mkdir()
    write_fake_dist(site, "printer", SOURCES["printer"])
    (tmp / "parlance.toml").write_text('[packs]\nenabled = ["printer"]\n')
    with parlance_http(tmp / "parlance.toml", env={"PYTHONPATH": str(site)}) as url:
        yield url


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


def test_a_non_loopback_bind_needs_allowed_hosts(tmp_path: Path) -> None:
    (tmp_path / "parlance.toml").write_text("[packs]\nenabled = []\n")
    proc = subprocess.run([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--host", "0.0.0.0",
                           "--port", str(free_port()), "--config", str(tmp_path / "parlance.toml")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "[host.allowed_hosts]" in proc.stderr and "127.0.0.1" in proc.stderr


def test_allowed_hosts_are_enforced(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "parlance.toml").write_text(
        f'[host]\nallowed_hosts = ["127.0.0.1:{port}"]\nallowed_origins = ["http://127.0.0.1:{port}"]\n'
        "[auth]\ndisabled_on_purpose = true\n"  # a non-loopback bind needs auth or this (test_auth_http.py)
        "[packs]\nenabled = []\n")
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    body = (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
            b'"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}')
    with parlance_http(tmp_path / "parlance.toml", port=port, args=("--host", "0.0.0.0")) as url:
        ok = httpx.post(f"{url}/mcp", headers=headers, content=body)
        evil = httpx.post(f"{url}/mcp", headers={**headers, "Host": "evil.example"}, content=body)
        bad_origin = httpx.post(f"{url}/mcp", headers={**headers, "Origin": "http://evil.example"}, content=body)
    assert ok.status_code == 200
    assert evil.status_code == 421
    assert bad_origin.status_code == 403
