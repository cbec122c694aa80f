"""What this replica does when another one wrote (`parlance_shared_write`, with `[state] url`).

Replicas share one checkout (or a network volume) and each keeps its own view of the catalogs: the
`ProjectLocale`s `i18n_translate` renders from, read once and kept. When another replica applied a
write, the host hands the pack the files it changed (relative to the project's folder); every
locale whose files include one reads them again, so this replica's next `i18n_translate` renders
the other's write. A file no locale has (a new locale's file, a source file `i18n_extract` edited;
not the lock file nor `.git`) has the catalogs listed again (`refresh_project(force=True)`: a locale
whose files are the same keeps what it read). Reading is blocking: off the event loop. The host
then announces the bundles the write named to this replica's subscribers.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

import anyio

from parlance import SharedWrite
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.loop.lockfile import LOCK_FILE_NAME
from parlance_i18n.tools.coordinated import GIT_LOCK, project_name

__all__ = ["reload_written"]


async def reload_written(catalog: Catalog, change: SharedWrite) -> None:
    await anyio.to_thread.run_sync(reload_files, catalog, change.files)


def reload_files(catalog: Catalog, files: Iterable[str]) -> None:
    """Read again every locale of `catalog`'s project that has one of `files` (names relative to the
    project's folder); list the catalogs again when one is no locale's file (blocking)."""
    project = catalog.project
    if project is None:
        return
    names = set(files)
    root = project.root
    known: set[str] = set()
    for locale in list(project.locales.values()):
        mine = {project_name(file.path, root) for file in locale.files} if root is not None else set()
        if root is None or mine & names:  # settings built in code name no folder: every locale, to be sure
            locale.reload()
        known |= mine
    # The lock file and `.git` are never a catalog's: listing the catalogs again for them would be waste.
    if {name for name in names - known if name != GIT_LOCK and PurePosixPath(name).name != LOCK_FILE_NAME}:
        catalog.refresh_project(force=True)
