"""The PO file's syntax, as GNU gettext reads it: its charset, its C-escaped strings, and its entries.

`scan` is the reference for what a PO file means: one state machine over the lines that returns
every well-formed live entry (as a `Raw` tuple: where its comments, keywords and msgstr lines are,
and its msgctxt, msgid, msgid_plural, msgstr forms, flags and `#.` comments) and a `Problem` for
each broken one, after which it resyncs at the next entry. A Document edits by its line spans. The
reader's fast path, `ENTRY`, matches an entry written as gettext tools write it in one regular
expression (in C) and leaves any other stretch to `scan`.

The text is decoded by the header's `charset` (`first_guess` reads the first `charset=` before the
header is parsed; bytes not valid in it are kept as surrogates so that the file still round-trips).
Strings take C's escapes; octal and hex escapes are bytes of that charset, as `msgfmt` reads them.
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from parlance_i18n.formats.base import CatalogFileError, Problem

__all__ = [
    "CONTEXT_SEPARATOR",
    "ENTRY",
    "MSGSTR_SPLIT",
    "UTF8_BOM",
    "Raw",
    "Unreadable",
    "charset_codec",
    "decode",
    "escape",
    "first_guess",
    "parse_flags",
    "header_charset",
    "key_of",
    "parse_field",
    "parse_header",
    "parse_string",
    "scan",
    "shown_key",
]

CONTEXT_SEPARATOR = "\x04"
"""Between msgctxt and msgid in a key, as in `.mo` files and `pgettext`."""
UTF8_BOM = codecs.BOM_UTF8
_MAX_PROBLEM_TEXT = 40

_CHARSET = re.compile(rb"charset=([A-Za-z][-\w.:]*)")
_ESCAPE = re.compile(r"\\(?:([ntr\"\\abfv?'])|([0-7]{1,3})|x([0-9A-Fa-f]+)|(.?))", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
           "v": "\v", "?": "?", "'": "'"}
_KEYWORD = re.compile(r"(\S+)\s*(.*)")
_INDEXED = re.compile(r"msgstr\[(\d+)\]")
_QUOTED = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*')

# A raw entry, as the scanner finds it: line indexes (0-based) of its first comment, first keyword,
# first msgstr and one past its last line; then msgctxt, msgid, msgid_plural, the msgstr list, whether
# msgstr[N] was used, the `#,` flags text and the `#.` comments.
Raw = tuple[int, int, int, int, "str | None", str, "str | None", list[str], bool, "str | None", "str | None"]


class Unreadable(Exception):
    """A string or line the scanner cannot read: the reason is a sentence."""


# --- decoding ----------------------------------------------------------------------------------


def charset_codec(charset: str | None) -> str:
    """The Python codec for a header's charset: UTF-8 when absent or the template's `CHARSET`."""
    if not charset or charset.upper() == "CHARSET":
        return "utf-8"
    try:
        return codecs.lookup(charset).name
    except LookupError:
        raise CatalogFileError(f"the header declares charset={charset[:30]!r}, which Python cannot decode; "
                               "use UTF-8") from None


def first_guess(body: bytes, bom: bool) -> str:
    """The codec to read with until the header is parsed: UTF-8 after a BOM, else the first
    `charset=` in the file (almost always the header's; when not, the header's wins and the file is
    read again)."""
    guess = None if bom else _CHARSET.search(body, 0, 65536)
    try:
        return charset_codec(guess[1].decode() if guess else None)
    except CatalogFileError:
        return "utf-8"


def decode(data: bytes, codec: str) -> tuple[str, bool]:
    """The text, and whether some bytes were not valid in `codec` (kept as surrogates, so the file
    still round-trips; the entries holding them are reported)."""
    try:
        return data.decode(codec), False
    except UnicodeDecodeError:
        pass
    try:
        return data.decode(codec, "surrogateescape"), True
    except UnicodeDecodeError:  # what no surrogate can keep: ASCII bytes a codec refuses, UTF-16 of an odd length
        raise CatalogFileError(f"the file is not {codec} text, the charset its header names (its bytes cannot be "
                               "read in it, not even kept as they are): save it in that charset, or correct "
                               "the header's Content-Type") from None


def header_charset(header: str) -> str | None:
    for line in header.split("\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == "content-type":
            found = _CHARSET.search(value.encode("ascii", "replace"))
            return found[1].decode() if found else None
    return None


def parse_header(text: str) -> dict[str, str]:
    """The header's `Name: value` lines (`Plural-Forms`, `Language`, ...)."""
    fields: dict[str, str] = {}
    for line in text.split("\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip():
            fields[name.strip()] = value.strip()
    return fields


# --- strings ----------------------------------------------------------------------------------------


def parse_string(token: str, codec: str) -> str:
    """The value of the quoted strings on one line (`"..."`, or several, as GNU allows: `"a" "b"`),
    escapes resolved."""
    token = token.strip()
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        body = token[1:-1]
        if '"' not in body:
            return body if "\\" not in body else _unescape(body, codec)
    pieces: list[str] = []
    position = 0
    while position < len(token):
        found = _QUOTED.match(token, position)
        if found is None:
            if token[-1:] == '"' and (len(token) - 1 - len(token[:-1].rstrip("\\"))) % 2:
                raise Unreadable("the string ends with a lone backslash, which escapes its closing quote")
            if token[:1] == '"' and token[-1:] == '"':
                raise Unreadable('a double quote inside a string must be written \\"')
            raise Unreadable("a string must be in double quotes on one line (continue it on the next line "
                       'with another "...")')
        pieces.append(found[1])
        position = found.end()
    if not pieces:
        raise Unreadable("a keyword needs a string in double quotes after it")
    body = "".join(pieces)
    return body if "\\" not in body else _unescape(body, codec)


def _unescape(body: str, codec: str) -> str:
    """`body` (a string's inside) with its C escapes resolved; Unreadable for a bare quote or a bad escape."""
    if "\\\\" not in body:  # the common escapes, replaced in C when each backslash starts one of them
        newlines, quotes, tabs = body.count("\\n"), body.count('\\"'), body.count("\\t")
        if body.count("\\") == newlines + quotes + tabs and body.count('"') == quotes:
            if newlines:
                body = body.replace("\\n", "\n")
            if quotes:
                body = body.replace('\\"', '"')
            return body.replace("\\t", "\t") if tabs else body
    raw_bytes = False
    parts: list[str] = []
    position = 0
    for match in _ESCAPE.finditer(body):
        plain = body[position:match.start()]
        if '"' in plain:
            raise Unreadable('a double quote inside a string must be written \\"')
        parts.append(plain)
        simple, octal, hexa, other = match.groups()
        if simple is not None:
            parts.append(_SIMPLE[simple])
        elif octal is not None or hexa is not None:
            byte = int(octal, 8) if octal is not None else int(hexa, 16)
            byte &= 0xFF  # C stores the escape in one char, as msgfmt does
            raw_bytes = raw_bytes or byte >= 0x80
            parts.append(chr(byte))
        elif other == "":
            raise Unreadable('the string ends with a lone backslash, which escapes its closing quote')
        else:
            raise Unreadable(f"\\{other} is not a C escape (gettext knows \\n, \\t, \\r, \\\", \\\\, \\a, \\b, "
                       "\\f, \\v, octal \\ooo and hex \\xhh)")
        position = match.end()
    tail = body[position:]
    if '"' in tail:
        raise Unreadable('a double quote inside a string must be written \\"')
    parts.append(tail)
    text = "".join(parts)
    if raw_bytes:  # octal/hex escapes are bytes of the file's charset (UTF-8 "\303\251" is "é")
        try:
            text = text.encode("latin-1", "surrogateescape").decode(codec)
        except (UnicodeEncodeError, UnicodeDecodeError):
            raise Unreadable(f"octal or hex escapes in the string are not valid {codec} bytes") from None
    return text


_ESCAPES_OUT = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
                "\f": "\\f", "\v": "\\v"}
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')


