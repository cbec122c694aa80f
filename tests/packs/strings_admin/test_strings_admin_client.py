"""The REST client as plain Python (no MCP): its lifetime and where it sends requests."""

from __future__ import annotations

from typing import Any

import pytest

from parlance_strings_admin.client import open_client
from parlance_strings_admin.errors import UnsendableURL
from parlance_strings_admin.settings import StringsAdminSettings
from parlance_strings_admin.tools import CREATE_KEY, GET_SCOPES, to_tool_error

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


async def test_a_url_httpx_cannot_build_is_a_client_error_and_nothing_is_sent(status_server: Any) -> None:
    # The tool's schema caps scopeValue; the client still never lets httpx.InvalidURL (not an
    # httpx.HTTPError) escape as a crash, whatever a caller passes it.
    async with open_client(StringsAdminSettings(host=status_server.url), environ={}) as client:
        with pytest.raises(UnsendableURL) as caught:
            await client.create_key("x" * 100_000, "k", "v", should_translate=False)
    assert (caught.value.method, caught.value.route) == ("POST", "keys/{scopeValue}")
    assert "x" * 100 not in str(caught.value)
    assert status_server.seen == []


@pytest.mark.parametrize(("tool", "code"), [(CREATE_KEY, "invalid_request"), (GET_SCOPES, "internal_error")])
def test_an_unsendable_url_maps_to_the_prd_codes(tool: str, code: str) -> None:
    # create: scopeValue is the only caller-supplied part of the URL, so it is the caller's to fix;
    # get_scopes takes no arguments, so its URL is the configuration's.
    error = to_tool_error(UnsendableURL("POST", "keys/{scopeValue}"), tool=tool)
    assert error.code == code and "nothing was sent" in error.message
