"""What the pack registers: the tools' signatures, with the engine loaded on the first call.

Registering a tool needs only its models (for `tools/list`); the catalog, ICU compiler and CLDR
data in `tools` load when a client first uses the pack, not while `parlance serve` starts.
"""

from __future__ import annotations

from typing import Any

from parlance import ArgumentProblem, ToolContext, ToolError, ToolResult

from parlance_i18n.tools.models import (
    AddMessagesInput,
    AddMessagesOutput,
    CheckInput,
    CheckOutput,
    DeleteKeysInput,
    ListLocalesOutput,
    MissingInput,
    MissingOutput,
    NoInput,
    RenameKeyInput,
    SetMessagesInput,
    StatusInput,
    StatusOutput,
    TranslateInput,
    TranslateMissingInput,
    TranslateMissingOutput,
    TranslateOutput,
    WriteOutput,
)


_engine: Any = None
_loop_engine: Any = None


def _tools() -> Any:
    global _engine
    if _engine is None:  # a module global read, not an import statement, on every later call
        from parlance_i18n.tools import engine as tools

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


def _loop() -> Any:
    global _loop_engine
    if _loop_engine is None:
        from parlance_i18n.tools import loop as loop_tools

        _loop_engine = loop_tools
    return _loop_engine


async def status(args: StatusInput, ctx: ToolContext) -> StatusOutput:
    """Per catalog and locale of the project's files: total, translated, missing, untranslated (still the
    source text), fuzzy/needs-review, invalid, stale (the source changed since) and coverage. Summary by
    default; details: true lists the keys."""
    return await _loop().status(args, ctx)  # type: ignore[no-any-return]


async def missing(args: MissingInput, ctx: ToolContext) -> ToolResult[MissingOutput]:
    """A page of what to translate into a locale: each key's source text, placeholders to keep, the plural
    categories the locale needs, comments, glossary terms and similar translations; plus, as the text, a
    ready prompt whose JSON answer i18n_set_messages takes. Page on with next_cursor."""
    return await _loop().missing(args, ctx)  # type: ignore[no-any-return]


async def set_messages(args: SetMessagesInput, ctx: ToolContext) -> WriteOutput:
    """Write translations into the project's catalog files. Each message is validated first (the format's
    syntax, the source's placeholders, every plural category, glossary terms, length): refused ones never
    reach a file, valid ones are written, one atomic replace per file. Answers per key and a unified diff."""
    return await _loop().set_messages(args, ctx)  # type: ignore[no-any-return]


async def rename_key(args: RenameKeyInput, ctx: ToolContext) -> WriteOutput:
    """Rename a key in every locale of a catalog (refused where the new key exists); dry_run shows the diff."""
    return await _loop().rename_key(args, ctx)  # type: ignore[no-any-return]


async def delete_keys(args: DeleteKeysInput, ctx: ToolContext) -> WriteOutput:
    """Delete keys in every locale of a catalog; dry_run shows the diff."""
    return await _loop().delete_keys(args, ctx)  # type: ignore[no-any-return]


async def translate_missing(args: TranslateMissingInput, ctx: ToolContext) -> ToolResult[TranslateMissingOutput]:
    """Translate what is missing in a locale with your model (MCP sampling) and write what validates. Without
    sampling, answers the work items and the prompt instead: translate them and call i18n_set_messages."""
    return await _loop().translate_missing(args, ctx)  # type: ignore[no-any-return]


async def read_locales(ctx: ToolContext) -> dict[str, Any]:
    return await _tools().read_locales(ctx)


async def read_bundle(ctx: ToolContext, locale: str) -> dict[str, Any] | None:
    return await _tools().read_bundle(ctx, locale)


async def complete_locale(value: str, arguments: dict[str, str], ctx: ToolContext) -> list[str]:
    return await _tools().complete_locale(value, arguments, ctx)


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
