"""Writes the eval corpus (evals/<slice>/v0.1.0/general.jsonl) from the examples below.

Every reference reply here was written by hand for this corpus — none is a model output. Quoted
spans are written as quotes; `span()` computes their offsets so that they are exact. Each example
records the sha256 of the prompt the tool renders for its input, so a template change fails
`parlance eval translation` until the slice is reviewed and rebuilt:

    uv run python plugins/translation/scripts/build_eval_corpus.py

Expectation helpers: see `parlance_translation.evaluation.properties` for the operators.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlance_translation.evaluation.runner import REPLY_SOURCE, slice_file, write_slice

HERE = Path(__file__).resolve().parents[1] / "evals"


def span(source: str, quote: str, nth: int = 0) -> dict[str, Any]:
    """{start_char, end_char, text} of the `nth` occurrence of `quote` in `source`."""
    start = -1
    for _ in range(nth + 1):
        start = source.index(quote, start + 1)
    return {"start_char": start, "end_char": start + len(quote), "text": quote}


def ispan(source: str, quote: str, reason: str, note: str | None = None) -> dict[str, Any]:
    found = span(source, quote)
    return {"start_char": found["start_char"], "end_char": found["end_char"], "reason": reason, "note": note}


def flag(source: str, phrase: str, axis: str, delta: float, note: str | None = None) -> dict[str, Any]:
    found = span(source, phrase)
    return {"start_char": found["start_char"], "end_char": found["end_char"], "phrase": phrase, "axis": axis,
            "delta": delta, "note": note}


def eq(path: str, value: Any) -> dict[str, Any]:
    return {"path": path, "op": "equals", "value": value}


def has(path: str, value: Any) -> dict[str, Any]:
    return {"path": path, "op": "contains", "value": value}


def lacks(path: str, value: Any) -> dict[str, Any]:
    return {"path": path, "op": "excludes", "value": value}


def one_of(path: str, values: list[Any]) -> dict[str, Any]:
    return {"path": path, "op": "in", "value": values}


def at_least(path: str, value: float) -> dict[str, Any]:
    return {"path": path, "op": "min", "value": value}


def at_most(path: str, value: float) -> dict[str, Any]:
    return {"path": path, "op": "max", "value": value}


def null(path: str, is_null: bool = True) -> dict[str, Any]:
    return {"path": path, "op": "is_null", "value": is_null}


def example(id: str, description: str, input: dict[str, Any], reply: dict[str, Any],
            baseline: list[dict[str, Any]], replay: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": id, "description": description, "input": input, "reference_reply": reply,
            "reply_source": REPLY_SOURCE, "expect": {"baseline": baseline, "replay": replay or []}}


# --- translate_incoming ------------------------------------------------------------------------------


def incoming() -> list[dict[str, Any]]:
    out = []

    t = "Hey — can we revisit the rollout timeline? I'm not sure everyone is aligned."
    out.append(example(
        "incoming-001", "soft 'can we revisit' with thread context implying push-back (slack)",
        {"text": t, "channel": "slack", "thread_context": [
            "We agreed last sprint to ship the rollout by end of May.",
            "Two engineers flagged risk on the migration script."]},
        {"explicit_ask": "Reopen the rollout-timeline discussion with the wider group.",
         "likely_subtext": [
             {"text": "The sender wants to move the agreed end-of-May date and is signalling disagreement indirectly.",
              "confidence": 0.8},
             {"text": "The sender is backing the engineers who flagged risk and wants their concerns taken seriously.",
              "confidence": 0.6}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "can we revisit the rollout timeline?", "soft_request",
                   "'Can we revisit' often means 'I want to change this'."),
             ispan(t, "everyone", "vague_referent", "Who exactly is not aligned?")]},
         "recommended_next_action": {"action": "clarify",
                                     "reason": "Find out which concerns and which people before reopening scope.",
                                     "draft_reply": "Happy to revisit — which concerns or people do you have in mind?"}},
        [has("ambiguity.spans[*].reason", "soft_request"), has("ambiguity.spans[*].reason", "vague_referent"),
         eq("ambiguity.detected", True), eq("recommended_next_action.action", "clarify"),
         null("explicit_ask", False)],
        [eq("recommended_next_action.action", "clarify")]))

    t = "Quick one: I'll loop back next week with thoughts on the architecture doc."
    out.append(example(
        "incoming-002", "'I'll loop back next week' status with no explicit ask (email)",
        {"text": t, "channel": "email"},
        {"explicit_ask": None,
         "likely_subtext": [{"text": "The sender is deferring; 'next week' is non-committal and may slip.",
                             "confidence": 0.7}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "loop back next week", "vague_timeline", "No committed day.")]},
         "recommended_next_action": {"action": "set_reminder", "reason": "Treat it as a non-commitment and follow up.",
                                     "draft_reply": None}},
        [null("explicit_ask"), has("ambiguity.spans[*].reason", "vague_timeline"),
         eq("recommended_next_action.action", "set_reminder")],
        [null("explicit_ask")]))

    t = "Have you had a chance to look at the PR? No rush but it's been a while."
    out.append(example(
        "incoming-003", "polite nudge with hidden urgency (github)",
        {"text": t, "channel": "github"},
        {"explicit_ask": "Review the pull request.",
         "likely_subtext": [{"text": "The sender is waiting on you and is getting impatient despite 'no rush'.",
                             "confidence": 0.75}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "No rush but it's been a while.", "implied_urgency", "'No rush but' signals that it is a rush.")]},
         "recommended_next_action": {"action": "reply", "reason": "Give a concrete review time.",
                                     "draft_reply": "Sorry for the wait — I'll review it this afternoon."}},
        [has("ambiguity.spans[*].reason", "implied_urgency"), has("ambiguity.spans[*].reason", "soft_request"),
         one_of("recommended_next_action.action", ["clarify", "reply"]), null("explicit_ask", False)]))

    t = "Per my last email, the figures need to be updated before the board meeting."
    out.append(example(
        "incoming-004", "passive-aggressive reminder with a passive requirement (outlook)",
        {"text": t, "channel": "outlook"},
        {"explicit_ask": "Update the figures before the board meeting.",
         "likely_subtext": [{"text": "The sender is frustrated that an earlier request was not acted on.",
                             "confidence": 0.8}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "Per my last email", "implied_blame", "Signals irritation at being ignored."),
             ispan(t, "need to be updated", "passive_voice_actor", "Who is expected to update them?")]},
         "recommended_next_action": {"action": "reply", "reason": "Acknowledge and commit to a time.",
                                     "draft_reply": "Thanks for the nudge — I'll have the figures updated by Thursday."}},
        [has("ambiguity.spans[*].reason", "implied_blame"), has("ambiguity.spans[*].reason", "passive_voice_actor")]))

    t = "This was deprioritised by someone last sprint. Can you take it?"
    out.append(example(
        "incoming-005", "hand-off with unnamed actor (linear)",
        {"text": t, "channel": "linear"},
        {"explicit_ask": "Take ownership of the ticket.",
         "likely_subtext": [{"text": "The sender wants the work picked up without revisiting why it was dropped.",
                             "confidence": 0.6}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "was deprioritised", "passive_voice_actor", None),
             ispan(t, "someone", "vague_referent", "Who deprioritised it, and why?")]},
         "recommended_next_action": {"action": "clarify", "reason": "Ask why it was deprioritised before accepting.",
                                     "draft_reply": "Sure — do you know why it was deprioritised last sprint?"}},
        [has("ambiguity.spans[*].reason", "passive_voice_actor"), has("ambiguity.spans[*].reason", "vague_referent"),
         eq("explicit_ask", "Can you take it?"), eq("recommended_next_action.action", "clarify")]))

    t = "Great doc! 🙌 A few people had some concerns about section 4, might be worth a look when you get a chance."
    out.append(example(
        "incoming-006", "praise sandwich hiding a request, with emoji (notion)",
        {"text": t, "channel": "notion"},
        {"explicit_ask": "Look at section 4 again.",
         "likely_subtext": [{"text": "Section 4 has real problems and the sender is softening the message.",
                             "confidence": 0.7}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "A few people", "vague_referent", "Which people?"),
             ispan(t, "some concerns", "vague_referent", "Which concerns?"),
             ispan(t, "might be worth a look when you get a chance", "soft_request", None)]},
         "recommended_next_action": {"action": "clarify", "reason": "Ask for the specific concerns.",
                                     "draft_reply": "Thanks! Could you share the specific concerns about section 4?"}},
        [has("ambiguity.spans[*].reason", "soft_request"), has("ambiguity.spans[*].reason", "vague_referent"),
         eq("recommended_next_action.action", "clarify")]))

    t = "Mistakes were made in the Q3 forecast. We should discuss."
    out.append(example(
        "incoming-007", "classic passive voice hiding the actor (gdocs)",
        {"text": t, "channel": "gdocs"},
        {"explicit_ask": "Discuss the Q3 forecast errors.",
         "likely_subtext": [{"text": "Someone is being blamed for the forecast without being named.",
                             "confidence": 0.65}],
         "ambiguity": {"detected": True, "spans": [ispan(t, "Mistakes were made", "passive_voice_actor", None)]},
         "recommended_next_action": {"action": "clarify", "reason": "Ask what went wrong and who should act.",
                                     "draft_reply": "Happy to — which parts of the forecast are off?"}},
        [has("ambiguity.spans[*].reason", "passive_voice_actor"), eq("recommended_next_action.action", "clarify")]))

    t = "東京オフィスの件ですが、can we talk about the budget soon? 🙏"
    out.append(example(
        "incoming-008", "mixed Japanese/English message with CJK before the spans (generic)",
        {"text": t},
        {"explicit_ask": "Talk about the Tokyo office budget.",
         "likely_subtext": [{"text": "The budget for the Tokyo office is a concern the sender wants addressed.",
                             "confidence": 0.6}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "can we talk about the budget soon?", "soft_request", None),
             ispan(t, "soon", "vague_timeline", "When?")]},
         "recommended_next_action": {"action": "reply", "reason": "Offer a concrete time.",
                                     "draft_reply": "Sure — does Thursday at 10:00 JST work?"}},
        [has("ambiguity.spans[*].reason", "soft_request"), null("explicit_ask", False)]))

    t = "URGENT: prod is down, need eyes on this ASAP 🔥"
    out.append(example(
        "incoming-009", "explicit incident urgency (slack)",
        {"text": t, "channel": "slack"},
        {"explicit_ask": "Help investigate the production outage now.",
         "likely_subtext": [{"text": "This is an incident; the sender needs someone to respond immediately.",
                             "confidence": 0.9}],
         "ambiguity": {"detected": False, "spans": []},
         "recommended_next_action": {"action": "escalate", "reason": "Production outage: join or page on-call.",
                                     "draft_reply": None}},
        [has("ambiguity.spans[*].reason", "implied_urgency"), eq("recommended_next_action.action", "reply")],
        [eq("ambiguity.detected", False)]))

    t = "I'll try to get the numbers to you by Friday, hopefully."
    out.append(example(
        "incoming-010", "doubly hedged commitment (email)",
        {"text": t, "channel": "email"},
        {"explicit_ask": None,
         "likely_subtext": [{"text": "Friday is unlikely; the sender is lowering expectations.", "confidence": 0.6}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "I'll try", "hedged_commitment", None), ispan(t, "hopefully", "hedged_commitment", None)]},
         "recommended_next_action": {"action": "set_reminder", "reason": "Check in on Friday morning.",
                                     "draft_reply": None}},
        [has("ambiguity.spans[*].reason", "hedged_commitment"), null("explicit_ask"),
         eq("recommended_next_action.action", "set_reminder")]))

    t = "Don't you think we should add tests before merging this?"
    out.append(example(
        "incoming-011", "rhetorical question as a review demand (github)",
        {"text": t, "channel": "github"},
        {"explicit_ask": "Add tests before merging.",
         "likely_subtext": [{"text": "The reviewer will not approve without tests.", "confidence": 0.8}],
         "ambiguity": {"detected": True, "spans": [ispan(t, "Don't you think", "rhetorical_question", None)]},
         "recommended_next_action": {"action": "reply", "reason": "Agree and add tests, or explain why not.",
                                     "draft_reply": "Fair point — I'll add tests before merging."}},
        [has("ambiguity.spans[*].reason", "rhetorical_question"), null("explicit_ask", False)]))

    t = "Deployed v2.3.1 to staging at 14:05, all checks green."
    out.append(example(
        "incoming-012", "plain status update, nothing hidden (slack)",
        {"text": t, "channel": "slack"},
        {"explicit_ask": None,
         "likely_subtext": [{"text": "A routine status update; nothing is asked.", "confidence": 0.85}],
         "ambiguity": {"detected": False, "spans": []},
         "recommended_next_action": {"action": "acknowledge", "reason": "A quick acknowledgement is enough.",
                                     "draft_reply": "Thanks!"}},
        [eq("ambiguity.detected", False), eq("ambiguity.spans", []), null("explicit_ask"),
         eq("recommended_next_action.action", "acknowledge")]))

    t = "As I mentioned twice already, the invoice is still waiting on your approval. Any update?"
    out.append(example(
        "incoming-013", "blame plus urgency (email)",
        {"text": t, "channel": "email"},
        {"explicit_ask": "Approve the invoice.",
         "likely_subtext": [{"text": "The sender is annoyed and wants the approval today.", "confidence": 0.8}],
         "ambiguity": {"detected": True, "spans": [
             ispan(t, "As I mentioned", "implied_blame", None), ispan(t, "still waiting", "implied_urgency", None)]},
         "recommended_next_action": {"action": "reply", "reason": "Apologise briefly and approve or give a time.",
                                     "draft_reply": "Sorry for the delay — approving it now."}},
        [has("ambiguity.spans[*].reason", "implied_blame"), has("ambiguity.spans[*].reason", "implied_urgency"),
         eq("recommended_next_action.action", "reply")]))
    return out


# --- check_tone ----------------------------------------------------------------------------------------


def tone() -> list[dict[str, Any]]:
    out = []
    warm_baseline = ["Thanks for the writeup — really useful framing.", "Happy to pair on this tomorrow if helpful.",
                     "Good catch on the migration edge case; let's land that fix first."]

    t = "Strong nack. The approach in section 3 will not scale and we need to revisit before merge."
    out.append(example(
        "tone-001", "blunt PR comment against a warm baseline, target direct (github)",
        {"text": t, "baseline_messages": warm_baseline, "target_register": "direct", "channel": "github"},
        {"axes": {"directness": 92, "warmth": 18, "urgency": 71},
         "axes_target": {"directness": 75, "warmth": 45, "urgency": 50},
         "baseline_delta": {"directness": 47, "warmth": -52, "urgency": 33},
         "flagged_phrases": [flag(t, "Strong nack.", "warmth", -58, "Blunt rejection token."),
                             flag(t, "will not scale", "directness", 41, None)],
         "suggested_rewrite_hint": "Keep the objection; open with acknowledgement and name the concern."},
        [at_least("axes.directness", 65), at_most("axes.warmth", 40), at_most("baseline_delta.warmth", -25),
         has("flagged_phrases[*].axis", "warmth"), null("suggested_rewrite_hint", False),
         eq("axes_target", {"directness": 75, "warmth": 45, "urgency": 50})]))

    t = "Just circling back on the spec review — any chance you've had a look?"
    out.append(example(
        "tone-002", "polite follow-up, descriptive only (slack)",
        {"text": t, "channel": "slack"},
        {"axes": {"directness": 38, "warmth": 64, "urgency": 35}, "baseline_delta": None, "flagged_phrases": [],
         "suggested_rewrite_hint": None},
        [at_most("axes.directness", 45), eq("flagged_phrases", []), null("suggested_rewrite_hint"),
         null("baseline_delta"), null("axes_target")]))

    t = "This is broken. Please fix before EOD."
    out.append(example(
        "tone-003", "terse bug report aimed at warm (slack)",
        {"text": t, "target_register": "warm", "channel": "slack"},
        {"axes": {"directness": 80, "warmth": 30, "urgency": 75},
         "axes_target": {"directness": 45, "warmth": 80, "urgency": 40}, "baseline_delta": None,
         "flagged_phrases": [flag(t, "This is broken.", "warmth", -30, None), flag(t, "EOD", "urgency", 25, None)],
         "suggested_rewrite_hint": "Add a relational opener and frame the fix as a request."},
        [at_least("axes.urgency", 60), at_most("axes.warmth", 50), null("suggested_rewrite_hint", False),
         has("flagged_phrases[*].axis", "urgency")]))

    t = "hey!! can u send the deck asap thx"
    out.append(example(
        "tone-004", "casual rushed request measured against formal (outlook)",
        {"text": t, "target_register": "formal", "channel": "outlook"},
        {"axes": {"directness": 65, "warmth": 55, "urgency": 85},
         "axes_target": {"directness": 55, "warmth": 50, "urgency": 40}, "baseline_delta": None,
         "flagged_phrases": [flag(t, "asap", "urgency", 35, None)],
         "suggested_rewrite_hint": "Spell words out, add a greeting and a concrete deadline."},
        [at_least("axes.urgency", 70), has("flagged_phrases[*].phrase", "asap")]))

    t = "Could you have a look at the rota? Thanks!"
    out.append(example(
        "tone-005", "two baseline messages only: baseline_delta stays null (slack)",
        {"text": t, "baseline_messages": ["Fix it.", "Now."], "channel": "slack"},
        {"axes": {"directness": 45, "warmth": 70, "urgency": 50}, "baseline_delta": None, "flagged_phrases": [],
         "suggested_rewrite_hint": None},
        [null("baseline_delta"), eq("flagged_phrases", []), at_least("axes.warmth", 55)]))

    t = "I think maybe we could possibly consider looking at the login bug at some point if that's ok?"
    out.append(example(
        "tone-006", "heavily hedged request aimed at concise (linear)",
        {"text": t, "target_register": "concise", "channel": "linear"},
        {"axes": {"directness": 10, "warmth": 55, "urgency": 15},
         "axes_target": {"directness": 70, "warmth": 40, "urgency": 50}, "baseline_delta": None,
         "flagged_phrases": [flag(t, "I think maybe", "directness", -30, None),
                             flag(t, "at some point", "urgency", -20, None)],
         "suggested_rewrite_hint": "Drop the hedges and state the ask and a timeframe."},
        [at_most("axes.directness", 25), has("flagged_phrases[*].axis", "directness"),
         null("suggested_rewrite_hint", False)]))

    t = "Thank you so much for the thoughtful write-up 🙏 — really appreciate it!"
    out.append(example(
        "tone-007", "effusive thanks with emoji (notion)",
        {"text": t, "channel": "notion"},
        {"axes": {"directness": 50, "warmth": 92, "urgency": 20}, "baseline_delta": None, "flagged_phrases": [],
         "suggested_rewrite_hint": None},
        [at_least("axes.warmth", 80), eq("flagged_phrases", [])]))

    t = "Fix section 2."
    out.append(example(
        "tone-008", "bare imperative aimed at clarifying (gdocs)",
        {"text": t, "target_register": "clarifying", "channel": "gdocs"},
        {"axes": {"directness": 85, "warmth": 25, "urgency": 50},
         "axes_target": {"directness": 45, "warmth": 60, "urgency": 35}, "baseline_delta": None,
         "flagged_phrases": [flag(t, "Fix section 2.", "directness", 40, "Bare imperative.")],
         "suggested_rewrite_hint": "Say what is wrong with section 2 and ask what the author intended."},
        [at_least("axes.directness", 55), null("axes_target", False)]))

    t = "Whenever you get a chance, no rush at all."
    out.append(example(
        "tone-009", "explicitly relaxed timing (email)",
        {"text": t, "channel": "email"},
        {"axes": {"directness": 35, "warmth": 60, "urgency": 5}, "baseline_delta": None, "flagged_phrases": [],
         "suggested_rewrite_hint": None},
        [at_most("axes.urgency", 30)]))

    t = "NACK. WRONG APPROACH. DO NOT MERGE."
    out.append(example(
        "tone-010", "shouting review comment (github)",
        {"text": t, "target_register": "direct", "channel": "github"},
        {"axes": {"directness": 98, "warmth": 5, "urgency": 80},
         "axes_target": {"directness": 75, "warmth": 45, "urgency": 50}, "baseline_delta": None,
         "flagged_phrases": [flag(t, "NACK.", "warmth", -40, None), flag(t, "DO NOT MERGE.", "urgency", 30, None)],
         "suggested_rewrite_hint": "Stop shouting; state the objection once with the reason."},
        [at_least("axes.directness", 80), at_most("axes.warmth", 25), at_least("axes.urgency", 60)]))

    t = "お疲れ様です 🙂 thanks for the quick turnaround!"
    out.append(example(
        "tone-011", "Japanese greeting plus thanks, emoji first (slack)",
        {"text": t, "channel": "slack"},
        {"axes": {"directness": 45, "warmth": 85, "urgency": 30}, "baseline_delta": None, "flagged_phrases": [],
         "suggested_rewrite_hint": None},
        [at_least("axes.warmth", 65), eq("flagged_phrases", [])]))

    t = "Thanks so much for the help, really appreciate it 🙂"
    out.append(example(
        "tone-012", "warm message from a usually curt sender: positive warmth delta (email)",
        {"text": t, "baseline_messages": ["Fix it.", "Do it now.", "Wrong.", "Send the file."], "channel": "email"},
        {"axes": {"directness": 40, "warmth": 88, "urgency": 20},
         "baseline_delta": {"directness": -45, "warmth": 60, "urgency": -30},
         "flagged_phrases": [flag(t, "Thanks so much", "warmth", 35, "Much warmer than this sender's usual.")],
         "suggested_rewrite_hint": None},
        [at_least("baseline_delta.warmth", 25), has("flagged_phrases[*].axis", "warmth"),
         at_least("flagged_phrases[*].delta", 0)]))
    return out


# --- rewrite_outgoing ------------------------------------------------------------------------------------


def rewrite() -> list[dict[str, Any]]:
    out = []

    def diff(shift: str, changes: list[str], warnings: list[str] | None = None) -> dict[str, Any]:
        return {"tone_shift": shift, "structural_changes": changes, "warnings": warnings or []}

    out.append(example(
        "rewrite-001", "blunt PR comment toward direct, keeps 'section 3' (github)",
        {"text": "Strong nack. The approach in section 3 will not scale and we need to revisit before merge.",
         "target_register": "direct", "preserve_terms": ["section 3"], "channel": "github"},
        {"rewritten": "I think section 3 is going to hit a scaling limit — I'd like to revisit before we merge.",
         "diff_summary": diff("Replaced the rejection token with the specific concern.",
                              ["Removed 'Strong nack'", "Kept the merge-blocker"])},
        [eq("preserved_terms", ["section 3"]), eq("unpreserved_terms", []), lacks("rewritten", "Strong nack")],
        [eq("preserved_terms", ["section 3"])]))

    out.append(example(
        "rewrite-002", "EOD ask toward warm (slack)",
        {"text": "This is broken. Please fix before EOD.", "target_register": "warm", "preserve_terms": ["EOD"],
         "channel": "slack"},
        {"rewritten": "Hey — heads up that this is broken on my end. Any chance you can land a fix by EOD? "
                      "Happy to help debug.",
         "diff_summary": diff("Added warmth and an offer of help; kept the deadline.",
                              ["Added relational opener", "Reframed imperative as a request"])},
        [eq("preserved_terms", ["EOD"]), has("rewritten", "EOD"), lacks("rewritten", "This is broken.")]))

    out.append(example(
        "rewrite-003", "concise rewrite that drops a term: server reports it (generic)",
        {"text": "We should swap fastembed-py for sqlite-vec on the alias-resolution path.",
         "target_register": "concise", "preserve_terms": ["fastembed-py", "sqlite-vec", "alias-resolution"]},
        {"rewritten": "Swap fastembed-py for sqlite-vec on the alias path.",
         "diff_summary": diff("Compressed to one imperative.", ["Removed 'We should'"],
                              ["Term 'alias-resolution' was not preserved verbatim."])},
        [eq("unpreserved_terms", []), eq("preserved_terms", ["fastembed-py", "sqlite-vec", "alias-resolution"]),
         lacks("rewritten", "We should")],
        [eq("unpreserved_terms", ["alias-resolution"]), eq("preserved_terms", ["fastembed-py", "sqlite-vec"])]))

    out.append(example(
        "rewrite-004", "casual note toward formal, contractions expanded (email)",
        {"text": "hey, can't make the 3pm sync, gonna push the API-42 review to tomorrow",
         "target_register": "formal", "preserve_terms": ["API-42", "3pm"], "channel": "email"},
        {"rewritten": "Hello, I am unable to attend the 3pm sync, so I will move the API-42 review to tomorrow.\n\n"
                      "Kind regards.",
         "diff_summary": diff("Professional register.", ["Expanded contractions", "Added greeting and sign-off"])},
        [eq("unpreserved_terms", []), lacks("rewritten", "can't"), lacks("rewritten", "gonna"),
         has("rewritten", "Kind regards.")]))

    out.append(example(
        "rewrite-005", "vague owner and timing toward clarifying (linear)",
        {"text": "Someone should look at the flaky CI job soon.", "target_register": "clarifying",
         "preserve_terms": ["CI"], "channel": "linear"},
        {"rewritten": "The flaky CI job needs attention. Who will own it, and by when should it be fixed?",
         "diff_summary": diff("Turned the vague note into two questions.", ["Asked for an owner", "Asked for a date"])},
        [eq("preserved_terms", ["CI"]), has("rewritten", "?"), has("rewritten", "Who will own this?")]))

    out.append(example(
        "rewrite-006", "padded email toward concise (outlook)",
        {"text": "Hi Sam, I hope you're well. I just wanted to let you know that in order to ship v2.1 we need the "
                 "sign-off from legal. Thanks in advance!", "target_register": "concise",
         "preserve_terms": ["v2.1"], "channel": "outlook"},
        {"rewritten": "Sam — shipping v2.1 needs legal sign-off.",
         "diff_summary": diff("Essentials only.", ["Dropped pleasantries", "Shortened 'in order to'"])},
        [eq("preserved_terms", ["v2.1"]), lacks("rewritten", "I hope you're well"), lacks("rewritten", "in order to"),
         lacks("rewritten", "Thanks in advance")]))

    out.append(example(
        "rewrite-007", "demand toward warm (notion)",
        {"text": "You need to update the roadmap page, it's out of date.", "target_register": "warm",
         "preserve_terms": ["roadmap page"], "channel": "notion"},
        {"rewritten": "Hi! Could you update the roadmap page when you get a moment? It's a little out of date. Thanks!",
         "diff_summary": diff("Request instead of demand.", ["Reframed as a request", "Added thanks"])},
        [eq("preserved_terms", ["roadmap page"]), lacks("rewritten", "You need to")]))

    out.append(example(
        "rewrite-008", "apologetic ask toward direct (slack)",
        {"text": "Sorry to bother you, but I was wondering if you could maybe review PR #812 if you have a moment?",
         "target_register": "direct", "preserve_terms": ["PR #812"], "channel": "slack"},
        {"rewritten": "Could you review PR #812 today?",
         "diff_summary": diff("Plain request.", ["Removed apology and hedges"])},
        [eq("preserved_terms", ["PR #812"]), lacks("rewritten", "Sorry to bother"), lacks("rewritten", "maybe"),
         lacks("rewritten", "wondering")]))

    out.append(example(
        "rewrite-009", "informal announcement toward formal (gdocs)",
        {"text": "Thanks! We're gonna ship the Q3 OKRs doc on Friday, FYI.", "target_register": "formal",
         "preserve_terms": ["Q3 OKRs"], "channel": "gdocs"},
        {"rewritten": "Thank you. For your information, we will publish the Q3 OKRs document on Friday.",
         "diff_summary": diff("Formal register.", ["Expanded 'gonna'", "Spelled out FYI"])},
        [eq("preserved_terms", ["Q3 OKRs"]), lacks("rewritten", "gonna"), lacks("rewritten", "FYI")]))

    out.append(example(
        "rewrite-010", "vague deferral toward clarifying (email)",
        {"text": "Let's revisit the pricing at some point.", "target_register": "clarifying",
         "preserve_terms": ["pricing"], "channel": "email"},
        {"rewritten": "Should we revisit the pricing? If so, when would suit you, and what should we cover?",
         "diff_summary": diff("Questions instead of a deferral.", ["Asked for a time", "Asked for scope"])},
        [eq("preserved_terms", ["pricing"]), has("rewritten", "at some point (when?)")]))

    out.append(example(
        "rewrite-011", "CJK and emoji terms toward warm (github)",
        {"text": "Fix the 東京 locale bug 🐛 ASAP.", "target_register": "warm", "preserve_terms": ["東京", "🐛"],
         "channel": "github"},
        {"rewritten": "Hi! Could you take a look at the 東京 locale bug 🐛 as soon as you're able? Thanks a lot!",
         "diff_summary": diff("Friendlier ask.", ["Reframed as a request", "Softened 'ASAP'"])},
        [eq("preserved_terms", ["東京", "🐛"]), lacks("rewritten", "ASAP"), has("rewritten", "Could you fix")]))

    out.append(example(
        "rewrite-012", "filler-heavy proposal toward concise (generic)",
        {"text": "Basically, I think we should really just move the standup to 10:30 because a number of people "
                 "are late.", "target_register": "concise", "preserve_terms": ["10:30", "standup"]},
        {"rewritten": "Move the standup to 10:30: several people are late.",
         "diff_summary": diff("Essentials only.", ["Removed filler", "Shortened 'a number of'"])},
        [eq("preserved_terms", ["10:30", "standup"]), lacks("rewritten", "Basically"), lacks("rewritten", "really"),
         has("rewritten", "several")]))
    return out


# --- brief_meeting ----------------------------------------------------------------------------------------


def meeting() -> list[dict[str, Any]]:
    out = []

    def ask(source: str, quote: str, text: str, asker: str | None, due: str | None = None) -> dict[str, Any]:
        return {"text": text, "asker": asker, "due": due, "quoted_span": span(source, quote)}

    def decision(source: str, quote: str, text: str, by: list[str]) -> dict[str, Any]:
        return {"text": text, "decided_by": by, "quoted_span": span(source, quote)}

    def unclear(source: str, quote: str, text: str, reason: str) -> dict[str, Any]:
        return {"text": text, "verbatim": True, "quoted_span": span(source, quote), "reason": reason}

    def brief(my: list, others: list, decisions: list, ambiguous: list) -> dict[str, Any]:
        return {"my_asks": my, "others_asks": others, "decisions": decisions, "ambiguous_items": ambiguous}

    t = ("Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
         "Thomas: Yes — I'll have it ready by Wednesday.\n"
         "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
         "Priya: We can circle back on that next week.\n")
    out.append(example(
        "meeting-001", "short rollout meeting: one ask of me, one decision, one deferral",
        {"transcript": t, "me": "Thomas", "project": "neurodock", "speakers": ["Priya", "Thomas", "Roberto"]},
        brief([ask(t, "Thomas, can you own the migration script?", "Own the migration script.", "Priya", "Wednesday")],
              [ask(t, "Can someone draft the runbook?", "Someone drafts a rollback runbook.", "Roberto")],
              [decision(t, "Yes — I'll have it ready by Wednesday.", "Thomas owns the script, due Wednesday.",
                        ["Priya", "Thomas"])],
              [unclear(t, "We can circle back on that next week.", "Runbook deferred to 'next week'.",
                       "vague_timeline")]),
        [has("my_asks[*].quoted_span.text", "Thomas, can you own the migration script?"),
         has("others_asks[*].quoted_span.text", "Can someone draft the runbook?"),
         has("decisions[*].quoted_span.text", "Yes — I'll have it ready by Wednesday."),
         has("ambiguous_items[*].reason", "deferred_topic"), eq("ambiguous_items[*].verbatim", [True] * 3)]))

    t = ("Director: I want us to revisit the Q3 priorities. The current list doesn't feel right.\n"
         "Thomas: Which priorities specifically?\n"
         "Director: We'll work through that offline. For now I'd like everyone to think about it before next Friday.\n"
         "Priya: I'll loop back with thoughts on the architecture doc next week.\n")
    out.append(example(
        "meeting-002", "strategy meeting: ask of everyone, two vague items, no decision",
        {"transcript": t, "me": "Thomas", "speakers": ["Director", "Thomas", "Priya"]},
        brief([ask(t, "For now I'd like everyone to think about it before next Friday.", "Think about Q3 priorities.",
                   "Director", "next Friday")], [], [],
              [unclear(t, "We'll work through that offline.", "Which priorities — deferred offline.", "vague_referent"),
               unclear(t, "I'll loop back with thoughts on the architecture doc next week.",
                       "Architecture-doc feedback 'next week'.", "vague_timeline")]),
        [has("my_asks[*].quoted_span.text", "For now I'd like everyone to think about it before next Friday."),
         has("my_asks[*].due", "next Friday"), eq("decisions", []),
         has("ambiguous_items[*].reason", "deferred_topic")]))

    t = ("[00:00:05] 佐藤: Let's go with the Osaka data centre for the pilot 🏯.\n"
         "[00:00:12] Ana: Works for me. Kenji, could you book the site visit before Thursday?\n"
         "[00:00:20] Kenji: Sure, I'll book it today.\n"
         "[00:00:31] Ana: Someone needs to check the power budget, maybe later this month.\n")
    out.append(example(
        "meeting-003", "timestamps, a CJK speaker label and emoji before spans",
        {"transcript": t, "me": "Kenji"},
        brief([ask(t, "Kenji, could you book the site visit before Thursday?", "Book the site visit.", "Ana",
                   "Thursday")],
              [],
              [decision(t, "Let's go with the Osaka data centre for the pilot 🏯.", "Pilot in the Osaka data centre.",
                        ["佐藤", "Ana"]),
               decision(t, "Sure, I'll book it today.", "Kenji books the visit today.", ["Kenji"])],
              [unclear(t, "Someone needs to check the power budget, maybe later this month.",
                       "Power budget check has no owner.", "unassigned_owner")]),
        [has("my_asks[*].quoted_span.text", "Kenji, could you book the site visit before Thursday?"),
         has("my_asks[*].due", "Thursday"), has("decisions[*].decided_by[*]", "佐藤"),
         has("ambiguous_items[*].reason", "unassigned_owner")]))

    t = ("Notes from the sync. We decided to keep the monolith for now. Can someone write up the trade-offs? "
         "Maybe we revisit in Q3.")
    out.append(example(
        "meeting-004", "notes without speaker labels",
        {"transcript": t, "me": "Dana"},
        brief([], [ask(t, "Can someone write up the trade-offs?", "Write up the trade-offs.", None)],
              [decision(t, "We decided to keep the monolith for now.", "Keep the monolith for now.", [])],
              [unclear(t, "Maybe we revisit in Q3.", "Revisit 'maybe' in Q3.", "hedged_commitment")]),
        [has("decisions[*].quoted_span.text", "We decided to keep the monolith for now."),
         null("others_asks[0].asker"), has("others_asks[*].quoted_span.text", "Can someone write up the trade-offs?")]))

    t = ("Maria: Agenda item one, the API versioning. I disagree with dropping v1 this quarter.\n"
         "Lee: I'm not sure about that — the usage data says under 2% of calls hit v1.\n"
         "Maria: Let's table this until we have the partner list.\n"
         "Lee: Fine. Maria, could you send me the partner list by Monday?\n"
         "Maria: Yes, I'll send it Monday.\n")
    out.append(example(
        "meeting-005", "contested design decision, me as the one asking",
        {"transcript": t, "me": "Lee"},
        brief([], [ask(t, "Maria, could you send me the partner list by Monday?", "Send the partner list.", "Lee",
                       "Monday")],
              [decision(t, "Yes, I'll send it Monday.", "Maria sends the partner list Monday.", ["Maria"])],
              [unclear(t, "I disagree with dropping v1 this quarter.", "Dropping v1 is contested.", "contested"),
               unclear(t, "Let's table this until we have the partner list.", "Versioning decision tabled.",
                       "deferred_topic")]),
        [has("others_asks[*].quoted_span.text", "Maria, could you send me the partner list by Monday?"),
         eq("my_asks", []), has("ambiguous_items[*].reason", "contested"),
         has("decisions[*].decided_by[*]", "Maria")]))

    t = ("Sam: Quick standup. Jo, can you pair with Wei on the flaky test today?\n"
         "Jo: Sure.\n"
         "Sam: Jo, please also review the release notes before EOD.\n"
         "Wei: Jo, could you send me the failing seed?\n"
         "Jo: Will do.\n")
    out.append(example(
        "meeting-006", "standup with three asks of me",
        {"transcript": t, "me": "Jo"},
        brief([ask(t, "Jo, can you pair with Wei on the flaky test today?", "Pair with Wei on the flaky test.", "Sam",
                   "today"),
               ask(t, "Jo, please also review the release notes before EOD.", "Review the release notes.", "Sam",
                   "EOD"),
               ask(t, "Jo, could you send me the failing seed?", "Send Wei the failing seed.", "Wei")], [], [], []),
        [has("my_asks[*].quoted_span.text", "Jo, please also review the release notes before EOD."),
         has("my_asks[*].due", "EOD"), has("my_asks[*].asker", "Wei"), eq("others_asks", [])]))

    t = ("Facilitator: What went well? What didn't?\n"
         "Ravi: The on-call handover was rough; that thing with the alerts happened again.\n"
         "Facilitator: We should probably fix the alert routing at some point.\n"
         "Ravi: I'll try to look into it.\n")
    out.append(example(
        "meeting-007", "retrospective full of vague items",
        {"transcript": t, "me": "Ravi"},
        brief([], [], [],
              [unclear(t, "that thing with the alerts happened again.", "Which alert incident?", "vague_referent"),
               unclear(t, "We should probably fix the alert routing at some point.", "No owner or date.",
                       "unassigned_owner"),
               unclear(t, "I'll try to look into it.", "Tentative commitment.", "hedged_commitment")]),
        [has("ambiguous_items[*].reason", "hedged_commitment"), has("ambiguous_items[*].reason", "vague_referent"),
         has("ambiguous_items[*].quoted_span.text", "I'll try to look into it.")]))

    t = ("Director: Engineering needs to own the incident review. Director wants it done by Friday.\n"
         "Chen: Director, can you approve the extra on-call budget?\n"
         "Director: Approved.\n")
    out.append(example(
        "meeting-008", "me identified by role label",
        {"transcript": t, "me": "Director"},
        brief([ask(t, "Director, can you approve the extra on-call budget?", "Approve the on-call budget.", "Chen")],
              [], [decision(t, "Approved.", "Extra on-call budget approved.", ["Director"])], []),
        [has("my_asks[*].quoted_span.text", "Director, can you approve the extra on-call budget?"),
         has("decisions[*].quoted_span.text", "Approved.")]))

    t = ("Pri: Okay, decision time. We'll ship the beta on the 15th.\n"
         "Tom: Agreed.\n"
         "Pri: Tom, can you draft the announcement?\n"
         "Rob: And someone should ping legal.\n")
    out.append(example(
        "meeting-009", "abbreviated labels resolved with the roster",
        {"transcript": t, "me": "Thomas", "speakers": ["Priya", "Thomas", "Roberto"]},
        brief([ask(t, "Tom, can you draft the announcement?", "Draft the beta announcement.", "Priya")],
              [],
              [decision(t, "We'll ship the beta on the 15th.", "Beta ships on the 15th.", ["Priya", "Thomas"])],
              [unclear(t, "And someone should ping legal.", "Nobody owns the legal check.", "unassigned_owner")]),
        [has("decisions[*].quoted_span.text", "We'll ship the beta on the 15th."),
         has("decisions[*].decided_by[*]", "Priya"), has("ambiguous_items[*].reason", "unassigned_owner")]))

    t = ("Alex: Budget review. Marketing spend is flat. Sales is up 4%.\n"
         "Bea: Numbers look right to me.\n"
         "Alex: Good. Nothing else from me.\n")
    out.append(example(
        "meeting-010", "informational meeting with nothing to brief",
        {"transcript": t, "me": "Bea"},
        brief([], [], [], []),
        [eq("my_asks", []), eq("others_asks", []), eq("decisions", [])]))

    t = ("Ines: Can you all fill in the survey by Friday?\n"
         "Omar: Sure. Ines, would you share the link again?\n"
         "Ines: Done — it's in the channel.\n")
    out.append(example(
        "meeting-011", "ask of everyone (me included), and me asking",
        {"transcript": t, "me": "Omar"},
        brief([ask(t, "Can you all fill in the survey by Friday?", "Fill in the survey.", "Ines", "Friday")],
              [ask(t, "Ines, would you share the link again?", "Share the survey link.", "Omar")], [], []),
        [has("my_asks[*].quoted_span.text", "Can you all fill in the survey by Friday?"),
         has("others_asks[*].asker", "Omar")]))

    t = ("Kai: The vendor contract renews in March. Lena, could you get three quotes by end of month?\n"
         "Lena: I'll get them. Not sure I can get three though.\n"
         "Kai: Two is fine. Let's plan to decide at the next meeting.\n")
    out.append(example(
        "meeting-012", "ask with a hedged acceptance and a deferred decision",
        {"transcript": t, "me": "Lena"},
        brief([ask(t, "Lena, could you get three quotes by end of month?", "Get vendor quotes.", "Kai",
                   "end of month")],
              [], [decision(t, "I'll get them.", "Lena collects the quotes.", ["Lena"])],
              [unclear(t, "Let's plan to decide at the next meeting.", "Renewal decision deferred.", "deferred_topic")]),
        [has("my_asks[*].due", "end of month"), has("decisions[*].quoted_span.text", "I'll get them."),
         has("ambiguous_items[*].reason", "deferred_topic")]))
    return out


BUILDERS = {"incoming": incoming, "tone": tone, "rewrite": rewrite, "meeting": meeting}


def main() -> None:
    for name, build in BUILDERS.items():
        examples = build()
        write_slice(HERE, name, examples)
        print(f"{slice_file(HERE, name).relative_to(HERE.parent)}: {len(examples)} examples")


if __name__ == "__main__":
    main()
