"""`plan_rename_key` and `plan_delete_keys`: a key moved or removed in every locale's files at once,
refused as a whole on a conflict found when planning (see the package docstring).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from parlance_i18n.formats import DEFAULT_READ_LIMITS, CatalogFileError, CatalogFormat, Document, ReadLimits
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.forms import has_key
from parlance_i18n.loop.writes.files import Reader, in_catalog
from parlance_i18n.loop.writes.plan import DropEntries, Edits, KeyOutcome, Step, WritePlan
from parlance_i18n.model.project import CatalogFile, ProjectLocale

__all__ = ["plan_delete_keys", "plan_rename_key"]


def plan_rename_key(target_locales: list[ProjectLocale], old: str, new: str, *,
                    catalog: str | None = None, limits: ReadLimits = DEFAULT_READ_LIMITS) -> WritePlan:
    """Rename `old` to `new` in every file of the locales (of `catalog`) that has it: refused as a
    whole when `new` exists in any of them, `old` in none, or a format cannot move an entry."""
    if old == new:
        return WritePlan([KeyOutcome(old, "refused", ["the old and new keys are the same"])], {})
    reader = Reader(limits)
    reasons: list[str] = []
    edits: dict[Path, list[Step]] = {}
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
            parts = fmt.message_keys(document, old)
            if not parts:
                continue
            if fmt.rename_refusal is not None:
                reasons.append(f"{path} is {fmt.name}: {fmt.rename_refusal}")
                continue
            renames = tuple((part, fmt.renamed_key(part, old, new)) for part in parts)
            edits.setdefault(path, []).append(Edits(fmt, file.tag, (), renames, limits))
            edited_as.setdefault(path, file)
    if not edits and not reasons:
        reasons.append(f"no file{_of(catalog)} has {old!r}")
    if reasons:
        return WritePlan([KeyOutcome(old, "refused", list(dict.fromkeys(reasons)))], {})
    return plan_steps(reader, old, edits, edited_as)


def plan_delete_keys(target_locales: list[ProjectLocale], keys: list[str], *,
                     catalog: str | None = None, limits: ReadLimits = DEFAULT_READ_LIMITS) -> WritePlan:
    """Delete `keys` from every file of the locales (of `catalog`) that has them; a key no file has is
    refused. A key spelled `ns:key` names `key` in the files of the namespace (domain) `ns`. In a file holding every locale (`.xcstrings`) an entry goes whole, with every locale's part."""
    reader = Reader(limits)
    found: dict[str, list[Path]] = {key: [] for key in keys}
    edits: dict[Path, list[Step]] = {}
    edited_as: dict[Path, CatalogFile] = {}
    parsed: dict[Path, Document] = {}
    unreadable: list[str] = []
    for path, files in _by_path(target_locales, catalog).items():
        fmt = files[0].format
        if fmt.multi_locale:  # an entry goes whole, with every locale's part of it
            data = reader.data(path)
            after, present = _entries_in(fmt, data, keys) if data is not None else (b"", [])
            if data is None:
                unreadable.append(f"{path} cannot be read ({reader.errors[path]})")
            if present:
                assert data is not None
                edits[path] = [DropEntries(fmt, tuple(present), (data, after))]
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
                parts = file.format.message_keys(document, key) or _in_namespace(file, document, key)
                if parts:
                    writes.append(tuple((part, None) for part in parts))
                    if path not in found[key]:
                        found[key].append(path)
            if writes:
                edits.setdefault(path, []).append(Edits(file.format, file.tag, tuple(writes), limits=limits))
                edited_as.setdefault(path, file)
                if len(files) == 1:  # the lookups' Document is edited, rather than the file parsed again
                    taken = reader.take_document(file)
                    if taken is not None:
                        parsed[path] = taken
    plan = plan_steps(reader, None, edits, edited_as, found, parsed)
    missing = [KeyOutcome(key, "refused", [f"no file{_of(catalog)} has {key!r}", *unreadable])
               for key, paths in found.items() if not paths]
    return WritePlan(plan.outcomes + missing, plan.files, plan.replay)


def plan_steps(reader: Reader, key: str | None, edits: dict[Path, list[Step]], edited_as: dict[Path, CatalogFile],
               found: dict[str, list[Path]] | None = None, parsed: dict[Path, Document] | None = None) -> WritePlan:
    """Run each file's steps on its bytes now; outcomes per (key, file). Refused as a whole when a
    step fails (a format that cannot take the edit), so no file is left half renamed. A file in
    `parsed` has a Document of its bytes already: its first step edits that one."""
    files: dict[Path, tuple[bytes, bytes]] = {}
    failures: list[str] = []
    for path, steps in edits.items():
        before = reader.data(path)
        assert before is not None  # only files that were read have steps
        after = before
        document = (parsed or {}).get(path)
        try:
            for index, step in enumerate(steps):
                if index == 0 and document is not None and isinstance(step, Edits):
                    after = step.run_on(document)
                else:
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


def _in_namespace(file: CatalogFile, document: Document, key: str) -> list[str]:
    """The parts of `ns:key`, as i18n_usage spells a key of a catalog whose files are namespaces (i18next's
    `{domain}.json`), where `file` is of the namespace `ns`; none otherwise."""
    if file.domain is None or not key.startswith(f"{file.domain}:"):
        return []
    return list(file.format.message_keys(document, key[len(file.domain) + 1:]))


def _by_path(locales: Iterable[ProjectLocale], catalog: str | None) -> dict[Path, list[CatalogFile]]:
    """Every file of the locales (in `catalog`), grouped by path: a multi-locale file once per locale."""
    grouped: dict[Path, list[CatalogFile]] = {}
    for locale in locales:
        for file in in_catalog(locale.files, catalog):
            grouped.setdefault(file.path, []).append(file)
    return grouped


def _of(catalog: str | None) -> str:
    return f" of the catalog {catalog!r}" if catalog is not None else ""


def _entries_in(fmt: CatalogFormat, data: bytes, keys: list[str]) -> tuple[bytes, list[str]]:
    """The file without the entries of `keys`, and the keys it has an entry for (none when it cannot
    be parsed)."""
    try:
        return fmt.drop_entries(data, keys)
    except CatalogFileError:
        return data, []
