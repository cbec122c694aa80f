"""What `i18n_status` reports of one catalog in one locale, in one shape for the domain and the wire.

`loop/status.py` builds a `LocaleStatusReport`: counts (translated + missing + untranslated + fuzzy +
invalid = total; stale is part of translated; obsolete, keys a template lacks, is not) and the keys behind them, each list cut to the
caller's limit. The tool's answer (`tools/models.py`) carries it as it is, after `tools/wire.py` has
kept the keys only with `details`, cut what they echo to size and made paths relative. Plain
dataclasses that import nothing of the pack, so registering the tools at server start stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlance_i18n.model.reports import FileLevelProblem

__all__ = ["FileLevelProblem", "LocaleStatusReport", "SkippedMessage"]


@dataclass(frozen=True)
class SkippedMessage:
    key: str | None
    """None for a problem of a whole file or catalog (the reason names it)."""
    reason: str


@dataclass(frozen=True)
class LocaleStatusReport:
    catalog: str
    locale: str
    total: int
    """Messages in the source locale's files of this catalog."""
    translated: int
    missing: int
    untranslated: int
    """Present, but the same as the source text where that is suspicious (a sentence left in English)."""
    fuzzy: int
    """Marked for review by the file itself (PO fuzzy, XLIFF states, xcstrings needs_review)."""
    invalid: int
    stale: int
    """Translated from a source text that has changed since (parlance-i18n.lock)."""
    coverage: float
    obsolete: int = 0
    """Keys of the target's file that the catalog's template lacks (gettext: what msgmerge makes
    obsolete); not part of total. Always 0 for a catalog without a `template`."""
    missing_keys: list[str] = field(default_factory=list)
    untranslated_keys: list[str] = field(default_factory=list)
    fuzzy_keys: list[str] = field(default_factory=list)
    stale_keys: list[str] = field(default_factory=list)
    obsolete_keys: list[str] = field(default_factory=list)
    invalid_messages: list[SkippedMessage] = field(default_factory=list)
    file_problems: list[FileLevelProblem] = field(default_factory=list)
    """Files of the catalog (target or source) that could not be read; listed with or without details."""
