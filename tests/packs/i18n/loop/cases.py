"""The test projects of the localization loop and what is written into them, per format: shared by
`test_writes` (the domain) and `test_loop_stdio` (the same writes through an MCP client).

Each `projects/<format>/` holds an English source and a Russian target (some a Welsh one too);
`expected-ru.diff` is the diff writing `good` (with `unchanged_values` and `bad` in the same call)
gives, reviewed by hand: only the good messages' lines change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECTS = Path(__file__).parent / "projects"
UNKNOWN = "the source locale en has no message 'nope': check the key, or pass allow_new_keys to add it"
FEW = "lacks the plural category few that ru needs"


@dataclass
class Case:
    format: str
    pattern: str
    good: dict[str, Any]
    """Translations that are written."""
    unchanged_values: dict[str, Any]
    """Translations equal to what the target has: reported unchanged."""
    bad: dict[str, tuple[Any, list[str]]]
    """Translations refused, with the exact reasons."""
    variables: dict[str, Any] = field(default_factory=dict)
    rendered: dict[str, str] = field(default_factory=dict)
    """Good keys as they render with `variables` once written."""
    already_present: list[str] = field(default_factory=list)
    """Good keys the target file already has a text for, served or not (fuzzy): `i18n_missing` does not
    list them."""
    rename: tuple[str, str] | None = None
    delete: list[str] = field(default_factory=list)

    @property
    def unchanged(self) -> list[str]:
        return list(self.unchanged_values)

    def __str__(self) -> str:
        return self.format


CASES = [
    Case("icu-json", "lang/{locale}.json",
         good={"cart.greeting": "Привет, {name}!",
               "cart.items": "{count, plural, one {# товар} few {# товара} many {# товаров} other {# товара}}",
               "cart.total": "Итого: {amount, number}"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"name": "Ana", "count": 3, "amount": 5},
         rendered={"cart.greeting": "Привет, Ana!", "cart.items": "3 товара", "cart.total": "Итого: 5"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder {name} that the source uses"]),
              "photos.count": ("{count, plural, =0 {Нет фото} one {# фото} many {# фото} other {# фото}}", [FEW]),
              "order.status": ("Заказ {id отправлен",
                               ["not a valid ICU message at position 10: expected '}' or ',' after the argument "
                                "name 'id'"]),
              "cart.wrong": ({"one": "x"}, ["the source locale en has no message 'cart.wrong': check the key, or "
                                            "pass allow_new_keys to add it"]),
              "nope": ("x", [UNKNOWN])},
         rename=("cart.empty", "basket.empty"), delete=["cart.total", "photos.count"]),
    Case("i18next", "locales/{locale}/translation.json",
         good={"cart.greeting": "Привет, {{name}}!",
               "cart.items": {"one": "{{count}} товар", "few": "{{count}} товара", "many": "{{count}} товаров",
                              "other": "{{count}} товара"},
               "cart.total": "Итого: {{amount}}",
               "order.status": "Заказ {{id}} отправлен"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"name": "Ana", "count": 3, "amount": 5, "id": "A-1"},
         rendered={"cart.greeting": "Привет, Ana!", "cart.items": "3 товара", "order.status": "Заказ A-1 отправлен"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder {{name}} that the source uses"]),
              "photos.count": ({"one": "{{count}} фото", "many": "{{count}} фото", "other": "{{count}} фото"}, [FEW]),
              "nope": ("x", [UNKNOWN])},
         rename=("cart.empty", "basket.empty"), delete=["cart.total", "photos.count"]),
    Case("arb", "l10n/app_{locale}.arb",
         good={"cartGreeting": "Привет, {name}!",
               "cartItems": "{count, plural, one{{count} товар} few{{count} товара} many{{count} товаров} "
                            "other{{count} товара}}",
               "cartTotal": "Итого: {amount}"},
         unchanged_values={"cartEmpty": "Корзина пуста"},
         variables={"name": "Ana", "count": 3, "amount": 5},
         rendered={"cartGreeting": "Привет, Ana!", "cartItems": "3 товара"},
         already_present=["cartTotal"],
         bad={"profileWelcome": ("С возвращением", ["drops the placeholder {name} that the source uses"]),
              "photosCount": ("{count, plural, one{{count} фото} many{{count} фото} other{{count} фото}}", [FEW]),
              "orderStatus": ("Заказ {id} {отправлен",
                              ["not a valid ICU message at position 21: expected '}' or ',' after the argument "
                               "name 'отправлен'"]),
              "nope": ("x", [UNKNOWN])},
         rename=("cartEmpty", "basketEmpty"), delete=["cartTotal"]),
    Case("po", "locale/{locale}/LC_MESSAGES/{domain}.po",
         good={"Hello, %(name)s!": "Привет, %(name)s!",
               "%(count)s item": {"one": "%(count)s товар", "few": "%(count)s товара", "many": "%(count)s товаров",
                                  "other": "%(count)s товара"},
               "Total: %(amount)s": "Итого: %(amount)s"},
         unchanged_values={"Your cart is empty": "Корзина пуста"},
         variables={"name": "Ana", "count": 3, "amount": 5},
         rendered={"Hello, %(name)s!": "Привет, Ana!", "%(count)s item": "3 товара", "Total: %(amount)s": "Итого: 5"},
         already_present=["Total: %(amount)s"],  # fuzzy: to review, not missing
         bad={"Welcome back, %(name)s": ("С возвращением", ["drops the placeholder %(name)s that the source uses"]),
              "%(count)s photo uploaded": ({"one": "%(count)s фото", "many": "%(count)s фото",
                                            "other": "%(count)s фото"}, [FEW]),
              "Order %(id)s has shipped": ("Заказ %(id)s отправлен на 100%",
                                           ["the python-format translation has a % at character 30 that starts no "
                                            "conversion (write %% for a percent sign); Python's % would raise "
                                            "ValueError"]),
              "nope": ("x", [UNKNOWN])},
         delete=["Your cart is empty"]),
    Case("android", "res/values-{locale}/strings.xml",
         good={"cart_greeting": "Привет, %1$s!",
               "cart_items": {"one": "%d товар", "few": "%d товара", "many": "%d товаров", "other": "%d товара"},
               "cart_total": "Итого: %1$s"},
         unchanged_values={"cart_empty": "Корзина пуста"},
         variables={"1": 3, "count": 3},
         rendered={"cart_greeting": "Привет, 3!", "cart_items": "3 товара", "cart_total": "Итого: 3"},
         already_present=["cart_total"],
         bad={"profile_welcome": ("С возвращением", ["drops the placeholder %1$s that the source uses"]),
              "photos_count": ({"one": "%d фото", "many": "%d фото", "other": "%d фото"}, [FEW]),
              "order_status": ("Заказ %1$s отправлен на 100%",
                               ["'order_status' cannot be used: invalid format specifier '%' at position 27: a '%' "
                                "must start a conversion such as %s or %1$d; write %% for a percent sign (or add "
                                "formatted=\"false\" to the element)"]),
              "app_name": ("Магазин", ["the source marks it translatable=\"false\": it is not translated"]),
              "cart_items_typo": ("x", ["the source locale en has no message 'cart_items_typo': check the key, "
                                        "or pass allow_new_keys to add it"])},
         rename=("cart_empty", "basket_empty"), delete=["cart_total", "cart_items"]),
    Case("yaml", "config/locales/{locale}.yml",
         good={"cart.greeting": "Привет, %{name}!",
               "cart.items": {"one": "%{count} товар", "few": "%{count} товара", "many": "%{count} товаров",
                              "other": "%{count} товара"},
               "cart.total": "Итого: %{amount}"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"name": "Ana", "count": 3, "amount": 5},
         rendered={"cart.greeting": "Привет, Ana!", "cart.items": "3 товара", "cart.total": "Итого: 5"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder %{name} that the source uses"]),
              "photos.count": ({"one": "%{count} фото", "many": "%{count} фото", "other": "%{count} фото"}, [FEW]),
              "order.status": ("Заказ %{id} отправлен (%{scope})",
                               ["the message uses %{scope}, a name I18n reserves for its own options, so Rails "
                                "raises ReservedInterpolationKey: rename it"]),
              "cart.items.one": ("x", ["the source locale en has no message 'cart.items.one': check the key, or "
                                       "pass allow_new_keys to add it"]),
              "nope": ("x", [UNKNOWN])},
         rename=("cart.empty", "basket.empty"), delete=["cart.total", "cart.items"]),
    Case("xliff", "translations/{locale}.xlf",
         good={"cart.greeting": 'Привет, <x id="name" equiv-text="{{ name }}"/>!',
               "cart.total": 'Итого: <x id="amount" equiv-text="{{ amount }}"/>'},
         unchanged_values={"cart.empty": "Корзина пуста"},
         rendered={"cart.greeting": "Привет, {{ name }}!", "cart.total": "Итого: {{ amount }}"},
         already_present=["cart.total"],
         bad={"cart.title": ("Корзина покупок", ["is 15 characters long; the file allows at most 12"]),
              "profile.welcome": ("С возвращением", ['drops the inline element id="name" that the source uses']),
              "order.status": ('Заказ <x id="id" equiv-text="{{ id }}"/> <g id="b">отправлен',
                               ['drops the inline element id="b" that the source uses']),
              "nope": ("x", [UNKNOWN])},
         delete=["cart.total"]),
    Case("properties", "i18n/messages_{locale}.properties",
         good={"cart.greeting": "Привет, {0}!", "cart.total": "Итого: {0,number}"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"0": "Ana"},
         rendered={"cart.greeting": "Привет, Ana!"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder {0} that the source uses"]),
              "order.status": ("Заказ {0 отправлен",
                               ["the message has an unmatched brace: MessageFormat rejects it; close the argument "
                                "with } or quote a literal brace as '{'"]),
              "nope": ("x", [UNKNOWN])},
         rename=("cart.empty", "basket.empty"), delete=["cart.total"]),
    Case("apple-strings", "{locale}.lproj/Localizable.strings",
         good={"cart.greeting": "Привет, %@!", "cart.total": "Итого: %@"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"1": "Ana"},
         rendered={"cart.greeting": "Привет, Ana!", "cart.total": "Итого: Ana"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder %1$@ that the source uses"]),
              "order.status": ("Заказ %1$@ отправлен на 100%",
                               ["the message has invalid format specifier '%' at position 27: a '%' must start a "
                                "conversion such as %@ or %1$d; write %% for a percent sign"]),
              "nope": ("x", [UNKNOWN])},
         rename=("cart.empty", "basket.empty"), delete=["cart.total"]),
    Case("stringsdict", "{locale}.lproj/Localizable.stringsdict",
         good={"cart.items": {"few": "%lld товара", "many": "%lld товаров"}},
         unchanged_values={},
         variables={"count": 3},
         rendered={"cart.items": "3 товара"},
         already_present=["cart.items"],
         bad={"photos.count": ({"one": "%lld фото", "many": "%lld фото", "other": "%lld фото"}, [FEW]),
              "folder.summary": ({"NSStringLocalizedFormatKey": "Файлы: %#@files@", "files.one": "%lld файл",
                                  "files.few": "%lld файла", "files.many": "%lld файлов", "files.other": "%lld файла"},
                                 ["drops the placeholder %2$@ that the source uses"]),
              "cart.items.typo": ({"one": "x"}, ["the source locale en has no message 'cart.items.typo': check the "
                                                 "key, or pass allow_new_keys to add it"]),
              "nope": ("x", [UNKNOWN])},
         delete=["photos.count"]),
    Case("xcstrings", "Localizable.xcstrings",
         good={"cart.greeting": "Привет, %@!",
               "cart.items": {"one": "%lld товар", "few": "%lld товара", "many": "%lld товаров", "other": "%lld товара"},
               "cart.total": "Итого: %@"},
         unchanged_values={"cart.empty": "Корзина пуста"},
         variables={"1": 3, "count": 3},
         rendered={"cart.greeting": "Привет, 3!", "cart.items": "3 товара", "cart.total": "Итого: 3"},
         already_present=["cart.total"],
         bad={"profile.welcome": ("С возвращением", ["drops the placeholder %1$@ that the source uses"]),
              "photos.count": ({"one": "%lld фото", "many": "%lld фото", "other": "%lld фото"}, [FEW]),
              "order.status": ("Заказ %@ отправлен на 100%",
                               ["invalid format specifier '%' at position 25: a '%' must start a conversion such as "
                                "%@ or %1$d; write %% for a percent sign"]),
              "nope": ("x", [UNKNOWN])},
         delete=["cart.total", "cart.items"]),
]
