"""The xcstrings format: every language of a String Catalog in one file, Apple format strings, plurals."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.apple.xcstrings import XcstringsFormat
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import PluralUse

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "xcstrings"
FORMAT = XcstringsFormat()
CATALOG = (CATALOGS / "de" / "Localizable.xcstrings").read_bytes()
DE, EN, JA = parse_locale("de"), parse_locale("en"), parse_locale("ja")


def _diff(before: bytes, after: bytes) -> list[str]:
    """The changed lines, '-' before and '+' after, in order."""
    return [line.rstrip("\n") for line in difflib.unified_diff(before.decode().splitlines(True),
                                                                after.decode().splitlines(True), n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_detected_by_suffix_and_content() -> None:
    assert formats.detect("App/Localizable.xcstrings") is formats.get("xcstrings")
    assert formats.detect("App/strings.json", CATALOG[:4096]) is formats.get("xcstrings")
    assert FORMAT.sniff(b'{"strings": {}}') is False
    assert FORMAT.multi_locale is True
    assert FORMAT.locales(CATALOG) == [EN, DE]
    assert FORMAT.locales((CATALOGS / "pt-BR" / "InfoPlist.xcstrings").read_bytes()) == [EN, parse_locale("pt-BR")]


def test_a_language_reads_its_own_localizations() -> None:
    german = FORMAT.read(CATALOG, DE)
    assert list(german) == ["%@ ate %#@apples@ today", "Cancel", "Download %1$@ (%2$.1f MB)", "Progress: %lld%%",
                            "Sign in"]
    assert german.problems == []
    assert german.text("Cancel") == "Abbrechen"
    assert german.comment("Download %1$@ (%2$.1f MB)") == "Button title; %1$@ is a file name"
    download = german["Download %1$@ (%2$.1f MB)"]
    assert download.render({"1": "Bericht.pdf", "2": 2.25}, 100) == "Bericht.pdf laden (2.2 MB)"
    assert german["Progress: %lld%%"].render({"1": 42}, 100) == "Fortschritt: 42 %"
    assert german["Download %1$@ (%2$.1f MB)"].arguments == frozenset({"1", "2"})


def test_the_source_language_reads_a_key_without_localization_as_itself() -> None:
    english = FORMAT.read(CATALOG, EN)
    assert list(english) == ["%@ ate %#@apples@ today", "%lld photos", "Cancel", "Download %1$@ (%2$.1f MB)",
                             "Progress: %lld%%", "Sign in", "Version"]
    assert english["Cancel"].render({}, 100) == "Cancel"
    assert english["Progress: %lld%%"].render({"1": 5}, 100) == "Progress: 5%"
    assert english.comment("%lld photos") == "Number of photos in an album"


@pytest.mark.parametrize(("values", "expected"), [
    ({"count": 1}, "1 photo"),
    ({"count": 2}, "2 photos"),
    ({"count": 0}, "0 photos"),
    ({"count": 1.5}, "1.5 photos"),  # `other`; %lld of a fraction prints it as given (C would print garbage)
    ({"1": 1}, "1 photo"),
    ({}, "%lld photos"),
])
def test_plural_variations_choose_by_count(values: dict[str, object], expected: str) -> None:
    message = FORMAT.read(CATALOG, EN)["%lld photos"]
    assert message.render(values, 100) == expected
    assert message.plurals == (PluralUse("count", False, frozenset({"one", "other"})),)
    assert message.arguments == frozenset({"1"})


def test_zero_is_chosen_for_zero_when_the_variation_has_it() -> None:
    data = CATALOG.replace(b'"one" : {\n                "stringUnit" : {\n                  "state" : "translated",'
                           b'\n                  "value" : "%lld photo"',
                           b'"zero" : {\n                "stringUnit" : {\n                  "state" : "translated",'
                           b'\n                  "value" : "No photos"\n                }\n              },\n'
                           b'              "one" : {\n                "stringUnit" : {\n                  "state" : '
                           b'"translated",\n                  "value" : "%lld photo"')
    message = FORMAT.read(data, EN)["%lld photos"]
    assert [message.render({"count": n}, 100) for n in (0, 1, 3)] == ["No photos", "1 photo", "3 photos"]


def test_substitutions_render_their_own_plural_by_argument() -> None:
    german = FORMAT.read(CATALOG, DE)["%@ ate %#@apples@ today"]
    assert german.render({"1": "Ann", "2": 1}, 100) == "Ann hat heute einen Apfel gegessen"
    assert german.render({"1": "Ann", "2": 4}, 100) == "Ann hat heute 4 Äpfel gegessen"
    assert german.render({"1": "Ann", "apples": "ignored", "2": 2}, 100) == "Ann hat heute 2 Äpfel gegessen"
    assert german.render({}, 100) == "%1$@ hat heute %2$lld Äpfel gegessen"
    assert german.arguments == frozenset({"1", "2"})
    assert german.plurals == (PluralUse("2", False, frozenset({"one", "other"})),)
    english = FORMAT.read(CATALOG, EN)["%@ ate %#@apples@ today"]
    assert english.render({"1": "Bo", "2": 1}, 100) == "Bo ate an apple today"


def test_single_category_languages_and_device_variations() -> None:
    japanese = FORMAT.read((CATALOGS / "ja" / "Localizable.xcstrings").read_bytes(), JA)
    assert japanese["%lld photos"].render({"count": 1}, 100) == "写真1枚"
    assert japanese["Hello, %@!"].render({"1": "Ann"}, 100) == "こんにちは、Annさん！"
    brazil = FORMAT.read((CATALOGS / "pt-BR" / "InfoPlist.xcstrings").read_bytes(), parse_locale("pt-BR"))
    assert brazil["Tap to continue"].render({}, 100) == "Toque para continuar"
    assert brazil["Storage: %.2f GB free"].render({"1": 12.345}, 100) == "Armazenamento: 12.35 GB livres"
    assert brazil.comment("NSCameraUsageDescription") == "Privacy - Camera Usage Description"
    assert list(FORMAT.read((CATALOGS / "pt-BR" / "InfoPlist.xcstrings").read_bytes(), parse_locale("fr"))) == []


def test_an_invalid_format_string_is_a_problem_and_the_rest_load() -> None:
    data = CATALOG.replace(b'"value" : "Abbrechen"', b'"value" : "100% Abbrechen"').replace(
        b'"value" : "%arg \xc3\x84pfel"', b'"value" : "%arg \xc3\x84pfel %k"')
    german = FORMAT.read(data, DE)
    assert "Cancel" not in german and "Sign in" in german
    assert german.problems == [
        Problem("%@ ate %#@apples@ today", 7, "the 'other' form of the substitution 'apples': invalid format "
                                              "specifier '%k' at position 11: unknown conversion 'k' (use @, d, i, "
                                              "u, f, x, o, c, s, e, g or %%)"),
        Problem("Cancel", 90, "invalid format specifier '% A' at position 3: unknown conversion 'A' (use @, d, "
                              "i, u, f, x, o, c, s, e, g or %%)"),
    ]


@pytest.mark.parametrize("data", [b'{"sourceLanguage": "en", "strings": []}', b"[]", b'{"sourceLanguage": "en"'])
def test_a_file_that_is_not_a_catalog_is_refused(data: bytes) -> None:
    with pytest.raises(CatalogFileError):
        FORMAT.read(data, EN)


# --- editing ------------------------------------------------------------------------------------------


def test_setting_a_translation_marks_it_translated_in_xcode_layout() -> None:
    document = FORMAT.edit(CATALOG, DE)
    assert document.get("Cancel") == "Abbrechen"
    document.set("Cancel", "Abbrechen")
    assert document.to_bytes() is CATALOG
    document.set("Cancel", "Abbruch")
    assert _diff(CATALOG, document.to_bytes()) == [
        '-            "state" : "needs_review",', '-            "value" : "Abbrechen"',
        '+            "state" : "translated",', '+            "value" : "Abbruch"']


def test_setting_plural_forms_edits_each_category_in_place() -> None:
    document = FORMAT.edit(CATALOG, EN)
    assert document.get("%lld photos") == {"one": "%lld photo", "other": "%lld photos"}
    assert document.line_of("%lld photos") == 70  # its localization's line
    document.set("%lld photos", {"one": "One photo", "other": "%lld pictures", "zero": "No photos"})
    assert _diff(CATALOG, document.to_bytes()) == [
        '-                  "value" : "%lld photo"', '+                  "value" : "One photo"',
        '-                  "value" : "%lld photos"', '+                  "value" : "%lld pictures"',
        '+                }', '+              },', '+              "zero" : {', '+                "stringUnit" : {',
        '+                  "state" : "translated",', '+                  "value" : "No photos"']
    assert FORMAT.edit(document.to_bytes(), EN).get("%lld photos") == {
        "one": "One photo", "other": "%lld pictures", "zero": "No photos"}
    document.set("%lld photos", "%lld photo(s)")  # a plural becomes one string
    assert FORMAT.edit(document.to_bytes(), EN).get("%lld photos") == "%lld photo(s)"


def test_add_creates_the_localization_and_delete_removes_only_it() -> None:
    document = FORMAT.edit(CATALOG, DE)
    assert "%lld photos" not in document.keys() and document.get("%lld photos") is None
    document.add("%lld photos", {"one": "%lld Foto", "other": "%lld Fotos"})
    document.delete("Sign in")
    document.delete("Cancel")
    after = document.to_bytes()
    german = FORMAT.read(after, DE)
    assert german["%lld photos"].render({"count": 3}, 100) == "3 Fotos"
    assert "Sign in" not in german and "Cancel" not in german
    english = FORMAT.read(after, EN)
    assert english["Sign in"].render({}, 100) == "Sign in" and english.text("Cancel") == "Cancel"
    assert b'"Cancel" : {}' in after  # its only localization gone, the key stays for Xcode to manage
    with pytest.raises(KeyError):
        document.add("%lld photos", "again")
    with pytest.raises(KeyError):
        document.delete("Cancel")
    document.add("Brand new %@", "Ganz neu %@")
    assert after != document.to_bytes()
    assert FORMAT.edit(document.to_bytes(), DE).get("Brand new %@") == "Ganz neu %@"
    assert document.to_bytes().endswith(b'    "Brand new %@" : {\n      "localizations" : {\n        "de" : {\n'
                                        b'          "stringUnit" : {\n            "state" : "translated",\n'
                                        b'            "value" : "Ganz neu %@"\n          }\n        }\n      }\n'
                                        b'    }\n  },\n  "version" : "1.0"\n}')


def test_device_variations_are_read_but_not_edited() -> None:
    data = (CATALOGS / "pt-BR" / "InfoPlist.xcstrings").read_bytes()
    document = FORMAT.edit(data, parse_locale("pt-BR"))
    assert "Tap to continue" not in document.keys()
    with pytest.raises(KeyError):
        document.add("Tap to continue", "Toque")
    with pytest.raises(KeyError):
        document.set("Tap to continue", "Toque")
