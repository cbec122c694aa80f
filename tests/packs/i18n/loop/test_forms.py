"""loop.forms: a message as callers give it, turned into what each format's Document holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.forms import candidate_problem, document_writes, has_key, write_into

PROJECTS = Path(__file__).parent / "projects"
RU, CY, EN, JA = (parse_locale(code) for code in ("ru", "cy", "en", "ja"))
RU_FORMS = {"one": "%(count)s товар", "few": "%(count)s товара", "many": "%(count)s товаров", "other": "%(count)s шт."}


def po(locale: str) -> bytes:
    return (PROJECTS / "po" / "locale" / locale / "LC_MESSAGES" / "messages.po").read_bytes()


def test_what_a_caller_may_give() -> None:
    assert candidate_problem("text") is None
    assert candidate_problem({"one": "a", "other": "b"}) is None
    problem = "a message is a string, or an object of strings by plural category ({\"one\": ..., \"other\": ...})"
    assert [candidate_problem(v) for v in ({}, {"one": 1}, ["a"], None, 3)] == [problem] * 5


# --- i18next ---------------------------------------------------------------------------------------------


def test_i18next_plural_forms_are_keys_of_their_own() -> None:
    fmt = formats.get("i18next")
    document = fmt.edit(b'{"items_one": "{{count}} item", "items_zero": "none", "title": "T"}', RU)
    source = {"one": "{{count}} item", "other": "{{count}} items"}
    value = {"other": "o", "few": "f", "one": "1", "ordinal_two": "2nd"}
    assert document_writes(fmt, document, "items", value, RU, source=source) == [
        ("items_one", "1"), ("items_few", "f"), ("items_other", "o"), ("items_ordinal_two", "2nd")]
    # with no source, the file says it is a plural group; forms not given (items_zero) are left alone
    assert document_writes(fmt, document, "items", {"one": "a"}, RU, source=None) == [("items_one", "a")]
    with pytest.raises(ValueError, match=r"^is a plural group \(items_one, items_other, \.\.\.\)"):
        document_writes(fmt, document, "items", "text", RU, source=None)
    with pytest.raises(ValueError, match="^is a single message, not a plural group"):
        document_writes(fmt, document, "title", {"one": "a"}, RU, source="Title")
    assert document_writes(fmt, document, "title", "Заголовок", RU, source="Title") == [("title", "Заголовок")]


def test_i18next_keys_of_a_message() -> None:
    fmt = formats.get("i18next")
    document = fmt.edit(b'{"a": {"items_one": "x", "items_other": "y"}, "b": "z"}', RU)
    assert has_key(fmt, document, "a.items") and has_key(fmt, document, "b") and not has_key(fmt, document, "a")
    assert fmt.message_keys(document, "a.items") == ["a.items_one", "a.items_other"]
    assert fmt.message_keys(document, "c") == []
    assert fmt.renamed_key("a.items_other", "a.items", "goods") == "goods_other"
    with pytest.raises(ValueError):
        fmt.renamed_key("a.itemsX", "a.items", "goods")


# --- formats holding forms by category ---------------------------------------------------------------------


@pytest.mark.parametrize(("format_name", "data", "key"), [
    ("android", b'<resources><plurals name="k"><item quantity="one">%d x</item>'
                b'<item quantity="other">%d xs</item></plurals></resources>', "k"),
    ("yaml", b"ru:\n  k:\n    one: '%{count} x'\n    other: '%{count} xs'\n", "k"),
    ("xcstrings", b'{"sourceLanguage": "en", "strings": {"k": {"localizations": {"ru": {"variations": {"plural": '
                  b'{"one": {"stringUnit": {"state": "translated", "value": "%lld x"}}, "other": {"stringUnit": '
                  b'{"state": "translated", "value": "%lld xs"}}}}}}}}, "version": "1.0"}', "k"),
])
def test_forms_by_category_are_merged_over_the_entrys(format_name: str, data: bytes, key: str) -> None:
    fmt = formats.get(format_name)
    document = fmt.edit(data, RU)
    current = document.get(key)
    assert isinstance(current, dict) and set(current) == {"one", "other"}
    ((doc_key, value),) = document_writes(fmt, document, key, {"few": "f", "many": "m"}, RU, source=None)
    assert doc_key == key and value == {**current, "few": "f", "many": "m"}
    assert write_into(document, [(doc_key, value)]) is True
    assert document.get(key) == value
    assert write_into(document, [(doc_key, value)]) is False  # the same again changes nothing
    with pytest.raises(ValueError, match="^'single' is not a plural category"):
        document_writes(fmt, document, key, {"single": "s"}, RU, source=None)
    with pytest.raises(ValueError, match="^is a plural message"):
        document_writes(fmt, document, key, "text", RU, source=None)


def test_a_stringsdict_entry_with_text_around_its_variable_takes_the_formats_own_shape() -> None:
    fmt = formats.get("stringsdict")
    data = (PROJECTS / "stringsdict" / "en.lproj" / "Localizable.stringsdict").read_bytes()
    document = fmt.edit(data, EN)
    source = document.get("folder.summary")
    assert isinstance(source, dict) and source["NSStringLocalizedFormatKey"] == "%@ holds %#@files@"
    value = {"NSStringLocalizedFormatKey": "%@: %#@files@", "files.other": "%lld files"}
    assert document_writes(fmt, document, "folder.summary", value, EN, source=source) == [
        ("folder.summary", {**source, **value})]
    with pytest.raises(ValueError, match="^'folders.one' is not a part of this .stringsdict entry"):
        document_writes(fmt, document, "folder.summary", {"folders.one": "x"}, EN, source=source)


@pytest.mark.parametrize("format_name", ["icu-json", "arb", "properties", "apple-strings", "xliff"])
def test_formats_without_forms_of_their_own_take_strings(format_name: str) -> None:
    fmt = formats.get(format_name)
    data = {"icu-json": b'{"k": "x"}', "arb": b'{"k": "x"}', "properties": b"k=x\n", "apple-strings": b'"k" = "x";\n',
            "xliff": b'<xliff version="1.2"><file source-language="en" target-language="ru"><body><trans-unit id="k">'
                     b"<source>x</source><target>y</target></trans-unit></body></file></xliff>"}[format_name]
    document = fmt.edit(data, RU)
    with pytest.raises(ValueError, match=f"^{format_name} messages hold no plural forms of their own"):
        document_writes(fmt, document, "k", {"one": "a", "other": "b"}, RU, source=None)
    assert document_writes(fmt, document, "k", "new", RU, source="x") == [("k", "new")]


# --- gettext -----------------------------------------------------------------------------------------------


def test_po_forms_by_category_go_to_the_index_the_files_plural_forms_gives() -> None:
    fmt = formats.get("po")
    document = fmt.edit(po("ru"), RU)
    assert document_writes(fmt, document, "%(count)s item", RU_FORMS, RU, source=None) == [
        ("%(count)s item", {"0": "%(count)s товар", "1": "%(count)s товара", "2": "%(count)s товаров"})]
    # by index too, as the file numbers them
    assert document_writes(fmt, document, "%(count)s item", {"0": "a", "1": "b", "2": "c"}, RU, source=None) == [
        ("%(count)s item", {"0": "a", "1": "b", "2": "c"})]
    with pytest.raises(ValueError, match="^lacks the plural category few that ru needs$"):
        document_writes(fmt, document, "%(count)s item", {"one": "a", "many": "c", "other": "d"}, RU, source=None)


def test_po_welsh_forms_cover_every_msgstr_the_file_has() -> None:
    fmt = formats.get("po")
    document = fmt.edit(po("cy"), CY)
    forms = {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}
    # msgstr[2] is what most counts print (`other`); msgstr[3], for 8 and 11, is `other` to CLDR too
    assert document_writes(fmt, document, "%(count)s item", forms, CY, source=None) == [
        ("%(count)s item", {"0": "o", "1": "t", "2": "x", "3": "x"})]
    with pytest.raises(ValueError, match="^lacks the plural category two that cy needs$"):
        document_writes(fmt, document, "%(count)s item", {k: v for k, v in forms.items() if k != "two"}, CY,
                        source=None)


def test_po_forms_not_given_keep_the_entrys_own() -> None:
    fmt = formats.get("po")
    data = po("ru").replace(b'msgid_plural "%(count)s items"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""',
                            'msgid_plural "%(count)s items"\nmsgstr[0] "а"\nmsgstr[1] "б"\nmsgstr[2] "в"'.encode())
    document = fmt.edit(data, RU)
    assert document_writes(fmt, document, "%(count)s item", {"few": "Б"}, RU, source=None) == [
        ("%(count)s item", {"0": "а", "1": "Б", "2": "в"})]


def test_writing_a_po_entry_makes_it_served() -> None:
    fmt = formats.get("po")
    document = fmt.edit(po("ru"), RU)
    key = "Total: %(amount)s"
    assert document.is_fuzzy(key)  # type: ignore[attr-defined]
    assert write_into(document, [(key, "Итого: %(amount)s")]) is True
    after = document.to_bytes()
    assert b"#, python-format\nmsgid \"Total: %(amount)s\"\nmsgstr \"\xd0\x98\xd1\x82\xd0\xbe\xd0\xb3\xd0\xbe: " in after
    assert b"#| msgid" not in after
    assert fmt.read(after, RU).text(key) == "Итого: %(amount)s"


def test_the_msgid_is_the_source_of_an_untranslated_gettext_entry() -> None:
    fmt = formats.get("po")
    found = fmt.source_messages(po("en"), EN, ["Hello, %(name)s!", "%(count)s item", "absent"])
    assert set(found) == {"Hello, %(name)s!", "%(count)s item"}
    text, compiled = found["Hello, %(name)s!"]
    assert text == "Hello, %(name)s!" and compiled.arguments == frozenset({"name"})
    text, compiled = found["%(count)s item"]
    assert text == {"0": "%(count)s item", "1": "%(count)s items"}
    assert compiled.arguments == frozenset({"count"})
    assert [compiled.render({"count": n}, 50) for n in (1, 2)] == ["1 item", "2 items"]


# --- XLIFF and Android ---------------------------------------------------------------------------------------


def test_an_xliff_target_not_served_for_its_state_becomes_translated() -> None:
    fmt = formats.get("xliff")
    data = (PROJECTS / "xliff" / "translations" / "ru.xlf").read_bytes()
    document = fmt.edit(data, RU)
    assert document.get("cart.greeting") == "" and has_key(fmt, document, "cart.greeting")  # empty, state new
    assert not has_key(fmt, document, "profile.welcome")  # a unit without a target: add gives it one
    assert write_into(document, [("cart.greeting", "Привет!"), ("profile.welcome", "С возвращением!")]) is True
    after = fmt.read(document.to_bytes(), RU)
    assert after.text("cart.greeting") == "Привет!" and after.text("profile.welcome") == "С возвращением!"
    assert b'<target state="translated">\xd0\x9f' in document.to_bytes()


def test_android_arrays_are_one_message() -> None:
    fmt = formats.get("android")
    document = fmt.edit(b"<resources>\n<string-array name=\"days\">\n<item>Mo</item>\n<item>Tu</item>\n"
                        b"</string-array>\n</resources>\n", EN)
    assert has_key(fmt, document, "days") and fmt.message_keys(document, "days") == ["days[0]", "days[1]"]
    assert fmt.renamed_key("days[1]", "days", "weekdays") == "weekdays[1]"


def test_deleting_through_write_into() -> None:
    fmt = formats.get("i18next")
    document = fmt.edit(b'{"a": "x", "b": "y"}\n', EN)
    assert write_into(document, [("a", None), ("zz", None)]) is True
    assert document.to_bytes() == b'{"b": "y"}\n'
    assert write_into(document, [("a", None)]) is False


def test_a_lone_surrogate_is_refused_before_it_reaches_a_file() -> None:
    """JSON lets "\\ud800" through, from a client or a model's answer; no file encoding can hold it."""
    from parlance_i18n.loop.forms import candidate_problem

    assert "surrogate" in (candidate_problem("Hallo \ud800") or "")
    assert "surrogate" in (candidate_problem({"one": "ok", "other": "\udfff"}) or "")
    assert candidate_problem("Hallo \U0001F600") is None
