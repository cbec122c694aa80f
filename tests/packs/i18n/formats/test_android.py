"""Android string resources: read as aapt2 compiles them (escapes, quotes, whitespace, markup,
references, errors), rendered as getString/getQuantityString do, and edited byte-faithfully."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.android.aapt_text import android_escape, flatten
from parlance_i18n.formats.android.document import AndroidDocument
from parlance_i18n.formats.android.format import AndroidFormat, AndroidMessages
from parlance_i18n.locales import LocaleTag, parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "android"
ANDROID = AndroidFormat()


def _read(relative: str, locale: str) -> AndroidMessages:
    return ANDROID.read((CATALOGS / relative).read_bytes(), parse_locale(locale))


def _edit(text: str) -> tuple[AndroidDocument, Callable[[], str]]:
    document = ANDROID.edit(text.encode(), parse_locale("en"))
    return document, lambda: document.to_bytes().decode()


def test_registry_and_detection() -> None:
    assert formats.get("android").__class__ is AndroidFormat
    assert formats.detect("res/values-fr/strings.xml").__class__ is AndroidFormat
    assert ANDROID.sniff(b'<?xml version="1.0"?>\n<resources>') and not ANDROID.sniff(b"<xliff>")


def test_the_source_file_reads_every_entry_and_reports_the_broken_ones() -> None:
    messages = _read("en/res/values/strings.xml", "en")
    assert list(messages) == [
        "app_name", "cart_empty", "cart_summary", "cart_discount", "checkout_button", "terms_html",
        "welcome_back", "quote_hint", "multi_line", "dont_leave", "spaced", "at_sign", "unicode_escape",
        "entities", "wrapped", "empty_value", "raw_percent", "same_as_checkout", "device_name",
        "photos_uploaded", "sort_options[0]", "sort_options[1]", "sort_options[2]"]
    assert messages.problems == [
        Problem("broken_apostrophe", 34, "'broken_apostrophe' cannot be used: it has an unescaped apostrophe; "
                                         "write \\' or put the text in double quotes"),
        Problem("broken_percent", 35, "'broken_percent' cannot be used: invalid format specifier '%' at position "
                                      "14: a '%' must start a conversion such as %s or %1$d; write %% for a "
                                      "percent sign (or add formatted=\"false\" to the element)"),
        Problem("broken_positional", 36, "'broken_positional' cannot be used: it has several arguments, not all "
                                         "numbered (%1$s, %2$d); number them, or add formatted=\"false\""),
        Problem("cart_empty", 37, "'cart_empty' is defined again (first on line 10); the first one is used"),
        Problem(None, 38, "a <string> has no name attribute; name it"),
    ]
    assert messages.untranslatable_keys == frozenset({"app_name"})
    assert messages.comment("app_name") == "The app's name: never translated"
    assert messages.comment("cart_empty") == "Cart screen"  # aapt2: the last comment before, blank lines or not
    assert messages.comment("cart_summary") == "%1$d: number of items; %2$s: total price"
    assert messages.comment("cart_discount") is None
    assert messages.get("broken_apostrophe") is None and "broken_apostrophe" not in messages


@pytest.mark.parametrize(("key", "text"), [
    ("cart_summary", '<xliff:g id="count" example="3">%1$d</xliff:g> items, total '
                     '<xliff:g id="total" example="$12.50">%2$s</xliff:g>'),
    ("terms_html", 'By continuing you accept our <a href="https://example.com/terms">terms</a>.'),
    ("welcome_back", "Welcome back, <b>%1$s</b>!"),
    ("quote_hint", 'Say "hello" to your friends'),
    ("multi_line", "First line\nSecond line"),
    ("dont_leave", "Don't leave yet"),
    ("spaced", "  Keep   these   spaces  "),
    ("at_sign", "@username"),
    ("unicode_escape", "Café time"),
    ("entities", "Tom & Jerry <3"),
    ("wrapped", "A long sentence written over several lines."),
    ("empty_value", ""),
    ("raw_percent", "100% natural"),
    ("same_as_checkout", "@string/checkout_button"),
    ("device_name", "Your phone"),  # the product="tablet" variant is a build variant, not the string
    ("photos_uploaded", {"one": "%d photo uploaded", "other": "%d photos uploaded"}),
    ("sort_options[1]", "Price: low to high"),
])
def test_texts_are_what_aapt2_builds(key: str, text: object) -> None:
    assert _read("en/res/values/strings.xml", "en").text(key) == text


@pytest.mark.parametrize(("key", "values", "shown"), [
    ("cart_summary", {"1": 3, "2": "$12.50"}, "3 items, total $12.50"),  # xliff:g dropped, as getString does
    ("cart_summary", {"1": 3}, "3 items, total %2$s"),
    ("welcome_back", {"1": "Ana"}, "Welcome back, Ana!"),
    ("cart_discount", {}, "Save 10% today"),
    ("raw_percent", {"1": "x"}, "100% natural"),  # formatted="false": never a pattern
    ("same_as_checkout", {}, "Check out"),  # @string/ renders the string it names
    ("photos_uploaded", {"count": 1}, "1 photo uploaded"),
    ("photos_uploaded", {"count": 0}, "0 photos uploaded"),
    ("photos_uploaded", {"count": 2}, "2 photos uploaded"),
    ("photos_uploaded", {"count": 1.5}, "1.5 photos uploaded"),
    ("photos_uploaded", {"count": 1, "1": "one"}, "one photo uploaded"),  # argument 1 given apart from the count
    ("photos_uploaded", {}, "%d photos uploaded"),
])
def test_rendering_as_get_string(key: str, values: dict[str, object], shown: str) -> None:
    message = _read("en/res/values/strings.xml", "en").get(key)
    assert message.render(values, 200) == shown


def test_arguments_and_plurals_for_checks() -> None:
    messages = _read("ru/res/values-ru/strings.xml", "ru")
    plural = messages.get("photos_uploaded")
    assert plural.arguments == frozenset({"1", "count"})
    assert [(use.argument, use.ordinal, use.keywords) for use in plural.plurals] == [
        ("count", False, frozenset({"one", "few", "many", "other"}))]
    assert plural.source == "Загружено %d фотографии"
    assert _read("en/res/values/strings.xml", "en").get("cart_summary").arguments == frozenset({"1", "2"})
    assert _read("en/res/values/strings.xml", "en").get("welcome_back").source == "Welcome back, <b>%1$s</b>!"


@pytest.mark.parametrize(("count", "shown"), [
    (1, "Загружена 1 фотография"), (2, "Загружено 2 фотографии"), (5, "Загружено 5 фотографий"),
    (11, "Загружено 11 фотографий"), (21, "Загружена 21 фотография"), (22, "Загружено 22 фотографии"),
    (101, "Загружена 101 фотография"), (1.5, "Загружено 1.5 фотографии"),
])
def test_plural_items_follow_cldr(count: object, shown: str) -> None:
    assert _read("ru/res/values-ru/strings.xml", "ru").get("photos_uploaded").render({"count": count}, 100) == shown


def test_other_locales_files() -> None:
    ru = _read("ru/res/values-ru/strings.xml", "ru")
    assert ru.problems == [Problem("broken_quantity", 10, "'broken_quantity' cannot be used: an <item> has the "
                                                          "quantity 'single'; use zero, one, two, few, many or other")]
    assert ru.untranslatable_keys == frozenset({"units[0]", "units[1]"}) and ru.text("units[1]") == "м"
    ja = _read("ja/res/values-ja/strings.xml", "ja")
    assert ja.get("photos_uploaded").render({"count": 1}, 100) == "1 枚の写真をアップロードしました"
    assert ja.get("welcome_back").render({"1": "ユキ"}, 100) == "おかえりなさい、ユキさん"
    de = _read("de/res/values-de/strings.xml", "de")  # ISO-8859-1
    assert de.text("greeting") == "Grüß dich, %1$s!"
    assert de.get("cart_discount").render({}, 50) == "Heute 10\xa0% sparen"
    fr = _read("fr/res/values-fr/strings.xml", "fr")  # BOM, CRLF, tabs
    assert fr.text("checkout_button") == "Commander"  # <item type="string">
    assert fr.get("photos_uploaded").render({"count": 0}, 100) == "0 photo envoyée"  # French "one" is 0 and 1
    assert [problem.key for problem in fr.problems] == ["broken_apostrophe"]
    pt = _read("pt-BR/res/values-pt-rBR/strings.xml", "pt-BR")
    assert pt.text("dont_leave") == "Não vá embora, é só um minuto d'atenção"  # inside quotes: no escape needed
    assert _read("sr-Latn/res/values-b+sr+Latn/strings.xml", "sr-Latn").text("not_yet_translated") == ""


@pytest.mark.parametrize(("raw", "value", "plain"), [
    ("  Hello   world \n", "Hello world", "Hello world"),  # collapsed, then trimmed
    ('"  two  spaces "', "  two  spaces ", "  two  spaces "),
    ('a "b  c" d', "a b  c d", "a b  c d"),
    ("It\\'s \\\"x\\\" \\\\ \\@ \\? \\# \\z", "It's \"x\" \\ @ ? # z", "It's \"x\" \\ @ ? # z"),
    ("tab\\there\\nnew", "tab\there\nnew", "tab\there\nnew"),
    ("\\u00e9\\u20AC", "é€", "é€"),
    ("\\uD83D\\uDE00", "😀", "😀"),
    ("a<!-- c -->  b", "a b", "a b"),  # text runs on across a comment
    ("  <!-- c -->  x", "x", "x"),
    ("<b>Bold</b>  text ", "<b>Bold</b> text ", "Bold text "),  # styled: not trimmed
    (" <b> x </b> ", " <b> x </b> ", "  x  "),
    ("<xliff:g id=\"n\">%1$d</xliff:g>  left ", "<xliff:g id=\"n\">%1$d</xliff:g> left", "%1$d left"),
    ("<![CDATA[<b>x</b> it\\'s \"q\"]]>", "<b>x</b> it's q", "<b>x</b> it's q"),  # CDATA is text, quotes toggle
    ("&lt;b&gt;x&lt;/b>", "<b>x</b>", "<b>x</b>"),
    ("x\\", "x", "x"),
])
def test_aapt2_text_rules(raw: str, value: str, plain: str) -> None:
    assert flatten(raw) == (value, plain)


@pytest.mark.parametrize(("raw", "reason"), [
    ("You're", "unescaped apostrophe"),
    ("\\u12G4", "invalid \\u escape"),
    ("\\uD800 alone", "half of a surrogate pair"),
])
def test_aapt2_errors(raw: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason.replace("\\", "\\\\")):
        flatten(raw)
    flatten(raw, strict=False)  # a Document still reads it, leniently


@pytest.mark.parametrize("value", [
    "Zz \"quoted\" \\ it's & <more> é", "  leading", "trailing  ", "a  b   c", "@home", "?attr", "tab\tnew\nline",
    "<b>bold</b>  after", " <i> x </i> ", 'Tap <xliff:g id="n" example="3">%1$d</xliff:g>  left', "bell\x07",
    "<b>unclosed", "a ]]> b", "", " ", "\u00a0nbsp\u00a0",
])
@pytest.mark.parametrize("style", ["plain", "quoted", "cdata"])
def test_escaping_gives_back_the_value(value: str, style: str) -> None:
    raw = android_escape(value, style, frozenset({"xliff"}))
    assert flatten(raw)[0] == value


def test_escaping_style() -> None:
    assert android_escape("It's 50% \"off\"") == 'It\\\'s 50% \\"off\\"'
    assert android_escape("it's  ok", "quoted") == "\"it's  ok\""
    assert android_escape("<b>x</b> & y", "cdata") == "<![CDATA[<b>x</b> & y]]>"
    assert android_escape("a <xliff:g>b</xliff:g>") == "a &lt;xliff:g>b&lt;/xliff:g>"  # the prefix is not declared


FILE = """<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Greeting -->
    <string name="hello">Hello</string>

    <string name="quoted">"  spaced  "</string>
    <string name="html"><![CDATA[<b>Bold</b>]]></string>
    <string name="empty" />

    <!-- Section heading -->
    <string name="first">First</string>
    <string name="second">Second</string>
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <string-array name="sizes">
        <item>Small</item>
        <item>Large</item>
    </string-array>
