"""Discovery and loading: entry points, error boundaries, hooks against the hookspecs, enable/disable rules,
API compatibility."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from pydantic import BaseModel, ConfigDict, Field

from parlance import hookimpl
from parlance.config import config_from_dict
from parlance.errors import PackError, ToolNameCollision
from parlance.hookspecs import HOST_API
from parlance.packs import discover, load_packs
from tests.host.packs_for_tests import (
    ClashPack,
    CorePack,
    EchoIn,
    EchoOut,
    FutureApiPack,
    HookFailsPack,
    SettingsPack,
)
from tests.host.packs_for_tests import SOURCES
from tests.support import write_fake_dist

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
    assert "2.0" in future.error and HOST_API in future.error


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
    # The fixes name one pack's tool: a bare name would disable both packs' tools.
    assert '[tools] disabled = ["core:echo"]' in message and '[packs.core] prefix = "core_"' in message


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


# --- hooks that do not fit the hookspecs -----------------------------------------------------------


def test_a_hook_asking_for_an_argument_the_hookspec_lacks_fails_its_pack_only(fake_dists) -> None:
    fake_dists("bad_signature", SOURCES["bad_signature"])
    fake_dists("printer", SOURCES["printer"])
    packs = load_packs(config_from_dict({"packs": {"enabled": ["bad_signature", "printer"]}}))
    records = {r.name: r for r in packs.records}
    assert (records["bad_signature"].state, records["printer"].state) == ("failed", "loaded")
    error = records["bad_signature"].error
    assert "parlance_register_tools" in error and "'registry'" in error
    assert "register, settings, language_packs" in error  # what the hook may ask for
    assert "\n" not in error
    assert list(packs.registry.tools) == ["shout"]


def test_an_unknown_hook_fails_its_pack_with_a_did_you_mean(fake_dists) -> None:
    fake_dists("typo_hook", SOURCES["typo_hook"])
    fake_dists("printer", SOURCES["printer"])
    packs = load_packs(config_from_dict({"packs": {"enabled": ["printer", "typo_hook"]}}))
    records = {r.name: r for r in packs.records}
    assert (records["printer"].state, records["typo_hook"].state) == ("loaded", "failed")
    error = records["typo_hook"].error
    assert "unknown hook 'parlance_register_tool'" in error and "did you mean 'parlance_register_tools'?" in error
    assert list(packs.registry.tools) == ["shout"]


class _NoCloseHook:
    @hookimpl
    def parlance_frobnicate(self) -> None:  # pragma: no cover - never called
        raise AssertionError


class _OptionalFutureHook:
    """pluggy's documented escape hatch: an implementation of a hook a newer host may define."""

    @hookimpl(optionalhook=True)
    def parlance_register_widgets(self, register) -> None:  # pragma: no cover - this host has no such hook
        raise AssertionError

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        pass


class _WrapperNotAGenerator:
    @hookimpl(wrapper=True)
    def parlance_register_tools(self, register) -> None:  # pragma: no cover - never called
        raise AssertionError


def test_what_pluggy_refuses_at_registration_fails_the_pack_only() -> None:
    packs = load_packs(config_from_dict({}), plugins={"core": CorePack(), "wrapper": _WrapperNotAGenerator()})
    assert _states(packs) == {"core": "loaded", "wrapper": "failed"}
    error = packs.records[1].error
    assert error.startswith("its hooks do not fit the hookspecs:") and "generator" in error and "\n" not in error


def test_an_unknown_hook_without_a_close_match_lists_the_hooks() -> None:
    packs = load_packs(config_from_dict({}), plugins={"odd": _NoCloseHook(), "core": CorePack()})
    assert _states(packs) == {"core": "loaded", "odd": "failed"}
    error = packs.records[1].error
    assert "unknown hook 'parlance_frobnicate'" in error and "did you mean" not in error
    assert "parlance_register_tools" in error and "parlance_lifespan" in error


