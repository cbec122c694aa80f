"""The host through a real MCP client, in-process, in both protocol eras."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import CreateMessageResult, ErrorData, TextContent

from parlance.testing import connect
from tests.support import ERAS
from tests.host.packs_for_tests import ClashPack, CorePack, SettingsPack

pytestmark = pytest.mark.anyio



async def test_parlance_register_tools_lists_tools_with_schemas_and_hints(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        assert client.protocol_version == ERAS[mode]
        tools = {t.name: t for t in (await client.list_tools()).tools}
    echo = tools["echo"]
    assert echo.title == "Echo"
    assert echo.input_schema["required"] == ["text"]
    assert echo.input_schema["properties"]["times"]["maximum"] == 5
    success, envelope = echo.output_schema["anyOf"]  # the tool's output, or the error envelope
    assert success["properties"] == {"echoed": {"type": "string"}}
    assert envelope["required"] == ["error", "code"]
    assert echo.annotations.read_only_hint is True and echo.annotations.idempotent_hint is True
    assert echo.annotations.destructive_hint is None  # not declared, not invented
    assert set(tools) >= {"refuse", "crash", "count", "slow", "ask_model"}


async def test_result_has_structured_content_and_json_text(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        result = await client.call_tool("echo", {"text": "ab", "times": 2})
        accented = await client.call_tool("echo", {"text": "¡olé!"})
    assert result.is_error is False
    assert result.structured_content == {"echoed": "ab ab"}
    # Compact JSON, non-ASCII as itself: the text block is what a model reads, so no spaces or \u escapes.
    assert result.content[0].text == '{"echoed":"ab ab"}'
    assert accented.content[0].text == '{"echoed":"¡olé!"}'


async def test_tool_result_sets_text_and_meta(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        result = await client.call_tool("with_meta", {"text": "x"})
    assert result.content[0].text == "custom text"
    assert result.meta["parlance/template"] == "base"


async def test_domain_error_uses_the_envelope(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        result = await client.call_tool("refuse", {"text": "abc"})
    assert result.is_error is True
    assert result.content[0].text == "NOT_TODAY: refusing 3 characters"
    assert result.structured_content == {"error": "refusing 3 characters", "code": "NOT_TODAY", "data": {"length": 3}}


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({}, "text"), ({"text": "a", "times": 9}, "times"), ({"text": 5}, "text"), ({"text": "a", "times": "x"}, "times")],
)
async def test_bad_arguments_name_the_field(mode: str, arguments: dict[str, Any], field: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        result = await client.call_tool("echo", arguments)
    assert result.is_error is True
    assert result.structured_content["code"] == "INVALID_ARGUMENTS"
    assert result.structured_content["data"]["field"] == field
    assert f"'{field}'" in result.content[0].text


async def test_crash_is_internal_without_exception_text_and_server_keeps_serving(
    mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="parlance")
    async with connect({"core": CorePack()}, mode=mode) as client:
        crashed = await client.call_tool("crash", {"text": "x"})
        after = await client.call_tool("echo", {"text": "still here"})
    assert crashed.is_error is True
    assert crashed.structured_content["code"] == "INTERNAL"
    assert "secret-token" not in crashed.content[0].text and "RuntimeError" not in crashed.content[0].text
    assert after.structured_content == {"echoed": "still here"}
    assert any("secret-token-1234" in (r.exc_text or "") for r in caplog.records)  # the traceback went to the log


async def test_pack_logs_through_its_context_logger(mode: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="parlance.packs")
    async with connect({"core": CorePack()}, mode=mode) as client:
        await client.call_tool("count", {})
        await client.call_tool("count", {})
    counted = [(r.name, r.count) for r in caplog.records if r.getMessage() == "counted"]  # type: ignore[attr-defined]
    assert counted == [("parlance.packs.core", 1), ("parlance.packs.core", 2)]


async def test_unknown_tool_is_a_protocol_error(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("nope", {})
    assert caught.value.error.code == -32602
    assert "nope" in caught.value.error.message


async def test_session_state_persists_within_a_session_and_not_across(mode: str) -> None:
    pack = CorePack()
    async with connect({"core": pack}, mode=mode) as client:
        counts = [(await client.call_tool("count", {})).structured_content["count"] for _ in range(3)]
    async with connect({"core": pack}, mode=mode) as client:
        fresh = (await client.call_tool("count", {})).structured_content["count"]
    assert counts == [1, 2, 3]
    assert fresh == 1


async def test_progress_reaches_the_client(mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connect({"core": CorePack()}, mode=mode) as client:
        await client.call_tool("slow", {}, progress_callback=on_progress)
    assert [(int(p), int(t or 0), m) for p, t, m in seen] == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


async def test_sampling_runs_on_the_clients_model(mode: str) -> None:
    prompts: list[str] = []

    async def model(context: Any, params: Any) -> CreateMessageResult:
        prompts.append(params.messages[0].content.text)
        assert params.system_prompt == "Be brief."
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="HELLO"),
                                   model="claude-test-1", stop_reason="endTurn")

    async with connect({"core": CorePack()}, mode=mode, sampling_callback=model) as client:
        result = await client.call_tool("ask_model", {"text": "hello"})
    assert result.structured_content == {"text": "HELLO", "model": "claude-test-1", "protocol": ERAS[mode]}
    assert prompts and set(prompts) == {"Repeat: hello"}


async def test_two_samples_in_one_call(mode: str) -> None:
    asked: list[str] = []

    async def model(context: Any, params: Any) -> CreateMessageResult:
        asked.append(params.messages[0].content.text)
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text=f"<{len(asked)}>"),
                                   model="m", stop_reason="endTurn")

    async with connect({"core": CorePack()}, mode=mode, sampling_callback=model) as client:
        result = await client.call_tool("ask_twice", {"text": "x"})
    # On 2026-07-28 the client answers one round at a time; the first answer must survive the second round.
    assert result.structured_content == {"echoed": "<2>"}
    assert asked == ["Repeat: x", "Repeat: <1>!"]


async def test_sampling_without_capability_is_a_clear_error(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        if mode == "legacy":
            result = await client.call_tool("ask_model", {"text": "hello"})
            assert result.is_error is True
            assert result.structured_content["code"] == "SAMPLING_UNAVAILABLE"
            return
        # 2026-07-28: a missing client capability is the protocol error -32021, naming the capability.
        with pytest.raises(MCPError) as caught:
            await client.call_tool("ask_model", {"text": "hello"})
    assert caught.value.error.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"sampling": {}}}
    assert "sampling" in caught.value.error.message


async def test_parlance_register_prompts_lists_and_renders_prompts(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        prompts = (await client.list_prompts()).prompts
        assert [(p.name, [(a.name, a.required) for a in p.arguments]) for p in prompts] == [
            ("review", [("text", True), ("times", False)])
        ]
        rendered = await client.get_prompt("review", {"text": "draft"})
        assert rendered.messages[0].content.text == "Review: draft"


async def test_parlance_register_resources_serves_resources_and_templates(mode: str) -> None:
    async with connect({"core": CorePack()}, mode=mode) as client:
        await client.call_tool("count", {})
        session = await client.read_resource("core://session")
        assert session.contents[0].text == '{"count": 1}'
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["core://items/{item}"]
        item = await client.read_resource("core://items/abc")
        assert (item.contents[0].text, item.contents[0].mime_type) == ("item abc", "text/plain")
        with pytest.raises(MCPError) as caught:
            await client.read_resource("core://items/missing")
        assert caught.value.error.code == -32602


async def test_parlance_lifespan_state_reaches_tools_and_exits() -> None:
    pack = CorePack()
    async with connect({"core": pack}) as client:
        result = await client.call_tool("lifespan_state", {})
        assert pack.exited is False
    assert result.structured_content == {"entered": True}
    assert pack.exited is True


async def test_parlance_declare_settings_model_validates_the_pack_table(mode: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GREETING_FROM_ENV", "hallo")
    config = {"packs": {"greeter": {"greeting": "${env:GREETING_FROM_ENV}"}}}
    async with connect({"greeter": SettingsPack()}, config=config, mode=mode) as client:
        result = await client.call_tool("greet", {})
    assert result.structured_content == {"echoed": "hallo"}


async def test_prefix_resolves_a_collision(mode: str) -> None:
    config = {"packs": {"clash": {"prefix": "other_"}}}
    async with connect({"core": CorePack(), "clash": ClashPack()}, config=config, mode=mode) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        result = await client.call_tool("other_echo", {"text": "x"})
    assert {"echo", "other_echo"} <= names
    assert result.structured_content == {"echoed": "clash"}


async def test_disabled_tools_are_not_served(mode: str) -> None:
    config = {"tools": {"disabled": ["crash", "refuse"]}}
    async with connect({"core": CorePack()}, config=config, mode=mode) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert "crash" not in names and "refuse" not in names and "echo" in names


async def test_sampling_refused_by_the_client_is_sampling_failed() -> None:
    async def refuse(context: Any, params: Any) -> ErrorData:
        return ErrorData(code=-32603, message="user declined")

    async with connect({"core": CorePack()}, mode="legacy", sampling_callback=refuse) as client:
        result = await client.call_tool("ask_model", {"text": "x"})
    assert result.structured_content["code"] == "SAMPLING_FAILED"


async def test_a_failed_lifespan_makes_only_its_pack_unavailable(mode: str) -> None:
    from tests.host.packs_for_tests import LifespanFailsPack

    async with connect({"core": CorePack(), "fragile": LifespanFailsPack()}, mode=mode) as client:
        fragile = await client.call_tool("fragile_ping", {})
        fine = await client.call_tool("echo", {"text": "x"})
    assert fragile.is_error is True
    assert fragile.structured_content["code"] == "PACK_UNAVAILABLE"
    assert "127.0.0.1" not in fragile.content[0].text  # the reason is in the log, not sent to the client
    assert fine.structured_content == {"echoed": "x"}


async def test_a_second_run_enters_lifespans_again() -> None:
    from mcp import Client

    from parlance.host import Host
    from parlance.config import config_from_dict
    from parlance.server import build_server

    pack = CorePack()
    host = Host.load(config_from_dict({}), plugins={"core": pack})
    for _ in range(2):
        pack.exited = False
        async with Client(build_server(host)) as client:
            result = await client.call_tool("lifespan_state", {})
        assert result.structured_content == {"entered": True}
        assert pack.exited is True



async def test_sampling_from_prompts_resources_and_task_groups(mode: str) -> None:
    from tests.host.packs_for_tests import SamplingEverywherePack

    async def model(context: Any, params: Any) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="MODEL SAYS"),
                                   model="m", stop_reason="endTurn")

    async with connect({"s": SamplingEverywherePack()}, mode=mode, sampling_callback=model) as client:
        tool = await client.call_tool("ask_in_task_group", {"text": "x"})
        prompt = await client.get_prompt("drafted", {"text": "x"})
        resource = await client.read_resource("sampling://summary")
        still_serving = await client.call_tool("ask_in_task_group", {"text": "y"})
    assert tool.structured_content == {"echoed": "MODEL SAYS"}
    assert prompt.messages[0].content.text == "MODEL SAYS"
    assert resource.contents[0].text == "MODEL SAYS"
    assert still_serving.structured_content == {"echoed": "MODEL SAYS"}


async def test_a_prompt_that_crashes_sends_no_exception_text(mode: str) -> None:
    from tests.host.packs_for_tests import SamplingEverywherePack

    async with connect({"s": SamplingEverywherePack()}, mode=mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("broken", {"text": "x"})
    assert "hunter2" not in caught.value.error.message and "invalid literal" not in caught.value.error.message
    assert caught.value.error.code == -32603


async def test_a_forged_or_tampered_request_state_is_refused() -> None:
    import base64

    forged = "parlance.answers.v2:" + base64.urlsafe_b64encode(b'{"sample-0": {}}').decode()

    async def model(context: Any, params: Any) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="OK"), model="m")

    async with connect({"core": CorePack()}, sampling_callback=model) as client:
        first = await client.session.call_tool("ask_model", {"text": "x"}, allow_input_required=True)
        assert first.input_requests and first.request_state  # sealed by the server
        for state in (forged, first.request_state + "-TAMPERED"):
            with pytest.raises(MCPError) as caught:
                await client.session.call_tool("ask_model", {"text": "x"}, allow_input_required=True,
                                               request_state=state)
            # Refused before the handler runs, with the SDK's fixed message (the reason goes to the log only).
            assert caught.value.error.code == -32602
            assert "requestState" in caught.value.error.message
