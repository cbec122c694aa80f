"""End to end: `parlance serve` as a real stdio subprocess, configured by file and environment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from parlance_strings_admin.emulator import Scope, emulator_thread

pytestmark = pytest.mark.anyio

GET_SCOPES = "duda_strings_admin_get_all_scopes"
CREATE_KEY = "duda_strings_admin_create_new_string_key"
ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def write_config(tmp_path: Path, closed_port: int) -> Path:
    # The file points at a dead port and a wrong base path: only the environment can make this work.
    path = tmp_path / "parlance.toml"
    path.write_text(
        f"""
[host]
log_level = "DEBUG"

[packs]
enabled = ["strings_admin"]

[packs.strings_admin]
host = "http://127.0.0.1:{closed_port}"
base_path = "/wrong/"
timeout_s = 5
""",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("mode", list(ERAS))
async def test_environment_overrides_reach_the_service(tmp_path: Path, closed_port: int, mode: str) -> None:
    transport_errors: list[Exception] = []

    async def on_message(message: Any) -> None:  # also receives anything unparseable on stdout
        if isinstance(message, Exception):
            transport_errors.append(message)

    env = {"STRINGS_ADMIN_HOST": "", "BASE_PATH": "/custom/api", "XDG_CONFIG_HOME": str(tmp_path)}
    with emulator_thread(tmp_path / "db.sqlite3", [Scope("checkout", True)], base_path="/custom/api/") as emulator:
        env["STRINGS_ADMIN_HOST"] = emulator.host_url
        params = stdio_server_params(write_config(tmp_path, closed_port), env=env, cwd=tmp_path)
        with anyio.fail_after(30), open(tmp_path / "stderr.log", "w+") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode=mode, message_handler=on_message) as client:
                assert client.protocol_version == ERAS[mode]
                scopes = await client.call_tool(GET_SCOPES, {})
                assert scopes.structured_content == {"scopes": [{"value": "checkout", "shouldTranslate": True}]}
                created = await client.call_tool(CREATE_KEY, {"key": "stdio.key", "value": "Stdio value", "scopeValue": "checkout"})
                assert created.structured_content == {"created": True, "scopeValue": "checkout", "key": "stdio.key"}
                duplicate = await client.call_tool(CREATE_KEY, {"key": "stdio.key", "value": "Stdio value", "scopeValue": "checkout"})
                assert duplicate.structured_content["code"] == "invalid_request"
            errlog.seek(0)
            log = [json.loads(line) for line in errlog if line.startswith("{")]
        assert [(k.scope, k.key) for k in emulator.store.list_keys()] == [("checkout", "stdio.key")]
    assert transport_errors == []  # nothing but JSON-RPC reached stdout
    calls = [entry for entry in log if entry.get("event") == "tool.call"]
    assert [(c["tool"], c["status"], c["error"]) for c in calls] == [
        (GET_SCOPES, "ok", None), (CREATE_KEY, "ok", None), (CREATE_KEY, "error", "invalid_request"),
    ]
    downstream = [entry for entry in log if entry.get("event") == "strings_admin.downstream"]
    assert [d["downstream_status"] for d in downstream] == [200, 204, 409]
    assert all(d["level"] == "debug" and d["downstream_latency_ms"] >= 0 for d in downstream)
    assert not [entry for entry in log if "stdio.key" in json.dumps(entry) or "Stdio value" in json.dumps(entry)]


async def test_a_bad_environment_value_disables_the_pack_not_the_server(tmp_path: Path, closed_port: int) -> None:
    env = {"STRINGS_ADMIN_HOST": "ftp://files.invalid", "XDG_CONFIG_HOME": str(tmp_path)}
    params = stdio_server_params(write_config(tmp_path, closed_port), env=env, cwd=tmp_path)
    with anyio.fail_after(30), open(tmp_path / "stderr.log", "w+") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            assert (await client.list_tools()).tools == []
        errlog.seek(0)
        skipped = [json.loads(line) for line in errlog if '"pack.skipped"' in line]
    assert len(skipped) == 1
    assert "STRINGS_ADMIN_HOST" in skipped[0]["reason"] and "http://" in skipped[0]["reason"]


async def test_an_overlong_scope_value_is_invalid_request_naming_the_limit(tmp_path: Path, closed_port: int) -> None:
    # Issue item 14: 100,000 characters used to reach httpx, whose InvalidURL became INTERNAL with a
    # traceback. The limit is advertised in the schema, and the longest scope value it allows, in the
    # characters that percent-encode longest (4 UTF-8 bytes, 12 characters on the wire), still arrives.
    longest = "\U0001d11e" * 255
    env = {"STRINGS_ADMIN_HOST": "", "BASE_PATH": "", "XDG_CONFIG_HOME": str(tmp_path)}
    with emulator_thread(tmp_path / "db.sqlite3", [Scope("checkout", True), Scope(longest, False)]) as emulator:
        env["STRINGS_ADMIN_HOST"], env["BASE_PATH"] = emulator.host_url, emulator.base_path
        params = stdio_server_params(write_config(tmp_path, closed_port), env=env, cwd=tmp_path)
        with anyio.fail_after(30), open(tmp_path / "stderr.log", "w+") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                scope_schema = tools[CREATE_KEY].input_schema["properties"]["scopeValue"]
                assert (scope_schema["minLength"], scope_schema["maxLength"]) == (1, 255)
                assert "255" in scope_schema["description"]
                overlong = await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "x" * 100_000})
                just_over = await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "x" * 256})
                at_limit = await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": longest})
            errlog.seek(0)
            log = errlog.read()
        assert [(k.scope, k.key) for k in emulator.store.list_keys()] == [(longest, "k")]
    for result in (overlong, just_over):
        assert result.is_error
        error = result.structured_content
        assert error["code"] == "invalid_request"
        assert "`scopeValue` is longer than 255 characters" in error["error"]
        assert [(p["field"], p["kind"]) for p in error["data"]["problems"]] == [("scopeValue", "string_too_long")]
    assert not at_limit.is_error, at_limit.structured_content
    assert "Traceback" not in log and "tool.crashed" not in log and "xxxxxxxxxx" not in log
