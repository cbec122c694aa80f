"""Glossaries and style notes for one target language: which source terms must be translated how (or
kept as they are), and the house style a translation follows.

    glossary/<lang>.toml   [[term]] source = "cart", target = "Warenkorb", case_sensitive, note
                           [[term]] source = "Parlance", dnt = true        # do not translate: keep it
    glossary/<lang>.csv    source,target,dnt,case_sensitive,note           # the same, one term a row
    notes/<lang>.toml      formality = "...", quotes = "...", units = "...", notes = ["...", ...]

They come from the language packs serving the locale (`glossary/` and `notes/` beside a pack's
`prompts/`) and from the paths the config names (`[packs.i18n] glossaries`): a file named by its
language (`de.toml`, `pt-BR.csv`; a TOML file may say `language = "de"` instead, and carry a
`[style]` table of notes), or a folder laid out like a pack. A file for `de` serves `de-AT` too
(BCP 47 truncation). Where two files define a term (its source, compared case-blind unless the term
is case-sensitive), the config's file wins over a pack's, and the more specific language over the
less specific; style notes win field by field in the same order, and their `notes` lists add up.

Matching is by whole word, Unicode-aware: "cart" is found in "Your cart" and "cart-wide", not in
"cartridge". Scripts written without spaces between words (Han, kana, Hangul, Thai, ...) have no
word boundaries to respect, so a term in them is found anywhere. A translation uses a required
translation when it contains it, inside a word too when it has 4 characters or more (German
inflects and compounds: "Warenkorbs", "Kundenkonto" use "Warenkorb", "Konto"), as a whole word when
shorter; a do-not-translate term must appear, as a whole word, as the source writes it.

A broken glossary named in the config raises `GlossaryError` (naming the file, line and fix): the
user asked for it. A broken file in a language pack is logged and skipped, as a broken pack never
takes the loop down.
"""

from __future__ import annotations

import csv
import functools
import io
import logging
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib
from parlance import LanguagePacks

from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.store import UnsafePath, label_of, read_bytes

__all__ = ["Glossary", "GlossaryError", "StyleNotes", "Term", "load_glossary"]

logger = logging.getLogger(__name__)

MAX_GLOSSARY_BYTES = 4 * 1024 * 1024
"""A glossary or notes file larger than this is refused (real ones are a few KB)."""
MAX_TERMS = 20_000

# Scripts written without spaces between words: a term in them has no word boundaries to respect.
_UNSPACED = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f"  # Myanmar
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul (particles attach to nouns)
    "\u1780-\u17ff"  # Khmer
    "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # kana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"  # Han
)
_SPACED_WORD = f"[^\\W{_UNSPACED}]"
"""A letter, digit or underscore of a script that separates words with spaces."""

_TRUE = frozenset({"true", "yes", "y", "1", "x"})
_FALSE = frozenset({"false", "no", "n", "0", ""})
_LOOSE_FROM = 4
"""A required translation this long or longer may occur inside a word; shorter ones must be whole words."""
_TERM_FIELDS = frozenset({"source", "target", "dnt", "case_sensitive", "note"})
_STYLE_FIELDS = ("formality", "quotes", "units")


@functools.cache
def _spaced_word() -> re.Pattern[str]:
    """One letter or digit of a spaced script (compiled on first use: the class takes milliseconds)."""
    return re.compile(_SPACED_WORD)


@functools.cache
def _words() -> re.Pattern[str]:
    return re.compile(f"{_SPACED_WORD}+")


class GlossaryError(I18nError):
    """A glossary or style-notes file that cannot be used: the message names the file, line and fix."""

    code = "INVALID_GLOSSARY"


@dataclass(frozen=True)
class Term:
    """A source term and its required translation; `target` None: do not translate (keep the source)."""

    source: str
    target: str | None
    case_sensitive: bool = False
    note: str | None = None

    @property
    def do_not_translate(self) -> bool:
        return self.target is None

    def as_dict(self) -> dict[str, Any]:
        """The term as a work item or prompt shows it (`target` null: keep the source term)."""
        found: dict[str, Any] = {"source": self.source, "target": self.target}
        if self.case_sensitive:
            found["case_sensitive"] = True
        if self.note:
            found["note"] = self.note
        return found


