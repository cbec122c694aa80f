"""`loop.status`: exact counts per catalog on a small project in four formats (i18next plural groups, an
Android file with `translatable="false"` strings, gettext with fuzzy, empty, broken and context entries
in two domains and no source-locale file, XLIFF 1.2 with states and no source-locale file), stale
translations found through the lock file, and where a translation equal to its source is suspicious.

`status_projects/shop` was written for these tests; each file says in its entries what it exercises.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.lockfile import SourceLock
from parlance_i18n.loop.status import (
    LocaleStatusReport,
    UnknownCatalog,
    catalog_status,
    is_suspicious_copy,
)
from parlance_i18n.model.project import ProjectLocale

from tests.packs.i18n.loop.shop import SHOP, open_project


def status(root: Path = SHOP, locale: str = "de", lock: SourceLock | None = None, **options: object) -> dict[str, LocaleStatusReport]:
    project = open_project(root)
    target = project.locales.get(locale) or ProjectLocale(parse_locale(locale), [])
    found = catalog_status(project, project.locales["en"], target, lock, **options)  # type: ignore[arg-type]
    return {entry.catalog: entry for entry in found}


def counts(entry: LocaleStatusReport) -> tuple[int, ...]:
    return (entry.total, entry.translated, entry.missing, entry.untranslated, entry.fuzzy, entry.invalid, entry.stale)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SHOP, tmp_path / "shop"))


def test_every_source_key_is_counted_once_per_catalog() -> None:
    found = status()
    assert list(found) == ["web", "android", "backend", "xliff"]  # icu has no de file: not a catalog of de
    #                                  total translated missing untranslated fuzzy invalid stale
    assert counts(found["web"]) == (12, 7, 3, 1, 0, 1, 0)
    assert counts(found["android"]) == (5, 3, 0, 1, 0, 1, 0)
    assert counts(found["backend"]) == (10, 3, 4, 1, 1, 1, 0)
    assert counts(found["xliff"]) == (6, 2, 2, 1, 1, 0, 0)
    assert [entry.coverage for entry in found.values()] == [0.5833, 0.6, 0.3, 0.3333]
    assert all(entry.locale == "de" for entry in found.values())


def test_i18next_plural_groups_count_once_and_empty_strings_are_missing() -> None:
    web = status()["web"]
    # cart.items (items_one + items_other) is one key; profile.rank's ordinal forms too; "" is no translation
    assert web.missing_keys == ["cart.empty", "checkout.total", "profile.photos"]
    assert web.untranslated_keys == ["nav.help"]  # "Home", the URL and "{{count}}" may equal their source
    assert [(m.key, m.reason) for m in web.invalid_messages] == [("cart.remove", "the value is an array, which i18next returns only to "
                                                    "t(key, {returnObjects: true}): write one string per key")]


def test_android_strings_not_to_translate_are_not_counted() -> None:
    android = status()["android"]
    assert android.total == 5  # app_name and api_host are translatable="false"; sizes[0], sizes[1] count
    assert android.untranslated_keys == ["cart_greeting"]
    assert [(m.key, m.reason) for m in android.invalid_messages] == [("cart_items", "'cart_items' cannot be used: an <item> has the quantity "
                                                       "'lots'; use zero, one, two, few, many or other")]


def test_gettext_sources_are_the_targets_own_msgids_in_every_domain() -> None:
    backend = status()["backend"]
    assert backend.missing_keys == ["Place order", "%(count)d order", "button\x04Open", "Loading…"]
    assert backend.fuzzy_keys == ["Refund issued"]
    assert backend.untranslated_keys == ["Terms and conditions"]  # "Email" is one word: legitimately the same
    # found only when compiled: a python-format translation ending in a bare %
    assert [m.key for m in backend.invalid_messages] == ["Discount of %(amount)s"]
    assert backend.invalid_messages[0].reason.startswith("the python-format translation has a % at character 29")


def test_xliff_states_decide_fuzzy_and_missing() -> None:
    xliff = status()["xliff"]
    assert xliff.fuzzy_keys == ["cart.empty"]  # needs-review-translation
    assert xliff.missing_keys == ["cart.checkout", "greeting"]  # state="new" is not served; no target at all
    assert xliff.untranslated_keys == ["footer"]  # final, but the source text itself


def test_details_are_cut_to_the_limit_and_counts_are_not() -> None:
    backend = status(limit=1)["backend"]
    assert counts(backend) == (10, 3, 4, 1, 1, 1, 0)
    assert backend.missing_keys == ["Place order"]
    assert status(limit=0)["backend"].missing_keys == []


def test_a_catalog_is_chosen_by_name_and_an_unknown_name_is_refused() -> None:
    assert list(status(catalog="xliff")) == ["xliff"]
    with pytest.raises(UnknownCatalog, match="there is no catalog named 'mobile'; the project's catalogs are: "
                                             "web, android, backend, xliff, icu"):
        status(catalog="mobile")


def test_a_new_locale_is_measured_against_every_catalog_the_source_has() -> None:
    found = status(locale="fr")
    assert list(found) == ["web", "android", "icu"]  # backend and xliff have no file for en, nor for fr
    assert [counts(entry) for entry in found.values()] == [(12, 0, 12, 0, 0, 0, 0), (5, 0, 5, 0, 0, 0, 0),
                                                          (3, 0, 3, 0, 0, 0, 0)]
    assert found["android"].missing_keys == ["cart_title", "cart_greeting", "cart_items", "sizes[0]", "sizes[1]"]


def test_a_catalog_without_source_texts_says_so() -> None:
    found = status(locale="fr", catalog="backend")["backend"]
    assert counts(found) == (0, 0, 0, 0, 0, 0, 0)
    assert found.coverage == 1.0
    assert [(m.key, m.reason) for m in found.invalid_messages] == [(None, "the catalog 'backend' has no file for the source locale 'en', so "
                                             "there is nothing to translate from: check its path and source_locale")]


def test_a_translation_is_stale_once_its_source_changes(shop: Path) -> None:
    lock = SourceLock(shop / "parlance-i18n.lock")
    lock.record("web", "de", {"cart.title": "Your cart", "checkout.pay": "Pay now"})
    assert counts(status(shop, lock=SourceLock(shop / "parlance-i18n.lock"))["web"]) == (12, 7, 3, 1, 0, 1, 0)

    source = shop / "web" / "en.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["cart"]["title"] = "Your shopping cart"
    source.write_text(json.dumps(data, indent=2), encoding="utf-8")
    web = status(shop, lock=SourceLock(shop / "parlance-i18n.lock"))["web"]
    assert counts(web) == (12, 7, 3, 1, 0, 1, 1)  # still translated: stale is a part of translated
    assert web.stale_keys == ["cart.title"]
    assert status(shop, lock=SourceLock(shop / "parlance-i18n.lock"), locale="ru")["web"].stale == 0


def test_a_file_that_cannot_be_read_counts_its_keys_invalid_and_names_the_file(shop: Path) -> None:
    # Not missing: translating them cannot help until the file is fixed, and the file says why.
    (shop / "web" / "de.json").write_text('{"nav": {"home": "Start",}}', encoding="utf-8")
    web = status(shop)["web"]
    assert counts(web) == (12, 0, 0, 0, 0, 12, 0)
    [problem] = web.file_problems
    assert (Path(problem.file).name, problem.line) == ("de.json", 1) and "not valid JSON" in problem.reason
    assert [(m.key, m.reason) for m in web.invalid_messages] == [(None, "de.json: line 1: the file is not valid JSON: expecting property name "
                                           "enclosed in double quotes")]


def test_the_same_language_is_never_untranslated(shop: Path) -> None:
    (shop / "web" / "en-IE.json").write_text(json.dumps({"nav": {"help": "Help and support"}}), encoding="utf-8")
    web = status(shop, locale="en-IE")["web"]
    assert (web.translated, web.untranslated, web.missing) == (1, 0, 11)


@pytest.mark.parametrize(("source", "translation", "suspicious"), [
    ("Help and support", "Help and support", True),
    ("Hello %1$s, welcome back!", "Hello %1$s, welcome back!", True),
    ("カートを見る", "カートを見る", True),  # two letters of a script without spaces
    ("Home", "Home", False),
    ("OK", "OK", False),
    ("{{count}}", "{{count}}", False),
    ("%(count)d / %(total)d", "%(count)d / %(total)d", False),
    ("https://shop.example/terms", "https://shop.example/terms", False),
    ("support@shop.example", "support@shop.example", False),
    ("12:30 – 14:00", "12:30 – 14:00", False),
    ("Hello {name}", "Hello {name}", False),
    ("Help and support", "Hilfe und Support", False),
    ({"one": "{{count}} new message", "other": "{{count}} new messages"},
     {"one": "{{count}} new message", "other": "{{count}} new messages"}, True),
    ({"one": "{{count}} new message", "other": "{{count}} new messages"},
     {"one": "{{count}} neue Nachricht", "other": "{{count}} new messages"}, False),
])
def test_a_copy_of_the_source_is_suspicious_only_with_words_to_translate(
        source: str | dict[str, str], translation: str | dict[str, str], suspicious: bool) -> None:
    assert is_suspicious_copy(source, translation) is suspicious
