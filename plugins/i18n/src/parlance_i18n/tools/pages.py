"""Pages of an answer made of many reports (i18n_check on a project of several catalogs and locales):
as many reports as fit in about `PAGE_CHARS` characters of JSON, and a cursor for the rest.

A cursor is opaque: base64 of the position of the next report and a fingerprint of what was asked
(locale, catalog, details, limit) and how many reports there were, so a cursor passed with other
arguments, or after the project's catalogs changed, is refused (ValueError, a sentence) rather than
silently skipping or repeating reports. The first report of a page is always included, whatever its size.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any, TypeVar

__all__ = ["PAGE_CHARS", "page_of", "window"]

PAGE_CHARS = 8000
"""About what one answer may hold before it is paged (the reports' JSON, without the envelope)."""

ReportT = TypeVar("ReportT")


def page_of(reports: Sequence[ReportT], cursor: str | None, asked: Sequence[Any],
            budget: int = PAGE_CHARS) -> tuple[list[ReportT], str | None]:
    """The reports from `cursor` on that fit in `budget` characters, and the cursor of the next page (None
    on the last). `asked` are the arguments the cursor is tied to."""
    fingerprint = _fingerprint(asked, len(reports))
    start = _read(cursor, fingerprint) if cursor else 0
    page: list[ReportT] = []
    used = 0
    for report in reports[start:]:
        size = len(json.dumps(dataclasses.asdict(report), ensure_ascii=False))  # type: ignore[call-overload]
        if page and used + size > budget:
            break
        page.append(report)
        used += size
    end = start + len(page)
    return page, (_write(end, fingerprint) if end < len(reports) else None)


def window(cursor: str | None, asked: Sequence[Any], count: int, limit: int) -> tuple[int, str | None]:
    """A page of `limit` items of lists whose longest holds `count`: where it starts (from `cursor`), and
    the cursor of the next page (None on the last). `asked` are the arguments the cursor is tied to."""
    fingerprint = _fingerprint(asked, count)
    start = _read(cursor, fingerprint) if cursor else 0
    end = start + limit
    return start, (_write(end, fingerprint) if end < count else None)


def _fingerprint(asked: Sequence[Any], count: int) -> str:
    return hashlib.sha256(json.dumps([list(asked), count], default=str).encode()).hexdigest()[:16]


def _write(position: int, fingerprint: str) -> str:
    return base64.urlsafe_b64encode(f"{position}:{fingerprint}".encode()).decode().rstrip("=")


def _read(cursor: str, fingerprint: str) -> int:
    try:
        position, _, found = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().partition(":")
        start = int(position)
    except ValueError:  # not base64, not UTF-8, not a number: binascii.Error and UnicodeDecodeError are ValueErrors
        raise ValueError("the cursor is not one this tool gave out: pass the next_cursor of the previous page "
                         "as it is, or leave it out to start again") from None
    if found != fingerprint or start < 1:
        raise ValueError("the cursor belongs to a call with other arguments (locale, catalog, details, limit, paths), "
                         "or the project's files changed since it was given out: leave it out to start again")
    return start
