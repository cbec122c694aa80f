"""`loop.prompting`: the prompt a caller's model translates a page from (items with their placeholders,
plural categories, notes and examples; the page's glossary; the locale's style notes; the answer's
shape for i18n_set_messages), and language packs overriding the template as they override the
translation pack's.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from parlance import LanguagePack, LanguagePacks

from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.glossary import StyleNotes, Term
from parlance_i18n.loop.prompting import render_prompt, resolve_template
from parlance_i18n.loop.workitems import WorkItem

DE = parse_locale("de")
EN = parse_locale("en")
NOTES = StyleNotes(formality="Sie, capitalised", quotes="„…“", units=None, notes=("Buttons are infinitives.",))
CART = Term("cart", "Warenkorb", note="never Einkaufswagen")
PAYPAL = Term("PayPal", None, case_sensitive=True)


def item(key: str, source: str | dict[str, str], **fields: object) -> WorkItem:
    defaults: dict[str, object] = {"placeholders": [], "plural_categories": [], "comment": None, "context": None,
                                   "max_length": None, "glossary": [], "examples": [], "catalog": "web",
                                   "file": "/srv/app/web/de.json"}
    return WorkItem(key=key, source=source, **{**defaults, **fields})  # type: ignore[arg-type]


PAGE = [
    item("cart.empty", "Your cart is empty", glossary=[CART], examples=[("Your cart", "Ihr Warenkorb")]),
    item("checkout.total", "Total: {{amount}}", placeholders=["{{amount}}"], max_length=20,
         comment="Below the order summary"),
    item("pay.with", "Pay with PayPal", glossary=[PAYPAL], reason="stale"),
    item("cart.items", {"one": "{{count}} item", "other": "{{count}} items"}, placeholders=["{{count}}"],
         plural_categories=["one", "other"], glossary=[CART]),
]


def test_the_prompt_carries_the_page_the_glossary_and_the_style() -> None:
    prompt = render_prompt(PAGE, DE, NOTES, None, source_tag=EN)
    assert prompt.startswith("Translate the user-interface messages below from English into German (locale de).\n")
    assert "<!-- template" not in prompt
    assert "Style for German:\n- Formality: Sie, capitalised\n- Quotation marks: „…“\n- Buttons are infinitives.\n" \
        in prompt
    assert "Glossary for these messages:\n- cart -> Warenkorb (never Einkaufswagen)\n" \
           "- PayPal -> keep as written (case-sensitive)\n" in prompt
    lines = prompt.split("The 4 messages to translate, one JSON object a line:\n")[1].split("\n\n")[0].splitlines()
    assert [json.loads(line) for line in lines] == [
        {"key": "cart.empty", "source": "Your cart is empty",
         "examples": [{"source": "Your cart", "translation": "Ihr Warenkorb"}]},
        {"key": "checkout.total", "source": "Total: {{amount}}", "placeholders": ["{{amount}}"],
         "comment": "Below the order summary", "max_length": 20},
        {"key": "pay.with", "source": "Pay with PayPal", "reason": "stale"},
        {"key": "cart.items", "source": {"one": "{{count}} item", "other": "{{count}} items"},
         "placeholders": ["{{count}}"], "plural_categories": ["one", "other"]},
    ]
    assert "/srv/app" not in prompt  # where the files live is not the model's business
    answer = prompt.split("shaped like this:\n")[1].split("\nThe answer is passed")[0]
    assert json.loads(answer) == {"cart.empty": "<translation>", "checkout.total": "<translation>",
                                  "cart.items": {"one": "<one form>", "other": "<other form>"}}
    assert prompt.rstrip().endswith("plural forms, glossary terms and length.")
    assert "i18n_set_messages for locale de" in prompt


def test_an_empty_page_and_empty_notes_say_so() -> None:
    prompt = render_prompt([], parse_locale("pt-BR"), StyleNotes(), None)
    assert "from the source language into Portuguese (Brazil) (locale pt-BR)" in prompt
    assert "- (no style notes for this locale)" in prompt
    assert "- (no glossary terms in these messages)" in prompt
    assert "The 0 messages to translate, one JSON object a line:\n(none)\n" in prompt


def test_braces_in_messages_are_not_taken_for_template_placeholders() -> None:
    prompt = render_prompt([item("x", "{{locale}} {{items}}", placeholders=["{{locale}}", "{{items}}"])], DE,
                           StyleNotes(), None)
    assert '{"key": "x", "source": "{{locale}} {{items}}", "placeholders": ["{{locale}}", "{{items}}"]}' in prompt


def override(root: Path, name: str, languages: list[str], text: str) -> LanguagePack:
    path = root / name / "prompts" / "i18n" / "translate_missing.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return LanguagePack(name=name, path=root / name, languages=languages)


def test_a_language_pack_overrides_the_template_for_its_chain(tmp_path: Path) -> None:
    german = override(tmp_path, "de", ["de"], "<!-- template: translate_missing v1.2.0 -->\n"
                                               "Übersetze ins Deutsche ({{locale}}):\n{{items}}\n{{answer_example}}\n")
    packs = LanguagePacks("i18n", [german])
    prompt = render_prompt(PAGE[:1], parse_locale("de-AT"), NOTES, packs)
    assert prompt.startswith("Übersetze ins Deutsche (de-AT):\n{\"key\": \"cart.empty\"")
    template = resolve_template(parse_locale("de-AT"), packs)
    assert (template.origin, template.version, template.path) == ("de", "1.2.0", "prompts/i18n/translate_missing.md")
    assert resolve_template(parse_locale("fr"), packs).origin == "i18n"  # no pack for fr: the pack's own
    assert resolve_template(DE, None).origin == "i18n"


@pytest.mark.parametrize("text", [
    "<!-- template: translate_missing v2.0.0 -->\n{{items}}\n",  # another major version
    "<!-- template: translate_incoming v1.0.0 -->\n{{items}}\n",  # another template
    "<!-- template: translate_missing v1.0.0 -->\n{{items}} {{tone}}\n",  # a value the pack does not give
    "Translate these:\n{{items}}\n",  # no header
])
def test_an_override_that_does_not_fit_is_skipped(tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture) -> None:
    packs = LanguagePacks("i18n", [override(tmp_path, "de", ["de"], text)])
    with caplog.at_level(logging.WARNING, logger="parlance_i18n.loop.prompting"):
        prompt = render_prompt(PAGE[:1], DE, NOTES, packs)
    assert prompt.startswith("Translate the user-interface messages below")
    assert [record.getMessage() for record in caplog.records] == ["i18n.template_override_skipped"]


def test_the_most_specific_fitting_override_wins(tmp_path: Path) -> None:
    austrian = override(tmp_path, "de-AT", ["de-AT"], "<!-- template: translate_missing v3.0.0 -->\nAT {{items}}\n")
    german = override(tmp_path, "de", ["de"], "<!-- template: translate_missing v1.0.1 -->\nDE {{items}}\n")
    prompt = render_prompt(PAGE[:1], parse_locale("de-AT"), NOTES, LanguagePacks("i18n", [german, austrian]))
    assert prompt.startswith("DE {")  # de-AT's is another major version: skipped, de's fits


def test_glossary_terms_are_listed_once_for_the_page() -> None:
    prompt = render_prompt([PAGE[0], PAGE[3]], DE, NOTES, None)
    assert prompt.count("- cart -> Warenkorb") == 1
