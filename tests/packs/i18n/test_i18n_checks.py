"""The check report: coverage, missing and extra keys, argument mismatches, plural gaps."""

from __future__ import annotations

from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.checks import check_locales, summarize_locales
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.translator import Translator


def session() -> Translator:
    t = Translator(Catalog(parse_locale("en")))
    t.add_messages("en", {"hello": "Hello {name}", "bye": "Bye", "files": "{n, plural, one {# file} other {# files}}",
                          "place": "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"})
    t.add_messages("ru", {"hello": "Привет {nom}", "files": "{n, plural, one {# файл} other {# файлов}}", "extra": "x"})
    t.add_messages("es", {"hello": "Hola {name}", "bye": "Adiós", "files": "{n, plural, one {# archivo} other {# archivos}}"})
    t.add_messages("es-MX", {"bye": "Nos vemos"})
    return t


def test_report_per_locale() -> None:
    reference, reports = check_locales(session())
    assert reference == "en"
    by_code = {r.code: r for r in reports}
    ru = by_code["ru"]
    assert ru.coverage == 0.5
    assert ru.missing_keys == ["bye", "place"] and ru.extra_keys == ["extra"]
    assert [(m.key, m.missing, m.unexpected) for m in ru.argument_mismatches] == [("hello", ["name"], ["nom"])]
    assert [(g.key, g.argument, g.missing) for g in ru.plural_gaps] == [("files", "n", ["few", "many"])]
    es_mx = by_code["es-MX"]
    assert es_mx.missing_keys == ["place"]  # everything else is inherited from es
    assert es_mx.coverage == 0.75
    assert by_code["en"].coverage == 1.0 and by_code["en"].plural_gaps == []


def test_limit_cuts_lists_but_not_counts() -> None:
    _, reports = check_locales(session(), ["ru"], limit=1)
    assert reports[0].missing_keys == ["bye"] and reports[0].missing_count == 2


def test_a_locale_without_a_bundle_reports_what_it_inherits() -> None:
    _, reports = check_locales(session(), ["es-AR"])
    assert reports[0].message_count == 0 and reports[0].coverage == 0.75


def test_summaries() -> None:
    summaries = {s.code: s for s in summarize_locales(session())}
    assert summaries["es-MX"].language == "es" and summaries["es-MX"].region == "MX"
    assert summaries["ru"].script == "Cyrl" and summaries["ru"].display_name == "Russian"
    assert summaries["ru"].coverage == 0.5
