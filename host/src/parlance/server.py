"""The MCP side of the host: where packs' plain values become MCP messages.

Builds a low-level `mcp.server.Server` whose handlers translate between MCP types and the host's
plain ones (`Host.call_tool` and friends). Each call's `ctx` is backed by a
`parlance.request_backend.RequestBackend`: progress, log messages, client facts, and questions to
the client (sampling, elicitation, roots) in both protocol eras. (`parlance.notifications` keeps
the per-connection state behind logs and subscriptions.) On 2026-07-28 a question the client
lacks the capability for is the protocol error -32021, naming the capability.

Results go to the SDK as plain dicts in wire form: the SDK validates every result against the
negotiated version's schema anyway, so building pydantic models first would validate it twice.
"""

from __future__ import annotations

import base64
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp import MCPError
from mcp.server import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolRequestParams,
    CompleteRequestParams,
    CompleteResult,
    Completion,
    EmptyResult,
    GetPromptRequestParams,
    InputRequiredResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    PromptReference,
    ReadResourceRequestParams,
    Resource,
    ResourceTemplate,
    ServerCapabilities,
    SetLevelRequestParams,
    SubscribeRequestParams,
    Tool,
    ToolAnnotations,
    UnsubscribeRequestParams,
)
from mcp.types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from parlance import __version__
from parlance.content import Audio, Content, EmbeddedResource, Image, ResourceLink, Text
from parlance.errors import ElicitationUnavailable, Refused, SamplingUnavailable, ToolError, UnknownName
from parlance.host import Host
from parlance.notifications import Notifier
from parlance.questions import answer_or_ask
from parlance.request_backend import RequestBackend, RequestContext, Session, connection_of, session_of
from parlance.types import PromptMessage

__all__ = ["build_server"]

logger = logging.getLogger(__name__)


