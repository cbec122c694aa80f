"""A write plan: per key what happens, per file its bytes before and after, and the edits that made
them, which `apply` replays on each file as it is when written (see the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, Protocol

from parlance_i18n.formats import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    ReadLimits,
    Value,
)
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.forms import Write, has_key, write_into
from parlance_i18n.model.project import CatalogFile
from parlance_i18n.store import ATTEMPTS, ConcurrentChange, check_inside, create_file, edit_file, unified_diff

__all__ = ["DropEntries", "Edits", "KeyOutcome", "Status", "Step", "WritePlan", "apply", "document_reason"]

Status = Literal["written", "unchanged", "refused"]
"""What became of a key."""


@dataclass(frozen=True)
class KeyOutcome:
    """What became of one key (in one file, for renames and deletions across locales)."""

    key: str
    status: Status
    reasons: list[str] = field(default_factory=list)
    file: str | None = None
    completed_from_file: list[str] = field(default_factory=list)
    """A plural written with fewer forms than the locale needs: the forms the file's own completed."""


class Step(Protocol):
    """One edit of a file's bytes, made when planning and again when applying."""

    def run(self, data: bytes) -> bytes: ...


@dataclass(frozen=True)
class WritePlan:
    """Per key what happens, and per file its bytes (before, after) for the files that change.

    `replay` holds the edits themselves, which `apply` makes again on the file (as it is then) it edits.
    """

    outcomes: list[KeyOutcome]
    files: dict[Path, tuple[bytes, bytes]]
    replay: dict[Path, tuple[CatalogFile, tuple[Step, ...]]] = field(default_factory=dict, repr=False, compare=False)
    created: dict[Path, bytes] = field(default_factory=dict, repr=False, compare=False)
    """Files the plan starts (not on disk when planned), with the bytes each starts as before its edits;
    their `files` entry is (b"", what they will hold)."""

    def diff(self, root: Path | None = None) -> str:
        """A unified diff of every file that changes, paths relative to `root` when given."""
        return "".join(unified_diff(before, after, label(path, root)) for path, (before, after) in self.files.items())

    def count(self, status: Status) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)


def apply(plan: WritePlan, *, attempts: int = ATTEMPTS) -> WritePlan:
    """Write every file of `plan` (one atomic replace each); the outcomes as they turned out.

    A file changed since it was planned gets the planned edits again on its current text; when they
    no longer apply, or the file cannot be written, its keys are refused naming why and it is left
    unchanged. The other files are written all the same. When a file leads outside its catalog's
    folder, `store.UnsafePath` is raised before anything is written.
    """
    for path in plan.files:
        check_inside(path, plan.replay[path][0].folder)
    files: dict[Path, tuple[bytes, bytes]] = {}
    failed: dict[str, str] = {}
    unchanged: set[str] = set()
    for path, (before, after) in plan.files.items():
        file, steps = plan.replay[path]
        try:
            start = plan.created.get(path)
            if start is None:
                result = edit_file(path, _Replay(steps, before, after), file.tag, _run, within=file.folder,
                                   attempts=attempts)
            else:  # a new file; when someone created it meanwhile, the edits are made on theirs
                replay = _ReplayDocument(_Replay(steps, start, after), b"")

                def started(current: bytes | None, attempt: int, replay: _ReplayDocument = replay) -> bytes:
                    replay._data = start if current is None else current
                    replay.run()
                    return replay.to_bytes()

                result = create_file(path, started, within=file.folder, attempts=attempts)
        except ConcurrentChange as exc:  # named by its path, relative to the project on the wire
            failed[str(path)] = f"{path} {exc.what}"
            continue
        except CatalogFileError as exc:
            failed[str(path)] = f"{path} can no longer be read ({exc.reason}): nothing was written to it"
            continue
        except (KeyError, ValueError, TypeError) as exc:
            failed[str(path)] = (f"{path} changed since the write was planned and the edit no longer applies "
                                 f"({document_reason(exc)}): nothing was written to it; read it again")
            continue
        except OSError as exc:
            failed[str(path)] = f"{path} cannot be written ({exc.strerror or exc.__class__.__name__})"
            continue
        if result.changed:
            files[path] = (result.before, result.after)
        else:
            unchanged.add(str(path))
    outcomes = []
    for outcome in plan.outcomes:
        if outcome.status == "written" and outcome.file in failed:
            outcome = replace(outcome, status="refused", reasons=[*outcome.reasons, failed[outcome.file]],
                              completed_from_file=[])
        elif outcome.status == "written" and outcome.file in unchanged:
            outcome = replace(outcome, status="unchanged")
        outcomes.append(outcome)
    return WritePlan(outcomes, files, {path: plan.replay[path] for path in files},
                     {path: start for path, start in plan.created.items() if path in files})


