"""The gettext PO format: reading (keys, problems, charsets, the fast path against the scanner),
rendering (python-format, c-format, Plural-Forms) and editing (exact bytes after each change).

The interop test (`test_gettext_po_interop.py`) compares rendering with GNU gettext itself; here
each rule is pinned down with exact outputs.
"""

from __future__ import annotations

import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.po.format import PoFormat, PoMessages, _read
from parlance_i18n.formats.po.document import PoDocument
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.icu.messageformat import PluralUse

from tests.support import require_tool

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "po"
FILES = sorted(p for p in CATALOGS.rglob("*.po*") if "unparseable" not in p.relative_to(CATALOGS).parts)
HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')
RU_FORMS = ('"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && '
            '(n%100<10 || n%100>=20) ? 1 : 2);\\n"\n')


def read(body: str, locale: str = "en", header: str = HEADER) -> PoMessages:
    return PoFormat().read((header + body).encode(), parse_locale(locale))


def catalog(path: str) -> PoMessages:
    file = CATALOGS / path
    return PoFormat().read(file.read_bytes(), parse_locale(Path(path).parts[0]))


def document(path: str) -> PoDocument:
    file = CATALOGS / path
    return PoFormat().edit(file.read_bytes(), parse_locale(Path(path).parts[0]))


def render(messages: PoMessages, key: str, limit: int = 1000, **values: object) -> str:
    return messages[key].render(values, limit)  # type: ignore[no-any-return]


# --- the format in the registry ----------------------------------------------------------------------


def test_po_and_pot_files_are_this_format() -> None:
    assert isinstance(formats.get("po"), PoFormat) and formats.get("pot") is formats.get("po")
    assert formats.detect("locale/fr/LC_MESSAGES/django.po") is formats.get("po")
    assert formats.detect("po/messages.pot") is formats.get("po")
    assert PoFormat.suffixes == (".po", ".pot")


@pytest.mark.parametrize(("tag", "spelling"), [
    ("pt-BR", "pt_BR"), ("de", "de"), ("sr-Latn", "sr@latin"), ("sr-Latn-RS", "sr_RS@latin"),
    ("zh-Hant-TW", "zh_Hant_TW"), ("ca-valencia", "ca@valencia"),
])
def test_locales_are_spelled_as_gettext_spells_them(tag: str, spelling: str) -> None:
    assert PoFormat().locale_spelling(parse_locale(tag)) == spelling
    assert PoFormat().parse_spelling(spelling) == parse_locale(tag)


def test_gettext_locale_names_with_codesets_and_modifiers() -> None:
    fmt = PoFormat()
    assert fmt.parse_spelling("de_DE.UTF-8") == parse_locale("de-DE")
    assert fmt.parse_spelling("de_DE@euro") == parse_locale("de-DE")
    assert fmt.parse_spelling("sr@cyrillic") == LocaleTag("sr", "Cyrl")
    assert fmt.parse_spelling("LC_MESSAGES") is None


# --- reading the test catalogs ---------------------------------------------------------------------


def test_django_catalog() -> None:
    messages = catalog("fr/LC_MESSAGES/django.po")
    assert list(messages) == [
        "Your cart is empty", "Welcome back, %(name)s!", "Total: %(amount).2f €",
        "The value ''%(value)s\" must be a date in YYYY-MM-DD format.", "“%(value)s” isn't a valid date.",
        "noun\x04Order", "verb\x04Order", "%(count)s photo uploaded", "Only %(count)d item left in stock",
        "%(percent)d%% off", "Add %s", "Page %s of %s",
        "Need help with an order? Write to us with your order number and we will answer within two working "
        "days.",
        "Use {braces} and 'quotes' as you like",
    ]
    assert messages.problems == []
    assert messages.fuzzy_keys == {"Delete %(name)s?"}
    assert messages.untranslated_keys == {"Newsletter"}
    assert "Old checkout" not in messages and "verb\x04Pay" not in messages  # obsolete #~ entries
    assert messages.header["Language"] == "fr" and messages.nplurals == 2
    assert messages.plural_expression == "(n > 1)"
    assert messages.comment("Total: %(amount).2f €") == (
        "Translators: shown under the order summary; keep the currency sign after\n"
        "the amount as French readers expect.")
    assert messages.comment("Your cart is empty") is None
    assert messages.text("noun\x04Order") == "Commande" and messages.text("verb\x04Order") == "Commander"
    assert messages.text("%(count)s photo uploaded") == {"0": "%(count)s photo envoyée",
                                                         "1": "%(count)s photos envoyées"}
    assert messages.source_text("%(count)s photo uploaded") == {"0": "%(count)s photo uploaded",
                                                                "1": "%(count)s photos uploaded"}
    assert messages.source_text("noun\x04Order") == "Order"
    assert messages.text("Delete %(name)s?") is None and messages.get("Newsletter") is None
    assert messages.line_of("Your cart is empty") == 24 and messages.line_of("verb\x04Order") == 55


