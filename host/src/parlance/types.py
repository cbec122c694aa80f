"""Small value types and callback signatures shared by the host and packs.

Nothing here imports `mcp`: packs build on these and survive SDK changes.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeAlias, TypeVar

from parlance.content import Content

if TYPE_CHECKING:
    from parlance.errors import ToolError

OutT = TypeVar("OutT")


@dataclass(frozen=True)
class ToolResult(Generic[OutT]):
    """What a tool returns when it needs more than its output model.

    `value` becomes `structuredContent`; `text`, when given, replaces the JSON text block that is
    otherwise derived from `value`; `content`, when given, replaces the content blocks altogether
    (text, images, audio, embedded or linked resources: `parlance.content`); `meta` goes to the
    result's `_meta` (for data that is not part of the tool's output contract, such as a rendered
    prompt or the template a result was built from).

    A tool annotated `-> ToolResult[None]` has no output schema: it returns `content` only and its
    results carry no `structuredContent`.
    """

    value: OutT | None = None
    text: str | None = None
    meta: dict[str, Any] | None = None
    content: tuple[Content, ...] | list[Content] | None = None


@dataclass(frozen=True)
class ArgumentProblem:
    """One reason a tool's arguments failed validation.

    `field` is the dotted path of the offending argument ("" for the arguments object itself),
    `kind` the pydantic error type (`missing`, `string_too_short`, `string_too_long`, `enum`,
    `literal_error`, `too_long`, `dict_type`, `extra_forbidden`, ...), `message` a sentence.
    """

    field: str
    kind: str
    message: str


InvalidArgumentsMapper = Callable[[list[ArgumentProblem]], "ToolError | None"]
"""Maps validation problems to a pack's own error (e.g. `TEXT_REQUIRED`); None keeps INVALID_ARGUMENTS."""


@dataclass(frozen=True)
class PromptMessage:
    """One message of a rendered MCP prompt: `text`, or another content block (an image, an embedded
    resource, ...) given as `content`."""

    role: Literal["user", "assistant"]
    text: str = ""
    content: Content | None = None


@dataclass(frozen=True)
class SamplingMessage:
    """One message sent to the client's model through `ctx.sample()`."""

    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True)
class Sampled:
    """The client's model's answer to `ctx.sample()`: its text and what the client reported."""

    text: str
    model: str
    stop_reason: str | None = None


@dataclass(frozen=True)
class Root:
    """A folder or file the client lets servers work in (MCP roots), e.g. the user's open project."""

    uri: str
    name: str | None = None


@dataclass(frozen=True)
class Elicited:
    """The user's answer to `ctx.elicit()`: `action` is "accept", "decline" or "cancel"; `content`
    holds the submitted values (checked against the requested schema) when the action is "accept"."""

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, str | int | float | bool | list[str] | None] | None = None

    @property
    def accepted(self) -> bool:
        return self.action == "accept"


Complete: TypeAlias = Callable[..., Awaitable[list[str]]]
"""A completion callback: `async def complete(value, arguments) -> list[str]`, or
`async def complete(value, arguments, ctx)` when it needs the pack's state. It gets what the user
has typed so far for one argument and the other arguments already filled in, and returns
suggestions (best first; the host sends at most 100 and says whether there were more)."""


@dataclass(frozen=True)
class ClientInfo:
    """The client's self-description (from `initialize` or the 2026-07-28 request envelope)."""

    name: str
    version: str | None = None


@dataclass(frozen=True)
class Principal:
    """Who a request acts for, from its OAuth access token (`ctx.principal`; None without `[auth]`).

    `subject` is the token's `sub` (the user, or the client itself in a client-credentials grant;
    unique per issuer), `client_id` the OAuth client the user authorised (the agent), `scopes` what the
    token grants. The token itself never reaches a pack.
    """

    subject: str | None
    client_id: str | None
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Command:
    """A `parlance` subcommand contributed by a pack."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int | None]
    pack: str = field(default="", compare=False)


@dataclass(frozen=True)
class DemoStep:
    """One call in `parlance demo`: what it shows, the tool, its arguments, and what to expect.

    `show_meta` is a dotted path into the result's `_meta` whose text the transcript excerpts (e.g.
    a rendered prompt); `show_result` one into its structured content whose text it shows (e.g. a
    diff); `expect_error` marks a step that demonstrates an error result.
    """

    title: str
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    expect_error: bool = False
    show_meta: str | None = None
    show_result: str | None = None


class RegisterTool(Protocol):
    def __call__(
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
    ) -> None: ...


class RegisterPrompt(Protocol):
    def __call__(
        self,
        handler: Callable[..., Awaitable[Any]],
        *,
        name: str,
        title: str | None = None,
        description: str | None = None,
        complete: dict[str, Complete] | None = None,
    ) -> None: ...


class RegisterResource(Protocol):
    def __call__(
        self,
        handler: Callable[..., Awaitable[Any]],
        *,
        uri: str,
        name: str,
        title: str | None = None,
        description: str | None = None,
        mime_type: str = "application/json",
        complete: dict[str, Complete] | None = None,
    ) -> None: ...


class RegisterCommand(Protocol):
    def __call__(
        self,
        name: str,
        *,
        help: str,
        configure: Callable[[argparse.ArgumentParser], None],
        run: Callable[[argparse.Namespace], int | None],
    ) -> None: ...


class RegisterDemo(Protocol):
    def __call__(
        self,
        *,
        title: str,
        steps: list[DemoStep],
        setup: Callable[[], AbstractContextManager[dict[str, Any]]] | None = None,
    ) -> None: ...
