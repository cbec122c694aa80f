"""What packs offer: tool, prompt and resource definitions, and the `register` callbacks that make them.

A pack's `register(...)` calls are staged per pack and committed only when all of the pack's hooks
succeeded, so a pack that fails halfway leaves nothing behind. Committing is where name collisions
between packs are caught.

A pack's `prefix` is prepended to each name it registers, unless the name already starts with it
(`prefix = "wordcount_"` keeps `wordcount_count` as it is). `[tools] disabled` names a tool as
served, as its pack registered it, or as `pack:tool` for one pack's tool only.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from parlance.errors import PackError, ToolNameCollision
from parlance.schemas import admit_error_envelope, input_schema_for, output_schema_for
from parlance.types import ArgumentProblem, Complete, InvalidArgumentsMapper, ToolResult

__all__ = ["PromptDefinition", "Registry", "ResourceDefinition", "Staging", "ToolDefinition"]

_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$")  # MCP tool-name guidance: 1-128 safe chars
_URI_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

Completer = Callable[[str, dict[str, str], Any], Awaitable[list[str]]]
"""A pack's completion callback as the host calls it: (value, arguments, ctx)."""


@dataclass(frozen=True)
class ToolDefinition:
    name: str
    """The name clients see (the pack's prefix, if any, plus the registered name)."""
    pack: str
    handler: Callable[..., Awaitable[Any]]
    input_model: type[BaseModel]
    output_model: type[BaseModel] | None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    title: str | None
    description: str | None
    hints: dict[str, bool]
    on_invalid_arguments: InvalidArgumentsMapper | None
    takes_context: bool
    content_only: bool = False
    """Annotated `-> ToolResult[None]`: no output schema, results carry content blocks only."""
    schema_check: Callable[[dict[str, Any]], list[ArgumentProblem]] | None = None
    """For a tool registered with an explicit `input_schema` other than its model's own: the
    arguments' problems under that schema, which clients were told and which may say more than the
    handler's model (`anyOf`, `if`/`then`)."""


@dataclass(frozen=True)
class PromptDefinition:
    name: str
    pack: str
    handler: Callable[..., Awaitable[Any]]
    args_model: type[BaseModel]
    title: str | None
    description: str | None
    arguments: tuple[tuple[str, str | None, bool], ...]
    """(name, description, required) per argument, from the args model's fields."""
    complete: dict[str, Completer] = field(default_factory=dict)
    """Completion callbacks by argument name."""
    takes_context: bool = True


@dataclass(frozen=True)
class ResourceDefinition:
    uri: str
    name: str
    pack: str
    handler: Callable[..., Awaitable[Any]]
    title: str | None
    description: str | None
    mime_type: str
    params: tuple[str, ...]
    pattern: re.Pattern[str] | None
    """For templates (`{x}` in the uri): matches a concrete uri and captures the parameters."""
    complete: dict[str, Completer] = field(default_factory=dict)
    """Completion callbacks by template parameter."""

    @property
    def is_template(self) -> bool:
        return bool(self.params)


