"""The Django framework on a shop app's tree (trees/django): Python calls, templates, hard-coded text and
its extraction, checked against Django's own `makemessages` (from .oracles/django, installed by .ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.base import Edit, ExtractionRefused, KeyStyle
from parlance_i18n.code.frameworks.django import Django
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.formats.po.scanner import key_of, scan

TREE = Path(__file__).parent / "trees" / "django"
REPOSITORY = Path(__file__).resolve().parents[4]
DJANGO_ADMIN = REPOSITORY / ".oracles" / "django" / "bin" / "django-admin"


def framework() -> Django:
    return Django(SourceSettings(paths=["**/*"], framework="django"))


def scan_tree(root: Path) -> dict[str, FileScan]:
    found = framework()
    return {p.relative_to(root).as_posix(): found.scan(p.relative_to(root).as_posix(), p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file() and found.reads(p.relative_to(root).as_posix())}


def test_templates_are_read_only_in_a_templates_folder() -> None:
    found = framework()
    assert found.reads("shop/templates/shop/cart.html") and found.reads("templates/mail/welcome.txt")
    assert found.reads("shop/views.py")
    assert not found.reads("shop/static/shop/help.html") and not found.reads("requirements.txt")


def test_template_messages_are_keyed_as_makemessages_writes_them() -> None:
    scans = scan_tree(TREE)
    cart = scans["shop/templates/shop/cart.html"]
    assert [(r.key, r.plural, r.span.line) for r in cart.references] == [
        ("You have %(counter)s item in your cart.", True, 7),
        ("discount banner\x04Save %(percent)s%% today", False, 15),
        ("Free delivery over 50%% of orders", False, 16),
        ("Checkout", False, 17),
        ("Nothing here yet", False, 20),
    ]
    assert [d.expression for d in cart.dynamic] == ["status_label"]
    base = scans["shop/templates/shop/base.html"]
    assert [r.key for r in base.references] == ["Corner Shop", "Main menu", "Home", "navigation\x04Cart",
                                                "&copy; %(year)s Corner Shop"]
    mail = scans["shop/templates/shop/email/order.txt"]
    assert [(r.key, r.plural) for r in mail.references] == [("Hello %(name)s,", False),
                                                             ("Thank you for your order.", False), ("One line", True)]
    assert all(s.problems == () for s in scans.values())


def test_python_files_are_read_with_makemessages_keywords() -> None:
    scans = scan_tree(TREE)
    assert {r.key for r in scans["shop/views.py"].references} == {
        "Pending", "Paid", "%(count)d item in your cart", "page title\x04Cart", "parcels\x04%(n)d parcel delivered"}
    assert [d.prefix for d in scans["shop/views.py"].dynamic] == ["Results for "]
    assert scans["shop/views.py"].hardcoded == ()


def test_hard_coded_text_is_what_no_tag_translates() -> None:
    scans = scan_tree(TREE)
    found = [(h.kind, h.text, h.span.line) for s in scans.values() for h in s.hardcoded]
    assert found == [
        ("html-attribute:title", "Questions and answers", 12),
        ("django-template-text", "Help", 12),
        ("django-template-text", "Made with care in Lyon", 18),
        ("django-template-text", "Your cart", 4),
        ("django-template-text", "Browse the catalog to add something", 21),
        ("html-attribute:placeholder", "Search products", 22),
        ("html-attribute:alt", "Empty basket", 23),
        ("django-template-text", "Hello {{ user.first_name }}, welcome back", 30),
        ("django-template-text", "Your parcel leaves our warehouse tomorrow.", 4),
    ]


def test_text_hidden_from_users_or_marked_is_not_reported() -> None:
    source = (b"{# i18n-ignore #}<b>Brand Name</b>\n<!-- i18n-ignore -->\n<b>Also skipped</b>\n"
              b"{% verbatim %}{{ raw }} Client side text{% endverbatim %}\n<textarea>Shown text</textarea>\n"
              b"&copy; 2024 &mdash; | 42\n<img alt='logo.png'>\n")
    found = framework().scan("templates/x.html", source)
    assert [h.text for h in found.hardcoded] == ["Shown text"]


def test_another_block_tag_inside_blocktranslate_is_a_problem() -> None:
    source = b"{% blocktranslate %}Hi {% if x %}there{% endif %}{% endblocktranslate %}\n{% translate 'Next' %}"
    found = framework().scan("templates/x.html", source)
    assert [r.key for r in found.references] == ["Next"]
    assert "inside {% blocktranslate %}" in found.problems[0]


def apply(data: bytes, edits: tuple[Edit, ...]) -> bytes:
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        data = data[:edit.start] + edit.text.encode() + data[edit.end:]
    return data


def hard_coded(path: str, data: bytes, text: str) -> Hardcoded:
    return next(h for h in framework().scan(path, data).hardcoded if h.text == text)


def test_extraction_writes_translate_and_loads_i18n_after_extends() -> None:
    path = "shop/templates/shop/cart.html"
    data = (TREE / path).read_bytes()
    literal = hard_coded(path, data, "Your cart")
    key = framework().suggest_key(literal, path, KeyStyle(), set())
    extraction = framework().extraction(path, data, literal, key)
    assert extraction.message == "Your cart"
    changed = apply(data, extraction.edits)
    assert changed.startswith(b'{% extends "shop/base.html" %}\n{% load i18n %}\n')
    assert b'<h1>{% translate "Your cart" %}</h1>' in changed
    rescanned = framework().scan(path, changed)
    assert "Your cart" in {r.key for r in rescanned.references}
    assert "Your cart" not in {h.text for h in rescanned.hardcoded}


def test_extraction_in_a_template_that_loads_i18n_adds_no_load_and_quotes_around_the_attribute() -> None:
    path = "shop/templates/shop/base.html"
    data = (TREE / path).read_bytes()
    extraction = framework().extraction(path, data, hard_coded(path, data, "Questions and answers"),
                                        "Questions and answers")
    assert [e.text for e in extraction.edits] == ["{% translate 'Questions and answers' %}"]


def test_extraction_at_the_top_and_of_a_percent() -> None:
    data = b"<p>Save 50% now</p>\n"
    literal = hard_coded("templates/a.html", data, "Save 50% now")
    key = framework().suggest_key(literal, "templates/a.html", KeyStyle(), set())
    assert key == "Save 50%% now"
    changed = apply(data, framework().extraction("templates/a.html", data, literal, key).edits)
    assert changed == b'{% load i18n %}\n<p>{% translate "Save 50% now" %}</p>\n'
    assert [r.key for r in framework().scan("templates/a.html", changed).references] == [key]
    with pytest.raises(ExtractionRefused, match="single '%'"):
        framework().extraction("templates/a.html", data, literal, "Save 50% now")


@pytest.mark.parametrize("text", ["Hello {{ user.first_name }}, welcome back", """It's "fine\""""])
def test_extraction_refuses_variables_and_both_quotes(text: str) -> None:
    data = f"<p>{text}</p>".encode()
    literal = hard_coded("templates/a.html", data, text)
    with pytest.raises(ExtractionRefused):
        framework().extraction("templates/a.html", data, literal, text)


