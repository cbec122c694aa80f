"""`parlance serve` as a real subprocess, driven by the SDK's client and by raw JSON-RPC lines."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance._transport.stdio_pipes import MAX_MESSAGE_BYTES
from parlance.testing import stdio_server_params
from tests.host.packs_for_tests import SOURCES
from tests.support import ERAS, write_fake_dist

pytestmark = pytest.mark.anyio


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """Fake installed packs (a pack that prints, one that cannot be imported) and a config enabling them."""
    root = tmp_path / "site"
    root.mkdir()
    write_fake_dist(root, "printer", SOURCES["printer"])
    write_fake_dist(root, "broken_import", SOURCES["broken_import"])
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "broken_import"]\n')
    return root


def _params(tmp_path: Path, site: Path, **env: str) -> Any:
    return stdio_server_params(tmp_path / "parlance.toml", env={"PYTHONPATH": str(site), **env})


@pytest.mark.parametrize("mode", list(ERAS))
async def test_stdio_end_to_end_keeps_stdout_clean(mode: str, tmp_path: Path, site: Path) -> None:
    transport_errors: list[Exception] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):  # e.g. a non-JSON line on the server's stdout
            transport_errors.append(message)

    errlog_path = tmp_path / "stderr.log"
    with anyio.fail_after(30), open(errlog_path, "w+") as errlog:
        async with Client(stdio_client(_params(tmp_path, site), errlog=errlog), mode=mode,
                          message_handler=on_message) as client:
            assert client.protocol_version == ERAS[mode]
            assert [t.name for t in (await client.list_tools()).tools] == ["shout"]
            result = await client.call_tool("shout", {"text": "quiet words"})
            assert result.structured_content == {"text": "QUIET WORDS"}
            bad = await client.call_tool("shout", {})
            assert bad.structured_content["code"] == "INVALID_ARGUMENTS"
    assert transport_errors == []
    log = errlog_path.read_text()
    assert "printed at import time" in log and "printed by a tool" in log  # prints went to stderr
    assert "written to fd 1" in log  # so did a write below Python's sys.stdout
    calls = [json.loads(line) for line in log.splitlines() if '"tool.call"' in line]
    assert [(c["tool"], c["pack"], c["status"], c["error"]) for c in calls] == [
        ("shout", "printer", "ok", None),
        ("shout", "printer", "error", "INVALID_ARGUMENTS"),
    ]
    assert all(isinstance(c["latency_ms"], float) and c["timestamp"] and c["level"] == "info" for c in calls)
    assert "quiet words" not in log and "QUIET WORDS" not in log  # arguments and results are never logged
    skipped = [json.loads(line) for line in log.splitlines() if '"pack.skipped"' in line]
    assert [(s["pack"], s["state"]) for s in skipped] == [("broken_import", "failed")]


def _serve_command(tmp_path: Path) -> list[str]:
    return [sys.executable, "-m", "parlance", "serve", "--config", str(tmp_path / "parlance.toml")]


def _serve_env(site: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PARLANCE_CONFIG", None)
    return env


def _line_within(stream: Any, seconds: float) -> bytes:
    """The next line of `stream`, failing (not hanging) when no line arrives in time.

    Read on a helper thread: select() on the pipe would miss lines already in the reader's buffer.
    """
    import queue
    import threading

    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"no line within {seconds} s: a request went unanswered") from None


def _raw_session(tmp_path: Path, site: Path, lines: list[str | bytes], expect: int) -> list[dict[str, Any]]:
    """Write lines to `parlance serve` over pipes, read `expect` replies, then close stdin and check
    that the server exits cleanly with nothing more on stdout."""
    proc = subprocess.Popen(_serve_command(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_serve_env(site))
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for line in lines:
            proc.stdin.write((line.encode() if isinstance(line, str) else line) + b"\n")
        proc.stdin.flush()
        replies = [json.loads(_line_within(proc.stdout, 20)) for _ in range(expect)]  # every line must be JSON
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0
        assert proc.stdout.read() == b""  # nothing else reached stdout, even at exit
    finally:
        proc.kill()
    return replies


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_malformed_lines_get_errors_and_the_session_continues(tmp_path: Path, site: Path) -> None:
    replies = _raw_session(tmp_path, site, [
        INITIALIZE, INITIALIZED, "this is not json", '{"no": "jsonrpc"}',
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": "a"}}}),
    ], expect=5)
    assert replies[0]["id"] == 1 and replies[0]["result"]["protocolVersion"] == "2025-11-25"
    assert [(r["id"], r["error"]["code"]) for r in replies[1:3]] == [(None, -32700), (None, -32600)]
    assert replies[3] == {"jsonrpc": "2.0", "id": 2, "result": {}}  # ping answers in the handshake era
    assert replies[4]["result"]["structuredContent"] == {"text": "A"}


def test_valid_json_the_sdk_refuses_is_answered_with_its_id(tmp_path: Path, site: Path) -> None:
    lone_surrogate = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"shout","arguments":{"text":"\\ud800"}}}'
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, lone_surrogate,
                                            json.dumps({"jsonrpc": "2.0", "id": 8, "method": "ping"})], expect=3)
    assert (replies[1]["id"], replies[1]["error"]["code"]) == (7, -32600)
    assert replies[2] == {"jsonrpc": "2.0", "id": 8, "result": {}}


def test_a_line_that_is_not_utf8_is_answered_with_its_id(tmp_path: Path, site: Path) -> None:
    latin1 = '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"shout","arguments":{"text":"café"}}}'
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, latin1.encode("latin-1"),
                                            json.dumps({"jsonrpc": "2.0", "id": 10, "method": "ping"})], expect=3)
    assert (replies[1]["id"], replies[1]["error"]["code"]) == (9, -32700)
    assert "UTF-8" in replies[1]["error"]["message"]
    assert replies[2] == {"jsonrpc": "2.0", "id": 10, "result": {}}


def test_an_oversized_message_is_skipped_and_answered(tmp_path: Path, site: Path) -> None:
    huge = b'{"jsonrpc":"2.0","id":11,"method":"ping","params":{"pad":"' + b"x" * MAX_MESSAGE_BYTES + b'"}}'
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, huge,
                                            json.dumps({"jsonrpc": "2.0", "id": 12, "method": "ping"})], expect=3)
    assert (replies[1]["id"], replies[1]["error"]["code"]) == (None, -32600)
    assert "MiB" in replies[1]["error"]["message"]
    assert replies[2] == {"jsonrpc": "2.0", "id": 12, "result": {}}


def test_stdin_from_a_file_is_served_by_the_sdk_transport(tmp_path: Path, site: Path) -> None:
    """Not a pipe, so not Parlance's pipe transport: the fallback must answer the same way."""
    requests = tmp_path / "requests.jsonl"
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": "a"}}}
    requests.write_text("\n".join([INITIALIZE, INITIALIZED, json.dumps(call)]) + "\n")
    with requests.open("rb") as stdin:
        proc = subprocess.run(_serve_command(tmp_path), stdin=stdin, capture_output=True, timeout=30,
                              env=_serve_env(site))
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert [r["id"] for r in replies][:1] == [1]
    assert replies[0]["result"]["protocolVersion"] == "2025-11-25"


