"""`parlance client-config`: printing, and merging into a client's file with --write / --dry-run.

Every test points the command at files under tmp_path (`--path`, or HOME / XDG_CONFIG_HOME /
the working folder for the default locations), so no real client configuration is touched.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from parlance._cli.client_config import default_path, merge
from parlance.errors import ConfigError

ENTRY = {"command": "/opt/parlance/bin/parlance", "args": ["serve"]}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    environment = {k: v for k, v in os.environ.items() if k not in {"PARLANCE_CONFIG", "PYTHONPATH", "APPDATA"}}
    environment.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    # A config with no packs, so `parlance serve` below starts fast.
    (tmp_path / "parlance.toml").write_text("[packs]\nautoload = false\n")
    return environment


def run(env: dict[str, str], cwd: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parlance", "client-config", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


def servers(path: Path, top: str = "mcpServers") -> dict[str, dict]:
    return json.loads(path.read_text())[top]


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.*.bak"))


def test_write_merges_and_keeps_everything_else(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "claude_desktop_config.json"
    original = {
        "globalShortcut": "Ctrl+Space",
        "mcpServers": {
            "other": {"command": "other-server", "args": ["--flag"]},
            "parlance": {"command": "/old/parlance", "args": ["serve"], "env": {"TOKEN": "x"}},
        },
        "zzz": [1, 2],
    }
    old_text = json.dumps(original, indent=4) + "\n"
    target.write_text(old_text)
    target.chmod(0o600)

    proc = run(env, tmp_path, "claude", "--write", "--path", str(target))
    assert proc.returncode == 0, proc.stderr
    assert "updated server 'parlance'" in proc.stdout
    written = json.loads(target.read_text())
    assert list(written) == ["globalShortcut", "mcpServers", "zzz"]
    assert written["globalShortcut"] == "Ctrl+Space" and written["zzz"] == [1, 2]
    assert list(written["mcpServers"]) == ["other", "parlance"]
    assert written["mcpServers"]["other"] == original["mcpServers"]["other"]
    entry = written["mcpServers"]["parlance"]
    assert entry["env"] == {"TOKEN": "x"}  # keys Parlance does not set stay
    assert os.path.isabs(entry["command"]) and entry["command"] != "/old/parlance"
    assert entry["args"] == ["serve", "--config", str((tmp_path / "parlance.toml").resolve())]
    assert target.read_text().startswith('{\n    "globalShortcut"')  # the file's indentation is kept
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # and its permissions

    [backup] = backups(target)
    assert backup.read_text() == old_text and str(backup) in proc.stdout
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []

    again = run(env, tmp_path, "claude", "--write", "--path", str(target))
    assert again.returncode == 0 and "nothing to change" in again.stdout
    assert len(backups(target)) == 1


def test_dry_run_prints_a_diff_and_writes_nothing(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    target.write_text('{"mcpServers": {"other": {"command": "x"}}}\n')
    proc = run(env, tmp_path, "cursor", "--dry-run", "--path", str(target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"--- {target}\n+++ {target}\n@@")
    assert '+    "parlance": {' in proc.stdout and '-{"mcpServers": {"other": {"command": "x"}}}' in proc.stdout
    assert "nothing written" in proc.stderr
    assert target.read_text() == '{"mcpServers": {"other": {"command": "x"}}}\n' and backups(target) == []

    missing = tmp_path / "new" / "mcp.json"
    created = run(env, tmp_path, "cursor", "--dry-run", "--write", "--path", str(missing))
    assert created.stdout.startswith(f"--- /dev/null\n+++ {missing}\n") and not missing.exists()


def test_write_creates_the_file_and_its_folder(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "project" / ".vscode" / "mcp.json"
    proc = run(env, tmp_path, "vscode", "--write", "--path", str(target), "--name", "l10n")
    assert proc.returncode == 0, proc.stderr
    assert "added server 'l10n'" in proc.stdout and "backup" not in proc.stdout
    entry = servers(target, "servers")["l10n"]
    assert entry["type"] == "stdio" and os.path.isabs(entry["command"])
    assert backups(target) == []


def test_file_that_is_not_plain_json_is_left_alone(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    text = '{\n  // my servers\n  "servers": {},\n}\n'
    target.write_text(text)
    proc = run(env, tmp_path, "vscode", "--write", "--path", str(target))
    assert proc.returncode == 2
    assert "not plain JSON (line 2" in proc.stderr and "by hand" in proc.stderr
    assert target.read_text() == text and backups(target) == []

    target.write_text('{"mcpServers": ["not", "an", "object"]}')
    wrong = run(env, tmp_path, "cursor", "--write", "--path", str(target))
    assert wrong.returncode == 2 and "expected a JSON object" in wrong.stderr


def test_symlinked_file_is_updated_where_it_lives(env: dict[str, str], tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "mcp.json"
    link.symlink_to(real)
    assert run(env, tmp_path, "cursor", "--write", "--path", str(link)).returncode == 0
    assert link.is_symlink() and "parlance" in servers(real)


def test_default_locations(env: dict[str, str], tmp_path: Path) -> None:
    home = Path(env["HOME"])
    work = tmp_path / "work"
    work.mkdir()
    if sys.platform.startswith("linux"):
        assert run(env, work, "claude", "--write").returncode == 0
        assert "parlance" in servers(home / ".config" / "Claude" / "claude_desktop_config.json")
    assert run(env, work, "cursor", "--write").returncode == 0
    assert "parlance" in servers(home / ".cursor" / "mcp.json")
    assert run(env, work, "cursor", "--write", "--project").returncode == 0
    assert "parlance" in servers(work / ".cursor" / "mcp.json")
    assert run(env, work, "vscode", "--write").returncode == 0
    assert "parlance" in servers(work / ".vscode" / "mcp.json", "servers")
    refused = run(env, work, "claude", "--write", "--project")
    assert refused.returncode == 2 and "no per-project configuration" in refused.stderr


def test_default_path_per_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path("claude", platform="darwin") == \
        tmp_path / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    assert default_path("claude", platform="win32", environ={"APPDATA": str(tmp_path / "Roaming")}) == \
        tmp_path / "Roaming" / "Claude" / "claude_desktop_config.json"
    assert default_path("claude", platform="linux", environ={}) == \
        tmp_path / ".config" / "Claude" / "claude_desktop_config.json"


def test_merge_is_none_when_already_there() -> None:
    text = json.dumps({"mcpServers": {"parlance": {**ENTRY, "env": {"A": "1"}}}})
    assert merge(text, "claude", "parlance", ENTRY) is None
    assert merge("", "claude", "parlance", ENTRY) == json.dumps({"mcpServers": {"parlance": ENTRY}}, indent=2) + "\n"
    with pytest.raises(ConfigError, match="not plain JSON"):
        merge("{,}", "claude", "parlance", ENTRY)


def test_written_command_serves_from_any_folder(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    assert run(env, tmp_path, "cursor", "--write", "--path", str(target)).returncode == 0
    entry = servers(target)["parlance"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    # As a client starts it: its own folder, no PYTHONPATH, the JSON-RPC line on stdin, then EOF.
    proc = subprocess.run([entry["command"], *entry["args"]], input=json.dumps(initialize) + "\n", capture_output=True,
                          text=True, cwd=elsewhere, env={k: v for k, v in env.items() if k != "VIRTUAL_ENV"},
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    reply = json.loads(proc.stdout.splitlines()[0])
    assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"]


# --- what a rewrite would drop: refused, or carried over --------------------------------------------


def test_repeated_keys_are_refused_and_nothing_is_written(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    text = '{"mcpServers": {"a": {"command": "a"}}, "mcpServers": {"b": {"command": "b"}}}\n'
    target.write_text(text)
    proc = run(env, tmp_path, "cursor", "--write", "--path", str(target))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{target}: the key 'mcpServers' appears twice" in proc.stderr and "by hand" in proc.stderr
    assert target.read_text() == text and backups(target) == []

    nested = json.dumps({"mcpServers": {"other": {}}}).replace("{}", '{"command": "x", "command": "y"}')
    with pytest.raises(ConfigError, match="the key 'command' appears twice"):
        merge(nested, "claude", "parlance", ENTRY)


def test_a_file_that_is_not_utf8_is_an_error_naming_the_fix(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "claude_desktop_config.json"
    data = json.dumps({"mcpServers": {"other": {"command": "x"}}}).encode("utf-16")  # as Notepad saves "Unicode"
    target.write_bytes(data)
    proc = run(env, tmp_path, "claude", "--write", "--path", str(target))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{target}: not UTF-8 text (it looks like UTF-16" in proc.stderr and "save it as UTF-8" in proc.stderr
    assert target.read_bytes() == data and backups(target) == []


def test_an_unreadable_file_is_an_error_naming_the_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from parlance._cli import client_config

    target = tmp_path / "mcp.json"
    target.write_text("{}")

    def denied(path: Path, **_: object) -> bytes:  # as chmod 000 does for anyone but root
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(client_config, "read_user_file", denied)
    with pytest.raises(ConfigError, match=r"mcp\.json: cannot read it: Permission denied \(make it readable"):
        client_config.run("cursor", name="parlance", config_path=None, write=True, path=str(target))
    assert capsys.readouterr().out == ""


def _deep_json(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text('{"mcpServers": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    return path


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.json"
    os.mkfifo(path)  # nobody ever writes to it: reading it would wait forever
    return path


def _link_to_dev_zero(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.json"
    path.symlink_to("/dev/zero")  # reading it whole would read until memory runs out
    return path


def _oversize(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {}, "padding": "x" * (4 * 1024 * 1024)}))
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize(("make", "says"), [
    (_deep_json, "JSON this parser cannot hold (nested too deeply"),
    (_fifo, "cannot read it: a named pipe (FIFO), not a regular file"),
    (_link_to_dev_zero, "/dev/zero: cannot read it: a character device, not a regular file"),
    (_oversize, "cannot read it: larger than the 4 MiB read for a file like this"),
], ids=["deep-json", "fifo", "link-to-dev-zero", "oversize"])
@pytest.mark.parametrize("mode", ["--write", "--dry-run"])
def test_a_file_no_client_config_looks_like_is_refused_at_once(env: dict[str, str], tmp_path: Path, make: Any,
                                                               says: str, mode: str) -> None:
    """Issue 22: a RecursionError traceback, a hang and memory read away before; now exit 2 and a sentence."""
    target = make(tmp_path)
    before = os.lstat(target)
    started = time.monotonic()
    proc = run(env, tmp_path, "claude", mode, "--path", str(target), timeout=10)
    took = time.monotonic() - started
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert says in proc.stderr and proc.stdout == ""
    assert took < 5, f"answered after {took:.1f} s"
    assert os.lstat(target).st_mtime_ns == before.st_mtime_ns and backups(target) == []  # nothing written


def test_a_byte_order_mark_is_accepted_and_kept(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    target.write_bytes(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"other": {"command": "x"}}}, indent=2).encode())
    proc = run(env, tmp_path, "cursor", "--write", "--path", str(target))
    assert proc.returncode == 0, proc.stderr
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf{\n  ") and data.count(b"\xef\xbb\xbf") == 1
    assert list(json.loads(data.decode("utf-8-sig"))["mcpServers"]) == ["other", "parlance"]
    assert run(env, tmp_path, "cursor", "--write", "--path", str(target)).stdout.endswith("nothing to change\n")


def test_an_http_entry_becomes_a_stdio_entry(env: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "mcp.json"
    old = {"type": "http", "url": "http://127.0.0.1:8000/mcp", "headers": {"Authorization": "Bearer t"},
           "env": {"A": "1"}, "disabled": False, "autoApprove": ["i18n_translate"]}
    target.write_text(json.dumps({"mcpServers": {"parlance": old}}, indent=2))

    dry = run(env, tmp_path, "cursor", "--dry-run", "--path", str(target))
    assert dry.returncode == 0, dry.stderr
    assert "server 'parlance' was a 'http' entry; it becomes a stdio entry" in dry.stderr
    assert "dropping headers, type, url" in dry.stderr
    assert '-      "url": "http://127.0.0.1:8000/mcp",' in dry.stdout and '+      "command": ' in dry.stdout

    proc = run(env, tmp_path, "cursor", "--write", "--path", str(target))
    assert proc.returncode == 0 and "was a 'http' entry" in proc.stderr
    entry = servers(target)["parlance"]
    assert sorted(entry) == ["args", "autoApprove", "command", "disabled", "env"]
    assert (entry["env"], entry["disabled"], entry["autoApprove"]) == ({"A": "1"}, False, ["i18n_translate"])


@pytest.mark.parametrize("old", [
    {"url": "https://example.com/mcp", "env": {"A": "1"}},
    {"type": "sse", "url": "https://example.com/sse", "env": {"A": "1"}},
    {"serverUrl": "https://example.com/mcp", "env": {"A": "1"}},
])
def test_merge_drops_the_transport_keys_of_another_transport(old: dict) -> None:
    text = merge(json.dumps({"servers": {"parlance": old}}), "vscode", "parlance", {"type": "stdio", **ENTRY})
    assert text is not None
    assert json.loads(text)["servers"]["parlance"] == {"env": {"A": "1"}, "type": "stdio", **ENTRY}
    stdio = {"command": "/old", "args": [], "cwd": "/w", "env": {"A": "1"}}  # a stdio entry keeps every other key
    assert json.loads(merge(json.dumps({"mcpServers": {"parlance": stdio}}), "claude", "parlance", ENTRY) or "")[
        "mcpServers"]["parlance"] == {**stdio, **ENTRY}
