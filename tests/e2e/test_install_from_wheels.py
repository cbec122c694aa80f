"""Parlance as users install it: every wheel built from this tree (sdist first, then the wheel from
the sdist, as a release does), installed into a fresh venv outside the workspace with dependencies
from the package index, then run from an unrelated folder with a user's environment (no
PARLANCE_* variables, an empty home, the venv's scripts first on PATH, nothing from this clone).

`pip install parlance-mcp` gives the host, the three packs and the shipped language packs; the
host wheel alone (`parlance-mcp-host`) gives a host with no packs that still serves.

Needs the package index for hatchling and the dependencies (marked `network`): skipped when it is
unreachable, unless CI is set, where it must run. uv's cache makes the second run fast.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.support import run_uv

ROOT = Path(__file__).resolve().parents[2]
BUNDLE, HOST = "parlance-mcp", "parlance-mcp-host"
PACKS = {"parlance-i18n": "i18n", "parlance-translation": "translation", "parlance-strings-admin": "strings_admin"}
LANGUAGE_PACKS = "parlance-language-packs"
DISTRIBUTIONS = {BUNDLE, HOST, LANGUAGE_PACKS, *PACKS}
TRANSLATE = ["call", "i18n_translate", "--args", '{"key":"cart.items","locale":"de-AT","variables":{"count":3}}']
CHECK_TONE = ["call", "check_tone", "--json", "--args",
              '{"text": "Strong nack. This will not scale.", "target_language": "ja"}']

pytestmark = [pytest.mark.network, pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv (see README)")]


def _uv(*args: str, cwd: Path, timeout: float = 600) -> None:
    run_uv(*args, cwd=cwd, timeout=timeout, needs="to build and install the wheels")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wheels")
    _uv("build", "--all-packages", "-q", "-o", str(out), cwd=ROOT)
    built = {_metadata(wheel, "Name")[0]: wheel for wheel in out.glob("*.whl")}
    assert set(built) == DISTRIBUTIONS, "a workspace member was added or renamed: update DISTRIBUTIONS"
    return built


def _dist_info(wheel: Path) -> str:
    return next(n.split("/")[0] for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/METADATA"))


def _metadata(wheel: Path, field: str) -> list[str]:
    text = zipfile.Path(wheel, _dist_info(wheel) + "/METADATA").read_text()
    return [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith(field + ": ")]


def _venv(where: Path, wheels: list[Path]) -> Path:
    # Not the workspace's interpreter by path: its base interpreter, so nothing of .venv leaks in.
    _uv("venv", "-q", "--python", sys.executable, str(where), cwd=where.parent, timeout=120)
    _uv("pip", "install", "-q", "--python", str(where / "bin" / "python"), *map(str, wheels), cwd=where.parent)
    return where


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory, wheels: dict[str, Path]) -> dict[str, Any]:
    """A venv with every wheel installed, and a user's environment to run it in."""
    base = tmp_path_factory.mktemp("user")
    venv = _venv(base / "venv", list(wheels.values()))
    return {"venv": venv, "env": _user_env(base, venv), "cwd": _folder(base / "elsewhere")}


def _folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _user_env(base: Path, venv: Path) -> dict[str, str]:
    home = _folder(base / "home")
    keep = {"LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    system_path = [p for p in os.environ.get("PATH", os.defpath).split(os.pathsep)
                   if p and not Path(p).resolve().is_relative_to(ROOT)]  # no .venv/bin of this clone
    return {**env, "HOME": str(home), "PATH": os.pathsep.join([str(venv / "bin"), *system_path])}


def _parlance(user: dict[str, Any], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(user["venv"] / "bin" / "parlance"), *args], cwd=user["cwd"], env=user["env"],
                          capture_output=True, text=True, timeout=timeout)


# --- what was built --------------------------------------------------------------------------------


def test_the_bundle_brings_every_other_distribution_and_the_command(wheels: dict[str, Path]) -> None:
    requires = {re.split(r"[<>=!~ ;\[]", r)[0] for r in _metadata(wheels[BUNDLE], "Requires-Dist")}
    assert requires == DISTRIBUTIONS - {BUNDLE}
    scripts = zipfile.Path(wheels[BUNDLE], _dist_info(wheels[BUNDLE]) + "/entry_points.txt").read_text()
    assert "parlance = parlance.cli:main" in scripts and "parlance-mcp = parlance.cli:main" in scripts  # uvx, pipx


@pytest.mark.parametrize("dist", sorted(PACKS))
def test_packs_depend_on_the_host_distribution_never_on_the_unrelated_parlance(wheels: dict[str, Path],
                                                                               dist: str) -> None:
    requires = {re.split(r"[<>=!~ ;\[]", r)[0] for r in _metadata(wheels[dist], "Requires-Dist")}
    assert HOST in requires and "parlance" not in requires


# --- the full install, from an unrelated folder ---------------------------------------------------------


def test_nothing_is_imported_from_the_clone(user: dict[str, Any]) -> None:
    code = ("import json, parlance, parlance_i18n, parlance_translation, parlance_strings_admin\n"
            "print(json.dumps([m.__file__ for m in (parlance, parlance_i18n, parlance_translation, "
            "parlance_strings_admin)]))")
    proc = subprocess.run([str(user["venv"] / "bin" / "python"), "-c", code], cwd=user["cwd"], env=user["env"],
                          capture_output=True, text=True, timeout=60, check=True)
    for file in json.loads(proc.stdout):
        assert Path(file).resolve().is_relative_to(user["venv"].resolve()), file
    listed = json.loads(_parlance(user, "language-packs", "--json").stdout)
    assert {(r["name"], r["state"]) for r in listed} == {("de", "loaded"), ("en", "loaded"), ("en-IE", "loaded"),
                                                         ("ja", "loaded")}
    assert all(Path(r["path"]).resolve().is_relative_to(user["venv"].resolve()) for r in listed)