@dataclass(frozen=True)
class StyleNotes:
    """How translations into one locale should read: register, quotation marks, units, other notes."""

    formality: str | None = None
    quotes: str | None = None
    units: str | None = None
    notes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.formality or self.quotes or self.units or self.notes)

    def lines(self) -> list[str]:
        """One line per note, labelled (`Formality: ...`), for a prompt."""
        found = [f"{label}: {value}" for label, value in
                 (("Formality", self.formality), ("Quotation marks", self.quotes), ("Units", self.units)) if value]
        return found + list(self.notes)


class Glossary:
    """The terms one locale's translations must respect, matched by whole word (see the module docstring).

    Finding terms costs little whatever the glossary's size: each term is filed under a key, its first
    word (case-folded), or its first character when it has no word of a spaced script; a text looks
    up the keys it has, and only the terms found there are tried, each with its own regex."""

    def __init__(self, terms: Iterable[Term] = ()) -> None:
        self.terms: tuple[Term, ...] = tuple(terms)
        self._by_key: dict[str, list[int]] | None = None
        self._patterns: dict[int, re.Pattern[str]] = {}

    def __len__(self) -> int:
        return len(self.terms)

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __repr__(self) -> str:
        return f"Glossary({len(self.terms)} terms)"

    def terms_in(self, source_text: str) -> list[Term]:
        """The terms `source_text` uses, in order of first use, each once. Where terms overlap
        ("shopping cart" and "cart"), the longer one is the match."""
        if not self.terms or not source_text:
            return []
        by_key = self._by_key
        if by_key is None:
            by_key = self._by_key = {}
            for index, term in enumerate(self.terms):
                by_key.setdefault(_key(term.source), []).append(index)
        folded = source_text.casefold()
        keys = {*_words().findall(folded), *folded}
        matches: list[tuple[int, int, bool, int]] = []  # start, -length, case-blind, index: the order to take them
        for key in keys:
            for index in by_key.get(key, ()):
                term = self.terms[index]
                pattern = self._patterns.get(index)
                if pattern is None:
                    pattern = self._patterns[index] = _pattern(term.source, term.case_sensitive)
                matches.extend((m.start(), m.start() - m.end(), not term.case_sensitive, index)
                               for m in _bounded(pattern, source_text, term.source, whole_word=True))
        found: dict[int, None] = {}
        covered = 0  # leftmost first, the longest at a position, none inside one already taken
        for start, negative_length, _, index in sorted(matches):
            if start >= covered:
                found.setdefault(index, None)
                covered = start - negative_length
        return [self.terms[index] for index in found]

    def missing_in(self, source_text: str, translation: str) -> list[str]:
        """Why `translation` breaks the glossary for `source_text`: one sentence per term it misses."""
        reasons = []
        for term in self.terms_in(source_text):
            if term.target is None:
                if not _contains(translation, term.source, term.case_sensitive, whole_word=True):
                    reasons.append(f"does not keep the do-not-translate term {term.source!r} as it is written")
            elif not _contains(translation, term.target, term.case_sensitive, whole_word=False):
                reasons.append(f"does not use the required translation {term.target!r} of {term.source!r}")
        return reasons


def _key(source: str) -> str:
    """Where a term is filed: its first word of a spaced script, case-folded, else its first character."""
    folded = source.casefold()
    words = _words().findall(folded)
    return words[0] if words else folded.strip()[:1]


def _pattern(text: str, case_sensitive: bool) -> re.Pattern[str]:
    """`text` as a regex whose spaces match any run of white space (word boundaries are `_bounded`'s)."""
    body = r"\s+".join(re.escape(part) for part in text.split())
    return re.compile(body, 0 if case_sensitive else re.IGNORECASE)


def _bounded(pattern: re.Pattern[str], text: str, wanted: str, *, whole_word: bool) -> Iterator[re.Match[str]]:
    """The matches of `pattern` (for `wanted`) in `text`; with `whole_word`, those not inside a word of
    a spaced script (an end of `wanted` that is no letter or digit of one has no boundary to keep).
    Checked here rather than by lookarounds, whose class of letters costs milliseconds to compile."""
    left = whole_word and _spaced_word().match(wanted[0]) is not None
    right = whole_word and _spaced_word().match(wanted[-1]) is not None
    for match in pattern.finditer(text):
        start, end = match.span()
        if left and start > 0 and _spaced_word().match(text, start - 1):
            continue
        if right and end < len(text) and _spaced_word().match(text, end):
            continue
        yield match


