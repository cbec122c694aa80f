"""The fixtures the official MCP conformance suite (`@modelcontextprotocol/conformance`) calls.

Every tool, prompt and resource here has the name, arguments and answer a suite scenario expects
(tests/conformance/README.md lists the scenarios). It is written on Parlance's pack API alone, no
`mcp` import, so it is also the fullest example of that API: mixed content, log messages,
progress, a released HTTP stream, sampling, elicitation and roots in both protocol eras (several questions in one round,
questions that name their key), completions, resource templates, subscriptions and announcements.

Not for production use: `parlance serve` offers these tools to any client once the pack is
installed and enabled (`[packs] enabled = ["conformance"]`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeAlias

import anyio
from pydantic import BaseModel, ConfigDict, Field

from parlance import (
    Audio,
    EmbeddedResource,
    Image,
    PromptMessage,
    RegisterPrompt,
    RegisterResource,
    RegisterTool,
    ResourceLink,
    Text,
    ToolContext,
    ToolError,
    ToolResult,
    hookimpl,
)
from parlance_conformance.media import PNG, WAV

PARLANCE_HOST_API = "1.1"

STEP_S = 0.05
"""The pause between the log messages and progress steps of one call: clients must see them arrive
one by one, during the call."""


class NoArguments(BaseModel):
    pass


def _content(*blocks: Any) -> ToolResult[None]:
    return ToolResult(content=list(blocks))


# --- content ---------------------------------------------------------------------------------------

async def simple_text(args: NoArguments) -> ToolResult[None]:
    """Returns a single text block."""
    return _content(Text("This is a simple text response for testing."))


async def image_content(args: NoArguments) -> ToolResult[None]:
    """Returns a PNG image."""
    return _content(Image(PNG, "image/png"))


async def audio_content(args: NoArguments) -> ToolResult[None]:
    """Returns a WAV clip."""
    return _content(Audio(WAV, "audio/wav"))


async def embedded_resource(args: NoArguments) -> ToolResult[None]:
    """Returns a resource embedded in the result."""
    return _content(EmbeddedResource("test://embedded-resource", text="This is an embedded resource content.",
                                     mime_type="text/plain"))


async def multiple_content_types(args: NoArguments) -> ToolResult[None]:
    """Returns text, an image, an embedded resource and a link to a resource, in one result."""
    return _content(
        Text("Multiple content types test:"),
        Image(PNG, "image/png"),
        EmbeddedResource("test://mixed-content-resource", text=json.dumps({"test": "data", "value": 123}),
                         mime_type="application/json"),
        ResourceLink("test://static-text", name="static-text", mime_type="text/plain"),
    )


class Fact(BaseModel):
    """A structured result beside its own content blocks."""

    word: str
    letters: int


async def structured_with_image(args: NoArguments) -> ToolResult[Fact]:
    """Returns structured content (the output schema's object) and an image beside its JSON text."""
    fact = Fact(word="pixel", letters=5)
    return ToolResult(fact, content=[Text(fact.model_dump_json()), Image(PNG, "image/png")])


# --- notifications during a call -------------------------------------------------------------------

async def tool_with_logging(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Sends three log messages to the client while it runs."""
    await ctx.log("info", "Tool execution started")
    await anyio.sleep(STEP_S)
    await ctx.log("info", "Tool processing data", {"step": 2})
    await anyio.sleep(STEP_S)
    await ctx.log("info", "Tool execution completed")
    return _content(Text("Tool with logging executed successfully"))


async def logging_tool(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Logs at every level; the client hears those at or above the level it asked for, and on
    2026-07-28 nothing unless the request opted in."""
    for level in ("debug", "info", "warning", "error"):
        await ctx.log(level, f"a {level} message")
    return _content(Text("Logged at debug, info, warning and error"))


async def tool_with_progress(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Reports progress 0, 50 and 100 of 100 while it runs."""
    for done in (0, 50, 100):
        await ctx.report_progress(done, 100, f"{done}% done")
        if done < 100:
            await anyio.sleep(STEP_S)
    return _content(Text("Tool with progress completed"))


async def reconnection(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Lets go of its HTTP stream mid-call; the client reconnects and still gets the result (SSE polling)."""
    await ctx.log("info", "Before disconnect")
    released = await ctx.close_stream()
    await anyio.sleep(4 * STEP_S)
    await ctx.log("info", "After reconnect")
    return _content(Text("Reconnection test completed" if released else "Completed without a stream to release"))


async def error_handling(args: NoArguments) -> ToolResult[None]:
    """Always fails, as a tool result the model can read (isError), not a protocol error."""
    raise ToolError("INTENTIONAL", "This tool intentionally returns an error for testing")


# --- asking the client ------------------------------------------------------------------------------

class SamplingIn(BaseModel):
    prompt: str = Field(description="what to ask the client's model")


async def sampling(args: SamplingIn, ctx: ToolContext) -> ToolResult[None]:
    """Asks the client's model (MCP sampling) and returns its answer."""
    answer = await ctx.sample(args.prompt, max_tokens=100)
    return _content(Text(f"LLM response: {answer.text}"))


async def missing_capability(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Needs sampling: without the client's `sampling` capability it cannot run (on 2026-07-28 the
    protocol error -32021)."""
    answer = await ctx.sample("Say OK.", max_tokens=10)
    return _content(Text(f"The client sampled: {answer.text}"))


class ElicitationIn(BaseModel):
    message: str = Field(description="what to ask the user")


USER_FORM = {
    "type": "object",
    "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
    "required": ["username", "email"],
}


async def elicitation(args: ElicitationIn, ctx: ToolContext) -> ToolResult[None]:
    """Asks the user for a name and an email address (MCP elicitation)."""
    answer = await ctx.elicit(args.message, USER_FORM)
    return _content(Text(f"User response: action={answer.action}, content={json.dumps(answer.content)}"))


DEFAULTS_FORM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"],
                   "default": "active"},
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}


async def elicitation_defaults(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks for a form whose every field has a default the client can prefill (SEP-1034)."""
    answer = await ctx.elicit("Please review and update the form fields with defaults", DEFAULTS_FORM)
    return _content(Text(f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"))


def _options(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"const": value, "title": title} for value, title in pairs]


ENUMS_FORM = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": _options(("value1", "First Option"), ("value2", "Second Option"),
                                                             ("value3", "Third Option"))},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": _options(("value1", "First Choice"),
                                                                    ("value2", "Second Choice"),
                                                                    ("value3", "Third Choice"))}},
    },
}


