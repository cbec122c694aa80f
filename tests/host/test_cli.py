"""The `parlance` command, run as a user runs it (a subprocess), with fake installed packs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.host.packs_for_tests import SOURCES
from tests.support import write_fake_dist

COMMAND_PACK = '''
    from parlance import hookimpl

    def configure(parser):
        parser.add_argument("--times", type=int, default=1)

    def run(args):
        print("waved " * args.times)
        return 0

    @hookimpl
    def parlance_register_commands(register):
        register("wave", help="Wave at the user.", configure=configure, run=run)

    @hookimpl
    def parlance_setup_hints(settings):
        return ["loud = true adds the tool shout_back", 42]
'''


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    write_fake_dist(site, "printer", SOURCES["printer"])
    write_fake_dist(site, "broken_import", SOURCES["broken_import"])
    write_fake_dist(site, "waver", COMMAND_PACK)
    (tmp_path / "parlance.toml").write_text(
        '[packs]\nenabled = ["printer", "broken_import", "waver"]\n\n[packs.printer]\nprefix = "p_"\n'
    )
    environment = {**os.environ, "PYTHONPATH": str(site), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    environment.pop("PARLANCE_CONFIG", None)
    return environment


def run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parlance", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)


def test_packs_json(env: dict[str, str], tmp_path: Path) -> None:
    proc = run(env, tmp_path, "packs", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {row["name"]: row for row in json.loads(proc.stdout)}
    assert set(rows["printer"]) == {"name", "distribution", "version", "state", "error", "tools", "hints"}
    assert rows["printer"]["hints"] == [] and rows["waver"]["hints"] == ["loud = true adds the tool shout_back"]
    assert rows["printer"]["state"] == "loaded" and rows["printer"]["tools"] == ["p_shout"]
    assert rows["broken_import"]["state"] == "failed" and "cannot be imported" in rows["broken_import"]["error"]
    assert rows["printer"]["distribution"] == "parlance-fake-printer"


def test_parlance_setup_hints_print_under_packs_and_after_tools(env: dict[str, str], tmp_path: Path) -> None:
    write_fake_dist(Path(env["PYTHONPATH"]), "hint_raiser", """
        from parlance import hookimpl

        @hookimpl
        def parlance_setup_hints(settings):
            raise RuntimeError("no hint today")
    """)
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer", "waver", "hint_raiser"]\n')
    listed = run(env, tmp_path, "packs")
    assert listed.returncode == 0, listed.stderr
    waver = listed.stdout[listed.stdout.index("waver"):]
    assert "hint: loud = true adds the tool shout_back" in waver and "no hint today" not in listed.stdout
    assert "hint_raiser" in listed.stdout and "loaded" in listed.stdout.split("hint_raiser")[1].splitlines()[0]
    tools = run(env, tmp_path, "tools")
    assert tools.returncode == 0, tools.stderr
    assert tools.stdout.splitlines()[-1] == "waver: loud = true adds the tool shout_back"


def test_tools_json_and_call(env: dict[str, str], tmp_path: Path) -> None:
    tools = json.loads(run(env, tmp_path, "tools", "--json").stdout)
    assert [t["name"] for t in tools] == ["p_shout"]
    assert tools[0]["inputSchema"]["required"] == ["text"]
    ok = run(env, tmp_path, "call", "p_shout", "--args", '{"text": "hi"}')
    assert (ok.returncode, json.loads(ok.stdout)) == (0, {"text": "HI"})
    bad = run(env, tmp_path, "call", "p_shout", "--args", "{}", "--json")
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["structuredContent"]["code"] == "INVALID_ARGUMENTS"
    unknown = run(env, tmp_path, "call", "nope")
    assert unknown.returncode == 2 and "unknown tool 'nope'" in unknown.stderr and "p_shout" in unknown.stderr
    not_json = run(env, tmp_path, "call", "p_shout", "--args", "{text}")
    assert not_json.returncode == 2 and "--args is not valid JSON" in not_json.stderr


def test_call_args_nested_past_the_parsers_depth_are_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    deep = '{"text": ' + "[" * 50_000 + "]" * 50_000 + "}"  # within one argument's 128 KiB (Linux)
    proc = run(env, tmp_path, "call", "p_shout", "--args", deep)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--args is JSON this parser cannot hold" in proc.stderr


def test_config_check_and_show(env: dict[str, str], tmp_path: Path) -> None:
    check = run(env, tmp_path, "config", "check", "--json")
    report = json.loads(check.stdout)
    assert check.returncode == 2 and report["ok"] is False
    assert report["problems"][0]["pack"] == "broken_import"
    shown = json.loads(run(env, tmp_path, "config", "show", "--json").stdout)
    assert shown["source"].endswith("parlance.toml") and shown["packs"]["printer"] == {"prefix": "p_"}
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["printer"]\n')
    assert run(env, tmp_path, "config", "check").returncode == 0


@pytest.mark.parametrize(("client", "top"), [("claude", "mcpServers"), ("cursor", "mcpServers"), ("vscode", "servers")])
def test_client_config(env: dict[str, str], tmp_path: Path, client: str, top: str) -> None:
    proc = run(env, tmp_path, "client-config", client)
    snippet = json.loads(proc.stdout)
    entry = snippet[top]["parlance"]
    assert "serve" in entry["args"] and "--config" in entry["args"]
    assert entry["args"][entry["args"].index("--config") + 1] == str((tmp_path / "parlance.toml").resolve())
    assert os.path.isabs(entry["command"])
    assert (entry.get("type") == "stdio") == (client == "vscode")


def test_parlance_register_commands_adds_commands_that_run(env: dict[str, str], tmp_path: Path) -> None:
    helped = run(env, tmp_path, "--help")
    assert "wave" in helped.stdout and "from pack waver" in helped.stdout
    waved = run(env, tmp_path, "wave", "--times", "2")
    assert waved.returncode == 0 and waved.stdout.strip() == "waved waved"


def test_version_and_no_command(env: dict[str, str], tmp_path: Path) -> None:
    assert run(env, tmp_path, "--version").stdout.startswith("parlance ")
    assert run(env, tmp_path).returncode == 2


# --- issue 12: collisions diagnosed, typos warned, paths from the file's folder, effective settings -


def _serve(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`parlance serve` with stdin at end of file: it starts, serves nothing and exits (or refuses to start)."""
    return subprocess.run([sys.executable, "-m", "parlance", "serve", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60, input="")


def test_a_collision_is_diagnosed_by_packs_and_config_check_and_stops_serve(env: dict[str, str],
                                                                           tmp_path: Path) -> None:
    write_fake_dist(Path(env["PYTHONPATH"]), "clash", SOURCES["clash"])  # registers `shout`, like printer
    config = tmp_path / "parlance.toml"
    config.write_text('[packs]\nenabled = ["printer", "clash", "broken_import"]\n')

    listed = run(env, tmp_path, "packs", "--json")
    assert listed.returncode == 2, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}  # everything is still reported
    assert {name: rows[name]["state"] for name in ("broken_import", "clash", "printer", "waver")} == {
        "broken_import": "failed", "clash": "loaded", "printer": "conflict", "waver": "disabled"}
    assert '[tools] disabled = ["printer:shout"]' in rows["printer"]["error"]
    assert "'clash'" in listed.stderr and "refuses to start" in listed.stderr

    text = run(env, tmp_path, "packs")
    assert text.returncode == 2 and "conflict" in text.stdout and "cannot be imported" in text.stdout

    check = run(env, tmp_path, "config", "check", "--json")
    report = json.loads(check.stdout)
    assert check.returncode == 2 and report["ok"] is False
    assert {p["pack"]: p["state"] for p in report["problems"]} == {"broken_import": "failed", "printer": "conflict"}

    served = _serve(env, tmp_path)
    assert served.returncode == 2
    assert "'shout'" in served.stderr and "'clash'" in served.stderr and "'printer'" in served.stderr
    assert '[tools] disabled = ["printer:shout"]' in served.stderr and '[packs.printer] prefix = "printer_"' in served.stderr

    config.write_text('[packs]\nenabled = ["printer", "clash"]\n[tools]\ndisabled = ["printer:shuot"]\n')
    served = _serve(env, tmp_path)  # a typo in the fix: the collision stays, and the warning says why
    assert served.returncode == 2 and "did you mean 'printer:shout'?" in served.stderr

    config.write_text('[packs]\nenabled = ["printer", "clash"]\n[tools]\ndisabled = ["printer:shout"]\n')
    assert run(env, tmp_path, "packs").returncode == 0
    assert [t["name"] for t in json.loads(run(env, tmp_path, "tools", "--json").stdout)] == ["shout"]
    assert _serve(env, tmp_path).returncode == 0


