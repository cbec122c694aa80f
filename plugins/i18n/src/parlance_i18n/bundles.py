"""Bundles: one locale's compiled messages, and the builder that validates and compiles them.

Input is a JSON-like object of message keys to ICU MessageFormat strings. Nested objects are
flattened with dots (`{"cart": {"empty": "..."}}` is the key `cart.empty`). Every problem is
collected before anything is reported, so one `InvalidMessages` names every bad key: a value that
is not a string, a key defined twice, a message over the size limit, or a syntax error with its
position. Compilation runs in steps so a tool can report progress on large bundles.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from parlance_i18n.errors import InvalidMessages
from parlance_i18n.locales import LocaleTag
from parlance_i18n.messageformat import Message, MessageSyntaxError, compile_message
from parlance_i18n.plurals import plural_rules

__all__ = ["DEFAULT_LIMITS", "Bundle", "BundleBuilder", "Limits", "compile_bundle"]

_MAX_NESTING = 32
_SHOWN_PROBLEMS = 50


@dataclass(frozen=True)
class Limits:
    """Size limits that keep one client from exhausting the server (all configurable in settings)."""

    max_message_chars: int = 10_000
    max_messages: int = 100_000
    max_output_chars: int = 10_000


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class Bundle:
    """The compiled messages of one locale. Treated as immutable: merging makes a new bundle."""

    tag: LocaleTag
    messages: Mapping[str, Message]

    @property
    def code(self) -> str:
        return self.tag.code

    def merged_with(self, newer: Bundle) -> Bundle:
        """This bundle's messages overlaid with `newer`'s (newer wins per key)."""
        return Bundle(self.tag, {**self.messages, **newer.messages})


class BundleBuilder:
    """Validates an object of messages at construction, compiles it in `steps()`, then `build()`s.

    Raises `InvalidMessages` from the constructor when `messages` is not an object or is too large,
    and from `build()` when any key or message is invalid.
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
        self._pending = self._flatten(messages)
        if len(self._pending) > limits.max_messages:
            raise InvalidMessages(
                f"the bundle for {tag.code} has {len(self._pending)} messages; the limit is {limits.max_messages} "
                "(setting max_messages): split it or raise the limit",
                {"locale": tag.code, "message_count": len(self._pending), "limit": limits.max_messages},
            )
        self._compiled: dict[str, Message] = {}
        self._done = 0

    @property
    def total(self) -> int:
        return len(self._pending)

    def steps(self, size: int = 1000) -> Iterator[int]:
        """Compile `size` messages at a time, yielding how many are done after each step."""
        rules = plural_rules(self.tag)
        limit = self._limits.max_message_chars
        while self._done < len(self._pending):
            for key, text in self._pending[self._done:self._done + size]:
                if len(key) > limit:
                    self._problem(f"{key[:40]}…", f"the key has {len(key)} characters; "
                                                   f"the limit is {limit} (setting max_message_chars)")
                    continue
                if len(text) > limit:
                    self._problem(key, f"the message has {len(text)} characters; "
                                       f"the limit is {limit} (setting max_message_chars)")
                    continue
                try:
                    self._compiled[key] = compile_message(text, rules)
                except MessageSyntaxError as exc:
                    self._problem(key, f"invalid ICU MessageFormat {exc}", position=exc.position)
            self._done = min(self._done + size, len(self._pending))
            yield self._done

    def build(self) -> Bundle:
        for _ in self.steps(len(self._pending) or 1):
            pass
        if self._problems:
            raise self._error()
        return Bundle(self.tag, self._compiled)

    # --- validation ------------------------------------------------------------------------------------

    def _flatten(self, messages: Mapping[Any, Any]) -> list[tuple[str, str]]:
        flat: list[tuple[str, str]] = []
        seen: set[str] = set()
        stack: list[tuple[str, Mapping[Any, Any], int]] = [("", messages, 0)]
        while stack:
            prefix, mapping, depth = stack.pop()
            for raw_key, value in mapping.items():
                if not isinstance(raw_key, str) or not raw_key:
                    self._problem(f"{prefix}{raw_key!s}", "keys must be non-empty strings")
                    continue
                key = prefix + raw_key
                if isinstance(value, str):
                    if key in seen:
                        self._problem(key, "the key is defined twice (once flat with dots, once nested)")
                        continue
                    seen.add(key)
                    flat.append((key, value))
                elif isinstance(value, Mapping) and depth < _MAX_NESTING:
                    stack.append((key + ".", value, depth + 1))
                elif isinstance(value, Mapping):
                    self._problem(key, f"objects are nested more than {_MAX_NESTING} deep")
                else:
                    self._problem(key, f"the value is {_kind(value)}; expected a string (or an object of strings)")
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


def _kind(value: object) -> str:
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number", list: "an array",
             tuple: "an array", type(None): "null"}
    return names.get(type(value), "an object" if isinstance(value, Mapping) else type(value).__name__)