@dataclass
class Staging:
    """One pack's registrations, held until all of its hooks have run."""

    pack: str
    prefix: str = ""
    disabled_tools: frozenset[str] = frozenset()
    shared_state: bool = False
    """Whether the server has a shared state engine (`[state] url`): tools registered with
    `needs_shared_state=True` are served only then."""
    tools: list[ToolDefinition] = field(default_factory=list)
    prompts: list[PromptDefinition] = field(default_factory=list)
    resources: list[ResourceDefinition] = field(default_factory=list)
    skipped_tools: list[str] = field(default_factory=list)
    disabled_matched: set[str] = field(default_factory=set)
    """The `[tools] disabled` entries that named one of this pack's tools."""
    tool_names: list[str] = field(default_factory=list)
    """Every tool name this pack registered, as served (disabled ones included)."""

    def exposed(self, name: str) -> str:
        """The name clients see: the prefix plus `name`, or `name` when it already carries the prefix."""
        return name if self.prefix and name.startswith(self.prefix) else f"{self.prefix}{name}"

    def _is_disabled(self, name: str, exposed: str) -> bool:
        hits = {name, exposed, f"{self.pack}:{name}", f"{self.pack}:{exposed}"} & self.disabled_tools
        self.disabled_matched |= hits
        return bool(hits)

    # --- the callbacks handed to the pack ---------------------------------------------------------

    def register_tool(
        self,
        handler: Callable[..., Awaitable[Any]],
        *,
        name: str,
        title: str | None = None,
        description: str | None = None,
        read_only: bool | None = None,
        idempotent: bool | None = None,
        destructive: bool | None = None,
        open_world: bool | None = None,
        input_schema: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        on_invalid_arguments: InvalidArgumentsMapper | None = None,
        needs_shared_state: bool = False,
    ) -> None:
        exposed = self.exposed(name)
        self._check_name("tool", name, exposed, [t.name for t in self.tools])
        self.tool_names.append(exposed)
        if needs_shared_state and not self.shared_state:  # a write log exists only with [state] url
            return
        if self._is_disabled(name, exposed):
            self.skipped_tools.append(exposed)
            return
        input_model, output_model, takes_context = _tool_signature(handler, name)
        content_only = output_model is None and output_schema is None and _returns_content_only(handler)
        if output_model is None and output_schema is None and not content_only:
            raise PackError(
                f"tool {name!r}: the handler's return annotation must be a pydantic model, ToolResult[Model] "
                f"or ToolResult[None] (or pass output_schema=...), got {_return_annotation(handler)!r}"
            )
        hints = {
            key: value
            for key, value in (
                ("readOnlyHint", read_only),
                ("idempotentHint", idempotent),
                ("destructiveHint", destructive),
                ("openWorldHint", open_world),
            )
            if value is not None
        }
        self.tools.append(
            ToolDefinition(
                name=exposed,
                pack=self.pack,
                handler=handler,
                input_model=input_model,
                output_model=output_model,
                input_schema=input_schema or input_schema_for(input_model),
                output_schema=None if content_only else admit_error_envelope(
                    output_schema or output_schema_for(output_model)),  # type: ignore[arg-type]
                title=title,
                description=description or inspect.getdoc(handler),
                hints=hints,
                on_invalid_arguments=on_invalid_arguments,
                takes_context=takes_context,
                content_only=content_only,
                schema_check=_LazySchemaCheck(input_schema, input_model, exposed) if input_schema else None,
            )
        )

    def register_prompt(
        self,
        handler: Callable[..., Awaitable[Any]],
        *,
        name: str,
        title: str | None = None,
        description: str | None = None,
        complete: dict[str, Complete] | None = None,
    ) -> None:
        exposed = self.exposed(name)
        self._check_name("prompt", name, exposed, [p.name for p in self.prompts])
        args_model, _, takes_context = _tool_signature(handler, name)
        arguments = tuple(
            (field_name, info.description, info.is_required()) for field_name, info in args_model.model_fields.items()
        )
        completers = _completers(f"prompt {name!r}", complete, [a[0] for a in arguments], "argument")
        self.prompts.append(PromptDefinition(exposed, self.pack, handler, args_model, title, description, arguments,
                                             completers, takes_context))

    def register_resource(
        self,
        handler: Callable[..., Awaitable[Any]],
        *,
        uri: str,
        name: str,
        title: str | None = None,
        description: str | None = None,
        mime_type: str = "application/json",
        complete: dict[str, Complete] | None = None,
    ) -> None:
        if "://" not in uri:
            raise PackError(f"resource {name!r}: uri {uri!r} needs a scheme, e.g. '{self.pack}://{uri}'")
        params = tuple(_URI_PARAM.findall(uri))
        _check_resource_handler(handler, uri, params)
        pattern = None
        if params:
            parts = _URI_PARAM.split(uri)  # literal, param, literal, param, ..., literal
            regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts))
            pattern = re.compile(f"^{regex}$")
        if any(r.uri == uri for r in self.resources):
            raise PackError(f"resource uri {uri!r} is registered twice by pack {self.pack!r}")
        completers = _completers(f"resource {uri!r}", complete, list(params), "uri parameter")
        self.resources.append(
            ResourceDefinition(uri, name, self.pack, handler, title, description, mime_type, params, pattern,
                               completers)
        )

    def _check_name(self, kind: str, name: str, exposed: str, taken: list[str]) -> None:
        if not _NAME.match(exposed):
            raise PackError(
                f"{kind} name {exposed!r} is not allowed: use 1-128 letters, digits, '_', '-' or '.'"
            )
        if exposed in taken:
            raise PackError(f"{kind} {name!r} is registered twice by pack {self.pack!r}")


