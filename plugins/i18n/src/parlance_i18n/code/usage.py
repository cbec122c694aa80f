"""References matched to a catalog's keys: which keys the code uses, which nothing uses, which the code
calls but the catalog lacks, and the calls whose key is built at run time.

Both sides are spelled as the catalog's reports spell keys (`Framework.catalog_key`): an i18next
key with its namespace (`ns:key`) only when the catalog has several namespaces, plural forms
collapsed to the base key the code calls (`Framework.code_key`), a gettext msgid with its context.
A catalog key is used when a call names it; it is *reachable* when a dynamic call's static prefix
starts it (`` t(`status.${s}`) `` reaches `status.active`), and a reachable key is not reported
unused. A dynamic call with no static prefix (`t(key)`) could reach every key: it is listed under
`dynamic` (so an agent can look at it) but protects no key, or no project with one would ever see an
unused key; the same rule i18next-cli's and i18n-tasks' unused checks follow.

**Kept up to date, not rebuilt.** A `UsageIndex` holds every reference of one `sources` entry by key,
and is updated file by file (a file whose scan is the same object as before is not looked at again).
A call then costs a pass over the distinct keys, and its answer lists keys; the places behind each
are looked up for the page asked for only. So the second `i18n_usage` after one file changed costs
that file and the keys, not every reference of the project, and leaves little for the garbage
collector to walk.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from parlance_i18n.code.frameworks.base import Framework
from parlance_i18n.code.model import Dynamic, FileScan, Reference

__all__ = ["DynamicUse", "KeyUse", "Place", "Usage", "UsageIndex", "usage_of"]

_Key = tuple[str | None, str]
"""(namespace, key) as the code calls it."""


@dataclass(frozen=True, slots=True)
class Place:
    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class KeyUse:
    key: str
    references: list[Place]
    reference_count: int
    default: str | None
    """The source text a call carries (`defaultValue`, `defaultMessage`, the msgid), for an undefined key."""
    plural: bool


@dataclass(frozen=True, slots=True)
class DynamicUse:
    file: str
    line: int
    column: int
    expression: str
    prefix: str
    reachable: int
    """How many catalog keys the prefix reaches (0 with no prefix: it protects none)."""


class UsageIndex:
    """Every reference and dynamic call of one `sources` entry's files, by key, updated file by file."""

    def __init__(self) -> None:
        self._scans: dict[str, FileScan] = {}
        self._by_key: dict[_Key, dict[str, tuple[Reference, ...]]] = {}
        self._dynamic: dict[str, tuple[Dynamic, ...]] = {}

    def update(self, files: Mapping[str, FileScan]) -> None:
        """Make the index that of `files` (relative path -> scan): files gone, changed or new only."""
        for file in [f for f in self._scans if f not in files]:
            self._drop(file)
        for file, scan in files.items():
            if self._scans.get(file) is not scan:
                self._drop(file)
                self._add(file, scan)

    def keys(self) -> Iterator[tuple[_Key, dict[str, tuple[Reference, ...]]]]:
        return iter(self._by_key.items())

    def references(self, key: _Key) -> dict[str, tuple[Reference, ...]]:
        return self._by_key.get(key, {})

    def dynamic(self) -> Iterator[tuple[str, Dynamic]]:
        """Every dynamic call, by file (in file order) and position."""
        for file in sorted(self._dynamic):
            for found in self._dynamic[file]:
                yield file, found

    def dynamic_count(self) -> int:
        return sum(len(found) for found in self._dynamic.values())

    def _add(self, file: str, scan: FileScan) -> None:
        self._scans[file] = scan
        grouped: dict[_Key, list[Reference]] = {}
        for reference in scan.references:
            grouped.setdefault((reference.namespace, reference.key), []).append(reference)
        for key, references in grouped.items():
            self._by_key.setdefault(key, {})[file] = tuple(references)
        if scan.dynamic:
            self._dynamic[file] = scan.dynamic

    def _drop(self, file: str) -> None:
        scan = self._scans.pop(file, None)
        if scan is None:
            return
        for reference in scan.references:
            files = self._by_key.get((reference.namespace, reference.key))
            if files is not None:
                files.pop(file, None)
                if not files:
                    del self._by_key[(reference.namespace, reference.key)]
        self._dynamic.pop(file, None)


