"""Where a JSON document's members are written: the scanner behind `jsontext.JsonDocument`.

The bytes are decoded (`decode`: UTF-8 with or without a BOM, UTF-16 with one) and `json.loads`
validates the whole file; then the members of one object or array at a time are found on demand
(`scan_members`): the commonest member, `"key": "plain text",`, in one regular expression match,
other strings by `json.decoder.scanstring` and a nested container skipped by the C scanner, itself
scanned only when a path goes into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from json import decoder as _json_decoder
from json.decoder import JSONDecodeError
from typing import Any

from parlance_i18n.formats.base import CatalogFileError
from parlance_i18n.formats.shared.textedit import detect_bom

__all__ = ["Container", "Member", "decode", "decode_error", "no_constant", "refuse_lone_surrogates", "scan_members",
           "scan_string", "scan_value_at", "skip_space"]

_WS = re.compile(r"[ \t\n\r]*")
# The commonest member in one match: a key, and a string value without escapes, then ',' or '}'.
_SIMPLE_MEMBER = re.compile(
    r'"([^"\\\x00-\x1f]*+)"[ \t\n\r]*+:[ \t\n\r]*+(?:"([^"\\\x00-\x1f]*+)"[ \t\n\r]*+([,}])[ \t\n\r]*+)?'
)
_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")
_PLAIN_STRING = re.compile(r'"([^"\\\x00-\x1f]*+)"')
_AFTER_VALUE = re.compile(r"[ \t\n\r]*([,}\]])[ \t\n\r]*")
_SURROGATE_ESCAPE = re.compile(r"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")
_LOW_SURROGATE_ESCAPE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")

# Both in C: a string's decoded text and end from after its opening quote; one JSON value from an offset.
scan_string: Callable[[str, int, bool], tuple[str, int]] = _json_decoder.scanstring  # type: ignore[attr-defined]
_scan_value: Callable[[str, int], tuple[Any, int]] = _json_decoder.JSONDecoder().scan_once  # type: ignore[attr-defined]


class Member:
    """One member of an object (or element of an array): its decoded key and value, and where its
    pieces are written. `sep`, `head` and `token` replace the original pieces once edited."""

    __slots__ = ("key", "value", "sep_start", "key_start", "key_end", "value_start", "value_end",
                 "sep", "head", "token")

    def __init__(self, key: str, value: Any, sep_start: int, key_start: int, key_end: int,
                 value_start: int, value_end: int) -> None:
        self.key = key
        self.value = value  # str, Container, or a decoded number / bool / None
        self.sep_start = sep_start  # the text before the key: whitespace, and a ',' after the first
        self.key_start = key_start
        self.key_end = key_end  # after the key's closing quote (== key_start in an array)
        self.value_start = value_start
        self.value_end = value_end
        self.sep: str | None = None
        self.head: str | None = None  # the key and colon, e.g. '"title": '
        self.token: str | None = None  # the value's new JSON text (a string that was set)


class Container:
    """An object or array at [start, end) of the text; its members are scanned on first use."""

    __slots__ = ("start", "end", "is_array", "members", "index", "tail", "ignored", "dirty", "indent")

    def __init__(self, start: int, end: int, is_array: bool) -> None:
        self.start = start
        self.end = end
        self.is_array = is_array
        self.members: list[Member] | None = None
        self.index: dict[str, Member] | None = None  # key -> winning member (objects only)
        self.tail = ""  # the text between the last member (or the opening bracket) and the closing one
        self.ignored: list[tuple[str, int]] = []  # duplicated keys' earlier occurrences (key, offset)
        self.dirty = False
        self.indent: str | None = None  # the indentation of a container an edit made (None: one line)


def decode(data: bytes) -> tuple[bytes, str, str]:
    """(BOM, codec, text) of a JSON file: UTF-8 with or without a BOM, or UTF-16 with one."""
    bom, codec = detect_bom(data)
    try:
        text = data[len(bom):].decode(codec)
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise CatalogFileError(
            f"the file is not valid {codec.upper()} (at byte {error.start}); save it as UTF-8", line
        ) from None
    if not text.strip(" \t\n\r"):
        raise CatalogFileError("the file is empty: a JSON catalog holds one object, at least {}", 1)
    return bom, codec, text


def no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value (JSON has no NaN or Infinity): write a number or a string")


def decode_error(error: JSONDecodeError) -> str:
    """A sentence for `json`'s complaint, the same on every Python version."""
    before = error.doc[:error.pos].rstrip(" \t\r\n")
    if error.msg.startswith(("Illegal trailing comma", "Expecting property name", "Expecting value")) and \
            before.endswith(","):
        reason = "a comma before a closing bracket (JSON allows no trailing comma)"
    elif error.msg.startswith("Expecting property name"):
        reason = "expected a key in double quotes (JSON allows no comments and no single quotes)"
    else:
        reason = error.msg[0].lower() + error.msg[1:]
    return f"not valid JSON at column {error.colno}: {reason}"


