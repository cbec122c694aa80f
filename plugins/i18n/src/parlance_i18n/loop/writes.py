"""Writing translations, renames and deletions into a project's catalog files: planned, then applied.

A plan reads every file it needs from disk (never what a `ProjectLocale` cached) and computes, per
file, the bytes it will have; nothing is written until `apply`. A dry run is a plan and its diff.

`plan_set_messages` puts each message in the file of the target locale that has its key, else in
the file of the same catalog (and gettext domain) whose source-locale counterpart has it. It
applies every message to the file's Document in memory, reads the new bytes back with the format,
and checks each message as the file will hold it (`validate.check_candidate`). Refused messages
are left out and the file is planned again without them, so a refused message never reaches a
file while the valid ones of the same call are written.

`plan_rename_key` and `plan_delete_keys` work across every locale given, and refuse the whole
operation on a conflict found when planning (the new key exists somewhere, the old one nowhere).
`apply` writes file by file: when one file cannot be written (someone changed it so the edit no
longer applies, or the disk refuses), the files before it stay written and the outcomes say which
file was refused, so a rename can be left done in some locales; run it again once that file is fixed.

`apply` writes each changed file with `store.edit_file` (atomic replace, per-file locks), after
checking that every one leads inside its catalog's folder (none is written when one does not). The
change it applies is the plan's edits, replayed on whatever the file holds when it is written: if
someone changed the file since it was planned, their change stays and the planned edits are made
again on top of it; when they no longer apply (the key was deleted meanwhile) that file's messages
are refused with the reason and the file is left as it is.

After `apply`, what a `ProjectLocale` read from a written file is stale: reload every locale whose
`files` include a path in the result's `files` (an `.xcstrings` file is shared by all its locales).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from parlance_i18n.formats import CatalogFileError, CatalogFormat, Document, LocaleMessages, Renderable, Value
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.forms import (
    Candidate,
    Write,
    candidate_problem,
    document_keys,
    document_writes,
    has_key,
    msgid_sources,
    renamed_key,
    write_into,
)
from parlance_i18n.loop.validate import check_candidate, max_lengths
from parlance_i18n.icu.plurals import plural_rules
from parlance_i18n.model.project import CatalogFile, ProjectLocale
from parlance_i18n.store import ATTEMPTS, MAX_FILE_BYTES, ConcurrentChange, check_inside, edit_file, unified_diff

__all__ = [
    "GlossaryCheck",
    "KeyOutcome",
    "Status",
    "WritePlan",
    "apply",
    "plan_delete_keys",
    "plan_rename_key",
    "plan_set_messages",
]

Status = Literal["written", "unchanged", "refused"]
GlossaryCheck = Callable[[str, str], list[str]]
"""(source text, translation) -> the glossary terms the translation does not translate as required."""

_NO_RENAME = {
    "po": "gettext keys are msgids, which come from the source code: change the msgid there and run msgmerge",
    "xliff": "XLIFF unit ids come from the tool that extracts them, and a unit carries its source text: "
             "rename the id there and extract again",
    "xcstrings": "String Catalog keys come from the code Xcode extracts them from: rename the key in the code "
                 "and build, and Xcode moves its translations",
    "stringsdict": "a .stringsdict entry would be written anew, losing its variable names and value types: "
                   "rename it in Xcode or a text editor",
}
"""Formats whose entries cannot be moved to a new key through their Document (rename is add + delete:
the entry moves to where `add` puts new keys, and comments that belong to it alone go with the old one)."""


@dataclass(frozen=True)
class KeyOutcome:
    """What became of one key (in one file, for renames and deletions across locales)."""

    key: str
    status: Status
    reasons: list[str] = field(default_factory=list)
    file: str | None = None


class _Step(Protocol):
    def run(self, data: bytes) -> bytes: ...


@dataclass(frozen=True)
class WritePlan:
    """Per key what happens, and per file its bytes (before, after) for the files that change.

    `replay` holds the edits themselves, which `apply` makes again on the file (as it is then) it edits.
    """

    outcomes: list[KeyOutcome]
    files: dict[Path, tuple[bytes, bytes]]
    replay: dict[Path, tuple[CatalogFile, tuple[_Step, ...]]] = field(default_factory=dict, repr=False, compare=False)

    def diff(self, root: Path | None = None) -> str:
        """A unified diff of every file that changes, paths relative to `root` when given."""
        return "".join(unified_diff(before, after, _label(path, root)) for path, (before, after) in self.files.items())

    def count(self, status: Status) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == status)


# --- set -----------------------------------------------------------------------------------------------


@dataclass
class _Message:
    key: str
    value: Candidate
    source_value: Value | None = None
    source: Renderable | None = None
    glossary_missing: list[str] = field(default_factory=list)


def plan_set_messages(target: ProjectLocale, source: ProjectLocale, messages: Mapping[str, Candidate], *,
                      catalog: str | None = None, allow_new_keys: bool = False,
                      glossary_check: GlossaryCheck | None = None) -> WritePlan:
    """What writing `messages` (key -> text, or plural forms by category) into `target`'s files
    does: see the module docstring. Reads the files from disk; writes nothing."""
    target_files = _in_catalog(target.files, catalog)
    source_files = _in_catalog(source.files, catalog)
    if catalog is not None and not target_files and not source_files:
        known = sorted({file.catalog for file in (*target.files, *source.files)})
        reason = f"no catalog is named {catalog!r}; the project's are: {', '.join(known) or 'none'}"
        return WritePlan([KeyOutcome(key, "refused", [reason]) for key in messages], {})
    router = _Router(_Reader(), source_files, target_files, source.tag, target.tag, allow_new_keys)
    for key, value in messages.items():
        router.route(key, value)
    router.find_msgid_sources()
    router.check_before_writing(glossary_check)

    results: dict[str, KeyOutcome] = {}
    files: dict[Path, tuple[bytes, bytes]] = {}
    replay: dict[Path, tuple[CatalogFile, tuple[_Step, ...]]] = {}
    for path, (file, items) in router.by_file().items():
        outcomes, after, writes = _plan_file(router.reader, file, items)
        results.update(outcomes)
        before = router.reader.data(path)
        if after is not None and before is not None and after != before:
            files[path] = (before, after)
            replay[path] = (file, (_Edits(file.format, file.tag, tuple(writes)),))
    for key, reasons in router.refused.items():
        chosen = router.chosen.get(key)
        results[key] = KeyOutcome(key, "refused", reasons, str(chosen.path) if chosen else None)
    return WritePlan([results[key] for key in messages], files, replay)


class _Router:
    """Which file of the target each message goes to, with its source message; or why it is refused."""

    def __init__(self, reader: _Reader, source_files: list[CatalogFile], target_files: list[CatalogFile],
                 source_tag: LocaleTag, tag: LocaleTag, allow_new_keys: bool) -> None:
        self.reader = reader
        self.source_files, self.target_files = source_files, target_files
        self.source_tag, self.tag = source_tag, tag
        self.allow_new_keys = allow_new_keys
        self.messages: dict[str, _Message] = {}
        self.chosen: dict[str, CatalogFile] = {}
        self.refused: dict[str, list[str]] = {}
        self._via_msgid: dict[Path, tuple[CatalogFile, list[str]]] = {}

    def route(self, key: str, value: Any) -> None:
        problem = candidate_problem(value)
        if problem is not None:
            self.refused[key] = [problem]
            return
        message = self.messages[key] = _Message(key, value)
        origin = _find_source(self.reader, self.source_files, key)
        if origin is not None:
            message.source_value, message.source = origin[1], origin[2]
            if key in getattr(origin[3], "untranslatable_keys", ()):
                self.refused[key] = ["the source marks it translatable=\"false\": it is not translated"]
                return
        # the file that has the key; else the counterpart of the source file that has it
        found = next((file for file in self.target_files if _document_has(self.reader, file, key)), None)
        counterpart_of = origin[0] if origin is not None else None
        if found is None and origin is None:
            # gettext: an untranslated msgid of the source locale's own PO file is still its source text
            counterpart_of = next((f for f in self.source_files if f.format.name == "po"
                                   and _document_has(self.reader, f, key)), None)
            if counterpart_of is not None:
                self._need_msgid(counterpart_of, key)
        elif origin is None and found is not None and found.format.name == "po":
            self._need_msgid(found, key)
        if found is None and counterpart_of is not None:
            found = _counterpart(self.target_files, counterpart_of)
            if found is None:
                self.refused[key] = [_no_file_reason(counterpart_of, self.source_tag, self.tag)]
                return
        if found is None:
            found, reason = self._new_key_file(key)
            if found is None:
                self.refused[key] = [reason]
                return
        self.chosen[key] = found

    def _new_key_file(self, key: str) -> tuple[CatalogFile | None, str]:
        if not self.allow_new_keys:
            return None, _unknown_reason(self.source_tag, key)
        catalogs = sorted({file.catalog for file in self.target_files})
        if not catalogs:
            return None, f"{self.tag.code} has no catalog file to add the key to"
        if len(catalogs) > 1:
            return None, f"{self.tag.code} has files of several catalogs ({', '.join(catalogs)}): name the catalog " \
                         "to add the key to"
        return self.target_files[0], ""

    def _need_msgid(self, file: CatalogFile, key: str) -> None:
        self._via_msgid.setdefault(file.path, (file, []))[1].append(key)

    def find_msgid_sources(self) -> None:
        """The msgids of gettext keys that have no source-locale translation: read once per file."""
        for path, (file, keys) in self._via_msgid.items():
            data = self.reader.data(path)
            found = msgid_sources(file.format, data, file.tag, keys) if data is not None else {}
            for key in keys:
                if key in found:
                    self.messages[key].source_value, self.messages[key].source = found[key]

    def check_before_writing(self, glossary_check: GlossaryCheck | None) -> None:
        """Refuse what needs no file to refuse (a key the source lacks, an empty message); ask the glossary."""
        for key in list(self.chosen):
            if key in self.refused:
                continue
            message = self.messages[key]
            if message.source_value is None and not self.allow_new_keys:
                self.refused[key] = [_unknown_reason(self.source_tag, key)]
                continue
            empty = _empty_reason(message.value, message.source_value)
            if empty is not None:
                self.refused[key] = [empty]
                continue
            if glossary_check is not None and message.source_value is not None:
                message.glossary_missing = list(glossary_check(_flat(message.source_value), _flat(message.value)))

    def by_file(self) -> dict[Path, tuple[CatalogFile, list[_Message]]]:
        grouped: dict[Path, tuple[CatalogFile, list[_Message]]] = {}
        for key, file in self.chosen.items():
            if key not in self.refused:
                grouped.setdefault(file.path, (file, []))[1].append(self.messages[key])
        return grouped


def _plan_file(reader: _Reader, file: CatalogFile, items: list[_Message]) -> tuple[dict[str, KeyOutcome], bytes | None,
                                                                                 list[tuple[Write, ...]]]:
    """Each message's outcome in `file`, the file's new bytes (None when unreadable) and the writes."""
    fmt, tag, label = file.format, file.tag, str(file.path)
    data = reader.data(file.path)
    if data is None:
        reason = reader.errors[file.path]
        return {m.key: KeyOutcome(m.key, "refused", [reason], label) for m in items}, None, []
    needed = plural_rules(tag).cardinal_categories
    refused: dict[str, list[str]] = {}
    remaining = list(items)
    document: Document | None = reader.take_document(file)  # parsed already to find the keys: used once
    limits: dict[str, int] | None = None
    while True:
        if document is None:
            document = fmt.edit(data, tag)
        written: dict[str, tuple[Write, ...]] = {}
        unchanged: list[str] = []
        broken = False
        for message in remaining:
            try:
                writes = tuple(document_writes(fmt, document, message.key, message.value, tag,
                                               source=message.source_value))
            except ValueError as exc:
                refused[message.key] = [str(exc)]
                continue
            try:
                changed = write_into(document, writes)
            except (KeyError, ValueError, TypeError) as exc:  # the format cannot write it (half written: start over)
                refused[message.key] = [_document_reason(exc)]
                broken = True
                break
            if changed:
                written[message.key] = writes
            else:
                unchanged.append(message.key)
        if broken:
            remaining, document = [m for m in remaining if m.key not in refused], None
            continue
        try:
            after = document.to_bytes() if written else data
        except ValueError:  # a character the file's encoding cannot hold (UnicodeEncodeError is one)
            reason = "the file's encoding cannot hold a character of this message, so nothing is written to it"
            refused.update({key: [reason] for key in written})
            remaining, document = [m for m in remaining if m.key not in refused], None
            continue
        rejected: dict[str, list[str]] = {}
        if written:
            try:
                read = fmt.read(after, tag)
            except CatalogFileError as exc:
                reason = f"the file could not be read once written ({exc.reason}), so nothing is written to it"
                rejected = {key: [reason] for key in written}
            else:
                if limits is None:
                    limits = max_lengths(fmt, data, read)
                by_key = {m.key: m for m in remaining}
                for key, writes in written.items():
                    message = by_key[key]
                    rendered = read.get(key)
                    parts = {key, *(doc_key for doc_key, _ in writes)}
                    problems = [p for p in read.problems if p.key in parts]
                    reasons = check_candidate(fmt, tag, key, rendered, problems, message.source, needed,
                                              message.glossary_missing, limits.get(key))
                    if reasons:
                        rejected[key] = reasons
        if rejected:
            refused.update(rejected)
            remaining, document = [m for m in remaining if m.key not in refused], None
            continue
        outcomes = {key: KeyOutcome(key, "refused", reasons, label) for key, reasons in refused.items()}
        outcomes.update({key: KeyOutcome(key, "written", [], label) for key in written})
        outcomes.update({key: KeyOutcome(key, "unchanged", [], label) for key in unchanged})
        return outcomes, after, list(written.values())


def _find_source(reader: _Reader, files: list[CatalogFile], key: str
                 ) -> tuple[CatalogFile, Value, Renderable | None, LocaleMessages] | None:
    """The first source-locale file with a message for `key`: (file, its text, compiled, messages)."""
    for file in files:
        messages = reader.messages(file)
        if messages is None:
            continue
        text = messages.text(key)
        if text is not None:
            return file, text, messages.get(key), messages
    return None


def _document_has(reader: _Reader, file: CatalogFile, key: str) -> bool:
    document = reader.document(file)
    return document is not None and has_key(file.format, document, key)


def _counterpart(files: list[CatalogFile], other: CatalogFile) -> CatalogFile | None:
    """The file of `files` that is `other`'s in another locale: same catalog, same gettext domain."""
    return next((f for f in files if f.catalog == other.catalog and f.domain == other.domain), None)


