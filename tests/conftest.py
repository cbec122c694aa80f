"""Shared fixtures: the anyio backend, and installing throwaway packs through real entry points."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from parlance.packs import rescan_installed
from tests.support import ERAS, write_fake_dist


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=list(ERAS))
def mode(request: pytest.FixtureRequest) -> str:
    """Both protocol eras: "legacy" (the 2025-11-25 handshake) and "auto" (2026-07-28)."""
    return request.param


@pytest.fixture
def fake_dists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Install fake packs on sys.path for this test; returns write(pack, source)."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))

    def write(pack: str, source: str) -> Path:
        write_fake_dist(root, pack, source)
        importlib.invalidate_caches()
        rescan_installed()  # the host scans installed distributions once per process
        return root

    yield write
    rescan_installed()
    for name in [m for m in sys.modules if m.startswith("fake_pack_")]:
        del sys.modules[name]
