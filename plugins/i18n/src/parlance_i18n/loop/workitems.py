"""What to translate next: a page of work items, each with everything a model needs to translate one
message well, in the order of the source's files.

A key is work when its translation is missing, is the source text itself (`status.UNTRANSLATED`), or,
given the lock file, is stale. Fuzzy and invalid translations are not work items: someone wrote them,
and `i18n_status` lists them for review. Each item carries:

- `source`: the text to translate, as its file writes it (a str, or plural forms by category);
- `placeholders`: the source's placeholders as the format writes them (`{{name}}`, `%1$s`,
  `%(count)d`, `{0}`, `%{name}`, an XLIFF `<x id="1"/>`; ICU arguments as `{name}`; a plural's own
  count is left to `plural_categories`), each of which the translation must keep;
- `plural_categories`: the forms the TARGET locale needs, by CLDR (Russian: one, few, many, other),
  for a plural source: the keys of the object to answer (i18next ordinal groups: `ordinal_one`, ...;
  a `.stringsdict` entry with text around its variable: `NSStringLocalizedFormatKey` and
  `<variable>.<category>`), or, for a message with ICU/printf plurals in its text, the branches it
  must have; empty for a message without plurals;
- `comment`, `context`, `max_length` as the files carry them; the glossary terms the source uses;
- `examples`: up to 3 translations already made in this locale of the most similar source texts;
- `reason`: why it is work (`missing`, `untranslated`, `stale`); `catalog` and `file` (the target
  file that holds it or will: None when the locale has no file for the catalog yet).

Examples come from a token index built once per call over the translated keys only (none at all when
nothing is translated): words of two or more letters (two-letter runs in scripts without spaces),
weighted by rarity, so that "Remove {product} from your cart?" finds "Your cart is empty" and not
every message with "your". Words in more than a tenth of the messages (at least 50) are not looked at.

Pages: `cursor` is opaque (base64 of the position in the source's key list where the next page
starts and a fingerprint of that list and the locale). Translations written between two pages do not
disturb it; a source whose keys changed meanwhile does: the cursor is refused (ValueError) and the
caller starts again without one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlance_i18n.formats import CatalogFormat, Value
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.loop.glossary import Glossary, Term
from parlance_i18n.loop.lockfile import SourceLock, source_hash
from parlance_i18n.loop.status import MISSING, TRANSLATED, UNTRANSLATED, CatalogView, catalog_views
from parlance_i18n.model.project import ProjectLocale

__all__ = ["MAX_EXAMPLES", "WorkItem", "work_items"]

MAX_EXAMPLES = 3
MIN_SIMILARITY = 0.3
STALE = "stale"
_CURSOR_VERSION = 1

_ESCAPED_PERCENT = re.compile(r"%%")

# For the example index: placeholders and markup are not words.
_NOT_TEXT = re.compile(r"\{\{[^{}]*\}\}|\{[^{}]*\}|%\{[^{}]*\}|%\([^()]*\)\w|%[\d$.#@]*[a-zA-Z@]|<[^<>]*>"
                       r"|[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+|\S+@\S+")
_MARKUP = re.compile(r"[{%<@]|://|www\\.")
"""What a text without placeholders, markup or addresses lacks: most texts, which need no stripping."""
_TOKEN = re.compile(r"[^\W\d_]{2,}")
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff"
                       r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af]{2,}")


@dataclass(frozen=True)
class WorkItem:
    """One message to translate, with what the translation must respect (see the module docstring)."""

    key: str
    source: str | dict[str, str]
    placeholders: list[str]
    plural_categories: list[str]
    comment: str | None
    context: str | None
    max_length: int | None
    glossary: list[Term]
    examples: list[tuple[str, str]]
    catalog: str
    file: str | None
    reason: str = MISSING
    """Why it is work: missing, untranslated (the source text itself) or stale (the source changed)."""

    def as_dict(self) -> dict[str, Any]:
        """The item as JSON for a tool result or a prompt; empty fields are left out."""
        found: dict[str, Any] = {"key": self.key, "source": self.source}
        if self.placeholders:
            found["placeholders"] = self.placeholders
        if self.plural_categories:
            found["plural_categories"] = self.plural_categories
        for name in ("comment", "context", "max_length"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value
        if self.glossary:
            found["glossary"] = [term.as_dict() for term in self.glossary]
        if self.examples:
            found["examples"] = [{"source": source, "translation": translation} for source, translation in self.examples]
        if self.reason != MISSING:
            found["reason"] = self.reason
        return found


def work_items(source: ProjectLocale, target: ProjectLocale, glossary: Glossary, *, catalog: str | None = None,
               limit: int = 50, cursor: str | None = None,
               lock: SourceLock | None = None) -> tuple[list[WorkItem], str | None]:
    """The next `limit` keys of `target` to translate from `source` (missing, untranslated, and with
    `lock` stale ones), in the order of the source's files, and the cursor of the page after (None
    at the end). Raises ValueError (a sentence) for a cursor this list did not give out."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    views = catalog_views(source, target, catalog=catalog)
    locale = target.tag.code
    fingerprint = _fingerprint(locale, views)
    start = _read_cursor(cursor, fingerprint) if cursor else 0
    chosen: list[tuple[CatalogView, str, str]] = []
    next_position: int | None = None
    position = 0
    for view in views:
        count = len(view.keys)
        if position + count <= start:
            position += count
            continue
        keys = view.keys
        recorded = lock.recorded(view.name, locale) if lock is not None else {}
        for index in range(max(0, start - position), count):
            key = keys[index]
            reason = _work(view, key, recorded)
            if reason is None:
                continue
            if len(chosen) == limit:  # one more exists: the next page starts at it
                next_position = position + index
                break
            chosen.append((view, key, reason))
        if next_position is not None:
            break
        position += count
    if not chosen:
        return [], None
    examples = _ExampleIndex.build(views, lock, locale)
    rules = plural_rules(target.tag)
    items = [_item(view, key, reason, glossary, examples, rules) for view, key, reason in chosen]
    return items, (_write_cursor(next_position, fingerprint) if next_position is not None else None)


