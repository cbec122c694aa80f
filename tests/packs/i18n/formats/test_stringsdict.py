""".stringsdict: plural entries chosen as Foundation chooses (zero first, then CLDR), formatted as
String(format:) numbers its arguments, and edited one form at a time in the file's own layout."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem, ReadLimits
from parlance_i18n.formats.apple.stringsdict import StringsdictDocument, StringsdictFormat, StringsdictMessages
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "stringsdict"
STRINGSDICT = StringsdictFormat()

XCODE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>files_selected</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@files@</string>
		<key>files</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
			<key>one</key>
			<string>%d file selected</string>
			<key>other</key>
			<string>%d files selected</string>
		</dict>
	</dict>
</dict>
</plist>
"""


def _read(relative: str, locale: str) -> StringsdictMessages:
    return STRINGSDICT.read((CATALOGS / relative).read_bytes(), parse_locale(locale))


def _edit(text: str) -> StringsdictDocument:
    return STRINGSDICT.edit(text.encode(), parse_locale("en"))


def test_registry() -> None:
    assert formats.get("stringsdict").__class__ is StringsdictFormat
    assert formats.detect("en.lproj/Localizable.stringsdict").__class__ is StringsdictFormat
    assert STRINGSDICT.parse_spelling("pt-BR.lproj") == parse_locale("pt-BR")
    assert STRINGSDICT.parse_spelling("Base.lproj") is None
    assert STRINGSDICT.locale_spelling(parse_locale("zh-Hans")) == "zh-Hans"


def test_entries_problems_and_comments() -> None:
    messages = _read("en/en.lproj/Localizable.stringsdict", "en")
    assert list(messages) == ["photos_uploaded", "items_in_cart"]
    assert messages.problems == [
        Problem("broken_no_other", 29, "'broken_no_other' cannot be used: its variable 'files' has no 'other' "
                                       "form, which Foundation needs; add one"),
        Problem("broken_specifier", 39, "'broken_specifier' cannot be used: invalid format specifier '%' at "
                                        "position 16: a '%' must start a conversion such as %@ or %1$d; write %% "
                                        "for a percent sign"),
        Problem("items_in_cart", 50, "'items_in_cart' is defined again (first on line 18); the first one is used"),
    ]
    assert messages.comment("photos_uploaded") == "Shown after an upload finishes"
    assert messages.comment("items_in_cart") is None
    assert messages.text("photos_uploaded") == {"zero": "No photos uploaded", "one": "One photo uploaded",
                                                "other": "%d photos uploaded"}
    assert messages.text("items_in_cart") == {"one": "%lld item & free shipping",
                                              "other": "%lld items & free shipping"}


@pytest.mark.parametrize(("locale", "relative", "key", "counts"), [
    ("en", "en/en.lproj/Localizable.stringsdict", "photos_uploaded",
     {0: "No photos uploaded", 1: "One photo uploaded", 2: "2 photos uploaded", 21: "21 photos uploaded",
      1.5: "1.5 photos uploaded"}),
    ("en", "en/en.lproj/Localizable.stringsdict", "items_in_cart",
     {0: "0 items & free shipping", 1: "1 item & free shipping", 101: "101 items & free shipping"}),
    ("fr", "fr/fr.lproj/Localizable.stringsdict", "photos_uploaded",
     {0: "0 photo envoyée", 1: "1 photo envoyée", 2: "2 photos envoyées", 1000000: "1000000 de photos envoyées"}),
    ("ja", "ja/ja.lproj/Localizable.stringsdict", "items_in_cart",
     {1: "カートに 1 個の商品", 5: "カートに 5 個の商品"}),
])
def test_forms_are_chosen_as_foundation_does(locale: str, relative: str, key: str, counts: dict[object, str]) -> None:
    message = _read(relative, locale).get(key)
    assert {count: message.render({"count": count}, 100) for count in counts} == counts


