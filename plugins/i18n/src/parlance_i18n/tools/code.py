"""The code tools' engine: i18n_usage, i18n_hardcoded, i18n_extract, and the counts i18n_status adds.
Loaded on the first call, like `loop`.

Each `[[packs.i18n.sources]]` entry is read by its framework (named, or told from its catalog's
format: `frameworks.guess`). Scans are kept per server in a `ScanCache` (by content hash), so every
session's second call re-parses only the files that changed. Blocking work (walking folders, reading
and parsing files, writing) runs in a worker thread.

`i18n_extract` writes two files: the catalog's source-locale file first (through the loop's
validated write, so the message is checked and placed as any other), then the source file (through
`store.update_file`: atomic, and applied again to what is there if someone saved the file meanwhile,
as long as the same literal is still there). The catalog first, because a key nothing calls yet is
harmless and a call of a key the catalog lacks is not. Both are one coordinated write (`loop.write_call`):
the catalog's files and the source file are locked together, logged as one write, one commit.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import anyio

from parlance import ToolError
from parlance_i18n.code.files import glob_regex
from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.frameworks.base import Edit, ExtractionRefused, Framework, KeyStyle
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.proposals import framework_for
from parlance_i18n.code.scanner import ScanCache, Scanned, scan_one
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.code.usage import KeyUse, Usage, UsageIndex, usage_of
from parlance_i18n.errors import I18nError
from parlance_i18n.loop.status import CatalogView
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.project import Project
from parlance_i18n.model.reports import InvalidMessage
from parlance_i18n.store import ConcurrentChange, WriteResult, read_bytes, unified_diff, update_file
from parlance_i18n.tools import loop
from parlance_i18n.tools.code_models import (
    CatalogUsageCounts,
    DynamicKeyView,
    ExtractInput,
    ExtractOutput,
    HardcodedInput,
    HardcodedOutput,
    HardcodedView,
    KeyUseView,
    PlaceView,
    SkippedFileView,
    UsageInput,
    UsageOutput,
)
from parlance_i18n.tools.context import I18nContext
from parlance_i18n.tools.coordinated import WriteCall
from parlance_i18n.tools.models import StatusInput, StatusOutput
from parlance_i18n.tools.pages import window
from parlance_i18n.tools.wire import clip, domain_or_argument_errors

__all__ = ["extract", "hardcoded", "status", "usage", "usage_counts"]

_REFERENCES_SHOWN = 20


@dataclass(frozen=True)
class _Entry:
    """A `sources` entry with the catalog its code calls and the framework that reads it."""

    catalog: str
    framework: Framework


# --- tools ---------------------------------------------------------------------------------------------


async def usage(args: UsageInput, ctx: I18nContext) -> UsageOutput:
    project = await loop.project_of(ctx)
    entries = _of_catalog(_entries(ctx, project), args.catalog)

    def run() -> UsageOutput:
        with _state(ctx).lock:  # the index is updated and read in one piece
            found, scans = _usage(ctx, project, entries)
            counts = {"used": len(found.used), "unused": len(found.unused), "undefined": len(found.undefined),
                      "dynamic": found.dynamic_count, "reachable": len(found.reachable)}
            listed = (len(found.used), len(found.unused), len(found.undefined), found.dynamic_count)
            start, next_cursor = window(args.cursor, ["usage", entries[0].catalog, args.limit], max(listed),
                                        args.limit)
            end = start + args.limit
            return UsageOutput(
                catalog=entries[0].catalog,
                framework=entries[0].framework.name,
                used=[_key_view(found.use(key, _REFERENCES_SHOWN)) for key in found.used[start:end]],
                unused=found.unused[start:end],
                undefined=[_key_view(found.use(key, _REFERENCES_SHOWN)) for key in found.undefined[start:end]],
                dynamic=[DynamicKeyView(file=d.file, line=d.line, column=d.column, expression=clip(d.expression),
                                        prefix=d.prefix, reachable=d.reachable) for d in found.dynamic(start, end)],
                counts=counts,
                files_scanned=sum(len(s.files) for s in scans),
                files_skipped=_skipped(scans),
                next_cursor=next_cursor,
            )

    with domain_or_argument_errors:
        return await anyio.to_thread.run_sync(run)


async def hardcoded(args: HardcodedInput, ctx: I18nContext) -> HardcodedOutput:
    project = await loop.project_of(ctx)
    root = loop.root_of(ctx)
    entries = _entries(ctx, project)
    with domain_or_argument_errors:  # a glob past the limits, or not one: a sentence naming it
        wanted = [glob_regex(g) for g in args.paths or []]

    def run() -> tuple[list[HardcodedView], list[Scanned]]:
        views: list[HardcodedView] = []
        scans: list[Scanned] = []
        for entry in entries:
            scanned = _state(ctx).cache.scan(root, entry.framework)
            scans.append(scanned)
            keys = _catalog_keys(ctx, project, entry.catalog)
            style = KeyStyle.of(keys)
            for file, scan in scanned.files.items():
                if wanted and not any(r.fullmatch(file) for r in wanted):
                    continue
                for literal in scan.hardcoded:
                    views.append(HardcodedView(file=file, line=literal.span.line, column=literal.span.column,
                                               text=clip(literal.text), kind=literal.kind, catalog=entry.catalog,
                                               suggested_key=entry.framework.suggest_key(literal, file, style, keys)))
        return views, scans

    with domain_or_argument_errors:
        views, scans = await anyio.to_thread.run_sync(run)
        start, next_cursor = window(args.cursor, ["hardcoded", args.paths, args.limit], len(views), args.limit)
    return HardcodedOutput(strings=views[start:start + args.limit], total=len(views),
                           files_scanned=sum(len(s.files) for s in scans), files_skipped=_skipped(scans),
                           next_cursor=next_cursor)


async def extract(args: ExtractInput, ctx: I18nContext) -> ExtractOutput:
    return await loop.write_call(ctx, args, ExtractOutput, lambda call: _extract(args, ctx, call))


async def _extract(args: ExtractInput, ctx: I18nContext, call: WriteCall | None) -> ExtractOutput:
    """i18n_extract; a dry run without `call`, else the catalog and the source file are locked together."""
    project = await loop.project_of(ctx)
    root = loop.root_of(ctx)
    given = PurePosixPath(args.file.replace("\\", "/"))
    if given.is_absolute() or ".." in given.parts:
        raise ToolError("INVALID_ARGUMENTS", "file: name the source file relative to parlance.toml, as "
                                             "i18n_hardcoded lists it (no leading '/', no '..')", {"file": args.file})
    relative = given.as_posix()
    entry = _reader_of(_entries(ctx, project), relative)
    framework = entry.framework
    if args.key is not None and (problem := framework.key_problem(args.key)) is not None:
        raise ToolError("INVALID_ARGUMENTS", f"key: {problem}; choose another key, or leave it out for the "
                                             "suggested one", {"key": clip(args.key, 80)})

    def plan() -> _Planned:
        data = _source_bytes(root, relative, framework)
        literal = _literal_at(framework, relative, data, args.line, args.column)
        keys = _catalog_keys(ctx, project, entry.catalog)
        key = args.key or framework.suggest_key(literal, relative, KeyStyle.of(keys), keys)
        try:
            extraction = framework.extraction(relative, data, literal, key)
        except ExtractionRefused as exc:
            raise ToolError("EXTRACTION_REFUSED", f"{relative}:{args.line}:{args.column}: {exc.reason}",
                            {"file": relative, "line": args.line, "column": args.column}) from None
        namespaces = {namespace for namespace in keys.values() if namespace is not None}
        domain = extraction.namespace if len(namespaces) > 1 else None
        if domain is not None and domain not in namespaces:
            raise ToolError("EXTRACTION_REFUSED", f"the call reads the namespace {domain!r}, and the catalog "
                                                  f"{entry.catalog!r} has no file of it (its namespaces: "
                                                  f"{', '.join(sorted(namespaces))}): name the key as ns:key",
                            {"namespace": domain})
        return _Planned(data, literal, key, extraction.key or key, _applied(data, extraction.edits),
                        extraction.message, domain)

    with domain_or_argument_errors:
        planned = await anyio.to_thread.run_sync(plan)
    if call is not None:
        call.also_lock(root / relative)  # with the catalog's files, when they are locked
    notes: list[str] = []
    catalog_diff = ""
    if framework.key_is_text:
        notes.append(f"{framework.name} catalogs take new messages from the code: run the project's extraction "
                     "(makemessages, xgettext and msgmerge) to add the msgid to the catalog")
    else:
        written = await loop.write_source_message(ctx, project, entry.catalog, planned.key, planned.message,
                                                  call, domain=planned.domain)
        refused = [r for r in written.results if r.status == "refused"]
        if refused:
            raise ToolError("EXTRACTION_REFUSED", f"the catalog refused the message for {planned.key!r}: "
                                                  f"{'; '.join(refused[0].reasons)}; the source file was not changed",
                            {"key": planned.key, "reasons": refused[0].reasons})
        catalog_diff = written.diff
        notes.extend(written.notes)
    if call is None:
        code_diff = unified_diff(planned.data, planned.after, relative)
    else:
        if not call.locked:  # no catalog write locked it
            await call.lock([])

        def write() -> WriteResult:
            return update_file(root / relative, lambda current, attempt: _again(framework, relative, planned, current),
                               within=root, place="the project's folder", max_bytes=framework.options.max_file_bytes)

        with domain_or_argument_errors:
            result = await anyio.to_thread.run_sync(write)
        code_diff = result.diff(relative)
        if result.changed:
            call.changed(root / relative, result.before, result.after)
            call.wrote(written=0 if call.written else 1, refused=0, keys=[planned.key], catalogs=[entry.catalog],
                       locales=[project.source_tag.code])
    return ExtractOutput(dry_run=call is None, key=planned.key, catalog=entry.catalog, message=planned.message,
                         code_diff=code_diff, catalog_diff=catalog_diff, notes=notes)


@dataclass(frozen=True)
class _Planned:
    """An extraction planned on the source file's bytes as they were read."""

    data: bytes
    literal: Hardcoded
    asked: str
    """The key the extraction was asked for (as the call names it)."""
    key: str
    """The catalog's key for the message."""
    after: bytes
    message: str
    domain: str | None
    """The namespace file the message goes to, where the catalog's files are namespaces."""


