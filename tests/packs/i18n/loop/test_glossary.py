"""`loop.glossary`: whole-word, Unicode-aware matching (case, overlapping terms, scripts without spaces,
do-not-translate terms), the reasons a translation breaks the glossary, and loading: TOML and CSV,
language packs along the locale's chain, config files winning over packs, broken files.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from parlance import LanguagePack, LanguagePacks

from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.glossary import Glossary, GlossaryError, StyleNotes, Term, load_glossary

SHIPPED = Path(__file__).resolve().parents[4] / "language_packs" / "src" / "parlance_language_packs"
DE, DE_AT = parse_locale("de"), parse_locale("de-AT")

SHOP = Glossary([
    Term("cart", "Warenkorb"),
    Term("shopping cart", "Einkaufswagen"),
    Term("Parlance", None, case_sensitive=True, note="product name"),
    Term("Apple", None, case_sensitive=True),
    Term("apple", "Apfel"),
    Term("promo code", "Gutscheincode"),
    Term("カート", "cart"),
    Term("Wi-Fi", None),
    Term("off", "aus"),
])


def sources(text: str, glossary: Glossary = SHOP) -> list[str]:
    return [term.source for term in glossary.terms_in(text)]


@pytest.mark.parametrize(("text", "found"), [
    ("Your cart is empty", ["cart"]),
    ("Your CART is empty", ["cart"]),  # case-blind unless the term says otherwise
    ("Cart-wide discounts", ["cart"]),
    ("Replace the cartridge", []),
    ("Two carts", []),  # whole words: list inflected forms as terms of their own
    ("Your shopping cart", ["shopping cart"]),  # the longer term wins where they overlap
    ("Your shopping cart, and a cart", ["shopping cart", "cart"]),
    ("Enter a promo\n  code", ["promo code"]),  # any white space between a term's words
    ("Parlance for teams", ["Parlance"]),
    ("parlance is a noun", []),  # case-sensitive
    ("Apple sells apple pie", ["Apple", "apple"]),
    ("カートに追加", ["カート"]),  # no word boundaries in Japanese
    ("Wi-Fiに接続", ["Wi-Fi"]),  # a Latin term ends where kana begin
    ("Ein Angebot für Café-Besucher", []),
    ("Turn it off", ["off"]),
    ("Turn it offline", []),
    ("", []),
])
def test_terms_are_found_by_whole_word(text: str, found: list[str]) -> None:
    assert sources(text) == found


def test_each_term_is_listed_once_in_order_of_first_use() -> None:
    assert sources("A cart, Parlance, another cart and Parlance") == ["cart", "Parlance"]


def test_a_translation_that_misses_a_required_term_is_told_why() -> None:
    source = "Parlance: your cart, turned off"
    assert SHOP.missing_in(source, "Parlance: Ihr Warenkorb, ausgeschaltet") == [
        "does not use the required translation 'aus' of 'off'"]  # three letters: a whole word is needed
    assert SHOP.missing_in(source, "parlance: Ihr Korb, aus") == [
        "does not keep the do-not-translate term 'Parlance' as it is written",
        "does not use the required translation 'Warenkorb' of 'cart'"]
    # four letters and more may be inside a word: German inflects and compounds
    assert SHOP.missing_in("Your cart", "Inhalt Ihres Warenkorbs") == []
    assert SHOP.missing_in("Your cart", "Ihre WARENKORBSUMME") == []
    assert SHOP.missing_in("カートに追加", "Add to cart") == []
    assert SHOP.missing_in("Connect to Wi-Fi", "Mit WLAN verbinden") == [
        "does not keep the do-not-translate term 'Wi-Fi' as it is written"]
    assert SHOP.missing_in("Nothing to see", "Nichts zu sehen") == []


def test_a_case_sensitive_required_translation_must_match_its_case() -> None:
    glossary = Glossary([Term("sign in", "Anmelden", case_sensitive=True)])
    assert glossary.terms_in("Sign in") == []
    assert glossary.missing_in("Please sign in", "Bitte anmelden") == [
        "does not use the required translation 'Anmelden' of 'sign in'"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pack(root: Path, name: str, languages: list[str], files: dict[str, str]) -> LanguagePack:
    for relative, text in files.items():
        write(root / name / relative, text)
    return LanguagePack(name=name, path=root / name, languages=languages)


@pytest.fixture
def packs(tmp_path: Path) -> LanguagePacks:
    german = pack(tmp_path, "de", ["de"], {
        "glossary/de.toml": '[[term]]\nsource = "cart"\ntarget = "Warenkorb"\n\n'
                            '[[term]]\nsource = "checkout"\ntarget = "Kasse"\n\n'
                            '[[term]]\nsource = "PayPal"\ndnt = true\ncase_sensitive = true\n',
        "notes/de.toml": 'formality = "Sie"\nquotes = "„…“"\nnotes = ["Buttons are infinitives."]\n',
    })
    austrian = pack(tmp_path, "de-AT", ["de-AT"], {
        "glossary/de-AT.csv": "source,target,dnt,case_sensitive,note\n"
                              "checkout,Kassa,,,Austrian usage\n"
                              '"January, short",Jän.,false,true,"month, abbreviated"\n',
        "notes/de-AT.toml": 'units = "€ after the amount"\nnotes = ["Jänner, not Januar."]\n',
    })
    return LanguagePacks("i18n", [german, austrian])


def test_packs_along_the_chain_merge_with_the_most_specific_winning(packs: LanguagePacks) -> None:
    glossary, notes = load_glossary(DE_AT, packs, [])
    assert sorted(glossary.terms, key=lambda t: t.source) == [
        Term("January, short", "Jän.", case_sensitive=True, note="month, abbreviated"),
        Term("PayPal", None, case_sensitive=True),
        Term("cart", "Warenkorb"),
        Term("checkout", "Kassa", note="Austrian usage"),
    ]
    assert notes == StyleNotes(formality="Sie", quotes="„…“", units="€ after the amount",
                               notes=("Jänner, not Januar.", "Buttons are infinitives."))
    german, _ = load_glossary(DE, packs, [])
    assert [t.target for t in german.terms_in("Go to checkout")] == ["Kasse"]  # de-AT's file does not serve de


def test_config_files_win_over_packs(packs: LanguagePacks, tmp_path: Path) -> None:
    mine = write(tmp_path / "config" / "glossary-de.toml",
                 'language = "de"\n\n[[term]]\nsource = "Cart"\ntarget = "Einkaufskorb"\n\n'
                 '[style]\nformality = "du"\n')
    french = write(tmp_path / "config" / "fr.csv", "source,target\ncart,panier\n")
    folder = write(tmp_path / "shared" / "glossary" / "de.csv", "source,target\nwishlist,Merkliste\n").parent.parent
    write(folder / "notes" / "de.toml", 'quotes = "»…«"\n')
    glossary, notes = load_glossary(DE_AT, packs, [mine, french, folder])
    assert {t.source: t.target for t in glossary.terms} == {
        "Cart": "Einkaufskorb", "wishlist": "Merkliste", "checkout": "Kassa", "January, short": "Jän.", "PayPal": None}
    assert (notes.formality, notes.quotes, notes.units) == ("du", "»…«", "€ after the amount")


def test_without_packs_or_files_the_glossary_is_empty() -> None:
    glossary, notes = load_glossary(DE, None, [])
    assert (len(glossary), bool(glossary), notes, bool(notes)) == (0, False, StyleNotes(None, None, None, ()), False)
    assert glossary.terms_in("Your cart") == [] and glossary.missing_in("Your cart", "x") == []


@pytest.mark.parametrize(("name", "text", "reason"), [
    ("de.toml", '[[term]]\nsource = "cart"\n',
     "de.toml: term 1 ('cart') has no target: give its required translation, or dnt = true to keep it as it is"),
    ("de.toml", '[[term]]\ntarget = "Warenkorb"\n',
     "de.toml: term 1 has no source: write the term as the source text uses it"),
    ("de.toml", '[[term]]\nsource = "cart"\ntarget = "Warenkorb"\ncase = true\n',
     "de.toml: term 1: unknown field 'case'; a term has source, target, dnt, case_sensitive and note"),
    ("de.toml", '[[term]]\nsource = "PayPal"\ntarget = "Paypal"\ndnt = true\n',
     "de.toml: term 1 ('PayPal') is do-not-translate and also has a target: keep one"),
    ("de.toml", "[[term]\n", "de.toml is not valid TOML: "),
    ("de.toml", 'terms = []\n', "de.toml: unknown top-level key 'terms'; a glossary has [[term]] entries, "
                                "an optional language and an optional [style] table"),
    ("de.csv", "term,translation\ncart,Warenkorb\n",
     "de.csv: the first row must name the columns: source,target,dnt,case_sensitive,note"),
    ("de.csv", "source,target,dnt\ncart,Warenkorb,maybe\n", "de.csv: line 2: dnt is 'maybe'; write true or false"),
    ("de.csv", "source,target\ncart,Warenkorb,extra\n",
     "de.csv: line 2 has more cells than the header names; quote a cell that holds a comma"),
    ("glossary.toml", '[[term]]\nsource = "cart"\ntarget = "Warenkorb"\n',
     "glossary.toml: cannot tell which language this glossary is for: name the file by its language (de.toml, "
     "pt-BR.csv) or write language = \"de\" at its top"),
    ("de.txt", "cart = Warenkorb\n", "de.txt: a glossary is a .toml or .csv file"),
])
def test_a_broken_config_glossary_is_an_error_that_names_the_fix(tmp_path: Path, name: str, text: str,
                                                                 reason: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(GlossaryError) as raised:
        load_glossary(DE, None, [path])
    assert raised.value.message.startswith(reason)
    assert raised.value.code == "INVALID_GLOSSARY"


def test_a_missing_config_glossary_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError, match="named in \\[packs.i18n\\] glossaries does not exist"):
        load_glossary(DE, None, [tmp_path / "de.toml"])


def test_a_broken_pack_glossary_is_skipped_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    broken = pack(tmp_path, "de", ["de"], {"glossary/de.toml": '[[term]]\nsource = "cart"\n',
                                           "notes/de.toml": 'formality = "Sie"\n'})
    with caplog.at_level(logging.WARNING, logger="parlance_i18n.loop.glossary"):
        glossary, notes = load_glossary(DE, LanguagePacks("i18n", [broken]), [])
    assert (len(glossary), notes.formality) == (0, "Sie")
    assert [record.getMessage() for record in caplog.records] == ["i18n.glossary_skipped"]
    assert caplog.records[0].language_pack == "de"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("folder", "language", "source", "target"), [
    ("de", "de", "cart", "Warenkorb"),
    ("ja", "ja", "cart", "カート"),
    ("en_IE", "en-IE", "cart", "basket"),
])
def test_the_shipped_language_packs_carry_a_glossary_and_style_notes(folder: str, language: str, source: str,
                                                                     target: str) -> None:
    packs = LanguagePacks("i18n", [LanguagePack(name=language, path=SHIPPED / folder, languages=[language])])
    glossary, notes = load_glossary(parse_locale(language), packs, [])
    assert [t.target for t in glossary.terms_in(f"Your {source}")] == [target]
    assert [t.target for t in glossary.terms_in("Parlance")] == [None]
    assert notes.formality and notes.quotes and notes.units and notes.notes


def test_a_large_glossary_finds_only_the_terms_used() -> None:
    glossary = Glossary([Term(f"term{n:05d}", f"Begriff{n:05d}") for n in range(20_000)] + [Term("cart", "Warenkorb")])
    assert sources("Your cart holds term00042 and term19999, not term42", glossary) == ["cart", "term00042",
                                                                                        "term19999"]
    assert glossary.missing_in("term00042", "Begriff00042") == []
