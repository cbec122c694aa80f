"""What is installed: the entry points of the installed distributions, read once per process.

Packs (`parlance.packs`) and language packs (`parlance.language_packs`) are both found here, so one
scan of the distributions' metadata serves both groups. Reading entry points imports nothing.
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoints, entry_points
from typing import Protocol

__all__ = ["installed_entry_points", "rescan_installed"]


class _Installed(Protocol):
    """What `entry_points()` returns: `EntryPoints`, or on Python 3.11 the deprecated `SelectableGroups`,
    whose `select(group=...)` gives the same `EntryPoints`."""

    def select(self, *, group: str) -> EntryPoints: ...


@functools.cache
def _all_entry_points() -> _Installed:
    # Each scan reads every distribution's metadata: once, for both groups.
    return entry_points()


def rescan_installed() -> None:
    """Forget the installed distributions read so far: call after installing one at run time (tests)."""
    _all_entry_points.cache_clear()


def installed_entry_points(group: str) -> EntryPoints:
    """The entry points of `group` in every installed distribution."""
    return _all_entry_points().select(group=group)
