"""Fixtures for the i18n pack: the anyio backend, both protocol eras, and an in-process client.

Helpers live here (as fixtures) because the test directory is not a package.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

import parlance_i18n.pack
from parlance.testing import connect

from tests.support import ERAS




@pytest.fixture
def i18n_client(mode: str) -> Callable[..., AbstractAsyncContextManager[Any]]:
    """`async with i18n_client(**settings) as client:` a real MCP client on a host running only this pack."""

    @asynccontextmanager
    async def open_client(**settings: Any) -> AsyncIterator[Any]:
        config = {"packs": {"i18n": settings}}
        async with connect({"i18n": parlance_i18n.pack}, config=config, mode=mode) as client:
            assert client.protocol_version == ERAS[mode]
            yield client

    return open_client
