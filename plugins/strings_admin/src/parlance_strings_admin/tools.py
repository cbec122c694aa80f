"""The PRD's two tools: their input/output models, handlers, and the PRD's error mapping.

    duda_strings_admin_get_all_scopes          GET  {HOST}{BASE_PATH}scopes/
    duda_strings_admin_create_new_string_key   POST {HOST}{BASE_PATH}keys/{scopeValue}

Error codes (PRD §4): `invalid_request` for invalid arguments (a `scopeValue` whose URL cannot be
built included) and for 400/409 on create,
`not_found` for 404 on create, `internal_error` for everything else (any non-2xx on get, other
statuses on create, redirects, malformed replies, timeouts, connection failures). Replies from the
service travel in `data` as `{status, body}` with the body cut to an excerpt.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, with_config
from typing_extensions import NotRequired, TypedDict

from parlance import ArgumentProblem, ToolContext, ToolError, ToolResult
from parlance_strings_admin.errors import (
    ServiceRejected,
    ServiceUnreachable,
    StringsAdminError,
    UnexpectedReply,
    UnsendableURL,
)
from parlance_strings_admin.settings import StringsAdminSettings

if TYPE_CHECKING:  # httpx loads with the client, in the lifespan, not when the pack is imported
    from parlance_strings_admin.client import StringsAdminClient

__all__ = [
    "CREATE_KEY",
    "GET_SCOPES",
    "MAX_SCOPE_VALUE_CHARS",
    "CreateStringKeyArgs",
    "KeyCreated",
    "KeysScope",
    "NoArguments",
    "ScopeList",
    "create_new_string_key",
    "get_all_scopes",
    "invalid_request",
    "to_tool_error",
]

GET_SCOPES = "duda_strings_admin_get_all_scopes"
CREATE_KEY = "duda_strings_admin_create_new_string_key"

StringsAdminContext: TypeAlias = ToolContext[StringsAdminSettings, "StringsAdminClient"]
"""What the tools get: the pack's settings, and as the state the client its lifespan opened."""

NonBlank = Annotated[str, StringConstraints(min_length=1, pattern=r"\S")]

MAX_SCOPE_VALUE_CHARS = 255
"""The longest `scopeValue`, in characters. The value travels as one URL path segment, where
percent-encoding makes each character up to 12 (4 UTF-8 bytes, 3 characters each): 255 characters
stay under about 3 KB on the wire, well inside the 8 KiB request line that common servers and
proxies in front of the service accept (Tomcat, nginx), and far from httpx's own URL limit. The PRD
sets no length; scope names are short identifiers, and 255 is the limit the emulator models for keys
(its MAX_KEY_LENGTH, a VARCHAR(255) column)."""


class NoArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


@with_config(ConfigDict(extra="allow"))
class KeysScope(TypedDict):
    """The service's KeysScope DTO; fields the service adds are passed through untouched."""

    value: str
    shouldTranslate: NotRequired[bool | None]  # published as {"type": ["boolean", "null"]} by parlance.schemas


class ScopeList(BaseModel):
    scopes: list[KeysScope] = Field(description="Every scope, exactly as the strings-admin service returned them.")


class CreateStringKeyArgs(BaseModel):
    # strict: "true" is not a boolean and 5 is not a string; the PRD's schema is the contract.
    model_config = ConfigDict(extra="forbid", strict=True)

    key: NonBlank = Field(description="The new string key, e.g. 'order.status.completed'.")
    value: NonBlank = Field(description="The key's source text, e.g. 'Completed'.")
    scopeValue: NonBlank = Field(
        max_length=MAX_SCOPE_VALUE_CHARS,
        description=f"The scope to add the key to: one of the `value`s that {GET_SCOPES} returns "
        f"(at most {MAX_SCOPE_VALUE_CHARS} characters; it is sent as one URL path segment).",
    )
    shouldTranslate: bool = Field(default=False, description="Whether the key should be sent for translation.")


class KeyCreated(BaseModel):
    created: Literal[True] = True
    scopeValue: str
    key: str


async def get_all_scopes(args: NoArguments, ctx: StringsAdminContext) -> ToolResult[ScopeList]:
    """Retrieves all available scopes so that clients can decide where to add keys."""
    client = ctx.state
    try:
        reply = await client.get_scopes()
    except StringsAdminError as exc:
        raise to_tool_error(exc, tool=GET_SCOPES) from None
    # The text block is the service's own JSON array, as the PRD's example shows it.
    # model_construct: the client has checked every scope against KeysScope already (_scopes_problem).
    return ToolResult(ScopeList.model_construct(scopes=reply.scopes), text=reply.text)


