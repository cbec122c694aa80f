"""`[packs.i18n]` in parlance.toml.

    [packs.i18n]
    default_locale = "en"                                  # used when a call names no locale, and last in every chain
    fallbacks = {"pt-BR" = ["pt-PT"], default = ["en"]}    # extra lookup steps; `default` ends every chain
    source_locale = "en"                                   # what translations are made from (default: default_locale)
    bundle_dirs = ["locales"]                              # <locale>.json / <locale>.po loaded at startup
    language_pack_bundles = false                          # true: language packs' sample bundles join too
    write = false                                          # true: offer the tools that write catalog files
    git_commit = false                                     # true: each applied write call is one git commit
    git_author_email = "{subject}@users.noreply.parlance"  # its author's email; {subject}: the token's subject
    glossaries = ["glossary/de.toml"]                      # win over language packs' glossary/<lang>.toml

    [[packs.i18n.catalogs]]                                # a project's own catalog files, any format
    path = "locales/{locale}/translation.json"             # relative to parlance.toml; {locale}, {domain}
    format = "i18next"                                     # optional: detected from the files when absent
    name = "web"                                           # optional: how tools and reports name it
    template = "po/{domain}.pot"                           # optional, gettext: the template whose entries are the keys
    syntax = "symfony"                                     # optional: the framework's syntax inside messages
    max_output_chars = 10000                               # a rendered message is cut at this length
    max_message_chars = 10000                              # a longer message (or key) is rejected
    max_messages = 100000                                  # per bundle, merges included
    session_max_messages = 200000                          # in all the bundles one session adds
    session_max_bytes = 33554432                           # of keys and messages (UTF-8) one session adds
    session_max_locales = 100                              # locales one session adds bundles for
    max_file_bytes = 67108864                              # a larger catalog file is reported, not read
    max_file_messages = 100000                             # ... one holding more messages
    max_file_chars = 67108864                              # ... one whose keys and texts hold more characters
    max_write_messages = 2000                              # most messages one write call takes
    max_write_chars = 4194304                              # most characters of keys and texts one write call takes
    allow_outside_project = false                          # true: configured paths may lead outside the project

    [[packs.i18n.sources]]                                 # the code that calls a catalog: see `code.settings`
    paths = ["src/**/*.tsx"]                               # globs relative to parlance.toml

`catalogs` are read lazily: a locale's files when the locale is first asked for (or checked), a
message compiled when first rendered. `{locale}` in a path matches the format's own spelling of a
locale (`pt_BR`, `pt-BR`, Android `pt-rBR` / `b+sr+Latn`, Apple `pt-BR` in `pt-BR.lproj`) and
`{domain}` any gettext domain; Android's unqualified `values` folder is the source locale.

A gettext catalog needs no source locale's file: each locale's PO file carries its sources (msgid,
msgid_plural). Its `template` (a `.pot`, `{domain}` standing for a file's domain) makes the
template's entries the keys, as `msgmerge` uses it: the same folder rules hold for it as for `path`.

`syntax` says what a framework writes inside a format's messages where the format cannot tell: XLIFF
`symfony` (`%name%` and `{{ name }}` parameters, `|` plurals; `+intl-icu` domains are ICU), `symfony-icu`
(every file ICU MessageFormat), `angular` (ICU in `<target>`, `<x id="INTERPOLATION"/>`) or `plain`
(none, nothing detected); properties `always-messageformat` (the application formats every message
with `MessageFormat`, so `''` is one apostrophe even without arguments). Unset, each XLIFF file's
syntax is told from the file where it shows (the formats say how: `CatalogFormat.for_file`).

Locale codes are validated here, so a typo fails at startup with the key that holds it.

**The project's namespace.** The locales and keys the tools report are the project's own: its
catalogs, `bundle_dirs`, and what a session adds. Language packs give their prompts, glossaries and
style notes; their sample bundles (`messages/`: `cart.items`, `app.greeting`, ...) join only with
`language_pack_bundles = true` (which `parlance demo` and a setup without a project of its own may
want), so a project's counts never include keys it does not have.

**The project's folder.** Every file the pack opens must lie inside `project_root`, which the host
sets to the folder of parlance.toml (the working folder without one; see `store` for the rule). A
catalog path that leads outside it — a `..`, an absolute path elsewhere, or a folder on the way
that is a link (the host resolves links in configured paths) — is a configuration error naming the
key, unless `allow_outside_project = true` says so on purpose; each such catalog is then held to
its own folder. Settings built in code (no host) leave `project_root` relative: no project folder
is known, and each catalog is held to its own folder, as a path given on a command line is.

The `max_file_` settings bound what one catalog file may be and expand to (a file past one is a
problem of its locale, naming the setting, and is not served); the `max_write_` ones what one write
call may carry, refused before any work with INVALID_ARGUMENTS.

`git_commit` makes each write call that changed files one commit on the checkout's current branch,
of exactly the files it wrote (catalogs, the lock file, a source file `i18n_extract` edited),
authored by the OAuth token's subject (`Subject <git_author_email>`; without `[auth]`, git's
configured user), committed by git's configured user, with the trailers `Parlance-Tool` and
`Parlance-Subject`; git runs without hooks and without signing (`loop.commits` says why). A commit
that cannot be made is a note in the answer, never a failed write.

The `session_` settings are one budget per session for what `i18n_add_messages` keeps (bundles
loaded at startup are shared and count for no one; a merge into one makes a session bundle of the
whole). A call that would pass it is refused before anything compiles, with
SESSION_BUDGET_EXCEEDED naming the setting. At the defaults a session holds at most 32 MiB of text
in 200,000 messages, about 100 MB with what they compile to in the worst shapes measured (see
`messageformat`; messages compiled on first render share one cache of 16 MiB per process).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from parlance_i18n import formats
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.errors import InvalidLocale
from parlance_i18n.formats import FORMAT_NAMES, SYNTAXES
from parlance_i18n.locales import LocaleTag, parse_locale

__all__ = ["DEFAULT_LIMITS", "CatalogSource", "I18nSettings", "Limits", "fixed_folder"]

_PLACEHOLDER = re.compile(r"\{(\w*)\}")
_PLACEHOLDERS = ("locale", "domain")


@dataclass(frozen=True)
class Limits:
    """Size limits that keep one client from exhausting the server (all configurable in settings).

    The `session_` ones are one budget for everything a session adds (see `Translator.admit`).
    """

    max_message_chars: int = 10_000
    max_messages: int = 100_000
    max_output_chars: int = 10_000
    session_max_messages: int = 200_000
    session_max_bytes: int = 32 * 1024 * 1024
    session_max_locales: int = 100


DEFAULT_LIMITS = Limits()


class CatalogSource(BaseModel):
    """One `[[packs.i18n.catalogs]]` entry: where a project keeps one catalog's files."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # A pattern: `parlance config check` warns when it matches no file (an error with --strict), and
    # i18n_status names it among its catalog_problems.
    path: Path = Field(description="File path with {locale} (and {domain} for gettext), relative to parlance.toml; "
                                   "a multi-locale file (.xcstrings) needs no {locale}.")
    format: str | None = Field(None, description="Format name (detected from the files when absent): "
                                                 + ", ".join(FORMAT_NAMES) + ".")
    name: str | None = Field(None, min_length=1, max_length=64,
                             description="How tools and reports name the catalog (default: its path).")
    # A pattern where it names {domain}: `parlance config check` warns when it matches no file, as for `path`.
    template: Path | None = Field(None, description="gettext: the template (.pot) whose entries are the catalog's "
                                                    "keys, as msgmerge uses it; {domain} stands for the file's "
                                                    "domain. Relative to parlance.toml.")
    syntax: str | None = Field(None, description="What the framework writes inside the messages, where the "
                                                 "format's own rules do not say (default: told from each file "
                                                 "where it shows, else none): " + ", ".join(SYNTAXES) + ".")

    @field_validator("format")
    @classmethod
    def _known_format(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                return formats.canonical_name(value)
            except KeyError as exc:
                raise ValueError(str(exc.args[0])) from None
        return value

    @model_validator(mode="after")
    def _known_syntax(self) -> CatalogSource:
        """A syntax some format knows, and the catalog's own format's when it names one."""
        if self.syntax is None:
            return self
        if self.format is not None:
            known = formats.syntaxes_of(self.format)
            if self.syntax not in known:
                choices = f"choose one of: {', '.join(known)}" if known else "it has none: remove `syntax`"
                raise ValueError(f"syntax {self.syntax!r} is not one the {self.format} format knows; {choices}")
        elif self.syntax not in SYNTAXES:
            raise ValueError(f"unknown syntax {self.syntax!r}; choose one of: {', '.join(SYNTAXES)}")
        return self

    @field_validator("path")
    @classmethod
    def _known_placeholders(cls, value: Path) -> Path:
        for name in _PLACEHOLDER.findall(str(value)):
            if name not in _PLACEHOLDERS:
                raise ValueError(f"unknown placeholder {{{name}}} in the path: use {{locale}} and {{domain}}")
        if str(value).count("{locale}") > 1:
            raise ValueError("{locale} may appear once in a catalog path")
        return value

    @field_validator("template")
    @classmethod
    def _template_placeholders(cls, value: Path | None) -> Path | None:
        if value is None:
            return value
        for name in _PLACEHOLDER.findall(str(value)):
            if name != "domain":
                raise ValueError(f"unknown placeholder {{{name}}} in the template: a template is every locale's, "
                                 "so only {domain} may appear (the domain of the locale's file)")
        return value

    @model_validator(mode="after")
    def _template_domain(self) -> CatalogSource:
        if self.template is not None and "{domain}" in str(self.template) and "{domain}" not in str(self.path):
            raise ValueError("the template names {domain} but the path does not: put {domain} in the path too, or "
                             "name the template's file")
        return self

    @property
    def label(self) -> str:
        return self.name or str(self.path)

    def template_for(self, domain: str | None) -> Path | None:
        """The template of a file of `domain` (the template with {domain} filled), or None."""
        if self.template is None:
            return None
        return Path(str(self.template).replace("{domain}", domain)) if domain is not None else self.template


class I18nSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    default_locale: str = Field(default="en", description="Locale used when a call names none, and the last fallback.")
    fallbacks: dict[str, list[str]] = Field(
        default_factory=dict,
        description='Extra lookup steps per locale, e.g. {"pt-BR": ["pt-PT"]}; the key "default" ends every chain.',
    )
    source_locale: str | None = Field(
        None, description="The locale translations are made from, checked against (default: default_locale)."
    )
    catalogs: list[CatalogSource] = Field(
        default_factory=list, description="A project's catalog files: [[packs.i18n.catalogs]] path, format, name."
    )
    sources: list[SourceSettings] = Field(
        default_factory=list, description="The code that calls the catalogs: [[packs.i18n.sources]] paths, exclude, "
                                          "catalog, framework (i18n_usage, i18n_hardcoded; i18n_extract with write)."
    )
    write: bool = Field(
        False, description="Offer the tools that write the project's catalog files (i18n_set_messages, "
                           "i18n_rename_key, i18n_delete_keys, i18n_translate_missing); off, they are not listed."
    )
    git_commit: bool = Field(
        False, description="Make each write call that changed files one git commit on the checkout's current "
                           "branch, of exactly the files it wrote, authored by the OAuth token's subject "
                           "(git_author_email) and committed by git's configured user; git runs without hooks or "
                           "signing. A commit that fails is a note in the answer, not a failed write."
    )
    git_author_email: str = Field(
        "{subject}@users.noreply.parlance", min_length=1, max_length=200,
        description="The email of git_commit's author: {subject} is the token's subject, characters an address "
                    "cannot hold made '-' (without [auth], git's configured user is the author)."
    )
    glossaries: list[Path] = Field(
        default_factory=list, description="Glossary files (<lang>.toml or .csv) that win over language packs' glossaries."
    )
    lock_file: Path = Field(
        Path("parlance-i18n.lock"), description="Where the source text each translation was made from is "
                                                 "recorded, to find stale ones (relative to parlance.toml).",
        json_schema_extra={"x-parlance-created": True},
    )
    bundle_dirs: list[Path] = Field(
        default_factory=list, description="Directories of <locale>.json / <locale>.po files."
    )
    language_pack_bundles: bool = Field(
        False, description="Load the message bundles of language packs' messages/ folders (samples such as "
                           "cart.items) as bundles. Off, the locales and keys are the project's own: its "
                           "catalogs, bundle_dirs and what a session adds; language packs still give prompts, "
                           "glossaries and notes."
    )
    max_output_chars: int = Field(
        default=10_000, ge=16, le=10_000_000, description="Rendered messages are cut at this length."
    )
    max_message_chars: int = Field(default=10_000, ge=16, le=1_000_000, description="Longest accepted message.")
    max_messages: int = Field(default=100_000, ge=1, le=10_000_000, description="Most messages in one bundle.")
    session_max_messages: int = Field(
        default=200_000, ge=1, le=100_000_000, description="Most messages in all the bundles one session adds."
    )
    session_max_bytes: int = Field(
        default=32 * 1024 * 1024, ge=1, le=1 << 40,
        description="Most bytes of keys and messages (UTF-8) in all the bundles one session adds.",
    )
    session_max_locales: int = Field(
        default=100, ge=1, le=100_000, description="Most locales one session adds bundles for."
    )
    max_file_bytes: int = Field(
        default=64 * 1024 * 1024, ge=1024, le=1 << 34,
        description="A catalog file larger than this (bytes) is reported as a problem and not read.",
    )
    max_file_messages: int = Field(
        default=100_000, ge=1, le=10_000_000,
        description="A catalog file holding more messages than this is reported as a problem and not served.",
    )
    max_file_chars: int = Field(
        default=64 * 1024 * 1024, ge=1024, le=1 << 34,
        description="A catalog file whose keys and texts hold more characters than this once read (aliases "
                    "expanded) is reported as a problem and not served.",
    )
    max_write_messages: int = Field(
        default=2_000, ge=1, le=2_000,
        description="Most messages one i18n_set_messages call may carry (2,000 at most, the tool's own cap).",
    )
    max_write_chars: int = Field(
        default=4 * 1024 * 1024, ge=16, le=1 << 30,
        description="Most characters, keys and texts together, one i18n_set_messages call may carry.",
    )
    project_root: Path = Field(
        Path("."), description="The project's folder: every file the pack opens must lie inside it. Default: the "
                               "folder of parlance.toml; set it to a folder above when parlance.toml is in a "
                               "subfolder of the project.",
        json_schema_extra={"x-parlance-created": True},
    )
    allow_outside_project: bool = Field(
        False, description="Let configured paths (catalogs, lock_file, glossaries, bundle_dirs) lead outside the "
                           "project's folder, each then held to its own folder. Off, such a catalog path is a "
                           "configuration error, and the other files are refused when used.",
    )

    @field_validator("default_locale")
    @classmethod
    def _canonical_default(cls, value: str) -> str:
        return _canonical(value, "default_locale")

    @field_validator("source_locale")
    @classmethod
    def _canonical_source(cls, value: str | None) -> str | None:
        return None if value is None else _canonical(value, "source_locale")

    @field_validator("catalogs")
    @classmethod
    def _distinct_names(cls, value: list[CatalogSource]) -> list[CatalogSource]:
        labels = [source.label for source in value]
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            raise ValueError(f"two catalogs are named {repeated[0]!r}: give each a distinct name")
        return value

    @field_validator("git_author_email")
    @classmethod
    def _an_address(cls, value: str) -> str:
        if any(c in value for c in "<>\n\r\0 ") or "@" not in value:
            raise ValueError("git_author_email is an address such as \"{subject}@users.noreply.example.org\" "
                             "(no spaces, no < or >)")
        if {name for name in _PLACEHOLDER.findall(value)} - {"subject"}:
            raise ValueError("git_author_email knows one placeholder, {subject}")
        return value

    @field_validator("fallbacks")
    @classmethod
    def _canonical_fallbacks(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        return {
            (key if key == "default" else _canonical(key, f"fallbacks key {key!r}")): [
                _canonical(target, f"fallbacks[{key!r}]") for target in targets
            ]
            for key, targets in value.items()
        }

    @model_validator(mode="after")
    def _sources_name_a_catalog(self) -> I18nSettings:
        """Each `sources` entry's catalog is a configured one; without one, the project has exactly one."""
        labels = [source.label for source in self.catalogs]
        for index, entry in enumerate(self.sources):
            if entry.catalog is not None and entry.catalog not in labels:
                raise ValueError(f"sources[{index}].catalog: there is no catalog named {entry.catalog!r}; the "
                                 f"project's catalogs are: {', '.join(labels) or 'none'}")
            if entry.catalog is None and len(labels) != 1:
                raise ValueError(f"sources[{index}] names no catalog and the project has {len(labels)}: set catalog "
                                 "to the one its code calls" if labels else
                                 f"sources[{index}]: the code calls a catalog, and [[packs.i18n.catalogs]] names none")
        return self

    @model_validator(mode="after")
    def _inside_the_project(self) -> I18nSettings:
        """Catalog paths stay inside the project's folder unless `allow_outside_project` says otherwise."""
        if self.allow_outside_project:
            return self
        root = self.root
        for index, source in enumerate(self.catalogs):
            for field, path in (("path", source.path), ("template", source.template)):
                if path is None:
                    continue
                where = f"catalogs[{index}].{field}" + (f" (catalog {source.name!r})" if source.name else "")
                leads_out = ".." in path.parts or (
                    root is not None and not Path(os.path.abspath(fixed_folder(path))).is_relative_to(root))
                if leads_out:
                    raise _outside(where)
        return self

    @property
    def root(self) -> Path | None:
        """The project's folder as the host resolved it, or None when the settings were built in code
        (`project_root` left relative): each catalog is then held to its own folder."""
        return self.project_root if self.project_root.is_absolute() else None

    @property
    def default_tag(self) -> LocaleTag:
        return parse_locale(self.default_locale)

    @property
    def source_tag(self) -> LocaleTag:
        return parse_locale(self.source_locale or self.default_locale)

    @property
    def fallback_tags(self) -> dict[str, list[LocaleTag]]:
        return {key: [parse_locale(t) for t in targets] for key, targets in self.fallbacks.items()}

    @property
    def limits(self) -> Limits:
        return Limits(self.max_message_chars, self.max_messages, self.max_output_chars,
                      self.session_max_messages, self.session_max_bytes, self.session_max_locales)


def fixed_folder(path: Path) -> Path:
    """The folders of a catalog path before its first placeholder (the file's folder without one): what
    the catalog's files are written inside."""
    parts = []
    for part in path.parts[:-1]:
        if "{" in part:
            break
        parts.append(part)
    return Path(*parts) if parts else Path(".")


def _outside(where: str) -> ValueError:
    return ValueError(
        f"{where} leads outside the project's folder, the folder of parlance.toml (through `..`, an "
        "absolute path elsewhere, or a folder on the way that is a link): Parlance reads and writes only "
        "inside the project, so a repository cannot point it at your other files. Keep the catalog "
        "inside the project, or, to serve files elsewhere on purpose, set [packs.i18n] "
        "allow_outside_project = true")


def _canonical(code: str, where: str) -> str:
    try:
        return parse_locale(code).code
    except InvalidLocale as exc:
        raise ValueError(f"{where}: {exc.message}") from None
