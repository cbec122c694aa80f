"""parlance.toml: the search order, validation errors that name file, key and fix, and masking."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pydantic import BaseModel, ConfigDict, DirectoryPath, Field

import parlance
from parlance.config import MASK, config_from_dict, find_config_file, load_config
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


def _deep_toml(folder: Path) -> Path:
    path = folder / "parlance.toml"
    path.write_text("[host]\nallowed_hosts = " + "[" * 100_000 + "]" * 100_000 + "\n")
    return path


def _huge_toml(folder: Path) -> Path:
    path = folder / "parlance.toml"
    path.write_text('[host]\nlog_level = "INFO"\n' + "# padding\n" * 500_000)  # 5 MB
    return path


def _fifo(folder: Path) -> Path:
    path = folder / "parlance.toml"
    os.mkfifo(path)
    return path


def _link_to_dev_zero(folder: Path) -> Path:
    path = folder / "parlance.toml"
    path.symlink_to("/dev/zero")
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize(("make", "says"), [
    (_deep_toml, "TOML this parser cannot hold (nested too deeply"),
    (_huge_toml, "cannot read the file: larger than the 4 MiB"),
    (_fifo, "is not a regular file"),
    (_link_to_dev_zero, "is not a regular file"),
], ids=["deep", "huge", "fifo", "link-to-dev-zero"])
def test_a_parlance_toml_no_one_writes_is_a_config_error_at_once(clean_env: Path, make: Any, says: str) -> None:
    """A cloned repository's parlance.toml may be anything (issue 22): never a traceback, a hang or
    memory read away."""
    path = make(clean_env / "cwd")
    with pytest.raises(ConfigError, match=re.escape(says)):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "key", "fix"),
    [
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


# --- typos are warnings with a did-you-mean (issue 12) ---------------------------------------------


def _warnings(config) -> dict[str, str]:
    return {w.key: str(w) for w in config.warnings}


def test_unknown_tables_and_keys_are_warnings_with_a_did_you_mean(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text(
        'transport = "http"\n'
        '[hosts]\nport = 1\n'
        '[host]\nlog_levle = "DEBUG"\n'
        '[packs]\nenable = ["i18n"]\n'
        '[tool]\ndisabled = []\n'
        '[language_packs]\npath = ["lp"]\n'
        '[frobnicate]\nx = 1\n'
    )
    config = load_config(path)  # loads: typos never stop the host
    warned = _warnings(config)
    assert set(warned) == {"transport", "hosts", "host.log_levle", "packs.enable", "tool", "language_packs.path",
                           "frobnicate"}
    assert all(str(path) in text for text in warned.values())
    assert "move it into [host]" in warned["transport"]
    assert "did you mean [host]?" in warned["hosts"]
    assert "did you mean 'log_level'?" in warned["host.log_levle"]
    assert "did you mean 'enabled'?" in warned["packs.enable"]
    assert "did you mean [tools]?" in warned["tool"]
    assert "did you mean 'paths'?" in warned["language_packs.path"]
    assert "the tables are [host], [auth], [state], [packs], [tools], [language_packs]" in warned["frobnicate"]
    assert config.host.log_level == "INFO" and config.packs_enabled is None  # the unknown keys were left out


def test_a_language_pack_path_that_does_not_exist_is_a_warning(clean_env: Path) -> None:
    (clean_env / "conf" / "language-packs").mkdir(parents=True)
    path = clean_env / "conf" / "parlance.toml"
    path.write_text('[language_packs]\npaths = ["language-pack", "/nonexistent/lp", "language-packs"]\n')
    warned = [str(w) for w in load_config(path).warnings]
    assert len(warned) == 2
    assert "'language-pack'" in warned[0] and str(clean_env / "conf" / "language-pack") in warned[0]
    assert "did you mean 'language-packs'?" in warned[0]
    assert "'/nonexistent/lp' does not exist" in warned[1]


def test_known_keys_with_wrong_values_are_still_errors(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text('[hosts]\nport = 1\n[host]\nport = "eighty"\n')
    with pytest.raises(ConfigError, match=r"\[host.port\]"):
        load_config(path)


def test_log_format_defaults_to_auto(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text("")
    assert load_config(path).host.log_format == "auto"
    path.write_text('[host]\nlog_format = "json"\n')
    assert load_config(path).host.log_format == "json"


def test_show_gives_effective_settings_and_never_what_a_reference_resolved_to(clean_env: Path) -> None:
    path = clean_env / "parlance.toml"
    path.write_text('[packs.store]\nprefix = "s_"\ntoken = "${env:STORE_TOKEN}"\nurl = "http://127.0.0.1"\n')
    effective = {"store": {"token": "resolved-secret", "url": "http://127.0.0.1", "api_key": "default-key",
                           "retries": 3}}
    table = load_config(path).show(effective)["packs"]["store"]
    assert table == {"prefix": "s_", "token": "${env:STORE_TOKEN}", "url": "http://127.0.0.1", "api_key": MASK,
                     "retries": 3}


# --- one rule for relative paths: the folder of the file that named them ---------------------------


class _Inner(BaseModel):
    file: Path
    label: str = ""


class _PathSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    one: Path | None = None
    many: list[Path] = []
    named: dict[str, Path] = {}
    pair: tuple[Path, int] | None = None
    nested: list[_Inner] = []
    directory: DirectoryPath | None = None
    created: Path | None = Field(default=None, json_schema_extra={"x-parlance-created": True})
    not_a_path: str = ""


def test_path_settings_resolve_against_the_file_folder(clean_env: Path) -> None:
    from parlance.pack_settings import missing_path_settings, resolve_path_settings

    base = clean_env / "conf"
    table = {"one": "a", "many": ["b", "/abs/c", "${env:HOME}/d", "~/e"], "named": {"x": "f"}, "pair": ["g", 1],
             "nested": [{"file": "h", "label": "i"}], "directory": ".", "created": "out.db", "not_a_path": "j"}
    resolved = resolve_path_settings(_PathSettings, table, base, key="packs.p")
    assert resolved == {
        "one": str(base / "a"),
        "many": [str(base / "b"), "/abs/c", "${env:HOME}/d", str(Path.home() / "e")],
        "named": {"x": str(base / "f")},
        "pair": [str(base / "g"), 1],
        "nested": [{"file": str(base / "h"), "label": "i"}],
        "directory": str(base),
        "created": str(base / "out.db"),
        "not_a_path": "j",
    }
    missing = missing_path_settings(_PathSettings, resolved | {"many": [str(base / "b")]}, file="f.toml",
                                    key="packs.p")
    assert {w.key for w in missing} == {"packs.p.one", "packs.p.many[0]", "packs.p.named.x", "packs.p.pair[0]",
                                        "packs.p.nested[0].file", "packs.p.directory"}  # never `created`


class _DefaultPathSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lock: Path = Field(default=Path("app.lock"), json_schema_extra={"x-parlance-created": True})
    cache: Path = Field(default=Path("cache"), alias="cache-dir", json_schema_extra={"x-parlance-created": True})
    absolute: Path = Path("/var/app.lock")
    read_only: Path = Path("data")  # not created by the pack: its default is the pack's business
    nothing: Path | None = None


def test_a_relative_default_path_resolves_against_the_file_folder_too(clean_env: Path) -> None:
    from parlance.pack_settings import resolve_path_settings

    base = clean_env / "conf"
    resolved = resolve_path_settings(_DefaultPathSettings, {}, base, key="packs.p")
    assert resolved == {"lock": str(base / "app.lock"), "cache-dir": str(base / "cache")}
    assert _DefaultPathSettings.model_validate(resolved).cache == base / "cache"  # under the alias: accepted
    assert resolve_path_settings(_DefaultPathSettings, {"lock": "x.lock"}, base, key="packs.p")["lock"] == str(
        base / "x.lock")


def test_show_withholds_values_it_cannot_match_to_an_environment_reference() -> None:
    """A field written by its name where the dump uses its alias: the resolved secret must not show."""
    from parlance.config import Config

    config = Config(pack_tables={"p": {"token_value": "${env:P_TOKEN}", "mode": "fast"}})
    shown = config.show({"p": {"tokenValue": "resolved-secret-123", "mode": "fast", "retries": 2}})
    assert "resolved-secret-123" not in str(shown)
    assert shown["packs"]["p"]["mode"] == "fast"  # written under the dumped key: shown as usual


# --- issue 16: the environment is read in one place, into the Config ----------------------------


def test_the_environment_is_read_once_into_the_config(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config_file = clean_env / "elsewhere.toml"
    config_file.write_text("[host]\nport = 9000\n")
    monkeypatch.setenv("PARLANCE_CONFIG", str(config_file))
    monkeypatch.setenv("PARLANCE_PACKS", " core, greeter ,,")
    monkeypatch.setenv("PARLANCE_STRICT_PACKS", "Yes")
    monkeypatch.setenv("UV", "/opt/uv/bin/uv")
    monkeypatch.setenv("XDG_DATA_HOME", str(clean_env / "data"))
    monkeypatch.setenv("PARLANCE_TEST_SECRET", "s3cret")

    config = load_config()
    assert config.path == config_file and config.host.port == 9000
    assert config.env.config_file == str(config_file)
    assert config.env.packs == ("core", "greeter")
    assert config.env.strict_packs is True
    assert config.env.uv == "/opt/uv/bin/uv"
    assert config.env.variables["PARLANCE_TEST_SECRET"] == "s3cret"
    if sys.platform not in ("darwin", "win32"):
        assert config.env.config_home == clean_env / "xdg" / "parlance"
        assert config.env.data_home == clean_env / "data"

    monkeypatch.setenv("PARLANCE_PACKS", "other")  # read once: a later change does not reach this Config
    monkeypatch.delenv("PARLANCE_STRICT_PACKS")
    assert config.env.packs == ("core", "greeter") and config.env.strict_packs is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.env.strict_packs = False  # type: ignore[misc]

    monkeypatch.delenv("PARLANCE_PACKS")
    assert load_config().env.packs is None and load_config().env.strict_packs is False


def test_only_config_reads_the_environment() -> None:
    """Every other host module takes what it needs from `Config.env` (or `read_environment()`)."""
    root = Path(parlance.__file__).parent
    readers = []
    for module in sorted(root.rglob("*.py")):
        if module.name == "config.py" and module.parent == root:
            continue
        tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
        for node in ast.walk(tree):
            reads = (
                (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"
                 and node.attr in _ENV_NAMES)
                or (isinstance(node, ast.ImportFrom) and node.module == "os"
                    and any(alias.name in _ENV_NAMES for alias in node.names))
            )
            if reads:
                readers.append(f"{module.relative_to(root)}:{node.lineno}")
    assert readers == [], f"read the environment through parlance.config instead: {readers}"


_ENV_NAMES = {"environ", "environb", "getenv", "getenvb"}


def test_the_environment_snapshot_never_shows_in_a_repr() -> None:
    from parlance.config import read_environment

    env = read_environment({"PARLANCE_PACKS": "i18n", "SOME_API_TOKEN": "secret-value-42"})
    assert "secret-value-42" not in repr(env) and env.packs == ("i18n",)


def test_config_show_masks_every_password_of_the_state_url() -> None:
    """`[state] url` written literally: the netloc's password and libpq's `password` parameter are masked,
    an IPv6 host keeps its brackets, a `${env:...}` reference is shown as written."""
    shown = [config_from_dict({"state": {"url": url}}).show()["state"]["url"] for url in (
        "postgresql://team:s3cret@[::1]:5432/l10n", "postgresql://team@db/l10n?password=QSECRET&sslmode=require",
        "${env:PARLANCE_DATABASE_URL}")]
    assert shown == ["postgresql://team:***@[::1]:5432/l10n", "postgresql://team@db/l10n?password=***&sslmode=require",
                     "${env:PARLANCE_DATABASE_URL}"]
    with pytest.raises(ConfigError, match="PostgreSQL"):
        config_from_dict({"state": {"url": "mysql://db/l10n"}})
