"""A new PO file's Plural-Forms (`formats/po/plural_table.py`): for every locale CLDR knows, the
expression picks each whole number's CLDR category, in CLDR's order, and GNU msgfmt accepts it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from babel import localedata

from parlance_i18n.formats import Template, get
from parlance_i18n.formats.po.render import plural_forms
from parlance_i18n.formats.shared.spelling import locale_or_none
from parlance_i18n.icu.plurals import CATEGORIES, plural_rules
from parlance_i18n.locales import LocaleTag, parse_locale

LANGUAGES = sorted({tag.language for name in localedata.locale_identifiers()
                    if (tag := locale_or_none(name)) is not None})
PLURAL_FORMS = re.compile(r'"Plural-Forms: ([^"]*)\\n"')
EXPECTED = {"ru": "nplurals=3;", "fr": "nplurals=2; plural=(n > 1);", "ja": "nplurals=1; plural=(0);",
            "ar": "nplurals=6;", "cy": "nplurals=6;", "pl": "nplurals=3;", "lv": "nplurals=3;", "en": "nplurals=2; plural=(n != 1);"}


def test_every_cldr_language_gets_the_forms_cldr_gives_its_whole_numbers() -> None:
    import gettext

    po = get("po")
    for language in LANGUAGES:
        tag = LocaleTag(language)
        found = PLURAL_FORMS.search(po.new_file(tag, parse_locale("en"), None).decode())
        assert found is not None, language
        nplurals, expression, problem = plural_forms({"Plural-Forms": found[1]})
        assert problem is None, language
        rules = plural_rules(tag)
        reached = [c for c in CATEGORIES if c in rules.cardinal_table]
        pick = gettext.c2py(expression)
        assert nplurals == len(reached), language
        assert all(reached[pick(n)] == rules.cardinal(n) for n in range(200)), language
        if language in EXPECTED:
            assert EXPECTED[language] in found[1], language


@pytest.mark.parametrize("code", ["ru", "sr-Latn", "pt-BR", "ar", "cy", "ja", "ga", "lt"])
def test_msgfmt_checks_a_new_file_and_its_translation(code: str, tmp_path: Path) -> None:
    po = get("po")
    template = (Path(__file__).parents[1] / "loop" / "projects" / "po" / "locale" / "en" / "LC_MESSAGES"
                / "messages.po").read_bytes()
    tag = parse_locale(code)
    data = po.new_file(tag, parse_locale("en"), Template(template, parse_locale("en")))
    document = po.edit(data, tag)
    document.set("Hello, %(name)s!", "<%(name)s>")
    path = tmp_path / "messages.po"
    path.write_bytes(document.to_bytes())
    checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    assert f'"Language: {po.locale_spelling(tag)}\\n"'.encode() in data
    assert po.read(document.to_bytes(), tag).get("Hello, %(name)s!") is not None
