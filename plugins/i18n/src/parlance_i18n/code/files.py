"""The source files a `[[packs.i18n.sources]]` entry names, found and read as untrusted input.

**Which files.** `paths` and `exclude` are globs relative to the project's folder: `*` and `?` within
one folder name, `**` across folders, `[abc]` and `{ts,tsx}` as shells have them. A file is scanned
when a `paths` glob matches it, no `exclude` glob does, and git would not ignore it: the project's
`.gitignore` files (each applying to its folder and below, later lines winning, `!` re-including,
`/` anchoring a pattern to its folder, a trailing `/` naming folders only) and `.git/info/exclude`,
read as git reads them. `.git` and `node_modules` folders are never entered (a project's
dependencies are not its code), nor is a folder that is a link (a cloned repository's link may lead
anywhere); a file that is a link is read only where it leads inside the project (`store`).

**Reading.** Each file through `store.read_bytes`: inside the project, a regular file, at most the
entry's `max_file_bytes` (a larger one, a bundle or generated code, is skipped and named).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["GitIgnore", "SourceFile", "glob_regex", "source_files"]

_NEVER_ENTERED = frozenset({".git", "node_modules"})


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to scan: its path relative to the project (`/`-separated), and where it is."""

    relative: str
    path: str
    """Its path as found (a string: a scan of thousands of files makes no `Path` it does not read)."""
    stamp: tuple[int, int, int]
    """(inode, size, mtime in ns) when found: a file whose stamp is unchanged is not read again."""


def source_files(root: Path, paths: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[SourceFile]:
    """Every file under `root` that `paths` names and neither `exclude` nor git ignores, once each, in
    folder order."""
    wanted = [glob_regex(g) for g in paths]
    unwanted = [glob_regex(g) for g in exclude]
    ignore = GitIgnore(root)
    starts = sorted({_static_folder(g) for g in paths})
    # a folder inside another start is walked with it (`src` and `src/app`): each file comes once
    starts = [s for s in starts if not any(o != s and (o == "" or s.startswith(o + "/")) for o in starts)]
    for start in starts:
        top = root / start if start else root
        if not top.is_dir() or top.is_symlink() or any(part in _NEVER_ENTERED for part in Path(start).parts):
            continue
        if _ignored_on_the_way(root, start, ignore):
            continue
        for folder, subfolders, names in os.walk(top, followlinks=False):
            relative_folder = os.path.relpath(folder, root).replace(os.sep, "/").removeprefix(".")
            ignore.enter(relative_folder, names)
            subfolders[:] = sorted(s for s in subfolders if s not in _NEVER_ENTERED
                                   and not ignore.ignored(_join(relative_folder, s), folder=True))
            for name in sorted(names):
                relative = _join(relative_folder, name)
                if not any(r.fullmatch(relative) for r in wanted) or any(r.fullmatch(relative) for r in unwanted):
                    continue
                if ignore.ignored(relative, folder=False):
                    continue
                path = os.path.join(folder, name)
                try:
                    status = os.lstat(path)
                except OSError:
                    continue
                yield SourceFile(relative, path, (status.st_ino, status.st_size, status.st_mtime_ns))


def _ignored_on_the_way(root: Path, start: str, ignore: GitIgnore) -> bool:
    """Read the `.gitignore` files of the folders above `start` (their rules hold below them; `start`'s
    own is read by the walk), and whether git ignores a folder on the way or a link stands there."""
    parts = start.split("/") if start else []
    for depth in range(len(parts) + 1):
        folder = "/".join(parts[:depth])
        if depth and ((root / folder).is_symlink() or ignore.ignored(folder, folder=True)):
            return True
        if depth < len(parts):
            ignore.enter(folder, [".gitignore"] if (root / folder / ".gitignore").is_file() else [])
    return False


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _static_folder(glob: str) -> str:
    """The folders a glob starts with before its first wildcard (`src/app` of `src/app/**/*.ts`)."""
    parts: list[str] = []
    for part in glob.split("/")[:-1]:
        if any(c in part for c in "*?[{"):
            break
        parts.append(part)
    return "/".join(parts)


@cache
def glob_regex(glob: str, *, anchored: bool = True) -> re.Pattern[str]:
    """A glob as a regular expression over `/`-separated relative paths."""
    out: list[str] = []
    i = 0
    depth = 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = glob[i + 1:end]
                body = "^" + body[1:] if body.startswith("!") else body
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = end
        elif char == "{":
            out.append("(?:")
            depth += 1
        elif char == "}" and depth:
            out.append(")")
            depth -= 1
        elif char == "," and depth:
            out.append("|")
        elif char == "\\" and i + 1 < len(glob):
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(char))
        i += 1
    pattern = "".join(out) + ")" * depth
    return re.compile(pattern if anchored else f"(?:.*/)?{pattern}")


@dataclass(frozen=True, slots=True)
class _Rule:
    folder: str
    pattern: re.Pattern[str]
    negated: bool
    folders_only: bool


class GitIgnore:
    """The ignore rules git applies to a work tree, read as folders are entered (`enter`), top down."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._rules: list[_Rule] = []
        self._ignored_folders: list[str] = []
        self._entered: set[str] = set()
        exclude = root / ".git" / "info" / "exclude"
        if exclude.is_file() and not exclude.is_symlink():
            self._rules.extend(_rules("", _read_small(exclude)))

    def enter(self, folder: str, names: Iterable[str]) -> None:
        """Read the `.gitignore` of `folder` (relative, `""` for the root), if `names` holds one."""
        if folder in self._entered:
            return
        self._entered.add(folder)
        if ".gitignore" in names:
            path = self._root / folder / ".gitignore"
            if path.is_file() and not path.is_symlink():
                self._rules.extend(_rules(folder, _read_small(path)))

    def ignored(self, relative: str, *, folder: bool) -> bool:
        """Whether git ignores `relative` (a folder, or a file), the later matching rule winning."""
        for ignored_folder in self._ignored_folders:
            if relative.startswith(ignored_folder + "/"):
                return True  # git never looks inside an ignored folder: nothing below comes back
        verdict = False
        for rule in self._rules:
            if rule.folders_only and not folder:
                continue
            if rule.folder and not relative.startswith(rule.folder + "/"):
                continue
            inside = relative[len(rule.folder) + 1:] if rule.folder else relative
            if rule.pattern.fullmatch(inside):
                verdict = not rule.negated
        if verdict and folder:
            self._ignored_folders.append(relative)
        return verdict


def _rules(folder: str, text: str) -> Iterator[_Rule]:
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        line = re.sub(r"(?<!\\)\s+$", "", line)
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        elif line.startswith("\\!") or line.startswith("\\#"):
            line = line[1:]
        folders_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        yield _Rule(folder, glob_regex(line, anchored=anchored), negated, folders_only)


def _read_small(path: Path, most: int = 1024 * 1024) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(most).decode("utf-8", "replace")
    except OSError:
        return ""
