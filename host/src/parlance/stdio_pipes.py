"""MCP's stdio framing over the process's stdin and stdout, read and written by the event loop itself.

The SDK's `stdio_server()` reads and writes through `anyio.wrap_file`: each line read and each
reply written is a hop to a worker thread and back, 0.4-0.5 ms of every round trip measured on
the bare SDK server (bench/i18n_stdio.py). When stdin and stdout are pipes or sockets, as they are
whenever a client spawns the server, `wire_streams()` serves them from non-blocking pipes on the
asyncio loop instead. A terminal, a redirected file or one socket used both ways is read by a
thread that feeds the same reader and written with plain blocking writes, so every line, however
it arrives, is read by one parser (`parlance.wire`). Only where asyncio cannot serve at all
(Windows, trio) does `usable()` say no and the SDK's transport serve.

Like the SDK's transport, it keeps the wire private while it serves: fd 0 reads the null device
and fd 1 writes to stderr, so a pack or a child process can neither steal requests nor corrupt
replies; both are restored on exit.

Stopping: at the end of input, at SIGTERM or SIGINT, reading stops and the requests already read
are answered (within `answer_limit_s`, `[host] shutdown_grace_s`) before the read stream ends, so the server exits its pack
lifespans on the way out; a second signal stops at once. When the client closes stdout, serving
stops within a moment, whether or not a reply was due.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

from parlance.wire import Unreadable, parse_line, valid_id

__all__ = ["ANSWER_LIMIT_S", "MAX_MESSAGE_BYTES", "InFlight", "read_messages", "usable", "wire_streams"]

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The longest line read as a message. A longer one is skipped and answered with an error."""
ANSWER_LIMIT_S = 10.0
"""After the end of input or a stop signal, how long requests already read may take to be answered,
unless the caller says otherwise."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

Streams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]


def too_large() -> Unreadable:
    limit_mib = MAX_MESSAGE_BYTES // (1024 * 1024)
    return Unreadable(None, INVALID_REQUEST, f"Invalid Request: the message is longer than the {limit_mib} MiB "
                                             "this server reads")


def usable() -> bool:
    """Whether the running event loop can serve stdin and stdout (asyncio on a POSIX system)."""
    if sys.platform == "win32":
        return False  # anonymous pipes there cannot be read asynchronously, nor fds diverted with fcntl
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another async library (trio) is running
        return False
    try:
        os.fstat(0), os.fstat(1)
    except OSError:
        return False
    return True


def _served_by_the_loop() -> tuple[bool, bool]:
    """(stdin, stdout): whether asyncio's pipe transports can take each descriptor."""
    stdin, stdout = os.fstat(0), os.fstat(1)
    if (stdin.st_dev, stdin.st_ino) == (stdout.st_dev, stdout.st_ino):
        # One socket both ways (inetd, socat EXEC:): asyncio's write side takes any readable event
        # on its descriptor, i.e. the next request, for the client hanging up.
        return False, False
    return tuple(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)  # type: ignore[return-value]
                 for mode in (stdin.st_mode, stdout.st_mode))


