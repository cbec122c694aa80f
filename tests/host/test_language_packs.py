"""Language-pack discovery and lookup, host side (the packs' use of them is tested with each pack)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlance.config import config_from_dict
from parlance.language_packs import discover_language_packs, lookup_chain, normalize_tag
from parlance.packs import load_packs, rescan_installed


def make_pack(root: Path, folder: str, manifest: str, files: dict[str, str] | None = None) -> Path:
    path = root / folder
    path.mkdir(parents=True)
    (path / "pack.toml").write_text(manifest)
    for relative, text in (files or {}).items():
        (path / relative).parent.mkdir(parents=True, exist_ok=True)
        (path / relative).write_text(text)
    return path


def manifest(name: str, languages: list[str], compat: str = "1") -> str:
    return f'name = "{name}"\nversion = "0.1.0"\nlanguages = {json.dumps(languages)}\n\n[compat]\nwidgets = "{compat}"\n'


class WidgetsPack:
    """A code pack whose templates language packs may override."""

    PARLANCE_LANGUAGE_PACK_VERSION = "1"


@pytest.mark.parametrize(
    ("tag", "normal", "chain"),
    [
        ("de_at", "de-AT", ["de-AT", "de"]),
        ("zh_hant_tw", "zh-Hant-TW", ["zh-Hant-TW", "zh-Hant", "zh"]),
        ("EN-ie", "en-IE", ["en-IE", "en"]),
        ("es-419", "es-419", ["es-419", "es"]),
        ("../etc", None, []),
        ("", None, []),
    ],
)
def test_tags_and_lookup_chains(tag: str, normal: str | None, chain: list[str]) -> None:
    assert normalize_tag(tag) == normal
    assert lookup_chain(tag) == chain


def test_found_in_paths_and_resolved_most_specific_first(tmp_path: Path) -> None:
    make_pack(tmp_path, "de", manifest("de", ["de"]), {"prompts/widgets/greet.md": "Hallo {{name}}"})
    make_pack(tmp_path, "de-AT", manifest("de-AT", ["de-AT"]), {"prompts/widgets/greet.md": "Servus {{name}}"})
    packs = load_packs(config_from_dict({"language_packs": {"paths": [str(tmp_path)]}, "packs": {"enabled": ["widgets"]}}),
                       plugins={"widgets": WidgetsPack()})
    view = packs.language_packs.view("widgets")
    assert [lp.name for lp in view.for_language("de-AT")] == ["de-AT", "de"]
    path, lp = view.resolve("prompts/widgets/greet.md", "de_AT")
    assert (lp.name, path.read_text()) == ("de-AT", "Servus {{name}}")
    assert view.resolve("prompts/widgets/greet.md", "de-CH")[1].name == "de"  # region falls back to language
    assert view.resolve("prompts/widgets/greet.md", "fr") is None
    assert view.resolve("prompts/widgets/missing.md", "de") is None


def test_incompatible_and_malformed_packs_are_reported_and_skipped(tmp_path: Path) -> None:
    make_pack(tmp_path, "old", manifest("old", ["it"], compat="0"))
    make_pack(tmp_path, "broken", 'name = "broken"\nversion = \n')
    make_pack(tmp_path, "nolang", 'name = "nolang"\nversion = "1"\nlanguages = []\n')
    make_pack(tmp_path, "badtag", 'name = "badtag"\nversion = "1"\nlanguages = ["not a tag"]\n')
    packs = load_packs(config_from_dict({"language_packs": {"paths": [str(tmp_path)]}, "packs": {"enabled": ["widgets"]}}),
                       plugins={"widgets": WidgetsPack()})
    states = {lp.name: (lp.state, lp.error) for lp in packs.language_packs.packs}
    assert states["old"][0] == "incompatible" and "widgets assets v0" in states["old"][1]
    assert states["broken"][0] == "invalid" and "pack.toml" in states["broken"][1]
    assert states["nolang"][0] == "invalid" and "[languages]" in states["nolang"][1]
    assert states["badtag"][0] == "invalid" and "BCP 47" in states["badtag"][1]
    assert packs.language_packs.view("widgets").for_language("it") == []


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_manifest_no_one_writes_makes_its_pack_invalid_not_the_host_fail(tmp_path: Path) -> None:
    """./language_packs may be a cloned repository's (issue 22): a manifest nested past the parser's depth,
    or a FIFO, is that pack's problem, found at once."""
    make_pack(tmp_path, "deep", 'name = "deep"\nversion = "1"\nlanguages = ' + "[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "pack.toml")
    make_pack(tmp_path, "fine", manifest("fine", ["de"]))
    started = time.monotonic()
    found = discover_language_packs(config_from_dict({"language_packs": {"paths": [str(tmp_path)]}}))
    assert time.monotonic() - started < 5
    states = {Path(lp.path).name: (lp.state, lp.error or "") for lp in found.packs}
    assert states["fine"][0] == "loaded"
    assert states["deep"][0] == "invalid" and "TOML this parser cannot hold" in states["deep"][1]
    assert states["fifo"][0] == "invalid" and "not a regular file" in states["fifo"][1]


def test_files_never_escape_the_pack(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("no")
    lp_dir = make_pack(tmp_path / "lp", "de", manifest("de", ["de"]), {"messages/de.json": "{}"})
    lp = discover_language_packs(config_from_dict({"language_packs": {"paths": [str(lp_dir.parent)]}})).packs[0]
    assert lp.file("messages/de.json") is not None
    assert lp.file("../../secret.txt") is None and lp.file("/etc/passwd") is None
    assert lp.files("../..", "*") == []


def test_installed_language_pack_is_found_through_its_entry_point(tmp_path: Path, monkeypatch) -> None:
    site = tmp_path / "site"
    make_pack(site, "fake_lp_pkg", manifest("xx", ["xx"]), {"messages/xx.json": '{"hello": "hi"}'})
    (site / "fake_lp_pkg" / "__init__.py").write_text("")
    dist = site / "fake_lp-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-lp\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text("[parlance.language_packs]\nxx = fake_lp_pkg\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    rescan_installed()
    found = discover_language_packs(config_from_dict({"language_packs": {"paths": []}}))
    ours = [(lp.name, lp.state, lp.source) for lp in found.packs if lp.source == "fake-lp"]
    assert ours == [("xx", "loaded", "fake-lp")]  # beside the shipped packs (parlance-language-packs)
    off = discover_language_packs(config_from_dict({"language_packs": {"paths": [], "autoload": False}}))
    assert off.packs == []
    monkeypatch.undo()
    rescan_installed()


def test_cli_lists_language_packs(tmp_path: Path) -> None:
    make_pack(tmp_path / "lp", "de", manifest("de", ["de"]), {"prompts/widgets/greet.md": "x"})
    make_pack(tmp_path / "lp", "broken", "languages = 3\n")
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = []\n[language_packs]\npaths = ["lp"]\n'
                                            'autoload = false\n')
    env = {k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}
    proc = subprocess.run([sys.executable, "-m", "parlance", "language-packs", "--json", "--config",
                           str(tmp_path / "parlance.toml")], capture_output=True, text=True, env=env, timeout=60)
    rows = {r["name"]: r for r in json.loads(proc.stdout)}
    assert set(rows["de"]) == {"name", "version", "languages", "path", "state", "error", "overrides"}
    assert rows["de"]["overrides"] == ["prompts/widgets/greet.md"] and rows["de"]["state"] == "loaded"
    assert rows["broken"]["state"] == "invalid"