def _no_file_reason(source_file: CatalogFile, source_tag: LocaleTag, tag: LocaleTag) -> str:
    path = _expected_path(source_file, source_tag, tag)
    where = f"create {path} (it may hold no messages yet)" if path is not None else \
        "create the file this catalog's path names for it"
    return f"{tag.code} has no file of the catalog {source_file.catalog!r} yet: {where}, then write again"


def _expected_path(file: CatalogFile, source_tag: LocaleTag, tag: LocaleTag) -> Path | None:
    """Where `tag`'s counterpart of the source file `file` would be: the locale spelled in its path swapped."""
    if file.format.multi_locale:
        return None
    old, new = file.format.locale_spelling(source_tag), file.format.locale_spelling(tag)
    parts = list(file.path.parts)
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9])")
    for index in range(len(parts) - 1, -1, -1):
        if file.format.name == "android" and parts[index] == "values":
            parts[index] = f"values-{new}"
            return Path(*parts)
        replaced = pattern.sub(new, parts[index])
        if replaced != parts[index]:
            parts[index] = replaced
            return Path(*parts)
    return None


def _unknown_reason(source_tag: LocaleTag, key: str) -> str:
    return (f"the source locale {source_tag.code} has no message {key!r}: check the key, or pass allow_new_keys "
            "to add it")