@contextlib.asynccontextmanager
async def wire_streams(answer_limit_s: float = ANSWER_LIMIT_S) -> AsyncIterator[Streams]:
    """(read stream, write stream) for `Server.run`, over fds 0 and 1. Check `usable()` first.

    At the end of input (or a stop signal) the read stream stays open until every request read
    has been answered (up to `answer_limit_s`), so a client that writes its requests and closes
    stdin gets every answer. On the way out, replies already written reach the client however
    slowly it reads (as with the SDK's transport; MCP's shutdown has the client kill a server it
    no longer wants). When the client closes stdout, serving stops.
    """
    loop = asyncio.get_running_loop()
    pipe_in, pipe_out = _served_by_the_loop()
    blocking = {fd: os.get_blocking(fd) for fd in (0, 1)}  # the loop makes the pipes non-blocking
    wires: dict[int, int] = {}  # fd -> private copy of its wire, to point it back on exit
    transports: list[asyncio.BaseTransport] = []
    wire = _Wire()
    signals: list[signal.Signals] = []
    write_pipe_open = False
    try:
        for fd in (0, 1):
            wires[fd] = _private_copy(fd)
        _divert(0, os.open(os.devnull, os.O_RDONLY))
        _divert(1, os.dup(2))
        reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES)
        if pipe_in:
            read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                             os.fdopen(_private_copy(wires[0]), "rb", buffering=0))
            transports.append(read_transport)
        else:
            _feed_from_thread(loop, reader, _private_copy(wires[0]))
        write_transport: Any
        if pipe_out:
            write_transport, _ = await loop.connect_write_pipe(lambda: wire,
                                                               os.fdopen(_private_copy(wires[1]), "wb", buffering=0))
            transports.append(write_transport)
            write_pipe_open = True
        else:
            write_transport = _BlockingWriter(_private_copy(wires[1]), wire)
        incoming_send, incoming = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outgoing, outgoing_receive = anyio.create_memory_object_stream[SessionMessage](0)
        in_flight = InFlight()
        reading = anyio.CancelScope()
        written = anyio.Event()
        async with anyio.create_task_group() as tasks:
            signals = _on_stop_signals(loop, reading, tasks.cancel_scope)
            tasks.start_soon(read_messages, reader, incoming_send, in_flight, reading, answer_limit_s)
            tasks.start_soon(_write_messages, outgoing_receive, write_transport, wire, in_flight, written,
                             tasks.cancel_scope.cancel)
            tasks.start_soon(_notice_client_gone, wire, tasks.cancel_scope.cancel)
            try:
                yield incoming, outgoing
            finally:
                outgoing.close()  # the writer sends what is queued, then ends (or finds the client gone)
                with anyio.CancelScope(shield=True):
                    await written.wait()
                tasks.cancel_scope.cancel()  # stop reading: the server is done, though stdin may be open
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)
        for transport in transports:
            transport.close()  # the write side closes once its buffered replies are out
        if write_pipe_open:
            with anyio.CancelScope(shield=True):  # until the client has read it all, or is gone
                await wire.closed.wait()
        for fd, wire_fd in wires.items():
            with contextlib.suppress(OSError):
                os.dup2(wire_fd, fd)
                os.set_blocking(fd, blocking[fd])
            os.close(wire_fd)


def _on_stop_signals(loop: asyncio.AbstractEventLoop, reading: anyio.CancelScope,
                     everything: anyio.CancelScope) -> list[signal.Signals]:
    """SIGTERM and SIGINT stop reading (the requests read are still answered); a second one stops all."""

    def stop(signum: signal.Signals) -> None:
        if reading.cancel_called:
            logger.warning("stdio.stopping_now", extra={"signal": signum.name})
            everything.cancel()
        else:
            logger.info("stdio.stopping", extra={"signal": signum.name})
            reading.cancel()

    installed = []
    for signum in STOP_SIGNALS:
        if threading.current_thread() is not threading.main_thread():
            break  # signal handlers belong to the main thread (an embedding test may serve elsewhere)
        loop.add_signal_handler(signum, stop, signum)
        installed.append(signum)
    return installed


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


class _BlockingWriter:
    """The write side for a terminal, a file or a socket also read from: plain blocking writes."""

    def __init__(self, fd: int, wire: _Wire) -> None:
        self._fd = fd
        self._wire = wire

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
        except OSError as exc:  # the reader is gone (EPIPE) or the disk is full: no reply can arrive
            self._wire.connection_lost(exc)


def _feed_from_thread(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader, fd: int) -> None:
    """Read `fd` (blocking) in a daemon thread and feed `reader` on the loop; the fd stays open.

    The reader pauses the thread as it would a transport (past twice its limit unread), so a file or
    a peer faster than the server is not buffered whole. The thread may still be blocked in read()
    when serving ends (a terminal nobody types into), so its descriptor is never closed under it,
    and the thread never keeps the process alive.
    """
    flow = _ThreadFlow()
    reader.set_transport(flow)  # type: ignore[arg-type]  # StreamReader uses only pause/resume_reading

    def feed() -> None:
        try:
            while True:
                flow.resumed.wait()
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                flow.resumed.clear()  # until the loop has taken it (and is not pausing us)
                loop.call_soon_threadsafe(_hand_over, reader, flow, chunk)
        except (OSError, RuntimeError):  # the descriptor failed, or the loop is closed: serving has ended
            pass
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=feed, name="parlance-stdin", daemon=True).start()