TYPOS = '''\
[packs]
enabled = ["printer"]
disabled = ["printr"]

[packs.prnter]
prefix = "p_"

[tools]
disabled = ["shuot"]

[language_packs]
paths = ["language-pack"]
autoload = false
'''


def test_typos_are_warnings_and_strict_makes_them_errors(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "parlance.toml").write_text(TYPOS)
    (tmp_path / "language-packs").mkdir()
    check = run(env, tmp_path, "config", "check", "--json")
    report = json.loads(check.stdout)
    assert check.returncode == 0 and report["ok"] is True and report["problems"] == []
    warned = {(w["key"], w["fix"]) for w in report["warnings"]}
    assert warned == {
        ("packs.prnter", "did you mean 'printer'?"),
        ("packs.disabled", "did you mean 'printer'?"),
        ("tools.disabled", "did you mean 'shout'?"),
        ("language_packs.paths", "did you mean 'language-packs'?"),
    }
    text = run(env, tmp_path, "config", "check")
    assert text.returncode == 0 and "4 warning(s)" in text.stdout
    assert "warning: " in text.stdout and "no pack named 'prnter' is installed" in text.stdout

    strict = run(env, tmp_path, "config", "check", "--strict")
    assert strict.returncode == 2 and "4 error(s)" in strict.stdout
    assert json.loads(run(env, tmp_path, "config", "check", "--strict", "--json").stdout)["ok"] is False

    served = _serve(env, tmp_path)  # the host still starts, and says what looks wrong
    assert served.returncode == 0, served.stderr
    logged = [json.loads(line) for line in served.stderr.splitlines() if line.startswith("{")]
    reasons = [line["reason"] for line in logged if line["event"] == "config.warning"]
    assert len(reasons) == 4 and any("did you mean 'printer'?" in r for r in reasons)


