"""Logging to stderr: one JSON object per line by default, or plain text.

Set up only by the CLI's entry function (nothing happens at import time). Each record carries
`timestamp`, `level`, `event` (the log message) and whatever the call site put in `extra=`: the
host's per-call record adds `tool`, `pack`, `status`, `latency_ms` and `error` (a code, never text
from the arguments or the result).
"""

from __future__ import annotations

import atexit
import json
import logging
import logging.handlers
import queue
import sys
from datetime import datetime, timezone
from typing import Any, TextIO

__all__ = ["JsonFormatter", "configure_logging"]

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
            "logger": record.name,
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_text or record.exc_info:
            entry["traceback"] = record.exc_text or self.formatException(record.exc_info)
        entry.pop("exc_text", None)
        return json.dumps(entry, default=str, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        extras = " ".join(f"{k}={v}" for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_"))
        line = f"{record.levelname.lower():7} {record.name}: {record.getMessage()}" + (f" {extras}" if extras else "")
        if record.exc_text or record.exc_info:
            line += "\n" + (record.exc_text or self.formatException(record.exc_info))
        return line


class _EnqueueHandler(logging.handlers.QueueHandler):
    """Hands records to the writer thread as they are: formatting happens there, off the request path."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        if record.exc_info and not record.exc_text:  # tracebacks cannot cross threads lazily
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        return record


def configure_logging(level: str = "INFO", fmt: str = "json", stream: TextIO | None = None) -> None:
    """Route all logging to stderr in the chosen format. Called once by the CLI.

    A call site only enqueues its record; a writer thread formats and writes it. The per-call log
    line is on every tool call's path, and a synchronous write-and-flush to stderr costs more than
    most tools take to run.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else _TextFormatter())
    # Per the logging HOWTO's "Optimization" section: skip the caller's frame, thread and process
    # lookups that every record would otherwise pay for; no log line of ours prints them.
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    listener = logging.handlers.QueueListener(records, handler)
    listener.start()
    atexit.register(listener.stop)  # drains what is queued before the process exits
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(_EnqueueHandler(records))
    root.setLevel(level.upper())
    # The SDK logs every request at INFO; keep its chatter at WARNING unless debugging.
    if level.upper() != "DEBUG":
        for noisy in ("mcp", "httpx", "httpx2", "httpcore", "httpcore2", "uvicorn.access"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
