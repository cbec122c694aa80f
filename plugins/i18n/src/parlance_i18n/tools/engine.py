"""The engine behind `handlers`: the tools' and resources' work, loaded on the first call.

Handlers are thin: they fetch the session's `Translator`, call the domain, and hand its results and
errors to `tools/wire.py`, which turns them into the tools' models and `ToolError`s with the same
code. Argument problems pydantic finds in `locale` become INVALID_LOCALE and those in `messages`
INVALID_MESSAGES, as the seed specifies (the mappers are in `handlers`, which the pack registers;
this module never imports it back).

`i18n_add_messages` refuses what cannot succeed before it compiles anything: without a session
(SESSION_STATE_UNAVAILABLE) before reading the messages, and over the per-bundle or per-session
limits (INVALID_MESSAGES, SESSION_BUDGET_EXCEEDED) from their count and size. Its work, in
proportion to the request, runs in a worker thread a step at a time, so the event loop goes on
serving other sessions; one add at a time per session keeps the budget check true until install.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio

from parlance import ToolError, ToolResult
from parlance_i18n.errors import I18nError, NoBundlesLoaded
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.bundles import BundleBuilder
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.checks import catalog_problems, check_locales, summarize_locales
from parlance_i18n.model.reports import LocaleReport
from parlance_i18n.model.translator import Translator
from parlance_i18n.tools.context import I18nContext
from parlance_i18n.tools.models import (
    AddMessagesInput,
    AddMessagesOutput,
    CheckInput,
    CheckOutput,
    ListLocalesOutput,
    NoInput,
    TranslateInput,
    TranslateOutput,
)
from parlance_i18n.tools.pages import page_of
from parlance_i18n.tools.wire import (
    bundle_view,
    domain_errors,
    domain_or_argument_errors,
    invalid_message,
    locale_report,
    skipped_message,
)

__all__ = [
    "add_messages",
    "check",
    "check_all",
    "list_locales",
    "read_bundle",
    "read_locales",
    "translate",
]

META_KEY = "parlance/i18n"
"""The `_meta` key of what i18n_translate adds when a message in the project's files was skipped."""
PROGRESS_THRESHOLD = 1000
"""Bundles larger than this report progress while they compile (one notification per step)."""
PROGRESS_STEP = 1000

# --- tools ---------------------------------------------------------------------------------------------


async def translate(args: TranslateInput, ctx: I18nContext) -> ToolResult[TranslateOutput]:
    translator = session_translator(ctx)
    with domain_errors:
        if not translator.ready(args.locale):  # a project locale's files are read on first use: off the loop
            await anyio.to_thread.run_sync(translator.prepare, args.locale)
        found = translator.translate(args.key, args.locale, args.variables)
    output = TranslateOutput(translation=found.translation, locale=found.locale, fallback=found.fallback)
    if found.fallback and translator.catalog.project is not None:
        skipped = translator.skipped(args.key, args.locale)  # the route's locales are read: dict lookups
        if skipped:  # the locale's file has the key, but not a usable message: say why it fell back
            root = translator.catalog.project.root
            return ToolResult(output, meta={META_KEY: {"skipped": [skipped_message(p, root) for p in skipped]}})
    return ToolResult(output)


async def add_messages(args: AddMessagesInput, ctx: I18nContext) -> AddMessagesOutput:
    with domain_errors:
        code = parse_locale(args.locale).code
    if not ctx.session_persists:  # before reading a single message: the call cannot succeed
        raise ToolError(
            "SESSION_STATE_UNAVAILABLE",
            "this connection keeps no state between calls (MCP 2026-07-28 over HTTP, or `parlance call`), so "
            f"the {code} bundle would be gone before your next call. Load bundles at startup instead: "
            "[packs.i18n] bundle_dirs, or a language pack's messages/ folder.",
            {"locale": code},
        )
    translator = session_translator(ctx)
    # One add at a time per session, so what `admit` checked still holds when the bundle is installed.
    async with ctx.session_state.setdefault("adding", anyio.Lock()):
        with domain_errors:
            # Flattening, the limits and compiling are all in proportion to the request: off the event
            # loop, so other sessions are served meanwhile. The limits come first: a bundle that could
            # not be kept is refused before it is compiled.
            builder = await anyio.to_thread.run_sync(_admitted, translator, args.locale, args.messages, args.merge)
            steps = builder.steps(PROGRESS_STEP)
            while (done := await anyio.to_thread.run_sync(next, steps, None)) is not None:
                if builder.total > PROGRESS_THRESHOLD:
                    await ctx.report_progress(done, builder.total, f"compiled {done} of {builder.total} messages")
            bundle = translator.install(builder.build(), merge=args.merge)
    return AddMessagesOutput(locale=bundle.code, message_count=len(bundle.messages))


async def list_locales(args: NoInput, ctx: I18nContext) -> ListLocalesOutput:
    # Counting a project locale's messages reads its files: off the event loop.
    return await anyio.to_thread.run_sync(_locales_listing, session_translator(ctx))


