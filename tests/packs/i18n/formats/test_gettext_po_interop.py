"""The po format against GNU gettext: every test catalog is compiled by GNU `msgfmt`, opened with
Python's `gettext.GNUTranslations`, and every translated message is rendered both ways.

Singular messages are compared with `gettext`/`pgettext`, plurals with `ngettext`/`npgettext` at
COUNTS; python-format results with `translation % values`. 100% agreement, except the differences
listed below one by one. Fuzzy and untranslated entries, which msgfmt leaves out, must not be
served by Parlance either; and everything msgfmt compiled must be served (or be listed).
"""

from __future__ import annotations

import gettext
import re
import struct
import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest

from parlance_i18n.formats.po.format import PoFormat, PoMessages
from parlance_i18n.formats.po.scanner import CONTEXT_SEPARATOR
from parlance_i18n.locales import parse_locale

from tests.support import require_tool

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "po"
COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 101)
FILES = sorted(p for p in CATALOGS.rglob("*.po*") if "unparseable" not in p.relative_to(CATALOGS).parts)

DIFFERENCES = {
    ("ru/photoviewer.po", "%d album"):
        "a plural with an empty msgstr[1]: msgfmt keeps it and ngettext returns '' for counts of that "
        "form; Parlance treats the entry as untranslated (it falls back)",
    ("es/broken.po", "%(count)s photo uploaded"):
        "3 forms under nplurals=2: msgfmt compiles it (without -c); Parlance reports a Problem",
    ("es/broken.po", "Save %(amount)s today: 50% off"):
        "python-format with a bare '%': Python's `%` raises ValueError; Parlance reports a Problem",
}
"""(file, key): why Parlance and GNU gettext + Python differ on it."""

FLOAT_COUNT = {
    "ar/notekeeper.po": 2, "cy/weatherdesk.po": 1, "de/ledgertool.po": 1, "fr/LC_MESSAGES/django.po": 2,
    "pl/taskboard.po": 2, "pt-BR/shopfront.po": 1, "ru/photoviewer.po": 2,
}
"""How many plural messages of each file render another form at count 1.5 under Python's
`ngettext(..., 1.5)` than under GNU's: Parlance truncates 1.5 to 1, as C's `unsigned long` parameter
does, and agrees with GNU (asserted above for every message); Python evaluates the expression on
1.5 itself (`n != 1` and `n > 1` are true, `n%10==1` is false). Only ja (`plural=0`) agrees."""

_NAMED = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([a-zA-Z])")
_POSITIONAL = re.compile(r"%%|%[-#0 +]*\d*(?:\.\d+)?([a-zA-Z])")


def _msgfmt_copy(source: Path, tmp_path: Path, problem_lines: set[int], utf8: bool) -> Path:
    """`source` compiled by msgfmt into a .mo. What msgfmt refuses is cut out first: a BOM (GNU
    msgfmt 0.21 refuses one; Parlance reads and keeps it), and each blank-line block holding a line
    msgfmt calls fatal, which must be a block where Parlance reported a Problem too. A catalog in
    another charset is converted to UTF-8 by GNU `msgconv` first, because Python's GNUTranslations
    decodes a .mo header as UTF-8 whatever its charset (GNU's own gettext converts at run time)."""
    msgfmt = require_tool("msgfmt", "to compile catalogs for the gettext reference")
    data = source.read_bytes().removeprefix(b"\xef\xbb\xbf")
    po, mo = tmp_path / "copy.po", tmp_path / f"{source.stem}.mo"
    if not utf8:
        po.write_bytes(data)
        msgconv = require_tool("msgconv", "to convert catalogs to UTF-8 for Python's gettext")
        data = subprocess.run([msgconv, "--to-code=UTF-8", str(po)], capture_output=True, check=True).stdout
    lines = data.split(b"\n")
    for _ in range(10):
        po.write_bytes(b"\n".join(lines))
        done = subprocess.run([msgfmt, "-o", str(mo), str(po)], capture_output=True, text=True)
        if done.returncode == 0:
            return mo
        errors = [line for line in done.stderr.splitlines() if "location of the first definition" not in line]
        fatal = {int(n) for n in re.findall(rf"{re.escape(str(po))}:(\d+):", "\n".join(errors))}
        assert fatal, done.stderr
        for number in sorted(fatal, reverse=True):
            start, end = _block(lines, number - 1)
            assert problem_lines & set(range(start + 1, end + 1)), (
                f"msgfmt refuses line {number} of {source.name} but Parlance found no problem there")
            lines[start:end] = [b"#"] * (end - start)  # keep the line numbers
    pytest.fail(f"msgfmt still refuses {source.name}")


def _block(lines: list[bytes], index: int) -> tuple[int, int]:
    start = index
    while start > 0 and lines[start - 1].strip():
        start -= 1
    end = index
    while end < len(lines) and lines[end].strip():
        end += 1
    return start, end


