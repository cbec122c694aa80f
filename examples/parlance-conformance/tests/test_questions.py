"""Questions a tool asks the client — sampling, elicitation, roots — through the SDK client's callbacks.

On 2025-11-25 each question is a request from the server during the call; on 2026-07-28 the call
ends with `InputRequiredResult` and the SDK client answers it and repeats the call by itself. The
same callbacks and the same results must come out of both (test_input_required.py drives the
2026-07-28 rounds by hand).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import CreateMessageRequestParams, ElicitRequestParams, ElicitResult, ErrorData

from conformance_checks import ROOTS, accepted, sampled, text_of
from parlance_conformance import pack

pytestmark = pytest.mark.anyio


class Model:
    """A `sampling_callback` that answers `reply` and keeps every request it got."""

    def __init__(self, reply: str = "Paris") -> None:
        self.reply = reply
        self.asked: list[CreateMessageRequestParams] = []

    async def __call__(self, context: Any, params: CreateMessageRequestParams) -> Any:
        self.asked.append(params)
        return sampled(self.reply)

    @property
    def prompts(self) -> list[str]:
        return [params.messages[0].content.text for params in self.asked]


class User:
    """An `elicitation_callback` that gives `answer` and keeps every request it got."""

    def __init__(self, answer: ElicitResult) -> None:
        self.answer = answer
        self.asked: list[ElicitRequestParams] = []

    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        self.asked.append(params)
        return self.answer


async def share_roots(context: Any) -> Any:
    return ROOTS


# --- sampling -------------------------------------------------------------------------------------------

async def test_sampling_returns_the_models_answer(conformance: Any, mode: str) -> None:
    model = Model("Paris")
    async with conformance(mode, sampling_callback=model) as client:
        result = await client.call_tool("test_sampling", {"prompt": "What is the capital of France?"})
    assert text_of(result) == "LLM response: Paris"
    assert model.prompts == ["What is the capital of France?"]  # asked once: the answer survived the round
    assert model.asked[0].max_tokens == 100
    assert model.asked[0].messages[0].role == "user"


@pytest.mark.parametrize("tool", ["test_missing_capability", "test_sampling"])
async def test_sampling_without_the_capability(conformance: Any, mode: str, tool: str) -> None:
    arguments = {"prompt": "hi"} if tool == "test_sampling" else {}
    async with conformance(mode) as client:
        if mode == "legacy":
            result = await client.call_tool(tool, arguments)
            assert result.is_error is True
            assert result.structured_content["code"] == "SAMPLING_UNAVAILABLE"
            assert text_of(result).startswith("SAMPLING_UNAVAILABLE: ")
            return
        with pytest.raises(MCPError) as caught:
            await client.call_tool(tool, arguments)
    # 2026-07-28: a missing client capability is the protocol error -32021, naming the capability.
    assert caught.value.error.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"sampling": {}}}


async def test_missing_capability_runs_when_the_client_samples(conformance: Any, mode: str) -> None:
    async with conformance(mode, sampling_callback=Model("OK")) as client:
        result = await client.call_tool("test_missing_capability", {})
    assert text_of(result) == "The client sampled: OK"


async def test_sampling_refused_by_the_client_is_sampling_failed(conformance: Any) -> None:
    async def refuse(context: Any, params: Any) -> ErrorData:
        return ErrorData(code=-1, message="user rejected sampling")

    async with conformance("legacy", sampling_callback=refuse) as client:
        result = await client.call_tool("test_sampling", {"prompt": "hi"})
    assert result.is_error is True
    assert result.structured_content["code"] == "SAMPLING_FAILED"


# --- elicitation ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("answer", "text"), [
    (accepted(username="ada", email="ada@example.org"),
     'User response: action=accept, content={"username": "ada", "email": "ada@example.org"}'),
    (ElicitResult(action="decline"), "User response: action=decline, content=null"),
    (ElicitResult(action="cancel"), "User response: action=cancel, content=null"),
])
async def test_elicitation_reports_the_users_action(conformance: Any, mode: str, answer: ElicitResult,
                                                    text: str) -> None:
    user = User(answer)
    async with conformance(mode, elicitation_callback=user) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
    assert result.is_error is False
    assert text_of(result) == text
    [asked] = user.asked
    assert asked.message == "Who are you?"
    assert asked.requested_schema == pack.USER_FORM


@pytest.mark.parametrize("content", [
    {"username": "ada-7f3c"},  # the required email is missing
    {"username": "ada-7f3c", "email": 4242},  # the wrong type
])
async def test_an_answer_that_breaks_the_form_fails_without_quoting_it(conformance: Any, mode: str,
                                                                       content: dict[str, Any]) -> None:
    async with conformance(mode, elicitation_callback=User(accepted(**content))) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
    assert result.is_error is True
    assert result.structured_content["code"] == "ELICITATION_FAILED"
    text = text_of(result)
    assert text.startswith("ELICITATION_FAILED: ")
    assert "ada-7f3c" not in text and "4242" not in text
    assert "ada-7f3c" not in json.dumps(result.structured_content) and "4242" not in json.dumps(result.structured_content)


async def test_elicitation_without_the_capability(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        if mode == "legacy":
            result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
            assert result.is_error is True
            assert result.structured_content["code"] == "ELICITATION_UNAVAILABLE"
            return
        with pytest.raises(MCPError) as caught:
            await client.call_tool("test_elicitation", {"message": "Who are you?"})
    assert caught.value.error.code == -32021
    assert caught.value.error.data == {"requiredCapabilities": {"elicitation": {}}}


async def test_sep1034_defaults_form_arrives_as_declared(conformance: Any, mode: str) -> None:
    defaults = {name: field["default"] for name, field in pack.DEFAULTS_FORM["properties"].items()}
    user = User(accepted(**defaults))
    async with conformance(mode, elicitation_callback=user) as client:
        result = await client.call_tool("test_elicitation_sep1034_defaults", {})
    [asked] = user.asked
    assert asked.requested_schema == pack.DEFAULTS_FORM
    assert defaults == {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True}
    assert text_of(result) == f"Elicitation completed: action=accept, content={json.dumps(defaults)}"


async def test_sep1330_enums_form_arrives_as_declared(conformance: Any, mode: str) -> None:
    choice = {"untitledSingle": "option2", "titledSingle": "value3", "legacyEnum": "opt1",
              "untitledMulti": ["option1", "option3"], "titledMulti": ["value2"]}
    user = User(accepted(**choice))
    async with conformance(mode, elicitation_callback=user) as client:
        result = await client.call_tool("test_elicitation_sep1330_enums", {})
    [asked] = user.asked
    assert asked.requested_schema == pack.ENUMS_FORM
    assert asked.requested_schema["properties"]["legacyEnum"]["enumNames"] == ["Option One", "Option Two",
                                                                                "Option Three"]
    assert text_of(result) == f"Elicitation completed: action=accept, content={json.dumps(choice)}"


async def test_sep1330_rejects_a_choice_outside_the_enum(conformance: Any, mode: str) -> None:
    async with conformance(mode, elicitation_callback=User(accepted(untitledSingle="option9"))) as client:
        result = await client.call_tool("test_elicitation_sep1330_enums", {})
    assert result.structured_content["code"] == "ELICITATION_FAILED"
    assert "option9" not in text_of(result)


async def test_streaming_elicitation_greets_by_name(conformance: Any, mode: str) -> None:
    user = User(accepted(name="Ada"))
    async with conformance(mode, elicitation_callback=user) as client:
        result = await client.call_tool("test_streaming_elicitation", {})
    assert text_of(result) == "Hello, Ada!"
    assert [asked.message for asked in user.asked] == ["What is your name?"]


# --- roots, and several questions in one call -----------------------------------------------------------

async def test_list_roots_names_the_clients_roots(conformance: Any, mode: str) -> None:
    async with conformance(mode, list_roots_callback=share_roots) as client:
        result = await client.call_tool("test_input_required_result_list_roots", {})
    assert text_of(result) == "Roots: project (file:///work/project), shared (file:///work/shared)"


async def test_list_roots_without_the_capability_is_empty(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_input_required_result_list_roots", {})
    assert text_of(result) == "Roots: "


async def test_multiple_inputs_asks_all_three_questions(conformance: Any, mode: str) -> None:
    model, user = Model("Hello"), User(accepted(name="Ada"))
    async with conformance(mode, sampling_callback=model, elicitation_callback=user,
                           list_roots_callback=share_roots) as client:
        result = await client.call_tool("test_input_required_result_multiple_inputs", {})
    assert text_of(result) == "Hello Ada! (2 roots)"
    assert model.prompts == ["Write a one-word greeting."] and len(user.asked) == 1


async def test_multi_round_asks_step_two_after_step_one(conformance: Any, mode: str) -> None:
    asked: list[str] = []

    async def user(context: Any, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params.message)
        field = next(iter(params.requested_schema["properties"]))
        return accepted(**{field: {"name": "Ada", "color": "blue"}[field]})

    async with conformance(mode, elicitation_callback=user) as client:
        result = await client.call_tool("test_input_required_result_multi_round", {})
    assert text_of(result) == "Ada likes blue"
    assert asked == ["Step 1: What is your name?", "Step 2: What is your favorite color?"]


async def test_the_input_required_tools_answer_in_the_handshake_era_too(conformance: Any) -> None:
    model, user = Model("Paris"), User(accepted(name="Ada", ok=True))
    async with conformance("legacy", sampling_callback=model, elicitation_callback=user) as client:
        named = await client.call_tool("test_input_required_result_elicitation", {})
        capital = await client.call_tool("test_input_required_result_sampling", {})
        confirmed = await client.call_tool("test_input_required_result_request_state", {})
        chosen = await client.call_tool("test_input_required_result_capabilities", {})
    assert text_of(named) == "Hello, Ada!"
    assert text_of(capital) == "The model says: Paris"
    assert text_of(confirmed) == "state-ok: confirmed"
    assert text_of(chosen) == "Hello, Ada!"  # the client elicits, so the user is asked, not the model
    assert model.prompts == ["What is the capital of France?"]
