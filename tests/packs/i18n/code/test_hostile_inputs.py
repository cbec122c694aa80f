"""A cloned repository is untrusted input: its `.gitignore` lines, a client's globs and its templates are
read in time that grows with their size, never with its square or worse. Each case here took tens of
seconds (some minutes) before the scanner was made linear on it; each must now take well under a
bound, on the real readers (files, the Django and Rails frameworks, the `i18n-ignore` rule)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from parlance_i18n.code.files import glob_regex, source_files
from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.frameworks.visible import ignored_lines
from parlance_i18n.code.settings import SourceSettings

BOUND = 2.0
"""Seconds: each case below took 10 s to minutes before, and takes well under a second now."""


def _seconds(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _scan(framework: str, path: str, data: bytes) -> object:
    return framework_class(framework)(SourceSettings(paths=["**/*"], framework=framework)).scan(path, data)


# --- globs -----------------------------------------------------------------------------------------

def test_a_glob_of_many_double_stars_against_a_deep_path() -> None:
    pattern = glob_regex("**/" * 12 + "*.ts")  # each `**/` nested a loop: 12 took 10 s on one path
    assert _seconds(lambda: pattern.fullmatch("a/" * 25 + "b.tsx")) < BOUND
    assert pattern.fullmatch("a/" * 25 + "b.ts")


def test_a_glob_of_many_stars_against_a_long_name() -> None:
    pattern = glob_regex("*a" * 20 + "*b")
    assert _seconds(lambda: pattern.fullmatch("a" * 200)) < BOUND
    assert pattern.fullmatch("a" * 200 + "b")


def test_a_gitignore_line_of_many_double_stars_in_a_deep_tree(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("**/" * 12 + "generated.ts\n")
    deep = tmp_path.joinpath("src", *["level"] * 16)
    deep.mkdir(parents=True)
    (deep / "page.ts").write_text("")
    (deep / "generated.ts").write_text("")
    found: list[str] = []
    assert _seconds(lambda: found.extend(f.relative for f in source_files(tmp_path, ["src/**/*.ts"]))) < BOUND
    assert found == ["src/" + "level/" * 16 + "page.ts"]


# --- Django templates ------------------------------------------------------------------------------

def test_a_template_of_unclosed_tag_openers() -> None:
    data = b"<p>" + b"{%" * 80_000 + b"</p>\n"  # each `{%` read to the line's end: 160 KB took a minute
    assert _seconds(lambda: _scan("django", "templates/hostile.html", data)) < BOUND


def test_a_trimmed_translation_block_of_spaces() -> None:
    data = b"{% load i18n %}{% blocktranslate trimmed %}Hello" + b" " * 200_000 + b"there{% endblocktranslate %}"
    scan = _scan("django", "templates/hostile.html", data)  # 200 KB of spaces took a minute
    assert _seconds(lambda: _scan("django", "templates/hostile.html", data)) < BOUND
    assert [r.key for r in scan.references] == ["Hello" + " " * 200_000 + "there"]  # no line break: kept


def test_a_template_of_many_texts_and_attributes() -> None:
    lines = b'<p title="A picture of the shop">Hello there</p>\n' * 30_000  # 1.5 MB: the line of each counted anew
    one_line = b'<img alt="A picture of the shop">' * 30_000  # 1 MB: each column counted from the line's start
    assert _seconds(lambda: _scan("django", "templates/lines.html", lines)) < BOUND
    assert _seconds(lambda: _scan("django", "templates/one_line.html", one_line)) < BOUND


# --- Rails views and the i18n-ignore rule ----------------------------------------------------------

def test_an_erb_view_of_many_texts() -> None:
    data = b"<p>Hello there, <%= name %></p>\n" * 30_000  # 1 MB: the rest of the view copied for each text
    assert _seconds(lambda: _scan("rails", "app/views/shop/index.html.erb", data)) < BOUND


def test_a_file_of_many_ignore_marks() -> None:
    data = b"// i18n-ignore\nText('Hello there');\n" * 50_000  # 1.7 MB: the line of each mark counted anew
    lines: frozenset[int] = frozenset()

    def read() -> None:
        nonlocal lines
        lines = ignored_lines(data)

    assert _seconds(read) < BOUND
    assert len(lines) == 100_000 and {1, 2, 99_999, 100_000} <= lines


# --- the JavaScript helpers i18next and FormatJS share ---------------------------------------------
# (here because this change may touch no other test module; test_formatjs.py is their natural home)

def test_formatjs_finds_intl_as_an_arrow_functions_lone_parameter() -> None:
    from parlance_i18n.code.frameworks.formatjs import FormatJS

    path = "src/SearchBox.jsx"
    data = b'export const SearchBox = intl => <input placeholder="Search the shop" />;\n'
    framework = FormatJS(SourceSettings(paths=["**/*"], framework="formatjs"))
    (literal,) = framework.scan(path, data).hardcoded
    (edit,) = framework.extraction(path, data, literal, "search.placeholder").edits
    assert edit.text == '{intl.formatMessage({ id: "search.placeholder", defaultMessage: "Search the shop" })}'
