"""The `LocaleMessages` most formats share: the texts a file holds, each compiled on first use.

Reading keeps what a message costs least to hold (its text: a str, or a tuple or dict of forms) and
compiles nothing; `get` compiles a message the first time it is asked for and caches the result, so
a catalog of 20,000 messages of which a session renders ten compiles ten. A format subclasses
`TextMessages` and says how one text compiles (`_compile`); a text its compiler rejects then (which
reading has already checked, so only a stricter compiler gets there) is dropped and becomes a
`Problem`, as the contract in `base.py` asks.

The small `Renderable`s formats have in common live here too: `FixedText` (a message printed as it
is written, with no variables) and `Relabeled` (a compiled message shown with the text as the file
writes it, when what is compiled differs: ARB's doubled apostrophes, Android's markup); and the
problems of a key defined twice, in a format that keeps the first definition (`first_one_used`) or
the later one (`later_one_used`), and the reason for plural categories a message lacks
(`plural_gap_reason`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from parlance_i18n.formats.base import LocaleMessages, Problem, Renderable, Value

if TYPE_CHECKING:
    from parlance_i18n.locales import LocaleTag

__all__ = ["FixedText", "Relabeled", "TextMessages", "first_one_used", "later_one_used", "plural_gap_reason"]

_PLURAL_COUNT = "count"

TextT = TypeVar("TextT")
"""What a format keeps per message: a str, or its plural forms in whatever shape the format reads."""

_NO_ARGUMENTS: frozenset[str] = frozenset()


class TextMessages(LocaleMessages, Generic[TextT]):
    """One file's messages for one locale: `texts` by key, `comments` by key (only where a message
    has one), the `problems` found while reading, and the compiled messages, made on first `get`."""

    rejected: ClassVar[tuple[type[Exception], ...]] = (ValueError,)
    """What `_compile` raises for a text the format rejects (a sentence saying why)."""

    def __init__(self, texts: dict[str, TextT] | None = None, comments: dict[str, str] | None = None,
                 problems: list[Problem] | None = None) -> None:
        self.texts: dict[str, TextT] = {} if texts is None else texts
        self.comments: dict[str, str] = {} if comments is None else comments
        self.problems = [] if problems is None else problems
        self._compiled: dict[str, Renderable] = {}

    @abstractmethod
    def _compile(self, key: str, text: TextT) -> Renderable:
        """`text` (the message of `key`) compiled; raises one of `rejected` when the format rejects it."""

    def _reason(self, key: str, error: Exception) -> str:
        """The problem's reason when `key`'s text is rejected on first use."""
        return str(error)

    def text(self, key: str) -> Value | None:
        return cast("Value | None", self.texts.get(key))

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        text = self.texts.get(key)
        if text is None:
            return default
        try:
            found = self._compiled[key] = self._compile(key, text)
        except self.rejected as error:  # checked when read: only a compiler stricter than that check gets here
            del self.texts[key]
            self.problems.append(Problem(key, None, self._reason(key, error)))
            return default
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __contains__(self, key: object) -> bool:
        return key in self.texts

    def comment(self, key: str) -> str | None:
        return self.comments.get(key)


def first_one_used(key: str, line: int | None, first_line: int) -> Problem:
    """The Problem of a key defined again in a format that keeps its first definition (aapt2, plists)."""
    return Problem(key, line, f"{key!r} is defined again (first on line {first_line}); the first one is used")


def later_one_used(key: str, line: int | None, later_line: int, like: str) -> Problem:
    """The Problem of a key defined again, on `later_line`, in a format whose later definition wins,
    `like` its own reader does ("as in Rails")."""
    return Problem(key, line, f"the key is defined again on line {later_line}; the later value wins, {like}: "
                              "delete one of them")


def plural_gap_reason(missing: Sequence[str], tag: LocaleTag, argument: str | None = None) -> str:
    """The reason for plural categories the locale needs that a message has no form for."""
    names = ", ".join(missing)
    plural = "categories" if len(missing) > 1 else "category"
    where = f" (the plural of {argument})" if argument and argument != _PLURAL_COUNT else ""
    return f"lacks the plural {plural} {names} that {tag.code} needs{where}"


class FixedText:
    """A message printed as it is (`shown`, which is `source` unless the format renders markup away):
    no variables are interpolated."""

    __slots__ = ("_shown", "arguments", "source")
    plurals: ClassVar[tuple[Any, ...]] = ()

    def __init__(self, source: str, shown: str | None = None, arguments: frozenset[str] = _NO_ARGUMENTS) -> None:
        self.source = source
        self._shown = source if shown is None else shown
        self.arguments = arguments

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._shown[:max(limit, 0)]


class Relabeled:
    """A compiled message whose `source` is the text as the file writes it, where what was compiled
    differs from it (Android's text without its markup, ARB's text with its apostrophes doubled)."""

    __slots__ = ("_inner", "source")

    def __init__(self, source: str, inner: Renderable) -> None:
        self.source = source
        self._inner = inner

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        return self._inner.render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        return self._inner.arguments

    @property
    def plurals(self) -> tuple[Any, ...]:
        return self._inner.plurals
