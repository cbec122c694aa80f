"""The MCP side of the host: the only module that imports `mcp`.

Builds a low-level `mcp.server.Server` whose handlers translate between MCP types and the host's
plain ones (`Host.call_tool` and friends), and implements the `ContextBackend` packs reach through
`ctx`: progress, client facts, and sampling in both protocol eras.

Sampling differs by era. Up to 2025-11-25 the server sends `sampling/createMessage` to the client
in the middle of the call. On 2026-07-28 server-to-client requests are not allowed: the tool call
answers `InputRequiredResult`, the client runs the sample and repeats the call with the answer in
`input_responses`, and the handler runs again and finds it. `_NeedsInput` carries the request out
of the pack's handler; it derives from BaseException so a pack's `except Exception` cannot swallow it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Sequence
from typing import Any, TypeVar

from mcp import MCPError
from mcp.server import Server, ServerRequestContext
from mcp.shared.message import ServerMessageMetadata
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    BlobResourceContents,
    CallToolRequestParams,
    CallToolResult,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    GetPromptRequestParams,
    GetPromptResult,
    InputRequiredResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)
from mcp.types import PromptMessage as McpPromptMessage
from mcp.types import SamplingMessage as McpSamplingMessage
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from parlance import __version__
from parlance.errors import Refused, SamplingFailed, SamplingUnavailable, ToolError, UnknownName
from parlance.host import Host
from parlance.types import ClientInfo, Sampled, SamplingMessage

__all__ = ["build_server"]

logger = logging.getLogger(__name__)

RequestContext = ServerRequestContext[Any, Any]
T = TypeVar("T")


class _NeedsInput(BaseException):
    """Raised inside a tool on 2026-07-28 when it needs a sample the client has not given yet."""

    def __init__(self, key: str, request: CreateMessageRequest) -> None:
        self.key, self.request = key, request


_STATE_PREFIX = "parlance.samples.v1:"


def _answers_from(request_state: str | None, input_responses: dict[str, Any] | None) -> dict[str, Any]:
    """Every sample answered so far in this tool call (2026-07-28 era).

    A client returns only the answers to the latest round, so the answers of earlier rounds travel in
    `request_state`, which the client sends back unchanged. The client supplies every answer anyway,
    so carrying them through it gives it no power it did not have.
    """
    answers: dict[str, Any] = {}
    if request_state and request_state.startswith(_STATE_PREFIX):
        try:
            answers = json.loads(base64.urlsafe_b64decode(request_state.removeprefix(_STATE_PREFIX)))
        except (ValueError, TypeError):
            answers = {}
        if not (isinstance(answers, dict) and all(isinstance(v, dict) for v in answers.values())):
            answers = {}  # not ours or damaged: the samples are asked for again
    answers.update(input_responses or {})
    return answers


def _state_from(answers: dict[str, Any]) -> str:
    plain = {}
    for key, value in answers.items():
        try:
            plain[key] = CreateMessageResult.model_validate(value, from_attributes=True).model_dump(by_alias=True,
                                                                                                  mode="json")
        except Exception:  # a damaged answer is dropped: that sample is asked for again
            continue
    return _STATE_PREFIX + base64.urlsafe_b64encode(json.dumps(plain).encode()).decode()


class _RequestBackend:
    """`ContextBackend` for one MCP request."""

    def __init__(self, ctx: RequestContext, input_responses: dict[str, Any] | None = None,
                 request_state: str | None = None) -> None:
        self._ctx = ctx
        self._answers = _answers_from(request_state, input_responses)
        self._samples_taken = 0

    @property
    def answers(self) -> dict[str, Any]:
        """The samples the client has answered so far in this call (2026-07-28 era)."""
        return self._answers

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
    def can_sample(self) -> bool:
        caps = self._ctx.session.client_capabilities
        return caps is not None and caps.sampling is not None

    @property
    def session_persists(self) -> bool:
        return _persists(self._ctx)

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None:
        await self._ctx.session.report_progress(progress, total, message)

    async def sample(
        self,
        messages: Sequence[SamplingMessage],
        *,
        system_prompt: str | None,
        max_tokens: int,
        temperature: float | None,
        stop_sequences: Sequence[str] | None,
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
        key = f"sample-{self._samples_taken}"
        self._samples_taken += 1
        if self._ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            answer = self._answers.get(key)
            if answer is None:
                raise _NeedsInput(key, request)
            try:
                result = CreateMessageResult.model_validate(answer, from_attributes=True)
            except Exception:
                raise SamplingFailed("the client's sampling answer is not a CreateMessageResult") from None
        else:
            try:
                result = await self._ctx.session.send_request(
                    request, CreateMessageResult, metadata=ServerMessageMetadata(related_request_id=self._ctx.request_id)
                )
            except MCPError as exc:
                raise SamplingFailed(f"the client could not sample: {exc.error.message}",
                                     {"client_code": exc.error.code}) from None
        text = result.content.text if isinstance(result.content, TextContent) else ""
        return Sampled(text=text, model=result.model, stop_reason=result.stop_reason)


class _Session:
    """A key for per-session pack state (weak-referenceable, unlike a bare object())."""


def _persists(ctx: RequestContext) -> bool:
    # 2026-07-28 over HTTP: every request stands alone (see _session_of).
    return ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS or ctx.request is None


def _session_of(ctx: RequestContext) -> object:
    """Which session a request belongs to, for `ctx.session_state`.

    Handshake era: the client's connection (one per stdio process or HTTP session). 2026-07-28 has no
    sessions: on stdio or in-process one client owns the server run, so the run's lifespan stands in;
    a request over HTTP gets state of its own, since unrelated clients share the server there.
    """
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return ctx.lifespan_context["session"] if _persists(ctx) else _Session()
    # The SDK keeps the connection on the session privately; without it, the server run stands in.
    return getattr(ctx.session, "_connection", None) or ctx.lifespan_context["session"]


def build_server(host: Host, *, name: str = "parlance") -> Server[Any]:
    """An MCP server for `host`. Entering its lifespan enters every pack's lifespan."""
    registry = host.registry
    tools = [
        Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            input_schema=t.input_schema,
            output_schema=t.output_schema,
            annotations=ToolAnnotations(title=t.title, **t.hints) if (t.hints or t.title) else None,
        )
        for t in registry.tools.values()
    ]

    async def list_tools(ctx: RequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=tools)

    async def call_tool(ctx: RequestContext, params: CallToolRequestParams) -> CallToolResult | InputRequiredResult:
        backend = _RequestBackend(ctx, params.input_responses, params.request_state)
        try:
            outcome = await _or_ask(backend, host.call_tool(params.name, params.arguments, backend, _session_of(ctx)))
        except UnknownName as exc:
            raise MCPError(INVALID_PARAMS, str(exc), data={"code": "UNKNOWN_TOOL", "tool": params.name}) from None
        if isinstance(outcome, InputRequiredResult):
            return outcome
        return CallToolResult(
            content=[TextContent(type="text", text=outcome.text)],
            structured_content=outcome.structured,
            is_error=outcome.is_error,
            _meta=outcome.meta,
        )

    handlers: dict[str, Any] = {"on_list_tools": list_tools, "on_call_tool": call_tool}

    if registry.prompts:
        prompts = [
            Prompt(
                name=p.name,
                title=p.title,
                description=p.description,
                arguments=[PromptArgument(name=n, description=d, required=r) for n, d, r in p.arguments],
            )
            for p in registry.prompts.values()
        ]

        async def list_prompts(ctx: RequestContext, params: PaginatedRequestParams | None) -> ListPromptsResult:
            return ListPromptsResult(prompts=prompts)

        async def get_prompt(ctx: RequestContext, params: GetPromptRequestParams) -> GetPromptResult | InputRequiredResult:
            backend = _RequestBackend(ctx, params.input_responses, params.request_state)
            with _protocol_errors(params.name):
                rendered = await _or_ask(backend, host.get_prompt(params.name, params.arguments, backend,
                                                                  _session_of(ctx)))
            if isinstance(rendered, InputRequiredResult):
                return rendered
            prompt, messages = rendered
            return GetPromptResult(
                description=prompt.description,
                messages=[McpPromptMessage(role=m.role, content=TextContent(type="text", text=m.text)) for m in messages],
            )

        handlers |= {"on_list_prompts": list_prompts, "on_get_prompt": get_prompt}

    if registry.resources or registry.resource_templates:
        resources = [
            Resource(uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type)
            for r in registry.resources.values()
        ]
        templates = [
            ResourceTemplate(uri_template=r.uri, name=r.name, title=r.title, description=r.description,
                             mime_type=r.mime_type)
            for r in registry.resource_templates
        ]

        async def list_resources(ctx: RequestContext, params: PaginatedRequestParams | None) -> ListResourcesResult:
            return ListResourcesResult(resources=resources)

        async def list_templates(ctx: RequestContext, params: PaginatedRequestParams | None) -> ListResourceTemplatesResult:
            return ListResourceTemplatesResult(resource_templates=templates)

        async def read_resource(ctx: RequestContext,
                                params: ReadResourceRequestParams) -> ReadResourceResult | InputRequiredResult:
            backend = _RequestBackend(ctx, params.input_responses, params.request_state)
            with _protocol_errors(params.uri):
                read = await _or_ask(backend, host.read_resource(params.uri, backend, _session_of(ctx)))
            if isinstance(read, InputRequiredResult):
                return read
            content, mime_type = read
            if isinstance(content, bytes):
                blob = base64.b64encode(content).decode("ascii")
                return ReadResourceResult(contents=[BlobResourceContents(uri=params.uri, mime_type=mime_type, blob=blob)])
            return ReadResourceResult(contents=[TextResourceContents(uri=params.uri, mime_type=mime_type, text=content)])

        handlers |= {
            "on_list_resources": list_resources,
            "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource,
        }

    @contextlib.asynccontextmanager
    async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        async with host.running():
            yield {"session": _Session()}

    return Server(
        name,
        version=__version__,
        instructions=_instructions(host),
        lifespan=lifespan,
        get_tool_input_schema=lambda tool: t.input_schema if (t := registry.tools.get(tool)) else None,
        **handlers,
    )