class Registry:
    """Everything the server serves, by name. Built once at startup."""

    def __init__(self) -> None:
        self.tools: dict[str, ToolDefinition] = {}
        self.prompts: dict[str, PromptDefinition] = {}
        self.resources: dict[str, ResourceDefinition] = {}
        self.resource_templates: list[ResourceDefinition] = []
        self._prefixed: set[str] = set()  # packs that have a prefix: suggesting one to them would not help

    def collisions(self, staging: Staging) -> list[ToolNameCollision]:
        """Each tool of `staging` whose name a committed pack already serves."""
        prefixed = self._prefixed | ({staging.pack} if staging.prefix else set())
        return [ToolNameCollision(tool.name, self.tools[tool.name].pack, staging.pack, prefixed=prefixed)
                for tool in staging.tools if tool.name in self.tools]

    def commit(self, staging: Staging) -> None:
        """Adopt a pack's registrations; raise ToolNameCollision before changing anything."""
        if collisions := self.collisions(staging):
            raise collisions[0]
        for prompt in staging.prompts:
            if prompt.name in self.prompts:
                raise PackError(
                    f"prompt {prompt.name!r} is registered by both pack {self.prompts[prompt.name].pack!r} and pack "
                    f"{staging.pack!r}. Fix: disable one pack, or set [packs.{staging.pack}] prefix"
                )
        for resource in staging.resources:
            first = self.resources.get(resource.uri) or next(
                (t for t in self.resource_templates if t.uri == resource.uri), None)
            if first is not None:
                raise PackError(
                    f"resource {resource.uri!r} is registered by both pack {first.pack!r} and pack {staging.pack!r}. "
                    f"Fix: disable one of the two packs ([packs] disabled = [\"{staging.pack}\"])"
                )
        if staging.prefix:
            self._prefixed.add(staging.pack)
        self.tools.update((t.name, t) for t in staging.tools)
        self.prompts.update((p.name, p) for p in staging.prompts)
        for resource in staging.resources:
            if resource.is_template:
                self.resource_templates.append(resource)
            else:
                self.resources[resource.uri] = resource

    def find_resource(self, uri: str) -> tuple[ResourceDefinition, dict[str, str]] | None:
        if uri in self.resources:
            return self.resources[uri], {}
        for template in self.resource_templates:
            assert template.pattern is not None
            match = template.pattern.match(uri)
            if match:
                return template, match.groupdict()
        return None


def _tool_signature(handler: Callable[..., Any], name: str) -> tuple[type[BaseModel], type[BaseModel] | None, bool]:
    """(input model, output model or None, whether the handler takes ctx) from the annotations."""
    if not inspect.iscoroutinefunction(handler):
        raise PackError(f"{name!r}: the handler must be an `async def` function, got {handler!r}")
    params = list(inspect.signature(handler).parameters.values())
    try:
        hints = _resolved_hints(handler, [params[0].name, "return"] if params else ["return"])
    except Exception as exc:  # unresolvable forward reference in the pack's annotations
        raise PackError(f"{name!r}: cannot read the handler's type annotations ({exc})") from None
    if not params or not _is_model(hints.get(params[0].name)):
        raise PackError(
            f"{name!r}: the handler's first parameter must be annotated with a pydantic model "
            f"(async def handler(args: MyInput, ctx) -> MyOutput)"
        )
    if len(params) > 2:
        raise PackError(f"{name!r}: the handler takes (args) or (args, ctx), not {len(params)} parameters")
    returned = hints.get("return")
    if typing.get_origin(returned) is ToolResult:
        returned = (typing.get_args(returned) or (None,))[0]
    return hints[params[0].name], returned if _is_model(returned) else None, len(params) == 2


def _check_resource_handler(handler: Callable[..., Any], uri: str, params: tuple[str, ...]) -> None:
    """A resource handler is `async def handler(ctx, **params)`: async, and taking every `{param}`."""
    if not inspect.iscoroutinefunction(handler):
        raise PackError(f"resource {uri!r}: the handler must be an `async def` function, got {handler!r}")
    parameters = inspect.signature(handler).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    missing = [name for name in params if name not in parameters]
    if missing:
        raise PackError(f"resource {uri!r}: the handler takes no parameter {missing[0]!r}, which the uri names "
                        f"(async def handler(ctx, {', '.join(params)}))")


class _LazySchemaCheck:
    """The check of a pack's explicit input schema, built on the tool's first call rather than at
    startup (generating the model's own schema to compare, and importing jsonschema, cost startup
    time every server pays). Checked only where the schema says more than the model, which checks first."""

    def __init__(self, schema: dict[str, Any], model: type[BaseModel], name: str) -> None:
        self._schema, self._model, self._name = schema, model, name
        self._check: Callable[[dict[str, Any]], list[ArgumentProblem]] | None = None
        self._decided = False

    def __call__(self, arguments: dict[str, Any]) -> list[ArgumentProblem]:
        if not self._decided:
            if self._schema != input_schema_for(self._model):
                self._check = _schema_check(self._schema, self._name)
            self._decided = True
        return self._check(arguments) if self._check is not None else []


