"""Where the domain meets the wire: the one place results of `model/` and `loop/` become the tools'
output models (`tools/models.py`), and the pack's domain errors become `ToolError`s.

The domain's results are plain dataclasses that know nothing of MCP; the wire models are what
`tools/list` publishes as output schemas, so they change only when the tools' answers do. Keeping
the two apart lets either side move without the other: a field the domain adds is not on the wire
until it is converted here.

    domain_errors                 I18nError -> ToolError with the same code, message and data
    domain_or_argument_errors     the same, and a bare ValueError (a sentence about an argument the
                                  domain found wrong: a stale cursor) -> INVALID_ARGUMENTS

Answers stay small and name the project's own paths: a key or text a diagnostic echoes (i18n_check,
i18n_status details, write refusals, skipped messages) is cut to `ECHO_CHARS` characters, a reason
to `REASON_CHARS` (`clip`: the rest counted, "…(N more)"); every file is named relative to the
project's folder (`relative`), and a reason that quotes a path inside the project quotes it so too.
Keys a caller must act on exactly (work items, write results) are not cut: they are the caller's own,
or held to `max_message_chars` before they are written.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from parlance import ToolError
from parlance_i18n.errors import I18nError
from parlance_i18n.loop.reports import LocaleStatusReport
from parlance_i18n.model.project import ProjectLocale
from parlance_i18n.model.reports import FileLevelProblem, InvalidMessage, LocaleReport
from parlance_i18n.tools import models

if TYPE_CHECKING:  # read, not built: the seed's tools need not load the localization loop's modules
    from parlance_i18n.loop.workitems import WorkItem
    from parlance_i18n.loop.writes import KeyOutcome
    from parlance_i18n.model.bundles import Bundle
    from parlance_i18n.model.project import FileProblem

__all__ = [
    "ECHO_CHARS",
    "REASON_CHARS",
    "bundle_view",
    "clip",
    "domain_errors",
    "domain_or_argument_errors",
    "file_level_problem",
    "invalid_message",
    "key_result",
    "locale_report",
    "locale_status",
    "relative",
    "skipped_message",
    "work_item",
]

ECHO_CHARS = 200
"""A key or text a diagnostic echoes is cut here: enough to recognize it, never megabytes of it."""
REASON_CHARS = 1000
"""A reason is a sentence, and may quote a key or a text: cut here."""


# --- results -------------------------------------------------------------------------------------------


def locale_report(found: LocaleReport, root: Path | None = None, *, details: bool = True) -> LocaleReport:
    """A locale's report as i18n_check answers it: what it echoes cut to size, its files relative to `root`;
    the keys behind the counts only with `details` (the files that cannot be read always)."""
    file_problems = [file_level_problem(p, root) for p in found.file_problems]
    if not details:
        return replace(found, catalog=relative(found.catalog, root), missing_keys=[], extra_keys=[],
                       argument_mismatches=[], plural_gaps=[], invalid_messages=[], file_problems=file_problems)
    return replace(
        found, catalog=relative(found.catalog, root), file_problems=file_problems,
        missing_keys=_clip_all(found.missing_keys), extra_keys=_clip_all(found.extra_keys),
        argument_mismatches=[replace(m, key=clip(m.key), missing=_clip_all(m.missing),
                                     unexpected=_clip_all(m.unexpected)) for m in found.argument_mismatches],
        plural_gaps=[replace(g, key=clip(g.key), argument=clip(g.argument)) for g in found.plural_gaps],
        invalid_messages=[invalid_message(m, root) for m in found.invalid_messages],
    )


def invalid_message(found: InvalidMessage, root: Path | None = None) -> InvalidMessage:
    """A skipped message or unreadable file, its file (and a bundle folder's name) relative to `root`."""
    return InvalidMessage(relative(found.catalog, root) or found.catalog, relative(found.file, root) or "",
                          found.line, _clip_key(found.key), _reason(found.reason, root))


def file_level_problem(found: FileLevelProblem, root: Path | None = None) -> FileLevelProblem:
    """A file that cannot be read, named relative to `root`, its reason cut to size."""
    return FileLevelProblem(relative(found.file, root) or "", found.line, _reason(found.reason, root))


def locale_status(found: LocaleStatusReport, *, details: bool, root: Path | None = None) -> LocaleStatusReport:
    """One catalog's status in one locale; the keys behind the counts only with `details` (the files
    that cannot be read always)."""
    file_problems = [file_level_problem(p, root) for p in found.file_problems]
    if not details:
        return replace(found, missing_keys=[], untranslated_keys=[], fuzzy_keys=[], stale_keys=[], obsolete_keys=[],
                       invalid_messages=[], file_problems=file_problems)
    return replace(
        found, file_problems=file_problems, missing_keys=_clip_all(found.missing_keys), untranslated_keys=_clip_all(found.untranslated_keys),
        fuzzy_keys=_clip_all(found.fuzzy_keys), stale_keys=_clip_all(found.stale_keys),
        obsolete_keys=_clip_all(found.obsolete_keys),
        invalid_messages=[replace(m, key=_clip_key(m.key), reason=_reason(m.reason, root), file=relative(m.file, root))
                          for m in found.invalid_messages],
    )


def work_item(item: WorkItem, root: Path) -> models.WorkItemView:
    """A work item, its file relative to the project's folder."""
    return models.WorkItemView(
        key=item.key, source=item.source, reason=cast(Literal["missing", "untranslated", "stale"], item.reason),
        placeholders=list(item.placeholders), plural_categories=list(item.plural_categories), catalog=item.catalog,
        file=relative(item.file, root), comment=item.comment, context=item.context, max_length=item.max_length,
        glossary=[models.GlossaryTerm(term.source, term.target) for term in item.glossary],
        examples=[models.Example(source, translation) for source, translation in item.examples],
    )


def key_result(outcome: KeyOutcome, root: Path) -> models.KeyResult:
    """What a write did with one key, its file relative to the project's folder."""
    return models.KeyResult(outcome.key, outcome.status, [_reason(reason, root) for reason in outcome.reasons],
                            relative(outcome.file, root), list(outcome.completed_from_file))


def skipped_message(problem: FileProblem, root: Path | None = None) -> dict[str, Any]:
    """A message skipped in a catalog file, as i18n_translate's `_meta` tells it."""
    return {"catalog": problem.catalog, "file": relative(str(problem.path), root), "line": problem.line,
            "key": _clip_key(problem.key), "reason": _reason(problem.reason, root)}


def bundle_view(code: str, bundle: Bundle) -> dict[str, Any]:
    """i18n://bundles/{locale}: each message as its file writes it (a text, or a plural's forms by
    category; gettext: by index), or its source when it is held in memory. Reads a project locale's
    files: run it off the event loop."""
    messages = bundle.messages
    as_written = messages.text if isinstance(messages, ProjectLocale) else None
    return {
        "locale": code,
        "message_count": len(messages),
        "messages": {key: (as_written(key) if as_written else None) or message.source
                     for key in sorted(messages) if (message := messages.get(key)) is not None},
    }


def relative(file: str | None, root: Path | None) -> str | None:
    """`file` relative to the project's folder `root` (as the project names it), else as it is (a
    language pack's file, or no project folder is known)."""
    if file is None or root is None:
        return file
    path = Path(file)
    return path.relative_to(root).as_posix() if path.is_absolute() and path.is_relative_to(root) else file


def clip(text: str, limit: int = ECHO_CHARS) -> str:
    """`text` cut to `limit` characters, the rest counted: what a diagnostic echoes of a key or a text."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…({len(text) - limit:,} more)"


def _clip_key(key: str | None) -> str | None:
    return None if key is None else clip(key)


def _clip_all(keys: list[str]) -> list[str]:
    return [clip(key) for key in keys]


def _reason(reason: str, root: Path | None) -> str:
    """A reason, cut to `REASON_CHARS`, naming the project's files relative to its folder (a reason
    built elsewhere may quote one in full)."""
    if root is not None:
        reason = reason.replace(f"{root}{os.sep}", "")
    return clip(reason, REASON_CHARS)


# --- errors --------------------------------------------------------------------------------------------


class _DomainErrors:
    """Turns the pack's domain errors into tool errors with the same code (and, when asked, a bare
    ValueError into INVALID_ARGUMENTS: the loop's domain says so of a cursor it did not give out).

    A class rather than `@contextmanager`: it guards `i18n_translate`, the pack's hot path, where a
    generator-based context costs several times more. It keeps no state, so one instance serves.
    """

    __slots__ = ("_arguments",)

    def __init__(self, *, arguments: bool) -> None:
        self._arguments = arguments

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, traceback: object) -> None:
        if isinstance(exc, I18nError):
            raise ToolError(exc.code, exc.message, exc.data) from None
        if self._arguments and kind is ValueError:  # exactly ValueError: its subclasses are bugs, not sentences
            raise ToolError("INVALID_ARGUMENTS", str(exc)) from None


domain_errors = _DomainErrors(arguments=False)
domain_or_argument_errors = _DomainErrors(arguments=True)
