"""The contract every catalog format implements: read a file's messages, render them by the format's
own rules, and edit the file without disturbing a byte that was not asked to change.

A format is a `CatalogFormat` subclass registered in `formats/__init__.py`. It does three things:

1. `read(data, tag)` -> `LocaleMessages`: one locale's messages from one file's bytes. Reading is
   per message, never per file: a message that cannot be used becomes a `Problem` (key, line,
   reason) and is left out; the rest load. Only a file that cannot be parsed at all raises
   `CatalogFileError`. Reading keeps texts only (a str, or a tuple of forms) so a held message costs
   little; messages compile on first use (`LocaleMessages.get`).
2. `LocaleMessages.get(key)` -> a `Renderable` (or None): what `i18n_translate` renders, exactly as
   the format's reference implementation would (i18next, FormatJS, GNU gettext, ...).
3. `edit(data, tag)` -> `Document`: an editable view whose `to_bytes()` is `data` itself until
   something changes; `set`, `add` and `delete` splice only the lines of the message they touch,
   keeping the file's encoding, BOM, line endings, indentation, quoting style and key order.

Values a `Document` takes and gives are the message as the format writes it, unescaped: `"Hello
{{name}}"` for i18next, `"Hello %1$s"` for Android. A plural entry held in one place (Android
`<plurals>`, PO `msgstr[N]`, `.stringsdict`, YAML plural subkeys, `.xcstrings` variations) is a
`dict` of forms keyed by CLDR category (`"one"`, `"other"`, ...), except PO, keyed by the msgstr
index as a string (`"0"`, `"1"`, ...) because its file's Plural-Forms says what each index means.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from parlance_i18n.errors import I18nError
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:  # the ICU engine loads on first use, not when settings name a format
    from parlance_i18n.icu.messageformat import PluralUse

__all__ = [
    "CatalogFileError",
    "CatalogFormat",
    "Document",
    "LocaleMessages",
    "Problem",
    "Renderable",
    "Value",
]

Value = str | dict[str, str]
"""A message as a Document holds it: its text, or its plural forms by category (PO: by index)."""


class CatalogFileError(I18nError):
    """A file that cannot be parsed at all (not a message in it): the reason names the line when known."""

    code = "INVALID_CATALOG_FILE"

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason, {"line": line} if line else {})
        self.reason = reason
        self.line = line


@dataclass(frozen=True, slots=True)
class Problem:
    """A message that was skipped: its key (None when the entry has none), 1-based line, and why."""

    key: str | None
    line: int | None
    reason: str


class Renderable(Protocol):
    """A compiled message, as `Translator` and `checks` use it (`messageformat.Message` is one).

    `render` never raises and never returns more than `limit` characters; a missing variable leaves
    what the format's reference leaves (i18next: `{{name}}` as written; ICU: `{name}`).
    """

    @property
    def source(self) -> str: ...

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str: ...

    @property
    def arguments(self) -> frozenset[str]: ...

    @property
    def plurals(self) -> tuple[PluralUse, ...]: ...


class LocaleMessages(Mapping[str, Renderable], ABC):
    """One file's messages for one locale: a read-only mapping of key -> Renderable.

    Subclasses keep the raw texts (`texts`) and compile in `get`; iteration, `len` and `in` are over
    the keys a caller can translate (for i18next, the base key of a plural group counts, as do its
    suffixed keys). `problems` lists what was skipped while reading (and is extended by messages
    found invalid when first compiled, which are then treated as absent).
    """

    problems: list[Problem]

    @abstractmethod
    def text(self, key: str) -> Value | None:
        """The message as written in the file (for checks, resources and i18n_missing), or None."""

    @abstractmethod
    def get(self, key: str, default: Any = None) -> Any:  # -> Renderable | None
        ...

    def __getitem__(self, key: str) -> Renderable:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found  # type: ignore[no-any-return]

    @abstractmethod
    def __iter__(self) -> Iterator[str]: ...

    @abstractmethod
    def __len__(self) -> int: ...

    def comment(self, key: str) -> str | None:
        """Notes for translators the file keeps for `key` (PO `#.`, ARB description, XLIFF note, ...)."""
        return None


class Document(ABC):
    """An editable file. Untouched, `to_bytes()` returns the bytes it was made from, exactly."""

    @abstractmethod
    def keys(self) -> list[str]:
        """Every key in file order (raw file keys: i18next `items_one` and `items_other` both)."""

    @abstractmethod
    def get(self, key: str) -> Value | None:
        """The value as written (unescaped), or None when the key is absent."""

    @abstractmethod
    def line_of(self, key: str) -> int | None:
        """The 1-based line where `key`'s entry starts in the current text, or None."""

    @abstractmethod
    def set(self, key: str, value: Value) -> None:
        """Replace an existing key's value (KeyError when absent); only its entry's lines change."""

    @abstractmethod
    def add(self, key: str, value: Value) -> None:
        """Add a new key (KeyError when present) after its nearest sibling, in the file's style."""

    @abstractmethod
    def delete(self, key: str) -> None:
        """Remove a key's entry and nothing else (KeyError when absent)."""

    @abstractmethod
    def to_bytes(self) -> bytes:
        """The file as it is now, in its original encoding, BOM and line endings."""


class CatalogFormat(ABC):
    """One file format. Instances are stateless; the registry holds one of each."""

    name: ClassVar[str]
    """The `format = "..."` name in parlance.toml, e.g. "i18next"."""
    suffixes: ClassVar[tuple[str, ...]]
    """File name endings this format claims when detecting, e.g. (".po", ".pot")."""
    multi_locale: ClassVar[bool] = False
    """True when one file holds every locale (`.xcstrings`): read and edit then pick `tag`'s part."""

    @abstractmethod
    def read(self, data: bytes, tag: LocaleTag) -> LocaleMessages:
        """`tag`'s messages in `data`; raises CatalogFileError only when nothing can be read."""

    @abstractmethod
    def edit(self, data: bytes, tag: LocaleTag) -> Document:
        """An editable view of `data` (raises CatalogFileError when it cannot be parsed)."""

    def locales(self, data: bytes) -> list[LocaleTag]:
        """For a `multi_locale` format, every locale the file holds (its source language first)."""
        return []

    def sniff(self, head: bytes) -> bool:
        """Whether a file starting with `head` (its first 4 KiB) looks like this format, used only
        when the suffix is shared (`.json`: icu-json, i18next, xcstrings). Default: no opinion."""
        return False

    def locale_spelling(self, tag: LocaleTag) -> str:
        """How this format spells `tag` in a path (`pt-BR`; Android `pt-rBR`; gettext `pt_BR`)."""
        return tag.code

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """The locale a path segment spells in this format's convention, or None when it is not one."""
        from parlance_i18n.formats.shared.spelling import locale_or_none

        return locale_or_none(text)
