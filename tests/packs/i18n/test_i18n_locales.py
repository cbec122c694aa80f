"""Locale parsing: accepted spellings, canonical output, and strict rejection."""

from __future__ import annotations

import pytest

from parlance_i18n.errors import InvalidLocale
from parlance_i18n.locales import LocaleTag, display_name, likely_script, parse_locale


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("en-US", "en-US"),
        ("en_us", "en-US"),
        ("es_MX", "es-MX"),
        ("zh_Hant_TW", "zh-Hant-TW"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("sr-latn", "sr-Latn"),
        ("es-419", "es-419"),
        ("de-DE-1996", "de-DE-1996"),
        ("sl-rozaj-biske", "sl-rozaj-biske"),
        ("haw", "haw"),
    ],
)
def test_accepted_codes_come_out_canonical(text: str, canonical: str) -> None:
    assert parse_locale(text).code == canonical


@pytest.mark.parametrize(
    "text",
    ["", "e", "english", "en-", "en_", "-en", "en--US", "en-US.UTF-8", "de_DE@euro", "en-US-u-ca-buddhist",
     "x-pseudo", "../etc/passwd", "en/US", "en US", "123", "zh-Hant-TW-", "en-USA1", "ü", "en-" + "a" * 40],
)
def test_malformed_codes_are_rejected_with_the_fix(text: str) -> None:
    with pytest.raises(InvalidLocale) as caught:
        parse_locale(text)
    assert caught.value.code == "INVALID_LOCALE"
    assert "BCP 47" in caught.value.message and "en-US" in caught.value.message


def test_non_strings_are_rejected() -> None:
    with pytest.raises(InvalidLocale):
        parse_locale(42)


@pytest.mark.parametrize(
    ("text", "script"),
    [("zh", "Hans"), ("zh-TW", "Hant"), ("zh-HK", "Hant"), ("zh-CN", "Hans"), ("zh-Hant", "Hant"),
     ("sr", "Cyrl"), ("sr-ME", "Latn"), ("en", "Latn"), ("ja", "Jpan"), ("xx", None)],
)
def test_scripts_are_inferred_from_cldr_likely_subtags(text: str, script: str | None) -> None:
    assert likely_script(parse_locale(text)) == script


def test_display_names_are_english() -> None:
    assert display_name(parse_locale("zh_Hant_TW")) == "Chinese (Traditional, Taiwan)"
    assert display_name(parse_locale("es-419")) == "Spanish (Latin America)"
    assert display_name(LocaleTag("xx")) is None