def _empty_reason(value: Candidate, source: Value | None) -> str | None:
    texts = [value] if isinstance(value, str) else list(value.values())
    if any(text == "" for text in texts) and _flat(source or "x") != "":
        return "is empty; an empty translation counts as missing (leave the key out to keep it missing)"
    return None


def _flat(value: Value) -> str:
    """A message's text for glossary checks: its forms one per line."""
    return value if isinstance(value, str) else "\n".join(value.values())


def _document_reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"the file has no entry {exc.args[0]!r} to write it to" if exc.args else "the file cannot take it"
    return str(exc)


# --- rename and delete -----------------------------------------------------------------------------------


def plan_rename_key(target_locales: list[ProjectLocale], old: str, new: str, *,
                    catalog: str | None = None) -> WritePlan:
    """Rename `old` to `new` in every file of the locales (of `catalog`) that has it: refused as a
    whole when `new` exists in any of them, `old` in none, or a format cannot move an entry."""
    if old == new:
        return WritePlan([KeyOutcome(old, "refused", ["the old and new keys are the same"])], {})
    reader = _Reader()
    reasons: list[str] = []
    edits: dict[Path, list[_Step]] = {}
    edited_as: dict[Path, CatalogFile] = {}
    for path, files in _by_path(target_locales, catalog).items():
        for file in files:
            document = reader.document(file)
            if document is None:
                reasons.append(f"{path} cannot be read ({reader.errors[path]}), so it cannot be checked")
                continue
            fmt = file.format
            if has_key(fmt, document, new):
                reasons.append(f"{new!r} is already in {path} ({file.tag.code})")
            parts = document_keys(fmt, document, old)
            if not parts:
                continue
            if fmt.name in _NO_RENAME:
                reasons.append(f"{path} is {fmt.name}: {_NO_RENAME[fmt.name]}")
                continue
            renames = tuple((part, renamed_key(fmt, part, old, new)) for part in parts)
            edits.setdefault(path, []).append(_Edits(fmt, file.tag, (), renames))
            edited_as.setdefault(path, file)
    if not edits and not reasons:
        reasons.append(f"no file{_of(catalog)} has {old!r}")
    if reasons:
        return WritePlan([KeyOutcome(old, "refused", list(dict.fromkeys(reasons)))], {})
    return _plan_steps(reader, old, edits, edited_as)


