"""A project's own catalogs, configured with `[[packs.i18n.catalogs]]`: files found per locale in each
format's own spelling, read lazily, per message (a bad one is skipped and reported, its file still
loads), rendered by each format's rules, and served over stdio with the reason for a fallback.

`projects/shop` is a small shop with a web app (i18next JSON), an Android app and a Django
backend (gettext, two domains), written for these tests in the shapes such projects have.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.checks import catalog_problems, check_locales
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.project import Project
from parlance_i18n.settings import CatalogSource, I18nSettings
from parlance_i18n.model.translator import Translator

SHOP = Path(__file__).resolve().parent / "projects" / "shop"
WEB = {"path": str(SHOP / "web/locales/{locale}/translation.json"), "format": "i18next", "name": "web"}
ANDROID = {"path": str(SHOP / "app/src/main/res/values-{locale}/strings.xml"), "name": "android"}
BACKEND = {"path": str(SHOP / "backend/locale/{locale}/LC_MESSAGES/{domain}.po"), "name": "backend"}
EN = parse_locale("en")


def _translator(*catalogs: dict[str, str], **settings: Any) -> Translator:
    return Translator(Catalog.from_settings(I18nSettings(catalogs=list(catalogs), **settings)))


def test_files_are_found_in_each_formats_own_spelling() -> None:
    project = Project([CatalogSource(**WEB), CatalogSource(**ANDROID), CatalogSource(**BACKEND)], EN)
    found = {code: sorted((f.catalog, f.path.relative_to(SHOP).as_posix()) for f in locale.files)
             for code, locale in project.locales.items()}
    assert sorted(found) == ["de", "en", "fr", "pt-BR", "ru", "sr-Latn"]
    assert found["pt-BR"] == [("android", "app/src/main/res/values-pt-rBR/strings.xml"),
                              ("web", "web/locales/pt_BR/translation.json")]
    assert found["sr-Latn"] == [("android", "app/src/main/res/values-b+sr+Latn/strings.xml")]
    assert ("android", "app/src/main/res/values/strings.xml") in found["en"]  # unqualified: the source locale
    assert [path for _, path in found["de"] if path.endswith(".po")] == [
        "backend/locale/de/LC_MESSAGES/django.po", "backend/locale/de/LC_MESSAGES/djangojs.po"]
    assert not any("values-night" in path for files in found.values() for _, path in files)
    assert project.problems == []


def test_opening_reads_nothing_and_a_translation_reads_only_its_chain() -> None:
    translator = _translator(WEB, ANDROID)
    locales = translator.catalog.project.locales  # type: ignore[union-attr]
    assert not any(locale.loaded for locale in locales.values())
    translator.prepare("de")
    assert translator.translate("cart.title", "de").translation == "Dein Warenkorb"
    assert sorted(code for code, locale in locales.items() if locale.loaded) == ["de", "en"]


def test_each_format_renders_by_its_own_rules() -> None:
    translator = _translator(WEB, ANDROID, BACKEND)
    for locale in ("de", "pt-BR", "ru", "sr-Latn"):
        translator.prepare(locale)
    cases = [
        ("cart.items", "pt-BR", {"count": 2}, "2 itens no carrinho"),
        ("cart.items", "ru", {"count": 5}, "5 товаров в корзине"),
        ("cart.greeting", "de", {"name": "Ana"}, "Willkommen zurück, Ana!"),
        ("cart_items", "de", {"count": 1}, "1 Artikel"),
        ("cart_greeting", "de", {"1": "Ana"}, "Hallo Ana, willkommen zurück!"),
        ("cart_title", "sr-Latn", None, "Korpa"),
        ("Order %(number)s confirmed", "de", {"number": "A-17"}, "Bestellung A-17 bestätigt"),
        ("Digits must be in order: {}", "de", None, "Ziffern müssen geordnet sein: {}"),
        ("%(count)d order", "ru", {"count": 22}, "22 заказа"),
        ("Loading…", "de", None, "Wird geladen…"),  # the second gettext domain
    ]
    for key, locale, variables, expected in cases:
        found = translator.translate(key, locale, variables)
        assert (found.translation, found.fallback) == (expected, False), (key, locale)


def test_a_fuzzy_or_missing_message_falls_back() -> None:
    translator = _translator(WEB, BACKEND)
    translator.prepare("de")
    fuzzy = translator.translate("Refund issued", "de")
    assert (fuzzy.translation, fuzzy.fallback) == ("Refund issued", True)
    greeting = translator.translate("cart.greeting", "pt-BR", {"name": "Ana"})
    assert (greeting.translation, greeting.locale, greeting.fallback) == ("Welcome back, Ana!", "en", True)


def test_a_bad_message_is_skipped_and_named_while_its_file_loads() -> None:
    translator = _translator(WEB)
    translator.prepare("ru")
    title = translator.translate("cart.title", "ru")
    assert (title.translation, title.locale, title.fallback) == ("Your cart", "en", True)
    assert translator.translate("cart.greeting", "ru", {"name": "Ана"}).translation == "С возвращением, Ана!"
    [problem] = translator.skipped("cart.title", "ru")
    assert (problem.catalog, problem.path.name, problem.key, problem.line) == ("web", "translation.json",
                                                                               "cart.title", 3)


def test_check_reports_skipped_messages_unreadable_files_and_empty_catalogs(tmp_path: Path) -> None:
    nowhere = {"path": str(tmp_path / "missing/{locale}.json"), "name": "nowhere"}
    translator = _translator(WEB, nowhere, source_locale="en")
    reference, reports = check_locales(translator)
    assert reference == "en"
    by_code = {report.code: report for report in reports}
    assert [(m.key, m.line) for m in by_code["ru"].invalid_messages] == [("cart.title", 3)]
    [unreadable] = by_code["fr"].invalid_messages
    assert unreadable.key is None and unreadable.file.endswith("fr/translation.json") and unreadable.reason
    assert "checkout.total" in by_code["de"].missing_keys
    [empty] = catalog_problems(translator)
    assert empty.catalog == "nowhere" and "no file matches" in empty.reason


@pytest.mark.anyio
async def test_over_stdio_paths_are_relative_to_the_config_and_a_fallback_says_why(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    shutil.copytree(SHOP / "web", project / "web")
    config = project / "parlance.toml"
    config.write_text('[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n\n'
                      '[[packs.i18n.catalogs]]\npath = "web/locales/{locale}/translation.json"\nformat = "i18next"\n'
                      'name = "web"\n\n[language_packs]\npaths = []\nautoload = false\n', encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with anyio.fail_after(40), open(tmp_path / "stderr.log", "w+") as errlog:
        async with Client(stdio_client(stdio_server_params(config, cwd=elsewhere), errlog=errlog)) as client:
            items = await client.call_tool("i18n_translate", {"key": "cart.items", "locale": "ru-RU",
                                                              "variables": {"count": 21}})
            title = await client.call_tool("i18n_translate", {"key": "cart.title", "locale": "ru"})
            check = await client.call_tool("i18n_check", {"locale": "ru", "details": True})
    assert items.structured_content == {"translation": "21 товар в корзине", "locale": "ru", "fallback": False}
    assert title.structured_content == {"translation": "Your cart", "locale": "en", "fallback": True}
    [skipped] = title.meta["parlance/i18n"]["skipped"]  # type: ignore[index]
    assert (skipped["catalog"], skipped["key"], skipped["line"]) == ("web", "cart.title", 3)
    assert "translation.json" in skipped["file"] and skipped["reason"]
    [report] = check.structured_content["locales"]  # type: ignore[index]
    assert report["invalid_count"] == 1 and report["invalid_messages"][0]["key"] == "cart.title"
    # Skipped, so counted as invalid and not as missing too: the counts are i18n_status's.
    assert report["catalog"] == "web" and "cart.title" not in report["missing_keys"]


def test_every_message_knows_its_catalog_file_and_line() -> None:
    translator = _translator(WEB, ANDROID, BACKEND)
    locales = translator.catalog.project.locales  # type: ignore[union-attr]
    catalog, path, line = locales["de"].origin("cart.greeting")  # type: ignore[misc]
    assert (catalog, path.relative_to(SHOP).as_posix(), line) == ("web", "web/locales/de/translation.json", 6)
    catalog, path, line = locales["de"].origin("cart_greeting")  # type: ignore[misc]
    assert (catalog, path.name, line) == ("android", "strings.xml", 4)
    catalog, path, line = locales["de"].origin("Loading…")  # type: ignore[misc]
    assert (catalog, path.name, line) == ("backend", "djangojs.po", 6)
    assert locales["de"].origin("no.such.key") is None


def test_a_catalog_is_read_in_one_format_even_where_a_file_shows_no_trait_of_it(tmp_path: Path) -> None:
    """A new translation file with no {{placeholder}} yet is still i18next when its siblings are."""
    for locale, text in (("en", '{"hi": "Hello, {{name}}!", "bye": "Bye"}'), ("ru", '{"bye": "Пока"}')):
        (tmp_path / locale).mkdir()
        (tmp_path / locale / "translation.json").write_text(text, encoding="utf-8")
    project = Project([CatalogSource(path=tmp_path / "{locale}" / "translation.json")], EN)
    assert {code: [f.format.name for f in locale.files] for code, locale in project.locales.items()} == {
        "en": ["i18next"], "ru": ["i18next"]}


def test_check_and_the_bundle_resource_skip_a_message_found_invalid_only_when_compiled() -> None:
    """gettext reports a bad python-format translation when it is compiled: listed, but not served."""
    from parlance_i18n.tools.wire import bundle_view

    backend = {"path": str(Path(__file__).parent / "loop/status_projects/shop/backend/{locale}/LC_MESSAGES/django.po"),
               "name": "backend"}
    translator = _translator(backend, default_locale="de", source_locale="de")
    reference, [report] = check_locales(translator)
    assert reference == "de" and report.code == "de"
    assert [m.key for m in report.invalid_messages] == ["Discount of %(amount)s"]
    view = bundle_view("de", translator.bundles["de"])
    assert "Discount of %(amount)s" not in view["messages"] and view["messages"]


def test_check_reads_an_arb_catalog_whose_messages_have_apostrophes(tmp_path: Path) -> None:
    # Flutter keeps an apostrophe as written, so ARB relabels such a message rather than compiling it as
    # ICU; the check asked every message for `facts()`, which that class lacks, and answered INTERNAL.
    (tmp_path / "app_en.arb").write_text('{"@@locale": "en", "greeting": "Don\'t stop, {name}", '
                                         '"items": "{count, plural, one{One item} other{{count} items}}"}',
                                         encoding="utf-8")
    (tmp_path / "app_fr.arb").write_text('{"@@locale": "fr", "greeting": "N\'arrête pas, {nom}"}', encoding="utf-8")
    translator = _translator({"path": str(tmp_path / "app_{locale}.arb"), "name": "app"}, source_locale="en")
    reference, reports = check_locales(translator, ["fr"])
    assert reference == "en"
    [french] = reports
    assert french.missing_keys == ["items"]
    [mismatch] = french.argument_mismatches
    assert (mismatch.key, mismatch.missing, mismatch.unexpected) == ("greeting", ["name"], ["nom"])


def test_a_file_created_right_after_the_catalogs_were_listed_is_noticed(tmp_path: Path) -> None:
    # the folder changed a moment before it was listed: its time stamp cannot show a change made now
    from parlance_i18n.model.project import Project

    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "en.json").write_text('{"a": "A"}', encoding="utf-8")
    project = Project([CatalogSource(path=tmp_path / "locales/{locale}.json", format="icu-json")],
                      parse_locale("en"), root=tmp_path)
    (tmp_path / "locales" / "fr.json").write_text('{"a": "B"}', encoding="utf-8")
    assert project.rescan() and sorted(project.locales) == ["en", "fr"]


def test_a_catalog_file_linking_to_itself_is_listed_not_a_crash(tmp_path: Path) -> None:
    # os.DirEntry.is_dir raises on a link in a loop (Path.is_dir does not): discovery must not
    from parlance_i18n.model.project import Project

    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "en.json").write_text('{"a": "A"}', encoding="utf-8")
    (tmp_path / "locales" / "ru.json").symlink_to(tmp_path / "locales" / "ru.json")
    project = Project([CatalogSource(path=tmp_path / "locales/{locale}.json", format="icu-json")],
                      parse_locale("en"), root=tmp_path)
    assert sorted(project.locales) == ["en", "ru"]
    project.rescan(force=True)
    assert sorted(project.locales) == ["en", "ru"]


def test_a_java_bundles_base_file_is_the_source_locale(tmp_path: Path) -> None:
    """`messages_{locale}.properties` matches the root bundle `messages.properties` too (as ResourceBundle
    reads it: the base name, the default locale's file), as Android's `values-{locale}` matches `values`;
    a bundle of another base name beside it (`messages_admin`) is no locale's."""
    folder = tmp_path / "src/main/resources"
    folder.mkdir(parents=True)
    (folder / "messages.properties").write_text("greeting=Hello\n")
    (folder / "messages_de.properties").write_text("greeting=Hallo\n")
    (folder / "messages_pt_BR.properties").write_text("greeting=Olá\n")
    (folder / "messages_admin.properties").write_text("greeting=Admin\n")
    project = Project([CatalogSource(path=folder / "messages_{locale}.properties")], parse_locale("en"), root=tmp_path)
    assert sorted(project.locales) == ["de", "en", "pt-BR"]
    assert [file.path.name for file in project.locales["en"].files] == ["messages.properties"]