def _complete(ctx: RequestContext, result: dict[str, Any], *, cacheable: bool = False) -> dict[str, Any]:
    """A final result in wire form. 2026-07-28 requires it to say so (`resultType`) and, for a
    cacheable result, for how long and for whom it may be cached: not at all (`ttlMs` 0), and
    only by this client. Those are the defaults the SDK's own models would have filled in."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        result["resultType"] = "complete"
        if cacheable:
            result.setdefault("ttlMs", 0)
            result.setdefault("cacheScope", "private")
    return result


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _wire_content(block: Content) -> dict[str, Any]:
    """A content block as the protocol spells it (camelCase keys, base64 data, no empty fields)."""
    if isinstance(block, Text):
        return {"type": "text", "text": block.text}
    if isinstance(block, (Image, Audio)):
        return {"type": "image" if isinstance(block, Image) else "audio", "data": _b64(block.data),
                "mimeType": block.mime_type}
    if isinstance(block, EmbeddedResource):
        contents: dict[str, Any] = {"uri": block.uri}
        if block.mime_type is not None:
            contents["mimeType"] = block.mime_type
        if block.text is not None:
            contents["text"] = block.text
        else:
            contents["blob"] = _b64(block.data or b"")
        return {"type": "resource", "resource": contents}
    if isinstance(block, ResourceLink):
        link = {"type": "resource_link", "uri": block.uri, "name": block.name, "title": block.title,
                "description": block.description, "mimeType": block.mime_type}
        return {key: value for key, value in link.items() if value is not None}
    raise TypeError(f"not a content block: {type(block).__name__} (use parlance.content's Text, Image, Audio, "
                    "EmbeddedResource or ResourceLink)")


def _wire_prompt_message(message: PromptMessage) -> dict[str, Any]:
    content = message.content if message.content is not None else Text(message.text)
    return {"role": message.role, "content": _wire_content(content)}


class _Server(Server[Any]):
    """The SDK's low-level server, declaring exactly the change notifications Parlance sends: the
    resource list and resource updates, never the tool or prompt lists (fixed while it runs).

    `end_subscriptions()` ends every 2026-07-28 subscription stream gracefully (each gets its final
    result); the transports call it when serving begins to end, so those streams hold no exit.

    (The SDK takes list-change capabilities only as an argument to `create_initialization_options`,
    which its HTTP transport calls without one; on 2026-07-28 it claims every list can change as
    soon as `subscriptions/listen` is served.)
    """

    end_subscriptions: Callable[[], None] = staticmethod(lambda: None)

    def create_initialization_options(self, notification_options: NotificationOptions | None = None,
                                      experimental_capabilities: dict[str, dict[str, Any]] | None = None,
                                      extensions: dict[str, dict[str, Any]] | None = None) -> InitializationOptions:
        announces = "resources/subscribe" in self._request_handlers  # not served where nothing can be announced
        options = notification_options or NotificationOptions(resources_changed=announces)
        return super().create_initialization_options(options, experimental_capabilities, extensions)

    def get_capabilities(self, notification_options: NotificationOptions | None = None,
                         experimental_capabilities: dict[str, dict[str, Any]] | None = None,
                         extensions: dict[str, dict[str, Any]] | None = None, *,
                         protocol_version: str | None = None) -> ServerCapabilities:
        capabilities = super().get_capabilities(notification_options, experimental_capabilities, extensions,
                                                protocol_version=protocol_version)
        for fixed in (capabilities.tools, capabilities.prompts):
            if fixed is not None:
                fixed.list_changed = False
        return capabilities


def build_server(host: Host, *, name: str = "parlance", stateless_http: bool = False) -> Server[Any]:
    """An MCP server for `host`. Entering its lifespan enters every pack's lifespan.

    `stateless_http`: it will be served over HTTP without sessions (`[host] stateless_http`), so no
    state outlives a request and nothing can be sent outside one (no subscriptions or list changes).
    """
    registry = host.registry
    notifier = Notifier()
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

    async def call_tool(ctx: RequestContext, params: CallToolRequestParams) -> dict[str, Any] | InputRequiredResult:
        backend = RequestBackend(ctx, notifier, params.input_responses, params.request_state)
        try:
            outcome = await answer_or_ask(backend.questions,
                                          host.call_tool(params.name, params.arguments, backend, session_of(ctx)))
        except UnknownName as exc:
            raise MCPError(INVALID_PARAMS, str(exc), data={"code": "UNKNOWN_TOOL", "tool": params.name}) from None
        if isinstance(outcome, InputRequiredResult):
            return outcome
        if outcome.is_error and outcome.structured and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            if (missing := _capability_error(outcome.structured.get("code"), outcome.text)) is not None:
                raise missing
        content = ([_wire_content(block) for block in outcome.content] if outcome.content is not None
                   else [{"type": "text", "text": outcome.text}])
        result: dict[str, Any] = {"content": content, "isError": outcome.is_error}
        if outcome.structured is not None:
            result["structuredContent"] = outcome.structured
        if outcome.meta is not None:
            result["_meta"] = outcome.meta
        return _complete(ctx, result)

    async def complete(ctx: RequestContext, params: CompleteRequestParams) -> CompleteResult:
        ref = params.ref.name if isinstance(params.ref, PromptReference) else params.ref.uri
        given = (params.context.arguments if params.context is not None else None) or {}
        backend = RequestBackend(ctx, notifier, may_ask=False)
        with _protocol_errors(ref, ctx):
            values = await host.complete(ref, params.argument.name, params.argument.value, given, backend,
                                         session_of(ctx))
        # The protocol allows at most 100 values per answer; `total` and `hasMore` say what was left out.
        return CompleteResult(completion=Completion(values=values[:100], total=len(values),
                                                    has_more=len(values) > 100))

    async def set_log_level(ctx: RequestContext, params: SetLevelRequestParams) -> EmptyResult:
        notifier.set_log_level(connection_of(ctx), params.level)
        return EmptyResult()

    handlers: dict[str, Any] = {"on_list_tools": list_tools, "on_call_tool": call_tool}
    if any(p.complete for p in registry.prompts.values()) or any(t.complete for t in registry.resource_templates):
        handlers["on_completion"] = complete

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

        async def get_prompt(ctx: RequestContext,
                             params: GetPromptRequestParams) -> dict[str, Any] | InputRequiredResult:
            backend = RequestBackend(ctx, notifier, params.input_responses, params.request_state)
            with _protocol_errors(params.name, ctx):
                rendered = await answer_or_ask(backend.questions, host.get_prompt(params.name, params.arguments,
                                                                                  backend, session_of(ctx)))
                if isinstance(rendered, InputRequiredResult):
                    return rendered
                prompt, messages = rendered
                result: dict[str, Any] = {"messages": [_wire_prompt_message(m) for m in messages]}
            if prompt.description is not None:
                result["description"] = prompt.description
            return _complete(ctx, result)

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
            notifier.listening(connection_of(ctx))
            return ListResourcesResult(resources=resources)

        async def list_templates(ctx: RequestContext, params: PaginatedRequestParams | None) -> ListResourceTemplatesResult:
            notifier.listening(connection_of(ctx))
            return ListResourceTemplatesResult(resource_templates=templates)

        async def read_resource(ctx: RequestContext,
                                params: ReadResourceRequestParams) -> dict[str, Any] | InputRequiredResult:
            backend = RequestBackend(ctx, notifier, params.input_responses, params.request_state)
            with _protocol_errors(params.uri, ctx):
                read = await answer_or_ask(backend.questions,
                                           host.read_resource(params.uri, backend, session_of(ctx)))
            if isinstance(read, InputRequiredResult):
                return read
            content, mime_type = read
            contents: dict[str, Any] = {"uri": params.uri, "mimeType": mime_type}
            if isinstance(content, bytes):
                contents["blob"] = _b64(content)
            else:
                contents["text"] = content
            return _complete(ctx, {"contents": [contents]}, cacheable=True)

        async def subscribe(ctx: RequestContext, params: SubscribeRequestParams) -> EmptyResult:
            if registry.find_resource(params.uri) is None:
                raise MCPError(INVALID_PARAMS, f"Unknown resource: {params.uri}", data={"uri": params.uri})
            notifier.subscribe(connection_of(ctx), params.uri)
            return EmptyResult()

        async def unsubscribe(ctx: RequestContext, params: UnsubscribeRequestParams) -> EmptyResult:
            notifier.unsubscribe(connection_of(ctx), params.uri)
            return EmptyResult()

        handlers |= {
            "on_list_resources": list_resources,
            "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource,
        }
        if not stateless_http:  # without a session, nothing can reach a client outside its own request
            handlers |= {"on_subscribe_resource": subscribe, "on_unsubscribe_resource": unsubscribe,
                         "on_subscriptions_listen": notifier.listen}

    @contextlib.asynccontextmanager
    async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        host.announce.attach(notifier)
        try:
            async with host.running():
                yield {"session": Session(), "stateless": stateless_http}
        finally:
            host.announce.attach(None)
            notifier.listen.close()

    server = _Server(
        name,
        version=__version__,
        instructions=_instructions(host),
        lifespan=lifespan,
        get_tool_input_schema=lambda tool: t.input_schema if (t := registry.tools.get(tool)) else None,
        **handlers,
    )
    # Registered after construction: passing it to the constructor warns that logging is deprecated
    # (SEP-2577) on every start, though handshake-era clients still use it.
    server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_log_level)
    # 2026-07-28 hands `requestState` to the client and back: seal it, so a tampered or foreign state
    # is refused (-32602) before any handler reads it. Embedded, the key lives as long as the process:
    # a question asked before a restart is asked again.
    # With a shared engine ([state] url) the keys are the database's, so a state sealed by one replica
    # opens on another (`parlance._state.request_keys`).
    codec = host.state.request_state_codec()
    security = RequestStateSecurity(codec=codec) if codec is not None else RequestStateSecurity.ephemeral()
    server.middleware.append(RequestStateBoundary(security, default_audience=name))
    server.middleware.insert(0, _NoExceptionText())  # outermost: it also covers the SDK's shaping of results
    server.end_subscriptions = notifier.listen.close
    _drop_idle_tracing(server)
    return server


def _drop_idle_tracing(server: Server[Any]) -> None:
    """Remove the SDK's OpenTelemetry middleware when no tracer provider is configured.

    The SDK installs it on every server; without an OpenTelemetry SDK it records nothing, yet it
    costs every request a span's worth of work (about 5% of a call's server CPU, measured with
    bench/per_call.py). With a provider set before the server is built (`opentelemetry-instrument
    parlance serve`, or code that calls `set_tracer_provider`), it stays.
    """
    from mcp.server._otel import OpenTelemetryMiddleware
    from opentelemetry import trace

    if isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        server.middleware = [m for m in server.middleware if not isinstance(m, OpenTelemetryMiddleware)]


_CAPABILITY_OF_CODE = {SamplingUnavailable().code: "sampling", ElicitationUnavailable().code: "elicitation"}


def _capability_error(code: object, message: str) -> MCPError | None:
    """2026-07-28: a request that needed a client capability it did not declare is the protocol
    error -32021 (HTTP 400), naming the capability, rather than a tool result or another error."""
    capability = _CAPABILITY_OF_CODE.get(code) if isinstance(code, str) else None
    if capability is None:
        return None
    return MCPError(MISSING_REQUIRED_CLIENT_CAPABILITY, message, data={"requiredCapabilities": {capability: {}}})


@contextlib.contextmanager
def _protocol_errors(subject: str, ctx: RequestContext) -> Any:
    """Prompts, resources and completions have no error results: failures become JSON-RPC errors,
    without exception text."""
    try:
        yield
    except UnknownName as exc:
        raise MCPError(INVALID_PARAMS, str(exc), data={"uri": subject} if "://" in subject else None) from None
    except (SamplingUnavailable, ElicitationUnavailable) as exc:
        missing = _capability_error(exc.code, str(exc)) if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS else None
        raise (missing or MCPError(INVALID_PARAMS, str(exc))) from None
    except (Refused, ToolError) as exc:  # messages written for the client
        raise MCPError(INVALID_PARAMS, str(exc)) from None
    except MCPError:
        raise
    except Exception:
        logger.error("handler.crashed", extra={"subject": subject}, exc_info=True)
        raise MCPError(INTERNAL_ERROR, f"{subject} failed unexpectedly; the server log has the details") from None


class _NoExceptionText:
    """Server middleware: whatever escapes a handler or the SDK's shaping of its result becomes a
    generic internal error, in every era.

    Without it the SDK answers a handshake-era client with the exception's own text (`code 0`),
    which may quote a user's data or a secret. Protocol errors (`MCPError`), invalid parameters
    (pydantic's `ValidationError`, which the SDK answers -32602 without its text) and cancellation pass.
    """

    async def __call__(self, ctx: RequestContext, call_next: Any) -> Any:
        try:
            return await call_next(ctx)
        except (MCPError, ValidationError):  # the SDK answers invalid params itself, without pydantic's text
            raise
        except Exception:
            logger.error("request.crashed", extra={"method": ctx.method}, exc_info=True)
            raise MCPError(INTERNAL_ERROR, "Internal error; the server log has the details") from None


def _instructions(host: Host) -> str:
    packs = ", ".join(r.name for r in host.packs.loaded()) or "none"
    return f"Parlance localization tools. Packs loaded: {packs}."
