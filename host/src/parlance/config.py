"""`parlance.toml`: where it is found, what it may hold, and how its errors read.

Search order: `--config PATH`, `$PARLANCE_CONFIG`, `./parlance.toml`, then the user config dir
(`$XDG_CONFIG_HOME/parlance/parlance.toml`, `~/.config/parlance/parlance.toml`; on macOS
`~/Library/Application Support/parlance/parlance.toml`; on Windows `%APPDATA%\\parlance\\parlance.toml`).
No file at all means the defaults: stdio, every installed pack enabled.

Pack tables (`[packs.<name>]`) are kept raw here and validated later by the pack's own model,
after `parlance.pack_settings` has resolved their `${env:NAME}` references (or
`${env:NAME:-default}`) and relative paths. The tables keep the references as written, so
`parlance config show` can mask the values that came from the environment.

One rule for relative paths: a path written in parlance.toml resolves against the folder of that
file — `[language_packs] paths` here, and every setting a pack's model types as a `Path` when the
pack's table is validated (`parlance.pack_settings`), so packs need not know where the file was;
a relative default of such a setting marked as created too (a lock file beside parlance.toml). A
path given on the command line or in an environment variable (`--config`, `$PARLANCE_CONFIG`, a
setting written as `${env:NAME}...`) resolves against the working folder.

The environment is read in this module only, once per configuration: `read_environment` resolves
the variables the host honours (`PARLANCE_CONFIG`, `PARLANCE_PACKS`, `PARLANCE_STRICT_PACKS`, `UV`,
the platform's config and data folders) into a frozen `HostEnvironment`, which `Config.env` carries
for the rest of the host to read.

What is probably a typo but does not stop the host — an unknown table or key, a path that does not
exist — is a `ConfigWarning`, not an error: `parlance config check` lists them, `serve` logs them,
and `parlance config check --strict` fails on them.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from parlance._user_files import PARSER_LIMITS, FileTooLarge, NotARegularFile, read_user_file, reason
from parlance.errors import ConfigError

__all__ = ["AuthSettings", "Config", "ConfigWarning", "HostEnvironment", "HostSettings", "did_you_mean",
           "find_config_file",
           "load_config", "missing_path_warning", "read_environment", "resolve_path", "user_config_dir"]

HOST_KEYS_IN_PACK_TABLE = frozenset({"prefix", "enabled"})
ENV_REFERENCE = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
"""`${env:NAME}` or `${env:NAME:-default}` in a pack table: resolved by `parlance.pack_settings.resolve_env`,
shown as written by `Config.show`."""
_SECRET_NAME = re.compile(r"(token|secret|password|passwd|api[_-]?key|credential|auth)", re.IGNORECASE)
MASK = "********"
_URL_USERINFO = re.compile(r"://[^/@\s]+@")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HostSettings(_Section):
    transport: Literal["stdio", "http"] = "stdio"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["auto", "json", "text"] = Field(default="auto", description="auto: text when stderr is a "
                                                         "terminal, else one JSON object per line")
    bind: str = Field(default="127.0.0.1", description="HTTP bind address; loopback unless you mean it")
    port: int = Field(default=8000, ge=0, le=65535)
    allowed_hosts: list[str] = Field(default=[], description="Host headers HTTP clients may send ('name:port', "
                                     "'name:*'); required for a non-loopback bind")
    allowed_origins: list[str] = Field(default=[], description="Origin headers browsers may send")
    max_sessions: int = Field(default=1000, ge=1, le=1_000_000, description="HTTP sessions open at once; at the "
                              "cap the least recently used idle one is closed to admit a new client")
    session_idle_timeout_s: float = Field(default=1800, gt=0, le=86_400, description="an HTTP session with no "
                                          "request for this long is closed")
    shutdown_grace_s: float = Field(default=10, ge=0, le=600, description="on SIGTERM, SIGINT or the end of "
                                    "stdin, how long calls in flight may take to finish; 1 s later `parlance "
                                    "serve` exits whatever is still running")
    stateless_http: bool = Field(default=False, description="2025-11-25 HTTP without sessions: every POST stands "
                                 "alone (behind a load balancer, for one-shot clients); no per-session state, "
                                 "log level or subscriptions, and no sampling or elicitation mid-call")
    json_response: bool = Field(default=False, description="answer each HTTP POST with one JSON body instead of "
                                "an SSE stream: cheaper, but no progress or log messages during a call")
    sse_retry_ms: int = Field(default=1000, ge=0, le=600_000, description="HTTP streams are resumable: how long a "
                              "client whose stream dropped waits before it reconnects to pick up (0: not resumable)")
    public_url: str | None = Field(default=None, description="the canonical URL clients reach the MCP endpoint at "
                                   "(e.g. https://l10n.example.org/mcp): the token audience and the resource the "
                                   "protected-resource metadata names; required with [auth]")


class AuthSettings(_Section):
    """`[auth]`: Parlance as an OAuth 2.1 resource server (HTTP only; see `parlance._transport.http_auth`).

    Absent, HTTP serves without tokens, which `parlance serve` allows on a loopback bind only; a
    non-loopback bind needs an issuer here or `disabled_on_purpose = true` (logged at WARNING on every
    start). `client_secret` (and any value) may be written `${env:NAME}`: it is resolved when the
    server starts, so the secret never sits in the file.
    """

    issuer: str | None = Field(default=None, description="the authorization server: its metadata gives the JWKS; "
                               "tokens must carry iss = this")
    audience: str | None = Field(default=None, description="the aud tokens must carry (default: host.public_url)")
    read_scopes: list[str] = Field(default=["parlance:read"], description="needed by every tool declared "
                                   "read-only, and by every request other than tools/call (initialize, lists, "
                                   "resources, prompts)")
    write_scopes: list[str] = Field(default=["parlance:write"], description="needed by every tool not declared "
                                    "read-only (a tools/call needs its tool's scopes only)")
    service_write_scopes: list[str] = Field(default=["parlance:admin"], description="needed by every write tool "
                                            "that reaches a service outside the server (openWorldHint: "
                                            "strings_admin's create), instead of write_scopes")
    tool_scopes: dict[str, list[str]] = Field(default={}, description="per-tool override: tool name -> scopes")
    introspection_url: str | None = Field(default=None, description="RFC 7662 endpoint for opaque (non-JWT) "
                                          "tokens; without it only JWTs are accepted")
    client_id: str | None = Field(default=None, description="this server's client id at the introspection "
                                  "endpoint")
    client_secret: str | None = Field(default=None, description="its secret: write ${env:NAME}")
    disabled_on_purpose: bool = Field(default=False, description="serve HTTP with no authentication even on a "
                                      "non-loopback bind (behind an authenticating proxy); logged at WARNING")

    @field_validator("issuer", "introspection_url")
    @classmethod
    def _https(cls, value: str | None) -> str | None:
        """The issuer's keys and the introspection secret travel over TLS, except to a loopback test server."""
        if value is None or value.startswith("${env:"):
            return value
        parts = urlsplit(value)
        loopback = parts.hostname in ("localhost", "127.0.0.1", "::1")
        if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
            raise ValueError(f"{value!r}: use an https:// URL (http:// only to a loopback address), so the keys and "
                             "the client secret cannot be read or changed on the way")
        return value