async def check(args: CheckInput, ctx: I18nContext) -> CheckOutput:
    translator = session_translator(ctx)
    with domain_errors:
        codes = [parse_locale(args.locale).code] if args.locale is not None else None
        if not translator.bundles:
            raise NoBundlesLoaded("no message bundles are loaded, so there is nothing to check")
    # Reading every message's arguments compiles those kept as text: off the event loop too, telling
    # the client after each locale (a project's check takes seconds).
    def checked(done: int, total: int, code: str) -> None:
        anyio.from_thread.run(ctx.report_progress, done, total, f"checked {code} ({done} of {total})")

    with domain_or_argument_errors:  # an unknown catalog, a cursor this check did not give out: sentences
        reference, reports = await anyio.to_thread.run_sync(check_all, translator, codes, args.catalog, args.limit,
                                                            checked)
        project = translator.catalog.project
        root = project.root if project is not None else ctx.settings.root if ctx.settings is not None else None
        shown = [locale_report(report, root, details=args.details) for report in reports]
        page, next_cursor = page_of(shown, args.cursor, (args.locale, args.catalog, args.details, args.limit))
    return CheckOutput(default_locale=translator.default_locale.code, reference_locale=reference, locales=page,
                       catalog_problems=[invalid_message(problem, root) for problem in catalog_problems(translator)],
                       next_cursor=next_cursor)


def check_all(translator: Translator, codes: list[str] | None, catalog: str | None, limit: int,
              checked: Callable[[int, int, str], None] | None = None) -> tuple[str | None, list[LocaleReport]]:
    """(reference locale, reports): a project's locales each catalog apart, with i18n_status's counts
    (`loop/check.py`); the locales of bundles alone (bundle_dirs, i18n_add_messages) as a whole against
    the source locale's bundle (`model/checks.py`). Blocking work: run it off the event loop."""
    # The loop's modules load when a check needs them, not with the seed's tools.
    from parlance_i18n.loop.check import check_project
    from parlance_i18n.loop.status import UnknownCatalog
    from parlance_i18n.model.project import ProjectLocale

    translator.catalog.refresh_project()  # files created, deleted or replaced since the last call
    project = translator.catalog.project
    source = project.locales.get(project.source_tag.code) if project is not None else None
    if project is not None and source is None and project.carries_sources():
        source = ProjectLocale(project.source_tag, [])  # gettext's msgids, XLIFF's <source>: as i18n_status reads them
    if project is None or source is None:
        if catalog is not None:
            known = [entry.label for entry in project.sources] if project is not None else []
            raise UnknownCatalog(f"there is no catalog named {catalog!r} to check; the project's catalogs are: "
                                 f"{', '.join(known) or 'none'}", {"catalog": catalog, "catalogs": known})
        return check_locales(translator, codes, limit, checked)
    chosen = codes if codes is not None else sorted(set(translator.bundles) | set(project.locales))
    targets = [project.locales[code] for code in chosen if code in project.locales]
    for target in (source, *targets):  # what an editor or git changed since it was read
        if target.changed_on_disk():
            target.reload()
    reports = check_project(project, source, targets, catalog=catalog, limit=limit, checked=checked)
    others = [code for code in chosen if code not in project.locales]
    if others and catalog is None:
        reports += check_locales(translator, others, limit)[1]
    return source.tag.code, reports


# --- resources -----------------------------------------------------------------------------------------


async def read_locales(ctx: I18nContext) -> dict[str, Any]:
    """i18n://locales: what i18n_list_locales returns."""
    return _locales_listing(session_translator(ctx)).model_dump(mode="json")


async def complete_locale(value: str, arguments: dict[str, str], ctx: I18nContext) -> list[str]:
    """Completion for i18n://bundles/{locale}: the session's locales that start with what was typed
    (case-insensitive, `_` read as `-`)."""
    typed = value.replace("_", "-").lower()
    return sorted(code for code in session_translator(ctx).bundles if code.lower().startswith(typed))


async def read_bundle(ctx: I18nContext, locale: str) -> dict[str, Any] | None:
    """i18n://bundles/{locale}: a bundle's message sources; None (not found) for an unknown locale."""
    try:
        code = parse_locale(locale).code
    except I18nError:
        return None
    bundle = session_translator(ctx).bundles.get(code)
    if bundle is None:
        return None
    return await anyio.to_thread.run_sync(bundle_view, code, bundle)  # a project locale reads its files


# --- helpers -------------------------------------------------------------------------------------------


def session_translator(ctx: I18nContext) -> Translator:
    """This session's translator, created over the shared catalog on first use."""
    translator: Translator | None = ctx.session_state.get("translator")
    if translator is None:
        catalog: Catalog = ctx.state
        translator = ctx.session_state["translator"] = Translator(catalog)
    return translator


def _admitted(translator: Translator, locale: str, messages: object, merge: bool) -> BundleBuilder:
    builder = translator.builder(locale, messages)
    translator.admit(builder, merge=merge)
    return builder


def _locales_listing(translator: Translator) -> ListLocalesOutput:
    summaries = summarize_locales(translator)
    return ListLocalesOutput(locales=summaries, default_locale=translator.default_locale.code, total=len(summaries))
