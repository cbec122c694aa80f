"""Tags that a message's runtime fills with the app's own components: react-i18next's `Trans`
(`<1>docs</1>`, `<strong>here</strong>`, `<br/>`) and FormatJS rich text (`<link>terms</link>`,
each tag a function the app passes to `formatMessage`).

A translation must keep the source's tags and close each one where it opens: `Trans` renders a
dropped tag's component nowhere (the link is gone) and an unclosed one as text, while FormatJS
throws on an unclosed tag (`UNCLOSED_TAG`) and on one the app passes no function for.
`tag_reasons` compares a translation with its source and says what to fix.

Only tags without attributes are tags here (`<a href="...">` is markup the app does not fill).
In ICU text (`icu=True`), an apostrophe quotes (`'<b>'` is text), and a tag opened in a plural or
select branch must close in that branch; a self-closing `<br/>` is literal text to FormatJS. In
`Trans` text, HTML's void elements (`<br>`, `<hr>`, ...) need no closing tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Tags", "scan_tags", "tag_reasons"]

_TAG = re.compile(r"<(/?)([A-Za-z0-9_][\w.\-]*)\s*(/?)>")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
_ICU_QUOTABLE = frozenset("{}#|<>")


@dataclass(frozen=True, slots=True)
class Tags:
    """The tags of one text: the names of paired tags, of self-closing ones, and the first problem."""

    paired: frozenset[str]
    single: frozenset[str]
    problem: str | None
    """"<b> is not closed: ...", "</b> closes no open <b>: ..." with the fix (None: every tag is closed
    where it opens)."""


def scan_tags(text: str, *, icu: bool) -> Tags:
    """The tags of `text`, and whether each one opened is closed (see the module docstring)."""
    paired: set[str] = set()
    single: set[str] = set()
    stack: list[str | None] = []  # open tags; None marks an ICU branch's `{`
    problem: str | None = None
    for kind, name in _tokens(text, icu):
        if kind == "{":
            stack.append(None)
        elif kind == "}":
            while stack and stack[-1] is not None:
                problem = problem or _unclosed(stack.pop() or "", "before its branch ends")
            if stack:
                stack.pop()
        elif kind == "single":
            single.add(name)
        elif kind == "open":
            if not icu and name.lower() in _VOID:
                single.add(name)
                continue
            paired.add(name)
            stack.append(name)
        else:  # a closing tag
            paired.add(name)
            if name in stack and None not in stack[stack.index(name):]:
                while stack[-1] != name:
                    problem = problem or _unclosed(stack.pop() or "", f"before </{name}>")
                stack.pop()
            else:
                problem = problem or f"</{name}> closes no open <{name}>: open it where the source does (<{name}>…</{name}>)"
    for still_open in stack:
        if still_open is not None:
            problem = problem or _unclosed(still_open, "")
    return Tags(frozenset(paired), frozenset(single), problem)


def _unclosed(name: str, where: str) -> str:
    return f"<{name}> is not closed{' ' + where if where else ''}: close it where the source does (<{name}>…</{name}>)"


def _tokens(text: str, icu: bool) -> list[tuple[str, str]]:
    """("open" | "close" | "single", name) for each tag, and ("{" | "}", "") for ICU's braces."""
    if "<" not in text:
        return []
    if not icu:
        return [(_kind(match), match.group(2)) for match in _TAG.finditer(text)]
    tokens: list[tuple[str, str]] = []
    at, size = 0, len(text)
    while at < size:
        char = text[at]
        if char == "'" and at + 1 < size and text[at + 1] == "'":
            at += 2
        elif char == "'" and at + 1 < size and text[at + 1] in _ICU_QUOTABLE:
            end = at + 1  # quoted up to the next lone apostrophe
            while True:
                end = text.find("'", end + 1)
                if end < 0 or end + 1 >= size or text[end + 1] != "'":
                    break
                end += 1
            at = size if end < 0 else end + 1
        elif char in "{}":
            tokens.append((char, ""))
            at += 1
        elif char == "<" and (match := _TAG.match(text, at)) is not None:
            tokens.append((_kind(match), match.group(2)))
            at = match.end()
        else:
            at += 1
    return tokens


def _kind(match: re.Match[str]) -> str:
    return "close" if match.group(1) else "single" if match.group(3) else "open"


def tag_reasons(source: str, translation: str, *, icu: bool, noun: str, fix: str) -> list[str]:
    """Why `translation` would render the source's tags otherwise: a tag dropped, one the source does
    not have, one left open. `noun` names a tag ("the component tag"); `fix` ends the sentence of a
    dropped or unknown one. Empty when the source's own tags are not closed (nothing to hold to)."""
    if "<" not in source and "<" not in translation:
        return []
    want = scan_tags(source, icu=icu)
    if want.problem is not None:
        return []
    have = scan_tags(translation, icu=icu)
    reasons = []
    for name in sorted(want.paired - have.paired):
        reasons.append(f"drops {noun} <{name}>…</{name}> that the source uses: {fix}")
    if not icu:  # to FormatJS, a self-closing tag is text
        for name in sorted(want.single - have.single - have.paired):
            reasons.append(f"drops {noun} <{name}/> that the source uses: {fix}")
    added = have.paired | (frozenset() if icu else have.single)
    for name in sorted(added - want.paired - want.single):
        reasons.append(f"uses {noun} <{name}>, which the source does not have: the app gives it nothing to "
                       "render (use the source's tags only)")
    if have.problem is not None:
        reasons.append(have.problem)
    return reasons
