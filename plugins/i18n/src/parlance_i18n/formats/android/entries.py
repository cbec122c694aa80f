"""The entries of an Android values file, as aapt2 finds them under `<resources>`, which reading
(`format`) and editing (`document`) both walk: `<string>` (and `<item type="string">`) and `<plurals>`
by name, and each `<item>` of a `<string-array>` as `name[0]`, `name[1]`, ...; an entry whose
`product` is not "default" is a build variant and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from parlance_i18n.formats.base import CatalogFileError, Problem
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlFile, XmlNode
from parlance_i18n.icu.plurals import CATEGORIES

__all__ = ["ARRAY_KEY", "ORDER", "Entry", "entries", "prefixes", "quantities", "resources"]

ARRAY_KEY = re.compile(r"(.+)\[(0|[1-9][0-9]{0,5})\]")
"""The key of a `<string-array>` item: (array name, index)."""
ORDER = {category: index for index, category in enumerate(CATEGORIES)}
"""Each plural quantity's place in CLDR order."""


@dataclass(slots=True)
class Entry:
    """One message in the file: `node` holds its text (or, for plurals, its items)."""

    key: str
    kind: str  # "string", "plurals" or "item" (of a string-array)
    owner: XmlNode  # the <string>, <plurals> or <string-array> under <resources>
    node: XmlNode
    comment: XmlNode | None


def resources(file: XmlFile) -> XmlNode:
    root = file.root
    if root.name != "resources":
        raise CatalogFileError(f"the root element is <{root.name[:40]}>, not <resources>: this is not an Android "
                               "values file", root.line)
    return root


def entries(file: XmlFile, problems: list[Problem] | None) -> Iterator[Entry]:
    """Every message entry under <resources>, in file order (duplicates included)."""
    comment: XmlNode | None = None
    for child in resources(file).children:
        if child.name == COMMENT:
            comment = child
            continue
        attached, comment = comment, None
        name = child.name
        if name == "item" and child.attributes.get("type") == "string":
            name = "string"
        if name not in ("string", "plurals", "string-array"):
            continue
        if child.attributes.get("product", "default") != "default":
            continue
        key = child.attributes.get("name", "").strip()
        if not key:
            if problems is not None:
                problems.append(Problem(None, child.line, f"a <{child.name}> has no name attribute; name it"))
            continue
        if name == "string":
            yield Entry(key, "string", child, child, attached)
        elif name == "plurals":
            yield Entry(key, "plurals", child, child, attached)
        else:
            for index, item in enumerate(child.elements("item")):
                yield Entry(f"{key}[{index}]", "item", child, item, attached)


def quantities(file: XmlFile, plurals: XmlNode) -> Iterator[tuple[str | None, XmlNode]]:
    """Each `<item>` of a `<plurals>` with its quantity (None when it is not a CLDR category)."""
    for item in plurals.elements("item"):
        quantity = item.attributes.get("quantity", "").strip()
        yield (quantity if quantity in ORDER else None), item


def prefixes(file: XmlFile) -> frozenset[str]:
    """The namespace prefixes the file declares (`xliff` of `<xliff:g>`)."""
    return frozenset(name[6:] for name in file.root.attributes if name.startswith("xmlns:"))