def test_a_settings_typo_fails_the_pack_with_a_did_you_mean(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["i18n"]\n[packs.i18n]\nbundle_dir = ["x"]\n'
                                            '[language_packs]\nautoload = false\n')
    check = run(env, tmp_path, "config", "check")
    assert check.returncode == 2
    assert "[packs.i18n.bundle_dir]: unknown key 'bundle_dir' (did you mean 'bundle_dirs'?)" in check.stdout


KEYED = '''
    from pydantic import BaseModel
    from parlance import hookimpl

    class Settings(BaseModel):
        api_token: str = "built-in-token"
        region: str = "eu"
        retries: int = 2

    @hookimpl
    def parlance_declare_settings():
        return Settings
'''


def test_config_show_gives_every_packs_effective_settings(env: dict[str, str], tmp_path: Path) -> None:
    write_fake_dist(Path(env["PYTHONPATH"]), "keyed", KEYED)
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / "locales").mkdir(parents=True)
    elsewhere.mkdir()
    (project / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n", "keyed"]\n[packs.i18n]\nbundle_dirs = ["locales"]\n'
        '[packs.keyed]\nregion = "${env:KEYED_REGION:-us}"\n[language_packs]\nautoload = false\n')
    shown = json.loads(run({**env, "KEYED_REGION": "ap"}, elsewhere, "config", "show", "--json", "--config",
                           "../project/parlance.toml").stdout)
    i18n = shown["packs"]["i18n"]
    assert i18n["bundle_dirs"] == [str((project / "locales").resolve())]  # resolved against the file's folder
    assert i18n["default_locale"] == "en" and i18n["max_messages"] == 100_000  # defaults included
    assert shown["packs"]["keyed"] == {"api_token": "********", "region": "${env:KEYED_REGION:-us}", "retries": 2}
    text = run(env, elsewhere, "config", "show", "--config", "../project/parlance.toml").stdout
    assert "[packs.keyed]" in text and 'api_token = "********"' in text and "built-in-token" not in text
    assert "default_locale = " in text