def _contains(text: str, wanted: str, case_sensitive: bool, *, whole_word: bool) -> bool:
    """Whether `text` has `wanted`: as a whole word, or (a required translation of 4 characters or more)
    anywhere, since inflection and compounds put it inside words (German "Kundenkonto" for "Konto")."""
    wanted = wanted.strip()
    if not wanted:
        return True
    bounded = whole_word or len(wanted) < _LOOSE_FROM
    return next(_bounded(_pattern(wanted, case_sensitive), text, wanted, whole_word=bounded), None) is not None


# --- loading -------------------------------------------------------------------------------------------------


def load_glossary(tag: LocaleTag, language_packs: LanguagePacks | None,
                  paths: list[Path], root: Path | None = None) -> tuple[Glossary, StyleNotes]:
    """The glossary and style notes for translations into `tag` (see the module docstring for where
    they come from and which wins). Raises GlossaryError for a broken file the config names.

    Every file is read through `store`: the config's only inside `root` (the project's folder; None:
    each inside its own folder), a pack's only inside its pack; a link leading out, or a file that
    is not a regular one, is refused (a config's with GlossaryError, a pack's logged and skipped)."""
    chain = _chain(tag)
    terms: dict[tuple[str, bool], Term] = {}
    styles: list[StyleNotes] = []
    bounds = {path: _bounds(path, root, index) for index, path in enumerate(paths)}
    languages = {path: _file_language(path, bounds[path]) for path in paths if not path.is_dir()}
    # The config's files first (they win), then the packs'; within each, the most specific language first.
    for spelled in chain:
        for path in paths:
            if path.is_dir():
                for kind, candidate in _folder_files(path, spelled):
                    _load_file(candidate, kind, terms, styles, bounds[path])
            elif languages[path] == spelled:
                _load_file(path, "glossary", terms, styles, bounds[path])
    if language_packs is not None:
        packs = language_packs.for_language(tag.code)
        for spelled in chain:
            for lp in packs:
                for kind, relative in _pack_files(spelled):
                    found = lp.file(relative)
                    if found is None:
                        continue
                    try:
                        _load_file(found, kind, terms, styles, Path(os.path.realpath(lp.path)))
                    except GlossaryError as error:
                        logger.warning("i18n.glossary_skipped",
                                       extra={"language_pack": lp.name, "file": relative, "reason": error.message})
    return Glossary(terms.values()), _merge_styles(styles)


def _chain(tag: LocaleTag) -> list[str]:
    """BCP 47 lookup by truncation: `zh-Hant-TW` -> zh-Hant-TW, zh-Hant, zh."""
    parts = tag.code.split("-")
    return ["-".join(parts[:n]) for n in range(len(parts), 0, -1)]


def _spellings(code: str) -> list[str]:
    return [code] if "-" not in code else [code, code.replace("-", "_")]


def _pack_files(spelled: str) -> Iterator[tuple[str, str]]:
    """(kind, path inside a pack) of the files that may hold `spelled`'s glossary and notes."""
    for name in _spellings(spelled):
        yield "glossary", f"glossary/{name}.toml"
        yield "glossary", f"glossary/{name}.csv"
        yield "notes", f"notes/{name}.toml"


def _folder_files(folder: Path, spelled: str) -> Iterator[tuple[str, Path]]:
    """The files of a configured folder for `spelled`: laid out like a pack, or `<lang>.toml|csv` in it."""
    for kind, relative in _pack_files(spelled):
        candidate = folder / relative
        if candidate.is_file():
            yield kind, candidate
    for name in _spellings(spelled):
        for suffix in (".toml", ".csv"):
            candidate = folder / f"{name}{suffix}"
            if candidate.is_file():
                yield "glossary", candidate


