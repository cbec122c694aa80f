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
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from parlance_i18n.code.frameworks.base import Framework
from parlance_i18n.code.model import FileScan

__all__ = ["DynamicUse", "KeyUse", "Place", "Usage", "usage_of"]


@dataclass(frozen=True, slots=True)
class Place:
    file: str
    line: int
    column: int


@dataclass(slots=True)
class KeyUse:
    key: str
    references: list[Place] = field(default_factory=list)
    default: str | None = None
    """The source text a call carries (`defaultValue`, `defaultMessage`, the msgid), for an undefined key."""
    plural: bool = False


@dataclass(frozen=True, slots=True)
class DynamicUse:
    file: str
    line: int
    column: int
    expression: str
    prefix: str
    reachable: int
    """How many catalog keys the prefix reaches (0 with no prefix: it protects none)."""


@dataclass(frozen=True, slots=True)
class Usage:
    used: list[KeyUse]
    unused: list[str]
    undefined: list[KeyUse]
    dynamic: list[DynamicUse]
    reachable: list[str]
    """Catalog keys no call names in full but a dynamic call's prefix reaches: not reported unused."""


def usage_of(framework: Framework, scans: Iterable[tuple[Framework, str, FileScan]],
             catalog_keys: Mapping[str, str | None]) -> Usage:
    """Match every reference of `scans` (the framework that read each file, the file, what it holds) to
    `catalog_keys` (catalog key -> its namespace, the domain of the file that holds it, or None), spelled
    as `framework` spells the catalog's keys, in the catalog's order."""
    namespaced = len(set(catalog_keys.values())) > 1
    spelled: dict[str, None] = {}
    for key, namespace in catalog_keys.items():
        spelled[framework.catalog_key(framework.code_key(key), namespace, namespaced)] = None
    used: dict[str, KeyUse] = {}
    undefined: dict[str, KeyUse] = {}
    dynamic: list[tuple[str, str, FileScan, int]] = []
    for reader, file, scan in scans:
        for reference in scan.references:
            key = reader.catalog_key(reference.key, reference.namespace, namespaced)
            use = (used if key in spelled else undefined).setdefault(key, KeyUse(key))
            use.references.append(Place(file, reference.span.line, reference.span.column))
            use.plural = use.plural or reference.plural
            if use.default is None and reference.default is not None:
                use.default = reference.default
        for index, found in enumerate(scan.dynamic):
            prefix = reader.catalog_key(found.prefix, found.namespace, namespaced) if found.prefix else ""
            dynamic.append((file, prefix, scan, index))
    ordered = sorted(k for k in spelled if k not in used)
    reached: set[str] = set()
    dynamic_uses: list[DynamicUse] = []
    for file, prefix, scan, index in dynamic:
        found = scan.dynamic[index]
        count = 0
        if prefix:
            start = bisect.bisect_left(ordered, prefix)
            while start < len(ordered) and ordered[start].startswith(prefix):
                reached.add(ordered[start])
                start += 1
                count += 1
            count += sum(1 for k in used if k.startswith(prefix))
        dynamic_uses.append(DynamicUse(file, found.span.line, found.span.column, found.expression, prefix, count))
    return Usage(
        used=sorted(used.values(), key=lambda u: u.key),
        unused=[k for k in spelled if k not in used and k not in reached],
        undefined=sorted(undefined.values(), key=lambda u: u.key),
        dynamic=dynamic_uses,
        reachable=[k for k in spelled if k in reached],
    )