def test_broken_entries_are_problems_and_the_rest_loads() -> None:
    messages = catalog("es/broken.po")
    assert list(messages) == ["Your cart is empty", "Checkout", "Save %(amount)s today: 50% off",
                              "%(name)s, your order has shipped", "menu\x04Orders"]
    assert messages.problems == [
        Problem("Save", 17, 'a string must be in double quotes on one line (continue it on the next line with '
                            'another "...")'),
        Problem("Continue shopping", 25, "'msgstring' is not a PO keyword: expected msgctxt, msgid, msgid_plural, "
                                         "msgstr or msgstr[N]"),
        Problem("Your cart is empty", 28, "'Your cart is empty' is defined twice; the first one is used"),
        Problem("%(count)s photo uploaded", 33, "the entry has 3 plural forms but the header's Plural-Forms "
                                                "says nplurals=2; write msgstr[0] to msgstr[1]"),
    ]
    assert render(messages, "Your cart is empty") == "Tu carrito está vacío"  # the first definition
    assert render(messages, "Checkout") == "Pagar"  # right after the broken msgstr: resynced
    # a python-format translation Python's `%` would refuse: found when compiled, then absent
    assert messages.get("Save %(amount)s today: 50% off") is None
    assert messages.problems[-1] == Problem(
        "Save %(amount)s today: 50% off", 41,
        "the python-format translation has a % at character 40 that starts no conversion (write %% for a "
        "percent sign); Python's % would raise ValueError")
    assert "Save %(amount)s today: 50% off" not in messages and len(messages) == 4
    assert list(messages) == ["Your cart is empty", "Checkout", "%(name)s, your order has shipped",
                              "menu\x04Orders"]


def test_gnome_catalog() -> None:
    messages = catalog("ru/photoviewer.po")
    assert messages.problems == []
    assert messages.fuzzy_keys == {"Deleting %d photo"}
    assert messages.untranslated_keys == {"Move to Trash", "%d album"}  # %d album lacks msgstr[1]
    assert render(messages, "numbers out of order in {} quantifier") == (
        "числа в квантификаторе {} расположены не по порядку")
    assert render(messages, "missing ) at position {0}") == "отсутствует ) в позиции {0}"
    assert render(messages, "Export failed:\n%s") == "Не удалось экспортировать:\n%s"  # c-format: as written
    assert render(messages, "%d%% done", n=3) == "Готово на %d%%"
    assert render(messages, "Size:\t%.1f MB") == "Размер:\t%.1f МБ"
    assert render(messages, 'A "quoted" word and a back\\slash') == 'Слово в "кавычках" и обратная\\косая'
    assert render(messages, "shortcut window\x04Rotate left") == "Повернуть влево"
    assert messages.text("Photo Viewer shows the photos in your Pictures folder and lets you crop, rotate and "
                         "share them without leaving the window.") == (
        "Просмотр фотографий показывает снимки из папки «Изображения» и позволяет обрезать, поворачивать "
        "и отправлять их, не покидая окна.")
    assert messages["Cannot open “%s”"].arguments == frozenset()  # c-format takes no variables


def test_a_catalog_in_iso_8859_1_is_decoded_by_its_charset() -> None:
    messages = catalog("de/ledgertool.po")
    assert render(messages, "Open ledger") == "Kassenbuch öffnen"
    assert render(messages, "Größe") == "Größe"
    assert messages.header["Last-Translator"] == "Jörg Müller <joerg@example.org>"


def test_a_template_serves_nothing_and_knows_every_key() -> None:
    messages = catalog("en/shopfront.pot")
    assert len(messages) == 0 and messages.problems == []  # the CHARSET/INTEGER placeholders are no problem
    assert messages.untranslated_keys == {"Your cart is empty", "Welcome back, %(name)s!", "noun\x04Order",
                                          "%(count)s photo uploaded"}
    assert messages.fuzzy_keys == set()  # the fuzzy flag of a header is not a message's


def test_bom_and_crlf() -> None:
    messages = catalog("pt-BR/shopfront.po")
    assert list(messages) == ["Your cart is empty", "Welcome back, %(name)s!", "%(count)s photo uploaded"]
    assert render(messages, "Your cart is empty") == "Seu carrinho está vazio"  # no \r in the text
    assert messages.header["X-Generator"] == "Poedit 3.4"


# --- rendering ---------------------------------------------------------------------------------------