def _run(document: Document) -> None:
    document.run()  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Edits:
    """One locale's edits of one file: each message's writes, then renames (old, new document key)."""

    fmt: CatalogFormat
    tag: LocaleTag
    writes: tuple[tuple[Write, ...], ...]
    renames: tuple[tuple[str, str], ...] = ()
    limits: ReadLimits = DEFAULT_READ_LIMITS
    templates: tuple[tuple[str, bytes], ...] = ()
    """(key, its template's bytes): entries the file lacks, added from the template before the writes."""
    anchors: tuple[tuple[str, str], ...] = ()
    """(document key, the key it goes after): where the writes' new keys go (`loop.placement`)."""

    def run(self, data: bytes) -> bytes:
        return self.run_on(self.fmt.edit(data, self.tag, self.limits))

    def run_on(self, document: Document) -> bytes:
        """`run` on a Document of the bytes, parsed already (a plan's lookups parsed it)."""
        for key, template in self.templates:
            if not has_key(self.fmt, document, key) and not self.fmt.add_from_template(document, template, self.tag, key):
                raise ValueError(f"{key!r} is no longer in the template")
        anchors = dict(self.anchors)
        for writes in self.writes:
            write_into(document, writes, anchors)
        for old, new in self.renames:
            value = document.get(old)
            if value is None:
                raise ValueError(f"{old!r} is no longer in the file")
            if document.get(new) is not None:
                raise ValueError(f"{new!r} is in the file now")
            # added first, right after the old entry, which then goes: the new key takes its place (one
            # hunk in the diff), and a parent left empty by the delete is not removed and recreated
            document.add(new, value, after=old)
            document.delete(old)
        return document.to_bytes()


@dataclass(frozen=True)
class DropEntries:
    """Remove whole entries of a multi-locale file, every locale's part of them, as the format does
    it (`CatalogFormat.drop_entries`: the rest of the file keeps its bytes)."""

    fmt: CatalogFormat
    keys: tuple[str, ...]
    made: tuple[bytes, bytes] | None = field(default=None, compare=False, repr=False)
    """(bytes, the result) of these very drops, when planning made them already: run on the same
    bytes, the step answers it rather than parsing the file again."""

    def run(self, data: bytes) -> bytes:
        if self.made is not None and (data is self.made[0] or data == self.made[0]):
            return self.made[1]
        return self.fmt.drop_entries(data, self.keys)[0]


class _Replay(CatalogFormat):
    """What `edit_file` edits with: a Document that replays a plan's steps on the file's bytes."""

    def __init__(self, steps: tuple[Step, ...], before: bytes, after: bytes) -> None:
        self.steps, self.before, self.after = steps, before, after

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> LocaleMessages:
        raise TypeError("a replay of planned edits is written, not read")

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Document:
        return _ReplayDocument(self, data)


class _ReplayDocument(Document):
    """The planned steps applied to `data` by `run` (the planned result itself when `data` is what
    was planned on: the same edits of the same bytes give the same bytes)."""

    def __init__(self, replay: _Replay, data: bytes) -> None:
        self._replay = replay
        self._data = data

    def run(self) -> None:
        replay = self._replay
        if self._data == replay.before:
            self._data = replay.after
            return
        data = self._data
        for step in replay.steps:
            data = step.run(data)
        self._data = data

    def to_bytes(self) -> bytes:
        return self._data

    def keys(self) -> list[str]:
        return []

    def get(self, key: str) -> Value | None:
        return None

    def line_of(self, key: str) -> int | None:
        return None

    def set(self, key: str, value: Value) -> None:
        raise TypeError("a replay is run, not edited")

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        raise TypeError("a replay is run, not edited")

    def delete(self, key: str) -> None:
        raise TypeError("a replay is run, not edited")


def document_reason(exc: Exception) -> str:
    """The reason a Document refused an edit (a KeyError names the entry it lacks)."""
    if isinstance(exc, KeyError):
        return f"the file has no entry {exc.args[0]!r} to write it to" if exc.args else "the file cannot take it"
    return str(exc)


def label(path: Path, root: Path | None) -> str:
    """`path` as a diff names it: relative to `root` when it is under it."""
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.as_posix()
