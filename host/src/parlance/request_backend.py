"""One MCP request as a pack's `ctx` sees it: the `ContextBackend` the server gives each call.

`RequestBackend` answers what `ToolContext` asks of the request — client facts and capabilities,
progress, log messages, and questions to the client (sampling, elicitation, roots), asked through
`parlance.questions` in either protocol era. `session_of` says which session a request belongs
to, for `ctx.session_state`; `connection_of`, which connection, for the per-connection state of
`parlance.notifications`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from mcp import MCPError
from mcp.server import ServerRequestContext
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    ListRootsRequest,
    ListRootsResult,
    LoggingMessageNotification,
    LoggingMessageNotificationParams,
    TextContent,
)
from mcp.types import SamplingMessage as McpSamplingMessage
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from parlance.content import LogLevel
from parlance.errors import ElicitationFailed, ElicitationUnavailable, SamplingFailed, SamplingUnavailable
from parlance.notifications import Notifier
from parlance.questions import Questions
from parlance.types import ClientInfo, Elicited, Principal, Root, Sampled, SamplingMessage

__all__ = ["RequestBackend", "RequestContext", "Session", "connection_of", "session_of"]

logger = logging.getLogger(__name__)

RequestContext = ServerRequestContext[Any, Any]


class RequestBackend:
    """`ContextBackend` for one MCP request."""

    def __init__(self, ctx: RequestContext, notifier: Notifier, input_responses: dict[str, Any] | None = None,
                 request_state: str | None = None, *, may_ask: bool = True) -> None:
        self._ctx = ctx
        self._notifier = notifier
        self._may_ask = may_ask  # False where no answer could come back (completions): nothing is asked
        self.questions = Questions(ctx, input_responses, request_state)

    @property
    def protocol_version(self) -> str | None:
        return self._ctx.protocol_version

    @property
    def client(self) -> ClientInfo | None:
        params = self._ctx.session.client_params
        if params is None:
            return None
        return ClientInfo(name=params.client_info.name, version=params.client_info.version)

    @property
    def principal(self) -> Principal | None:
        # Over HTTP with [auth], `parlance._transport.http_auth` put the checked token's facts on the request.
        request = self._ctx.request
        user = getattr(request, "scope", {}).get("user") if request is not None else None
        if not isinstance(user, AuthenticatedUser):
            return None
        token = user.access_token
        return Principal(subject=token.subject, client_id=token.client_id or None, scopes=tuple(token.scopes))

    @property
    def can_sample(self) -> bool:
        caps = self._ctx.session.client_capabilities
        return self._may_ask and caps is not None and caps.sampling is not None

    @property
    def can_elicit(self) -> bool:
        caps = self._ctx.session.client_capabilities
        return self._may_ask and caps is not None and caps.elicitation is not None

    @property
    def can_list_roots(self) -> bool:
        caps = self._ctx.session.client_capabilities
        return self._may_ask and caps is not None and caps.roots is not None

    @property
    def session_persists(self) -> bool:
        return _persists(self._ctx)

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None:
        await self._ctx.session.report_progress(progress, total, message)

    async def log(self, level: LogLevel, logger: str, data: Any) -> None:
        if not self._notifier.wants_log(connection_of(self._ctx), self._ctx.protocol_version, self._ctx.meta, level):
            return
        notification = LoggingMessageNotification(params=LoggingMessageNotificationParams(level=level, logger=logger,
                                                                                          data=data))
        # Tied to the request: over HTTP it rides the call's own stream, as 2026-07-28 requires.
        await self._ctx.session.send_notification(notification, related_request_id=self._ctx.request_id)

    async def sample(
        self,
        messages: Sequence[SamplingMessage],
        *,
        system_prompt: str | None,
        max_tokens: int,
        temperature: float | None,
        stop_sequences: Sequence[str] | None,
        key: str | None,
    ) -> Sampled:
        if not self.can_sample:
            raise SamplingUnavailable()
        request = CreateMessageRequest(
            params=CreateMessageRequestParams(
                messages=[McpSamplingMessage(role=m.role, content=TextContent(type="text", text=m.text)) for m in messages],
                system_prompt=system_prompt,
                max_tokens=max_tokens,
                temperature=temperature,
                stop_sequences=list(stop_sequences) if stop_sequences else None,
            )
        )
        try:
            result = await self.questions.ask(self.questions.key_for("sample", key), request, CreateMessageResult)
        except MCPError as exc:
            raise SamplingFailed(f"the client could not sample: {exc.error.message}",
                                 {"client_code": exc.error.code}) from None
        text = result.content.text if isinstance(result.content, TextContent) else ""
        return Sampled(text=text, model=result.model, stop_reason=result.stop_reason)

    async def elicit(self, message: str, schema: dict[str, Any], key: str | None) -> Elicited:
        if not self.can_elicit:
            raise ElicitationUnavailable()
        _check_form(schema)
        request = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))
        try:
            result = await self.questions.ask(self.questions.key_for("elicit", key), request, ElicitResult)
        except MCPError as exc:
            raise ElicitationFailed(f"the client could not ask the user: {exc.error.message}",
                                    {"client_code": exc.error.code}) from None
        if result.action != "accept":
            return Elicited(action=result.action)
        content = dict(result.content or {})
        if (problem := _schema_problem(content, schema)) is not None:
            raise ElicitationFailed(f"the user's answer does not fit the requested form: {problem}")
        return Elicited(action="accept", content=content)

    async def close_stream(self) -> bool:
        if self._ctx.close_sse_stream is None:  # the SDK offers it only on resumable HTTP streams
            return False
        await self._ctx.close_sse_stream()
        return True

    async def list_roots(self, key: str | None) -> list[Root]:
        if not self.can_list_roots:
            return []
        try:
            result = await self.questions.ask(self.questions.key_for("roots", key), ListRootsRequest(), ListRootsResult)
        except MCPError:
            logger.info("roots.unavailable")  # the client declared roots but could not list them: none known
            return []
        return [Root(uri=str(root.uri), name=root.name) for root in result.roots]


def _check_form(schema: dict[str, Any]) -> None:
    """Refuse, before the user is asked, a form schema no answer could be checked against (a pack bug)."""
    import jsonschema  # type: ignore[import-untyped]  # only when a pack elicits: the import is not free

    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise TypeError("an elicitation form is a JSON Schema object ({'type': 'object', 'properties': ...})")
    jsonschema.Draft202012Validator.check_schema(schema)


def _schema_problem(content: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """Where an accepted elicitation answer breaks the requested schema, without quoting the answer."""
    import jsonschema

    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(content))
    if error is None:
        return None
    where = error.json_path if error.path else "the answer"
    return f"{where} fails the schema's {error.validator!r} rule"


class Session:
    """A key for per-session pack state (weak-referenceable, unlike a bare object())."""


def _persists(ctx: RequestContext) -> bool:
    # 2026-07-28 over HTTP, and stateless HTTP in any era: every request stands alone (see session_of).
    if ctx.lifespan_context.get("stateless"):
        return False
    return ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS or ctx.request is None


def connection_of(ctx: RequestContext) -> Any:
    """The client's connection (one per stdio run or HTTP session), or None where the SDK has none.
    The SDK keeps it on the session privately."""
    return getattr(ctx.session, "_connection", None)


def session_of(ctx: RequestContext) -> object:
    """Which session a request belongs to, for `ctx.session_state`.

    Handshake era: the client's connection (one per stdio process or HTTP session). 2026-07-28 has no
    sessions: on stdio or in-process one client owns the server run, so the run's lifespan stands in;
    a request over HTTP gets state of its own, since unrelated clients share the server there.
    """
    if not _persists(ctx):
        return Session()
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return ctx.lifespan_context["session"]
    return connection_of(ctx) or ctx.lifespan_context["session"]
