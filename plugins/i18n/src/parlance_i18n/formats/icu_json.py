"""FormatJS / react-intl locale files (`icu-json`): ICU MessageFormat messages in a JSON object.

Three shapes occur, alone or mixed, and all are read:

- flat, as `formatjs compile` writes: `{"cart.empty": "Your cart is empty"}`;
- nested, as teams write by hand: `{"cart": {"empty": "..."}}`, keyed by the dot-joined path
  (`cart.empty`), as the flattening helpers apps use with react-intl do;
- extracted, as `formatjs extract` writes: `{"cart.empty": {"defaultMessage": "...", "description":
  "..."}}`: the id is the key, `defaultMessage` the message, `description` the comment.

Messages render with the pack's ICU engine (`messageformat.compile_message`), as FormatJS's
`intl-messageformat` renders them. Reading checks each message's syntax (most messages are plain
text or `{name}` only and need no parse) and keeps only the texts; a message compiles on first
use. A message that is not valid ICU, or a value that is not a string, is a `Problem` with its line
and is left out; the rest of the file loads. A key written twice in one object keeps its last value,
as `JSON.parse` does, and the ignored one is reported.

`IcuMessages` and `check_icu` are shared with ARB (`formats/arb.py`), whose messages are ICU too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
    facts_of,
)
from parlance_i18n.formats.shared.jsontext import JsonDocument, Path
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.messages import TextMessages
from parlance_i18n.icu.messageformat import Facts, MessageSyntaxError, compile_message, message_facts
from parlance_i18n.icu.plurals import PluralRules, plural_rules
from parlance_i18n.icu.syntax import validate
from parlance_i18n.locales import LocaleTag

__all__ = ["IcuJsonDocument", "IcuJsonFormat", "IcuMessages", "check_icu", "one_string", "read_problems"]

_NAMES_ONLY = re.compile(r"[^{}']*(?:\{[\w.\-]+\}[^{}']*)*")
"""Text with only `{name}` arguments and no apostrophe: valid ICU without a parse."""
_SNIFF = re.compile(rb'"defaultMessage"|,\s*(?:plural|select|selectordinal|number|date|time)\s*[,}]')
_MESSAGE_FIELD = "defaultMessage"


def check_icu(text: str) -> str | None:
    """Why `text` is not a valid ICU message (a sentence with the position), or None when it is."""
    if ("{" not in text and "}" not in text) or _NAMES_ONLY.fullmatch(text) is not None:
        return None
    error = validate(text)  # the syntax alone, on the engine's fast path: compiling is left for first use
    return None if error is None else _syntax_reason(error)


def _syntax_reason(error: MessageSyntaxError) -> str:
    return f"not a valid ICU message at position {error.position}: {error.problem}"


def read_problems(document: JsonDocument, pending: list[tuple[str, Path, str]]) -> list[Problem]:
    """The problems of a file of dot-keyed messages: each ignored occurrence of a key written twice in
    one object, then each message left out, as (key, path, reason), with the line of its path."""
    problems = [Problem(".".join(path), line, f"the key {'.'.join(path)!r} is written again later in the same "
                                              "object; the last one is used (as JSON.parse does), so this one is "
                                              "ignored: remove one of them")
                for path, line in document.duplicates()]
    problems.extend(Problem(key, document.line_of(path), reason) for key, path, reason in pending)
    return problems


class IcuMessages(TextMessages[str]):
    """One locale's ICU messages: texts kept as read, each compiled on first `get` and cached."""

    rejected = (MessageSyntaxError,)

    def __init__(self, texts: dict[str, str], comments: dict[str, str], problems: list[Problem], rules: PluralRules,
                 compile: Callable[[str, PluralRules, dict[Any, Any]], Renderable] | None = None) -> None:
        super().__init__(texts, comments, problems)
        self._rules = rules
        self._compile_text = compile or compile_message
        self._shared: dict[Any, Any] = {}  # pieces the messages have in common, made once

    def _compile(self, key: str, text: str) -> Renderable:
        return self._compile_text(text, self._rules, self._shared)

    def facts(self, key: str) -> Facts | None:
        """What the message uses (arguments, plural uses) without compiling and keeping it, as the check
        tool reads every message: from one parse of the text. None when there is no usable message."""
        compiled = self._compiled.get(key)
        text = self.texts.get(key)
        if compiled is None and text is not None and self._compile_text is compile_message:
            try:
                return message_facts(text)
            except MessageSyntaxError:
                pass  # get() records the problem
        message = compiled or self.get(key)
        return facts_of(message)

    def _reason(self, key: str, error: Exception) -> str:
        assert isinstance(error, MessageSyntaxError)
        return _syntax_reason(error)


class IcuJsonFormat(CatalogFormat):
    """FormatJS / react-intl JSON: flat, nested or extracted; ICU messages."""

    frameworks = ("formatjs",)

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> IcuMessages:
        document = JsonDocument(data, limits)
        root = document.object_root('an icu-json catalog is one JSON object of messages '
                                    '({"greeting": "Hello {name}"}), not a list or a single value')
        texts: dict[str, str] = {}
        comments: dict[str, str] = {}
        pending: list[tuple[str, Path, str]] = []  # (key, path, reason): lines are looked up once, at the end
        _read_object(root, "", (), texts, comments, pending)
        check_count(len(texts), limits)
        return IcuMessages(texts, comments, read_problems(document, pending), plural_rules(tag))

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> IcuJsonDocument:
        return IcuJsonDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """An empty object: FormatJS starts a locale's messages as `{}` (flat keys are written into it)."""
        return b"{\n}\n"

    def sniff(self, head: bytes) -> bool:
        return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and _SNIFF.search(head) is not None

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """FormatJS rich-text tags (`<b>…</b>`): each of the source's kept and closed in its branch, none
        added; `formatMessage` calls the app's function for each, and throws for an unclosed one or one
        it has no function for."""
        from parlance_i18n.formats.shared.rich_text import tag_reasons

        translation = written.text(key)
        if not isinstance(translation, str) or not isinstance(source, str):
            return []
        return tag_reasons(source, translation, icu=True, noun="the tag",
                           fix="keep each tag of the source around the words it marks (the app formats them "
                               "with its own function)")


