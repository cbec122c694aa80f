"""Where the strings-admin service lives and how patiently the pack talks to it.

Settings come from `[packs.strings_admin]` in parlance.toml; the environment variables the PRD
names (`STRINGS_ADMIN_HOST`, `BASE_PATH`) override `host` and `base_path`, so a container can be
pointed at a service without a config file. The default host is the local emulator
(`parlance strings-admin emulator`), never a production address.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from parlance import ConfigError

__all__ = [
    "BASE_PATH_ENV",
    "DEFAULT_BASE_PATH",
    "DEFAULT_HOST",
    "HOST_ENV",
    "Endpoint",
    "StringsAdminSettings",
    "normalize_base_path",
    "normalize_host",
    "resolve_endpoint",
]

DEFAULT_HOST = "http://127.0.0.1:8088"
"""The emulator's default address: an unconfigured server only ever talks to loopback."""
DEFAULT_BASE_PATH = "/ms/strings-admin/internal/"
HOST_ENV = "STRINGS_ADMIN_HOST"
BASE_PATH_ENV = "BASE_PATH"


def normalize_host(value: str) -> str:
    """Return `value` as `scheme://host[:port][/prefix]` without a trailing slash.

    Raises ValueError (a sentence saying what is wrong) unless it is an http(s) URL with a host
    and nothing that would change where requests go: no credentials, query or fragment.
    """
    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"must be an http:// or https:// URL with a host, such as {DEFAULT_HOST!r}; got {value!r}")
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise ValueError(f"has an invalid port: {value!r}") from None
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"must not contain credentials (user:password@); got a URL with them for host {parts.hostname!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"must not contain '?' or '#'; got {value!r}")
    return text.rstrip("/")


def normalize_base_path(value: str) -> str:
    """Return `value` with exactly one leading and one trailing slash.

    Raises ValueError for a query, fragment, whitespace or a `.`/`..` segment, any of which would
    make the request go somewhere other than the path written in the config.
    """
    text = value.strip()
    if any(ch in text for ch in "?#") or any(ch.isspace() for ch in text):
        raise ValueError(f"must be a plain URL path such as {DEFAULT_BASE_PATH!r}; got {value!r}")
    segments = [segment for segment in text.split("/") if segment]
    if any(segment in (".", "..") for segment in segments):
        raise ValueError(f"must not contain '.' or '..' segments; got {value!r}")
    return "/" + "".join(f"{segment}/" for segment in segments)


class StringsAdminSettings(BaseModel):
    """`[packs.strings_admin]` in parlance.toml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(
        default=DEFAULT_HOST,
        description=f"Base URL of the strings-admin service (http or https). ${HOST_ENV} overrides it.",
    )
    base_path: str = Field(
        default=DEFAULT_BASE_PATH,
        description=f"Path prefix of the service's REST API. ${BASE_PATH_ENV} overrides it.",
    )
    timeout_s: float = Field(
        default=10.0,
        gt=0,
        le=300,
        description="Longest a tool call may spend on the service, retries and backoff included.",
    )
    retries: int = Field(
        default=2, ge=0, le=10, description="Extra attempts after a connection failure (never after a reply)."
    )
    max_response_bytes: int = Field(
        default=1_048_576,
        ge=1024,
        le=64 * 1_048_576,
        description="Replies longer than this are not read further (the scopes list must fit).",
    )

    @field_validator("host")
    @classmethod
    def _host_is_http(cls, value: str) -> str:
        return normalize_host(value)

    @field_validator("base_path")
    @classmethod
    def _base_path_is_plain(cls, value: str) -> str:
        return normalize_base_path(value)


@dataclass(frozen=True)
class Endpoint:
    """The service root every request is built on: `{host}{base_path}`, always ending in '/'."""

    host: str
    base_path: str

    @property
    def root(self) -> str:
        return f"{self.host}{self.base_path}"


def resolve_endpoint(settings: StringsAdminSettings, environ: Mapping[str, str] | None = None) -> Endpoint:
    """Apply the environment overrides to the configured host and base path.

    An empty variable counts as unset (`docker run -e STRINGS_ADMIN_HOST=` should not break the
    config). A bad value raises ConfigError naming the variable and the fix.
    """
    env = os.environ if environ is None else environ
    return Endpoint(
        host=_override(env, HOST_ENV, normalize_host, settings.host),
        base_path=_override(env, BASE_PATH_ENV, normalize_base_path, settings.base_path),
    )


def _override(env: Mapping[str, str], name: str, normalize: Callable[[str], str], configured: str) -> str:
    raw = env.get(name, "")
    if not raw.strip():
        return configured
    try:
        return normalize(raw)
    except ValueError as exc:
        raise ConfigError(
            f"environment variable {name} {exc}",
            fix=f"set {name} to a value like {configured!r}, or unset it to use [packs.strings_admin] in parlance.toml",
        ) from None
