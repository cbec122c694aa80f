"""`loop.workitems`: which keys are work and in what order, everything an item carries (placeholders as
each format writes them, the plural categories the target needs, notes, context, max_length, glossary
terms, examples), and pages: two pages cover the work once, translations written between pages do not
disturb the cursor, and a cursor over keys that changed is refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.glossary import Glossary, Term
from parlance_i18n.loop.lockfile import SourceLock
from parlance_i18n.loop.workitems import WorkItem, work_items
from parlance_i18n.model.project import Project, ProjectLocale
from parlance_i18n.settings import CatalogSource

from tests.packs.i18n.loop.shop import EN, SHOP, open_project

GLOSSARY = Glossary([Term("cart", "Warenkorb"), Term("checkout", "Kasse")])
DE_WORK = [
    ("web", "nav.help", "untranslated"), ("web", "cart.empty", "missing"), ("web", "checkout.total", "missing"),
    ("web", "profile.photos", "missing"),
    ("android", "cart_greeting", "untranslated"),
    ("backend", "Place order", "missing"), ("backend", "%(count)d order", "missing"),
    ("backend", "button\x04Open", "missing"), ("backend", "Terms and conditions", "untranslated"),
    ("backend", "Loading…", "missing"),
    ("xliff", "cart.checkout", "missing"), ("xliff", "greeting", "missing"), ("xliff", "footer", "untranslated"),
]


def locales(root: Path = SHOP, locale: str = "de") -> tuple[ProjectLocale, ProjectLocale]:
    project = open_project(root)
    return project.locales["en"], project.locales.get(locale) or ProjectLocale(parse_locale(locale), [])


def items(root: Path = SHOP, locale: str = "de", **options: object) -> list[WorkItem]:
    found, _ = work_items(*locales(root, locale), options.pop("glossary", GLOSSARY), limit=100, **options)  # type: ignore[arg-type]
    return found


def by_key(found: list[WorkItem]) -> dict[str, WorkItem]:
    return {item.key: item for item in found}


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SHOP, tmp_path / "shop"))


def test_work_is_missing_and_untranslated_keys_in_source_file_order() -> None:
    assert [(item.catalog, item.key, item.reason) for item in items()] == DE_WORK  # fuzzy and invalid are not work


def test_an_item_carries_what_its_files_say() -> None:
    found = by_key(items())
    place = found["Place order"]
    assert place.comment == "The button that sends the order;\nGerman law wants it to say that the order costs money."
    assert (place.context, place.max_length, place.placeholders, place.plural_categories) == (None, None, [], [])
    assert Path(place.file or "").name == "django.po" and Path(found["Loading…"].file or "").name == "djangojs.po"
    button = found["button\x04Open"]
    assert (button.source, button.context, button.comment) == ("Open", "button", "Opens the order's tracking page")
    orders = found["%(count)d order"]
    assert orders.source == {"one": "%(count)d order", "other": "%(count)d orders"}  # msgid, msgid_plural
    assert (orders.placeholders, orders.plural_categories) == (["%(count)d"], ["one", "other"])
    checkout = found["cart.checkout"]
    assert (checkout.max_length, checkout.glossary) == (12, [Term("checkout", "Kasse")])
    greeting = found["greeting"]
    assert greeting.placeholders == ['<x id="INTERPOLATION" equiv-text="{{ name }}"/>']
    assert greeting.comment == "Shown after signing in"
    assert found["cart_greeting"].placeholders == ["%1$s"]
    assert found["checkout.total"].placeholders == ["{{amount}}"]
    assert Path(found["checkout.total"].file or "").parts[-2:] == ("web", "de.json")


def test_plural_categories_are_the_target_locales() -> None:
    ru = by_key(items(locale="ru"))
    assert ru["cart.items"].plural_categories == ["one", "few", "many", "other"]
    assert ru["cart.items"].source == {"one": "{{count}} item in your cart", "other": "{{count}} items in your cart"}
    assert ru["profile.rank"].plural_categories == ["ordinal_other"]  # Russian ordinals have one form
    assert ru["photos"].plural_categories == ["one", "few", "many", "other"]  # ICU plural in the text
    assert ru["photos"].placeholders == []  # the plural's count is the plural's business
    assert ru["greeting"].placeholders == ["{name}", "{unread}"]
    assert ru["rank"].plural_categories == ["other"]  # selectordinal: Russian ordinal categories
    assert ru["nav.home"].plural_categories == []
    welsh = by_key(items(locale="cy"))
    assert welsh["cart.items"].plural_categories == ["zero", "one", "two", "few", "many", "other"]
    assert welsh["profile.rank"].plural_categories == ["ordinal_zero", "ordinal_one", "ordinal_two", "ordinal_few",
                                                        "ordinal_many", "ordinal_other"]
    polish = by_key(items(locale="pl"))
    assert (polish["cart_items"].plural_categories, polish["cart_items"].placeholders) == (
        ["one", "few", "many", "other"], ["%d"])


def test_a_new_locale_has_every_source_key_and_no_examples() -> None:
    found = items(locale="fr")
    assert [item.key for item in found if item.catalog == "android"] == [
        "cart_title", "cart_greeting", "cart_items", "sizes[0]", "sizes[1]"]
    assert len(found) == 12 + 5 + 3
    assert all(item.examples == [] and item.file is None for item in found)


def test_examples_are_translations_of_similar_sources_in_the_locale() -> None:
    de = by_key(items())
    assert de["cart.empty"].examples == [("Your cart", "Ihr Warenkorb"),
                                         ("{{count}} items in your cart", "{{count}} Artikel im Warenkorb")]
    assert de["button\x04Open"].examples == [("Open", "Öffnen")]  # the same word in another context
    assert de["Loading…"].examples == []
    ru = by_key(items(locale="ru"))
    assert ru["cart.remove"].examples == [("Your cart", "Ваша корзина")]
    assert ru["checkout.pay"].examples == []


def test_glossary_terms_are_those_the_source_uses() -> None:
    de = by_key(items())
    assert de["cart.empty"].glossary == [Term("cart", "Warenkorb")]
    assert de["nav.help"].glossary == []
    assert by_key(items(glossary=Glossary()))["cart.empty"].glossary == []


def test_two_pages_cover_the_work_once() -> None:
    source, target = locales()
    first, cursor = work_items(source, target, GLOSSARY, limit=8, cursor=None)
    assert cursor is not None
    second, end = work_items(source, target, GLOSSARY, limit=8, cursor=cursor)
    assert end is None
    assert [(item.catalog, item.key, item.reason) for item in first + second] == DE_WORK
    exact, after = work_items(source, target, GLOSSARY, limit=len(DE_WORK), cursor=None)
    assert len(exact) == len(DE_WORK) and after is None  # no empty last page


def test_translations_written_between_pages_leave_the_cursor_valid(shop: Path) -> None:
    first, cursor = work_items(*locales(shop), GLOSSARY, limit=2, cursor=None)
    assert [item.key for item in first] == ["nav.help", "cart.empty"]
    target = shop / "web" / "de.json"
    data = json.loads(target.read_text(encoding="utf-8"))
    data["nav"]["help"] = "Hilfe und Support"  # page one, done
    data["checkout"]["total"] = "Summe: {{amount}}"  # page two, done before it was asked for
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    second, _ = work_items(*locales(shop), GLOSSARY, limit=2, cursor=cursor)
    assert [item.key for item in second] == ["profile.photos", "cart_greeting"]


def test_a_cursor_over_changed_keys_or_another_locale_is_refused(shop: Path) -> None:
    _, cursor = work_items(*locales(shop), GLOSSARY, limit=2, cursor=None)
    assert cursor is not None
    with pytest.raises(ValueError, match="belongs to another locale or catalog, or the source's keys changed"):
        work_items(*locales(shop, "ru"), GLOSSARY, limit=2, cursor=cursor)
    with pytest.raises(ValueError, match="belongs to another locale or catalog"):
        work_items(*locales(shop), GLOSSARY, catalog="web", limit=2, cursor=cursor)
    source = shop / "web" / "en.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["nav"]["contact"] = "Contact us"
    source.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="leave it out to start again from the first page"):
        work_items(*locales(shop), GLOSSARY, limit=2, cursor=cursor)


@pytest.mark.parametrize("cursor", ["", "not a cursor", "eyJ2IjoxfQ", "e30"])
def test_a_cursor_not_given_out_is_refused(cursor: str) -> None:
    with pytest.raises(ValueError, match="the cursor is not one i18n_missing gave out"):
        work_items(*locales(), GLOSSARY, limit=2, cursor=cursor or "!!")


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="limit must be at least 1, not 0"):
        work_items(*locales(), GLOSSARY, limit=0)


def test_stale_translations_are_work_given_the_lock(shop: Path) -> None:
    lock = SourceLock(shop / "parlance-i18n.lock")
    lock.record("web", "de", {"cart.title": "Your cart", "checkout.pay": "Pay now"})
    source = shop / "web" / "en.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["cart"]["title"] = "Your shopping cart"
    source.write_text(json.dumps(data), encoding="utf-8")
    with_lock = items(shop, catalog="web", lock=SourceLock(shop / "parlance-i18n.lock"))
    assert [(item.key, item.reason) for item in with_lock] == [
        ("nav.help", "untranslated"), ("cart.title", "stale"), ("cart.empty", "missing"),
        ("checkout.total", "missing"), ("profile.photos", "missing")]
    assert by_key(with_lock)["cart.title"].source == "Your shopping cart"
    assert by_key(with_lock)["cart.empty"].examples == [  # a stale translation is no example
        ("{{count}} items in your cart", "{{count}} Artikel im Warenkorb")]
    assert "cart.title" not in by_key(items(shop, catalog="web"))  # no lock: nothing is known to be stale


def test_as_dict_leaves_out_what_is_empty() -> None:
    found = by_key(items())
    assert found["Loading…"].as_dict() == {"key": "Loading…", "source": "Loading…"}
    assert found["cart.empty"].as_dict() == {
        "key": "cart.empty", "source": "Your cart is empty",
        "glossary": [{"source": "cart", "target": "Warenkorb"}],
        "examples": [{"source": "Your cart", "translation": "Ihr Warenkorb"},
                     {"source": "{{count}} items in your cart", "translation": "{{count}} Artikel im Warenkorb"}]}
    assert found["nav.help"].as_dict() == {"key": "nav.help", "source": "Help and support", "reason": "untranslated"}


def test_a_large_locale_pages_through_every_key(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({f"key_{n:05d}": f"Message number {n}" for n in range(20_000)}),
                                      encoding="utf-8")
    (tmp_path / "de.json").write_text("{}", encoding="utf-8")
    project = Project([CatalogSource(name="web", path=tmp_path / "{locale}.json", format="i18next")], EN)
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page, cursor = work_items(project.locales["en"], project.locales["de"], Glossary(), limit=5000, cursor=cursor)
        seen += [item.key for item in page]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 20_000


def test_a_new_locale_of_a_string_catalog_is_written_into_the_same_file() -> None:
    catalog = SHOP.parent / "ios" / "Localizable.xcstrings"
    project = Project([CatalogSource(name="ios", path=catalog)], EN)
    assert sorted(project.locales) == ["de", "en"]
    found, _ = work_items(project.locales["en"], ProjectLocale(parse_locale("fr"), []), GLOSSARY, limit=10)
    assert [(item.key, item.file) for item in found] == [
        ("%lld photos", str(catalog)), ("Cancel", str(catalog)), ("Welcome back, %@!", str(catalog))]
    photos = found[0]
    assert (photos.source, photos.plural_categories, photos.placeholders, photos.comment) == (
        {"one": "%lld photo", "other": "%lld photos"}, ["one", "many", "other"], ["%lld"],
        "Photo count in the album header")
    german, _ = work_items(project.locales["en"], project.locales["de"], GLOSSARY, limit=10)
    assert [(item.key, item.file) for item in german] == [("%lld photos", str(catalog))]
