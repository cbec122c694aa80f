"""Fixtures for the language-pack tests: the anyio backend for the one MCP-level test."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
