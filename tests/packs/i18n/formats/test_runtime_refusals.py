"""Each format's `runtime_refusals` and `extra_plural_categories`, table-driven: a translation read
back from the format's own bytes beside its source's text, as `loop/validate.py` asks for them.
The end-to-end cases over MCP are in tests/packs/i18n/loop/test_runtime_refusals_stdio.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats.shared.rich_text import scan_tags
from parlance_i18n.locales import parse_locale

RU, EN = parse_locale("ru"), parse_locale("en")


def _refusals(name: str, data: bytes, source: Any, key: str = "k", tag: Any = RU) -> list[str]:
    fmt = formats.get(name)
    written = fmt.read(data, tag)
    assert written.text(key) is not None, written.problems
    return fmt.runtime_refusals(key, written, source, tag)


def _android(text: str) -> bytes:
    return f'<resources><string name="k">{text}</string></resources>'.encode()


def _po(text: str, flag: str, msgid: str) -> bytes:
    return (f'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            f'#, {flag}\nmsgid "{msgid}"\nmsgstr "{text}"\n').encode()


@pytest.mark.parametrize(("source", "translation", "refused"), [
    ("%1$s has %2$d", "%2$d у %1$s", None),                     # numbered: may move
    ("%1$s has %2$d", "%1$d у %2$d", "argument 1 is %1$s (a string) in the source and %1$d (an integer)"),
    ("%1$d items", "%1$x штук", None),                          # both integers
    ("%1$.2f km", "%1$d км", "argument 1 is %1$.2f (a floating-point number)"),
    ("%1$s", "%1$S", None),                                     # upper case is the same type
    ("%d items", "%s штук", "unnumbered conversions take the arguments in order"),
    ("100%% done", "готово на 100%%", None),
])
def test_android_conversion_types(source: str, translation: str, refused: str | None) -> None:
    reasons = _refusals("android", _android(translation), source)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


def test_android_formatted_false_is_not_compared() -> None:
    data = b'<resources><string name="k" formatted="false">%d of %s</string></resources>'
    assert _refusals("android", data, "%s of %d") == []


@pytest.mark.parametrize(("source", "translation", "refused"), [
    ("%@ has %ld files", "%@: %ld файлов", None),
    ("%@ has %ld files", "%@: %lld файлов", None),              # long and long long are both 64 bits
    ("%@ has %d files", "%@: %ld файлов", "argument 2 is %d (a 32-bit integer)"),
    ("%@ has %lld files", "%2$lld файлов у %1$@", None),
    ("%@ has %lld files", "%lld файлов у %@", "argument 1 is %@ (an object)"),
    ("%d%%", "%u%%", None),                                     # same width: the sign is not a type here
])
def test_apple_conversion_types(source: str, translation: str, refused: str | None) -> None:
    data = f'"k" = "{translation}";\n'.encode()
    reasons = _refusals("apple-strings", data, source)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


@pytest.mark.parametrize(("flag", "msgid", "translation", "refused"), [
    ("c-format", "%s has %d", "%s: %d", None),
    ("c-format", "%s has %d", "%2$d у %1$s", None),
    ("c-format", "%s has %d", "%d у %s", "argument 1 is %s (a C string)"),
    ("c-format", "%s has %d", "%s", "drops argument 2 (%d) that the msgid uses"),
    ("c-format", "%s has %d", "%s %d %s", "uses argument 3 (%s), which the msgid does not have"),
    ("no-c-format", "%s has %d", "%d у %s", None),
    ("python-format", "%(name)s has %(n)d", "%(n)d у %(name)s", None),
    ("python-format", "%(name)s has %(n)d", "%(n)s у %(name)s", "argument n is %(n)d (an integer)"),
    ("python-format", "%s has %d", "%d у %s", "argument 1 is %s (any value) in the source and %d (an integer)"),
    ("python-format", "%(x).2f km", "%(x)d км", "argument x is %(x).2f (a floating-point number)"),
])
def test_po_conversions_as_msgfmt_checks_them(flag: str, msgid: str, translation: str, refused: str | None) -> None:
    reasons = _refusals("po", _po(translation, flag, msgid), "ignored: the msgid is the source", key=msgid)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


@pytest.mark.parametrize(("source", "translation", "refused"), [
    ("{0} in {1}", "{1}: {0}", None),
    ("{0,number} in {1}", "{1}: {0}", None),                    # {0} formats a number as {0,number} does
    ("{0} in {1}", "{0,number} в {1}", "argument {0} is {0} (any value) in the source and {0,number} (a number)"),
    ("{0,date} saved", "{0,time} сохранено", None),             # both take a Date
    ("{0,number,integer} files", "{0,choice,0#нет|1#{0} файл}", None),
    ("{0,date} saved", "{0,choice,0#нет|1#есть}", "argument {0} is {0,date} (a date)"),
])
def test_properties_messageformat_types(source: str, translation: str, refused: str | None) -> None:
    reasons = _refusals("properties", f"k={translation}\n".encode(), source)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


@pytest.mark.parametrize(("source", "translation", "refused"), [
    ("Read <1>the docs</1>", "Читайте <1>документацию</1>", None),
    ("Read <1>the docs</1>", "Читайте документацию", "drops the component tag <1>…</1>"),
    ("Read <1>the docs</1>", "<1>Читайте</1> <2>это</2>", "uses the component tag <2>"),
    ("Read <1>the docs</1>", "Читайте <1>документацию<1>", "<1> is not closed"),
    ("Read <1>the docs</1>", "Читайте </1>документацию<1>", "</1> closes no open <1>"),
    ("One<br/>two", "Один<br/>два", None),
    ("One<br/>two", "Один два", "drops the component tag <br/>"),
    ("One<br>two", "Один<br>два", None),                        # a void element needs no closing tag
    ("a < b and c > d", "a < b и c > d", None),
    ("Hi {{name}}", "Привет {{name", "has an unclosed {{"),
    ("Hi {{name}}", "Привет {{name {{name}}", "has an unclosed {{"),
    ("See $t(help)", "См. $t(help", "has an unclosed $t( nesting"),
    ("See $t(help, {\"count\": 2})", "См. $t(help, {\"count\": 2})", None),
])
def test_i18next_trans_tags_and_unclosed_syntax(source: str, translation: str, refused: str | None) -> None:
    data = json.dumps({"k": translation, "help": "справка", "name": "x"}).encode()
    reasons = _refusals("i18next", data, source)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


@pytest.mark.parametrize(("source", "translation", "refused"), [
    ("Accept <b>rules</b>", "Примите <b>правила</b>", None),
    ("Accept <b>rules</b>", "Примите правила", "drops the tag <b>…</b>"),
    ("Accept <b>rules</b>", "Примите <b>правила</b> <i>сейчас</i>", "uses the tag <i>"),
    ("Accept <b>rules</b>", "Примите '<b>'правила</b>", "</b> closes no open <b>"),  # '<b>' is text
    ("{n, plural, one {<b>#</b> item} other {<b>#</b> items}}",
     "{n, plural, one {<b>#</b> товар} few {<b>#</b> товара} many {<b>#</b> товаров} other {<b>#</b>}}", None),
    ("{n, plural, one {<b>#</b> item} other {<b>#</b> items}}",
     "<b>{n, plural, one {#</b> товар} few {# товара} many {# товаров} other {#}}", "</b> closes no open <b>"),
    ("{n, plural, one {<b>#</b> item} other {<b>#</b> items}}",
     "{n, plural, one {<b># товар} few {# товара} many {# товаров} other {#}}", "<b> is not closed before its branch"),
    ("Line<br/>break", "Строка перенос", None),                 # FormatJS prints <br/> as text
])
def test_icu_rich_text_tags(source: str, translation: str, refused: str | None) -> None:
    reasons = _refusals("icu-json", json.dumps({"k": translation}).encode(), source)
    assert (reasons == []) if refused is None else (refused in " | ".join(reasons)), reasons


def test_an_unbalanced_source_is_not_held_to() -> None:
    assert scan_tags("Read <1>the docs", icu=False).problem is not None
    assert _refusals("i18next", json.dumps({"k": "Читайте"}).encode(), "Read <1>the docs") == []


def test_i18next_allows_zero_and_the_ordinal_categories_beside_the_cardinal_ones() -> None:
    i18next, icu = formats.get("i18next"), formats.get("icu-json")
    assert i18next.extra_plural_categories(RU, False) == {"zero", "other"}
    assert i18next.extra_plural_categories(EN, False) == {"zero", "one", "two", "few", "other"}
    assert i18next.extra_plural_categories(RU, True) == frozenset()
    assert icu.extra_plural_categories(RU, False) == frozenset()
