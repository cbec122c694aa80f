"""Log messages and progress sent during a call.

Logging differs by era: on 2025-11-25 the session's level (`logging/setLevel`, default info)
filters what the client hears; on 2026-07-28 nothing is sent unless the request opts in with a
level (`Client(log_level=...)` stamps it on every request).
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp.types import LoggingMessageNotificationParams, ProgressNotification

from conformance_checks import text_of

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")]

EVERY_LEVEL = ["debug", "info", "warning", "error"]


class LogRecorder:
    """A `logging_callback` that keeps (level, logger, data) of every message, in arrival order."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str | None, Any]] = []

    async def __call__(self, params: LoggingMessageNotificationParams) -> None:
        self.messages.append((params.level, params.logger, params.data))

    @property
    def levels(self) -> list[str]:
        return [level for level, _, _ in self.messages]


async def test_tool_with_logging_sends_three_info_messages_in_order(conformance: Any, mode: str) -> None:
    logs = LogRecorder()
    opt_in = {"log_level": "info"} if mode == "auto" else {}
    async with conformance(mode, logging_callback=logs, **opt_in) as client:
        result = await client.call_tool("test_tool_with_logging", {})
    assert text_of(result) == "Tool with logging executed successfully"
    assert logs.messages == [
        ("info", "conformance", "Tool execution started"),
        ("info", "conformance", {"message": "Tool processing data", "data": {"step": 2}}),
        ("info", "conformance", "Tool execution completed"),
    ]


# --- 2025-11-25: the session's level ------------------------------------------------------------------

@pytest.mark.parametrize(("level", "heard"), [
    (None, ["info", "warning", "error"]),  # no logging/setLevel: the server's default, info
    ("warning", ["warning", "error"]),
    ("debug", EVERY_LEVEL),
    ("error", ["error"]),
])
async def test_legacy_set_level_filters_the_logging_tool(conformance: Any, level: str | None,
                                                         heard: list[str]) -> None:
    logs = LogRecorder()
    async with conformance("legacy", logging_callback=logs) as client:
        if level is not None:
            await client.set_logging_level(level)
        await client.call_tool("test_logging_tool", {})
    assert logs.levels == heard
    assert [data for _, _, data in logs.messages] == [f"a {lvl} message" for lvl in heard]
    assert {logger for _, logger, _ in logs.messages} == {"conformance"}


async def test_legacy_level_holds_for_later_calls_in_the_session(conformance: Any) -> None:
    logs = LogRecorder()
    async with conformance("legacy", logging_callback=logs) as client:
        await client.set_logging_level("warning")
        await client.call_tool("test_tool_with_logging", {})  # info only: filtered out
        await client.call_tool("test_logging_tool", {})
    assert logs.levels == ["warning", "error"]


# --- 2026-07-28: the request's opt-in -----------------------------------------------------------------

async def test_modern_without_opt_in_sends_nothing(conformance: Any) -> None:
    logs = LogRecorder()
    async with conformance("auto", logging_callback=logs) as client:
        await client.call_tool("test_tool_with_logging", {})
        result = await client.call_tool("test_logging_tool", {})
    assert text_of(result) == "Logged at debug, info, warning and error"
    assert logs.messages == []


@pytest.mark.parametrize(("level", "heard"), [("warning", ["warning", "error"]), ("debug", EVERY_LEVEL)])
async def test_modern_opt_in_level_filters_the_logging_tool(conformance: Any, level: str,
                                                            heard: list[str]) -> None:
    logs = LogRecorder()
    async with conformance("auto", logging_callback=logs, log_level=level) as client:
        await client.call_tool("test_logging_tool", {})
    assert logs.levels == heard
    assert {logger for _, logger, _ in logs.messages} == {"conformance"}


# --- progress -------------------------------------------------------------------------------------------

async def test_progress_reaches_the_callback(conformance: Any, mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with conformance(mode) as client:
        result = await client.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
    assert text_of(result) == "Tool with progress completed"
    assert seen == [(0, 100, "0% done"), (50, 100, "50% done"), (100, 100, "100% done")]


async def test_legacy_sends_no_progress_unless_the_call_asks(conformance: Any) -> None:
    # Only the handshake era tees progress to `message_handler`, which is what makes this observable.
    notifications: list[Any] = []

    async def on_message(message: Any) -> None:
        notifications.append(message)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        pass

    async with conformance("legacy", message_handler=on_message) as client:
        await client.call_tool("test_tool_with_progress", {})
        await client.list_tools()  # one more round trip: any stray notification has arrived by now
        unasked = [n for n in notifications if isinstance(n, ProgressNotification)]
        await client.call_tool("test_tool_with_progress", {}, progress_callback=on_progress)
        await client.list_tools()
        asked = [n for n in notifications if isinstance(n, ProgressNotification)]
    assert unasked == []
    assert [n.params.progress for n in asked] == [0, 50, 100]