def test_demo_covers_every_pack(user: dict[str, Any]) -> None:
    proc = _parlance(user, "demo", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    transcript = json.loads(proc.stdout)
    assert transcript["ok"] is True
    assert {step["pack"] for step in transcript["steps"]} == set(PACKS.values())


def _asking_for_sample_bundles(folder: Path) -> Path:
    """A working folder whose parlance.toml asks for the language packs' sample bundles (off by default:
    a project's locales are its own)."""
    (_folder(folder) / "parlance.toml").write_text("[packs.i18n]\nlanguage_pack_bundles = true\n", encoding="utf-8")
    return folder


def test_i18n_translate_answers_from_the_shipped_german_bundle(user: dict[str, Any], tmp_path: Path) -> None:
    proc = _parlance({**user, "cwd": _asking_for_sample_bundles(tmp_path / "asking")}, *TRANSLATE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == {"translation": "3 Artikel im Warenkorb", "locale": "de", "fallback": False}


def test_check_tone_uses_the_shipped_japanese_template(user: dict[str, Any]) -> None:
    proc = _parlance(user, *CHECK_TONE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    template = json.loads(proc.stdout)["_meta"]["parlance/translation"]["template"]
    assert template == {"tool": "check_tone", "pack": "ja", "language": "ja", "version": "0.1.0",
                        "path": "prompts/translation/check_tone.md"}


def test_a_drop_in_in_the_working_folder_wins_over_the_installed_pack(user: dict[str, Any], tmp_path: Path) -> None:
    pack = tmp_path / "language_packs" / "de"
    (pack / "messages").mkdir(parents=True)
    (pack / "pack.toml").write_text('name = "de"\nversion = "1.0.0"\nlanguages = ["de"]\n', encoding="utf-8")
    (pack / "messages" / "de.json").write_text('{"cart": {"items": "{count} Dinge"}}', encoding="utf-8")
    proc = _parlance({**user, "cwd": _asking_for_sample_bundles(tmp_path)}, *TRANSLATE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == {"translation": "3 Dinge", "locale": "de", "fallback": False}


def test_the_client_config_command_serves_every_pack_over_stdio(user: dict[str, Any], tmp_path: Path) -> None:
    proc = _parlance(user, "client-config", "claude")
    assert proc.returncode == 0, proc.stderr[-2000:]
    (entry,) = json.loads(proc.stdout)["mcpServers"].values()
    assert Path(entry["command"]).resolve().is_relative_to(user["venv"].resolve())  # this install, by absolute path
    # As Claude Desktop starts it: its own working folder, a bare environment.
    bare = {"PATH": os.defpath, "HOME": user["env"]["HOME"]}
    tools = _list_tools([entry["command"], *entry["args"]], cwd=_folder(tmp_path / "client"), env=bare)
    assert {"i18n_translate", "check_tone", "duda_strings_admin_get_all_scopes"} <= tools


# --- the host alone ------------------------------------------------------------------------------------


def test_the_host_wheel_alone_has_no_packs_and_still_serves(tmp_path_factory: pytest.TempPathFactory,
                                                            wheels: dict[str, Path]) -> None:
    base = tmp_path_factory.mktemp("host-only")
    venv = _venv(base / "venv", [wheels[HOST]])
    alone = {"venv": venv, "env": _user_env(base, venv), "cwd": _folder(base / "elsewhere")}
    packs = _parlance(alone, "packs", "--json")
    assert (packs.returncode, json.loads(packs.stdout)) == (0, [])
    assert json.loads(_parlance(alone, "language-packs", "--json").stdout) == []
    assert _list_tools([str(venv / "bin" / "parlance"), "serve"], cwd=alone["cwd"], env=alone["env"]) == set()


# --- a raw MCP client: one JSON-RPC message per line ------------------------------------------------------


def _list_tools(command: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 60) -> set[str]:
    """Start `command`, initialize, list tools, close stdin; the tool names. The server must exit cleanly."""
    server = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, encoding="utf-8")
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    stdin, stdout, stderr = server.stdin, server.stdout, server.stderr
    lines: queue.Queue[str] = queue.Queue()

    def read_stdout() -> None:  # a thread, so that waiting for a line can time out
        for line in stdout:
            lines.put(line)

    threading.Thread(target=read_stdout, daemon=True).start()

    def send(message: dict[str, Any]) -> None:
        stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        stdin.flush()

    def answer(id_: int) -> dict[str, Any]:
        while True:  # skipping notifications the server may send first
            try:
                message = json.loads(lines.get(timeout=timeout))
            except queue.Empty:
                server.kill()
                raise AssertionError(f"no answer to request {id_}; stderr: {stderr.read()[-2000:]}") from None
            if message.get("id") == id_:
                assert "result" in message, message
                return message["result"]

    try:
        send({"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
        assert answer(1)["serverInfo"]["name"] == "parlance"
        send({"method": "notifications/initialized"})
        send({"id": 2, "method": "tools/list"})
        names = {tool["name"] for tool in answer(2)["tools"]}
        stdin.close()
        assert server.wait(timeout=30) == 0, stderr.read()[-2000:]
        return names
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