class StateSettings(_Section):
    """`[state]`: where replicas share what must be shared (`parlance._state`). Without `url`, everything
    stays in this process (the embedded default)."""

    url: str | None = Field(default=None, description="postgresql://user@host/db of the shared engine: write "
                            "locks, the write log, idempotency keys, change notifications, requestState keys and "
                            "resumable streams; write ${env:NAME} to keep the password out of the file")

    @field_validator("url")
    @classmethod
    def _postgres(cls, value: str | None) -> str | None:
        if value is None or value.startswith("${env:"):
            return value
        if urlsplit(value).scheme not in ("postgresql", "postgres"):
            raise ValueError("[state] url names a PostgreSQL database: postgresql://user@host:5432/name")
        return value


class _PacksSection(BaseModel):
    model_config = ConfigDict(extra="allow")  # the extra keys are the per-pack tables
    enabled: list[str] | None = None
    disabled: list[str] = []
    autoload: bool = True


class _ToolsSection(_Section):
    disabled: list[str] = []


class _LanguagePacksSection(_Section):
    paths: list[str] | None = None
    autoload: bool = True


class _File(_Section):
    host: HostSettings = HostSettings()
    auth: AuthSettings | None = None
    state: StateSettings = StateSettings()
    packs: _PacksSection = _PacksSection()
    tools: _ToolsSection = _ToolsSection()
    language_packs: _LanguagePacksSection = _LanguagePacksSection()


