"""The i18n tools' inputs and outputs: everything `tools/list` needs, and nothing else.

Kept apart from the engine (catalog, ICU compiler, CLDR data), so registering the tools at server
start imports only these models; the engine loads on the first call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "AddMessagesInput", "AddMessagesOutput", "ArgumentMismatch", "CheckInput", "CheckOutput", "InvalidMessage",
    "ListLocalesOutput",
    "LocaleReport", "LocaleSummary", "NoInput", "PluralGap", "TranslateInput", "TranslateOutput",
]


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
class LocaleReport:
    code: str
    message_count: int
    coverage: float | None
    """Share of the reference's keys found without the default chain; None without a reference."""
    missing_count: int = 0
    missing_keys: list[str] = field(default_factory=list)
    extra_count: int = 0
    extra_keys: list[str] = field(default_factory=list)
    argument_mismatches: list[ArgumentMismatch] = field(default_factory=list)
    plural_gaps: list[PluralGap] = field(default_factory=list)
    invalid_count: int = 0
    invalid_messages: list[InvalidMessage] = field(default_factory=list)
    """Messages of the project's catalog files that were skipped, with file, line and reason."""


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
    limit: int = Field(100, ge=1, le=10_000, description="Most keys listed per kind of finding.")


class CheckOutput(BaseModel):
    default_locale: str
    reference_locale: str | None = Field(
        description="The bundle checked against: the source locale's (None when it has none)."
    )
    locales: list[LocaleReport]
    catalog_problems: list[InvalidMessage] = Field(
        default_factory=list, description="Configured catalogs that match no file, or files whose format is unknown."
    )
