"""gettext PO/POT catalogs: read as GNU gettext reads them, render as `gettext`/`ngettext` return
them, edit without disturbing a byte that was not asked to change.

Keys are what gettext itself looks up: the `msgid`, or `msgctxt + "\\x04" + msgid` when the entry
has a context (the convention of `.mo` files). The header (`msgid ""`) is not a message.

Reading (`PoFormat.read`) decodes the text by the header's `charset` (UTF-8 by default) and
matches each entry written as gettext tools write it with one regex, in C; any other stretch, up to
the next blank line, goes to a line scanner (`_scan`, the reference for what a PO file means, which
`edit` uses throughout). No object per line; what is kept per message is the translation text (a
str, or a tuple of plural forms), compiled on first `get`. Like `msgfmt`, it leaves out fuzzy
entries (`fuzzy_keys`), untranslated ones (`untranslated_keys`) and obsolete `#~` ones. A broken
entry (bad quoting, unknown keyword, a duplicate, a plural with the wrong number of forms) becomes a
`Problem`; the scanner resyncs at the next entry and the rest of the file loads.

Rendering follows GNU gettext, not ICU: braces and apostrophes are plain text.
- A plural entry picks `msgstr[i]` with the file's own `Plural-Forms` expression (compiled by the
  stdlib's validating `gettext.c2py`), n = `values["count"]`. GNU's `ngettext` takes an
  `unsigned long`, so a count is truncated toward zero (1.5 -> 1) and a negative one wraps modulo
  2**64, as a C caller's would; an index past `nplurals` gives form 0, as libintl does. Python's
  `GNUTranslations.ngettext` differs: it evaluates the expression on 1.5 itself (with a
  DeprecationWarning), so `n != 1` picks the plural form where GNU picks the singular. A missing or
  non-numeric count picks the last form (the general plural of every common Plural-Forms).
- `python-format` entries are interpolated as `msgstr % values` would be: `%(name)s`, `%(n)d`,
  `%(x).2f`, `%%`, each value formatted by Python's own `%` (by name only, never attribute or index
  access). A name that is missing, or a value the conversion refuses (`%d` of a string), leaves the
  specifier as written where Python would raise. Positional specifiers (`%s`, `%d`) take the values
  "1", "2", ... in order (the pack's convention for printf-style positions: what
  `msgstr % (v1, v2)` prints), and are left as written in a message that also has named ones
  (Python raises for that mix). A `%` that starts no conversion makes the message invalid (Python
  raises ValueError): a Problem when first compiled.
- `c-format` and unflagged entries are returned exactly as written.

Editing (`PoFormat.edit`) keeps the file's lines and splices only the `msgstr` lines of the entry
set, written the way the file writes strings: wrapped as GNU's msgmerge (79 columns) or Babel (76)
wraps, or not at all, whichever reproduces the file's own strings; split after `\\n`; in its charset,
BOM and line endings. `clear_fuzzy` is how a write tool un-fuzzies an entry it has reviewed.
"""

from __future__ import annotations

import codecs
import functools
import gettext
import re
from array import array
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from parlance_i18n.errors import I18nError
from parlance_i18n.formats.base import (
    CatalogFileError,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    Value,
)
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.messageformat import PluralUse
from parlance_i18n.plurals import as_number, plural_rules

__all__ = ["PoDocument", "PoFormat", "PoMessages"]

CONTEXT_SEPARATOR = "\x04"
"""Between msgctxt and msgid in a key, as in `.mo` files and `pgettext`."""
PLURAL_ARGUMENT = "count"
_GERMANIC = "n != 1"
"""gettext's plural expression when the header has none (or an invalid one)."""
_ULONG = 2**64
_MAX_PADDING = 1000
"""Widths and precisions above this are left as written rather than expanded (`%(x)99999999s`)."""
_UTF8_BOM = b"\xef\xbb\xbf"
_MAX_PROBLEM_TEXT = 40

_CHARSET = re.compile(rb"charset=([A-Za-z][-\w.:]*)")
_ESCAPE = re.compile(r"\\(?:([ntr\"\\abfv?'])|([0-7]{1,3})|x([0-9A-Fa-f]+)|(.?))", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f",
           "v": "\v", "?": "?", "'": "'"}
_KEYWORD = re.compile(r"(\S+)\s*(.*)")
_INDEXED = re.compile(r"msgstr\[(\d+)\]")
_PYTHON_SPEC = re.compile(r"%(?:\(([^()]*)\))?([-#0 +]*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]?([diouxXeEfFgGcrsa%])")
_SURROGATE = re.compile("[\udc80-\udcff]")
_NEWLINE_PIECES = re.compile(r"[^\n]*\n|[^\n]+")
_QUOTED = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*')

# A raw entry, as the scanner finds it: line indexes (0-based) of its first comment, first keyword,
# first msgstr and one past its last line; then msgctxt, msgid, msgid_plural, the msgstr list, whether
# msgstr[N] was used, the `#,` flags text and the `#.` comments.
_Raw = tuple[int, int, int, int, "str | None", str, "str | None", list[str], bool, "str | None", "str | None"]


class _Bad(Exception):
    """A string or line the scanner cannot read: the reason is a sentence."""


# --- decoding --------------------------------------------------------------------------------------------


def _codec(charset: str | None) -> str:
    """The Python codec for a header's charset: UTF-8 when absent or the template's `CHARSET`."""
    if not charset or charset.upper() == "CHARSET":
        return "utf-8"
    try:
        return codecs.lookup(charset).name
    except LookupError:
        raise CatalogFileError(f"the header declares charset={charset[:30]!r}, which Python cannot decode; "
                               "use UTF-8") from None


def _first_guess(body: bytes, bom: bool) -> str:
    """The codec to read with until the header is parsed: UTF-8 after a BOM, else the first
    `charset=` in the file (almost always the header's; when not, the header's wins and the file is
    read again)."""
    guess = None if bom else _CHARSET.search(body, 0, 65536)
    try:
        return _codec(guess[1].decode() if guess else None)
    except CatalogFileError:
        return "utf-8"


