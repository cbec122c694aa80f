"""Baseline heuristics as plain Python: offsets in code points (emoji, CJK), verbatim spans, speed."""

from __future__ import annotations

import statistics
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlance_translation.heuristics import incoming, meeting, rewrite, tone
from parlance_translation.heuristics.matching import CategoryMatcher, expand, fold
from parlance_translation.templates import resolve_lexicon

AMBIGUITY = resolve_lexicon("ambiguity")
TONE = resolve_lexicon("tone")
REWRITE = resolve_lexicon("rewrite")
MEETING = resolve_lexicon("meeting")


def test_phrase_expansion_and_whole_word_matching() -> None:
    assert expand("I{'ll| will} try") == ["I'll try", "I will try"]
    matcher = CategoryMatcher({"hedge": ["maybe", "I{'ll| will} try"]})
    text = "Maybelline? MAYBE. I’ll   try, maybe"
    found = [(m.start, m.end) for m in matcher.finditer(fold(text))]
    assert [text[s:e] for s, e in found] == ["MAYBE", "I’ll   try", "maybe"]


@given(st.text())
def test_fold_keeps_every_offset(text: str) -> None:
    assert len(fold(text)) == len(text)


def test_incoming_spans_are_code_point_offsets_with_emoji_and_cjk() -> None:
    text = "🙂🙂 東京チームより: can we revisit the plan? Everyone 👀 is waiting, ASAP."
    spans = incoming.find_spans(text, AMBIGUITY)
    slices = {span.reason: text[span.start:span.end] for span in spans}
    assert slices["soft_request"] == "can we revisit the plan?"
    assert slices["vague_referent"] == "Everyone"
    assert slices["implied_urgency"] == "ASAP"
    assert text.index("can we revisit") == next(s.start for s in spans if s.reason == "soft_request")


def test_incoming_without_patterns_acknowledges() -> None:
    result = incoming.analyse("The build finished at 10:02.", "slack", [], AMBIGUITY)
    assert result["ambiguity"] == {"detected": False, "spans": []}
    assert result["explicit_ask"] is None
    assert result["recommended_next_action"]["action"] == "acknowledge"


def test_tone_flags_are_verbatim_slices_after_emoji() -> None:
    text = "🔥🔥 Strong nack. This is broken and we need to fix it ASAP!!"
    baseline = ["Thanks so much, really helpful 🙂", "Happy to help whenever!", "Great catch, thank you!"]
    result = tone.analyse(text, baseline, "warm", TONE)
    assert result["flagged_phrases"], result
    for flagged in result["flagged_phrases"]:
        assert text[flagged["start_char"]:flagged["end_char"]] == flagged["phrase"]
    assert result["axes"]["warmth"] < 50 < result["axes"]["urgency"]
    assert result["baseline_delta"]["warmth"] < -25
    assert result["axes_target"] == {"directness": 45.0, "warmth": 80.0, "urgency": 40.0}


def test_tone_is_descriptive_without_baseline_or_target() -> None:
    result = tone.analyse("Just circling back on the spec review — any chance you've had a look?", [], None, TONE)
    assert result["flagged_phrases"] == [] and result["suggested_rewrite_hint"] is None
    assert result["axes"]["directness"] < 50


@pytest.mark.parametrize("register", ["direct", "warm", "formal", "concise", "clarifying"])
def test_each_register_changes_the_message_and_keeps_terms(register: str) -> None:
    text = ("Hey, I was wondering if you could maybe fix the migration-script before EOD? "
            "As I said, it's kind of broken. Thanks in advance!")
    result = rewrite.rewrite(text, register, ["migration-script", "EOD"], "email", REWRITE)
    assert result["rewritten"] != text
    assert "migration-script" in result["rewritten"] and "EOD" in result["rewritten"]
    assert result["diff_summary"]["structural_changes"]


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=300), st.data(), st.sampled_from(["direct", "warm", "formal", "concise",
                                                                       "clarifying"]))
