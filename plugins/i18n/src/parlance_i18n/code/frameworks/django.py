"""Django: the Python calls `manage.py makemessages` extracts, and its templates.

Python files are read as `gettext` reads them, under makemessages' keywords (xgettext's own, plus
`gettext_noop`, `gettext_lazy`, `ngettext_lazy`, `pgettext`, `npgettext`, `pgettext_lazy`,
`npgettext_lazy`) and the `keywords` option. Templates are `.html` and `.txt` files in a `templates`
folder, read by `django_templates` (messages, and the text no tag translates).

**Extraction** (templates only): the text becomes `{% translate "text" %}`, and `{% load i18n %}` is
added when the template does not load it (after `{% extends %}`, which must stay the first tag, else
at the top). Refused: text holding a `{{ variable }}` (that needs `{% blocktranslate %}` and a name
for each variable), text holding both quote characters (a template string literal has no escape), a
line break or tag delimiters, and a key whose `%` are not doubled (the tag looks its text up with
each `%` written `%%`).
"""

from __future__ import annotations

from collections.abc import Collection

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, KeyStyle
from parlance_i18n.code.frameworks.django_templates import Template, load_i18n_present, tokenize
from parlance_i18n.code.frameworks.gettext import DJANGO_KEYWORDS, Gettext
from parlance_i18n.code.model import FileScan, Hardcoded

__all__ = ["Django"]

_TEMPLATE_SUFFIXES = (".html", ".txt")


class Django(Gettext):
    """Django's `gettext` family in Python and `{% translate %}` / `{% blocktranslate %}` in templates."""

    name = "django"
    extensions = (".py", *_TEMPLATE_SUFFIXES)
    default_paths = ("**/*.py", "**/templates/**/*.html", "**/templates/**/*.txt")
    default_exclude = ("**/tests/**", "**/test_*.py", "**/migrations/**")
    default_keywords = DJANGO_KEYWORDS

    def reads(self, path: str) -> bool:
        if path.endswith(".py"):
            return True
        return path.endswith(_TEMPLATE_SUFFIXES) and _in_templates(path)

    def scan(self, path: str, data: bytes) -> FileScan:
        if not path.endswith(_TEMPLATE_SUFFIXES):
            return super().scan(path, data)
        template = Template.read(path, data)
        return FileScan(tuple(template.references), tuple(template.dynamic), tuple(template.hardcoded),
                        tuple(template.problems))

    def suggest_key(self, literal: Hardcoded, path: str, style: KeyStyle, taken: Collection[str]) -> str:
        """The text itself with each `%` doubled: the msgid `{% translate %}` looks up."""
        return literal.text.replace("%", "%%")

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        if not path.endswith(_TEMPLATE_SUFFIXES):
            return super().extraction(path, data, literal, key)
        written = data[literal.span.start_byte:literal.span.end_byte].decode("utf-8", "replace")
        if "{{" in written or "{%" in written:
            raise ExtractionRefused("the text holds template variables: write it as {% blocktranslate %} with a name "
                                    "for each variable, by hand")
        if " ".join(written.split()) != literal.text:
            raise ExtractionRefused(f"{path} changed since it was scanned: the text at line {literal.span.line} is "
                                    "no longer the literal; scan again")
        text = key.replace("%%", "%")
        if text.replace("%", "%%") != key:
            raise ExtractionRefused(f"the key {key!r} has a single '%': {{% translate %}} looks its text up with each "
                                    "'%' doubled, so write the key with '%%'")
        if "\n" in text or "\r" in text or any(d in text for d in ("{%", "%}", "{{", "}}", "{#", "#}")):
            raise ExtractionRefused(f"the key {key!r} holds a line break or a template tag delimiter, which a "
                                    "{% translate %} literal cannot")
        quote = _quote_for(text, data, literal)
        edits = [Edit(literal.span.start_byte, literal.span.end_byte, f"{{% translate {quote}{text}{quote} %}}")]
        load = _load_edit(data)
        if load is not None:
            edits.insert(0, load)
        return Extraction(tuple(edits), key)


def _in_templates(path: str) -> bool:
    return "templates" in path.split("/")[:-1]


def _quote_for(text: str, data: bytes, literal: Hardcoded) -> str:
    """The quote the tag's literal takes: one the text does not hold, in an attribute the one its
    value is not quoted with (so HTML tools still read the attribute)."""
    around = data[literal.span.start_byte - 1:literal.span.start_byte].decode("latin-1") \
        if literal.kind.startswith("html-attribute:") and literal.span.start_byte else ""
    for quote in (("'", '"') if around == '"' else ('"', "'")):
        if quote not in text:
            return quote
    raise ExtractionRefused("the text holds both ' and \": a template string literal has no escape for either; "
                            "translate it with {% blocktranslate %} by hand")


def _load_edit(data: bytes) -> Edit | None:
    """`{% load i18n %}` where the template lacks it: after `{% extends %}`, else at the top."""
    tokens = list(tokenize(data))
    if load_i18n_present(tokens):
        return None
    for token in tokens:
        if token.kind == "block" and token.contents.split()[:1] == ["extends"]:
            return Edit(token.end, token.end, "\n{% load i18n %}")
    return Edit(0, 0, "{% load i18n %}\n")
