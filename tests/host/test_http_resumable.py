"""Resumable HTTP streams (`parlance._transport.event_store`) through a real
`parlance serve --transport http`.

Raw HTTP on purpose: the point is what a reconnecting client receives for a `Last-Event-ID`, which
an SDK client hides. Every session reuses request ids, so a store shared between sessions would
replay one user's results to another; the stores must be per session.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import parlance_http

BASE = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25"}


def _events(body: str) -> list[dict[str, str]]:
    """The fields of each SSE event in `body`."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "")
                      for line in block.split("\n") if line and not line.startswith(":"))
        if fields:
            events.append(fields)
    return events


@contextlib.contextmanager
def _server(tmp_path: Path, host_table: str = "") -> Iterator[tuple[httpx.Client, str]]:
    bundles = tmp_path / "bundles"
    bundles.mkdir()
    (bundles / "es.json").write_text(json.dumps({"greeting": "¡Hola, {name}!"}))
    config = tmp_path / "parlance.toml"
    config.write_text(f'{host_table}[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nbundle_dirs = ["bundles"]\n')
    with parlance_http(config) as base, httpx.Client(trust_env=False, timeout=10) as http:
        yield http, f"{base}/mcp"


def _session(http: httpx.Client, url: str) -> dict[str, str]:
    opened = http.post(url, headers=BASE, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
    headers = dict(BASE, **{"Mcp-Session-Id": opened.headers["mcp-session-id"]})
    http.post(url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return headers


def _greet(http: httpx.Client, url: str, headers: dict[str, str], name: str) -> list[dict[str, str]]:
    answer = http.post(url, headers=headers, json={"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "i18n_translate", "arguments": {"key": "greeting", "locale": "es", "variables": {"name": name}}}})
    return _events(answer.text)


def _resume(http: httpx.Client, url: str, headers: dict[str, str], last_event_id: str) -> str:
    """What a reconnect with `Last-Event-ID` receives within a second (the GET stream stays open)."""
    body = ""
    with contextlib.suppress(httpx.ReadTimeout), http.stream(
            "GET", url, headers={**headers, "Accept": "text/event-stream", "Last-Event-ID": last_event_id},
            timeout=httpx.Timeout(10, read=1)) as replay:
        for chunk in replay.iter_text():
            body += chunk
    return body


def test_a_stream_opens_with_a_priming_event_and_the_retry_delay(tmp_path: Path) -> None:
    with _server(tmp_path, "[host]\nsse_retry_ms = 750\n\n") as (http, url):
        events = _greet(http, url, _session(http, url), "Ada")
    assert events[0].get("data", "") == "" and events[0]["id"] and events[0]["retry"] == "750"
    assert "¡Hola, Ada!" in events[-1]["data"]


def test_resuming_replays_only_the_sessions_own_events(tmp_path: Path) -> None:
    with _server(tmp_path) as (http, url):
        alice, bob = _session(http, url), _session(http, url)
        primed = _greet(http, url, alice, "Alice")[0]["id"]  # as if Alice's stream broke right after priming
        _greet(http, url, bob, "Bob-secret")  # the same request id, in another session
        replayed_to_alice = _resume(http, url, alice, primed)
        replayed_to_bob = _resume(http, url, bob, primed)  # Alice's event id, sent by Bob
    assert "Alice" in replayed_to_alice and "Bob-secret" not in replayed_to_alice
    assert "Alice" not in replayed_to_bob


@pytest.mark.parametrize("host_table", ["[host]\nsse_retry_ms = 0\n\n", "[host]\njson_response = true\n\n"])
def test_streams_are_not_resumable_when_switched_off_or_not_streams(tmp_path: Path, host_table: str) -> None:
    with _server(tmp_path, host_table) as (http, url):
        answer = http.post(url, headers=_session(http, url), json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert "retry:" not in answer.text and "id:" not in answer.text
    payload: Any = json.loads(answer.text) if answer.headers["content-type"].startswith("application/json") \
        else json.loads(_events(answer.text)[-1]["data"])
    assert payload == {"jsonrpc": "2.0", "id": 1, "result": {}}


@pytest.mark.anyio
async def test_the_store_keeps_bounded_history_and_ignores_ids_it_did_not_make() -> None:
    from mcp.types import JSONRPCNotification

    from parlance._transport.event_store import MemoryEventStore

    events = MemoryEventStore(streams=2, per_stream=3)
    mine, other = events.for_session(), events.for_session()
    note = [JSONRPCNotification(jsonrpc="2.0", method=f"notifications/n{i}") for i in range(6)]
    first = await mine.store_event("5", None)  # the priming event
    for message in note:
        await mine.store_event("5", message)
    replayed: list[str] = []

    async def collect(event: Any) -> None:
        replayed.append(event.message.method)

    assert await mine.replay_events_after(first, collect) == "5"
    assert replayed == ["notifications/n3", "notifications/n4", "notifications/n5"]  # the last 3 kept
    assert await other.replay_events_after(first, collect) is None  # not its stream
    for bad in ("5/²", "5/" + "9" * 30, "nonsense", "", "5/-1"):
        assert await mine.replay_events_after(bad, collect) is None
    await mine.store_event("6", note[0])
    await other.store_event("5", note[0])  # a third stream: the least recently written is forgotten
    assert await mine.replay_events_after(first, collect) is None


@pytest.mark.anyio
async def test_a_stream_not_written_for_a_while_is_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp.types import JSONRPCNotification

    from parlance._transport import event_store

    clock = [1000.0]
    monkeypatch.setattr(event_store.time, "monotonic", lambda: clock[0])
    events = event_store.MemoryEventStore(keep_s=60)
    session = events.for_session()
    primed = await session.store_event("1", None)
    await session.store_event("1", JSONRPCNotification(jsonrpc="2.0", method="notifications/a"))
    clock[0] += 61
    await session.store_event("2", None)  # any write forgets what went stale
    seen: list[Any] = []

    async def collect(event: Any) -> None:
        seen.append(event)

    assert await session.replay_events_after(primed, collect) is None and seen == []