def _values(forms: list[str], count: Any) -> dict[str, Any]:
    """Variables for every python-format specifier: numbers for numeric conversions, else text."""
    values: dict[str, Any] = {"count": count}
    for form in forms:
        for name, conversion in _NAMED.findall(form):
            if name != "count":
                values[name] = 7 if conversion in "diouxXc" else 2.5 if conversion in "eEfFgG" else f"«{name}»"
        positional = [m[1] for m in _POSITIONAL.finditer(form) if m[0] != "%%"]
        for number, conversion in enumerate(positional, start=1):
            values[str(number)] = 7 if conversion in "diouxXc" else f"«{number}»"
    return values


def _python_format(translation: str, values: dict[str, Any]) -> str:
    """What a Python program prints: `translation % values`, or `% (v1, v2, ...)` for positional."""
    if _NAMED.search(translation) or "%" not in translation.replace("%%", ""):
        return translation % values
    count = sum(1 for m in _POSITIONAL.finditer(translation) if m[0] != "%%")
    return translation % tuple(values[str(i)] for i in range(1, count + 1))


def _reference(translations: gettext.GNUTranslations, key: str, plural: str | None, n: Any) -> str:
    context, _, msgid = key.rpartition(CONTEXT_SEPARATOR)
    if plural is None:
        return translations.pgettext(context, msgid) if context else translations.gettext(msgid)
    if context:
        return translations.npgettext(context, msgid, plural, n)
    return translations.ngettext(msgid, plural, n)


def _read(file: Path) -> PoMessages:
    return PoFormat().read(file.read_bytes(), parse_locale(file.relative_to(CATALOGS).parts[0]))


@pytest.mark.parametrize("file", FILES, ids=lambda f: str(f.relative_to(CATALOGS)))
def test_every_message_renders_as_gnu_gettext_does(file: Path, tmp_path: Path) -> None:
    name = str(file.relative_to(CATALOGS))
    messages = _read(file)
    for key in list(messages):
        messages.get(key)  # compile everything, so problems found on compiling are known too
    problem_lines = {p.line for p in messages.problems if p.line is not None}
    utf8 = "charset=utf-8" in messages.header.get("Content-Type", "").lower().replace(" ", "")
    mo = _msgfmt_copy(file, tmp_path, problem_lines, utf8 or file.suffix == ".pot")
    if file.suffix == ".pot":  # a template: nothing to translate with; Python cannot open its .mo
        strings = struct.unpack("<I", mo.read_bytes()[8:12])[0]  # (its Plural-Forms is a placeholder)
        assert strings == 1 and len(messages) == 0  # the header only, in both
        assert messages.untranslated_keys == set(PoFormat().edit(file.read_bytes(), parse_locale("en")).keys())
        return
    with mo.open("rb") as handle:
        reference = gettext.GNUTranslations(handle)

    differences: set[tuple[str, str]] = set()
    float_differences = 0
    compared = 0
    for key in messages:
        message = messages.get(key)
        source = messages.source_text(key)
        python = messages.is_python_format(key)
        if not isinstance(source, dict):
            expected = _reference(reference, key, None, None)
            values = _values([message.source], None)
            if python:
                expected = _python_format(expected, values)
            assert message.render(values, 10_000) == expected, (name, key)
            compared += 1
            continue
        forms = list(messages.text(key).values())  # type: ignore[union-attr]
        for n in COUNTS:
            values = _values(forms, n)
            expected = _reference(reference, key, source["1"], n)
            assert message.render(values, 10_000) == (_python_format(expected, values) if python else expected), (
                name, key, n)
            compared += 1
        values = _values(forms, 1.5)
        truncated = _reference(reference, key, source["1"], 1)  # what C's ngettext(…, 1.5) picks
        ours = message.render(values, 10_000)
        assert ours == (_python_format(truncated, values) if python else truncated), (name, key, 1.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            floating = _reference(reference, key, source["1"], 1.5)
        float_differences += ours != (_python_format(floating, values) if python else floating)
    assert compared > 0 or not len(messages)

    # everything msgfmt compiled is served by Parlance, with the listed exceptions
    compiled = {k if isinstance(k, str) else k[0] for k in reference._catalog if k != ""}  # type: ignore[attr-defined]
    for key in compiled - set(messages):
        differences.add((name, key))
    for key in set(messages) - compiled:
        pytest.fail(f"{name}: Parlance serves {key!r}, which msgfmt left out")
    # fuzzy and untranslated entries: left out by both
    for key in messages.fuzzy_keys | messages.untranslated_keys:
        assert messages.get(key) is None
        if (name, key) not in DIFFERENCES:
            assert key not in compiled, (name, key)

    assert differences == {d for d in DIFFERENCES if d[0] == name}
    assert float_differences == FLOAT_COUNT.get(name, 0), name
