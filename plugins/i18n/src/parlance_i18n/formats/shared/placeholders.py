"""Placeholders as printf writes them, for the formats whose messages are printf patterns (gettext's
c-format, Android, Apple): what work items list for a translation to keep.
"""

from __future__ import annotations

import re

__all__ = ["PRINTF", "printf_placeholders"]

PRINTF = r"%(?:\d+\$)?[-#0+,']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|z|t|j|L)?[diouxXeEfFgGaAcCsSpn@]"
"""One printf conversion (`%d`, `%1$s`, `%.2f`, `%@`), as a regular expression to build on."""


def printf_placeholders(*before: str) -> re.Pattern[str]:
    """A pattern finding printf conversions and, tried first, the format's own placeholders `before`."""
    return re.compile("|".join((*before, PRINTF)))