def test_braces_and_apostrophes_are_plain_text() -> None:
    messages = catalog("fr/LC_MESSAGES/django.po")
    assert render(messages, "Use {braces} and 'quotes' as you like") == (
        "Utilisez des {accolades} et des 'apostrophes' à volonté")
    assert render(messages, "The value ''%(value)s\" must be a date in YYYY-MM-DD format.", value="31/02") == (
        "La valeur ''31/02\" doit être une date au format AAAA-MM-JJ.")
    assert render(messages, "“%(value)s” isn't a valid date.", value="hier") == "« hier » n'est pas une date valide."


def test_python_format_is_interpolated_as_percent_with_a_dict() -> None:
    messages = read('#, python-format\nmsgid "a"\nmsgstr "%(name)s: %(n)d at %(price).2f (%(pct)d%%) '
                    '%(name)r %(flag)s %(none)s [%(n)5d|%(name)-6s]"\n')
    values = {"name": "Ann", "n": 3, "price": 2.5, "pct": 20, "flag": True, "none": None}
    assert messages["a"].render(values, 500) == "Ann: 3 at 2.50 (20%) 'Ann' True None [    3|Ann   ]"
    assert messages["a"].arguments == frozenset({"name", "n", "price", "pct", "flag", "none"})
    assert messages["a"].plurals == ()


def test_python_format_leaves_what_python_would_refuse_as_written() -> None:
    messages = read('#, python-format\nmsgid "a"\nmsgstr "%(name)s / %(n)d / %(n)*d / %(name)99999s"\n')
    assert render(messages, "a") == "%(name)s / %(n)d / %(n)*d / %(name)99999s"  # missing names
    assert render(messages, "a", name="Ann", n="3") == "Ann / %(n)d / %(n)*d / %(name)99999s"  # %d of a str
    assert render(messages, "a", name="Ann", n=2.9) == "Ann / 2 / %(n)*d / %(name)99999s"  # as Python: int(2.9)
    assert render(messages, "a", name="Ann", n=10**5000) == "Ann / %(n)d / %(n)*d / %(name)99999s"


def test_python_format_positional_specifiers_take_variables_1_2_3() -> None:
    messages = read('#, python-format\nmsgid "b"\nmsgstr "%s and %s, %d%%"\n\n'
                    '#, python-format\nmsgid "c"\nmsgstr "%(name)s and %s"\n')
    assert render(messages, "b", **{"1": "x", "2": 5, "3": 7}) == "x and 5, 7%"
    assert render(messages, "b", **{"1": "x"}) == "x and %s, %d%"
    assert messages["b"].arguments == frozenset({"1", "2", "3"})
    # named and positional together: Python raises; the positional one stays as written
    assert render(messages, "c", name="Ann", **{"1": "x"}) == "Ann and %s"
    assert messages["c"].arguments == frozenset({"name"})


def test_percent_signs_python_format_or_not() -> None:
    messages = read('#, python-format\nmsgid "p"\nmsgstr "50%%"\n\nmsgid "q"\nmsgstr "50%% %(x)s"\n\n'
                    '#, no-python-format\nmsgid "r"\nmsgstr "%(x)s"\n\n#, c-format\nmsgid "s"\nmsgstr "%d%%"\n')
    assert render(messages, "p") == "50%"
    assert render(messages, "q", x=1) == "50%% %(x)s"  # unflagged: as written
    assert render(messages, "r", x=1) == "%(x)s"
    assert render(messages, "s", d=1) == "%d%%"


def test_render_never_exceeds_the_limit() -> None:
    messages = read('#, python-format\nmsgid "a"\nmsgstr "Hello %(name)s, welcome"\n\nmsgid "b"\nmsgstr "Plain text"\n')
    assert render(messages, "a", 8, name="Ann") == "Hello An"
    assert render(messages, "a", 10, name="x" * 10_000) == "Hello xxxx"
    assert render(messages, "b", 5) == "Plain"


RU_COUNTS = {0: 2, 1: 0, 2: 1, 3: 1, 5: 2, 11: 2, 21: 0, 22: 1, 101: 0, 111: 2, 1.5: 0}


@pytest.mark.parametrize(("count", "form"), RU_COUNTS.items())
def test_russian_plural_forms_follow_the_files_expression(count: float, form: int) -> None:
    messages = catalog("ru/photoviewer.po")
    forms = ("Выбрана %d фотография", "Выбраны %d фотографии", "Выбрано %d фотографий")
    assert render(messages, "%d photo selected", count=count) == forms[form]