def plan_delete_keys(target_locales: list[ProjectLocale], keys: list[str], *,
                     catalog: str | None = None) -> WritePlan:
    """Delete `keys` from every file of the locales (of `catalog`) that has them; a key no file has is
    refused. An `.xcstrings` entry goes whole, with every language's localization."""
    reader = _Reader()
    found: dict[str, list[Path]] = {key: [] for key in keys}
    edits: dict[Path, list[_Step]] = {}
    edited_as: dict[Path, CatalogFile] = {}
    unreadable: list[str] = []
    for path, files in _by_path(target_locales, catalog).items():
        if files[0].format.name == "xcstrings":
            data = reader.data(path)
            present = _xcstrings_entries(data, keys) if data is not None else []
            if data is None:
                unreadable.append(f"{path} cannot be read ({reader.errors[path]})")
            if present:
                edits[path] = [_DropXcstringsEntries(tuple(present))]
                edited_as[path] = files[0]
                for key in present:
                    found[key].append(path)
            continue
        for file in files:
            document = reader.document(file)
            if document is None:
                unreadable.append(f"{path} cannot be read ({reader.errors[path]})")
                continue
            writes = []
            for key in keys:
                parts = document_keys(file.format, document, key)
                if parts:
                    writes.append(tuple((part, None) for part in parts))
                    if path not in found[key]:
                        found[key].append(path)
            if writes:
                edits.setdefault(path, []).append(_Edits(file.format, file.tag, tuple(writes)))
                edited_as.setdefault(path, file)
    plan = _plan_steps(reader, None, edits, edited_as, found)
    missing = [KeyOutcome(key, "refused", [f"no file{_of(catalog)} has {key!r}", *unreadable])
               for key, paths in found.items() if not paths]
    return WritePlan(plan.outcomes + missing, plan.files, plan.replay)


