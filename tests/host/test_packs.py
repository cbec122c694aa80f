"""Discovery and loading: entry points, error boundaries, enable/disable rules, API compatibility."""

from __future__ import annotations

import sys

import pytest

from parlance.config import config_from_dict
from parlance.errors import PackError, ToolNameCollision
from parlance.packs import discover, load_packs
from tests.host.packs_for_tests import (
    ClashPack,
    CorePack,
    FutureApiPack,
    HookFailsPack,
    SettingsPack,
)
from tests.host.packs_for_tests import SOURCES

TRACKED = '''
    import pathlib, os
    pathlib.Path(os.environ["IMPORT_MARKER"]).write_text("imported")
    from parlance import hookimpl
'''


def _states(packs) -> dict[str, str]:
    return {r.name: r.state for r in packs.records}


def test_entry_points_are_listed_without_importing(fake_dists, tmp_path, monkeypatch) -> None:
    marker = tmp_path / "imported.txt"
    monkeypatch.setenv("IMPORT_MARKER", str(marker))
    fake_dists("tracked", TRACKED)
    assert "tracked" in discover()
    assert "fake_pack_tracked" not in sys.modules and not marker.exists()
    packs = load_packs(config_from_dict({"packs": {"disabled": ["tracked"]}}))
    assert _states(packs)["tracked"] == "disabled"
    assert not marker.exists()  # a disabled pack costs nothing: never imported
    load_packs(config_from_dict({"packs": {"enabled": ["tracked"]}}))
    assert marker.exists()


def test_a_pack_that_fails_to_import_is_reported_and_skipped(fake_dists) -> None:
    fake_dists("broken_import", SOURCES["broken_import"])
    fake_dists("printer", SOURCES["printer"])
    packs = load_packs(config_from_dict({"packs": {"enabled": ["broken_import", "printer"]}}))
    broken = next(r for r in packs.records if r.name == "broken_import")
    assert broken.state == "failed"
    assert "ImportError: this pack cannot be imported" in broken.error
    assert broken.distribution == "parlance-fake-broken_import" and broken.version == "0.1.0"
    assert list(packs.registry.tools) == ["shout"]


def test_a_hook_that_raises_fails_its_pack_only() -> None:
    packs = load_packs(config_from_dict({}), plugins={"bad": HookFailsPack(), "core": CorePack()})
    assert _states(packs) == {"bad": "failed", "core": "loaded"}
    assert "ValueError: this pack's hook is broken" in packs.records[0].error
    assert "echo" in packs.registry.tools


def test_a_pack_for_another_host_api_is_incompatible() -> None:
    packs = load_packs(config_from_dict({}), plugins={"future": FutureApiPack(), "core": CorePack()})
    future = packs.records[1]
    assert (future.name, future.state) == ("future", "incompatible")
    assert "2.0" in future.error and "1.0" in future.error


def test_strict_mode_raises_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLANCE_STRICT_PACKS", "1")
    with pytest.raises(PackError, match="bad"):
        load_packs(config_from_dict({}), plugins={"bad": HookFailsPack()})


def test_parlance_packs_env_is_an_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLANCE_PACKS", "core")
    packs = load_packs(config_from_dict({}), plugins={"core": CorePack(), "greeter": SettingsPack()})
    assert _states(packs) == {"core": "loaded", "greeter": "disabled"}


@pytest.mark.parametrize(
    ("packs_table", "expected"),
    [
        ({"enabled": ["greeter"]}, {"core": "disabled", "greeter": "loaded"}),
        ({"disabled": ["greeter"]}, {"core": "loaded", "greeter": "disabled"}),
        ({"greeter": {"enabled": False}}, {"core": "loaded", "greeter": "disabled"}),
        ({"autoload": False}, {"core": "disabled", "greeter": "disabled"}),
    ],
)
def test_enable_and_disable_in_config(packs_table, expected) -> None:
    packs = load_packs(config_from_dict({"packs": packs_table}), plugins={"core": CorePack(), "greeter": SettingsPack()})
    assert _states(packs) == expected


def test_an_enabled_pack_that_is_not_installed_is_missing() -> None:
    packs = load_packs(config_from_dict({"packs": {"enabled": ["core", "ghost"]}}), plugins={"core": CorePack()})
    assert _states(packs) == {"core": "loaded", "ghost": "missing"}


def test_collision_names_both_packs_and_the_fixes() -> None:
    with pytest.raises(ToolNameCollision) as caught:
        load_packs(config_from_dict({}), plugins={"clash": ClashPack(), "core": CorePack()})
    message = str(caught.value)
    assert "'echo'" in message and "'clash'" in message and "'core'" in message
    assert '[tools] disabled = ["echo"]' in message and "prefix" in message


def test_bad_settings_fail_the_pack_naming_file_and_key() -> None:
    packs = load_packs(config_from_dict({"packs": {"greeter": {"retries": -1}}}), plugins={"greeter": SettingsPack()})
    record = packs.records[0]
    assert record.state == "failed"
    assert "packs.greeter.retries" in record.error and "greater than or equal to 0" in record.error


def test_unknown_setting_for_a_pack_without_settings() -> None:
    packs = load_packs(config_from_dict({"packs": {"core": {"colour": "red"}}}), plugins={"core": CorePack()})
    assert packs.records[0].state == "failed"
    assert "takes no settings" in packs.records[0].error and "colour" in packs.records[0].error


def test_missing_env_reference_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_VAR", raising=False)
    packs = load_packs(config_from_dict({"packs": {"greeter": {"greeting": "${env:NO_SUCH_VAR}"}}}),
                       plugins={"greeter": SettingsPack()})
    assert "NO_SUCH_VAR" in packs.records[0].error and "packs.greeter.greeting" in packs.records[0].error


def test_env_reference_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_VAR", raising=False)
    packs = load_packs(config_from_dict({"packs": {"greeter": {"greeting": "${env:NO_SUCH_VAR:-servus}"}}}),
                       plugins={"greeter": SettingsPack()})
    assert packs.records[0].settings.greeting == "servus"
