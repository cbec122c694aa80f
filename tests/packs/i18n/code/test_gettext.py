"""The gettext framework on a Python CLI's tree (trees/gettext), checked against GNU xgettext itself.

The oracle runs `xgettext -L Python` on the same files with the framework's keywords as `-k`, and
the msgid(+context) sets must match except for the differences listed, each with its reason.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.base import ExtractionRefused
from parlance_i18n.code.frameworks.gettext import GETTEXT_KEYWORDS, Gettext, Keyword, parse_keyword
from parlance_i18n.code.model import FileScan, Hardcoded, Span
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.formats.po.scanner import key_of, scan
from tests.support import require_tool

TREE = Path(__file__).parent / "trees" / "gettext"
OPTIONS = ["_l", "mark:1"]


def framework(keywords: list[str] | None = None) -> Gettext:
    return Gettext(SourceSettings(paths=["**/*"], framework="gettext", keywords=keywords))


def scan_tree(found: Gettext, root: Path) -> dict[str, FileScan]:
    scans = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and found.reads(relative):
            scans[relative] = found.scan(relative, path.read_bytes())
    return scans


def keys(scans: dict[str, FileScan]) -> set[str]:
    return {r.key for s in scans.values() for r in s.references}


def test_the_tree_references_every_message_with_its_context_domain_and_plural() -> None:
    scans = scan_tree(framework(OPTIONS), TREE)
    references = {(r.key, r.namespace, r.plural) for s in scans.values() for r in s.references}
    assert references == {
        ("Run a backup now", None, False), ("List the backups kept", None, False),
        ("Back up folders to a remote store.", None, False),
        ("Show what would be copied, without copying anything", None, False),
        ("How many backups to keep", None, False),
        ("Copied %d file", None, True), ("files\x04Skipped %(n)d", None, True),
        ("menu\x04Open", None, False), ("verb\x04Open", None, False), ("Quit", None, False),
        ("The remote store refused the login", "backup-errors", False), ("%d error", "backup-errors", True),
        ("Folders to back up", None, False), ("Remote store address", None, False),
        ("Every night at two", None, False), ("form label\x04Keep for", None, False),
    }
    assert all(s.problems == () and s.hardcoded == () for s in scans.values())
    quit_call = next(r for r in scans["backup_tool/cli.py"].references if r.key == "Quit")
    assert (quit_call.span.line, quit_call.span.column, quit_call.default) == (38, 67, "Quit")


def test_keys_built_at_run_time_are_dynamic_with_their_literal_start() -> None:
    report = scan_tree(framework(OPTIONS), TREE)["backup_tool/report.py"]
    assert report.references == ()
    assert [(d.expression, d.prefix) for d in report.dynamic] == [
        ('f"Report for {name}"', "Report for "), ('"Total: %d backups" % total', "Total: "),
        ("status_message", ""),
    ]


def test_keywords_are_read_as_xgettext_k_specs() -> None:
    assert parse_keyword("_l") == Keyword("_l")
    assert parse_keyword("npgettext:1c,2,3") == Keyword("npgettext", 2, 3, context=1)
    assert parse_keyword("mark:2") == Keyword("mark", 2)
    assert parse_keyword("tr:1,2t") == Keyword("tr", 1, total=2)
    assert parse_keyword('note:1,"a comment"') == Keyword("note", 1)
    for bad in ("1x", "f:0", "f:1,2,3", "f:a"):
        with pytest.raises(ValueError, match="keyword"):
            parse_keyword(bad)


def test_a_keyword_spec_takes_a_call_only_as_it_says() -> None:
    source = b'tr("one", "two")\ntr("only")\nmark("a", "b")\n_("default off")\n'
    found = framework(["", "tr:1,2t", "mark:2"]).scan("m.py", source)
    assert [(r.key, r.span.line) for r in found.references] == [("one", 1), ("b", 3)]


def test_a_bad_keyword_option_is_a_problem_of_the_scan_not_an_exception() -> None:
    found = framework(["npgettext:1c,x"]).scan("m.py", b'_("a")\n')
    assert found.references == () and "npgettext:1c,x" in found.problems[0]


def test_escapes_decode_as_python_3_reads_them() -> None:
    source = 'from gettext import gettext as _\n_("caf\\u00e9 \\N{BULLET} \\x41\\101")\n_(r"raw \\n")\n'
    found = framework().scan("m.py", source.encode())
    assert [r.key for r in found.references] == ["café • AA", "raw \\n"]


def test_names_that_only_look_like_calls_are_not_references() -> None:
    source = b'# _("comment")\ns = "_(\'string\')"\ndef _(x): return x\n_()\n_("")\nngettext("no plural")\n'
    found = framework().scan("m.py", source)
    assert found.references == () and found.dynamic == ()


def test_broken_python_is_read_as_far_as_it_parses() -> None:
    found = framework().scan("m.py", b'_("before")\ndef broken(:\n    _("after"\n')
    assert "before" in {r.key for r in found.references}
    assert found.problems


def test_python_has_nothing_to_extract() -> None:
    literal = Hardcoded("Hello", "python-string", Span(1, 1, 0, 7))
    with pytest.raises(ExtractionRefused):
        framework().extraction("m.py", b'"Hello"', literal, "Hello")


# --- the oracle: GNU xgettext ---------------------------------------------------------------------

EXPECTED_DIFFERENCES = {
    "Report for {name}": "xgettext reads an f-string as its text; the key looked up is the formatted text (dynamic)",
    "Total: %d backups": "xgettext takes the literal before `%`; the key looked up is the formatted text (dynamic)",
    "form label\x04Keep for": "lazy_pgettext imported as `lp`: xgettext does not know the alias (no -k lp), yet the "
                              "call looks the message up; reported so a catalog without it shows as undefined",
}


def _spec(keyword: Keyword) -> str:
    parts = [f"{keyword.context}c"] if keyword.context else []
    parts += [str(keyword.singular)] + ([str(keyword.plural)] if keyword.plural else [])
    return f"{keyword.name}:{','.join(parts)}"


def xgettext_keys(root: Path, keywords: list[str]) -> set[str]:
    xgettext = require_tool("xgettext", "as the oracle of the gettext framework")
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    specs = [f"-k{_spec(k)}" for k in GETTEXT_KEYWORDS.values()] + [f"-k{k}" for k in keywords]
    done = subprocess.run([xgettext, "-L", "Python", "--from-code=UTF-8", "-o", "-", *specs, *files],
                          cwd=root, capture_output=True, text=True, timeout=60, check=True)
    entries, problems = scan(done.stdout.splitlines(), "utf-8")
    assert problems == []
    return {k for raw in entries if (k := key_of(raw[4], raw[5]))}


def test_xgettext_extracts_the_same_messages_except_the_listed_differences() -> None:
    oracle = xgettext_keys(TREE, OPTIONS)
    ours = keys(scan_tree(framework(OPTIONS), TREE))
    differences = {key: "ours only" for key in ours - oracle} | {key: "xgettext only" for key in oracle - ours}
    assert differences.keys() == EXPECTED_DIFFERENCES.keys(), differences
