"""Parlance's i18n pack: message catalogs with BCP 47 fallback, ICU MessageFormat and CLDR plurals.

The MCP tools live in `parlance_i18n.pack` (the entry point). This module is the Python API for
code that works with catalogs directly (tests, benchmarks, the host side of language packs):

    catalog = Catalog(parse_locale("en"))
    catalog.load_bundle_dir("locales")            # <locale>.json / <locale>.po
    translator = Translator(catalog)              # one per session
    translator.translate("cart.items", "pt_BR", {"count": 3})

Everything in `__all__` is public and frozen by `tests/packs/i18n/test_i18n_public_api.py`.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlance_i18n.errors import I18nError, InvalidLocale, InvalidMessages, NoBundlesLoaded, SessionBudgetExceeded
    from parlance_i18n.locales import LocaleTag, parse_locale
    from parlance_i18n.model.catalog import Catalog, LoadReport
    from parlance_i18n.model.translator import Translation, Translator
    from parlance_i18n.settings import I18nSettings

# Resolved on first access (PEP 562): importing the pack's entry point to register its tools must not
# load the catalog engine and CLDR data, which `parlance serve` would otherwise pay before answering.
_HOME = {
    "Catalog": "model.catalog", "LoadReport": "model.catalog", "I18nError": "errors", "InvalidLocale": "errors",
    "InvalidMessages": "errors", "NoBundlesLoaded": "errors", "SessionBudgetExceeded": "errors",
    "LocaleTag": "locales", "parse_locale": "locales",
    "I18nSettings": "settings", "Translation": "model.translator", "Translator": "model.translator",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'parlance_i18n' has no attribute {name!r}")
    return getattr(import_module(f"parlance_i18n.{_HOME[name]}"), name)


__all__ = [
    "Catalog",
    "I18nError",
    "I18nSettings",
    "InvalidLocale",
    "InvalidMessages",
    "LoadReport",
    "LocaleTag",
    "NoBundlesLoaded",
    "SessionBudgetExceeded",
    "Translation",
    "Translator",
    "parse_locale",
]
