"""`parlance.testing` as pack authors use it: the pytest fixture and loading by entry-point name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.host.packs_for_tests import SOURCES

pytestmark = pytest.mark.anyio


async def test_fixture_connects_a_pack(parlance_connect) -> None:
    from tests.host.packs_for_tests import CorePack

    async with parlance_connect({"core": CorePack()}, mode="legacy") as client:
        result = await client.call_tool("echo", {"text": "fixture"})
    assert result.structured_content == {"echoed": "fixture"}


async def test_connect_by_entry_point_name(fake_dists, parlance_connect) -> None:
    fake_dists("printer", SOURCES["printer"])
    async with parlance_connect(["printer"]) as client:
        result = await client.call_tool("shout", {"text": "ep"})
    assert result.structured_content == {"text": "EP"}
    with pytest.raises(LookupError, match="not installed"):
        async with parlance_connect(["no_such_pack"]):
            pass


TYPED_TEST_KIT = """
    from __future__ import annotations

    from mcp import Client, StdioServerParameters
    from typing_extensions import assert_type

    from parlance.testing import connect, stdio_server_params


    async def uses_the_kit() -> None:
        async with connect({"hello": object()}, config={"packs": {"hello": {"punctuation": "!"}}}) as client:
            assert_type(client, Client)
        assert_type(stdio_server_params("parlance.toml"), StdioServerParameters)
"""


def test_the_kit_is_typed_for_a_strict_type_checker(tmp_path: Path) -> None:
    from tests.host.test_tool_context_types import run_mypy

    assert run_mypy(tmp_path, TYPED_TEST_KIT) == (0, "")
