"""The syntaxes frameworks write inside XLIFF units and `.properties` messages, table by table:
Symfony's plural rules and `|` parts as its translator reads them, how a file's syntax is told, the
catalog setting's validation, and the apostrophes MessageFormat swallows."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from parlance_i18n import formats
from parlance_i18n.formats.properties.java_messageformat import quotes_without_braces
from parlance_i18n.formats.xliff.symfony import form_count, plural_refusals, select
from parlance_i18n.formats.xliff.syntaxes import detect, resolve
from parlance_i18n.locales import parse_locale
from parlance_i18n.settings import CatalogSource


@pytest.mark.parametrize(("locale", "counts", "forms"), [
    ("en", {0: "b", 1: "a", 2: "b", 1.5: "b"}, 2),
    ("fr", {0: "a", 1: "a", 1.5: "a", 2: "b"}, 2),        # 0 and 1 take the first form
    ("pt", {0: "b", 1: "a"}, 2),
    ("pt-BR", {0: "a", 1: "a", 2: "b"}, 2),                 # Symfony keeps pt_BR's own rule
    ("ru", {1: "a", 21: "a", 11: "c", 2: "b", 24: "b", 12: "c", 5: "c", 0: "c"}, 3),
    ("ru-RU", {1: "a", 3: "b", 7: "c"}, 3),                 # the region is dropped
    ("pl", {1: "a", 22: "b", 12: "c", 21: "c"}, 3),
    ("cs", {1: "a", 3: "b", 5: "c"}, 3),
    ("ar", {0: "a", 1: "b", 2: "c", 5: "d", 11: "e", 100: "f"}, 6),
    ("ja", {0: "a", 1: "a", 7: "a"}, 1),                    # any other language: one form
])
def test_symfony_chooses_forms_by_its_own_rules(locale: str, counts: dict[float, str], forms: int) -> None:
    tag = parse_locale(locale)
    message = "|".join("abcdef"[:form_count(tag)])
    assert form_count(tag) == forms
    for count, expected in counts.items():
        assert select(message, count, tag) == expected, (locale, count)


def test_intervals_win_over_forms_and_labels_are_dropped() -> None:
    ru = parse_locale("ru")
    message = "{0} none|[2,4] a few: %count%|]10,Inf[ lots|one: %count% яблоко|few: %count% яблока|many: %count% яблок"
    assert [select(message, n, ru) for n in (0, 1, 3, 5, 11)] == [
        "none", "%count% яблоко", "a few: %count%", "%count% яблок", "lots"]
    assert select("a||b|c", 5, parse_locale("en")) == "c"        # || is a literal pipe
    assert select("a||b|c", 1, parse_locale("en")) == "a|b"
    assert select("only one", 5, ru) == "only one"                # one part: shown for every count
    assert select("one|many", 5, ru) is None                      # Symfony throws


@pytest.mark.parametrize(("locale", "message", "fragment"), [
    ("ru", "%count% файл|%count% файлов", "has no form Symfony can show for a count of 0"),
    ("fr", "{0 aucun|{1} un|]1,Inf[ %count%", "part 1 of the plural starts like an interval"),
    ("fr", "un|deux|trois", "has 3 plural forms where Symfony's rules for fr choose among 2"),
    ("ja", "%count% 個|%count% 個", "the form after form 1 is never shown"),
])
def test_symfony_plurals_it_would_throw_on_or_never_show(locale: str, message: str, fragment: str) -> None:
    assert any(fragment in reason for reason in plural_refusals(message, parse_locale(locale)))


@pytest.mark.parametrize(("locale", "message"), [
    ("ru", "%count% файл|%count% файла|%count% файлов"),
    ("ru", "{0} нет|[1,Inf[ %count%"),
    ("fr", "{0} aucune|{1} une|]1,Inf[ %count% pommes"),
    ("ja", "%count% 個"),
])
def test_symfony_plurals_that_serve_every_count_pass(locale: str, message: str) -> None:
    assert plural_refusals(message, parse_locale(locale)) == []


def _xliff(head: str) -> bytes:
    return f'<?xml version="1.0"?>\n<xliff version="1.2">\n  <file {head}>\n'.encode()


@pytest.mark.parametrize(("name", "head", "expected"), [
    ("messages+intl-icu.fr.xlf", b"", "symfony-icu"),
    ("messages.fr.xlf", _xliff('original="file.ext"><header><tool tool-id="symfony" tool-name="Symfony"/>'), "symfony"),
    ("messages.fr.xlf", _xliff('original="ng2.template"'), "angular"),
    ("messages.fr.xlf", _xliff('original="x"><body><trans-unit id="a"><source>Hi <x id="INTERPOLATION"/>'), "angular"),
    ("messages.fr.xlf", _xliff('original="x"><body><trans-unit id="a" datatype="html"><context-group '
                               'purpose="location">'), "angular"),
    ("messages.fr.xlf", _xliff('original="Localizable.strings" datatype="plaintext"'), None),
    ("messages.fr.xlf", _xliff('original="x"><body><trans-unit id="a"><source>50% of %d%</source>'), None),
])
def test_a_files_syntax_is_told_only_where_it_shows(name: str, head: bytes, expected: str | None) -> None:
    assert detect(name, lambda: head) == expected


def test_the_setting_wins_and_plain_turns_detection_off() -> None:
    symfony_head = _xliff('original="f"><header><tool tool-id="symfony"/>')
    assert resolve("plain", "messages+intl-icu.fr.xlf", lambda: symfony_head) is None
    assert resolve("angular", "messages.fr.xlf", lambda: symfony_head) == "angular"
    assert resolve("symfony", "messages+intl-icu.fr.xlf", lambda: b"") == "symfony-icu"  # as Symfony reads it
    assert resolve(None, "messages.fr.xlf", lambda: b"<xliff>") is None


def test_the_catalog_setting_is_validated_against_the_format() -> None:
    assert CatalogSource(path=Path("t/{locale}.xlf"), format="xlf", syntax="symfony").syntax == "symfony"
    assert CatalogSource(path=Path("t/{locale}.xlf"), syntax="angular").syntax == "angular"  # format detected later
    with pytest.raises(ValidationError, match="unknown syntax 'twig'; choose one of: symfony, symfony-icu"):
        CatalogSource(path=Path("t/{locale}.xlf"), syntax="twig")
    with pytest.raises(ValidationError, match="syntax 'symfony' is not one the properties format knows; "
                                              "choose one of: always-messageformat"):
        CatalogSource(path=Path("t/m_{locale}.properties"), format="properties", syntax="symfony")
    with pytest.raises(ValidationError, match="the po format knows; it has none: remove `syntax`"):
        CatalogSource(path=Path("t/{locale}.po"), format="po", syntax="symfony")
    with pytest.raises(ValueError, match="is not one the xliff format knows"):
        formats.get("xliff").for_file("a.xlf", "always-messageformat", lambda: b"")
    assert formats.get("po").for_file("a.po", None, lambda: b"") is formats.get("po")


def test_bound_formats_are_one_instance_per_syntax() -> None:
    xliff = formats.get("xliff")
    first = xliff.for_file("messages.fr.xlf", "symfony", lambda: b"")
    assert first is xliff.for_file("validators.de.xlf", "symfony", lambda: b"") and first is not xliff
    assert xliff.for_file("messages.fr.xlf", "plain", lambda: b"") is xliff
    assert first.name == "xliff" and first.placeholder_pattern is not None
    assert first.placeholder_pattern.findall("Hi %name%, {{ limit }} <x id=\"1\"/> 50% {name}") == [
        "%name%", "{{ limit }}", '<x id="1"/>']


@pytest.mark.parametrize(("text", "lost"), [
    ("Don''t", 0),
    ("Don't", 1),
    ("Don't stop, it's late", 2),            # one quoted span: both apostrophes swallowed
    ("'{0}' is literal", 0),                 # a quote around braces is meant
    ("It''s {0}", 0),
    ("It's {0}", 1),                          # quoted to the end: the brace is quoted too, yet the ' is lost
    ("{0,choice,0#none|1#'one'}", 0),        # inside an element, not at the top level
])
def test_apostrophes_messageformat_swallows(text: str, lost: int) -> None:
    assert quotes_without_braces(text) == lost
