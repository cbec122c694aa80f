"""Prompt templates, lexicon resolution, provider table, and the prompt each call renders."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from parlance import ToolError

from parlance_translation import provenance
from parlance_translation.inputs import INPUT_MODELS
from parlance_translation.prompting import prepare
from parlance_translation.templates import Template, Source, resolve, resolve_lexicon

TOOLS = ("translate_incoming", "check_tone", "rewrite_outgoing", "brief_meeting")
PLACEHOLDERS = {
    "translate_incoming": {"channel", "thread_context", "text", "output_schema"},
    "check_tone": {"channel", "target_register", "baseline_messages", "text", "output_schema"},
    "rewrite_outgoing": {"channel", "target_register", "preserve_terms", "preserve_intent", "text", "output_schema"},
    "brief_meeting": {"me", "project", "speakers", "transcript", "output_schema"},
}
MINIMAL = {
    "translate_incoming": {"text": "Can we talk {{text}}?"},
    "check_tone": {"text": "Fix it now."},
    "rewrite_outgoing": {"text": "Fix it now.", "target_register": "warm"},
    "brief_meeting": {"transcript": "Priya: can you {{me}} own it? Thomas: yes.", "me": "Thomas"},
}


@pytest.mark.parametrize("tool", TOOLS)
def test_template_has_a_version_header_and_the_documented_placeholders(tool: str) -> None:
    raw = resources.files("parlance_translation").joinpath(f"prompts/{tool}.md").read_text(encoding="utf-8")
    assert re.match(rf"<!-- template: {tool} v\d+\.\d+\.\d+ -->\n", raw)
    template = resolve(tool)
    assert template.placeholders == PLACEHOLDERS[tool]
    assert template.source == Source(pack="translation", language="en", version=template.version,
                                     path=f"prompts/{tool}.md")


@pytest.mark.parametrize("tool", TOOLS)
def test_rendering_substitutes_once_and_leaves_no_placeholder(tool: str) -> None:
    prepared = prepare(tool, INPUT_MODELS[tool].model_validate(MINIMAL[tool]))
    source_text = MINIMAL[tool].get("text") or MINIMAL[tool]["transcript"]
    assert source_text in prepared.user_prompt  # the user's "{{...}}" is data: kept verbatim, not expanded
    leftover = set(re.findall(r"\{\{\s*(\w+)\s*\}\}", prepared.user_prompt.replace(source_text, "")))
    assert leftover == set()


def test_render_requires_every_placeholder() -> None:
    template = Template(tool="t", version="1.0.0", body="{{a}} {{b}}", source=Source("p", "en", "1.0.0", "x"),
                        placeholders=frozenset({"a", "b"}))
    assert template.render({"a": "{{b}}", "b": "2"}) == "{{b}} 2"
    with pytest.raises(KeyError):
        template.render({"a": "1"})


@pytest.mark.parametrize("tag", [None, "", "en", "en-US", "en_GB", "EN", "en-Latn-IE"])
def test_english_and_absent_tags_resolve_to_the_base_files(tag: str | None) -> None:
    assert resolve("check_tone", tag).source.language == "en"
    assert resolve_lexicon("tone", tag).source.path == "lexicons/tone.toml"


@pytest.mark.parametrize("tag", ["de", "ja-JP", "fr_CA", "not a tag", "e"])
def test_other_languages_are_language_pack_missing(tag: str) -> None:
    with pytest.raises(ToolError) as raised:
        resolve("brief_meeting", tag)
    assert raised.value.code == "LANGUAGE_PACK_MISSING"
    assert repr(tag) in raised.value.message


@pytest.mark.parametrize("name", ["ambiguity", "tone", "rewrite", "meeting"])
def test_lexicons_declare_version_and_language(name: str) -> None:
    lexicon = resolve_lexicon(name)
    assert lexicon.data["meta"]["language"] == "en"
    assert re.fullmatch(r"\d+\.\d+\.\d+", lexicon.source.version)


@pytest.mark.parametrize(("model", "provider"), [
    ("claude-sonnet-4.6", "anthropic"),
    ("claude-3-5-haiku-20241022", "anthropic"),
    ("gpt-4o-mini", "openai"),
    ("o3-mini", "openai"),
    ("gemini-2.0-flash", "google"),
    ("llama3.1:8b-instruct", "ollama"),
    ("qwen2.5:7b", "ollama"),
    ("mistral:latest", "ollama"),
    ("mistral-large-latest", "mistral"),
    ("openai/gpt-4o", "openai"),
    ("my-finetune", "unknown"),
    ("", "unknown"),
])
def test_provider_table(model: str, provider: str) -> None:
    assert provenance.provider_for(model) == provider


def test_sampled_provenance_uses_the_reported_model_and_the_configured_mode() -> None:
    assert provenance.sampled("llama3.1:8b-instruct", "local") == {
        "mode": "local", "provider": "ollama", "model": "llama3.1:8b-instruct"}
    assert provenance.sampled("", "unknown") == {"mode": "unknown", "provider": "unknown", "model": "unknown"}
