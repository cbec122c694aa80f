"""Terminal manners: text logs and a greeting for a person at a terminal, JSON and silence for programs.

Each test runs `parlance` as a subprocess with stderr (and for `serve`, stdin) on a pseudo-terminal.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.host.packs_for_tests import SOURCES
from tests.support import write_fake_dist

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    write_fake_dist(site, "printer", SOURCES["printer"])
    write_fake_dist(site, "broken_import", SOURCES["broken_import"])  # its skip is logged as a warning
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "broken_import"]\n'
                                            '[language_packs]\nautoload = false\n')
    environment = {**os.environ, "PYTHONPATH": str(site), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    environment.pop("PARLANCE_CONFIG", None)
    return environment


def _read_until(fd: int, done: object, timeout: float = 30) -> str:
    """What the terminal shows until `done(text)` is true, the other end closes, or time runs out."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not done(seen.decode(errors="replace")):  # type: ignore[operator]
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: every process holding the terminal has exited
                break
            if not chunk:
                break
            seen += chunk
    return seen.decode(errors="replace").replace("\r\n", "\n")


def _on_terminal(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, str, str]:
    """Run a one-shot command with stderr on a terminal: (exit code, stdout, what the terminal shows)."""
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "parlance", *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=terminal, env=env, cwd=cwd)
        os.close(terminal)
        shown = _read_until(controller, lambda text: False if proc.poll() is None else True)
        stdout = proc.communicate(timeout=30)[0].decode()
        shown += _read_until(controller, lambda text: False, timeout=0.5)
        return proc.returncode, stdout, shown
    finally:
        os.close(controller)


def _json_lines(text: str) -> list[dict[str, object]]:
    found = []
    for line in text.splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found


def test_one_shot_commands_log_text_to_a_terminal(env: dict[str, str], tmp_path: Path) -> None:
    code, stdout, shown = _on_terminal(env, tmp_path, "tools")
    assert code == 0 and "shout" in stdout
    assert "pack.skipped" in shown and "broken_import" in shown  # the warning is there...
    assert _json_lines(shown) == []  # ...as text, not JSON
    assert any(line.startswith("warning") and "pack.skipped" in line for line in shown.splitlines())


def test_an_explicit_format_wins_over_the_terminal(env: dict[str, str], tmp_path: Path) -> None:
    _, _, shown = _on_terminal(env, tmp_path, "tools", "--log-format", "json")
    assert [line["event"] for line in _json_lines(shown)] == ["pack.skipped"]
    (tmp_path / "parlance.toml").write_text('[host]\nlog_format = "json"\n[packs]\nenabled = ["printer", '
                                            '"broken_import"]\n[language_packs]\nautoload = false\n')
    _, _, shown = _on_terminal(env, tmp_path, "tools")
    assert [line["event"] for line in _json_lines(shown)] == ["pack.skipped"]


def test_logs_to_a_pipe_stay_json(env: dict[str, str], tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "parlance", "tools"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60, stdin=subprocess.DEVNULL)
    assert [line["event"] for line in _json_lines(proc.stderr)] == ["pack.skipped"]


@pytest.fixture
def serving_on_a_terminal(env: dict[str, str], tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`parlance serve` started by hand: stdin and stderr on a terminal, stdout (the wire) a pipe."""
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve"], stdin=terminal, stdout=subprocess.PIPE,
                            stderr=terminal, env=env, cwd=tmp_path)
    os.close(terminal)
    try:
        yield proc, controller
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(controller)


def test_serve_in_a_terminal_says_what_it_serves_and_how_to_connect(serving_on_a_terminal) -> None:
    proc, controller = serving_on_a_terminal
    shown = _read_until(controller, lambda text: "Ctrl-C stops" in text)
    greeting = [line for line in shown.splitlines() if line.startswith("Parlance is serving")]
    assert greeting == ["Parlance is serving MCP on stdin/stdout (1 tool from pack printer); connect a client "
                        "with `parlance client-config claude` (or cursor, vscode); Ctrl-C stops"]
    assert _json_lines(shown) == []  # the skipped pack's warning is text too
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
    assert proc.wait(timeout=30) in (0, 130)  # 130 when it lands before the server has its handler
    assert "Traceback" not in _read_until(controller, lambda text: False, timeout=0.5)
    assert proc.stdout is not None and proc.stdout.read() == b""  # nothing but JSON-RPC ever goes to stdout


def test_serve_for_a_client_prints_no_greeting(env: dict[str, str], tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "parlance", "serve"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60, input="")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "Parlance is serving" not in proc.stderr
    assert all(line.startswith("{") for line in proc.stderr.splitlines() if line and "printed" not in line)