</resources>
"""


def test_set_keeps_each_entrys_style_and_changes_only_its_text() -> None:
    document, text = _edit(FILE)
    document.set("hello", "Hi, it's me")
    document.set("quoted", "it's  here")
    document.set("html", "<i>Italic</i> & more")
    document.set("empty", "Now filled")
    document.set("sizes[1]", "Extra large")
    assert text() == FILE.replace(
        "<string name=\"hello\">Hello</string>", "<string name=\"hello\">Hi, it\\'s me</string>").replace(
        '"  spaced  "', "\"it's  here\"").replace(
        "<![CDATA[<b>Bold</b>]]>", "<![CDATA[<i>Italic</i> & more]]>").replace(
        '<string name="empty" />', '<string name="empty">Now filled</string>').replace(
        "<item>Large</item>", "<item>Extra large</item>")
    assert document.get("html") == "<i>Italic</i> & more"
    with pytest.raises(ValueError, match="give its text as a string"):
        document.set("hello", {"one": "x"})
    with pytest.raises(KeyError):
        document.set("missing", "x")


def test_plural_forms_are_set_added_in_cldr_order_and_removed() -> None:
    document, text = _edit(FILE)
    document.set("files", {"zero": "No files", "few": "%d files (few)", "other": "%d files"})
    assert text() == FILE.replace(
        '        <item quantity="one">%d file</item>\n',
        '        <item quantity="zero">No files</item>\n        <item quantity="few">%d files (few)</item>\n')
    with pytest.raises(ValueError, match="'several' is not a plural quantity"):
        document.set("files", {"several": "x"})


def test_add_goes_after_the_last_entry_in_the_files_style() -> None:
    document, text = _edit(FILE)
    document.add("farewell", "Bye  now")
    document.add("items", {"other": "%d items", "one": "%d item"})
    document.add("sizes[2]", "Huge")
    document.add("colors[0]", "Red")
    huge = "        <item>Large</item>\n        <item>Huge</item>\n"
    added = """</string-array>
    <string name="farewell">Bye \\u0020now</string>
    <plurals name="items">
        <item quantity="one">%d item</item>
        <item quantity="other">%d items</item>
    </plurals>
    <string-array name="colors">
        <item>Red</item>
    </string-array>
