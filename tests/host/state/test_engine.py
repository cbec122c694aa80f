"""Which engine a config asks for (`parlance._state.engine`), and what it says when it cannot have it."""

from __future__ import annotations

import sys

import pytest

from parlance._state.engine import engine_for, open_engine
from parlance.config import config_from_dict
from parlance.errors import ConfigError


def test_without_asyncpg_a_postgres_url_is_a_config_error_that_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "asyncpg" or n.startswith("asyncpg.")
                 or n in ("parlance._state.postgres", "parlance._state.write_log", "parlance._state.database")]:
        monkeypatch.delitem(sys.modules, name)  # restored after the test
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # as if it were not installed
    assert open_engine(None).shared is False  # the embedded engine needs nothing
    with pytest.raises(ConfigError) as refused:
        open_engine("postgresql://parlance@db.example.org/parlance", file="parlance.toml")
    message = str(refused.value)
    assert refused.value.key == "state.url" and message.startswith("parlance.toml: [state.url]: ")
    assert 'pip install "parlance-mcp[postgres]"' in message and "asyncpg" in message
    with pytest.raises(ConfigError, match=r"parlance-mcp\[postgres\]"):
        engine_for(config_from_dict({"state": {"url": "postgresql://parlance@db.example.org/parlance"}}))
