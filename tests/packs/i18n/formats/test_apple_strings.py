"""Apple `.strings`: read as Core Foundation's old-style property list parser reads them (recovering
where CF gives up on the whole file), rendered as Apple printf formats, and edited byte-faithfully."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Problem
from parlance_i18n.formats.apple.strings import AppleStringsFormat
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "apple-strings"
STRINGS = AppleStringsFormat()


def _read(data: str | bytes, locale: str = "en") -> Any:
    return STRINGS.read(data.encode() if isinstance(data, str) else data, parse_locale(locale))


def _texts(data: str | bytes) -> dict[str, Any]:
    messages = _read(data)
    return {key: messages.text(key) for key in messages}


def test_registry_detection_and_lproj_folders() -> None:
    assert formats.get("apple-strings").__class__ is AppleStringsFormat
    assert formats.get("strings").__class__ is AppleStringsFormat
    assert formats.detect("App/pt-BR.lproj/Localizable.strings").__class__ is AppleStringsFormat
    assert STRINGS.locale_spelling(parse_locale("pt-BR")) == "pt-BR"
    assert STRINGS.locale_spelling(parse_locale("zh-Hans")) == "zh-Hans"
    assert STRINGS.parse_spelling("pt-BR") == parse_locale("pt-BR")
    assert STRINGS.parse_spelling("zh-Hant.lproj") == parse_locale("zh-Hant")
    assert STRINGS.parse_spelling("pt_PT") == parse_locale("pt-PT")
    assert STRINGS.parse_spelling("English") == parse_locale("en")
    assert STRINGS.parse_spelling("Base") is None


def test_an_xcode_file_in_utf16_reads_every_entry_and_reports_the_broken_ones() -> None:
    messages = _read((CATALOGS / "en" / "Localizable.strings").read_bytes())
    assert list(messages) == ["cart.title", "cart.empty", "greeting", "order.summary", "discount", "quote", "OK",
                              "checkout.done", "duplicate", "footer"]
    assert messages.problems == [
        Problem("battery", 30, "the message has invalid format specifier '%' at position 13: a '%' must start a "
                               "conversion such as %@ or %1$d; write %% for a percent sign"),
        Problem("broken.semicolon", 33, "the entry has no ';' after its value: Apple's parser rejects the whole file "
                                        "over it; end the entry with ;"),
        Problem("duplicate", 38, "the key is defined again on line 40; the later value wins, as on Apple platforms: "
                                 "delete one of them"),
    ]
    assert messages.text("quote") == 'She said "hi"\nthen left…'
    assert messages.text("OK") == "OK"
    assert messages.text("duplicate") == "Second wins"
    assert messages.comment("cart.title") == "Title of the cart screen"
    assert messages.comment("greeting") == "%@ is the customer's first name"
    assert messages.comment("discount") is None  # Xcode's "No comment provided by engineer."
    assert messages.comment("duplicate") is None
    assert messages["greeting"].render({"1": "Ann"}, 100) == "Hello, Ann!"
    assert messages["order.summary"].render({"1": "Mug", "2": 3}, 100) == "3 × Mug in your order"
    assert messages["order.summary"].arguments == frozenset({"1", "2"})
    assert messages["discount"].render({}, 100) == "Save 20% today"
    assert messages["greeting"].render({}, 100) == "Hello, %@!"


def test_a_hand_written_file_with_unquoted_strings_and_a_stray_character() -> None:
    messages = _read((CATALOGS / "pt-BR" / "Localizable.strings").read_bytes(), "pt-BR")
    assert list(messages) == ["cart.title", "cart.empty", "cart.count", "greeting", "order.summary", "discount",
                              "path", "footer"]
    assert messages.problems == [
        Problem("broken.stray", 7, "the entry has '+' where ';' belongs after its value: Apple's parser rejects the "
                                   "whole file over it; end the entry with ;"),
    ]
    assert messages.text("cart.count") == "%lld itens"
    assert messages.text("path") == "/usr/local/share"
    assert messages.comment("cart.count") == "chave sem aspas, valor entre aspas simples"
    assert messages["cart.count"].render({"1": 4}, 100) == "4 itens"


@pytest.mark.parametrize(("text", "expected"), [
    ('"a" = "x\\ty\\n\\r\\a\\b\\f\\v";', {"a": "x\ty\n\r\a\b\f\v"}),
    ('"a" = "\\"q\\" \\\\ \\\' \\z";', {"a": "\"q\" \\ ' z"}),
    ('"a" = "\\U00e9\\U20AC \\UD83D\\UDE00 \\U41";', {"a": "é€ 😀 A"}),
    ('"a" = "\\u00e9";', {"a": "u00e9"}),  # CF knows only the upper-case \U
    ('"a" = "\\101\\0602";', {"a": "A02"}),  # octal, three digits at most
    ('"a" = "line\\\nbreak";', {"a": "line\nbreak"}),
    ('"a" = "raw\nnewline";', {"a": "raw\nnewline"}),
    ("'a' = 'single';", {"a": "single"}),
    ("key_1 = value-2.0/x:y$;", {"key_1": "value-2.0/x:y$"}),
    ('"Cancel";', {"Cancel": "Cancel"}),
    ('"a"="1";"b"="2";', {"a": "1", "b": "2"}),
    ('/* c */ "a" = "1"; // trailing\n// line\n"b" = "2";', {"a": "1", "b": "2"}),
    ('"a" = "1";\n"a" = "2";', {"a": "2"}),
    ("\u2028\"a\"\u2029=\x0b\"1\"\x0c;", {"a": "1"}),
    ("", {}),
])
def test_reads_entries_as_core_foundation(text: str, expected: dict[str, str]) -> None:
    assert _texts(text) == expected


@pytest.mark.parametrize(("text", "keys", "problem"), [
    ('"a" = "1";\n"b" = "never closed;\n"c" = "3";', ["a"],
     None),  # the quote runs to the next one, so `c` and what follows it are out of step
    ('"a" = "1";\n"b" = "2"\n"c" = "3";', ["a", "c"],
     Problem("b", 2, "the entry has no ';' after its value: Apple's parser rejects the whole file over it; end the "
                     "entry with ;")),
    ('"a" = "1";\n"b" "2";\n"c" = "3";', ["a", "c"],
     Problem("b", 2, "the entry has '\"' after its key where '=' or ';' belongs: Apple's parser rejects the whole "
                     "file over it; write \"key\" = \"value\";")),
    ('"a" = "1";\n"b" = { x = y; };\n"c" = "3";', ["a", "c"],
     Problem("b", 2, "the value is a dictionary, array or data, not a string: a .strings file holds text only "
                     "(plurals go in a .stringsdict)")),
    ('"a" = "1";\n"b" = "unterminated', ["a"],
     Problem("b", 2, "a value starts a quoted string that never ends: Apple's parser rejects the whole file over "
                     "it, and nothing after it can be read; close it with \"")),
    ('"a" = "1";\n/* never closed\n"b" = "2";', ["a"],
     Problem(None, 2, "an unterminated /* comment hides everything after it from Apple's parser, silently: close "
                      "it with */")),
    ('"a" = "1";\n= "2";\n"c" = "3";', ["a", "c"],
     Problem(None, 2, "the entry has '=' where a key belongs: quote keys and values, \"key\" = \"value\";")),
])
def test_a_broken_entry_is_reported_and_reading_resumes(text: str, keys: list[str], problem: Problem | None) -> None:
    messages = _read(text)
    assert list(messages) == keys
    if problem is not None:
        assert messages.problems == [problem]
    else:
        assert messages.problems and messages.problems[0].key == "b"


def test_encodings() -> None:
    encodings = (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-8", b"\xef\xbb\xbf"), ("utf-8", b""))
    for codec, bom in encodings:
        assert _texts(bom + '"café" = "thé";'.encode(codec)) == {"café": "thé"}
    with pytest.raises(CatalogFileError, match="neither UTF-8"):
        _read('"a" = "caf\xe9";'.encode("latin-1"))
    with pytest.raises(CatalogFileError, match="XML or binary property list"):
        _read(b'<?xml version="1.0"?>\n<plist version="1.0"><dict/></plist>\n')
    with pytest.raises(CatalogFileError, match="XML or binary property list"):
        _read(b"bplist00\x01")


# --- editing -------------------------------------------------------------------------------------------


def _edit(data: bytes) -> Any:
    return STRINGS.edit(data, parse_locale("en"))


XCODE = ('/* Title */\n"cart.title" = "Cart";\n\n/* Empty state */\n"cart.empty" = "Empty";\n\n'
         '/* Greeting */\n"greeting" = "Hi, %@";\n')


def test_set_keeps_quotes_escapes_and_the_encoding() -> None:
    data = b"\xff\xfe" + "\"a\" = \"1\";\n'b' = 'two';\nc = plain;\n\"OK\";\n".encode("utf-16-le")
    document = _edit(data)
    document.set("a", 'Say "hi"\n\t\\ é')
    document.set("b", "it's")
    document.set("c", "still_plain")
    document.set("OK", "Okay")
    assert document.to_bytes() == b"\xff\xfe" + ("\"a\" = \"Say \\\"hi\\\"\\n\\t\\\\ é\";\n'b' = 'it\\'s';\n"
                                                 "c = still_plain;\n\"OK\" = \"Okay\";\n").encode("utf-16-le")
    document.set("c", "now two words")
    assert document.get("c") == "now two words"
    assert 'c = "now two words";' in document.to_bytes().decode("utf-16")
    ascii_file = b'"a" = "caf\\U00e9";\n'
    document = _edit(ascii_file)
    document.add("b", "thé 😀")
    assert document.to_bytes() == b'"a" = "caf\\U00e9";\n"b" = "th\\U00e9 \\Ud83d\\Ude00";\n'


def test_add_and_delete_keep_xcode_blocks_even() -> None:
    document = _edit(XCODE.encode())
    document.add("cart.total", "Total: %@")
    assert document.to_bytes().decode() == (
        '/* Title */\n"cart.title" = "Cart";\n\n/* Empty state */\n"cart.empty" = "Empty";\n\n'
        '"cart.total" = "Total: %@";\n\n/* Greeting */\n"greeting" = "Hi, %@";\n')
    document.delete("cart.empty")
    document.delete("greeting")
    assert document.to_bytes().decode() == (
        '/* Title */\n"cart.title" = "Cart";\n\n"cart.total" = "Total: %@";\n')


def test_delete_keeps_a_heading_and_removes_only_a_shared_lines_entry() -> None:
    data = (b'// Cart\n"cart.title" = "Cart";\n"cart.empty" = "Empty";\n\n"a" = "1"; "b" = "2";\r\n'
            b'"last" = "x";')
    document = _edit(data)
    document.delete("cart.title")  # the comment heads the run of cart entries: it stays
    document.delete("a")
    document.delete("last")
    assert document.to_bytes() == b'// Cart\n"cart.empty" = "Empty";\n\n"b" = "2";'
    with pytest.raises(KeyError):
        document.delete("a")
    with pytest.raises(KeyError):
        document.add("b", "again")
    with pytest.raises(TypeError):
        document.set("b", {"one": "x"})
