"""Lint for language packs: what each file must get right for the code packs to use it.

Data-driven over every shipped pack (`language_packs/src/parlance_language_packs/<tag>/`) and the
installable example's package folder:

- `pack.toml` reads through the host (`discover_language_packs`) as `loaded`, and stays loaded
  after the compatibility check against the translation pack's asset version;
- nothing sits where no pack reads it;
- a prompt override has a base template of the same name, a header naming that template at major
  version 1, exactly the base's `{{placeholders}}`, and the base's output instructions word for
  word (from "Return" to the end): packs change the guidance, never the reply contract;
- a lexicon override has a base lexicon of the same name, parses, declares its language, and has
  the base's tables, keys and value types; every phrase list compiles with the translation pack's
  matcher;
- a message bundle parses (JSON or PO, through the i18n pack's reader), compiles, has the reference
  bundle's keys (a regional bundle may hold a subset: the i18n pack falls back per key), the same
  ICU argument names per message, and exactly the plural categories CLDR defines for its locale.

Failures name the file (and the key or line) and say what to change.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from parlance.config import config_from_dict
from parlance.language_packs import LanguagePack, LanguagePackSet, discover_language_packs, lookup_chain, normalize_tag
from parlance_i18n.model.bundles import Bundle
from parlance_i18n.model.loaders import BundleFileError, load_bundle_file
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_translation.heuristics.matching import expand, normalise, phrase_pattern
from parlance_translation.pack import PARLANCE_LANGUAGE_PACK_VERSION

from tests.language_packs.layout import (
    BASE_LEXICONS,
    BASE_PROMPTS,
    BUNDLE_SUFFIXES,
    BUNDLES,
    EXAMPLE_PACK,
    LEXICONS,
    PACK_DIRS,
    PROMPTS,
    REFERENCE_BUNDLE,
    SEARCH_PATHS,
    label,
    pack_name,
    pack_of,
)

# The template file format, as documented in parlance_translation.templates.
HEADER = re.compile(r"^<!--\s*template:\s*(?P<name>[a-z_]+)\s+v(?P<major>\d+)\.\d+\.\d+\s*-->\s*$")
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
RETURN_SECTION = re.compile(r"^Return\b", re.MULTILINE)

# Lexicon keys whose values are phrase lists (or, for `replace`, tables keyed by phrase).
PHRASE_LIST_KEYS = frozenset({"phrases", "everyone", "nobody", "remove", "opener_unless", "closer_unless",
                              "drop_sentences_starting", "imperatives_to_requests"})


@lru_cache(maxsize=1)
def discovered() -> LanguagePackSet:
    config = config_from_dict({"language_packs": {"paths": [str(p) for p in SEARCH_PATHS], "autoload": False}})
    found = discover_language_packs(config)
    found.check_compat({"translation": PARLANCE_LANGUAGE_PACK_VERSION})
    return found


def host_view(pack_dir: Path) -> LanguagePack:
    matches = [lp for lp in discovered().packs if lp.path.resolve() == pack_dir.resolve()]
    assert len(matches) == 1, f"{pack_dir}: the host did not find this pack (found {len(matches)})"
    return matches[0]


# --- pack.toml and layout ----------------------------------------------------------------------------


@pytest.mark.parametrize("pack_dir", PACK_DIRS, ids=label)
def test_manifest_loads_through_the_host(pack_dir: Path) -> None:
    lp = host_view(pack_dir)
    assert lp.state == "loaded", f"{pack_dir / 'pack.toml'}: {lp.state}: {lp.error}"
    expected_name = pack_name(pack_dir)
    assert lp.name == expected_name, f"{pack_dir / 'pack.toml'}: name = {lp.name!r}; write name = {expected_name!r}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", lp.version or ""), f"{pack_dir / 'pack.toml'}: version must be x.y.z"
    assert lp.description.strip(), f"{pack_dir / 'pack.toml'}: add a description (shown by `parlance language-packs`)"
    if (pack_dir / "prompts" / "translation").is_dir() or (pack_dir / "lexicons" / "translation").is_dir():
        assert lp.compat.get("translation") == PARLANCE_LANGUAGE_PACK_VERSION, (
            f"{pack_dir / 'pack.toml'}: overrides translation assets, so declare "
            f'[compat] translation = "{PARLANCE_LANGUAGE_PACK_VERSION}"'
        )


def test_pack_names_are_unique() -> None:
    invalid = {lp.name: lp.error for lp in discovered().packs if lp.state != "loaded"}
    assert invalid == {}


ALLOWED_FILES = [
    re.compile(r"pack\.toml|README\.md"),
    re.compile(r"prompts/translation/[a-z_]+\.md"),
    re.compile(r"lexicons/translation/[a-z_]+\.toml"),
    re.compile(r"messages/[A-Za-z0-9_\-]+\.(?:json|po)"),
    re.compile(r"glossary/[A-Za-z0-9_\-]+\.(?:toml|csv)"),
    re.compile(r"notes/[A-Za-z0-9_\-]+\.toml"),
    re.compile(r"prompts/i18n/[a-z_]+\.md"),
]


@pytest.mark.parametrize("pack_dir", PACK_DIRS, ids=label)
def test_every_file_is_one_a_pack_reads(pack_dir: Path) -> None:
    readme = pack_dir.parents[1] / "README.md" if pack_dir == EXAMPLE_PACK else pack_dir / "README.md"
    assert readme.is_file(), f"{readme}: missing; say what the pack changes and why"
    allowed = list(ALLOWED_FILES)
    if pack_dir == EXAMPLE_PACK:
        allowed.append(re.compile(r"__init__\.py"))  # the importable package the entry point names
    stray = [
        relative for path in sorted(pack_dir.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
        and not any(p.fullmatch(relative := path.relative_to(pack_dir).as_posix()) for p in allowed)
    ]
    assert stray == [], (f"{pack_dir}: no pack reads {stray}; language packs hold pack.toml, README.md, "
                         "prompts/translation/*.md, lexicons/translation/*.toml and messages/<locale>.json|.po")


# --- prompt overrides ----------------------------------------------------------------------------------


def _split_template(path: Path) -> tuple[str, str]:
    header, _, body = path.read_text(encoding="utf-8").partition("\n")
    return header, body


def _return_section(body: str) -> str | None:
    match = RETURN_SECTION.search(body)
    return body[match.start():] if match else None


@pytest.mark.parametrize("path", PROMPTS, ids=label)
def test_prompt_override_matches_its_base(path: Path) -> None:
    base = BASE_PROMPTS / path.name
    bases = sorted(p.name for p in BASE_PROMPTS.glob("*.md"))
    assert base.is_file(), f"{path}: no base template named {path.name}; an override uses a base file name: {bases}"
    header, body = _split_template(path)
    base_header, base_body = _split_template(base)

    match, base_match = HEADER.match(header), HEADER.match(base_header)
    assert base_match is not None
    assert match is not None, (f"{path}:1: the first line must be '<!-- template: {path.stem} v1.x.y -->', "
                               f"not {header!r}")
    assert match["name"] == path.stem, f"{path}:1: the header names {match['name']!r}; it must name {path.stem!r}"
    assert match["major"] == base_match["major"] == PARLANCE_LANGUAGE_PACK_VERSION, (
        f"{path}:1: written for v{match['major']}, the base is v{base_match['major']}; keep major version "
        f"{PARLANCE_LANGUAGE_PACK_VERSION} (change only minor/patch)"
    )

    names, base_names = set(PLACEHOLDER.findall(body)), set(PLACEHOLDER.findall(base_body))
    assert names == base_names, (
        f"{path}: placeholders differ from the base {path.name}: missing {sorted(base_names - names)}, "
        f"unexpected {sorted(names - base_names)}; use exactly {sorted(base_names)}"
    )
    malformed = body.count("{{") - len(PLACEHOLDER.findall(body))
    assert malformed == 0, f"{path}: {malformed} '{{{{' that are not '{{{{name}}}}' placeholders (lower case names)"

    ours, theirs = _return_section(body), _return_section(base_body)
    assert theirs is not None
    assert ours == theirs, (
        f"{path}: the output instructions (from the line starting 'Return' to the end) must be the base "
        f"{path.name}'s, word for word: the reply is validated against the same contract. Put cultural "
        "guidance above them."
    )


# --- lexicon overrides ---------------------------------------------------------------------------------


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "table"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "array of tables"
    return "array"


def _shape(data: dict[str, Any], path: str = "") -> dict[str, dict[str, str]]:
    """{table path: {key: value kind}} for every table outside arrays; array-of-tables elements are
    checked separately (their inline `replace` tables hold phrases, not keys)."""
    shape = {path or "(top level)": {key: _kind(value) for key, value in data.items()}}
    for key, value in data.items():
        if isinstance(value, dict):
            shape.update(_shape(value, f"{path}.{key}" if path else key))
    return shape


def _arrays_of_tables(data: dict[str, Any], path: str = "") -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for key, value in data.items():
        where = f"{path}.{key}" if path else key
        if isinstance(value, dict):
            found.update(_arrays_of_tables(value, where))
        elif _kind(value) == "array of tables":
            found[where] = value
    return found


def _phrase_lists(data: dict[str, Any], path: str = "") -> list[tuple[str, list[Any]]]:
    """(where, phrases) for every phrase list, including the phrase keys of `replace` tables."""
    lists: list[tuple[str, list[Any]]] = []
    for key, value in data.items():
        where = f"{path}.{key}" if path else key
        if key in PHRASE_LIST_KEYS and isinstance(value, list):
            lists.append((where, value))
        elif key == "replace" and isinstance(value, dict):
            lists.append((where, list(value)))
        elif isinstance(value, dict):
            lists.extend(_phrase_lists(value, where))
        elif _kind(value) == "array of tables":
            for index, item in enumerate(value):
                lists.extend(_phrase_lists(item, f"{where}[{index}]"))
    return lists


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        pytest.fail(f"{path}: not valid TOML: {exc}")


@pytest.mark.parametrize("path", LEXICONS, ids=label)
def test_lexicon_override_matches_its_base(path: Path) -> None:
    base = BASE_LEXICONS / path.name
    bases = sorted(p.name for p in BASE_LEXICONS.glob("*.toml"))
    assert base.is_file(), f"{path}: no base lexicon named {path.name}; an override uses a base file name: {bases}"
    data, base_data = _load_toml(path), _load_toml(base)

    languages = host_view(pack_of(path)).languages
    declared = normalize_tag(str(data.get("meta", {}).get("language", "")))
    assert declared in languages, (f"{path}: [meta] language = {declared!r}; "
                                   f"write one of the pack's languages {languages}")

    shape, base_shape = _shape(data), _shape(base_data)
    problems = [f"[{table}] is missing (the base has it)" for table in base_shape if table not in shape]
    problems += [f"[{table}] is not in the base lexicon" for table in shape if table not in base_shape]
    for table in sorted(set(shape) & set(base_shape)):
        ours, theirs = shape[table], base_shape[table]
        problems += [f"[{table}] {key} is missing" for key in sorted(theirs.keys() - ours.keys())]
        problems += [f"[{table}] {key} is not a key of the base" for key in sorted(ours.keys() - theirs.keys())]
        problems += [f"[{table}] {key} is {ours[key]}, the base has {theirs[key]}"
                     for key in sorted(ours.keys() & theirs.keys()) if ours[key] != theirs[key]]
    base_arrays = _arrays_of_tables(base_data)
    for where, items in _arrays_of_tables(data).items():
        allowed = set().union(*(set(item) for item in base_arrays.get(where, [])))
        required = set.intersection(*(set(item) for item in base_arrays[where])) if where in base_arrays else set()
        for index, item in enumerate(items):
            if required - item.keys() or item.keys() - allowed:
                problems.append(f"[[{where}]] #{index + 1} has keys {sorted(item)}; it needs {sorted(required)} "
                                f"and may use {sorted(allowed)}")
    assert problems == [], f"{path}: the tables and keys must match the base {path.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", LEXICONS, ids=label)
def test_lexicon_phrases_compile(path: Path) -> None:
    problems = []
    for where, phrases in _phrase_lists(_load_toml(path)):
        bad = [p for p in phrases if not isinstance(p, str) or not p.strip()]
        if bad:
            problems.append(f"{where}: {bad!r} are not phrases (non-empty strings)")
            continue
        variants = [normalise(v) for phrase in phrases for v in expand(phrase) if v.strip()]
        repeated = sorted({v for v in variants if variants.count(v) > 1})
        if repeated and not where.endswith(".replace"):
            problems.append(f"{where}: {repeated} listed more than once")
        try:
            re.compile(phrase_pattern(phrases))
        except re.error as exc:
            problems.append(f"{where}: does not compile with the translation pack's matcher: {exc}")
    base = _load_toml(BASE_LEXICONS / path.name) if (BASE_LEXICONS / path.name).is_file() else {}
    base_nonempty = {where for where, phrases in _phrase_lists(base) if where.endswith("phrases") and phrases}
    problems += [f"{where}: is empty, but the heuristics need phrases here"
                 for where, phrases in _phrase_lists(_load_toml(path)) if where in base_nonempty and not phrases]
    assert problems == [], f"{path}:\n  " + "\n  ".join(problems)


# --- message bundles -----------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def compiled(path: Path) -> Bundle:
    try:
        return load_bundle_file(path)  # as the i18n pack reads it
    except BundleFileError as exc:
        pytest.fail(exc.message)


def _may_be_partial(bundle: Bundle) -> bool:
    """A regional bundle (en-IE) may hold only the keys that differ, when a bundle for a shorter tag
    on its lookup chain (en) exists: the i18n pack falls back to it per key."""
    shorter = lookup_chain(bundle.code)[1:]
    return any(compiled(other).code in shorter for other in BUNDLES)


@pytest.mark.parametrize("path", BUNDLES, ids=label)
def test_bundle_matches_the_reference(path: Path) -> None:
    bundle, reference = compiled(path), compiled(REFERENCE_BUNDLE)
    languages = host_view(pack_of(path)).languages
    assert bundle.code in languages, f"{path}: the file name says {bundle.code!r}; the pack's languages are {languages}"

    extra = sorted(bundle.messages.keys() - reference.messages.keys())
    problems = [f"key {key!r}: not in {REFERENCE_BUNDLE.name}" for key in extra]
    if not _may_be_partial(bundle):
        problems += [f"key {key!r}: missing (it is in {REFERENCE_BUNDLE.name})"
                     for key in sorted(reference.messages.keys() - bundle.messages.keys())]
    for key in sorted(bundle.messages.keys() & reference.messages.keys()):
        ours, theirs = bundle.messages[key].arguments, reference.messages[key].arguments
        if ours != theirs:
            problems.append(f"key {key!r}: arguments {sorted(ours)}, but {REFERENCE_BUNDLE.name} uses {sorted(theirs)}"
                            f" (missing {sorted(theirs - ours)}, unexpected {sorted(ours - theirs)})")
    assert problems == [], f"{path}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", BUNDLES, ids=label)
def test_bundle_plurals_have_the_cldr_categories(path: Path) -> None:
    bundle = compiled(path)
    rules = plural_rules(bundle.tag)
    problems = []
    for key in sorted(bundle.messages):
        for use in bundle.messages[key].plurals:
            kind = "selectordinal" if use.ordinal else "plural"
            needed = rules.ordinal_categories if use.ordinal else rules.cardinal_categories
            missing = [c for c in CATEGORIES if c in needed and c not in use.keywords]
            unused = [c for c in CATEGORIES if c in use.keywords and c not in needed]
            if missing:
                problems.append(f"key {key!r}: {{{use.argument}, {kind}}} needs branches {missing} for {bundle.code}")
            if unused:
                problems.append(f"key {key!r}: {{{use.argument}, {kind}}} has branches {unused} that CLDR never "
                                f"selects for {bundle.code} (it uses {sorted(needed)}); remove them")
    assert problems == [], f"{path}:\n  " + "\n  ".join(problems)


def test_reference_bundle_exercises_icu() -> None:
    """The reference must keep covering what translators meet: arguments, plurals, select, selectordinal."""
    bundle = compiled(REFERENCE_BUNDLE)
    sources = [m.source for m in bundle.messages.values()]
    assert 15 <= len(sources) <= 40
    assert sum(", plural," in s for s in sources) >= 3
    assert any(", select," in s for s in sources)
    assert any(", selectordinal," in s for s in sources)
    assert all(path.suffix in BUNDLE_SUFFIXES for path in BUNDLES)