def test_python_is_not_extracted() -> None:
    literal = hard_coded("templates/a.html", b"<p>Hi there</p>", "Hi there")
    with pytest.raises(ExtractionRefused):
        framework().extraction("shop/views.py", b'"Hi there"', literal, "Hi there")


# --- the oracle: Django's makemessages --------------------------------------------------------------

EXPECTED_DIFFERENCES = {
    "order status\x04Returned": "pgettext_lazy imported as `p_`: makemessages' xgettext does not know the alias, "
                                "yet the call looks the message up; reported so a catalog without it is undefined",
    "Results for {query}": "xgettext reads an f-string as its text; the key looked up is the formatted text (dynamic)",
}


def makemessages_keys(root: Path, work: Path) -> set[str]:
    if not DJANGO_ADMIN.exists():
        message = "Django's makemessages is the oracle: .ci/run installs it into .oracles/django"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    tree, settings, locale = work / "tree", work / "settings", work / "locale"
    shutil.copytree(root, tree)  # makemessages writes each template's Python rendering beside it
    settings.mkdir()
    locale.mkdir()
    (settings / "oracle_settings.py").write_text(
        f'SECRET_KEY = "oracle"\nUSE_I18N = True\nLOCALE_PATHS = [{str(locale)!r}]\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(settings), "DJANGO_SETTINGS_MODULE": "oracle_settings"}
    subprocess.run([str(DJANGO_ADMIN), "makemessages", "--locale", "en"], cwd=tree, env=env, check=True,
                   capture_output=True, timeout=120)
    lines = (locale / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8").splitlines()
    entries, problems = scan(lines, "utf-8")
    assert problems == []
    return {k for raw in entries if (k := key_of(raw[4], raw[5]))}


def test_makemessages_extracts_the_same_messages_except_the_listed_differences(tmp_path: Path) -> None:
    oracle = makemessages_keys(TREE, tmp_path)
    ours = {r.key for s in scan_tree(TREE).values() for r in s.references}
    differences = {key: "ours only" for key in ours - oracle} | {key: "makemessages only" for key in oracle - ours}
    assert differences.keys() == EXPECTED_DIFFERENCES.keys(), differences
