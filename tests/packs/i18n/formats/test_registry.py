"""formats/registry.py, one line per format and the one place names, aliases and suffixes are written,
and the lookups that use it (`formats.get`, `formats.detect`)."""

from __future__ import annotations

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFormat


@pytest.mark.parametrize("line", formats.REGISTRY, ids=lambda line: line.name)
def test_each_line_gives_its_format_its_name_and_suffixes(line: formats.Registered) -> None:
    fmt = formats.get(line.name)
    assert (fmt.name, fmt.suffixes) == (line.name, line.suffixes)
    assert (type(fmt).name, type(fmt).suffixes) == (line.name, line.suffixes)
    # the class writes neither itself: the registry's line is the one source
    assert not {"name", "suffixes"} & set(vars(type(fmt)))
    for alias in line.aliases:
        assert formats.get(alias) is fmt and formats.canonical_name(alias) == line.name


def test_names_and_aliases_are_unique() -> None:
    names = [line.name for line in formats.REGISTRY]
    aliases = [alias for line in formats.REGISTRY for alias in line.aliases]
    assert len(set(names)) == len(names) and len(set(aliases)) == len(aliases) and not set(names) & set(aliases)
    assert formats.FORMAT_NAMES == tuple(names)


def test_unknown_names_are_refused_with_the_choices() -> None:
    with pytest.raises(KeyError, match="unknown catalog format 'csv'; choose one of: icu-json, i18next"):
        formats.get("csv")


def test_a_class_without_a_line_is_told_so() -> None:
    class Stray(CatalogFormat):
        def read(self, data, tag):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def edit(self, data, tag):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    with pytest.raises(TypeError, match="Stray has no line in the format registry"):
        Stray().name  # noqa: B018


@pytest.mark.parametrize(("path", "head", "name"), [
    ("a.po", b"", "po"), ("a.POT", b"", "po"), ("res/values/strings.xml", b"", "android"), ("a.arb", b"", "arb"),
    ("a.xlf", b"", "xliff"), ("a.yml", b"", "yaml"), ("a.strings", b"", "apple-strings"),
    ("a.json", b"", "icu-json"), ("a.json", b'{"a_one": "x"}', "i18next"), ("a.json", b'{"@@locale": "en"}', "arb"),
    ("a.json", b'{"sourceLanguage": "en", "strings": {"a_one": {}}}', "xcstrings"),
])
def test_detection_by_suffix_and_for_shared_suffixes_by_content(path: str, head: bytes, name: str) -> None:
    found = formats.detect(path, head)
    assert found is not None and found.name == name


def test_a_suffix_no_format_claims() -> None:
    assert formats.detect("notes.txt") is None
