"""The two tools through a real MCP client (in-process, both eras) against the emulator over HTTP."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from parlance_strings_admin.emulator import Scope

pytestmark = pytest.mark.anyio

GET_SCOPES = "duda_strings_admin_get_all_scopes"
CREATE_KEY = "duda_strings_admin_create_new_string_key"


# Scope names chosen to break naive URL building: each must arrive at the service as one segment.
HOSTILE_SCOPES = ["a/b", "..", ".", "?x=1", "#f", "%2F", "Ünïcødé 日本", "a b+c&d=e", "../keys/other"]


def unique_key() -> str:
    return f"test.{uuid.uuid4().hex[:12]}"


def error_of(result: Any) -> dict[str, Any]:
    assert result.is_error, result
    return result.structured_content


async def test_tools_are_listed_with_the_prd_names_schemas_and_hints(connect_pack: Any, emulator: Any) -> None:
    async with connect_pack(emulator.host_url) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == {GET_SCOPES, CREATE_KEY}
    create = tools[CREATE_KEY].input_schema
    assert create["required"] == ["key", "value", "scopeValue"]
    assert create["properties"]["shouldTranslate"] == {
        "default": False,
        "description": "Whether the key should be sent for translation.",
        "type": "boolean",
    }
    assert create["additionalProperties"] is False
    assert tools[GET_SCOPES].input_schema["properties"] == {}
    assert tools[GET_SCOPES].annotations.read_only_hint is True
    assert tools[CREATE_KEY].annotations.read_only_hint is False
    assert tools[CREATE_KEY].annotations.idempotent_hint is True
    # The host may advertise outputSchema as anyOf [the tool's own, the error envelope].
    output = tools[CREATE_KEY].output_schema
    own = next(branch for branch in output.get("anyOf", [output]) if "scopeValue" in branch.get("properties", {}))
    assert own["required"] == ["scopeValue", "key"]
    scopes = tools[GET_SCOPES].output_schema
    item = next(b for b in scopes.get("anyOf", [scopes]) if "scopes" in b.get("properties", {}))["properties"]["scopes"]["items"]
    assert (item["type"], item["required"]) == ("object", ["value"])
    assert item["properties"] == {"value": {"type": "string"}, "shouldTranslate": {"type": ["boolean", "null"]}}
    assert "additionalProperties" not in item  # JSON Schema's default (true): the service's extra fields pass


async def test_get_all_scopes_returns_exactly_what_the_service_returns(connect_pack: Any, emulator: Any) -> None:
    # PRD acceptance 2: identical to a direct call to the service.
    direct = httpx.get(f"{emulator.root}scopes/", trust_env=False)  # loopback only, never a proxy
    assert direct.status_code == 200
    async with connect_pack(emulator.host_url) as client:
        result = await client.call_tool(GET_SCOPES, {})
    assert not result.is_error
    assert result.structured_content == {"scopes": direct.json()}
    assert json.loads(result.content[0].text) == direct.json()
    assert {"value": "checkout", "shouldTranslate": True} in direct.json()


async def test_scopes_with_extra_fields_pass_through_untouched(connect_pack: Any, status_server: Any) -> None:
    scopes = [{"value": "checkout", "shouldTranslate": True, "id": 7, "owner": {"team": "web"}}, {"value": "x"}]
    status_server.reply.body = json.dumps(scopes).encode()
    async with connect_pack(status_server.url) as client:
        result = await client.call_tool(GET_SCOPES, {})
    assert result.structured_content == {"scopes": scopes}
    assert result.content[0].text == json.dumps(scopes)
    assert [(s.method, s.raw_path) for s in status_server.seen] == [("GET", "/ms/strings-admin/internal/scopes/")]


async def test_create_key_posts_the_prd_body_and_reports_the_key(connect_pack: Any, emulator: Any) -> None:
    key = unique_key()
    async with connect_pack(emulator.host_url) as client:
        result = await client.call_tool(CREATE_KEY, {"key": key, "value": "Completed", "scopeValue": "checkout"})
    assert not result.is_error, result
    assert result.structured_content == {"created": True, "scopeValue": "checkout", "key": key}
    assert result.content[0].text == "null"  # the PRD's success payload
    assert result.meta["parlance/strings_admin"] == {"attempts": 1}
    [stored] = emulator.store.list_keys("checkout")
    assert (stored.key, stored.value, stored.should_translate) == (key, "Completed", False)  # default false


async def test_should_translate_is_sent_when_given(connect_pack: Any, status_server: Any) -> None:
    status_server.reply.status, status_server.reply.body = 204, b""
    async with connect_pack(status_server.url) as client:
        await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "s", "shouldTranslate": True})
        await client.call_tool(CREATE_KEY, {"key": "k2", "value": "v2", "scopeValue": "s"})
    assert [json.loads(s.body) for s in status_server.seen] == [
        {"key": "k", "value": "v", "shouldTranslate": True},
        {"key": "k2", "value": "v2", "shouldTranslate": False},
    ]


async def test_existing_key_on_a_first_attempt_is_invalid_request(connect_pack: Any, emulator: Any) -> None:
    key = unique_key()
    arguments = {"key": key, "value": "v", "scopeValue": "emails"}
    async with connect_pack(emulator.host_url) as client:
        assert not (await client.call_tool(CREATE_KEY, arguments)).is_error
        error = error_of(await client.call_tool(CREATE_KEY, arguments))
    assert error["code"] == "invalid_request"
    assert error["data"]["status"] == 409
    assert "Key already exists" in error["data"]["body"]
    assert "already exists" in error["error"]


async def test_unknown_scope_is_not_found(connect_pack: Any, emulator: Any) -> None:
    async with connect_pack(emulator.host_url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "no-such-scope"}))
    assert error["code"] == "not_found"
    assert error["data"]["status"] == 404
    assert "no-such-scope" in error["error"] and GET_SCOPES in error["error"]


async def test_a_key_the_service_rejects_is_invalid_request(connect_pack: Any, emulator: Any) -> None:
    # The emulator, like a VARCHAR(255) column, answers 400 to over-long keys; the pack does not
    # pre-judge what the service accepts, so this 400 comes through the tool from the real emulator.
    async with connect_pack(emulator.host_url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, {"key": "k" * 256, "value": "v", "scopeValue": "checkout"}))
    assert error["code"] == "invalid_request"
    assert error["data"]["status"] == 400
    assert "at most 255 characters" in error["error"]
    assert emulator.store.list_keys() == []


@pytest.mark.parametrize("scope_value", HOSTILE_SCOPES)
async def test_scope_value_is_exactly_one_path_segment(connect_pack: Any, emulator: Any, scope_value: str) -> None:
    # Each hostile name is a real scope in the emulator, which routes on the raw (undecoded) path
    # and accepts exactly one segment after keys/. A 204 plus the key stored under precisely this
    # scope proves the value arrived whole: "a/b" as two segments, ".." normalised away, or "?x=1"
    # turned into a query would each have been a 404 (or landed in another scope).
    emulator.store.add_scopes([Scope(scope_value, False)])
    key = unique_key()
    async with connect_pack(emulator.host_url) as client:
        result = await client.call_tool(CREATE_KEY, {"key": key, "value": "v", "scopeValue": scope_value})
    assert not result.is_error, result.structured_content
    assert result.structured_content["scopeValue"] == scope_value
    assert [(k.scope, k.key) for k in emulator.store.list_keys()] == [(scope_value, key)]


async def test_scope_value_encoding_on_the_wire(connect_pack: Any, status_server: Any) -> None:
    status_server.reply.status, status_server.reply.body = 204, b""
    async with connect_pack(status_server.url) as client:
        for scope in ["a/b", "..", ".", "?x=1", "#f", "%2F", "日本"]:
            assert not (await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": scope})).is_error
    prefix = "/ms/strings-admin/internal/keys/"
    assert [s.raw_path.removeprefix(prefix) for s in status_server.seen] == [
        "a%2Fb",
        "%2E%2E",
        "%2E",
        "%3Fx%3D1",
        "%23f",
        "%252F",
        "%E6%97%A5%E6%9C%AC",
    ]


INVALID_ARGUMENTS = [
    ({"value": "v", "scopeValue": "s"}, "key", "missing"),
    ({"key": "", "value": "v", "scopeValue": "s"}, "key", "string_too_short"),
    ({"key": "k", "value": "   ", "scopeValue": "s"}, "value", "string_pattern_mismatch"),
    ({"key": "k", "value": "v", "scopeValue": "\t\n"}, "scopeValue", "string_pattern_mismatch"),
    ({"key": "k", "value": "v"}, "scopeValue", "missing"),
    ({"key": 5, "value": "v", "scopeValue": "s"}, "key", "string_type"),
    ({"key": "k", "value": "v", "scopeValue": "s", "shouldTranslate": "yes"}, "shouldTranslate", "bool_type"),
    ({"key": "k", "value": "v", "scopeValue": "s", "scope": "s"}, "scope", "extra_forbidden"),
]


@pytest.mark.parametrize(("arguments", "field", "kind"), INVALID_ARGUMENTS)
async def test_invalid_arguments_are_invalid_request_and_send_nothing(
    connect_pack: Any, status_server: Any, arguments: dict[str, Any], field: str, kind: str
) -> None:
    # PRD acceptance 4: invalid schema -> invalid_request, rejected before any request.
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, arguments))
    assert error["code"] == "invalid_request"
    assert {"field": field, "kind": kind} in [{"field": p["field"], "kind": p["kind"]} for p in error["data"]["problems"]]
    assert f"`{field}`" in error["error"]
    assert status_server.seen == []


async def test_get_all_scopes_takes_no_arguments(connect_pack: Any, status_server: Any) -> None:
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(GET_SCOPES, {"scope": "x"}))
    assert error["code"] == "invalid_request"
    assert status_server.seen == []


async def test_one_connection_pool_serves_every_call(connect_pack: Any, status_server: Any) -> None:
    # The lifespan opens one httpx.AsyncClient per server: sequential calls reuse one keep-alive
    # connection (same client port) instead of connecting per call.
    async with connect_pack(status_server.url) as client:
        for _ in range(3):
            assert not (await client.call_tool(GET_SCOPES, {})).is_error
    assert len(status_server.seen) == 3
    assert len({s.client_port for s in status_server.seen}) == 1


async def test_lone_surrogates_are_invalid_request(connect_pack: Any, status_server: Any) -> None:
    # Valid JSON ("\ud800"), but not text that can be sent as UTF-8.
    async with connect_pack(status_server.url) as client:
        error = error_of(await client.call_tool(CREATE_KEY, {"key": "k", "value": "v", "scopeValue": "a\ud800"}))
    assert error["code"] == "invalid_request"
    assert "`scopeValue` must be valid Unicode text" in error["error"]
    assert status_server.seen == []
