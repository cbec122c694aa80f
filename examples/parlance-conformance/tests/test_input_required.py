"""2026-07-28 input-required rounds, driven by hand with `client.session.call_tool(allow_input_required=True)`.

Each round either completes or names the questions still open (`inputRequests`, keyed as the pack
asked them) with a sealed `requestState`; the next round sends answers under those keys with that
state. These tests look at each round's shape, where test_questions.py only sees the final result.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import (
    CallToolRequest,
    CallToolRequestParams,
    CallToolResult,
    CreateMessageRequest,
    ElicitRequest,
    ElicitResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
)
from pydantic import TypeAdapter

from conformance_checks import ROOTS, accepted, sampled, text_of

pytestmark = pytest.mark.anyio


async def unused(*args: Any) -> Any:
    raise AssertionError("the client answered a question itself: these tests answer each round by hand")


ALL_CAPABILITIES = {"sampling_callback": unused, "elicitation_callback": unused, "list_roots_callback": unused}
"""Callbacks only declare the capabilities here; the rounds are answered by the tests."""


@pytest.fixture
async def client(conformance: Any) -> Any:
    async with conformance("auto", **ALL_CAPABILITIES) as connected:
        yield connected


async def call(client: Any, tool: str, answers: dict[str, Any] | None = None, state: str | None = None) -> Any:
    return await client.session.call_tool(tool, {}, allow_input_required=True, input_responses=answers,
                                          request_state=state)


def asks(round_: Any) -> dict[str, type]:
    """The open questions of a round: key → request type."""
    assert isinstance(round_, InputRequiredResult), f"expected another round, got {round_!r}"
    assert round_.request_state
    return {key: type(request) for key, request in round_.input_requests.items()}


async def test_elicitation_is_asked_under_user_name(client: Any) -> None:
    first = await call(client, "test_input_required_result_elicitation")
    assert asks(first) == {"user_name": ElicitRequest}
    question = first.input_requests["user_name"].params
    assert question.message == "What is your name?"
    assert question.requested_schema == {"type": "object", "properties": {"name": {"type": "string"}},
                                         "required": ["name"]}
    done = await call(client, "test_input_required_result_elicitation", {"user_name": accepted(name="Ada")},
                      first.request_state)
    assert isinstance(done, CallToolResult) and text_of(done) == "Hello, Ada!"


async def test_an_answer_is_enough_without_the_state(client: Any) -> None:
    # A one-question tool needs no earlier answers: the client may answer straight away.
    done = await call(client, "test_input_required_result_elicitation", {"user_name": accepted(name="Bo")})
    assert text_of(done) == "Hello, Bo!"


async def test_sampling_is_asked_under_capital_question(client: Any) -> None:
    first = await call(client, "test_input_required_result_sampling")
    assert asks(first) == {"capital_question": CreateMessageRequest}
    question = first.input_requests["capital_question"].params
    assert question.messages[0].content.text == "What is the capital of France?"
    assert question.max_tokens == 100
    done = await call(client, "test_input_required_result_sampling", {"capital_question": sampled("Paris")},
                      first.request_state)
    assert text_of(done) == "The model says: Paris"


async def test_roots_are_asked_under_client_roots(client: Any) -> None:
    first = await call(client, "test_input_required_result_list_roots")
    assert asks(first) == {"client_roots": ListRootsRequest}
    done = await call(client, "test_input_required_result_list_roots", {"client_roots": ROOTS}, first.request_state)
    assert text_of(done) == "Roots: project (file:///work/project), shared (file:///work/shared)"


@pytest.mark.parametrize(("answer", "text"), [
    (accepted(ok=True), "state-ok: confirmed"),
    (accepted(ok=False), "state-ok: not confirmed"),
    (ElicitResult(action="decline"), "state-ok: not confirmed"),
])
async def test_request_state_tool_confirms(client: Any, answer: ElicitResult, text: str) -> None:
    first = await call(client, "test_input_required_result_request_state")
    assert asks(first) == {"confirm": ElicitRequest}
    done = await call(client, "test_input_required_result_request_state", {"confirm": answer}, first.request_state)
    assert text_of(done) == text


async def test_multi_round_asks_one_step_per_round_and_carries_step1_in_the_state(client: Any) -> None:
    tool = "test_input_required_result_multi_round"
    first = await call(client, tool)
    assert asks(first) == {"step1": ElicitRequest}
    second = await call(client, tool, {"step1": accepted(name="Ada")}, first.request_state)
    assert asks(second) == {"step2": ElicitRequest}
    assert second.input_requests["step2"].params.message == "Step 2: What is your favorite color?"
    assert second.request_state != first.request_state  # it now carries the step-1 answer
    done = await call(client, tool, {"step2": accepted(color="blue")}, second.request_state)
    assert text_of(done) == "Ada likes blue"
    # Without the second round's state the step-1 answer is gone: step 1 is asked again.
    forgot = await call(client, tool, {"step2": accepted(color="blue")}, first.request_state)
    assert asks(forgot) == {"step1": ElicitRequest}


async def test_multiple_inputs_come_in_one_round(client: Any) -> None:
    tool = "test_input_required_result_multiple_inputs"
    first = await call(client, tool)
    assert asks(first) == {"user_name": ElicitRequest, "greeting": CreateMessageRequest,
                           "client_roots": ListRootsRequest}
    done = await call(client, tool, {"user_name": accepted(name="Ada"), "greeting": sampled("Hi"),
                                     "client_roots": ROOTS}, first.request_state)
    assert text_of(done) == "Hi Ada! (2 roots)"


async def test_a_partial_answer_asks_only_what_is_still_open(client: Any) -> None:
    tool = "test_input_required_result_multiple_inputs"
    first = await call(client, tool)
    second = await call(client, tool, {"greeting": sampled("Hi")}, first.request_state)
    assert asks(second) == {"user_name": ElicitRequest, "client_roots": ListRootsRequest}
    done = await call(client, tool, {"user_name": accepted(name="Ada"), "client_roots": ROOTS},
                      second.request_state)
    assert text_of(done) == "Hi Ada! (2 roots)"


async def test_an_answer_of_the_wrong_kind_is_asked_again(client: Any) -> None:
    # Valid on the wire (a ListRootsResult), but no answer to an elicitation: the question stands.
    tool = "test_input_required_result_elicitation"
    first = await call(client, tool)
    again = await call(client, tool, {"user_name": ListRootsResult(roots=[])}, first.request_state)
    assert asks(again) == {"user_name": ElicitRequest}


async def test_an_answer_that_is_not_an_object_never_completes(client: Any) -> None:
    # The suite's validate-input scenario sends {"user_name": 12345}. The SDK's own parameter
    # validation refuses it (-32602) before Parlance sees it: a JSON-RPC error, which the scenario
    # accepts (it requires an error or another round, never a complete result).
    first = await call(client, "test_input_required_result_elicitation")
    params = CallToolRequestParams.model_construct(name="test_input_required_result_elicitation", arguments={},
                                                   input_responses={"user_name": 12345},
                                                   request_state=first.request_state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic warns while serializing the deliberately wrong value
        request = CallToolRequest.model_construct(method="tools/call", params=params)
        with pytest.raises(MCPError) as caught:
            await client.session.send_request(request, TypeAdapter(CallToolResult | InputRequiredResult))
    assert caught.value.error.code == -32602


async def test_extra_unknown_keys_are_ignored(client: Any) -> None:
    done = await call(client, "test_input_required_result_elicitation", {
        "user_name": accepted(name="Alice"),
        "unknown_extra_key": accepted(foo="bar"),
        "another_unexpected": sampled("noise"),
    })
    assert isinstance(done, CallToolResult)
    assert text_of(done) == "Hello, Alice!"


@pytest.mark.parametrize("tamper", [
    lambda state: state + "x",
    lambda state: state[:20] + ("A" if state[20] != "A" else "B") + state[21:],
    lambda state: state[: len(state) // 2],
])
async def test_a_tampered_request_state_is_refused(client: Any, tamper: Any) -> None:
    tool = "test_input_required_result_tampered_state"
    first = await call(client, tool)
    assert asks(first) == {"confirm": ElicitRequest}
    with pytest.raises(MCPError) as caught:
        await call(client, tool, {"confirm": accepted(ok=True)}, tamper(first.request_state))
    assert caught.value.error.code == -32602
    untouched = await call(client, tool, {"confirm": accepted(ok=True)}, first.request_state)
    assert text_of(untouched) == "action=accept"


async def test_a_request_state_is_bound_to_its_tool_and_arguments(client: Any) -> None:
    first = await client.session.call_tool("test_elicitation", {"message": "Name?"}, allow_input_required=True)
    assert asks(first) == {"elicit-0": ElicitRequest}  # no key given: the kind and its position
    answer = {"elicit-0": accepted(username="ada", email="ada@example.org")}
    for tool, arguments in [("test_elicitation", {"message": "Something else?"}),
                            ("test_input_required_result_tampered_state", {})]:
        with pytest.raises(MCPError) as caught:
            await client.session.call_tool(tool, arguments, allow_input_required=True, input_responses=answer,
                                           request_state=first.request_state)
        assert caught.value.error.code == -32602


async def test_capabilities_tool_asks_only_what_the_client_declared(conformance: Any) -> None:
    async with conformance("auto", sampling_callback=unused) as sampling_only:
        asked_model = await call(sampling_only, "test_input_required_result_capabilities")
        done = await call(sampling_only, "test_input_required_result_capabilities",
                          {"name_from_model": sampled("Ada")}, asked_model.request_state)
    async with conformance("auto", elicitation_callback=unused) as elicitation_only:
        asked_user = await call(elicitation_only, "test_input_required_result_capabilities")
    assert asks(asked_model) == {"name_from_model": CreateMessageRequest}  # no elicitation/create
    assert text_of(done) == "Hello, Ada!"
    assert asks(asked_user) == {"user_name": ElicitRequest}


async def test_the_sdk_client_answers_rounds_by_itself(conformance: Any) -> None:
    # What test_questions.py relies on: with callbacks set, `Client.call_tool` drives the rounds.
    rounds: list[str] = []

    async def user(context: Any, params: Any) -> ElicitResult:
        rounds.append(str(context.request_id))  # the driver passes the question's key as the request id
        return accepted(name="Ada")

    async with conformance("auto", elicitation_callback=user) as client:
        first = await call(client, "test_input_required_result_elicitation")
        result = await client.call_tool("test_input_required_result_elicitation", {})
    assert isinstance(first, InputRequiredResult)
    assert text_of(result) == "Hello, Ada!"
    assert rounds == ["user_name"]


async def test_prompt_asks_under_user_context(conformance: Any) -> None:
    async with conformance("auto", elicitation_callback=unused) as client:
        first = await client.session.get_prompt("test_input_required_result_prompt", allow_input_required=True)
        assert asks(first) == {"user_context": ElicitRequest}
        done = await client.session.get_prompt("test_input_required_result_prompt", allow_input_required=True,
                                               input_responses={"user_context": accepted(context="French")},
                                               request_state=first.request_state)
    assert done.messages[0].content.text == "Answer with this context in mind: French"
