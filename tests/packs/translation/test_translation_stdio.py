"""The pack behind `parlance serve` in a real subprocess over stdio (both eras), plus progress reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params

pytestmark = pytest.mark.anyio

MEETING_BLOCK = (
    "Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
    "Thomas: Yes — I'll have it ready by Wednesday.\n"
    "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "Priya: We can circle back on that next week.\n"
)


def long_transcript(size: int) -> str:
    return (MEETING_BLOCK * (size // len(MEETING_BLOCK) + 1))[:size]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_end_to_end(mode: str, tmp_path: Path, contract_check) -> None:
    config = tmp_path / "parlance.toml"
    config.write_text('[packs]\nenabled = ["translation"]\n\n[packs.translation]\nmode = "baseline"\n')
    transport_errors: list[Exception] = []
    progress: list[tuple[float, float | None]] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            transport_errors.append(message)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    with anyio.fail_after(40), open(tmp_path / "stderr.log", "w+") as errlog:
        params = stdio_server_params(config, cwd=tmp_path)
        async with Client(stdio_client(params, errlog=errlog), mode=mode, message_handler=on_message) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            brief = await client.call_tool("brief_meeting", {"transcript": long_transcript(30_000), "me": "Thomas"},
                                           progress_callback=on_progress)
            tone = await client.call_tool("check_tone", {"text": "Fix it now!! 😠", "target_register": "warm"})
            missing = await client.call_tool("rewrite_outgoing", {"text": "hello"})
        errlog.seek(0)
        log = errlog.read()
    assert names == {"translate_incoming", "check_tone", "rewrite_outgoing", "brief_meeting"}
    assert brief.is_error is False
    contract_check("brief_meeting", brief.structured_content)
    assert len(brief.structured_content["my_asks"]) == 50
    assert brief.meta["parlance/translation"]["truncated"]
    contract_check("check_tone", tone.structured_content)
    assert missing.structured_content["code"] == "TARGET_REGISTER_REQUIRED"
    if mode == "legacy":  # the in-process and stdio 2026-07-28 paths carry no progress token
        assert [done for done, _ in progress] == [0, 1, 2, 3]
    assert transport_errors == []
    assert "Thomas, can you own" not in log  # the transcript never reaches the server's log


async def test_progress_on_long_transcripts_only(translation_client, mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with translation_client() as client:
        await client.call_tool("brief_meeting", {"transcript": long_transcript(5_000), "me": "Thomas"},
                               progress_callback=on_progress)
        short_calls = len(seen)
        await client.call_tool("brief_meeting", {"transcript": long_transcript(25_000), "me": "Thomas"},
                               progress_callback=on_progress)
    assert short_calls == 0
    if mode == "legacy":
        assert [(done, total) for done, total, _ in seen] == [(0, 3), (1, 3), (2, 3), (3, 3)]
