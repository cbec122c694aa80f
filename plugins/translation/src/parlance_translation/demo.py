"""The translation section of `parlance demo`: the four tools in baseline mode, no model needed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from parlance import DemoStep

TITLE = "translation: decode, tone-check, rewrite and brief (baseline heuristics; a model can refine them)"

TRANSCRIPT = (
    "Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
    "Thomas: Yes — I'll have it ready by Wednesday.\n"
    "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "Priya: We can circle back on that next week.\n"
    "Thomas: Agreed, we'll ship the rollout on May 28 if the script passes staging.\n"
)

STEPS = [
    DemoStep("Decode an incoming Slack message: explicit ask, subtext, ambiguous spans", "translate_incoming",
             {"text": "Hey — can we revisit the rollout timeline? I'm not sure everyone is aligned.",
              "channel": "slack",
              "thread_context": ["We agreed last sprint to ship the rollout by end of May."]},
             show_meta="parlance/translation.refinement_prompt.user"),
    DemoStep("Score the tone of a blunt PR comment against the sender's warm baseline", "check_tone",
             {"text": "Strong nack. The approach in section 3 will not scale and we need to revisit before merge.",
              "baseline_messages": ["Thanks for the writeup — really useful framing.",
                                    "Happy to pair on this tomorrow if helpful.",
                                    "Good catch on the migration edge case; let's land that fix first."],
              "target_register": "direct", "channel": "github"}),
    DemoStep("Rewrite it warmer, keeping the technical terms verbatim", "rewrite_outgoing",
             {"text": "This is broken. Please fix before EOD.", "target_register": "warm",
              "preserve_terms": ["EOD"], "channel": "slack"}),
    DemoStep("Brief a meeting: my asks, others' asks, decisions, open items (verbatim spans)", "brief_meeting",
             {"transcript": TRANSCRIPT, "me": "Thomas", "speakers": ["Priya", "Thomas", "Roberto"]}),
    DemoStep("A model's reply whose quoted span is not in the transcript is rejected", "brief_meeting",
             {"transcript": TRANSCRIPT, "me": "Thomas", "model_output": {
                 "my_asks": [], "others_asks": [], "decisions": [], "ambiguous_items": [{
                     "text": "Runbook owner unclear", "verbatim": True, "reason": "unassigned_owner",
                     "quoted_span": {"start_char": 0, "end_char": 20, "text": "Roberto will draft it"}}]}},
             expect_error=True),
    DemoStep("An unknown channel is refused with the contract's code", "check_tone",
             {"text": "ok", "channel": "fax"}, expect_error=True),
]


@contextlib.contextmanager
def baseline_settings() -> Iterator[dict[str, Any]]:
    # The demo has no model: run the deterministic heuristics and show the prompt a model would refine.
    yield {"mode": "baseline"}