def test_an_optional_hook_the_host_lacks_is_accepted() -> None:
    packs = load_packs(config_from_dict({}), plugins={"future_hook": _OptionalFutureHook()})
    assert _states(packs) == {"future_hook": "loaded"}


@pytest.mark.parametrize("pack", ["bad_signature", "typo_hook"])
def test_strict_mode_makes_a_hook_mismatch_fatal(pack: str, fake_dists, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLANCE_STRICT_PACKS", "1")
    fake_dists(pack, SOURCES[pack])
    with pytest.raises(PackError, match=f"pack '{pack}' failed: .*parlance_register_tool"):
        load_packs(config_from_dict({"packs": {"enabled": [pack]}}))


@pytest.fixture
def mismatched_site(tmp_path: Path) -> Path:
    """Installed: a working pack, one whose hook asks for an unknown argument, one with a misspelt hook."""
    root = tmp_path / "site"
    root.mkdir()
    for pack in ("printer", "bad_signature", "typo_hook"):
        write_fake_dist(root, pack, SOURCES[pack])
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "bad_signature", "typo_hook"]\n')
    return root


@pytest.mark.anyio
async def test_serve_skips_packs_whose_hooks_do_not_fit_and_serves_the_rest(tmp_path: Path,
                                                                            mismatched_site: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import stdio_client

    from parlance.testing import stdio_server_params

    params = stdio_server_params(tmp_path / "parlance.toml", env={"PYTHONPATH": str(mismatched_site)})
    errlog_path = tmp_path / "stderr.log"
    with anyio.fail_after(30), open(errlog_path, "w+") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["shout"]
            result = await client.call_tool("shout", {"text": "still here"})
            assert result.structured_content == {"text": "STILL HERE"}
    log = errlog_path.read_text()
    assert "Traceback" not in log
    skipped = {s["pack"]: s for s in map(json.loads, (line for line in log.splitlines() if '"pack.skipped"' in line))}
    assert {p: s["state"] for p, s in skipped.items()} == {"bad_signature": "failed", "typo_hook": "failed"}
    assert "did you mean 'parlance_register_tools'?" in skipped["typo_hook"]["reason"]


def test_parlance_packs_reports_hook_mismatches(tmp_path: Path, mismatched_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(mismatched_site)}
    env.pop("PARLANCE_CONFIG", None)
    command = [sys.executable, "-m", "parlance", "packs", "--json", "--config", str(tmp_path / "parlance.toml")]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = {row["name"]: row for row in json.loads(proc.stdout)}
    assert rows["printer"]["state"] == "loaded" and rows["printer"]["tools"] == ["shout"]
    assert rows["bad_signature"]["state"] == "failed" and "'registry'" in rows["bad_signature"]["error"]
    assert rows["typo_hook"]["state"] == "failed"
    assert "did you mean 'parlance_register_tools'?" in rows["typo_hook"]["error"]


# --- collisions, pack:tool names, prefixes (issue 12) ----------------------------------------------


def test_diagnose_reports_a_collision_and_loads_the_rest() -> None:
    packs = load_packs(config_from_dict({}), plugins={"clash": ClashPack(), "core": CorePack(),
                                                      "greeter": SettingsPack()}, diagnose=True)
    assert _states(packs) == {"clash": "loaded", "core": "conflict", "greeter": "loaded"}
    assert [(c.tool, c.first_pack, c.second_pack) for c in packs.collisions] == [("echo", "clash", "core")]
    core = next(r for r in packs.records if r.name == "core")
    assert '[tools] disabled = ["core:echo"]' in core.error and "echo" in core.tools
    assert packs.registry.tools["echo"].pack == "clash" and "greet" in packs.registry.tools


def test_a_pack_qualified_name_disables_one_packs_tool() -> None:
    config = config_from_dict({"tools": {"disabled": ["core:echo"]}})
    packs = load_packs(config, plugins={"clash": ClashPack(), "core": CorePack()})
    assert _states(packs) == {"clash": "loaded", "core": "loaded"}
    assert packs.registry.tools["echo"].pack == "clash" and "count" in packs.registry.tools
    assert packs.warnings == []


class _WordcountPack:
    async def count(self, args: EchoIn) -> EchoOut:
        return EchoOut(echoed=str(len(args.text.split())))

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.count, name="wordcount_count")
        register(self.count, name="echo")