_SECTIONS: dict[str, type[BaseModel]] = {"host": HostSettings, "auth": AuthSettings, "state": StateSettings,
                                         "packs": _PacksSection,
                                         "tools": _ToolsSection, "language_packs": _LanguagePacksSection}


@dataclass(frozen=True)
class ConfigWarning:
    """A setting that is probably a mistake but does not stop the host: an unknown table, key, pack
    or tool name, or a configured path that does not exist. Reads like a ConfigError: file, key,
    what is wrong, the fix (often a did-you-mean)."""

    file: str
    key: str
    message: str
    fix: str | None = None

    def as_error(self) -> ConfigError:
        return ConfigError(self.message, file=self.file, key=self.key, fix=self.fix)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "key": self.key, "message": self.message, "fix": self.fix, "text": str(self)}

    def __str__(self) -> str:
        return str(self.as_error())


_TRUE = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True)
class HostEnvironment:
    """The environment variables the host honours, read once (`read_environment`).

    `packs` (`PARLANCE_PACKS=a,b`) overrides the config's pack selection; `strict_packs`
    (`PARLANCE_STRICT_PACKS=1`) makes a pack failure fatal; `config_file` (`PARLANCE_CONFIG`) is
    where `find_config_file` looks after `--config`; `uv` (`$UV`, set by `uv run`) is the installer
    `parlance install` prefers. `variables` is the whole snapshot, for what names a variable at run
    time (`${env:NAME}` in a pack table, a client's config folder, a child process's PATH).
    """

    packs: tuple[str, ...] | None = None
    strict_packs: bool = False
    config_file: str | None = None
    uv: str | None = None
    config_home: Path = field(default_factory=lambda: _config_home({}))
    data_home: Path = field(default_factory=lambda: _data_home({}))
    # repr=False: the snapshot holds every secret in the environment; a logged repr must not.
    variables: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)


def read_environment(environ: Mapping[str, str] | None = None) -> HostEnvironment:
    """The host's settings from `environ` (default: the process environment, copied now)."""
    snapshot = dict(os.environ if environ is None else environ)
    raw_packs = snapshot.get("PARLANCE_PACKS")
    return HostEnvironment(
        packs=None if raw_packs is None else tuple(n.strip() for n in raw_packs.split(",") if n.strip()),
        strict_packs=snapshot.get("PARLANCE_STRICT_PACKS", "").strip().lower() in _TRUE,
        config_file=snapshot.get("PARLANCE_CONFIG") or None,
        uv=snapshot.get("UV") or None,
        config_home=_config_home(snapshot),
        data_home=_data_home(snapshot),
        variables=MappingProxyType(snapshot),
    )


