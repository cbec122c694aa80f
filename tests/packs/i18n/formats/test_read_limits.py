"""Every format honours `ReadLimits` (issue 22), in `read` and in `edit`: a file holding more messages,
or more decoded text, than one file may is refused with a reason naming the limit and the setting
that raises it; within the limits it reads as before. XML files are also refused past a number of
elements that many messages cannot take, counted while they are parsed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import DEFAULT_READ_LIMITS, CatalogFileError, ReadLimits
from parlance_i18n.formats.shared.xmltext import ELEMENTS_PER_MESSAGE
from parlance_i18n.locales import parse_locale

from tests.packs.i18n.loop.cases import CASES, PROJECTS, Case

EN = parse_locale("en")


def _source(case: Case) -> bytes:
    """The project's English file (the multi-locale .xcstrings holds every locale)."""
    pattern = case.pattern.replace("{domain}", "messages")
    path = PROJECTS / case.format / ("res/values/strings.xml" if case.format == "android" else pattern.format(locale="en"))
    return path.read_bytes()


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_file_within_the_limits_reads_as_before(case: Case) -> None:
    data = _source(case)
    fmt = formats.get(case.format)
    within = fmt.read(data, EN, ReadLimits(max_messages=100, max_decoded_chars=len(data)))
    default = fmt.read(data, EN)
    assert {key: within.text(key) for key in within} == {key: default.text(key) for key in default}
    assert fmt.edit(data, EN, ReadLimits(max_messages=100, max_decoded_chars=len(data))).keys()


MESSAGES = ("the file holds more than 2 messages ([packs.i18n] max_file_messages)",
            f"the file holds more than {2 * ELEMENTS_PER_MESSAGE} elements, more than 2 messages can take "
            "([packs.i18n] max_file_messages)")  # (a .stringsdict entry takes 16 elements: XML's count stops it first)
TEXT = ("the file holds more than 40 characters of text ([packs.i18n] max_file_chars)",)
PAST = {"messages": (ReadLimits(max_messages=2), MESSAGES), "text": (ReadLimits(max_decoded_chars=40), TEXT)}


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("operation", ["read", "edit"])
@pytest.mark.parametrize("past", sorted(PAST))
def test_a_file_past_a_limit_is_refused_naming_the_limit_and_its_setting(case: Case, operation: str,
                                                                         past: str) -> None:
    fmt = formats.get(case.format)
    call = fmt.read if operation == "read" else fmt.edit
    limits, reasons = PAST[past]
    with pytest.raises(CatalogFileError) as refused:
        call(_source(case), EN, limits)
    assert refused.value.reason in reasons


def test_characters_are_counted_not_bytes() -> None:
    text = "fr:\n  greeting: " + "é" * 30 + "\n"  # 47 characters, 77 bytes
    fmt = formats.get("yaml")
    assert fmt.read(text.encode(), parse_locale("fr"), ReadLimits(max_decoded_chars=50)).text("greeting") == "é" * 30
    android = '<resources><string name="a">' + "é" * 30 + "</string></resources>"  # 79 characters, 109 bytes
    assert formats.get("android").read(android.encode(), EN, ReadLimits(max_decoded_chars=80)).text("a") == "é" * 30


@pytest.mark.parametrize("name", ["android", "xliff", "stringsdict"])
def test_an_xml_file_of_many_elements_and_few_messages_is_refused_while_parsed(name: str) -> None:
    filler = "<b/>" * (3 * ELEMENTS_PER_MESSAGE)
    data = {
        "android": f'<resources><string name="a">x{filler}</string></resources>',
        "xliff": ('<xliff version="1.2"><file source-language="en" datatype="plaintext" original="m"><body>'
                  f'<trans-unit id="a"><source>x{filler}</source></trans-unit></body></file></xliff>'),
        "stringsdict": f"<plist><dict><key>a</key><dict>{filler}</dict></dict></plist>",
    }[name].encode()
    with pytest.raises(CatalogFileError) as refused:
        formats.get(name).read(data, EN, ReadLimits(max_messages=2))
    assert refused.value.reason == (f"the file holds more than {2 * ELEMENTS_PER_MESSAGE} elements, more than 2 "
                                    "messages can take ([packs.i18n] max_file_messages)")


def test_the_limits_are_exported_with_the_formats() -> None:
    assert formats.ReadLimits is ReadLimits
    assert DEFAULT_READ_LIMITS == ReadLimits(max_messages=100_000, max_decoded_chars=64 * 1024 * 1024)
    assert Path(formats.__file__).name == "__init__.py"
