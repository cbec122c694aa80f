"""Rails i18n YAML: read as the i18n gem loads it through Psych (types, booleans as keys, anchors and
merges, symbols as links, plural subkeys), rendered as `I18n.t` renders it, and edited in place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.yaml.format import YamlFormat
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "yaml"
YAML = YamlFormat()


def _read(data: str | bytes, locale: str = "en") -> Any:
    return YAML.read(data.encode() if isinstance(data, str) else data, parse_locale(locale))


def _texts(data: str, locale: str = "en") -> dict[str, Any]:
    messages = _read(data, locale)
    return {key: messages.text(key) for key in messages}


def test_registry_detection_and_locale_spelling() -> None:
    assert formats.get("yaml").__class__ is YamlFormat
    assert formats.get("yml").__class__ is YamlFormat
    assert formats.detect("config/locales/devise.pt-BR.yml").__class__ is YamlFormat
    assert formats.detect("app/javascript/locales/fr.yaml").__class__ is YamlFormat
    assert YAML.locale_spelling(parse_locale("pt-BR")) == "pt-BR"
    assert YAML.parse_spelling("pt-BR") == parse_locale("pt-BR")


def test_the_source_file_reads_as_rails_and_reports_the_broken_ones() -> None:
    messages = _read((CATALOGS / "en" / "en.yml").read_bytes())
    assert list(messages) == [
        "app.title", "app.tagline", "cart.empty", "cart.items", "cart.total", "cart.discount", "checkout.greeting",
        "checkout.terms", "checkout.note", "checkout.button", "checkout.confirm", "user.name", "user.email",
        "admin.name", "admin.email", "admin.role", "answers.no", "answers.true", "flow_plural", "duplicate", "footer"]
    assert messages.problems == [
        Problem("broken.reserved", 43, "the message uses %{scope}, a name I18n reserves for its own options, so Rails "
                                       "raises ReservedInterpolationKey: rename it"),
        Problem("broken.missing", 44, "the key has no value (empty or ~ is nil in Ruby, so Rails treats the key as "
                                      "missing): give it a text"),
        Problem("duplicate", 45, "the key is defined again on line 46; the later value wins, as in Rails: delete one "
                                 "of them"),
    ]
    assert messages.text("cart.items") == {"zero": "Your cart is empty", "one": "One item in your cart",
                                           "other": "%{count} items in your cart"}
    assert messages.text("checkout.terms") == ("By placing this order you agree to our terms.\n"
                                               "Returns are free for 30 days.\n")
    assert messages.text("checkout.note") == "This note is folded into one line."
    assert messages.text("checkout.greeting") == "Hello, %{name}! It's good to see you."
    assert messages.text("checkout.button") == ':"checkout.confirm"'
    assert messages["checkout.button"].render({}, 100) == "Place order"  # a symbol: Rails renders that key
    assert messages.text("admin.name") == "Name"  # merged from `user` by `<<: *user`
    assert messages.text("answers.true") == "Yes"  # `yes:` is the boolean true in Psych: Rails serves t("true")
    assert messages.text("answers.no") == "No"  # quoted: a string
    assert messages.comment("cart.empty") == "Shown when nothing was added yet"
    assert messages.comment("app.title") is None
    assert "date.day_names" not in messages and "number.precision" not in messages


def test_anchors_outside_the_root_merges_in_psych_order_and_flow_mappings() -> None:
    messages = _read((CATALOGS / "fr" / "app.fr.yml").read_bytes(), "fr")
    assert list(messages) == ["app.title", "app.tagline", "form.save", "form.cancel", "form.submit", "cart.empty",
                              "cart.total", "labels.on", "labels.off_label", "labels.tabbed", "long_text", "footer"]
    assert messages.problems == []
    assert messages.text("app.title") == "Boutique Parlance"
    assert messages.text("form.cancel") == "Abandonner"  # a key after the merge overrides it
    assert _texts("en:\n  a: &x {k: Before}\n  b:\n    k: Mine\n    <<: *x\n") == {"a.k": "Before", "b.k": "Before"}
    assert messages.text("long_text") == "Ce texte est long et s'étend sur deux lignes dans le fichier."
    assert messages.text("labels.tabbed") == "Colonne\tColonne"
    with pytest.raises(CatalogFileError, match="no root key spells 'de'"):
        _read((CATALOGS / "fr" / "app.fr.yml").read_bytes(), "de")
    assert list(_read("fr:\n  a: b\n", "en")) == ["a"]  # the only root is read whatever it spells


@pytest.mark.parametrize(("value", "message"), [
    ("Plain text", True), ("yes", False), ("No", False), ("OFF", False), ("y", True), ("n", True), ("~", False),
    ("null", False), ("Nullish", True), ("123", False), ("1,000", False), ("0x1A", False), ("0o17", True),
    ("1.5", False), (".inf", False), ("-.INF", False), (".", True), ("2024-01-02", False),
    ("2024-01-02 10:00:00", False), ("12:30", False), ("1:2", False), (":sym", False), (":target", True),
    ("'123'", True), ('"yes"', True), ("!!str 123", True), ("Yes please", True), ("true story", True), ("été", True),
])
def test_plain_scalars_are_typed_as_psych_types_them(value: str, message: bool) -> None:
    messages = _read(f"en:\n  key: {value}\n  target: T\n")
    assert ("key" in messages) is message


@pytest.mark.parametrize(("key", "name", "problem"), [
    ("no", "false", None), ("Off", "false", None), ("yes", "true", None), ("'no'", "no", None), ("1", "1", None),
    ("010", "8", None), (":sym", "sym", None),
    ("~", None, "Ruby's YAML reads the key '~' as null, so no I18n lookup finds it; quote it"),
    ("1.5", None, "Ruby's YAML reads the key '1.5' as a float, so no I18n lookup finds it; quote it"),
    ("2024-01-01", None, "Ruby's YAML reads the key '2024-01-01' as a date, so no I18n lookup finds it; quote it"),
    ('"a.b"', None, "the key 'a.b' has a dot, which I18n reads as a separator: nest it instead"),
])
def test_keys_are_named_as_rails_looks_them_up(key: str, name: str | None, problem: str | None) -> None:
    messages = _read(f"en:\n  k:\n    {key}: Value\n")
    assert list(messages) == ([f"k.{name}"] if name else [])
    assert [p.reason for p in messages.problems] == ([problem] if problem else [])


def test_yes_and_on_are_the_same_key() -> None:
    messages = _read("en:\n  yes: A\n  on: B\n")
    assert messages.text("true") == "B"
    assert messages.problems == [Problem("true", 2, "the key is defined again on line 3; the later value wins, as in "
                                                    "Rails: delete one of them")]


@pytest.mark.parametrize(("text", "values", "expected"), [
    ("Save 20%% today, %{name}", None, "Save 20%% today, %{name}"),  # no values: returned as written
    ("Save 20%% today, %{name}", {"name": "Ann"}, "Save 20% today, Ann"),
    ("Hi %{name} and %{other}", {"name": "Ann"}, "Hi Ann and %{other}"),  # Rails raises; the name stays
    ("[%{name}]", {"name": None}, "[]"),
    ("%{a} %{b} %{c} %{d}", {"a": 1.0, "b": 1e20, "c": 1e-05, "d": True}, "1.0 1.0e+20 1.0e-05 true"),
    ("%{a|b}", {"a|b": "piped"}, "piped"),
    ("%<amount>.2f €", {"amount": 12.5}, "12.50 €"),
    ("%<amount>08.3f", {"amount": "3.14159"}, "0003.142"),
    ("%<n>d items", {"n": "12"}, "12 items"),
    ("%<n>d items", {"n": 2.9}, "2 items"),
    ("%<n>+05d", {"n": 42}, "+0042"),
    ("%<n>x %<n>#X %<n>o %<n>b %<n>#B", {"n": 255}, "ff 0XFF 377 11111111 0B11111111"),
    ("[%<s>-6s] [%<s>6s] [%<s>.2s]", {"s": "abc"}, "[abc   ] [   abc] [ab]"),
    ("%<s>p %<c>c", {"s": 'a"b', "c": 65}, '"a\\"b" A'),
    ("%<n>d items", {"n": "many"}, "%<n>d items"),  # Ruby raises: the placeholder stays
    ("%<n>-*d", {"n": 1}, "%<n>-*d"),
])
def test_interpolates_as_i18n_does(text: str, values: dict[str, Any] | None, expected: str) -> None:
    messages = _read(f"en:\n  key: {_double_quoted(text)}\n")
    assert messages["key"].render(values, 200) == expected


def _double_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.mark.parametrize(("locale", "count", "expected"), [
    ("en", 0, "No photos"), ("en", 1, "1 photo"), ("en", 2, "2 photos"), ("en", 1.5, "1.5 photos"),
    ("en", "3", "3 photos"), ("en", None, "%{count} photos"), ("en", "many", "many photos"),
    ("ru", 1, "1 фотография"), ("ru", 3, "3 фотографии"), ("ru", 5, "5 фотографий"), ("ru", 21, "21 фотография"),
    ("ru", 1.5, "1.5 фотографии"), ("ru", 0, "0 фотографий"),
])
def test_plurals_pick_zero_then_the_cldr_category_then_other(locale: str, count: Any, expected: str) -> None:
    data = ("en:\n  photos:\n    zero: No photos\n    one: \"%{count} photo\"\n    other: \"%{count} photos\"\n"
            "ru:\n  photos:\n    one: \"%{count} фотография\"\n    few: \"%{count} фотографии\"\n"
            "    many: \"%{count} фотографий\"\n    other: \"%{count} фотографии\"\n")
    messages = _read(data, locale)
    values = {} if count is None else {"count": count}
    assert messages["photos"].render(values, 100) == expected


def test_plural_arguments_and_categories_for_the_checks() -> None:
    messages = _read((CATALOGS / "ru" / "ru.yml").read_bytes(), "ru")
    plural = messages["photos.uploaded"]
    assert plural.arguments == frozenset({"count"})
    assert [(use.argument, use.ordinal, use.keywords) for use in plural.plurals] == [
        ("count", False, frozenset({"one", "few", "many", "other"}))]
    assert plural.source == "Загружено %{count} фотографии"
    japanese = _read((CATALOGS / "ja" / "ja.yml").read_bytes(), "ja")
    assert japanese["cart.items"].render({"count": 1}, 100) == "カートに1個の商品があります"
    one_only = _read("en:\n  a:\n    one: Just one\n")
    assert one_only["a"].render({"count": 5}, 100) == "Just one"  # Rails raises without `other`: the form there is
    assert _read("en:\n  a:\n    one: x\n    size: y\n").text("a.size") == "y"  # not all categories: a namespace


@pytest.mark.parametrize(("data", "reason", "line"), [
    (b"en:\n  cart:\n    empty: Empty\n   items: bad\n", "the file is not valid YAML: ", 4),
    (b"- en\n- fr\n", "the file's top level is not a mapping of locales (en: ...)", 1),
    (b"en:\n  a: *nowhere\n", "the alias *nowhere names no anchor defined before it", 2),
    (b"en: Hello\n", "the root key 'en' holds a single value, not the locale's messages", 1),
    (b"en:\n  a: caf\xe9\n", "the file is not UTF-8 (byte 12 is not), as YAML must be: save it as UTF-8", None),
])
def test_files_that_cannot_be_read(data: bytes, reason: str, line: int | None) -> None:
    with pytest.raises(CatalogFileError) as caught:
        _read(data)
    assert caught.value.reason.startswith(reason) and caught.value.line == line


def test_an_empty_file_or_root_has_no_messages() -> None:
    assert list(_read("")) == [] and list(_read("# nothing yet\n")) == [] and list(_read("en:\n")) == []


# --- editing -------------------------------------------------------------------------------------------


def _edit(data: str, locale: str = "en") -> Any:
    return YAML.edit(data.encode(), parse_locale(locale))


def _after(document: Any) -> str:
    return document.to_bytes().decode()


@pytest.mark.parametrize(("written", "value", "expected"), [
    ("a: Plain", "Still plain", "a: Still plain"),
    ("a: Plain", "yes", "a: 'yes'"),
    ("a: Plain", "Total: %{n}", "a: 'Total: %{n}'"),
    ("a: Plain", "Line\nbreak", 'a: "Line\\nbreak"'),
    ("a: 'Single'", "It's", "a: 'It''s'"),
    ('a: "Double"', 'Say "hi"\t\\', 'a: "Say \\"hi\\"\\t\\\\"'),
    ("a: |\n    One\n    Two\n  b: B", "Uno\nDos\n", "a: |\n    Uno\n    Dos\n  b: B"),
    ("a: |\n    One\n    Two\n  b: B", "Uno\nDos", "a: |-\n    Uno\n    Dos\n  b: B"),
    ("a: >\n    One\n    two\n\n  b: B", "Uno\ndos", "a: >-\n    Uno\n\n    dos\n\n  b: B"),
    ("a: |\n    One\n  b: B", "  indented", 'a: "  indented"\n  b: B'),
    ("a: &keep Anchored", "Changed", "a: &keep Changed"),
    ("a: Spread over\n    two lines", "One line", "a: One line"),
    ("a: Plain # comment", "New", "a: New # comment"),
])
def test_set_rewrites_the_scalar_in_its_own_style(written: str, value: str, expected: str) -> None:
    document = _edit(f"en:\n  {written}\n")
    document.set("a", value)
    assert _after(document) == f"en:\n  {expected}\n"
    assert _read(document.to_bytes()).text("a") == value


def test_set_an_alias_gives_the_key_its_own_text() -> None:
    document = _edit("shared:\n  brand: &brand Parlance\nen:\n  title: *brand\n  footer: *brand\n")
    assert document.keys() == ["title", "footer"]
    document.set("title", "Shop")
    assert _after(document) == "shared:\n  brand: &brand Parlance\nen:\n  title: Shop\n  footer: *brand\n"


def test_set_plural_forms_in_block_and_flow_mappings() -> None:
    document = _edit("en:\n  items:\n    zero: None\n    one: One\n    other: Many\n  flow: {one: a, other: b}\n")
    document.set("items", {"one": "Uno", "few": "Pocos", "other": "Muchos"})
    document.set("flow", {"one": "x, y", "other": "b", "many": "m"})
    assert _after(document) == ("en:\n  items:\n    one: Uno\n    other: Muchos\n    few: Pocos\n"
                                "  flow: {one: 'x, y', other: b, many: m}\n")
    document.set("items", "Now a single text")
    document.set("flow", "Flat")
    assert _after(document) == "en:\n  items: Now a single text\n  flow: Flat\n"
    document.set("items", {"one": "1", "other": "n"})
    assert _after(document) == "en:\n  items:\n    one: '1'\n    other: n\n  flow: Flat\n"


def test_add_goes_after_its_siblings_with_their_indentation() -> None:
    data = "\ufeffpt-BR:\r\n    cart:\r\n        empty: \"Vazio\"\r\n    footer: \"Rodapé\""
    document = YAML.edit(data.encode(), parse_locale("pt-BR"))
    document.add("cart.total", "Total")
    document.add("checkout.button.label", "Pagar")
    document.add("photos", {"one": "1 foto", "other": "%{count} fotos"})
    assert document.to_bytes().decode() == (
        "\ufeffpt-BR:\r\n    cart:\r\n        empty: \"Vazio\"\r\n        total: \"Total\"\r\n"
        "    footer: \"Rodapé\"\r\n    checkout:\r\n        button:\r\n            label: \"Pagar\"\r\n"
        "    photos:\r\n        one: \"1 foto\"\r\n        other: \"%{count} fotos\"")
    with pytest.raises(KeyError):
        document.add("cart.total", "again")
    with pytest.raises(KeyError, match="not a mapping of messages"):
        document.add("footer.x", "under a message")


def test_add_quotes_keys_psych_would_not_read_as_strings_and_fills_empty_places() -> None:
    document = _edit("en:\n  answers:\n    'yes': Yes\n  later:\n")
    document.add("answers.no", "No")
    document.add("answers.1", "One")
    document.add("later.x", "X")
    assert _after(document) == "en:\n  answers:\n    'yes': Yes\n    'no': 'No'\n    '1': One\n  later:\n    x: X\n"
    assert _read(document.to_bytes()).text("answers.no") == "No"
    empty = _edit("")
    empty.add("cart.empty", "Empty")
    assert _after(empty) == "en:\n  cart:\n    empty: Empty\n"
    root_only = _edit("en:\n")
    root_only.add("a", "A")
    assert _after(root_only) == "en:\n  a: A\n"


def test_add_and_delete_in_a_flow_mapping() -> None:
    document = _edit("en:\n  cart: {empty: Empty, total: Total}\n  other: {}\n")
    document.add("cart.count", "%{count} items")
    document.add("other.x", "X")
    assert _after(document) == "en:\n  cart: {empty: Empty, total: Total, count: '%{count} items'}\n  other: {x: X}\n"
    document.delete("cart.total")
    document.delete("cart.empty")
    assert _after(document) == "en:\n  cart: {count: '%{count} items'}\n  other: {x: X}\n"


def test_delete_removes_the_entry_its_own_comment_and_emptied_parents() -> None:
    data = ("en:\n  # Cart page\n  cart:\n    # Shown when empty\n    empty: Empty\n    items:\n      one: One\n"
            "      other: Many\n\n  # Section heading\n  help:\n    text: |\n      Some help\n\n"
            "  solo:\n    only:\n      leaf: L\n  last: Last")
    document = _edit(data)
    document.delete("cart.empty")  # its comment goes with it
    document.delete("help.text")  # `help` is left empty: it goes, with the comment that heads it
    document.delete("solo.only.leaf")
    document.delete("last")
    assert _after(document) == "en:\n  # Cart page\n  cart:\n    items:\n      one: One\n      other: Many\n\n"
    document.delete("cart.items")
    assert _after(document) == "en:\n\n"
    with pytest.raises(KeyError):
        document.delete("cart.items")


def test_unchanged_and_same_value_documents_keep_every_byte() -> None:
    data = (CATALOGS / "pt-BR" / "pt-BR.yml").read_bytes()
    document = YAML.edit(data, parse_locale("pt-BR"))
    for key in list(document.keys()):
        document.set(key, document.get(key))
    assert document.to_bytes() is data
