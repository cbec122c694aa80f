"""Where no session exists (2026-07-28 over HTTP, `parlance call`), adding a bundle is refused
instead of succeeding and being forgotten before the next call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.support import parlance_http

BUNDLE = {"locale": "de", "messages": {"hi": "Hallo {name}"}}


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("i18n-http")
    (tmp / "parlance.toml").write_text('[packs]\nenabled = ["i18n"]\n[language_packs]\npaths = []\nautoload = false\n')
    with parlance_http(tmp / "parlance.toml") as url:
        yield f"{url}/mcp"


@pytest.mark.anyio
async def test_a_2025_http_session_keeps_its_bundles(http_url: str) -> None:
    with anyio.fail_after(20):
        async with Client(http_url, mode="legacy") as client:
            added = await client.call_tool("i18n_add_messages", BUNDLE)
            said = await client.call_tool("i18n_translate", {"key": "hi", "locale": "de", "variables": {"name": "Ana"}})
    assert added.is_error is False
    assert said.structured_content["translation"] == "Hallo Ana"


@pytest.mark.anyio
async def test_2026_over_http_refuses_to_add_a_bundle_it_would_forget(http_url: str) -> None:
    with anyio.fail_after(20):
        async with Client(http_url, mode="auto") as client:
            refused = await client.call_tool("i18n_add_messages", BUNDLE)
            invalid = await client.call_tool("i18n_add_messages", {"locale": "../x", "messages": {}})
    assert refused.structured_content["code"] == "SESSION_STATE_UNAVAILABLE"
    assert "bundle_dirs" in refused.content[0].text
    assert invalid.structured_content["code"] == "INVALID_LOCALE"  # bad input is still named first


@pytest.mark.anyio
async def test_2026_over_http_refuses_before_compiling_anything(http_url: str) -> None:
    # A message that does not compile would be INVALID_MESSAGES if the bundle were compiled first;
    # without a session the call cannot succeed, so it is refused before any message is read.
    broken = {"locale": "de", "messages": {"broken": "{v", "fine": "Hallo {name}"}}
    with anyio.fail_after(20):
        async with Client(http_url, mode="auto") as client:
            refused = await client.call_tool("i18n_add_messages", broken)
    assert refused.structured_content["code"] == "SESSION_STATE_UNAVAILABLE"
    assert refused.structured_content["data"] == {"locale": "de"}


def test_parlance_call_refuses_too(tmp_path: Path) -> None:
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["i18n"]\n[language_packs]\npaths = []\n')
    env = {k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}
    proc = subprocess.run([sys.executable, "-m", "parlance", "call", "i18n_add_messages", "--json", "--args",
                           json.dumps(BUNDLE), "--config", str(tmp_path / "parlance.toml")], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["structuredContent"]["code"] == "SESSION_STATE_UNAVAILABLE"

