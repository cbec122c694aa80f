"""The pack API of host API 1.1, contract by contract, through real MCP clients.

In-process clients (`parlance.testing.connect`) in both protocol eras for most contracts; a raw stdio
session for the exact wire bytes of content blocks and notifications; one `parlance serve --transport
http` for what only several sessions on one server can show (per-session log levels, who hears a
resource update). The fixture pack in examples/parlance-conformance has its happy paths tested there;
here are the edges: what registration refuses, what a broken result becomes, what never leaks.

The last tests are regressions of host defects this module found (each comment says what was wrong).
"""

from __future__ import annotations

import base64
import json
import logging
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPDeprecationWarning, MCPError
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.types import (
    CreateMessageResult,
    ElicitResult,
    ErrorData,
    PromptReference,
    ResourceListChangedNotification,
    ResourceTemplateReference,
    ResourceUpdatedNotification,
    TextContent,
)

from parlance import EmbeddedResource, PromptMessage, Text, ToolContext, ToolResult
from parlance.config import config_from_dict
from parlance.hookspecs import HOST_API
from parlance.packs import load_packs
from parlance.testing import connect
from tests.host.packs_for_api_tests import (
    BLOB_BYTES,
    LANGUAGES,
    LEVELS,
    PNG_BYTES,
    SECRET,
    WAV_BYTES,
    WIRE_PACK_SOURCE,
    AnnouncingPack,
    CompletionPack,
    ContentPack,
    ElicitPack,
    EnumFormPack,
    LoggingPack,
    NewerMinorApiPack,
    OlderMinorApiPack,
    QuestionsPack,
    RegistersOne,
    StrBlobPack,
    TranslateArgs,
    ToolsOnlyPack,
    complete_file,
    complete_language,
    complete_synchronously,
    file_resource,
    language_prompt,
    prompt_without_context,
    resource_not_async,
)
from tests.host.test_stdio import _initialized, _line_within
from tests.support import parlance_http, write_fake_dist

pytestmark = pytest.mark.anyio

MARKER = "MARKER-c41d"
"""A tool argument that must never reach a notification or a log line: packs log what they choose."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def _until(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Wait for a notification to arrive (they travel apart from the reply that caused them)."""
    with anyio.fail_after(seconds):
        while not condition():
            await anyio.sleep(0.01)