def _bounds(path: Path, root: Path | None, index: int) -> Path:
    """The folder a configured glossary path is read inside: the project's; GlossaryError when the path
    leads outside it (the host resolved a link in it: its target is not named)."""
    if root is None:
        return path if path.is_dir() else path.parent
    if not Path(os.path.abspath(path)).is_relative_to(root):
        raise GlossaryError(f"[packs.i18n] glossaries[{index}] leads outside the project's folder (a link, or a path "
                            "elsewhere): Parlance reads only inside the project, so it was not read; point it inside "
                            "the project, or set [packs.i18n] allow_outside_project = true",
                            {"file": f"glossaries[{index}]"})
    return root


def _file_language(path: Path, root: Path) -> str:
    """The language a configured glossary file is for: its `language` key (TOML), else its name."""
    if not path.exists() and not path.is_symlink():
        raise GlossaryError(f"the glossary {label_of(path, root)!r} named in [packs.i18n] glossaries does not exist: "
                            "fix the path (relative to parlance.toml) or remove it", {"file": path.name})
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".csv"):
        raise GlossaryError(f"{path.name}: a glossary is a .toml or .csv file", {"file": path.name})
    declared = _read_toml(path, root).get("language") if suffix == ".toml" else None
    text = declared if isinstance(declared, str) else path.stem
    try:
        return parse_locale(text).code
    except I18nError:
        raise GlossaryError(f"{path.name}: cannot tell which language this glossary is for: name the file by its "
                            "language (de.toml, pt-BR.csv) or write language = \"de\" at its top",
                            {"file": path.name}) from None


def _load_file(path: Path, kind: str, terms: dict[tuple[str, bool], Term], styles: list[StyleNotes],
               root: Path) -> None:
    """Add a file's terms (those not already defined by a file that wins) and its style notes."""
    if kind == "notes":
        styles.append(_style(_read_toml(path, root), path, None))
        return
    if path.suffix.lower() == ".csv":
        found = _csv_terms(path, root)
    else:
        data = _read_toml(path, root)
        unknown = sorted(set(data) - {"term", "language", "style"})
        if unknown:
            raise GlossaryError(f"{path.name}: unknown top-level key {unknown[0]!r}; a glossary has [[term]] entries, "
                                "an optional language and an optional [style] table", {"file": path.name})
        found = _toml_terms(data, path)
        if "style" in data:
            style = data["style"]
            if not isinstance(style, dict):
                raise GlossaryError(f"{path.name}: [style] must be a table of formality, quotes, units and notes",
                                    {"file": path.name})
            styles.append(_style(style, path, "[style] "))
    for term in found:
        terms.setdefault(_term_key(term), term)


def _term_key(term: Term) -> tuple[str, bool]:
    source = " ".join(term.source.split())
    return (source, True) if term.case_sensitive else (source.casefold(), False)


def _read_text(path: Path, root: Path) -> str:
    try:
        return read_bytes(path, root=root, max_bytes=MAX_GLOSSARY_BYTES, kind="glossary files",
                          setting=None).decode("utf-8-sig")
    except (UnsafePath, CatalogFileError) as error:
        raise GlossaryError(f"{path.name}: {error.message}", {"file": path.name}) from None
    except UnicodeDecodeError as error:
        raise GlossaryError(f"{path.name} is not UTF-8 (byte {error.start}): save it as UTF-8",
                            {"file": path.name}) from None
    except OSError as error:
        raise GlossaryError(f"{path.name} cannot be read ({error.__class__.__name__})", {"file": path.name}) from None


