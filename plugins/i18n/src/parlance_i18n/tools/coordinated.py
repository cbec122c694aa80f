"""A write tool's call through the host's coordinated writes (`ctx.write()`, `parlance.writes`).

Every write tool that is not a dry run runs in `async with coordinated(ctx, args) as call:`:

- **a retry is answered, not run:** `call.earlier` holds the first outcome of a call with the same
  `idempotency_key` (and arguments), on any replica; the tool returns it as its output.
- **the files are locked before they are written:** the plan is made first (it reads), then
  `call.lock(paths)` takes the host's lock of every file the plan writes (names relative to the
  project's folder, POSIX), with the lock file (`parlance-i18n.lock`) when the write records
  sources, a file a tool adds (`also_lock`: the source file `i18n_extract` edits), and `.git` with
  `git_commit`, which serializes the commits too. With `[state] url` these are advisory locks every
  replica takes, so replicas on one checkout take turns; the store's own content-hash check still
  replays the edits on what the file holds when it is written.
- **what was written is logged, committed, told:** `call.changed()` and `call.wrote()` collect the
  files (SHA-256 before and after) and the counts; `call.finish(output)` makes the git commit
  (`git_commit`), logs the write (one row of the write log with a shared engine, a call that changed
  no file too) and stores the output for retries. When the block ends, subscribers of
  `i18n://bundles/<locale>` of every locale whose files changed hear `notifications/resources/updated`
  (other replicas announce them too, once `parlance_shared_write` reloaded them: `tools.shared`).

Never a message's text: the log holds keys, file names and hashes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import AsyncIterator, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import anyio
from pydantic import BaseModel

from parlance import FileChange, Write
from parlance_i18n.loop.commits import Committed, author_of, commit_files, commit_message
from parlance_i18n.settings import I18nSettings
from parlance_i18n.tools.context import I18nContext

__all__ = ["WriteCall", "bundle_uri", "coordinated", "earlier_outcome", "project_name"]

GIT_LOCK = ".git"
"""The lock name that serializes commits (every write of a checkout makes its commit under it)."""


OutputT = TypeVar("OutputT", bound=BaseModel)


def bundle_uri(code: str) -> str:
    return f"i18n://bundles/{code}"


def project_name(path: Path, root: Path) -> str:
    """`path` as the write log and the locks name it: relative to the project's folder, POSIX; a file
    outside it (`allow_outside_project`) by its absolute path."""
    absolute, folder = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    return absolute.relative_to(folder).as_posix() if absolute.is_relative_to(folder) else absolute.as_posix()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class WriteCall:
    """One write call in progress: see the module docstring."""

    def __init__(self, ctx: I18nContext, write: Write, settings: I18nSettings, root: Path) -> None:
        self._ctx, self._write, self._settings, self.root = ctx, write, settings, root
        self._also: list[Path] = []
        self._locked = False
        self.files: dict[str, FileChange] = {}
        self.codes: set[str] = set()
        """The locales whose files changed (their bundles are announced)."""
        self.written = self.refused = 0
        self.keys: list[str] = []
        self.catalogs: set[str] = set()
        self.locales: set[str] = set()

    @property
    def earlier(self) -> Mapping[str, Any] | None:
        """The first outcome of this idempotency key's call, when it was applied: answer it again."""
        return self._write.earlier

    def also_lock(self, path: Path) -> None:
        """Lock `path` too when the plan's files are locked (a file the tool writes besides them)."""
        self._also.append(path)

    async def lock(self, paths: Iterable[Path], *, lock_file: Path | None = None) -> None:
        """Take the host's lock of `paths`, the files added with `also_lock`, the lock file when the write
        records sources, and `.git` with `git_commit`: once per call, before any of them is written."""
        if self._locked:
            raise RuntimeError("a write call locks its files once, all together")
        self._locked = True
        names = {project_name(path, self.root) for path in (*paths, *self._also)}
        if lock_file is not None:
            names.add(project_name(lock_file, self.root))
        if self._settings.git_commit:
            names.add(GIT_LOCK)
        await self._write.lock(sorted(names))

    @property
    def locked(self) -> bool:
        return self._locked

    def changed(self, path: Path, before: bytes | None, after: bytes) -> None:
        """`path` was written: its bytes before (None: created) and after."""
        name = project_name(path, self.root)
        earlier = self.files.get(name)
        first = earlier.before if earlier is not None else (_sha256(before) if before is not None else None)
        self.files[name] = FileChange(name, first, _sha256(after))

    def wrote(self, *, written: int, refused: int, keys: Iterable[str], catalogs: Iterable[str] = (),
              locales: Iterable[str] = (), codes: Iterable[str] = ()) -> None:
        """Counts and names of what a part of the call wrote (a call may write in parts: `i18n_extract`)."""
        self.written += written
        self.refused += refused
        self.keys = list(dict.fromkeys([*self.keys, *keys]))
        self.catalogs.update(catalogs)
        self.locales.update(locales)
        self.codes.update(codes)

    async def finish(self, output: OutputT) -> OutputT:
        """The output with the commit made (`git_commit`, where files changed), once the write is logged;
        the output is stored for a retry."""
        committed = await self._conclude()
        if committed is not None:
            notes = [*getattr(output, "notes", []), *([committed.note] if committed.note else [])]
            output = output.model_copy(update={"commit": committed.commit, "notes": notes})
        self._write.answer(output.model_dump(mode="json"))
        return output

    async def finish_failed(self) -> None:
        """The call fails after writing files: commit and log what it wrote, and store no outcome (its
        retry runs again, and finds those files written)."""
        await self._conclude()

    async def _conclude(self) -> Committed | None:
        """Commit the files written (`git_commit`, when there are any) and log the call: one row per write call,
        one that changed no file too (a retry after a replica died between writing and logging finds its keys
        unchanged, and the row says the call was applied)."""
        committed = await anyio.to_thread.run_sync(self._commit) if self._settings.git_commit and self.files \
            else None
        self._write.log(files=list(self.files.values()), written=self.written, refused=self.refused,
                        catalog=_one(self.catalogs), locale=_one(self.locales), keys=self.keys,
                        resources=[bundle_uri(code) for code in sorted(self.codes)])
        return committed

    def _commit(self) -> Committed:
        principal = self._ctx.principal
        subject = principal.subject if principal is not None else None
        message = commit_message(self._ctx.name, _one(self.locales), self.written, subject)
        return commit_files(self.root, sorted(self.files), message=message,
                            author=author_of(subject, self._settings.git_author_email))