class _ThreadFlow:
    """Flow control between a reading thread and the StreamReader it feeds."""

    def __init__(self) -> None:
        self.resumed = threading.Event()
        self.resumed.set()
        self.paused = False

    def pause_reading(self) -> None:  # called by the reader, on the loop, when too much is unread
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False
        self.resumed.set()


def _hand_over(reader: asyncio.StreamReader, flow: _ThreadFlow, chunk: bytes) -> None:
    reader.feed_data(chunk)
    if not flow.paused:
        flow.resumed.set()


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
                        in_flight: InFlight | None = None, reading: anyio.CancelScope | None = None,
                        answer_limit_s: float = ANSWER_LIMIT_S) -> None:
    """Parse each line from `reader` into a JSON-RPC message and send it, until end of input.

    A line that is not a message is sent as the `Unreadable` that answers it, for the server's
    read stream to answer. Blank lines are skipped. Cancelling `reading` stops reading as the end
    of input does. With `in_flight`, the read stream ends only once the requests read have been
    answered (or `answer_limit_s` has passed): the server stops serving when its read stream ends,
    and would cancel them.
    """
    async with send:
        with reading or anyio.CancelScope():
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as end:  # end of input; a last line may lack its newline
                    if end.partial.strip():
                        await _send(send, _parse(end.partial), in_flight)
                    break
                except asyncio.LimitOverrunError:
                    await _skip_line(reader)
                    await send.send(too_large())
                    continue
                if line.strip():
                    await _send(send, _parse(line), in_flight)
        if in_flight is not None:
            with anyio.move_on_after(answer_limit_s):
                await in_flight.settled()


async def _send(send: MemoryObjectSendStream[SessionMessage | Exception], item: SessionMessage | Exception,
                in_flight: InFlight | None) -> None:
    if in_flight is not None and isinstance(item, SessionMessage):
        in_flight.read(item.message)
    await send.send(item)


def _parse(line: bytes) -> SessionMessage | Unreadable:
    parsed = parse_line(line)
    return parsed if isinstance(parsed, Unreadable) else SessionMessage(parsed)


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
                    _client_gone(stop)
                    return
                data = _encode(message.message)
                transport.write(data)  # written at once when the pipe has room: no thread, no await
                in_flight.written(message.message)
                if not wire.writable.is_set():
                    await wire.writable.wait()
    finally:
        written.set()


def _encode(message: Any) -> bytes:
    """One reply as a line. A reply that cannot be encoded (text no UTF-8 can carry) is replaced by an
    error to the same request: the serializer's failure must not end the server."""
    try:
        line: str = message.model_dump_json(by_alias=True, exclude_unset=True)
        return line.encode() + b"\n"
    except Exception:  # noqa: BLE001 - pydantic's serialization errors, and anything else
        logger.warning("stdio.unencodable_reply")
        request_id = getattr(message, "id", None)
        error = ErrorData(code=INTERNAL_ERROR, message="Internal error: the reply could not be encoded as UTF-8 JSON")
        return _encode(JSONRPCError(jsonrpc="2.0", id=request_id if valid_id(request_id) else None, error=error))


async def _notice_client_gone(wire: _Wire, stop: Callable[[], Any]) -> None:
    """Stop serving as soon as the client closes stdout, even while no reply is due."""
    await wire.closed.wait()
    _client_gone(stop)


def _client_gone(stop: Callable[[], Any]) -> None:
    # The client stopped reading our stdout: no answer can reach it, so stop serving.
    logger.warning("stdio.client_gone")
    stop()


def _private_copy(fd: int) -> int:
    """A close-on-exec duplicate of `fd` above the standard range, so no child inherits the wire."""
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


def _divert(fd: int, replacement: int) -> None:
    os.dup2(replacement, fd)
    os.close(replacement)
