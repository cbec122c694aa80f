"""MCP's stdio framing over the process's stdin and stdout, read and written by the event loop itself.

The SDK's `stdio_server()` reads and writes through `anyio.wrap_file`: each line read and each
reply written is a hop to a worker thread and back, 0.4-0.5 ms of every round trip measured on
the bare SDK server (bench/i18n_stdio.py). When stdin and stdout are pipes or sockets, as they are
whenever a client spawns the server, `wire_streams()` serves them from non-blocking pipes on the
asyncio loop instead. A terminal, a redirected file or one socket used both ways is read by a
thread that feeds the same reader and written with plain blocking writes, so every line, however
it arrives, is read by one parser (`parlance._transport.wire`). Only where asyncio cannot serve at
all (Windows, trio) does `usable()` say no and the SDK's transport serve.

Like the SDK's transport, it keeps the wire private while it serves: fd 0 reads the null device
and fd 1 writes to stderr, so a pack or a child process can neither steal requests nor corrupt
replies; both are restored on exit.

Stopping: at the end of input, at SIGTERM or SIGINT, reading stops and the requests already read
are answered (within `answer_limit_s`, `[host] shutdown_grace_s`) before the read stream ends, so the server exits its pack
lifespans on the way out; a second signal stops at once. When the client closes stdout, serving
stops within a moment, whether or not a reply was due. Given a `StopDeadline` (the CLI's), each of
these also arms it, so the process is gone on time even when a call is stuck in a worker thread.
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

from parlance._transport.stop_deadline import EXIT_UNANSWERED, StopDeadline, on_stop_signals, status_after
from parlance._transport.wire import Unreadable, parse_line, valid_id

__all__ = ["ANSWER_LIMIT_S", "MAX_MESSAGE_BYTES", "InFlight", "MessageReader", "MessageWriter", "usable",
           "wire_streams"]

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The longest line read as a message. A longer one is skipped and answered with an error."""
ANSWER_LIMIT_S = 10.0
"""After the end of input or a stop signal, how long requests already read may take to be answered,
unless the caller says otherwise."""

Streams = tuple["MessageReader", "MessageWriter"]


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
async def wire_streams(answer_limit_s: float = ANSWER_LIMIT_S, on_end: Callable[[], None] | None = None,
                       deadline: StopDeadline | None = None) -> AsyncIterator[Streams]:
    """(read stream, write stream) for `Server.run`, over fds 0 and 1. Check `usable()` first.

    At the end of input (or a stop signal) the read stream stays open until every request read
    has been answered (up to `answer_limit_s`), so a client that writes its requests and closes
    stdin gets every answer. On the way out, replies already written reach the client however
    slowly it reads (as with the SDK's transport; MCP's shutdown has the client kill a server it
    no longer wants). When the client closes stdout, serving stops. `on_end` is called once, when
    reading stops, before the wait for answers (the server ends its subscription streams there).
    A `deadline` is armed by the first stop signal, the end of input or the client going away, and
    a second signal ends the process through it.
    """
    loop = asyncio.get_running_loop()
    pipe_in, pipe_out = _served_by_the_loop()
    blocking = {fd: os.get_blocking(fd) for fd in (0, 1)}  # the loop makes the pipes non-blocking
    wires: dict[int, int] = {}  # fd -> private copy of its wire, to point it back on exit
    transports: list[asyncio.BaseTransport] = []
    wire = _Wire()
    restore_signals: Callable[[], None] = _nothing
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
        in_flight = InFlight()
        reading_ended = _arming(deadline, "end of input", on_end or _nothing)
        incoming = MessageReader(reader, in_flight, answer_limit_s, reading_ended)
        async with anyio.create_task_group() as tasks:
            stop_serving = _arming(deadline, "client gone", tasks.cancel_scope.cancel)
            outgoing = MessageWriter(write_transport, wire, in_flight, stop_serving)
            restore_signals = _on_stop_signals(loop, incoming.stop_reading, tasks.cancel_scope, deadline)
            tasks.start_soon(_notice_client_gone, wire, stop_serving)
            try:
                yield incoming, outgoing
            finally:
                await outgoing.aclose()
                tasks.cancel_scope.cancel()  # stop watching: the server is done, though stdin may be open
    finally:
        restore_signals()
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


def _arming(deadline: StopDeadline | None, reason: str, then: Callable[[], Any]) -> Callable[[], Any]:
    """`then`, arming `deadline` first (a stop signal will have armed it already, with its own status)."""
    if deadline is None:
        return then

    def arm_then() -> Any:
        deadline.arm(EXIT_UNANSWERED, reason)
        return then()

    return arm_then


def _nothing() -> None:
    return None