async def status(args: StatusInput, ctx: I18nContext) -> StatusOutput:
    """i18n_status where sources are configured: the loop's answer, with the code's counts per catalog. A
    sources entry that cannot be read (its framework not told, ...) is one of the answer's
    `catalog_problems`: the catalogs' status is answered all the same."""
    found = await loop.status(args, ctx)
    project = await loop.project_of(ctx)
    try:
        counts = await anyio.to_thread.run_sync(usage_counts, ctx, project)
    except (ToolError, I18nError, ValueError) as exc:
        reason = exc.message if isinstance(exc, (ToolError, I18nError)) else str(exc)
        problem = InvalidMessage("[[packs.i18n.sources]]", "parlance.toml", None, None, reason)
        return found.model_copy(update={"catalog_problems": [*found.catalog_problems, problem]})
    return found.model_copy(update={"usage": [c for c in counts if args.catalog is None or c.catalog == args.catalog]})


def usage_counts(ctx: I18nContext, project: Project) -> list[CatalogUsageCounts]:
    """Per catalog the sources call: how many keys are used, unused, undefined, dynamic (blocking: call
    it in a worker thread)."""
    entries = _entries(ctx, project)
    counts: list[CatalogUsageCounts] = []
    for catalog in dict.fromkeys(entry.catalog for entry in entries):
        mine = [entry for entry in entries if entry.catalog == catalog]
        with _state(ctx).lock:
            found, scans = _usage(ctx, project, mine)
        counts.append(CatalogUsageCounts(catalog=catalog, used=len(found.used), unused=len(found.unused),
                                         undefined=len(found.undefined), dynamic=found.dynamic_count,
                                         files_scanned=sum(len(s.files) for s in scans)))
    return counts


