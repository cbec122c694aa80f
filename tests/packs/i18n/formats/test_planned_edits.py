"""Edits planned on one parse give the very bytes that making them one at a time gives.

A Document of a text or XML format plans its edits on one parse and writes them together
(`formats/shared/splices`); with `PLANS_EDITS = False` it makes each edit at once and parses again,
as every Document did before: the reference. Seeded random sequences of edits (set, add, delete,
mark as translated; adds after a given key or where the format puts them; every third sequence mostly deletes, with texts that need quoting and escaping, keys beside existing ones and under
new parents) go to both, over every test catalog of each format: each edit must succeed or fail
alike, `get` must answer alike after each, and the files must come out byte for byte the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import Document, Value
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs"
PROJECTS = Path(__file__).resolve().parent.parent / "loop" / "projects"
PLANNING = ("yaml", "properties", "apple-strings", "android", "xliff", "stringsdict", "po")
SEQUENCES = 12
EDITS = 40
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
TEXTS = ("Hello", "Total: 5", "It's # not: a comment", 'say "hi"', "  leading", "trailing  ", "two\nlines",
         "%{count} items", "<b>bold</b> & more", "été ü 日本", "yes", "a\\b", "100%", "", "{0} of {1}", "- dash",
         "tab\there", "@string/x", "?attr", "line\\n", "lit \\u00e9 \\U00FC \\uABCD", "ÄÖÜ ß")


def _catalogs(name: str) -> list[tuple[str, Path]]:
    found = []
    root = CATALOGS / name
    for locale_dir in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "unparseable"):
        found += [(locale_dir.name, file) for file in sorted(locale_dir.rglob("*")) if file.is_file()]
    for file in sorted((PROJECTS / name).rglob("*")):
        if file.is_file() and not file.name.endswith(".diff"):
            parts = [part for part in file.relative_to(PROJECTS / name).parts]
            locale = "ru" if any("ru" in part for part in parts) else "en"
            found.append((locale, file))
    return found


CASES = [(name, locale, file) for name in PLANNING for locale, file in _catalogs(name)]


def _case_id(case: tuple[str, str, Path]) -> str:
    name, _, file = case
    return f"{name}:{file.parent.name}/{file.name}"


def _text(rng: random.Random) -> str:
    text = rng.choice(TEXTS)
    return text if rng.random() < 0.5 else f"{text} {rng.randrange(1000)}"


def _forms(rng: random.Random, current: Value | None) -> dict[str, str]:
    names = list(current) if isinstance(current, dict) else ["one", "other"]
    if rng.random() < 0.3:
        names.append(rng.choice(CATEGORIES))
    return {name: _text(rng) for name in dict.fromkeys(names)}


def _new_key(rng: random.Random, name: str, keys: list[str]) -> str:
    word = f"k{rng.randrange(10_000)}"
    if name == "po":
        return f"Message {word}"
    if name == "android":
        base = rng.choice(keys) if keys and rng.random() < 0.7 else "new"
        return f"{base.split('[')[0]}_{word}"
    if not keys or rng.random() < 0.2:
        return ".".join(f"n{rng.randrange(5)}" for _ in range(rng.randrange(1, 4))) + f".{word}"
    segments = rng.choice(keys).split(".")
    roll = rng.random()
    if roll < 0.5 or len(segments) == 1:
        return ".".join([*segments[:-1], word])
    if roll < 0.8:
        return ".".join([*segments[:rng.randrange(1, len(segments))], f"sub{rng.randrange(3)}", word])
    return ".".join([*segments, word])


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", call()
    except (KeyError, ValueError, TypeError, formats.CatalogFileError) as error:
        return type(error).__name__, str(error)


def _run(name: str, locale: str, data: bytes, seed: int) -> None:
    fmt = formats.get(name)
    tag = parse_locale(locale)
    planned = fmt.edit(data, tag)
    reference = fmt.edit(data, tag)
    reference.PLANS_EDITS = False  # type: ignore[misc]  # the reference: every edit made at once
    rng = random.Random(seed)
    keys = reference.keys()
    # every third sequence mostly deletes (what i18n_delete_keys asks for), the others mostly write
    to_set, to_add, to_delete = (0.15, 0.3, 0.95) if seed % 3 == 2 else (0.45, 0.85, 0.95)
    for step in range(EDITS):
        roll = rng.random()
        current_keys = keys or ["x"]
        if roll < to_set:
            key = rng.choice(current_keys)
            current = reference.get(key)
            value: Value = _forms(rng, current) if isinstance(current, dict) or (name == "stringsdict") else _text(rng)
            calls: list[Callable[[Document], Any]] = [lambda doc: doc.set(key, value),
                                                      lambda doc: doc.mark_translated(key)]
        elif roll < to_add:
            key = _new_key(rng, name, keys)
            value = _forms(rng, None) if name == "stringsdict" or rng.random() < 0.15 else _text(rng)
            if name == "po" and isinstance(value, dict):
                value = {str(index): text for index, text in enumerate(value.values())}
            # where the source has it: after an existing key, often the one added last (as keys added
            # in the source's order are), or where the format puts a new key
            anchor_roll = rng.random()
            after = None if anchor_roll < 0.3 or not keys else keys[-1] if anchor_roll < 0.6 else rng.choice(keys)
            calls = [lambda doc: doc.add(key, value, after=after), lambda doc: doc.mark_translated(key)]
            keys.append(key)
        elif roll < to_delete:
            key = rng.choice(current_keys)
            calls = [lambda doc: doc.delete(key)]
        else:
            key = rng.choice(current_keys)
            calls = [lambda doc: doc.get(key)]
        for call in calls:
            expected = _outcome(lambda: call(reference))
            got = _outcome(lambda: call(planned))
            assert got == expected, f"edit {step} on {key!r}"
            if expected[0] == "CatalogFileError":
                return  # the edit left a file no parse reads (a YAML anchor deleted): both say so
        for probe in rng.sample(current_keys, min(3, len(current_keys))) + [key]:
            assert planned.get(probe) == reference.get(probe), f"get({probe!r}) after edit {step}"
    assert planned.to_bytes() == reference.to_bytes()
    assert planned.keys() == reference.keys()
    for key in reference.keys():
        assert planned.line_of(key) == reference.line_of(key)


def _editable(case: tuple[str, str, Path]) -> tuple[str, str, bytes]:
    """(format, locale, the file's bytes) of a case; skipped when the format reads the file but does not edit it."""
    name, locale, file = case
    data = file.read_bytes()
    try:
        formats.get(name).edit(data, parse_locale(locale))
    except formats.CatalogFileError:
        pytest.skip("a file this format reads but does not edit")
    return name, locale, data


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_planned_edits_write_what_edits_made_one_at_a_time_write(case: tuple[str, str, Path]) -> None:
    name, locale, data = _editable(case)
    for seed in range(SEQUENCES):
        _run(name, locale, data, seed)


def _delete_runs(name: str, locale: str, data: bytes, seed: int) -> None:
    """Deletes of neighbouring keys, in file order and against it, with a few sets and adds between:
    each delete's lines border another planned one, the case a planned delete must read as the text
    will be once the others are made."""
    fmt = formats.get(name)
    tag = parse_locale(locale)
    planned = fmt.edit(data, tag)
    reference = fmt.edit(data, tag)
    reference.PLANS_EDITS = False  # type: ignore[misc]
    rng = random.Random(seed)
    keys = reference.keys()
    if not keys:
        return
    at = rng.randrange(len(keys))
    step_by = rng.choice((1, -1))
    for step in range(EDITS):
        roll = rng.random()
        if roll < 0.8:
            at = (at + step_by) % len(keys) if rng.random() < 0.8 else rng.randrange(len(keys))
            key = keys[at]
            calls: list[Callable[[Document], Any]] = [lambda doc: doc.delete(key)]
        elif roll < 0.9:
            key = rng.choice(keys)
            current = reference.get(key)
            value: Value = _forms(rng, current) if isinstance(current, dict) or name == "stringsdict" else _text(rng)
            calls = [lambda doc: doc.set(key, value)]
        else:
            key = _new_key(rng, name, keys)
            value = _forms(rng, None) if name == "stringsdict" else _text(rng)
            calls = [lambda doc: doc.add(key, value)]
        for call in calls:
            expected = _outcome(lambda: call(reference))
            got = _outcome(lambda: call(planned))
            assert got == expected, f"edit {step} on {key!r}"
            if expected[0] == "CatalogFileError":
                return
        for probe in [key, *rng.sample(keys, min(3, len(keys)))]:
            assert planned.get(probe) == reference.get(probe), f"get({probe!r}) after edit {step}"
    assert planned.to_bytes() == reference.to_bytes()
    assert planned.keys() == reference.keys()


COMMENTED = {  # comments heading runs of keys, owned by one key, after blank lines: what decides what a delete takes
    "yaml": b"""de:
  # the cart
  cart:
    # heads the run
    empty: Leer
    full: Voll
    # owned by total
    total: Summe

    # after a blank line
    tax: Steuer
    fee: Gebuehr
  # the account
  account:
    name: Name
    # owned by mail
    mail: Post
    phone: Telefon
""",
    "apple-strings": b"""/* heads the run */
"a" = "1";
"b" = "2";
/* owned by c */
"c" = "3";

/* after a blank line */
"d" = "4";

"e" = "5";
"f" = "6"; // trailing
"g" = "7";
""",
    "properties": b"""# heads the run
a=1
b=2
# owned by c
c=3

# after a blank line
d=4
e=5
f=6
""",
    "android": b"""<?xml version="1.0" encoding="utf-8"?>
<resources>
    <!-- heads the run -->
    <string name="a">1</string>
    <string name="b">2</string>
    <!-- owned by c -->
    <string name="c">3</string>

    <!-- after a blank line -->
    <string name="d">4</string>
    <string name="e">5</string> <!-- trailing -->
    <string name="f">6</string>
    <!-- a closing note -->
</resources>
""",
}


@pytest.mark.parametrize("name", sorted(COMMENTED))
def test_planned_deletes_beside_comments_write_what_deleting_one_at_a_time_writes(name: str) -> None:
    for seed in range(4 * SEQUENCES):
        _delete_runs(name, "de", COMMENTED[name], seed)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_planned_deletes_of_neighbouring_keys_write_what_deleting_one_at_a_time_writes(
        case: tuple[str, str, Path]) -> None:
    name, locale, data = _editable(case)
    for seed in range(SEQUENCES):
        _delete_runs(name, locale, data, seed)