def test_plural_forms_of_each_shape() -> None:
    ar = catalog("ar/notekeeper.po")
    assert [render(ar, "%(count)s day ago", count=n) for n in (0, 1, 2, 3, 11, 100, 102)] == [
        "اليوم", "منذ يوم واحد", "منذ يومين", "منذ 3 أيام", "منذ 11 يومًا", "منذ 100 يوم", "منذ 102 يوم"]
    assert render(ar, "%(num)d note", count=5, num=5) == "5 ملاحظات"
    cy = catalog("cy/weatherdesk.po")
    assert [render(cy, "Weather alert", count=n) for n in (1, 2, 3, 8, 11)] == [
        "Rhybudd tywydd", "Rybudd tywydd", "Rhybuddion tywydd", "Rhybudd tywydd", "Rhybudd tywydd"]
    pl = catalog("pl/taskboard.po")
    assert [render(pl, "%(count)d task", count=n) for n in (1, 2, 5, 12, 22, 25)] == [
        "1 zadanie", "2 zadania", "5 zadań", "12 zadań", "22 zadania", "25 zadań"]
    assert render(pl, "%(user)s moved %(count)s card", user="Ola", count=3) == "Ola przeniósł 3 karty"
    ja = catalog("ja/shopfront.po")
    assert [render(ja, "%(count)s photo uploaded", count=n) for n in (0, 1, 7)] == [
        "0 枚の写真をアップロードしました", "1 枚の写真をアップロードしました", "7 枚の写真をアップロードしました"]
    fr = catalog("fr/LC_MESSAGES/django.po")
    assert [render(fr, "%(count)s photo uploaded", count=n) for n in (0, 1, 1.5, 2)] == [
        "0 photo envoyée", "1 photo envoyée", "1.5 photo envoyée", "2 photos envoyées"]


def test_counts_are_what_a_c_unsigned_long_would_be() -> None:
    messages = read('msgid "f"\nmsgid_plural "fs"\nmsgstr[0] "one"\nmsgstr[1] "many"\n',
                    header=HEADER.replace("(n != 1)", "(n > 1)"))
    assert render(messages, "f", count=1.9) == "one"  # truncated toward zero
    assert render(messages, "f", count=Decimal("1.5")) == "one"
    assert render(messages, "f", count="1.5") == "one"  # a numeric string counts as its number
    assert render(messages, "f", count=-1) == "many"  # 2**64 - 1
    assert render(messages, "f", count=2**70 + 1) == "one"  # modulo 2**64
    assert render(messages, "f") == "many"  # no count: the last form
    assert render(messages, "f", count="several") == "many"
    assert render(messages, "f", count=True) == "many"


def test_plurals_map_cldr_categories_to_forms() -> None:
    ru = catalog("ru/photoviewer.po")["%d photo selected"]
    assert ru.category_forms == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert ru.plurals == (PluralUse("count", False, frozenset({"one", "few", "many", "other"})),)
    assert ru.arguments == frozenset({"count"})
    assert catalog("ar/notekeeper.po")["%(num)d note"].category_forms == {
        "zero": 0, "one": 1, "two": 2, "few": 3, "many": 4, "other": 5}
    assert catalog("ar/notekeeper.po")["%(num)d note"].arguments == frozenset({"count", "num"})
    assert catalog("fr/LC_MESSAGES/django.po")["%(count)s photo uploaded"].category_forms == {
        "one": 0, "many": 1, "other": 1}
    assert catalog("ja/shopfront.po")["%(count)s photo uploaded"].category_forms == {"other": 0}
    assert catalog("cy/weatherdesk.po")["%d day"].category_forms == {
        "zero": 2, "one": 0, "two": 1, "few": 2, "many": 2, "other": 2}
    # Polish "other" is for fractions only: its sample 0.5 reaches the form of 0, as GNU truncates
    assert catalog("pl/taskboard.po")["%(count)d task"].category_forms == {
        "one": 0, "few": 1, "many": 2, "other": 2}


# --- the header --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("forms", "reason"), [
    ("nplurals=2; plural=n >> 1;", "the header's plural expression 'n >> 1' is not a valid C expression of n; "
                                   "using n != 1"),
    ("nplurals=2; plural=n % 0;", "the header's plural expression divides by zero for some n; using n != 1"),
    ("nplurals=2; plural=n;", "the header's plural expression picks form 1000 but nplurals=2; using n != 1"),
    ("plural=n != 1;", "the header's Plural-Forms must read `nplurals=N; plural=EXPRESSION;`; using nplurals=2; "
                       "plural=n != 1"),
])
def test_an_unusable_plural_forms_is_a_problem_and_n_ne_1_is_used(forms: str, reason: str) -> None:
    header = HEADER.replace("nplurals=2; plural=(n != 1);", forms)
    messages = read('msgid "f"\nmsgid_plural "fs"\nmsgstr[0] "one"\nmsgstr[1] "other"\n', header=header)
    assert messages.problems == [Problem(None, 1, reason)]
    assert [render(messages, "f", count=n) for n in (0, 1, 2)] == ["other", "one", "other"]


