"""A local strings-admin service with the real REST contract, on SQLite: for tests, demos and CI.

    with emulator_thread(tmp_path / "db.sqlite3", [Scope("checkout", True)]) as emulator:
        ...  # point the pack at emulator.host_url

The names below are imported on first use, so loading the pack (which registers the
`parlance strings-admin emulator` command) does not import the web server.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["AddKeyOutcome", "RunningEmulator", "Scope", "StoredKey", "StringsStore", "create_app", "emulator_thread"]

_HOME = {
    "AddKeyOutcome": "store",
    "Scope": "store",
    "StoredKey": "store",
    "StringsStore": "store",
    "create_app": "app",
    "RunningEmulator": "server",
    "emulator_thread": "server",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
