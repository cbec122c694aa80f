"""`parlance serve` stops on time even while a call is stuck in a worker thread (issue 22, item 2).

A long catalog read runs in a worker thread, which Python cannot kill and the server cannot cancel:
before the stop deadline, SIGTERM (twice) and the end of stdin left the process running until the
read ended, if ever. Here the `spinner` pack keeps a worker thread busy in pure Python for a minute
while a real server process, over raw stdio and over HTTP, is told to stop.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from parlance._transport.stop_deadline import WAY_OUT_S
from tests.host.packs_for_tests import SOURCES
from tests.support import exit_status_within, forced_exit_logged, free_port, wait_listening, write_fake_dist

GRACE_S = 1.0
SLACK_S = 1.5  # the process's own way out once the deadline fires, on a loaded CI machine
DEADLINE_S = GRACE_S + WAY_OUT_S
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}
SPIN = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "spin", "arguments": {"seconds": 60}}}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    write_fake_dist(site, "spinner", SOURCES["spinner"])
    path = tmp_path / "parlance.toml"
    path.write_text(f'[host]\nshutdown_grace_s = {GRACE_S}\n[packs]\nenabled = ["spinner"]\n')
    return path


def _popen(config: Path, *args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(config.parent / "site")}
    env.pop("PARLANCE_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--config", str(config), *args],
                            env=env, cwd=config.parent, **kwargs)  # type: ignore[call-overload]


def _wait_for_the_spin(log: Path, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while b"spin started" not in log.read_bytes():
        assert proc.poll() is None and time.monotonic() < deadline, "the call never started"
        time.sleep(0.02)


def _exit_after(proc: subprocess.Popen[bytes], since: float) -> tuple[int, float]:
    """(status, seconds since `since`) once `proc` exits; fails if it outlives the deadline by far."""
    return exit_status_within(proc, since, DEADLINE_S + SLACK_S + 5)


@pytest.fixture
def spinning_stdio(config: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """`parlance serve` over pipes, initialized, with a call spinning in a worker thread."""
    log = config.parent / "stderr.log"
    with log.open("wb") as stderr:
        proc = _popen(config, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in (INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, SPIN):
            proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        _wait_for_the_spin(log, proc)
        yield proc, log
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stdio_a_stop_signal_ends_the_process_at_the_deadline(spinning_stdio: tuple[subprocess.Popen[bytes], Path],
                                                              signum: signal.Signals) -> None:
    proc, log = spinning_stdio
    signalled = time.monotonic()
    proc.send_signal(signum)
    status, took = _exit_after(proc, signalled)
    assert status == 128 + signum  # as a shell reports a process that signal ended
    assert GRACE_S <= took < DEADLINE_S + SLACK_S, f"exited {took:.2f} s after the signal"
    forced_exit_logged(log, signum.name, 128 + signum)


def test_stdio_a_second_signal_ends_the_process_at_once(spinning_stdio: tuple[subprocess.Popen[bytes], Path]) -> None:
    proc, log = spinning_stdio
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    again = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    status, took = _exit_after(proc, again)
    assert status == 128 + signal.SIGTERM
    assert took < 1.0, f"exited {took:.2f} s after the second signal"
    forced_exit_logged(log, "second SIGTERM", 143)


def test_stdio_the_end_of_input_ends_the_process_at_the_deadline(
        spinning_stdio: tuple[subprocess.Popen[bytes], Path]) -> None:
    proc, log = spinning_stdio
    assert proc.stdin is not None
    proc.stdin.close()
    closed = time.monotonic()
    status, took = _exit_after(proc, closed)
    assert status == 1  # a call was left unanswered
    assert GRACE_S <= took < DEADLINE_S + SLACK_S, f"exited {took:.2f} s after stdin closed"
    forced_exit_logged(log, "end of input", 1)


@pytest.fixture
def spinning_http(config: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """`parlance serve --transport http` with a call spinning in a worker thread."""
    log = config.parent / "stderr.log"
    port = free_port()
    with log.open("wb") as stderr:
        proc = _popen(config, "--transport", "http", "--port", str(port), stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_listening(port, proc)
        url = f"http://127.0.0.1:{port}/mcp"
        accept = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        client = httpx.Client(timeout=DEADLINE_S + SLACK_S + 10)
        session = client.post(url, headers=accept, json=INITIALIZE).headers["mcp-session-id"]
        headers = {**accept, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
        client.post(url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})

        def call() -> None:
            try:
                client.post(url, headers=headers, json=SPIN)
            except httpx.HTTPError:  # the server went away mid-call: expected here
                pass

        caller = threading.Thread(target=call, daemon=True)
        caller.start()
        _wait_for_the_spin(log, proc)
        yield proc, log
        caller.join(5)
        client.close()
    finally:
        proc.kill()
        proc.wait()


def test_http_sigterm_ends_the_process_at_the_deadline(spinning_http: tuple[subprocess.Popen[bytes], Path]) -> None:
    proc, log = spinning_http
    signalled = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    status, took = _exit_after(proc, signalled)
    assert status == 143
    assert GRACE_S <= took < DEADLINE_S + SLACK_S, f"exited {took:.2f} s after the signal"
    forced_exit_logged(log, "SIGTERM", 143)


def test_http_a_second_signal_ends_the_process_at_once(spinning_http: tuple[subprocess.Popen[bytes], Path]) -> None:
    proc, log = spinning_http
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    again = time.monotonic()
    proc.send_signal(signal.SIGINT)
    status, took = _exit_after(proc, again)
    assert status == 130
    assert took < 1.0, f"exited {took:.2f} s after the second signal"
    forced_exit_logged(log, "second SIGINT", 130)
