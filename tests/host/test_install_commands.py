"""`parlance install` / `parlance uninstall`, run as a user runs them: from a throwaway venv that holds
the host (built from host/), installing the example pack and a scaffolded one, with uv and with pip.

The venv sits in a folder with a pyproject.toml and a uv.lock, as a uv project's `.venv` does, so the
hint about `uv sync` is exercised too. Building it needs the package index for hatchling and the host's
dependencies (marked `network`): skipped when it is unreachable, unless CI is set, where it must run.
Pure helpers (environment detection, the installer's command line, the hints) are tested in-process.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from parlance.errors import ConfigError
from parlance._cli.install import (
    Environment,
    InstallOptions,
    Outcome,
    PackEntry,
    _keep_hint,
    _remove_hint,
    find_environment,
    host_distribution,
    installer_command,
    requirement_name,
    unrequired,
)
from tests.support import run_uv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "parlance-hello"
UV = shutil.which("uv")
needs_uv = pytest.mark.skipif(UV is None, reason="needs uv to build the throwaway venv (https://docs.astral.sh/uv/)")
NEEDS = "to build the throwaway venv (hatchling, mcp, ...)"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder shaped like a uv project: .venv (host installed, pip seeded), pyproject.toml, uv.lock, wheels/."""
    assert UV is not None
    where = tmp_path_factory.mktemp("project")
    venv = where / ".venv"
    run_uv("venv", "-q", "--seed", "--python", sys.executable, str(venv), cwd=where, needs=NEEDS, timeout=120)
    run_uv("pip", "install", "-q", "--python", str(venv / "bin" / "python"), str(ROOT / "host"), cwd=where,
           needs=NEEDS)
    run_uv("build", "-q", "--wheel", "--out-dir", str(where / "wheels"), str(EXAMPLE), cwd=where, needs=NEEDS,
           timeout=300)
    (where / "pyproject.toml").write_text('[project]\nname = "my-l10n"\nversion = "0"\n\n'
                                          '[dependency-groups]\ndev = ["parlance-hello>=0.1"]\n')
    (where / "uv.lock").write_text("version = 1\n")
    return where


def _env(project: Path, *, with_uv: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PARLANCE_CONFIG", "PYTHONPATH", "VIRTUAL_ENV", "UV"}}
    env["XDG_CONFIG_HOME"] = str(project / "xdg")
    if not with_uv:
        env["PATH"] = str(_bin_without_uv(project))
    return env


def _bin_without_uv(project: Path) -> Path:
    """A PATH of one folder holding only what the test runs (the venv's `parlance`, as a symlink): no uv
    there, wherever the system keeps it (/usr/bin, ~/.local/bin, a pyenv shim)."""
    folder = project / "bin-without-uv"
    if not folder.is_dir():
        folder.mkdir()
        (folder / "parlance").symlink_to(project / ".venv" / "bin" / "parlance")
    assert shutil.which("uv", path=str(folder)) is None
    return folder


def parlance(project: Path, *args: str, with_uv: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(project / ".venv" / "bin" / "parlance"), *args], capture_output=True, text=True,
                          env=_env(project, with_uv=with_uv), cwd=project, timeout=300)


def tool_names(project: Path) -> list[str]:
    proc = parlance(project, "tools", "--json")
    assert proc.returncode == 0, proc.stderr
    return [t["name"] for t in json.loads(proc.stdout)]


@pytest.mark.network
@needs_uv
def test_install_and_uninstall_with_uv(project: Path, tmp_path: Path) -> None:
    scaffolded = tmp_path / "parlance-glossary"
    made = parlance(project, "new-pack", "glossary", "--path", str(scaffolded))
    assert made.returncode == 0, made.stderr

    installed = parlance(project, "install", str(EXAMPLE), "-e", str(scaffolded))
    assert installed.returncode == 0, installed.stderr
    assert "pack added: hello (parlance-hello 0.1.0)" in installed.stdout
    assert "pack added: glossary (parlance-glossary 0.1.0)" in installed.stdout
    # The venv belongs to a uv project: say how to make the packs survive `uv sync`.
    assert "`uv sync` removes packages" in installed.stdout
    assert f"uv add --project {project} --dev {EXAMPLE}" in installed.stdout
    assert f"uv add --project {project} --dev --editable {scaffolded}" in installed.stdout
    assert "uv pip install" not in installed.stdout  # the installer's own output goes to stderr
    assert {"hello", "glossary_measure"} <= set(tool_names(project))

    called = parlance(project, "call", "glossary_measure", "--args", '{"text": "Guten Tag"}')
    assert json.loads(called.stdout) == {"characters": 9, "words": 2, "fits": True}

    removed = parlance(project, "uninstall", "parlance-hello", "parlance-glossary", "--json")
    assert removed.returncode == 0, removed.stderr
    outcome = json.loads(removed.stdout)
    assert outcome["command"][1:4] == ["pip", "uninstall", "--python"]
    assert sorted(r["name"] for r in outcome["removed"]) == ["glossary", "hello"]
    assert outcome["added"] == [] and outcome["changed"] == []
    # parlance-hello is a dev dependency of the project: `uv sync` would bring it back.
    assert f"uv remove --project {project} --dev parlance-hello" in outcome["hint"]
    assert "parlance-glossary" not in outcome["hint"]
    assert not {"hello", "glossary_measure"} & set(tool_names(project))


