"""Every message of every icu-json and ARB test catalog, read through its format and rendered by
Parlance and by FormatJS `intl-messageformat` 12.1.5 in the same run, must agree exactly.

Each file of `tests/packs/i18n/catalogs/icu-json/<locale>/*.json` and `.../arb/<locale>/*.arb` is
read with `formats.get(name).read(data, tag)`, and every key the resulting LocaleMessages serves is
rendered with no values at all; with a value for every argument it uses (a string for a plain
argument, `MOMENT` in epoch milliseconds for a date or time); with that set and each plural,
selectordinal or number argument set to each of 0, 1, 2, 3, 5, 11, 21, 22, 101 and 1.5; and with
each select argument set to each of its keys and to one key it does not name. FormatJS renders the
same source text, in the file's locale, with `ignoreTag: true` (tests/interop/icu_render.mjs, one
Node run for the whole sweep, TZ=UTC).

`EXPECTED_DIFFERENCES` lists, one by one, each rendering allowed to differ, with its reason (the
reasons `icu_reference` documents for the engine, and ARB's own apostrophe rule) and both sides'
exact answers; an entry that no longer differs fails, so the table stays as short as the truth.

A message the format reports as a problem is not served; `EXPECTED_PROBLEMS` lists each with what
FormatJS does with the same value: refuse it too (`new IntlMessageFormat` throws), or accept it for
a documented reason. A key written twice keeps its last value, as `JSON.parse` does, and every
served text is checked against what Python's `json` reads, and each problem's line against the file.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlance_i18n import formats
from parlance_i18n.formats import LocaleMessages, Problem, Renderable
from parlance_i18n.icu.syntax import parse
from parlance_i18n.locales import parse_locale

from tests.packs.i18n.formats.icu_reference import (
    COUNTS,
    LIMIT,
    LONE_BRACE,
    MISSING_VALUE,
    UNKNOWN_PLURAL_KEYWORD,
    argument_kinds,
    formatjs,
    value_sets,
)

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs"
PATTERNS = {"icu-json": "*/*.json", "arb": "*/*.arb"}
NO_VALUES = "{}"
_REFUSAL = re.compile(r"SyntaxError: [A-Z_]+|TypeError: A message must be provided as a String or AST\.")
"""What `new IntlMessageFormat(...)` throws for a message it refuses (as icu_render.mjs names it): a syntax
error, or a value that is not a string; an error thrown later, while formatting, is no refusal."""

ARB_APOSTROPHES = ("ARB: Flutter's gen-l10n (default `use-escaping: false`) gives apostrophes no meaning, so `''` "
                   "prints as written; FormatJS reads ICU's escape and prints one apostrophe.")


@dataclass(frozen=True)
class Difference:
    reason: str
    parlance: str
    formatjs: str  # FormatJS's text, or "error: <fragment of what it throws>"


_MISSING = 'error: The intl string context variable "{}" was not provided'


def _missing(parlance: str, argument: str) -> Difference:
    return Difference(MISSING_VALUE, parlance, _MISSING.format(argument))


EXPECTED_DIFFERENCES: dict[tuple[str, str, str], Difference] = {
    # (file relative to CATALOGS, key, values as json.dumps(sort_keys=True)) -> both sides and why
    ("arb/de/app_de.arb", "cartItems", NO_VALUES): _missing("{count} Artikel im Warenkorb", "count"),
    ("arb/de/app_de.arb", "lastSeen", NO_VALUES): _missing("Zuletzt gesehen {when}", "when"),
    ("arb/de/app_de.arb", "pronoun", NO_VALUES): _missing("Sie mag dein Foto", "gender"),
    ("arb/de/app_de.arb", "welcome", NO_VALUES): _missing("Willkommen zurück, {userName}!", "userName"),
    ("arb/en/app_en.arb", "cartItems", NO_VALUES): _missing("{count} items in your cart", "count"),
    ("arb/en/app_en.arb", "lastSeen", NO_VALUES): _missing("Last seen {when}", "when"),
    ("arb/en/app_en.arb", "pronoun", NO_VALUES): _missing("They liked your photo", "gender"),
    ("arb/en/app_en.arb", "quoted", NO_VALUES): Difference(ARB_APOSTROPHES, "She said ''hello''", "She said 'hello'"),
    ("arb/en/app_en.arb", "welcome", NO_VALUES): _missing("Welcome back, {userName}!", "userName"),
    ("arb/fr/intl_fr.arb", "itemsLeft", NO_VALUES): _missing("Il reste {count} articles", "count"),
    ("arb/fr/intl_fr.arb", "welcome", NO_VALUES): _missing("Re-bonjour, {userName} !", "userName"),
    ("arb/ru/app_ru.arb", "cartCount", NO_VALUES): _missing("В корзине {count} товара", "count"),
    ("arb/ru/app_ru.arb", "deleted", '{"fileName": "Filename"}'): Difference(
        ARB_APOSTROPHES, "Файл 'Filename' удалён", "Файл {fileName} удалён"),
    ("arb/ru/app_ru.arb", "deleted", NO_VALUES): Difference(
        ARB_APOSTROPHES, "Файл '{fileName}' удалён", "Файл {fileName} удалён"),
    ("arb/ru/app_ru.arb", "itsDone", NO_VALUES): _missing("It's done, {userName}", "userName"),
    ("arb/ru/app_ru.arb", "owner", NO_VALUES): _missing("Их профиль", "sex"),
    ("arb/ru/app_ru.arb", "photosLeft", NO_VALUES): _missing("Осталось {count} фото", "count"),
    ("arb/ru/app_ru.arb", "price", NO_VALUES): _missing("Цена: {price}", "price"),
    ("icu-json/de/compiled.json", "cart.items", NO_VALUES): _missing("{count} Artikel", "count"),
    ("icu-json/de/compiled.json", "greeting", NO_VALUES): _missing("Willkommen zurück, {name}!", "name"),
    ("icu-json/de/compiled.json", "upload.done", NO_VALUES): _missing("{count} Fotos hochgeladen", "count"),
    ("icu-json/en/messages.json", "apostrophe", NO_VALUES): _missing("It's {name}'s turn", "name"),
    ("icu-json/en/messages.json", "bold", NO_VALUES): _missing(
        "Read the <b>terms</b> before you continue, {name}", "name"),
    ("icu-json/en/messages.json", "cart.discount", NO_VALUES): _missing("You save {rate, number, percent}", "rate"),
    ("icu-json/en/messages.json", "cart.items", NO_VALUES): _missing("{count} items", "count"),
    ("icu-json/en/messages.json", "cart.total", NO_VALUES): _missing("Total: {amount, number}", "amount"),
    ("icu-json/en/messages.json", "delivery.time", NO_VALUES): _missing(
        "Your delivery arrives at {t, time, short}", "t"),
    ("icu-json/en/messages.json", "greeting", NO_VALUES): _missing("Hello again, {name}!", "name"),
    ("icu-json/en/messages.json", "invite", NO_VALUES): _missing("They invited you", "gender"),
    ("icu-json/en/messages.json", "rank", NO_VALUES): _missing("You finished {place}th", "place"),
    ("icu-json/en/messages.json", "reminder", NO_VALUES): _missing("Don't forget your {item}", "item"),
    ("icu-json/en/messages.json", "upload.done", NO_VALUES): _missing("{count} photos uploaded", "count"),
    ("icu-json/es/escapes.json", "backslash", NO_VALUES): _missing("C:\\Usuarios\\{user}", "user"),
    ("icu-json/es/escapes.json", "tab", NO_VALUES): _missing("Nombre:\t{name}", "name"),
    ("icu-json/fr/extracted.json", "upload.done", NO_VALUES): _missing("{count} photos envoyées", "count"),
    ("icu-json/fr/extracted.json", "welcome", NO_VALUES): _missing("Bon retour, {name} !", "name"),
    ("icu-json/ja/minified.json", "cart.items", NO_VALUES): _missing("{count} 個の商品", "count"),
    ("icu-json/ja/minified.json", "greeting", NO_VALUES): _missing("おかえりなさい、{name}さん", "name"),
    ("icu-json/pl/app.json", "files.size", NO_VALUES): _missing("{size, number, ::compact-short} plików", "size"),
    ("icu-json/pl/app.json", "inbox.from", NO_VALUES): _missing("Od: {sender} <{email}>", "sender"),
    ("icu-json/pl/app.json", "inbox.hash", NO_VALUES): _missing("#{count} wątków", "count"),
    ("icu-json/pl/app.json", "inbox.unread", NO_VALUES): _missing("{count} wiadomości", "count"),
    ("icu-json/pl/app.json", "order.discount", NO_VALUES): _missing("Rabat {rate, number, percent}", "rate"),
    ("icu-json/pl/app.json", "order.due", NO_VALUES): _missing("Termin: {when, date, ::yMMMd}", "when"),
    ("icu-json/pl/app.json", "order.items", NO_VALUES): _missing("{count, number, integer} szt.", "count"),
    ("icu-json/pl/app.json", "order.placed", NO_VALUES): _missing(
        "Zamówienie z {when, date, long}, godz. {when, time, short}", "when"),
    ("icu-json/pl/app.json", "order.total", NO_VALUES): _missing("Razem: {amount, number, ::currency/PLN}", "amount"),
    ("icu-json/pl/app.json", "order.weight", NO_VALUES): _missing("Waga: {kg, number, ::unit/kilogram .#}", "kg"),
    ("icu-json/pl/app.json", "party", NO_VALUES): _missing("🎉 {name} dołączył(a) — przywitaj się!", "name"),
    ("icu-json/pl/app.json", "photos.liked", NO_VALUES): _missing(
        "{name} i {count} innej osoby polubiło zdjęcie", "count"),
    ("icu-json/pl/app.json", "photos.shared", NO_VALUES): _missing("Udostępniono {count} albumów", "gender"),
    ("icu-json/pl/app.json", "rank", NO_VALUES): _missing("Zająłeś {place}. miejsce", "place"),
    ("icu-json/ru/extracted.json", "cart.summary", NO_VALUES): _missing("Товаров в корзине: {count}", "count"),
    ("icu-json/ru/extracted.json", "days.left", NO_VALUES): _missing("Осталось {days} дня пробного периода", "days"),
    ("icu-json/ru/extracted.json", "invite", NO_VALUES): _missing("{name} приглашает вас", "gender"),
    ("icu-json/ru/extracted.json", "last.login", NO_VALUES): _missing("Последний вход: {at, date, medium}", "at"),
    ("icu-json/ru/extracted.json", "upload.progress", NO_VALUES): _missing(
        "Загружено {done, number} из {total, number} ({ratio, number, ::percent})", "done"),
}

REFUSED = "FormatJS refuses it too: `new IntlMessageFormat` throws (a syntax error, or a value that is no string)."
WRITTEN_TWICE = ("The key is written twice in one object: the problem is the ignored occurrence; JSON.parse also "
                 "keeps the last one, which is served (and rendered above).")

EXPECTED_PROBLEMS: dict[tuple[str, str], str] = {
    # (file relative to CATALOGS, key) -> what FormatJS does with a message the format reports as a problem
    ("arb/en/app_en.arb", "brokenMessage"): REFUSED,
    ("arb/fr/intl_fr.arb", "welcome"): WRITTEN_TWICE,
    ("arb/ru/app_ru.arb", "noOther"): REFUSED,
    ("arb/ru/app_ru.arb", "version"): REFUSED,
    ("icu-json/en/messages.json", "broken"): REFUSED,
    ("icu-json/en/messages.json", "greeting"): WRITTEN_TWICE,
    ("icu-json/pl/app.json", "broken.draft"): REFUSED,
    ("icu-json/pl/app.json", "broken.i18next"): REFUSED,
    ("icu-json/pl/app.json", "broken.loneBrace"): LONE_BRACE,
    ("icu-json/pl/app.json", "broken.noOther"): REFUSED,
    ("icu-json/pl/app.json", "broken.number"): REFUSED,
    ("icu-json/pl/app.json", "broken.translatedKeyword"): UNKNOWN_PLURAL_KEYWORD,
    ("icu-json/pl/app.json", "broken.typo"): REFUSED,
    ("icu-json/ru/extracted.json", "broken.close"): REFUSED,
    ("icu-json/ru/extracted.json", "cart.summary"): WRITTEN_TWICE,
}
"""Every problem the formats report, with why FormatJS refuses it too, or why not."""

MINIMUM_RENDERS = 400


# --- what the files hold, read without the format ---------------------------------------------------


class _Object(list[tuple[str, Any]]):
    """A JSON object as its (name, value) pairs in file order, duplicates kept."""


def _raw_entries(name: str, data: bytes) -> list[tuple[tuple[str, ...], Any]]:
    """(path, value) of every message entry in file order, as Python's `json` reads the file: every
    occurrence of a key written twice, an extracted entry's `defaultMessage` as its value; for ARB,
    the top-level entries that are not `@` metadata."""
    root = json.loads(data.decode("utf-8-sig"), object_pairs_hook=_Object)
    assert isinstance(root, _Object)
    if name == "arb":
        return [((key,), value) for key, value in root if not key.startswith("@")]
    return list(_icu_json_entries(root, ()))


def _icu_json_entries(node: _Object, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, value in node:
        here = (*path, key)
        if isinstance(value, _Object):
            fields = dict(value)
            if isinstance(fields.get("defaultMessage"), str):
                yield here, fields["defaultMessage"]
            else:
                yield from _icu_json_entries(value, here)
        else:
            yield here, value


# --- the sweep ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CatalogFile:
    name: str  # the format
    file: str  # relative to CATALOGS
    locale: str
    messages: LocaleMessages
    raw: list[tuple[tuple[str, ...], Any]]


@dataclass(frozen=True)
class Render:
    file: str
    key: str
    values: dict[str, Any]
    parlance: str
    formatjs: dict[str, str]

    @property
    def id(self) -> tuple[str, str, str]:
        return self.file, self.key, json.dumps(self.values, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class Refusal:
    file: str
    problem: Problem
    value: Any  # the entry's value in the file (a message the format rejects, or no string at all)
    formatjs: dict[str, str]


def _catalog_paths() -> list[tuple[str, Path]]:
    return [(name, path) for name, pattern in PATTERNS.items()
            for path in sorted((CATALOGS / name).glob(pattern)) if path.parent.name != "unparseable"]


@functools.lru_cache(maxsize=1)
def _catalogs() -> tuple[CatalogFile, ...]:
    found = []
    for name, path in _catalog_paths():
        data = path.read_bytes()
        locale = path.parent.name
        found.append(CatalogFile(name, path.relative_to(CATALOGS).as_posix(), locale,
                                 formats.get(name).read(data, parse_locale(locale)), _raw_entries(name, data)))
    return tuple(found)


def _as_icu(name: str, text: str) -> str:
    """The ICU message `text` means in its format: in ARB an apostrophe is itself (Flutter's default
    `use-escaping: false`), which ICU spells `''`; so a value fills `'{fileName}'` there, not in FormatJS."""
    return text.replace("'", "''") if name == "arb" else text


def _cases_of(catalog: CatalogFile, key: str) -> tuple[Renderable, list[dict[str, Any]]]:
    """The compiled message and the values to render it with: none, then `value_sets` of the message
    as its format reads it, whose argument names must be the ones the format says the message uses."""
    renderable = catalog.messages.get(key)
    assert renderable is not None, f"{catalog.file} {key}: served when read, absent when compiled"
    text = catalog.messages.text(key)
    assert isinstance(text, str) and renderable.source == text, f"{catalog.file} {key}: source is not the file's text"
    message = _as_icu(catalog.name, text)
    names = set(argument_kinds(parse(message)))
    assert names == set(renderable.arguments), f"{catalog.file} {key}: the message uses {sorted(names)}, " \
                                               f"the format reports {sorted(renderable.arguments)}"
    sets = value_sets(message, COUNTS, name_other=True)
    return renderable, sets if not sets[0] else [{}, *sets]  # a message without arguments has one set: none


@functools.lru_cache(maxsize=1)
def _sweep() -> tuple[tuple[Render, ...], tuple[Refusal, ...]]:
    renders: list[tuple[CatalogFile, str, dict[str, Any], str]] = []
    refusals: list[tuple[CatalogFile, Problem, Any]] = []
    for catalog in _catalogs():
        for key in catalog.messages:
            renderable, sets = _cases_of(catalog, key)
            for values in sets:
                renders.append((catalog, key, values, renderable.render(values, LIMIT)))
        last = _by_key(catalog)
        for problem in catalog.messages.problems:
            if problem.key not in catalog.messages and problem.key in last:
                refusals.append((catalog, problem, last[problem.key]))
    answers = formatjs([*((c.locale, c.messages.text(k), v) for c, k, v, _ in renders),
                        *((c.locale, value, {}) for c, _, value in refusals)])
    rendered = tuple(Render(c.file, k, v, out, answer) for (c, k, v, out), answer in zip(renders, answers))
    refused = tuple(Refusal(c.file, p, value, answer)
                    for (c, p, value), answer in zip(refusals, answers[len(renders):], strict=True))
    return rendered, refused


def _by_key(catalog: CatalogFile) -> dict[str, Any]:
    """dot-joined key -> value: a key written twice in one object has its last value (as JSON.parse
    keeps), a key two paths spell (`"a.b"` and `{"a": {"b"}}`) the first path's (as the reader keeps)."""
    found: dict[str, Any] = {}
    for path, value in dict(catalog.raw).items():
        found.setdefault(".".join(path), value)
    return found