# --- helpers -------------------------------------------------------------------------------------------


@dataclass
class _CodeState:
    """What the code tools keep per server: the scans, an index of each entry's references, and the lock
    that keeps one call's update and reading of an index together."""

    cache: ScanCache = field(default_factory=ScanCache)
    indexes: dict[int, UsageIndex] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    frameworks: dict[str, Framework] = field(default_factory=dict)
    """One framework per `sources` entry's options (its index is keyed by it)."""
    catalog_keys: dict[str, tuple[tuple[object, ...], dict[str, str | None]]] = field(default_factory=dict)
    """Catalog -> (the files' messages read, their keys): kept while the files read are the same objects."""


_states: weakref.WeakKeyDictionary[Catalog, _CodeState] = weakref.WeakKeyDictionary()
_states_guard = threading.Lock()


def _state(ctx: I18nContext) -> _CodeState:
    catalog: Catalog = ctx.state
    with _states_guard:
        state = _states.get(catalog)
        if state is None:
            state = _states[catalog] = _CodeState()
        return state


def _entries(ctx: I18nContext, project: Project) -> list[_Entry]:
    settings = loop.settings_of(ctx)
    labels = [source.label for source in project.sources]
    entries: list[_Entry] = []
    for index, options in enumerate(settings.sources):
        catalog = options.catalog or labels[0]
        entries.append(_Entry(catalog, _framework(_state(ctx), index, options, project, catalog, loop.root_of(ctx))))
    if not entries:
        raise ToolError("NO_SOURCES", "no source code is configured: add a [[packs.i18n.sources]] entry (paths, "
                                      "catalog, framework) to parlance.toml")
    return entries


