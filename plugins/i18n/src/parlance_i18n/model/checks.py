"""Quality checks of a session's bundles against the source locale's bundle (the reference; the
source locale is `[packs.i18n] source_locale`, the default locale unless set).

Per locale:
- `coverage`: the share of reference keys a request for the locale finds without falling back to
  the default chain (so `es-MX` counts what it inherits from `es`);
- `missing_keys`: those it does not find; `extra_keys`: keys in its bundle the reference lacks;
- `argument_mismatches`: keys whose message uses different arguments than the reference's;
- `plural_gaps`: plural/selectordinal arguments without a branch for every CLDR category the
  locale needs (Russian needs one/few/many/other; `=N` branches do not count as categories);
- `invalid_messages`: messages of the project's catalog files that were skipped (file, line, key,
  reason), and files that could not be read at all.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator, Mapping

from parlance_i18n.formats import Renderable, facts_of
from parlance_i18n.icu.messageformat import PluralUse
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import display_name, likely_script
from parlance_i18n.model.bundles import Bundle
from parlance_i18n.model.project import FileProblem, ProjectLocale
from parlance_i18n.model.reports import ArgumentMismatch, InvalidMessage, LocaleReport, LocaleSummary, PluralGap
from parlance_i18n.model.translator import Translator

__all__ = ["ArgumentMismatch", "InvalidMessage", "LocaleReport", "LocaleSummary", "PluralGap", "catalog_problems",
           "check_locales", "summarize_locales"]


# What a check finds is `model/reports.py`'s; `tools/wire.py` cuts it to size for i18n_check and
# i18n_list_locales.


def check_locales(translator: Translator, codes: list[str] | None = None, limit: int = 100,
                  checked: Callable[[int, int, str], None] | None = None) -> tuple[str | None, list[LocaleReport]]:
    """(reference bundle code or None, a report per locale); lists are cut to `limit` entries each.
    `checked(done, total, code)` is told after each locale (progress for a long check)."""
    with _no_collection_passes():
        reference = translator.find_bundle(translator.catalog.source_locale)
        expected = {key: facts[0] for key, facts in _usable(reference.messages)} if reference is not None else {}
        bundles = translator.bundles
        reports = []
        chosen = codes if codes is not None else sorted(bundles)
        for code in chosen:
            bundle = bundles.get(code)
            reports.append(_report(translator, code, bundle, reference, expected, limit))
            if checked is not None:
                checked(len(reports), len(chosen), code)
    return (reference.code if reference else None), reports


@contextlib.contextmanager
def _no_collection_passes() -> Iterator[None]:
    """Reading and compiling every message of a project allocates hundreds of thousands of objects
    that live on, and the cyclic collector would walk all of them again and again (about a fifth of
    the check, measured); they form no cycles, so it pauses until the check is done."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def catalog_problems(translator: Translator) -> list[InvalidMessage]:
    """Configured catalogs that match no file, and files of no known format."""
    project = translator.catalog.project
    return [_invalid(problem) for problem in project.problems] if project is not None else []


def summarize_locales(translator: Translator) -> list[LocaleSummary]:
    reference = translator.find_bundle(translator.catalog.source_locale)
    summaries = []
    for code, bundle in sorted(translator.bundles.items()):
        tag = bundle.tag
        summaries.append(LocaleSummary(
            code=code,
            language=tag.language,
            region=tag.region,
            message_count=len(bundle.messages),
            script=likely_script(tag),
            display_name=display_name(tag),
            coverage=_coverage(translator, code, reference)[0] if reference else None,
        ))
    return summaries


def _report(translator: Translator, code: str, bundle: Bundle | None, reference: Bundle | None,
            expected: dict[str, frozenset[str]], limit: int) -> LocaleReport:
    messages = bundle.messages if bundle else {}
    skipped = [_invalid(p) for p in messages.problems] if isinstance(messages, ProjectLocale) else []
    rules = plural_rules(bundle.tag) if bundle is not None else None
    mismatches: list[ArgumentMismatch] = []
    gaps: list[PluralGap] = []
    extra: list[str] = []
    for key, (arguments, plurals) in _usable(messages):  # one look at each message
        wanted = expected.get(key)
        if wanted is not None and arguments != wanted:
            mismatches.append(ArgumentMismatch(key, sorted(wanted - arguments), sorted(arguments - wanted)))
        elif wanted is None and reference is not None:
            extra.append(key)
        for use in plurals:
            needed = rules.ordinal_categories if use.ordinal else rules.cardinal_categories  # type: ignore[union-attr]
            missing = [c for c in CATEGORIES if c in needed and c not in use.keywords]
            if missing:
                gaps.append(PluralGap(key, use.argument, use.ordinal, missing))
    mismatches.sort(key=lambda m: m.key)
    gaps.sort(key=lambda g: g.key)
    if reference is None:
        return LocaleReport(code, len(messages), None, plural_gaps=gaps[:limit],
                            invalid_count=len(skipped), invalid_messages=skipped[:limit])
    coverage, missing_keys = _coverage(translator, code, reference)
    extra.sort()
    return LocaleReport(
        code, len(messages), coverage,
        missing_count=len(missing_keys), missing_keys=missing_keys[:limit],
        extra_count=len(extra), extra_keys=extra[:limit],
        argument_mismatches=mismatches[:limit],
        plural_gaps=gaps[:limit],
        invalid_count=len(skipped), invalid_messages=skipped[:limit],
    )


def _usable(messages: Mapping[str, Renderable]) -> Iterator[tuple[str, tuple[frozenset[str], tuple[PluralUse, ...]]]]:
    """(key, (arguments, plural uses)) of every usable message: a format may list a key whose message
    it finds invalid only when compiling it (gettext's python-format), which is reported, not checked.
    Messages read from files answer from the texts where they can, so the check keeps nothing compiled."""
    ask = messages.facts if isinstance(messages, ProjectLocale) else None
    for key in messages:
        found = ask(key) if ask is not None else facts_of(messages.get(key))
        if found is not None:
            yield key, found


def _invalid(problem: FileProblem) -> InvalidMessage:
    return InvalidMessage(problem.catalog, str(problem.path), problem.line, problem.key, problem.reason)


def _coverage(translator: Translator, code: str, reference: Bundle) -> tuple[float, list[str]]:
    found: set[str] = set()
    for bundle in translator.own_bundles(code):  # the keys once, as sets: not a lookup per key and bundle
        found.update(bundle.messages)
    missing = sorted(set(reference.messages) - found)
    total = len(reference.messages)
    return (round(1 - len(missing) / total, 4) if total else 1.0), missing