def test_positions_and_several_variables() -> None:
    messages = _read("de/de.lproj/Localizable.stringsdict", "de")
    assert messages.text("files_in_folders") == {
        "NSStringLocalizedFormatKey": "%#@files@ in %#@folders@", "files.one": "%d Datei",
        "files.other": "%d Dateien", "folders.one": "%d Ordner", "folders.other": "%d Ordnern"}
    several = messages.get("files_in_folders")
    assert several.render({"1": 1, "2": 3}, 100) == "1 Datei in 3 Ordnern"  # by position
    assert several.render({"files": 2, "folders": 1}, 100) == "2 Dateien in 1 Ordner"  # by variable name
    assert [(use.argument, use.keywords) for use in several.plurals] == [
        ("files", frozenset({"one", "other"})), ("folders", frozenset({"one", "other"}))]
    assert several.arguments == frozenset({"1", "2", "count"})
    around = messages.get("selected_by")
    assert around.source == "%@ hat %d Fotos ausgewählt"
    assert around.render({"1": "Anna", "count": 1}, 100) == "Anna hat ein Foto ausgewählt"
    assert around.render({"1": "Anna", "2": 4}, 100) == "Anna hat 4 Fotos ausgewählt"
    assert around.render({}, 100) == "%1$@ hat %2$d Fotos ausgewählt"
    assert around.render({"1": "Anna", "count": 4}, 8) == "Anna hat"
    assert [(use.argument, use.keywords) for use in around.plurals] == [("count", frozenset({"one", "other"}))]


