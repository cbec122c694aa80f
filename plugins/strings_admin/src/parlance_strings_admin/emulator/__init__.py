"""A local strings-admin service with the real REST contract, on SQLite: for tests, demos and CI.

    with emulator_thread(tmp_path / "db.sqlite3", [Scope("checkout", True)]) as emulator:
        ...  # point the pack at emulator.host_url
"""

from parlance_strings_admin.emulator.app import create_app
from parlance_strings_admin.emulator.server import RunningEmulator, emulator_thread
from parlance_strings_admin.emulator.store import AddKeyOutcome, Scope, StoredKey, StringsStore

__all__ = ["AddKeyOutcome", "RunningEmulator", "Scope", "StoredKey", "StringsStore", "create_app", "emulator_thread"]
