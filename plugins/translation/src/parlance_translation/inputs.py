"""Tool arguments: the contract's inputs plus two optional extensions, and their error mapping.

Extensions on every tool (additive, so contract-valid arguments stay valid):
  * `target_language` — BCP 47 tag choosing the language pack for templates and lexicons;
  * `model_output` — the caller's model's JSON reply to the refinement prompt of an earlier call.
    The tool validates it exactly like a sampled reply and returns it instead of computing anything.

Where the contract says a list is "capped" and the server SHOULD truncate (thread_context,
baseline_messages, speakers), the models accept longer lists and `trim_*` cut them down with a note
for `_meta`; `preserve_terms` over 100 is the contract's error `PRESERVE_TERMS_TOO_MANY`.
Unknown argument names are ignored (read as forward-compatible additions).

`problems_to_error` maps pydantic's validation problems onto the contract's error codes, so a
caller sees `TEXT_TOO_LONG` rather than the host's generic `INVALID_ARGUMENTS`, with a message that
says what was wrong ("`text` is 8001 characters; the limit is 8000"). Only problems that no
contract code describes keep `INVALID_ARGUMENTS`: a wrong JSON type on an optional field (e.g.
`preserve_intent: "maybe"`), and a `me` over its 200 characters (the contract's ME_REQUIRED is for a
missing `me`, and it has no ME_TOO_LONG).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from parlance import ArgumentProblem, ToolError
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from parlance_translation import errors
from parlance_translation.contract import CHANNELS, TARGET_REGISTERS, Channel, TargetRegister

TEXT_MAX = 8000
TRANSCRIPT_MIN = 20
TRANSCRIPT_MAX = 200_000
ME_MAX = 200
THREAD_CONTEXT_MAX = 20
BASELINE_MAX = 20
BASELINE_MIN = 3
SPEAKERS_MAX = 30
PRESERVE_TERMS_MAX = 100
LIST_ITEM_MAX = 2000


def _none_is_missing(value: Any) -> Any:
    # JSON null for a required argument means "not given": report it as missing, not as a type error,
    # so `{"text": null}` is TEXT_REQUIRED and `{"target_register": null}` TARGET_REGISTER_REQUIRED.
    if value is None:
        raise PydanticCustomError("missing", "Field required")
    return value


def _one_string_is_a_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


def _length_in(minimum: int, maximum: int) -> BeforeValidator:
    """Check a string's length before pydantic's own constraint does, so the problem says the length
    found as well as the limit (pydantic's says neither for strings). `problems_to_error` uses the
    message as the first sentence of the contract error."""

    def check(value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str):
            return value  # the type check after this reports it
        found = {"field": info.field_name, "length": len(value), "minimum": minimum, "maximum": maximum}
        if len(value) > maximum:
            raise PydanticCustomError("string_too_long", "`{field}` is {length} characters; the limit is {maximum}",
                                      found)
        if not value:
            raise PydanticCustomError("string_too_short",
                                      "`{field}` is empty; it must be {minimum} to {maximum} characters", found)
        if len(value) < minimum:
            raise PydanticCustomError("string_too_short",
                                      "`{field}` is {length} characters; the minimum is {minimum}", found)
        return value

    return BeforeValidator(check)


RequiredNotNull = BeforeValidator(_none_is_missing)
StringList = Annotated[list[str], BeforeValidator(_one_string_is_a_list)]
# Required strings: the Field constraints publish the limits in the schema, _length_in words the problem.
MessageText = Annotated[str, RequiredNotNull, _length_in(1, TEXT_MAX), Field(min_length=1, max_length=TEXT_MAX)]
TranscriptText = Annotated[str, RequiredNotNull, _length_in(TRANSCRIPT_MIN, TRANSCRIPT_MAX),
                           Field(min_length=TRANSCRIPT_MIN, max_length=TRANSCRIPT_MAX)]
MeText = Annotated[str, RequiredNotNull, _length_in(1, ME_MAX), Field(min_length=1, max_length=ME_MAX)]


class ToolInput(BaseModel):
    """Arguments every translation tool accepts besides its own."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built on the first call, not at startup

    target_language: str | None = Field(
        default=None,
        description="Optional BCP 47 tag of the message's language (default 'en'). Selects a language "
        "pack for prompt templates and lexicons; without one for the tag: LANGUAGE_PACK_MISSING.",
        examples=["en", "en-IE"],
    )
    model_output: str | dict[str, Any] | None = Field(
        default=None,
        description="Optional: your model's JSON reply to the refinement prompt that an earlier call of this "
        "tool returned (in _meta and the text block). Send it with the same arguments; the server validates it "
        "like a sampled reply and returns it instead of running the heuristics.",
    )


class TranslateIncomingInput(ToolInput):
    text: MessageText = Field(
        description="The verbatim incoming message to decode (1–8000 characters). Never logged or stored."
    )
    channel: Channel | None = Field(default=None, description="Channel of origin; 'generic' when unsure.")
    thread_context: StringList | None = Field(
        default=None,
        description="Preceding messages in the thread, oldest first. Only the most recent 20 are used.",
    )


class CheckToneInput(ToolInput):
    text: MessageText = Field(
        description="The outgoing message to score (1–8000 characters). Never logged or stored."
    )
    baseline_messages: StringList | None = Field(
        default=None,
        description="The same sender's prior messages, oldest first (most recent 20 used). With fewer than 3, "
        "baseline_delta is null (soft signal BASELINE_TOO_SMALL in _meta).",
    )
    target_register: TargetRegister | None = Field(
        default=None, description="Register to score against: direct, warm, formal, concise or clarifying."
    )
    channel: Channel | None = Field(default=None, description="Channel hint; 'generic' when unsure.")


class RewriteOutgoingInput(ToolInput):
    text: MessageText = Field(
        description="The outgoing message to rewrite (1–8000 characters). Never logged or stored."
    )
    target_register: Annotated[TargetRegister, RequiredNotNull] = Field(
        description="Required register for the rewrite: direct, warm, formal, concise or clarifying."
    )
    preserve_terms: Annotated[StringList, Field(max_length=PRESERVE_TERMS_MAX)] | None = Field(
        default=None,
        description="Terms that must appear unchanged in the rewrite (max 100); checked by exact substring match.",
    )
    channel: Channel | None = Field(default=None, description="Channel hint; 'generic' when unsure.")
    preserve_intent: bool = Field(
        default=True, description="Keep the message's underlying ask or position (default true)."
    )


class BriefMeetingInput(ToolInput):
    transcript: TranscriptText = Field(
        description="Verbatim meeting transcript, 20–200000 characters, ideally with speaker labels ('Priya: ...')."
    )
    me: MeText = Field(
        description="Speaker label or name of the recipient; partitions my_asks from others_asks."
    )
    project: str | None = Field(default=None, description="Optional project context.")
    speakers: StringList | None = Field(
        default=None, description="Optional roster of speaker labels (first 30 used)."
    )


INPUT_MODELS: dict[str, type[ToolInput]] = {
    "translate_incoming": TranslateIncomingInput,
    "check_tone": CheckToneInput,
    "rewrite_outgoing": RewriteOutgoingInput,
    "brief_meeting": BriefMeetingInput,
}


# --- contract truncation ("Server SHOULD truncate") -------------------------------------------------


def trim_list(
    name: str, items: list[str] | None, *, limit: int, keep: str, notes: list[str], item_max: int | None = None
) -> list[str]:
    """Drop empty items, clip long ones, and keep `limit` items from the `keep` end ("first"/"last")."""
    if not items:
        return []
    kept = [item for item in items if item.strip()]
    if len(kept) != len(items):
        notes.append(f"{name}: dropped {len(items) - len(kept)} empty item(s)")
    if item_max is not None and any(len(item) > item_max for item in kept):
        notes.append(f"{name}: clipped item(s) longer than {item_max} characters")
        kept = [item[:item_max] for item in kept]
    if len(kept) > limit:
        notes.append(f"{name}: {len(kept)} items supplied, kept the {keep} {limit}")
        kept = kept[-limit:] if keep == "last" else kept[:limit]
    return kept


# --- validation problems -> contract error codes ---------------------------------------------------------

_Rule = Callable[[ArgumentProblem], "ToolError | None"]

INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
"""The host's code for an argument problem, kept where the contract has no code for it."""


def _text_rule(field: str, *, required: str, too_long: str, minimum: int, maximum: int, fix_long: str,
               fix: str = "") -> _Rule:
    """Missing, empty, too short or not a string: `required`; too long: `too_long`. Each message
    says which of these it was, and the limit; `fix_long` follows the too-long one, `fix` the others."""
    limits = f"{minimum} to {maximum} characters"

    def rule(problem: ArgumentProblem) -> ToolError | None:
        if problem.field != field:
            return None
        data: dict[str, Any] = {"field": field, "minimum": minimum, "maximum": maximum}
        if problem.kind in {"string_too_long", "too_long"}:  # the message is _length_in's sentence
            if too_long == INVALID_ARGUMENTS:  # the host's data shape for its code
                data["problems"] = [{"field": problem.field, "kind": problem.kind, "message": problem.message}]
            return ToolError(too_long, f"{problem.message}. {fix_long}", data)
        if problem.kind in {"string_too_short", "too_short"}:
            return ToolError(required, f"{problem.message}.{fix}", data)
        if problem.kind == "missing":
            return ToolError(required, f"`{field}` is required: a string of {limits}.{fix}", data)
        return ToolError(required, f"`{field}` must be a string of {limits}.{fix}",
                         {**data, "problem": problem.message})

    return rule


def _field_rule(field: str, code: str, message: str) -> _Rule:
    def rule(problem: ArgumentProblem) -> ToolError | None:
        if problem.field == field or problem.field.startswith(field + "."):
            return ToolError(code, message, {"field": problem.field, "problem": problem.message})
        return None

    return rule


def _target_register_rule(problem: ArgumentProblem) -> ToolError | None:
    if problem.field != "target_register":
        return None
    if problem.kind == "missing":
        return ToolError(errors.TARGET_REGISTER_REQUIRED,
                         f"`target_register` is required: one of {', '.join(TARGET_REGISTERS)}.",
                         {"field": "target_register"})
    return ToolError(errors.TARGET_REGISTER_UNKNOWN,
                     f"`target_register` must be one of {', '.join(TARGET_REGISTERS)}.",
                     {"field": "target_register", "problem": problem.message})


def _preserve_terms_rule(problem: ArgumentProblem) -> ToolError | None:
    if problem.field == "preserve_terms" and problem.kind == "too_long":
        return ToolError(errors.PRESERVE_TERMS_TOO_MANY,
                         f"`preserve_terms` has more than {PRESERVE_TERMS_MAX} entries; keep the terms that matter.",
                         {"field": "preserve_terms", "limit": PRESERVE_TERMS_MAX})
    return None


_CHANNEL = _field_rule("channel", errors.CHANNEL_UNKNOWN,
                       f"`channel` must be one of {', '.join(CHANNELS)} (use 'generic' if unsure).")
_LANGUAGE = _field_rule("target_language", errors.LANGUAGE_PACK_MISSING,
                        "`target_language` must be a BCP 47 tag such as 'en' or 'en-IE'; omit it for English.")
_MODEL_OUTPUT = _field_rule("model_output", errors.MODEL_OUTPUT_INVALID,
                            "`model_output` must be your model's JSON reply, as a string or an object.")
_TEXT = _text_rule("text", required=errors.TEXT_REQUIRED, too_long=errors.TEXT_TOO_LONG, minimum=1, maximum=TEXT_MAX,
                   fix_long="Split or excerpt it and call again.")

# Rules in precedence order: the first problem a rule recognises decides the code, and required
# arguments come first so a call missing `text` reports TEXT_REQUIRED whatever else is wrong.
_RULES: dict[str, tuple[_Rule, ...]] = {
    "translate_incoming": (_TEXT, _CHANNEL, _LANGUAGE, _MODEL_OUTPUT),
    "check_tone": (_TEXT, _target_register_rule, _CHANNEL, _LANGUAGE, _MODEL_OUTPUT),  # optional there: never missing
    "rewrite_outgoing": (_TEXT, _target_register_rule, _preserve_terms_rule, _CHANNEL, _LANGUAGE, _MODEL_OUTPUT),
    "brief_meeting": (
        _text_rule("transcript", required=errors.TRANSCRIPT_REQUIRED, too_long=errors.TRANSCRIPT_TOO_LONG,
                   minimum=TRANSCRIPT_MIN, maximum=TRANSCRIPT_MAX,
                   fix_long="Split it into parts and call once per part."),
        # No contract code covers a `me` that is too long: ME_REQUIRED means "missing".
        _text_rule("me", required=errors.ME_REQUIRED, too_long=INVALID_ARGUMENTS, minimum=1, maximum=ME_MAX,
                   fix_long="Give the speaker label or name of the recipient as the transcript has it, e.g. 'Thomas'.",
                   fix=" It is the speaker label or name of the recipient, e.g. 'Thomas'; without it the "
                   "four-section partition is ill-defined."),
        _LANGUAGE,
        _MODEL_OUTPUT,
    ),
}


def problems_to_error(tool: str) -> Callable[[list[ArgumentProblem]], ToolError | None]:
    """The `on_invalid_arguments` mapper for `tool`: contract code for the most important problem."""
    rules = _RULES[tool]

    def map_problems(problems: list[ArgumentProblem]) -> ToolError | None:
        for rule in rules:
            for problem in problems:
                error = rule(problem)
                if error is not None:
                    return error
        return None

    return map_problems