def _read_object(node: dict[str, Any], prefix: str, path: Path, texts: dict[str, str], comments: dict[str, str],
                 pending: list[tuple[str, Path, str]]) -> None:
    """Keep every valid message of `node` in `texts` (by dot-joined key), the others in `pending`.
    The hot loop of reading: a plain string costs a regular expression match and a dict insert."""
    plain = _NAMES_ONLY.fullmatch
    for name, value in node.items():
        key = prefix + name
        if value.__class__ is str and key not in texts:
            if ("{" not in value and "}" not in value) or plain(value) is not None:
                texts[key] = value  # no braces is always valid: an apostrophe is special only before one
                continue
            reason = check_icu(value)
            if reason is None:
                texts[key] = value
            else:
                pending.append((key, (*path, name), reason))
        elif value.__class__ is dict:
            message = value.get(_MESSAGE_FIELD)
            if not isinstance(message, str):
                _read_object(value, key + ".", (*path, name), texts, comments, pending)
            elif key in texts:
                pending.append((key, (*path, name), _clash(key)))
            else:
                reason = check_icu(message)
                if reason is not None:
                    pending.append((key, (*path, name, _MESSAGE_FIELD), reason))
                    continue
                texts[key] = message
                description = value.get("description")
                if description is not None:
                    comments[key] = description if isinstance(description, str) else _as_text(description)
        elif key in texts:
            pending.append((key, (*path, name), _clash(key)))
        else:
            reason = f"the value is {_kind(value)}, not a message: write the text in quotes"
            pending.append((key, (*path, name), reason))


def _clash(key: str) -> str:
    return (f"the key {key!r} is already defined by another entry (a flat key and a nested path spell it alike); "
            "the first is used: rename one")


def _entries(node: dict[str, Any], path: Path) -> Iterator[tuple[str, Path, Any]]:
    """(dot-joined key, path, value) of every message in file order; a value is a str, an extracted
    entry (a dict with a string `defaultMessage`), or anything else that is not a message."""
    for name, value in node.items():
        here = (*path, name)
        if isinstance(value, dict):
            if isinstance(value.get(_MESSAGE_FIELD), str):
                yield ".".join(here), here, value
            else:
                yield from _entries(value, here)
        else:
            yield ".".join(here), here, value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "a list" if isinstance(value, list) else "an object"


def _as_text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


class IcuJsonDocument(Document):
    """An icu-json file to edit: keys are dot-joined paths (the id, in the extracted shape)."""

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._json = JsonDocument(data, limits)
        root = self._json.object_root("an icu-json catalog is one JSON object of messages")
        # key -> (the entry's path, the path of its text): equal but for the extracted shape
        self._paths: dict[str, tuple[Path, Path]] = {}
        extracted = plain = 0
        self._nested = False
        for key, path, value in _entries(root, ()):
            if key in self._paths or not isinstance(value, (str, dict)):
                continue
            if isinstance(value, dict):
                extracted += 1
                self._paths[key] = (path, (*path, _MESSAGE_FIELD))
            else:
                plain += 1
                self._paths[key] = (path, path)
            self._nested = self._nested or len(path) > 1
        check_count(len(self._paths), limits)
        self._extracted = extracted > 0 and not plain  # a new message takes the shape of all the others

    def keys(self) -> list[str]:
        return list(self._paths)

    def get(self, key: str) -> Value | None:
        paths = self._paths.get(key)
        value = self._json.value_at(paths[1]) if paths else None
        return value if isinstance(value, str) else None

    def line_of(self, key: str) -> int | None:
        paths = self._paths.get(key)
        return self._json.line_of(paths[0]) if paths else None

    def set(self, key: str, value: Value) -> None:
        paths = self._paths.get(key)
        if paths is None:
            raise KeyError(key)
        self._json.set_string(paths[1], one_string(value))

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if key in self._paths:
            raise KeyError(key)
        text = one_string(value)
        path: Path = tuple(key.split(".")) if self._nested else (key,)
        anchor = self._paths[after][0] if after is not None and after in self._paths else None
        for candidate in (path, (key,)):  # a nested path blocked by a message there: the flat key
            target = (*candidate, _MESSAGE_FIELD) if self._extracted else candidate
            try:
                self._json.add_string(target, text, anchor)
            except KeyError:
                continue
            self._paths[key] = (candidate, target)
            return
        raise KeyError(key)

    def delete(self, key: str) -> None:
        paths = self._paths.pop(key, None)
        if paths is None:
            raise KeyError(key)
        self._json.delete(paths[0], prune=True)

    def to_bytes(self) -> bytes:
        return self._json.to_bytes()


def one_string(value: Value, what: str = "an icu-json message", plural: str = "one {...} other {...}") -> str:
    """`value`, the one string an ICU message is (`what`); TypeError when plural forms come apart, as a dict."""
    if not isinstance(value, str):
        raise TypeError(f"{what} is one string: write plural forms inside it as {{count, plural, {plural}}}")
    return value
