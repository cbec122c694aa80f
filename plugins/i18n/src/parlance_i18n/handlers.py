"""What the pack registers: the tools' signatures, with the engine loaded on the first call.

Registering a tool needs only its models (for `tools/list`); the catalog, ICU compiler and CLDR
data in `tools` load when a client first uses the pack, not while `parlance serve` starts.
"""

from __future__ import annotations

from typing import Any

from parlance import ArgumentProblem, ToolContext, ToolError

from parlance_i18n.models import (
    AddMessagesInput,
    AddMessagesOutput,
    CheckInput,
    CheckOutput,
    ListLocalesOutput,
    NoInput,
    TranslateInput,
    TranslateOutput,
)


_engine: Any = None


def _tools() -> Any:
    global _engine
    if _engine is None:  # a module global read, not an import statement, on every later call
        from parlance_i18n import tools

        _engine = tools
    return _engine


async def translate(args: TranslateInput, ctx: ToolContext) -> TranslateOutput:
    """Translate a message key into a locale, with fallback (exact, language, default locale, raw key)
    and ICU MessageFormat arguments: {name}, plural, select, selectordinal, number."""
    return await _tools().translate(args, ctx)


async def add_messages(args: AddMessagesInput, ctx: ToolContext) -> AddMessagesOutput:
    """Register a locale's messages for this session, replacing its bundle (or merging with merge: true).
    Values are ICU MessageFormat strings; nested objects are flattened with dots."""
    return await _tools().add_messages(args, ctx)


async def list_locales(args: NoInput, ctx: ToolContext) -> ListLocalesOutput:
    """List the locales with message bundles in this session, with counts, scripts and coverage."""
    return await _tools().list_locales(args, ctx)


async def check(args: CheckInput, ctx: ToolContext) -> CheckOutput:
    """Check bundles against the default locale: coverage, missing and extra keys, argument
    mismatches, and plural arguments missing CLDR categories the locale needs."""
    return await _tools().check(args, ctx)


async def read_locales(ctx: ToolContext) -> dict[str, Any]:
    return await _tools().read_locales(ctx)


async def read_bundle(ctx: ToolContext, locale: str) -> dict[str, Any] | None:
    return await _tools().read_bundle(ctx, locale)


# Argument problems need no engine: a bad locale is answered without loading the catalog.


def on_invalid_translate(problems: list[ArgumentProblem]) -> ToolError | None:
    for problem in problems:
        if problem.field == "locale":
            return ToolError("INVALID_LOCALE", f"locale: {problem.message}; use a code such as 'en-US'")
    return None


def on_invalid_add_messages(problems: list[ArgumentProblem]) -> ToolError | None:
    for problem in problems:
        top = problem.field.split(".", 1)[0]
        if top == "locale":
            return ToolError("INVALID_LOCALE", f"locale: {problem.message}; use a code such as 'de' or 'pt_BR'")
        if top == "messages":
            return ToolError(
                "INVALID_MESSAGES",
                f"messages: {problem.message}; pass an object mapping message keys to strings",
                {"field": problem.field},
            )
    return None
