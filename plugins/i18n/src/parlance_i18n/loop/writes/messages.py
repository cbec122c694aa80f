"""`plan_set_messages`: which file each message goes to, what it becomes there, and whether the file
may hold it (see the package docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlance_i18n.formats import (
    DEFAULT_READ_LIMITS,
    CatalogFileError,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    Value,
)
from parlance_i18n.icu.plurals import plural_rules
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.forms import Candidate, Write, candidate_problem, document_writes, has_key, write_into
from parlance_i18n.loop.placement import Placement
from parlance_i18n.loop.validate import check_candidate, completed_forms
from parlance_i18n.loop.writes.files import Reader, in_catalog
from parlance_i18n.loop.writes.new_files import NewFiles
from parlance_i18n.loop.writes.plan import Edits, KeyOutcome, Step, WritePlan, document_reason
from parlance_i18n.model.project import CatalogFile, ProjectLocale

__all__ = ["GlossaryCheck", "plan_set_messages"]

GlossaryCheck = Callable[[str, str], list[str]]
"""(source text, translation) -> the glossary terms the translation does not translate as required."""


@dataclass
class _Message:
    key: str
    value: Candidate
    source_value: Value | None = None
    source: Renderable | None = None
    glossary_missing: list[str] = field(default_factory=list)
    template: CatalogFile | None = None
    """The template to add the entry from, where the target's file lacks it (gettext's `.pot`)."""
    origin: CatalogFile | None = None
    """The source-locale file that has the message: its key order places a key new to the target."""


def plan_set_messages(target: ProjectLocale, source: ProjectLocale, messages: Mapping[str, Candidate], *,
                      catalog: str | None = None, allow_new_keys: bool = False,
                      glossary_check: GlossaryCheck | None = None,
                      limits: ReadLimits = DEFAULT_READ_LIMITS, new_files: NewFiles | None = None) -> WritePlan:
    """What writing `messages` (key -> text, or plural forms by category) into `target`'s files
    does: see the module docstring. Reads the files from disk (each within `limits`); writes nothing.
    With `new_files`, a message whose catalog has no file for the target locale starts one (and
    no `messages` at all start every catalog's file, empty, for the locale)."""
    target_files = in_catalog(target.files, catalog)
    source_files = in_catalog(source.files, catalog)
    if catalog is not None and not target_files and not source_files:
        known = sorted({file.catalog for file in (*target.files, *source.files)})
        reason = f"no catalog is named {catalog!r}; the project's are: {', '.join(known) or 'none'}"
        return WritePlan([KeyOutcome(key, "refused", [reason]) for key in messages], {})
    router = _Router(Reader(limits, keys=messages.keys()), source_files, target_files, source.tag, target.tag,
                     allow_new_keys, new_files)
    for key, value in messages.items():
        router.route(key, value)
    if not messages and new_files is not None:
        router.start_every_file()
    router.find_key_sources()
    router.check_before_writing(glossary_check)

    results: dict[str, KeyOutcome] = {}
    files: dict[Path, tuple[bytes, bytes]] = {}
    replay: dict[Path, tuple[CatalogFile, tuple[Step, ...]]] = {}
    started = new_files.started if new_files is not None else {}
    for path, (file, items) in router.by_file().items():
        outcomes, after, writes, anchors = _plan_file(router.reader, file, items)
        results.update(outcomes)
        before = router.reader.data(path)
        if after is not None and before is not None and (after != before or (path in started and not messages)):
            files[path] = (b"", after) if path in started else (before, after)  # a new file: all of it is new
            templates = tuple((m.key, data) for m in items if m.template is not None and outcomes[m.key].status == "written"
                              and (data := router.reader.file_data(m.template)) is not None)
            replay[path] = (file, (Edits(file.format, file.tag, tuple(writes), limits=limits, templates=templates,
                                         anchors=anchors),))
    for key, reasons in router.refused.items():
        chosen = router.chosen.get(key)
        results[key] = KeyOutcome(key, "refused", reasons, str(chosen.path) if chosen else None)
    return WritePlan([results[key] for key in messages], files, replay,
                     {path: start for path, start in started.items() if path in files})


class _Router:
    """Which file of the target each message goes to, with its source message; or why it is refused."""

    def __init__(self, reader: Reader, source_files: list[CatalogFile], target_files: list[CatalogFile],
                 source_tag: LocaleTag, tag: LocaleTag, allow_new_keys: bool, new_files: NewFiles | None = None) -> None:
        self.reader = reader
        self.source_files, self.target_files = source_files, list(target_files)
        self.new_files = new_files
        self.empty_files: list[CatalogFile] = []
        self.source_tag, self.tag = source_tag, tag
        self.allow_new_keys = allow_new_keys
        self.messages: dict[str, _Message] = {}
        self.chosen: dict[str, CatalogFile] = {}
        self.refused: dict[str, list[str]] = {}
        self._via_keys: dict[Path, tuple[CatalogFile, list[str]]] = {}

    def route(self, key: str, value: Any) -> None:
        problem = candidate_problem(value)
        if problem is not None:
            self.refused[key] = [problem]
            return
        message = self.messages[key] = _Message(key, value)
        origin = _find_source(self.reader, self.source_files, key)
        if origin is not None:
            message.source_value, message.source, message.origin = origin[1], origin[2], origin[0]
            if key in getattr(origin[3], "untranslatable_keys", ()):
                self.refused[key] = ["the source marks it translatable=\"false\": it is not translated"]
                return
        # the file that has the key; else the counterpart of the source file that has it
        found = next((file for file in self.target_files if _document_has(self.reader, file, key)), None)
        counterpart_of = origin[0] if origin is not None else None
        if found is None and origin is None:
            # where a key is its source text (gettext's msgid), an untranslated entry of the source
            # locale's own file still gives it
            counterpart_of = next((f for f in self.source_files if f.format.source_is_key
                                   and _document_has(self.reader, f, key)), None)
            if counterpart_of is not None:
                self._need_key_source(counterpart_of, key)
        elif origin is None and found is not None and found.format.source_is_key:
            self._need_key_source(found, key)
        if found is None and counterpart_of is not None:
            found = _counterpart(self.target_files, counterpart_of)
            if found is None and self.new_files is not None:
                found, reason = self._start(counterpart_of)
                if found is None:
                    self.refused[key] = [reason]
                    return
            if found is None:
                self.refused[key] = [_no_file_reason(counterpart_of, self.source_tag, self.tag)]
                return
        if found is None and origin is None:
            # a key of the catalog's template that the locale's file lacks: added as msgmerge would
            found, message.template = self._in_template(key)
            if message.template is not None:
                self._need_key_source(message.template, key)
        if found is None:
            found, reason = self._new_key_file(key)
            if found is None:
                self.refused[key] = [reason]
                return
        self.chosen[key] = found

    def _new_key_file(self, key: str) -> tuple[CatalogFile | None, str]:
        if not self.allow_new_keys:
            return None, self._unknown_reason(key)
        catalogs = sorted({file.catalog for file in self.target_files})
        if not catalogs and self.new_files is not None:
            started = sorted({file.catalog for file in self.source_files})
            if len(started) == 1:
                return self._start(self.source_files[0])
        if not catalogs:
            return None, f"{self.tag.code} has no catalog file to add the key to"
        if len(catalogs) > 1:
            return None, f"{self.tag.code} has files of several catalogs ({', '.join(catalogs)}): name the catalog " \
                         "to add the key to"
        return self.target_files[0], ""

    def _unknown_reason(self, key: str) -> str:
        """Why `key` is refused as unknown: where a key is its source text and no source-locale file
        gives it (gettext's msgids), the files that were looked in, and where new msgids come from."""
        if self.source_files or not any(file.format.source_is_key for file in self.target_files):
            return _unknown_reason(self.source_tag, key)
        templates = sorted({str(file.template) for file in self.target_files if file.template is not None})
        where = f"the template {', '.join(templates)}" if templates else f"{self.tag.code}'s file"
        return (f"{where} has no msgid {key!r} (the key is the msgid, with a context msgctxt + \\x04 + msgid): "
                "check the key; a new message comes from the source code, through xgettext and msgmerge")

    def _in_template(self, key: str) -> tuple[CatalogFile | None, CatalogFile | None]:
        """(the target file, its template) where the file's template (the catalog's `template`) has
        `key`; (None, None) when no template has it."""
        for file in self.target_files:
            template = file.template_file(self.source_tag)
            if template is None:
                continue
            document = self.reader.document(template)
            if document is not None and has_key(template.format, document, key):
                return file, template
        return None, None

    def _start(self, counterpart: CatalogFile) -> tuple[CatalogFile | None, str]:
        """The target's new file of `counterpart`'s catalog and domain (or why it cannot be started)."""
        assert self.new_files is not None
        try:
            file = self.new_files.start(self.reader, counterpart)
        except ValueError as exc:
            return None, str(exc)
        self.target_files.append(file)
        return file, ""

    def start_every_file(self) -> None:
        """Start the target's file of every catalog and domain it has none of (a call without messages)."""
        for counterpart in self.source_files:
            if _counterpart(self.target_files, counterpart) is None and not counterpart.format.multi_locale:
                file, reason = self._start(counterpart)
                if file is not None:
                    self.empty_files.append(file)

    def _need_key_source(self, file: CatalogFile, key: str) -> None:
        self._via_keys.setdefault(file.path, (file, []))[1].append(key)

    def find_key_sources(self) -> None:
        """The sources of keys that are their own source text (gettext's msgids) and have no
        source-locale translation: read once per file."""
        for path, (file, keys) in self._via_keys.items():
            data = self.reader.data(path)
            found = file.format.source_messages(data, file.tag, keys) if data is not None else {}
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
                self.refused[key] = [self._unknown_reason(key)]
                continue
            empty = _empty_reason(message.value, message.source_value)
            if empty is not None:
                self.refused[key] = [empty]
                continue
            if glossary_check is not None and message.source_value is not None:
                message.glossary_missing = list(glossary_check(_flat(message.source_value), _flat(message.value)))

    def by_file(self) -> dict[Path, tuple[CatalogFile, list[_Message]]]:
        grouped: dict[Path, tuple[CatalogFile, list[_Message]]] = {file.path: (file, []) for file in self.empty_files}
        for key, file in self.chosen.items():
            if key not in self.refused:
                grouped.setdefault(file.path, (file, []))[1].append(self.messages[key])
        return grouped


def _plan_file(reader: Reader, file: CatalogFile, items: list[_Message]
               ) -> tuple[dict[str, KeyOutcome], bytes | None, list[tuple[Write, ...]], tuple[tuple[str, str], ...]]:
    """Each message's outcome in `file`, the file's new bytes (None when unreadable), the writes and
    where their new keys go."""
    fmt, tag, label = file.format, file.tag, str(file.path)
    data = reader.data(file.path)
    if data is None:
        reason = reader.errors[file.path]
        return {m.key: KeyOutcome(m.key, "refused", [reason], label) for m in items}, None, [], ()
    needed = plural_rules(tag).cardinal_categories
    refused: dict[str, list[str]] = {}
    remaining = list(items)
    document: Document | None = reader.take_document(file)  # parsed already to find the keys: used once
    limits: dict[str, int] | None = None
    while True:
        if document is None:
            document = fmt.edit(data, tag, reader.limits)
        written: dict[str, tuple[Write, ...]] = {}
        anchors: dict[str, str] = {}
        placements: dict[Path, Placement | None] = {}  # by source file: its key order
        unchanged: list[str] = []
        broken = False
        for message in remaining:
            try:
                writes = tuple(document_writes(fmt, document, message.key, message.value, tag,
                                               source=message.source_value))
            except ValueError as exc:
                refused[message.key] = [str(exc)]
                continue
            placement = _placement(reader, placements, message.origin, document) if writes else None
            placed = placement.anchors(fmt, document, message.key, writes) if placement is not None else {}
            try:
                if message.template is not None and not has_key(fmt, document, message.key):
                    template = reader.file_data(message.template)
                    if template is None or not fmt.add_from_template(document, template, tag, message.key):
                        raise ValueError(f"the template {message.template.path} no longer has it")
                changed = write_into(document, writes, placed)
            except (KeyError, ValueError, TypeError) as exc:  # the format cannot write it (half written: start over)
                refused[message.key] = [document_reason(exc)]
                broken = True
                break
            if placement is not None:
                placement.added(doc_key for doc_key, value in writes if value is not None)
                anchors.update(placed)
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
            # What is checked of each message is its own keys' messages and problems: only they are read.
            checked = {*written, *(doc_key for writes in written.values() for doc_key, _ in writes)}
            try:
                read = fmt.read_keys(after, tag, checked, reader.limits)
            except CatalogFileError as exc:
                reason = f"the file could not be read once written ({exc.reason}), so nothing is written to it"
                rejected = {key: [reason] for key in written}
            else:
                if limits is None:
                    limits = fmt.max_lengths(data)
                by_key = {m.key: m for m in remaining}
                problems_of: dict[str | None, list[tuple[int, Problem]]] = {}  # by key: not a pass per message
                indexed = 0
                for key, writes in written.items():
                    message = by_key[key]
                    rendered = read.get(key)  # (compiling it may report a problem of its own)
                    for index in range(indexed, len(read.problems)):
                        problems_of.setdefault(read.problems[index].key, []).append((index, read.problems[index]))
                    indexed = len(read.problems)
                    parts = {key, *(doc_key for doc_key, _ in writes)}
                    problems = [problem for _, problem in sorted(found for part in parts
                                                                 for found in problems_of.get(part, ()))]
                    reasons = check_candidate(fmt, tag, key, rendered, problems, message.source, needed,
                                              message.glossary_missing, limits.get(key), written=read,
                                              source_value=message.source_value, given=message.value)
                    if reasons:
                        rejected[key] = reasons
        if rejected:
            refused.update(rejected)
            remaining, document = [m for m in remaining if m.key not in refused], None
            continue
        outcomes = {key: KeyOutcome(key, "refused", reasons, label) for key, reasons in refused.items()}
        values = {m.key: m for m in remaining}
        outcomes.update({key: KeyOutcome(key, "written", [], label,
                                         completed_forms(fmt, tag, values[key].value, values[key].source_value))
                         for key in written})
        outcomes.update({key: KeyOutcome(key, "unchanged", [], label) for key in unchanged})
        return outcomes, after, list(written.values()), tuple(anchors.items())


def _placement(reader: Reader, placements: dict[Path, Placement | None], origin: CatalogFile | None,
               document: Document) -> Placement | None:
    """Where keys new to `document` go, from the key order of the source file `origin` (made once
    per source file and Document); None without a source file."""
    if origin is None:
        return None
    if origin.path not in placements:
        messages = reader.messages(origin)
        placements[origin.path] = Placement(messages.document_order(), document) if messages is not None else None
    return placements[origin.path]


def _find_source(reader: Reader, files: list[CatalogFile], key: str
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


def _document_has(reader: Reader, file: CatalogFile, key: str) -> bool:
    document = reader.document(file)
    return document is not None and has_key(file.format, document, key)


def _counterpart(files: list[CatalogFile], other: CatalogFile) -> CatalogFile | None:
    """The file of `files` that is `other`'s in another locale: same catalog, same gettext domain."""
    return next((f for f in files if f.catalog == other.catalog and f.domain == other.domain), None)


def _no_file_reason(source_file: CatalogFile, source_tag: LocaleTag, tag: LocaleTag) -> str:
    path = _expected_path(source_file, source_tag, tag)
    where = f"create {path} (it may hold no messages yet)" if path is not None else \
        "create the file this catalog's path names for it"
    return (f"{tag.code} has no file of the catalog {source_file.catalog!r} yet: pass create_locale to start it, or "
            f"{where}, then write again")


def _expected_path(file: CatalogFile, source_tag: LocaleTag, tag: LocaleTag) -> Path | None:
    """Where `tag`'s counterpart of the source file `file` would be: the locale spelled in its path swapped."""
    if file.format.multi_locale:
        return None
    old, new = file.format.locale_spelling(source_tag), file.format.locale_spelling(tag)
    parts = list(file.path.parts)
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9])")
    folder = file.format.default_folder
    for index in range(len(parts) - 1, -1, -1):
        if folder is not None and parts[index] == folder:
            parts[index] = f"{folder}-{new}"
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
