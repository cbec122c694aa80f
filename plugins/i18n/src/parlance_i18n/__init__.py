"""Parlance's i18n pack: message catalogs with BCP 47 fallback, ICU MessageFormat and CLDR plurals.

The MCP tools live in `parlance_i18n.pack` (the entry point). This module is the Python API for
code that works with catalogs directly (tests, benchmarks, the host side of language packs):

    catalog = Catalog(parse_locale("en"))
    catalog.load_bundle_dir("locales")            # <locale>.json / <locale>.po
    translator = Translator(catalog)              # one per session
    translator.translate("cart.items", "pt_BR", {"count": 3})

Everything in `__all__` is public and frozen by `tests/packs/i18n/test_i18n_public_api.py`.
"""

from parlance_i18n.catalog import Catalog, LoadReport
from parlance_i18n.errors import I18nError, InvalidLocale, InvalidMessages, NoBundlesLoaded
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.settings import I18nSettings
from parlance_i18n.translator import Translation, Translator

__all__ = [
    "Catalog",
    "I18nError",
    "I18nSettings",
    "InvalidLocale",
    "InvalidMessages",
    "LoadReport",
    "LocaleTag",
    "NoBundlesLoaded",
    "Translation",
    "Translator",
    "parse_locale",
]
