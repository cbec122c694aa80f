"""aapt2's text rules: how Android's resource compiler turns a `<string>`'s raw XML content into the
text `Resources.getString` returns, and how to write a text so that aapt2 gives exactly it back.

Reading (`flatten`): the escapes `\\'`, `\\"`, `\\n`, `\\t`, `\\@`, `\\?`, `\\\\` and `\\uXXXX`; outside
double quotes a run of whitespace is one space; without styling tags the ends are trimmed; an
unescaped apostrophe outside quotes is an error; comments are skipped (text continues across them).
Inline markup (`<b>`, `<i>`, `<u>`, `<xliff:g>`) is kept as written in the value and dropped from
the plain text; a tag without a namespace is a styling span, after which quoting and whitespace
collapsing start afresh. A text that starts with `@` or `?` (before its escapes) is a reference
(`string_reference`). Writing (`android_escape`) is the inverse, in the style the entry was written
in (`content_style`: plain, in double quotes, or in CDATA).

What aapt2 refuses in one entry raises `Unusable`, which a format turns into a `Problem`.
"""

from __future__ import annotations

import re

from parlance_i18n.formats.shared.xmledit import split_markup
from parlance_i18n.formats.shared.xmltext import tokens

__all__ = [
    "ASCII_SPACE",
    "Unusable",
    "aapt_true",
    "android_escape",
    "content_style",
    "flatten",
    "several_unnumbered",
    "string_reference",
]

ASCII_SPACE = " \t\n\r\x0b\x0c"
"""What aapt2 collapses and trims: C `isspace` on ASCII."""
_PLAIN = re.compile(r"""[\\"'<&\t\n\r\x0b\x0c]|  """)
_REFERENCE = re.compile(r"[@?]")
_STRING_REFERENCE = re.compile(r"@(?:\+)?string/([\w.]+)")
_BACKSLASH_ESCAPES = {"\\": "\\\\", '"': '\\"', "'": "\\'", "\n": "\\n", "\t": "\\t"}
"""The characters aapt2 text writes with a backslash, as it writes them (`\\n` for a line break)."""
_XML_ESCAPES = {"&": "&amp;", "<": "&lt;"}


class Unusable(ValueError):
    """What aapt2 would refuse in one entry; becomes a Problem."""


class _Builder:
    """aapt2's StringBuilder: escapes, quotes and whitespace, over a string's text segments."""

    __slots__ = ("out", "quote", "last_space", "strict")

    def __init__(self, strict: bool) -> None:
        self.out: list[str] = []
        self.quote = False
        self.last_space = False
        self.strict = strict

    def reset(self) -> None:  # a styling tag starts or ends: quoting and space collapsing start afresh
        self.quote = False
        self.last_space = False

    def append(self, data: str) -> None:
        out = self.out
        i, n = 0, len(data)
        while i < n:
            c = data[i]
            i += 1
            if not self.quote and c in ASCII_SPACE:
                if not self.last_space:
                    out.append(" ")
                    self.last_space = True
                continue
            self.last_space = False
            if c == "\\":
                if i < n:
                    c = data[i]
                    i += 1
                    if c == "t":
                        out.append("\t")
                    elif c == "n":
                        out.append("\n")
                    elif c == "u":
                        i = self._unicode(data, i)
                    else:
                        out.append(c)  # \' \" \\ \@ \? \# and any other: the character itself
            elif c == '"':
                self.quote = not self.quote
            elif c == "'" and not self.quote and self.strict:
                raise Unusable("it has an unescaped apostrophe; write \\' or put the text in double quotes")
            else:
                out.append(c)

    def _unicode(self, data: str, i: int) -> int:
        digits = data[i:i + 4]
        hex_digits = len(digits) - len(digits.lstrip("0123456789abcdefABCDEF"))
        if hex_digits < len(digits):
            if self.strict:
                raise Unusable("it has an invalid \\u escape; write four hexadecimal digits, as \\u00e9")
            self.out.append("\\u")
            return i
        code = int(digits, 16) if digits else 0
        i += len(digits)
        if 0xD800 <= code < 0xDC00 and data.startswith("\\u", i):  # a surrogate pair written as two escapes
            low = data[i + 2:i + 6]
            if len(low) == 4 and all(d in "0123456789abcdefABCDEF" for d in low) and 0xDC00 <= int(low, 16) < 0xE000:
                self.out.append(chr(0x10000 + ((code - 0xD800) << 10) + int(low, 16) - 0xDC00))
                return i + 6
        if 0xD800 <= code < 0xE000:
            if self.strict:
                raise Unusable("its \\u escape names half of a surrogate pair; write the character itself")
            code = 0xFFFD
        self.out.append(chr(code))
        return i