def _one(names: set[str]) -> str | None:
    return next(iter(names)) if len(names) == 1 else None


@contextlib.asynccontextmanager
async def coordinated(ctx: I18nContext, args: BaseModel, settings: I18nSettings, root: Path
                      ) -> AsyncIterator[WriteCall]:
    """`async with coordinated(ctx, args, settings, root) as call:` one write call, `args` the tool's input
    (its `idempotency_key` and the arguments a retry must repeat; see the module docstring); once it
    ends, the bundles of the locales it changed are announced."""
    async with ctx.write(idempotency_key=_key(args), arguments=args) as write:
        call = WriteCall(ctx, write, settings, root)
        yield call
    for code in sorted(call.codes):
        await ctx.announce.resource_updated(bundle_uri(code))


async def earlier_outcome(ctx: I18nContext, args: BaseModel) -> Mapping[str, Any] | None:
    """The first outcome of a call with `args.idempotency_key`, if one was applied (None without a key):
    for a tool that must know before it asks the client anything (`i18n_translate_missing` samples).
    The block it opens writes and logs nothing."""
    key = _key(args)
    if key is None:
        return None
    async with ctx.write(idempotency_key=key, arguments=args) as write:
        return write.earlier


def _key(args: BaseModel) -> str | None:
    key = getattr(args, "idempotency_key", None)
    return key if isinstance(key, str) else None
