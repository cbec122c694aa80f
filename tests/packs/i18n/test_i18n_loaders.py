"""Startup loading: JSON (flat and nested) and PO files from bundle_dirs, read as a project's catalog files
are; bad files are skipped."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from parlance_i18n.model.bundles import Limits, compile_bundle
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.checks import check_locales
from parlance_i18n.model.project import ProjectLocale
from parlance_i18n.locales import parse_locale
from parlance_i18n.settings import I18nSettings
from parlance_i18n.model.translator import Translator

RU_PO = r'''# Russian translation
msgid ""
msgstr ""
"Language: ru\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

#: app.py:10
#, python-format
msgid "greeting"
msgstr "Привет, %(name)s!"

msgctxt "menu"
msgid "File"
msgstr "Файл"

#, fuzzy
msgid "draft"
msgstr "Черновик"

msgid "untranslated"
msgstr ""

#, python-format
msgid "files"
msgid_plural "files"
msgstr[0] "%(count)d файл"
msgstr[1] "%(count)d файла"
msgstr[2] "%(count)d файлов"

msgid "multi"
msgstr ""
"line one\n"
"line \"two\"\t\101"

msgid "regex"
msgstr "числа не по порядку в квантификаторе {}: ''%(format)s\""

msgid "broken"
msgstr "no closing quote

msgid "after"
msgstr "после"

#~ msgid "old"
#~ msgstr "старый"
'''


def test_po_files_are_read_as_gettext_reads_them(tmp_path: Path) -> None:
    """Not as ICU: braces and apostrophes are text; plurals by the file's Plural-Forms; a broken entry
    is skipped and the rest of the file loads."""
    (tmp_path / "ru.po").write_text(RU_PO, encoding="utf-8")
    catalog = Catalog(parse_locale("en"))
    report = catalog.load_bundle_dir(tmp_path)
    assert [(path.name, code) for path, code, _ in report.loaded] == [("ru.po", "ru")]
    messages = catalog.bundles["ru"].messages
    assert set(messages) == {"greeting", "menu\x04File", "files", "multi", "regex", "after"}
    t = Translator(catalog)
    assert [t.translate("files", "ru", {"count": n}).translation for n in (1, 3, 5, 21, 11)] == [
        "1 файл", "3 файла", "5 файлов", "21 файл", "11 файлов"]
    assert t.translate("greeting", "ru", {"name": "Аня"}).translation == "Привет, Аня!"
    assert t.translate("menu\x04File", "ru").translation == "Файл"
    assert t.translate("multi", "ru").translation == 'line one\nline "two"\tA'
    assert t.translate("regex", "ru").translation == "числа не по порядку в квантификаторе {}: ''%(format)s\""
    assert t.translate("after", "ru").translation == "после"
    assert t.translate("draft", "ru").fallback  # fuzzy: not served


def test_po_without_plural_forms_uses_the_germanic_default(tmp_path: Path) -> None:
    (tmp_path / "de.po").write_text('#, python-format\nmsgid "n"\nmsgid_plural "n"\nmsgstr[0] "%(count)d Datei"\n'
                                    'msgstr[1] "%(count)d Dateien"\n')
    catalog = Catalog(parse_locale("en"))
    catalog.load_bundle_dir(tmp_path)
    assert Translator(catalog).translate("n", "de", {"count": 2}).translation == "2 Dateien"


def test_bundle_dirs_load_json_flat_and_nested_and_skip_bad_files(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    (first / "en.json").write_text(json.dumps({"greeting": {"hello": "Hello"}, "bye": "Bye"}))
    (first / "es_MX.json").write_text(json.dumps({"greeting.hello": "Qué onda"}))
    (first / "de.json").write_text("{not json")
    (first / "fr.json").write_text(json.dumps({"n": 3}))
    (first / "not-a-locale!.json").write_text("{}")
    (first / "notes.txt").write_text("ignored")
    (second / "en.json").write_text(json.dumps({"bye": "Goodbye"}))
    settings = I18nSettings(bundle_dirs=[first, second, tmp_path / "missing"])
    with caplog.at_level(logging.WARNING, logger="parlance_i18n"):
        catalog = Catalog.from_settings(settings)
    assert sorted(catalog.bundles) == ["en", "es-MX"]
    t = Translator(catalog)
    assert t.translate("greeting.hello", "es-MX") == ("Qué onda", "es-MX", False)
    assert t.translate("bye").translation == "Goodbye"  # later directories win per key
    assert t.translate("greeting.hello").translation == "Hello"
    skipped = [r for r in caplog.records if r.msg == "i18n.bundle_file_skipped"]
    assert sorted(Path(r.path).name for r in skipped) == ["de.json", "fr.json", "not-a-locale!.json"]
    assert any(r.msg == "i18n.bundle_dir_missing" for r in caplog.records)


def test_load_report(tmp_path: Path) -> None:
    (tmp_path / "ja.json").write_text(json.dumps({"a": "あ"}))
    (tmp_path / "ko.json").write_text("[]")
    report = Catalog(parse_locale("en")).load_bundle_dir(tmp_path)
    assert [(p.name, code, n) for p, code, n in report.loaded] == [("ja.json", "ja", 1)]
    assert [p.name for p, _ in report.skipped] == ["ko.json"]


def test_load_bundle_files_takes_the_files_it_is_given_in_order(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "de.json").write_text(json.dumps({"x": "a", "only_a": "A"}))
    (tmp_path / "b" / "de.json").write_text(json.dumps({"x": "b"}))
    (tmp_path / "b" / "bogus!.po").write_text('msgid "x"\nmsgstr "y"\n')
    catalog = Catalog(parse_locale("en"))
    report = catalog.load_bundle_files([tmp_path / "a" / "de.json", tmp_path / "b" / "de.json", tmp_path / "b" / "bogus!.po"])
    assert [code for _, code, _ in report.loaded] == ["de", "de"] and len(report.skipped) == 1
    t = Translator(catalog)
    assert (t.translate("x", "de").translation, t.translate("only_a", "de").translation) == ("b", "A")


def test_bundle_files_are_read_only_catalogs_read_as_a_projects_files(tmp_path: Path) -> None:
    """One read path: a bundle file's messages are a `ProjectLocale` over the file, read by its format,
    and what its reading skips is a problem of the file, which i18n_check lists with the line."""
    (tmp_path / "ru.po").write_text(RU_PO, encoding="utf-8")
    (tmp_path / "en.json").write_text(json.dumps({"greeting": "Hello, {name}!", "files": "{count} files"}))
    catalog = Catalog(parse_locale("en"))
    catalog.load_bundle_dir(tmp_path)
    russian = catalog.bundles["ru"].messages
    assert isinstance(russian, ProjectLocale) and [f.path.name for f in russian.files] == ["ru.po"]
    reference, reports = check_locales(Translator(catalog))
    ru = next(report for report in reports if report.code == "ru")
    assert [(Path(p.file).name, p.line, p.key) for p in ru.invalid_messages] == [("ru.po", 39, "broken")]
    assert ru.invalid_messages[0].catalog == str(tmp_path)
    (tmp_path / "ru.po").write_text('msgid "after"\nmsgstr "changed"\n', encoding="utf-8")
    russian.reload()  # read at startup, once: the server serves what it read
    assert Translator(catalog).translate("after", "ru").translation == "после"


def test_a_json_bundle_file_is_used_whole_or_not_at_all(tmp_path: Path) -> None:
    (tmp_path / "de.json").write_text('{"twice": "first", "twice": "last", "ok": "Gut"}')  # JSON.parse keeps the last
    (tmp_path / "fr.json").write_text(json.dumps({"ok": "Bien", "long": "x" * 40}))
    (tmp_path / "it.json").write_text(json.dumps({f"k{i}": "v" for i in range(6)}))
    (tmp_path / "ja.json").write_text(json.dumps({"ok": "良い", "bad": "{oops"}))
    catalog = Catalog(parse_locale("en"), limits=Limits(max_message_chars=32, max_messages=5))
    report = catalog.load_bundle_dir(tmp_path)
    assert [(p.name, code, n) for p, code, n in report.loaded] == [("de.json", "de", 2)]
    reasons = {p.name: reason for p, reason in report.skipped}
    assert "'long': the message has 40 characters; the limit is 32 (setting max_message_chars)" in reasons["fr.json"]
    assert "has 6 messages; the limit is 5 (setting [packs.i18n] max_messages)" in reasons["it.json"]
    assert "'bad': not a valid ICU message" in reasons["ja.json"] and reasons["ja.json"].startswith(str(tmp_path))
    assert Translator(catalog).translate("twice", "de").translation == "last"


def test_files_and_bundles_added_in_memory_layer_in_load_order(tmp_path: Path) -> None:
    (tmp_path / "de.json").write_text(json.dumps({"a": "file", "b": "file", "c": "file"}))
    catalog = Catalog(parse_locale("en"))
    catalog.add_bundle(compile_bundle(parse_locale("de"), {"a": "memory 1", "b": "memory 1", "m": "memory 1"}))
    catalog.load_bundle_files([tmp_path / "de.json"])
    catalog.add_bundle(compile_bundle(parse_locale("de"), {"a": "memory 2"}))
    t = Translator(catalog)
    assert [t.translate(key, "de").translation for key in "abcm"] == ["memory 2", "file", "file", "memory 1"]
    assert len(catalog.bundles["de"].messages) == 4
    merged = t.add_messages("de", {"b": "session"}, merge=True)  # a session's bundle goes over all of it
    assert [t.translate(key, "de").translation for key in "abcm"] == ["memory 2", "session", "file", "memory 1"]
    assert merged.size == catalog.bundles["de"].size + len("session") - len("file")  # the budget counts what it holds
