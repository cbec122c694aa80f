"""Input schemas advertised as the pack wrote them: JSON Schema 2020-12 keywords and `x-mcp-header`."""

from __future__ import annotations

from typing import Any

import pytest

from conformance_checks import text_of
from parlance_conformance import pack

pytestmark = pytest.mark.anyio


async def input_schema(client: Any, tool: str) -> dict[str, Any]:
    return {t.name: t for t in (await client.list_tools()).tools}[tool].input_schema


async def test_json_schema_2020_12_is_listed_exactly(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        schema = await input_schema(client, "json_schema_2020_12_tool")
    assert schema == pack.JSON_SCHEMA_2020_12
    # The keywords the suite looks for, spelled out so a change to the pack's constant is noticed too.
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$defs"]["address"]["$anchor"] == "addressDef"
    assert schema["properties"]["address"] == {"$ref": "#/$defs/address"}
    assert {"allOf", "if", "then", "else"} <= schema.keys() and schema["additionalProperties"] is False


async def test_json_schema_2020_12_tool_accepts_a_valid_contact(conformance: Any, mode: str) -> None:
    contact = {"name": "Ada", "contactMethod": "email", "email": "ada@example.org",
               "address": {"street": "1 Analytical Way", "city": "London"}}
    async with conformance(mode) as client:
        result = await client.call_tool("json_schema_2020_12_tool", contact)
    assert result.is_error is False
    assert text_of(result) == "Contact Ada by email"


async def test_json_schema_2020_12_tool_refuses_an_unknown_property(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("json_schema_2020_12_tool", {"email": "a@b.c", "fax": "123"})
    assert result.is_error is True
    assert result.structured_content["code"] == "INVALID_ARGUMENTS"
    assert result.structured_content["data"]["field"] == "fax"


async def test_x_mcp_header_is_kept_in_the_schema(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        schema = await input_schema(client, "test_x_mcp_header")
        result = await client.call_tool("test_x_mcp_header", {"region": "eu-west"})
        default = await client.call_tool("test_x_mcp_header", {})
    assert schema == pack.REGION_SCHEMA
    assert schema["properties"]["region"]["x-mcp-header"] == "Region"
    assert text_of(result) == "region=eu-west"
    assert text_of(default) == "region=<none>"


@pytest.mark.parametrize(("arguments", "field", "kind"), [
    ({}, "", "schema_anyOf"),                                            # allOf/anyOf: a phone or an email
    ({"contactMethod": "phone", "email": "a@b.c"}, "phone", "schema_required"),   # if/then
    ({"name": "Ada"}, "", "schema_anyOf"),
    ({"contactMethod": "post", "email": "a@b.c"}, "contactMethod", "schema_enum"),
])
async def test_the_host_checks_arguments_against_the_advertised_2020_12_schema(
        conformance: Any, mode: str, arguments: dict[str, Any], field: str, kind: str) -> None:
    """The handler's model cannot say "a phone or an email" or "if phone then a number": the host
    checks the schema it advertised, and the problem names the rule, never the value."""
    async with conformance(mode) as client:
        result = await client.call_tool("json_schema_2020_12_tool", arguments)
    assert result.is_error is True
    data = result.structured_content["data"]
    assert result.structured_content["code"] == "INVALID_ARGUMENTS"
    assert (data["field"], data["problems"][0]["kind"]) == (field, kind)
    assert "a@b.c" not in text_of(result) and "post" not in text_of(result)
