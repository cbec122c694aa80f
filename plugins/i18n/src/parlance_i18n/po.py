"""A small reader for gettext PO files: entries with context, plurals and flags, plus the header.

Handles what real catalogs contain: `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[N]`,
strings continued over several lines, C escapes (`\\n`, `\\"`, `\\t`, octal, hex), translator and
extracted comments, `#, fuzzy` flags, and obsolete `#~` entries (skipped). Errors name the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["PoEntry", "PoSyntaxError", "parse_po", "parse_header"]

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d{1,3})\])?)\s+(\".*)$")
_ESCAPE = re.compile(r"\\(?:([\\\"'?abfnrtv])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2}))")
_SIMPLE_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "?": "?", "a": "\a", "b": "\b", "f": "\f", "n": "\n",
                   "r": "\r", "t": "\t", "v": "\v"}


class PoSyntaxError(ValueError):
    """A PO file that cannot be read; the message names the line."""

    def __init__(self, problem: str, line: int) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line


@dataclass
class PoEntry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def forms(self) -> list[str]:
        """The translated forms in index order (one for a singular entry)."""
        return [self.msgstr[i] for i in sorted(self.msgstr)]


def parse_po(text: str) -> list[PoEntry]:
    """Every entry of a PO file in order, the header (msgid "") included; obsolete entries left out."""
    entries: list[PoEntry] = []
    entry = PoEntry()
    flags: set[str] = set()
    target: tuple[str, int] | None = None  # which field continuation lines extend
    started = False

    def finish() -> None:
        nonlocal entry, target, started
        if started:
            if "msgid" not in seen:
                raise PoSyntaxError("an entry has no msgid", entry.line)
            if not entry.msgstr:
                raise PoSyntaxError(f"the entry for msgid {entry.msgid[:40]!r} has no msgstr", entry.line)
            entries.append(entry)
        entry, target, started = PoEntry(), None, False
        seen.clear()

    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if entry.msgstr:
                finish()
            continue
        if line.startswith("#"):
            if entry.msgstr:
                finish()
            if line.startswith("#,"):
                flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue  # other comments (#, #., #:, #|, #~ obsolete) carry nothing the bundle needs
        if line.startswith('"'):
            if target is None:
                raise PoSyntaxError("a quoted string continues nothing", number)
            _append(entry, target, _unquote(line, number))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise PoSyntaxError(
                f"expected msgctxt, msgid, msgid_plural, msgstr or a quoted string, got {line[:30]!r}", number
            )
        keyword, index, rest = match[1], match[2], match[3]
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            finish()
        if not started:
            entry.line, entry.flags, flags, started = number, flags, set(), True
        name = "msgstr" if keyword.startswith("msgstr") else keyword
        slot = int(index) if index is not None else 0
        if name != "msgstr" and name in seen:
            raise PoSyntaxError(f"{name} appears twice in one entry", number)
        if name == "msgstr" and slot in entry.msgstr:
            raise PoSyntaxError(f"msgstr[{slot}] appears twice in one entry", number)
        seen.add(name)
        target = (name, slot)
        _set(entry, target, _unquote(rest, number))
    finish()
    return entries


def parse_header(entry: PoEntry) -> dict[str, str]:
    """The header entry's `Key: value` lines (`Plural-Forms`, `Language`, ...)."""
    fields: dict[str, str] = {}
    for line in entry.msgstr.get(0, "").splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def _set(entry: PoEntry, target: tuple[str, int], value: str) -> None:
    name, slot = target
    if name == "msgstr":
        entry.msgstr[slot] = value
    else:
        setattr(entry, name, value)


def _append(entry: PoEntry, target: tuple[str, int], value: str) -> None:
    name, slot = target
    if name == "msgstr":
        entry.msgstr[slot] += value
    else:
        setattr(entry, name, (getattr(entry, name) or "") + value)


def _unquote(token: str, line: int) -> str:
    token = token.strip()
    if len(token) < 2 or not token.startswith('"') or not token.endswith('"') or _ends_escaped(token):
        raise PoSyntaxError("expected a string in double quotes", line)
    body = token[1:-1]
    if re.search(r'(?<!\\)(?:\\\\)*"', body):
        raise PoSyntaxError('a double quote inside a string must be escaped as \\"', line)
    return _ESCAPE.sub(_unescape, body) if "\\" in body else body


def _ends_escaped(token: str) -> bool:
    """True when the closing quote is itself escaped (an odd run of backslashes before it)."""
    run = len(token) - 1 - len(token[:-1].rstrip("\\"))
    return run % 2 == 1


def _unescape(match: re.Match[str]) -> str:
    simple, octal, hexa = match.groups()
    if simple is not None:
        return _SIMPLE_ESCAPES[simple]
    return chr(int(octal, 8)) if octal is not None else chr(int(hexa, 16))
