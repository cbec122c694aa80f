"""Pydantic mirror of the translation wire contract v0.1.0 (the four tools' outputs and enums).

The contract itself (`reference/translation-contract-v0.1.0/*.schema.json`) is not shipped with
this package; these models restate it so that every `structuredContent` we emit, and every model
reply we accept, is checked by the same code. The tests validate what these models produce against
the contract files with jsonschema, so a drift between the two fails CI.

Every model forbids extra fields (the contract's `additionalProperties: false`), is strict about
JSON types (no "42" for 42), and rejects NaN and infinity (not representable in JSON). List caps are the contract's `maxItems`; producers
truncate to them *before* validation (see `caps.py`), so exceeding a cap is never an error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

CONTRACT_VERSION = "0.1.0"

Channel = Literal["email", "slack", "linear", "github", "notion", "gdocs", "outlook", "generic"]
CHANNELS: tuple[str, ...] = Channel.__args__  # type: ignore[attr-defined]

TargetRegister = Literal["direct", "warm", "formal", "concise", "clarifying"]
TARGET_REGISTERS: tuple[str, ...] = TargetRegister.__args__  # type: ignore[attr-defined]

IncomingAmbiguityReason = Literal[
    "soft_request",
    "vague_timeline",
    "vague_referent",
    "hedged_commitment",
    "implied_urgency",
    "implied_blame",
    "passive_voice_actor",
    "rhetorical_question",
    "other",
]
MeetingAmbiguityReason = Literal[
    "vague_timeline",
    "vague_referent",
    "unassigned_owner",
    "hedged_commitment",
    "deferred_topic",
    "contested",
    "other",
]
NextActionKind = Literal["reply", "clarify", "acknowledge", "set_reminder", "escalate", "ignore", "defer"]
ToneAxis = Literal["directness", "warmth", "urgency"]
ProvenanceMode = Literal["local", "cloud", "unknown"]

def _integral(value: Any) -> Any:
    # JSON Schema's "integer" admits 3.0; strict pydantic would not. Accept integral floats only.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _exactly_true(value: Any) -> Any:
    # Literal[True] would also admit 1; the contract's `const: true` does not.
    if value is not True:
        raise PydanticCustomError("const_true", "must be the JSON value true (every item quotes the transcript)")
    return value


Offset = Annotated[int, Field(ge=0), BeforeValidator(_integral)]
Score = Annotated[float, Field(ge=0, le=100)]
Delta = Annotated[float, Field(ge=-100, le=100)]


class ContractModel(BaseModel):
    """Base for contract objects: closed (no extra keys), JSON-representable numbers only."""

    # strict: a reply's "42" is not the number 42, nor 1 the boolean true.
    # defer_build: validators are built on first use (a call), not when `parlance serve` imports the
    # pack; the advertised schemas ship as generated JSON, so registration never needs them.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True, defer_build=True)


class ModelProvenance(ContractModel):
    mode: ProvenanceMode
    provider: str
    model: str


# --- translate_incoming -----------------------------------------------------------------------


class SubtextHypothesis(ContractModel):
    text: Annotated[str, Field(min_length=1, max_length=1000)]
    confidence: Annotated[float, Field(ge=0, le=1)]


class AmbiguitySpan(ContractModel):
    start_char: Offset
    end_char: Offset
    reason: IncomingAmbiguityReason
    note: Annotated[str, Field(max_length=500)] | None = None


class AmbiguityReport(ContractModel):
    detected: bool
    spans: Annotated[list[AmbiguitySpan], Field(max_length=20)]


class NextAction(ContractModel):
    action: NextActionKind
    reason: Annotated[str, Field(min_length=1, max_length=1000)]
    draft_reply: Annotated[str, Field(max_length=2000)] | None = None


class TranslateIncomingOutput(ContractModel):
    explicit_ask: Annotated[str, Field(max_length=1000)] | None
    likely_subtext: Annotated[list[SubtextHypothesis], Field(max_length=5)]
    ambiguity: AmbiguityReport
    recommended_next_action: NextAction
    eval_corpus_slice: str
    model_provenance: ModelProvenance


# --- check_tone -------------------------------------------------------------------------------


class ToneAxes(ContractModel):
    directness: Score
    warmth: Score
    urgency: Score


class ToneDelta(ContractModel):
    directness: Delta
    warmth: Delta
    urgency: Delta


class FlaggedPhrase(ContractModel):
    start_char: Offset
    end_char: Offset
    phrase: Annotated[str, Field(min_length=1, max_length=500)]
    axis: ToneAxis
    delta: Delta
    note: Annotated[str, Field(max_length=500)] | None = None


class CheckToneOutput(ContractModel):
    axes: ToneAxes
    axes_target: ToneAxes | None = None
    baseline_delta: ToneDelta | None
    flagged_phrases: Annotated[list[FlaggedPhrase], Field(max_length=20)]
    suggested_rewrite_hint: Annotated[str, Field(max_length=1000)] | None
    eval_corpus_slice: str
    model_provenance: ModelProvenance


# --- rewrite_outgoing -------------------------------------------------------------------------


class DiffSummary(ContractModel):
    tone_shift: Annotated[str, Field(min_length=1, max_length=1000)]
    structural_changes: Annotated[list[Annotated[str, Field(min_length=1, max_length=500)]], Field(max_length=20)]
    warnings: Annotated[list[Annotated[str, Field(min_length=1, max_length=500)]], Field(max_length=20)]


class RewriteOutgoingOutput(ContractModel):
    rewritten: Annotated[str, Field(min_length=1, max_length=12000)]
    preserved_terms: list[str]
    unpreserved_terms: list[str]
    diff_summary: DiffSummary
    eval_corpus_slice: str
    model_provenance: ModelProvenance


# --- brief_meeting ----------------------------------------------------------------------------


class QuotedSpan(ContractModel):
    start_char: Offset
    end_char: Offset
    text: Annotated[str, Field(min_length=1)]


class Ask(ContractModel):
    text: Annotated[str, Field(min_length=1, max_length=1000)]
    asker: Annotated[str, Field(max_length=200)] | None
    due: Annotated[str, Field(max_length=200)] | None = None
    quoted_span: QuotedSpan


class Decision(ContractModel):
    text: Annotated[str, Field(min_length=1, max_length=1000)]
    decided_by: Annotated[list[Annotated[str, Field(min_length=1, max_length=200)]], Field(max_length=20)]
    quoted_span: QuotedSpan


class AmbiguousItem(ContractModel):
    text: Annotated[str, Field(min_length=1, max_length=1000)]
    verbatim: Annotated[Literal[True], BeforeValidator(_exactly_true)]
    quoted_span: QuotedSpan
    reason: MeetingAmbiguityReason


class BriefMeetingOutput(ContractModel):
    my_asks: Annotated[list[Ask], Field(max_length=50)]
    others_asks: Annotated[list[Ask], Field(max_length=50)]
    decisions: Annotated[list[Decision], Field(max_length=50)]
    ambiguous_items: Annotated[list[AmbiguousItem], Field(max_length=50)]
    eval_corpus_slice: str
    model_provenance: ModelProvenance


OUTPUT_MODELS: dict[str, type[ContractModel]] = {
    "translate_incoming": TranslateIncomingOutput,
    "check_tone": CheckToneOutput,
    "rewrite_outgoing": RewriteOutgoingOutput,
    "brief_meeting": BriefMeetingOutput,
}
"""Tool name -> its contract output model."""
