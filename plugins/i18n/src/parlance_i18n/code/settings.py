"""`[[packs.i18n.sources]]` in parlance.toml: where the code that calls a catalog lives.

    [[packs.i18n.sources]]
    paths = ["src/**/*.ts", "src/**/*.tsx"]   # globs relative to parlance.toml; .gitignore'd files skipped
    exclude = ["**/*.test.tsx"]
    catalog = "app"                           # the catalog the code calls; optional with one catalog
    framework = "i18next"                     # told from the catalog's format when absent

The options a framework's own extractor takes, where they change which keys exist, have its names:
i18next `functions` (i18next-cli's: `["t", "*.t"]`), `ns_separator`, `key_separator`,
`default_namespace` (defaultNS), `trans_components`; FormatJS `functions` (additionalFunctionNames),
`id_interpolation_pattern`; gettext and Django `keywords` (as `xgettext -k`: `"_l"`, `"npgettext:1c,2,3"`).
An option of another framework than the entry's is a configuration error, so a typo cannot pass.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from parlance_i18n.code.frameworks.registry import FRAMEWORK_NAMES

__all__ = ["FRAMEWORK_OPTIONS", "SourceSettings"]

FRAMEWORK_OPTIONS: dict[str, tuple[str, ...]] = {
    "functions": ("i18next", "formatjs"),
    "ns_separator": ("i18next",),
    "key_separator": ("i18next",),
    "default_namespace": ("i18next",),
    "trans_components": ("i18next",),
    "id_interpolation_pattern": ("formatjs",),
    "keywords": ("gettext", "django"),
}
"""Each framework option and the frameworks that take it."""


class SourceSettings(BaseModel):
    """One `[[packs.i18n.sources]]` entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paths: list[str] = Field(min_length=1, description="Globs of source files, relative to parlance.toml "
                                                       "(`**` for any folders); files .gitignore names are skipped.")
    exclude: list[str] = Field(default=[], description="Globs of files not to scan (tests, generated code).")
    catalog: str | None = Field(None, description="The catalog the code calls (its name or path); optional "
                                                  "when the project has one catalog.")
    framework: str | None = Field(None, description="The i18n framework the code uses (told from the catalog's "
                                                    "format when absent): " + ", ".join(FRAMEWORK_NAMES) + ".")
    functions: list[str] | None = Field(None, description="i18next and FormatJS: the translation functions, as "
                                                          "the extractor's `functions` / additionalFunctionNames.")
    ns_separator: str | Literal[False] | None = Field(None, description="i18next nsSeparator (default ':'); "
                                                                       "false: keys hold no namespace.")
    key_separator: str | Literal[False] | None = Field(None, description="i18next keySeparator (default '.').")
    default_namespace: str | None = Field(None, description="i18next defaultNS (default 'translation').")
    trans_components: list[str] | None = Field(None, description="i18next: components read as <Trans>.")
    id_interpolation_pattern: str | None = Field(None, description="FormatJS: how ids are generated for messages "
                                                                   "without one (default "
                                                                   "'[sha512:contenthash:base64:6]').")
    keywords: list[str] | None = Field(None, description="gettext and Django: extra keywords, as xgettext -k "
                                                         "takes them ('_l', 'npgettext:1c,2,3').")
    max_file_bytes: int = Field(2 * 1024 * 1024, ge=1024, le=256 * 1024 * 1024,
                                description="A larger source file (a bundle, generated code) is skipped and said so.")

    @field_validator("framework")
    @classmethod
    def _known_framework(cls, value: str | None) -> str | None:
        if value is not None and value not in FRAMEWORK_NAMES:
            raise ValueError(f"unknown framework {value!r}; choose one of: {', '.join(FRAMEWORK_NAMES)}")
        return value

    @field_validator("paths", "exclude")
    @classmethod
    def _relative_globs(cls, value: list[str]) -> list[str]:
        for glob in value:
            if not glob or glob.startswith("/") or ".." in glob.split("/"):
                raise ValueError(f"{glob!r}: a glob is relative to parlance.toml and stays inside the project "
                                 "(no leading '/', no '..')")
        return value

    @model_validator(mode="after")
    def _options_of_the_framework(self) -> SourceSettings:
        if self.framework is None:
            return self
        for option, frameworks in FRAMEWORK_OPTIONS.items():
            if getattr(self, option) is not None and self.framework not in frameworks:
                raise ValueError(f"{option} is an option of {' and '.join(frameworks)}, not of {self.framework}: "
                                 "remove it, or set the framework that takes it")
        return self
