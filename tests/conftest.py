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


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory):
    """A real PostgreSQL for this test session (`tests.postgres`): the URL of its `postgres` database.
    Tests that need a clean database take `fresh_database(postgres_url)`. Required under CI."""
    import os

    from tests.postgres import own_postgres, postgres_available

    if not postgres_available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL (initdb, pg_ctl) is not installed: .ci/run installs it")
        pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
    # Not under pytest's temporary folder: as root, the cluster runs as `postgres`, which must reach it.
    with own_postgres() as server:
        yield server.url
