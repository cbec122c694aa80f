"""The shipped packs as a distribution (`parlance-language-packs`, folder `language_packs/`): its
entry points and its pack folders agree; the host finds the packs through the installed
distribution from any folder, without importing anything; a drop-in of the same name wins."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from parlance.config import config_from_dict
from parlance.language_packs import discover_language_packs
from parlance.packs import rescan_installed

from tests.language_packs.layout import DISTRIBUTION, REPO_PACKS, pack_name

SHIPPED = sorted(p for p in REPO_PACKS.iterdir() if (p / "pack.toml").is_file())


def test_every_pack_folder_has_an_entry_point_and_every_entry_point_a_folder() -> None:
    pyproject = tomllib.loads((DISTRIBUTION / "pyproject.toml").read_text(encoding="utf-8"))
    declared = pyproject["project"]["entry-points"]["parlance.language_packs"]
    assert declared == {pack_name(folder): f"parlance_language_packs.{folder.name}" for folder in SHIPPED}
    assert sorted(declared) == ["de", "en", "en-IE", "ja"]


def test_installed_packs_are_found_from_any_folder_without_being_imported(tmp_path: Path) -> None:
    # A fresh interpreter in a folder with no ./language_packs and an empty user data dir: only the
    # installed distribution can supply the packs.
    script = (
        "import json, sys\n"
        "from parlance.config import config_from_dict\n"
        "from parlance.language_packs import discover_language_packs\n"
        "found = discover_language_packs(config_from_dict({}))\n"
        "print(json.dumps({'packs': [[lp.name, lp.state, lp.source, str(lp.path)] for lp in found.packs],\n"
        "                  'imported': sorted(m for m in sys.modules if m.startswith('parlance_language_packs'))}))\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=60, check=True)
    seen = json.loads(proc.stdout)
    assert seen["imported"] == []
    shipped = [(name, state, Path(path)) for name, state, source, path in seen["packs"]
               if source == "parlance-language-packs"]
    assert shipped == [(pack_name(folder), "loaded", folder) for folder in SHIPPED]


def test_a_drop_in_of_the_same_name_shadows_the_installed_pack(tmp_path: Path) -> None:
    mine = tmp_path / "lp" / "de"
    (mine / "messages").mkdir(parents=True)
    (mine / "pack.toml").write_text('name = "de"\nversion = "2.0.0"\nlanguages = ["de"]\n', encoding="utf-8")
    (mine / "messages" / "de.json").write_text('{"cart": {"title": "Mein Korb"}}', encoding="utf-8")
    found = discover_language_packs(config_from_dict({"language_packs": {"paths": [str(tmp_path / "lp")]}}))
    by_source = {(lp.name, lp.source): lp for lp in found.packs}
    assert by_source["de", "path"].state == "loaded"
    shadowed = by_source["de", "parlance-language-packs"]
    assert shadowed.state == "shadowed" and str(mine) in (shadowed.error or "")
    assert by_source["ja", "parlance-language-packs"].state == "loaded"  # the others still come from the install
    assert [lp.path for lp in found.view("i18n").for_language("de-AT")] == [mine]


def test_a_dotted_entry_point_names_a_folder_inside_a_package_that_is_never_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    pack = site / "fake_shipped_lps" / "xx_YY"
    (pack / "messages").mkdir(parents=True)
    (site / "fake_shipped_lps" / "__init__.py").write_text("raise RuntimeError('a language pack was imported')\n")
    (pack / "pack.toml").write_text('name = "xx-YY"\nversion = "0.1.0"\nlanguages = ["xx-YY"]\n')
    (pack / "messages" / "xx-YY.json").write_text('{"hello": "hi"}')
    dist = site / "fake_shipped_lps-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-shipped-lps\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text("[parlance.language_packs]\nxx-YY = fake_shipped_lps.xx_YY\n"
                                           "gone = fake_shipped_lps.no_such_folder\n"
                                           "escape = fake_shipped_lps./etc\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    rescan_installed()
    try:
        found = discover_language_packs(config_from_dict({"language_packs": {"paths": []}}))
    finally:
        monkeypatch.undo()
        rescan_installed()
    ours = {lp.name: lp for lp in found.packs if lp.source == "fake-shipped-lps"}
    assert (ours["xx-YY"].state, ours["xx-YY"].path) == ("loaded", pack)
    for bad in ("gone", "escape"):
        assert ours[bad].state == "invalid" and "no package folder" in (ours[bad].error or "")
    assert "fake_shipped_lps" not in sys.modules