async def elicitation_enums(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks for choices in every enum shape MCP defines: titled and untitled, single and multiple (SEP-1330)."""
    answer = await ctx.elicit("Please choose from the options", ENUMS_FORM)
    return _content(Text(f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"))


def _one_string(name: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}


async def streaming_elicitation(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks the user one question; on 2026-07-28 that ends the call with the question, never a
    request in the middle of its stream."""
    answer = await ctx.elicit("What is your name?", _one_string("name"))
    return _content(Text(f"Hello, {(answer.content or {}).get('name', 'stranger')}!"))


async def input_required_elicitation(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks the user's name under the key `user_name`."""
    answer = await ctx.elicit("What is your name?", _one_string("name"), key="user_name")
    return _content(Text(f"Hello, {(answer.content or {}).get('name', 'stranger')}!"))


async def input_required_sampling(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks the client's model under the key `capital_question`."""
    answer = await ctx.sample("What is the capital of France?", max_tokens=100, key="capital_question")
    return _content(Text(f"The model says: {answer.text}"))


async def input_required_list_roots(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks for the client's roots under the key `client_roots`."""
    roots = await ctx.list_roots(key="client_roots")
    return _content(Text("Roots: " + ", ".join(f"{r.name or '?'} ({r.uri})" for r in roots)))


async def input_required_request_state(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks for a confirmation; the answer must survive the round trip through the request state."""
    answer = await ctx.elicit("Please confirm", {"type": "object", "properties": {"ok": {"type": "boolean"}},
                                                 "required": ["ok"]}, key="confirm")
    confirmed = answer.accepted and (answer.content or {}).get("ok") is True
    return _content(Text("state-ok: confirmed" if confirmed else "state-ok: not confirmed"))


async def input_required_multiple_inputs(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks three questions at once (elicitation, sampling, roots): one round carries them all."""
    found: dict[str, Any] = {}

    async def name() -> None:
        found["name"] = await ctx.elicit("What is your name?", _one_string("name"), key="user_name")

    async def greeting() -> None:
        found["greeting"] = await ctx.sample("Write a one-word greeting.", max_tokens=20, key="greeting")

    async def roots() -> None:
        found["roots"] = await ctx.list_roots(key="client_roots")

    async with anyio.create_task_group() as questions:
        for ask in (name, greeting, roots):
            questions.start_soon(ask)
    who = (found["name"].content or {}).get("name", "stranger")
    return _content(Text(f"{found['greeting'].text} {who}! ({len(found['roots'])} roots)"))


async def input_required_multi_round(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks two questions one after the other: the second round is asked only once the first is answered."""
    name = await ctx.elicit("Step 1: What is your name?", _one_string("name"), key="step1")
    color = await ctx.elicit("Step 2: What is your favorite color?", _one_string("color"), key="step2")
    return _content(Text(f"{(name.content or {}).get('name')} likes {(color.content or {}).get('color')}"))


async def input_required_tampered_state(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks one question; a request state altered by the client is refused before this runs again."""
    answer = await ctx.elicit("Please confirm", {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                              key="confirm")
    return _content(Text(f"action={answer.action}"))


async def input_required_capabilities(args: NoArguments, ctx: ToolContext) -> ToolResult[None]:
    """Asks only what the client can answer: the user when it offers elicitation, else its model."""
    if ctx.can_elicit:
        answer = await ctx.elicit("What is your name?", _one_string("name"), key="user_name")
        return _content(Text(f"Hello, {(answer.content or {}).get('name')}!"))
    sampled = await ctx.sample("Pick a name.", max_tokens=20, key="name_from_model")
    return _content(Text(f"Hello, {sampled.text}!"))


# --- schemas ----------------------------------------------------------------------------------------

JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        },
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


class Contact(BaseModel):
    """The fields the 2020-12 schema declares; the schema itself is advertised as written."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    address: dict[str, str] | None = None
    contactMethod: str | None = None  # noqa: N815 - the schema's own spelling
    phone: str | None = None
    email: str | None = None


async def json_schema_2020_12(args: Contact) -> ToolResult[None]:
    """Tool with JSON Schema 2020-12 features: $defs, $anchor, allOf/anyOf, if/then/else."""
    return _content(Text(f"Contact {args.name or 'unnamed'} by {args.contactMethod or 'any means'}"))


class RegionIn(BaseModel):
    region: str = Field(default="<none>", description="also sent as the Mcp-Param-Region header")


REGION_SCHEMA = {
    "type": "object",
    "properties": {"region": {"type": "string", "description": "also sent as the Mcp-Param-Region header",
                              "x-mcp-header": "Region"}},
}


async def x_mcp_header(args: RegionIn) -> ToolResult[None]:
    """Echoes a parameter that 2026-07-28 clients also send as an HTTP header (`x-mcp-header`)."""
    return _content(Text(f"region={args.region}"))


# --- resources --------------------------------------------------------------------------------------

WATCHED = "test://watched-resource"

WatchedContext: TypeAlias = ToolContext[None, dict[str, str]]
"""The context of what reads or changes the watched resource: no settings; the lifespan's state."""


async def static_text(ctx: ToolContext) -> str:
    return "This is the content of the static text resource."


async def static_binary(ctx: ToolContext) -> bytes:
    return PNG


async def watched(ctx: WatchedContext) -> str:
    return ctx.state["watched"]


async def template_data(ctx: ToolContext, id: str) -> dict[str, Any]:  # noqa: A002 - the template's name
    return {"id": id, "templateTest": True, "data": f"Data for ID: {id}"}


async def complete_id(value: str, context: dict[str, str]) -> list[str]:
    return [str(n) for n in range(100, 130) if str(n).startswith(value)]


class WatchedIn(BaseModel):
    text: str = Field(max_length=200, description="the watched resource's new content")


async def update_watched_resource(args: WatchedIn, ctx: WatchedContext) -> ToolResult[None]:
    """Changes test://watched-resource; clients subscribed to it are told (`resources/updated`)."""
    ctx.state["watched"] = args.text
    await ctx.announce.resource_updated(WATCHED)
    return _content(Text(f"{WATCHED} updated"))


# --- prompts ----------------------------------------------------------------------------------------

async def simple_prompt(args: NoArguments, ctx: ToolContext) -> str:
    return "This is a simple prompt for testing."


class PromptArguments(BaseModel):
    arg1: str = Field(description="First test argument")
    arg2: str = Field(description="Second test argument")


async def prompt_with_arguments(args: PromptArguments, ctx: ToolContext) -> str:
    return f"Prompt with arguments: arg1='{args.arg1}', arg2='{args.arg2}'"


async def complete_arg1(value: str, context: dict[str, str]) -> list[str]:
    return [word for word in ("test", "testValue1", "tested", "value") if word.startswith(value)]


class ResourceArguments(BaseModel):
    resourceUri: str = Field(description="URI of the resource to embed")  # noqa: N815 - the suite's spelling


async def prompt_with_embedded_resource(args: ResourceArguments, ctx: ToolContext) -> list[PromptMessage]:
    return [
        PromptMessage("user", content=EmbeddedResource(args.resourceUri, text="Embedded resource content for testing.",
                                                       mime_type="text/plain")),
        PromptMessage("user", "Please process the embedded resource above."),
    ]


async def prompt_with_image(args: NoArguments, ctx: ToolContext) -> list[PromptMessage]:
    return [PromptMessage("user", content=Image(PNG, "image/png")),
            PromptMessage("user", "Please analyze the image above.")]


async def input_required_prompt(args: NoArguments, ctx: ToolContext) -> str:
    answer = await ctx.elicit("What context should the prompt use?", _one_string("context"), key="user_context")
    return f"Answer with this context in mind: {(answer.content or {}).get('context')}"


# --- hooks -----------------------------------------------------------------------------------------

TOOLS: list[tuple[Any, str]] = [  # test_simple_text first: the suite calls the first listed tool with {}
    (simple_text, "test_simple_text"),
    (image_content, "test_image_content"),
    (audio_content, "test_audio_content"),
    (embedded_resource, "test_embedded_resource"),
    (multiple_content_types, "test_multiple_content_types"),
    (structured_with_image, "test_structured_with_image"),
    (tool_with_logging, "test_tool_with_logging"),
    (logging_tool, "test_logging_tool"),
    (tool_with_progress, "test_tool_with_progress"),
    (reconnection, "test_reconnection"),
    (error_handling, "test_error_handling"),
    (sampling, "test_sampling"),
    (missing_capability, "test_missing_capability"),
    (elicitation, "test_elicitation"),
    (elicitation_defaults, "test_elicitation_sep1034_defaults"),
    (elicitation_enums, "test_elicitation_sep1330_enums"),
    (streaming_elicitation, "test_streaming_elicitation"),
    (input_required_elicitation, "test_input_required_result_elicitation"),
    (input_required_sampling, "test_input_required_result_sampling"),
    (input_required_list_roots, "test_input_required_result_list_roots"),
    (input_required_request_state, "test_input_required_result_request_state"),
    (input_required_multiple_inputs, "test_input_required_result_multiple_inputs"),
    (input_required_multi_round, "test_input_required_result_multi_round"),
    (input_required_tampered_state, "test_input_required_result_tampered_state"),
    (input_required_capabilities, "test_input_required_result_capabilities"),
    (update_watched_resource, "test_update_watched_resource"),
]


@hookimpl
def parlance_register_tools(register: RegisterTool) -> None:
    for handler, name in TOOLS:
        register(handler, name=name)
    register(json_schema_2020_12, name="json_schema_2020_12_tool", input_schema=JSON_SCHEMA_2020_12)
    register(x_mcp_header, name="test_x_mcp_header", input_schema=REGION_SCHEMA)


@hookimpl
def parlance_register_prompts(register: RegisterPrompt) -> None:
    register(simple_prompt, name="test_simple_prompt", description="A prompt without arguments")
    register(prompt_with_arguments, name="test_prompt_with_arguments", description="A prompt with two arguments",
             complete={"arg1": complete_arg1})
    register(prompt_with_embedded_resource, name="test_prompt_with_embedded_resource",
             description="A prompt that embeds a resource")
    register(prompt_with_image, name="test_prompt_with_image", description="A prompt that shows an image")
    register(input_required_prompt, name="test_input_required_result_prompt",
             description="A prompt that asks the user for context first")


@hookimpl
def parlance_register_resources(register: RegisterResource) -> None:
    # test://static-text first: the suite reads the first listed resource.
    register(static_text, uri="test://static-text", name="static-text", mime_type="text/plain",
             description="A static text resource")
    register(static_binary, uri="test://static-binary", name="static-binary", mime_type="image/png",
             description="A static binary resource (a PNG)")
    register(watched, uri=WATCHED, name="watched-resource", mime_type="text/plain",
             description="A resource to subscribe to; test_update_watched_resource changes it")
    register(template_data, uri="test://template/{id}/data", name="template-data", mime_type="application/json",
             description="Data for an id", complete={"id": complete_id})


@contextlib.asynccontextmanager
async def _state() -> AsyncIterator[dict[str, str]]:
    yield {"watched": "Watched resource content"}  # shared by every session, changed by a tool


@hookimpl
def parlance_lifespan() -> AbstractAsyncContextManager[dict[str, str]]:
    return _state()