@pytest.mark.network
@needs_uv
def test_install_falls_back_to_pip_without_uv(project: Path) -> None:
    wheel = next((project / "wheels").glob("parlance_hello-*.whl"))
    installed = parlance(project, "install", str(wheel), "--json", with_uv=False)
    assert installed.returncode == 0, installed.stderr
    outcome = json.loads(installed.stdout)
    assert outcome["command"][:4] == [str(project / ".venv" / "bin" / "python"), "-m", "pip", "install"]
    added = [(a["kind"], a["name"], a["distribution"]) for a in outcome["added"]]
    assert added == [("pack", "hello", "parlance-hello")]
    assert "hello" in tool_names(project)

    removed = parlance(project, "uninstall", "parlance-hello", "--json", with_uv=False)
    outcome = json.loads(removed.stdout)
    assert outcome["command"][1:5] == ["-m", "pip", "uninstall", "-y"]
    assert [r["name"] for r in outcome["removed"]] == ["hello"]
    assert "hello" not in tool_names(project)


@pytest.mark.network
@needs_uv
def test_refusals(project: Path) -> None:
    host = tomllib.loads((ROOT / "host" / "pyproject.toml").read_text())["project"]["name"]
    refused = parlance(project, "uninstall", host.upper().replace("-", "_"))  # any spelling of the name
    assert refused.returncode == 2 and "refusing to uninstall" in refused.stderr
    assert parlance(project, "packs").returncode == 0  # still there
    nothing = parlance(project, "install")
    assert nothing.returncode == 2 and "nothing to install" in nothing.stderr
    failed = parlance(project, "install", str(project / "no-such-folder"))
    assert failed.returncode == 1 and "exited with" in failed.stderr


def test_help_lists_the_commands() -> None:
    helped = subprocess.run([sys.executable, "-m", "parlance", "--help"], capture_output=True, text=True, timeout=60)
    for command in ("install", "uninstall", "new-pack", "client-config"):
        assert command in helped.stdout
    install_help = subprocess.run([sys.executable, "-m", "parlance", "install", "--help"], capture_output=True,
                                  text=True, timeout=60).stdout
    for flag in ("--editable", "--upgrade", "--force-reinstall", "--pre", "--index-url", "--find-links", "--json"):
        assert flag in install_help


# --- in-process: the pieces -----------------------------------------------------------------------


def test_find_environment(tmp_path: Path) -> None:
    base = str(tmp_path / "base")
    tool = tmp_path / "tools" / "parlance-mcp"
    tool.mkdir(parents=True)
    (tool / "uv-receipt.toml").write_text("")
    assert find_environment("py", str(tool), base) == Environment("py", tool, "uv tool", "parlance-mcp")

    pipx = tmp_path / "pipx" / "venvs" / "parlance-mcp"
    pipx.mkdir(parents=True)
    (pipx / "pipx_metadata.json").write_text(json.dumps({"main_package": {"package": "parlance-mcp"}}))
    assert find_environment("py", str(pipx), base).kind == "pipx"
    assert find_environment("py", str(pipx), base).owner == "parlance-mcp"

    venv = tmp_path / "proj" / ".venv"
    venv.mkdir(parents=True)
    assert find_environment("py", str(venv), base).kind == "virtualenv"
    (venv.parent / "pyproject.toml").write_text("")
    (venv.parent / "uv.lock").write_text("")
    assert find_environment("py", str(venv), base) == Environment("py", venv, "uv project", str(venv.parent))
    assert find_environment("py", base, base).kind == "system"


