"""The icu-json format (FormatJS / react-intl): flat, nested and extracted files, read per message."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.icu_json import IcuJsonFormat
from parlance_i18n.locales import parse_locale
from parlance_i18n.icu.messageformat import MessageSyntaxError, PluralUse, compile_message
from parlance_i18n.icu.plurals import plural_rules

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "icu-json"
EN = parse_locale("en")
FORMAT = IcuJsonFormat()


def _engine_formats_times() -> bool:
    try:
        compile_message("{t, time, short}", plural_rules(EN))
    except MessageSyntaxError:
        return False
    return True


def _read(locale: str, name: str):  # type: ignore[no-untyped-def]
    return FORMAT.read((CATALOGS / locale / name).read_bytes(), parse_locale(locale))


def test_the_registry_serves_it_for_json_no_other_format_claims() -> None:
    assert formats.get("icu-json") is formats.get("formatjs") is formats.get("react-intl")
    assert formats.detect("locales/en/messages.json", b'{"a": "b"}') is formats.get("icu-json")
    assert FORMAT.sniff(b'{\n  "x": {"defaultMessage": "Hi"}') is True
    assert FORMAT.sniff(b'\xef\xbb\xbf{"n": "{count, plural, one {#} other {#}}"}') is True
    assert FORMAT.sniff(b'{"greeting": "Hello {{name}}"}') is False


def test_one_broken_message_among_good_ones_is_reported_and_the_rest_load() -> None:
    messages = _read("en", "messages.json")
    expected_keys = ["app.title", "cart.empty", "cart.items", "cart.total", "cart.discount", "greeting",
                     "upload.done", "rank", "invite", "reminder", "apostrophe", "literal.braces", "bold",
                     "delivery.time", "empty.value", "unicode", "footer.copyright"]
    problems = [
        Problem("greeting", 9, "the key 'greeting' is written again later in the same object; the last one is used "
                               "(as JSON.parse does), so this one is ignored: remove one of them"),
        Problem("broken", 19, "not a valid ICU message at position 11: expected '}' or ',' after the argument "
                              "name 'name'"),
    ]
    if not _engine_formats_times():  # until the ICU engine formats dates and times, that message is reported
        expected_keys.remove("delivery.time")
        problems.insert(1, Problem("delivery.time", 18, "not a valid ICU message at position 29: unsupported "
                                                        "argument type 'time': use number, plural, select or "
                                                        "selectordinal"))
    assert list(messages) == expected_keys
    assert messages.problems == problems
    assert "broken" not in messages and messages.get("broken") is None and messages.text("broken") is None


VALUES = {"count": 2, "name": "Ann", "amount": 1234.5, "rate": 0.25, "place": 3, "gender": "female", "item": "keys"}
RENDERED = {  # as intl-messageformat 12 renders them (tags kept as text)
    "app.title": "Parlance Shop",
    "cart.items": "2 items",
    "cart.total": "Total: 1,234.5",
    "cart.discount": "You save 25%",
    "greeting": "Hello again, Ann!",
    "upload.done": "2 photos uploaded",
    "rank": "You finished 3rd",
    "invite": "She invited you",
    "reminder": "Don't forget your keys",
    "apostrophe": "It's Ann's turn",
    "literal.braces": "Use {curly braces} to insert a variable",
    "bold": "Read the <b>terms</b> before you continue, Ann",
    "empty.value": "",
    "unicode": "Grüße aus Köln — 日本語 ✓",
    "footer.copyright": "© 2024 Parlance",
}


@pytest.mark.parametrize("key", RENDERED)
def test_messages_render_as_formatjs_renders_them(key: str) -> None:
    assert _read("en", "messages.json")[key].render(VALUES, 500) == RENDERED[key]


def test_plurals_and_arguments_are_visible_to_checks() -> None:
    messages = _read("en", "messages.json")
    items = messages["cart.items"]
    assert [items.render({"count": n}, 50) for n in (0, 1, 5)] == ["No items", "1 item", "5 items"]
    assert items.arguments == frozenset({"count"})
    assert items.plurals == (PluralUse("count", False, frozenset({"one", "other"})),)
    assert messages["rank"].plurals == (PluralUse("place", True, frozenset({"one", "two", "few", "other"})),)
    assert messages["bold"].render({}, 100) == "Read the <b>terms</b> before you continue, {name}"
    assert messages.text("apostrophe") == "It''s {name}''s turn"


def test_the_time_message_loads_once_the_engine_formats_times() -> None:
    if not _engine_formats_times():
        pytest.skip("the ICU engine does not format {t, time, short} yet (another change adds it)")
    message = _read("en", "messages.json")["delivery.time"]
    assert message.arguments == frozenset({"t"})
    assert message.render({"t": 0}, 100) == "Your delivery arrives at 12:00 AM"  # intl-messageformat, TZ=UTC


def test_bom_crlf_ascii_escapes_and_the_extracted_shape() -> None:
    german = _read("de", "compiled.json")
    assert german.problems == []
    assert german["greeting"].render({"name": "Jörg"}, 100) == "Willkommen zurück, Jörg!"
    assert german["files.path"].render({}, 100) == "Dateien unter Dokumente/Fotos"
    assert german["cart.items"].render({"count": 1}, 100) == "1 Artikel"
    french = _read("fr", "extracted.json")
    assert list(french) == ["cart.empty", "upload.done", "welcome"]
    assert french.comment("cart.empty") == "Shown when the cart has no items"
    assert french.comment("missing") is None
    assert french["upload.done"].render({"count": 1}, 100) == "1 photo envoyée"
    assert french["welcome"].render({"name": "Zoé"}, 100) == "Bon retour, Zoé !"
    spanish = _read("es", "escapes.json")
    assert spanish["html.safe"].render({}, 100) == "<b>Oferta</b> & más"
    assert spanish["multiline"].render({}, 100) == "Primera línea\nSegunda línea"
    assert list(spanish)[-1] == "nested.deeper.deepest"


def test_values_that_are_not_messages_and_clashing_keys_are_problems() -> None:
    data = b'{\n  "count": 3,\n  "list": ["a"],\n  "a.b": "flat",\n  "a": {"b": "nested"},\n  "ok": "fine"\n}'
    messages = FORMAT.read(data, EN)
    assert list(messages) == ["a.b", "ok"]
    assert messages.problems == [
        Problem("count", 2, "the value is a number, not a message: write the text in quotes"),
        Problem("list", 3, "the value is a list, not a message: write the text in quotes"),
        Problem("a.b", 5, "the key 'a.b' is already defined by another entry (a flat key and a nested path spell "
                          "it alike); the first is used: rename one"),
    ]
    assert messages["a.b"].render({}, 10) == "flat"


@pytest.mark.parametrize("data", [b'["a"]', b'"text"', b'{"a": "b",}', b""])
def test_a_file_that_is_not_an_object_of_messages_is_refused(data: bytes) -> None:
    with pytest.raises(CatalogFileError):
        FORMAT.read(data, EN)


# --- editing ------------------------------------------------------------------------------------------


def test_editing_a_nested_file_splices_only_that_message() -> None:
    data = (CATALOGS / "en" / "messages.json").read_bytes()
    document = FORMAT.edit(data, EN)
    assert document.keys()[:3] == ["app.title", "cart.empty", "cart.items"]
    assert document.get("broken") == "Hello {name" and document.line_of("broken") == 19
    document.set("cart.empty", "Nothing here yet")
    document.add("cart.saved", "Saved for later")
    document.add("checkout.pay", "Pay {amount, number}")
    document.delete("broken")
    expected = data.decode().replace('"empty": "Your cart is empty"', '"empty": "Nothing here yet"').replace(
        '"discount": "You save {rate, number, percent}"\n',
        '"discount": "You save {rate, number, percent}",\n    "saved": "Saved for later"\n').replace(
        '  "broken": "Hello {name",\n', "").replace(
        '    "copyright": "© 2024 Parlance"\n  }\n}', '    "copyright": "© 2024 Parlance"\n  },\n'
        '  "checkout": {\n    "pay": "Pay {amount, number}"\n  }\n}')
    assert document.to_bytes().decode() == expected
    assert FORMAT.edit(document.to_bytes(), EN).get("checkout.pay") == "Pay {amount, number}"


def test_editing_flat_and_extracted_files_keeps_their_shape() -> None:
    flat = FORMAT.edit((CATALOGS / "de" / "compiled.json").read_bytes(), parse_locale("de"))
    flat.add("new.key", "Neu: schön")
    assert flat.to_bytes().endswith(b'"upload.done": "{count, plural, one {# Foto hochgeladen} other '
                                    b'{# Fotos hochgeladen}}",\r\n    "new.key": "Neu: sch\\u00f6n"\r\n}')
    extracted = FORMAT.edit((CATALOGS / "fr" / "extracted.json").read_bytes(), parse_locale("fr"))
    extracted.set("welcome", "Salut {name}")
    extracted.add("cart.total", "Total : {amount, number}")
    assert extracted.to_bytes().decode().endswith(
        '\t\t"description": "Header greeting",\n\t\t"defaultMessage": "Salut {name}"\n\t},\n'
        '\t"cart.total": {\n\t\t"defaultMessage": "Total : {amount, number}"\n\t}\n}\n')
    with pytest.raises(KeyError):
        extracted.add("welcome", "again")
    with pytest.raises(TypeError):
        extracted.set("welcome", {"one": "x", "other": "y"})
    with pytest.raises(KeyError):
        extracted.delete("missing")


# --- speed --------------------------------------------------------------------------------------------


def test_reading_twenty_thousand_messages_stays_near_json_loads() -> None:
    catalog = {f"screen{g}": {f"label{i}": ("{count, plural, one {# item} other {# items}}" if i % 25 == 0 else
                                            f"Welcome back, {{name}}! #{i}") for i in range(50)} for g in range(400)}
    data = json.dumps(catalog, indent=2).encode()

    baselines, readings = [], []
    for _ in range(5):  # interleaved, so that a loaded machine slows both alike; the best of each
        start = time.perf_counter()
        json.loads(data)
        baselines.append(time.perf_counter() - start)
        start = time.perf_counter()
        FORMAT.read(data, EN)
        readings.append(time.perf_counter() - start)
    baseline, reading = min(baselines), min(readings)
    assert len(FORMAT.read(data, EN)) == 20_000
    # about 10x on an idle machine; compiling every message while reading (what this guards against)
    # costs over 100x
    assert reading < 40 * baseline, f"read {reading * 1000:.1f} ms, json.loads {baseline * 1000:.1f} ms"
