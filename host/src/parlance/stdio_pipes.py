"""MCP's stdio framing over the process's pipes, read and written by the event loop itself.

The SDK's `stdio_server()` reads and writes through `anyio.wrap_file`: each line read and each
reply written is a hop to a worker thread and back, about 0.4 ms of every round trip measured on
the bare SDK server (bench/i18n_stdio.py). When stdin and stdout are pipes or sockets, as they are
whenever a client spawns the server, `pipe_streams()` serves the same streams from non-blocking
pipes on the asyncio loop instead. Everywhere else (a terminal, a redirected file, Windows, trio)
`usable()` says no and the SDK's transport serves.

Like the SDK's transport, it keeps the wire private while it serves: fd 0 reads the null device
and fd 1 writes to stderr, so a pack or a child process can neither steal requests nor corrupt
replies; both are restored on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp.types import jsonrpc_message_adapter

__all__ = ["MAX_MESSAGE_BYTES", "MessageTooLarge", "NotUtf8", "pipe_streams", "read_messages", "usable"]

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The longest line read as a message. A longer one is skipped and answered with an error."""


class MessageTooLarge(ValueError):
    """A line longer than MAX_MESSAGE_BYTES: skipped without being parsed."""


class NotUtf8(ValueError):
    """A line that is not UTF-8. `text` is it decoded with replacement characters, to find its id."""

    def __init__(self, text: str) -> None:
        super().__init__("the line is not valid UTF-8")
        self.text = text


def usable() -> bool:
    """Whether stdin and stdout are pipes or sockets the running asyncio loop can serve."""
    if sys.platform == "win32":
        return False  # anonymous pipes there cannot be read asynchronously
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another async library (trio) is running
        return False
    try:
        return all(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) for mode in (os.fstat(0).st_mode, os.fstat(1).st_mode))
    except OSError:
        return False


@contextlib.asynccontextmanager
async def pipe_streams() -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception],
                                                MemoryObjectSendStream[SessionMessage]]]:
    """(read stream, write stream) for `Server.run`, over fds 0 and 1. Check `usable()` first."""
    loop = asyncio.get_running_loop()
    wire_in, wire_out = _private_copy(0), _private_copy(1)  # kept to point fds 0 and 1 back at the wire
    _divert(0, os.open(os.devnull, os.O_RDONLY))
    _divert(1, os.dup(2))
    transports: list[asyncio.BaseTransport] = []
    wire = _Wire()
    try:
        reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES)
        read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                         os.fdopen(_private_copy(wire_in), "rb", buffering=0))
        transports.append(read_transport)
        write_transport, _ = await loop.connect_write_pipe(lambda: wire,
                                                           os.fdopen(_private_copy(wire_out), "wb", buffering=0))
        transports.append(write_transport)
        incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)
        written = anyio.Event()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_messages, reader, incoming_send)
            tasks.start_soon(_write_messages, outgoing_receive, write_transport, wire, written)
            try:
                yield incoming, outgoing
            finally:
                outgoing.close()  # the writer sends what is queued, then ends
                with anyio.move_on_after(5, shield=True):
                    await written.wait()
                tasks.cancel_scope.cancel()  # stop reading: the server is done, though stdin may be open
    finally:
        for transport in transports:
            transport.close()  # the write side closes after its buffered replies are out
        if len(transports) == 2:
            with anyio.move_on_after(5, shield=True):
                await wire.closed.wait()
        for fd, wire_fd in ((0, wire_in), (1, wire_out)):
            with contextlib.suppress(OSError):
                os.dup2(wire_fd, fd)
                os.set_blocking(fd, True)  # the pipe was non-blocking for the loop; its other holders expect not
            os.close(wire_fd)


def _private_copy(fd: int) -> int:
    """A close-on-exec duplicate of `fd` above the standard range, so no child inherits the wire."""
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


def _divert(fd: int, replacement: int) -> None:
    os.dup2(replacement, fd)
    os.close(replacement)


class _Wire(asyncio.Protocol):
    """The write side's flow control: waits while the client is not reading."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed = anyio.Event()
        self.lost: Exception | None = None

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or BrokenPipeError("the client closed the server's stdout")
        self.writable.set()
        self.closed.set()


async def read_messages(reader: asyncio.StreamReader, send: MemoryObjectSendStream[SessionMessage | Exception],
                        ) -> None:
    """Parse each line from `reader` into a JSON-RPC message and send it, until end of input.

    A line that cannot be parsed is sent as the exception saying why, as the SDK's transport does,
    for the server to answer. Blank lines are skipped.
    """
    async with send:
        while True:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:  # end of input; a last line may lack its newline
                if end.partial.strip():
                    await send.send(_parse(end.partial))
                return
            except asyncio.LimitOverrunError:
                await _skip_line(reader)
                await send.send(MessageTooLarge(f"a message longer than {MAX_MESSAGE_BYTES} bytes"))
                continue
            if line.strip():
                await send.send(_parse(line))


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return NotUtf8(line.decode("utf-8", "replace"))
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception as exc:  # the SDK's transport hands these on the same way
        return exc


async def _skip_line(reader: asyncio.StreamReader) -> None:
    """Discard the rest of an over-long line, through its newline (or the end of input)."""
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as over:
            await reader.readexactly(over.consumed)
        except asyncio.IncompleteReadError:
            return


async def _write_messages(receive: MemoryObjectReceiveStream[SessionMessage], transport: Any, wire: _Wire,
                          written: anyio.Event) -> None:
    async with receive:
        async for message in receive:
            if wire.lost is not None:
                continue  # the client is gone: nothing can reach it, but the server must not block
            data = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode()
            transport.write(data + b"\n")  # written at once when the pipe has room: no thread, no await
            if not wire.writable.is_set():
                await wire.writable.wait()
    written.set()
