"""The i18n section of `parlance demo`: bundles with ICU plurals, locale fallback, and the checks."""

from __future__ import annotations

from parlance import DemoStep

TITLE = "i18n: message catalogs with locale fallback and CLDR plurals"

ENGLISH = {
    "greeting": "Hello, {name}!",
    "cart": {
        "items": "{count, plural, one {# item} other {# items}} in your cart",
        "ready": "Your order is ready for pickup, {name}.",
    },
    "invite": "{host} invited {guest_count, plural, =0 {nobody} one {one guest} other {# guests}}.",
}
SPANISH = {
    "greeting": "¡Hola, {name}!",
    "cart": {"items": "{count, plural, one {# artículo} other {# artículos}} en tu carrito"},
}
RUSSIAN = {
    "cart": {"items": "{count, plural, one {# товар} few {# товара} many {# товаров} other {# товара}} в корзине"},
}

STEPS = [
    DemoStep("Load an English bundle (nested keys are flattened with dots)", "i18n_add_messages",
             {"locale": "en", "messages": ENGLISH}),
    DemoStep("Load a Spanish bundle", "i18n_add_messages",
             {"locale": "es", "messages": SPANISH}),
    DemoStep("Load Russian, whose plurals have four categories", "i18n_add_messages",
             {"locale": "ru", "messages": RUSSIAN}),
    DemoStep("es_MX falls back to es (a language match, not a fallback)", "i18n_translate",
             {"key": "greeting", "locale": "es_MX", "variables": {"name": "Ana"}}),
    DemoStep("A key Spanish lacks falls back to the default locale", "i18n_translate",
             {"key": "cart.ready", "locale": "es-MX", "variables": {"name": "Ana"}}),
    DemoStep("Russian plural: 3 takes the 'few' form", "i18n_translate",
             {"key": "cart.items", "locale": "ru", "variables": {"count": 3}}),
    DemoStep("Russian plural: 25 takes the 'many' form", "i18n_translate",
             {"key": "cart.items", "locale": "ru", "variables": {"count": 25}}),
    DemoStep("Exact match =0 beats the plural category", "i18n_translate",
             {"key": "invite", "locale": "en", "variables": {"host": "Mei", "guest_count": 0}}),
    DemoStep("A missing variable leaves its {token} in place", "i18n_translate",
             {"key": "greeting", "locale": "en"}),
    DemoStep("An unknown key comes back as the raw key", "i18n_translate", {"key": "no.such.key", "locale": "es"}),
    DemoStep("Which locales are loaded", "i18n_list_locales"),
    DemoStep("Check every locale against English: coverage, missing keys, plural forms", "i18n_check"),
    DemoStep("A template with a syntax error is refused, naming key and position", "i18n_add_messages",
             {"locale": "de", "messages": {"broken": "{count, plural, one {# Artikel}"}}, expect_error=True),
    DemoStep("A locale that is not BCP 47 is refused", "i18n_add_messages",
             {"locale": "../../etc", "messages": {"x": "y"}}, expect_error=True),
]