def test_without_plural_forms_gettexts_default_applies() -> None:
    messages = read('msgid "f"\nmsgid_plural "fs"\nmsgstr[0] "one"\nmsgstr[1] "other"\n',
                    header='msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n')
    assert messages.problems == [] and messages.nplurals == 2 and messages.plural_expression == "n != 1"
    assert render(messages, "f", count=1) == "one"


def test_plural_entries_are_checked_against_a_header_that_comes_late() -> None:
    messages = read('msgid "f"\nmsgid_plural "fs"\nmsgstr[0] "a"\nmsgstr[1] "b"\n\n'
                    'msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=n%3;\\n"\n', header="")
    assert messages.problems == [Problem("f", 1, "the entry has 2 plural forms but the header's Plural-Forms says "
                                                 "nplurals=3; write msgstr[0] to msgstr[2]")]
    assert "f" not in messages and messages.get("f") is None


# --- charsets and escapes ------------------------------------------------------------------------


def test_the_header_charset_decides_even_after_a_misleading_mention() -> None:
    data = ('# mentions charset=UTF-8 before the header\nmsgid ""\nmsgstr ""\n'
            '"Content-Type: text/plain; charset=KOI8-R\\n"\n\nmsgid "Yes"\nmsgstr "Да"\n').encode("koi8-r")
    assert PoFormat().read(data, parse_locale("ru"))["Yes"].render({}, 10) == "Да"


def test_an_unknown_charset_makes_the_file_unreadable() -> None:
    with pytest.raises(CatalogFileError) as caught:
        read("", header='msgid ""\nmsgstr "Content-Type: text/plain; charset=KLINGON-8\\n"\n')
    assert caught.value.reason == "the header declares charset='KLINGON-8', which Python cannot decode; use UTF-8"


def test_bytes_invalid_in_the_charset_spoil_only_their_entry() -> None:
    data = (HEADER + 'msgid "a"\nmsgstr "caf\xe9"\n\nmsgid "b"\nmsgstr "ok"\n').encode("latin-1")
    messages = PoFormat().read(data, parse_locale("fr"))
    assert list(messages) == ["b"]
    assert messages.problems == [Problem("a", 6, "the entry has bytes that are not valid utf-8, the header's charset")]
    assert PoFormat().edit(data, parse_locale("fr")).to_bytes() == data


def test_c_escapes() -> None:
    messages = read(r'''msgid "a"
msgstr "tab\there\nnew \"q\" back\\slash \a\b\f\v\r \? \' caf\303\251 \x41\x7e"

msgid "b"
msgstr "bad \q escape"

msgid "c"
msgstr "ends with \"
''')
    assert messages.text("a") == 'tab\there\nnew "q" back\\slash \a\b\f\v\r ? \' café A~'
    assert [p.key for p in messages.problems] == ["b", "c"]
    assert messages.problems[0].reason.startswith("\\q is not a C escape")


# --- the fast path reads as the scanner does -------------------------------------------------------------

TRICKY = [
    'msgid "a"\nmsgstr "x" \n\nmsgid "b"\nmsgstr "y"\n',  # blank after the closing quote
    'msgid "a"\nmsgstr ""\n   "indented"\n  "pieces"\n',
    'msgid\t"a"\nmsgstr  "tab and spaces"\n',
    '#, fuzzy\n#. note after flags\n#: ref\nmsgid "a"\nmsgstr "x"\n',
    '#, python-format\n#, fuzzy\nmsgid "a"\nmsgstr "x"\n',
    '#~ msgid "old"\n#~ msgstr "vieux"\n#. note\nmsgid "a"\nmsgstr "x"\n',
    'msgid "a" "b"\nmsgstr "two strings on a line"\n',
    'msgid "a"\n# a comment inside\nmsgstr "x"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgid_plural "as"\nmsgstr[1] "x"\nmsgstr[0] "y"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgid_plural "as"\nmsgstr "x"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgstr[0] "x"\n\nmsgid "b"\nmsgstr "y"\n',
    '"floating"\nmsgid "a"\nmsgstr "x"\n',
    'msgctxt "c"\nmsgctxt "d"\nmsgid "a"\nmsgstr "x"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgctxt "broken\nmsgid "a"\nmsgstr "x"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgstr "x"\nmsgid "b"\nmsgstr "y"\nmsgctxt "c"\nmsgid "b"\nmsgstr "z"\n',
    'msgid "a"\nmsgstr "x"\n"more \\"quoted\\" "\n"and a back\\\\"\n"slash"\n',
    'msgid "a"\nmsgstr "line one \\"\n"line two"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgstr "x"\nmsgstr "again"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\n\nmsgid "b"\nmsgstr "y"\n',
    'msgid "a"\nmsgstr "x"\nbogus line\nmsgid "b"\nmsgstr "y"\n',
    'msgid "no newline at the end"\nmsgstr "x"',
    '# only comments\n',
    '',
]


