"""The stop deadline's watchdog and signal handlers, in-process (the process itself is never ended:
`end` records the status instead of calling `os._exit`). Through real processes:
`test_stop_with_a_stuck_call.py`."""

from __future__ import annotations

import logging
import os
import queue
import signal
import time

import pytest

from parlance._transport.stop_deadline import WAY_OUT_S, StopDeadline, on_stop_signals, status_after


class Ended:
    """Stands in for os._exit: the status and when it came."""

    def __init__(self) -> None:
        self.statuses: queue.SimpleQueue[tuple[int, float]] = queue.SimpleQueue()

    def __call__(self, status: int) -> None:
        self.statuses.put((status, time.monotonic()))

    def wait(self, seconds: float) -> tuple[int, float]:
        return self.statuses.get(timeout=seconds)


def test_an_armed_deadline_ends_the_process_after_the_grace_period_and_the_way_out(
        caplog: pytest.LogCaptureFixture) -> None:
    ended = Ended()
    deadline = StopDeadline(0.2, end=ended)
    with caplog.at_level(logging.WARNING, logger="parlance"):
        armed = time.monotonic()
        deadline.arm(143, "SIGTERM")
        deadline.arm(1, "end of input")  # a later stop changes neither the clock nor the status
        status, at = ended.wait(10)
    assert status == 143
    assert 0.2 + WAY_OUT_S <= at - armed < 0.2 + WAY_OUT_S + 1.0
    forced = [r for r in caplog.records if r.getMessage() == "serve.exit_forced"]
    assert [(r.reason, r.status) for r in forced] == [("SIGTERM", 143)]  # type: ignore[attr-defined]


def test_now_ends_the_process_at_once_armed_or_not() -> None:
    for arm_first in (False, True):
        ended = Ended()
        deadline = StopDeadline(30, end=ended)
        if arm_first:
            deadline.arm(143, "SIGTERM")
        asked = time.monotonic()
        deadline.now(130, "second SIGINT")
        status, at = ended.wait(5)
        assert status == 130 and at - asked < 0.6


def test_a_deadline_never_armed_never_ends_anything() -> None:
    ended = Ended()
    StopDeadline(0, end=ended)
    with pytest.raises(queue.Empty):
        ended.wait(WAY_OUT_S + 0.3)


def test_status_after_a_signal_is_what_a_shell_reports() -> None:
    assert (status_after(signal.SIGTERM), status_after(signal.SIGINT)) == (143, 130)


def test_stop_signal_handlers_call_first_then_again_and_are_undone() -> None:
    calls: list[tuple[str, signal.Signals]] = []
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    undo = on_stop_signals(lambda s: calls.append(("first", s)), lambda s: calls.append(("again", s)))
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # the handlers run in this (the main) thread, between bytecodes
    finally:
        undo()
    assert calls == [("first", signal.SIGTERM), ("again", signal.SIGINT), ("again", signal.SIGTERM)]
    assert {signum: signal.getsignal(signum) for signum in before} == before
