"""Every contract error code, through a real MCP client, in both protocol eras."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.anyio

TEXT = "Hey — can we revisit the rollout timeline? I'm not sure everyone is aligned."
TRANSCRIPT = (
    "Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
    "Thomas: Yes — I'll have it ready by Wednesday.\n"
    "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "Priya: We can circle back on that next week.\n"
)

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("TEXT_REQUIRED", "translate_incoming", {}),
    ("TEXT_REQUIRED", "translate_incoming", {"text": ""}),
    ("TEXT_REQUIRED", "check_tone", {"text": None}),
    ("TEXT_REQUIRED", "rewrite_outgoing", {"text": 42, "target_register": "warm"}),
    ("TEXT_TOO_LONG", "translate_incoming", {"text": "x" * 8001}),
    ("TEXT_TOO_LONG", "check_tone", {"text": "😀" * 8001}),
    ("TEXT_TOO_LONG", "rewrite_outgoing", {"text": "界" * 8001, "target_register": "concise"}),
    ("CHANNEL_UNKNOWN", "translate_incoming", {"text": TEXT, "channel": "teams"}),
    ("CHANNEL_UNKNOWN", "check_tone", {"text": TEXT, "channel": 3}),
    ("CHANNEL_UNKNOWN", "rewrite_outgoing", {"text": TEXT, "target_register": "warm", "channel": "sms"}),
    ("TARGET_REGISTER_UNKNOWN", "check_tone", {"text": TEXT, "target_register": "snarky"}),
    ("TARGET_REGISTER_UNKNOWN", "rewrite_outgoing", {"text": TEXT, "target_register": "snarky"}),
    ("TARGET_REGISTER_REQUIRED", "rewrite_outgoing", {"text": TEXT}),
    ("TARGET_REGISTER_REQUIRED", "rewrite_outgoing", {"text": TEXT, "target_register": None}),
    ("PRESERVE_TERMS_TOO_MANY", "rewrite_outgoing",
     {"text": TEXT, "target_register": "warm", "preserve_terms": [f"t{i}" for i in range(101)]}),
    ("ME_REQUIRED", "brief_meeting", {"transcript": TRANSCRIPT}),
    ("ME_REQUIRED", "brief_meeting", {"transcript": TRANSCRIPT, "me": ""}),
    ("ME_REQUIRED", "brief_meeting", {"transcript": TRANSCRIPT, "me": "   "}),
    ("TRANSCRIPT_REQUIRED", "brief_meeting", {"me": "Thomas"}),
    ("TRANSCRIPT_REQUIRED", "brief_meeting", {"transcript": "Priya: hi", "me": "Thomas"}),
    ("TRANSCRIPT_TOO_LONG", "brief_meeting", {"transcript": "a" * 200_001, "me": "Thomas"}),
    ("LANGUAGE_PACK_MISSING", "translate_incoming", {"text": TEXT, "target_language": "de"}),
    ("LANGUAGE_PACK_MISSING", "check_tone", {"text": TEXT, "target_language": "ja-JP"}),
    ("LANGUAGE_PACK_MISSING", "rewrite_outgoing", {"text": TEXT, "target_register": "warm", "target_language": "fr"}),
    ("LANGUAGE_PACK_MISSING", "brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas", "target_language": "x!"}),
    ("MODEL_OUTPUT_INVALID", "translate_incoming", {"text": TEXT, "model_output": "not json at all"}),
    ("MODEL_OUTPUT_INVALID", "check_tone", {"text": TEXT, "model_output": 7}),
    ("MODEL_OUTPUT_INVALID", "check_tone", {"text": TEXT, "model_output": {
        "axes": {"directness": 140, "warmth": 50, "urgency": 50}, "baseline_delta": None,
        "flagged_phrases": [], "suggested_rewrite_hint": None}}),
]


@pytest.mark.parametrize(("code", "tool", "arguments"), CASES,
                         ids=[f"{code}-{tool}-{i}" for i, (code, tool, _) in enumerate(CASES)])
async def test_error_code_in_host_envelope(translation_client, code: str, tool: str, arguments: dict[str, Any]) -> None:
    async with translation_client() as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error is True
    assert result.structured_content["code"] == code, result.structured_content
    assert result.content[0].text.startswith(f"{code}: ")
    assert set(result.structured_content) == {"error", "code", "data"}


async def test_verbatim_anchor_failed_names_the_item(translation_client) -> None:
    reply = {
        "my_asks": [], "others_asks": [], "decisions": [],
        "ambiguous_items": [{
            "text": "Rollback runbook deferred.", "verbatim": True, "reason": "vague_timeline",
            "quoted_span": {"start_char": 216, "end_char": 263, "text": "Priya: We can circle back on that next week."},
        }],
    }
    async with translation_client() as client:
        result = await client.call_tool("brief_meeting", {"transcript": TRANSCRIPT, "me": "Thomas",
                                                          "model_output": json.dumps(reply)})
    assert result.is_error is True
    assert result.structured_content["code"] == "VERBATIM_ANCHOR_FAILED"
    assert result.structured_content["data"]["item"] == "ambiguous_items[0].quoted_span"
    assert "ambiguous_items[0]" in result.structured_content["error"]


async def test_model_unavailable_in_sample_mode_without_sampling(translation_client) -> None:
    async with translation_client(settings={"mode": "sample"}) as client:
        result = await client.call_tool("translate_incoming", {"text": TEXT})
    assert result.is_error is True
    assert result.structured_content["code"] == "MODEL_UNAVAILABLE"


async def test_baseline_too_small_is_a_soft_signal(translation_client, translation_meta, contract_check) -> None:
    async with translation_client() as client:
        result = await client.call_tool("check_tone", {"text": TEXT, "baseline_messages": ["Thanks!", "Cheers"]})
    assert result.is_error is False
    assert result.structured_content["baseline_delta"] is None
    contract_check("check_tone", result.structured_content)
    signals = translation_meta(result)["signals"]
    assert [signal["code"] for signal in signals] == ["BASELINE_TOO_SMALL"]


async def test_thread_context_over_the_cap_is_truncated_not_rejected(translation_client, translation_meta) -> None:
    context = [f"message {i}" for i in range(25)]
    async with translation_client() as client:
        result = await client.call_tool("translate_incoming", {"text": TEXT, "thread_context": context})
    assert result.is_error is False
    meta = translation_meta(result)
    assert any("kept the last 20" in note for note in meta["input_notes"])
    prompt = meta["refinement_prompt"]["user"]
    assert '"message 5"' in prompt and '"message 4"' not in prompt  # the most recent 20 are kept


@pytest.mark.parametrize("tag", ["en", "en-US", "en_GB", "EN-ie"])
async def test_english_tags_use_the_base_templates(translation_client, translation_meta, tag: str) -> None:
    async with translation_client() as client:
        result = await client.call_tool("translate_incoming", {"text": TEXT, "target_language": tag})
    assert result.is_error is False
    assert translation_meta(result)["template"]["language"] == "en"
