"""When the service misbehaves or disappears: error mapping, deadlines, retries, idempotent create.

Replies the emulator cannot produce (500, 418, redirects, broken scopes lists, stalls) come from
`status_server`, a second tiny real HTTP server on loopback; lost replies from a real TCP proxy.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import Any

import pytest

pytestmark = pytest.mark.anyio

GET_SCOPES = "duda_strings_admin_get_all_scopes"
CREATE_KEY = "duda_strings_admin_create_new_string_key"
CREATE_ARGS = {"key": "order.status.completed", "value": "Completed", "scopeValue": "checkout"}


def error_of(result: Any) -> dict[str, Any]:
    assert result.is_error, result
    return result.structured_content


@pytest.mark.parametrize(
    ("status", "code"),
    [(400, "invalid_request"), (409, "invalid_request"), (404, "not_found"), (401, "internal_error"),
     (418, "internal_error"), (500, "internal_error"), (502, "internal_error"), (503, "internal_error")],
)
async def test_create_maps_statuses_to_the_prd_codes(connect_pack: Any, status_server: Any, status: int, code: str) -> None:
    status_server.reply.status = status
    status_server.reply.body = json.dumps({"status": status, "message": f"said {status}"}).encode()
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
    assert error["code"] == code
    assert error["data"] == {"status": status, "body": json.dumps({"status": status, "message": f"said {status}"})}
    assert len(status_server.seen) == 1  # a reply, whatever its status, is never retried


@pytest.mark.parametrize("status", [400, 404, 409, 500, 503])
async def test_get_scopes_maps_every_non_2xx_to_internal_error(connect_pack: Any, status_server: Any, status: int) -> None:
    # PRD 4.1: "Non-200 -> MCP error internal_error with payload {status, body}".
    status_server.reply.status, status_server.reply.body = status, b"nope"
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(GET_SCOPES, {}))
    assert error["code"] == "internal_error"
    assert error["data"] == {"status": status, "body": "nope"}


@pytest.mark.parametrize(
    ("body", "problem"),
    [(b"<html>oops</html>", "not JSON"), (b'{"value": "x"}', "not a JSON array"), (b'[{"name": "x"}]', "string 'value'"),
     (b'[{"value": "x", "shouldTranslate": "yes"}]', "not a boolean")],
)
async def test_a_malformed_scopes_list_is_internal_error(
    connect_pack: Any, status_server: Any, body: bytes, problem: str
) -> None:
    status_server.reply.body = body
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(GET_SCOPES, {}))
    assert error["code"] == "internal_error"
    assert problem in error["error"]
    assert error["data"]["status"] == 200


async def test_large_bodies_are_capped(connect_pack: Any, status_server: Any) -> None:
    huge = json.dumps([{"value": f"scope-{i}", "shouldTranslate": False} for i in range(20_000)]).encode()
    status_server.reply.body = huge
    async with connect_pack(status_server.url, max_response_bytes=4096) as client:
        error = error_of(await client.call_tool(GET_SCOPES, {}))
        assert error["code"] == "internal_error"
        assert "max_response_bytes" in error["error"]
        assert error["data"]["body"].endswith("… (truncated)")
        assert len(error["data"]["body"]) < 2100
        status_server.reply.status = 500  # an error reply's body is cut to an excerpt as well
        error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
    assert error["code"] == "internal_error"
    assert error["data"]["body"].endswith("… (truncated)") and len(error["data"]["body"]) < 2100


async def test_redirects_are_not_followed(connect_pack: Any, make_status_server: Any) -> None:
    service, elsewhere = make_status_server(), make_status_server()
    service.reply.status = 307  # 307 would replay the POST body to the new location
    service.reply.headers = {"Location": f"{elsewhere.url}/ms/strings-admin/internal/keys/checkout"}
    service.reply.body = b""
    async with connect_pack(service.url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
        assert error["code"] == "internal_error"
        assert "redirect" in error["error"]
        assert error["data"]["status"] == 307
        error = error_of(await client.call_tool(GET_SCOPES, {}))
    assert error["code"] == "internal_error"
    assert elsewhere.seen == []


async def test_a_dead_service_is_internal_error_within_the_timeout(connect_pack: Any, closed_port: int) -> None:
    async with connect_pack(f"http://127.0.0.1:{closed_port}", timeout_s=2.0, retries=3) as client:
        started = time.monotonic()
        error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
        elapsed = time.monotonic() - started
        assert error["code"] == "internal_error"
        assert error["data"]["attempts"] == 4  # connection refused is retried: it never reached anyone
        assert "connection failed" in error["data"]["reason"]
        assert elapsed < 2.0
        # The server keeps serving after the failure.
        assert {t.name for t in (await client.list_tools()).tools} == {GET_SCOPES, CREATE_KEY}
        assert error_of(await client.call_tool(GET_SCOPES, {}))["code"] == "internal_error"


async def test_a_silent_service_times_out_within_timeout_s(connect_pack: Any, black_hole: str) -> None:
    async with connect_pack(black_hole, timeout_s=0.5, retries=5) as client:
        started = time.monotonic()
        error = error_of(await client.call_tool(GET_SCOPES, {}))
        elapsed = time.monotonic() - started
        assert error["code"] == "internal_error"
        assert "timeout_s=0.5" in error["data"]["reason"]
        assert 0.45 < elapsed < 1.5  # one deadline for all attempts, not 0.5 s per attempt
        assert (await client.list_tools()).tools


async def test_a_slow_reply_is_cut_off_by_the_deadline(connect_pack: Any, status_server: Any) -> None:
    status_server.reply.delay_s = 1.5
    async with connect_pack(status_server.url, timeout_s=0.4) as client:
        started = time.monotonic()
        error = error_of(await client.call_tool(GET_SCOPES, {}))
    assert error["code"] == "internal_error"
    assert time.monotonic() - started < 1.2


async def test_a_dripping_reply_is_cut_off_by_the_deadline(connect_pack: Any, status_server: Any) -> None:
    # Each byte arrives well within httpx's per-read timeout; only the call's deadline stops this.
    status_server.reply.body, status_server.reply.drip_s = b"[" + b" " * 40 + b"]", 0.05
    async with connect_pack(status_server.url, timeout_s=0.5) as client:
        started = time.monotonic()
        error = error_of(await client.call_tool(GET_SCOPES, {}))
    assert error["code"] == "internal_error"
    assert "timeout_s=0.5" in error["data"]["reason"]
    assert time.monotonic() - started < 1.2


async def test_a_lost_reply_then_409_on_our_retry_is_success(
    connect_pack: Any, emulator: Any, reply_dropping_proxy: Any
) -> None:
    # PRD acceptance 3. The proxy forwards the first POST to the emulator (the key is created) and
    # hangs up without relaying the 204; the client retries, the emulator answers 409, and since
    # our own first attempt may have arrived, 409 means "done".
    proxy = reply_dropping_proxy(int(emulator.host_url.rsplit(":", 1)[1]))
    key = f"test.{uuid.uuid4().hex[:12]}"
    async with connect_pack(proxy.url) as client:
        result = await client.call_tool(CREATE_KEY, {"key": key, "value": "v", "scopeValue": "checkout"})
    assert not result.is_error, result.structured_content
    assert result.structured_content == {"created": True, "scopeValue": "checkout", "key": key}
    assert result.meta["parlance/strings_admin"]["attempts"] == 2
    assert "409 on retry" in result.meta["parlance/strings_admin"]["confirmedBy"]
    assert proxy.dropped_replies and proxy.dropped_replies[0].startswith(b"HTTP/1.1 204")
    assert [k.key for k in emulator.store.list_keys("checkout")] == [key]


async def test_a_lost_reply_then_404_on_retry_is_still_an_error(
    connect_pack: Any, emulator: Any, reply_dropping_proxy: Any
) -> None:
    # Only 409 is reinterpreted after a retry; any other reply keeps its meaning.
    proxy = reply_dropping_proxy(int(emulator.host_url.rsplit(":", 1)[1]))
    async with connect_pack(proxy.url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "missing"}))
    assert error["code"] == "not_found"
    assert len(proxy.dropped_replies) == 1


async def test_a_lost_reply_without_retries_is_internal_error(
    connect_pack: Any, emulator: Any, reply_dropping_proxy: Any
) -> None:
    proxy = reply_dropping_proxy(int(emulator.host_url.rsplit(":", 1)[1]))
    async with connect_pack(proxy.url, retries=0) as client:
        error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
    assert error["code"] == "internal_error"
    assert error["data"] == {"reason": "the connection closed before a reply arrived", "attempts": 1}


async def test_get_scopes_is_retried_after_a_lost_reply(connect_pack: Any, emulator: Any, reply_dropping_proxy: Any) -> None:
    proxy = reply_dropping_proxy(int(emulator.host_url.rsplit(":", 1)[1]))
    async with connect_pack(proxy.url) as client:
        result = await client.call_tool(GET_SCOPES, {})
    assert not result.is_error
    assert [s["value"] for s in result.structured_content["scopes"]] == ["checkout", "emails"]
    assert proxy.connections == 2


async def test_409_after_a_refused_connection_is_still_an_error(
    connect_pack: Any, emulator: Any, closed_port: int, reply_dropping_proxy: Any
) -> None:
    # A refused connection never delivered our request, so a 409 on the retry is somebody else's
    # key. To make the refusal and the retry deterministic, the service "comes up" (a relaying
    # proxy starts listening on the refused port) at the moment the client logs the failed attempt,
    # which it does before sleeping and retrying.
    emulator.store.add_key("checkout", CREATE_ARGS["key"], "someone else's", False)
    upstream_port = int(emulator.host_url.rsplit(":", 1)[1])

    class StartServiceOnRefusal(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if getattr(record, "downstream_status", None) == "ConnectError" and record.attempt == 1:  # type: ignore[attr-defined]
                reply_dropping_proxy(upstream_port, port=closed_port, drop_first=False)

    client_logger = logging.getLogger("parlance_strings_admin.client")
    handler = StartServiceOnRefusal(logging.DEBUG)
    client_logger.addHandler(handler)
    previous_level = client_logger.level
    client_logger.setLevel(logging.DEBUG)
    try:
        async with connect_pack(f"http://127.0.0.1:{closed_port}") as client:
            error = error_of(await client.call_tool(CREATE_KEY, CREATE_ARGS))
    finally:
        client_logger.removeHandler(handler)
        client_logger.setLevel(previous_level)
    assert error["code"] == "invalid_request"
    assert error["data"]["status"] == 409