def test_a_prefix_is_not_applied_twice() -> None:
    config = config_from_dict({"packs": {"wordcount": {"prefix": "wordcount_"}}})
    packs = load_packs(config, plugins={"wordcount": _WordcountPack(), "core": CorePack()})
    assert sorted(t for t in packs.registry.tools if t.startswith("wordcount")) == ["wordcount_count",
                                                                                   "wordcount_echo"]


def test_a_collision_suggests_a_prefix_only_where_it_would_rename_the_tool() -> None:
    class Other(_WordcountPack):
        pass

    with pytest.raises(ToolNameCollision) as caught:  # "other" < "wordcount": wordcount's tool is the second
        load_packs(config_from_dict({}), plugins={"wordcount": _WordcountPack(), "other": Other()})
    message = str(caught.value)
    assert "'wordcount_count'" in message and '[tools] disabled = ["wordcount:wordcount_count"]' in message
    assert '[packs.other] prefix = "other_"' in message and "[packs.wordcount] prefix" not in message


# --- names and paths the configuration gets wrong are warnings (issue 12) -------------------------


def test_unknown_pack_and_tool_names_are_warnings_with_a_did_you_mean() -> None:
    config = config_from_dict({
        "packs": {"disabled": ["greeterr"], "coer": {"x": 1}},
        "tools": {"disabled": ["ecoh", "core:cuont", "ghost:echo", "core:echo", "greet", "nothing_like_it"]},
    })
    packs = load_packs(config, plugins={"core": CorePack(), "greeter": SettingsPack()})
    warned = [str(w) for w in packs.warnings]
    assert len(warned) == 6, warned
    expected = [
        ("[packs.coer]", "no pack named 'coer' is installed", "did you mean 'core'?"),
        ("[packs.disabled]", "no pack named 'greeterr'", "did you mean 'greeter'?"),
        ("[tools.disabled]", "no loaded pack registers a tool named 'ecoh'", "did you mean 'echo'?"),
        ("[tools.disabled]", "pack 'core' registers no tool named 'cuont'", "did you mean 'core:count'?"),
        ("[tools.disabled]", "no pack named 'ghost'", "installed: core, greeter"),
        ("[tools.disabled]", "no loaded pack registers a tool named 'nothing_like_it'", "see `parlance tools`"),
    ]
    for text, parts in zip(warned, expected):
        assert all(part in text for part in parts), (text, parts)
    assert "echo" not in packs.registry.tools and "greet" not in packs.registry.tools  # the good entries still work


def test_the_enabled_pack_that_is_missing_gets_a_did_you_mean() -> None:
    packs = load_packs(config_from_dict({"packs": {"enabled": ["coer"]}}), plugins={"core": CorePack()})
    assert "did you mean 'core'?" in packs.records[-1].error


def test_warnings_are_logged_when_not_diagnosing(caplog: pytest.LogCaptureFixture) -> None:
    config = config_from_dict({"packs": {"coer": {}}})
    with caplog.at_level("WARNING", logger="parlance.packs"):
        load_packs(config, plugins={"core": CorePack()})
        assert [r.getMessage() for r in caplog.records] == ["config.warning"]
        assert "did you mean 'core'?" in caplog.records[0].reason  # type: ignore[attr-defined]
        caplog.clear()
        assert load_packs(config, plugins={"core": CorePack()}, diagnose=True).warnings
        assert caplog.records == []


# --- a pack's settings: unknown keys rejected by default, paths resolved for it -------------------


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow")
    greeting: str = "hi"


class _Inner(BaseModel):
    name: str


class _Nested(BaseModel):
    items: list[_Inner] = []