def _work(view: CatalogView, key: str, recorded: Mapping[str, str]) -> str | None:
    state = view.state(key)
    if state == MISSING or state == UNTRANSLATED:
        return state
    if state == TRANSLATED and key in recorded:
        text = view.source_text(key)
        if text is not None and recorded[key] != source_hash(text):
            return STALE
    return None


def _item(view: CatalogView, key: str, reason: str, glossary: Glossary, index: _ExampleIndex | None,
          rules: Any) -> WorkItem:
    source = view.source_text(key)
    if source is None:
        source = ""
    text = _joined(source)
    file = view.target_file(key)
    return WorkItem(
        key=key,
        source=dict(source) if isinstance(source, dict) else source,
        placeholders=_placeholders(view, key, source, file.format if file is not None else view.format),
        plural_categories=_plural_categories(view, key, source, rules),
        comment=view.comment(key),
        context=view.context(key),
        max_length=view.max_length(key),
        glossary=glossary.terms_in(text) if glossary else [],
        examples=index.similar(text) if index is not None else [],
        catalog=view.name,
        file=str(file.path) if file is not None else None,
        reason=reason,
    )


def _joined(source: Value) -> str:
    return source if isinstance(source, str) else "\n".join(source.values())


def _placeholders(view: CatalogView, key: str, source: Value, fmt: CatalogFormat | None) -> list[str]:
    """The source's placeholders as its format writes them, each once, in order of appearance (`fmt`:
    the format the key's file is read with, which knows the file's syntax)."""
    texts = [source] if isinstance(source, str) else list(source.values())
    pattern = fmt.placeholder_pattern if fmt is not None else None
    found: dict[str, None] = {}
    if pattern is not None:
        for text in texts:
            found.update(dict.fromkeys(pattern.findall(_ESCAPED_PERCENT.sub("", text))))
        return list(found)
    message = view.source_message(key)
    if message is None:
        return []
    counted = {use.argument for use in getattr(message, "plurals", ())}
    arguments = sorted(getattr(message, "arguments", ()), key=lambda name: (not name.isdigit(), _natural(name)))
    return [f"{{{name}}}" for name in arguments if name not in counted]