def _is_span(tag_name: str) -> bool:
    """aapt2 makes a styling span of a tag without a namespace; `xliff:g` and others are not spans."""
    return ":" not in tag_name


def flatten(raw: str, strict: bool = True) -> tuple[str, str]:
    """(value, plain) of an element's raw content: the text aapt2 builds with the markup kept as
    written, and without it. Raises _Invalid when `strict` and aapt2 would refuse the text."""
    if not _PLAIN.search(raw) and raw == raw.strip(ASCII_SPACE):
        return raw, raw
    # Text continues across comments (aapt2 skips them), so merge text around them first.
    pieces: list[tuple[str, str, str]] = []  # (kind, raw tag or text, tag name)
    for token in tokens(raw):
        if token.kind == "text":
            if pieces and pieces[-1][0] == "text":
                pieces[-1] = ("text", pieces[-1][1] + token.value, "")
            else:
                pieces.append(("text", token.value, ""))
        elif token.kind in ("start", "end", "empty"):
            pieces.append((token.kind, token.raw, token.value))
    styled = any(kind != "text" and _is_span(name) for kind, _, name in pieces)
    texts = [index for index, piece in enumerate(pieces) if piece[0] == "text"]
    builder = _Builder(strict)
    value: list[str] = []
    plain: list[str] = []
    for index, (kind, text, name) in enumerate(pieces):
        if kind == "text":
            if not styled and index == texts[0]:
                text = text.lstrip(ASCII_SPACE)
            if not styled and index == texts[-1]:
                text = text.rstrip(ASCII_SPACE)
            builder.out = []
            builder.append(text)
            built = "".join(builder.out)
            value.append(built)
            plain.append(built)
            continue
        value.append(text)
        if _is_span(name):
            builder.reset()
    return "".join(value), "".join(plain)


def _control(c: str) -> str:
    return f"\\u{ord(c):04x}"


def android_escape(value: str, style: str = "plain", prefixes: frozenset[str] = frozenset()) -> str:
    """The raw element content aapt2 reads back as exactly `value`.

    `style`: "plain" (escapes only), "quoted" (the whole text in double quotes, as the entry was
    written) or "cdata" (in a CDATA section: no XML escaping and no markup). `prefixes`: namespace
    prefixes the file declares (a `xliff:g` tag is markup only when `xliff` is declared).
    """
    pieces = [("text", value)] if style == "cdata" else split_markup(
        value, lambda name: ":" not in name or name.split(":")[0] in prefixes)
    styled = any(kind == "tag" and _is_span(re.match(r"</?([^\s/>]+)", piece).group(1))  # type: ignore[union-attr]
                 for kind, piece in pieces)
    if style == "quoted" and (styled or any(kind == "tag" for kind, _ in pieces)):
        style = "plain"
    if style == "quoted":
        return '"' + _escape_quoted(value) + '"'
    texts = [index for index, (kind, _) in enumerate(pieces) if kind == "text"]
    last_text = texts[-1] if texts else -1
    out: list[str] = []
    previous_space = not styled  # unstyled text is trimmed at its start: a leading space must be escaped
    for index, (kind, piece) in enumerate(pieces):
        if kind == "tag":
            out.append(piece)
            if _is_span(re.match(r"</?([^\s/>]+)", piece).group(1)):  # type: ignore[union-attr]
                previous_space = False
            continue
        trailing_from = len(piece.rstrip(" ")) if (index == last_text and not styled) else len(piece)
        for position, c in enumerate(piece):
            if c == " ":
                if previous_space or position >= trailing_from:
                    out.append("\\u0020")
                    previous_space = False
                else:
                    out.append(" ")
                    previous_space = True
                continue
            previous_space = False
            escaped = _BACKSLASH_ESCAPES.get(c)
            if escaped is not None:
                out.append(escaped)
            elif c in "@?" and not out:
                out.append("\\" + c)  # else aapt2 reads a reference (@string/x, ?attr/y)
            elif c < " " or c in "\ufffe\uffff":
                out.append(_control(c))
            elif style == "cdata":
                out.append(c)
            elif c == ">" and out[-2:] == ["]", "]"]:
                out.append("&gt;")
            else:
                out.append(_XML_ESCAPES.get(c, c))
    text = "".join(out)
    if style == "cdata":
        return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"
    return text