def _on_stop_signals(loop: asyncio.AbstractEventLoop, stop_reading: Callable[[], None],
                     everything: anyio.CancelScope, deadline: StopDeadline | None) -> Callable[[], None]:
    """SIGTERM and SIGINT stop reading (the requests read are still answered); a second one stops all:
    through `deadline`, the process at once; without one, the serving. Returns the undo.

    The handlers arm `deadline` themselves, so it runs even if the loop is stuck; what touches the
    loop's objects, and the logging, is handed to the loop.
    """
    def post(callback: Callable[[signal.Signals], None], signum: signal.Signals) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: serving has ended
            loop.call_soon_threadsafe(callback, signum)

    def stop_reading_on_the_loop(signum: signal.Signals) -> None:
        logger.info("stdio.stopping", extra={"signal": signum.name})
        stop_reading()

    def stop_everything_on_the_loop(signum: signal.Signals) -> None:
        logger.warning("stdio.stopping_now", extra={"signal": signum.name})
        everything.cancel()

    def first(signum: signal.Signals) -> None:
        if deadline is not None:
            deadline.arm(status_after(signum), signum.name)
        post(stop_reading_on_the_loop, signum)

    def again(signum: signal.Signals) -> None:
        if deadline is not None:
            deadline.now(status_after(signum), f"second {signum.name}")
        else:
            post(stop_everything_on_the_loop, signum)

    return on_stop_signals(first, again)


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


OPEN_ENDED = frozenset({"subscriptions/listen"})
"""Requests whose answer is a stream that lasts until serving ends (2026-07-28 subscriptions)."""


class InFlight:
    """The ids of requests read and not yet answered (open-ended ones aside)."""

    def __init__(self) -> None:
        self._ids: set[int | str] = set()
        self._settled = anyio.Event()
        self._settled.set()

    def read(self, message: Any) -> None:
        if isinstance(message, JSONRPCRequest):
            if message.method in OPEN_ENDED:
                return  # answered only when serving ends: waiting for it would hold every exit
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


class MessageReader:
    """The server's read stream: each `receive()` reads the next line from `reader` and parses it.

    No task or stream of ours in between: the server's receive loop does the reading (the SDK still
    relays each message once, through the task that tells the protocol eras apart). A line that is not a message is returned as the
    `Unreadable` that answers it, for the server's read stream to answer. Blank lines are skipped.

    At the end of input, or once `stop_reading()` is called (a stop signal), the stream ends only
    when every request read has been answered (or `answer_limit_s` has passed): the server stops
    serving when its read stream ends, and would cancel them.
    """

    def __init__(self, reader: asyncio.StreamReader, in_flight: InFlight | None = None,
                 answer_limit_s: float = ANSWER_LIMIT_S, on_end: Callable[[], None] | None = None) -> None:
        self._reader = reader
        self._on_end = on_end
        self._in_flight = in_flight
        self._answer_limit_s = answer_limit_s
        self._stopping = False
        self._ended = False
        self._waiting: anyio.CancelScope | None = None

    def stop_reading(self) -> None:
        """Read no further; the stream ends once the requests read are answered."""
        self._stopping = True
        if self._waiting is not None:
            self._waiting.cancel()

    async def receive(self) -> SessionMessage | Exception:
        if not self._stopping:
            item = None  # stays None when a stop signal cancels the wait
            with anyio.CancelScope() as self._waiting:
                item = await self._next()
            self._waiting = None
            if item is not None:
                if self._in_flight is not None and isinstance(item, SessionMessage):
                    self._in_flight.read(item.message)
                return item
            self._stopping = True  # end of input, or stopped while waiting for it
        if not self._ended:
            if self._on_end is not None:
                on_end, self._on_end = self._on_end, None
                on_end()
            if self._in_flight is not None:
                with anyio.move_on_after(self._answer_limit_s):
                    await self._in_flight.settled()
            self._ended = True  # only now: a receive cancelled during the wait waits again when retried
        raise anyio.EndOfStream

    async def _next(self) -> SessionMessage | Exception | None:
        """The next message or unreadable line; None at the end of input."""
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:  # end of input; a last line may lack its newline
                return _parse(end.partial) if end.partial.strip() else None
            except asyncio.LimitOverrunError:
                await _skip_line(self._reader)
                return too_large()
            if line.strip():
                return _parse(line)

    def __aiter__(self) -> MessageReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self.stop_reading()
        self._ended = True

    async def aclose(self) -> None:
        self.close()

    async def __aenter__(self) -> MessageReader:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


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


class MessageWriter:
    """The server's write stream: each `send()` encodes the reply and hands it to the pipe at once.

    No task and no stream in between. The pipe takes it without blocking while it has room;
    when the client is not reading, the sender waits until it has room again (flow control).
    When the client has closed the server's stdout, serving stops and replies are dropped.
    """

    def __init__(self, transport: Any, wire: _Wire, in_flight: InFlight, stop: Callable[[], Any]) -> None:
        self._transport = transport
        self._wire = wire
        self._in_flight = in_flight
        self._stop = stop
        self._closed = False
        self._gone = False

    async def send(self, message: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        if self._wire.lost is not None:
            if not self._gone:  # said once: the calls still in flight each try to answer
                self._gone = True
                _client_gone(self._stop)
            return
        self._transport.write(_encode(message.message))
        self._in_flight.written(message.message)
        if not self._wire.writable.is_set():
            await self._wire.writable.wait()

    async def aclose(self) -> None:
        self._closed = True

    async def __aenter__(self) -> MessageWriter:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


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
