"""parlance.toml: the search order, validation errors that name file, key and fix, and masking."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance.config import MASK, find_config_file, load_config
from parlance.errors import ConfigError


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.delenv("PARLANCE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return tmp_path


def test_search_order(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_config_file() is None
    user = clean_env / "xdg" / "parlance" / "parlance.toml"
    user.parent.mkdir(parents=True)
    user.write_text("")
    assert find_config_file() == user
    local = clean_env / "cwd" / "parlance.toml"
    local.write_text("")
    assert find_config_file() == local
    from_env = clean_env / "env.toml"
    from_env.write_text("")
    monkeypatch.setenv("PARLANCE_CONFIG", str(from_env))
    assert find_config_file() == from_env
    explicit = clean_env / "explicit.toml"
    explicit.write_text("")
    assert find_config_file(explicit) == explicit


def test_missing_explicit_file(clean_env: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(clean_env / "nope.toml")


def test_bad_toml_names_the_file_and_line(clean_env: Path) -> None:
    path = clean_env / "bad.toml"
    path.write_text("[host]\nlog_level = \n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(path) in str(caught.value) and "line 2" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "key", "fix"),
    [
        ('[hosts]\ntransport = "stdio"\n', "[hosts]", "known sections"),
        ('[host]\ntransport = "carrier-pigeon"\n', "[host.transport]", "README"),
        ("[tools]\ndisabled = 3\n", "[tools.disabled]", "README"),
    ],
)
def test_validation_errors_name_file_key_and_fix(clean_env: Path, text: str, key: str, fix: str) -> None:
    path = clean_env / "parlance.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert str(path) in message and key in message and fix in message


def test_show_masks_secrets_and_keeps_env_references(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text(
        '[packs.strings_admin]\nhost = "http://127.0.0.1:8088"\napi_token = "hunter2"\n'
        'password = "${env:ADMIN_PASSWORD}"\nheader = "Bearer ${env:TOKEN}"\n'
    )
    shown = load_config(path).show()
    table = shown["packs"]["strings_admin"]
    assert table["host"] == "http://127.0.0.1:8088"
    assert table["api_token"] == MASK
    assert table["password"] == "${env:ADMIN_PASSWORD}"
    assert table["header"] == MASK
    assert "hunter2" not in str(shown)


def test_show_masks_secrets_in_lists_tables_and_urls(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text(
        '[packs.store]\napi_keys = ["k-123", "k-456"]\nheaders = [{Authorization = "Bearer abc"}]\n'
        'dsn = "postgres://app:s3cret@127.0.0.1/db"\nplain = ["a", "b"]\n'
    )
    table = load_config(path).show()["packs"]["store"]
    assert table["api_keys"] == [MASK, MASK]
    assert table["headers"] == [{"Authorization": MASK}]
    assert table["dsn"] == f"postgres://{MASK}@127.0.0.1/db"
    assert table["plain"] == ["a", "b"]


def test_language_pack_paths_are_relative_to_the_file(clean_env: Path) -> None:
    path = clean_env / "conf" / "parlance.toml"
    path.parent.mkdir()
    path.write_text('[language_packs]\npaths = ["lp"]\n')
    assert load_config(path).language_pack_paths == [(clean_env / "conf" / "lp").resolve()]