def _framework(state: _CodeState, index: int, options: SourceSettings, project: Project, catalog: str,
               root: Path) -> Framework:
    name = options.framework
    if name is None:
        formats = {file.format.name for locale in project.locales.values() for file in locale.files
                   if file.catalog == catalog}
        name = next((told for fmt in sorted(formats) if (told := framework_for(root, fmt)) is not None), None)
        if name is None:
            raise ToolError("UNKNOWN_FRAMEWORK", f"sources[{index}]: the framework of the code calling {catalog!r} "
                                                 "cannot be told from its catalog's format: set framework in its "
                                                 "[[packs.i18n.sources]] entry", {"catalog": catalog})
    identity = f"{name}:{options.model_dump_json()}"
    framework = state.frameworks.get(identity)
    if framework is None:  # on the event loop: no lock a long scan could hold (two made at once: one kept)
        framework = state.frameworks.setdefault(identity, framework_class(name)(options))
    return framework


def _of_catalog(entries: list[_Entry], catalog: str | None) -> list[_Entry]:
    if catalog is None:
        catalog = entries[0].catalog
    chosen = [entry for entry in entries if entry.catalog == catalog]
    if not chosen:
        called = ", ".join(dict.fromkeys(entry.catalog for entry in entries))
        raise ToolError("UNKNOWN_CATALOG", f"no [[packs.i18n.sources]] entry calls the catalog {catalog!r}; the "
                                           f"sources call: {called}", {"catalog": catalog})
    return chosen


def _catalog_keys(ctx: I18nContext, project: Project, catalog: str) -> dict[str, str | None]:
    """The catalog's keys (catalog key -> the domain of the file that holds it), in file order: the
    source locale's files, or where a key is its source text (gettext), every locale's. Kept while
    the files read are the same objects (a file changed on disk is read anew, and so are its keys)."""
    source = loop.source_of(project)
    loaded = source.load()
    read = tuple(messages for _, messages in loaded)  # held, so no new file's messages can take their place
    known = _state(ctx).catalog_keys.get(catalog)
    if known is not None and read and len(known[0]) == len(read) and all(a is b for a, b in zip(known[0], read)):
        return known[1]
    keys: dict[str, str | None] = {}
    for file, messages in loaded:
        if file.catalog == catalog:
            for key in messages:
                keys.setdefault(key, file.domain)
    if not keys:
        for locale in project.locales.values():
            for key in CatalogView(catalog, source, locale).keys:
                keys.setdefault(key, None)
    _state(ctx).catalog_keys[catalog] = (read, keys)
    return keys


def _usage(ctx: I18nContext, project: Project, entries: list[_Entry]) -> tuple[Usage, list[Scanned]]:
    """The entries' scans, their indexes brought up to date, and the catalog's usage (under the state's lock)."""
    state = _state(ctx)
    root = loop.root_of(ctx)
    scans: list[Scanned] = []
    indexes: list[tuple[Framework, UsageIndex]] = []
    for entry in entries:
        scanned = state.cache.scan(root, entry.framework)
        index = state.indexes.setdefault(id(entry.framework), UsageIndex())  # frameworks are kept: `_framework`
        index.update(scanned.files)
        scans.append(scanned)
        indexes.append((entry.framework, index))
    return usage_of(entries[0].framework, indexes, _catalog_keys(ctx, project, entries[0].catalog)), scans


