"""The i18n tools' inputs and outputs: everything `tools/list` needs, and nothing else.

Kept apart from the engine (catalog, ICU compiler, CLDR data), so registering the tools at server
start imports only these models; the engine loads on the first call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from parlance_i18n.loop.reports import LocaleStatusReport, SkippedMessage
from parlance_i18n.model.reports import ArgumentMismatch, InvalidMessage, LocaleReport, LocaleSummary, PluralGap
from parlance_i18n.tools.code_models import CatalogUsageCounts
from parlance_i18n.tools.write_fields import COMMIT, IDEMPOTENCY_KEY

__all__ = [
    "AddMessagesInput", "AddMessagesOutput", "ArgumentMismatch", "Candidate", "CheckInput", "CheckOutput",
    "DeleteKeysInput", "Example", "GlossaryTerm", "HistoryFile", "HistoryInput", "HistoryOutput", "HistoryRecord",
    "InvalidMessage", "KeyResult", "ListLocalesOutput",
    "LocaleStatusReport", "MissingInput", "MissingOutput", "RenameKeyInput", "SetMessagesInput", "SkippedMessage",
    "StatusInput", "StatusOutput", "TranslateMissingInput", "TranslateMissingOutput", "WorkItemView", "WriteOutput",
    "LocaleReport", "LocaleSummary", "NoInput", "PluralGap", "TranslateInput", "TranslateOutput",
]


Scalar = str | int | float | bool | None


# --- models --------------------------------------------------------------------------------------------


class TranslateInput(BaseModel):
    key: str = Field(min_length=1, description="Message key, e.g. 'greeting.hello'.")
    locale: str | None = Field(
        None, description="Target locale: 'es-MX', 'es_MX', 'zh-Hant-TW'. Default: the configured default locale."
    )
    variables: dict[str, Scalar] | None = Field(
        None, description="Values for the message's arguments, e.g. {\"name\": \"World\", \"count\": 3}."
    )


class TranslateOutput(BaseModel):
    translation: str = Field(description="The rendered message, or the raw key when nothing matched.")
    locale: str = Field(description="The locale of the bundle that matched (canonical BCP 47).")
    fallback: bool = Field(description="True when the default locale, another language, or the raw key was used.")


class AddMessagesInput(BaseModel):
    locale: str = Field(description="Locale of the bundle: 'de', 'pt_BR', 'zh-Hant-TW'.")
    messages: dict[str, Any] = Field(
        description="Message key -> ICU MessageFormat string; nested objects are flattened with dots."
    )
    merge: bool = Field(False, description="Add to this session's bundle for the locale instead of replacing it.")


class AddMessagesOutput(BaseModel):
    locale: str = Field(description="The bundle's canonical locale code.")
    message_count: int = Field(description="Messages in the bundle now.")
    status: Literal["success"] = "success"


class NoInput(BaseModel):
    pass


class ListLocalesOutput(BaseModel):
    locales: list[LocaleSummary]
    default_locale: str
    total: int


class CheckInput(BaseModel):
    locale: str | None = Field(None, description="Check only this locale (default: every loaded locale).")
    catalog: str | None = Field(None, description="Only this catalog of the project, by its name in parlance.toml.")
    details: bool = Field(False, description="Also list the keys behind each count (up to `limit` each); without "
                                             "it, counts and the files that cannot be read.")
    limit: int = Field(100, ge=1, le=10_000, description="Most keys listed per kind of finding, with details.")
    cursor: str | None = Field(None, max_length=512, description="`next_cursor` of the previous page.")


class CheckOutput(BaseModel):
    default_locale: str
    reference_locale: str | None = Field(
        description="The bundle checked against: the source locale's (None when it has none)."
    )
    locales: list[LocaleReport]
    catalog_problems: list[InvalidMessage] = Field(
        default_factory=list, description="Configured catalogs that match no file, or files whose format is unknown."
    )
    next_cursor: str | None = Field(
        None, description="More reports follow (an answer is kept to about 8 KB): pass it as `cursor`; null on the "
                          "last page.")


# --- the localization loop: status, work items, writes ------------------------------------------------

Candidate = str | dict[str, str]


@dataclass(frozen=True)
class GlossaryTerm:
    source: str
    target: str | None
    """The required translation; None: keep the source term as it is (do not translate)."""


@dataclass(frozen=True)
class Example:
    source: str
    translation: str


@dataclass(frozen=True)
class WorkItemView:
    key: str
    source: Candidate
    placeholders: list[str]
    plural_categories: list[str]
    """The CLDR categories the target locale needs for this message (empty when it is not a plural)."""
    catalog: str
    file: str | None
    reason: Literal["missing", "untranslated", "stale"] = "missing"
    """Why it is work: missing, still the source text, or translated from a source text that changed since."""
    comment: str | None = None
    context: str | None = None
    max_length: int | None = None
    glossary: list[GlossaryTerm] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)


@dataclass(frozen=True)
class KeyResult:
    key: str
    status: Literal["written", "unchanged", "refused"]
    reasons: list[str] = field(default_factory=list)
    file: str | None = None
    completed_from_file: list[str] = field(default_factory=list)
    """The plural forms not given, kept as the file had them (`["few", "many"]` when only `one` and
    `other` were given for Russian); empty when the message was written as given."""


class StatusInput(BaseModel):
    locale: str | None = Field(None, description="Only this locale (default: every locale of the project).")
    catalog: str | None = Field(None, description="Only this catalog, by its name in parlance.toml.")
    details: bool = Field(False, description="Also list the keys behind each count (up to `limit` each).")
    limit: int = Field(50, ge=1, le=1000, description="Most keys listed per kind, with details.")


class StatusOutput(BaseModel):
    source_locale: str
    catalogs: list[LocaleStatusReport]
    catalog_problems: list[InvalidMessage] = Field(
        default_factory=list, description="Configured catalogs that match no file (naming the path pattern), or "
                                          "files whose format is unknown.")
    usage: list[CatalogUsageCounts] = Field(
        default_factory=list, description="Per catalog the configured sources call: keys used, unused and undefined "
                                          "by the code, and calls with dynamic keys (i18n_usage lists them).")


class MissingInput(BaseModel):
    locale: str = Field(description="The locale to translate into: 'de', 'pt-BR'.")
    catalog: str | None = Field(None, description="Only this catalog, by its name in parlance.toml.")
    limit: int = Field(50, ge=1, le=500, description="Work items per page.")
    cursor: str | None = Field(None, max_length=512, description="`next_cursor` of the previous page.")


class MissingOutput(BaseModel):
    locale: str
    items: list[WorkItemView]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class SetMessagesInput(BaseModel):
    locale: str = Field(description="The locale the messages are in: 'de', 'pt-BR'.")
    messages: dict[str, Candidate] = Field(
        max_length=2000,
        description="Key -> message in the catalog's own syntax, or, for a plural, {category: message} "
                    "with every CLDR category the locale needs ('one', 'few', 'many', 'other', ...)."
    )
    catalog: str | None = Field(None, description="The catalog to write, by its name (default: where the key is).")
    dry_run: bool = Field(False, description="Validate and show the diff; write nothing.")
    allow_new_keys: bool = Field(False, description="Accept keys the source locale does not have.")
    create_locale: bool = Field(
        False,
        description="Start the locale's file where its catalog has none (a new locale): made from the catalog's "
                    "path and the format's own skeleton, then the messages are written into it. With no "
                    "messages, every catalog's file is started empty.",
    )
    idempotency_key: str | None = IDEMPOTENCY_KEY


class WriteOutput(BaseModel):
    dry_run: bool = Field(description="True: nothing was written; `written` then means 'would be written'.")
    written: int
    unchanged: int
    refused: int
    results: list[KeyResult]
    diff: str = Field(description="Unified diff of every file touched (what would change, on a dry run).")
    notes: list[str] = Field(default_factory=list, description="What else to know, e.g. a lock file not updated.")
    commit: str | None = COMMIT


class RenameKeyInput(BaseModel):
    old: str = Field(min_length=1, description="The key as it is now.")
    new: str = Field(min_length=1, description="The key it becomes, in every locale of the catalog.")
    catalog: str | None = Field(None, description="Only this catalog, by its name in parlance.toml.")
    dry_run: bool = Field(False, description="Check and show the diff; write nothing.")
    idempotency_key: str | None = IDEMPOTENCY_KEY


class DeleteKeysInput(BaseModel):
    keys: list[str] = Field(min_length=1, max_length=1000, description="Keys to delete in every locale.")
    catalog: str | None = Field(None, description="Only this catalog, by its name in parlance.toml.")
    dry_run: bool = Field(False, description="Check and show the diff; write nothing.")
    idempotency_key: str | None = IDEMPOTENCY_KEY


class TranslateMissingInput(BaseModel):
    locale: str = Field(description="The locale to translate into.")
    catalog: str | None = Field(None, description="Only this catalog, by its name in parlance.toml.")
    limit: int = Field(50, ge=1, le=200, description="Most messages translated in this call.")
    idempotency_key: str | None = IDEMPOTENCY_KEY


class TranslateMissingOutput(BaseModel):
    locale: str
    mode: Literal["sampled", "work_items"] = Field(
        description="sampled: this server asked your model and wrote what validated; work_items: your client "
                    "offers no sampling, so here are the items and the prompt: translate them and call "
                    "i18n_set_messages."
    )
    written: int = Field(0, description="Messages written (as i18n_set_messages counts them; 0 with work_items).")
    unchanged: int = 0
    refused: int = 0
    results: list[KeyResult] = Field(default_factory=list)
    items: list[WorkItemView] = Field(default_factory=list)
    next_cursor: str | None = None
    diff: str = ""
    notes: list[str] = Field(default_factory=list, description="What else to know, e.g. a git commit not made.")
    commit: str | None = COMMIT


# --- the write log (a shared engine's: [state] url) ---------------------------------------------------


class HistoryInput(BaseModel):
    key: str | None = Field(None, min_length=1, max_length=512, description="Only writes of this key.")
    locale: str | None = Field(None, description="Only writes into this locale.")
    catalog: str | None = Field(None, description="Only writes into this catalog, by its name in parlance.toml.")
    limit: int = Field(50, ge=1, le=200, description="Writes per page, newest first.")
    cursor: str | None = Field(None, max_length=512, description="`next_cursor` of the previous page.")


class HistoryFile(BaseModel):
    path: str = Field(description="Relative to the project's folder.")
    before: str | None = Field(description="SHA-256 of its bytes before the write; null: the write created it.")
    after: str | None = Field(description="SHA-256 of its bytes after the write; null: the write deleted it.")


class HistoryRecord(BaseModel):
    at: str = Field(description="When the write was applied (ISO 8601, UTC).")
    subject: str | None = Field(description="Who wrote: the OAuth token's subject (null without [auth]).")
    client_id: str | None = Field(description="The OAuth client (the agent) that wrote.")
    tool: str
    catalog: str | None
    locale: str | None
    keys: list[str] = Field(description="The keys written (renamed: the old and the new; deleted: those deleted).")
    files: list[HistoryFile]
    written: int
    refused: int


class HistoryOutput(BaseModel):
    records: list[HistoryRecord]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")