def _natural(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (0, name)


def _plural_categories(view: CatalogView, key: str, source: Value, rules: Any) -> list[str]:
    cardinal = [c for c in CATEGORIES if c in rules.cardinal_categories]
    ordinal = [c for c in CATEGORIES if c in rules.ordinal_categories]
    if isinstance(source, dict):
        return view.format.form_names(source, cardinal, ordinal) if view.format is not None else cardinal
    message = view.source_message(key)
    uses = getattr(message, "plurals", ()) if message is not None else ()
    wanted: set[str] = set()
    for use in uses:
        wanted.update(ordinal if use.ordinal else cardinal)
    return [c for c in CATEGORIES if c in wanted]


# --- pages ---------------------------------------------------------------------------------------------------


def _fingerprint(locale: str, views: Sequence[CatalogView]) -> str:
    digest = hashlib.sha256(locale.encode())
    for view in views:
        digest.update(b"\x00")
        digest.update("\x01".join(view.fingerprint_parts()).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def _write_cursor(position: int, fingerprint: str) -> str:
    raw = json.dumps({"v": _CURSOR_VERSION, "o": position, "f": fingerprint}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _read_cursor(cursor: str, fingerprint: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        position, written = data["o"], data["f"]
        valid = data.get("v") == _CURSOR_VERSION and isinstance(position, int) and position >= 0
    except (binascii.Error, ValueError, TypeError, KeyError, UnicodeDecodeError):
        valid, written, position = False, None, 0
    if not valid:
        raise ValueError("the cursor is not one i18n_missing gave out: pass the next_cursor of the previous page "
                         "unchanged, or leave it out to start from the first page")
    if written != fingerprint:
        raise ValueError("the cursor belongs to another locale or catalog, or the source's keys changed since it "
                         "was given out: leave it out to start again from the first page")
    return position  # type: ignore[no-any-return]


# --- examples ---------------------------------------------------------------------------------------------------


def _tokens(text: str) -> set[str]:
    rest = (_NOT_TEXT.sub(" ", text) if _MARKUP.search(text) else text).lower()
    found = set(_TOKEN.findall(rest))
    for run in _UNSPACED.findall(rest):
        found.update(run[i:i + 2] for i in range(len(run) - 1))
        found.discard(run)
    return found


class _ExampleIndex:
    """Translated messages (source, translation), found by the rare words their sources share.

    Scores are cosine similarities of the sources' word sets, each word weighted by its rarity
    (log(1 + n / messages with it)); weights and a message's norm are computed when a query first
    needs them, so building costs one pass of tokenizing."""

    def __init__(self, pairs: list[tuple[str, str]], token_sets: list[set[str]]) -> None:
        self.pairs = pairs
        self._token_sets = token_sets
        postings: dict[str, list[int]] = {}
        for number, tokens in enumerate(token_sets):
            for token in tokens:
                found = postings.get(token)
                if found is None:
                    postings[token] = [number]
                else:
                    found.append(number)
        self._postings = postings
        self._max_df = max(50, len(pairs) // 10)
        self._unseen = math.log(1 + len(pairs))  # the weight of a word no message has
        self._norms: dict[int, float] = {}

    @classmethod
    def build(cls, views: Sequence[CatalogView], lock: SourceLock | None, locale: str) -> _ExampleIndex | None:
        pairs: list[tuple[str, str]] = []
        token_sets: list[set[str]] = []
        seen: set[tuple[str, str]] = set()
        for view in views:
            recorded = lock.recorded(view.name, locale) if lock is not None else {}
            # the target's own keys, not the source's: nothing to look at when nothing is translated
            translated = dict.fromkeys(key for _, messages in view.target_layers for key in messages)
            for key in translated:
                if not view.has_key(key) or view.state(key) != TRANSLATED:
                    continue
                source, translation = view.source_text(key), view.target_text(key)
                if source is None or translation is None:
                    continue
                if key in recorded and recorded[key] != source_hash(source):
                    continue  # stale: its source says something else now
                pair = _example_text(source), _example_text(translation)
                if not pair[1] or pair[0] == pair[1] or pair in seen:  # a copy of its source teaches nothing
                    continue
                tokens = _tokens(pair[0])
                if tokens:
                    seen.add(pair)
                    pairs.append(pair)
                    token_sets.append(tokens)
        return cls(pairs, token_sets) if pairs else None

    def _weight(self, token: str) -> float:
        found = self._postings.get(token)
        return math.log(1 + len(self.pairs) / len(found)) if found else self._unseen

    def _norm(self, number: int) -> float:
        norm = self._norms.get(number)
        if norm is None:
            norm = self._norms[number] = math.sqrt(sum(self._weight(t) ** 2 for t in self._token_sets[number])) or 1.0
        return norm

    def similar(self, text: str) -> list[tuple[str, str]]:
        tokens = _tokens(text)
        scores: dict[int, float] = {}
        query = 0.0
        for token in tokens:
            weight = self._weight(token)
            query += weight * weight  # words no message has count too: they make every match less alike
            found = self._postings.get(token)
            if found is None or len(found) > self._max_df:
                continue  # a word nearly every message has says nothing about likeness
            for number in found:
                scores[number] = scores.get(number, 0.0) + weight * weight
        if not scores:
            return []
        norm = math.sqrt(query) or 1.0
        ranked = sorted(((score / (norm * self._norm(number)), number) for number, score in scores.items()),
                        key=lambda pair: (-pair[0], pair[1]))
        return [self.pairs[number] for score, number in ranked[:MAX_EXAMPLES] if score >= MIN_SIMILARITY]


def _example_text(value: Value) -> str:
    """A message as an example shows it: its text, or a plural's `other` form (else its last)."""
    if isinstance(value, str):
        return value
    return value.get("other") or value.get("ordinal_other") or (list(value.values())[-1] if value else "")
