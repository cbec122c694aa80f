"""One git commit per write call (`[packs.i18n] git_commit = true`): a team reviews what agents wrote as
a pull request, each write a commit authored by whoever the call acted for.

`commit_files(root, files, message=..., author=...)` commits exactly `files` (paths relative to the
project's folder, which is in the checkout) on the checkout's current branch:

    git add -- <files>
    git commit --only -F - -- <files>

`--only` takes those paths as the working tree has them and nothing else, so what a user had staged
for other files stays staged and out of the commit. The author is `author` (the OAuth token's
subject, `author_of`); the committer is git's own configuration (`user.name`, `user.email` of the
checkout or the server's account), so a commit says which server made it and for whom.

Git runs as a program a server starts for itself, not as a user's shell would: with a timeout
(`GIT_TIMEOUT_S` per command), never asking for anything (`GIT_TERMINAL_PROMPT=0`, no editor: the
message comes on stdin), paths taken literally (`GIT_LITERAL_PATHSPECS=1`: a catalog named `*.json`
is that file), and with **no hooks** (`core.hooksPath=/dev/null`) and **no signing**
(`commit.gpgsign=false`): a repository's hooks are code the repository brings (husky's
`core.hooksPath`), which a server does not run for every translation, and a signing key's passphrase
has nobody to type it. Sign when the pull request is merged. Nor does it start a file-system monitor
(`core.fsmonitor`, a program a config may name) or a garbage collection in the middle of a write.
A commit that git refuses leaves the index as it was: the files it staged are unstaged again.

A commit that cannot be made never fails the write (the files are written): `Committed.note` says
why, for the tool's `notes` — the folder is not a git checkout, the checkout is on no branch (a
detached HEAD), git is not installed, git refused (its last line of stderr: a committer identity
missing, a merge in progress, the index locked by someone's `git` running at that moment) or did not
answer in time. Blocking: call it in a worker thread.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GIT_TIMEOUT_S", "Committed", "author_of", "commit_files", "commit_message"]

GIT_TIMEOUT_S = 30.0
"""How long one git command may take: committing a few files takes milliseconds, unless something waits."""
_SETTINGS = ("-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", "-c", "core.fsmonitor=false",
             "-c", "gc.auto=0")
_IDENTITY = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE")
_REPOSITORY = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
               "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES")
"""Variables that would point git at another repository than the project's folder's: never inherited."""
_NOT_IN_AN_ADDRESS = re.compile(r"[^A-Za-z0-9._+-]+")
_NOT_IN_A_NAME = re.compile(r"[<>\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class Committed:
    """The commit made (its hash), or why none was (a sentence for the answer's `notes`)."""

    commit: str | None
    note: str | None = None


def author_of(subject: str | None, email_template: str) -> tuple[str, str] | None:
    """(name, email) of the commit's author for the token's `subject`: the name is the subject, the email
    `email_template` with `{subject}` replaced by the subject as an address can hold it (other characters
    become `-`: `auth0|5f2c` gives `auth0-5f2c`). None without a subject: git's configured user then."""
    if not subject:
        return None
    name = _NOT_IN_A_NAME.sub(" ", subject).strip()[:200] or "unknown"
    local = _NOT_IN_AN_ADDRESS.sub("-", subject).strip(".-")[:64] or "unknown"
    return name, email_template.replace("{subject}", local)


def commit_message(tool: str, locale: str | None, written: int, subject: str | None) -> str:
    """`i18n: <tool> <locale>: N written`, then the trailers `Parlance-Tool` and `Parlance-Subject`."""
    where = f" {locale}" if locale else ""
    trailers = [f"Parlance-Tool: {tool}"]
    if subject:
        trailers.append(f"Parlance-Subject: {_NOT_IN_A_NAME.sub(' ', subject).strip()[:200]}")
    return f"i18n: {tool}{where}: {written} written\n\n" + "\n".join(trailers) + "\n"


def commit_files(root: Path, files: Sequence[str], *, message: str, author: tuple[str, str] | None,
                 timeout: float = GIT_TIMEOUT_S) -> Committed:
    """Commit `files` (relative to `root`) on the current branch of the checkout `root` is in: see the
    module docstring. Never raises for what git does; the `Committed` says what happened."""
    if not files:
        return Committed(None)
    git = shutil.which("git")
    if git is None:
        return _not_made("git is not installed on the server")
    env = _environment(author)

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([git, *_SETTINGS, *args], cwd=root, env=env, input=stdin, capture_output=True,
                              text=True, timeout=timeout, stdin=None if stdin is not None else subprocess.DEVNULL)

    try:
        inside = run("rev-parse", "--is-inside-work-tree")
        if inside.returncode != 0 or inside.stdout.strip() != "true":
            return _not_made("the project's folder is not in a git checkout (git_commit needs one: `git init`, or "
                             "clone the repository the server serves)")
        if run("symbolic-ref", "-q", "HEAD").returncode != 0:
            return _not_made("the checkout is on no branch (a detached HEAD): check out the branch the commits "
                             "go to")
        added = run("add", "--", *files)
        if added.returncode != 0:
            return _not_made(f"git add refused: {_last_line(added.stderr)}")
        made = run("commit", "--only", "--no-edit", "-F", "-", "--", *files, stdin=message)
        if made.returncode != 0:
            run("reset", "-q", "--", *files)  # what `add` staged, unstaged: the index as the user left it
            return _not_made(f"git commit refused: {_last_line(made.stderr or made.stdout)}")
        head = run("rev-parse", "HEAD")
    except subprocess.TimeoutExpired:
        return _not_made(f"git did not finish within {timeout:g} s (is something holding the repository?)")
    except OSError as exc:
        return _not_made(f"git could not be run ({exc.strerror or exc.__class__.__name__})")
    return Committed(head.stdout.strip() or None)


def _environment(author: tuple[str, str] | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPOSITORY and k not in _IDENTITY}
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_LITERAL_PATHSPECS": "1", "GIT_EDITOR": "true", "LC_ALL": "C"})
    if author is not None:
        env["GIT_AUTHOR_NAME"], env["GIT_AUTHOR_EMAIL"] = author
    return env


def _not_made(why: str) -> Committed:
    return Committed(None, f"the files are written, but not committed: {why}")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return (lines[-1] if lines else "no reason given")[:300]
