"""The contract every catalog format implements: read a file's messages, render them by the format's
own rules, and edit the file without disturbing a byte that was not asked to change.

A format is a `CatalogFormat` subclass with a line in `formats/registry.py`. It does three things:

1. `read(data, tag, limits)` -> `LocaleMessages`: one locale's messages from one file's bytes. Reading
   is per message, never per file: a message that cannot be used becomes a `Problem` (key, line,
   reason) and is left out; the rest load. Only a file that cannot be parsed at all raises
   `CatalogFileError`, and so does one past its `ReadLimits` (more messages, or more decoded text,
   than one file may hold: a repository is untrusted input). Reading keeps texts only (a str, or a
   tuple of forms) so a held message costs little; messages compile on first use
   (`LocaleMessages.get`).
2. `LocaleMessages.get(key)` -> a `Renderable` (or None): what `i18n_translate` renders, exactly as
   the format's reference implementation would (i18next, FormatJS, GNU gettext, ...).
3. `edit(data, tag, limits)` -> `Document`: an editable view whose `to_bytes()` is `data` itself
   until something changes; `set`, `add` and `delete` splice only the lines of the message they
   touch, keeping the file's encoding, BOM, line endings, indentation, quoting style and key order.
   A Document plans its edits on one parse of the file and writes the text once, when asked for, so
   that setting and adding many messages costs one parse and one serialization plus a little per
   edit, whatever the file's size. (An edit that needs the current text, such as a delete or a
   second edit of one entry, makes the planned edits and parses first.)

Values a `Document` takes and gives are the message as the format writes it, unescaped: `"Hello
{{name}}"` for i18next, `"Hello %1$s"` for Android. A plural entry held in one place (Android
`<plurals>`, PO `msgstr[N]`, `.stringsdict`, YAML plural subkeys, `.xcstrings` variations) is a
`dict` of forms keyed by CLDR category (`"one"`, `"other"`, ...), except PO, keyed by the msgstr
index as a string (`"0"`, `"1"`, ...) because its file's Plural-Forms says what each index means.

Beside reading and editing, a format answers what the translation loop (`loop/`) asks of its files,
so that nothing outside `formats/` names a format: see `CatalogFormat`'s capabilities.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from parlance_i18n.errors import I18nError
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:  # the ICU engine loads on first use, not when settings name a format
    from parlance_i18n.icu.facts import Facts
    from parlance_i18n.icu.messageformat import PluralUse

__all__ = [
    "DEFAULT_READ_LIMITS",
    "CatalogFileError",
    "CatalogFormat",
    "Document",
    "LocaleMessages",
    "Problem",
    "ReadLimits",
    "Renderable",
    "SourceText",
    "Template",
    "Value",
    "facts_of",
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
class ReadLimits:
    """How much one catalog file may hold, so that no file (a repository is untrusted input) can make
    a read exhaust the machine: past a limit, `read` and `edit` raise `CatalogFileError` naming the
    limit and the setting that raises it (`shared.limits` words it)."""

    max_messages: int = 100_000          # messages one file may hold  ([packs.i18n] max_file_messages)
    max_decoded_chars: int = 64 * 1024 * 1024   # characters of decoded text one file may hold ([packs.i18n] max_file_chars)


DEFAULT_READ_LIMITS = ReadLimits()


@dataclass(frozen=True, slots=True)
class Problem:
    """A message that was skipped: its key (None when the entry has none), 1-based line, and why."""

    key: str | None
    line: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class SourceText:
    """A key's source as a locale's own file carries it (gettext's msgid): the text (a plural's
    `one`/`other`: msgid, msgid_plural), the notes for translators, and the context."""

    text: Value
    comment: str | None = None
    context: str | None = None


@dataclass(frozen=True, slots=True)
class Template:
    """A file of the same catalog that another locale already has, which a new locale's file may follow
    (`CatalogFormat.new_file`): its bytes and the locale it was read as (the source locale's, when it has one)."""

    data: bytes
    tag: LocaleTag


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


def facts_of(message: Renderable | None) -> Facts | None:
    """(arguments, plural uses) of a compiled message, from one look where the message offers one (an ICU
    message's `facts()`), else from its `arguments` and `plurals`; None for no message. Every format's
    messages answer it, whatever class renders them (ARB's relabelled ICU messages included)."""
    if message is None:
        return None
    facts = getattr(message, "facts", None)
    return facts() if facts is not None else (message.arguments, message.plurals)


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

    def document_order(self) -> Iterable[str]:
        """The file's keys in the order it writes them, as its Document names them (i18next: each plural
        form's own key, `items_one`): where a new key goes in a translation (`loop/placement`).
        Default: the keys, iterated."""
        return iter(self)


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
    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        """Add a new key (KeyError when present), in the file's style: right after the entry of the
        key `after` when the document has it and the new key can go there (in the same object or
        group, for a file that nests its keys: else the new key's first new parent goes after the
        one `after` is in, or the key goes where it would without `after`); without it, after its
        nearest sibling, as each format places a new key. The loop passes the key that precedes the
        new one in the source locale's file, so that a new key lands where the source has it."""

    @abstractmethod
    def delete(self, key: str) -> None:
        """Remove a key's entry and nothing else (KeyError when absent)."""

    @abstractmethod
    def to_bytes(self) -> bytes:
        """The file as it is now, in its original encoding, BOM and line endings."""

    def mark_translated(self, key: str) -> bool:
        """Make a written entry one the format serves (PO: its `fuzzy` flag goes; XLIFF: a target in
        state `new`, `needs-translation` or `initial` becomes `translated`); whether anything changed.
        Default: a written entry is served as it is."""
        return False


class _Registered:
    """`CatalogFormat.name` and `.suffixes`, read from the format's line in the registry
    (`formats.registry.REGISTRY`), the one place they are written."""

    def __set_name__(self, owner: type, attribute: str) -> None:
        self._attribute = attribute

    def __get__(self, instance: object, owner: type[CatalogFormat]) -> Any:
        from parlance_i18n.formats.registry import registered

        return getattr(registered(owner), self._attribute)


class CatalogFormat(ABC):
    """One file format. Instances are stateless; the registry holds one of each.

    A format reads and edits its files (`read`, `edit`) and answers what the translation loop asks
    about them. Each capability has a default that suits most formats; a format overrides the ones
    its files do their own way:

    - a framework's syntax inside its messages: `syntaxes`, `for_file` (the instance a file is read with);
    - where its files are: `multi_locale`, `locales`, `locale_spelling`, `parse_spelling`,
      `default_folder`, `layout_folders`; a new locale's file: `new_file`;
    - placeholders: `placeholder_pattern` (as a text writes them), `placeholder` (one named in a reason);
    - plurals: `plural_forms` and `plural_value` (a plural held as forms), `message_writes` (a
      caller's message as Document writes), `form_names` (the forms a caller answers);
    - keys: `message_keys`, `part_order` and `renamed_key` (a message held in several keys), `rename_refusal`,
      `drop_entries` (a key deleted for every locale of a multi-locale file);
    - sources the files carry: `source_is_key` with `source_texts` and `source_messages` (gettext's
      msgid) and `add_from_template` (an entry of the catalog's template), `carries_source` (XLIFF's
      `<source>`);
    - limits: `limits_length` and `max_lengths`;
    - what the app's runtime does with a message: `runtime_refusals` (a printf conversion of another
      type, a rich-text tag dropped or left open, ...) and `extra_plural_categories` (a category
      the runtime selects beyond the locale's CLDR ones).

    A format's own rules for a message (a reserved name, an apostrophe aapt2 refuses) are `Problem`s
    its reader reports: a write is read back before it is made, so they refuse it too.
    """

    if TYPE_CHECKING:
        name: ClassVar[str]
        suffixes: ClassVar[tuple[str, ...]]
        syntaxes: ClassVar[tuple[str, ...]]
    else:
        name = _Registered()
        """The `format = "..."` name in parlance.toml, e.g. "i18next" (from the registry)."""
        suffixes = _Registered()
        """File name endings this format claims when detecting, e.g. (".po", ".pot") (from the registry)."""
        syntaxes = _Registered()
        """The inner syntaxes a catalog of this format may name (`syntax = "symfony"`), from the registry."""

    multi_locale: ClassVar[bool] = False
    """True when one file holds every locale (`.xcstrings`): read and edit then pick `tag`'s part."""

    @abstractmethod
    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> LocaleMessages:
        """`tag`'s messages in `data`; raises CatalogFileError only when nothing can be read, or when
        the file holds more than `limits` allow."""

    def read_keys(self, data: bytes, tag: LocaleTag, keys: Collection[str],
                  limits: ReadLimits = DEFAULT_READ_LIMITS) -> LocaleMessages:
        """`read`, where only `keys` are asked for: the whole file is checked as `read` checks it
        (raising the same errors), and the messages and problems of `keys` are as `read` finds them;
        those of other keys may be left out. What a write reads: the source of the messages it
        writes, and a file it wrote, read back. `read` itself unless a format can save the work."""
        return self.read(data, tag, limits)

    @abstractmethod
    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> Document:
        """An editable view of `data` (raises CatalogFileError when it cannot be parsed, or holds more
        than `limits` allow)."""

    def sniff(self, head: bytes) -> bool:
        """Whether a file starting with `head` (its first 4 KiB) looks like this format, used only
        when the suffix is shared (`.json`: icu-json, i18next, arb, xcstrings). Default: no opinion."""
        return False

    def for_file(self, file_name: str, syntax: str | None, head: Callable[[], bytes]) -> CatalogFormat:
        """This format as it reads, renders and validates the file called `file_name` of a catalog whose
        `syntax` setting is given (None: not set), for a format whose messages may hold a framework's
        own syntax (`syntaxes`: Symfony's parameters and plurals inside XLIFF, MessageFormat applied to
        every Java message): an instance bound to the syntax the setting names, else to the one the file
        shows without doubt (its name; its first bytes, which `head()` reads). ValueError, naming the
        choices, for a syntax the format does not know. Default: the format itself."""
        if syntax is not None and syntax not in self.syntaxes:
            known = ", ".join(self.syntaxes) or "none"
            raise ValueError(f"the catalog's syntax {syntax!r} is not one the {self.name} format knows "
                             f"(its syntaxes: {known})")
        return self

    # --- where its files are ------------------------------------------------------------------------

    def locales(self, data: bytes) -> list[LocaleTag]:
        """For a `multi_locale` format, every locale the file holds (its source language first)."""
        return []

    def locale_spelling(self, tag: LocaleTag) -> str:
        """How this format spells `tag` in a path (`pt-BR`; Android `pt-rBR`; gettext `pt_BR`)."""
        return tag.code

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """The locale a path segment spells in this format's convention, or None when it is not one."""
        from parlance_i18n.formats.shared.spelling import locale_or_none

        return locale_or_none(text)

    layout_folders: ClassVar[frozenset[str]] = frozenset()
    """Folder names (lower case), or folder extensions after the last dot, that projects keep this
    format's files under by convention (gettext `po` and `lc_messages`, Android `res`, Apple `lproj`):
    `parlance init` proposes a catalog of one locale only when its path has one, or a folder every
    format's files use (`locales`, `i18n`, ...)."""

    default_folder: ClassVar[str | None] = None
    """The folder of the default locale's files where the others are `<folder>-<spelling>` (Android
    `values` beside `values-ru`): a path's `values-{locale}` matches it too (as the source locale),
    and a new locale's file goes in `<folder>-<spelling>` beside it."""

    frameworks: ClassVar[tuple[str, ...]] = ()
    """The frameworks whose code calls this format's catalogs (`code.frameworks.registry` names them):
    how `[[packs.i18n.sources]]` without a `framework` is read. Where several share a format (gettext
    PO: Django and plain gettext), the one whose marker file the project has wins, else the last."""

    base_file_separator: ClassVar[str | None] = None
    """Where the default locale's file is the others' name without `<separator><spelling>` (a Java
    bundle's `messages.properties` beside `messages_ru.properties`): a path's `messages_{locale}.properties`
    matches it too, as the source locale."""

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """The bytes of a new file for `tag` that holds no message yet, as the format's own tools start
        one (an Android `<resources>`, a PO header with `Language` and `Plural-Forms`, an ARB `@@locale`,
        XLIFF with `target-language` and the template's units untranslated), which a write then fills.
        `template` is the catalog's file for another locale (the source locale's when it has one), for
        formats whose new files follow it; `source_tag` is the project's source locale. ValueError,
        with the reason a caller sees, when the format cannot start a file for `tag`.

        Not asked of a `multi_locale` format: its one file takes a new locale's messages as they come."""
        raise ValueError(f"{self.name} files cannot be started here: create the file for {tag.code} with the "
                         "format's own tools, then write again")

    # --- placeholders --------------------------------------------------------------------------------

    placeholder_pattern: re.Pattern[str] | None = None
    """Placeholders as a text of the format writes them (`{{name}}`, `%1$s`, an XLIFF `<x id="1"/>`),
    which work items list for a translation to keep (`%%` is taken out first). None: the compiled
    message's arguments are listed, as `{name}` (ICU, Java MessageFormat). A format bound to an
    inner syntax (`for_file`) may set its own."""

    def placeholder(self, name: str) -> str:
        """A compiled message's argument `name` as a reason names it: "the placeholder {name}" (ICU),
        "the placeholder %1$s" (a printf argument), "the inline element id="b"" (XLIFF)."""
        return f"the placeholder {{{name}}}"

    # --- plurals -------------------------------------------------------------------------------------

    plural_forms: ClassVar[bool] = False
    """Whether a plural message is one Document value holding its forms (a dict: Android
    `<plurals>`, PO `msgstr[N]`, YAML subkeys, `.stringsdict`, `.xcstrings` variations), which
    `plural_value` makes from a caller's forms. False: a plural is written in the message's own
    syntax (ICU `{n, plural, ...}`) or not at all, and a caller's forms are refused."""

    def message_writes(self, document: Document, key: str, value: Value, tag: LocaleTag, *,
                       source: Value | None) -> list[tuple[str, Value]]:
        """The (document key, value) pairs that write a caller's message for `key`: `value` is its text,
        or its plural forms by CLDR category. ValueError, with the reason a caller sees, when it does
        not fit: a plural is given as forms, a single message as a text. `source` is the source
        locale's message as its file writes it (None when it has none): it says whether the message
        is a plural, else the Document's own entry does.

        Default: `key` itself, with the text or the `plural_value` of the forms. i18next writes a
        plural's forms as keys of their own (`items_one`, `items_few`).
        """
        current = document.get(key)
        plural = isinstance(source, dict) if source is not None else isinstance(current, dict)
        if isinstance(value, str):
            if plural:
                raise ValueError("is a plural message: give its forms as an object by plural category "
                                 "({\"one\": ..., \"other\": ...})")
            return [(key, value)]
        if not self.plural_forms:
            raise ValueError(f"{self.name} messages hold no plural forms of their own: give one string "
                             "(with the plural written in the message's own syntax where it has one)")
        if not plural and (source is not None or current is not None):
            raise ValueError("is a single message, not a plural: give its text as a string")
        shaped = source if isinstance(source, dict) else current if isinstance(current, dict) else {}
        return [(key, self.plural_value(document, value, current, tag, shaped=shaped))]

    def plural_value(self, document: Document, forms: dict[str, str], current: Value | None, tag: LocaleTag, *,
                     shaped: dict[str, str]) -> Value:
        """The Document value of a plural entry given `forms` by a caller, over the entry's `current`
        value (None for a new entry); `shaped` is the source's forms (else the current ones), whose
        names the given ones follow. ValueError with the reason when they do not fit.

        Default: forms by CLDR category, merged over the current ones, so that a caller may fix one
        form alone (Android, YAML, `.xcstrings`). PO maps them to msgstr indexes by the file's
        Plural-Forms; `.stringsdict` also takes its own shape (`NSStringLocalizedFormatKey`, ...).
        """
        from parlance_i18n.icu.plurals import CATEGORIES

        unknown = sorted(set(forms) - set(CATEGORIES))
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a plural category; use zero, one, two, few, many or other")
        return {**current, **forms} if isinstance(current, dict) else dict(forms)

    def form_names(self, source: Mapping[str, str], cardinal: Sequence[str], ordinal: Sequence[str]) -> list[str]:
        """The names of the forms a caller gives for a plural message whose source has `source`'s
        forms, where the target locale has the CLDR categories `cardinal` and `ordinal` (in CLDR
        order). Default: the cardinal categories."""
        return list(cardinal)

    # --- keys ----------------------------------------------------------------------------------------

    def message_keys(self, document: Document, key: str) -> list[str]:
        """The document keys that make up the message `key`, in order; empty when the document has
        none. Default: `key` itself. i18next: its plural forms (`items_one`, ...); Android: the
        items of a `<string-array>` (`days[0]`, ...)."""
        return [key] if document.get(key) is not None else []

    def part_order(self, key: str) -> Sequence[str]:
        """Every document key the message `key` may be held in, in the order the format writes them
        (i18next: `items`, `items_zero` ... `items_other`, then the ordinal forms), so that a new
        part goes beside the parts the file has. Default: `key` itself."""
        return (key,)

    def renamed_key(self, part: str, old: str, new: str) -> str:
        """`part`, one of `message_keys(old)`, under the message key `new` (ValueError when `part`
        is not one of them)."""
        if part == old:
            return new
        raise ValueError(f"{part!r} is not a part of {old!r}")

    rename_refusal: ClassVar[str | None] = None
    """Why an entry cannot be moved to a new key through the Document, and what to do instead;
    None when it can (a rename is `add` of the new key and `delete` of the old: the entry moves to
    where `add` puts new keys, and comments that belong to it alone go with the old one)."""

    def drop_entries(self, data: bytes, keys: Sequence[str]) -> tuple[bytes, list[str]]:
        """For a `multi_locale` format: `data` without the entries of `keys`, every locale's part of
        them (a Document deletes its own locale's part only), and the keys that had an entry.
        Raises CatalogFileError when `data` cannot be parsed."""
        raise TypeError(f"{self.name} files hold one locale each: delete a key through each locale's Document")

    # --- sources the files carry ---------------------------------------------------------------------

    source_is_key: ClassVar[bool] = False
    """Whether a key is the source text itself (gettext's msgid): every locale's file then carries its
    sources, which `source_texts` and `source_messages` give."""

    carries_source: ClassVar[bool] = False
    """Whether a translation's file holds each message's source beside it (XLIFF `<source>`): read
    with the source locale's tag, it gives the sources, which serve when that locale has no file."""

    def source_texts(self, data: bytes, tag: LocaleTag) -> dict[str, SourceText]:
        """For a `source_is_key` format: every key of the file with its source, notes and context,
        whether the entry is translated or not."""
        return {}

    def source_messages(self, data: bytes, tag: LocaleTag, keys: Sequence[str]
                        ) -> dict[str, tuple[Value, Renderable | None]]:
        """For a `source_is_key` format: the source of each of `keys` the file has, as its text and
        as a message compiled the way the entry's translation is (gettext: with its flags)."""
        return {}

    def add_from_template(self, document: Document, template: bytes, tag: LocaleTag, key: str) -> bool:
        """For a `source_is_key` format whose catalog names a `template` (gettext's `.pot`): add `key`'s
        entry of the template to `document`, untranslated, as the format's own merge tool would
        (`msgmerge`: with the template's notes, references and flags); whether the template has it.
        KeyError when the document has `key` already. Default: no templates, nothing added."""
        return False

    # --- limits --------------------------------------------------------------------------------------

    limits_length: ClassVar[bool] = False
    """Whether the files may say how long a translation may be (`max_lengths` reads it)."""

    def max_lengths(self, data: bytes) -> dict[str, int]:
        """The longest text each key of a file may have, in characters, where the file says it
        (XLIFF 1.2 `maxwidth`)."""
        return {}

    # --- what the app's runtime does with a message ------------------------------------------------------

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """Why the app would fail on the translation of `key`, or do with it something other than it
        does with the source's message: `written` is the target file read back once written (its
        `text(key)` is the translation), `source` the source's message as its file writes it. One
        sentence each, naming what is wrong and how to fix it (a printf conversion of another type
        than the source's for one argument, a component tag dropped or left open, an unclosed
        nesting). The checks every format shares (syntax, placeholders, plural categories) are made
        beside these. Default: none."""
        return []

    def extra_plural_categories(self, tag: LocaleTag, ordinal: bool) -> frozenset[str]:
        """Plural categories the format's runtime selects for `tag` beyond the locale's CLDR ones
        (cardinal, or `ordinal`): a form in another category is never shown, so a write holding one
        is refused. Exact-number branches (`=2`) are always allowed. Default: none (ICU selects by
        the CLDR categories alone)."""
        return frozenset()