</resources>"""
    assert text() == FILE.replace("        <item>Large</item>\n", huge).replace("</string-array>\n</resources>", added)
    with pytest.raises(KeyError, match="already in the file"):
        document.add("hello", "x")
    with pytest.raises(KeyError, match=r"the next item of the string-array 'sizes' is sizes\[3\]"):
        document.add("sizes[5]", "x")


def test_delete_takes_a_comment_only_when_it_clearly_belongs() -> None:
    document, text = _edit(FILE)
    document.delete("hello")  # its comment sits on it and the next entry stands alone
    assert text() == FILE.replace("    <!-- Greeting -->\n    <string name=\"hello\">Hello</string>\n", "")
    document, text = _edit(FILE)
    document.delete("first")  # a heading over several entries stays
    assert text() == FILE.replace('    <string name="first">First</string>\n', "")
    document, text = _edit(FILE)
    document.delete("sizes[0]")
    assert text() == FILE.replace("        <item>Small</item>\n", "")
    assert document.get("sizes[0]") == "Large"  # the items after it move up
    document.delete("sizes[0]")  # the last item takes its array with it
    assert "string-array" not in text()
    with pytest.raises(KeyError):
        document.delete("sizes[0]")


def test_delete_removes_every_duplicate() -> None:
    document, text = _edit('<resources>\n  <string name="a">1</string>\n  <string name="b">2</string>\n'
                           '  <string name="a">3</string>\n</resources>')
    assert document.get("a") == "1"
    document.delete("a")
    assert text() == '<resources>\n  <string name="b">2</string>\n</resources>'


def test_crlf_bom_and_tabs_are_kept_by_edits() -> None:
    data = (CATALOGS / "fr/res/values-fr/strings.xml").read_bytes()
    document = ANDROID.edit(data, parse_locale("fr"))
    document.add("nouveau", "Nouveau")
    written = document.to_bytes()
    assert written.startswith(b"\xef\xbb\xbf")
    assert written == data.replace(b"\t</string-array>\r\n</resources>",
                                   b'\t</string-array>\r\n\t<string name="nouveau">Nouveau</string>\r\n</resources>')


def test_an_empty_resources_element_gets_its_first_entry() -> None:
    document, text = _edit("<resources/>\n")
    document.add("a", "A")
    assert text() == '<resources>\n    <string name="a">A</string>\n</resources>\n'


def test_not_a_values_file() -> None:
    with pytest.raises(CatalogFileError, match="the root element is <manifest>, not <resources>"):
        ANDROID.read(b"<manifest/>", parse_locale("en"))


@pytest.mark.parametrize(("tag", "spelling"), [
    ("pt-BR", "pt-rBR"), ("fr", "fr"), ("sr-Latn", "b+sr+Latn"), ("es-419", "b+es+419"), ("he", "iw"),
    ("id", "in"), ("yi", "ji"), ("zh-Hant-TW", "b+zh+Hant+TW"), ("fil", "fil"),
])
def test_locale_spelling(tag: str, spelling: str) -> None:
    assert ANDROID.locale_spelling(parse_locale(tag)) == spelling
    assert ANDROID.parse_spelling(spelling) == parse_locale(tag)
    assert ANDROID.parse_spelling("values-" + spelling) == parse_locale(tag)


@pytest.mark.parametrize(("folder", "tag"), [
    ("values", None), ("values-night", None), ("values-fr-land", None), ("values-car", None),
    ("values-v21", None), ("values-iw-rIL", LocaleTag("he", None, "IL")),
    ("values-b+sr+Latn+RS", LocaleTag("sr", "Latn", "RS")),
    ("values-b+in", LocaleTag("id")), ("values-PT-rbr", LocaleTag("pt", None, "BR")),
])
def test_folders_that_are_and_are_not_locales(folder: str, tag: LocaleTag | None) -> None:
    assert ANDROID.parse_spelling(folder) == tag


def test_references_resolve_in_the_same_file() -> None:
    data = b"""<resources>
<string name="a">@string/b</string>
<string name="b">@string/c</string>
<string name="c">It\\'s C</string>
<string name="lost">@string/gone</string>
<string name="via_lost">@string/lost</string>
<string name="nothing">@null</string>
<string name="framework">@android:string/ok</string>
</resources>"""
    messages = ANDROID.read(data, parse_locale("en"))
    assert list(messages) == ["a", "b", "c", "nothing"]
    assert messages.get("a").render({}, 50) == "It's C" and messages.text("a") == "@string/b"
    assert messages.text("nothing") == ""
    assert [(problem.key, problem.line) for problem in messages.problems] == [
        ("framework", 8), ("lost", 5), ("via_lost", 6)]
    assert messages.problems[0].reason == (
        "'framework' cannot be used: it is a reference ('@android:string/ok') to a resource this file does not "
        "hold; write \\@ or \\? to start a text with @ or ?")