def test_installer_command_spells_flags_per_installer(monkeypatch: pytest.MonkeyPatch) -> None:
    env = Environment("/env/bin/python", Path("/env"), "virtualenv")
    options = InstallOptions(editable=("./mine",), upgrade=True, force_reinstall=True, pre=True,
                             index_url="https://i.example/simple", find_links=("./wheels",))
    assert installer_command("install", ["parlance-x"], env, uv="/bin/uv", options=options) == [
        "/bin/uv", "pip", "install", "--python", "/env/bin/python", "--upgrade", "--reinstall",
        "--prerelease=allow", "--index-url", "https://i.example/simple", "--find-links", "./wheels",
        "--editable", "./mine", "--", "parlance-x"]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "pip" else None)
    assert installer_command("install", ["parlance-x"], env, uv=None, options=options)[:8] == [
        "/env/bin/python", "-m", "pip", "install", "--upgrade", "--force-reinstall", "--pre", "--index-url"]
    assert installer_command("uninstall", ["parlance-x"], env, uv=None) == [
        "/env/bin/python", "-m", "pip", "uninstall", "-y", "--", "parlance-x"]
    assert installer_command("install", [], env, uv=None, options=InstallOptions(editable=("./mine",)))[-2:] == [
        "--editable", "./mine"]  # only editables: no `--`
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(ConfigError, match="neither uv nor pip"):
        installer_command("install", ["parlance-x"], env, uv=None)


@pytest.mark.parametrize("name", ["-rhttps://evil.example/requirements.txt", "-e/path", "--index-url=https://evil.example",
                                  "--", "-"])
@pytest.mark.parametrize("action", ["install", "uninstall"])
def test_a_package_name_that_reads_as_an_option_is_refused_before_any_installer_runs(
        monkeypatch: pytest.MonkeyPatch, name: str, action: str) -> None:
    """Issue 22: `parlance install -- -rURL` handed `-rURL` to pip/uv as an option."""
    from parlance._cli import install as install_module

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("an installer ran")

    monkeypatch.setattr(install_module.subprocess, "run", never)
    env = Environment("/env/bin/python", Path("/env"), "virtualenv")
    run = install_module.install if action == "install" else install_module.uninstall
    with pytest.raises(ConfigError, match=rf"refusing to {action} {re.escape(repr(name))}: a name that starts with "
                                          "'-' would reach the installer as an option"):
        run(["parlance-ok", name], env=env)


@pytest.mark.parametrize("uv", ["/bin/uv", None])
def test_every_name_reaches_the_installer_after_a_double_dash(monkeypatch: pytest.MonkeyPatch, uv: str | None) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "pip" else None)
    env = Environment("/env/bin/python", Path("/env"), "virtualenv")
    for action in ("install", "uninstall"):
        command = installer_command(action, ["parlance-x", "./wheels/y.whl"], env, uv=uv)
        assert command[-3:] == ["--", "parlance-x", "./wheels/y.whl"] and command.count("--") == 1


def test_the_command_line_refuses_an_option_after_a_double_dash(tmp_path: Path) -> None:
    option = f"-r{tmp_path / 'requirements.txt'}"  # a local file: were it let through, nothing leaves the machine
    proc = subprocess.run([sys.executable, "-m", "parlance", "install", "--", option],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"refusing to install {option!r}" in proc.stderr and "./NAME" in proc.stderr


def test_hints_per_environment(tmp_path: Path) -> None:
    opts = InstallOptions(editable=(str(tmp_path),))
    tool = _keep_hint(Environment("py", tmp_path, "uv tool", "parlance-mcp"), ["parlance-x"], opts)
    assert tool and f"uv tool install parlance-mcp --with parlance-x --with-editable {tmp_path}" in tool
    pipx = _keep_hint(Environment("py", tmp_path, "pipx", "parlance-mcp"), ["parlance-x"], InstallOptions())
    assert pipx and "pipx inject parlance-mcp parlance-x" in pipx
    assert _keep_hint(Environment("py", tmp_path, "virtualenv"), ["parlance-x"], InstallOptions()) is None

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["Parlance_X[extra]>=1"]\n'
                                             '[dependency-groups]\nlint = ["parlance-y"]\n')
    removed = _remove_hint(Environment("py", tmp_path / ".venv", "uv project", str(tmp_path)),
                           ["parlance-x", "parlance-y", "parlance-z"])
    assert removed is not None
    assert f"uv remove --project {tmp_path} parlance-x" in removed
    assert f"uv remove --project {tmp_path} --group lint parlance-y" in removed
    assert "parlance-z" not in removed


