"""Fast, offset-preserving phrase matching for the lexicons.

Lexicon phrases are literal word sequences with two conveniences: `{a|b}` expands to alternatives
("I{'ll| will} try") and a space matches any run of whitespace. Phrases are compiled into one
trie-shaped regular expression per category (Python's `re` does not factor alternations itself,
and a trie is several times faster than a flat `a|b|c` on long transcripts).

Matching runs on a case-folded copy of the text that has exactly the same length, so match offsets
are offsets into the original text (Unicode code points, like every span in the contract).
`re.IGNORECASE` is avoided on purpose: on a 200,000-character transcript it is 2–3x slower.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeAlias

_ALTERNATIVES = re.compile(r"\{([^{}]*)\}")
_APOSTROPHES = "'’"


def fold(text: str) -> str:
    """Lower-case `text` without changing its length, so offsets stay valid in the original."""
    folded = text.lower()
    if len(folded) == len(text):
        return folded
    # A few characters lower-case to two code points (e.g. 'İ'); keep those as they are.
    return "".join(lowered if len(lowered := char.lower()) == 1 else char for char in text)


def expand(phrase: str) -> list[str]:
    """Expand `{a|b}` groups: "I{'ll| will} try" -> ["I'll try", "I will try"]."""
    parts = _ALTERNATIVES.split(phrase)
    choices = [[part] if index % 2 == 0 else part.split("|") for index, part in enumerate(parts)]
    return ["".join(combo) for combo in itertools.product(*choices)]


def normalise(phrase: str) -> str:
    """The form a phrase is matched in: lower case, single spaces, straight apostrophes."""
    phrase = " ".join(phrase.lower().split())
    return phrase.replace("’", "'")


def _char_pattern(char: str) -> str:
    if char == " ":
        return r"\s+"
    if char in _APOSTROPHES:
        return "['’]"
    return re.escape(char)


def _alternation(branches: list[str]) -> str:
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


# Scripts written without spaces between words: a phrase in them is found anywhere in the text,
# since a word boundary there would only match at punctuation (至急 inside 至急対応してください).
_UNSPACED = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF), (0x3400, 0x4DBF),
             (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F))


def _bounded(char: str) -> bool:
    """Whether a phrase starting or ending with `char` must sit at a word boundary."""
    if not char.isalnum():
        return False
    code = ord(char)
    return not any(low <= code <= high for low, high in _UNSPACED)


_Trie: TypeAlias = dict[str, "_Trie"]
"""One node of a phrase trie: the next character -> the node after it ("" marks a phrase's end)."""


def _trie_pattern(phrases: Iterable[str]) -> str:
    """A trie-shaped regex: longer phrases are tried first, and word boundaries are checked where a
    phrase ends on a letter or digit, so "strong nack." and "strong nack" coexist correctly (but not
    in scripts written without spaces, where 「検討します」 sits inside a longer run of characters)."""
    trie: _Trie = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: _Trie, previous: str) -> str:
        branches = [_char_pattern(char) + build(child, char) for char, child in sorted(node.items()) if char]
        if "" in node:
            branches.append(r"(?!\w)" if _bounded(previous) else "")
        return _alternation(branches) if branches else ""

    words = [_char_pattern(c) + build(child, c) for c, child in sorted(trie.items()) if c and _bounded(c)]
    others = [_char_pattern(c) + build(child, c) for c, child in sorted(trie.items()) if c and not _bounded(c)]
    branches = ([r"(?<!\w)" + _alternation(words)] if words else []) + others
    return _alternation(branches) if branches else "(?!)"


def phrase_pattern(phrases: Iterable[str]) -> str:
    """One regex (source) matching any phrase as whole words; the longest phrase wins at a position."""
    return _trie_pattern({normalise(variant) for phrase in phrases for variant in expand(phrase) if variant.strip()})


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    category: str


class CategoryMatcher:
    """Finds lexicon phrases of several categories in one pass: `finditer(folded)` -> `Match`."""

    def __init__(self, categories: Mapping[str, Iterable[str]]):
        names = list(categories)
        for name in names:
            if not name.isidentifier():
                raise ValueError(f"lexicon category {name!r} must be an identifier")
        self.categories = tuple(names)
        source = "|".join(f"(?P<{name}>{phrase_pattern(categories[name])})" for name in names)
        self._regex = re.compile(source or "(?!)")

    def finditer(self, folded: str, start: int = 0, end: int | None = None) -> Iterator[Match]:
        for match in self._regex.finditer(folded, start, len(folded) if end is None else end):
            yield Match(match.start(), match.end(), match.lastgroup or "")

    def search(self, folded: str, start: int = 0, end: int | None = None) -> Match | None:
        match = self._regex.search(folded, start, len(folded) if end is None else end)
        return None if match is None else Match(match.start(), match.end(), match.lastgroup or "")