def _decode(data: bytes, codec: str) -> tuple[str, bool]:
    """The text, and whether some bytes were not valid in `codec` (kept as surrogates, so the file
    still round-trips; the entries holding them are reported)."""
    try:
        return data.decode(codec), False
    except UnicodeDecodeError:
        return data.decode(codec, "surrogateescape"), True


def _header_charset(header: str) -> str | None:
    for line in header.split("\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == "content-type":
            found = _CHARSET.search(value.encode("ascii", "replace"))
            return found[1].decode() if found else None
    return None


# --- strings ----------------------------------------------------------------------------------------------


def _string(token: str, codec: str) -> str:
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
                raise _Bad("the string ends with a lone backslash, which escapes its closing quote")
            if token[:1] == '"' and token[-1:] == '"':
                raise _Bad('a double quote inside a string must be written \\"')
            raise _Bad("a string must be in double quotes on one line (continue it on the next line "
                       'with another "...")')
        pieces.append(found[1])
        position = found.end()
    if not pieces:
        raise _Bad("a keyword needs a string in double quotes after it")
    body = "".join(pieces)
    return body if "\\" not in body else _unescape(body, codec)


def _unescape(body: str, codec: str) -> str:
    """`body` (a string's inside) with its C escapes resolved; _Bad for a bare quote or a bad escape."""
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
            raise _Bad('a double quote inside a string must be written \\"')
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
            raise _Bad('the string ends with a lone backslash, which escapes its closing quote')
        else:
            raise _Bad(f"\\{other} is not a C escape (gettext knows \\n, \\t, \\r, \\\", \\\\, \\a, \\b, "
                       "\\f, \\v, octal \\ooo and hex \\xhh)")
        position = match.end()
    tail = body[position:]
    if '"' in tail:
        raise _Bad('a double quote inside a string must be written \\"')
    parts.append(tail)
    text = "".join(parts)
    if raw_bytes:  # octal/hex escapes are bytes of the file's charset (UTF-8 "\303\251" is "é")
        try:
            text = text.encode("latin-1", "surrogateescape").decode(codec)
        except (UnicodeEncodeError, UnicodeDecodeError):
            raise _Bad(f"octal or hex escapes in the string are not valid {codec} bytes") from None
    return text


_ESCAPES_OUT = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
                "\f": "\\f", "\v": "\\v"}
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')


def _escape(text: str) -> str:
    """`text` as the inside of a PO string (what `msgcat` writes)."""
    if not _NEEDS_ESCAPE.search(text):
        return text
    return _NEEDS_ESCAPE.sub(lambda m: _ESCAPES_OUT.get(m[0]) or f"\\{ord(m[0]):03o}", text)


# --- the scanner ------------------------------------------------------------------------------------------


