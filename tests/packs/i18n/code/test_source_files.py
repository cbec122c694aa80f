"""Which source files a `[[packs.i18n.sources]]` entry names: globs, exclusions, and `.gitignore` as git
itself reads it — git is the oracle: every case is checked against `git check-ignore` on the same tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from parlance_i18n.code.files import glob_regex, source_files
from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.frameworks import javascript as js
from parlance_i18n.code.scanner import ScanCache
from parlance_i18n.code.settings import SourceSettings

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
    ("src/**/**/**/*.ts", ["src/a.ts", "src/x/y/z/b.ts"], ["lib/a.ts"]),
    ("src/**", ["src/a.ts", "src/x/y.ts"], ["src", "lib/a.ts"]),
    ("**/a/**/b/*.ts", ["a/b/c.ts", "x/a/y/z/b/c.ts", "a/a/b/b/c.ts"], ["a/c.ts", "b/a/c.ts"]),
    ("*.{ts,tsx}", ["a.ts", "a.tsx"], ["a.js", "d/a.ts"]),
    ("{src,lib/app}/*.ts", ["src/a.ts", "lib/app/a.ts"], ["lib/a.ts"]),
    ("*a*b*.ts", ["ab.ts", "xaybz.ts", "aab.ts"], ["ba.ts", "a/b.ts"]),
    ("src/**.ts", ["src/a.ts"], ["src/x/a.ts"]),  # `**` inside a name is `*`, as in git and the shells
    ("[!a]*.ts", ["b.ts"], ["a.ts", "/x.ts"]),  # a class never matches `/`
    ("[[:digit:]]x.ts", ["1x.ts"], ["ax.ts"]),
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


HOSTILE_TREE = {
    ".gitignore": "\n".join([
        "**/" * 10 + "deep.ts",  # runs of `**/` are one
        "a*a*a*a*a*b.ts",
        "*" * 40 + ".tmp",  # a run of `*` is one
        "[z-a]*.ts",  # git reads a reversed range as its first character
        "[!z-a]x.ts",
        "[abc",  # never closed: git never matches with it
        "[[:alpha:]]1.ts",
        "[[:bogus:]]2.ts",  # an unknown class: git never matches with it
        "{a,b}.ts",  # git has no `{}`: the braces are characters
        "src/**.log",  # `**` inside a name is `*`
        "***/*.gen",
        "x/***/y.ts",
        "q[]]z.ts",
        "r[!]]z.ts",
        "m[a-]n.ts",
    ]) + "\n",
    "src/deep.ts": "", "deep.ts": "", "src/a/b/c/d/e/f/g/h/i/j/k/deep.ts": "", "src/deep.tsx": "",
    "aaaaaaaaaaaaaaaaaaaaaaaaab.ts": "", "src/aaaaaab.ts": "", "aaaaaaaaaaaaaaaaaaaaaaaaaac.ts": "",
    "z.ts": "", "b.ts": "", "ax.ts": "", "x.ts": "", "abc": "", "[abc": "", "a1.ts": "", "11.ts": "", "a2.ts": "",
    "{a,b}.ts": "", "a.ts": "", "src/x.log": "", "src/a/x.log": "", "p/q.gen": "", "x/y.ts": "", "x/a/b/y.ts": "",
    "q]z.ts": "", "qz.ts": "", "raz.ts": "", "r]z.ts": "", "m-n.ts": "", "man.ts": "", "mbn.ts": "", "a.tmp": "",
}


@pytest.mark.skipif(GIT is None and not os.environ.get("CI"), reason="git is not installed")
@pytest.mark.parametrize("tree", [TREE, HOSTILE_TREE], ids=["usual", "hostile"])
def test_gitignored_files_are_the_ones_git_ignores(tmp_path: Path, tree: dict[str, str]) -> None:
    _write(tmp_path, tree)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    candidates = sorted(name for name in tree if not name.endswith(".gitignore"))
    found = {f.relative for f in source_files(tmp_path, ["**/*"])}
    ignored_by_git = set(subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "--no-index", *candidates],
                                        capture_output=True, text=True).stdout.split())
    never_entered = {name for name in candidates if "node_modules/" in name}  # dependencies are not the project's code
    assert {name for name in candidates if name not in found} == ignored_by_git | never_entered
    # the oracle is not vacuous
    assert {"src/keep.generated.ts", "src/app.ts", "b.ts", "a2.ts", "src/deep.tsx"} & found
    assert not {"src/x.generated.ts", "z.ts", "src/a/b/c/d/e/f/g/h/i/j/k/deep.ts", "{a,b}.ts"} & found


@pytest.mark.parametrize(("glob", "named"), [
    ("src/[z-a].ts", "the range z-a"),
    ("*a" * 40, "40 wildcards"),
    ("{a,b}" * 7 + ".ts", "more than 64 globs"),
    ("[[:letters:]].ts", "[:letters:]"),
    ("x" * 5000, "5000 characters"),
])
def test_a_glob_that_is_no_path_pattern_is_refused_with_a_sentence(glob: str, named: str) -> None:
    with pytest.raises(ValueError, match="the glob") as refused:
        glob_regex(glob)
    assert named in str(refused.value)


def test_files_in_hidden_folders_keep_their_dot(tmp_path: Path) -> None:
    _write(tmp_path, {".storybook/preview.tsx": "", ".storybook/stories/.gitignore": "draft.tsx\n",
                      ".storybook/stories/draft.tsx": "", ".storybook/stories/button.tsx": "", "src/a.tsx": ""})
    assert [f.relative for f in source_files(tmp_path, [".storybook/*.tsx"])] == [".storybook/preview.tsx"]
    assert [f.relative for f in source_files(tmp_path, ["**/*.tsx"])] == [
        ".storybook/preview.tsx", ".storybook/stories/button.tsx", "src/a.tsx"]


def test_a_linked_file_is_read_again_when_the_file_it_leads_to_changes(tmp_path: Path) -> None:
    call = 'import { useTranslation } from "react-i18next";\nexport const A = () => { const { t } = useTranslation(); ' \
           'return <p>{t("%s")}</p>; };\n'
    target, link = tmp_path / "src" / "shared" / "banner.tsx", tmp_path / "src" / "banner.tsx"
    _write(tmp_path, {"src/shared/banner.tsx": call % "banner.title"})
    link.symlink_to(target)
    long_ago = time.time() - 3600  # old enough for the cache to trust a stamp (no racily-clean re-read)
    os.utime(target, (long_ago, long_ago))
    os.utime(link, (long_ago, long_ago), follow_symlinks=False)
    framework = framework_class("i18next")(SourceSettings(paths=["src/*.tsx"], framework="i18next"))
    cache = ScanCache()
    assert [r.key for r in cache.scan(tmp_path, framework).files["src/banner.tsx"].references] == ["banner.title"]

    target.write_text(call % "banner.subtitle")
    os.utime(target, (long_ago + 60, long_ago + 60))

    assert [r.key for r in cache.scan(tmp_path, framework).files["src/banner.tsx"].references] == ["banner.subtitle"]


def test_a_link_that_leads_nowhere_is_listed_for_the_reader_to_skip(tmp_path: Path) -> None:
    _write(tmp_path, {"src/a.tsx": ""})
    (tmp_path / "src" / "gone.tsx").symlink_to(tmp_path / "src" / "missing.tsx")
    framework = framework_class("i18next")(SourceSettings(paths=["src/*.tsx"], framework="i18next"))
    scanned = ScanCache().scan(tmp_path, framework)
    assert list(scanned.files) == ["src/a.tsx"] and [s.file for s in scanned.skipped] == ["src/gone.tsx"]


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


def test_the_javascript_frameworks_read_a_react_projects_code_and_leave_its_tests_out(tmp_path: Path) -> None:
    _write(tmp_path, {"src/App.tsx": "", "src/App.test.tsx": "", "src/App.stories.tsx": "", "src/env.d.ts": "",
                      "app/page.jsx": "", "lib/util.mjs": "", "scripts/build.js": "", "src/styles.css": ""})
    assert framework_class("formatjs").default_paths == js.DEFAULT_PATHS
    assert framework_class("formatjs").default_exclude == js.DEFAULT_EXCLUDE
    found = [f.relative for f in source_files(tmp_path, js.DEFAULT_PATHS, js.DEFAULT_EXCLUDE)]
    assert found == ["app/page.jsx", "lib/util.mjs", "src/App.tsx"]