def _formatjs_text(answer: dict[str, str]) -> str:
    """FormatJS's answer in the form `Difference.formatjs` writes it."""
    if "error" in answer:
        return "error: " + answer["error"]
    return answer.get("text", answer.get("other", ""))


def _matches(expected: str, answer: dict[str, str]) -> bool:
    if expected.startswith("error: "):
        return expected[len("error: "):] in answer.get("error", "\0")
    return answer == {"text": expected}


# --- tests ---------------------------------------------------------------------------------------------


def test_every_message_renders_as_formatjs_does() -> None:
    renders, _ = _sweep()
    failures: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for case in renders:
        seen.add(case.id)
        expected = EXPECTED_DIFFERENCES.get(case.id)
        if expected is None:
            if case.formatjs != {"text": case.parlance}:
                failures.append(f"{case.file} {case.key} {case.id[2]}:\n    FormatJS {_formatjs_text(case.formatjs)!r}"
                                f"\n    Parlance {case.parlance!r}")
        elif case.formatjs == {"text": case.parlance}:
            failures.append(f"{case.id} now renders as FormatJS does: remove it from EXPECTED_DIFFERENCES")
        elif case.parlance != expected.parlance or not _matches(expected.formatjs, case.formatjs):
            failures.append(f"{case.id} differs otherwise than EXPECTED_DIFFERENCES says:\n"
                            f"    FormatJS {_formatjs_text(case.formatjs)!r}\n    Parlance {case.parlance!r}")
    failures += [f"EXPECTED_DIFFERENCES names {entry}, which the sweep never renders"
                 for entry in EXPECTED_DIFFERENCES if entry not in seen]
    assert not failures, f"{len(failures)} renders differ from FormatJS:\n" + "\n".join(failures[:40])


