"""The emulator's REST contract, persistence, concurrency and command line, over real HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from parlance_strings_admin.emulator import Scope, emulator_thread
from parlance_strings_admin.emulator.cli import parse_scope


@pytest.fixture
def http() -> Any:
    with httpx.Client(trust_env=False, timeout=5) as client:  # loopback only, never a proxy
        yield client


def test_scopes_are_listed_as_keys_scope_dtos(emulator: Any, http: httpx.Client) -> None:
    reply = http.get(f"{emulator.root}scopes/")
    assert reply.status_code == 200
    assert reply.json() == [{"value": "checkout", "shouldTranslate": True}, {"value": "emails", "shouldTranslate": False}]


def test_create_answers_204_then_409(emulator: Any, http: httpx.Client) -> None:
    body = {"key": "order.status.completed", "value": "Completed", "shouldTranslate": True}
    first = http.post(f"{emulator.root}keys/checkout", json=body)
    again = http.post(f"{emulator.root}keys/checkout", json=body)
    assert (first.status_code, first.content) == (204, b"")
    assert again.status_code == 409 and again.json()["message"] == "Key already exists"
    [stored] = emulator.store.list_keys()
    assert (stored.scope, stored.key, stored.value, stored.should_translate) == (
        "checkout", "order.status.completed", "Completed", True,
    )


def test_unknown_scope_is_404(emulator: Any, http: httpx.Client) -> None:
    reply = http.post(f"{emulator.root}keys/nope", json={"key": "k", "value": "v"})
    assert reply.status_code == 404
    assert emulator.store.list_keys() == []


@pytest.mark.parametrize(
    "content",
    [b"not json", b"[]", b'{"value": "v"}', b'{"key": "  ", "value": "v"}', b'{"key": "k", "value": 3}',
     b'{"key": "k", "value": "v", "shouldTranslate": "yes"}', json.dumps({"key": "k" * 256, "value": "v"}).encode()],
)
def test_invalid_bodies_are_400(emulator: Any, http: httpx.Client, content: bytes) -> None:
    reply = http.post(f"{emulator.root}keys/checkout", content=content, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400, reply.text
    assert emulator.store.list_keys() == []


@pytest.mark.parametrize("path", ["keys/", "keys/a/b", "keys/checkout/extra", "other/", "scopes/x", "../scopes/"])
def test_only_the_two_routes_exist(emulator: Any, http: httpx.Client, path: str) -> None:
    reply = http.post(f"{emulator.root}{path}", json={"key": "k", "value": "v"})
    assert reply.status_code in (404, 405)
    assert emulator.store.list_keys() == []


def test_the_scope_segment_is_read_raw_then_decoded(emulator: Any, http: httpx.Client) -> None:
    emulator.store.add_scopes([Scope("a/b", False)])
    assert http.post(f"{emulator.root}keys/a%2Fb", json={"key": "k", "value": "v"}).status_code == 204
    assert http.post(f"{emulator.root}keys/a/b", json={"key": "k2", "value": "v"}).status_code == 404
    assert [(k.scope, k.key) for k in emulator.store.list_keys()] == [("a/b", "k")]


def test_data_survives_a_restart(tmp_path: Path, http: httpx.Client) -> None:
    db = tmp_path / "db.sqlite3"
    with emulator_thread(db, [Scope("checkout", True)]) as first:
        assert http.post(f"{first.root}keys/checkout", json={"key": "k", "value": "v"}).status_code == 204
    with emulator_thread(db, [Scope("checkout", False)]) as second:  # re-seeding keeps existing scopes
        assert http.get(f"{second.root}scopes/").json() == [{"value": "checkout", "shouldTranslate": True}]
        assert http.post(f"{second.root}keys/checkout", json={"key": "k", "value": "v"}).status_code == 409


@pytest.mark.anyio
async def test_concurrent_creates_of_one_key_yield_exactly_one_204(emulator: Any) -> None:
    statuses: list[int] = []
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(trust_env=False, timeout=10, limits=limits) as client:

        async def create(key: str) -> None:
            reply = await client.post(f"{emulator.root}keys/checkout", json={"key": key, "value": "v"})
            statuses.append(reply.status_code)

        async with anyio.create_task_group() as tasks:
            for _ in range(40):
                tasks.start_soon(create, "same.key")
            for index in range(10):
                tasks.start_soon(create, f"other.{index}")
    assert sorted(statuses).count(204) == 11
    assert sorted(statuses).count(409) == 39
    assert len(emulator.store.list_keys()) == 11


def test_parse_scope() -> None:
    assert parse_scope("checkout") == Scope("checkout", False)
    assert parse_scope("checkout:translate") == Scope("checkout", True)
    assert parse_scope("a:b") == Scope("a:b", False)
    with pytest.raises(Exception, match="needs a name"):
        parse_scope(":translate")


def test_the_command_prints_its_url_and_serves(tmp_path: Path, http: httpx.Client) -> None:
    command = [sys.executable, "-m", "parlance", "strings-admin", "emulator", "--port", "0",
               "--db", str(tmp_path / "cli.sqlite3"), "--scope", "checkout:translate", "--base-path", "/api/v1"]
    env = {**os.environ, "PARLANCE_PACKS": "strings_admin", "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          cwd=tmp_path) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("strings-admin emulator listening on http://127.0.0.1:"), line
            root = line.split()[4]
            assert root.endswith("/api/v1/")
            assert http.get(f"{root}scopes/").json() == [{"value": "checkout", "shouldTranslate": True}]
            assert http.post(f"{root}keys/checkout", json={"key": "k", "value": "v"}).status_code == 204
        finally:
            process.terminate()
            _, stderr = process.communicate(timeout=10)
    # uvicorn shuts down gracefully, then re-raises SIGTERM: the conventional "terminated" status.
    assert process.returncode in (0, -signal.SIGTERM)
    assert "Traceback" not in stderr


def test_the_listening_socket_gets_tcp_nodelay_connections() -> None:
    # asyncio sets TCP_NODELAY only on IPPROTO_TCP sockets; without it every reply (headers, then
    # body) stalled ~40 ms on delayed ACKs, which the overhead benchmark showed.
    from parlance_strings_admin.emulator.server import bind

    with bind("127.0.0.1", 0) as sock:
        assert sock.proto == socket.IPPROTO_TCP


def test_oversized_bodies_are_413(emulator: Any, http: httpx.Client) -> None:
    reply = http.post(f"{emulator.root}keys/checkout", json={"key": "k", "value": "v" * 1_100_000})
    assert reply.status_code == 413
    assert emulator.store.list_keys() == []