def test_requests_written_just_before_stdin_closes_are_all_answered(tmp_path: Path, site: Path) -> None:
    """The `printf ... | parlance serve` case: the requests and the end of input arrive together."""
    lines = [INITIALIZE, INITIALIZED, json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
             json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                         "params": {"name": "shout", "arguments": {"text": "last"}}}),
             json.dumps({"jsonrpc": "2.0", "id": 4, "method": "ping"})]
    for _ in range(3):
        proc = subprocess.run(_serve_command(tmp_path), input=("\n".join(lines) + "\n").encode(),
                              capture_output=True, timeout=30, env=_serve_env(site))
        replies = [json.loads(line) for line in proc.stdout.splitlines()]
        assert proc.returncode == 0
        assert sorted(r["id"] for r in replies) == [1, 2, 3, 4]


def test_a_large_reply_reaches_a_client_that_reads_slowly_after_closing_stdin(tmp_path: Path, site: Path) -> None:
    text = "x" * 1_000_000  # the reply (2 MB: structured and text) is many pipe buffers long
    proc = subprocess.Popen(_serve_command(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_serve_env(site))
    assert proc.stdin is not None and proc.stdout is not None
    try:
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": text}}}
        proc.stdin.write(f"{INITIALIZE}\n{INITIALIZED}\n{json.dumps(call)}\n".encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        first = proc.stdout.read(1)
        proc.stdin.close()
        time.sleep(6)  # longer than any fixed grace period a server might allow itself on the way out
        reply = json.loads(first + proc.stdout.readline())
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
    assert reply["id"] == 2 and reply["result"]["structuredContent"]["text"] == text.upper()


@contextlib.contextmanager
def _initialized(tmp_path: Path, site: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`parlance serve` over pipes, past the handshake; killed after the block."""
    proc = subprocess.Popen(_serve_command(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_serve_env(site))
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(f"{INITIALIZE}\n{INITIALIZED}\n".encode())
        proc.stdin.flush()
        assert json.loads(_line_within(proc.stdout, 20))["id"] == 1
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_serving_stops_when_the_client_closes_stdout(tmp_path: Path, site: Path) -> None:
    with _initialized(tmp_path, site) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}) + "\n").encode())
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0  # stdin is still open: the server noticed on its own
        log = proc.stderr.read().decode()
    assert "stdio.client_gone" in log and "Traceback" not in log


def test_one_socket_for_stdin_and_stdout_is_served(tmp_path: Path, site: Path) -> None:
    """inetd and socat EXEC: hand the server one socket both ways."""
    ours, theirs = socket.socketpair()
    proc = subprocess.Popen(_serve_command(tmp_path), stdin=theirs.fileno(), stdout=theirs.fileno(),
                            stderr=subprocess.DEVNULL, env=_serve_env(site))
    theirs.close()
    try:
        ours.settimeout(20)
        wire = ours.makefile("rwb", buffering=0)
        wire.write(f"{INITIALIZE}\n{INITIALIZED}\n".encode())
        assert json.loads(wire.readline())["id"] == 1
        for request_id in (2, 3):
            wire.write((json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}) + "\n").encode())
            assert json.loads(wire.readline()) == {"jsonrpc": "2.0", "id": request_id, "result": {}}
        ours.shutdown(socket.SHUT_WR)
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        ours.close()


def test_unknown_tool_is_a_jsonrpc_error(tmp_path: Path, site: Path) -> None:
    replies = _raw_session(tmp_path, site, [
        INITIALIZE, INITIALIZED,
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}),
    ], expect=2)
    assert replies[1]["error"]["code"] == -32602 and "nope" in replies[1]["error"]["message"]


def test_collision_refuses_to_start_naming_both_packs(tmp_path: Path, site: Path) -> None:
    write_fake_dist(site, "clash", SOURCES["clash"])
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "clash"]\n')
    proc = subprocess.run(_serve_command(tmp_path), input="", capture_output=True, text=True, timeout=30,
                          env=_serve_env(site))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "'shout'" in proc.stderr and "'clash'" in proc.stderr and "'printer'" in proc.stderr
    assert "prefix" in proc.stderr and "disabled" in proc.stderr


def test_strict_mode_makes_a_broken_pack_fatal(tmp_path: Path, site: Path) -> None:
    proc = subprocess.run(_serve_command(tmp_path), input="", capture_output=True, text=True, timeout=30,
                          env={**_serve_env(site), "PARLANCE_STRICT_PACKS": "1"})
    assert proc.returncode == 2
    assert "broken_import" in proc.stderr and "PARLANCE_STRICT_PACKS" in proc.stderr