def _escape_quoted(value: str) -> str:
    out = []
    for c in value:
        escaped = _BACKSLASH_ESCAPES.get(c) if c != "'" else None  # in double quotes an apostrophe is plain
        if escaped is not None:
            out.append(escaped)
        elif c < " " or c in "\ufffe\uffff":
            out.append(_control(c))
        else:
            out.append(_XML_ESCAPES.get(c, c))
    return "".join(out)


def content_style(raw: str) -> str:
    """How an entry's content is written: "cdata", "quoted" or "plain"."""
    stripped = raw.strip(ASCII_SPACE)
    if stripped.startswith("<![CDATA[") and stripped.endswith("]]>") and stripped.count("<![CDATA[") == 1:
        return "cdata"
    if (len(stripped) >= 2 and stripped[0] == '"' and stripped[-1] == '"' and stripped[-2] != "\\"
            and "<" not in stripped and stripped.count('"') - stripped.count('\\"') == 2):
        return "quoted"
    return "plain"


_AAPT_ARGUMENT = re.compile(r"%(?:(?P<skip>[%n])|(?P<digits>[0-9]*)(?P<sep>\$|<\$?)?[-#+ ,(0-9]*(?P<letter>.?))", re.S)
_TIME_LETTERS = frozenset("DFKMWZkmwyz")
"""Conversions that only Time.format() has: aapt2 leaves such a string alone."""


def several_unnumbered(text: str) -> bool:
    """aapt2's check on a <string>: more than one `%` argument, and some of them not numbered."""
    count = 0
    unnumbered = False
    for match in _AAPT_ARGUMENT.finditer(text):
        if match.group("skip") or match.start() + 1 == len(text):
            continue
        count += 1
        numbered = bool(match.group("digits")) and match.group("sep") == "$"
        if not numbered:
            unnumbered = True
            if match.group("letter") in _TIME_LETTERS and match.group("letter"):
                return False
    return count > 1 and unnumbered


def string_reference(raw: str) -> tuple[str | None, str | None]:
    """(key it aliases, problem) for a raw text aapt2 reads as a reference, or (None, None)."""
    if not _REFERENCE.match(raw):
        return None, None
    value = raw
    if value in ("@null", "@empty"):
        return "", None
    found = _STRING_REFERENCE.fullmatch(value)
    if found:
        return found.group(1), None
    return None, (f"it is a reference ({value[:60]!r}) to a resource this file does not hold; "
                  "write \\@ or \\? to start a text with @ or ?")


def aapt_true(attribute: str | None) -> bool:
    """An aapt2 boolean attribute that defaults to true (`formatted`, `translatable`)."""
    return attribute is None or attribute.strip().lower() != "false"
