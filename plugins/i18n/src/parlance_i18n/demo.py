"""The i18n sections of `parlance demo`: the localization loop on a sample project in a temporary folder
(status, what is missing, a good write and a refused one, the diff), then bundles with ICU plurals,
locale fallback, and the checks."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from parlance import DemoStep

LOOP_TITLE = "i18n: the localization loop on a sample project (ICU JSON catalogs in a temporary folder)"
TITLE = "i18n: message catalogs with locale fallback and CLDR plurals"

PROJECT_ENGLISH = {
    "checkout.title": "Your cart",
    "checkout.items": "{count, plural, one {# item} other {# items}}",
    "checkout.pay": "Pay {amount} now",
    "checkout.thanks": "Thank you, {name}! Your order is on its way.",
}
PROJECT_FRENCH = {"checkout.title": "Votre panier"}
GOOD_FRENCH = {
    "checkout.items": "{count, plural, one {# article} many {# d’articles} other {# articles}}",
    "checkout.pay": "Payer {amount} maintenant",
}
DROPPED_PLACEHOLDER = {"checkout.thanks": "Merci ! Votre commande est en route."}


@contextlib.contextmanager
def sample_project() -> Iterator[dict[str, Any]]:
    """A two-locale project (`locales/en.json`, `locales/fr.json`) in a temporary folder, removed when
    the demo ends; yields the `[packs.i18n]` settings that serve it, writes allowed."""
    with tempfile.TemporaryDirectory(prefix="parlance-demo-project-") as folder:
        root = Path(os.path.realpath(folder))
        locales = root / "locales"
        locales.mkdir()
        for locale, messages in (("en", PROJECT_ENGLISH), ("fr", PROJECT_FRENCH)):
            text = json.dumps(messages, indent=2, ensure_ascii=False) + "\n"
            (locales / f"{locale}.json").write_text(text, encoding="utf-8")
        yield {"project_root": str(root), "source_locale": "en", "write": True,
               "lock_file": str(root / "parlance-i18n.lock"),
               "catalogs": [{"name": "app", "path": str(locales / "{locale}.json")}]}


LOOP_STEPS = [
    DemoStep("Where the project stands: French has 1 of 4 messages", "i18n_status", {"locale": "fr"}),
    DemoStep("What to translate next: each missing message with its placeholders and the plural forms French "
             "needs", "i18n_missing", {"locale": "fr", "limit": 10}),
    DemoStep("Write two translations: each is validated, then written, and the answer is the diff",
             "i18n_set_messages", {"locale": "fr", "messages": GOOD_FRENCH}, show_result="diff"),
    DemoStep("A translation that drops the {name} placeholder is refused with the reason; nothing is written",
             "i18n_set_messages", {"locale": "fr", "messages": DROPPED_PLACEHOLDER}, show_result="results.0.reasons"),
    DemoStep("The new French message renders", "i18n_translate",
             {"key": "checkout.items", "locale": "fr", "variables": {"count": 3}}),
    DemoStep("Where the project stands now: 3 of 4, the refused one still missing", "i18n_status",
             {"locale": "fr", "details": True}),
]

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
