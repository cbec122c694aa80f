"""A JSON document that knows where each member is written, so the catalog formats stored as JSON
(icu-json, i18next, ARB, .xcstrings) can read values with their lines and edit them in place.

Reading is fast because it is done in C: `JsonDocument(data)` decodes the bytes (UTF-8 with or
without a BOM, UTF-16 with one) and runs `json.loads` once, which validates the whole file (a
file that is not JSON raises `CatalogFileError` with its line) and gives the values `leaves()` and
`value_at()` answer from. Where things are written is found only when asked (`line_of`, an edit,
`duplicates` when there are any), container by container: the members of an object are scanned
by a small recursive-descent scanner (the commonest member, `"key": "plain text",`, in one regular
expression match; other strings by `json.decoder.scanstring`, in C) and a nested object or array
is skipped by the C scanner and itself scanned only when a path goes into it (`jsonscan`). Opening a
20,000-key catalog to change one message therefore scans the few objects on that message's path.

Editing never re-serializes what was not touched: an untouched object prints as its original slice;
a changed one prints its members from their original pieces (separator, indentation, key, `" : "`
or `":"`) and the new ones. A new string is escaped as the file escapes (`\\u00e9` when the file
is ASCII with escapes, `\\/` when it escapes slashes, HTML-safe `\\u003c`, hex case), and a new
member copies its last sibling's separator and indentation (or the file's, in an empty object).

Duplicate keys: as `JSON.parse` (so i18next and FormatJS) and `json.loads`, the last occurrence
wins, at the place of the first; `duplicates()` lists the ignored occurrences so a format can report
them, and `delete` removes every occurrence. Paths are tuples of keys; an array element's key is
its index as a string.
"""

from __future__ import annotations

import bisect
import json
import re
from json.decoder import JSONDecodeError
from typing import Any

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFileError, ReadLimits
from parlance_i18n.formats.shared.jsonscan import (
    Container,
    Member,
    decode,
    decode_error,
    no_constant,
    refuse_lone_surrogates,
    scan_members,
    scan_string,
    skip_space,
)
from parlance_i18n.formats.shared.limits import check_text

__all__ = ["JsonDocument", "Path"]

Path = tuple[str, ...]