def _read_toml(path: Path, root: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(_read_text(path, root))
    except tomllib.TOMLDecodeError as error:
        raise GlossaryError(f"{path.name} is not valid TOML: {error}", {"file": path.name}) from None


def _toml_terms(data: dict[str, Any], path: Path) -> list[Term]:
    entries = data.get("term", [])
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise GlossaryError(f"{path.name}: terms are [[term]] tables (source = \"...\", target = \"...\")",
                            {"file": path.name})
    if len(entries) > MAX_TERMS:
        raise GlossaryError(f"{path.name} has {len(entries):,} terms; at most {MAX_TERMS:,} are read",
                            {"file": path.name})
    return [_term(entry, f"{path.name}: term {number}") for number, entry in enumerate(entries, 1)]


def _csv_terms(path: Path, root: Path) -> list[Term]:
    reader = csv.DictReader(io.StringIO(_read_text(path, root), newline=""))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    if "source" not in header:
        raise GlossaryError(f"{path.name}: the first row must name the columns: source,target,dnt,case_sensitive,note",
                            {"file": path.name})
    unknown = sorted(set(header) - _TERM_FIELDS)
    if unknown:
        raise GlossaryError(f"{path.name}: unknown column {unknown[0]!r}; the columns are "
                            "source,target,dnt,case_sensitive,note", {"file": path.name})
    reader.fieldnames = header
    found: list[Term] = []
    for row in reader:
        if len(found) >= MAX_TERMS:
            raise GlossaryError(f"{path.name} has more than {MAX_TERMS:,} terms", {"file": path.name})
        if not any((value or "").strip() for value in row.values() if isinstance(value, str)):
            continue  # a blank row
        where = f"{path.name}: line {reader.line_num}"
        if None in row:
            raise GlossaryError(f"{where} has more cells than the header names; quote a cell that holds a comma",
                                {"file": path.name})
        entry: dict[str, Any] = {name: (value or "").strip() for name, value in row.items()}
        for flag in ("dnt", "case_sensitive"):
            entry[flag] = _flag(entry.get(flag, ""), f"{where}: {flag}")
        for optional in ("target", "note"):
            if not entry.get(optional):
                entry.pop(optional, None)
        found.append(_term(entry, where))
    return found


def _flag(text: str, where: str) -> bool:
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise GlossaryError(f"{where} is {text!r}; write true or false")


def _term(entry: dict[str, Any], where: str) -> Term:
    unknown = sorted(set(entry) - _TERM_FIELDS)
    if unknown:
        raise GlossaryError(f"{where}: unknown field {unknown[0]!r}; a term has source, target, dnt, "
                            "case_sensitive and note")
    source, target, note = entry.get("source"), entry.get("target"), entry.get("note")
    dnt, case_sensitive = entry.get("dnt", False), entry.get("case_sensitive", False)
    if not isinstance(source, str) or not source.strip():
        raise GlossaryError(f"{where} has no source: write the term as the source text uses it")
    if not isinstance(dnt, bool) or not isinstance(case_sensitive, bool):
        raise GlossaryError(f"{where} ({source!r}): dnt and case_sensitive are true or false")
    if note is not None and not isinstance(note, str):
        raise GlossaryError(f"{where} ({source!r}): note is a string")
    if dnt:
        if target is not None and target != source:
            raise GlossaryError(f"{where} ({source!r}) is do-not-translate and also has a target: keep one")
        target = None
    elif not isinstance(target, str) or not target.strip():
        raise GlossaryError(f"{where} ({source!r}) has no target: give its required translation, "
                            "or dnt = true to keep it as it is")
    return Term(source.strip(), target.strip() if target else None, case_sensitive, note.strip() if note else None)


def _style(data: dict[str, Any], path: Path, prefix: str | None) -> StyleNotes:
    where = f"{path.name}: {prefix or ''}"
    unknown = sorted(set(data) - {*_STYLE_FIELDS, "notes"})
    if unknown:
        raise GlossaryError(f"{where}unknown key {unknown[0]!r}; style notes have formality, quotes, units and notes",
                            {"file": path.name})
    values: dict[str, str | None] = {}
    for name in _STYLE_FIELDS:
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise GlossaryError(f"{where}{name} is a string", {"file": path.name})
        values[name] = value.strip() if value else None
    notes = data.get("notes", [])
    if isinstance(notes, str):
        notes = [notes]
    if not isinstance(notes, list) or not all(isinstance(note, str) for note in notes):
        raise GlossaryError(f"{where}notes is a list of strings", {"file": path.name})
    return StyleNotes(values["formality"], values["quotes"], values["units"],
                      tuple(note.strip() for note in notes if note.strip()))


def _merge_styles(styles: list[StyleNotes]) -> StyleNotes:
    """Field by field, the first (winning) file that says something; notes from every file, once each."""
    notes: dict[str, None] = {}
    for style in styles:
        notes.update(dict.fromkeys(style.notes))
    return StyleNotes(
        formality=next((s.formality for s in styles if s.formality), None),
        quotes=next((s.quotes for s in styles if s.quotes), None),
        units=next((s.units for s in styles if s.units), None),
        notes=tuple(notes),
    )
