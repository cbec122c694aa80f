"""What `i18n_check` reports of a project: each catalog of each locale apart, with `i18n_status`'s counts.

A check and a status of the same project must never disagree, so the check is the status (`status_of`
on the same `CatalogView`) plus what only a check looks at, read in the same pass over the keys:

- `total`, `missing_count` / `missing_keys`, `invalid_count` and `coverage` are the status's
  (`coverage` = translated / total); a file that cannot be read is a `file_problems` entry, and the
  keys it would hold are invalid, not missing;
- `argument_mismatches`: served translations whose message uses other arguments than the source's
  message of the same catalog;
- `plural_gaps`: plural/selectordinal arguments without a branch for every CLDR category the
  target locale needs;
- `extra_keys`: keys of the target's files of the catalog that the source lacks;
- `invalid_messages`: what the status counts as invalid, with file, line and reason.

The source locale is checked too (against itself: its own invalid messages and plural gaps), as it
has no row in a status. The reads are the status's: an ICU message's facts come from one parse of its
text and nothing is kept compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from parlance_i18n.formats import facts_of
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.loop.status import TRANSLATED, UNTRANSLATED, CatalogView, catalog_views, status_of
from parlance_i18n.model.project import FileProblem, Project, ProjectLocale
from parlance_i18n.model.reports import ArgumentMismatch, FileLevelProblem, InvalidMessage, LocaleReport, PluralGap

__all__ = ["check_project"]

_SERVED = frozenset({TRANSLATED, UNTRANSLATED})


def check_project(project: Project, source: ProjectLocale, targets: list[ProjectLocale], *, catalog: str | None = None,
                  limit: int = 100, checked: Callable[[int, int, str], None] | None = None) -> list[LocaleReport]:
    """A report per catalog of each of `targets` (the locale's own catalogs, in the configured order;
    `catalog` picks one: UnknownCatalog when no locale has it). `checked(done, total, code)` is told
    after each locale (progress for a long check)."""
    order = [entry.label for entry in project.sources]
    reports: list[LocaleReport] = []
    expected: dict[str, _SourceArguments] = {}  # per catalog, read once for every locale
    for done, target in enumerate(targets, 1):
        for view in catalog_views(source, target, catalog=catalog, order=order):
            arguments = expected.get(view.name)
            if arguments is None:
                arguments = expected[view.name] = _SourceArguments(source, view.name)
            reports.append(_catalog_report(view, arguments, source is target, target, limit))
        if checked is not None:
            checked(done, len(targets), target.tag.code)
    return reports


def _catalog_report(view: CatalogView, expected: _SourceArguments, against_itself: bool, target: ProjectLocale,
                    limit: int) -> LocaleReport:
    rules = plural_rules(view.target_tag)
    mismatches: list[ArgumentMismatch] = []
    gaps: list[PluralGap] = []
    invalid: set[str] = set()

    def each(key: str, state: str) -> None:
        if state not in _SERVED:
            if state == "invalid":
                invalid.add(key)
            return
        facts = view.served_facts(key)
        if facts is None:
            return
        arguments, plurals = facts
        wanted = None if against_itself else expected.of(key)
        if wanted is not None and arguments != wanted:
            mismatches.append(ArgumentMismatch(key, sorted(wanted - arguments), sorted(arguments - wanted)))
        for use in plurals:
            needed = rules.ordinal_categories if use.ordinal else rules.cardinal_categories
            missing = [c for c in CATEGORIES if c in needed and c not in use.keywords]
            if missing:
                gaps.append(PluralGap(key, use.argument, use.ordinal, missing))

    status = status_of(view, None, limit, each)
    extra = view.extra_keys()
    return LocaleReport(
        view.target_tag.code, view.message_count(), status.coverage,
        missing_count=status.missing, missing_keys=status.missing_keys,
        extra_count=len(extra), extra_keys=extra[:limit],
        argument_mismatches=mismatches[:limit], plural_gaps=gaps[:limit],
        invalid_count=status.invalid, invalid_messages=_invalid_messages(view, target, invalid)[:limit],
        catalog=view.name, total=status.total,
        file_problems=[FileLevelProblem(str(p.path), p.line, p.reason) for p in view.file_problems[:limit]],
    )


class _SourceArguments:
    """The arguments of the source's messages of one catalog, each read once (on first need) for every
    locale checked against it."""

    def __init__(self, source: ProjectLocale, catalog: str) -> None:
        self._sources = [messages for file, messages in source.load() if file.catalog == catalog]
        self._found: dict[str, frozenset[str] | None] = {}

    def of(self, key: str) -> frozenset[str] | None:
        """The arguments of the source's message for `key`, or None (no message to compare with: a key
        that is its own source, gettext's msgid, or one the source's files do not hold)."""
        try:
            return self._found[key]
        except KeyError:
            pass
        found = self._found[key] = self._read(key)
        return found

    def _read(self, key: str) -> frozenset[str] | None:
        for messages in self._sources:
            if key in messages:
                ask = getattr(messages, "facts", None)
                facts = ask(key) if ask is not None else facts_of(messages.get(key))
                return None if facts is None else frozenset(facts[0])
        return None


def _invalid_messages(view: CatalogView, target: ProjectLocale, invalid: set[str]) -> list[InvalidMessage]:
    """The files of the catalog that could not be read, then the problem of each invalid key (its first),
    with file and line."""
    found = [_as_invalid(problem) for problem in view.file_problems]
    seen: set[str] = set()
    for problem in target.problems:  # after the status: what compiling found is among them
        if problem.catalog != view.name or problem.key is None:
            continue
        owner = view.owner_of(problem.key)
        if owner in invalid and owner not in seen:
            seen.add(owner)
            found.append(_as_invalid(problem))
    return found


def _as_invalid(problem: FileProblem) -> InvalidMessage:
    return InvalidMessage(problem.catalog, str(Path(problem.path)), problem.line, problem.key, problem.reason)
