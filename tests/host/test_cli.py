"""The `parlance` command, run as a user runs it (a subprocess), with fake installed packs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.host.packs_for_tests import SOURCES
from tests.support import write_fake_dist

COMMAND_PACK = '''
    from parlance import hookimpl

    def configure(parser):
        parser.add_argument("--times", type=int, default=1)

    def run(args):
        print("waved " * args.times)
        return 0

    @hookimpl
    def parlance_register_commands(register):
        register("wave", help="Wave at the user.", configure=configure, run=run)
'''


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    write_fake_dist(site, "printer", SOURCES["printer"])
    write_fake_dist(site, "broken_import", SOURCES["broken_import"])
    write_fake_dist(site, "waver", COMMAND_PACK)
    (tmp_path / "parlance.toml").write_text(
        '[packs]\nenabled = ["printer", "broken_import", "waver"]\n\n[packs.printer]\nprefix = "p_"\n'
    )
    environment = {**os.environ, "PYTHONPATH": str(site), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    environment.pop("PARLANCE_CONFIG", None)
    return environment


def run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parlance", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)


def test_packs_json(env: dict[str, str], tmp_path: Path) -> None:
    proc = run(env, tmp_path, "packs", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {row["name"]: row for row in json.loads(proc.stdout)}
    assert set(rows["printer"]) == {"name", "distribution", "version", "state", "error", "tools"}
    assert rows["printer"]["state"] == "loaded" and rows["printer"]["tools"] == ["p_shout"]
    assert rows["broken_import"]["state"] == "failed" and "cannot be imported" in rows["broken_import"]["error"]
    assert rows["printer"]["distribution"] == "parlance-fake-printer"


def test_tools_json_and_call(env: dict[str, str], tmp_path: Path) -> None:
    tools = json.loads(run(env, tmp_path, "tools", "--json").stdout)
    assert [t["name"] for t in tools] == ["p_shout"]
    assert tools[0]["inputSchema"]["required"] == ["text"]
    ok = run(env, tmp_path, "call", "p_shout", "--args", '{"text": "hi"}')
    assert (ok.returncode, json.loads(ok.stdout)) == (0, {"text": "HI"})
    bad = run(env, tmp_path, "call", "p_shout", "--args", "{}", "--json")
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["structuredContent"]["code"] == "INVALID_ARGUMENTS"
    unknown = run(env, tmp_path, "call", "nope")
    assert unknown.returncode == 2 and "unknown tool 'nope'" in unknown.stderr and "p_shout" in unknown.stderr
    not_json = run(env, tmp_path, "call", "p_shout", "--args", "{text}")
    assert not_json.returncode == 2 and "--args is not valid JSON" in not_json.stderr


def test_config_check_and_show(env: dict[str, str], tmp_path: Path) -> None:
    check = run(env, tmp_path, "config", "check", "--json")
    report = json.loads(check.stdout)
    assert check.returncode == 2 and report["ok"] is False
    assert report["problems"][0]["pack"] == "broken_import"
    shown = json.loads(run(env, tmp_path, "config", "show", "--json").stdout)
    assert shown["source"].endswith("parlance.toml") and shown["packs"]["printer"] == {"prefix": "p_"}
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer"]\n')
    assert run(env, tmp_path, "config", "check").returncode == 0


@pytest.mark.parametrize(("client", "top"), [("claude", "mcpServers"), ("cursor", "mcpServers"), ("vscode", "servers")])
def test_client_config(env: dict[str, str], tmp_path: Path, client: str, top: str) -> None:
    proc = run(env, tmp_path, "client-config", client)
    snippet = json.loads(proc.stdout)
    entry = snippet[top]["parlance"]
    assert "serve" in entry["args"] and "--config" in entry["args"]
    assert entry["args"][entry["args"].index("--config") + 1] == str((tmp_path / "parlance.toml").resolve())
    assert os.path.isabs(entry["command"])
    assert (entry.get("type") == "stdio") == (client == "vscode")


def test_pack_commands_appear_and_run(env: dict[str, str], tmp_path: Path) -> None:
    helped = run(env, tmp_path, "--help")
    assert "wave" in helped.stdout and "from pack waver" in helped.stdout
    waved = run(env, tmp_path, "wave", "--times", "2")
    assert waved.returncode == 0 and waved.stdout.strip() == "waved waved"


def test_version_and_no_command(env: dict[str, str], tmp_path: Path) -> None:
    assert run(env, tmp_path, "--version").stdout.startswith("parlance ")
    assert run(env, tmp_path).returncode == 2