@dataclass(frozen=True, slots=True)
class Usage:
    """One catalog's keys against its code; the lists hold keys, `use` gives a key's places."""

    used: list[str]
    unused: list[str]
    undefined: list[str]
    reachable: list[str]
    """Catalog keys no call names in full but a dynamic call's prefix reaches: not reported unused."""
    dynamic_count: int
    _calls: dict[str, list[tuple[Framework, UsageIndex, _Key]]]
    _indexes: tuple[tuple[Framework, UsageIndex], ...]
    _reach: dict[str, int]
    _namespaced: bool

    def use(self, key: str, most: int = 20) -> KeyUse:
        """Where the code calls `key` (the first `most` places, in file order), and what the calls say."""
        places: list[Place] = []
        count, default, plural = 0, None, False
        for _, index, code_key in self._calls.get(key, []):
            for file, references in sorted(index.references(code_key).items()):
                count += len(references)
                for reference in references:
                    if len(places) < most:
                        places.append(Place(file, reference.span.line, reference.span.column))
                    plural = plural or reference.plural
                    default = default if default is not None else reference.default
        return KeyUse(key, places, count, default, plural)

    def dynamic(self, start: int, end: int) -> list[DynamicUse]:
        """The dynamic calls `start:end`, in file order."""
        found: list[DynamicUse] = []
        position = 0
        for reader, index in self._indexes:
            for file, call in index.dynamic():
                if position >= end:
                    return found
                if position >= start:
                    prefix = _prefix(reader, call, self._namespaced)
                    found.append(DynamicUse(file, call.span.line, call.span.column, call.expression, prefix,
                                            self._reach.get(prefix, 0)))
                position += 1
        return found


def usage_of(framework: Framework, indexes: list[tuple[Framework, UsageIndex]],
             catalog_keys: Mapping[str, str | None]) -> Usage:
    """Match the references of `indexes` (each with the framework that read its files) to `catalog_keys`
    (catalog key -> its namespace, the domain of the file that holds it, or None), spelled as `framework`
    spells the catalog's keys; `unused` in the catalog's order."""
    namespaced, spelled = _spelled(framework, catalog_keys)
    calls: dict[str, list[tuple[Framework, UsageIndex, _Key]]] = {}
    in_catalog = catalog_keys.__contains__
    for reader, index in indexes:
        for code_key, _ in index.keys():
            namespace, key = code_key
            spelled_key = reader.catalog_key(reader.called_key(key, in_catalog), namespace, namespaced)
            calls.setdefault(spelled_key, []).append((reader, index, code_key))
    called = sorted(calls)
    not_called = sorted(k for k in spelled if k not in calls)
    reach: dict[str, int] = {}  # prefix -> how many keys it reaches: most dynamic calls share a few prefixes
    reached: set[str] = set()
    for reader, index in indexes:
        for _, call in index.dynamic():
            prefix = _prefix(reader, call, namespaced)
            if prefix and prefix not in reach:
                unreached = _starting_with(not_called, prefix)
                reached.update(unreached)
                reach[prefix] = len(unreached) + len(_starting_with(called, prefix))
    return Usage(
        used=[k for k in called if k in spelled],
        unused=[k for k in spelled if k not in calls and k not in reached],
        undefined=[k for k in called if k not in spelled],
        reachable=[k for k in spelled if k in reached],
        dynamic_count=sum(index.dynamic_count() for _, index in indexes),
        _calls=calls, _indexes=tuple(indexes), _reach=reach, _namespaced=namespaced,
    )


def _prefix(reader: Framework, call: Dynamic, namespaced: bool) -> str:
    return reader.catalog_key(call.prefix, call.namespace, namespaced) if call.prefix else ""


_last_spelled: list[tuple[Framework, Mapping[str, str | None], bool, dict[str, None]]] = []


def _spelled(framework: Framework, catalog_keys: Mapping[str, str | None]) -> tuple[bool, dict[str, None]]:
    """Whether the catalog has several namespaces, and its keys as `framework` spells them. The last
    answer is kept for the same framework and the same mapping (a caller that keeps its catalog's keys
    between scans, as the tools do, pays this once per catalog change, not once per call)."""
    for known, keys, namespaced, spelled in _last_spelled:
        if known is framework and keys is catalog_keys:
            return namespaced, spelled
    namespaced = len(set(catalog_keys.values())) > 1
    spelled = {framework.catalog_key(framework.code_key(key), namespace, namespaced): None
               for key, namespace in catalog_keys.items()}
    _last_spelled[:] = [(framework, catalog_keys, namespaced, spelled)]
    return namespaced, spelled


def _starting_with(ordered: list[str], prefix: str) -> list[str]:
    """The keys of the sorted `ordered` that start with `prefix` (a slice found by bisection)."""
    start = bisect.bisect_left(ordered, prefix)
    end = start
    while end < len(ordered) and ordered[end].startswith(prefix):
        end += 1
    return ordered[start:end]
