"""XLIFF 1.2 and 2.0: which text a locale gets, states, notes, inline codes, keys across several
<file>s, and edits that touch only a unit's target (or its state, when asked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.xliff.document import XliffDocument
from parlance_i18n.formats.xliff.format import XliffFormat, XliffMessages
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "xliff"
XLIFF = XliffFormat()


def _read(relative: str, locale: str) -> XliffMessages:
    return XLIFF.read((CATALOGS / relative).read_bytes(), parse_locale(locale))


def _edit(text: str, locale: str = "fr") -> XliffDocument:
    return XLIFF.edit(text.encode(), parse_locale(locale))


def test_registry_and_detection() -> None:
    assert formats.get("xlf").__class__ is XliffFormat
    assert formats.detect("locale/messages.fr.xlf").__class__ is XliffFormat
    assert formats.detect("fr.xliff").__class__ is XliffFormat


def test_xliff_1_2_targets_states_notes_and_inline_codes() -> None:
    messages = _read("fr/messages.fr.xlf", "fr")
    assert list(messages) == ["cart.empty", "welcome", "checkout.terms", "checkout.bold", "checkout.total",
                              "empty.target", "escapes"]
    assert messages.states == {
        "cart.empty": "translated", "welcome": "final", "checkout.terms": "translated", "checkout.bold": None,
        "checkout.total": "needs-review-translation", "not.yet": "needs-translation", "brand.new": "new",
        "untranslated": None, "empty.target": None, "escapes": "translated"}
    assert messages.problems == [Problem("cart.empty", 50, "the unit id 'cart.empty' is used again (first on line 5); "
                                                           "the first one is used")]
    assert messages.comment("cart.empty") == "Shown when the cart has no items\ncart"
    assert messages.text("welcome") == 'Bon retour, <x id="INTERPOLATION" equiv-text="{{ name }}"/> !'
    assert messages.text("escapes") == "Tom & Jerry <3 « guillemets » l'apostrophe"
    assert messages.text("not.yet") is None and messages.get("brand.new") is None  # not served
    rendered = {key: messages.get(key).render({"name": "x"}, 200) for key in messages}
    assert rendered == {
        "cart.empty": "Votre panier est vide",
        "welcome": "Bon retour, {{ name }} !",  # equiv-text
        "checkout.terms": 'Accepter les <g id="1" ctype="x-a">conditions générales</g>',  # as written
        "checkout.bold": "<b>Payer</b> maintenant",  # the native code a <bpt>/<ept> holds
        "checkout.total": "Total : {total}",
        "empty.target": "",
        "escapes": "Tom & Jerry <3 « guillemets » l'apostrophe",
    }
    assert messages.get("welcome").arguments == frozenset({"INTERPOLATION"})
    assert messages.get("checkout.bold").arguments == frozenset({"1"})
    assert messages.get("cart.empty").arguments == frozenset() and messages.get("cart.empty").plurals == ()
    assert messages.get("welcome").render({}, 5) == "Bon r"


def test_the_source_language_reads_the_sources() -> None:
    french = (CATALOGS / "fr/messages.fr.xlf").read_bytes()
    english = XLIFF.read(french, parse_locale("en"))
    assert english.text("untranslated") == "Save for later" and english.text("not.yet") == "Coming soon"
    assert english.get("welcome").render({}, 100) == "Welcome back, {{ name }}!"
    source_only = _read("en/messages.xlf", "en")
    assert list(source_only) == ["cart.empty", "welcome", "photos"]
    assert source_only.get("photos").arguments == frozenset({"INTERPOLATION"})
    # a region of the target language still gets the targets, the language alone matching
    assert XLIFF.read(french, parse_locale("fr-CA")).text("cart.empty") == "Votre panier est vide"
    assert _read("es/messages.es.xlf", "es").text("Checkout") == "Pagar"  # es-ES in the file, UTF-16


def test_xliff_2_segments_states_and_inline_codes() -> None:
    messages = _read("de/messages.de.xlf", "de")
    assert list(messages) == ["cart.empty", "welcome", "checkout.terms", "checkout.note"]
    assert messages.states == {"cart.empty": "translated", "welcome": "final", "checkout.terms": None,
                               "checkout.note": "reviewed", "not.yet": "initial", "untranslated": None}
    assert messages.comment("cart.empty") == "Shown when the cart has no items"
    assert messages.get("welcome").render({}, 100) == "Willkommen zurück, {{ name }}!"  # disp
    assert messages.get("checkout.terms").render({}, 100) == "Die <a>AGB</a> akzeptieren"  # dispStart, dispEnd
    assert messages.get("checkout.note").render({}, 100) == "Lieferung in 2-3 Tagen"  # <mrk> is transparent
    assert messages.get("welcome").arguments == frozenset({"0"})


def test_several_files_key_a_repeated_id_by_its_file() -> None:
    messages = _read("ja/ja.xliff", "ja")
    assert list(messages) == ["Shop/en.lproj/InfoPlist.strings/CFBundleName",
                              "Shop/en.lproj/Localizable.strings/CFBundleName", "%lld items in your cart",
                              "Multi line"]
    assert messages.text("Multi line") == "一行目\n二行目"
    assert messages.comment("%lld items in your cart") == "Cart badge; %lld is the number of items"


def test_multi_segment_units_read_whole_and_refuse_set() -> None:
    text = """<xliff version="2.0" srcLang="en" trgLang="fr"><file id="f">