def test_setting_forms_changes_only_their_strings_in_xcode_layout() -> None:
    document = _edit(XCODE)
    assert document.keys() == ["files_selected"] and document.line_of("files_selected") == 15
    document.set("files_selected", {"one": "%d file chosen", "other": "%d files chosen"})
    written = document.to_bytes().decode()
    diff = [line for line in difflib.unified_diff(XCODE.splitlines(), written.splitlines(), n=0, lineterm="")
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert diff == ["-\t\t\t<string>%d file selected</string>", "+\t\t\t<string>%d file chosen</string>",
                    "-\t\t\t<string>%d files selected</string>", "+\t\t\t<string>%d files chosen</string>"]


def test_forms_come_and_go_in_cldr_order() -> None:
    document = _edit(XCODE)
    document.set("files_selected", {"zero": "No files & more", "other": "%d files selected"})
    assert document.to_bytes().decode() == XCODE.replace(
        "\t\t\t<key>one</key>\n\t\t\t<string>%d file selected</string>\n",
        "\t\t\t<key>zero</key>\n\t\t\t<string>No files &amp; more</string>\n")
    assert document.get("files_selected") == {"zero": "No files & more", "other": "%d files selected"}
    with pytest.raises(ValueError, match="'several' is not a plural category"):
        document.set("files_selected", {"several": "x"})
    with pytest.raises(ValueError, match="give its forms as a dict"):
        document.set("files_selected", "text")


def test_add_and_delete() -> None:
    document = _edit(XCODE)
    document.add("photos", {"other": "%d photos", "one": "%d photo"})
    assert document.to_bytes().decode() == XCODE.replace("\t</dict>\n</dict>\n</plist>", """\t</dict>
\t<key>photos</key>
\t<dict>
\t\t<key>NSStringLocalizedFormatKey</key>
\t\t<string>%#@count@</string>
\t\t<key>count</key>
\t\t<dict>
\t\t\t<key>NSStringFormatSpecTypeKey</key>
\t\t\t<string>NSStringPluralRuleType</string>
\t\t\t<key>NSStringFormatValueTypeKey</key>
\t\t\t<string>d</string>
\t\t\t<key>one</key>
\t\t\t<string>%d photo</string>
\t\t\t<key>other</key>
\t\t\t<string>%d photos</string>
\t\t</dict>
\t</dict>
</dict>
</plist>""")
    with pytest.raises(KeyError, match="already in the file"):
        document.add("photos", {"other": "x"})
    document.delete("files_selected")
    assert document.keys() == ["photos"] and "files_selected" not in document.to_bytes().decode()


def test_several_variables_are_edited_through_their_dotted_keys() -> None:
    data = (CATALOGS / "de/de.lproj/Localizable.stringsdict").read_bytes()
    document = STRINGSDICT.edit(data, parse_locale("de"))
    value = document.get("files_in_folders")
    assert isinstance(value, dict)
    document.set("files_in_folders", {**value, "NSStringLocalizedFormatKey": "%#@folders@ mit %#@files@",
                                      "files.one": "einer Datei"})
    assert document.to_bytes() == data.replace(b"%#@files@ in %#@folders@", b"%#@folders@ mit %#@files@").replace(
        b"<string>%d Datei</string>", b"<string>einer Datei</string>")
    with pytest.raises(ValueError, match="has 2 variables"):
        document.set("files_in_folders", {"one": "x", "other": "y"})
    with pytest.raises(ValueError, match="'pages.one' names no variable"):
        document.set("files_in_folders", {**value, "pages.one": "x"})


@pytest.mark.parametrize(("data", "reason"), [
    (b"bplist00\x00", "binary property list; convert it to XML with `plutil -convert xml1 <file>`"),
    (b'<plist version="1.0"><array/></plist>', "not a property list with a top-level <dict>"),
    (b'<plist version="1.0"><dict><key>a</key><key>b</key><string/></dict></plist>',
     "the top-level dict cannot be read"),
])
def test_unreadable_files(data: bytes, reason: str) -> None:
    with pytest.raises(CatalogFileError) as caught:
        STRINGSDICT.read(data, parse_locale("en"))
    assert reason in caught.value.reason


def test_entries_of_another_shape_are_problems() -> None:
    data = b"""<plist version="1.0"><dict>
<key>width</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@w@</string>
<key>w</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringVariableWidthRuleType</string></dict></dict>
<key>plain</key><string>Not a plural</string>
<key>unknown</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@nope@</string></dict>
</dict></plist>"""
    messages = STRINGSDICT.read(data, parse_locale("en"))
    assert list(messages) == []
    assert [(problem.key, problem.line, problem.reason.split(": ", 1)[1]) for problem in messages.problems] == [
        ("width", 2, "its variable 'w' has the rule type 'NSStringVariableWidthRuleType'; only NSStringPluralRuleType "
                     "is supported"),
        ("plain", 4, "its value is a <string>, not a <dict>"),
        ("unknown", 5, "its format names the variable 'nope', which it does not define"),
    ]


# Entries of every shape a reader meets: each is read once from its text and once, with an empty
# comment inside its dict (no other markup may be read from the text), from its elements.
SHAPES = {
    "usual": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
             "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
             "<key>NSStringFormatValueTypeKey</key><string>d</string>"
             "<key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict>",
    "escaped": "<key>NSStringLocalizedFormatKey</key><string>&#37;#@n@ &amp; more</string><key>n</key>\r\n<dict>"
               "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
               "<key>other</key><string>%d &lt;b&gt;\r\nfiles</string><key>few</key><string>x</string></dict>",
    "two variables": "<key>NSStringLocalizedFormatKey</key><string>%#@a@ in %#@b@</string>"
                     "<key>b</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                     "<key>other</key><string>%d b</string></dict>"
                     "<key>a</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                     "<key>zero</key><string>none</string><key>other</key><string>%d a</string></dict>",
    "stray text": "text <key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>more"
                  "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                  "<key>other</key><string>%d</string></dict>",
    "format twice": "<key>NSStringLocalizedFormatKey</key><string>%#@x@</string><key>n</key><dict>"
                    "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                    "<key>other</key><string>%d</string></dict>"
                    "<key>NSStringLocalizedFormatKey</key><string>%#@n@!</string>",
    "variable twice": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                      "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                      "<key>other</key><string>first</string></dict><key>n</key><dict>"
                      "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                      "<key>one</key><string>one</string><key>other</key><string>second</string></dict>",
    "form twice": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                  "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                  "<key>other</key><string>a</string><key>other</key><string>b</string></dict>",
    "no rule": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
               "<key>other</key><string>%d</string></dict>",
    "no format": "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                 "<key>other</key><string>%d</string></dict>",
    "no other": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                "<key>one</key><string>%d</string></dict>",
    "bad specifier": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                     "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                     "<key>other</key><string>%d %k</string></dict>",
    "position 0": "<key>NSStringLocalizedFormatKey</key><string>%0$#@n@</string><key>n</key><dict>"
                  "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                  "<key>other</key><string>%d</string></dict>",
    "a key without value": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key>",
    "a string variable": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><string>x</string>",
    "a dict format": "<key>NSStringLocalizedFormatKey</key><dict></dict>",
    "nested dict": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                   "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                   "<key>x</key><dict></dict><key>other</key><string>%d</string></dict>",
    "empty strings": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict>"
                     "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                     "<key>one</key><string/><key>other</key><string></string></dict>",
    "attributes": "<key>NSStringLocalizedFormatKey</key><string a='1'>%#@n@</string><key>n</key><dict>"
                  "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                  "<key>other</key><string>%d</string></dict>",
    "cdata": "<key>NSStringLocalizedFormatKey</key><string><![CDATA[%#@n@ <b>]]></string><key>n</key><dict>"
             "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
             "<key>other</key><string>%d</string></dict>",
    "another element": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><date/><key>n</key><dict>"
                       "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                       "<key>other</key><string>%d</string></dict>",
    "a comment": "<key>NSStringLocalizedFormatKey</key><string>%#@n@</string><!-- <key>x</key> --><key>n</key>"
                 "<dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                 "<key>other</key><string>%d</string></dict>",
    "empty": "",
}


def _plist(entries: dict[str, str], inside: str = "") -> bytes:
    body = "".join(f"\n<key>{name}</key>\n<dict>{inside}{content}</dict>" for name, content in entries.items())
    return f'<?xml version="1.0"?>\n<plist version="1.0"><dict>{body}\n</dict></plist>\n'.encode()


def _seen(messages: StringsdictMessages) -> tuple[object, ...]:
    return dict(messages.texts), [(p.key, p.line, p.reason) for p in messages.problems]


def test_entries_read_from_their_text_are_read_as_from_their_elements() -> None:
    tag = parse_locale("ru")  # one, few, many, other: a missing form is a problem of its own
    from_text = STRINGSDICT.read(_plist(SHAPES), tag)
    from_elements = STRINGSDICT.read(_plist(SHAPES, inside="<!---->"), tag)
    assert _seen(from_text) == _seen(from_elements)
    assert set(from_text.texts) == {"usual", "escaped", "two variables", "stray text", "format twice",
                                    "variable twice", "nested dict", "empty strings", "attributes", "cdata",
                                    "a comment"}
    assert from_text.text("escaped") == {"NSStringLocalizedFormatKey": "%#@n@ & more", "n.other": "%d <b>\nfiles",
                                         "n.few": "x"}
    assert from_text.text("variable twice") == {"one": "one", "other": "second"}


def test_read_keys_reads_those_entries_as_read_does() -> None:
    tag = parse_locale("en")
    data = _plist(SHAPES).replace(b"</dict></plist>", b"<key>usual</key><dict></dict>\n</dict></plist>")
    whole = STRINGSDICT.read(data, tag)
    wanted = {"usual", "no other", "cdata", "absent"}
    some = STRINGSDICT.read_keys(data, tag, wanted)
    assert dict(some.texts) == {key: text for key, text in whole.texts.items() if key in wanted}
    assert some.problems == [problem for problem in whole.problems if problem.key in wanted]
    assert [problem.key for problem in some.problems] == ["no other", "usual"]  # defined twice
    with pytest.raises(CatalogFileError, match="more than 2 messages"):
        STRINGSDICT.read_keys(data, tag, {"usual"}, ReadLimits(max_messages=2))
