"""MCP's stdio framing over the process's pipes, read and written by the event loop itself.

The SDK's `stdio_server()` reads and writes through `anyio.wrap_file`: each line read and each
reply written is a hop to a worker thread and back, 0.4-0.5 ms of every round trip measured on
the bare SDK server (bench/i18n_stdio.py). When stdin and stdout are pipes or sockets, as they are
whenever a client spawns the server, `pipe_streams()` serves the same streams from non-blocking
pipes on the asyncio loop instead. Everywhere else (a terminal, a redirected file, one socket used
both ways, Windows, trio) `usable()` says no and the SDK's transport serves.

Like the SDK's transport, it keeps the wire private while it serves: fd 0 reads the null device
and fd 1 writes to stderr, so a pack or a child process can neither steal requests nor corrupt
replies; both are restored on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, jsonrpc_message_adapter

__all__ = ["MAX_MESSAGE_BYTES", "InFlight", "MessageTooLarge", "NotUtf8", "pipe_streams", "read_messages", "usable"]

logger = logging.getLogger(__name__)

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
        stdin, stdout = os.fstat(0), os.fstat(1)
    except OSError:
        return False
    if (stdin.st_dev, stdin.st_ino) == (stdout.st_dev, stdout.st_ino):
        # One socket both ways (inetd, socat EXEC:): asyncio's write side takes any readable event
        # on its descriptor, i.e. the next request, for the client hanging up.
        return False
    return all(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) for mode in (stdin.st_mode, stdout.st_mode))


@contextlib.asynccontextmanager
async def pipe_streams() -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception],
                                                MemoryObjectSendStream[SessionMessage]]]:
    """(read stream, write stream) for `Server.run`, over fds 0 and 1. Check `usable()` first.

    At the end of input the read stream stays open until every request read has been answered
    (up to ANSWER_LIMIT_S), so a client that writes its requests and closes stdin gets every
    answer. On the way out, replies already written reach the client however slowly it reads
    (as with the SDK's transport; MCP's shutdown has the client kill a server it no longer
    wants). When the client closes stdout, serving stops.
    """
    loop = asyncio.get_running_loop()
    blocking = {fd: os.get_blocking(fd) for fd in (0, 1)}  # the loop makes the pipes non-blocking
    wires: dict[int, int] = {}  # fd -> private copy of its wire, to point it back on exit
    transports: list[asyncio.BaseTransport] = []
    wire = _Wire()
    try:
        for fd in (0, 1):
            wires[fd] = _private_copy(fd)
        _divert(0, os.open(os.devnull, os.O_RDONLY))
        _divert(1, os.dup(2))
        reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES)
        read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                         os.fdopen(_private_copy(wires[0]), "rb", buffering=0))
        transports.append(read_transport)
        write_transport, _ = await loop.connect_write_pipe(lambda: wire,
                                                           os.fdopen(_private_copy(wires[1]), "wb", buffering=0))
        transports.append(write_transport)
        incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)
        in_flight = InFlight()
        written = anyio.Event()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_messages, reader, incoming_send, in_flight)
            tasks.start_soon(_write_messages, outgoing_receive, write_transport, wire, in_flight, written,
                             tasks.cancel_scope.cancel)
            try:
                yield incoming, outgoing
            finally:
                outgoing.close()  # the writer sends what is queued, then ends (or finds the client gone)
                with anyio.CancelScope(shield=True):
                    await written.wait()
                tasks.cancel_scope.cancel()  # stop reading: the server is done, though stdin may be open
    finally:
        for transport in transports:
            transport.close()  # the write side closes once its buffered replies are out
        if len(transports) == 2:
            with anyio.CancelScope(shield=True):  # until the client has read it all, or is gone
                await wire.closed.wait()
        for fd, wire_fd in wires.items():
            with contextlib.suppress(OSError):
                os.dup2(wire_fd, fd)
                os.set_blocking(fd, blocking[fd])
            os.close(wire_fd)


ANSWER_LIMIT_S = 10.0
"""After the end of input, how long requests already read may take to be answered."""


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


class InFlight:
    """The ids of requests read and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[int | str] = set()
        self._settled = anyio.Event()
        self._settled.set()

    def read(self, message: Any) -> None:
        if isinstance(message, JSONRPCRequest):
            if self._settled.is_set():
                self._settled = anyio.Event()
            self._ids.add(message.id)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            # A cancelled request gets no answer (the MCP spec); do not wait for one.
            self._answered((message.params or {}).get("requestId"))

    def written(self, message: Any) -> None:
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            self._answered(message.id)

    def _answered(self, request_id: Any) -> None:
        self._ids.discard(request_id)
        if not self._ids:
            self._settled.set()

    async def settled(self) -> None:
        """Wait until every request read so far has been answered."""
        await self._settled.wait()


async def read_messages(reader: asyncio.StreamReader, send: MemoryObjectSendStream[SessionMessage | Exception],
                        in_flight: InFlight | None = None) -> None:
    """Parse each line from `reader` into a JSON-RPC message and send it, until end of input.

    A line that cannot be parsed is sent as the exception saying why, as the SDK's transport does,
    for the server to answer. Blank lines are skipped. With `in_flight`, the end of input closes
    `send` only once the requests read have been answered (or ANSWER_LIMIT_S has passed): the
    server stops serving when its read stream ends, and would cancel them.
    """
    async with send:
        while True:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:  # end of input; a last line may lack its newline
                if end.partial.strip():
                    await _send(send, _parse(end.partial), in_flight)
                break
            except asyncio.LimitOverrunError:
                await _skip_line(reader)
                await send.send(MessageTooLarge(f"a message longer than {MAX_MESSAGE_BYTES} bytes"))
                continue
            if line.strip():
                await _send(send, _parse(line), in_flight)
        if in_flight is not None:
            with anyio.move_on_after(ANSWER_LIMIT_S):
                await in_flight.settled()


async def _send(send: MemoryObjectSendStream[SessionMessage | Exception], item: SessionMessage | Exception,
                in_flight: InFlight | None) -> None:
    if in_flight is not None and isinstance(item, SessionMessage):
        in_flight.read(item.message)
    await send.send(item)


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
                          in_flight: InFlight, written: anyio.Event, stop: Callable[[], Any]) -> None:
    try:
        async with receive:
            async for message in receive:
                if wire.lost is not None:
                    # The client stopped reading our stdout: no answer can reach it, so stop serving.
                    logger.warning("stdio.client_gone")
                    stop()
                    return
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                transport.write(data)  # written at once when the pipe has room: no thread, no await
                in_flight.written(message.message)
                if not wire.writable.is_set():
                    await wire.writable.wait()
    finally:
        written.set()


def _private_copy(fd: int) -> int:
    """A close-on-exec duplicate of `fd` above the standard range, so no child inherits the wire."""
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


def _divert(fd: int, replacement: int) -> None:
    os.dup2(replacement, fd)
    os.close(replacement)
