"""Path settings written as patterns: `locales/{locale}.json`, `res/values-{locale}/strings.xml`.

A path setting whose value holds `{name}` placeholders names a family of files, not one file; the
host cannot say that it "does not exist", but it can say that it matches no file, which is as sure a
sign of a mistake (a folder misspelt, the pattern written from the wrong folder). A placeholder
stands for one or more characters within one path segment; with the separator written before it
(`-`, `_`, `.`) it may also be absent, as a default locale's file is named without its locale
(Android `values/` beside `values-fr/`, Java `messages.properties` beside `messages_fr.properties`).

Matching lists folders only as far as the pattern needs (`glob`), and stops at the first file found.
"""

from __future__ import annotations

import glob
import itertools
import re
from collections.abc import Iterator

__all__ = ["is_pattern", "matches_a_file"]

_PLACEHOLDER = re.compile(r"([-_.]?)\{([A-Za-z_][A-Za-z0-9_]*)\}")
_MOST_ABSENT = 6  # the first six placeholders may each be absent: 2**6 globs at most


def is_pattern(value: str) -> bool:
    """Whether a path setting's value holds `{name}` placeholders."""
    return _PLACEHOLDER.search(value) is not None


def matches_a_file(pattern: str) -> bool:
    """Whether some existing file (or folder) matches `pattern` (see the module docstring)."""
    return any(next(glob.iglob(candidate), None) is not None for candidate in _globs(pattern))


def _globs(pattern: str) -> Iterator[str]:
    """The glob patterns `pattern` stands for: each placeholder as `?*` (one or more characters), or,
    when a separator comes before it, gone with its separator."""
    pieces = _PLACEHOLDER.split(pattern)  # literal, separator, name, literal, separator, name, ..., literal
    literals, separators = pieces[0::3], pieces[1::3]
    choices = [(True, False) if separator and index < _MOST_ABSENT else (True,)
               for index, separator in enumerate(separators)]
    for present in itertools.product(*choices):
        parts = [glob.escape(literals[0])]
        for index, keep in enumerate(present):
            if keep:
                parts.append(glob.escape(separators[index]) + "?*")
            parts.append(glob.escape(literals[index + 1]))
        yield "".join(parts)
