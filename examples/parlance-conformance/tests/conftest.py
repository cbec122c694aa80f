"""Fixtures for the conformance pack's own tests.

The pack is imported from its source folder, so these tests run without installing it; the
folder itself goes on sys.path too, for the shared checks in `conformance_checks`. The
repository's tests/conftest.py does not reach this folder, hence the anyio backend and the `mode`
fixture (both protocol eras) here.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent / "src", HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from conformance_checks import ERAS  # noqa: E402 - needs the sys.path entry above


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=list(ERAS))
def mode(request: pytest.FixtureRequest) -> str:
    """Both protocol eras: "legacy" (the 2025-11-25 handshake) and "auto" (2026-07-28)."""
    return request.param


@pytest.fixture
def conformance() -> Any:
    """`async with conformance(mode, **client_kwargs) as client`: an `mcp.Client` on a host built
    in-process that serves this pack alone, under its entry-point name `conformance`."""
    from parlance.testing import connect
    from parlance_conformance import pack

    @contextlib.asynccontextmanager
    async def open_client(mode: str, **client_kwargs: Any) -> AsyncIterator[Any]:
        async with connect({"conformance": pack}, mode=mode, **client_kwargs) as client:
            assert client.protocol_version == ERAS[mode]
            yield client

    return open_client
