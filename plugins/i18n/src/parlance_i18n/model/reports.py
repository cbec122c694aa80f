"""What `i18n_check` and `i18n_list_locales` report of each locale, in one shape for the domain and the wire.

The checks (`model/checks.py`) build these; the tools' answers (`tools/models.py`) carry them as they
are, after `tools/wire.py` has cut what they echo to size and made their paths relative. Plain
dataclasses that import nothing of the pack, so registering the tools at server start stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ArgumentMismatch", "FileLevelProblem", "InvalidMessage", "LocaleReport", "LocaleSummary", "PluralGap"]


@dataclass(frozen=True)
class ArgumentMismatch:
    key: str
    missing: list[str]
    """Arguments the reference message uses and this one does not."""
    unexpected: list[str]
    """Arguments this message uses and the reference does not (they will print as `{name}`)."""


@dataclass(frozen=True)
class PluralGap:
    key: str
    argument: str
    ordinal: bool
    missing: list[str]
    """CLDR categories the locale needs that the argument has no branch for."""


@dataclass(frozen=True)
class InvalidMessage:
    """A message of the project's files that was skipped (or a file that could not be read: no key)."""

    catalog: str
    file: str
    line: int | None
    key: str | None
    reason: str


@dataclass(frozen=True)
class FileLevelProblem:
    """A catalog file that could not be read (not valid in its format, past a limit, outside the
    project): listed in every answer that counts the catalog, details or not. The keys it would hold
    count as invalid, not missing: translating them cannot help until the file is fixed."""

    file: str
    line: int | None
    reason: str


@dataclass(frozen=True)
class LocaleReport:
    code: str
    message_count: int
    coverage: float | None
    """Share of the reference's keys found without the default chain; None without a reference. For a
    project's catalog, i18n_status's coverage: translated / total."""
    missing_count: int = 0
    missing_keys: list[str] = field(default_factory=list)
    extra_count: int = 0
    extra_keys: list[str] = field(default_factory=list)
    argument_mismatches: list[ArgumentMismatch] = field(default_factory=list)
    plural_gaps: list[PluralGap] = field(default_factory=list)
    invalid_count: int = 0
    invalid_messages: list[InvalidMessage] = field(default_factory=list)
    """Messages of the project's catalog files that were skipped, with file, line and reason."""
    catalog: str | None = None
    """The project's catalog this report is of (i18n_check reports each catalog of a locale apart);
    None for a locale of bundles (bundle_dirs, i18n_add_messages)."""
    total: int | None = None
    """The source's keys in this catalog, as i18n_status counts them; None for a locale of bundles."""
    file_problems: list[FileLevelProblem] = field(default_factory=list)
    """The catalog's files that could not be read (the locale's, then the source's)."""


@dataclass(frozen=True)
class LocaleSummary:
    code: str
    language: str
    region: str | None
    message_count: int
    script: str | None
    """The script the locale is written in (its own subtag, or CLDR's likely script)."""
    display_name: str | None
    coverage: float | None