_NON_ASCII_ESCAPE = re.compile(r"\\u(?:[1-9a-fA-F][0-9a-fA-F]{3}|0[1-9a-fA-F][0-9a-fA-F]{2}|00[89a-fA-F][0-9a-fA-F])")
# ASCII punctuation written as \u00XX (an HTML-safe writer's \u003c); not '"' or '\\', which JSON escapes anyway
_PUNCTUATION_ESCAPE = re.compile(r"\\u00(2[13-9a-fA-F]|3[a-fA-F]|40|5[bdefBDEF]|60|7[b-eB-E])")
_UPPER_HEX = re.compile(r"\\u[0-9a-fA-F]{0,3}[A-F]")
_LOWER_HEX = re.compile(r"\\u[0-9a-fA-F]{0,3}[a-f]")
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonDocument:
    """One JSON file: its values at once, where they are written on demand, edits in place."""

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._data = data
        self._bom, self._encoding, self._text = decode(data)
        check_text(self._text, limits)
        self._has_duplicates = False
        self._values = self._load(self._text)
        self._line_starts: list[int] | None = None
        self._style: _Style | None = None
        self._current: JsonDocument | None = None  # the edited text re-read, for reads after edits
        self._dirty = False
        self._hints: dict[int, int] = {}  # id(object) -> where a member was last put in it (`_append`)
        self._emptied: list[Path] = []  # objects deletes left empty, to drop when the text is made
        text = self._text
        start = skip_space(text, 0)
        end = len(text.rstrip(" \t\n\r"))
        self._root = Container(start, end, text[start] == "[") if text[start] in "{[" else None

    # --- reading --------------------------------------------------------------------------------------

    def leaves(self) -> list[tuple[Path, str]]:
        """Every string leaf as (path, decoded value), in file order (a duplicated key once, where
        it first appears, with its last value)."""
        if self._dirty:
            return self._reread().leaves()
        found: list[tuple[Path, str]] = []
        _collect_leaves(self._values, (), found)
        return found

    def object_root(self, shape: str) -> dict[str, Any]:
        """The file's top-level object; CatalogFileError (line 1) saying what the format's file is,
        `shape`, when the file holds an array or a single value instead."""
        root = self.value_at(())
        if not isinstance(root, dict):
            raise CatalogFileError(shape, 1)
        return root

    def value_at(self, path: Path) -> object | None:
        """The decoded value at `path` (str, dict, list, number, bool), or None when absent or null."""
        if self._dirty:  # from the members on the path: edits in a row need no re-read of the whole file
            if not path:
                return self._decoded(self._root)
            member = self._member(path)
            return None if member is None else self._decoded(member.value)
        value: Any = self._values
        for key in path:
            if isinstance(value, dict):
                value = value.get(key)
            elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
                value = value[int(key)]
            else:
                return None
        return value  # type: ignore[no-any-return]

    def line_of(self, path: Path) -> int | None:
        """The 1-based line where `path`'s member starts (its key), in the current text."""
        if self._dirty:
            return self._reread().line_of(path)
        if not path:
            return self._line(self._root.start) if self._root is not None else 1
        member = self._member(path)
        return None if member is None else self._line(member.key_start)

    def duplicates(self) -> list[tuple[Path, int]]:
        """Each key written again later in its object, as (path, line of the ignored occurrence)."""
        if self._dirty:
            return self._reread().duplicates()
        found: list[tuple[Path, int]] = []
        if self._has_duplicates and self._root is not None:
            self._collect_duplicates(self._root, (), found)
        return sorted(found, key=lambda duplicate: duplicate[1])

    # --- editing --------------------------------------------------------------------------------------

    def set_string(self, path: Path, value: str) -> None:
        """Replace the value at `path` with the string `value` (KeyError when absent)."""
        trail = self._trail(path)
        member = trail[-1][1] if trail else None
        if member is None:
            raise KeyError(path)
        if member.value.__class__ is str and member.value == value:
            return
        member.value = value
        member.token = self._style_of().string(value)
        self._touch(trail)

    def add_string(self, path: Path, value: str, after: Path | None = None) -> None:
        """Add `path` with the string `value`, creating the missing objects on the way (KeyError when
        present, or when a parent is not an object). The first member made goes right after the
        member of its object that `after` (an existing path) goes through, when `after` goes
        through that object; else after the object's last member."""
        parent = self._root
        if not path or parent is None:
            raise KeyError(path)
        trail: list[tuple[Container, Member | None]] = []
        for depth, key in enumerate(path):
            found = None if parent.is_array else self._find(parent, key)
            if parent.is_array or (found is not None and (depth == len(path) - 1
                                                          or not isinstance(found.value, Container))):
                raise KeyError(path)
            trail.append((parent, found))
            if found is None:
                self._touch(trail)
                anchor = after[depth] if after is not None and len(after) > depth and after[:depth] == path[:depth] \
                    else None
                for position in range(depth, len(path)):
                    child: Any = value
                    if position < len(path) - 1:
                        child = Container(-1, -1, False)
                        child.members, child.index, child.dirty = [], {}, True
                    self._append(parent, path[position], child, anchor if position == depth else None)
                    parent = child
                return
            parent = found.value

    def delete(self, path: Path, *, prune: bool = False) -> None:
        """Remove the member at `path` (every occurrence of a duplicated key) and its separator. With
        `prune`, an object this leaves empty is dropped too (and so on up), as i18next-cli prunes a
        deleted key's parents, when the text is made: a key added meanwhile still goes back into it."""
        trail = self._trail(path)
        if not trail or trail[-1][1] is None:
            raise KeyError(path)
        parent, member = trail[-1]
        assert member is not None and parent.members is not None
        # Only a key the file writes twice has other occurrences: look for them only then.
        written_twice = not parent.is_array and any(key == member.key for key, _ in parent.ignored)
        doomed = [m for m in parent.members if m.key == member.key] if written_twice else [member]
        for victim in doomed:
            position = parent.members.index(victim)
            opening = self._sep(victim) if position == 0 else None
            del parent.members[position]
            if opening is not None and parent.members:
                parent.members[0].sep = opening  # the next member now follows the bracket directly
        if not parent.members:
            parent.tail = ""
        if parent.index is not None:
            del parent.index[member.key]
        else:
            for number, element in enumerate(parent.members):
                element.key = str(number)
        self._touch(trail)
        if prune and not parent.members and len(path) > 1 and not parent.is_array:
            self._emptied.append(path[:-1])

    def _drop_emptied(self) -> None:
        """Drop the objects deletes left empty and nothing filled since (`delete(prune=True)`)."""
        while self._emptied:
            path = self._emptied.pop()
            trail = self._trail(path)
            member = trail[-1][1] if trail else None
            if member is not None and isinstance(member.value, Container) and not member.value.is_array \
                    and member.value.members == []:
                self.delete(path, prune=True)

    def to_bytes(self) -> bytes:
        """The document as it is now: the original bytes until something changed."""
        if not self._dirty:
            return self._data
        return self._bom + self.text().encode(self._encoding)

    def text(self) -> str:
        """The document's current text (decoded, without its BOM)."""
        self._drop_emptied()
        if not self._dirty or self._root is None:
            return self._text
        out: list[str] = [self._text[:self._root.start]]
        self._render(self._root, out)
        out.append(self._text[self._root.end:])
        return "".join(out)

    # --- loading and locating -------------------------------------------------------------------------

    def _load(self, text: str) -> Any:
        def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
            found = dict(items)
            if len(found) != len(items):
                self._has_duplicates = True
            return found

        try:
            values = json.loads(text, object_pairs_hook=pairs, parse_constant=no_constant)
        except JSONDecodeError as error:
            raise CatalogFileError(decode_error(error), error.lineno) from None
        except RecursionError:
            raise CatalogFileError("objects and arrays are nested too deep to read") from None
        except ValueError as error:
            raise CatalogFileError(str(error)) from None
        refuse_lone_surrogates(text)
        return values

    def _decoded(self, value: object) -> object | None:
        if not isinstance(value, Container):
            return value
        if not value.dirty:
            decoded: object = json.loads(self._text[value.start:value.end])
            return decoded
        if value.is_array:
            return [self._decoded(member.value) for member in self._members(value)]
        return {member.key: self._decoded(member.value) for member in self._members(value)}

    def _reread(self) -> JsonDocument:
        if self._current is None:
            self._current = JsonDocument(self.to_bytes())
        return self._current

    def _members(self, node: Container) -> list[Member]:
        if node.members is None:
            scan_members(self._text, node)
        assert node.members is not None
        return node.members

    def _find(self, node: Container, key: str) -> Member | None:
        members = self._members(node)
        if node.index is not None:
            return node.index.get(key)
        if key.isdigit() and int(key) < len(members):
            return members[int(key)]
        return None

    def _member(self, path: Path) -> Member | None:
        trail = self._trail(path)
        return trail[-1][1] if trail else None

    def _trail(self, path: Path) -> list[tuple[Container, Member | None]]:
        """(container, member) for each step of `path` (the last member None when absent), or []."""
        node: Any = self._root
        trail: list[tuple[Container, Member | None]] = []
        for depth, key in enumerate(path):
            if not isinstance(node, Container):
                return []
            member = self._find(node, key)
            trail.append((node, member))
            if member is None:
                return trail if depth == len(path) - 1 else []
            node = member.value
        return trail

    def _touch(self, trail: list[tuple[Container, Member | None]]) -> None:
        for container, _ in trail:
            container.dirty = True
        self._dirty = True
        self._current = None

    def _line(self, offset: int) -> int:
        if self._line_starts is None:
            self._line_starts = [match.end() for match in re.finditer("\n", self._text)]
        return bisect.bisect_right(self._line_starts, offset) + 1

    def _collect_duplicates(self, node: Container, path: Path, found: list[tuple[Path, int]]) -> None:
        for member in self._members(node):
            if isinstance(member.value, Container):
                self._collect_duplicates(member.value, (*path, member.key), found)
        found.extend(((*path, key), self._line(offset)) for key, offset in node.ignored)

    # --- writing --------------------------------------------------------------------------------------

    def _sep(self, member: Member) -> str:
        return member.sep if member.sep is not None else self._text[member.sep_start:member.key_start]

    def _head(self, member: Member) -> str:
        return member.head if member.head is not None else self._text[member.key_start:member.value_start]

    def _colon(self, container: Container) -> str:
        """The text between a key and its value, as `container` (or else the file) writes it."""
        for member in reversed(self._members(container)):
            head = self._head(member)
            return head[scan_string(head, 1, False)[1]:]
        return self._style_of().colon

    def _indent_of(self, container: Container) -> str:
        """The indentation of the line `container` opens on (the line of its own key)."""
        if container.indent is not None:
            return container.indent
        line_start = self._text.rfind("\n", 0, container.start) + 1
        return self._text[line_start:skip_space(self._text, line_start, container.start)].replace("\r", "")

    def _append(self, parent: Container, key: str, value: Any, anchor: str | None = None) -> None:
        """Add the member `key` to `parent`: right after its member `anchor` when it has one, else last."""
        style = self._style_of()
        colon = self._colon(parent)
        members = self._members(parent)
        assert parent.index is not None
        found = parent.index.get(anchor) if anchor is not None else None
        position = len(members)
        if found is not None and found is not members[-1]:
            # looked for from the last member added to this object on: keys added in the source's
            # order find their anchor past it, so placing them all scans the object about once
            hint = self._hints.get(id(parent), 0)
            try:
                position = members.index(found, min(hint, len(members))) + 1
            except ValueError:
                position = members.index(found) + 1
            self._hints[id(parent)] = position
        if position < len(members):  # between two members: written as the one it goes before is
            sep = self._sep(members[position])
        elif members:
            last_sep = self._sep(members[-1])
            if len(members) > 1:
                sep = last_sep
            elif "\n" in last_sep:
                sep = "," + last_sep
            else:
                sep = "," + (last_sep or (" " if colon.endswith(" ") else ""))
        elif (parent.indent is not None) if parent.start < 0 else style.multiline:
            indent = self._indent_of(parent)
            sep = style.newline + indent + style.unit
            parent.tail = style.newline + indent
        else:  # a one-line file, or an object made inside a one-line object: on one line too
            sep = parent.tail = ""
        member = Member(key, value, -1, -1, -1, -1, -1)
        member.sep = sep
        member.head = style.string(key) + colon
        if isinstance(value, Container):
            value.indent = sep[sep.rfind("\n") + 1:] if "\n" in sep else None
        else:
            member.token = style.string(value)
        members.insert(position, member)
        parent.index[key] = member

    def _render(self, node: Container, out: list[str]) -> None:
        text = self._text
        if not node.dirty:
            out.append(text[node.start:node.end])
            return
        out.append("[" if node.is_array else "{")
        for member in self._members(node):
            out.append(member.sep if member.sep is not None else text[member.sep_start:member.key_start])
            out.append(member.head if member.head is not None else text[member.key_start:member.value_start])
            if member.token is not None:
                out.append(member.token)
            elif isinstance(member.value, Container):
                self._render(member.value, out)
            else:
                out.append(text[member.value_start:member.value_end])
        out.append(node.tail)
        out.append("]" if node.is_array else "}")

    def _style_of(self) -> _Style:
        if self._style is None:
            first = self._members(self._root)[0] if self._root is not None and self._members(self._root) else None
            self._style = _Style(self._text, first)
        return self._style