def test_the_sweep_covers_every_file_and_value() -> None:
    renders, _ = _sweep()
    files = {path.relative_to(CATALOGS).as_posix() for _, path in _catalog_paths()}
    assert set(PATTERNS) == {file.split("/")[0] for file in files}
    assert {case.file for case in renders} == files, "a test catalog has no message rendered"
    for catalog in _catalogs():
        assert {case.key for case in renders if case.file == catalog.file} == set(catalog.messages), catalog.file
    assert len(renders) >= MINIMUM_RENDERS, f"only {len(renders)} renders"
    counted = [case.values for case in renders if any(isinstance(value, float) for value in case.values.values())]
    assert len(counted) >= 10, "1.5 is rendered by too few plural or number arguments"
    agreeing = sum(1 for case in renders if case.formatjs == {"text": case.parlance})
    print(f"\n{agreeing} of {len(renders)} renders agree with FormatJS "
          f"({len({(c.file, c.key) for c in renders})} messages in {len(files)} files)")


def test_the_format_serves_what_json_parse_reads() -> None:
    for catalog in _catalogs():
        last = _by_key(catalog)
        problem_keys = {problem.key for problem in catalog.messages.problems}
        for key in catalog.messages:
            assert catalog.messages.text(key) == last[key], f"{catalog.file} {key}: not the value JSON.parse keeps"
        for key in last:
            assert key in catalog.messages or key in problem_keys, f"{catalog.file} {key}: neither served nor reported"
        assert problem_keys <= set(last), f"{catalog.file}: problems name keys the file does not have"
        paths = [path for path, _ in catalog.raw]
        for path in {path for path in paths if paths.count(path) > 1}:
            assert ".".join(path) in problem_keys, f"{catalog.file} {path}: written twice but not reported"