@pytest.mark.parametrize("body", TRICKY)
def test_the_fast_path_reads_as_the_line_scanner(body: str) -> None:
    data = (HEADER + body).encode()
    fast, slow = _read(data, parse_locale("en")), _read(data, parse_locale("en"), fast=False)
    assert fast.problems == slow.problems
    assert {k: fast.text(k) for k in fast} == {k: slow.text(k) for k in slow}
    assert [fast.line_of(k) for k in fast] == [slow.line_of(k) for k in slow]
    assert (fast.fuzzy_keys, fast.untranslated_keys) == (slow.fuzzy_keys, slow.untranslated_keys)
    assert {k: fast.comment(k) for k in fast} == {k: slow.comment(k) for k in slow}
    assert {k: fast.is_python_format(k) for k in fast} == {k: slow.is_python_format(k) for k in slow}


@pytest.mark.parametrize("file", FILES, ids=lambda f: str(f.relative_to(CATALOGS)))
def test_the_fast_path_reads_every_catalog_as_the_line_scanner(file: Path) -> None:
    tag = parse_locale(file.relative_to(CATALOGS).parts[0])
    fast, slow = _read(file.read_bytes(), tag), _read(file.read_bytes(), tag, fast=False)
    assert fast.problems == slow.problems and list(fast) == list(slow)
    assert all(fast.text(k) == slow.text(k) and fast.line_of(k) == slow.line_of(k) for k in fast)


def test_tricky_entries_read_as_gettext_would() -> None:
    messages = read(TRICKY[0])
    assert messages.text("a") == "x" and messages.text("b") == "y"
    assert read(TRICKY[1]).text("a") == "indentedpieces"
    assert read(TRICKY[2]).text("a") == "tab and spaces"
    assert read(TRICKY[3]).fuzzy_keys == {"a"} and read(TRICKY[3]).comment("a") is None
    assert read(TRICKY[5]).comment("a") == "note"  # not the obsolete entry's
    assert read(TRICKY[6]).text("ab") == "two strings on a line"  # GNU joins strings on one line
    assert [p.reason for p in read(TRICKY[7]).problems] == [
        "a comment line inside an entry: comments go before msgctxt/msgid"]
    assert read(TRICKY[13]).text("a") is None and read(TRICKY[13]).text("b") == "y"  # no leak of msgid "a"
    three = read(TRICKY[14])
    assert [three.text(k) for k in ("a", "b", "c\x04b")] == ["x", "y", "z"]
    assert read(TRICKY[15]).text("a") == 'xmore "quoted" and a back\\slash'
    assert read(TRICKY[20]).text("no newline at the end") == "x"


# --- editing -------------------------------------------------------------------------------------------------


def test_setting_a_long_value_wraps_it_as_msgmerge_does() -> None:
    doc = document("fr/LC_MESSAGES/django.po")
    doc.set("Your cart is empty", "Votre panier est vide pour le moment : parcourez le catalogue et ajoutez des "
                                  "articles.\nÀ bientôt !")
    text = doc.to_bytes().decode()
    assert ('msgid "Your cart is empty"\nmsgstr ""\n'
            '"Votre panier est vide pour le moment : parcourez le catalogue et ajoutez des "\n'
            '"articles.\\n"\n"À bientôt !"\n\n#: shop/views.py:88\n') in text
    doc.set("Your cart is empty", "Court")
    assert 'msgid "Your cart is empty"\nmsgstr "Court"\n\n' in doc.to_bytes().decode()
    assert doc.get("Your cart is empty") == "Court"


LONG_VALUES = {
    "Your cart is empty": "Votre panier est vide pour le moment. Parcourez le catalogue, ajoutez des articles "
                          "et revenez ici pour passer commande quand vous serez prêt.",
    "Welcome back, %(name)s!": "Bon retour, %(name)s ! Nous avons gardé votre panier, vos favoris et vos "
                               "adresses de livraison exactement comme vous les aviez laissés.",
    "Add %s": "Ajouter %s\nLigne suivante, assez longue pour qu'elle doive elle aussi être coupée en deux "
              "morceaux par l'outil.\n",
    "noun\x04Order": 'Une "commande" avec des\tguillemets et des barres obliques \\ qui comptent double dans '
                     "la largeur d'une ligne de fichier PO, comme le veut msgcat.",
    "Use {braces} and 'quotes' as you like": "Mot" * 40,
}