def _plan_steps(reader: _Reader, key: str | None, edits: dict[Path, list[_Step]], edited_as: dict[Path, CatalogFile],
                found: dict[str, list[Path]] | None = None) -> WritePlan:
    """Run each file's steps on its bytes now; outcomes per (key, file). Refused as a whole when a
    step fails (a format that cannot take the edit), so no file is left half renamed."""
    files: dict[Path, tuple[bytes, bytes]] = {}
    failures: list[str] = []
    for path, steps in edits.items():
        before = reader.data(path)
        assert before is not None  # only files that were read have steps
        after = before
        try:
            for step in steps:
                after = step.run(after)
        except KeyError as exc:  # the format's way of saying a key (or a group of keys) is in the way
            where = exc.args[0] if exc.args else ""
            where = ".".join(map(str, where)) if isinstance(where, tuple) else str(where)
            failures.append(f"{path}: the edit cannot be made: {where!r} clashes with a message or a group of "
                            "messages the file has (a key cannot be both)")
            continue
        except (CatalogFileError, ValueError, TypeError) as exc:
            failures.append(f"{path}: {exc}")
            continue
        if after != before:
            files[path] = (before, after)
    keys = [key] if key is not None else list(found or {})
    if failures:
        return WritePlan([KeyOutcome(k, "refused", failures) for k in keys if found is None or found[k]], {})
    outcomes = []
    for k in keys:
        paths = list(files) if found is None else [p for p in found[k] if p in files]
        outcomes += [KeyOutcome(k, "written", [], str(path)) for path in paths]
    replay = {path: (edited_as[path], tuple(edits[path])) for path in files}
    return WritePlan(outcomes, files, replay)