def test_rewrite_never_loses_a_term_that_occurs_in_the_message(text: str, data, register: str) -> None:
    starts = data.draw(st.lists(st.integers(0, len(text) - 1), max_size=4))
    terms = [text[s:s + data.draw(st.integers(1, 12))] for s in starts]
    terms = [term for term in terms if term.strip()]
    result = rewrite.rewrite(text, register, terms, "slack", REWRITE)
    for term in terms:
        assert term in result["rewritten"]


TRANSCRIPT = (
    "[00:00:03] Priya Natarajan: Let's get the rollout date on the calendar. Thomas, can you own the 移行 script?\n"
    "[00:00:09] Thomas: Yes — I'll have it ready by Wednesday 🚀.\n"
    "[00:00:15] Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "[00:00:21] Thomas: Roberto, could you check the dashboards before Friday?\n"
    "[00:00:30] Pri: We can circle back on that next week. I'd like everyone to read the doc 📄 by EOD.\n"
)


def test_meeting_partition_and_verbatim_spans() -> None:
    analysis = meeting.analyse(TRANSCRIPT, "Thomas", ["Priya", "Thomas", "Roberto"], MEETING)
    brief = analysis.assemble()
    for section in ("my_asks", "others_asks", "decisions", "ambiguous_items"):
        for item in brief[section]:
            quoted = item["quoted_span"]
            assert TRANSCRIPT[quoted["start_char"]:quoted["end_char"]] == quoted["text"], section
    mine = [item["quoted_span"]["text"] for item in brief["my_asks"]]
    assert mine == ["Thomas, can you own the 移行 script?", "I'd like everyone to read the doc 📄 by EOD."]
    assert [item["asker"] for item in brief["my_asks"]] == ["Priya", "Priya"]  # roster spelling, "Pri" too
    assert brief["my_asks"][1]["due"] == "EOD"
    others = {item["quoted_span"]["text"]: item for item in brief["others_asks"]}
    assert others["Roberto, could you check the dashboards before Friday?"]["asker"] == "Thomas"
    assert others["Roberto, could you check the dashboards before Friday?"]["due"] == "Friday"
    assert "Can someone draft the runbook?" in others
    assert [d["decided_by"] for d in brief["decisions"]] == [["Thomas"]]
    reasons = {item["reason"] for item in brief["ambiguous_items"]}
    assert {"unassigned_owner", "deferred_topic"} <= reasons
    assert all(item["verbatim"] is True for item in brief["ambiguous_items"])


def test_meeting_without_speaker_labels_still_anchors() -> None:
    text = "we decided to go with postgres. can someone write the migration? maybe next week."
    brief = meeting.analyse(text, "Thomas", [], MEETING).assemble()
    assert brief["decisions"][0]["quoted_span"]["text"] == "we decided to go with postgres."
    assert brief["others_asks"][0]["asker"] is None


def _long_transcript(size: int) -> str:
    block = TRANSCRIPT + (
        "Mei: The retention numbers look stable across the cohort this quarter, nothing surprising there.\n"
        "Roberto: The staging cluster was quiet over the weekend and the on-call rota is covered.\n"
    )
    return (block * (size // len(block) + 1))[:size]


@pytest.mark.parametrize("size", [200_000])
def test_meeting_200k_is_fast_and_truncates_in_order(size: int) -> None:
    text = _long_transcript(size)
    timings = []
    for _ in range(7):
        started = time.perf_counter()
        analysis = meeting.analyse(text, "Thomas", [], MEETING)
        analysis.assemble()
        timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.050, f"p50 {statistics.median(timings) * 1000:.1f} ms"
    assert analysis.truncated == {"my_asks": True, "others_asks": True, "decisions": True, "ambiguous_items": True}
    starts = [item["quoted_span"]["start_char"] for item in analysis.ambiguous_items]
    assert starts == sorted(starts) and len(starts) == 50


def test_meeting_200k_without_cues_is_fast() -> None:
    line = "Mei: The retention numbers look stable across the cohort this quarter, nothing surprising there.\n"
    text = (line * (200_000 // len(line) + 1))[:200_000]
    timings = []
    for _ in range(5):
        started = time.perf_counter()
        brief = meeting.analyse(text, "Thomas", [], MEETING).assemble()
        timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.050
    assert brief == {"my_asks": [], "others_asks": [], "decisions": [], "ambiguous_items": []}
