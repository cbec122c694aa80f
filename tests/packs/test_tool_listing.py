"""What every first-party tool shows a client in tools/list: the model reads this to pick a tool."""

from __future__ import annotations

import pytest

from parlance.testing import connect

pytestmark = pytest.mark.anyio


async def test_every_first_party_tool_has_a_title_and_a_description(mode: str) -> None:
    async with connect(["i18n", "translation", "strings_admin"], mode=mode) as client:
        tools = (await client.list_tools()).tools
    assert len(tools) == 10
    undescribed = [tool.name for tool in tools if not (tool.description or "").strip() or not tool.title]
    assert undescribed == []