def test_relative_paths_resolve_against_the_config_file_from_any_working_folder(env: dict[str, str],
                                                                              tmp_path: Path) -> None:
    """Every path setting: [language_packs] paths and [packs.i18n] bundle_dirs, the config named three ways."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / "locales").mkdir(parents=True)
    (project / "locales" / "de.json").write_text(json.dumps({"greeting": "Hallo aus dem Projekt"}))
    pack = project / "lp" / "fr"
    (pack / "messages").mkdir(parents=True)
    (pack / "pack.toml").write_text('name = "fr"\nversion = "0.1.0"\nlanguages = ["fr"]\n')
    (pack / "messages" / "fr.json").write_text(json.dumps({"greeting": "Bonjour du paquet"}))
    (project / "parlance.toml").write_text('[packs]\nenabled = ["i18n"]\n[packs.i18n]\nbundle_dirs = ["locales"]\n'
                                           'language_pack_bundles = true\n'  # the language pack's bundle is read
                                           '[language_packs]\npaths = ["lp"]\nautoload = false\n')
    elsewhere.mkdir()
    (elsewhere / "locales").mkdir()  # a decoy: the working folder's locales must not be read
    (elsewhere / "locales" / "de.json").write_text(json.dumps({"greeting": "falsch"}))
    ways = [(env, ("--config", "../project/parlance.toml")),  # relative to the working folder
            ({**env, "PARLANCE_CONFIG": "../project/parlance.toml"}, ())]
    for environment, config_args in ways:
        for locale, expected in (("de", "Hallo aus dem Projekt"), ("fr", "Bonjour du paquet")):
            called = run(environment, elsewhere, "call", "i18n_translate", *config_args,
                         "--args", json.dumps({"key": "greeting", "locale": locale}))
            assert called.returncode == 0, called.stderr
            assert json.loads(called.stdout) == {"translation": expected, "locale": locale, "fallback": False}
        check = run(environment, elsewhere, "config", "check", "--json", *config_args)
        assert json.loads(check.stdout)["warnings"] == []
        found = json.loads(run(environment, elsewhere, "language-packs", "--json", *config_args).stdout)
        assert [(lp["name"], lp["path"]) for lp in found] == [("fr", str(pack.resolve()))]


# --- issue 16: a pack's commands that cannot be added are reported, not dropped silently ---------

COMMANDS_FAIL = '''
    from parlance import hookimpl

    @hookimpl
    def parlance_register_commands(register):
        raise RuntimeError("boom in commands")
'''

COMMANDS_CLASH = '''
    from parlance import hookimpl

    @hookimpl
    def parlance_register_commands(register):
        print("noise from a pack")  # must not reach `parlance packs --json`
        register("packs", help="Shadows a built-in.", configure=lambda p: None, run=lambda a: 0)
        register("wave", help="Waves too.", configure=lambda p: None, run=lambda a: 0)
'''


def test_pack_command_failures_are_shown_by_parlance_packs(env: dict[str, str], tmp_path: Path) -> None:
    site = Path(env["PYTHONPATH"])
    write_fake_dist(site, "commands_fail", COMMANDS_FAIL)
    write_fake_dist(site, "waver_twin", COMMANDS_CLASH)  # loads after waver, so `wave` is taken
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["waver", "commands_fail", "waver_twin"]\n')

    listed = run(env, tmp_path, "packs", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert rows["commands_fail"]["state"] == "loaded"
    assert "parlance_register_commands raised RuntimeError: boom in commands" in rows["commands_fail"]["error"]
    twin = rows["waver_twin"]["error"]
    assert rows["waver_twin"]["state"] == "loaded"
    assert "command 'packs' not added: a built-in command already has that name" in twin
    assert "command 'wave' not added: pack 'waver' already has that name" in twin
    assert rows["waver"]["error"] is None

    table = run(env, tmp_path, "packs")
    assert "boom in commands" in table.stdout and "pack 'waver' already has that name" in table.stdout

    waved = run(env, tmp_path, "wave")  # the first pack to claim a name keeps it; the CLI still works
    assert waved.returncode == 0 and waved.stdout.strip() == "waved"
