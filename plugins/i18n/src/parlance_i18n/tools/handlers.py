"""What the pack registers: the tools' signatures, with the engine loaded on the first call.

Registering a tool needs only its models (for `tools/list`); the catalog, ICU compiler and CLDR
data behind `engine` and `loop` load when a client first uses the pack, not while `parlance serve`
starts. Until then each name holds a stand-in that loads its module on first use and puts the module
in its place, so a later call costs one global read, and the type checker reads the real modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from parlance import ArgumentProblem, ToolError, ToolResult
from parlance_i18n.tools.code_models import (
    ExtractInput,
    ExtractOutput,
    HardcodedInput,
    HardcodedOutput,
    UsageInput,
    UsageOutput,
)
from parlance_i18n.tools.context import I18nContext
from parlance_i18n.tools.models import (
    AddMessagesInput,
    AddMessagesOutput,
    CheckInput,
    CheckOutput,
    DeleteKeysInput,
    HistoryInput,
    HistoryOutput,
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


class _OnFirstUse:
    """A stand-in for an engine module: the first attribute read imports it and puts it in its place."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        module = importlib.import_module(f"parlance_i18n.tools.{self._name}")
        globals()[self._name] = module
        return getattr(module, attribute)


if TYPE_CHECKING:
    from parlance_i18n.tools import code, engine, history, loop
else:
    engine, loop, code = _OnFirstUse("engine"), _OnFirstUse("loop"), _OnFirstUse("code")
    history = _OnFirstUse("history")


async def translate(args: TranslateInput, ctx: I18nContext) -> ToolResult[TranslateOutput]:
    """Translate a message key into a locale, with fallback (exact, language, default locale, raw key)
    and ICU MessageFormat arguments: {name}, plural, select, selectordinal, number."""
    return await engine.translate(args, ctx)


async def add_messages(args: AddMessagesInput, ctx: I18nContext) -> AddMessagesOutput:
    """Register a locale's messages for this session, replacing its bundle (or merging with merge: true).
    Values are ICU MessageFormat strings; nested objects are flattened with dots."""
    return await engine.add_messages(args, ctx)


async def list_locales(args: NoInput, ctx: I18nContext) -> ListLocalesOutput:
    """List the locales with message bundles in this session, with counts, scripts and coverage."""
    return await engine.list_locales(args, ctx)


async def check(args: CheckInput, ctx: I18nContext) -> CheckOutput:
    """Check bundles against the default locale: coverage, missing and extra keys, argument
    mismatches, and plural arguments missing CLDR categories the locale needs."""
    return await engine.check(args, ctx)


async def status(args: StatusInput, ctx: I18nContext) -> StatusOutput:
    """Per catalog and locale of the project's files: total, translated, missing, untranslated (still the
    source text), fuzzy/needs-review, invalid, stale (the source changed since) and coverage. Summary by
    default; details: true lists the keys."""
    if ctx.settings is not None and ctx.settings.sources:  # the code's counts too: the scanner loads only then
        return await code.status(args, ctx)
    return await loop.status(args, ctx)


async def missing(args: MissingInput, ctx: I18nContext) -> ToolResult[MissingOutput]:
    """A page of what to translate into a locale: each key's source text, placeholders to keep, the plural
    categories the locale needs, comments, glossary terms and similar translations; plus, as the text, a
    ready prompt whose JSON answer i18n_set_messages takes. Page on with next_cursor."""
    return await loop.missing(args, ctx)


async def set_messages(args: SetMessagesInput, ctx: I18nContext) -> WriteOutput:
    """Write translations into the project's catalog files. Each message is validated first (the format's
    syntax, the source's placeholders, every plural category, glossary terms, length): refused ones never
    reach a file, valid ones are written, one atomic replace per file. Answers per key and a unified diff."""
    return await loop.set_messages(args, ctx)


async def rename_key(args: RenameKeyInput, ctx: I18nContext) -> WriteOutput:
    """Rename a key in every locale of a catalog (refused where the new key exists); dry_run shows the diff."""
    return await loop.rename_key(args, ctx)


async def delete_keys(args: DeleteKeysInput, ctx: I18nContext) -> WriteOutput:
    """Delete keys in every locale of a catalog; dry_run shows the diff."""
    return await loop.delete_keys(args, ctx)


async def translate_missing(args: TranslateMissingInput, ctx: I18nContext) -> ToolResult[TranslateMissingOutput]:
    """Translate what is missing in a locale with your model (MCP sampling) and write what validates. Without
    sampling, answers the work items and the prompt instead: translate them and call i18n_set_messages."""
    return await loop.translate_missing(args, ctx)


async def write_history(args: HistoryInput, ctx: I18nContext) -> HistoryOutput:
    """Who wrote what, newest first: each write call applied to the project's files, by any replica, with
    its time, the token's subject and client, the tool, catalog, locale, keys, each file's SHA-256 before
    and after, and the counts written and refused (never a message's text). Filter by key, locale or
    catalog; page on with next_cursor."""
    return await history.history(args, ctx)


async def usage(args: UsageInput, ctx: I18nContext) -> UsageOutput:
    """Which of a catalog's keys the source code calls (with where), which nothing calls (`unused`: pass them
    to i18n_delete_keys as they are), which the code calls but the catalog lacks (`undefined`), and the
    calls whose key is built at run time (`dynamic`, with the static prefix that keeps the keys it may reach
    out of `unused`). Read with each framework's parser, as its own extractor reads the code. Paged."""
    return await code.usage(args, ctx)


async def hardcoded(args: HardcodedInput, ctx: I18nContext) -> HardcodedOutput:
    """User-visible strings in the source code that do not go through the i18n API (JSX text and labels,
    SwiftUI Text(verbatim:), Android layouts' android:text, template text outside translate tags, ...), each
    with its place and a suggested key in the project's key style. Paged."""
    return await code.hardcoded(args, ctx)


async def extract(args: ExtractInput, ctx: I18nContext) -> ExtractOutput:
    """Replace one hard-coded string (file, line, column as i18n_hardcoded gives them) with the framework's own
    call of a new key, and add the source message to the catalog: both written atomically, answered as diffs.
    Refused, with the reason, where the call needs what the file lacks (no `t` in scope). dry_run shows both."""
    return await code.extract(args, ctx)


async def read_locales(ctx: I18nContext) -> dict[str, Any]:
    return await engine.read_locales(ctx)


async def read_bundle(ctx: I18nContext, locale: str) -> dict[str, Any] | None:
    return await engine.read_bundle(ctx, locale)


async def complete_locale(value: str, arguments: dict[str, str], ctx: I18nContext) -> list[str]:
    return await engine.complete_locale(value, arguments, ctx)


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
