"""Turning a draft into a contract output: parse, set server-owned fields, cap, validate, anchor-check.

Every path goes through `finalize` — a sampled reply, a caller's `model_output`, and the baseline
heuristics' own draft — so the contract is enforced by one piece of code:

1. `parse_reply`: the reply must be one JSON object (a surrounding ```json fence is tolerated;
   NaN/Infinity are not JSON and are refused).
2. Server-owned fields are replaced, whatever the reply claimed: `eval_corpus_slice`,
   `model_provenance`; rewrite_outgoing's `preserved_terms`/`unpreserved_terms` by exact substring
   match; check_tone's `baseline_delta` is null below 3 baseline messages and `axes_target`
   follows `target_register`; translate_incoming's `ambiguity.detected` is "spans is non-empty".
3. Lists over a contract cap are truncated in order (reported, never an error).
4. Pydantic validation against the contract models -> `MODEL_OUTPUT_INVALID` with the problems.
5. Span checks against the input: every brief_meeting `quoted_span.text` and check_tone `phrase`
   must equal the input at its offsets (`VERBATIM_ANCHOR_FAILED`, never fixed up); every span must be
   inside the input with end > start.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from parlance_translation import errors
from parlance_translation.contract import OUTPUT_MODELS, ContractModel
from parlance_translation.inputs import BASELINE_MIN
from parlance_translation.schemas import SERVER_OWNED

Origin = Literal["sampling", "model_output", "baseline"]

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*?)\n?```\s*$", re.DOTALL)

# (path, cap): "*" walks every item of a list.
CAPS: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {
    "translate_incoming": ((("likely_subtext",), 5), (("ambiguity", "spans"), 20)),
    "check_tone": ((("flagged_phrases",), 20),),
    "rewrite_outgoing": ((("diff_summary", "structural_changes"), 20), (("diff_summary", "warnings"), 20)),
    "brief_meeting": (
        (("my_asks",), 50),
        (("others_asks",), 50),
        (("decisions",), 50),
        (("ambiguous_items",), 50),
        (("decisions", "*", "decided_by"), 20),
    ),
}
MEETING_SECTIONS = ("my_asks", "others_asks", "decisions", "ambiguous_items")


@dataclass(frozen=True)
class Facts:
    """What the server knows about the call, to set its own fields and check spans."""

    tool: str
    source_text: str  # input.text, or input.transcript for brief_meeting
    preserve_terms: tuple[str, ...] = ()
    baseline_count: int = 0
    target_axes: dict[str, float] | None = None


@dataclass
class Finalized:
    output: ContractModel
    truncated: list[str] = field(default_factory=list)
    adjustments: list[str] = field(default_factory=list)


def parse_reply(reply: str | dict[str, Any]) -> dict[str, Any]:
    """The reply as a JSON object, or MODEL_OUTPUT_INVALID."""
    if isinstance(reply, dict):
        return reply
    if not isinstance(reply, str):
        raise errors.model_output_invalid(f"expected a JSON object or its text, got {type(reply).__name__}")
    body = reply.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    if not body:
        raise errors.model_output_invalid("the reply is empty")
    try:
        parsed = json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise errors.model_output_invalid(f"the reply is not valid JSON ({exc})") from None
    if not isinstance(parsed, dict):
        raise errors.model_output_invalid(f"the reply must be a JSON object, not {type(parsed).__name__}")
    return parsed


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def finalize(
    draft: dict[str, Any], facts: Facts, *, eval_slice: str, provenance: dict[str, str], origin: Origin
) -> Finalized:
    """Validate `draft` into the tool's contract output, or raise the contract's error."""
    tool = facts.tool
    data = {key: value for key, value in draft.items() if key not in SERVER_OWNED[tool]}
    adjustments: list[str] = []
    _SERVER_FIELDS[tool](data, facts, adjustments)
    truncated = _truncate(data, CAPS[tool])
    data["eval_corpus_slice"] = eval_slice
    data["model_provenance"] = dict(provenance)
    try:
        output = OUTPUT_MODELS[tool].model_validate(data)
    except ValidationError as exc:
        if origin == "baseline":
            raise  # the heuristics broke the contract: a bug, reported as INTERNAL by the host
        raise errors.model_output_invalid(
            f"it does not match the {tool} output contract: {_describe(exc)}",
            errors=[{"path": _path(err["loc"]), "problem": err["msg"]} for err in exc.errors()[:10]],
        ) from None
    _ANCHORS[tool](output, facts)
    return Finalized(output=output, truncated=truncated, adjustments=adjustments)


# --- server-owned fields ------------------------------------------------------------------------------


def _incoming_fields(data: dict[str, Any], facts: Facts, adjustments: list[str]) -> None:
    ambiguity = data.get("ambiguity")
    if isinstance(ambiguity, dict) and isinstance(ambiguity.get("spans"), list):
        detected = bool(ambiguity["spans"])
        if ambiguity.get("detected") is not detected:
            adjustments.append(f"ambiguity.detected set to {str(detected).lower()} to match the spans")
        data["ambiguity"] = {**ambiguity, "detected": detected}


def _tone_fields(data: dict[str, Any], facts: Facts, adjustments: list[str]) -> None:
    if facts.baseline_count < BASELINE_MIN:
        if data.get("baseline_delta") is not None:
            adjustments.append(f"baseline_delta set to null: fewer than {BASELINE_MIN} baseline messages")
        data["baseline_delta"] = None
    if facts.target_axes is None:
        if data.get("axes_target") is not None:
            adjustments.append("axes_target set to null: no target_register was given")
        data["axes_target"] = None
    elif data.get("axes_target") is None:
        data["axes_target"] = dict(facts.target_axes)
        adjustments.append("axes_target filled from the register table")


def _rewrite_fields(data: dict[str, Any], facts: Facts, adjustments: list[str]) -> None:
    rewritten = data.get("rewritten")
    if not isinstance(rewritten, str):
        return  # validation will name the problem
    terms = list(dict.fromkeys(facts.preserve_terms))
    data["preserved_terms"] = [term for term in terms if term in rewritten]
    data["unpreserved_terms"] = [term for term in terms if term not in rewritten]
    summary = data.get("diff_summary")
    if data["unpreserved_terms"] and isinstance(summary, dict) and isinstance(summary.get("warnings"), list):
        said = " ".join(str(warning) for warning in summary["warnings"])
        added = [
            f"Term '{term[:400]}' was not preserved verbatim."
            for term in data["unpreserved_terms"]
            if f"'{term}'" not in said
        ]
        data["diff_summary"] = {**summary, "warnings": [*summary["warnings"], *added]}


def _no_fields(data: dict[str, Any], facts: Facts, adjustments: list[str]) -> None:
    return None


_SERVER_FIELDS = {
    "translate_incoming": _incoming_fields,
    "check_tone": _tone_fields,
    "rewrite_outgoing": _rewrite_fields,
    "brief_meeting": _no_fields,
}


# --- caps ---------------------------------------------------------------------------------------------


def _truncate(data: dict[str, Any], caps: tuple[tuple[tuple[str, ...], int], ...]) -> list[str]:
    truncated: list[str] = []
    for path, cap in caps:
        _truncate_at(data, path, cap, "", truncated)
    return truncated


def _truncate_at(node: Any, path: tuple[str, ...], cap: int, where: str, truncated: list[str]) -> None:
    head, rest = path[0], path[1:]
    if head == "*":
        if isinstance(node, list):
            for index, item in enumerate(node):
                _truncate_at(item, rest, cap, f"{where}[{index}]", truncated)
        return
    if not isinstance(node, dict) or head not in node:
        return
    name = f"{where}.{head}" if where else head
    if rest:
        _truncate_at(node[head], rest, cap, name, truncated)
    elif isinstance(node[head], list) and len(node[head]) > cap:
        truncated.append(f"{name}: {len(node[head])} items, kept the first {cap}")
        node[head] = node[head][:cap]


# --- span checks ----------------------------------------------------------------------------------------


def _bounds_problem(start: int, end: int, length: int) -> str | None:
    if end <= start:
        return f"end_char {end} must be greater than start_char {start}"
    if end > length:
        return f"end_char {end} is past the end of the input ({length} characters)"
    return None


def _incoming_anchors(output: Any, facts: Facts) -> None:
    for index, span in enumerate(output.ambiguity.spans):
        problem = _bounds_problem(span.start_char, span.end_char, len(facts.source_text))
        if problem:
            raise errors.model_output_invalid(f"ambiguity.spans[{index}]: {problem}", item=f"ambiguity.spans[{index}]")


def _tone_anchors(output: Any, facts: Facts) -> None:
    for index, flagged in enumerate(output.flagged_phrases):
        _require_verbatim(f"flagged_phrases[{index}]", facts.source_text, flagged.start_char, flagged.end_char,
                          flagged.phrase, "phrase does not equal the text at start_char:end_char")


def _meeting_anchors(output: Any, facts: Facts) -> None:
    for section in MEETING_SECTIONS:
        for index, entry in enumerate(getattr(output, section)):
            span = entry.quoted_span
            _require_verbatim(f"{section}[{index}].quoted_span", facts.source_text, span.start_char, span.end_char,
                              span.text, "text does not equal transcript[start_char:end_char]")


def _require_verbatim(item: str, source: str, start: int, end: int, quoted: str, mismatch: str) -> None:
    """The verbatim anchor: `quoted` must be exactly `source[start:end]`; never fixed up, only refused."""
    problem = _bounds_problem(start, end, len(source))
    if problem is None and source[start:end] != quoted:
        problem = mismatch
    if problem:
        raise errors.verbatim_anchor_failed(item, problem, start_char=start, end_char=end, found_at=source.find(quoted))


def _no_anchors(output: Any, facts: Facts) -> None:
    return None


_ANCHORS = {
    "translate_incoming": _incoming_anchors,
    "check_tone": _tone_anchors,
    "rewrite_outgoing": _no_anchors,
    "brief_meeting": _meeting_anchors,
}


def _path(location: tuple[Any, ...]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(reply)"


def _describe(exc: ValidationError) -> str:
    problems = [f"{_path(err['loc'])}: {err['msg']}" for err in exc.errors()[:5]]
    more = exc.error_count() - len(problems)
    return "; ".join(problems) + (f"; and {more} more" if more > 0 else "")
