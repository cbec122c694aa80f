"""What i18next and react-i18next would do otherwise with a translation than with its source, beyond
its syntax and placeholders (`I18nextFormat.runtime_refusals`):

- `Trans` component tags (`<1>docs</1>`, `<strong>here</strong>`, `<br/>`): each of the source's
  kept, none added, each closed where it opens (`rich_text`);
- an unclosed `{{` (`{{layout`): i18next's interpolation finds no variable and prints it as text;
- an unclosed `$t(` nesting: i18next finds no nesting and prints `$t(key` as text.

A plural group's forms are each compared with the source's form of the same category, else with its
`other` form.
"""

from __future__ import annotations

from parlance_i18n.formats.base import Value
from parlance_i18n.formats.i18next.render import NESTING, VARIABLE
from parlance_i18n.formats.shared.rich_text import tag_reasons

__all__ = ["runtime_refusals"]


def runtime_refusals(source: Value, translation: Value) -> list[str]:
    reasons: list[str] = []
    for source_text, text in _paired(source, translation):
        for reason in _form_reasons(source_text, text):
            if reason not in reasons:
                reasons.append(reason)
    return reasons


def _paired(source: Value, translation: Value) -> list[tuple[str, str]]:
    if isinstance(translation, str):
        return [(source if isinstance(source, str) else source.get("other", ""), translation)]
    if isinstance(source, str):
        return [(source, text) for text in translation.values()]
    return [(source.get(name, source.get("other", "")), text) for name, text in translation.items()]


def _form_reasons(source: str, text: str) -> list[str]:
    reasons = tag_reasons(source, text, icu=False, noun="the component tag",
                          fix="keep each tag of the source around the words it marks (Trans renders the "
                              "component there)")
    if _unclosed_variable(text) and not _unclosed_variable(source):
        reasons.append("has an unclosed {{ (i18next prints it as text instead of the value): close it as "
                       "{{name}}")
    if text.count("$t(") > len(NESTING.findall(text)) and source.count("$t(") == len(NESTING.findall(source)):
        reasons.append("has an unclosed $t( nesting (i18next prints it as text instead of the nested message): "
                       "close it as $t(key)")
    return reasons


def _unclosed_variable(text: str) -> bool:
    """Whether a `{{` of `text` starts no variable (no `}}` on its line, or another `{{` first)."""
    at = text.find("{{")
    while at >= 0:
        match = VARIABLE.match(text, at)
        if match is None or "{{" in match.group(1):
            return True
        at = text.find("{{", match.end())
    return False