def test_formatjs_refuses_every_message_the_format_reports() -> None:
    _, refusals = _sweep()
    answers = {(refusal.file, refusal.problem.key): refusal.formatjs for refusal in refusals}
    reported: dict[tuple[str, str], str] = {}
    failures = []
    for catalog in _catalogs():
        last = _by_key(catalog)
        paths = [path for path, _ in catalog.raw]
        for problem in catalog.messages.problems:
            assert problem.key is not None, f"{catalog.file}: a problem without a key: {problem}"
            entry = (catalog.file, problem.key)
            expected = reported[entry] = EXPECTED_PROBLEMS.get(entry, "")
            parsed = "error" not in answers.get(entry, {}) or not _REFUSAL.fullmatch(answers[entry]["error"])
            if expected == WRITTEN_TWICE:
                twice = [path for path in paths if ".".join(path) == problem.key]
                ok = len(twice) > 1 and catalog.messages.text(problem.key) == last[problem.key]
            elif expected == REFUSED:
                ok = entry in answers and not parsed
            else:  # FormatJS reads it: it renders, or throws only for the missing value
                ok = entry in answers and parsed
            if not ok:
                failures.append(f"{entry}: the format reports {problem.reason!r}; expected: {expected or '(none)'}; "
                                f"FormatJS answers {answers.get(entry)}")
    assert not failures, "\n".join(failures)
    assert reported.keys() == EXPECTED_PROBLEMS.keys(), "the formats report other problems than EXPECTED_PROBLEMS lists"


def test_problems_name_the_line_of_their_entry() -> None:
    for catalog in _catalogs():
        lines = (CATALOGS / catalog.file).read_bytes().decode("utf-8-sig").splitlines()
        for problem in catalog.messages.problems:
            assert problem.line is not None and problem.key is not None, problem
            # the line of the entry's name, or of its defaultMessage (where an extracted message is wrong)
            names = {path[-1] for path, _ in catalog.raw if ".".join(path) == problem.key} | {"defaultMessage"}
            line = lines[problem.line - 1].strip()
            assert any(line.startswith(json.dumps(name, ensure_ascii=False) + ":") for name in names), \
                f"{catalog.file}:{problem.line} is not {problem.key!r}'s entry: {line!r}"
