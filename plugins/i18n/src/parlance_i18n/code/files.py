"""The source files a `[[packs.i18n.sources]]` entry names, found and read as untrusted input.

**Which files.** `paths` and `exclude` are globs relative to the project's folder: `*` and `?` within
one folder name, `**` across folders (a `**` inside a name is a `*`), `[abc]` and `{ts,tsx}` as shells
have them. Globs and `.gitignore` lines are untrusted input too: each is matched in time linear in the
path (nothing for the regex engine to backtrack into), and a glob with more wildcards, `{}` choices or
characters than any path pattern needs is refused with a ValueError naming it. A file is scanned
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
from functools import lru_cache
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
    """(inode, size, mtime in ns) when found, of where a link leads: a file whose stamp is unchanged is not
    read again."""


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
            from_root = os.path.relpath(folder, root)  # "." for the root; `.storybook` keeps its dot
            relative_folder = "" if from_root == "." else from_root.replace(os.sep, "/")
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
                status = _status(path)
                if status is not None:
                    yield SourceFile(relative, path, (status.st_ino, status.st_size, status.st_mtime_ns))


def _status(path: str) -> os.stat_result | None:
    """What the file is now: where a link leads (so a change there changes the stamp, and the scan cache
    reads it again), or the link itself when it leads nowhere (listed; the reader says why it skips it)."""
    try:
        return os.stat(path)
    except OSError:
        try:
            return os.lstat(path)
        except OSError:
            return None


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


@lru_cache(maxsize=1024)  # globs come from clients too: a bounded cache
def glob_regex(glob: str, *, anchored: bool = True) -> re.Pattern[str]:
    """A client's or a config's glob (shell syntax, `{a,b}` included) as a regular expression over
    `/`-separated relative paths. A ValueError names the glob when it is no path pattern: a range whose
    end comes before its start (`[z-a]`), an unknown `[:class:]`, more than `MOST_WILDCARDS` wildcards or
    `MOST_ALTERNATIVES` `{}` choices, longer than `LONGEST_GLOB`."""
    if len(glob) > LONGEST_GLOB:
        raise ValueError(f"the glob {glob[:60]!r}... is {len(glob)} characters long, longer than any path "
                         f"({LONGEST_GLOB}): name the files with a shorter glob")
    tokens = list(_tokens(glob, gitignore=False))
    alternatives = [_translate(glob, choice, gitignore=False) for choice in _expand_braces(glob, tokens)]
    return _compile(glob, alternatives, anchored)


LONGEST_GLOB = 4096
"""The longest path Linux names (PATH_MAX): a longer glob is no path pattern."""
MOST_WILDCARDS = 32
"""More wildcards than this in one glob is no path pattern a person writes: it is refused."""
MOST_ALTERNATIVES = 64
"""The most globs a `{}` expansion may make (`{a,b}{c,d}` makes four)."""


def _gitignore_regex(line: str, *, anchored: bool) -> re.Pattern[str] | None:
    """A `.gitignore` pattern (git's wildmatch syntax: no `{}`) as a regular expression; None for a line
    git never matches with (an unclosed `[`, an unknown `[:class:]`) and for one past `LONGEST_GLOB` or
    `MOST_WILDCARDS` (no person writes it; skipped rather than slow every file's check)."""
    if len(line) > LONGEST_GLOB:
        return None
    try:
        return _compile(line, [_translate(line, list(_tokens(line, gitignore=True)), gitignore=True)], anchored)
    except ValueError:
        return None


def _compile(glob: str, alternatives: list[str], anchored: bool) -> re.Pattern[str]:
    pattern = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
    if not anchored:  # no `/` in the pattern: it names the last part of a path, at any depth
        pattern = f"(?>(?:.*/)?){pattern}"
    try:
        return re.compile(pattern, re.DOTALL)
    except re.error as error:  # not expected: every character is escaped and every class built here
        raise ValueError(f"the glob {glob!r} cannot be read ({error})") from None


# --- reading a glob ------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    \\(?P<escaped>.)
  | (?P<stars>\*+)
  | (?P<any>\?)
  | \[(?P<class>[!^]?+\]?+(?:\\.|\[:[^\]]*?:\]|[^\]])*+)\]
  | (?P<char>.)
""", re.DOTALL | re.VERBOSE)
r"""A glob's pieces, as git's wildmatch reads them: an escaped character, a run of `*`, `?`, a class
(its first member may be `]`; `\]` and `[:alpha:]` do not close it), any other character. Each part
is possessive: one way to read a glob, in one pass."""


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str
    """`char` (`text` is the character), `stars` (`text` is the run), `any`, `class` (`text` is its inside),
    `slash`, and in a client's glob `open`, `close`, `comma` for `{`, `}`, `,`."""
    text: str = ""