async def _handshake_era(call: Any, *args: Any) -> Any:
    """Await a client method the SDK marks deprecated for 2026-07-28 (setLevel, subscribe): these tests
    drive the handshake era on purpose."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return await call(*args)


def _internal(tool: str) -> str:
    return f"INTERNAL: {tool} failed unexpectedly; the server log has the details"


# --- 1. registration refuses what cannot work --------------------------------------------------------------


@pytest.mark.parametrize(("pack", "error"), [
    (RegistersOne("prompts", language_prompt, name="translate", complete={"dialect": complete_language}),
     "prompt 'translate': complete= names argument 'dialect', which it does not have "
     "(it has: language, region, tone, note)"),
    (RegistersOne("resources", file_resource, uri="docs://files/{name}", name="file", complete={"path": complete_file}),
     "resource 'docs://files/{name}': complete= names uri parameter 'path', which it does not have (it has: name)"),
    (RegistersOne("resources", file_resource, uri="docs://index", name="index", complete={"name": complete_file}),
     "resource 'docs://index': complete= names uri parameter 'name', which it does not have (it has: none)"),
    (RegistersOne("prompts", language_prompt, name="translate", complete={"language": complete_synchronously}),
     "prompt 'translate': the completion for 'language' must be an `async def` function"),
    (RegistersOne("resources", file_resource, uri="docs://files/{name}", name="file",
                  complete={"name": complete_synchronously}),
     "resource 'docs://files/{name}': the completion for 'name' must be an `async def` function"),
], ids=["prompt-argument", "template-parameter", "static-resource", "sync-prompt-completer", "sync-template-completer"])
def test_a_completer_that_cannot_work_fails_its_pack_alone(pack: RegistersOne, error: str) -> None:
    packs = load_packs(config_from_dict({}), plugins={"broken": pack, "fine": ToolsOnlyPack()})
    states = {r.name: (r.state, r.error) for r in packs.records}
    assert states == {"broken": ("failed", error), "fine": ("loaded", None)}
    assert list(packs.registry.tools) == ["ping"] and packs.registry.prompts == {}
    assert packs.registry.resource_templates == [] and packs.registry.resources == {}


@pytest.mark.parametrize("arguments", [{}, {"text": "alpha", "data": b"alpha"}], ids=["neither", "both"])
def test_an_embedded_resource_takes_text_or_data(arguments: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as caught:
        EmbeddedResource("mem://notes/a.txt", **arguments)
    assert str(caught.value) == "EmbeddedResource 'mem://notes/a.txt': give exactly one of text= or data="


# --- 2. content blocks -------------------------------------------------------------------------------------


async def test_every_content_block_reaches_the_client(mode: str) -> None:
    async with connect({"content": ContentPack()}, mode=mode) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        result = await client.call_tool("every_block", {})
    assert listed["every_block"].output_schema is None  # `-> ToolResult[None]`: content only
    assert listed["value_and_blocks"].output_schema is not None
    assert result.is_error is False and result.structured_content is None
    blocks = [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content]
    assert blocks == [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": _b64(PNG_BYTES), "mimeType": "image/png"},
        {"type": "audio", "data": _b64(WAV_BYTES), "mimeType": "audio/wav"},
        {"type": "resource", "resource": {"uri": "mem://notes/a.txt", "mimeType": "text/plain", "text": "alpha"}},
        {"type": "resource", "resource": {"uri": "mem://notes/b.bin", "blob": _b64(BLOB_BYTES)}},
        {"type": "resource_link", "uri": "mem://notes/c", "name": "c"},
        {"type": "resource_link", "uri": "mem://notes/d", "name": "d", "title": "D", "description": "the fourth",
         "mimeType": "text/markdown"},
    ]


async def test_a_value_with_content_gets_structured_content_and_exactly_those_blocks(mode: str) -> None:
    async with connect({"content": ContentPack()}, mode=mode) as client:
        both = await client.call_tool("value_and_blocks", {})
        text_only = await client.call_tool("value_and_text", {})
    assert both.structured_content == {"note": "structured"}
    assert [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in both.content] == [
        {"type": "text", "text": "see the picture"},
        {"type": "image", "data": _b64(PNG_BYTES), "mimeType": "image/png"},
    ]  # no JSON text block added: `content` replaces the blocks altogether
    assert text_only.structured_content == {"note": "structured"}
    assert [(b.type, b.text) for b in text_only.content] == [("text", "custom text")]


@pytest.mark.parametrize(("tool", "why"), [
    ("content_only_with_value", "is declared -> ToolResult[None]"),
    ("content_only_without_content", "is declared -> ToolResult[None]"),
    ("content_only_returns_a_model", "is declared -> ToolResult[None]"),
    ("dict_in_content", "returned bad content: dict is not a content block"),
    ("str_image", "returned bad content: Image.data is str"),
])
async def test_a_result_that_breaks_the_content_contract_is_internal_without_its_text(
        mode: str, tool: str, why: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="parlance")
    async with connect({"content": ContentPack()}, mode=mode) as client:
        result = await client.call_tool(tool, {})
        after = await client.call_tool("value_and_text", {})
    assert result.is_error is True
    assert [(b.type, b.text) for b in result.content] == [("text", _internal(tool))]
    assert result.structured_content == {"error": f"{tool} failed unexpectedly; the server log has the details",
                                         "code": "INTERNAL", "data": {}}
    assert after.structured_content == {"note": "structured"}  # still serving
    crashes = [r for r in caplog.records if r.getMessage() == "tool.crashed"]
    assert len(crashes) == 1 and f"TypeError: {tool} {why}" in (crashes[0].exc_text or "")  # the reason: log only


async def test_prompt_messages_carry_content_blocks(mode: str) -> None:
    async with connect({"content": ContentPack()}, mode=mode) as client:
        rendered = await client.get_prompt("blocks_prompt", {"text": "draft"})
    messages = [m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in rendered.messages]
    assert messages == [
        {"role": "user", "content": {"type": "text", "text": "Look at this: draft"}},
        {"role": "user", "content": {"type": "image", "data": _b64(PNG_BYTES), "mimeType": "image/png"}},
        {"role": "assistant", "content": {"type": "resource", "resource": {
            "uri": "mem://notes/a.txt", "mimeType": "text/plain", "text": "alpha"}}},
        {"role": "user", "content": {"type": "resource_link", "uri": "mem://notes/c", "name": "c"}},
    ]


# --- 3. ctx.log --------------------------------------------------------------------------------------------


def _log_collector() -> tuple[list[dict[str, Any]], Callable[[Any], Any]]:
    seen: list[dict[str, Any]] = []

    async def on_log(params: Any) -> None:
        seen.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))

    return seen, on_log


async def test_handshake_era_logs_from_info_until_the_client_sets_a_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="parlance")
    seen, on_log = _log_collector()
    async with connect({"log": LoggingPack()}, mode="legacy", logging_callback=on_log) as client:
        await client.call_tool("log_each_level", {"text": MARKER})
        by_default = list(seen)
        seen.clear()
        await _handshake_era(client.set_logging_level, "error")
        result = await client.call_tool("log_each_level", {"text": MARKER})
    assert by_default == [{"level": level, "logger": "log", "data": f"{level} message"} for level in LEVELS[1:]]
    assert [entry["level"] for entry in seen] == ["error", "critical", "alert", "emergency"]
    assert result.structured_content == {"note": f"logged {len(MARKER)} characters"}
    everything = json.dumps(by_default + seen) + " ".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert MARKER not in everything  # neither the client nor the server log saw the argument


async def test_log_data_goes_with_the_message(mode: str) -> None:
    seen, on_log = _log_collector()
    async with connect({"log": LoggingPack()}, mode=mode, logging_callback=on_log, log_level="debug") as client:
        await client.call_tool("log_with_data", {"text": MARKER})
    assert seen == [{"level": "warning", "logger": "log",
                     "data": {"message": "counted", "data": {"characters": len(MARKER)}}}]


async def test_2026_sends_logs_only_to_a_request_that_opted_in() -> None:
    silent, on_silent = _log_collector()
    async with connect({"log": LoggingPack()}, logging_callback=on_silent) as client:
        await client.call_tool("log_each_level", {"text": MARKER})
    opted, on_opted = _log_collector()
    async with connect({"log": LoggingPack()}, logging_callback=on_opted, log_level="warning") as client:
        await client.call_tool("log_each_level", {"text": MARKER})
    assert silent == []
    assert [entry["level"] for entry in opted] == ["warning", "error", "critical", "alert", "emergency"]


async def test_an_unknown_log_level_is_the_tools_internal_error(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="parlance")
    seen, on_log = _log_collector()
    async with connect({"log": LoggingPack()}, mode=mode, logging_callback=on_log, log_level="debug") as client:
        result = await client.call_tool("log_bad_level", {"text": MARKER})
    assert [(b.type, b.text) for b in result.content] == [("text", _internal("log_bad_level"))]
    assert seen == []
    crash = next(r for r in caplog.records if r.getMessage() == "tool.crashed")
    assert "ValueError: log level 'verbose' is not one of debug, info, notice" in (crash.exc_text or "")


# --- 4. ctx.elicit -----------------------------------------------------------------------------------------


def _answering(*answers: ElicitResult | ErrorData | Exception) -> tuple[list[Any], Callable[..., Any]]:
    """An elicitation callback giving `answers` in turn, and the requests it received."""
    asked: list[Any] = []

    async def answer(context: Any, params: Any) -> ElicitResult | ErrorData:
        asked.append(params)
        reply = answers[min(len(asked), len(answers)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply

    return asked, answer


@pytest.mark.parametrize(("answer", "expected"), [
    (ElicitResult(action="accept", content={"name": "Ada"}), {"action": "accept", "content": {"name": "Ada"}}),
    (ElicitResult(action="decline"), {"action": "decline", "content": None}),
    (ElicitResult(action="cancel"), {"action": "cancel", "content": None}),
], ids=["accept", "decline", "cancel"])
async def test_elicitation_answers_reach_the_tool(mode: str, answer: ElicitResult, expected: dict[str, Any]) -> None:
    asked, callback = _answering(answer)
    async with connect({"e": ElicitPack()}, mode=mode, elicitation_callback=callback) as client:
        result = await client.call_tool("ask_name", {})
    assert result.structured_content == expected
    assert [(p.mode, p.message, p.requested_schema) for p in asked] == [("form", "Your name?", {
        "type": "object", "properties": {"name": {"type": "string", "minLength": 2}}, "required": ["name"]})]


async def test_elicitation_without_the_capability(mode: str) -> None:
    async with connect({"e": ElicitPack()}, mode=mode) as client:
        if mode == "legacy":
            result = await client.call_tool("ask_name", {})
            assert result.structured_content == {
                "error": "the client does not offer elicitation (MCP `elicitation` capability)",
                "code": "ELICITATION_UNAVAILABLE", "data": {}}
            return
        with pytest.raises(MCPError) as caught:
            await client.call_tool("ask_name", {})
    assert caught.value.error.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"elicitation": {}}}
    assert caught.value.error.message == ("ELICITATION_UNAVAILABLE: the client does not offer elicitation "
                                          "(MCP `elicitation` capability)")


async def test_a_pydantic_model_is_a_form_and_its_literal_an_enum(mode: str) -> None:
    asked, callback = _answering(ElicitResult(action="accept", content={"colour": "green"}))
    async with connect({"e": ElicitPack()}, mode=mode, elicitation_callback=callback) as client:
        result = await client.call_tool("ask_colour", {})
    schema = asked[0].requested_schema
    assert schema["required"] == ["colour"]
    assert (schema["properties"]["colour"]["type"], schema["properties"]["colour"]["enum"]) == ("string",
                                                                                              ["red", "green"])
    assert (schema["properties"]["shade"]["minimum"], schema["properties"]["shade"]["maximum"]) == (1, 3)
    assert result.structured_content == {"action": "accept", "content": {"colour": "green"}}


async def test_an_answer_outside_the_form_fails_without_quoting_it(mode: str) -> None:
    _, callback = _answering(ElicitResult(action="accept", content={"colour": SECRET}))
    async with connect({"e": ElicitPack()}, mode=mode, elicitation_callback=callback) as client:
        result = await client.call_tool("ask_colour", {})
    assert result.structured_content == {
        "error": "the user's answer does not fit the requested form: $.colour fails the schema's 'enum' rule",
        "code": "ELICITATION_FAILED", "data": {}}


@pytest.mark.parametrize(("failure", "message", "client_code"), [
    (ErrorData(code=-32001, message="user closed the dialog"), "user closed the dialog", -32001),
    # The SDK's client answers a callback that raises with code 0 and the exception's message.
    (RuntimeError("form renderer crashed"), "form renderer crashed", 0),
], ids=["error-data", "raises"])
async def test_a_client_that_fails_to_ask_is_elicitation_failed(failure: Any, message: str, client_code: int) -> None:
    # Handshake era only: on 2026-07-28 the client's own input loop raises before anything reaches the server.
    _, callback = _answering(failure)
    async with connect({"e": ElicitPack()}, mode="legacy", elicitation_callback=callback) as client:
        result = await client.call_tool("ask_name", {})
    assert [(b.type, b.text) for b in result.content] == [
        ("text", f"ELICITATION_FAILED: the client could not ask the user: {message}")]
    assert result.structured_content == {"error": f"the client could not ask the user: {message}",
                                         "code": "ELICITATION_FAILED", "data": {"client_code": client_code}}


# --- 5. questions on 2026-07-28, round by round ------------------------------------------------------------


def _sampled(text: str) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text=text), model="m")


def _prompt_of(request: Any) -> str:
    return request.params.messages[0].content.text


async def _never_asked(context: Any, params: Any) -> Any:
    raise AssertionError("these tests answer each round themselves")


def _driving_rounds() -> Any:
    """A 2026-07-28 client declaring sampling and elicitation, whose test answers the rounds by hand."""
    return connect({"q": QuestionsPack()}, sampling_callback=_never_asked, elicitation_callback=_never_asked)


async def test_sequential_samples_are_keyed_by_position_and_earlier_answers_carried() -> None:
    async with _driving_rounds() as client:
        first = await client.session.call_tool("sample_twice", {"text": "t"}, allow_input_required=True)
        second = await client.session.call_tool("sample_twice", {"text": "t"}, allow_input_required=True,
                                                input_responses={"sample-0": _sampled("one")},
                                                request_state=first.request_state)
        # Round three sends only the new answer: the first travels in the sealed state.
        done = await client.session.call_tool("sample_twice", {"text": "t"}, allow_input_required=True,
                                              input_responses={"sample-1": _sampled("two")},
                                              request_state=second.request_state)
    assert {k: _prompt_of(v) for k, v in first.input_requests.items()} == {"sample-0": "first: t"}
    assert {k: _prompt_of(v) for k, v in second.input_requests.items()} == {"sample-1": "second: one"}
    assert done.structured_content == {"texts": ["one", "two"]}


async def test_questions_asked_at_once_come_in_one_round() -> None:
    async with _driving_rounds() as client:
        first = await client.session.call_tool("ask_at_once", {"text": "t"}, allow_input_required=True)
        requests = first.input_requests
        answers = {key: _sampled(f"re {_prompt_of(request)}") for key, request in requests.items()
                   if request.method == "sampling/createMessage"}
        answers["elicit-0"] = ElicitResult(action="accept", content={"name": "Ada"})
        done = await client.session.call_tool("ask_at_once", {"text": "t"}, allow_input_required=True,
                                              input_responses=answers, request_state=first.request_state)
    assert sorted(requests) == ["elicit-0", "sample-0", "sample-1"]
    assert sorted(_prompt_of(r) for k, r in requests.items() if k.startswith("sample")) == ["a: t", "b: t"]
    assert requests["elicit-0"].params.message == "Your name?"
    assert done.structured_content == {"texts": ["re a: t", "re b: t", "Ada"]}


async def test_an_answer_to_no_question_is_ignored_and_a_misshapen_one_asks_again() -> None:
    async with _driving_rounds() as client:
        unasked = await client.session.call_tool("sample_once", {"text": "t"}, allow_input_required=True,
                                                 input_responses={"sample-7": _sampled("never")})
        misshapen = await client.session.call_tool(
            "sample_once", {"text": "t"}, allow_input_required=True,
            input_responses={"sample-0": ElicitResult(action="accept", content={"name": "x"})})
        both = await client.session.call_tool("sample_once", {"text": "t"}, allow_input_required=True,
                                              input_responses={"sample-0": _sampled("A"), "sample-7": _sampled("B")})
    assert {k: _prompt_of(v) for k, v in unasked.input_requests.items()} == {"sample-0": "once: t"}
    assert {k: _prompt_of(v) for k, v in misshapen.input_requests.items()} == {"sample-0": "once: t"}
    assert both.structured_content == {"texts": ["A"]}


@pytest.mark.parametrize(("tool", "arguments"), [("sample_once", {"text": "t"}), ("sample_twice", {"text": "u"})],
                         ids=["other-tool", "other-arguments"])
async def test_request_state_cannot_be_replayed_onto_another_call(tool: str, arguments: dict[str, str]) -> None:
    # The SDK's RequestStateBoundary binds the sealed state to the method, the tool name and a digest of
    # the arguments: carried answers cannot skip a question of a different call.
    async with _driving_rounds() as client:
        first = await client.session.call_tool("sample_twice", {"text": "t"}, allow_input_required=True)
        second = await client.session.call_tool("sample_twice", {"text": "t"}, allow_input_required=True,
                                                input_responses={"sample-0": _sampled("one")},
                                                request_state=first.request_state)
        with pytest.raises(MCPError) as caught:
            await client.session.call_tool(tool, arguments, allow_input_required=True,
                                           request_state=second.request_state)
    assert (caught.value.error.code, caught.value.error.message) == (-32602, "Invalid or expired requestState")


# --- 6. completions ----------------------------------------------------------------------------------------

TRANSLATE = PromptReference(type="ref/prompt", name="translate")


async def test_completions_are_capped_at_100_and_say_how_many_there_were(mode: str) -> None:
    async with connect({"c": CompletionPack()}, mode=mode) as client:
        everything = await client.complete(TRANSLATE, {"name": "language", "value": ""})
        some = await client.complete(TRANSLATE, {"name": "language", "value": "lang-14"})
        in_context = await client.complete(TRANSLATE, {"name": "region", "value": ""}, {"language": "de"})
        template = await client.complete(ResourceTemplateReference(type="ref/resource", uri="docs://files/{name}"),
                                         {"name": "name", "value": "in"})
    assert (everything.completion.values, everything.completion.total, everything.completion.has_more) == (
        LANGUAGES[:100], 150, True)
    assert (some.completion.values, some.completion.total, some.completion.has_more) == (LANGUAGES[140:], 10, False)
    assert in_context.completion.values == ["de-AT", "de-DE"]
    assert template.completion.values == ["intro.md", "index.md"]


async def test_a_crashing_completer_suggests_nothing_and_the_server_keeps_serving(
        mode: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="parlance")
    async with connect({"c": CompletionPack()}, mode=mode) as client:
        crashed = await client.complete(TRANSLATE, {"name": "tone", "value": "fo"})
        after = await client.complete(TRANSLATE, {"name": "language", "value": "lang-149"})
    assert crashed.completion.model_dump(by_alias=True, exclude_none=True) == {"values": [], "total": 0,
                                                                               "hasMore": False}
    assert after.completion.values == ["lang-149"]
    crash = next(r for r in caplog.records if r.getMessage() == "completion.crashed")
    assert f"RuntimeError: {SECRET} in a completer" in (crash.exc_text or "")


async def test_an_argument_without_completer_gets_an_empty_list(mode: str) -> None:
    async with connect({"c": CompletionPack()}, mode=mode) as client:
        uncompleted = await client.complete(TRANSLATE, {"name": "note", "value": "x"})
        unknown_argument = await client.complete(TRANSLATE, {"name": "dialect", "value": "x"})
    assert (uncompleted.completion.values, uncompleted.completion.total) == ([], 0)
    assert (unknown_argument.completion.values, unknown_argument.completion.total) == ([], 0)


@pytest.mark.parametrize(("ref", "message"), [
    (PromptReference(type="ref/prompt", name="nope"), "Unknown prompt or resource template: nope"),
    (ResourceTemplateReference(type="ref/resource", uri="docs://nope/{x}"),
     "Unknown prompt or resource template: docs://nope/{x}"),
], ids=["prompt", "template"])
async def test_completing_an_unknown_ref_is_a_protocol_error(mode: str, ref: Any, message: str) -> None:
    async with connect({"c": CompletionPack()}, mode=mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.complete(ref, {"name": "language", "value": ""})
    assert (caught.value.error.code, caught.value.error.message) == (-32602, message)


async def test_completions_are_declared_only_when_a_completer_exists(mode: str) -> None:
    async with connect({"c": CompletionPack()}, mode=mode) as client:
        with_completer = client.server_capabilities.completions
    async with connect({"content": ContentPack(), "tools": ToolsOnlyPack()}, mode=mode) as client:
        without = client.server_capabilities.completions
        with pytest.raises(MCPError) as caught:  # a prompt without completers: nothing to ask
            await client.complete(PromptReference(type="ref/prompt", name="blocks_prompt"),
                                  {"name": "text", "value": ""})
    assert with_completer is not None and without is None
    assert caught.value.error.code == -32601


# --- 7. capabilities and announcements ---------------------------------------------------------------------


async def test_change_notifications_declared_are_those_parlance_sends(mode: str) -> None:
    async with connect({"a": AnnouncingPack(), "c": CompletionPack()}, mode=mode) as client:
        caps = client.server_capabilities
    async with connect({"tools": ToolsOnlyPack()}, mode=mode) as client:
        tools_only = client.server_capabilities
    assert (caps.resources.subscribe, caps.resources.list_changed) == (True, True)
    assert (caps.tools.list_changed, caps.prompts.list_changed) == (False, False)  # fixed while serving
    assert (tools_only.resources, tools_only.prompts, tools_only.tools.list_changed) == (None, None, False)


def _notifications(seen: list[Any]) -> list[tuple[str, str | None]]:
    return [(m.method, getattr(m.params, "uri", None)) for m in seen
            if isinstance(m, (ResourceUpdatedNotification, ResourceListChangedNotification))]


async def test_handshake_era_announcements_reach_listers_and_subscribers() -> None:
    seen: list[Any] = []

    async def on_message(message: Any) -> None:
        seen.append(message)

    pack = AnnouncingPack()
    async with connect({"a": pack}, mode="legacy", message_handler=on_message) as client:
        await client.call_tool("add_note", {})  # not listed yet: nobody to tell
        await client.call_tool("touch", {"uri": "notes://x"})  # not subscribed yet
        await client.list_resources()
        await _handshake_era(client.subscribe_resource, "notes://x")
        await client.call_tool("touch", {"uri": "notes://y"})  # another uri: not for this client
        await client.call_tool("touch", {"uri": "notes://x"})
        await client.call_tool("add_note", {})
        await _until(lambda: len(_notifications(seen)) >= 2)
        by_calls = _notifications(seen)
        seen.clear()
        # From outside any call, through the `announce` the lifespan received (a file watcher's path).
        assert pack.announce is not None
        await pack.announce.resource_updated("notes://x")
        await _handshake_era(client.unsubscribe_resource, "notes://x")
        await pack.announce.resource_updated("notes://x")
        await pack.announce.resources_changed()
        await _until(lambda: len(_notifications(seen)) >= 2)
        with pytest.raises(MCPError) as caught:
            await _handshake_era(client.subscribe_resource, "other://x")
    assert by_calls == [("notifications/resources/updated", "notes://x"),
                        ("notifications/resources/list_changed", None)]
    assert _notifications(seen) == [("notifications/resources/updated", "notes://x"),
                                    ("notifications/resources/list_changed", None)]
    assert (caught.value.error.code, caught.value.error.message) == (-32602, "Unknown resource: other://x")
    await pack.announce.resources_changed()  # the server is gone: announcing does nothing, and does not raise


async def test_2026_announcements_reach_listen_streams() -> None:
    pack = AnnouncingPack()
    events: list[Any] = []
    async with connect({"a": pack}) as client:
        await client.call_tool("add_note", {})  # enters the lifespan, which keeps `announce`
        async with client.listen(resources_list_changed=True, resource_subscriptions=["notes://x"]) as stream:
            assert (stream.honored.resources_list_changed, stream.honored.resource_subscriptions) == (
                True, ["notes://x"])
            await client.call_tool("touch", {"uri": "notes://y"})
            await client.call_tool("touch", {"uri": "notes://x"})
            assert pack.announce is not None
            await pack.announce.resources_changed()
            with anyio.fail_after(5):
                async for event in stream:
                    events.append(event)
                    if len(events) == 2:
                        break
    assert events == [ResourceUpdated(uri="notes://x"), ResourcesListChanged()]


# --- 8. host API versions ----------------------------------------------------------------------------------


async def test_a_pack_for_an_older_minor_api_loads_and_a_newer_minor_is_incompatible() -> None:
    packs = load_packs(config_from_dict({}), plugins={"older": OlderMinorApiPack(), "newer": NewerMinorApiPack()})
    states = {r.name: (r.state, r.error) for r in packs.records}
    assert HOST_API == "1.2"  # the versions below are this host's neighbours
    assert states == {"older": ("loaded", None),
                      "newer": ("incompatible", "pack needs host API 1.3, this host provides 1.2")}
    async with connect({"older": OlderMinorApiPack()}) as client:
        served = await client.call_tool("ping", {})
    assert served.structured_content == {"note": "pong"}


# --- 9. over real transports -------------------------------------------------------------------------------


@pytest.fixture
def wire_site(tmp_path: Path) -> Path:
    """The wire pack installed as a distribution, and a parlance.toml beside it enabling it."""
    site = tmp_path / "site"
    site.mkdir()
    write_fake_dist(site, "wire", WIRE_PACK_SOURCE)
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["wire"]\n')
    return site


def _exchange(proc: Any, request_id: int, method: str, params: dict[str, Any]) -> tuple[list[dict[str, Any]],
                                                                                         dict[str, Any]]:
    """Send one request on the stdio wire; the lines that came before its reply, and the reply."""
    proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
                      + "\n").encode())
    proc.stdin.flush()
    before: list[dict[str, Any]] = []
    while (line := json.loads(_line_within(proc.stdout, 20))).get("id") != request_id:
        before.append(line)
    return before, line


def test_the_stdio_wire_carries_blocks_logs_and_updates_exactly(tmp_path: Path, wire_site: Path) -> None:
    with _initialized(tmp_path, wire_site) as proc:
        _, blocks = _exchange(proc, 2, "tools/call", {"name": "every_block", "arguments": {}})
        _exchange(proc, 3, "logging/setLevel", {"level": "warning"})
        logs, logged = _exchange(proc, 4, "tools/call", {"name": "log_each_level", "arguments": {"text": MARKER}})
        _exchange(proc, 5, "resources/subscribe", {"uri": "notes://x"})
        updates, _ = _exchange(proc, 6, "tools/call", {"name": "touch", "arguments": {"uri": "notes://x"}})
        proc.stdin.close()
        proc.wait(timeout=20)
        stderr = proc.stderr.read().decode()
    assert blocks["result"] == {"content": [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": _b64(PNG_BYTES), "mimeType": "image/png"},
        {"type": "audio", "data": _b64(WAV_BYTES), "mimeType": "audio/wav"},
        {"type": "resource", "resource": {"uri": "mem://notes/a.txt", "mimeType": "text/plain", "text": "alpha"}},
        {"type": "resource", "resource": {"uri": "mem://notes/b.bin", "blob": _b64(BLOB_BYTES)}},
        {"type": "resource_link", "uri": "mem://notes/c", "name": "c"},  # no null title, description, mimeType
        {"type": "resource_link", "uri": "mem://notes/d", "name": "d", "title": "D", "description": "the fourth",
         "mimeType": "text/markdown"},
    ], "isError": False}
    assert logs == [{"jsonrpc": "2.0", "method": "notifications/message",
                     "params": {"level": level, "logger": "wire", "data": f"{level} message"}} for level in LEVELS[3:]]
    assert logged["result"]["structuredContent"] == {"note": f"logged {len(MARKER)} characters"}
    assert updates == [{"jsonrpc": "2.0", "method": "notifications/resources/updated",
                        "params": {"uri": "notes://x"}}]
    assert MARKER not in stderr and "Traceback" not in stderr


@pytest.fixture(scope="module")
def http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("http-api")
    site = tmp / "site"
    site.mkdir()
    write_fake_dist(site, "wire", WIRE_PACK_SOURCE)
    (tmp / "parlance.toml").write_text('[packs]\nenabled = ["wire"]\n')
    with parlance_http(tmp / "parlance.toml", env={"PYTHONPATH": str(site)}) as url:
        yield f"{url}/mcp"


async def test_log_levels_are_per_http_session(http_url: str) -> None:
    heard: dict[str, list[str]] = {"error": [], "debug": [], "unset": [], "2026-warning": [], "2026-none": []}
    texts: list[str] = []

    def collect(name: str) -> Callable[[Any], Any]:
        async def on_log(params: Any) -> None:
            heard[name].append(params.level)
            texts.append(json.dumps(params.data))

        return on_log

    with anyio.fail_after(20):
        async with Client(http_url, mode="legacy", logging_callback=collect("error")) as quiet, \
                Client(http_url, mode="legacy", logging_callback=collect("debug")) as chatty, \
                Client(http_url, mode="legacy", logging_callback=collect("unset")) as default:
            await _handshake_era(quiet.set_logging_level, "error")
            await _handshake_era(chatty.set_logging_level, "debug")
            for client in (quiet, chatty, default):
                await client.call_tool("log_each_level", {"text": MARKER})
        async with Client(http_url, logging_callback=collect("2026-warning"), log_level="warning") as opted, \
                Client(http_url, logging_callback=collect("2026-none")) as silent:
            await opted.call_tool("log_each_level", {"text": MARKER})
            await silent.call_tool("log_each_level", {"text": MARKER})
    assert heard == {"error": list(LEVELS[4:]), "debug": list(LEVELS), "unset": list(LEVELS[1:]),
                     "2026-warning": list(LEVELS[3:]), "2026-none": []}
    assert MARKER not in " ".join(texts)


async def test_only_subscribers_hear_of_an_update_over_http(http_url: str) -> None:
    heard: dict[str, list[Any]] = {"subscriber": [], "lister": [], "gone": []}

    def collect(name: str) -> Callable[[Any], Any]:
        async def on_message(message: Any) -> None:
            heard[name].append(message)

        return on_message

    async def ready(client: Client, name: str) -> None:
        """Subscribe to a uri of its own and touch it until an update arrives: the session's standalone
        stream, where announcements travel, is open from then on."""
        uri = f"notes://ready-{name}"
        await _handshake_era(client.subscribe_resource, uri)
        with anyio.fail_after(10):
            while ("notifications/resources/updated", uri) not in _notifications(heard[name]):
                await client.call_tool("touch", {"uri": uri})
                await anyio.sleep(0.05)
        await _handshake_era(client.unsubscribe_resource, uri)

    def about_notes(name: str) -> list[tuple[str, str | None]]:
        return [(method, uri) for method, uri in _notifications(heard[name]) if not (uri or "").startswith(
            "notes://ready-")]

    with anyio.fail_after(30):
        async with Client(http_url, mode="legacy", message_handler=collect("subscriber")) as subscriber, \
                Client(http_url, mode="legacy", message_handler=collect("lister")) as lister:
            await ready(subscriber, "subscriber")
            await ready(lister, "lister")
            await _handshake_era(subscriber.subscribe_resource, "notes://x")
            await lister.list_resources()
            async with Client(http_url, mode="legacy", message_handler=collect("gone")) as gone:
                await _handshake_era(gone.subscribe_resource, "notes://x")
            # That session is closed: announcing must still reach the others.
            await lister.call_tool("touch", {"uri": "notes://x"})
            await lister.call_tool("add_note", {})
            await _until(lambda: len(about_notes("subscriber")) >= 2 and about_notes("lister") != [])
    assert about_notes("subscriber") == [("notifications/resources/updated", "notes://x"),
                                         ("notifications/resources/list_changed", None)]
    # The list change came after the update on the same stream, so no update is still on its way.
    assert about_notes("lister") == [("notifications/resources/list_changed", None)]
    assert about_notes("gone") == []


# --- regressions: host defects these tests found, fixed ----------------------------------------------------


# Was: registration accepted a prompt handler without `ctx`, but `Host.get_prompt` always called
# `handler(args, ctx)`, so every prompts/get of such a prompt was -32603 "failed unexpectedly".
async def test_a_prompt_handler_without_ctx_renders(mode: str) -> None:
    pack = RegistersOne("prompts", prompt_without_context, name="translate")
    async with connect({"p": pack}, mode=mode) as client:
        rendered = await client.get_prompt("translate", {"language": "de"})
    assert [(m.role, m.content.text) for m in rendered.messages] == [("user", "Translate into de")]


# Was: `ToolContext.elicit` sent `model.model_json_schema()` as it is: an Enum field became
# `{"$ref": "#/$defs/Tone"}` with the enum under `$defs`. MCP's form schema is flat (no $ref), and on
# 2026-07-28 the SDK drops `$defs` from requestedSchema, so the client got a dangling $ref.
async def test_an_enum_field_in_an_elicitation_model_is_sent_inline(mode: str) -> None:
    asked, callback = _answering(ElicitResult(action="decline"))
    async with connect({"tone": EnumFormPack()}, mode=mode, elicitation_callback=callback) as client:
        await client.call_tool("ask_tone", {})
    schema = asked[0].requested_schema
    assert "$ref" not in json.dumps(schema)
    assert (schema["properties"]["tone"]["type"], schema["properties"]["tone"]["enum"]) == ("string",
                                                                                          ["formal", "casual"])


# Was: only Image and Audio bytes were checked. An EmbeddedResource with str `data` passed, and its
# base64 encoding raised outside the host's boundary: handshake-era clients got JSON-RPC error code 0
# with the Python exception's text, 2026-07-28 ones -32603, instead of the INTERNAL result.
async def test_an_embedded_resource_with_str_data_is_internal(mode: str) -> None:
    async with connect({"blob": StrBlobPack()}, mode=mode) as client:
        result = await client.call_tool("str_blob", {})
    assert [(b.type, b.text) for b in result.content] == [("text", _internal("str_blob"))]


# Was: resource registration checked neither that the handler is `async def` nor that it takes the
# template's parameters, unlike tools and prompts: the pack loaded, and every resources/read of it
# was -32603. Registration now fails the pack with the reason.
def test_a_resource_handler_that_is_not_async_fails_its_pack() -> None:
    packs = load_packs(config_from_dict({}), plugins={
        "broken": RegistersOne("resources", resource_not_async, uri="docs://files/{name}", name="file")})
    record = packs.records[0]
    assert record.state == "failed"
    assert "async def" in (record.error or "")


def test_a_resource_handler_without_the_templates_parameter_fails_its_pack() -> None:
    async def file(ctx: ToolContext, path: str) -> str:  # the uri calls it {name}
        return path

    packs = load_packs(config_from_dict({}), plugins={
        "broken": RegistersOne("resources", file, uri="docs://files/{name}", name="file")})
    assert packs.records[0].state == "failed"
    assert "takes no parameter 'name'" in (packs.records[0].error or "")


async def test_a_prompt_message_with_a_bad_content_block_is_an_internal_error(mode: str) -> None:
    async def broken(args: TranslateArgs) -> list[PromptMessage]:
        return [PromptMessage("user", content=Text(12345))]  # type: ignore[arg-type]

    async with connect({"p": RegistersOne("prompts", broken, name="broken")}, mode=mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("broken", {"language": "de"})
    assert caught.value.error.code == -32603
    assert "12345" not in caught.value.error.message and "int" not in caught.value.error.message


# --- regressions: what the review of this API found -----------------------------------------------------------


async def test_a_completer_that_asks_the_client_gets_no_answer_and_the_server_lives(mode: str) -> None:
    """Completions cannot ask the client anything (on 2026-07-28 there is no round to ask in): the
    question fails inside the completer, which gives no suggestions; the server keeps serving."""
    async def asking(value: str, arguments: dict[str, str], ctx: ToolContext) -> list[str]:
        return [(await ctx.sample("suggest a language", key="q")).text]

    async def prompt(args: TranslateArgs) -> str:
        return args.language

    pack = RegistersOne("prompts", prompt, name="translate", complete={"language": asking})

    async def model(context: Any, params: Any) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="de"), model="m")

    async with connect({"p": pack}, mode=mode, sampling_callback=model) as client:
        ref = PromptReference(type="ref/prompt", name="translate")
        first = await client.complete(ref, {"name": "language", "value": ""})
        again = await client.get_prompt("translate", {"language": "fr"})
    assert first.completion.values == []
    assert again.messages[0].content.text == "fr"


def _crashing_pack(result: Any, schema: dict[str, Any] | None = None) -> RegistersOne:
    async def tool(args: TranslateArgs) -> ToolResult[None]:
        return result

    return RegistersOne("tools", tool, name="broken", **({"input_schema": schema} if schema else {}))


@pytest.mark.parametrize("case", ["meta_not_json", "text_not_str", "unresolvable_ref"])
async def test_nothing_a_pack_gets_wrong_reaches_the_client_as_exception_text(mode: str, case: str) -> None:
    """Each of these used to escape the host's boundary; the handshake era answered with the
    exception's own text (`code 0`)."""
    ok = ToolResult(content=[Text("fine")])
    pack = {
        "meta_not_json": _crashing_pack(ToolResult(content=[Text("x")], meta={"k": b"\xff"})),
        "text_not_str": _crashing_pack(ToolResult(content=[Text("x")], text=12345)),  # type: ignore[arg-type]
        "unresolvable_ref": _crashing_pack(ok, {"type": "object", "properties": {
            "language": {"$ref": "https://example.invalid/SECRET-schema.json"}}}),
    }[case]
    async with connect({"p": pack}, mode=mode) as client:
        result = await client.call_tool("broken", {"language": "de"})
        still = await client.list_tools()
    assert result.is_error is True
    assert [b.text for b in result.content] == [_internal("broken")]
    assert [t.name for t in still.tools] == ["broken"]