def _settings_pack(model: type[BaseModel]) -> object:
    class Pack:
        @hookimpl
        def parlance_declare_settings(self):
            return model

    return Pack()


@pytest.mark.parametrize(
    ("model", "table", "key", "fix"),
    [
        (None, {"greting": "x"}, "[packs.p.greting]", "did you mean 'greeting'?"),  # SettingsPack: extra not set
        (_Nested, {"items": [{"nmae": "x"}]}, "[packs.p.items[0].nmae]", "did you mean 'name'?"),
        (_Nested, {"prefx": "p_"}, "[packs.p.prefx]", "did you mean 'prefix'?"),
        (_Nested, {"zzz": 1}, "[packs.p.zzz]", "[packs.p] takes items"),
    ],
)
def test_a_pack_settings_table_rejects_unknown_keys_by_default(model, table, key, fix) -> None:
    pack = SettingsPack() if model is None else _settings_pack(model)
    packs = load_packs(config_from_dict({"packs": {"p": table}}), plugins={"p": pack})
    record = packs.records[0]
    assert record.state == "failed" and key in record.error and fix in record.error, record.error


def test_a_model_that_allows_extra_keys_gets_them() -> None:
    packs = load_packs(config_from_dict({"packs": {"p": {"colour": "red"}}}), plugins={"p": _settings_pack(_Lenient)})
    assert packs.records[0].state == "loaded" and packs.records[0].settings.colour == "red"


class _Dirs(BaseModel):
    model_config = ConfigDict(frozen=True)
    dirs: list[Path] = []
    output: Path | None = Field(default=None, json_schema_extra={"x-parlance-created": True})


def test_path_settings_resolve_against_the_config_file_and_missing_ones_are_warnings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conf = tmp_path / "project"
    (conf / "locales").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)  # another working folder
    config = config_from_dict({"packs": {"p": {"dirs": ["locales", "locale"], "output": "out.db"}}},
                              path=conf / "parlance.toml")
    packs = load_packs(config, plugins={"p": _settings_pack(_Dirs)})
    settings = packs.records[0].settings
    assert settings.dirs == [conf / "locales", conf / "locale"] and settings.output == conf / "out.db"
    assert [(w.key, w.fix) for w in packs.warnings] == [("packs.p.dirs[1]", "did you mean 'locales'?")]


def test_every_path_setting_of_the_installed_packs_resolves_against_the_config_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever Path settings the first-party packs have (i18n's bundle_dirs today), the host resolves them."""
    from parlance.pack_settings import visit_path_settings

    monkeypatch.chdir(tmp_path)
    conf = tmp_path / "project"
    found: list[str] = []
    for name, entry_point in discover().items():
        if name not in {"i18n", "translation", "strings_admin"}:
            continue
        model = entry_point.load().parlance_declare_settings()
        table: dict[str, object] = {}
        for field_name, info in model.model_fields.items():  # one relative value per top-level path setting
            probe = {field_name: "rel"} if _takes("x", info.annotation) else {field_name: ["rel"]}
            seen = visit_path_settings(model, probe, lambda value, key, created: "SEEN", key="")
            if seen[field_name] != probe[field_name]:  # (a relative default elsewhere is resolved too)
                table |= probe
                found.append(f"{name}.{field_name}")
        if not table:
            continue
        config = config_from_dict({"packs": {"enabled": [name], name: table}}, path=conf / "parlance.toml")
        settings = next(r for r in load_packs(config).records if r.name == name).settings
        for field_name in table:
            value = getattr(settings, field_name)
            for path in value if isinstance(value, (list, tuple)) else [value]:
                assert Path(path) == conf / "rel", (name, field_name, value)
    assert {"i18n.bundle_dirs", "i18n.glossaries", "i18n.lock_file"} <= set(found)


def _takes(value: object, annotation: object) -> bool:
    from pydantic import TypeAdapter, ValidationError

    try:
        TypeAdapter(annotation).validate_python(value)
        return True
    except ValidationError:
        return False
