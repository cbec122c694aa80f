"""Django templates read as `manage.py makemessages` reads them, and the text in them no tag translates.

**Tokens.** A template is text and three kinds of tag, none spanning a line: `{% block %}`,
`{{ variable }}`, `{# comment #}`; between `{% verbatim %}` and its `{% endverbatim %}` every tag is
text. (Django's Lexer splits on the same three delimiters; this reads them with their byte spans.)

**Messages**, keyed as the PO catalog names them (msgctxt U+0004 msgid):
- `{% translate "x" %}` / `{% trans 'x' %}` (with `context "c"`, `noop`, `as var`): msgid `x`, a `%`
  written `%%` (Django looks the literal up with its `%` doubled, and makemessages extracts it so);
  `{% translate var %}` is a dynamic key.
- `{% blocktranslate %}...{% endblocktranslate %}` (or `blocktrans`): the block's text, each
  `{{ var }}` written `%(var)s` and each `%` doubled; `{% plural %}` splits singular from plural,
  `trimmed` strips the ends and turns each run of whitespace holding a line break into one space,
  `context "c"` gives the context. Another block tag inside is an error (as makemessages says).
- `_("x")` as a variable (`{{ _("x") }}`), a filter's argument (`|default:_("x")`) or a tag's argument.

**Hard-coded text** is what the user reads that no tag translates: text between HTML tags with a
letter outside `{{ }}`, whitespace collapsed, and the values of `title`, `alt`, `placeholder` and
`aria-label`. Not reported: `<script>`/`<style>` bodies, HTML comments, `{# #}` and
`{% comment %}` blocks, `{% verbatim %}` blocks, text inside translate tags, text after a comment
holding `i18n-ignore` on its line or the next. A `.txt` template (an e-mail) is read line by line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from parlance_i18n.code.frameworks.visible import IGNORE_MARK, is_user_text
from parlance_i18n.code.model import CONTEXT_SEPARATOR, Dynamic, Hardcoded, Reference, Span
from parlance_i18n.code.parsing import LineIndex

__all__ = ["Template", "Token", "load_i18n_present", "tokenize"]


_CLOSERS = {b"{%": b"%}", b"{{": b"}}", b"{#": b"#}"}
"""The three tag delimiters."""


@dataclass(frozen=True, slots=True)
class Token:
    """One piece of a template: `text`, `block` (`{% %}`), `var` (`{{ }}`) or `comment` (`{# #}`)."""

    kind: str
    start: int
    end: int
    contents: str
    """A tag's inside, stripped; a text's own text."""


def tokenize(data: bytes) -> Iterator[Token]:
    """The template's tokens in order, with their byte spans."""
    verbatim_end: str | None = None
    position = 0
    for start, end in _tags(data):
        if start > position:
            yield Token("text", position, start, data[position:start].decode("utf-8", "replace"))
        raw = data[start:end]
        inside = raw[2:-2].decode("utf-8", "replace").strip()
        kind = {b"{%": "block", b"{{": "var", b"{#": "comment"}[raw[:2]]
        if verbatim_end is not None:
            if kind == "block" and inside == verbatim_end:
                verbatim_end = None
            else:
                kind, inside = "text", raw.decode("utf-8", "replace")
        elif kind == "block" and (inside == "verbatim" or inside.startswith("verbatim ")):
            verbatim_end = "end" + inside
        yield Token(kind, start, end, inside)
        position = end
    if position < len(data):
        yield Token("text", position, len(data), data[position:].decode("utf-8", "replace"))


