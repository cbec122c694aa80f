"""Sentence and clause boundaries around an offset, in bounded windows (never scanning the whole text).

Every function takes and returns Unicode code-point offsets into the original string, and looks at
most `WINDOW` characters either side, so calling it once per lexicon hit stays linear in the size
of a 200,000-character transcript.
"""

from __future__ import annotations

import re

WINDOW = 600

# Full-width stops (。！？) and the ideographic comma (、) end sentences and clauses with no space after
# them: Japanese and Chinese put none.
_SENTENCE_END = re.compile(r"[.?!…]+(?=[\s\"'”’)\]]|$)|[。！？]+|\n")
_CLAUSE_END = re.compile(r"[.?!…;:]+(?=[\s\"'”’)\]]|$)|[。！？、；：]+|\n| [—–-] ")
_BREAKS = (". ", "? ", "! ", "… ", ".\t", "?\t", "!\t", "\n", "。", "！", "？")


def sentence_start(text: str, pos: int, floor: int = 0) -> int:
    """Offset where the sentence containing `pos` begins (never before `floor`)."""
    low = max(floor, pos - WINDOW)
    best = low
    for mark in _BREAKS:
        found = text.rfind(mark, low, pos)
        if found >= 0:
            best = max(best, found + len(mark))
    while best < pos and text[best].isspace():
        best += 1
    return best


def sentence_end(text: str, pos: int) -> int:
    """Offset just past the sentence containing `pos` (its final punctuation included)."""
    return _end(_SENTENCE_END, text, pos)


def clause_end(text: str, pos: int) -> int:
    """Offset just past the clause containing `pos` (up to , ; : . ? ! or a dash)."""
    return _end(_CLAUSE_END, text, pos)


def _end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    limit = min(len(text), pos + WINDOW)
    match = pattern.search(text, pos, limit)
    if match is None:
        end = limit
    elif match.group() == "\n" or match.group().startswith(" "):
        end = match.start()
    else:
        end = match.end()
    while end > pos and text[end - 1].isspace():
        end -= 1
    return end


def clip(text: str, limit: int) -> str:
    """`text` shortened to at most `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def squeeze(text: str) -> str:
    """Collapse runs of whitespace (for paraphrases, never for quoted spans)."""
    return " ".join(text.split())