async def create_new_string_key(args: CreateStringKeyArgs, ctx: StringsAdminContext) -> ToolResult[KeyCreated]:
    """Creates a new string key inside a specified scope (scopeValue).

    Retrying after a dropped connection is safe: if the retry finds the key already created by the
    earlier attempt, the call succeeds.
    """
    client = ctx.state
    try:
        created = await client.create_key(args.scopeValue, args.key, args.value, args.shouldTranslate)
    except StringsAdminError as exc:
        raise to_tool_error(exc, tool=CREATE_KEY, scope_value=args.scopeValue) from None
    meta: dict[str, Any] = {"attempts": created.attempts}
    if created.confirmed_by_conflict:
        meta["confirmedBy"] = "409 on retry: an earlier, unanswered attempt created the key"
    # The PRD's payload for success is null (HTTP 204); structuredContent says what was created.
    return ToolResult(
        KeyCreated(scopeValue=args.scopeValue, key=args.key), text="null", meta={"parlance/strings_admin": meta}
    )


def to_tool_error(exc: StringsAdminError, *, tool: str, scope_value: str | None = None) -> ToolError:
    """The PRD's error code and a sentence for one REST client failure."""
    if isinstance(exc, ServiceUnreachable):
        return ToolError(
            "internal_error",
            f"{exc}. Check that the service is running and that STRINGS_ADMIN_HOST points at it.",
            data={"reason": exc.reason, "attempts": exc.attempts},
        )
    if isinstance(exc, UnsendableURL):
        if tool == CREATE_KEY:  # the only caller-supplied part of a URL is scopeValue
            return ToolError("invalid_request", f"`scopeValue` cannot be sent: {exc}.", data={"field": "scopeValue"})
        return ToolError("internal_error", f"{exc}. Check STRINGS_ADMIN_HOST and BASE_PATH.", data={})
    if isinstance(exc, UnexpectedReply):
        return ToolError("internal_error", f"{exc}.", data={"status": exc.status, "body": exc.body})
    assert isinstance(exc, ServiceRejected)
    data = {"status": exc.status, "body": exc.body}
    if 300 <= exc.status < 400:
        return ToolError(
            "internal_error",
            f"{exc}, a redirect, which is not followed. Check STRINGS_ADMIN_HOST and BASE_PATH.",
            data=data,
        )
    if tool == CREATE_KEY:
        if exc.status == 409:
            return ToolError("invalid_request", f"Key already exists in scope {scope_value!r} (HTTP 409).", data=data)
        if exc.status == 400:
            return ToolError("invalid_request", f"The service rejected the key as invalid (HTTP 400): {_service_message(exc.body)}", data=data)
        if exc.status == 404:
            return ToolError(
                "not_found",
                f"Scope {scope_value!r} was not found (HTTP 404). Call {GET_SCOPES} for the scopes that exist.",
                data=data,
            )
    return ToolError("internal_error", f"{exc}.", data=data)


def _service_message(body: str) -> str:
    """The service's own explanation from a Spring-style error body, else the start of the body."""
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    message = parsed.get("message") if isinstance(parsed, dict) else None
    if isinstance(message, str) and message:
        return message
    return body[:200] or "(empty body)"


_PHRASES = {
    "missing": "is required",
    "string_too_short": "must not be empty",
    "string_pattern_mismatch": "must not be blank",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "extra_forbidden": "is not an argument of this tool",
    # JSON allows "\ud800"; pydantic refuses such text, which could not be sent as UTF-8 anyway.
    "string_unicode": "must be valid Unicode text (it contains a lone surrogate)",
}


def _phrase(problem: ArgumentProblem) -> str:
    if (problem.field, problem.kind) == ("scopeValue", "string_too_long"):
        return f"is longer than {MAX_SCOPE_VALUE_CHARS} characters, the limit for a scope value"
    return _PHRASES.get(problem.kind, problem.message)


def invalid_request(problems: list[ArgumentProblem]) -> ToolError:
    """PRD acceptance 4: arguments that break the schema are `invalid_request`."""
    sentences = [f"`{p.field or 'arguments'}` {_phrase(p)}" for p in problems]
    return ToolError(
        "invalid_request",
        "Invalid arguments: " + "; ".join(sentences) + ".",
        data={"problems": [{"field": p.field, "kind": p.kind, "message": p.message} for p in problems]},
    )
