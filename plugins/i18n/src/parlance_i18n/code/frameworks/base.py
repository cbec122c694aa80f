"""The contract of a framework: which files it reads, what it finds in one, how its keys are spelled
in the catalog, and how a hard-coded literal becomes a call.

A framework module implements `Framework`; adding one is its module and a line in `registry`. Its
`scan` reads one file as the framework's own extractor reads it (i18next-cli, `formatjs extract`,
`xgettext`, ...): with a real parser, so comments and strings that merely look like calls are not
references, and aliases (`import { t as translate }`, `const { t } = useTranslation("ns")`) are.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import ClassVar

from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.settings import SourceSettings

__all__ = ["Edit", "Extraction", "ExtractionRefused", "Framework", "KeyStyle", "name_words"]


@dataclass(frozen=True, slots=True)
class Edit:
    """Bytes `start:end` of a source file replaced with `text`."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Extraction:
    """What turning one literal into a call changes in its file: the edits (the literal's own, and an
    import the call needs where the framework adds one), and the source message the catalog gets."""

    edits: tuple[Edit, ...]
    message: str
    """The source-locale message for the new key, in the catalog's syntax (`{name}` for a JSX expression)."""
    key: str | None = None
    """The catalog's key for the message, where it is not the key asked for as written (i18next's `ns:key`
    is `key` in the namespace's file); None: the key asked for."""
    namespace: str | None = None
    """The namespace the call reads the key from (i18next's `useTranslation("ns")`, or its default): where
    a catalog's files are namespaces, the file of this one gets the message."""


class ExtractionRefused(Exception):  # noqa: N818 - a refusal with its reason, not a failure
    """The call cannot be written here without guessing (no `t` in scope, ...): `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def name_words(name: str) -> list[str]:
    """The words of a file's or identifier's name, camelCase split (`PayButton` -> `Pay`, `Button`)."""
    return re.findall(r"[A-Za-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name))


@dataclass(frozen=True, slots=True)
class KeyStyle:
    """How a project spells its keys, read off its catalog: the separator between a key's parts and the
    case of each part (`checkout.pay_button`, `checkout.payButton`, `checkout-pay-button`)."""

    separator: str = "."
    case: str = "snake"
    """snake, camel, kebab or lower (one word per part, as written)."""

    @classmethod
    def of(cls, keys: Collection[str]) -> KeyStyle:
        sample = [k for k in list(keys)[:2000] if k.isascii()]
        if not sample:
            return cls()
        dots = sum("." in k for k in sample)
        separator = "." if dots * 2 >= len(sample) or not any("_" in k or "-" in k for k in sample) else "_"
        parts = [p for k in sample for p in k.split(separator) if p]
        camel = sum(bool(re.search(r"[a-z][A-Z]", p)) for p in parts)
        snake = sum("_" in p for p in parts)
        kebab = sum("-" in p for p in parts)
        case = max((camel, "camel"), (snake, "snake"), (kebab, "kebab"))[1] if max(camel, snake, kebab) else "snake"
        return cls(separator, case)

    def part(self, words: list[str]) -> str:
        words = [w.lower() for w in words if w]
        if self.case == "camel":
            return words[0] + "".join(w.capitalize() for w in words[1:]) if words else ""
        return ("-" if self.case == "kebab" else "_").join(words)

    def key(self, scope: list[str], text: str, taken: Collection[str]) -> str:
        """A new key for `text` under the parts `scope` (from the file's path), unique among `taken`."""
        words = re.findall(r"[^\W_]+", text.lower())[:4] or ["text"]
        parts = [self.part(name_words(s)) for s in scope]
        key = self.separator.join([p for p in parts if p] + [self.part(words)])
        found, n = key, 2
        while found in taken:
            found, n = f"{key}_{n}", n + 1
        return found


class Framework(ABC):
    """One framework's reading of code; an instance holds one `sources` entry's options."""

    name: ClassVar[str] = ""
    extensions: ClassVar[tuple[str, ...]] = ()
    """The file suffixes it reads (others in `paths` are skipped)."""
    default_paths: ClassVar[tuple[str, ...]] = ()
    default_exclude: ClassVar[tuple[str, ...]] = ()
    """Where the framework's projects keep their code, as `parlance init` proposes `paths` and `exclude`
    (each `paths` glob proposed only where it matches a file)."""
    key_is_text: ClassVar[bool] = False
    """The key is the source text itself (gettext's msgid): a suggested key is the literal."""

    def __init__(self, options: SourceSettings) -> None:
        self.options = options

    def reads(self, path: str) -> bool:
        """Whether this framework reads the file at `path` (project-relative, `/`-separated)."""
        return path.endswith(self.extensions)

    @abstractmethod
    def scan(self, path: str, data: bytes) -> FileScan:
        """What the file at `path` (project-relative, `/`-separated) with content `data` holds."""

    def catalog_key(self, key: str, namespace: str | None, namespaced: bool) -> str:
        """How the catalog's reports spell the key a call names: i18next `ns:key` when the catalog
        has several namespaces (`namespaced`), every other framework the key itself."""
        return key

    def code_key(self, catalog_key: str) -> str:
        """The key the code calls for a catalog key, where the catalog names its parts (an Android
        string-array's item `sizes[0]` is called as `sizes`, a Rails mixed plural's `items.one` as
        `items`); most frameworks call the catalog's key itself."""
        return catalog_key

    def called_key(self, key: str, in_catalog: Callable[[str], bool]) -> str:
        """The catalog key a call of `key` reads, given which keys the catalog has: i18next's explicit
        plural form `t("items_one")` reads the group `items` the catalog holds its forms in."""
        return key

    def key_problem(self, key: str) -> str | None:
        """Why `key` cannot be written into this framework's code or catalog (`i18n_extract`'s `key`),
        or None. A key is written inside a string literal the framework escapes; one with a line break
        or a control character is refused everywhere."""
        if any(ord(char) < 32 for char in key):
            return "a key holds no line break or control character"
        return None

    def suggest_key(self, literal: Hardcoded, path: str, style: KeyStyle, taken: Collection[str]) -> str:
        """A key for a hard-coded literal, in the project's style: scoped by the file's name."""
        if self.key_is_text:
            return literal.text
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        return style.key([stem], literal.text, taken)

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        """The edits that replace `literal` with the framework's call of `key`; ExtractionRefused when
        the file lacks what the call needs. A framework that cannot extract says so."""
        raise ExtractionRefused(f"extracting a literal is not supported for {self.name} yet; add the key to the "
                                "catalog and replace the literal by hand")