<unit id="two"><segment><source>One.</source><target>Un.</target></segment><ignorable><source> </source></ignorable>
<segment state="initial"><source>Two.</source><target>Deux.</target></segment></unit>
<unit id="both"><segment><source>A.</source><target>A.</target></segment><ignorable><source> </source></ignorable>
<segment><source>B.</source><target>B.</target></segment></unit>
</file></xliff>"""
    messages = XLIFF.read(text.encode(), parse_locale("fr"))
    assert messages.states == {"two": "initial", "both": None}
    assert list(messages) == ["both"] and messages.text("both") == "A. B."
    with pytest.raises(ValueError, match="has 3 segments"):
        _edit(text).set("both", "Tout.")


UNITS_1_2 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="fr" datatype="plaintext" original="app">
    <body>
      <trans-unit id="a" datatype="html">
        <source>Hello</source>
        <target state="translated">Bonjour</target>
      </trans-unit>
      <trans-unit id="b" datatype="html">
        <source>Bye</source>
        <note>Leaving</note>
      </trans-unit>
    </body>
  </file>
</xliff>
"""


def test_set_changes_a_target_and_creates_a_missing_one_after_the_source() -> None:
    document = _edit(UNITS_1_2)
    assert document.keys() == ["a"] and document.get("b") is None and document.line_of("a") == 7
    document.set("a", "Salut & <b>bienvenue</b> <oops")
    document.set("b", "Au revoir")
    assert document.to_bytes().decode() == UNITS_1_2.replace(
        '<target state="translated">Bonjour</target>',
        '<target state="translated">Salut &amp; <b>bienvenue</b> &lt;oops</target>').replace(
        "        <source>Bye</source>\n", "        <source>Bye</source>\n        <target>Au revoir</target>\n")
    assert document.keys() == ["a", "b"] and document.state("a") == "translated"
    with pytest.raises(KeyError):
        document.set("missing", "x")


def test_set_state_and_delete() -> None:
    document = _edit(UNITS_1_2)
    document.set_state("a", "final")
    assert document.to_bytes().decode() == UNITS_1_2.replace('state="translated"', 'state="final"')
    with pytest.raises(ValueError, match="'done' is not an XLIFF 1 state"):
        document.set_state("a", "done")
    with pytest.raises(ValueError, match="has no target to give a state to"):
        document.set_state("b", "translated")
    document.set_state("a", "x-custom")
    document.delete("a")  # the translation goes, the unit stays
    assert document.to_bytes().decode() == UNITS_1_2.replace(
        '        <target state="translated">Bonjour</target>\n', "")
    with pytest.raises(KeyError):
        document.delete("a")
    source = _edit(UNITS_1_2, "en")
    source.delete("b")  # the source language's view: the unit goes
    assert source.to_bytes().decode() == UNITS_1_2.replace(
        '      <trans-unit id="b" datatype="html">\n        <source>Bye</source>\n        <note>Leaving</note>\n'
        "      </trans-unit>\n", "")


