"""The CLI's logging: JSON lines on stderr, and the per-call line kept off the call's path."""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Iterator

import pytest

from parlance import logs


@contextlib.contextmanager
def _configured_into(stream: io.StringIO, fmt: str = "json") -> Iterator[io.StringIO]:
    """configure_logging() into `stream`, with the process's logging restored afterwards."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logs._handler)
    logs.configure_logging("INFO", fmt, stream=stream)
    try:
        yield stream
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])
        logs._handler = saved[2]
        for noisy in logs.CHATTY_LOGGERS:
            logging.getLogger(noisy).setLevel(logging.NOTSET)


@pytest.fixture
def configured() -> Iterator[io.StringIO]:
    with _configured_into(io.StringIO()) as stream:
        yield stream


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_call_lines_wait_for_the_flush_and_keep_their_order(configured: io.StringIO) -> None:
    handler = logging.getLogger().handlers[0]
    with handler.lock:  # holds off the periodic flush, so what the calling thread did is all there is
        logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.5, "error": None})
        logs.log_call({"tool": "b", "pack": "p", "status": "error", "latency_ms": 1.25, "error": "NOT_FOUND"})
        assert configured.getvalue() == ""  # nothing was made or formatted on the calling thread
    logging.getLogger("parlance.packs.p").warning("pack.trouble", extra={"attempt": 2})
    lines = _lines(configured)
    assert [line["event"] for line in lines] == ["tool.call", "tool.call", "pack.trouble"]
    assert lines[0] | {"timestamp": None} == {"timestamp": None, "level": "info", "event": "tool.call",
                                              "logger": "parlance.calls", "tool": "a", "pack": "p",
                                              "status": "ok", "latency_ms": 0.5, "error": None}
    assert lines[1]["error"] == "NOT_FOUND" and lines[2]["attempt"] == 2
    assert lines[0]["timestamp"] <= lines[2]["timestamp"]


def test_flush_writes_waiting_calls(configured: io.StringIO) -> None:
    logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.1, "error": None})
    logging.getLogger().handlers[0].flush()
    assert [line["tool"] for line in _lines(configured)] == ["a"]


def test_call_lines_respect_the_level(configured: io.StringIO) -> None:
    logging.getLogger("parlance.calls").setLevel(logging.WARNING)
    try:
        logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.1, "error": None})
        logging.getLogger().handlers[0].flush()
    finally:
        logging.getLogger("parlance.calls").setLevel(logging.NOTSET)
    assert configured.getvalue() == ""


def test_without_the_cli_handler_a_call_is_logged_at_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="parlance.calls"):
        logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.1, "error": None})
    assert [(r.name, r.getMessage(), r.tool) for r in caplog.records] == [  # type: ignore[attr-defined]
        ("parlance.calls", "tool.call", "a")
    ]


def test_other_handlers_see_the_call_lines_too(configured: io.StringIO) -> None:
    seen: list[logging.LogRecord] = []
    extra = logging.Handler()
    extra.emit = seen.append  # type: ignore[method-assign]
    calls = logging.getLogger("parlance.calls")
    calls.addHandler(extra)
    try:
        logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.1, "error": None})
        logging.getLogger().handlers[0].flush()
    finally:
        calls.removeHandler(extra)
    assert [(r.name, r.getMessage(), r.tool) for r in seen] == [("parlance.calls", "tool.call", "a")]  # type: ignore[attr-defined]
    assert [line["tool"] for line in _lines(configured)] == ["a"]


class _BrokenPipe(io.StringIO):
    """stderr after the client closed its end."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_broken_stderr_takes_nothing_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logging, "raiseExceptions", False)  # no "--- Logging error ---" report either
    with _configured_into(_BrokenPipe()):
        logs.log_call({"tool": "a", "pack": "p", "status": "ok", "latency_ms": 0.1, "error": None})
        logging.getLogger("parlance").warning("stdio.unreadable_line", extra={"code": -32700})
        logging.getLogger().handlers[0].flush()
        assert not logs._handler._calls  # type: ignore[union-attr]  # drained, not piling up


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_the_call_line_written_from_its_fields_equals_the_line_a_record_makes(fmt: str) -> None:
    """The per-call line is formatted straight from its fields when only the CLI's handler listens;
    the line must be exactly the one the record path writes (which other handlers would need)."""
    fields = {"tool": "i18n_translate", "pack": "i18n", "status": "ok", "latency_ms": 0.25, "error": None}
    lines = {}
    for route in ("direct", "record"):
        extra = logging.NullHandler()
        with _configured_into(io.StringIO(), fmt) as stream:
            root = logging.getLogger()
            others = [h for h in root.handlers if h is not logs._handler]  # pytest's capture handlers
            try:
                if route == "record":
                    logs.call_log.addHandler(extra)  # another listener: the record path must be taken
                else:
                    root.handlers = [logs._handler]  # only the CLI's handler, as when serving
                logs.log_call(dict(fields))
                logs._handler.flush()
            finally:
                logs.call_log.removeHandler(extra)
                root.handlers = [logs._handler, *others]
        lines[route] = stream.getvalue()
    assert lines["direct"].count("\n") == 1
    strip_time = (lambda line: {k: v for k, v in json.loads(line).items() if k != "timestamp"}) if fmt == "json" \
        else (lambda line: line)
    assert strip_time(lines["direct"]) == strip_time(lines["record"])
    assert "tool" in lines["direct"] and "i18n_translate" in lines["direct"]


def test_the_call_line_makes_no_record_when_only_the_clis_handler_listens(
        configured: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_record(*args: object, **kwargs: object) -> logging.LogRecord:
        raise AssertionError("a record was made for the per-call line")

    monkeypatch.setattr(logs.call_log, "makeRecord", no_record)
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [logs._handler])  # as under the CLI: pytest's own capture handlers aside
    logs.log_call({"tool": "t", "pack": "p", "status": "ok", "latency_ms": 1.0, "error": None})
    logs._handler.flush()
    assert json.loads(configured.getvalue())["tool"] == "t"