def escape(text: str) -> str:
    """`text` as the inside of a PO string (what `msgcat` writes)."""
    if not _NEEDS_ESCAPE.search(text):
        return text
    return _NEEDS_ESCAPE.sub(lambda m: _ESCAPES_OUT.get(m[0]) or f"\\{ord(m[0]):03o}", text)


# --- entries ----------------------------------------------------------------------------------------


_FIELD = r'".*"(?:\n".*")*+'
_OTHER_COMMENTS = r"(?:#(?![.,~]).*\n)*+"
ENTRY = re.compile(
    rf"(?P<comments>{_OTHER_COMMENTS}(?P<notes>(?:#\..*\n)*+){_OTHER_COMMENTS}(?:#,(?P<flags>.*)\n)?{_OTHER_COMMENTS})"
    rf"(?:msgctxt (?P<ctxt>{_FIELD})\n)?"
    rf"msgid (?P<id>{_FIELD})\n"
    rf"(?:msgstr (?P<str>{_FIELD})"
    rf"|msgid_plural (?P<plural>{_FIELD})\nmsgstr\[0\] (?P<strs>{_FIELD}(?:\nmsgstr\[[1-9][0-9]*\] {_FIELD})*+))"
    rf"(?=\n\n|\n#|\nmsgctxt |\nmsgid |\n?\Z)"
)
"""One entry as gettext tools write it, for the reader's fast path: comments in GNU's order (`#.`
lines together, one `#,` line), keywords at column 0 followed by one space, each string on its own
line with nothing after it, and the next line starting another entry. A string's inside is checked
by `parse_field` (in Python only when it holds a quote or a backslash). Anything else goes to `scan`."""
MSGSTR_SPLIT = re.compile(r"\nmsgstr\[([0-9]+)\] ")
_BETWEEN_ENTRIES = (-1, None, None, None, None, None, None, False, 0)
"""The scanner's state where no entry is open: first, ctxt, msgid, plural, flags, extracted, strs,
indexed and field."""
_NO_MSGSTR = "the entry has no msgstr (write msgstr \"\" when untranslated)"


