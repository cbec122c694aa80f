"""Flutter ARB files (`app_en.arb`): ICU messages with `@key` metadata, as `flutter gen-l10n` reads them.

An ARB file is one flat JSON object. `@@locale`, `@@context` and the other `@@...` keys describe the
file; `@key` is the metadata of the message `key` (`description`, `placeholders`, `type`, ...);
every other key is a message. The description is the message's comment. A message that is not a
string, or not valid ICU, is a `Problem` with its line; the rest of the file loads.

Messages render with the pack's ICU engine, with one rule of Flutter's: gen-l10n's default
(`use-escaping: false` in l10n.yaml) gives apostrophes no meaning, so `'` and `''` print as
written, where ICU would unescape them. (Flutter's `Intl.pluralLogic` also lets `zero`, `one` and
`two` match 0, 1 and 2 even in languages whose rules never choose them; the engine follows CLDR.)

Editing a message keeps its `@key` block; deleting removes the message and its `@key` entry; a new
message goes after the last entry of the file.
"""

from __future__ import annotations

import re
from typing import Any

from parlance_i18n.formats.base import DEFAULT_READ_LIMITS, CatalogFormat, Document, ReadLimits, Template, Value
from parlance_i18n.formats.icu_json import IcuMessages, check_icu, one_string, read_problems
from parlance_i18n.formats.shared.jsontext import JsonDocument, Path
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.messages import Relabeled
from parlance_i18n.icu.messageformat import compile_message
from parlance_i18n.icu.plurals import PluralRules, plural_rules
from parlance_i18n.icu.syntax import validate
from parlance_i18n.locales import LocaleTag

__all__ = ["ArbDocument", "ArbFormat", "compile_arb"]

_SNIFF = re.compile(rb'"@@locale"\s*:|"@[A-Za-z_][\w.]*"\s*:\s*\{')


def compile_arb(text: str, rules: PluralRules, shared: dict[Any, Any] | None = None) -> Any:
    """Compile an ARB message (raises MessageSyntaxError, with positions in `text`, when invalid)."""
    if "'" not in text:
        return compile_message(text, rules, shared)
    # Flutter's apostrophes are plain text: compiled with each one doubled, shown as written
    return Relabeled(text, compile_message(text.replace("'", "''"), rules, shared))


def _check_arb(text: str) -> str | None:
    """Why `text` is not a valid ARB message, or None; positions are in `text` as written."""
    if "'" not in text:
        return check_icu(text)
    error = validate(text.replace("'", "''"))
    if error is None:
        return None
    doubled = written = 0  # map the position in the doubled text back to the text as written
    while written < len(text) and doubled < error.position:
        doubled += 2 if text[written] == "'" else 1
        written += 1
    return f"not a valid ICU message at position {written}: {error.problem}"


def _one_string(value: Value) -> str:
    return one_string(value, "an ARB message", "one{...} other{...}")


class ArbFormat(CatalogFormat):
    """Flutter Application Resource Bundle: flat ICU messages with `@key` metadata."""

    frameworks = ("flutter",)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """`{"@@locale": ...}` spelled as Flutter's gen-l10n names the file (`pt_BR`): the translation
        files carry no `@key` metadata, which lives in the template."""
        code = "_".join(part for part in (tag.language, tag.script, tag.region, *tag.variants) if part)
        return f'{{\n  "@@locale": "{code}"\n}}\n'.encode()

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> IcuMessages:
        document = JsonDocument(data, limits)
        root = document.object_root('an ARB file is one JSON object ({"@@locale": "en", "title": "..."})')
        rules = plural_rules(tag)
        texts: dict[str, str] = {}
        comments: dict[str, str] = {}
        pending: list[tuple[str, Path, str]] = []
        for key, value in root.items():
            if key.startswith("@"):
                continue
            if not isinstance(value, str):
                pending.append((key, (key,), "an ARB message is a string; metadata goes in an '@" + key + "' entry"))
                continue
            reason = _check_arb(value)
            if reason is not None:
                pending.append((key, (key,), reason))
                continue
            texts[key] = value
            metadata = root.get("@" + key)
            if isinstance(metadata, dict) and isinstance(metadata.get("description"), str):
                comments[key] = metadata["description"]
        check_count(len(texts), limits)
        return IcuMessages(texts, comments, read_problems(document, pending), rules, compile_arb)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> ArbDocument:
        return ArbDocument(data, limits)

    def sniff(self, head: bytes) -> bool:
        return _SNIFF.search(head) is not None


class ArbDocument(Document):
    """An ARB file to edit: its messages, each with its `@key` metadata left in place."""

    def __init__(self, data: bytes, limits: ReadLimits = DEFAULT_READ_LIMITS) -> None:
        self._json = JsonDocument(data, limits)
        root = self._json.object_root("an ARB file is one JSON object")
        # in file order, as a dict so that finding one costs the same in a file of any size
        self._keys = dict.fromkeys(key for key, value in root.items()
                                   if not key.startswith("@") and isinstance(value, str))
        check_count(len(self._keys), limits)

    def keys(self) -> list[str]:
        return list(self._keys)

    def get(self, key: str) -> Value | None:
        value = self._json.value_at((key,)) if key in self._keys else None
        return value if isinstance(value, str) else None

    def line_of(self, key: str) -> int | None:
        return self._json.line_of((key,)) if key in self._keys else None

    def set(self, key: str, value: Value) -> None:
        if key not in self._keys:
            raise KeyError(key)
        self._json.set_string((key,), _one_string(value))

    def add(self, key: str, value: Value, *, after: str | None = None) -> None:
        if key in self._keys or key.startswith("@") or self._json.value_at((key,)) is not None:
            raise KeyError(key)
        anchor: Path | None = None
        if after is not None and after in self._keys:  # after the key's `@key` metadata, which follows it
            anchor = ("@" + after,) if self._json.value_at(("@" + after,)) is not None else (after,)
        self._json.add_string((key,), _one_string(value), anchor)
        self._keys[key] = None

    def delete(self, key: str) -> None:
        if key not in self._keys:
            raise KeyError(key)
        self._json.delete((key,))
        metadata: Path = ("@" + key,)
        if self._json.value_at(metadata) is not None:
            self._json.delete(metadata)
        del self._keys[key]

    def to_bytes(self) -> bytes:
        return self._json.to_bytes()