def test_values_set_in_a_gnu_file_are_wrapped_exactly_as_msgcat_wraps_them(tmp_path: Path) -> None:
    msgcat = require_tool("msgcat", "to re-wrap a catalog as GNU gettext does")
    doc = document("fr/LC_MESSAGES/django.po")
    for key, value in LONG_VALUES.items():
        doc.set(key, value)
    (tmp_path / "set.po").write_bytes(doc.to_bytes())
    rewrapped = subprocess.run([msgcat, str(tmp_path / "set.po")], capture_output=True, check=True).stdout
    assert rewrapped.decode() == doc.to_bytes().decode()


@pytest.mark.parametrize("value", [*LONG_VALUES.values(), "Przeciągnij kartę do innej kolumny, aby zmienić "
                                   "jej status albo naciśnij klawisze-strzałki w dół i w górę na klawiaturze."])
def test_babel_style_wrapping_is_babels(value: str) -> None:
    from babel.messages.pofile import normalize

    from parlance_i18n.formats.po.document import _wrap

    assert _wrap("msgstr", value, ("babel", 76, True)) == ("msgstr " + normalize(value, width=76)).split("\n")


def test_a_babel_file_is_wrapped_as_babel_does() -> None:
    doc = document("pl/taskboard.po")
    doc.set("Board", "Przeciągnij kartę do innej kolumny, aby zmienić jej status, albo naciśnij klawisze "
                     "strzałek.")
    assert ('msgid "Board"\r\nmsgstr ""\r\n'
            '"Przeciągnij kartę do innej kolumny, aby zmienić jej status, albo naciśnij"\r\n'
            '" klawisze strzałek."\r\n\r\n') in doc.to_bytes().decode()


def test_a_file_without_wrapping_keeps_long_values_on_one_line() -> None:
    doc = document("de/ledgertool.po")
    long = "Der Bericht ist fertig. " * 6
    doc.set("Open ledger", long)
    data = doc.to_bytes()
    assert f'msgid "Open ledger"\nmsgstr "{long}"\n'.encode("iso-8859-1") in data
    doc.set("Open ledger", "Kassenbuch öffnen")
    assert doc.to_bytes() == (CATALOGS / "de/ledgertool.po").read_bytes()
    with pytest.raises(ValueError, match="'€' cannot be written in iso8859-1, the file's charset"):
        doc.set("Open ledger", "5 €")
    assert doc.get("Open ledger") == "Kassenbuch öffnen"


def test_setting_plural_forms_and_type_errors() -> None:
    doc = document("ru/photoviewer.po")
    before = doc.to_bytes()
    doc.set("%d album", {"0": "%d альбом", "1": "%d альбома", "2": "%d альбомов"})
    old, new = 'msgstr[1] ""\nmsgstr[2] "%d альбомов"', 'msgstr[1] "%d альбома"\nmsgstr[2] "%d альбомов"'
    assert doc.to_bytes() == before.replace(old.encode(), new.encode())
    with pytest.raises(ValueError, match="is a plural entry"):
        doc.set("%d album", "text")
    with pytest.raises(ValueError, match="is a singular entry"):
        doc.set("Move to Trash", {"0": "x"})
    for bad in ({"1": "x", "2": "y", "3": "z"}, {"0": "x", "one": "y", "2": "z"}):
        with pytest.raises(ValueError, match="plural forms are a dict keyed by msgstr index"):
            doc.set("%d album", bad)
    with pytest.raises(ValueError, match="each plural form must be a str"):
        doc.set("%d album", {"0": "x", "1": 2, "2": "z"})  # type: ignore[dict-item]
    with pytest.raises(KeyError):
        doc.set("absent", "x")


def test_adding_entries_in_the_files_style() -> None:
    doc = document("pt-BR/shopfront.po")
    doc.add("menu\x04Help", "Ajuda")
    doc.add("%d item", {"0": "%d item", "1": "%d itens"}, msgid_plural="%d items")
    data = doc.to_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.endswith('msgstr[1] "%(count)s fotos enviadas"\r\n\r\nmsgctxt "menu"\r\nmsgid "Help"\r\n'
                         'msgstr "Ajuda"\r\n\r\nmsgid "%d item"\r\nmsgid_plural "%d items"\r\n'
                         'msgstr[0] "%d item"\r\nmsgstr[1] "%d itens"\r\n'.encode())
    again = PoFormat().edit(data, parse_locale("pt-BR"))
    assert again.get("%d item") == {"0": "%d item", "1": "%d itens"} and again.line_of("menu\x04Help") == 28
    with pytest.raises(KeyError):
        doc.add("menu\x04Help", "x")