def parse_field(raw: str, codec: str) -> str:
    """The value of a string field the entry regex matched (`"..."` lines); Unreadable when one is not a
    closed string or holds a bare quote (the scanner then reports it)."""
    body = raw[1:-1]
    if '"' not in body:  # one line, no quote inside
        return body if "\\" not in body else _unescape(body, codec)
    if '\\"\n"' in body:  # a line's inside ends with a backslash: is its closing quote escaped?
        parts = body.split('"\n"')  # each line's inside (none holds a newline)
        for part in parts:
            if part[-1:] == "\\" and (len(part) - len(part.rstrip("\\"))) % 2:
                raise Unreadable("a line's closing quote is escaped")
        body = "".join(parts)
    else:
        body = body.replace('"\n"', "")
    if "\\" in body:
        return _unescape(body, codec)  # which refuses a quote that is not escaped
    if '"' in body:
        raise Unreadable("a bare quote")
    return body


def scan(lines: list[str], codec: str, offset: int = 0) -> tuple[list[Raw], list[Problem]]:
    """Every well-formed live entry among `lines` (the first is line `offset`, 0-based), in order,
    and a Problem for each broken one.

    One state machine over the lines, its state in locals. After a syntax error it skips to the next
    entry: a blank or comment line, or a msgctxt/msgid line once the broken entry's msgstr has gone
    by (so a broken msgctxt cannot leak its msgid as a message).
    """
    entries: list[Any] = []  # Raw tuples: msgid is always set once strs is
    problems: list[Problem] = []
    add_entry = entries.append
    first = keyline = strline = last = -1
    ctxt: str | None = None
    msgid: str | None = None
    plural: str | None = None
    strs: list[str] | None = None
    flags: str | None = None
    extracted: str | None = None
    indexed = False
    field = 0  # what a continuation line extends: 1 msgctxt, 2 msgid, 3 msgid_plural, 4 the last msgstr
    skipping = False
    skipped_msgstr = False
    error: str | None = None
    for number, line in enumerate(lines, offset):
        c = line[:1]
        if c == " " or c == "\t" or c == "\ufeff":
            line = line.strip().lstrip("\ufeff")
            c = line[:1]
        if c == '"':
            if skipping:
                continue
            if not (line[-1] == '"' and len(line) > 1 and '"' not in (body := line[1:-1]) and "\\" not in body):
                body, error = _string_or_error(line, codec)  # not the common plain string: parsed in full
            if error is None:
                if field == 4:
                    strs[-1] += body  # type: ignore[index]
                elif field == 2:
                    msgid += body  # type: ignore[operator]
                elif field == 1:
                    ctxt += body  # type: ignore[operator]
                elif field == 3:
                    plural += body  # type: ignore[operator]
                else:
                    error = "a quoted string continues nothing: it must follow msgid, msgstr or another string"
                last = number
                if error is None:
                    continue
        elif c == "m":
            space = line.find(" ")
            keyword = line[:space] if space > 0 else line
            rest = line[space + 1:] if space > 0 else ""
            if rest[:1] != '"':  # a tab or several blanks after the keyword
                found = _KEYWORD.fullmatch(line)
                keyword, rest = (found[1], found[2]) if found else (line, "")
            if skipping:
                if keyword[:6] == "msgstr":
                    skipped_msgstr = True
                    continue
                if not (skipped_msgstr and (keyword == "msgid" or keyword == "msgctxt")):
                    continue
                skipping = False
            if strs is not None and (keyword == "msgid" or keyword == "msgctxt"):
                add_entry((first if first >= 0 else keyline, keyline, strline, last + 1, ctxt, msgid, plural,
                           strs, indexed, flags, extracted))
                first, ctxt, msgid, plural, flags, extracted, strs, indexed, field = _BETWEEN_ENTRIES
            if not (rest[-1:] == '"' and len(rest) > 1 and '"' not in (body := rest[1:-1]) and "\\" not in body):
                body, error = _string_or_error(rest, codec)  # not the common plain string: parsed in full
            if error is not None:
                pass
            elif keyword == "msgid":
                if msgid is not None:
                    error = "an entry has two msgid lines; separate entries with a blank line"
                else:
                    msgid = body
                    field = 2
                    if ctxt is None:
                        keyline = number
            elif keyword == "msgstr":
                if msgid is None or strs is not None or plural is not None:
                    error = ("msgstr must follow msgid once" if plural is None
                             else "an entry with msgid_plural needs msgstr[0], msgstr[1], ... instead of msgstr")
                else:
                    strs = [body]
                    strline = number
                    field = 4
            elif keyword == "msgctxt":
                if ctxt is not None or msgid is not None:
                    error = "msgctxt must come first in an entry, once"
                else:
                    ctxt = body
                    keyline = number
                    field = 1
            elif keyword == "msgid_plural":
                if msgid is None or plural is not None or strs is not None:
                    error = "msgid_plural must follow msgid once, before the msgstr lines"
                else:
                    plural = body
                    field = 3
            elif (indexed_match := _INDEXED.fullmatch(keyword)) is not None:
                index = int(indexed_match[1])
                if msgid is None or plural is None:
                    error = "msgstr[N] needs a msgid_plural before it (a singular entry has one msgstr)"
                elif index != (len(strs) if strs is not None else 0) or (strs is not None and not indexed):
                    error = f"msgstr[{index}] is out of order: write msgstr[0], msgstr[1], ... in turn"
                else:
                    if strs is None:
                        strs = [body]
                        strline = number
                        indexed = True
                    else:
                        strs.append(body)
                    field = 4
            else:
                error = (f"{keyword[:20]!r} is not a PO keyword: expected msgctxt, msgid, msgid_plural, msgstr "
                         "or msgstr[N]")
            if error is None:
                last = number
                continue
        elif c == "#":
            if skipping:
                skipping = False
            if strs is not None:
                add_entry((first if first >= 0 else keyline, keyline, strline, last + 1, ctxt, msgid, plural,
                           strs, indexed, flags, extracted))
                first, ctxt, msgid, plural, flags, extracted, strs, indexed, field = _BETWEEN_ENTRIES
            elif msgid is not None or ctxt is not None:
                error = "a comment line inside an entry: comments go before msgctxt/msgid"
            if error is None:
                kind = line[1:2]
                if kind == "~":  # an obsolete entry: not a message, and not a comment of the next one
                    first = -1
                    flags = extracted = None
                    continue
                if first < 0:
                    first = number
                if kind == ",":
                    flags = line[2:] if flags is None else f"{flags},{line[2:]}"
                elif kind == ".":
                    text = line[2:].strip()
                    extracted = text if extracted is None else f"{extracted}\n{text}"
                continue
        elif not c:
            if skipping:
                skipping = False
                continue
            if strs is not None:
                add_entry((first if first >= 0 else keyline, keyline, strline, last + 1, ctxt, msgid, plural,
                           strs, indexed, flags, extracted))
            elif msgid is not None or ctxt is not None:
                problems.append(Problem(key_of(ctxt, msgid), keyline + 1, _NO_MSGSTR))
            first, ctxt, msgid, plural, flags, extracted, strs, indexed, field = _BETWEEN_ENTRIES
            continue
        elif skipping:
            continue
        else:
            error = f"unexpected text {line[:20]!r}: expected a comment, a keyword or a quoted string"
        # an error on this line: report it, drop the entry, skip to the next one
        problems.append(Problem(key_of(ctxt, msgid), number + 1, error))
        skipping = True
        skipped_msgstr = strs is not None
        error = None
        first, ctxt, msgid, plural, flags, extracted, strs, indexed, field = _BETWEEN_ENTRIES
    if strs is not None:
        add_entry((first if first >= 0 else keyline, keyline, strline, last + 1, ctxt, msgid, plural, strs,
                   indexed, flags, extracted))
    elif msgid is not None or ctxt is not None:
        problems.append(Problem(key_of(ctxt, msgid), keyline + 1, _NO_MSGSTR))
    return entries, problems


def _string_or_error(token: str, codec: str) -> tuple[str, str | None]:
    """(`parse_string(token)`, None), or ("", why the string cannot be read)."""
    try:
        return parse_string(token, codec), None
    except Unreadable as bad:
        return "", str(bad)


def key_of(ctxt: str | None, msgid: str | None) -> str | None:
    if msgid is None:
        return None
    return msgid if ctxt is None else f"{ctxt}{CONTEXT_SEPARATOR}{msgid}"


def parse_flags(flags: str | None) -> frozenset[str]:
    return frozenset(flag.strip() for flag in flags.split(",")) if flags else frozenset()


def shown_key(key: str) -> str:
    shown = key.replace(CONTEXT_SEPARATOR, " | ")
    return repr(shown if len(shown) <= _MAX_PROBLEM_TEXT else shown[:_MAX_PROBLEM_TEXT] + "...")
