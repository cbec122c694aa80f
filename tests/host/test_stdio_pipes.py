"""Line framing of Parlance's stdio transport, fed through a real asyncio.StreamReader.

The transport end to end (pipes, fd diversion, the SDK fallback) is tested through `parlance serve`
subprocesses in test_stdio.py; here the framing's edges are driven byte by byte.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import pytest
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCResponse

from parlance._transport.stdio_pipes import InFlight, MessageReader
from parlance._transport.wire import Unreadable

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # the transport is asyncio's own pipes


def _ping(request_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode()


async def _framed(chunks: list[bytes], limit: int = 1 << 16) -> list[Any]:
    reader = asyncio.StreamReader(limit=limit)
    for chunk in chunks:
        reader.feed_data(chunk)
    reader.feed_eof()
    return [item.message.id if isinstance(item, SessionMessage) else item async for item in MessageReader(reader)]


async def test_lines_split_across_and_within_chunks() -> None:
    wire = _ping(1) + b"\n" + _ping(2) + b"\n" + _ping(3) + b"\n"
    assert await _framed([wire[:7], wire[7:40], wire[40:]]) == [1, 2, 3]


async def test_blank_lines_are_skipped_and_a_last_line_needs_no_newline() -> None:
    assert await _framed([b"\n  \r\n" + _ping(1) + b"\r\n\n" + _ping(2)]) == [1, 2]


async def test_an_oversized_line_is_skipped_whole_and_reported() -> None:
    huge = b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"' + b"x" * 500 + b'"}}'
    items = await _framed([_ping(1) + b"\n" + huge[:100], huge[100:] + b"\n" + _ping(2) + b"\n"], limit=64)
    assert [type(i).__name__ if isinstance(i, Exception) else i for i in items] == [1, "Unreadable", 2]
    assert items[1].request_id is None and "MiB" in items[1].message


async def test_an_oversized_last_line_ends_the_input_cleanly() -> None:
    items = await _framed([_ping(1) + b"\n" + b"x" * 300], limit=64)
    assert items[0] == 1 and isinstance(items[1], Unreadable) and len(items) == 2


async def test_not_utf8_is_a_parse_error_that_keeps_the_id() -> None:
    [item] = await _framed(['{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"é"}}\n'.encode("latin-1")])
    assert isinstance(item, Unreadable)
    assert (item.request_id, item.code) == (4, -32700) and "UTF-8" in item.message


async def test_lines_that_are_not_jsonrpc_are_handed_on_with_their_answers() -> None:
    [not_json, not_rpc] = await _framed([b"{oops\n", b'{"no": "jsonrpc"}\n'])
    assert isinstance(not_json, Unreadable) and (not_json.request_id, not_json.code) == (None, -32700)
    assert isinstance(not_rpc, Unreadable) and (not_rpc.request_id, not_rpc.code) == (None, -32600)


@pytest.mark.parametrize("settle", ["answered", "cancelled"])
async def test_end_of_input_waits_for_the_requests_read(settle: str) -> None:
    reader = asyncio.StreamReader()
    in_flight = InFlight()
    messages = MessageReader(reader, in_flight)
    reader.feed_data(_ping(7) + b"\n")
    if settle == "cancelled":
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
        reader.feed_data(json.dumps(cancel).encode() + b"\n")
    reader.feed_eof()
    request = await messages.receive()
    assert request.message.id == 7  # type: ignore[union-attr]
    if settle == "cancelled":
        await messages.receive()  # the notification; a cancelled request gets no answer
    else:
        with anyio.move_on_after(0.05) as waited:
            await messages.receive()
        assert waited.cancelled_caught  # still open: waiting for the answer
        in_flight.written(JSONRPCResponse(jsonrpc="2.0", id=7, result={}))
    with anyio.fail_after(2):
        with pytest.raises(anyio.EndOfStream):
            await messages.receive()


async def test_stop_reading_ends_the_stream_once_the_requests_read_are_answered() -> None:
    """A stop signal while the server waits for input: nothing more is read, and the stream ends
    when the request already read has its answer."""
    reader = asyncio.StreamReader()
    in_flight = InFlight()
    messages = MessageReader(reader, in_flight)
    reader.feed_data(_ping(3) + b"\n")
    assert (await messages.receive()).message.id == 3  # type: ignore[union-attr]
    async with anyio.create_task_group() as tasks:
        ended = anyio.Event()

        async def wait_for_the_end() -> None:
            with pytest.raises(anyio.EndOfStream):
                await messages.receive()
            ended.set()

        tasks.start_soon(wait_for_the_end)
        await anyio.sleep(0.02)
        messages.stop_reading()
        reader.feed_data(_ping(4) + b"\n")  # arrives after the stop: never read
        await anyio.sleep(0.05)
        assert not ended.is_set()  # request 3 is not answered yet
        in_flight.written(JSONRPCResponse(jsonrpc="2.0", id=3, result={}))
        with anyio.fail_after(2):
            await ended.wait()


async def test_a_thread_fed_reader_pauses_the_thread_instead_of_buffering_everything() -> None:
    """A file or a terminal is read by a thread; a writer faster than the server must not fill memory."""
    import os
    import threading

    from parlance._transport.stdio_pipes import _feed_from_thread

    read_fd, write_fd = os.pipe()
    line = _ping(1) + b"\n"
    total = 4000 * len(line)  # ~170 KB against a reader that pauses at 2 KB unread
    writer = threading.Thread(target=lambda: (os.write(write_fd, line * 4000), os.close(write_fd)), daemon=True)
    writer.start()
    reader = asyncio.StreamReader(limit=1024)
    _feed_from_thread(asyncio.get_running_loop(), reader, read_fd)
    await anyio.sleep(0.3)
    assert len(reader._buffer) <= 2 * 1024 + (1 << 16)  # at most one chunk past the pause
    seen = 0
    with anyio.fail_after(10):
        while seen < total:
            seen += len(await reader.readuntil(b"\n"))
    assert seen == total
    os.close(read_fd)


async def test_the_writer_says_once_that_the_client_is_gone(caplog: pytest.LogCaptureFixture) -> None:
    """Every call in flight tries to answer after the client closed stdout: one warning, one stop."""
    from parlance._transport.stdio_pipes import MessageWriter, _Wire

    wire, stops = _Wire(), []
    wire.connection_lost(None)
    writer = MessageWriter(transport=None, wire=wire, in_flight=InFlight(), stop=lambda: stops.append(1))
    for request_id in range(5):
        await writer.send(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result={})))
    await writer.aclose()
    with pytest.raises(anyio.ClosedResourceError):
        await writer.send(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=9, result={})))
    assert stops == [1]
    assert [r.getMessage() for r in caplog.records].count("stdio.client_gone") == 1


async def test_a_subscription_stream_is_not_waited_for_at_the_end_of_input() -> None:
    in_flight = InFlight()
    listen = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {}}).encode()
    reader = asyncio.StreamReader()
    reader.feed_data(listen + b"\n")
    reader.feed_eof()
    ended: list[bool] = []
    messages = MessageReader(reader, in_flight, on_end=lambda: ended.append(True))
    assert (await messages.receive()).message.id == 3  # type: ignore[union-attr]
    with anyio.fail_after(1):
        with pytest.raises(anyio.EndOfStream):
            await messages.receive()
    assert ended == [True]
