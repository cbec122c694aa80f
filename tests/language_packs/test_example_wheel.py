"""The data-only distributions, as built: the shipped packs (`language_packs/`, distribution
`parlance-language-packs`) and the installable example (`examples/parlance-language-pack-es`).
Each wheel carries every data file, and once unpacked on sys.path (what pip does) the host finds
the packs through their `parlance.language_packs` entry points."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from parlance.config import config_from_dict
from parlance.language_packs import discover_language_packs
from parlance.packs import rescan_installed

from tests.language_packs.layout import DISTRIBUTION, EXAMPLE_PACK, REPO_PACKS

pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build the wheel")


@dataclass(frozen=True)
class Project:
    root: Path  # the folder holding pyproject.toml
    package: Path  # the package folder the wheel ships
    distribution: str
    packs: dict[str, str]  # pack name -> its folder, relative to the package folder

    def __str__(self) -> str:
        return self.distribution


PROJECTS = [
    Project(DISTRIBUTION, REPO_PACKS, "parlance-language-packs",
            {"de": "de", "en": "en", "en-IE": "en_IE", "ja": "ja"}),
    Project(EXAMPLE_PACK.parents[1], EXAMPLE_PACK, "parlance-language-pack-es", {"es": "."}),
]


@pytest.fixture(scope="module", params=PROJECTS, ids=str)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path]:
    project: Project = request.param
    out = tmp_path_factory.mktemp("wheel")
    # sdist, then the wheel from the sdist: what a release uploads, so the sdist must hold the data too.
    subprocess.run(["uv", "build", "-q", str(project.root), "-o", str(out)], check=True, timeout=180,
                   capture_output=True)
    (wheel,) = out.glob(f"{project.package.name}-*.whl")
    return project, wheel


def test_wheel_ships_every_file_of_the_packs(built: tuple[Project, Path]) -> None:
    project, wheel = built
    package = project.package.name
    in_wheel = {n for n in zipfile.ZipFile(wheel).namelist() if n.startswith(package + "/")}
    on_disk = {f"{package}/{p.relative_to(project.package).as_posix()}" for p in project.package.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert in_wheel == on_disk


def test_unpacked_wheel_is_found_through_its_entry_points(built: tuple[Project, Path], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    project, wheel = built
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    monkeypatch.syspath_prepend(str(site))  # ahead of the workspace's editable install of the same name
    importlib.invalidate_caches()
    rescan_installed()  # the host reads installed distributions once per process
    try:
        found = discover_language_packs(config_from_dict({"language_packs": {"paths": []}}))
    finally:
        monkeypatch.undo()
        rescan_installed()
    ours = {lp.name: lp for lp in found.packs if lp.source == project.distribution}
    assert {name: lp.state for name, lp in ours.items()} == dict.fromkeys(project.packs, "loaded")
    for name, folder in project.packs.items():
        assert ours[name].path.resolve() == (site / project.package.name / folder).resolve()
        assert any(o.startswith("messages/") for o in ours[name].overrides())