def _key_view(use: KeyUse) -> KeyUseView:
    return KeyUseView(key=use.key, reference_count=use.reference_count, default=use.default, plural=use.plural,
                      references=[PlaceView(file=p.file, line=p.line, column=p.column) for p in use.references])


def _skipped(scans: Iterable[Scanned]) -> list[SkippedFileView]:
    return [SkippedFileView(file=s.file, reason=clip(s.reason)) for scanned in scans for s in scanned.skipped][:50]


def _reader_of(entries: list[_Entry], relative: str) -> _Entry:
    for entry in entries:
        options = entry.framework.options
        if (any(glob_regex(g).fullmatch(relative) for g in options.paths)
                and not any(glob_regex(g).fullmatch(relative) for g in options.exclude)
                and entry.framework.reads(relative)):
            return entry
    raise ToolError("NOT_A_SOURCE_FILE", f"{relative} is not among the configured sources' files: name a file "
                                         "i18n_hardcoded lists (relative to parlance.toml)", {"file": relative})


def _source_bytes(root: Path, relative: str, framework: Framework) -> bytes:
    """The source file's bytes, read as the scanner reads them; NOT_FOUND when it is not there."""
    try:
        return read_bytes(root / relative, root=root, max_bytes=framework.options.max_file_bytes, kind="source files",
                          setting="[[packs.i18n.sources]] max_file_bytes")
    except (FileNotFoundError, NotADirectoryError):
        raise ToolError("NOT_FOUND", f"{relative} does not exist: name a file as i18n_hardcoded lists it",
                        {"file": relative}) from None
    except OSError as exc:
        raise ToolError("NOT_FOUND", f"{relative} cannot be read ({exc.strerror or exc.__class__.__name__})",
                        {"file": relative}) from None


def _literal_at(framework: Framework, relative: str, data: bytes, line: int, column: int) -> Hardcoded:
    scan = scan_one(framework, relative, data)
    for literal in scan.hardcoded:
        if literal.span.line == line and literal.span.column == column:
            return literal
    near = [f"{h.span.line}:{h.span.column}" for h in scan.hardcoded if abs(h.span.line - line) <= 3][:5]
    hint = f" (hard-coded strings near it start at {', '.join(near)})" if near else ""
    raise ToolError("NOT_FOUND", f"no hard-coded string starts at {relative}:{line}:{column}{hint}: call "
                                 "i18n_hardcoded for the current positions", {"file": relative, "line": line,
                                                                              "column": column})


def _applied(data: bytes, edits: Iterable[Edit]) -> bytes:
    out = data
    for edit in sorted(edits, key=lambda e: -e.start):  # from the end, so earlier spans keep their offsets
        out = out[:edit.start] + edit.text.encode("utf-8") + out[edit.end:]
    return out


def _again(framework: Framework, relative: str, planned: _Planned, current: bytes | None) -> bytes:
    """The source file's new bytes, given what is there now: the planned result when nobody saved it
    meanwhile; else the same literal replaced anew, where it can be told for sure: the file still holds
    as many literals of that text and kind as it did, and the literal is the one at the same rank among
    them (an edit elsewhere moved it). Otherwise nothing is written (ConcurrentChange)."""
    if current == planned.data:
        return planned.after
    if current is None:
        raise ConcurrentChange(relative, "was deleted while the literal was being extracted: nothing was written")
    literal = planned.literal

    def same(scan: FileScan) -> list[Hardcoded]:
        return [h for h in scan.hardcoded if h.text == literal.text and h.kind == literal.kind]

    before = same(scan_one(framework, relative, planned.data))
    now = same(scan_one(framework, relative, current))
    if len(now) != len(before) or literal not in before:
        raise ConcurrentChange(relative, f"changed meanwhile and its {clip(literal.text, 60)!r} cannot be told for "
                                         "sure: the source file was not changed (the catalog has the key); call "
                                         "i18n_hardcoded again")
    found = now[before.index(literal)]
    try:
        return _applied(current, framework.extraction(relative, current, found, planned.asked).edits)
    except ExtractionRefused as exc:
        raise ConcurrentChange(relative, f"changed meanwhile: {exc.reason}") from None
