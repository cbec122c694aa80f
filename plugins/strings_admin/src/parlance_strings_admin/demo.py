"""The strings_admin section of `parlance demo`: a temporary emulator and a few calls against it."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from parlance import DemoStep

from parlance_strings_admin.tools import CREATE_KEY, GET_SCOPES

TITLE = "strings_admin: string keys in a strings-admin service (a local emulator)"

STEPS = [
    DemoStep("List the scopes the service knows", GET_SCOPES),
    DemoStep("Create a key that should be translated", CREATE_KEY,
             {"key": "order.status.completed", "value": "Completed", "scopeValue": "checkout", "shouldTranslate": True}),
    DemoStep("Create the same key again: the service answers 409", CREATE_KEY,
             {"key": "order.status.completed", "value": "Completed", "scopeValue": "checkout"}, expect_error=True),
    DemoStep("A scope that does not exist: 404", CREATE_KEY,
             {"key": "welcome.title", "value": "Welcome", "scopeValue": "no-such-scope"}, expect_error=True),
    DemoStep("A hostile scopeValue stays one path segment", CREATE_KEY,
             {"key": "k", "value": "v", "scopeValue": "../keys/checkout"}, expect_error=True),
    DemoStep("Blank values are refused before any request", CREATE_KEY,
             {"key": " ", "value": "v", "scopeValue": "checkout"}, expect_error=True),
]


@contextlib.contextmanager
def emulator_settings() -> Iterator[dict[str, Any]]:
    """Start the emulator on a free loopback port with a throwaway database; yield the pack's settings."""
    from parlance_strings_admin.emulator.server import emulator_thread
    from parlance_strings_admin.emulator.store import Scope

    with tempfile.TemporaryDirectory(prefix="parlance-strings-admin-") as tmp:
        scopes = [Scope("checkout", True), Scope("emails", True), Scope("internal-tools", False)]
        with emulator_thread(Path(tmp) / "strings.db", scopes) as running:
            yield {"host": running.host_url}
