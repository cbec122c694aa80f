"""Bundles: one locale's compiled messages, and the builder that validates and compiles them.

Input is a JSON-like object of message keys to ICU MessageFormat strings. Nested objects are
flattened with dots (`{"cart": {"empty": "..."}}` is the key `cart.empty`). Every problem is
collected before anything is reported, so one `InvalidMessages` names every bad key: a value that
is not a string, a key defined twice, a message over the size limit, or a syntax error with its
position. Compilation runs in steps so a tool can report progress on large bundles (and run each
step off the event loop).

A bundle knows its `size`: the UTF-8 bytes of its keys and message texts, which is what a session's
byte budget counts. Sizes and counts are known before anything compiles, so a bundle that could not
be kept is refused before it costs anything.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from parlance_i18n.errors import InvalidMessages
from parlance_i18n.formats import Renderable
from parlance_i18n.icu.messageformat import Message, MessageSyntaxError, compile_message
from parlance_i18n.icu.plurals import plural_rules
from parlance_i18n.locales import LocaleTag
from parlance_i18n.model.project import ProjectLocale
from parlance_i18n.settings import DEFAULT_LIMITS, Limits

__all__ = ["DEFAULT_LIMITS", "Bundle", "BundleBuilder", "Limits", "compile_bundle", "utf8_size"]

_MAX_NESTING = 32
_PAUSE_CHARS = 4096
"""After compiling this much (about a millisecond of work) other threads get a turn (see `steps`)."""
_SHOWN_PROBLEMS = 50


@dataclass(frozen=True)
class Bundle:
    """The messages of one locale. Treated as immutable: merging makes a new bundle.

    `messages` is what `i18n_add_messages` compiled (a dict of ICU messages, held in memory), or a
    `ProjectLocale`: catalog files (a project's, bundle files), read by their formats, with what
    is held in memory layered over or under them. Either way a message is a `Renderable`.
    """

    tag: LocaleTag
    messages: Mapping[str, Renderable]
    size: int = 0
    """UTF-8 bytes of the keys and message texts."""

    @property
    def code(self) -> str:
        return self.tag.code

    def merged_with(self, newer: Bundle) -> Bundle:
        """This bundle's messages overlaid with `newer`'s (newer wins per key).

        Messages read from files (a `ProjectLocale`) are layered rather than copied.
        """
        messages: Mapping[str, Renderable]
        if isinstance(self.messages, ProjectLocale):
            messages = self.messages.with_overlay(newer.messages, first=True)
        elif isinstance(newer.messages, ProjectLocale):
            messages = newer.messages.with_overlay(self.messages)
        else:
            messages = {**self.messages, **newer.messages}
        return Bundle(self.tag, messages, self.merged_size(newer.messages, newer.size))

    def merged_size(self, keys: Iterable[str], size: int) -> int:
        """The size of this bundle once messages with `keys`, `size` bytes in all, are merged into it."""
        messages = self.messages
        replaced = sum(utf8_size(key) + utf8_size(messages[key].source) for key in keys if key in messages)
        return self.size + size - replaced

    def merged_count(self, keys: Iterable[str], count: int) -> int:
        """How many messages this bundle holds once `count` messages with `keys` are merged into it."""
        messages = self.messages
        return len(messages) + count - sum(1 for key in keys if key in messages)


class BundleBuilder:
    """Validates an object of messages at construction, compiles it in `steps()`, then `build()`s.

    Raises `InvalidMessages` from the constructor when `messages` is not an object or is too large,
    and from `build()` when any key or message is invalid. A flat `messages` dict is read in place,
    not copied: it must not change until `build()` returns.
    """

    def __init__(self, tag: LocaleTag, messages: object, limits: Limits = DEFAULT_LIMITS) -> None:
        if not isinstance(messages, Mapping):
            raise InvalidMessages(
                f"messages for {tag.code} must be an object mapping keys to strings, got {_kind(messages)}",
                {"locale": tag.code},
            )
        self.tag = tag
        self._limits = limits
        self._problems: list[dict[str, Any]] = []
        self.size = 0
        """UTF-8 bytes of the keys and message texts (counted while flattening, before any compiles)."""
        self._pending = self._flatten(messages)
        if len(self._pending) > limits.max_messages:
            raise InvalidMessages(
                f"the bundle for {tag.code} has {len(self._pending)} messages; the limit is {limits.max_messages} "
                "(setting [packs.i18n] max_messages): split it or raise the limit",
                {"locale": tag.code, "message_count": len(self._pending), "limit": limits.max_messages,
                 "setting": "max_messages"},
            )
        self._compiled: dict[str, Message | None] = {}
        self._unread = iter(self._pending.items())
        self._shared: dict[Any, Any] = {}  # pieces the messages' compiled forms share
        self._done = 0

    @property
    def total(self) -> int:
        return len(self._pending)

    def keys(self) -> Iterator[str]:
        """The keys of the bundle being built (flattened), before anything compiles."""
        return iter(self._pending)

    def steps(self, size: int = 1000) -> Iterator[int]:
        """Compile `size` messages at a time, yielding how many are done after each step.

        Compiling holds the GIL, so every `_PAUSE_CHARS` characters it lets other threads run: run
        in a worker thread, it leaves the event loop free to serve other sessions meanwhile.
        """
        rules = plural_rules(self.tag)
        limit = self._limits.max_message_chars
        shared = self._shared
        if not self._compiled:  # every key at once, so it never grows (and copies itself) as messages compile
            self._compiled = dict.fromkeys(self._pending)
        since_pause = 0
        while self._done < len(self._pending):
            for key, text in itertools.islice(self._unread, size):
                since_pause += len(text)
                if since_pause > _PAUSE_CHARS:
                    # A real pause, however short (sleep(0) blocks for some microseconds), so a thread
                    # waiting for the GIL takes it. A mere yield (os.sched_yield) lets this thread take it
                    # straight back, and every such switch resets the interpreter's forced handover:
                    # the event loop then starves for the whole compile.
                    time.sleep(0)
                    since_pause = 0
                if len(key) > limit:
                    self._problem(f"{key[:40]}…", f"the key has {len(key)} characters; "
                                                   f"the limit is {limit} (setting max_message_chars)")
                    continue
                if len(text) > limit:
                    self._problem(key, f"the message has {len(text)} characters; "
                                       f"the limit is {limit} (setting max_message_chars)")
                    continue
                try:
                    self._compiled[key] = compile_message(text, rules, shared)
                except MessageSyntaxError as exc:
                    self._problem(key, f"invalid ICU MessageFormat {exc}", position=exc.position)
            self._done = min(self._done + size, len(self._pending))
            yield self._done

    def build(self) -> Bundle:
        for _ in self.steps(len(self._pending) or 1):
            pass
        self._shared = {}
        if self._problems:
            raise self._error()
        return Bundle(self.tag, self._compiled, self.size)  # type: ignore[arg-type]  # every value is set

    # --- validation ------------------------------------------------------------------------------------

    def _flatten(self, messages: Mapping[Any, Any]) -> Mapping[str, str]:
        if isinstance(messages, dict):  # already flat, as a tool's request usually is: no copy needed
            size = 0
            for key, value in messages.items():
                if value.__class__ is not str or key.__class__ is not str or not key:
                    break
                size += utf8_size(key) + utf8_size(value)
            else:
                self.size = size
                return messages
        flat: dict[str, str] = {}
        size = 0
        stack: list[tuple[str, Mapping[Any, Any], int]] = [("", messages, 0)]
        while stack:
            prefix, mapping, depth = stack.pop()
            for raw_key, value in mapping.items():
                if not isinstance(raw_key, str) or not raw_key:
                    self._problem(f"{prefix}{raw_key!s}", "keys must be non-empty strings")
                    continue
                key = prefix + raw_key
                if isinstance(value, str):
                    if key in flat:
                        self._problem(key, "the key is defined twice (once flat with dots, once nested)")
                        continue
                    flat[key] = value
                    size += utf8_size(key) + utf8_size(value)
                elif isinstance(value, Mapping) and depth < _MAX_NESTING:
                    stack.append((key + ".", value, depth + 1))
                elif isinstance(value, Mapping):
                    self._problem(key, f"objects are nested more than {_MAX_NESTING} deep")
                else:
                    self._problem(key, f"the value is {_kind(value)}; expected a string (or an object of strings)")
        self.size = size
        return flat

    def _problem(self, key: str, problem: str, position: int | None = None) -> None:
        entry: dict[str, Any] = {"key": key, "problem": problem}
        if position is not None:
            entry["position"] = position
        self._problems.append(entry)

    def _error(self) -> InvalidMessages:
        problems = self._problems
        shown = "; ".join(f"{p['key']!r}: {p['problem']}" for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        return InvalidMessages(
            f"{len(problems)} message(s) for {self.tag.code} are invalid: {shown}{more}. Nothing was added.",
            {
                "locale": self.tag.code,
                "keys": [p["key"] for p in problems[:_SHOWN_PROBLEMS]],
                "problems": problems[:_SHOWN_PROBLEMS],
                "invalid_count": len(problems),
            },
        )


def compile_bundle(tag: LocaleTag, messages: object, limits: Limits = DEFAULT_LIMITS) -> Bundle:
    """Validate and compile `messages` for `tag` in one go (for loaders and tests)."""
    return BundleBuilder(tag, messages, limits).build()


def utf8_size(text: str) -> int:
    """`len(text.encode())` without the copy for ASCII; lone surrogates (JSON allows them) count 3 bytes."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _kind(value: object) -> str:
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number", list: "an array",
             tuple: "an array", type(None): "null"}
    return names.get(type(value), "an object" if isinstance(value, Mapping) else type(value).__name__)
