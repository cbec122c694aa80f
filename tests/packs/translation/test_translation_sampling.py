"""The sampling path through a real client with a sampling callback, in both protocol eras.

The callback plays the client's model: it returns canned replies (well-formed and adversarial) and
records what the server asked, so these tests see exactly what a client would.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import CreateMessageResult, ErrorData, TextContent

from parlance_translation.prompting import SYSTEM_PROMPT, prompt_hash

pytestmark = pytest.mark.anyio

EMAIL = "Hey 👋 — can we revisit the 東京 rollout timeline? I'm not sure everyone is aligned."
TRANSCRIPT = (
    "Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
    "Thomas: Yes — I'll have it ready by Wednesday 🚀.\n"
    "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "Priya: We can circle back on that next week.\n"
)


def span(text: str, quote: str) -> dict[str, Any]:
    start = text.index(quote)
    return {"start_char": start, "end_char": start + len(quote), "text": quote}


def incoming_reply() -> dict[str, Any]:
    start = EMAIL.index("can we revisit")
    return {
        "explicit_ask": "Reopen the rollout-timeline discussion.",
        "likely_subtext": [{"text": "They want to move the date.", "confidence": 0.8}],
        "ambiguity": {"detected": True, "spans": [
            {"start_char": start, "end_char": start + len("can we revisit the 東京 rollout timeline?"),
             "reason": "soft_request", "note": None}]},
        "recommended_next_action": {"action": "clarify", "reason": "Ask which concerns.", "draft_reply": "Which ones?"},
        "eval_corpus_slice": "model-made-this-up", "model_provenance": {"mode": "cloud", "provider": "x", "model": "y"},
    }


def tone_reply(phrase: str = "Strong nack.") -> dict[str, Any]:
    return {
        "axes": {"directness": 92, "warmth": 18, "urgency": 71},
        "axes_target": None,
        "baseline_delta": {"directness": 40, "warmth": -50, "urgency": 30},
        "flagged_phrases": [{"start_char": 0, "end_char": len(phrase), "phrase": phrase, "axis": "warmth", "delta": -58,
                             "note": "Blunt."}],
        "suggested_rewrite_hint": "Open with acknowledgement.",
    }


def rewrite_reply(rewritten: str) -> dict[str, Any]:
    return {
        "rewritten": rewritten,
        "preserved_terms": ["EOD", "migration script"],  # a claim the server must not trust
        "unpreserved_terms": [],
        "diff_summary": {"tone_shift": "Warmer.", "structural_changes": ["Added opener"], "warnings": []},
    }


def meeting_reply(**overrides: Any) -> dict[str, Any]:
    reply = {
        "my_asks": [{"text": "Own the migration script.", "asker": "Priya", "due": "Wednesday",
                     "quoted_span": span(TRANSCRIPT, "Thomas, can you own the migration script?")}],
        "others_asks": [{"text": "Someone drafts the runbook.", "asker": "Roberto", "due": None,
                         "quoted_span": span(TRANSCRIPT, "Can someone draft the runbook?")}],
        "decisions": [{"text": "Thomas owns the script.", "decided_by": ["Thomas"],
                       "quoted_span": span(TRANSCRIPT, "Yes — I'll have it ready by Wednesday 🚀.")}],
        "ambiguous_items": [{"text": "Runbook deferred.", "verbatim": True, "reason": "vague_timeline",
                             "quoted_span": span(TRANSCRIPT, "We can circle back on that next week.")}],
    }
    reply.update(overrides)
    return reply


class FakeModel:
    """A sampling callback that answers with `reply` and remembers every request."""

    def __init__(self, reply: Any, model: str = "claude-sonnet-4.6", stop_reason: str = "endTurn") -> None:
        self.reply, self.model, self.stop_reason = reply, model, stop_reason
        self.requests: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> CreateMessageResult | ErrorData:
        self.requests.append(params)
        if isinstance(self.reply, ErrorData):
            return self.reply
        text = self.reply if isinstance(self.reply, str) else json.dumps(self.reply, ensure_ascii=False)
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text=text), model=self.model,
                                   stop_reason=self.stop_reason)


async def call(translation_client, tool: str, args: dict[str, Any], model: FakeModel,
               settings: dict[str, Any] | None = None) -> Any:
    async with translation_client(settings=settings, sampling_callback=model) as client:
        return await client.call_tool(tool, args)


CALLS = [
    ("translate_incoming", {"text": EMAIL, "channel": "slack"}, incoming_reply()),
    ("check_tone", {"text": "Strong nack. This will not scale.", "target_register": "warm"}, tone_reply()),
    ("rewrite_outgoing", {"text": "This is broken. Fix the migration script before EOD.", "target_register": "warm",
                          "preserve_terms": ["EOD", "migration script"]},
     rewrite_reply("Hi — this looks broken. Could you fix the migration script by EOD?")),
    ("brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas"}, meeting_reply()),
]


@pytest.mark.parametrize(("tool", "args", "reply"), CALLS, ids=[c[0] for c in CALLS])
async def test_sampled_reply_becomes_a_contract_result(translation_client, translation_meta, contract_check,
                                                       tool: str, args: dict[str, Any], reply: dict[str, Any]) -> None:
    model = FakeModel(reply)
    result = await call(translation_client, tool, args, model, settings={"provenance_mode": "cloud"})
    assert result.is_error is False, result.structured_content
    out = result.structured_content
    contract_check(tool, out)
    assert out["model_provenance"] == {"mode": "cloud", "provider": "anthropic", "model": "claude-sonnet-4.6"}
    assert out["eval_corpus_slice"].startswith(f"plugins/translation/evals/")
    meta = translation_meta(result)
    assert meta["source"] == "sampling"
    assert "refinement_prompt" not in meta
    [request] = model.requests
    assert request.system_prompt == SYSTEM_PROMPT
    prompt = request.messages[0].content.text
    assert meta["prompt_sha256"] == prompt_hash(prompt)
    assert '"properties"' in prompt  # the reply schema travels with the prompt
    assert (args.get("text") or args.get("transcript")) in prompt


async def test_server_owned_fields_override_the_models_claims(translation_client) -> None:
    _, args, reply = CALLS[2]
    reply = rewrite_reply("Hi — could you fix the migration script today?")
    result = await call(translation_client, "rewrite_outgoing", args, FakeModel(reply))
    out = result.structured_content
    assert out["preserved_terms"] == ["migration script"]
    assert out["unpreserved_terms"] == ["EOD"]
    assert any("'EOD'" in warning for warning in out["diff_summary"]["warnings"])


async def test_check_tone_nulls_baseline_delta_and_fills_axes_target(translation_client, translation_meta) -> None:
    args = {"text": "Strong nack. This will not scale.", "target_register": "warm", "baseline_messages": ["hi"]}
    result = await call(translation_client, "check_tone", args, FakeModel(tone_reply()))
    out = result.structured_content
    assert out["baseline_delta"] is None  # fewer than 3 baseline messages, whatever the model said
    assert out["axes_target"] == {"directness": 45, "warmth": 80, "urgency": 40}
    assert translation_meta(result)["signals"][0]["code"] == "BASELINE_TOO_SMALL"


async def test_code_fenced_reply_is_accepted(translation_client) -> None:
    fenced = "```json\n" + json.dumps(meeting_reply(), ensure_ascii=False) + "\n```"
    result = await call(translation_client, "brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas"},
                        FakeModel(fenced))
    assert result.is_error is False, result.structured_content


def shifted(quoted: dict[str, Any], by: int) -> dict[str, Any]:
    return {**quoted, "start_char": quoted["start_char"] + by, "end_char": quoted["end_char"] + by}


ADVERSARIAL = [
    ("non-JSON", "brief_meeting", "Sure! Here is the brief: my asks are ...", "MODEL_OUTPUT_INVALID"),
    ("JSON array", "brief_meeting", "[]", "MODEL_OUTPUT_INVALID"),
    ("NaN", "check_tone", '{"axes": {"directness": NaN, "warmth": 1, "urgency": 1}, "baseline_delta": null, '
     '"flagged_phrases": [], "suggested_rewrite_hint": null}', "MODEL_OUTPUT_INVALID"),
    ("axis out of range", "check_tone", {**tone_reply(), "axes": {"directness": 101, "warmth": 5, "urgency": 5}},
     "MODEL_OUTPUT_INVALID"),
    ("axis as string", "check_tone", {**tone_reply(), "axes": {"directness": "90", "warmth": 5, "urgency": 5}},
     "MODEL_OUTPUT_INVALID"),
    ("unknown enum", "translate_incoming", {**incoming_reply(), "recommended_next_action": {
        "action": "panic", "reason": "x"}}, "MODEL_OUTPUT_INVALID"),
    ("extra field", "brief_meeting", {**meeting_reply(), "summary": "extra"}, "MODEL_OUTPUT_INVALID"),
    ("missing section", "brief_meeting", {k: v for k, v in meeting_reply().items() if k != "decisions"},
     "MODEL_OUTPUT_INVALID"),
    ("verbatim false", "brief_meeting", meeting_reply(ambiguous_items=[{
        **meeting_reply()["ambiguous_items"][0], "verbatim": False}]), "MODEL_OUTPUT_INVALID"),
    ("off-by-one ambiguous span", "brief_meeting", meeting_reply(ambiguous_items=[{
        **meeting_reply()["ambiguous_items"][0],
        "quoted_span": shifted(meeting_reply()["ambiguous_items"][0]["quoted_span"], 1)}]), "VERBATIM_ANCHOR_FAILED"),
    ("fabricated decision quote", "brief_meeting", meeting_reply(decisions=[{
        "text": "Ship Friday.", "decided_by": [], "quoted_span": {"start_char": 0, "end_char": 20,
                                                                   "text": "We will ship Friday."}}]),
     "VERBATIM_ANCHOR_FAILED"),
    ("ask span past the end", "brief_meeting", meeting_reply(my_asks=[{
        **meeting_reply()["my_asks"][0], "quoted_span": {"start_char": 300, "end_char": 400, "text": "x"}}]),
     "VERBATIM_ANCHOR_FAILED"),
    ("flagged phrase not at its offsets", "check_tone", tone_reply("Strong nack!"), "VERBATIM_ANCHOR_FAILED"),
    ("span end before start", "translate_incoming", {**incoming_reply(), "ambiguity": {"detected": True, "spans": [
        {"start_char": 10, "end_char": 4, "reason": "other"}]}}, "MODEL_OUTPUT_INVALID"),
    ("span past the end", "translate_incoming", {**incoming_reply(), "ambiguity": {"detected": True, "spans": [
        {"start_char": 10, "end_char": 4000, "reason": "other"}]}}, "MODEL_OUTPUT_INVALID"),
    ("empty rewrite", "rewrite_outgoing", rewrite_reply(""), "MODEL_OUTPUT_INVALID"),
]
ARGS = {tool: args for tool, args, _ in CALLS}


@pytest.mark.parametrize(("name", "tool", "reply", "code"), ADVERSARIAL, ids=[a[0] for a in ADVERSARIAL])
async def test_adversarial_reply_is_rejected(translation_client, name: str, tool: str, reply: Any, code: str) -> None:
    args = {"text": "Strong nack. This will not scale."} if tool == "check_tone" else ARGS[tool]
    result = await call(translation_client, tool, args, FakeModel(reply))
    assert result.is_error is True
    assert result.structured_content["code"] == code, result.structured_content


@pytest.mark.parametrize(("name", "tool", "reply", "code"), ADVERSARIAL[:6], ids=[a[0] for a in ADVERSARIAL[:6]])
async def test_adversarial_model_output_is_rejected_the_same_way(translation_client, name: str, tool: str,
                                                                 reply: Any, code: str) -> None:
    args = {"text": "Strong nack. This will not scale."} if tool == "check_tone" else ARGS[tool]
    async with translation_client() as client:
        result = await client.call_tool(tool, {**args, "model_output": reply})
    assert result.structured_content["code"] == code


async def test_over_cap_lists_are_truncated_in_order_with_a_flag(translation_client, translation_meta,
                                                                 contract_check) -> None:
    decision = meeting_reply()["decisions"][0]
    many = [{**decision, "text": f"decision {i}"} for i in range(60)]
    result = await call(translation_client, "brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas"},
                        FakeModel(meeting_reply(decisions=many)))
    assert result.is_error is False
    decisions = result.structured_content["decisions"]
    assert [d["text"] for d in decisions] == [f"decision {i}" for i in range(50)]
    assert translation_meta(result)["truncated"] == ["decisions: 60 items, kept the first 50"]
    contract_check("brief_meeting", result.structured_content)


async def test_truncated_json_at_max_tokens_says_so(translation_client) -> None:
    model = FakeModel(json.dumps(meeting_reply())[:80], stop_reason="maxTokens")
    result = await call(translation_client, "brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas"}, model)
    assert result.structured_content["code"] == "MODEL_OUTPUT_INVALID"
    assert "max_tokens" in result.structured_content["error"]


async def test_sampling_refused_in_sample_mode_is_model_unavailable(translation_client, mode: str) -> None:
    model = FakeModel(ErrorData(code=-32603, message="user rejected sampling"))
    if mode == "auto":
        # 2026-07-28: the client answers the server's input request itself; a refusal never reaches the
        # server, the SDK's client raises it to its caller instead (mcp 2.3.0 behaviour).
        with pytest.raises(BaseException) as raised:
            await call(translation_client, "translate_incoming", {"text": EMAIL}, model, settings={"mode": "sample"})
        assert isinstance(raised.value, MCPError) or raised.group_contains(MCPError, match="user rejected sampling")
        return
    result = await call(translation_client, "translate_incoming", {"text": EMAIL}, model, settings={"mode": "sample"})
    assert result.structured_content["code"] == "MODEL_UNAVAILABLE"
    assert "user rejected sampling" in result.structured_content["error"]


async def test_sampling_refused_in_auto_mode_falls_back_to_baseline(translation_client, translation_meta,
                                                                    mode: str) -> None:
    if mode == "auto":
        pytest.skip("2026-07-28: a refused sample is raised by the client and never reaches the server")
    model = FakeModel(ErrorData(code=-32603, message="user rejected sampling"))
    result = await call(translation_client, "translate_incoming", {"text": EMAIL}, model)
    assert result.is_error is False
    meta = translation_meta(result)
    assert meta["source"] == "baseline" and meta["sampling_error"] == "SAMPLING_FAILED"
    assert result.structured_content["model_provenance"]["provider"] == "parlance"


async def test_baseline_mode_never_samples(translation_client, translation_meta) -> None:
    model = FakeModel(incoming_reply())
    result = await call(translation_client, "translate_incoming", {"text": EMAIL}, model,
                        settings={"mode": "baseline"})
    assert model.requests == []
    assert translation_meta(result)["source"] == "baseline"


async def test_auto_without_sampling_capability_is_baseline_with_refinement_prompt(translation_client,
                                                                                    translation_meta) -> None:
    async with translation_client() as client:
        result = await client.call_tool("translate_incoming", {"text": EMAIL})
    meta = translation_meta(result)
    assert meta["source"] == "baseline"
    assert result.structured_content["model_provenance"] == {
        "mode": "local", "provider": "parlance", "model": "baseline-heuristics-0.1"}
    assert meta["refinement_prompt"]["system"] == SYSTEM_PROMPT
    assert meta["prompt_sha256"] == prompt_hash(meta["refinement_prompt"]["user"])
    text = result.content[0].text
    assert "model_output" in text and "refinement_prompt" in text and meta["prompt_sha256"][:12] in text
    assert json.loads(text.split("\n\n")[0]) == result.structured_content


@pytest.mark.parametrize(("tool", "args", "reply"), CALLS, ids=[c[0] for c in CALLS])
async def test_model_output_round_trip(translation_client, translation_meta, contract_check,
                                       tool: str, args: dict[str, Any], reply: dict[str, Any]) -> None:
    async with translation_client() as client:
        as_text = await client.call_tool(tool, {**args, "model_output": json.dumps(reply, ensure_ascii=False)})
        as_object = await client.call_tool(tool, {**args, "model_output": reply})
    for result in (as_text, as_object):
        assert result.is_error is False, result.structured_content
        contract_check(tool, result.structured_content)
        assert translation_meta(result)["source"] == "model_output"
        assert result.structured_content["model_provenance"] == {"mode": "unknown", "provider": "unknown",
                                                                 "model": "unknown"}
    assert as_text.structured_content == as_object.structured_content


async def test_long_transcripts_get_a_prompt_template_not_an_echo(translation_client, translation_meta) -> None:
    transcript = TRANSCRIPT * 200  # ~40,000 characters
    async with translation_client() as client:
        result = await client.call_tool("brief_meeting", {"transcript": transcript, "me": "Thomas"})
    prompt = translation_meta(result)["refinement_prompt"]
    assert "user" not in prompt and transcript not in prompt["user_template"]
    assert prompt["user_template"].count("{{transcript}}") == 1
    filled = prompt["user_template"].replace("{{transcript}}", transcript)
    assert prompt_hash(filled) == translation_meta(result)["prompt_sha256"]