def test_adding_and_deleting_at_the_end_of_a_file_without_a_final_newline() -> None:
    original = (CATALOGS / "ja/shopfront.po").read_bytes()
    doc = document("ja/shopfront.po")
    doc.add("Save", "保存")
    assert doc.to_bytes() == original + '\n\nmsgid "Save"\nmsgstr "保存"'.encode()
    doc.delete("Save")
    assert doc.to_bytes() == original
    doc.delete("Welcome back, %(name)s!")
    assert doc.to_bytes() == original[:original.index(b"\n\n#: shop/views.py:88")]


def test_deleting_an_entry_takes_its_comments_and_one_blank_line() -> None:
    doc = document("fr/LC_MESSAGES/django.po")
    doc.delete("Total: %(amount).2f €")
    text = doc.to_bytes().decode()
    assert "Translators: shown under" not in text and "summary.html" not in text
    assert 'msgstr "Bon retour, %(name)s !"\n\n#: shop/fields.py:57\n' in text
    assert doc.line_of("noun\x04Order") == 50 - 7  # its 6 lines and the blank line above


def test_clearing_fuzzy_removes_the_flag_and_the_previous_msgid() -> None:
    doc = document("fr/LC_MESSAGES/django.po")
    doc.set("Delete %(name)s?", "Supprimer %(name)s ?")
    assert doc.is_fuzzy("Delete %(name)s?")  # set leaves flags alone
    assert doc.clear_fuzzy("Delete %(name)s?") is True
    assert ('#: shop/views.py:140\n#, python-format\nmsgid "Delete %(name)s?"\nmsgstr "Supprimer %(name)s ?"\n'
            in doc.to_bytes().decode())
    assert not doc.is_fuzzy("Delete %(name)s?") and doc.clear_fuzzy("Delete %(name)s?") is False
    messages = PoFormat().read(doc.to_bytes(), parse_locale("fr"))
    assert render(messages, "Delete %(name)s?", name="Ann") == "Supprimer Ann ?"

    ru = document("ru/photoviewer.po")
    ru.clear_fuzzy("Deleting %d photo")
    assert '#: src/window.c:420\n#, c-format\nmsgid "Deleting %d photo"\n' in ru.to_bytes().decode()


def test_header_and_broken_entries_are_not_keys_and_stay_untouched() -> None:
    doc = document("es/broken.po")
    assert doc.keys() == ["Your cart is empty", "Checkout", "%(count)s photo uploaded",
                          "Save %(amount)s today: 50% off", "%(name)s, your order has shipped", "menu\x04Orders"]
    assert doc.get("") is None and doc.get("Save") is None
    doc.set("Checkout", "Ir a pagar")
    assert doc.to_bytes() == (CATALOGS / "es/broken.po").read_bytes().replace(b'"Pagar"', b'"Ir a pagar"')
    assert [p.line for p in doc.problems] == [17, 25]  # syntax; duplicates are the reader's to report


# --- found by the catalog fuzzer (tests/packs/i18n/test_catalog_fuzz.py) -------------------------------------


def test_a_charset_whose_codec_refuses_even_what_surrogates_keep_is_a_file_problem() -> None:
    """UTF-16 over bytes of an odd length (or ASCII it refuses): `surrogateescape` keeps only bytes of 128
    and more, so decoding raised UnicodeDecodeError out of the reader and the tool answered INTERNAL."""
    data = HEADER.replace("charset=UTF-8", "charset=UTF-16").encode() + b'msgid "a"\nmsgstr "b"\n'
    with pytest.raises(CatalogFileError, match="the file is not utf-16 text, the charset its header names"):
        formats.get("po").read(data, parse_locale("de"))


def test_an_entry_with_bytes_its_charset_refuses_is_named_without_them_and_is_no_source() -> None:
    """Such bytes are kept as lone surrogates so the file round-trips; a report naming the entry, or the
    entry as a bilingual source key (i18n_status), carried them into an answer no JSON can hold."""
    data = HEADER.encode() + b'msgid "Welcome, %(na\xc1e)s"\nmsgstr ""\n\nmsgid "Hello"\nmsgstr ""\n'
    po = formats.get("po")
    read = po.read(data, parse_locale("en"))
    [problem] = read.problems
    assert problem.key == "Welcome, %(na\ufffde)s" and "not valid utf-8" in problem.reason
    assert list(po.source_texts(data, parse_locale("en"))) == ["Hello"]
