"""Prompts and completions (prompt arguments and the resource template's variable)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import MCPError
from mcp.types import ElicitResult, PromptReference, ResourceTemplateReference

from conformance_checks import accepted, png_size

pytestmark = pytest.mark.anyio

PROMPTS = [
    ("test_simple_prompt", []),
    ("test_prompt_with_arguments", [("arg1", True), ("arg2", True)]),
    ("test_prompt_with_embedded_resource", [("resourceUri", True)]),
    ("test_prompt_with_image", []),
    ("test_input_required_result_prompt", []),
]


async def test_five_prompts_with_required_arguments(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        prompts = (await client.list_prompts()).prompts
    assert [(p.name, [(a.name, a.required) for a in p.arguments]) for p in prompts] == PROMPTS
    assert all(p.description for p in prompts)
    assert [a.description for a in prompts[1].arguments] == ["First test argument", "Second test argument"]


async def test_simple_prompt(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        rendered = await client.get_prompt("test_simple_prompt")
    [message] = rendered.messages
    assert (message.role, message.content.type) == ("user", "text")
    assert message.content.text == "This is a simple prompt for testing."


async def test_prompt_with_arguments(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        rendered = await client.get_prompt("test_prompt_with_arguments", {"arg1": "first", "arg2": "second"})
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("test_prompt_with_arguments", {"arg1": "first"})
    assert rendered.messages[0].content.text == "Prompt with arguments: arg1='first', arg2='second'"
    assert caught.value.error.code == -32602
    assert "arg2" in caught.value.error.message


async def test_prompt_with_embedded_resource(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        rendered = await client.get_prompt("test_prompt_with_embedded_resource", {"resourceUri": "test://example"})
    embedded, instruction = rendered.messages
    assert (embedded.role, embedded.content.type) == ("user", "resource")
    resource = embedded.content.resource
    assert (resource.uri, resource.mime_type, resource.text) == (
        "test://example", "text/plain", "Embedded resource content for testing.")
    assert instruction.content.text == "Please process the embedded resource above."


async def test_prompt_with_image(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        rendered = await client.get_prompt("test_prompt_with_image")
    image, instruction = rendered.messages
    assert (image.role, image.content.type, image.content.mime_type) == ("user", "image", "image/png")
    assert png_size(image.content.data) == (1, 1)
    assert instruction.content.text == "Please analyze the image above."


async def test_input_required_prompt_asks_the_user_first(conformance: Any, mode: str) -> None:
    asked: list[str] = []

    async def user(context: Any, params: Any) -> ElicitResult:
        asked.append(params.message)
        return accepted(context="a formal letter")

    async with conformance(mode, elicitation_callback=user) as client:
        rendered = await client.get_prompt("test_input_required_result_prompt")
    assert rendered.messages[0].content.text == "Answer with this context in mind: a formal letter"
    assert asked == ["What context should the prompt use?"]


# --- completions ------------------------------------------------------------------------------------

ARGUMENTS = PromptReference(type="ref/prompt", name="test_prompt_with_arguments")
TEMPLATE = ResourceTemplateReference(type="ref/resource", uri="test://template/{id}/data")


@pytest.mark.parametrize(("ref", "argument", "value", "expected"), [
    (ARGUMENTS, "arg1", "te", ["test", "testValue1", "tested"]),
    (ARGUMENTS, "arg1", "testV", ["testValue1"]),
    (ARGUMENTS, "arg1", "", ["test", "testValue1", "tested", "value"]),
    (ARGUMENTS, "arg1", "zz", []),
    (ARGUMENTS, "arg2", "te", []),  # no completer for arg2
    (TEMPLATE, "id", "11", [str(n) for n in range(110, 120)]),
    (TEMPLATE, "id", "129", ["129"]),
    (TEMPLATE, "id", "2", []),
])
async def test_completion_filters_by_prefix(conformance: Any, mode: str, ref: Any, argument: str, value: str,
                                            expected: list[str]) -> None:
    async with conformance(mode) as client:
        completion = (await client.complete(ref, {"name": argument, "value": value})).completion
    assert completion.values == expected
    assert completion.total == len(expected)
    assert completion.has_more is False


async def test_completions_capability_is_declared(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        assert client.server_capabilities.completions is not None


async def test_completion_of_an_unknown_prompt_is_an_error(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.complete(PromptReference(type="ref/prompt", name="no_such_prompt"),
                                  {"name": "arg1", "value": ""})
    assert caught.value.error.code == -32602
