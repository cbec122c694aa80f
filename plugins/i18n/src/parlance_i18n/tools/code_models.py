"""The code tools' inputs and outputs (i18n_usage, i18n_hardcoded, i18n_extract): what `tools/list` needs.

Kept apart from `code` (the scanner, tree-sitter and its grammars), which loads on the first call.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from parlance_i18n.tools.write_fields import COMMIT, IDEMPOTENCY_KEY

__all__ = ["CatalogUsageCounts", "DynamicKeyView", "ExtractInput", "ExtractOutput", "HardcodedInput",
           "HardcodedOutput", "HardcodedView", "KeyUseView", "PlaceView", "SkippedFileView", "UsageInput",
           "UsageOutput"]

_CURSOR = Field(None, max_length=512, description="`next_cursor` of the previous page.")


class PlaceView(BaseModel):
    file: str = Field(description="Relative to parlance.toml.")
    line: int
    column: int


class KeyUseView(BaseModel):
    key: str = Field(description="As the catalog names it.")
    references: list[PlaceView] = Field(description="Where the code calls it (the first 20).")
    reference_count: int
    default: str | None = Field(None, description="The source text the call carries (defaultValue, defaultMessage, "
                                                   "msgid), where it carries one.")
    plural: bool = Field(False, description="Called with a count: the catalog needs its plural forms.")


class DynamicKeyView(PlaceView):
    expression: str = Field(description="The key's expression as the code writes it.")
    prefix: str = Field(description="Its static start: catalog keys with it may be used and are not reported "
                                    "unused. Empty: the call could reach any key, and protects none.")
    reachable: int = Field(description="How many catalog keys the prefix reaches.")


class SkippedFileView(BaseModel):
    file: str
    reason: str


class UsageInput(BaseModel):
    catalog: str | None = Field(None, description="The catalog, by its name in parlance.toml (default: the one the "
                                                  "first [[packs.i18n.sources]] entry calls).")
    limit: int = Field(100, ge=1, le=1000, description="Most entries per list on one page.")
    cursor: str | None = _CURSOR


class UsageOutput(BaseModel):
    catalog: str
    framework: str
    used: list[KeyUseView]
    unused: list[str] = Field(description="Catalog keys nothing calls, as i18n_delete_keys takes them.")
    undefined: list[KeyUseView] = Field(description="Keys the code calls that the catalog lacks.")
    dynamic: list[DynamicKeyView] = Field(description="Calls whose key is built at run time.")
    counts: dict[str, int] = Field(description="used, unused, undefined, dynamic and reachable in all (every page).")
    files_scanned: int
    files_skipped: list[SkippedFileView] = Field(default_factory=list)
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class HardcodedInput(BaseModel):
    paths: list[str] | None = Field(None, max_length=50, description="Only files these globs match (relative to parlance.toml), "
                                                      "within the configured sources.")
    limit: int = Field(100, ge=1, le=1000, description="Most strings on one page.")
    cursor: str | None = _CURSOR


class HardcodedView(PlaceView):
    text: str = Field(description="What the user sees.")
    kind: str = Field(description="The kind of place: jsx-text, jsx-attribute:title, swiftui-text-verbatim, "
                                  "android-layout:text, django-template-text, ...")
    suggested_key: str = Field(description="A new key in the project's key style; i18n_extract takes it.")
    catalog: str


class HardcodedOutput(BaseModel):
    strings: list[HardcodedView]
    total: int
    files_scanned: int
    files_skipped: list[SkippedFileView] = Field(default_factory=list)
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")


class ExtractInput(BaseModel):
    file: str = Field(min_length=1, description="The source file, relative to parlance.toml, as i18n_hardcoded names it.")
    line: int = Field(ge=1)
    column: int = Field(ge=1)
    key: str | None = Field(None, min_length=1, max_length=512,
                            description="The new key (default: the suggested key i18n_hardcoded gives).")
    dry_run: bool = Field(False, description="Show both diffs; write nothing.")
    idempotency_key: str | None = IDEMPOTENCY_KEY


class ExtractOutput(BaseModel):
    dry_run: bool
    key: str
    catalog: str
    message: str = Field(description="The source message the catalog gets.")
    code_diff: str = Field(description="Unified diff of the source file.")
    catalog_diff: str = Field(description="Unified diff of the catalog's source-locale file (empty where the key "
                                          "exists with this text, or the framework's catalogs come from extraction).")
    notes: list[str] = Field(default_factory=list)
    commit: str | None = COMMIT


class CatalogUsageCounts(BaseModel):
    catalog: str
    used: int
    unused: int
    undefined: int
    dynamic: int
    files_scanned: int
