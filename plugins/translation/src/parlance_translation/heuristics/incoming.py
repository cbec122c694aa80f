"""translate_incoming without a model: lexicon-driven ambiguity spans and rule-based next action.

The baseline cannot read subtext the way a model can; it names the patterns it sees (a softened
request, a vague timeline, implied urgency, ...) and turns each into a cautious hypothesis with a
modest confidence (never above 0.6), so a caller can tell it apart from a model's reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict

from parlance_translation.heuristics.matching import CategoryMatcher, fold
from parlance_translation.heuristics.text import clause_end, clip, sentence_end, sentence_start, squeeze
from parlance_translation.templates import Lexicon


class Subtext(TypedDict):
    """One `likely_subtext` item of the contract."""

    text: str
    confidence: float


# Plain-language hypotheses for each pattern, with the confidence the baseline gives them.
_SUBTEXT: dict[str, tuple[str, float]] = {
    "soft_request": ("The sender is asking for a change, phrased softly; they may already have a preferred outcome.", 0.55),
    "implied_urgency": ("This matters to the sender on a shorter timescale than the wording says; a prompt reply is expected.", 0.55),
    "implied_blame": ("The sender may feel something was missed or repeated, and is signalling frustration indirectly.", 0.5),
    "vague_timeline": ("The timing is non-committal; without a follow-up this may quietly slip.", 0.5),
    "hedged_commitment": ("The commitment is tentative; plan for the possibility that it does not happen.", 0.45),
    "vague_referent": ("Some of the people or things referred to are unspecified; the sender may assume shared context you lack.", 0.45),
    "passive_voice_actor": ("The passive phrasing leaves unclear who is responsible; the sender may be avoiding naming someone.", 0.4),
    "rhetorical_question": ("A question here may be a statement of the sender's view rather than a real question.", 0.4),
}
_NO_PATTERN_SUBTEXT = ("No indirect-signal patterns were found; the message likely means what it says.", 0.35)

_REQUEST = re.compile(
    r"(?i)(?<!\w)(?:can|could|would|will)\s+(?:you|we|someone|somebody|anyone)\b|(?<!\w)please\b"
    r"|(?<!\w)(?:need|want|'d like|would like)\s+(?:you|someone|us)\s+to\b|(?<!\w)let me know\b"
    r"|(?<!\w)(?:any chance|is it possible|would it be possible|have you had a chance)\b"
)
_GREETING = re.compile(r"(?i)^\s*(?:hey|hi|hello|dear)\b[^,—–\-:!]*[,—–\-:!]\s*")


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    reason: str
    note: str | None


@lru_cache(maxsize=8)
def _matcher(lexicon: Lexicon) -> CategoryMatcher:
    return CategoryMatcher({reason: table.get("phrases", []) for reason, table in _reason_tables(lexicon).items()})


@lru_cache(maxsize=8)
def _reason_tables(lexicon: Lexicon) -> dict[str, dict[str, Any]]:
    return {name: table for name, table in lexicon.data.items() if name != "meta" and isinstance(table, dict)}


def find_spans(text: str, lexicon: Lexicon) -> list[Span]:
    """Ambiguity spans in `text`, in order of appearance, without overlaps (the caller caps the list)."""
    tables = _reason_tables(lexicon)
    folded = fold(text)
    spans: list[Span] = []
    covered_until = 0
    for match in _matcher(lexicon).finditer(folded):
        table = tables[match.category]
        end = clause_end(text, match.end) if table.get("extend") == "clause" else match.end
        end = max(end, match.end)
        if match.start < covered_until:
            continue
        spans.append(Span(match.start, end, match.category, table.get("note")))
        covered_until = end
    return spans


def explicit_ask(text: str) -> str | None:
    """The sentence carrying the request, as written (greeting trimmed), or None for no request."""
    match = _REQUEST.search(text)
    if match is None:
        question = text.find("?")
        if question < 0:
            return None
        start, end = sentence_start(text, question), question + 1
    else:
        start, end = sentence_start(text, match.start()), sentence_end(text, match.start())
    sentence = _GREETING.sub("", squeeze(text[start:end]))
    if not sentence:
        return None
    return clip(sentence[:1].upper() + sentence[1:], 1000)


def analyse(text: str, channel: str, thread_context: list[str], lexicon: Lexicon) -> dict[str, Any]:
    """The contract's translate_incoming output (without eval_corpus_slice / model_provenance)."""
    spans = find_spans(text, lexicon)
    reasons = list(dict.fromkeys(span.reason for span in spans))
    ask = explicit_ask(text)

    subtext: list[Subtext] = [{"text": _SUBTEXT[reason][0], "confidence": _SUBTEXT[reason][1]}
                              for reason in reasons if reason in _SUBTEXT]
    subtext.sort(key=lambda item: -item["confidence"])
    if not subtext:
        subtext = [{"text": _NO_PATTERN_SUBTEXT[0], "confidence": _NO_PATTERN_SUBTEXT[1]}]
    if thread_context and subtext:
        subtext[0]["text"] = clip(subtext[0]["text"] + " Read it against the earlier messages in the thread.", 1000)

    return {
        "explicit_ask": ask,
        "likely_subtext": subtext[:5],
        "ambiguity": {
            "detected": bool(spans),
            "spans": [
                {"start_char": span.start, "end_char": span.end, "reason": span.reason, "note": span.note}
                for span in spans
            ],
        },
        "recommended_next_action": next_action(set(reasons), ask, channel),
    }


def next_action(reasons: set[str], ask: str | None, channel: str) -> dict[str, Any]:
    """One coarse next step, chosen by the strongest pattern present."""
    if "implied_blame" in reasons and "implied_urgency" in reasons:
        return {
            "action": "reply",
            "reason": "The message signals both frustration and time pressure; a prompt, factual reply that names "
            "the next concrete step will defuse it better than silence.",
            "draft_reply": "Thanks for flagging this — here's where it stands, and the next step I'm taking is …",
        }
    if reasons & {"soft_request", "vague_referent", "rhetorical_question", "passive_voice_actor"}:
        return {
            "action": "clarify",
            "reason": "Part of the message is indirect or unspecific. Ask for the specifics (who, what exactly, by "
            "when) before committing, so the conversation addresses the real concern.",
            "draft_reply": "Happy to look at this — could you say a bit more about what specifically you'd like "
            "to change, and who else is involved?",
        }
    if "implied_urgency" in reasons:
        return {
            "action": "reply",
            "reason": "The sender is under time pressure. Reply soon, even if only to say when you will have an answer.",
            "draft_reply": "Got it — I'm on this and will get back to you by …",
        }
    if reasons & {"vague_timeline", "hedged_commitment"} and ask is None:
        return {
            "action": "set_reminder",
            "reason": "This is a soft or tentative commitment with no date. Set a reminder to follow up so it does "
            "not silently drop.",
            "draft_reply": None,
        }
    if ask is not None:
        return {
            "action": "reply",
            "reason": "The message makes a direct request; answer it or say when you will.",
            "draft_reply": None,
        }
    return {
        "action": "acknowledge",
        "reason": "The message is informational with no request; a short acknowledgement is enough.",
        "draft_reply": "Thanks for the update!" if channel in {"slack", "generic", "linear", "github"} else "Thank you for the update.",
    }
