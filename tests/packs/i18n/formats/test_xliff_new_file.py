"""A new locale's XLIFF file made from the source's (`formats/xliff/new_file`): what it takes out, what it
keeps, and that a file full of look-alike tags costs linear time."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

from parlance_i18n.formats.xliff.new_file import new_xliff_file
from parlance_i18n.locales import parse_locale

FR, EN = parse_locale("fr"), parse_locale("en")


def _file(units: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
            '\n  <file source-language="en" datatype="plaintext" original="app">\n    <body>\n'
            f'{units}    </body>\n  </file>\n</xliff>\n').encode()


def _unit(index: int, inside: str = "") -> str:
    return (f'      <trans-unit id="u{index}">\n        <source>Hello {index}</source>\n{inside}'
            "      </trans-unit>\n")


def test_targets_and_suggestions_go_and_look_alike_elements_stay() -> None:
    template = _file(_unit(1, '        <target state="translated">Hallo</target>\n'
                              "        <alt-trans><source>Hi</source><target>Salut</target></alt-trans>\n")
                     + _unit(2, "        <note>see <target-x/> and <alt-trans-note/></note>\n"))
    made = new_xliff_file(FR, EN, template)
    root = ET.fromstring(made)  # well-formed, read by Python's XML parser
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
    assert root.find("x:file", ns).get("target-language") == "fr"  # type: ignore[union-attr]
    targets = root.findall(".//x:trans-unit/x:target", ns)
    assert [(t.text, t.get("state")) for t in targets] == [(None, "new"), (None, "new")]
    assert root.findall(".//x:alt-trans", ns) == []
    assert b"<target-x/>" in made and b"<alt-trans-note/>" in made  # not the elements it takes out


def test_a_file_of_unclosed_look_alikes_is_made_in_linear_time() -> None:
    units = "".join(_unit(index, "        <note>see <target-x/></note><!-- <alt-trans> -->\n") for index in range(3000))
    template = _file(units)
    started = time.perf_counter()
    made = new_xliff_file(FR, EN, template)
    took = time.perf_counter() - started
    assert made.count(b'<target state="new"></target>') == 3000
    assert took < 2.0, f"{took:.1f} s for {len(template):,} bytes (9 s when each look-alike scanned the file's rest)"