def _tags(data: bytes) -> Iterator[tuple[int, int]]:
    """Each tag's byte span, as Django's Lexer finds them with `{%.*?%}|{{.*?}}|{#.*?#}`: from an opener
    to the first closer after it on its line (a tag spans no line break; `{% a {% b %}` is one tag).

    In one pass: that regex, tried at every opener, reads to the end of the line each time no closer is
    left on it (160 KB of `{%` took a minute). Here each delimiter's next place is searched forward
    only, and an opener with no closer left on its line rules out the later openers of its kind there.
    """
    next_opener = {opener: data.find(opener) for opener in _CLOSERS}
    next_closer = {opener: -1 for opener in _CLOSERS}
    next_newline = -1
    while True:
        waiting = [(at, opener) for opener, at in next_opener.items() if at >= 0]
        if not waiting:
            return
        start, opener = min(waiting)
        if next_newline < start:
            next_newline = data.find(b"\n", start)
            if next_newline < 0:
                next_newline = len(data)
        if next_closer[opener] < start + 2:
            next_closer[opener] = data.find(_CLOSERS[opener], start + 2)
        close = next_closer[opener]
        if close < 0 or close > next_newline:
            # no closer on this line: none of this kind's later openers on it closes either
            next_opener[opener] = data.find(opener, next_newline)
            continue
        yield start, close + 2
        for other, at in next_opener.items():
            if 0 <= at < close + 2:
                next_opener[other] = data.find(other, close + 2)


_QUOTED = r"(\"[^\"]*\"|'[^']*')"
_TRANSLATE = re.compile(rf"^trans(?:late)?\s+{_QUOTED}")
_TRANSLATE_VARIABLE = re.compile(r"^trans(?:late)?\s+(\S+)")
_BLOCK_TRANSLATE = re.compile(r"^blocktrans(?:late)?(?:\s|$)")
_END_BLOCK_TRANSLATE = re.compile(r"^endblocktrans(?:late)?$")
_CONTEXT = re.compile(rf".*\scontext\s+{_QUOTED}")
_CONSTANT = re.compile(rf"_\({_QUOTED}\)")
_WHITESPACE = re.compile(r"\s+")


@dataclass
class _Block:
    """A `{% blocktranslate %}` being read: its parts so far."""

    start: Token
    context: str | None
    trimmed: bool
    singular: list[str] = field(default_factory=list)
    plural: list[str] = field(default_factory=list)
    in_plural: bool = False

    def message(self, parts: list[str]) -> str:
        text = "".join(parts)
        return _trimmed(text) if self.trimmed else text


def _trimmed(text: str) -> str:
    """`trimmed`'s text as Django's `trim_whitespace` makes it (`\\s*\\n\\s*` made one space, ends stripped):
    each run of whitespace holding a line break made one space. Found run by run, in one pass (that
    regex tries every space of a run with no line break to its end: 200 KB of spaces took a minute)."""
    return _WHITESPACE.sub(lambda run: " " if "\n" in run[0] else run[0], text.strip())


