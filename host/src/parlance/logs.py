"""Logging to stderr: one JSON object per line by default, or plain text.

Set up only by the CLI's entry function (nothing happens at import time). Each record carries
`timestamp`, `level`, `event` (the log message) and whatever the call site put in `extra=`: the
host's per-call record adds `tool`, `pack`, `status`, `latency_ms` and `error` (a code, never text
from the arguments or the result).
"""

from __future__ import annotations

import json
import logging
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
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        extras = " ".join(f"{k}={v}" for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_"))
        line = f"{record.levelname.lower():7} {record.name}: {record.getMessage()}" + (f" {extras}" if extras else "")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def configure_logging(level: str = "INFO", fmt: str = "json", stream: TextIO | None = None) -> None:
    """Route all logging to stderr in the chosen format. Called once by the CLI."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else _TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # The SDK logs every request at INFO; keep its chatter at WARNING unless debugging.
    if level.upper() != "DEBUG":
        for noisy in ("mcp", "httpx", "httpx2", "httpcore", "httpcore2", "uvicorn.access"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