async def _or_ask(backend: _RequestBackend, call: Awaitable[T]) -> T | InputRequiredResult:
    """Await `call`; when a pack's `ctx.sample()` needs an answer the client has not given yet
    (2026-07-28), answer InputRequiredResult instead. The request may surface inside an exception
    group when the pack sampled from a task group of its own."""
    try:
        return await call
    except BaseException as exc:
        need = _needs_input_in(exc)
        if need is None:
            raise
        return InputRequiredResult(input_requests={need.key: need.request}, request_state=_state_from(backend.answers))


def _needs_input_in(exc: BaseException) -> _NeedsInput | None:
    if isinstance(exc, _NeedsInput):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            if (found := _needs_input_in(inner)) is not None:
                return found
    return None


@contextlib.contextmanager
def _protocol_errors(subject: str) -> Any:
    """Prompts and resources have no error results: failures become JSON-RPC errors, without exception text."""
    try:
        yield
    except UnknownName as exc:
        raise MCPError(INVALID_PARAMS, str(exc), data={"uri": subject} if "://" in subject else None) from None
    except (Refused, ToolError) as exc:  # messages written for the client
        raise MCPError(INVALID_PARAMS, str(exc)) from None
    except MCPError:
        raise
    except Exception:
        logger.error("handler.crashed", extra={"subject": subject}, exc_info=True)
        raise MCPError(INTERNAL_ERROR, f"{subject} failed unexpectedly; the server log has the details") from None


def _instructions(host: Host) -> str:
    packs = ", ".join(r.name for r in host.packs.loaded()) or "none"
    return f"Parlance localization tools. Packs loaded: {packs}."