def _config_home(environ: Mapping[str, str]) -> Path:
    if sys.platform == "win32":
        return Path(environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "parlance"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "parlance"
    return Path(environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "parlance"


def _data_home(environ: Mapping[str, str]) -> Path:
    """The user's data folder (language packs live in its `parlance/language_packs`)."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    if sys.platform == "win32":
        return Path(environ.get("APPDATA", Path.home()))
    return Path(environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


@dataclass
class Config:
    """The effective configuration: the file's settings and the environment (`env`) they were read with."""

    path: Path | None = None
    host: HostSettings = field(default_factory=HostSettings)
    auth: AuthSettings | None = None
    """`[auth]` as written (None without the table); `${env:...}` references still unresolved."""
    state: StateSettings = field(default_factory=StateSettings)
    """`[state]` as written; `${env:...}` references still unresolved (`resolved_state_url`)."""
    packs_enabled: list[str] | None = None
    packs_disabled: list[str] = field(default_factory=list)
    packs_autoload: bool = True
    pack_tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    tools_disabled: list[str] = field(default_factory=list)
    language_pack_paths: list[Path] | None = None
    language_packs_autoload: bool = True
    env: HostEnvironment = field(default_factory=read_environment)
    warnings: list[ConfigWarning] = field(default_factory=list)
    """What the file itself shows to be likely mistakes (unknown tables and keys, missing paths);
    the packs add theirs when they load (`PackSet.warnings`)."""

    @property
    def source(self) -> str:
        return str(self.path) if self.path else "(defaults: no parlance.toml found)"

    @property
    def base_dir(self) -> Path:
        """The folder relative paths in the file resolve against (the working folder without a file)."""
        return self.path.parent.resolve() if self.path else Path.cwd()

    def pack_table(self, pack: str) -> dict[str, Any]:
        return dict(self.pack_tables.get(pack, {}))

    def prefix_for(self, pack: str) -> str:
        prefix = self.pack_tables.get(pack, {}).get("prefix", "")
        if not isinstance(prefix, str):
            raise ConfigError("prefix must be a string", file=self.source, key=f"packs.{pack}.prefix",
                              fix=f'write e.g. prefix = "{pack}_"')
        return prefix

    def is_pack_enabled(self, pack: str) -> bool:
        if pack in self.packs_disabled or self.pack_tables.get(pack, {}).get("enabled") is False:
            return False
        if self.packs_enabled is not None:
            return pack in self.packs_enabled
        return self.packs_autoload

    def show(self, effective: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The effective configuration as data, secrets masked (for `parlance config show`).

        `effective` holds the validated settings of the loaded packs (`model_dump(mode="json")`),
        defaults included; a value the file wrote as a `${env:...}` reference is shown as written,
        never as what it resolved to. A pack without an entry there shows its table as written.
        """
        tables = {}
        for pack in sorted({*self.pack_tables, *(effective or {})}):
            raw = self.pack_tables.get(pack, {})
            settings = (effective or {}).get(pack)
            if settings is None:
                tables[pack] = {key: _mask(key, value) for key, value in raw.items()}
                continue
            shown = {key: _mask(key, raw[key]) for key in HOST_KEYS_IN_PACK_TABLE if key in raw}
            # A reference written under another spelling of its key (a field's name where the dump
            # uses its alias) cannot be matched to its value: every value the file did not write
            # under the dumped key is then withheld rather than risk showing a secret.
            unmatched_env = any(_mentions_env(v) for k, v in raw.items() if k not in settings)
            for key, value in settings.items():
                written = raw.get(key)
                if _mentions_env(written):
                    shown[key] = _mask(key, written)
                elif unmatched_env and key not in raw:
                    shown[key] = "(withheld: may come from the environment)"
                else:
                    shown[key] = _mask(key, value)
            tables[pack] = shown
        return {
            "source": self.source,
            "host": self.host.model_dump(),
            **({"auth": _mask("auth", self.auth.model_dump())} if self.auth is not None else {}),
            **({"state": {"url": _state_url_shown(self.state.url)}} if self.state.url is not None else {}),
            "packs": {
                "enabled": self.packs_enabled,
                "disabled": self.packs_disabled,
                "autoload": self.packs_autoload,
                **tables,
            },
            "tools": {"disabled": self.tools_disabled},
            "language_packs": {
                "paths": [str(p) for p in self.language_pack_paths] if self.language_pack_paths is not None else None,
                "autoload": self.language_packs_autoload,
            },
        }


def user_config_dir(env: HostEnvironment | None = None) -> Path:
    return (env or read_environment()).config_home


def find_config_file(explicit: str | os.PathLike[str] | None = None, *,
                     env: HostEnvironment | None = None) -> Path | None:
    """The config file to read, by the documented search order; None when there is none."""
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"config file {str(path)!r} {_not_a_file(path)}", fix="check the --config path")
        return path
    env = env or read_environment()
    from_env = env.config_file
    if from_env:
        path = Path(from_env)
        if not path.is_file():
            raise ConfigError(f"PARLANCE_CONFIG points at {from_env!r}, which {_not_a_file(path)}",
                              fix="unset PARLANCE_CONFIG or point it at a parlance.toml")
        return path
    for candidate in (Path.cwd() / "parlance.toml", env.config_home / "parlance.toml"):
        if candidate.is_file():
            return candidate
    return None


def _not_a_file(path: Path) -> str:
    return "is not a regular file" if path.exists() else "does not exist"


def load_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    """The file found by the search order, validated, with the environment read once alongside it."""
    env = read_environment()
    path = find_config_file(explicit, env=env)
    if path is None:
        return Config(env=env)
    try:
        raw = tomllib.loads(read_user_file(path).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=str(path), fix="fix the syntax at that line") from None
    except (NotARegularFile, FileTooLarge) as exc:  # a repository's parlance.toml may be anything
        raise ConfigError(f"cannot read the file: {reason(exc)}", file=str(path),
                          fix="make parlance.toml a regular TOML file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the file ({exc.__class__.__name__})", file=str(path)) from None
    except PARSER_LIMITS:  # tomllib recurses: nesting deeper than Python's stack; an integer past 4,300 digits
        raise ConfigError("TOML this parser cannot hold (nested too deeply, or a number too long)", file=str(path),
                          fix="no parlance.toml needs this: check the file") from None
    return config_from_dict(raw, path=path, env=env)


def config_from_dict(raw: dict[str, Any], *, path: Path | None = None, env: HostEnvironment | None = None) -> Config:
    """Validate a parsed parlance.toml (also used by tests and `parlance.testing.connect`).

    Unknown tables and keys are left out with a warning each (a did-you-mean when one is close);
    a known key with a wrong value is a ConfigError.
    """
    source = str(path) if path else "<config>"
    raw, warnings = _known_keys_only(raw, source)
    try:
        parsed = _File.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        fix = (
            "remove it (known sections: host, auth, state, packs, tools, language_packs)"
            if first["type"] == "extra_forbidden"
            else "see the configuration reference in the README"
        )
        raise ConfigError(first["msg"], file=source, key=key, fix=fix) from None
    tables: dict[str, dict[str, Any]] = {}
    for name, table in (parsed.packs.model_extra or {}).items():
        if not isinstance(table, dict):
            raise ConfigError(f"expected a table, got {table!r}", file=source, key=f"packs.{name}",
                              fix=f"write it as a [packs.{name}] table")
        tables[name] = table
    base = path.parent.resolve() if path else Path.cwd()
    paths = parsed.language_packs.paths
    language_pack_paths = [resolve_path(p, base) for p in paths] if paths is not None else None
    for written, resolved in zip(paths or [], language_pack_paths or []):
        if not resolved.exists():
            warnings.append(missing_path_warning(source, "language_packs.paths", written, resolved))
    return Config(
        path=path,
        host=parsed.host,
        auth=parsed.auth,
        state=parsed.state,
        packs_enabled=parsed.packs.enabled,
        packs_disabled=parsed.packs.disabled,
        packs_autoload=parsed.packs.autoload,
        pack_tables=tables,
        tools_disabled=parsed.tools.disabled,
        language_pack_paths=language_pack_paths,
        language_packs_autoload=parsed.language_packs.autoload,
        env=env or read_environment(),
        warnings=warnings,
    )


def did_you_mean(word: str, known: Iterable[str], *, quote: Callable[[str], str] = repr) -> str | None:
    """`did you mean 'x'?` for the closest of `known`, or None when nothing is close."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"did you mean {quote(close[0])}?" if close else None


def _known_keys_only(raw: dict[str, Any], source: str) -> tuple[dict[str, Any], list[ConfigWarning]]:
    """`raw` without the tables and keys no section knows, and a warning for each one left out."""
    warnings: list[ConfigWarning] = []
    kept: dict[str, Any] = {}
    for name, value in raw.items():
        section = _SECTIONS.get(name)
        if section is None:
            if isinstance(value, dict):
                fix = did_you_mean(name, _SECTIONS, quote=lambda s: f"[{s}]")
                warnings.append(ConfigWarning(source, name, "unknown table, ignored",
                                              fix or f"the tables are {_listing(f'[{s}]' for s in _SECTIONS)}"))
            else:
                owner = next((s for s, m in _SECTIONS.items() if name in m.model_fields), None)
                fix = f"move it into [{owner}]" if owner else did_you_mean(name, _SECTIONS, quote=lambda s: f"[{s}]")
                warnings.append(ConfigWarning(source, name, "unknown key outside any table, ignored",
                                              fix or f"the tables are {_listing(f'[{s}]' for s in _SECTIONS)}"))
            continue
        if not isinstance(value, dict):
            kept[name] = value  # validation says "expected a table"
            continue
        fields = list(section.model_fields)
        kept[name] = {}
        for key, item in value.items():
            if key in fields or (name == "packs" and isinstance(item, dict)):  # [packs.<name>] tables
                kept[name][key] = item
                continue
            extra = " and one [packs.<name>] table per pack" if name == "packs" else ""
            warnings.append(ConfigWarning(source, f"{name}.{key}", "unknown key, ignored",
                                          did_you_mean(key, fields) or f"[{name}] takes {_listing(fields)}{extra}"))
    return kept, warnings


def _listing(names: Iterable[str]) -> str:
    return ", ".join(names)


def resolve_path(value: str | os.PathLike[str], base: Path) -> Path:
    """`value` as an absolute path: `~` expanded, a relative path taken from `base`."""
    path = Path(value).expanduser()
    return (path if path.is_absolute() else base / path).resolve()


def missing_path_warning(source: str, key: str, written: str, resolved: Path) -> ConfigWarning:
    """The warning for a configured path that does not exist, with a did-you-mean from its folder."""
    where = f"{written!r}" if str(resolved) == written else f"{written!r} ({resolved})"
    try:
        siblings = [p.name for p in resolved.parent.iterdir()] if resolved.parent.is_dir() else []
    except OSError:  # unreadable folder: no suggestion
        siblings = []
    close = did_you_mean(resolved.name, siblings)
    return ConfigWarning(source, key, f"{where} does not exist",
                         close or "create it, or correct the path: a relative one starts at this file's folder")


def _state_url_shown(url: str) -> str:
    """`[state] url` as `config show` prints it: a reference as written; a literal URL with every password
    masked (the netloc's, and libpq's `password` parameters in the query)."""
    if url.startswith("${env:"):
        return url
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:***@{hostport}"
    query = "&".join(f"{name}=***" if name.lower() in ("password", "sslpassword") else f"{name}={value}"
                     for name, _, value in (item.partition("=") for item in parts.query.split("&") if item))
    return parts._replace(netloc=netloc, query=query).geturl()


def _mentions_env(value: Any) -> bool:
    if isinstance(value, str):
        return bool(ENV_REFERENCE.search(value))
    if isinstance(value, dict):
        return any(_mentions_env(v) for v in value.values())
    if isinstance(value, list):
        return any(_mentions_env(v) for v in value)
    return False


def _mask(key: str, value: Any) -> Any:
    """A value as `config show` prints it: secrets masked, `${env:...}` references shown as written."""
    if isinstance(value, str):
        if ENV_REFERENCE.fullmatch(value):
            return value  # the reference, never the value it resolves to
        if ENV_REFERENCE.search(value) or _SECRET_NAME.search(key):
            return MASK
        return _URL_USERINFO.sub(f"://{MASK}@", value)  # postgres://user:password@host
    if isinstance(value, dict):
        return {k: _mask(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(key, item) for item in value]  # a list inherits its key's secrecy
    return value
