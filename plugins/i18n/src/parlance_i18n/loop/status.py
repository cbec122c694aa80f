"""Where a target locale stands, per catalog: every source key is translated, missing, untranslated,
fuzzy or invalid (exactly one), and a translated one may also be stale.

- `total`: the source's keys, less those the source marks as not to be translated (Android
  `translatable="false"`: the format's `untranslatable_keys`). A plural group counts once.
- `fuzzy`: the target holds a translation someone must review: PO `#, fuzzy` (`fuzzy_keys`), XLIFF 1.2
  `needs-review-*`, `needs-adaptation`, `needs-l10n` and String Catalog `needs_review` (the format's
  `states`: key -> state), or any format's `review_keys`. Fuzzy PO entries are not served.
- `invalid`: the target's file has a problem with the key (it was skipped when read, or is found
  invalid when compiled; a duplicate counts too): `invalid_messages` gives the reasons, a file that
  cannot be read at all is listed there with no key, and its keys count as missing.
- `missing`: no translation is served (an empty one, or XLIFF `new` / `initial`, counts as none).
- `untranslated`: the translation is the source text itself, where that is suspicious: more than one
  word with letters once placeholders, URLs and numbers are set aside ("OK", "Email", "{count}" and
  "https://..." are legitimately the same), and never when the target is the source's language
  (en -> en-IE).
- `translated`: the rest; `stale` counts those whose source text changed since the translation was
  written, as recorded in the lock file (`lockfile.SourceLock`).
- `coverage` = translated / total (1.0 for an empty catalog).

Where the source texts come from: the source locale's files of the catalog. Where a key is its
source text (the format's `source_is_key`: gettext's msgid), the target's own files are the source
(the source locale rarely has PO files): each locale's keys are its own file's msgids, as `msgfmt
--statistics` counts them, untranslated and fuzzy entries included. A catalog that names a
`template` (a `.pot`) takes the template's entries as its keys, as `msgmerge` does: a key the
locale's file lacks is missing, and the file's keys the template lacks are `obsolete` (counted
apart from `total`). Where a file carries its sources (`carries_source`: XLIFF's
`<source>`) and the source locale has no file, the target's files read for the source language. A
catalog with none of these is reported with a problem and no keys.

`CatalogView` is the one place that knows this; `workitems` builds on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError, CatalogFormat, LocaleMessages, SourceText, Value, facts_of
from parlance_i18n.locales import LocaleTag
from parlance_i18n.loop.reports import FileLevelProblem, LocaleStatusReport, SkippedMessage
from parlance_i18n.model.discovery import file_problem_reason
from parlance_i18n.model.project import CatalogFile, FileProblem, Project, ProjectLocale, parse
from parlance_i18n.store import UnsafePath

if TYPE_CHECKING:
    from parlance_i18n.icu.facts import Facts
    from parlance_i18n.loop.lockfile import SourceLock

__all__ = ["CatalogView", "FileLevelProblem", "LocaleStatusReport", "SkippedMessage", "UnknownCatalog", "catalog_status",
           "catalog_views", "is_suspicious_copy", "status_of"]

MISSING, UNTRANSLATED, FUZZY, INVALID, TRANSLATED = "missing", "untranslated", "fuzzy", "invalid", "translated"

REVIEW_STATES = frozenset({
    "needs-review-translation", "needs-review-l10n", "needs-review-adaptation",  # XLIFF 1.2
    "needs-adaptation", "needs-l10n",
    "needs_review",  # String Catalogs
})
_PLURAL_SUFFIX = re.compile(r"_(?:ordinal_)?(?:zero|one|two|few|many|other)$")
# What is set aside before counting words: placeholders of every format, URLs, e-mail addresses, numbers.
_NOT_WORDS = re.compile(
    r"\{\{[^{}]*\}\}|\{[^{}]*\}|%\{[^{}]*\}|%<[^<>]*>[a-zA-Z]|%\([^()]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]"
    r"|%(?:\d+\$)?[-#0 +,']*\d*(?:\.\d+)?(?:hh|h|ll|l|q|z|t|j|L)?[a-zA-Z@]|%#@[^@]*@|\$t\([^()]*\)"
    r"|<[^<>]*>|[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+|\S+@\S+\.\w+|\d+(?:[.,:]\d+)*"
)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_UNSPACED_LETTER = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff"
                              r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")


class UnknownCatalog(I18nError):
    """A `catalog` argument that names no configured catalog."""

    code = "UNKNOWN_CATALOG"


def catalog_status(project: Project, source: ProjectLocale, target: ProjectLocale, lock: SourceLock | None, *,
                   catalog: str | None = None, limit: int = 100) -> list[LocaleStatusReport]:
    """The status of `target` against `source`, one entry per catalog of the target locale (of the
    source when the target has no file yet), in the configured order; `catalog` picks one."""
    order = [entry.label for entry in project.sources]
    return [status_of(view, lock, limit) for view in catalog_views(source, target, catalog=catalog, order=order)]


def status_of(view: CatalogView, lock: SourceLock | None, limit: int,
              each: Callable[[str, str], None] | None = None) -> LocaleStatusReport:
    """The status of one catalog view; `each(key, state)` is told every key's state as it is found
    (i18n_check reads its own findings in the same pass, so its counts are these)."""
    found: dict[str, list[str]] = {MISSING: [], UNTRANSLATED: [], FUZZY: [], INVALID: [], TRANSLATED: []}
    stale: list[str] = []
    locale = view.target_tag.code
    for key in view.keys:
        state = view.state(key, compile=True)
        found[state].append(key)
        if each is not None:
            each(key, state)
        if state == TRANSLATED and lock is not None:
            source = view.source_text(key)
            if source is not None and lock.stale(view.name, locale, key, source):
                stale.append(key)
    total = len(view.keys)
    translated = len(found[TRANSLATED])
    invalid_keys = set(found[INVALID])
    reasons = [(key, reason) for key, reason in view.problems if key is None or key in invalid_keys]
    if view.problem is not None:
        reasons.insert(0, (None, view.problem))
    return LocaleStatusReport(
        catalog=view.name, locale=locale, total=total, translated=translated,
        missing=len(found[MISSING]), untranslated=len(found[UNTRANSLATED]), fuzzy=len(found[FUZZY]),
        invalid=len(found[INVALID]), stale=len(stale),
        coverage=round(translated / total, 4) if total else 1.0, obsolete=len(view.obsolete),
        missing_keys=found[MISSING][:limit], untranslated_keys=found[UNTRANSLATED][:limit],
        fuzzy_keys=found[FUZZY][:limit], stale_keys=stale[:limit], obsolete_keys=view.obsolete[:limit],
        invalid_messages=[SkippedMessage(key, reason) for key, reason in reasons[:limit]],
        file_problems=[FileLevelProblem(str(p.path), p.line, p.reason) for p in view.file_problems[:limit]],
    )


def catalog_views(source: ProjectLocale, target: ProjectLocale, *, catalog: str | None = None,
                  order: list[str] | None = None) -> list[CatalogView]:
    """A view per catalog to look at: the target's catalogs, or the source's when the target has no
    file yet (a new locale); `catalog` names one (UnknownCatalog when neither locale has it)."""
    known = list(dict.fromkeys([*(order or []), *(f.catalog for f in source.files), *(f.catalog for f in target.files)]))
    if catalog is not None:
        if catalog not in known:
            raise UnknownCatalog(f"there is no catalog named {catalog!r}; the project's catalogs are: "
                                 f"{', '.join(known) or 'none'}", {"catalog": catalog, "catalogs": known})
        names = [catalog]
    else:
        wanted = {f.catalog for f in target.files} or {f.catalog for f in source.files}
        names = [name for name in known if name in wanted]
    return [CatalogView(name, source, target) for name in names]


class CatalogView:
    """One catalog seen from a source locale and a target locale, read once: the source's keys in
    file order with their texts, and what the target's files hold for each (see the module docstring)."""

    def __init__(self, name: str, source: ProjectLocale, target: ProjectLocale) -> None:
        self.name = name
        self.source_tag: LocaleTag = source.tag
        self.target_tag: LocaleTag = target.tag
        self.same_language = source.tag.language == target.tag.language
        self.target_files = [f for f in target.files if f.catalog == name]
        self.target_layers = [(f, m) for f, m in target.load() if f.catalog == name]
        self.problem: str | None = None
        """Why the catalog has no source keys, or None."""
        self.problems: list[tuple[str | None, str]] = []
        self.file_problems: list[FileProblem] = []
        """The catalog's files that could not be read: the target's, then the source's."""
        self._unreadable: set[Path] = set()
        self._last_facts: tuple[str, Facts | None] | None = None
        self._sources: list[tuple[CatalogFile, LocaleMessages]] = []
        self._key_sources: dict[str, tuple[CatalogFile, SourceText]] = {}
        self._untranslatable: set[str] = set()
        self._states: dict[str, str] = {}
        source_files = [f for f in source.files if f.catalog == name]
        first = source_files or self.target_files
        self.format: CatalogFormat | None = first[0].format if first else None
        keys: dict[str, None] = {}
        self.obsolete: list[str] = []
        """Keys of the target's files that their template does not have (msgmerge makes them obsolete)."""
        if self.format is not None and self.format.source_is_key:
            own = self.target_files if self.target_files else source_files
            templates = _templates(own, source.tag)
            if not templates or not self._read_key_sources(templates, keys, report=True):
                self._read_key_sources(own, keys)
            else:
                self.obsolete = self._not_in_templates(keys)
        elif source_files:
            self._sources = [(f, m) for f, m in source.load() if f.catalog == name]
        elif self.format is not None and self.format.carries_source:
            self._sources = self._read_bilingual()
        else:
            self.problem = (f"the catalog {name!r} has no file for the source locale {source.tag.code!r}, so there is "
                            "nothing to translate from: check its path and source_locale")
        for _, messages in self._sources:
            self._untranslatable.update(getattr(messages, "untranslatable_keys", ()))
            keys.update(dict.fromkeys(messages))
        for _, messages in self.target_layers:
            self._untranslatable.update(getattr(messages, "untranslatable_keys", ()))
        self.keys: list[str] = [key for key in keys if key not in self._untranslatable]
        self._one_source = self._sources[0][1].text if len(self._sources) == 1 and not self._key_sources else None
        self._key_set = set(self.keys)
        for problem in target.problems:
            if problem.catalog != name:
                continue
            if problem.key is None:
                self.problems.append((None, f"{problem.path.name}: {problem.reason}"))
                self.file_problems.append(problem)
                self._unreadable.add(problem.path)
            else:
                self.problems.append((self.owner_of(problem.key), problem.reason))
        if source is not target:
            self.file_problems.extend(problem for problem in source.problems
                                      if problem.catalog == name and problem.key is None
                                      and problem.path not in self._unreadable)

    # --- the source side ----------------------------------------------------------------------------------------

    def source_text(self, key: str) -> Value | None:
        """The text to translate: a str, or forms by category (a PO plural's are `one`/`other`: msgid, msgid_plural)."""
        if self._one_source is not None:  # the usual catalog, one source file: asked of every key
            return self._one_source(key)
        entry = self._key_sources.get(key)
        if entry is not None:
            return entry[1].text
        for _, messages in self._sources:
            found = messages.text(key)
            if found is not None:
                return found
        return None

    def source_message(self, key: str) -> Any:
        """The source's compiled message (its `arguments` and `plurals`), or None (PO: none is needed)."""
        for _, messages in self._sources:
            if key in messages:
                return messages.get(key)
        return None

    def source_file(self, key: str) -> CatalogFile | None:
        entry = self._key_sources.get(key)
        if entry is not None:
            return entry[0]
        return next((f for f, messages in self._sources if key in messages), None)

    def comment(self, key: str) -> str | None:
        """Notes for translators: the source's, else the target's (PO `#.`, ARB description, XLIFF note, ...)."""
        entry = self._key_sources.get(key)
        if entry is not None and entry[1].comment:
            return entry[1].comment
        for _, messages in (*self._sources, *self.target_layers):
            if key in messages:
                found = messages.comment(key)
                if found:
                    return found
        return None

    def context(self, key: str) -> str | None:
        """The disambiguating context a format keys by (PO `msgctxt`), or None."""
        entry = self._key_sources.get(key)
        return entry[1].context if entry is not None else None

    def max_length(self, key: str) -> int | None:
        """The longest translation the file allows, where the format carries one (its `max_lengths`:
        XLIFF `maxwidth` in characters): the target file's, else the source file's."""
        return self._max_lengths.get(key)

    @cached_property
    def _max_lengths(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for file, _ in (*self.target_layers, *self._sources):
            if not file.format.limits_length:
                continue
            try:
                data = file.read_bytes()
            except (CatalogFileError, UnsafePath, OSError):
                continue
            for key, length in file.format.max_lengths(data).items():
                found.setdefault(key, length)
        return found

    # --- the target side ----------------------------------------------------------------------------------------

    def target_text(self, key: str) -> Value | None:
        for _, messages in self.target_layers:
            if key in messages:
                return messages.text(key)
        return None

    def target_file(self, key: str) -> CatalogFile | None:
        """The target file that holds `key`, or would: the one of the source file's domain, or the only
        one; for a format holding every locale in one file (`.xcstrings`), the source's file."""
        for file, messages in self.target_layers:
            if key in messages:
                return file
        if len(self.target_files) == 1:
            return self.target_files[0]
        source = self.source_file(key)
        if source is not None and source.format.multi_locale:
            return next((file for file in self.target_files if file.path == source.path), source)
        if source is not None:
            for file in self.target_files:
                if file.path == source.path or (source.domain is not None and file.domain == source.domain):
                    return file
        return None

    def state(self, key: str, *, compile: bool = False) -> str:
        """What the target holds for `key`: missing, untranslated, fuzzy, invalid or translated.
        `compile`: compile a served translation to find what only compiling reveals (slower)."""
        known = self._states.get(key)
        if known is not None and (not compile or known != TRANSLATED and known != UNTRANSLATED):
            return known
        found = self._states[key] = self._state(key, compile)
        return found

    def _state(self, key: str, compile: bool) -> str:
        if key in self._review:
            return FUZZY
        if key in self._invalid:
            return INVALID
        for _, messages in self.target_layers:
            if key in messages:
                translation = messages.text(key)
                break
        else:
            return INVALID if self._blocked(key) else MISSING
        source = self.source_text(key)
        if translation is None or (translation == "" and source):
            return MISSING
        if compile and self._probe(messages, key) is None:
            self._invalid.add(key)
            reason = next((p.reason for p in reversed(messages.problems) if p.key == key),
                          "the translation cannot be compiled")
            self.problems.append((key, reason))
            return INVALID
        if self.same_language or source is None or (translation != source and isinstance(translation, str)):
            return TRANSLATED  # the common case, decided without looking at the words
        return UNTRANSLATED if is_suspicious_copy(source, translation) else TRANSLATED

    def _blocked(self, key: str) -> bool:
        """Whether the file that would hold `key` could not be read: its translation is unknown, and
        writing one cannot succeed until the file is fixed, so the key is invalid rather than missing."""
        if not self._unreadable:
            return False
        file = self.target_file(key)
        return file is not None and file.path in self._unreadable

    def _probe(self, messages: LocaleMessages, key: str) -> Facts | None:
        """What the served message uses (None when it cannot be used), read as cheaply as the format
        allows (an ICU message from one parse, compiling nothing); kept for `served_facts`."""
        ask = getattr(messages, "facts", None)
        found: Facts | None = ask(key) if ask is not None else facts_of(messages.get(key))
        self._last_facts = (key, found)
        return found

    def served_facts(self, key: str) -> Facts | None:
        """(arguments, plural uses) of the target's message for `key`, or None: what `state(key,
        compile=True)` just read when it was asked about this key last."""
        last = self._last_facts
        if last is not None and last[0] == key:
            return last[1]
        for _, messages in self.target_layers:
            if key in messages:
                return self._probe(messages, key)
        return None

    def extra_keys(self) -> list[str]:
        """Keys the target's files of this catalog hold that the source does not (a plural form of a
        source key, i18next's `items_few`, is not one); none when the catalog has no source keys."""
        if self.problem is not None:
            return []
        found = dict.fromkeys(key for _, messages in self.target_layers for key in messages)
        return sorted(key for key in found if key not in self._untranslatable and self.owner_of(key) not in self._key_set)

    def message_count(self) -> int:
        """How many messages the target's files of this catalog hold (each key once)."""
        if len(self.target_layers) == 1:
            return len(self.target_layers[0][1])
        return len({key for _, messages in self.target_layers for key in messages})

    def has_key(self, key: str) -> bool:
        """Whether `key` is one of the source's keys to translate."""
        return key in self._key_set

    def fingerprint_parts(self) -> Iterator[str]:
        yield self.name
        yield from self.keys

    @cached_property
    def _review(self) -> set[str]:
        found: set[str] = set()
        for _, messages in self.target_layers:
            found.update(getattr(messages, "fuzzy_keys", ()))
            found.update(getattr(messages, "review_keys", ()))
            states = getattr(messages, "states", None)
            if isinstance(states, Mapping):
                found.update(key for key, state in states.items() if state in REVIEW_STATES)
        return found & self._key_set

    @cached_property
    def _invalid(self) -> set[str]:
        return {key for key, _ in self.problems if key is not None and key in self._key_set}

    def owner_of(self, key: str) -> str:
        """The source key a problem's key belongs to (i18next reports `items_few` of the group `items`)."""
        if key in self._key_set:
            return key
        base = _PLURAL_SUFFIX.sub("", key)
        return base if base in self._key_set else key

    # --- reading sources that are not the source locale's files ----------------------------------------------

    def _read_bilingual(self) -> list[tuple[CatalogFile, LocaleMessages]]:
        found: list[tuple[CatalogFile, LocaleMessages]] = []
        for file in self.target_files:
            try:
                found.append((file, parse(file.format, file.read_bytes(), self.source_tag, file.limits.read)))
            except (CatalogFileError, UnsafePath, OSError):
                continue  # reported with the target's problems
        return found

    def _read_key_sources(self, files: Iterable[CatalogFile], keys: dict[str, None], *, report: bool = False) -> bool:
        """The keys of `files` with their sources; whether any file was read. `report`: a file that
        cannot be read is a problem of the catalog (a template: a locale's own files are reported with
        the locale's problems)."""
        read = False
        for file in files:
            try:
                found = file.format.source_texts(file.read_bytes(), file.tag)
            except (CatalogFileError, UnsafePath, OSError) as exc:
                if report:
                    self.problems.append((None, f"the template {file.path} cannot be read, so each locale's own "
                                                f"msgids are its keys: {file_problem_reason(exc)}"))
                continue
            read = True
            for key, source in found.items():
                if key not in self._key_sources:
                    self._key_sources[key] = (file, source)
                    keys[key] = None
        return read

    def _not_in_templates(self, keys: Mapping[str, None]) -> list[str]:
        """The target's keys (translated or not) that the templates lack, in file order."""
        found: dict[str, None] = {}
        for file in self.target_files:
            try:
                own = file.format.source_texts(file.read_bytes(), file.tag)
            except (CatalogFileError, UnsafePath, OSError):
                continue  # reported with the locale's problems
            found.update((key, None) for key in own if key not in keys)
        return list(found)


def _templates(files: Iterable[CatalogFile], tag: LocaleTag) -> list[CatalogFile]:
    """The templates `files` name (the catalog's `template`), each once, as files of the source locale."""
    found: dict[Path, CatalogFile] = {}
    for file in files:
        template = file.template_file(tag)
        if template is not None:
            found.setdefault(template.path, template)
    return list(found.values())


def is_suspicious_copy(source: Value, translation: Value) -> bool:
    """Whether `translation` is the source text itself where a translation should differ: each of its
    forms is one of the source's, and the source has more than one word with letters once
    placeholders, URLs and numbers are set aside (in scripts without spaces, two letters)."""
    sources = {source} if isinstance(source, str) else set(source.values())
    forms = [translation] if isinstance(translation, str) else list(translation.values())
    if not forms or not all(form in sources for form in forms):
        return False
    for text in sources:
        rest = _NOT_WORDS.sub(" ", text)
        if len(_UNSPACED_LETTER.findall(rest)) >= 2 or len(_WORD.findall(rest)) >= 2:
            return True
    return False