_BRACES = {"{": "open", "}": "close", ",": "comma"}


def _tokens(glob: str, *, gitignore: bool) -> Iterator[_Token]:
    for found in _TOKEN.finditer(glob):
        if found["escaped"] is not None:
            yield _Token("slash") if found["escaped"] == "/" else _Token("char", found["escaped"])
        elif found["stars"] is not None:
            yield _Token("stars", found["stars"])
        elif found["any"] is not None:
            yield _Token("any")
        elif found["class"] is not None:
            yield _Token("class", found["class"])
        elif found["char"] == "/":
            yield _Token("slash")
        elif found["char"] == "[" and gitignore:
            raise ValueError(f"{glob!r} has a `[` never closed")  # git's wildmatch then matches nothing
        elif found["char"] in _BRACES and not gitignore:
            yield _Token(_BRACES[found["char"]])
        else:
            yield _Token("char", found["char"])


def _expand_braces(glob: str, tokens: list[_Token]) -> list[list[_Token]]:
    """`tokens` with their `{a,b}` groups spelled out, one glob per choice (`src/{a,b}.ts`: `src/a.ts`,
    `src/b.ts`); a `{` or `}` without its partner, and a `,` outside a group, are plain characters."""
    partner: dict[int, int] = {}
    opened: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind == "open":
            opened.append(index)
        elif token.kind == "close" and opened:
            partner[opened.pop()] = index

    def spelled(start: int, end: int) -> list[list[_Token]]:
        globs: list[list[_Token]] = [[]]
        index = start
        while index < end:
            token = tokens[index]
            if token.kind == "open" and index in partner:
                choices = [choice for first, last in _choices(tokens, partner, index)
                           for choice in spelled(first, last)]
                globs = [done + choice for done in globs for choice in choices]
                if len(globs) > MOST_ALTERNATIVES:
                    raise ValueError(f"the glob {glob!r} spells out to more than {MOST_ALTERNATIVES} globs: name "
                                     "the files with fewer {} choices")
                index = partner[index] + 1
                continue
            plain = _Token("char", {"open": "{", "close": "}", "comma": ","}[token.kind]) \
                if token.kind in ("open", "close", "comma") else token
            for done in globs:
                done.append(plain)
            index += 1
        return globs

    return spelled(0, len(tokens))


def _choices(tokens: list[_Token], partner: dict[int, int], open_index: int) -> list[tuple[int, int]]:
    """The token ranges of the choices of the `{` at `open_index`: cut at its own commas, not at those of
    a group inside it."""
    ranges: list[tuple[int, int]] = []
    first = index = open_index + 1
    close = partner[open_index]
    while index < close:
        if tokens[index].kind == "open" and index in partner:
            index = partner[index] + 1
            continue
        if tokens[index].kind == "comma":
            ranges.append((first, index))
            first = index + 1
        index += 1
    ranges.append((first, close))
    return ranges


# --- writing it as a regular expression ----------------------------------------------------------
#
# A backtracking regex engine is slow on ambiguous patterns: `(?:[^/]*/)*` twice in a row, or
# `[^/]*a[^/]*a[^/]*b`, try every way of splitting the path between them (exponential in the number of
# wildcards). So the translation leaves nothing ambiguous to backtrack into:
# - a run of `**/` is one, a run of `*` one;
# - the folders between two `**` are found at the first place they match and kept there (an atomic
#   group `(?>...)`): a later place could only leave fewer folders for the rest, and a folder's pattern
#   ends where the folder name does, so that first place is the only candidate worth keeping;
# - likewise in a name, the part between two `*` (fixed in length: characters, `?`, classes) is found at
#   its first place and kept;
# - each folder `**/` passes is taken whole (`[^/]*+/`).
# What is left to backtrack is the last part of a name and the last folders of a path: linear.

_ANY_FOLDERS = "(?:[^/]*+/)*"


def _translate(glob: str, tokens: list[_Token], *, gitignore: bool) -> str:
    """One brace-free glob's tokens as a regular expression."""
    segments = _segments(glob, tokens, gitignore=gitignore)
    wildcards = sum(1 if segment is None else sum(piece == "*" or piece.startswith(("[", "(?")) for piece in segment)
                    for segment in segments)
    if wildcards > MOST_WILDCARDS:
        raise ValueError(f"the glob {glob!r} has {wildcards} wildcards, more than the {MOST_WILDCARDS} a path "
                         "pattern may hold: name the files with a simpler glob")
    chunks: list[list[list[str]]] = [[]]  # the folders between one `**` and the next
    for segment in segments:
        if segment is None:
            chunks.append([])
        else:
            chunks[-1].append(segment)
    if len(chunks) == 1:
        return _folders(chunks[0])
    out = _folders(chunks[0]) + "/" if chunks[0] else ""
    for middle in chunks[1:-1]:
        out += f"(?>{_ANY_FOLDERS}?{_folders(middle)}/)"
    if chunks[-1]:
        return out + _ANY_FOLDERS + _folders(chunks[-1])
    return out + (".+" if out else ".*")  # a trailing `**`: everything inside