def _by_path(locales: Iterable[ProjectLocale], catalog: str | None) -> dict[Path, list[CatalogFile]]:
    """Every file of the locales (in `catalog`), grouped by path: a multi-locale file once per locale."""
    grouped: dict[Path, list[CatalogFile]] = {}
    for locale in locales:
        for file in _in_catalog(locale.files, catalog):
            grouped.setdefault(file.path, []).append(file)
    return grouped


def _of(catalog: str | None) -> str:
    return f" of the catalog {catalog!r}" if catalog is not None else ""


# --- apply -----------------------------------------------------------------------------------------------


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
            result = edit_file(path, _Replay(steps, before, after), file.tag, _run, within=file.folder,
                               attempts=attempts)
        except ConcurrentChange as exc:
            failed[str(path)] = exc.message
            continue
        except CatalogFileError as exc:
            failed[str(path)] = f"{path.name} can no longer be read ({exc.reason}): nothing was written to it"
            continue
        except (KeyError, ValueError, TypeError) as exc:
            failed[str(path)] = (f"{path.name} changed since the write was planned and the edit no longer applies "
                                 f"({_document_reason(exc)}): nothing was written to it; read it again")
            continue
        except OSError as exc:
            failed[str(path)] = f"{path.name} cannot be written ({exc.strerror or exc.__class__.__name__})"
            continue
        if result.changed:
            files[path] = (result.before, result.after)
        else:
            unchanged.add(str(path))
    outcomes = []
    for outcome in plan.outcomes:
        if outcome.status == "written" and outcome.file in failed:
            outcome = KeyOutcome(outcome.key, "refused", [*outcome.reasons, failed[outcome.file]], outcome.file)
        elif outcome.status == "written" and outcome.file in unchanged:
            outcome = KeyOutcome(outcome.key, "unchanged", outcome.reasons, outcome.file)
        outcomes.append(outcome)
    return WritePlan(outcomes, files, {path: plan.replay[path] for path in files})


def _run(document: Document) -> None:
    document.run()  # type: ignore[attr-defined]


@dataclass(frozen=True)
class _Edits:
    """One locale's edits of one file: each message's writes, then renames (old, new document key)."""

    fmt: CatalogFormat
    tag: LocaleTag
    writes: tuple[tuple[Write, ...], ...]
    renames: tuple[tuple[str, str], ...] = ()

    def run(self, data: bytes) -> bytes:
        document = self.fmt.edit(data, self.tag)
        for writes in self.writes:
            write_into(document, writes)
        for old, new in self.renames:
            value = document.get(old)
            if value is None:
                raise ValueError(f"{old!r} is no longer in the file")
            if document.get(new) is not None:
                raise ValueError(f"{new!r} is in the file now")
            document.add(new, value)  # first: a parent left empty by the delete is not removed and recreated
            document.delete(old)
        return document.to_bytes()


