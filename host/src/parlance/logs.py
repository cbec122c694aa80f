"""Logging to stderr: one JSON object per line, or plain text; by default ("auto") text when stderr
is a terminal, where a person reads it, and JSON otherwise, where a program does.

Set up only by the CLI's entry function (nothing happens at import time). Lines are buffered:
warnings and errors are flushed at once, info lines within 0.2 s; the per-call line is also made
then, off the call's path (see `log_call`). Each record carries
`timestamp`, `level`, `event` (the log message) and whatever the call site put in `extra=`: the
host's per-call record adds `tool`, `pack`, `status`, `latency_ms` and `error` (a code, never text
from the arguments or the result).
"""

from __future__ import annotations

import atexit
import collections
import io
import json
import logging
import os
import sys
import threading
import time
from datetime import datetime, timezone
from typing import Any, TextIO

__all__ = ["JsonFormatter", "configure_logging", "is_terminal", "log_call"]

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime", "taskName"}


def _timestamp(created: float, _cache: dict[int, str] = {}) -> str:  # noqa: B006 - a deliberate memo
    """ISO 8601 UTC with milliseconds; the part up to the second is formatted once per second."""
    second = int(created)
    prefix = _cache.get(second)
    if prefix is None:
        _cache.clear()
        prefix = _cache[second] = datetime.fromtimestamp(second, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{prefix}.{int((created - second) * 1000):03d}+00:00"


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    """What the call site put in `extra=`."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


def _traceback(formatter: logging.Formatter, record: logging.LogRecord) -> str | None:
    if record.exc_info and not _ours(record.name):
        return _frames_only(record.exc_info)
    if record.exc_text:
        return record.exc_text
    if record.exc_info:
        return formatter.formatException(record.exc_info)
    return None


def _ours(logger_name: str) -> bool:
    return logger_name == "parlance" or logger_name.startswith(("parlance.", "parlance_"))


def _frames_only(exc_info: Any) -> str:
    """A library's traceback without the exception's message, which may quote what it was parsing."""
    import traceback

    error = traceback.TracebackException(*exc_info, capture_locals=False)
    return "".join(error.stack.format()) + f"{error.exc_type.__module__}.{error.exc_type.__qualname__}" \
        if error.exc_type is not None else "".join(error.stack.format())


class _LibraryLinesFilter(logging.Filter):
    """Other libraries' debug and info lines are never written, at any level Parlance is set to.

    They carry what Parlance itself never logs: sse_starlette logs every SSE chunk (tool results,
    sampling prompts, model replies), the SDK logs whole messages, httpx request URLs. Their
    warnings and errors are written, with tracebacks stripped of exception messages.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.WARNING or _ours(record.name)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "timestamp": _timestamp(record.created),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
            "logger": record.name,
            **_extras(record),
        }
        if (traceback := _traceback(self, record)) is not None:
            entry["traceback"] = traceback
        return json.dumps(entry, default=str, ensure_ascii=False)

    def format_call(self, created: float, fields: dict[str, Any]) -> str:
        """The per-call line, exactly as `format` writes its record, without making the record."""
        entry = {"timestamp": _timestamp(created), "level": "info", "event": CALL_EVENT, "logger": call_log.name,
                 **fields}
        return json.dumps(entry, default=str, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = _text_line(record.levelname.lower(), record.name, record.getMessage(), _extras(record))
        if (traceback := _traceback(self, record)) is not None:
            line += "\n" + traceback
        return line

    def format_call(self, created: float, fields: dict[str, Any]) -> str:
        return _text_line("info", call_log.name, CALL_EVENT, fields)


def _text_line(level: str, logger_name: str, message: str, extras: dict[str, Any]) -> str:
    shown = " ".join(f"{k}={v}" for k, v in extras.items())
    return f"{level:7} {logger_name}: {message}" + (f" {shown}" if shown else "")


class _BufferedHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes records into a buffer; flushes warnings and errors at once, the rest every
    FLUSH_INTERVAL_S (and at exit).

    The per-call log line sits on every tool call's path. A flush per line is a write system call
    the client waits behind; a writer thread per line instead competes for the GIL with the stdio
    transport's own I/O threads. Measured on the stdio round trip, both cost more than the tool itself.
    So the per-call line is not even made on the calling thread (see `log_call`): its time and fields
    wait in `_calls` until the next flush, and any other record first writes the waiting calls, so
    lines stay in the order they were logged.
    """

    FLUSH_INTERVAL_S = 0.2

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self._calls: collections.deque[tuple[float, dict[str, Any]]] = collections.deque()
        self._replaying = False
        self._flusher = threading.Thread(target=self._flush_periodically, name="parlance-log-flush", daemon=True)
        self._flusher.start()
        atexit.register(self.flush)

    def defer_call(self, created: float, fields: dict[str, Any]) -> None:
        self._calls.append((created, fields))  # deque.append is atomic: no lock on the call's path

    def emit(self, record: logging.LogRecord) -> None:  # called with self.lock held
        if not self._replaying:  # a waiting call record comes back here through `logging`
            self._write_calls()
        self._write(record)
        if record.levelno >= logging.WARNING:
            self._flush_stream()

    def flush(self) -> None:
        self.acquire()  # as logging.StreamHandler.flush does (`self.lock` is typed Optional)
        try:
            self._write_calls()
            self._flush_stream()
        finally:
            self.release()

    def _write_calls(self) -> None:
        """Write the waiting call lines. When this handler is the only place they go (the CLI's setup),
        each line is formatted straight from its fields; otherwise (another handler or filter was
        added) each goes through `logging` as a record, so the others see it too."""
        if not self._calls:
            return
        if self._calls_come_only_here():
            format_call = self.formatter.format_call  # type: ignore[union-attr]
            while self._calls:
                created, fields = self._calls.popleft()
                try:
                    self.stream.write(format_call(created, fields) + "\n")
                except Exception:  # logging must never take a call down
                    pass
            return
        self._replaying = True
        try:
            while self._calls:
                created, fields = self._calls.popleft()
                record = call_log.makeRecord(call_log.name, logging.INFO, "(unknown file)", 0, CALL_EVENT, (), None,
                                             extra=fields)
                record.created, record.msecs = created, (created - int(created)) * 1000
                call_log.handle(record)
        finally:
            self._replaying = False

    def _calls_come_only_here(self) -> bool:
        root = logging.getLogger()
        return (not call_log.handlers and not call_log.filters and call_log.propagate
                and not logging.getLogger("parlance").handlers and not logging.getLogger("parlance").filters
                and root.handlers == [self] and not root.filters
                and hasattr(self.formatter, "format_call"))

    def _write(self, record: logging.LogRecord) -> None:
        try:
            self.stream.write(self.format(record) + "\n")
        except Exception:  # logging must never take a call down
            self.handleError(record)

    def _flush_stream(self) -> None:
        try:
            super().flush()
        except Exception:  # a closed or broken stderr must not take the server down with it
            pass

    def _flush_periodically(self) -> None:
        while True:
            time.sleep(self.FLUSH_INTERVAL_S)
            try:
                self.flush()
            except Exception:  # keep flushing: the queue of call records must not grow unwritten
                pass


call_log = logging.getLogger("parlance.calls")
CALL_EVENT = "tool.call"
CHATTY_LOGGERS = ("mcp", "httpx", "httpx2", "httpcore", "httpcore2", "uvicorn", "sse_starlette", "starlette")
"""Libraries that log every request or chunk below WARNING: their loggers are set to WARNING."""
_handler: _BufferedHandler | None = None  # set by configure_logging


def log_call(fields: dict[str, Any]) -> None:
    """Log the host's per-call line: `tool.call` on the `parlance.calls` logger, `fields` as extras.

    Under `configure_logging` (the CLI, which owns the process's logging) only the time and the
    fields are taken here; the record is made, formatted and written by the next flush, after the
    client has its answer. The fields are strings and numbers fixed when the call ended, so the line
    is the same whenever it is written. Anywhere else (an embedded host, tests) it is logged at once.
    """
    if _handler is not None and _handler in logging.root.handlers and call_log.isEnabledFor(logging.INFO):
        _handler.defer_call(time.time(), fields)
    else:
        call_log.info(CALL_EVENT, extra=fields)


def configure_logging(level: str = "INFO", fmt: str = "auto", stream: TextIO | None = None) -> None:
    """Route all logging to stderr in the chosen format ("json", "text", or "auto": text when the
    stream is a terminal). Called once by the CLI."""
    if fmt == "auto":
        fmt = "text" if is_terminal(stream or sys.stderr) else "json"
    target = stream or io.TextIOWrapper(open(os.dup(sys.stderr.fileno()), "wb", buffering=1 << 16),
                                        encoding="utf-8", errors="backslashreplace", write_through=False)
    global _handler
    handler = _handler = _BufferedHandler(target)
    handler.setFormatter(JsonFormatter() if fmt == "json" else _TextFormatter())
    handler.addFilter(_LibraryLinesFilter())
    # Per the logging HOWTO's "Optimization" section: skip the caller's frame, thread and process
    # lookups that every record would otherwise pay for; no log line of ours prints them.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Libraries' debug and info lines are filtered out at the handler; not even making them is cheaper.
    for noisy in CHATTY_LOGGERS:
        logging.getLogger(noisy).setLevel(logging.WARNING)


def is_terminal(stream: Any) -> bool:
    """Whether `stream` is a terminal (False for a replaced or closed stream)."""
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False
