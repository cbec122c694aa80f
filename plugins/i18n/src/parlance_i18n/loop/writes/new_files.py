"""Starting a locale's file where it has none (`i18n_set_messages` with `create_locale`): where it
goes and what it starts as, both the format's answer.

The file goes where the catalog's path names it for the locale (`discovery.new_file_path`: its
`{locale}` spelled as the format spells it, `{domain}` the source file's), inside the catalog's
folder; it starts as the format's new file (`CatalogFormat.new_file`), made from the source locale's
file of the same catalog and domain, and the messages are then written into it as into any file.
A multi-locale file (`.xcstrings`) is not started: the catalog's one file takes the new locale's
messages. Nothing is on disk until the plan is applied (`store.create_file`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from parlance_i18n.formats import Template
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.writes.files import Reader
from parlance_i18n.model.discovery import new_file_path
from parlance_i18n.model.project import CatalogFile
from parlance_i18n.settings import CatalogSource
from parlance_i18n.store import UnsafePath, check_inside, label_of

__all__ = ["NewFiles"]


class NewFiles:
    """The files a plan starts for `tag`, one per catalog and domain, given the catalogs by name."""

    def __init__(self, sources: Mapping[str, CatalogSource], source_tag: LocaleTag, tag: LocaleTag,
                 root: Path | None = None) -> None:
        self.sources, self.source_tag, self.tag, self.root = sources, source_tag, tag, root
        self.started: dict[Path, bytes] = {}
        """Path -> the bytes the new file starts as (before the messages are written into it)."""

    def start(self, reader: Reader, counterpart: CatalogFile) -> CatalogFile:
        """`tag`'s file of `counterpart`'s catalog and domain, its first bytes handed to `reader`.
        ValueError, with the reason a caller sees, when it cannot be started."""
        fmt = counterpart.format
        if fmt.multi_locale:  # the one file holds every locale: the new one's messages are added to it
            return replace(counterpart, tag=self.tag)
        source = self.sources.get(counterpart.catalog)
        if source is None:
            raise ValueError(f"the catalog {counterpart.catalog!r} is not configured")
        path = new_file_path(source, fmt, self.tag, counterpart.domain)
        shown = label_of(path, self.root)
        try:
            check_inside(path, counterpart.folder)
        except UnsafePath as exc:
            raise ValueError(exc.message) from None
        if path not in self.started and os.path.lexists(path):
            raise ValueError(f"{shown} exists but is not read as {self.tag.code}'s file of the catalog "
                             f"{counterpart.catalog!r}: check its name against the catalog's path")
        if path not in self.started:
            template = reader.data(counterpart.path)
            self.started[path] = fmt.new_file(self.tag, self.source_tag,
                                              Template(template, counterpart.tag) if template is not None else None)
        file = replace(counterpart, path=path, tag=self.tag)
        reader.start(file, self.started[path])
        return file
