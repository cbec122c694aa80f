"""What packs say they would serve with other settings (`parlance_setup_hints`), for `parlance packs`
and `parlance tools` to print under each pack, each pack asked inside its error boundary."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

__all__ = ["collect_hints"]

_MAX_LINES = 8
_MAX_CHARS = 400


def collect_hints(packs: Any) -> dict[str, list[str]]:
    """Pack name -> its hint lines (loaded packs that give some). A hook that raises or answers
    something other than lines of text is left out: a hint must never break a listing."""
    found: dict[str, list[str]] = {}
    for record in packs.loaded():
        try:
            with contextlib.redirect_stdout(sys.stderr):  # stdout may be `parlance packs --json`
                answers = packs.hook_for(record, "parlance_setup_hints")(settings=record.settings)
        except Exception:  # noqa: BLE001 - a pack's broken hint must not take the listing down
            continue
        lines = [" ".join(line.split())[:_MAX_CHARS] for answer in answers if isinstance(answer, list)
                 for line in answer if isinstance(line, str) and line.strip()]
        if lines:
            found[record.name] = lines[:_MAX_LINES]
    return found