@dataclass
class Template:
    """One template read: its messages, dynamic keys, hard-coded text and problems."""

    path: str
    data: bytes
    references: list[Reference] = field(default_factory=list)
    dynamic: list[Dynamic] = field(default_factory=list)
    hardcoded: list[Hardcoded] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    _hidden: list[tuple[int, int]] = field(default_factory=list)
    """Byte ranges no hard-coded text comes from: tags, translate blocks, comment and verbatim blocks."""
    _ignored_lines: set[int] = field(default_factory=set)
    _lines: LineIndex = field(init=False)

    def __post_init__(self) -> None:
        self._lines = LineIndex(self.data)

    @classmethod
    def read(cls, path: str, data: bytes) -> Template:
        template = cls(path, data, tokens=list(tokenize(data)))
        template._read_messages()
        template._read_text()
        return template

    # --- messages ---------------------------------------------------------------------------------

    def _read_messages(self) -> None:
        block: _Block | None = None
        comment: Token | None = None
        verbatim: Token | None = None
        for token in self.tokens:
            if token.kind != "text":
                self._hidden.append((token.start, token.end))
            if comment is not None:
                if token.kind == "block" and token.contents == "endcomment":
                    self._hide(comment, token)
                    comment = None
                continue
            if block is not None:
                block = self._block_part(block, token)
                continue
            if token.kind == "comment":
                if IGNORE_MARK in token.contents:
                    self._ignore_lines(token, token)
            elif token.kind == "var":
                self._variable(token)
            elif token.kind == "block":
                if token.contents == "comment" or token.contents.startswith("comment "):
                    comment = token
                elif token.contents == "verbatim" or token.contents.startswith("verbatim "):
                    verbatim = token
                elif verbatim is not None and token.contents == "end" + verbatim.contents:
                    self._hide(verbatim, token)
                    verbatim = None
                else:
                    block = self._tag(token)
        if block is not None:
            self.problems.append(f"line {self._line(block.start.start)}: {{% {block.start.contents} %}} is never closed")

    def _tag(self, token: Token) -> _Block | None:
        contents = token.contents
        translate = _TRANSLATE.match(contents)
        if translate:
            context = _CONTEXT.match(contents[translate.end():])
            self._reference(token, _unquote(translate[1]).replace("%", "%%"),
                            _unquote(context[1]) if context else None, plural=False)
            return None
        if _BLOCK_TRANSLATE.match(contents):
            self._constants(token, contents)
            context = _CONTEXT.match(contents)
            return _Block(token, _unquote(context[1]) if context else None, "trimmed" in contents.split())
        variable = _TRANSLATE_VARIABLE.match(contents)
        if variable and not contents.startswith(("trans _(", "translate _(")):
            self.dynamic.append(Dynamic(variable[1][:200], self._span(token.start, token.end)))
            return None
        self._constants(token, contents)
        return None

    def _block_part(self, block: _Block, token: Token) -> _Block | None:
        parts = block.plural if block.in_plural else block.singular
        if token.kind == "text":
            parts.append(token.contents.replace("%", "%%"))
        elif token.kind == "var":
            parts.append(f"%({token.contents})s")
        elif token.kind == "block" and token.contents == "plural":
            block.in_plural = True
        elif token.kind == "block" and _END_BLOCK_TRANSLATE.match(token.contents):
            self._hide(block.start, token)
            self._reference(block.start, block.message(block.singular), block.context, plural=block.in_plural,
                            end=token.end)
            return None
        elif token.kind == "block":
            self.problems.append(f"line {self._line(token.start)}: {{% {token.contents} %}} inside "
                                 f"{{% {block.start.contents.split()[0]} %}} (a translation block holds no other "
                                 "block tag; makemessages stops there)")
            return None
        return block

    def _variable(self, token: Token) -> None:
        first, *filters = token.contents.split("|")
        constant = _CONSTANT.match(first)
        if constant:
            self._reference(token, _unquote(constant[1]), None, plural=False)
        for part in filters:
            argument = part.split(":", 1)[1] if ":" in part else ""
            for found in _CONSTANT.finditer(argument):
                self._reference(token, _unquote(found[1]), None, plural=False)

    def _constants(self, token: Token, contents: str) -> None:
        for found in _CONSTANT.finditer(contents):
            self._reference(token, _unquote(found[1]), None, plural=False)

    def _reference(self, token: Token, msgid: str, context: str | None, *, plural: bool, end: int | None = None) -> None:
        if not msgid:
            return  # "" is the PO header's msgid
        key = msgid if context is None else context + CONTEXT_SEPARATOR + msgid
        self.references.append(Reference(key, self._span(token.start, token.end if end is None else end),
                                         None, plural, msgid))

    # --- hard-coded text --------------------------------------------------------------------------

    def _read_text(self) -> None:
        masked = bytearray(self.data)
        for start, end in self._hidden:
            masked[start:end] = b"\0" * (end - start)
        for token in self.tokens:
            if token.kind == "var" and not _CONSTANT.search(token.contents):  # `_("x")` is translated already
                masked[token.start:token.end] = b"\1" * (token.end - token.start)
        masked_bytes = bytes(masked)
        plain = self.path.endswith(".txt")
        position = 0
        for found in ([] if plain else _HTML.finditer(masked_bytes)):
            self._text(masked_bytes, position, found.start(), plain)
            markup = found.group()
            if markup.startswith(b"<!--"):
                if IGNORE_MARK.encode() in self.data[found.start():found.end()]:
                    self._ignore_lines(Token("comment", found.start(), found.end(), ""), None)
            elif not markup[:7].lower().startswith((b"<script", b"<style")):
                self._attributes(masked_bytes, found.start(), found.end())
            position = found.end()
        self._text(masked_bytes, position, len(masked_bytes), plain)
        self.hardcoded = [h for h in self.hardcoded if h.span.line not in self._ignored_lines]

    def _text(self, masked: bytes, start: int, end: int, plain: bool) -> None:
        pieces = _LINE if plain else _RUN
        for found in pieces.finditer(masked, start, end):
            self._literal(masked, found.start(), found.end(), "django-template-text")

    def _attributes(self, masked: bytes, start: int, end: int) -> None:
        for found in _ATTRIBUTE.finditer(masked, start, end):
            value = 3 if found[3] is not None else 4
            if b"\0" in found[value]:
                continue  # a block tag or comment inside: the value is built by the template
            self._literal(masked, found.start(value), found.end(value), f"html-attribute:{found[1].decode().lower()}")

    def _literal(self, masked: bytes, start: int, end: int, kind: str) -> None:
        while start < end and masked[start:start + 1].isspace():
            start += 1
        while end > start and masked[end - 1:end].isspace():
            end -= 1
        seen = _ENTITY.sub(b" ", masked[start:end]).decode("utf-8", "replace")
        if not is_user_text(seen):
            return
        text = " ".join(self.data[start:end].decode("utf-8", "replace").split())
        self.hardcoded.append(Hardcoded(text, kind, self._span(start, end)))

    # --- positions --------------------------------------------------------------------------------

    def _hide(self, first: Token, last: Token) -> None:
        self._hidden.append((first.start, last.end))
        if IGNORE_MARK.encode() in self.data[first.start:last.end] and first.contents.startswith("comment"):
            self._ignore_lines(first, last)

    def _ignore_lines(self, first: Token, last: Token | None) -> None:
        end = (last or first).end
        self._ignored_lines.update(range(self._line(first.start), self._line(end) + 2))

    def _line(self, offset: int) -> int:
        return self._lines.line_of(offset)

    def _span(self, start: int, end: int) -> Span:
        return self._lines.span(start, end)


