"""Settings, environment overrides and path-segment encoding: plain Python, no MCP."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from parlance import ConfigError
from parlance_strings_admin.paths import path_segment
from parlance_strings_admin.settings import (
    DEFAULT_BASE_PATH,
    DEFAULT_HOST,
    StringsAdminSettings,
    resolve_endpoint,
)


def test_defaults_point_at_the_local_emulator() -> None:
    settings = StringsAdminSettings()
    assert resolve_endpoint(settings, {}).root == "http://127.0.0.1:8088/ms/strings-admin/internal/"
    assert (settings.host, settings.base_path) == (DEFAULT_HOST, DEFAULT_BASE_PATH)


@pytest.mark.parametrize(
    ("host", "expected"),
    [("http://svc:8080/", "http://svc:8080"), ("https://svc/prefix/", "https://svc/prefix"), (" http://[::1]:9 ", "http://[::1]:9")],
)
def test_hosts_are_normalised(host: str, expected: str) -> None:
    assert StringsAdminSettings(host=host).host == expected


@pytest.mark.parametrize(
    "host", ["ftp://svc", "svc:8080", "file:///etc/passwd", "http://", "http://svc?x=1", "http://svc#f",
             "http://user:pw@svc", "http://svc:99999", "javascript:alert(1)"],
)
def test_bad_hosts_are_refused_with_the_key_named(host: str) -> None:
    with pytest.raises(ValidationError) as caught:
        StringsAdminSettings(host=host)
    assert caught.value.errors()[0]["loc"] == ("host",)


@pytest.mark.parametrize(
    ("base_path", "expected"),
    [("/ms/strings-admin/internal", "/ms/strings-admin/internal/"), ("api", "/api/"), ("", "/"), ("//a//b//", "/a/b/")],
)
def test_base_paths_get_one_leading_and_trailing_slash(base_path: str, expected: str) -> None:
    assert StringsAdminSettings(base_path=base_path).base_path == expected


@pytest.mark.parametrize("base_path", ["/a/../b/", "/./", "/a?x=1", "/a#f", "/a b/"])
def test_bad_base_paths_are_refused(base_path: str) -> None:
    with pytest.raises(ValidationError):
        StringsAdminSettings(base_path=base_path)


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(ValidationError, match="timeout"):
        StringsAdminSettings(timeout=5)  # type: ignore[call-arg]


def test_environment_overrides_the_config() -> None:
    settings = StringsAdminSettings(host="http://configured:1", base_path="/configured/")
    env = {"STRINGS_ADMIN_HOST": "http://127.0.0.1:9/", "BASE_PATH": "/api/v2"}
    assert resolve_endpoint(settings, env).root == "http://127.0.0.1:9/api/v2/"
    assert resolve_endpoint(settings, {"STRINGS_ADMIN_HOST": "", "BASE_PATH": " "}).root == "http://configured:1/configured/"


def test_a_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"STRINGS_ADMIN_HOST.*http:// or https://.*unset it"):
        resolve_endpoint(StringsAdminSettings(), {"STRINGS_ADMIN_HOST": "ftp://svc"})
    with pytest.raises(ConfigError, match=r"BASE_PATH.*'\.\.'"):
        resolve_endpoint(StringsAdminSettings(), {"BASE_PATH": "/a/../"})


@pytest.mark.parametrize(
    ("value", "encoded"),
    [("checkout", "checkout"), ("a/b", "a%2Fb"), ("..", "%2E%2E"), (".", "%2E"), ("...", "..."), ("?x=1", "%3Fx%3D1"),
     ("#f", "%23f"), ("%2F", "%252F"), ("é", "%C3%A9"), ("a b", "a%20b"), ("a.b", "a.b")],
)
def test_path_segment_examples(value: str, encoded: str) -> None:
    assert path_segment(value) == encoded


@given(st.text(st.characters(exclude_categories=["Cs"]), min_size=1))  # tools refuse lone surrogates
def test_path_segment_is_one_safe_segment_that_decodes_back(value: str) -> None:
    encoded = path_segment(value)
    assert not set(encoded) & set("/?#[]@!$&'()*+,;= \\")
    assert encoded not in (".", "..")
    assert unquote(encoded, errors="strict") == value


def test_path_segment_refuses_empty() -> None:
    with pytest.raises(ValueError, match="empty"):
        path_segment("")
