"""uvicorn as Parlance runs it: stopping on a signal only once the calls in flight are answered.

Imported only by `parlance serve --transport http` (uvicorn and sse_starlette load with it).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Any

import anyio
import uvicorn
from sse_starlette.sse import AppStatus

from parlance._transport.http_guard import HttpGuard
from parlance._transport.stop_deadline import StopDeadline, status_after

__all__ = ["DrainingServer"]

logger = logging.getLogger(__name__)


class DrainingServer(uvicorn.Server):
    """uvicorn, stopping on SIGTERM/SIGINT only once the calls in flight are answered.

    Left to itself, sse_starlette ends every SSE stream the moment uvicorn is told to exit,
    cutting off the answers of calls still running. Here the first signal makes the guard refuse
    new requests, the calls in flight finish (within the grace period), and only then do the
    streams close and uvicorn stop, exiting the pack lifespans. The process then exits 0 with its
    logs flushed (uvicorn would re-raise the signal). A second signal stops at once.

    With a `deadline` (the CLI's), the first signal arms it, so the process is gone on time even when
    a call is stuck in a worker thread, and the second ends the process through it.
    """

    def __init__(self, config: uvicorn.Config, guard: HttpGuard, grace_s: float,
                 end_subscriptions: Callable[[], None] | None = None, deadline: StopDeadline | None = None) -> None:
        super().__init__(config)
        self._guard = guard
        self._grace_s = grace_s
        self._end_subscriptions = end_subscriptions
        self._deadline = deadline
        self._loop: asyncio.AbstractEventLoop | None = None
        AppStatus.disable_automatic_graceful_drain()

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: Any) -> None:
        # uvicorn installs this as a Python-level signal handler: it runs in the main thread between
        # bytecodes, even while the loop is stuck, so it only posts (to the deadline, to the loop).
        signum = signal.Signals(sig)
        loop = self._loop
        if self._guard.draining or loop is None:
            if self._deadline is not None:
                self._deadline.now(status_after(signum), f"second {signum.name}")
                return
            AppStatus.should_exit = True
            super().handle_exit(sig, frame)
            return
        if self._deadline is not None:
            self._deadline.arm(status_after(signum), signum.name)
        self._guard.draining = True
        loop.call_soon_threadsafe(lambda: loop.create_task(self._drain(signum)))

    async def _drain(self, signum: signal.Signals) -> None:
        logger.info("http.stopping", extra={"signal": signum.name})
        if self._end_subscriptions is not None:
            self._end_subscriptions()  # each 2026-07-28 subscription stream gets its final result
        with anyio.move_on_after(self._grace_s):
            await self._guard.settled()
        # End the sessions as their clients would, so the SDK closes their GET listeners cleanly
        # (cut off by sse_starlette instead, each would leave an error line and a truncated stream).
        with anyio.move_on_after(max(1.0, self._grace_s)):
            await self._guard.close_sessions()
        AppStatus.should_exit = True  # whatever stream is left may close now
        self.should_exit = True
