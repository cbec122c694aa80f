from __future__ import annotations

import pytest

from tests.postgres import fresh_database


@pytest.fixture
def database(postgres_url: str) -> str:
    """A clean database of this test's own on the session's PostgreSQL: its URL."""
    return fresh_database(postgres_url)
