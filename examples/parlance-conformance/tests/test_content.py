"""Content tools: every block type the suite checks, exactly as it goes on the wire, in both eras."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.types import TextResourceContents

from conformance_checks import png_size, text_of, wav_params
from parlance_conformance import pack

pytestmark = pytest.mark.anyio

CONTENT_ONLY = [name for _, name in pack.TOOLS if name != "test_structured_with_image"] + [
    "json_schema_2020_12_tool", "test_x_mcp_header"]


async def test_every_fixture_is_listed_and_simple_text_comes_first(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
    assert names[0] == "test_simple_text"  # the suite calls the first listed tool with {}
    assert sorted(names) == sorted([name for _, name in pack.TOOLS] + ["json_schema_2020_12_tool",
                                                                      "test_x_mcp_header"])


async def test_content_only_tools_declare_no_output_schema(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {name: tools[name].output_schema for name in CONTENT_ONLY} == dict.fromkeys(CONTENT_ONLY)
    assert tools["test_structured_with_image"].output_schema is not None


async def test_simple_text(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_simple_text", {})
    assert result.is_error is False
    assert text_of(result) == "This is a simple text response for testing."
    assert result.structured_content is None


async def test_image_content_is_a_base64_png(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_image_content", {})
    [image] = result.content
    assert (image.type, image.mime_type) == ("image", "image/png")
    assert png_size(image.data) == (1, 1)
    assert result.structured_content is None and result.is_error is False


async def test_audio_content_is_a_base64_wav(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_audio_content", {})
    [audio] = result.content
    assert (audio.type, audio.mime_type) == ("audio", "audio/wav")
    params = wav_params(audio.data)
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 8000)
    assert params.nframes == 80  # 10 ms at 8 kHz
    assert result.structured_content is None


async def test_embedded_resource_carries_uri_text_and_mime_type(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_embedded_resource", {})
    [block] = result.content
    assert block.type == "resource"
    resource = block.resource
    assert (resource.uri, resource.mime_type, resource.text) == (
        "test://embedded-resource", "text/plain", "This is an embedded resource content.")
    assert isinstance(resource, TextResourceContents)  # text, not a blob
    assert result.structured_content is None


async def test_multiple_content_types_in_order(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_multiple_content_types", {})
        # The link must lead somewhere: the client can read what it points to.
        linked = await client.read_resource("test://static-text")
    text, image, embedded, link = result.content
    assert [block.type for block in result.content] == ["text", "image", "resource", "resource_link"]
    assert text.text == "Multiple content types test:"
    assert image.mime_type == "image/png" and png_size(image.data) == (1, 1)
    assert (embedded.resource.uri, embedded.resource.mime_type) == ("test://mixed-content-resource",
                                                                   "application/json")
    assert json.loads(embedded.resource.text) == {"test": "data", "value": 123}
    assert (link.uri, link.name, link.mime_type) == ("test://static-text", "static-text", "text/plain")
    assert link.title is None and link.description is None  # not declared, not invented
    assert linked.contents[0].text == "This is the content of the static text resource."
    assert result.structured_content is None


async def test_structured_with_image(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        tool = {t.name: t for t in (await client.list_tools()).tools}["test_structured_with_image"]
        result = await client.call_tool("test_structured_with_image", {})
    # The output schema admits the tool's object (and the host's error envelope beside it).
    assert {"word": {"type": "string"}, "letters": {"type": "integer"}} in [
        branch.get("properties") for branch in tool.output_schema["anyOf"]]
    assert result.is_error is False
    assert result.structured_content == {"word": "pixel", "letters": 5}
    text, image = result.content
    assert (text.type, image.type, image.mime_type) == ("text", "image", "image/png")
    assert json.loads(text.text) == result.structured_content
    assert png_size(image.data) == (1, 1)


async def test_error_handling_is_an_error_result_with_text(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_error_handling", {})
        still_serving = await client.call_tool("test_simple_text", {})
    assert result.is_error is True
    assert text_of(result) == "INTENTIONAL: This tool intentionally returns an error for testing"
    assert result.structured_content["code"] == "INTENTIONAL"
    assert still_serving.is_error is False