def _schema_check(schema: dict[str, Any], name: str) -> Callable[[dict[str, Any]], list[ArgumentProblem]]:
    """A check of arguments against a pack's own JSON Schema (2020-12 unless it says otherwise).

    The problems name where and which rule, never the value (which is the user's text). jsonschema
    is imported only by packs that give their own schemas.
    """
    import jsonschema  # type: ignore[import-untyped]

    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator_class.check_schema(schema)
    except jsonschema.SchemaError as exc:  # a pack bug: the tool's calls answer INTERNAL, the reason is logged
        raise TypeError(f"tool {name!r}: input_schema is not a valid JSON Schema: {exc.message}") from None
    validator = validator_class(schema)

    def check(arguments: dict[str, Any]) -> list[ArgumentProblem]:
        return [_schema_problem(error) for error in sorted(validator.iter_errors(arguments),
                                                           key=lambda e: list(e.absolute_path))]

    return check


def _schema_problem(error: Any) -> ArgumentProblem:
    """One jsonschema error as an argument problem: the field it concerns (for a missing or an
    unexpected property, that property's name) and the rule, never the value."""
    path = [str(p) for p in error.absolute_path]
    instance = error.instance if isinstance(error.instance, dict) else {}
    named: list[str] = []
    if error.validator == "required":
        named = [name for name in error.validator_value if name not in instance]
    elif error.validator == "additionalProperties":
        named = [name for name in instance if name not in error.schema.get("properties", {})]
    field_path = ".".join(path + named[:1])
    rule = f"breaks the input schema's {error.validator!r} rule"
    if error.validator == "required" and named:
        rule = "is required by the input schema" + (f" (its {error.schema_path[0]!r} rule)"
                                                     if len(error.schema_path) > 1 else "")
    elif error.validator == "additionalProperties" and named:
        rule = "is not a property the input schema allows"
    elif not field_path and len(error.schema_path) > 1:
        rule += f" (at {error.schema_path[0]!r})"
    return ArgumentProblem(field=field_path, kind=f"schema_{error.validator}", message=rule)


def _completers(subject: str, complete: dict[str, Complete] | None, names: list[str],
                kind: str) -> dict[str, Completer]:
    """The completion callbacks, checked (each names one of the subject's arguments, is `async def`
    and takes (value, arguments) or (value, arguments, ctx)) and all called as the latter."""
    completers: dict[str, Completer] = {}
    for key, callback in (complete or {}).items():
        if key not in names:
            raise PackError(f"{subject}: complete= names {kind} {key!r}, which it does not have "
                            f"(it has: {', '.join(names) or 'none'})")
        if not inspect.iscoroutinefunction(callback):
            raise PackError(f"{subject}: the completion for {key!r} must be an `async def` function")
        arity = len(inspect.signature(callback).parameters)
        if arity not in (2, 3):
            raise PackError(f"{subject}: the completion for {key!r} takes (value, arguments) or (value, arguments, "
                            "ctx)")
        completers[key] = callback if arity == 3 else _without_context(callback)
    return completers


def _without_context(callback: Complete) -> Completer:
    async def complete(value: str, arguments: dict[str, str], ctx: Any) -> list[str]:
        return await callback(value, arguments)

    return complete


def _returns_content_only(handler: Callable[..., Any]) -> bool:
    """Annotated `-> ToolResult[None]` (or a bare `-> ToolResult`): a tool without structured output."""
    returned = _resolved_hints(handler, ["return"]).get("return")
    if returned is ToolResult:
        return True
    return typing.get_origin(returned) is ToolResult and typing.get_args(returned) in ((type(None),), (None,))


def _resolved_hints(handler: Callable[..., Any], names: list[str]) -> dict[str, Any]:
    """The annotations of the parameters `names` (and "return") as types, resolving only those.

    The rest are the pack's own business: `ctx: ToolContext[Settings, State]` may name a state
    type imported only for the type checker (`if TYPE_CHECKING:`), which could not be resolved here.
    """
    target = inspect.unwrap(handler)
    wanted = {key: value for key, value in getattr(target, "__annotations__", {}).items() if key in names}
    return typing.get_type_hints(types.SimpleNamespace(__annotations__=wanted),
                                 globalns=getattr(target, "__globals__", None))


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _return_annotation(handler: Callable[..., Any]) -> Any:
    return inspect.signature(handler).return_annotation
