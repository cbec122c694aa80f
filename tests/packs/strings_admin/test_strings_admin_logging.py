"""What the pack logs: downstream status and latency at debug level, never the caller's data."""

from __future__ import annotations

import logging
from typing import Any

import pytest

pytestmark = pytest.mark.anyio

CREATE_KEY = "duda_strings_admin_create_new_string_key"

# Markers that must never appear in a log record: they are tool arguments.
KEY, VALUE, SCOPE = "secret.key.marker", "Secret value marker", "secret scope marker"


def record_text(record: logging.LogRecord) -> str:
    return record.getMessage() + " " + " ".join(f"{k}={v!r}" for k, v in vars(record).items())


async def test_downstream_status_and_latency_are_logged_without_arguments(
    connect_pack: Any, emulator: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from parlance_strings_admin.emulator import Scope

    emulator.store.add_scopes([Scope(SCOPE, False)])
    caplog.set_level(logging.DEBUG)  # everything, including httpx's own request lines, even if an
    caplog.set_level(logging.DEBUG, logger="httpx")  # earlier test's CLI run quietened httpx
    async with connect_pack(emulator.host_url) as client:
        assert not (await client.call_tool(CREATE_KEY, {"key": KEY, "value": VALUE, "scopeValue": SCOPE})).is_error
        assert (await client.call_tool(CREATE_KEY, {"key": KEY, "value": VALUE, "scopeValue": SCOPE})).is_error

    downstream = [r for r in caplog.records if r.getMessage() == "strings_admin.downstream"]
    assert [r.downstream_status for r in downstream] == [204, 409]  # type: ignore[attr-defined]
    assert all(r.levelno == logging.DEBUG for r in downstream)
    assert all(r.downstream_route == "keys/{scopeValue}" for r in downstream)  # type: ignore[attr-defined]
    assert all(isinstance(r.downstream_latency_ms, float) for r in downstream)  # type: ignore[attr-defined]
    httpx_lines = [r.getMessage() for r in caplog.records if r.name == "httpx"]
    assert httpx_lines and all("keys/{scopeValue}" in line for line in httpx_lines)
    encoded_scope = SCOPE.replace(" ", "%20")
    leaks = [
        record_text(r) for r in caplog.records if any(m in record_text(r) for m in (KEY, VALUE, SCOPE, encoded_scope))
    ]
    assert leaks == []
