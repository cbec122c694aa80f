"""The translation pack's error codes (the v0.1.0 contract's, plus MODEL_OUTPUT_INVALID).

Every error leaves the pack as a `parlance.ToolError`, so the host renders it in its one envelope:
`isError: true`, text `"CODE: message"`, `structuredContent = {"error", "code", "data"}`.

    ToolError (parlance)
    ├── input:   TEXT_REQUIRED  TEXT_TOO_LONG  CHANNEL_UNKNOWN  TARGET_REGISTER_REQUIRED
    │            TARGET_REGISTER_UNKNOWN  PRESERVE_TERMS_TOO_MANY  ME_REQUIRED
    │            TRANSCRIPT_REQUIRED  TRANSCRIPT_TOO_LONG  LANGUAGE_PACK_MISSING
    ├── model:   MODEL_UNAVAILABLE  MODEL_OUTPUT_INVALID  VERBATIM_ANCHOR_FAILED
    └── (BASELINE_TOO_SMALL is a soft signal, never raised: it is reported in `_meta`)
"""

from __future__ import annotations

from typing import Any

from parlance import ToolError

TEXT_REQUIRED = "TEXT_REQUIRED"
TEXT_TOO_LONG = "TEXT_TOO_LONG"
CHANNEL_UNKNOWN = "CHANNEL_UNKNOWN"
TARGET_REGISTER_REQUIRED = "TARGET_REGISTER_REQUIRED"
TARGET_REGISTER_UNKNOWN = "TARGET_REGISTER_UNKNOWN"
BASELINE_TOO_SMALL = "BASELINE_TOO_SMALL"
PRESERVE_TERMS_TOO_MANY = "PRESERVE_TERMS_TOO_MANY"
ME_REQUIRED = "ME_REQUIRED"
TRANSCRIPT_REQUIRED = "TRANSCRIPT_REQUIRED"
TRANSCRIPT_TOO_LONG = "TRANSCRIPT_TOO_LONG"
LANGUAGE_PACK_MISSING = "LANGUAGE_PACK_MISSING"
VERBATIM_ANCHOR_FAILED = "VERBATIM_ANCHOR_FAILED"
MODEL_UNAVAILABLE = "MODEL_UNAVAILABLE"
MODEL_OUTPUT_INVALID = "MODEL_OUTPUT_INVALID"

ALL_CODES = (
    TEXT_REQUIRED,
    TEXT_TOO_LONG,
    CHANNEL_UNKNOWN,
    TARGET_REGISTER_REQUIRED,
    TARGET_REGISTER_UNKNOWN,
    BASELINE_TOO_SMALL,
    PRESERVE_TERMS_TOO_MANY,
    ME_REQUIRED,
    TRANSCRIPT_REQUIRED,
    TRANSCRIPT_TOO_LONG,
    LANGUAGE_PACK_MISSING,
    VERBATIM_ANCHOR_FAILED,
    MODEL_UNAVAILABLE,
    MODEL_OUTPUT_INVALID,
)


def model_output_invalid(problem: str, **data: Any) -> ToolError:
    """The model's reply is not JSON or breaks the contract. Never retried by the server."""
    return ToolError(
        MODEL_OUTPUT_INVALID,
        f"the model's reply was rejected: {problem}. The server does not retry or repair replies; "
        "call the tool again (or send a corrected `model_output`).",
        data={"problem": problem, **data},
    )


def verbatim_anchor_failed(item: str, problem: str, **data: Any) -> ToolError:
    """A span the model quoted does not match the input at its offsets. Never fixed up."""
    return ToolError(
        VERBATIM_ANCHOR_FAILED,
        f"{item}: {problem}. The server rejects the whole reply rather than fabricating a span; "
        "the caller may retry.",
        data={"item": item, "problem": problem, **data},
    )


def model_unavailable(reason: str) -> ToolError:
    return ToolError(
        MODEL_UNAVAILABLE,
        f"no model is available to run this prompt: {reason}. Use a client that offers MCP sampling, "
        'or set [packs.translation] mode = "auto" or "baseline" to get the heuristic result.',
        data={"reason": reason},
    )
