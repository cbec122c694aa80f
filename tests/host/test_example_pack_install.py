"""The pip-install path, end to end: a fresh virtualenv, `pip install` of the host and the example
pack from examples/, then `parlance` finds the pack through its entry point and serves it over stdio.

Needs the package index for hatchling and the host's dependencies (marked `network`): skipped when it
is unreachable, unless CI is set, where it must run."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.support import run_uv

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.network,
              pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build the throwaway venv")]


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("venv") / ".venv"
    needs = "to install the host and the example pack"
    run_uv("venv", "-q", "--python", "3.11", str(where), cwd=where.parent, needs=needs, timeout=120)
    run_uv("pip", "install", "-q", "--python", str(where / "bin" / "python"), str(ROOT / "host"),
           str(ROOT / "examples" / "parlance-hello"), cwd=where.parent, needs=needs)
    return where


def test_installed_pack_is_listed(venv: Path) -> None:
    proc = subprocess.run([str(venv / "bin" / "parlance"), "packs", "--json"], capture_output=True, text=True,
                          timeout=60, cwd=venv.parent)
    rows = json.loads(proc.stdout)
    assert [(r["name"], r["distribution"], r["state"], r["tools"]) for r in rows] == [
        ("hello", "parlance-hello", "loaded", ["hello"])
    ]


@pytest.mark.anyio
async def test_installed_pack_serves_over_stdio(venv: Path) -> None:
    params = StdioServerParameters(command=str(venv / "bin" / "parlance"), args=["serve"], cwd=str(venv.parent))
    with anyio.fail_after(60):
        async with Client(params, mode="legacy") as client:
            ok = await client.call_tool("hello", {"name": "Ada"})
            blank = await client.call_tool("hello", {"name": " "})
            prompt = await client.get_prompt("introduce", {"name": "Ada"})
            greeted = await client.read_resource("hello://greeted")
    assert ok.structured_content == {"greeting": "hello Ada"}
    assert blank.structured_content == {"error": "name must not be blank", "code": "EMPTY_NAME",
                                        "data": {"field": "name"}}
    assert "Ada" in prompt.messages[0].content.text
    assert json.loads(greeted.contents[0].text) == {"greeted": ["Ada"]}
