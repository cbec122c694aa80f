"""Questions a tool asks the client in the middle of a call — sampling, elicitation, roots — in both eras.

Up to 2025-11-25 a question is a server-to-client request sent during the call, and its answer
comes back on the same connection. On 2026-07-28 server-to-client requests are not allowed: the
call answers `InputRequiredResult` naming every question it could not get past, the client asks
them and repeats the call with the answers in `inputResponses`, and the handler runs again and
finds them. Answers of earlier rounds travel in `requestState`, which the SDK's
`RequestStateBoundary` seals, so what comes back is what this server wrote.

A question is known by its key: the pack's, or the kind and its position among the call's
questions of that kind (`sample-0`, `elicit-1`). Questions asked at the same time (from a task
group) are all collected into one round. An answer that does not have the shape of its question is
no answer: the question is asked again.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable
from typing import Any, TypeVar

from mcp.server import ServerRequestContext
from mcp.shared.message import ServerMessageMetadata
from mcp.types import CreateMessageRequest, ElicitRequest, InputRequiredResult, ListRootsRequest
from mcp.types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ValidationError

__all__ = ["Questions", "answer_or_ask"]

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Request = CreateMessageRequest | ElicitRequest | ListRootsRequest

_STATE_PREFIX = "parlance.answers.v2:"


class _NeedsInput(BaseException):
    """Raised inside a handler on 2026-07-28 when a question has no answer yet. A BaseException, so
    a pack's `except Exception` cannot swallow it."""


class Questions:
    """The questions of one request, and the answers the client has given to them so far."""

    def __init__(self, ctx: ServerRequestContext[Any, Any], input_responses: dict[str, Any] | None,
                 request_state: str | None) -> None:
        self._ctx = ctx
        self._given = _answers_in(request_state) | dict(input_responses or {})
        self._used: dict[str, dict[str, Any]] = {}
        self._pending: dict[str, Request] = {}
        self._counts: dict[str, int] = {}

    def key_for(self, kind: str, key: str | None) -> str:
        """The pack's key, or the next positional one for `kind`."""
        if key is not None:
            return key
        position = self._counts.get(kind, 0)
        self._counts[kind] = position + 1
        return f"{kind}-{position}"

    async def ask(self, key: str, request: Request, answer_type: type[M]) -> M:
        """The client's answer to `request`: asked now (handshake era, may raise `MCPError`), or found
        among the answers of a repeated call, or asked for by ending the call (2026-07-28)."""
        if self._ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return await self._ctx.session.send_request(
                request, answer_type, metadata=ServerMessageMetadata(related_request_id=self._ctx.request_id))
        given = self._given.get(key)
        if given is not None:
            try:
                answer = answer_type.model_validate(given, from_attributes=True)
            except ValidationError:
                pass  # the wrong shape: asked again below
            else:
                self._used[key] = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
                return answer
        self._pending[key] = request
        raise _NeedsInput()

    def input_required(self) -> InputRequiredResult:
        """The round that asks every pending question, carrying the answers used so far."""
        state = _STATE_PREFIX + base64.urlsafe_b64encode(json.dumps(self._used).encode()).decode()
        return InputRequiredResult(input_requests=dict(self._pending), request_state=state)


def _answers_in(request_state: str | None) -> dict[str, Any]:
    """The answers carried from earlier rounds; none when the state is not ours (or from an older
    Parlance), which asks the questions again."""
    if not request_state or not request_state.startswith(_STATE_PREFIX):
        return {}
    try:
        answers = json.loads(base64.urlsafe_b64decode(request_state.removeprefix(_STATE_PREFIX)))
    except (ValueError, TypeError):
        return {}
    if not (isinstance(answers, dict) and all(isinstance(v, dict) for v in answers.values())):
        return {}
    return answers


async def answer_or_ask(questions: Questions, call: Awaitable[T]) -> T | InputRequiredResult:
    """Await `call`; when a question in it had no answer yet (2026-07-28), answer the round that asks
    it instead. Questions asked from a task group surface inside an exception group."""
    try:
        return await call
    except BaseException as exc:
        if not _needs_input(exc):
            raise
        return questions.input_required()


def _needs_input(exc: BaseException) -> bool:
    if isinstance(exc, _NeedsInput):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_needs_input(inner) for inner in exc.exceptions)
    return False