@dataclass(frozen=True)
class _DropXcstringsEntries:
    """Remove whole String Catalog entries (every language's localization, comment and state).

    The format's Document edits one language; the entry itself is removed with the JSON splicer that
    Document uses, so the rest of the file keeps its bytes.
    """

    keys: tuple[str, ...]

    def run(self, data: bytes) -> bytes:
        from parlance_i18n.formats.shared.jsontext import JsonDocument

        document = JsonDocument(data)
        for key in self.keys:
            if document.value_at(("strings", key)) is not None:
                document.delete(("strings", key))
        return document.to_bytes()


def _xcstrings_entries(data: bytes, keys: list[str]) -> list[str]:
    """The keys a String Catalog has an entry for."""
    from parlance_i18n.formats.shared.jsontext import JsonDocument

    try:
        document = JsonDocument(data)
    except CatalogFileError:
        return []
    return [key for key in keys if document.value_at(("strings", key)) is not None]


class _Replay(CatalogFormat):
    """What `edit_file` edits with: a Document that replays a plan's steps on the file's bytes."""

    name = "replay"
    suffixes = ()

    def __init__(self, steps: tuple[_Step, ...], before: bytes, after: bytes) -> None:
        self.steps, self.before, self.after = steps, before, after

    def read(self, data: bytes, tag: LocaleTag) -> LocaleMessages:
        raise TypeError("a replay of planned edits is written, not read")

    def edit(self, data: bytes, tag: LocaleTag) -> Document:
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

    def add(self, key: str, value: Value) -> None:
        raise TypeError("a replay is run, not edited")

    def delete(self, key: str) -> None:
        raise TypeError("a replay is run, not edited")


# --- reading ---------------------------------------------------------------------------------------------


class _Reader:
    """Each file's bytes, messages and Document, read from disk once per plan."""

    def __init__(self) -> None:
        self.errors: dict[Path, str] = {}
        self._data: dict[Path, bytes | None] = {}
        self._messages: dict[tuple[Path, LocaleTag], LocaleMessages | None] = {}
        self._documents: dict[tuple[Path, LocaleTag], Document | None] = {}

    def data(self, path: Path) -> bytes | None:
        if path not in self._data:
            try:
                size = path.stat().st_size
                if size > MAX_FILE_BYTES:
                    raise CatalogFileError(f"the file has {size:,} bytes, over the {MAX_FILE_BYTES:,} read")
                self._data[path] = path.read_bytes()
            except CatalogFileError as exc:
                self._fail(path, exc.reason)
            except OSError as exc:
                self._fail(path, f"the file cannot be read ({exc.strerror or exc.__class__.__name__})")
        return self._data[path]

    def messages(self, file: CatalogFile) -> LocaleMessages | None:
        slot = (file.path, file.tag)
        if slot not in self._messages:
            self._messages[slot] = self._parse(file, file.format.read)
        return self._messages[slot]

    def document(self, file: CatalogFile) -> Document | None:
        slot = (file.path, file.tag)
        if slot not in self._documents:
            self._documents[slot] = self._parse(file, file.format.edit)
        return self._documents[slot]

    def take_document(self, file: CatalogFile) -> Document | None:
        """The Document read for lookups, handed over to be edited (the next `document` reads again)."""
        return self._documents.pop((file.path, file.tag), None)

    def _parse(self, file: CatalogFile, parse: Callable[[bytes, LocaleTag], Any]) -> Any:
        data = self.data(file.path)
        if data is None:
            return None
        try:
            return parse(data, file.tag)
        except CatalogFileError as exc:
            self.errors.setdefault(file.path, exc.reason)
            return None

    def _fail(self, path: Path, reason: str) -> None:
        self._data[path] = None
        self.errors[path] = reason


def _in_catalog(files: Iterable[CatalogFile], catalog: str | None) -> list[CatalogFile]:
    return [file for file in files if catalog is None or file.catalog == catalog]


def _label(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.as_posix()
