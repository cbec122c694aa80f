"""Which source files a `[[packs.i18n.sources]]` entry names: globs, exclusions, and `.gitignore` as git
itself reads it — git is the oracle: every case is checked against `git check-ignore` on the same tree."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from parlance_i18n.code.files import glob_regex, source_files

GIT = shutil.which("git")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(("glob", "matches", "misses"), [
    ("src/**/*.ts", ["src/a.ts", "src/x/y/b.ts"], ["src/a.tsx", "lib/a.ts", "src/a.ts/c"]),
    ("src/**/*.{ts,tsx}", ["src/a.ts", "src/d/a.tsx"], ["src/a.js"]),
    ("**/*.test.tsx", ["a.test.tsx", "src/x/a.test.tsx"], ["src/a.tsx"]),
    ("app/views/*/[a-z]*.erb", ["app/views/users/index.erb"], ["app/views/users/_form.erb", "app/views/a/b/c.erb"]),
    ("res/layout?/*.xml", ["res/layout2/a.xml"], ["res/layout/a.xml"]),
])
def test_globs_match_as_shells_and_extractors_match_them(glob: str, matches: list[str], misses: list[str]) -> None:
    pattern = glob_regex(glob)
    assert [m for m in matches if not pattern.fullmatch(m)] == []
    assert [m for m in misses if pattern.fullmatch(m)] == []


TREE = {
    ".gitignore": "dist/\n*.generated.ts\n/build\n!keep.generated.ts\nnested/**/tmp\n# a comment\n\\#hash.ts\n",
    "src/app.ts": "", "src/keep.generated.ts": "", "src/x.generated.ts": "", "src/#hash.ts": "",
    "src/dist/bundle.ts": "", "dist/out.ts": "", "build/b.ts": "", "src/build/c.ts": "",
    "src/nested/a/tmp": "", "nested/a/b/tmp": "", "nested/tmp": "",
    "src/deep/.gitignore": "local.ts\n!../app.ts\n", "src/deep/local.ts": "", "src/deep/other.ts": "",
    "node_modules/lib/index.ts": "", "src/node_modules/x.ts": "",
}


@pytest.mark.skipif(GIT is None and not os.environ.get("CI"), reason="git is not installed")
def test_gitignored_files_are_the_ones_git_ignores(tmp_path: Path) -> None:
    _write(tmp_path, TREE)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    candidates = sorted(name for name in TREE if not name.endswith(".gitignore"))
    found = {f.relative for f in source_files(tmp_path, ["**/*"])}
    ignored_by_git = set(subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "--no-index", *candidates],
                                        capture_output=True, text=True).stdout.split())
    never_entered = {name for name in candidates if "node_modules/" in name}  # dependencies are not the project's code
    assert {name for name in candidates if name not in found} == ignored_by_git | never_entered
    assert "src/keep.generated.ts" in found and "src/x.generated.ts" not in found  # the oracle is not vacuous


def test_excluded_and_unnamed_files_are_left_out(tmp_path: Path) -> None:
    _write(tmp_path, {"src/a.tsx": "", "src/a.test.tsx": "", "src/b.ts": "", "lib/c.tsx": ""})
    found = [f.relative for f in source_files(tmp_path, ["src/**/*.tsx", "src/**/*.ts"], ["**/*.test.tsx"])]
    assert found == ["src/a.tsx", "src/b.ts"]


def test_a_folder_that_is_a_link_is_not_entered(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    _write(outside, {"secret.ts": ""})
    project = tmp_path / "project"
    _write(project, {"src/a.ts": ""})
    (project / "src" / "linked").symlink_to(outside, target_is_directory=True)
    assert [f.relative for f in source_files(project, ["src/**/*.ts"])] == ["src/a.ts"]


def test_a_gitignore_above_the_globs_folder_applies_below_it(tmp_path: Path) -> None:
    _write(tmp_path, {".gitignore": "*.gen.ts\nsrc/legacy/\n", "src/app/a.ts": "", "src/app/b.gen.ts": "",
                      "src/legacy/old.ts": ""})
    assert [f.relative for f in source_files(tmp_path, ["src/app/**/*.ts"])] == ["src/app/a.ts"]
    assert list(source_files(tmp_path, ["src/legacy/*.ts"])) == []
