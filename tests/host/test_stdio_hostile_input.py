"""`parlance serve` over raw pipes against what an outside reliability campaign sent it.

Every line with a readable id is answered with that id, whatever else is wrong with it; nothing
read from the wire ends the process; stop signals and a client that goes away are handled.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.host.test_stdio import (  # noqa: F401 - `site` is a fixture
    INITIALIZE,
    INITIALIZED,
    _initialized,
    _line_within,
    _raw_session,
    _serve_command,
    _serve_env,
    site,
)
from tests.support import write_fake_dist

SLEEPER = '''
    import contextlib, os, sys
    import anyio
    from pydantic import BaseModel
    from parlance import hookimpl

    class In(BaseModel):
        seconds: float

    class Out(BaseModel):
        slept: float

    async def nap(args: In) -> Out:
        os.write(2, b"nap started\\n")  # for tests that must act while the call runs
        try:
            await anyio.sleep(args.seconds)
        except BaseException:  # cancelled: say so where the test looks (CANCEL_MARKER), then go on cancelling
            if "CANCEL_MARKER" in os.environ:
                with open(os.environ["CANCEL_MARKER"], "w") as marker:
                    marker.write("cancelled")
            raise
        return Out(slept=args.seconds)

    @hookimpl
    def parlance_register_tools(register):
        register(nap, name="nap", description="Sleeps, then answers; notes a cancellation in CANCEL_MARKER.")

    @hookimpl
    def parlance_lifespan():
        @contextlib.asynccontextmanager
        async def lifespan():
            try:
                yield None
            finally:
                os.write(2, b"sleeper lifespan exited\\n")
        return lifespan()
'''


def _ping(request_id: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"})


def _nested(depth: int, request_id: int = 2, *, id_last: bool = False) -> str:
    params = '{"x":' + "[" * depth + "]" * depth + "}"
    if id_last:
        return '{"jsonrpc":"2.0","method":"ping","params":' + params + f',"id":{request_id}}}'
    return f'{{"jsonrpc":"2.0","id":{request_id},"method":"ping","params":' + params + "}"


@pytest.mark.parametrize("depth", [990, 100_000])
def test_deep_nesting_is_answered_with_its_id_and_the_server_keeps_serving(tmp_path: Path, site: Path,
                                                                           depth: int) -> None:
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, _nested(depth, 2), _nested(depth, 3, id_last=True),
                                            _ping(4)], expect=4)
    assert replies[0]["id"] == 1 and "result" in replies[0]  # the initialize read before is answered too
    assert [(r["id"], r["error"]["code"]) for r in replies[1:3]] == [(2, -32600), (3, -32600)]
    assert "nests deeper" in replies[1]["error"]["message"]
    assert replies[3] == {"jsonrpc": "2.0", "id": 4, "result": {}}


def test_invalid_jsonrpc_with_a_readable_id_is_answered_with_that_id(tmp_path: Path, site: Path) -> None:
    lines = [
        '{"jsonrpc":"2.0","id":10,"method":123}',
        '{"jsonrpc":"1.0","id":11,"method":"ping"}',
        '{"jsonrpc":"2.0","id":12,"method":"ping","params":"x"}',
        '{"jsonrpc":"2.0","id":13,"method":"ping","params":{"n":' + "7" * 5000 + "}}",
        '{"jsonrpc":"2.0","id":"fourteen","method":"ping","params":{"broken": }',
    ]
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, *lines, _ping(15)], expect=7)
    assert [(r["id"], r["error"]["code"]) for r in replies[1:6]] == [
        (10, -32600), (11, -32600), (12, -32600), (13, -32600), ("fourteen", -32700)]
    assert replies[6] == {"jsonrpc": "2.0", "id": 15, "result": {}}
    for reply, field in zip(replies[1:4], ('"method"', '"jsonrpc"', '"params"'), strict=True):
        assert field in reply["error"]["message"]  # the answer names what was wrong


@pytest.mark.parametrize("bad_id", ['{"a":1}', "true", "1.5", "null", "[1]", '"\\ud800"'])
def test_an_id_of_the_wrong_type_is_an_invalid_request_not_a_notification(tmp_path: Path, site: Path,
                                                                          bad_id: str) -> None:
    line = f'{{"jsonrpc":"2.0","id":{bad_id},"method":"ping"}}'
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, line, _ping(5)], expect=3)
    assert (replies[1]["id"], replies[1]["error"]["code"]) == (None, -32600)
    assert "id must be a string" in replies[1]["error"]["message"]
    assert replies[2]["id"] == 5


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_parse_errors(tmp_path: Path, site: Path, literal: str) -> None:
    call = ('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"shout","arguments":{"text":"a","n":'
            + literal + "}}}")
    quoted = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                         "params": {"name": "shout", "arguments": {"text": f"{literal} stays text"}}})
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, call, quoted], expect=3)
    assert (replies[1]["id"], replies[1]["error"]["code"]) == (6, -32700)
    assert replies[2]["result"]["structuredContent"] == {"text": f"{literal} stays text".upper()}


def test_no_answer_echoes_the_input(tmp_path: Path, site: Path) -> None:
    marker = "MARKER-7f3a-echo"
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 20, "method": 5, "params": {"m": marker}}),
        json.dumps({"jsonrpc": "2.0", "id": 21, "method": "ping", "params": marker}),
        '{"jsonrpc":"2.0","id":22,"method":"ping","params":{"m":"' + marker + '"',
    ]
    replies = _raw_session(tmp_path, site, [INITIALIZE, INITIALIZED, *lines], expect=4)
    assert [r["id"] for r in replies[1:]] == [20, 21, 22]
    assert marker not in json.dumps(replies)


@pytest.fixture
def sleeper_site(tmp_path: Path, site: Path) -> Path:
    write_fake_dist(site, "sleeper", SLEEPER)
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "sleeper"]\n')
    return site


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_answers_the_call_in_flight_and_exits_the_lifespans(tmp_path: Path, sleeper_site: Path,
                                                                          signum: int) -> None:
    with _initialized(tmp_path, sleeper_site) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "nap", "arguments": {"seconds": 1}}}
        proc.stdin.write((json.dumps(call) + "\n").encode())
        proc.stdin.flush()
        while b"nap started" not in _line_within(proc.stderr, 20):  # the call is running
            pass
        proc.send_signal(signum)
        reply = json.loads(_line_within(proc.stdout, 10))
        assert proc.wait(timeout=15) == 0  # stdin is still open: the signal ended the session
        log = proc.stderr.read().decode()
    assert reply["id"] == 2 and reply["result"]["structuredContent"] == {"slept": 1.0}
    assert "sleeper lifespan exited" in log and "Traceback" not in log


def test_an_idle_server_notices_within_a_second_that_the_client_closed_stdout(tmp_path: Path, site: Path) -> None:
    with _initialized(tmp_path, site) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # and nothing more is written to stdin: no reply is ever due
        closed = time.monotonic()
        assert proc.wait(timeout=10) == 0
        noticed_after = time.monotonic() - closed
        log = proc.stderr.read().decode()
    assert noticed_after < 1.0, f"noticed after {noticed_after:.2f} s"
    assert "stdio.client_gone" in log
