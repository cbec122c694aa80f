"""The fallback order, table-driven: the seed's cases, script safety, CLDR parents, configured chains."""

from __future__ import annotations

import pytest

from parlance_i18n.model.catalog import Catalog
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.translator import Translator


def translator(bundles: list[str], default: str = "en", fallbacks: dict[str, list[str]] | None = None) -> Translator:
    """A translator whose bundle for each locale holds `key` = that locale's code."""
    configured = {k: [parse_locale(t) for t in v] for k, v in (fallbacks or {}).items()}
    configured = {(k if k == "default" else parse_locale(k).code): v for k, v in configured.items()}
    t = Translator(Catalog(parse_locale(default), configured))
    for code in bundles:
        t.add_messages(code, {"key": code})
    return t


# (bundles, requested locale, expected matching bundle or None for the raw key, expected fallback flag)
CASES = [
    # The seed: exact, language-only, default locale, raw key.
    (["en", "es", "es-MX"], "es-MX", "es-MX", False),
    (["en", "es"], "es_MX", "es", False),  # language-only is not a fallback
    (["en", "es"], "fr", "en", True),  # default locale
    (["en", "es"], None, "en", False),  # no locale: the default locale itself is no fallback
    (["es"], "fr", None, True),  # raw key
    # Scripts: never from Traditional to Simplified Chinese or back, nor Latin to Cyrillic Serbian.
    (["en", "zh", "zh-Hant"], "zh-Hant-TW", "zh-Hant", False),
    (["en", "zh", "zh-Hant"], "zh-TW", "zh-Hant", False),
    (["en", "zh", "zh-Hant"], "zh_Hant_HK", "zh-Hant", False),
    (["en", "zh"], "zh-TW", "en", True),
    (["en", "zh"], "zh-Hant", "en", True),
    (["en", "zh", "zh-Hant"], "zh-CN", "zh", False),
    (["en", "zh-Hans", "zh-Hant"], "zh-CN", "zh-Hans", False),
    (["en", "zh-Hant"], "zh", "en", True),
    (["en", "zh-TW"], "zh-Hant-TW", "zh-TW", False),
    (["en", "zh-Hant-TW"], "zh-TW", "zh-Hant-TW", False),
    (["en", "sr"], "sr-Latn-RS", "en", True),
    (["en", "sr", "sr-Latn"], "sr-ME", "sr-Latn", False),  # Montenegrin Serbian is Latin
    (["en", "sr"], "sr-RS", "sr", False),
    (["en", "sr-Cyrl"], "sr", "sr-Cyrl", False),
    # CLDR parent locales within a language; likely region for a bare language.
    (["en", "es", "es-419"], "es-MX", "es-419", False),
    (["en-001", "en-US"], "en-AU", "en-001", False),
    (["en", "pt-BR"], "pt", "pt-BR", False),
    (["en", "de-DE"], "de-DE-1996", "de-DE", False),
    (["en", "pt-PT"], "pt-AO", "pt-PT", False),
    # Sibling regions are not reached without configuration.
    (["en", "pt-PT"], "pt-BR", "en", True),
]


@pytest.mark.parametrize(("bundles", "requested", "expected", "fallback"), CASES)
def test_fallback_order(bundles: list[str], requested: str | None, expected: str | None, fallback: bool) -> None:
    found = translator(bundles).translate("key", requested)
    assert found.translation == (expected or "key")
    assert found.locale == (expected or parse_locale(requested or "en").code)
    assert found.fallback is fallback


CONFIGURED = [
    # pt-BR → pt-PT → pt, as configured; before the language-only step.
    ({"pt-BR": ["pt-PT"]}, ["en", "pt", "pt-PT"], "pt-BR", "pt-PT", False),
    ({"pt-BR": ["pt-PT"]}, ["en", "pt"], "pt-BR", "pt", False),
    # A configured step into another language is a fallback.
    ({"ca": ["es"]}, ["en", "es"], "ca-ES", "es", True),
    # `default` replaces nothing: it runs before the default locale.
    ({"default": ["fr"]}, ["en", "fr"], "de", "fr", True),
    ({"default": ["fr"]}, ["en"], "de", "en", True),
    # Configured fallbacks may cross scripts: someone chose them.
    ({"zh-Hant": ["zh-Hans"]}, ["en", "zh-Hans"], "zh-TW", "zh-Hans", False),
    # Cycles end.
    ({"pt-BR": ["pt-PT"], "pt-PT": ["pt-BR"]}, ["en"], "pt-BR", "en", True),
]


@pytest.mark.parametrize(("fallbacks", "bundles", "requested", "expected", "fallback"), CONFIGURED)
def test_configured_fallbacks(fallbacks: dict[str, list[str]], bundles: list[str], requested: str,
                              expected: str, fallback: bool) -> None:
    found = translator(bundles, fallbacks=fallbacks).translate("key", requested)
    assert (found.translation, found.locale, found.fallback) == (expected, expected, fallback)


def test_lookup_falls_back_per_key_not_per_bundle() -> None:
    t = translator(["en"])
    t.add_messages("es", {"only_es": "solo"})
    t.add_messages("es-MX", {"key": "mx"})
    assert t.translate("only_es", "es-MX") == ("solo", "es", False)
    assert t.translate("key", "es-MX") == ("mx", "es-MX", False)


def test_the_chain_is_computed_once_per_spelling() -> None:
    t = translator(["en"])
    first = t.chain("es_MX")
    assert t.chain("es_MX") is first
