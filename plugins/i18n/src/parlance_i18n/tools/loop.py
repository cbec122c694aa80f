"""The localization loop's tools: what is missing, work items with a ready prompt, and validated writes
back into the project's catalog files. Loaded on the first call, like `tools`.

Nothing here keeps per-session state: every call reads the project's files (through the shared,
lazily read `ProjectLocale`s, reloaded when a file changed on disk), so the tools behave the same
over stdio, stateful HTTP and stateless 2026-07-28 HTTP. Blocking work (reading, validating,
writing files) runs in a worker thread.

Every write is logged as events (each file written, with its sizes; the call's counts of written,
unchanged and refused messages), never with a message text.

A write that is not a dry run goes through the host's coordinated write (`write_call`,
`tools.coordinated`): a retry with the call's `idempotency_key` is answered its first outcome; the
write is planned first, then every file the plan writes is locked (across replicas with `[state]
url`), then written (the edits replayed on what each file holds then), logged, committed with
`git_commit`, and the bundles it changed are announced.

A write is refused before any work when the call is larger than `[packs.i18n] max_write_messages`
or `max_write_chars` (INVALID_ARGUMENTS naming the setting), and when a file of a locale it reads
leads outside the project or is not a regular file (UNSAFE_PATH, `store.check_file`): planning reads
those files, so it must not start on one. The store checks every file again as it writes it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import anyio
from pydantic import BaseModel

from parlance import SamplingFailed, SamplingUnavailable, ToolError, ToolResult
from parlance_i18n.errors import I18nError
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.loop.glossary import Glossary, StyleNotes, load_glossary
from parlance_i18n.loop.lockfile import SourceLock
from parlance_i18n.loop.prompting import render_prompt
from parlance_i18n.loop.status import catalog_status, catalog_views
from parlance_i18n.loop.workitems import WorkItem, work_items
from parlance_i18n.loop.writes import WritePlan, apply, plan_delete_keys, plan_rename_key, plan_set_messages
from parlance_i18n.loop.writes.new_files import NewFiles
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.project import FileProblem, Project, ProjectLocale
from parlance_i18n.model.reports import InvalidMessage
from parlance_i18n.settings import I18nSettings
from parlance_i18n.store import check_file
from parlance_i18n.tools.context import I18nContext
from parlance_i18n.tools.coordinated import WriteCall, coordinated, earlier_outcome
from parlance_i18n.tools.models import (
    DeleteKeysInput,
    LocaleStatusReport,
    MissingInput,
    MissingOutput,
    RenameKeyInput,
    SetMessagesInput,
    StatusInput,
    StatusOutput,
    TranslateMissingInput,
    TranslateMissingOutput,
    WorkItemView,
    WriteOutput,
)
from parlance_i18n.tools.wire import domain_or_argument_errors, invalid_message, key_result, locale_status, work_item

__all__ = ["delete_keys", "missing", "project_of", "rename_key", "root_of", "set_messages", "settings_of", "source_of",
           "status", "translate_missing", "write_call", "write_source_message"]

logger = logging.getLogger(__name__)

OutputT = TypeVar("OutputT", bound=BaseModel)

META_KEY = "parlance/i18n"
_SAMPLE_MAX_TOKENS = 8192


# --- reading -------------------------------------------------------------------------------------------


async def status(args: StatusInput, ctx: I18nContext) -> StatusOutput:
    project = await project_of(ctx)
    root = root_of(ctx)
    # A catalog whose path matches no file (or a file of no known format) is the project's problem,
    # named by its pattern: said in every answer, and the whole answer when nothing else was found.
    problems = [invalid_message(_invalid(problem), root) for problem in project.problems]
    if not project.locales and problems:
        return StatusOutput(source_locale=project.source_tag.code, catalogs=[], catalog_problems=problems)
    with domain_or_argument_errors:
        locales = [_locale(project, args.locale)] if args.locale is not None else list(project.locales.values())
    source = source_of(project)
    lock = _lock(ctx, project)

    def build() -> list[LocaleStatusReport]:
        reports = []
        for target in locales:
            if target.tag == project.source_tag:
                continue
            _refresh(source, target)
            for found in catalog_status(project, source, target, lock, catalog=args.catalog, limit=args.limit):
                reports.append(locale_status(found, details=args.details, root=root))
        return reports

    with domain_or_argument_errors:  # an unknown catalog, a lock file that is not one: sentences, not crashes
        catalogs = await anyio.to_thread.run_sync(build)
    return StatusOutput(source_locale=project.source_tag.code, catalogs=catalogs, catalog_problems=problems)


async def missing(args: MissingInput, ctx: I18nContext) -> ToolResult[MissingOutput]:
    page = await _work_page(ctx, args.locale, args.catalog, args.limit, args.cursor)
    output = MissingOutput(locale=page.code, items=page.views, next_cursor=page.next_cursor)
    text = page.prompt or f"Nothing is missing in {page.code}" + (f" ({args.catalog})" if args.catalog else "") + "."
    return ToolResult(output, text=text, meta={META_KEY: {"prompt": page.prompt}})


@dataclasses.dataclass(frozen=True)
class _Page:
    project: Project
    target: ProjectLocale
    items: list[WorkItem]
    views: list[WorkItemView]
    next_cursor: str | None
    prompt: str

    @property
    def code(self) -> str:
        return self.target.tag.code


async def _work_page(ctx: I18nContext, locale: str, catalog: str | None, limit: int, cursor: str | None) -> _Page:
    """A page of work items for `locale`, read off the event loop, and the prompt that translates it."""
    project = await project_of(ctx)
    with domain_or_argument_errors:
        target = _locale(project, locale, create_hint=True)
    source = source_of(project)

    def build() -> tuple[list[WorkItem], str | None, StyleNotes]:
        glossary, notes = _glossary(ctx, target.tag)
        _refresh(source, target)
        items, next_cursor = work_items(source, target, glossary, catalog=catalog, limit=limit, cursor=cursor,
                                        lock=_lock(ctx, project))
        return items, next_cursor, notes

    with domain_or_argument_errors:  # a bad glossary file or cursor: a sentence naming it
        items, next_cursor, notes = await anyio.to_thread.run_sync(build)
    prompt = render_prompt(items, target.tag, notes, ctx.language_packs, source_tag=project.source_tag) if items else ""
    root = root_of(ctx)
    return _Page(project, target, items, [work_item(item, root) for item in items], next_cursor, prompt)


# --- writing -------------------------------------------------------------------------------------------


async def set_messages(args: SetMessagesInput, ctx: I18nContext) -> WriteOutput:
    return await write_call(ctx, args, WriteOutput, lambda call: _set_messages(args, ctx, call))


async def _set_messages(args: SetMessagesInput, ctx: I18nContext, call: WriteCall | None) -> WriteOutput:
    project = await project_of(ctx)
    with domain_or_argument_errors:
        if args.create_locale:  # a locale without files yet: planned with none, its files started by the plan
            tag = parse_locale(args.locale)
            target = project.locales.get(tag.code) or ProjectLocale(tag, [])
            if not target.files and not source_of(project).files:  # gettext's msgids, XLIFF's <source>s alone
                raise ToolError("NO_SOURCE_FILES", f"{tag.code} cannot be started here: the project has no file of the "
                                f"source locale {project.source_tag.code} for a new file to be made from (its sources "
                                "are in each translation's file): start the file with the format's own tool (gettext: "
                                f"msginit -i <template>.pot -l {tag.code}), then write again without create_locale",
                                {"locale": tag.code})
        else:
            target = _locale(project, args.locale, create_hint=True)
    return await _set(ctx, project, target, dict(args.messages), args.catalog, args.allow_new_keys, call,
                      create_locale=args.create_locale)


async def write_call(ctx: I18nContext, args: BaseModel, output: type[OutputT],
                     run: Callable[[WriteCall | None], Awaitable[OutputT]]) -> OutputT:
    """Run a write tool: `run(None)` for a dry run; else `run(call)` inside the host's coordinated write
    (`tools.coordinated`), a retry answered from the first outcome. A tool that fails once files are
    written (`i18n_extract`'s source file, after its catalog) logs and commits what it wrote, stores
    no outcome (its retry runs again), and fails."""
    if getattr(args, "dry_run", False):
        return await run(None)
    failed: ToolError | None = None
    async with coordinated(ctx, args, settings_of(ctx), root_of(ctx)) as call:
        if call.earlier is not None:
            return output.model_validate(call.earlier)
        try:
            return await call.finish(await run(call))
        except ToolError as exc:
            if not call.files:
                raise
            await call.finish_failed()
            failed = exc
    assert failed is not None  # the block returned otherwise
    raise failed


async def _set(ctx: I18nContext, project: Project, target: ProjectLocale, messages: dict[str, Any],
               catalog: str | None, allow_new_keys: bool, call: WriteCall | None, *,
               create_locale: bool = False) -> WriteOutput:
    settings = settings_of(ctx)
    _within_write_caps(settings, messages)
    limit = settings.max_message_chars
    too_long = sorted(key for key, value in messages.items()
                      if len(key) > limit or any(len(text) > limit for text in _texts(value)))
    if too_long:
        raise ToolError("INVALID_MESSAGES",
                        f"{len(too_long)} message(s) or key(s) are longer than {limit:,} characters "
                        "(setting [packs.i18n] max_message_chars); nothing was written",
                        {"keys": [key[:80] for key in too_long[:20]], "limit": limit})

    def plan() -> WritePlan:
        glossary, _ = _glossary(ctx, target.tag)
        new_files = NewFiles({source.label: source for source in project.sources}, project.source_tag, target.tag,
                             project.root) if create_locale else None
        return plan_set_messages(target, source_of(project), messages, catalog=catalog,
                                 allow_new_keys=allow_new_keys, glossary_check=glossary.missing_in,
                                 new_files=new_files)

    return await _write(ctx, project, call, plan, [target, source_of(project)], record=target)


async def write_source_message(ctx: I18nContext, project: Project, catalog: str, key: str, message: str,
                               call: WriteCall | None, *, domain: str | None = None) -> WriteOutput:
    """Add `key` with `message` to the catalog's source-locale files (i18n_extract's catalog half): a new
    key, validated and placed as every write is; with `domain`, in the file of that namespace. A dry
    run without `call`."""
    source = source_of(project)
    if domain is not None:
        source = ProjectLocale(source.tag, [f for f in source.files if f.catalog != catalog or f.domain == domain])
    return await _set(ctx, project, source, {key: message}, catalog, True, call)


def _texts(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value.values() if isinstance(v, str)]


def _within_write_caps(settings: I18nSettings, messages: dict[str, Any]) -> None:
    """Refuse a call larger than the settings allow, before any work (INVALID_ARGUMENTS naming the setting)."""
    if len(messages) > settings.max_write_messages:
        raise ToolError("INVALID_ARGUMENTS",
                        f"the call carries {len(messages):,} messages; one call takes at most "
                        f"{settings.max_write_messages:,} (setting [packs.i18n] max_write_messages): split it into "
                        "several calls; nothing was written", {"limit": settings.max_write_messages})
    chars = sum(len(key) + sum(len(text) for text in _texts(value)) for key, value in messages.items())
    if chars > settings.max_write_chars:
        raise ToolError("INVALID_ARGUMENTS",
                        f"the call's keys and messages hold {chars:,} characters; one call takes at most "
                        f"{settings.max_write_chars:,} (setting [packs.i18n] max_write_chars): split it into "
                        "several calls; nothing was written", {"limit": settings.max_write_chars})


async def rename_key(args: RenameKeyInput, ctx: I18nContext) -> WriteOutput:
    async def run(call: WriteCall | None) -> WriteOutput:
        project = await project_of(ctx)
        locales = list(project.locales.values())
        return await _write(ctx, project, call, lambda: plan_rename_key(locales, args.old, args.new,
                                                                        catalog=args.catalog),
                            locales, also_keys=[args.new])

    return await write_call(ctx, args, WriteOutput, run)


async def delete_keys(args: DeleteKeysInput, ctx: I18nContext) -> WriteOutput:
    async def run(call: WriteCall | None) -> WriteOutput:
        project = await project_of(ctx)
        locales = list(project.locales.values())
        return await _write(ctx, project, call, lambda: plan_delete_keys(locales, list(args.keys),
                                                                         catalog=args.catalog), locales)

    return await write_call(ctx, args, WriteOutput, run)


async def translate_missing(args: TranslateMissingInput, ctx: I18nContext) -> ToolResult[TranslateMissingOutput]:
    """Sampling when the client offers it; otherwise the work items and the prompt (never an error). A
    retry of a call that wrote (same `idempotency_key`) is answered before anything is sampled."""
    earlier = await earlier_outcome(ctx, args)
    if earlier is not None:
        return _sampled_result(TranslateMissingOutput.model_validate(earlier))
    page = await _work_page(ctx, args.locale, args.catalog, args.limit, None)
    code = page.code
    if not page.items:
        return ToolResult(TranslateMissingOutput(locale=code, mode="sampled"), text=f"Nothing is missing in {code}.")
    if not ctx.can_sample:
        return _work_items_result(page, "your client offers no sampling")
    try:  # before any side effect: on 2026-07-28 the host may run this call again with the answer
        sampled = await ctx.sample(page.prompt, max_tokens=_SAMPLE_MAX_TOKENS)
    except (SamplingUnavailable, SamplingFailed):
        return _work_items_result(page, "the client declined to sample")
    answer = _parse_answer(sampled.text, {item.key for item in page.items})
    if answer is None:
        return _work_items_result(page, "the model's answer was not the JSON object asked for")

    async def run(call: WriteCall | None) -> TranslateMissingOutput:
        written = await _set(ctx, page.project, page.target, answer, args.catalog, False, call)
        return TranslateMissingOutput(locale=code, mode="sampled", written=written.written,
                                      unchanged=written.unchanged, refused=written.refused, results=written.results,
                                      next_cursor=page.next_cursor, diff=written.diff, notes=written.notes)

    return _sampled_result(await write_call(ctx, args, TranslateMissingOutput, run))


def _sampled_result(output: TranslateMissingOutput) -> ToolResult[TranslateMissingOutput]:
    return ToolResult(output, text=f"{output.written} written, {output.refused} refused, "
                                   f"{output.unchanged} unchanged in {output.locale}.\n{output.diff}")


async def _write(ctx: I18nContext, project: Project, call: WriteCall | None, plan: Callable[[], WritePlan],
                 reads: list[ProjectLocale], record: ProjectLocale | None = None,
                 also_keys: Sequence[str] = ()) -> WriteOutput:
    """Plan (reading the files of the locales in `reads`); then, unless a dry run (no `call`), lock every
    file the plan writes and write them (`record`: the locale whose written keys' sources go into the
    lock file; `also_keys`: keys the write log names besides those written, a rename's new key)."""
    notes: list[str] = []

    def planned() -> WritePlan:
        for locale in reads:  # planning reads these files: none may lead outside, nor be a FIFO
            for file in locale.files:
                check_file(file.path, file.bounds)
        return plan()

    with domain_or_argument_errors:
        done = await anyio.to_thread.run_sync(planned)
    if call is not None:
        # The lock file whenever sources may be recorded: applying replays the plan on what the files hold then,
        # which may write keys the plan found unchanged.
        await call.lock(done.files, lock_file=_lock(ctx, project).path if record is not None else None)
        with domain_or_argument_errors:
            done = await anyio.to_thread.run_sync(_apply, ctx, project, done, record, call, notes)
    root = root_of(ctx)  # paths as the project's own: relative to parlance.toml's folder
    results = [key_result(outcome, root) for outcome in done.outcomes]
    counts = {status: sum(1 for r in results if r.status == status) for status in ("written", "unchanged", "refused")}
    if call is not None:
        logger.info("i18n.messages_written", extra=counts)
        # The keys that hold this call's values now: written, or already holding them (a retry of a call whose
        # replica died after writing the file, before its log row was committed, finds them unchanged).
        settled = [r.key for r in results if r.status in ("written", "unchanged")]
        _tell(call, project, done, record, counts, [*settled, *(also_keys if settled else ())])
    return WriteOutput(dry_run=call is None, written=counts["written"], unchanged=counts["unchanged"],
                       refused=counts["refused"], results=results, diff=done.diff(root), notes=notes)


def _apply(ctx: I18nContext, project: Project, planned: WritePlan, record: ProjectLocale | None, call: WriteCall,
           notes: list[str]) -> WritePlan:
    """Write the plan's files (under the call's locks), reload what read them, record the sources; each file
    written goes to `call` (blocking: in a worker thread)."""
    done = apply(planned)  # refuses a file that leads outside its catalog's folder, writing nothing
    for locale in project.locales.values():  # an .xcstrings file is every locale's
        if any(file.path in done.files for file in locale.files):
            locale.reload()  # every session's next translate sees what was written
    if done.created or (record is not None and record.tag.code not in project.locales and done.files):
        _catalog(ctx).refresh_project(force=True)  # a new locale's file: served from the next call
    for path, (before, after) in done.files.items():
        call.changed(path, None if path in done.created else before, after)
        logger.info("i18n.catalog_written", extra={"file": str(path), "bytes_before": len(before),
                                                   "bytes_after": len(after)})
    if record is not None:
        try:  # a new locale's: now the project's
            _record_sources(ctx, project, project.locales.get(record.tag.code, record), done, call)
        except (I18nError, OSError) as exc:  # the files are written: say so, and what was not recorded
            notes.append(exc.message if isinstance(exc, I18nError) else
                         f"the lock file could not be written ({exc.__class__.__name__}): the translations are "
                         "written, but not which source texts they were made from")
            logger.warning("i18n.lock_file_not_written", extra={"error": exc.__class__.__name__})
    return done


def _tell(call: WriteCall, project: Project, done: WritePlan, record: ProjectLocale | None, counts: dict[str, int],
          keys: list[str]) -> None:
    """What the write log says of this write: counts, keys, its catalog and locale, the bundles it changed.
    Every call has its row, one that changed no file too (who asked for what, and that it was already so)."""
    touched = [(code, file.catalog) for code, locale in project.locales.items() for file in locale.files
               if file.path in done.files]
    codes = {code for code, _ in touched}
    call.wrote(written=counts["written"], refused=counts["refused"], keys=keys,
               catalogs={catalog for _, catalog in touched},
               locales=[record.tag.code] if record is not None else codes, codes=codes)


def _record_sources(ctx: I18nContext, project: Project, target: ProjectLocale, done: WritePlan,
                    call: WriteCall) -> None:
    """Note the source text each written translation was made from, so a later change makes it stale."""
    written = {outcome.key for outcome in done.outcomes if outcome.status == "written"}
    if not written:
        return
    lock = _lock(ctx, project)
    for view in catalog_views(source_of(project), target, order=[source.label for source in project.sources]):
        entries = {key: text for key in written if view.has_key(key) and (text := view.source_text(key)) is not None}
        if entries:
            result = lock.record(view.name, target.tag.code, entries)
            if result is not None and result.changed:
                call.changed(lock.path, result.before or None, result.after)


# --- helpers -------------------------------------------------------------------------------------------


def _catalog(ctx: I18nContext) -> Catalog:
    found: Catalog = ctx.state
    return found


async def project_of(ctx: I18nContext) -> Project:
    """The project's catalogs, with the files created, deleted or replaced since the last call noticed
    (listing folders and reading files' heads: off the event loop)."""
    catalog = _catalog(ctx)
    if catalog.project is not None:
        await anyio.to_thread.run_sync(catalog.refresh_project)
    if catalog.project is None:
        raise ToolError("NO_CATALOGS", "no project catalogs are configured: add a [[packs.i18n.catalogs]] entry "
                                       "(path with {locale}, relative to parlance.toml) and restart the server")
    return catalog.project


def _locale(project: Project, code: str | None, *, create_hint: bool = False) -> ProjectLocale:
    tag = parse_locale(code)
    found = project.locales.get(tag.code)
    if found is None:
        unsafe = next((p for p in project.problems if p.key is None and p.reason.endswith("(UNSAFE_PATH)")), None)
        if unsafe is not None:  # a catalog left out since the last call (its folder became a link): say why
            raise ToolError("UNSAFE_PATH", f"no catalog file is for {tag.code}: "
                                           f"{unsafe.reason.removesuffix(' (UNSAFE_PATH)')}", {"locale": tag.code})
        known = ", ".join(project.locales) or "none"
        hint = (" To start it, call i18n_set_messages with create_locale: true (its file is made from the "
                "catalog's path)." if create_hint else "")
        raise ToolError("UNKNOWN_LOCALE",
                        f"no catalog file is for {tag.code}; the project's locales are: {known}.{hint}",
                        {"locale": tag.code})
    return found


def source_of(project: Project) -> ProjectLocale:
    """The source locale's files; none at all when the catalogs carry their sources in every locale's
    files (gettext's msgids, XLIFF's `<source>`: `loop.status` reads them there)."""
    found = project.locales.get(project.source_tag.code)
    if found is None and project.carries_sources():
        return ProjectLocale(project.source_tag, [])
    if found is None:
        unmatched = sorted({problem.catalog for problem in project.problems if problem.key is None})
        why = (f"the catalog{'s' if len(unmatched) > 1 else ''} {', '.join(map(repr, unmatched))} "
               f"{'match' if len(unmatched) > 1 else 'matches'} no file or cannot be read (see i18n_status's "
               "catalog_problems): check the path in [[packs.i18n.catalogs]]; or ") if unmatched else ""
        raise ToolError("NO_SOURCE_FILES", f"no catalog file is for the source locale {project.source_tag.code}: "
                                           f"{why}set [packs.i18n] source_locale to the locale the project is written in",
                        {"locale": project.source_tag.code})
    return found


def _invalid(problem: FileProblem) -> InvalidMessage:
    return InvalidMessage(problem.catalog, str(problem.path), problem.line, problem.key, problem.reason)


def _refresh(*locales: ProjectLocale) -> None:
    for locale in locales:
        if locale.changed_on_disk():
            locale.reload()


def settings_of(ctx: I18nContext) -> I18nSettings:
    """The pack's settings (the defaults when parlance.toml has no [packs.i18n])."""
    return ctx.settings or I18nSettings()


def _lock(ctx: I18nContext, project: Project) -> SourceLock:
    """The lock file (the host resolved it beside parlance.toml), held to the project's folder unless
    `allow_outside_project` lets it lie elsewhere on purpose (then to its own folder)."""
    settings = settings_of(ctx)
    return SourceLock(settings.lock_file, None if settings.allow_outside_project else settings.root)


def root_of(ctx: I18nContext) -> Path:
    """The project's folder: where parlance.toml is (`project_root`, which the host resolves there); the
    lock file's folder for settings built in code."""
    settings = settings_of(ctx)
    return settings.root or settings.lock_file.parent


def _glossary(ctx: I18nContext, tag: LocaleTag) -> tuple[Glossary, StyleNotes]:
    settings = settings_of(ctx)
    root = None if settings.allow_outside_project else settings.root
    return load_glossary(tag, ctx.language_packs, list(settings.glossaries), root)


def _work_items_result(page: _Page, why: str) -> ToolResult[TranslateMissingOutput]:
    output = TranslateMissingOutput(locale=page.code, mode="work_items", items=page.views,
                                    next_cursor=page.next_cursor)
    text = (f"Not translated here: {why}. Translate these {len(page.views)} messages with the prompt below, then "
            f"call i18n_set_messages with locale {page.code!r} and the JSON object as `messages`.\n\n{page.prompt}")
    return ToolResult(output, text=text, meta={META_KEY: {"prompt": page.prompt}})


def _parse_answer(text: str, keys: set[str]) -> dict[str, Any] | None:
    """The JSON object in the model's answer (a fenced block or the first {...}), keys asked for only."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        found = json.loads(text[start:end + 1])
    except ValueError:
        return None
    if not isinstance(found, dict):
        return None
    return {key: value for key, value in found.items()
            if key in keys and (isinstance(value, str) or (isinstance(value, dict)
                                                           and all(isinstance(v, str) for v in value.values())))}
