"""The installable example, as built: the wheel carries every data file, and once unpacked on
sys.path (what pip does) the host finds the pack through its `parlance.language_packs` entry point."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from parlance.config import config_from_dict
from parlance.language_packs import discover_language_packs
from parlance.packs import rescan_installed

from tests.language_packs.layout import EXAMPLE_PACK

PROJECT = EXAMPLE_PACK.parents[1]
pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build the wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(["uv", "build", "-q", str(PROJECT), "--wheel", "-o", str(out)], check=True, timeout=180,
                   capture_output=True)
    (built,) = out.glob("parlance_language_pack_es-*.whl")
    return built


def test_wheel_ships_every_file_of_the_pack(wheel: Path) -> None:
    package = EXAMPLE_PACK.name
    in_wheel = {n for n in zipfile.ZipFile(wheel).namelist() if n.startswith(package + "/")}
    on_disk = {f"{package}/{p.relative_to(EXAMPLE_PACK).as_posix()}" for p in EXAMPLE_PACK.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert in_wheel == on_disk


def test_unpacked_wheel_is_found_through_its_entry_point(wheel: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    rescan_installed()  # the host reads installed distributions once per process
    found = discover_language_packs(config_from_dict({"language_packs": {"paths": []}}))
    ours = [lp for lp in found.packs if lp.source == "parlance-language-pack-es"]
    assert [(lp.name, lp.state, lp.languages) for lp in ours] == [("es", "loaded", ["es"])]
    assert ours[0].path.resolve() == (site / EXAMPLE_PACK.name).resolve()
    assert "messages/es.json" in ours[0].overrides()