def test_add_gives_a_bare_unit_its_target_or_appends_a_unit_shaped_like_the_last() -> None:
    document = _edit(UNITS_1_2)
    document.add("b", "Au revoir")
    document.add("c", "Nouveau")
    assert document.to_bytes().decode() == UNITS_1_2.replace(
        "        <source>Bye</source>\n", "        <source>Bye</source>\n        <target>Au revoir</target>\n").replace(
        "      </trans-unit>\n    </body>",
        '      </trans-unit>\n      <trans-unit id="c" datatype="html">\n        <source>Nouveau</source>\n'
        "        <target>Nouveau</target>\n      </trans-unit>\n    </body>")
    with pytest.raises(KeyError, match="already in the file"):
        document.add("a", "x")


def test_xliff_2_edits() -> None:
    text = (CATALOGS / "de/messages.de.xlf").read_bytes()
    document = XLIFF.edit(text, parse_locale("de"))
    document.set("untranslated", "Für später")
    document.set_state("untranslated", "translated")
    document.add("neu", "Neu")
    assert document.to_bytes() == text.replace(
        b"            <segment>\r\n                <source>Save for later</source>\r\n",
        "            <segment state=\"translated\">\r\n                <source>Save for later</source>\r\n"
        "                <target>Für später</target>\r\n".encode()).replace(
        b"        </unit>\r\n    </file>",
        b'        </unit>\r\n        <unit id="neu">\r\n            <segment>\r\n'
        b"                <source>Neu</source>\r\n"
        b"                <target>Neu</target>\r\n            </segment>\r\n        </unit>\r\n    </file>")
    with pytest.raises(ValueError, match="'signed-off' is not an XLIFF 2 state"):
        document.set_state("neu", "signed-off")


def test_a_prefixed_key_adds_to_its_file() -> None:
    document = XLIFF.edit((CATALOGS / "ja/ja.xliff").read_bytes(), parse_locale("ja"))
    document.add("Shop/en.lproj/InfoPlist.strings/NSHumanReadableCopyright", "© ショップ")
    written = document.to_bytes().decode()
    assert ('\t\t\t</trans-unit>\n\t\t\t<trans-unit id="NSHumanReadableCopyright" xml:space="preserve">\n'
            "\t\t\t\t<source>© ショップ</source>\n\t\t\t\t<target>© ショップ</target>\n\t\t\t</trans-unit>\n"
            "\t\t</body>\n\t</file>\n\t<file original=\"Shop/en.lproj/Localizable.strings\"") in written
    assert document.get("NSHumanReadableCopyright") == "© ショップ"


def test_utf16_file_is_edited_in_utf16() -> None:
    data = (CATALOGS / "es/messages.es.xlf").read_bytes()
    document = XLIFF.edit(data, parse_locale("es"))
    document.set("Checkout", "Pagar ✓")
    assert document.to_bytes() == data.replace(">Pagar<".encode("utf-16-le"), ">Pagar ✓<".encode("utf-16-le"))


@pytest.mark.parametrize(("data", "reason"), [
    (b"<html/>", "the root element is <html>, not <xliff>"),
    (b'<xliff version="1.2"><file original="a"><body><trans-unit id="x"><source>a</target></trans-unit>'
     b"</body></file></xliff>", "not well-formed XML: mismatched tag"),
])
def test_unreadable_files(data: bytes, reason: str) -> None:
    with pytest.raises(CatalogFileError, match=reason):
        XLIFF.read(data, parse_locale("fr"))


def test_a_unit_without_id_is_a_problem() -> None:
    messages = XLIFF.read(b'<xliff version="1.2"><file original="a" target-language="fr"><body>\n'
                          b"<trans-unit><source>a</source><target>b</target></trans-unit></body></file></xliff>",
                          parse_locale("fr"))
    assert list(messages) == [] and messages.problems == [Problem(None, 2, "a <trans-unit> has no id; give it one")]