def test_summary_names_what_changed() -> None:
    old, new = (PackEntry("parlance.packs", "hello", "parlance-hello", v) for v in ("0.1.0", "0.2.0"))
    lang = PackEntry("parlance.language_packs", "es", "parlance-language-pack-es", "1.0")
    outcome = Outcome("install", [], 0, added=[lang], changed=[(old, new)])
    assert outcome.summary() == ["language pack added: es (parlance-language-pack-es 1.0)",
                                 "pack changed: hello (parlance-hello 0.1.0 -> parlance-hello 0.2.0)"]
    assert "No pack appeared" in Outcome("install", [], 0).summary()[0]
    assert Outcome("uninstall", [], 0).summary() == ["No pack was removed."]


def test_host_distribution_is_the_one_that_provides_the_import_package() -> None:
    name = tomllib.loads((ROOT / "host" / "pyproject.toml").read_text())["project"]["name"]
    assert host_distribution().metadata["Name"] == name


@pytest.mark.parametrize(("requirement", "name"), [
    ("parlance-x", "parlance-x"),
    ("Parlance_X[extra]>=1", "parlance-x"),
    ("parlance.x(>=1)", "parlance-x"),  # PEP 508's parenthesised version, with no space before it
    ("parlance-x (>=1,<2)", "parlance-x"),
    ("parlance-x; python_version >= '3.11'", "parlance-x"),
    ("parlance-x@ https://example.com/x.whl", "parlance-x"),
    ("  parlance-x~=1.0", "parlance-x"),
])
def test_requirement_name(requirement: str, name: str) -> None:
    assert requirement_name(requirement) == name


def test_remove_hint_reads_a_parenthesised_version(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["parlance-x(>=1)"]\n')
    hint = _remove_hint(Environment("py", tmp_path / ".venv", "uv project", str(tmp_path)), ["parlance-x"])
    assert hint is not None and f"uv remove --project {tmp_path} parlance-x" in hint


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_remove_hint_is_left_out_for_a_pyproject_no_one_writes(tmp_path: Path) -> None:
    """Only a hint: a project file nested past the parser's depth, or a FIFO, leaves it out at once."""
    env = Environment("py", tmp_path / ".venv", "uv project", str(tmp_path))
    (tmp_path / "pyproject.toml").write_text("[project]\ndependencies = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert _remove_hint(env, ["parlance-x"]) is None
    (tmp_path / "pyproject.toml").unlink()
    os.mkfifo(tmp_path / "pyproject.toml")
    assert _remove_hint(env, ["parlance-x"]) is None


class _Dist:
    """What `unrequired` reads of an installed distribution: its name and its requirements."""

    def __init__(self, name: str, *requires: str) -> None:
        self.metadata, self.requires = {"Name": name}, list(requires)


def test_unrequired_is_the_bundle_and_host_distribution_the_host_it_brings(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    import parlance._cli.install

    host, bundle = _Dist("parlance-mcp-host", "mcp>=2"), _Dist("parlance-mcp", "Parlance_MCP_Host(>=0.1)")
    assert unrequired([host, bundle]) == [bundle] and unrequired([bundle, host]) == [bundle]  # type: ignore[list-item]
    assert unrequired([host]) == [host]  # type: ignore[list-item]
    # host_distribution's last resort (no file and no editable source to go by) is the one the bundle requires.
    monkeypatch.setattr(importlib.metadata, "packages_distributions", dict)
    monkeypatch.setattr(parlance._cli.install, "command_distributions", lambda: [bundle, host])
    monkeypatch.setattr(parlance._cli.install, "_editable_source", lambda dist: None)
    assert host_distribution() is host


@pytest.mark.parametrize(("stderr", "ci", "outcome"), [
    ("error: Failed to fetch: `https://pypi.org/simple/hatchling/`\n  Caused by: dns error", "", "skip"),
    ("error: Failed to fetch: `https://pypi.org/simple/hatchling/`", "1", "fail"),  # CI: the test must run
    ("error: No solution found when resolving dependencies", "", "fail"),  # not the network: a real failure
])
def test_run_uv_skips_only_for_an_unreachable_index_outside_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               stderr: str, ci: str, outcome: str) -> None:
    fake = tmp_path / "bin" / "uv"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stderr.write({stderr!r})\nsys.exit(2)\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    monkeypatch.setenv("CI", ci)
    expected = pytest.skip.Exception if outcome == "skip" else pytest.fail.Exception
    with pytest.raises(expected) as raised:
        run_uv("pip", "install", "x", cwd=tmp_path, needs="to install x")
    if outcome == "skip":
        last = stderr.splitlines()[-1].strip()
        assert str(raised.value) == f"needs the package index (PyPI) to install x (uv: {last})"
    else:
        assert "uv pip install failed:" in str(raised.value) and stderr.splitlines()[0] in str(raised.value)