def _folders(segments: list[list[str]]) -> str:
    return "/".join(_name(pieces) for pieces in segments)


def _name(pieces: list[str]) -> str:
    """One folder or file name's pattern, from its pieces (regular expressions, `*` for a wildcard)."""
    parts: list[list[str]] = [[]]  # the fixed-length parts between one `*` and the next
    for piece in pieces:
        if piece == "*":
            parts.append([])
        else:
            parts[-1].append(piece)
    out = "".join(parts[0])
    if len(parts) == 1:
        return out
    for middle in parts[1:-1]:
        out += "(?>[^/]*?" + "".join(middle) + ")"
    return out + ("[^/]*" + "".join(parts[-1]) if parts[-1] else "[^/]*+")


def _segments(glob: str, tokens: list[_Token], *, gitignore: bool) -> list[list[str] | None]:
    """The glob cut at its `/`: each name as regular-expression pieces (`*` standing for a wildcard),
    None for a `**` that is a whole name (any folders); a run of such `**` is one None, a run of `*`
    in a name one `*`, and a `**` inside a name a `*` (as git and the shells read it)."""
    segments: list[list[str] | None] = []
    pieces: list[str] = []
    run = ""  # the run of `*` whose end decides whether it stands alone

    def close_name() -> None:
        nonlocal run
        if len(run) >= 2 and not pieces:
            if not segments or segments[-1] is not None:
                segments.append(None)
        else:
            if run and (not pieces or pieces[-1] != "*"):
                pieces.append("*")
            segments.append(list(pieces))
        run = ""
        pieces.clear()

    for token in tokens:
        if token.kind == "slash":
            close_name()
            continue
        if token.kind == "stars":
            run += token.text
            continue
        if run:
            if not pieces or pieces[-1] != "*":
                pieces.append("*")
            run = ""
        if token.kind == "any":
            pieces.append("[^/]")
        elif token.kind == "class":
            pieces.append(_class(glob, token.text, gitignore=gitignore))
        else:
            pieces.append(re.escape(token.text))
    close_name()
    return segments


_POSIX_CLASSES = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "blank": " \\t", "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9",
    "graph": "!-~", "lower": "a-z", "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": " \\t-\\r",
    "upper": "A-Z", "xdigit": "0-9A-Fa-f",
}
_POSIX = re.compile(r"\[:([^\]]*?):\]")


def _class(glob: str, body: str, *, gitignore: bool) -> str:
    """A `[...]` class's inside as a regular-expression class that never matches `/`. Git reads a reversed
    range (`z-a`) as its first character alone; in a client's glob it is a mistake, refused."""
    negated = body[:1] in ("!", "^")
    if negated:
        body = body[1:]
    members: list[str] = []
    i = 0
    while i < len(body):
        posix = _POSIX.match(body, i) if body.startswith("[:", i) else None
        if posix is not None:
            if posix[1] not in _POSIX_CLASSES:
                raise ValueError(f"the glob {glob!r} names an unknown character class [:{posix[1]}:]")
            members.append(_POSIX_CLASSES[posix[1]])
            i = posix.end()
            continue
        first, i = _class_character(body, i)
        if i + 1 < len(body) and body[i] == "-":
            last, i = _class_character(body, i + 1)
            if last >= first:
                members.append(f"{re.escape(first)}-{re.escape(last)}")
            elif gitignore:
                members.append(re.escape(first))  # git reads the start as a member, then a range of nothing
            else:
                raise ValueError(f"the glob {glob!r} has the range {first}-{last}, whose end comes before its "
                                 f"start: write it {last}-{first}")
        else:
            members.append(re.escape(first))
    if negated:
        return "[^/" + "".join(members) + "]"
    return "(?!/)[" + "".join(members) + "]" if members else "(?!)"


def _class_character(body: str, i: int) -> tuple[str, int]:
    if body[i] == "\\" and i + 1 < len(body):
        return body[i + 1], i + 2
    return body[i], i + 1


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
        pattern = _gitignore_regex(line, anchored=anchored)
        if pattern is not None:  # a line git never matches with, or a hostile one: skipped
            yield _Rule(folder, pattern, negated, folders_only)


def _read_small(path: Path, most: int = 1024 * 1024) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(most).decode("utf-8", "replace")
    except OSError:
        return ""