def refuse_lone_surrogates(text: str) -> None:
    """CatalogFileError at the first `\\uD800`-`\\uDFFF` escape that is half of a surrogate pair alone.
    JSON's grammar allows one, and `json.loads` (like `JSON.parse`) keeps it in the string; but it is no
    character: no answer (UTF-8 JSON) can carry it, so the file is refused as one that is not UTF-8 is."""
    if "\\ud" not in text and "\\uD" not in text:  # the usual file: two substring scans, in C (a regular
        return                                        # expression's scan costs ten times more on a large file)
    paired_until = -1
    for match in _SURROGATE_ESCAPE.finditer(text):
        backslashes, unit = match.groups()
        if len(backslashes) % 2 == 0 or match.start(2) < paired_until:  # a literal backslash, or a pair's low half
            continue
        if unit[1] in "89abAB" and _LOW_SURROGATE_ESCAPE.match(text, match.end()):
            paired_until = match.end() + 6
            continue
        raise CatalogFileError(f"the file escapes half of a UTF-16 surrogate pair alone (\\u{unit}), which is no "
                               "character: no answer can carry it. Write the character itself, or both halves of "
                               "its pair", text.count("\n", 0, match.start()) + 1)


def scan_members(text: str, node: Container) -> None:
    """Scan one container's members (the file is valid JSON: `json.loads` read it whole)."""
    members: list[Member] = []
    index: dict[str, Member] | None = None if node.is_array else {}
    ignored = node.ignored
    sep_start = node.start + 1
    pos = skip_space(text, sep_start)
    node.members, node.index = members, index
    if text[pos] in "}]":
        node.tail = text[sep_start:pos]
        return
    simple_member = _SIMPLE_MEMBER.match
    while True:
        if index is None:  # an array element
            key = str(len(members))
            value, value_end = scan_value_at(text, pos)
            member = Member(key, value, sep_start, pos, pos, pos, value_end)
        else:
            match = simple_member(text, pos)
            if match is not None and match.lastindex == 3:  # "key": "plain text", in one step
                regs = match.regs
                key, value = match.group(1, 2)
                value_end = regs[2][1] + 1
                member = Member(key, value, sep_start, pos, regs[1][1] + 1, regs[2][0] - 1, value_end)
                previous = index.get(key)
                if previous is not None:
                    ignored.append((key, previous.key_start))
                index[key] = member
                members.append(member)
                if match.group(3) == "}":
                    node.tail = text[value_end:regs[3][0]]
                    return
                sep_start, pos = value_end, regs[0][1]
                continue
            if match is not None:
                key, key_end, value_start = match.group(1), match.end(1) + 1, match.end()
            else:
                key, key_end = scan_string(text, pos + 1, True)
                value_start = _COLON.match(text, key_end).end()  # type: ignore[union-attr]
            value, value_end = scan_value_at(text, value_start)
            member = Member(key, value, sep_start, pos, key_end, value_start, value_end)
            previous = index.get(key)
            if previous is not None:
                ignored.append((key, previous.key_start))
            index[key] = member
        members.append(member)
        after = _AFTER_VALUE.match(text, value_end)
        assert after is not None, "json.loads accepted what the scanner cannot read"
        if after.group(1) != ",":
            node.tail = text[value_end:after.start(1)]
            return
        sep_start, pos = value_end, after.end()


def skip_space(text: str, pos: int, end: int | None = None) -> int:
    """The offset of the first character from `pos` that is not JSON whitespace."""
    match = _WS.match(text, pos) if end is None else _WS.match(text, pos, end)
    return match.end() if match is not None else pos


def scan_value_at(text: str, pos: int) -> tuple[Any, int]:
    """A value's decoded form (a lazily scanned `Container` for an object or array) and its end."""
    char = text[pos]
    if char == '"':
        plain = _PLAIN_STRING.match(text, pos)
        if plain is not None:
            return plain.group(1), plain.end()
        return scan_string(text, pos + 1, True)
    value, end = _scan_value(text, pos)  # C; for a container only its end is kept
    if char == "{" or char == "[":
        return Container(pos, end, char == "["), end
    return value, end