def _collect_leaves(value: Any, path: Path, found: list[tuple[Path, str]]) -> None:
    if value.__class__ is dict:
        for key, item in value.items():
            if item.__class__ is str:
                found.append(((*path, key), item))
            elif item.__class__ is dict or item.__class__ is list:
                _collect_leaves(item, (*path, key), found)
    elif value.__class__ is list:
        for number, item in enumerate(value):
            if item.__class__ is str:
                found.append(((*path, str(number)), item))
            elif item.__class__ is dict or item.__class__ is list:
                _collect_leaves(item, (*path, str(number)), found)


# --- writing in the file's style ----------------------------------------------------------------------


class _Style:
    """How the file writes what an edit adds: string escapes, the colon, indentation, line ending."""

    def __init__(self, text: str, first: Member | None) -> None:
        # A few searches in C rather than a walk over every escape: a file may hold thousands.
        self.ascii_only = text.isascii() and _NON_ASCII_ESCAPE.search(text) is not None
        self.escapes_slash = "\\/" in text
        self.escaped_ascii = "".join(sorted({chr(int(code, 16)) for code in set(_PUNCTUATION_ESCAPE.findall(text))}))
        self.upper_hex = _UPPER_HEX.search(text) is not None and _LOWER_HEX.search(text) is None
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.multiline = "\n" in text.strip(" \t\n\r")
        self.colon = ": "
        self.unit = "  "
        if first is not None and first.key_end > first.key_start:
            self.colon = text[first.key_end:first.value_start]
        if first is not None:
            sep = text[first.sep_start:first.key_start]
            if "\n" in sep and sep[sep.rfind("\n") + 1:]:
                self.unit = sep[sep.rfind("\n") + 1:]

    def string(self, value: str) -> str:
        """`value` as a JSON string token, escaped the way this file escapes."""
        token = json.dumps(value, ensure_ascii=self.ascii_only)
        if not self.ascii_only and _LONE_SURROGATE.search(token):
            token = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", token)
        if self.escapes_slash:
            token = token.replace("/", "\\/")
        for char in self.escaped_ascii:
            token = token.replace(char, f"\\u{ord(char):04x}")
        if self.upper_hex and "\\u" in token:
            token = _JSON_ESCAPE.sub(_upper_escape, token)
        return token


def _upper_escape(match: re.Match[str]) -> str:
    escape = match.group(1)
    return "\\u" + escape[1:].upper() if len(escape) == 5 else "\\" + escape