_HTML = re.compile(rb"<!--.*?(?:-->|\Z)|<(script|style)\b[^>]*>.*?(?:</\1\s*>|\Z)|<[A-Za-z/!?][^>]*>?",
                   re.DOTALL | re.IGNORECASE)
"""Markup, over a template whose tags are masked: a comment, a script or style element, a tag."""
_RUN = re.compile(rb"[^\0]+")
"""A run of text between tags (masked as NUL); a `{{ variable }}` (masked as \\1) stays inside: it is
part of the sentence, which then needs `{% blocktranslate %}`."""
_LINE = re.compile(rb"[^\0\n]+")
_ATTRIBUTE = re.compile(rb"\s(title|alt|placeholder|aria-label)\s*=\s*(\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
_ENTITY = re.compile(rb"&(?:#\w+|\w+);|\x01+")


def _unquote(quoted: str) -> str:
    return quoted[1:-1]


def load_i18n_present(tokens: list[Token]) -> bool:
    """Whether the template loads the i18n tags (`{% load i18n %}`, `{% load static i18n %}`,
    `{% load translate from i18n %}`)."""
    for token in tokens:
        words = token.contents.split() if token.kind == "block" else []
        if not words or words[0] != "load":
            continue
        if "from" in words:
            names, _, libraries = " ".join(words[1:]).partition(" from ")
            if libraries.split() == ["i18n"] and "translate" in names.split():
                return True
        elif "i18n" in words[1:]:
            return True
    return False

