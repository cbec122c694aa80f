"""The REST client as plain Python (no MCP): its lifetime and where it sends requests."""

from __future__ import annotations

from typing import Any

import pytest

from parlance_strings_admin.client import open_client
from parlance_strings_admin.settings import StringsAdminSettings

pytestmark = pytest.mark.anyio


async def test_the_connection_pool_closes_with_the_lifespan(emulator: Any) -> None:
    async with open_client(StringsAdminSettings(host=emulator.host_url), environ={}) as client:
        assert [s["value"] for s in (await client.get_scopes()).scopes] == ["checkout", "emails"]
    with pytest.raises(RuntimeError, match="closed"):
        await client.get_scopes()


async def test_the_environment_decides_where_requests_go(emulator: Any, closed_port: int) -> None:
    settings = StringsAdminSettings(host=f"http://127.0.0.1:{closed_port}", base_path="/wrong/")
    environ = {"STRINGS_ADMIN_HOST": emulator.host_url, "BASE_PATH": emulator.base_path}
    async with open_client(settings, environ=environ) as client:
        assert client.endpoint.root == emulator.root
        created = await client.create_key("checkout", "k", "v", should_translate=True)
    assert (created.attempts, created.confirmed_by_conflict) == (1, False)
    assert [(k.key, k.should_translate) for k in emulator.store.list_keys("checkout")] == [("k", True)]