async def test_the_last_line_of_defence_answers_a_generic_internal_error() -> None:
    """Whatever escapes a handler, or the SDK's shaping of its result, is a generic -32603."""
    from parlance.server import _NoExceptionText

    class Ctx:
        method = "tools/call"

    async def crashes(ctx: Any) -> Any:
        raise KeyError("SECRET-123")

    with pytest.raises(MCPError) as caught:
        await _NoExceptionText()(Ctx(), crashes)  # type: ignore[arg-type]
    assert caught.value.error.code == -32603 and "SECRET" not in caught.value.error.message


@pytest.mark.parametrize("bad", [PromptMessage("system", "x"), "not a message"])  # type: ignore[arg-type]
async def test_a_prompt_message_the_protocol_cannot_carry_is_an_internal_error(mode: str, bad: Any) -> None:
    async def prompt(args: TranslateArgs) -> list[Any]:
        return [bad]

    async with connect({"p": RegistersOne("prompts", prompt, name="p")}, mode=mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("p", {"language": "de"})
    assert caught.value.error.code == -32603 and "system" not in caught.value.error.message


async def test_on_2026_a_prompt_that_needs_a_missing_capability_is_32021() -> None:
    async def prompt(args: TranslateArgs, ctx: ToolContext) -> str:
        return (await ctx.sample("x")).text

    async with connect({"p": RegistersOne("prompts", prompt, name="p")}, mode="auto") as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("p", {"language": "de"})
    assert caught.value.error.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"sampling": {}}}


