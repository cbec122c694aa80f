"""The stop deadline: once `parlance serve` begins to stop, the process is gone by a set time, whatever runs.

Stopping is graceful first (the transports' part): reading stops, the calls in flight have
`[host] shutdown_grace_s` to be answered, then the rest is cancelled and the pack lifespans exit.
But Python cannot kill a thread, nor cancel a call waiting for one: a pack's call running in a worker
thread (a catalog parsed with `anyio.to_thread`) holds the event loop's task group, and then the
interpreter's exit, open until the thread returns, which may be never. So the first stop (a stop
signal, the end of stdin, the client gone) also arms this deadline: `WAY_OUT_S` after the grace
period, the logs are flushed and the process ends with `os._exit`, whatever is still running. A
second stop signal ends it at once.

Why a thread of its own: the event loop may be the thing stuck, and a Python signal handler runs only
in the main thread, between bytecodes. The watchdog waits on a `queue.SimpleQueue` (whose `put` may
be called from a signal handler: it is reentrant, where a lock or an `Event` could deadlock against
the code the handler interrupted), so the handlers only post to it, and it needs nothing but the GIL
to fire. A worker running Python code hands the GIL over every switch interval (5 ms); only C code
that holds the GIL for longer (a regular expression backtracking for minutes) can delay it, and
SIGKILL remains for that.

Only the CLI arms a deadline (it owns the process): an embedding or a test serving in-process must
not be ended by one.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable

__all__ = ["EXIT_UNANSWERED", "WAY_OUT_S", "StopDeadline", "on_stop_signals", "status_after"]

logger = logging.getLogger(__name__)

WAY_OUT_S = 1.0
"""After the grace period, how long cancelling the rest, exiting the lifespans and flushing may take."""
FLUSH_LIMIT_S = 0.5
"""How long the forced exit waits for the logs to be written (stderr may be a pipe nobody reads)."""
EXIT_UNANSWERED = 1
"""The status of a forced exit at the end of stdin or with the client gone: calls were left unanswered."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def status_after(signum: int) -> int:
    """The status of a forced exit after `signum`: what a shell reports for a process that signal ended
    (143 for SIGTERM, 130 for SIGINT, as `parlance` returns on Ctrl-C elsewhere)."""
    return 128 + int(signum)


class StopDeadline:
    """The watchdog that ends the process `grace_s` + `WAY_OUT_S` after `arm()`, or at once after `now()`.

    Both may be called from a signal handler or from the event loop, any number of times: the first
    `arm()` starts the clock and sets the status; the first `now()` ends the process. A graceful exit
    before the deadline simply ends the process, daemon thread and all. `end` is `os._exit` but in tests.
    """

    def __init__(self, grace_s: float, *, end: Callable[[int], object] = os._exit) -> None:
        self.grace_s = grace_s
        self._end = end
        self._posted: queue.SimpleQueue[tuple[str, int, str]] = queue.SimpleQueue()
        self._armed = False  # set by the posting side only, so a repeated arm() posts nothing
        self._watchdog = threading.Thread(target=self._watch, name="parlance-stop-deadline", daemon=True)
        self._watchdog.start()  # here, not in a handler: starting a thread takes locks a handler may interrupt

    def arm(self, status: int, reason: str) -> None:
        """Start the clock (once): the process ends `grace_s` + `WAY_OUT_S` from now with `status`."""
        if not self._armed:
            self._armed = True
            self._posted.put(("arm", status, reason))

    def now(self, status: int, reason: str) -> None:
        """End the process at once with `status`, the logs flushed."""
        self._armed = True
        self._posted.put(("now", status, reason))

    def _watch(self) -> None:
        kind, status, reason = self._posted.get()
        if kind == "arm":
            armed_at = time.monotonic()
            deadline = armed_at + self.grace_s + WAY_OUT_S
            while kind == "arm":  # a repeated arm changes nothing; a `now` ends the wait
                try:
                    kind, now_status, now_reason = self._posted.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    self._exit(status, reason, waited_s=time.monotonic() - armed_at)
                    return
            status, reason = now_status, now_reason
        self._exit(status, reason, waited_s=None)

    def _exit(self, status: int, reason: str, waited_s: float | None) -> None:
        # Logged and flushed on a helper thread, waited for a moment only: a thread stuck while
        # holding the log handler's lock, or a stderr nobody reads, must not hold the exit.
        said = threading.Thread(target=_say_and_flush, args=(status, reason, waited_s), daemon=True,
                                name="parlance-stop-flush")
        said.start()
        said.join(FLUSH_LIMIT_S)
        self._end(status)


def _say_and_flush(status: int, reason: str, waited_s: float | None) -> None:
    extra: dict[str, object] = {"reason": reason, "status": status}
    if waited_s is not None:
        extra["waited_s"] = round(waited_s, 2)
    # A warning: the deadline passing means a call was still running, which the operator should know.
    logger.warning("serve.exit_forced", extra=extra)
    for handler in logging.getLogger().handlers:
        try:
            handler.flush()
        except Exception:  # noqa: BLE001 - exiting anyway
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - closed or broken: exiting anyway
            pass


def on_stop_signals(first: Callable[[signal.Signals], None],
                    again: Callable[[signal.Signals], None]) -> Callable[[], None]:
    """Call `first` at the first SIGTERM or SIGINT and `again` at each later one; returns the undo.

    Python-level handlers (`signal.signal`), not the event loop's: they run in the main thread
    between bytecodes even while the loop is stuck. So `first` and `again` run in the middle of
    whatever the main thread was doing: they may post (`StopDeadline`, `loop.call_soon_threadsafe`),
    not log or touch the loop's objects. Off the main thread (an embedding serving elsewhere) nothing
    is installed: signal handlers belong to the main thread.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    signalled: list[signal.Signals] = []

    def handle(signum: int, _frame: object) -> None:
        received = signal.Signals(signum)
        if signalled:
            again(received)
        else:
            signalled.append(received)
            first(received)

    previous = {signum: signal.signal(signum, handle) for signum in STOP_SIGNALS}

    def undo() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)  # None: set outside Python

    return undo
