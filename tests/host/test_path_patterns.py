"""Path settings written as patterns (`locales/{locale}.json`): matched against real files, and
reported by `parlance config check` (a subprocess, as a user runs it) when they match none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parlance.path_patterns import is_pattern, matches_a_file


def _files(root: Path, *names: str) -> Path:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")
    return root


def test_a_value_with_placeholders_is_a_pattern() -> None:
    assert is_pattern("locales/{locale}.json") and is_pattern("po/{domain}.pot")
    assert not is_pattern("locales/en.json") and not is_pattern("odd/{ not a name }.json")


@pytest.mark.parametrize(("pattern", "files", "matches"), [
    ("locales/{locale}.json", ["locales/de.json"], True),
    ("locales/{locale}.json", ["locales/de.yml", "locale/de.json"], False),
    ("locale/{locale}/LC_MESSAGES/{domain}.po", ["locale/fr/LC_MESSAGES/django.po"], True),
    ("locale/{locale}/LC_MESSAGES/{domain}.po", ["locale/fr/django.po"], False),
    # a default locale's file is named without its locale: Android values/, Java messages.properties
    ("res/values-{locale}/strings.xml", ["res/values/strings.xml"], True),
    ("i18n/messages_{locale}.properties", ["i18n/messages.properties"], True),
    ("i18n/messages_{locale}.properties", ["i18n/messages-de.properties"], False),
    # glob's own characters in a folder name are literal
    ("[app]/{locale}.json", ["[app]/de.json"], True),
    ("[app]/{locale}.json", ["a/de.json"], False),
    ("locales/{locale}.json", [], False),
    # past six placeholders that may be absent, the rest stand for part of a name only
    ("x-{a}-{b}-{c}-{d}-{e}-{f}-{g}.json", ["x-1-2-3-4-5-6-7.json"], True),
    ("x-{a}-{b}-{c}-{d}-{e}-{f}-{g}.json", ["x-1-2-3-4-5-6.json"], True),
    ("x-{a}-{b}-{c}-{d}-{e}-{f}-{g}.json", ["x-1.json"], True),
])
def test_a_pattern_matches_the_files_it_names(tmp_path: Path, pattern: str, files: list[str], matches: bool) -> None:
    _files(tmp_path, *files)
    assert matches_a_file(str(tmp_path / pattern)) is matches


def _config_check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}
    return subprocess.run([sys.executable, "-m", "parlance", "config", "check", "--config", str(root / "parlance.toml"),
                           *args], capture_output=True, text=True, env=env, cwd=root, timeout=120)


@pytest.mark.parametrize("written", ["locale/{locale}.json", "locales/{locale}.json"])
def test_config_check_warns_of_a_catalog_path_that_matches_no_file(tmp_path: Path, written: str) -> None:
    _files(tmp_path, "locales/en.json", "locales/de.json")
    for code in ("en", "de"):
        (tmp_path / "locales" / f"{code}.json").write_text(json.dumps({"hi": "Hi"}), encoding="utf-8")
    (tmp_path / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n\n'
        f'[[packs.i18n.catalogs]]\npath = "{written}"\nformat = "icu-json"\n\n'
        '[language_packs]\nautoload = false\npaths = []\n', encoding="utf-8")
    plain, strict = _config_check(tmp_path), _config_check(tmp_path, "--strict")
    if written.startswith("locales/"):  # it matches: nothing to say
        assert plain.returncode == 0 and strict.returncode == 0, strict.stdout + strict.stderr
        assert "matches no file" not in plain.stdout + plain.stderr
        return
    assert plain.returncode == 0, plain.stdout + plain.stderr
    said = plain.stdout + plain.stderr
    assert "warning" in said and "packs.i18n.catalogs[0].path" in said and "matches no file" in said
    assert strict.returncode != 0 and "error" in strict.stdout + strict.stderr


def test_config_check_warns_of_a_gettext_template_that_names_no_file(tmp_path: Path) -> None:
    _files(tmp_path, "po/fr.po")
    (tmp_path / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n\n'
        '[[packs.i18n.catalogs]]\npath = "po/{locale}.po"\ntemplate = "po/app.pot"\nformat = "po"\n\n'
        '[language_packs]\nautoload = false\npaths = []\n', encoding="utf-8")
    strict = _config_check(tmp_path, "--strict")
    said = strict.stdout + strict.stderr
    assert strict.returncode != 0 and "packs.i18n.catalogs[0].template" in said and "does not exist" in said
