"""The hooks a pack implements, grouped by when the host calls them.

A pack is a module (or any object) whose functions are marked with `parlance.hookimpl`. Every hook
is optional. The host calls each hook once per pack, so the callbacks it passes (`register`) know
which pack is speaking. Hooks only grow: new arguments are opt-in (an implementation names only the
arguments it wants), and removals wait for a major version of the host API. A `@hookimpl` whose name
matches no hook below (a misspelling: `parlance_register_tool`), or that asks for an argument its
hook does not pass, fails its pack with the reason (and a did-you-mean) in `parlance packs`; mark it
`@hookimpl(optionalhook=True)` to implement a hook that only some hosts have.

Packs state the host API they were written against with a module attribute
`PARLANCE_HOST_API = "1.1"`; a different major, or a newer minor than the host provides, makes the
pack "incompatible": it is skipped and reported, never imported into a crash. A pack whose prompt
templates or word lists language packs may override states their major version with
`PARLANCE_LANGUAGE_PACK_VERSION = "1"` (language packs declare `[compat] <pack> = "1"`).
"""

from __future__ import annotations

from collections.abc import Awaitable
from contextlib import AbstractAsyncContextManager
from typing import Any

import pluggy
from pydantic import BaseModel

from parlance.context import Announcements
from parlance.language_packs import LanguagePacks
from parlance.types import RegisterCommand, RegisterDemo, RegisterPrompt, RegisterResource, RegisterTool
from parlance.writes import SharedWrite

PROJECT = "parlance"

HOST_API = "1.2"
"""The pack API version this host provides. Packs declare `PARLANCE_HOST_API = "1.2"` (1.1 added mixed
content, `ctx.log`, `ctx.elicit`, `ctx.list_roots`, completions and announcements to 1.0; 1.2 added
`ctx.principal`, `ctx.write()`, `ctx.history()`, `needs_shared_state` and `parlance_shared_write`)."""

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class PackSpec:
    """Hook specifications for packs (entry-point group `parlance.packs`)."""

    # --- declaration: read before anything is registered -------------------------------------------

    @hookspec(firstresult=True)
    def parlance_declare_settings(self) -> type[BaseModel] | None:
        """Return the pydantic model that validates this pack's `[packs.<name>]` table.

        The host validates the table (after resolving `${env:NAME}` references) and hands the
        instance to the other hooks as `settings` and to tools as `ctx.settings`. The keys `prefix`
        and `enabled` belong to the host and are removed before validation. Without this hook the
        pack's table must be empty apart from those keys.
        """

    # --- registration: what the pack offers over MCP ------------------------------------------------

    @hookspec
    def parlance_register_tools(self, register: RegisterTool, settings: Any, language_packs: LanguagePacks) -> None:
        """Register tools by calling `register(handler, name=..., ...)` once per tool.

        `handler` is `async def handler(args: InModel, ctx: ToolContext) -> OutModel` (or
        `ToolResult[OutModel]`); the host derives the MCP schemas from the annotations, validates
        arguments, and shapes results and errors.
        """

    @hookspec
    def parlance_register_prompts(self, register: RegisterPrompt, settings: Any, language_packs: LanguagePacks) -> None:
        """Register MCP prompts: `register(handler, name=..., ...)` with
        `async def handler(args: ArgsModel, ctx) -> str | list[PromptMessage]`."""

    @hookspec
    def parlance_register_resources(self, register: RegisterResource, settings: Any,
                                    language_packs: LanguagePacks) -> None:
        """Register MCP resources: `register(handler, uri=..., name=...)` with
        `async def handler(ctx, **uri_params) -> str | bytes | dict | list | None`. A `uri` that
        contains `{name}` placeholders is a resource template; returning None means "not found"."""

    # --- lifecycle ---------------------------------------------------------------------------------

    @hookspec
    def parlance_lifespan(self, settings: Any, language_packs: LanguagePacks,
                          announce: Announcements) -> AbstractAsyncContextManager[Any] | None:
        """Return an async context manager for state that lives as long as the server (e.g. one HTTP
        client). It is entered the first time a client uses the pack (a tool call, prompt or resource
        read; `tools/list` never waits for it) and exited when the server stops. What it yields is
        `ctx.state` in tools. If entering it raises, the pack's calls answer PACK_UNAVAILABLE.

        `language_packs` (also on every registration hook and as `ctx.language_packs`) lists the
        language packs usable by this pack: loaded, and written for its `PARLANCE_LANGUAGE_PACK_VERSION`.
        `announce` (also `ctx.announce`) tells clients a resource or a list changed, for changes the
        pack notices outside any call. Like every hook argument, take it only if you need it.
        """

    @hookspec
    def parlance_shared_write(self, state: Any, change: SharedWrite) -> Awaitable[None] | None:
        """Another replica applied a write of this pack (`ctx.write()` with `[state] url`): `change.files`
        names the files it changed, as the pack named them. Refresh what `state` (what the pack's
        lifespan yielded) holds of them; the host then announces `change.resources` to subscribers.
        Called only once the pack's lifespan runs in this process; may return an awaitable."""

    # --- command line ------------------------------------------------------------------------------

    @hookspec
    def parlance_register_commands(self, register: RegisterCommand) -> None:
        """Add `parlance <name> ...` subcommands: `register(name, help=..., configure=..., run=...)`."""

    @hookspec
    def parlance_setup_hints(self, settings: Any) -> list[str] | None:
        """Return lines that say what the pack would serve with other settings, for `parlance packs`
        and `parlance tools` to print under it: tools it registers only when a setting asks (e.g.
        "[[packs.i18n.catalogs]] adds i18n_status ..."), given the settings it runs with. Plain text,
        one line each; None or an empty list says nothing. A hook that raises is left out silently:
        a hint must never break a listing.
        """

    @hookspec
    def parlance_register_demo(self, register: RegisterDemo) -> None:
        """Contribute a section to `parlance demo`: `register(title=..., steps=[DemoStep(...)], setup=...)`.

        `setup`, when given, is called before the server starts and returns a context manager that
        yields settings for this pack's `[packs.<name>]` table (e.g. the address of a local service it
        started); it is exited when the demo ends. Steps run in order through a real MCP client.
        """


__all__ = ["HOST_API", "PROJECT", "PackSpec", "hookimpl", "hookspec"]