async def test_without_sessions_nothing_is_promised_that_cannot_be_kept() -> None:
    """`[host] stateless_http`: no state outlives a request, and no subscription is offered."""
    from parlance.host import Host
    from parlance.server import build_server

    async def persists(args: TranslateArgs, ctx: ToolContext) -> ToolResult[None]:
        return ToolResult(content=[Text(str(ctx.session_persists))])

    host = Host.load(config_from_dict({}), plugins={"p": RegistersOne("tools", persists, name="persists"),
                                                    "notes": AnnouncingPack()})
    async with Client(build_server(host, stateless_http=True), mode="legacy") as client:
        capabilities = client.server_capabilities
        result = await client.call_tool("persists", {"language": "de"})
    assert result.content[0].text == "False"
    assert capabilities.resources is not None
    assert not capabilities.resources.subscribe and not capabilities.resources.list_changed


def test_an_open_subscription_stream_ends_with_its_result_when_stdin_ends(tmp_path: Path) -> None:
    """A 2026-07-28 `subscriptions/listen` lasts until serving ends; at the end of input it gets its
    final result at once instead of holding the exit for the grace period."""
    import subprocess
    import sys
    import time

    config = tmp_path / "parlance.toml"
    config.write_text('[packs]\nenabled = ["i18n"]\n')
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--config", str(config)], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        listen = {"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen",
                  "params": {"_meta": meta, "notifications": {"resourcesListChanged": True}}}
        proc.stdin.write((json.dumps(listen) + "\n").encode())
        proc.stdin.flush()
        acknowledged = json.loads(_line_within(proc.stdout, 20))
        started = time.monotonic()
        proc.stdin.close()
        final = json.loads(_line_within(proc.stdout, 5))
        assert proc.wait(timeout=5) == 0
        took = time.monotonic() - started
    finally:
        proc.kill()
        proc.wait()
    assert acknowledged["method"] == "notifications/subscriptions/acknowledged"
    assert final["id"] == 2 and "result" in final  # graceful: a result, not "Connection closed"
    assert took < 3  # the grace period is 10 s
