"""`parlance.toml`: where it is found, what it may hold, and how its errors read.

Search order: `--config PATH`, `$PARLANCE_CONFIG`, `./parlance.toml`, then the user config dir
(`$XDG_CONFIG_HOME/parlance/parlance.toml`, `~/.config/parlance/parlance.toml`; on macOS
`~/Library/Application Support/parlance/parlance.toml`; on Windows `%APPDATA%\\parlance\\parlance.toml`).
No file at all means the defaults: stdio, every installed pack enabled.

Pack tables (`[packs.<name>]`) are kept raw here and validated later by the pack's own model,
after `${env:NAME}` references (or `${env:NAME:-default}`) are resolved. Values that came from the
environment are remembered so `parlance config show` can mask them.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlance.errors import ConfigError

__all__ = ["Config", "HostSettings", "find_config_file", "load_config", "resolve_env", "user_config_dir"]

HOST_KEYS_IN_PACK_TABLE = frozenset({"prefix", "enabled"})
_ENV_REF = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_SECRET_NAME = re.compile(r"(token|secret|password|passwd|api[_-]?key|credential|auth)", re.IGNORECASE)
MASK = "********"
_URL_USERINFO = re.compile(r"://[^/@\s]+@")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HostSettings(_Section):
    transport: Literal["stdio", "http"] = "stdio"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["json", "text"] = "json"
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
                                    "stdin, how long calls in flight may take to finish")


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
    packs: _PacksSection = _PacksSection()
    tools: _ToolsSection = _ToolsSection()
    language_packs: _LanguagePacksSection = _LanguagePacksSection()


@dataclass
class Config:
    """The effective configuration."""

    path: Path | None = None
    host: HostSettings = field(default_factory=HostSettings)
    packs_enabled: list[str] | None = None
    packs_disabled: list[str] = field(default_factory=list)
    packs_autoload: bool = True
    pack_tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    tools_disabled: list[str] = field(default_factory=list)
    language_pack_paths: list[Path] | None = None
    language_packs_autoload: bool = True

    @property
    def source(self) -> str:
        return str(self.path) if self.path else "(defaults: no parlance.toml found)"

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

    def show(self) -> dict[str, Any]:
        """The effective configuration as data, secrets masked (for `parlance config show`)."""
        tables = {}
        for pack, table in self.pack_tables.items():
            tables[pack] = {key: _mask(key, value) for key, value in table.items()}
        return {
            "source": self.source,
            "host": self.host.model_dump(),
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


def user_config_dir() -> Path:
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "parlance"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "parlance"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "parlance"


def find_config_file(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to read, by the documented search order; None when there is none."""
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"config file {str(path)!r} does not exist", fix="check the --config path")
        return path
    from_env = os.environ.get("PARLANCE_CONFIG")
    if from_env:
        path = Path(from_env)
        if not path.is_file():
            raise ConfigError(f"PARLANCE_CONFIG points at {from_env!r}, which does not exist",
                              fix="unset PARLANCE_CONFIG or point it at a parlance.toml")
        return path
    for candidate in (Path.cwd() / "parlance.toml", user_config_dir() / "parlance.toml"):
        if candidate.is_file():
            return candidate
    return None


def load_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    path = find_config_file(explicit)
    if path is None:
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=str(path), fix="fix the syntax at that line") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the file ({exc.__class__.__name__})", file=str(path)) from None
    return config_from_dict(raw, path=path)


def config_from_dict(raw: dict[str, Any], *, path: Path | None = None) -> Config:
    """Validate a parsed parlance.toml (also used by tests and `parlance.testing.connect`)."""
    source = str(path) if path else "<config>"
    try:
        parsed = _File.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        fix = (
            "remove it (known sections: host, packs, tools, language_packs)"
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
    base = path.parent if path else Path.cwd()
    paths = parsed.language_packs.paths
    return Config(
        path=path,
        host=parsed.host,
        packs_enabled=parsed.packs.enabled,
        packs_disabled=parsed.packs.disabled,
        packs_autoload=parsed.packs.autoload,
        pack_tables=tables,
        tools_disabled=parsed.tools.disabled,
        language_pack_paths=[(base / p).resolve() for p in paths] if paths is not None else None,
        language_packs_autoload=parsed.language_packs.autoload,
    )


def resolve_env(value: Any, *, file: str, key: str) -> Any:
    """Replace `${env:NAME}` / `${env:NAME:-default}` in strings, recursively."""
    if isinstance(value, str):
        def substitute(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(2)
            if name in os.environ:
                return os.environ[name]
            if default is not None:
                return default
            raise ConfigError(f"refers to the environment variable {name}, which is not set", file=file, key=key,
                              fix=f"export {name}=..., or write ${{env:{name}:-default}}")
        return _ENV_REF.sub(substitute, value)
    if isinstance(value, dict):
        return {k: resolve_env(v, file=file, key=f"{key}.{k}") for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_env(v, file=file, key=f"{key}[{i}]") for i, v in enumerate(value)]
    return value


def _mask(key: str, value: Any) -> Any:
    """A value as `config show` prints it: secrets masked, `${env:...}` references shown as written."""
    if isinstance(value, str):
        if _ENV_REF.fullmatch(value):
            return value  # the reference, never the value it resolves to
        if _ENV_REF.search(value) or _SECRET_NAME.search(key):
            return MASK
        return _URL_USERINFO.sub(f"://{MASK}@", value)  # postgres://user:password@host
    if isinstance(value, dict):
        return {k: _mask(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(key, item) for item in value]  # a list inherits its key's secrecy
    return value