_FIELD = r'".*"(?:\n".*")*+'
_OTHER_COMMENTS = r"(?:#(?![.,~]).*\n)*+"
_ENTRY = re.compile(
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
by `_field` (in Python only when it holds a quote or a backslash). Anything else goes to `_scan`."""
_MSGSTR_SPLIT = re.compile(r"\nmsgstr\[([0-9]+)\] ")


def _field(raw: str, codec: str) -> str:
    """The value of a string field the entry regex matched (`"..."` lines); _Bad when one is not a
    closed string or holds a bare quote (the scanner then reports it)."""
    body = raw[1:-1]
    if '"' not in body:  # one line, no quote inside
        return body if "\\" not in body else _unescape(body, codec)
    if '\\"\n"' in body:  # a line's inside ends with a backslash: is its closing quote escaped?
        parts = body.split('"\n"')  # each line's inside (none holds a newline)
        for part in parts:
            if part[-1:] == "\\" and (len(part) - len(part.rstrip("\\"))) % 2:
                raise _Bad("a line's closing quote is escaped")
        body = "".join(parts)
    else:
        body = body.replace('"\n"', "")
    if "\\" in body:
        return _unescape(body, codec)  # which refuses a quote that is not escaped
    if '"' in body:
        raise _Bad("a bare quote")
    return body


def _scan(lines: list[str], codec: str, offset: int = 0) -> tuple[list[_Raw], list[Problem]]:
    """Every well-formed live entry among `lines` (the first is line `offset`, 0-based), in order,
    and a Problem for each broken one.

    One state machine over the lines, its state in locals. After a syntax error it skips to the next
    entry: a blank or comment line, or a msgctxt/msgid line once the broken entry's msgstr has gone
    by (so a broken msgctxt cannot leak its msgid as a message).
    """
    entries: list[_Raw] = []
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
            if line[-1] == '"' and len(line) > 1 and '"' not in (body := line[1:-1]) and "\\" not in body:
                pass
            else:
                try:
                    body = _string(line, codec)
                except _Bad as bad:
                    error = str(bad)
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
                first = -1
                ctxt = msgid = plural = flags = extracted = None
                strs = None
                indexed = False
                field = 0
            if rest[-1:] == '"' and len(rest) > 1 and '"' not in (body := rest[1:-1]) and "\\" not in body:
                pass
            else:
                try:
                    body = _string(rest, codec)
                except _Bad as bad:
                    error = str(bad)
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
                first = -1
                ctxt = msgid = plural = flags = extracted = None
                strs = None
                indexed = False
                field = 0
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
                strs = None
                indexed = False
            elif msgid is not None or ctxt is not None:
                problems.append(Problem(_key_of(ctxt, msgid), keyline + 1,
                                        "the entry has no msgstr (write msgstr \"\" when untranslated)"))
            first = -1
            ctxt = msgid = plural = flags = extracted = None
            field = 0
            continue
        elif skipping:
            continue
        else:
            error = f"unexpected text {line[:20]!r}: expected a comment, a keyword or a quoted string"
        # an error on this line: report it, drop the entry, skip to the next one
        problems.append(Problem(_key_of(ctxt, msgid), number + 1, error))  # type: ignore[arg-type]
        skipping = True
        skipped_msgstr = strs is not None
        error = None
        first = -1
        ctxt = msgid = plural = flags = extracted = None
        strs = None
        indexed = False
        field = 0
    if strs is not None:
        add_entry((first if first >= 0 else keyline, keyline, strline, last + 1, ctxt, msgid, plural, strs,
                   indexed, flags, extracted))
    elif msgid is not None or ctxt is not None:
        problems.append(Problem(_key_of(ctxt, msgid), keyline + 1,
                                "the entry has no msgstr (write msgstr \"\" when untranslated)"))
    return entries, problems


def _key_of(ctxt: str | None, msgid: str | None) -> str | None:
    if msgid is None:
        return None
    return msgid if ctxt is None else f"{ctxt}{CONTEXT_SEPARATOR}{msgid}"


def _flag_set(flags: str | None) -> frozenset[str]:
    return frozenset(flag.strip() for flag in flags.split(",")) if flags else frozenset()


def _shown(key: str) -> str:
    shown = key.replace(CONTEXT_SEPARATOR, " | ")
    return repr(shown if len(shown) <= _MAX_PROBLEM_TEXT else shown[:_MAX_PROBLEM_TEXT] + "...")


# --- the header and Plural-Forms ----------------------------------------------------------------------


def _parse_header(text: str) -> dict[str, str]:
    """The header's `Name: value` lines (`Plural-Forms`, `Language`, ...)."""
    fields: dict[str, str] = {}
    for line in text.split("\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip():
            fields[name.strip()] = value.strip()
    return fields


def _plural_forms(header: Mapping[str, str]) -> tuple[int, str, str | None]:
    """nplurals, the expression, and the reason they are not usable (then: 2, `n != 1`)."""
    value = next((v for k, v in header.items() if k.lower() == "plural-forms"), None)
    if value is None or "INTEGER" in value:  # absent, or a template's placeholder
        return 2, _GERMANIC, None
    nplurals: int | None = None
    expression: str | None = None
    for part in value.split(";"):
        name, sep, setting = part.partition("=")
        name = name.strip()
        if sep and name == "nplurals" and setting.strip().isdigit():
            nplurals = int(setting.strip())
        elif sep and name == "plural":
            expression = setting.strip()
    if nplurals is None or expression is None or not 1 <= nplurals <= 100:
        return 2, _GERMANIC, ("the header's Plural-Forms must read `nplurals=N; plural=EXPRESSION;`; "
                              "using nplurals=2; plural=n != 1")
    reason = _plural_function(expression, nplurals)[1]
    if reason is not None:  # keep nplurals: the entries were written for it
        return nplurals, _GERMANIC, reason
    return nplurals, expression, None


@functools.lru_cache(maxsize=64)
def _plural_function(expression: str, nplurals: int) -> tuple[Callable[[int], int], str | None]:
    """The compiled expression and, when it is unusable, why (then the function is `n != 1`).

    Checked as `msgfmt --check` does, on n = 0..1000: it must not divide by zero or pick a form
    past nplurals.
    """
    germanic = gettext.c2py(_GERMANIC)
    try:
        function = gettext.c2py(expression)
    except (ValueError, SyntaxError):
        return germanic, (f"the header's plural expression {expression[:60]!r} is not a valid C expression "
                          "of n; using n != 1")
    try:
        largest = max(function(n) for n in range(1001))
    except ZeroDivisionError:
        return germanic, "the header's plural expression divides by zero for some n; using n != 1"
    if largest >= nplurals or largest < 0:
        return germanic, (f"the header's plural expression picks form {largest} but nplurals={nplurals}; "
                          "using n != 1")
    return function, None


@functools.lru_cache(maxsize=256)
def _category_forms(tag: LocaleTag, expression: str, nplurals: int) -> dict[str, int]:
    """Which msgstr index each CLDR cardinal category of `tag` reaches (by a sample number of it).

    A category only decimals reach (Russian `other`: 1.5) maps where GNU's truncation sends its
    sample (1.5 -> 1).
    """
    rules = plural_rules(tag)
    function = _plural_function(expression, nplurals)[0]
    samples: dict[str, int] = {}
    for n in (*range(0, 1001), 1_000_000, 10_000_000):
        samples.setdefault(rules.cardinal(n), n)
    for whole in range(0, 101):
        for fraction in ("5", "1", "25"):
            decimal = Decimal(f"{whole}.{fraction}")
            samples.setdefault(rules.cardinal(decimal), int(decimal))
    mapping: dict[str, int] = {}
    for category in sorted(rules.cardinal_categories):
        if category in samples:
            mapping[category] = _gnu_index(function, samples[category], nplurals)
    return mapping


def _gnu_index(function: Callable[[int], int], n: int, nplurals: int) -> int:
    """What libintl picks: the expression on an unsigned long, form 0 when out of range."""
    try:
        index = function(n % _ULONG)
    except ZeroDivisionError:
        return 0
    return index if 0 <= index < nplurals else 0


class _Choice:
    """One file's plural rule: the compiled expression, nplurals, and its CLDR category map."""

    __slots__ = ("expression", "nplurals", "tag", "_function")

    def __init__(self, expression: str, nplurals: int, tag: LocaleTag) -> None:
        self.expression = expression
        self.nplurals = nplurals
        self.tag = tag
        self._function = _plural_function(expression, nplurals)[0]

    def index(self, values: Mapping[str, Any] | None) -> int:
        count = values.get(PLURAL_ARGUMENT) if values else None
        number = as_number(count) if count is not None else None
        if number is None:
            return self.nplurals - 1
        n = number if number.__class__ is int else int(number)  # C truncates toward zero
        return _gnu_index(self._function, n, self.nplurals)  # type: ignore[arg-type]

    def category_forms(self) -> dict[str, int]:
        return dict(_category_forms(self.tag, self.expression, self.nplurals))


# --- compiled messages --------------------------------------------------------------------------------------


class _Invalid(Exception):
    """A translation that cannot be rendered (a python-format `%` that starts no conversion)."""


_EMPTY: frozenset[str] = frozenset()
_MISSING = object()


class PoText:
    """A translation returned exactly as written (c-format, unflagged, or python-format without `%`)."""

    __slots__ = ("source",)
    arguments: ClassVar[frozenset[str]] = _EMPTY
    plurals: ClassVar[tuple[PluralUse, ...]] = ()

    def __init__(self, source: str) -> None:
        self.source = source

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        source = self.source
        return source if len(source) <= limit else source[:limit]

    def __repr__(self) -> str:
        return f"PoText({self.source!r})"


class PoPythonFormat:
    """A python-format translation: literal pieces and `(name, spec, as written)` specifiers."""

    __slots__ = ("source", "arguments", "_steps")
    plurals: ClassVar[tuple[PluralUse, ...]] = ()

    def __init__(self, source: str, steps: tuple[Any, ...], arguments: frozenset[str]) -> None:
        self.source = source
        self.arguments = arguments
        self._steps = steps

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        out: list[str] = []
        size = 0
        for step in self._steps:
            if step.__class__ is str:
                piece = step
            else:
                name, spec, written = step
                value = values.get(name, _MISSING) if values else _MISSING
                if value is _MISSING:
                    piece = written
                else:
                    if value.__class__ is str and len(value) > limit:
                        value = value[:limit]
                    try:
                        piece = spec % (value,)
                    except (TypeError, ValueError, OverflowError):
                        piece = written  # where `msgstr % values` would raise
            out.append(piece)
            size += len(piece)
            if size >= limit:
                break
        text = "".join(out)
        return text if len(text) <= limit else text[:limit]

    def __repr__(self) -> str:
        return f"PoPythonFormat({self.source!r})"


def _compile_python_format(text: str) -> PoText | PoPythonFormat:
    """Steps for a python-format translation; raises _Invalid where Python's `%` would raise ValueError."""
    if "%" not in text:
        return PoText(text)
    steps: list[Any] = []
    named: set[str] = set()
    positional: list[int] = []  # indexes into steps of positional specifiers
    position = 0
    literal: list[str] = []
    while (percent := text.find("%", position)) >= 0:
        literal.append(text[position:percent])
        match = _PYTHON_SPEC.match(text, percent)
        if match is None:
            raise _Invalid(f"the python-format translation has a % at character {percent + 1} that starts no "
                           "conversion (write %% for a percent sign); Python's % would raise ValueError")
        name, flags, width, precision, conversion = match.groups()
        written = match[0]
        position = match.end()
        if conversion == "%":
            literal.append("%")
            continue
        if literal:
            steps.append("".join(literal))
            literal = []
        if _too_wide(width) or _too_wide(precision):
            steps.append(written)  # `*` needs a tuple; absurd padding is not expanded
            continue
        spec = f"%{flags}{width or ''}{'' if precision is None else '.' + precision}{conversion}"
        if name is None:
            positional.append(len(steps))
            steps.append((str(len(positional)), spec, written))
        else:
            named.add(name)
            steps.append((name, spec, written))
    literal.append(text[position:])
    steps.append("".join(literal))
    if named and positional:  # Python cannot mix them: positional ones stay as written
        for index in positional:
            steps[index] = steps[index][2]
        positional = []
    merged: list[Any] = []
    for step in steps:
        if step.__class__ is str and merged and merged[-1].__class__ is str:
            merged[-1] += step
        elif step != "":
            merged.append(step)
    if all(step.__class__ is str for step in merged):
        return PoText(text) if "".join(merged) == text else PoPythonFormat(text, tuple(merged), _EMPTY)
    arguments = frozenset(named | {str(i + 1) for i in range(len(positional))})
    return PoPythonFormat(text, tuple(merged), arguments)


def _too_wide(digits: str | None) -> bool:
    return digits is not None and (digits == "*" or len(digits) > 4 or int(digits) > _MAX_PADDING)


class PoPlural:
    """A plural entry: its forms (each a PoText or PoPythonFormat) and the file's Plural-Forms."""

    __slots__ = ("source", "forms", "_compiled", "_choice")

    def __init__(self, forms: tuple[str, ...], compiled: tuple[PoText | PoPythonFormat, ...],
                 choice: _Choice) -> None:
        self.source = forms[0]
        """msgstr[0]; every form is in `forms`."""
        self.forms = forms
        self._compiled = compiled
        self._choice = choice

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._compiled[self._choice.index(values)].render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        names = {PLURAL_ARGUMENT}
        for form in self._compiled:
            names.update(form.arguments)
        return frozenset(names)

    @property
    def category_forms(self) -> dict[str, int]:
        """Which msgstr index each CLDR cardinal category of the locale reaches."""
        return self._choice.category_forms()

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        reached = frozenset(category for category, index in self.category_forms.items() if index < len(self.forms))
        return (PluralUse(PLURAL_ARGUMENT, False, reached),)

    def __repr__(self) -> str:
        return f"PoPlural({self.forms!r})"


# --- reading ------------------------------------------------------------------------------------------------


class PoMessages(LocaleMessages):
    """One PO file's translations for one locale, as `msgfmt` would compile them.

    Served: translated, non-fuzzy, non-obsolete entries. Known but not served: `fuzzy_keys`,
    `untranslated_keys` (empty msgstr, or a plural with an empty form). `header` holds the header
    fields; `nplurals` and `plural_expression` the Plural-Forms in use.
    """

    def __init__(self, tag: LocaleTag) -> None:
        self.problems: list[Problem] = []
        self.fuzzy_keys: set[str] = set()
        self.untranslated_keys: set[str] = set()
        self.header: dict[str, str] = {}
        self.nplurals = 2
        self.plural_expression = _GERMANIC
        self._tag = tag
        self._texts: dict[str, str | tuple[str, ...]] = {}
        self._lines = array("I")  # each served key's line, in `_texts` order
        self._python: set[str] = set()
        self._comments: dict[str, str] = {}
        self._plural_ids: dict[str, str] = {}
        self._compiled: dict[str, Any] = {}
        self._invalid: set[str] = set()
        self._positions: dict[str, int] | None = None
        self._choice = _Choice(_GERMANIC, 2, tag)

    def text(self, key: str) -> Value | None:
        text = self._texts.get(key)
        if text is None or key in self._invalid:
            return None
        if text.__class__ is tuple:
            return {str(i): form for i, form in enumerate(text)}
        return text  # type: ignore[return-value]

    def source_text(self, key: str) -> Value | None:
        """The source the file carries for a served key: its msgid, or {"0": msgid, "1": msgid_plural}."""
        if key not in self._texts or key in self._invalid:
            return None
        msgid = key.rpartition(CONTEXT_SEPARATOR)[2]
        if key in self._plural_ids:
            return {"0": msgid, "1": self._plural_ids[key]}
        return msgid

    def is_python_format(self, key: str) -> bool:
        return key in self._python

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        text = self._texts.get(key)
        if text is None or key in self._invalid:
            return default
        try:
            found = self._compile(key, text)
        except _Invalid as invalid:
            self._invalid.add(key)
            self.problems.append(Problem(key, self.line_of(key), str(invalid)))
            return default
        self._compiled[key] = found
        return found

    def _compile(self, key: str, text: str | tuple[str, ...]) -> Any:
        python = key in self._python
        if text.__class__ is str:
            return _compile_python_format(text) if python else PoText(text)  # type: ignore[arg-type]
        forms: tuple[str, ...] = text  # type: ignore[assignment]
        compiled = tuple(_compile_python_format(form) if python else PoText(form) for form in forms)
        return PoPlural(forms, compiled, self._choice)

    def comment(self, key: str) -> str | None:
        return self._comments.get(key)

    def line_of(self, key: str) -> int | None:
        """The 1-based line of a served key's entry (msgctxt or msgid); an index is built on first call."""
        if self._positions is None:
            self._positions = {k: i for i, k in enumerate(self._texts)}
        position = self._positions.get(key)
        return None if position is None else self._lines[position]

    def __iter__(self) -> Iterator[str]:
        if not self._invalid:
            return iter(self._texts)
        return (key for key in self._texts if key not in self._invalid)

    def __len__(self) -> int:
        return len(self._texts) - len(self._invalid)

    def __contains__(self, key: object) -> bool:
        return key in self._texts and key not in self._invalid


def _read(data: bytes, tag: LocaleTag, forced: str | None = None, *, fast: bool = True) -> PoMessages:
    """The messages of a PO file. `fast=False` reads every line with the scanner (the reference the
    fast path is tested against); `forced` is the charset once the header has named it."""
    bom = data.startswith(_UTF8_BOM)
    body = data[3:] if bom else data
    codec = forced or _first_guess(body, bom)
    text, undecodable = _decode(body, codec)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    messages = PoMessages(tag)
    problems = messages.problems
    texts = messages._texts
    fuzzy = messages.fuzzy_keys
    untranslated = messages.untranslated_keys
    add_line = messages._lines.append
    comments = messages._comments
    python = messages._python
    plural_ids = messages._plural_ids
    flag_sets: dict[str, frozenset[str]] = {}
    header_line = 0
    nplurals = 2
    late_plurals: list[str] = []
    match_entry = _ENTRY.match
    split_msgstrs = _MSGSTR_SPLIT.split
    count = text.count
    size = len(text)
    position = line = 0  # `line` is the 0-based line of `position`
    queue: list[_Raw] = []  # entries the scanner read from a stretch the fast path did not accept
    queued = 0
    if not fast:
        queue, found = _scan(text.split("\n"), codec)
        problems.extend(found)
        position = size
    while position < size and text[position] == "\n":
        position += 1
        line += 1
    while True:
        # -- the next entry: (keyline, ctxt, msgid, plural, strs, flags, notes) --
        if queued < len(queue):
            raw = queue[queued]
            queued += 1
            keyline, ctxt, msgid, plural, flags, notes = raw[1], raw[4], raw[5], raw[6], raw[9], raw[10]
            strs: list[str] | tuple[str, ...] = raw[7]
        elif position < size:
            match = match_entry(text, position)
            if match is not None:
                comment_block, notes, flags, ctxt, msgid, single, plural, multi = match.groups()
                try:
                    if single is not None:
                        value = single[1:-1]
                        strs = (value if '"' not in value and "\\" not in value else _field(single, codec),)
                    else:
                        parts = split_msgstrs(multi)
                        forms = [_field(parts[0], codec)]
                        for index in range(1, len(parts), 2):
                            if int(parts[index]) != len(forms):
                                raise _Bad("out of order")  # the scanner says which
                            forms.append(_field(parts[index + 1], codec))
                        strs = tuple(forms)
                        plural = _field(plural, codec)
                    value = msgid[1:-1]
                    msgid = value if '"' not in value and "\\" not in value else _field(msgid, codec)
                    if ctxt is not None:
                        ctxt = _field(ctxt, codec)
                except _Bad:
                    match = None
            if match is None:
                end = text.find("\n\n", position)
                if end < 0:
                    end = size
                queue, found = _scan(text[position:end].split("\n"), codec, line)
                queued = 0
                problems.extend(found)
                line += count("\n", position, end)
                position = end
            else:
                keyline = line + comment_block.count("\n")
                if notes:
                    notes = "\n".join(note[2:].strip() for note in notes[:-1].split("\n"))
                else:
                    notes = None
                end = match.end()
                line += count("\n", position, end)
                position = end
            while position < size and text[position] == "\n":
                position += 1
                line += 1
            if match is None:
                continue
        else:
            break
        # -- what gettext makes of it --
        key = msgid if ctxt is None else f"{ctxt}{CONTEXT_SEPARATOR}{msgid}"
        if key in texts or key in fuzzy or key in untranslated or (not key and header_line):
            problems.append(Problem(key, keyline + 1, f"{_shown(key)} is defined twice; the first one is used"))
            continue
        if undecodable and (_SURROGATE.search(key) or any(_SURROGATE.search(s) for s in strs)):
            problems.append(Problem(key, keyline + 1, f"the entry has bytes that are not valid {codec}, "
                                                      "the header's charset"))
            continue
        if not key:
            header_line = keyline + 1
            messages.header = _parse_header(strs[0])
            declared = _codec(_header_charset(strs[0]))
            if forced is None and not bom and declared != codec:
                return _read(data, tag, declared, fast=fast)  # the first charset= seen was not the header's
            nplurals, expression, reason = _plural_forms(messages.header)
            if reason is not None:
                problems.append(Problem(None, header_line, reason))
            messages.nplurals, messages.plural_expression = nplurals, expression
            messages._choice = _Choice(expression, nplurals, tag)
            continue
        if flags is not None:
            flag_set = flag_sets.get(flags)
            if flag_set is None:
                flag_set = flag_sets[flags] = _flag_set(flags)
            if "fuzzy" in flag_set:
                fuzzy.add(key)
                continue
        if plural is None:
            value = strs[0]
            if not value:
                untranslated.add(key)
                continue
            texts[key] = value
        else:
            if not all(strs):
                untranslated.add(key)
                continue
            if not header_line:
                late_plurals.append(key)  # checked once the header is known
            elif len(strs) != nplurals:
                problems.append(_forms_problem(key, keyline + 1, len(strs), nplurals))
                continue
            texts[key] = tuple(strs)
            plural_ids[key] = plural
        add_line(keyline + 1)
        if flags is not None and "python-format" in flag_set:
            python.add(key)
        if notes is not None:
            comments[key] = notes
    for key in late_plurals:
        forms = texts[key]
        if len(forms) != messages.nplurals:
            messages._invalid.add(key)
            problems.append(_forms_problem(key, messages.line_of(key), len(forms), messages.nplurals))
    return messages


def _forms_problem(key: str, line: int | None, count: int, nplurals: int) -> Problem:
    return Problem(key, line, f"the entry has {count} plural forms but the header's Plural-Forms says "
                              f"nplurals={nplurals}; write msgstr[0] to msgstr[{nplurals - 1}]")


# --- editing ------------------------------------------------------------------------------------------------


_Style = tuple[str, "int | None", bool]
"""How a file writes strings: the wrapping tool ("gnu" or "babel"), its width (None: no wrapping),
and whether strings are split after each `\\n`."""
_STYLES: tuple[_Style, ...] = (
    ("gnu", 79, True), ("babel", 76, True), ("gnu", None, True),
    ("gnu", 79, False), ("babel", 76, False), ("gnu", None, False),
)
"""The styles a file may be written in, the first preferred when the file does not tell: GNU's
msgmerge/msgcat (79 columns), Babel's (76), either with --no-wrap; all split after newlines by
default."""
_FIELD_LINE = re.compile(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[[0-9]+\])?) (".*")')
_BABEL_BREAKS = re.compile(r"(\s+|[^\s\w]*\w+[A-Za-z]-(?=\w+[A-Za-z]))")
"""Where Babel may break a line: at runs of blanks, and after the hyphen of a hyphenated word."""
_SAMPLES = 200


def _wrap(keyword: str, value: str, style: _Style) -> list[str]:
    """`keyword "value"` as the tool of `style` writes it (lines without endings).

    GNU: on one line when `keyword "..."` fits in the width or cannot break; else `keyword ""` then
    each newline-ended piece on lines of at most `width` columns, broken after spaces (GNU also
    applies the rest of Unicode's line breaking rules; breaking after spaces covers the usual text).
    Babel: the same, measuring only the quoted string, and lines shorter than `width`, broken
    before or after runs of blanks and after hyphens inside words.
    """
    tool, width, split = style
    segments = _NEWLINE_PIECES.findall(value) if split and "\n" in value[:-1] else [value]
    escaped = _escape(value)
    if len(segments) <= 1:
        if width is None or " " not in value.strip(" "):
            return [f'{keyword} "{escaped}"']
        if (len(keyword) + 3 if tool == "gnu" else 2) + len(escaped) <= width:
            return [f'{keyword} "{escaped}"']
    lines = [f'{keyword} ""']
    for segment in segments:
        piece = _escape(segment)
        if width is None or len(piece) + 2 <= width:
            lines.append(f'"{piece}"')
            continue
        if tool == "gnu":
            words, limit = re.findall(r"[^ ]+ *| +", piece), width
        else:
            words, limit = [_escape(w) for w in _BABEL_BREAKS.split(segment) if w], width - 1
        current = ""
        for word in words:
            if current and len(current) + len(word) + 2 > limit:
                lines.append(f'"{current}"')
                current = word
            else:
                current += word
        lines.append(f'"{current}"')
    return lines


def _detect_style(lines: list[str], codec: str) -> _Style:
    """The style that reproduces most of the file's telling strings: those on several lines, and
    long ones on one line (short one-line strings look the same in every style)."""
    samples: list[tuple[str, str, list[str]]] = []
    index = 0
    while index < len(lines) and len(samples) < _SAMPLES:
        line = lines[index].rstrip("\r\n")
        index += 1
        found = _FIELD_LINE.fullmatch(line)
        if found is None:
            continue
        raw = [line]
        while index < len(lines) and lines[index].startswith('"'):
            raw.append(lines[index].rstrip("\r\n"))
            index += 1
        if len(raw) == 1 and len(line) <= 70:
            continue
        try:
            value = "".join(_string(piece, codec) for piece in [found[2], *raw[1:]])
        except _Bad:
            continue
        samples.append((found[1], value, raw))
    return max(_STYLES, key=lambda style: sum(_wrap(k, v, style) == raw for k, v, raw in samples))


class _Entry:
    """A live entry of a Document: its key, line span (0-based, end exclusive) and strings."""

    __slots__ = ("key", "first", "keyline", "strline", "end", "plural", "strs", "indexed")

    def __init__(self, key: str, raw: _Raw) -> None:
        self.key = key
        self.first, self.keyline, self.strline, self.end = raw[0], raw[1], raw[2], raw[3]
        self.plural = raw[6]
        self.strs = list(raw[7])
        self.indexed = raw[8]

    def shift(self, delta: int) -> None:
        self.first += delta
        self.keyline += delta
        self.strline += delta
        self.end += delta


class PoDocument(Document):
    """An editable PO file: its lines (with their own endings) and an index of its live entries.

    Keys are every live entry's, the header's excepted: translated, fuzzy and untranslated alike.
    Values are msgstr texts: a str, or {"0": ..., "1": ...} for msgstr[N]. Edits replace only the
    lines they must; flags (`#, fuzzy`) are left alone unless `clear_fuzzy` is called.
    """

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._bom = data.startswith(_UTF8_BOM)
        body = data[3:] if self._bom else data
        self._codec = _first_guess(body, self._bom)
        self._load(body)
        header = next((e for e in self._all if e.key == ""), None)
        if header is not None and not self._bom:
            declared = _codec(_header_charset(header.strs[0]))
            if declared != self._codec:
                self._codec = declared
                self._load(body)
        self._dirty = False
        self._style: _Style | None = None

    def _load(self, body: bytes) -> None:
        text, _ = _decode(body, self._codec)
        parts = text.split("\n")
        lines = [part + "\n" for part in parts[:-1]]
        if parts[-1]:
            lines.append(parts[-1])
        self._lines = lines
        self._newline = "\r\n" if 2 * sum(1 for line in lines if line.endswith("\r\n")) > len(lines) else "\n"
        raws, self.problems = _scan([line.rstrip("\r\n") for line in lines], self._codec)
        self._all: list[_Entry] = []
        self._index: dict[str, _Entry] = {}
        for raw in raws:
            key = _key_of(raw[4], raw[5])
            assert key is not None
            if key in self._index:
                continue  # a duplicate stays in the file untouched; the first one is the entry
            entry = _Entry(key, raw)
            self._all.append(entry)
            self._index[key] = entry

    # -- reading --

    def keys(self) -> list[str]:
        return [entry.key for entry in self._all if entry.key]

    def get(self, key: str) -> Value | None:
        entry = self._index.get(key) if key else None
        if entry is None:
            return None
        if entry.indexed:
            return {str(i): form for i, form in enumerate(entry.strs)}
        return entry.strs[0]

    def line_of(self, key: str) -> int | None:
        entry = self._index.get(key) if key else None
        return None if entry is None else entry.keyline + 1

    def is_fuzzy(self, key: str) -> bool:
        entry = self._entry(key)
        return any(_is_flags_line(line) and "fuzzy" in _flag_set(line.strip()[2:])
                   for line in self._lines[entry.first:entry.keyline])

    # -- editing --

    def set(self, key: str, value: Value) -> None:
        entry = self._entry(key)
        if self.get(key) == value:
            return
        if entry.indexed != (not isinstance(value, str)):
            kind = "a dict of forms {'0': ..., '1': ...}" if entry.indexed else "a str"
            raise ValueError(f"{_shown(key)} is {'a plural' if entry.indexed else 'a singular'} entry: "
                             f"its value must be {kind}")
        new = self._msgstr_lines(value)
        self._replace(entry, entry.strline, entry.end, new)
        entry.strs = _forms(value)

    def add(self, key: str, value: Value, *, msgid_plural: str | None = None) -> None:
        """Append a new entry after the last one. A plural value ({"0": ..., ...}) needs a
        msgid_plural; without one the msgid is used for both."""
        if not key or key in self._index:
            raise KeyError(key)
        ctxt, sep, msgid = key.rpartition(CONTEXT_SEPARATOR)
        lines: list[str] = []
        if sep:
            lines += self._wrap("msgctxt", ctxt)
        lines += self._wrap("msgid", msgid)
        if isinstance(value, dict):
            lines += self._wrap("msgid_plural", msgid if msgid_plural is None else msgid_plural)
        lines += self._msgstr_lines(value)
        self._encodable("".join(lines))
        after = max((e for e in self._all), key=lambda e: e.end, default=None)
        at = after.end if after is not None else len(self._lines)
        newline = self._newline
        block = ([newline] if at > 0 else []) + [line + newline for line in lines]
        if at == len(self._lines) and self._lines and not self._lines[-1].endswith("\n"):
            self._lines[-1] += newline  # the file ended without a newline: so will it still
            block[-1] = block[-1][: -len(newline)]
        self._lines[at:at] = block
        start = at + (1 if at > 0 else 0)
        raw: _Raw = (start, start, start + len(lines) - len(self._msgstr_lines(value)), start + len(lines),
                     ctxt if sep else None, msgid, msgid_plural if isinstance(value, dict) else None,
                     _forms(value), isinstance(value, dict), None, None)
        entry = _Entry(key, raw)
        for other in self._all:
            if other.first >= at:
                other.shift(len(block))
        self._all.append(entry)
        self._all.sort(key=lambda e: e.first)
        self._index[key] = entry
        self._dirty = True

    def delete(self, key: str) -> None:
        entry = self._entry(key)
        start, end = entry.first, entry.end
        lines = self._lines
        if start > 0 and not lines[start - 1].strip():
            start -= 1  # the blank line before it, so one blank stays between its neighbours
        elif end < len(lines) and not lines[end].strip():
            end += 1
        unterminated_tail = end == len(lines) and not lines[-1].endswith("\n")
        del lines[start:end]
        if unterminated_tail and lines:
            lines[-1] = lines[-1].rstrip("\r\n")  # keep "no newline at the end of the file"
        self._all.remove(entry)
        del self._index[key]
        for other in self._all:
            if other.first >= end:
                other.shift(start - end)
        self._dirty = True

    def clear_fuzzy(self, key: str, *, previous: bool = True) -> bool:
        """Remove the `fuzzy` flag from `key`'s `#,` line (the line goes when no flag is left) and,
        with `previous`, its `#|` lines (the earlier msgid msgmerge kept for the translator).
        Returns whether the entry was fuzzy."""
        entry = self._entry(key)
        changed = False
        kept: list[str] = []
        for line in self._lines[entry.first:entry.keyline]:
            stripped = line.strip()
            if _is_flags_line(stripped):
                flags = [flag.strip() for flag in stripped[2:].split(",") if flag.strip()]
                if "fuzzy" in flags:
                    changed = True
                    flags.remove("fuzzy")
                    if flags:
                        ending = line[len(line.rstrip("\r\n")):]
                        kept.append("#, " + ", ".join(flags) + ending)
                    continue
            kept.append(line)
        if not changed:
            return False
        if previous:
            kept = [line for line in kept if not line.startswith("#|")]
        self._replace(entry, entry.first, entry.keyline, [line.rstrip("\r\n") for line in kept], from_top=True)
        return True

    def to_bytes(self) -> bytes:
        if not self._dirty:
            return self._data
        body = "".join(self._lines).encode(self._codec, "surrogateescape")
        return _UTF8_BOM + body if self._bom else body

    # -- helpers --

    def _entry(self, key: str) -> _Entry:
        entry = self._index.get(key) if key else None
        if entry is None:
            raise KeyError(key)
        return entry

    def _replace(self, entry: _Entry, start: int, end: int, new: list[str], *, from_top: bool = False) -> None:
        """Put `new` (lines without endings) in place of lines[start:end] of `entry`."""
        self._encodable("".join(new))
        old = self._lines[start:end]
        endings = [line[len(line.rstrip("\r\n")):] for line in old]
        ending = endings[-1] if endings else self._newline
        replacement = [line + self._newline for line in new]
        if replacement and not ending:  # the entry was the file's last line, without a newline
            replacement[-1] = new[-1]
        self._lines[start:end] = replacement
        delta = len(replacement) - len(old)
        if delta:
            if from_top:
                entry.keyline += delta
                entry.strline += delta
            entry.end += delta
            for other in self._all:
                if other.first >= end and other is not entry:
                    other.shift(delta)
        self._dirty = True

    def _encodable(self, text: str) -> None:
        try:
            text.encode(self._codec)
        except UnicodeEncodeError as exc:
            raise ValueError(f"{text[exc.start]!r} cannot be written in {self._codec}, the file's charset") from None

    def _msgstr_lines(self, value: Value) -> list[str]:
        forms = _forms(value)
        if isinstance(value, str):
            return self._wrap("msgstr", value)
        lines: list[str] = []
        for index, form in enumerate(forms):
            lines += self._wrap(f"msgstr[{index}]", form)
        return lines

    def _wrap(self, keyword: str, value: str) -> list[str]:
        if self._style is None:
            self._style = _detect_style(self._lines, self._codec)
        return _wrap(keyword, value, self._style)


def _is_flags_line(line: str) -> bool:
    return line.startswith("#,")


def _forms(value: Value) -> list[str]:
    """A value's msgstr texts in order; ValueError unless a str or {"0": str, "1": str, ...}."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, dict) or sorted(value, key=lambda i: (len(i), i)) != [str(i) for i in range(len(value))]:
        raise ValueError("plural forms are a dict keyed by msgstr index: {'0': ..., '1': ...}")
    if not all(isinstance(form, str) for form in value.values()):
        raise ValueError("each plural form must be a str")
    return [value[str(i)] for i in range(len(value))]


# --- the format -------------------------------------------------------------------------------------------


class PoFormat(CatalogFormat):
    """gettext PO and POT files (see the module docstring)."""

    name: ClassVar[str] = "po"
    suffixes: ClassVar[tuple[str, ...]] = (".po", ".pot")

    def read(self, data: bytes, tag: LocaleTag) -> PoMessages:
        return _read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> PoDocument:
        return PoDocument(data)

    def sniff(self, head: bytes) -> bool:
        return b'msgid "' in head and b"msgstr" in head

    def locale_spelling(self, tag: LocaleTag) -> str:
        """gettext's spelling: `pt_BR`, `sr@latin` (scripts as @modifiers), `ca@valencia`."""
        modifier = _SCRIPT_MODIFIERS.get(tag.script or "")
        parts = [tag.language, *([tag.script] if tag.script and modifier is None else []),
                 *([tag.region] if tag.region else [])]
        text = "_".join(parts)
        if modifier is not None:
            text += f"@{modifier}"
        for variant in tag.variants:
            text += f"@{variant}"
        return text

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`de_DE.UTF-8` -> de-DE, `sr@latin` -> sr-Latn, `ca@valencia` -> ca-valencia; None otherwise."""
        base, _, modifier = text.partition("@")
        base = base.partition(".")[0]
        if not base[:2].islower():  # gettext writes the language in lower case (not `LC_MESSAGES`)
            return None
        script = _MODIFIER_SCRIPTS.get(modifier.lower()) if modifier else None
        try:
            tag = parse_locale(base)
        except I18nError:
            return None
        if script is not None and tag.script is None:
            return LocaleTag(tag.language, script, tag.region, tag.variants)
        if modifier and script is None and re.fullmatch(r"[A-Za-z0-9]{5,8}", modifier):
            return LocaleTag(tag.language, tag.script, tag.region, (*tag.variants, modifier.lower()))
        return tag


_SCRIPT_MODIFIERS = {"Latn": "latin", "Cyrl": "cyrillic", "Arab": "arabic", "Deva": "devanagari"}
_MODIFIER_SCRIPTS = {modifier: script for script, modifier in _SCRIPT_MODIFIERS.items()}
