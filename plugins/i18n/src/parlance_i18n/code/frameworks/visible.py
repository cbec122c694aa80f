"""What every framework agrees a user reads, and the `i18n-ignore` rule: one place, so a literal that is
hard-coded in a JSX file is hard-coded in a Swift, Kotlin or template file too.

A literal is text a user reads when it holds a word of two letters or more and is not one token that
is an identifier, a version, an e-mail address, a path or a URL (`jane.doe`, `v2.3.1`, `logo.png`,
`https://…`: no space, and digits or `._/@:#` between its letters). One-letter texts (`x`, `•`) and
numbers are left out. A comment holding `i18n-ignore` silences its own line and the next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tree_sitter import Node

from parlance_i18n.code.parsing import LineIndex

__all__ = ["IGNORE_MARK", "ignored_lines", "ignored_rows", "is_user_text"]

IGNORE_MARK = "i18n-ignore"
_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*[.!?:;,…]*")
"""One word of prose, with the punctuation that may end it (`Save`, `Items:`, `Don't`)."""


def is_user_text(text: str) -> bool:
    """Whether `text` (a literal's value, interpolations left out) is something a user reads."""
    stripped = text.strip()
    if not _TWO_LETTERS.search(stripped):
        return False
    return any(char.isspace() for char in stripped) or bool(_WORD.fullmatch(stripped))


def ignored_rows(comments: Iterable[Node]) -> set[int]:
    """The 0-based rows the `i18n-ignore` comments among `comments` cover: each one's last and the next."""
    rows: set[int] = set()
    for comment in comments:
        if IGNORE_MARK.encode() in (comment.text or b""):
            rows.update((comment.end_point[0], comment.end_point[0] + 1))
    return rows


def ignored_lines(data: bytes) -> frozenset[int]:
    """The 1-based lines an `i18n-ignore` mark covers, looked for in the bytes (for grammars whose
    comments are cheaper found so): its own and the next. A string that merely holds the words
    silences only its line and the one after it."""
    if IGNORE_MARK.encode() not in data:
        return frozenset()
    lines: set[int] = set()
    index = LineIndex(data)
    start = data.find(IGNORE_MARK.encode())
    while start >= 0:
        line = index.line_of(start)
        lines.update((line, line + 1))
        start = data.find(IGNORE_MARK.encode(), start + 1)
    return frozenset(lines)
