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


# Issue item 15: each argument problem gets a message saying what was wrong and the limit, never
# "is required" for a value that was given, nor "longer than 1 to 8000 characters".
ARGUMENT_MESSAGES: list[tuple[str, dict[str, Any], str, str]] = [
    ("brief_meeting", {"transcript": MEETING_BLOCK, "me": "x" * 201},
     "INVALID_ARGUMENTS", "`me` is 201 characters; the limit is 200."),  # the contract has no code for it
    ("brief_meeting", {"transcript": MEETING_BLOCK, "me": ""}, "ME_REQUIRED", "`me` is empty"),
    ("brief_meeting", {"transcript": MEETING_BLOCK, "me": "   "}, "ME_REQUIRED", "`me` is blank"),
    ("brief_meeting", {"transcript": MEETING_BLOCK, "me": 7},
     "ME_REQUIRED", "`me` must be a string of 1 to 200 characters"),
    ("brief_meeting", {"transcript": MEETING_BLOCK}, "ME_REQUIRED", "`me` is required"),
    ("brief_meeting", {"transcript": "a" * 200_001, "me": "Thomas"},
     "TRANSCRIPT_TOO_LONG", "`transcript` is 200001 characters; the limit is 200000."),
    ("brief_meeting", {"transcript": "Priya: hi", "me": "Thomas"},
     "TRANSCRIPT_REQUIRED", "`transcript` is 9 characters; the minimum is 20."),
    ("translate_incoming", {"text": "x" * 8001}, "TEXT_TOO_LONG", "`text` is 8001 characters; the limit is 8000."),
    ("check_tone", {"text": "😀" * 8001}, "TEXT_TOO_LONG", "`text` is 8001 characters; the limit is 8000."),
    ("translate_incoming", {"text": ""}, "TEXT_REQUIRED", "`text` is empty"),
    ("rewrite_outgoing", {"text": 42, "target_register": "warm"},
     "TEXT_REQUIRED", "`text` must be a string of 1 to 8000 characters"),
    ("translate_incoming", {}, "TEXT_REQUIRED", "`text` is required"),
]


async def test_argument_errors_say_what_was_wrong_and_the_limit(tmp_path: Path) -> None:
    config = tmp_path / "parlance.toml"
    config.write_text('[packs]\nenabled = ["translation"]\n\n[packs.translation]\nmode = "baseline"\n')
    with anyio.fail_after(40), open(tmp_path / "stderr.log", "w+") as errlog:
        async with Client(stdio_client(stdio_server_params(config, cwd=tmp_path), errlog=errlog)) as client:
            results = [await client.call_tool(tool, arguments) for tool, arguments, _, _ in ARGUMENT_MESSAGES]
    for (tool, arguments, code, sentence), result in zip(ARGUMENT_MESSAGES, results, strict=True):
        error = result.structured_content
        assert result.is_error and error["code"] == code, (tool, arguments.keys(), error)
        assert error["error"].startswith(sentence), error["error"]
        assert "is required" not in error["error"] or "is required" in sentence, error["error"]
        assert " than 1 to " not in error["error"] and " than 20 to " not in error["error"]
        if code == "INVALID_ARGUMENTS":  # the host's data shape for its own code
            assert [(p["field"], p["kind"]) for p in error["data"]["problems"]] == [("me", "string_too_long")]
