"""`parlance new-pack NAME`: the folder it writes, and that the pack's own tests pass as generated.

The generated tests run with this interpreter (which has the host and pytest) in the scaffold's
folder, so its own `[tool.pytest.ini_options]` (pythonpath = ["src"]) is what makes the pack
importable. `tests/host/test_install_commands.py` installs a scaffolded pack into a venv and serves it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from parlance import HOST_API
from parlance.errors import ConfigError
from parlance._cli.scaffold import PackNames, pack_names, scaffold

ROOT = Path(__file__).resolve().parents[2]


def new_pack(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PARLANCE_CONFIG", "PYTHONPATH"}}
    return subprocess.run([sys.executable, "-m", "parlance", "new-pack", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=60)


def test_scaffold_passes_its_own_tests(tmp_path: Path) -> None:
    made = new_pack(tmp_path, "tone-check", "--description", "Checks the tone of UI strings.")
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "parlance-tone-check"
    assert "pack 'tone_check', distribution parlance-tone-check, tool tone_check_measure" in made.stdout
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "README.md", "pyproject.toml", "src/parlance_tone_check/__init__.py", "src/parlance_tone_check/pack.py",
        "src/parlance_tone_check/py.typed", "tests/conftest.py", "tests/test_pack.py"]

    project = tomllib.loads((folder / "pyproject.toml").read_text())
    host = tomllib.loads((ROOT / "host" / "pyproject.toml").read_text())["project"]
    assert project["project"]["name"] == "parlance-tone-check"
    assert project["project"]["description"] == "Checks the tone of UI strings."
    assert project["project"]["dependencies"][0] == f"{host['name']}>={host['version']}"
    assert project["project"]["entry-points"]["parlance.packs"] == {"tone_check": "parlance_tone_check.pack"}
    assert f'PARLANCE_HOST_API = "{HOST_API}"' in (folder / "src" / "parlance_tone_check" / "pack.py").read_text()
    readme = (folder / "README.md").read_text()
    assert readme.startswith("# parlance-tone-check\n") and "tone_check_measure" in readme

    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PARLANCE_CONFIG"}}
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], capture_output=True,
                            text=True, cwd=folder, env=env, timeout=300)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "7 passed" in tested.stdout


def test_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    folder = tmp_path / "parlance-glossary"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    refused = new_pack(tmp_path, "glossary")
    assert refused.returncode == 2 and "already exists" in refused.stderr
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    elsewhere = new_pack(tmp_path, "glossary", "--path", str(tmp_path / "packs" / "glossary"))
    assert elsewhere.returncode == 0 and (tmp_path / "packs" / "glossary" / "pyproject.toml").is_file()


def test_refuses_the_name_of_an_installed_pack(tmp_path: Path) -> None:
    refused = new_pack(tmp_path, "i18n")
    assert refused.returncode == 2 and "a pack named 'i18n' is already installed" in refused.stderr
    assert list(tmp_path.iterdir()) == []


TONE_CHECK = PackNames("tone_check", "parlance-tone-check", "parlance_tone_check", "tone_check_measure")


@pytest.mark.parametrize(("given", "names"), [
    ("glossary", PackNames("glossary", "parlance-glossary", "parlance_glossary", "glossary_measure")),
    ("parlance-tone-check", TONE_CHECK),
    ("Tone_Check", TONE_CHECK),
])
def test_pack_names(given: str, names: PackNames) -> None:
    assert pack_names(given) == names


@pytest.mark.parametrize("bad", ["", "9lives", "with space", "a--b", "tone-", "glossary!", "parlance-"])
def test_bad_names_are_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="not a usable pack name"):
        pack_names(bad)


@pytest.mark.parametrize("description", ['C:\\path "quoted"', 'ends in a quote"',
                                         'not\\tescapes \\u00e9 \U0001f600 """'])
def test_description_is_quoted_for_toml_and_python(tmp_path: Path, description: str) -> None:
    folder, _ = scaffold("glossary", tmp_path / "pack", description=description)
    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["description"] == description
    init = (folder / "src" / "parlance_glossary" / "__init__.py").read_text(encoding="utf-8")
    docstring = ast.get_docstring(ast.parse(init), clean=False)
    assert docstring is not None and docstring.splitlines()[0] == description


@pytest.mark.parametrize("description", ["two\nlines", "a\ttab", "nul\x00", "sep\u2028"])
def test_description_with_a_line_break_or_control_character_is_refused(tmp_path: Path, description: str) -> None:
    with pytest.raises(ConfigError, match=r"description .* holds .*one-line summary \(give --description one line"):
        scaffold("glossary", tmp_path / "pack", description=description)
    assert not (tmp_path / "pack").exists()
    refused = new_pack(tmp_path, "glossary", "--description", "first\nsecond")
    assert refused.returncode == 2 and "one-line summary" in refused.stderr and "Traceback" not in refused.stderr
