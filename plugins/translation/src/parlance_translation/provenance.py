"""`model_provenance`: which model answered, which provider it likely belongs to, local or cloud.

`model` is what the client reported in its sampling answer (MCP `CreateMessageResult.model`);
`provider` is guessed from the model name with the table below (first match wins) — MCP does not
carry the provider, so this is a documented guess and `unknown` when nothing matches; `mode` comes
from the `provenance_mode` setting, because only the person who configured the client knows
whether its model runs locally (the server never assumes).

| model name looks like                                   | provider    |
|---------------------------------------------------------|-------------|
| `<provider>/<model>` (router style, e.g. `openai/gpt-4o`)| `<provider>`|
| `name:tag` (e.g. `llama3.1:8b-instruct`, `qwen2.5:7b`)   | ollama      |
| `claude...`                                             | anthropic   |
| `gpt-...`, `o1...`, `o3...`, `o4...`, `chatgpt...`      | openai      |
| `gemini...`, `gemma...`                                 | google      |
| `mistral...`, `mixtral...`, `codestral...`, `ministral...` | mistral  |
| `command...`                                            | cohere      |
| `grok...`                                               | xai         |
| `deepseek...`                                           | deepseek    |
| `llama...`, `meta-llama...`                             | meta        |
| `qwen...`                                               | alibaba     |
| anything else                                           | unknown     |
"""

from __future__ import annotations

import re

BASELINE_MODEL = "baseline-heuristics-0.1"
BASELINE = {"mode": "local", "provider": "parlance", "model": BASELINE_MODEL}
"""Provenance of baseline results: no model ran; Parlance's own heuristics, on this machine."""

_ROUTED = re.compile(r"^(?P<provider>[a-z][a-z0-9-]*)/.+")
_OLLAMA_TAG = re.compile(r"^[a-z][a-z0-9._-]*:[a-z0-9._-]+$")
PREFIXES: tuple[tuple[str, str], ...] = (
    ("claude", "anthropic"),
    ("gpt-", "openai"),
    ("gpt4", "openai"),
    ("chatgpt", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4", "openai"),
    ("gemini", "google"),
    ("gemma", "google"),
    ("mistral", "mistral"),
    ("mixtral", "mistral"),
    ("codestral", "mistral"),
    ("ministral", "mistral"),
    ("command", "cohere"),
    ("grok", "xai"),
    ("deepseek", "deepseek"),
    ("meta-llama", "meta"),
    ("llama", "meta"),
    ("qwen", "alibaba"),
)
_KNOWN_ROUTED = {"anthropic", "openai", "google", "mistral", "mistralai", "cohere", "xai", "deepseek", "meta",
                 "meta-llama", "ollama", "azure", "azure-openai", "bedrock", "vertex", "groq", "together"}


def provider_for(model: str) -> str:
    """The provider a model name points to, per the table in this module's docstring."""
    name = model.strip().lower()
    routed = _ROUTED.match(name)
    if routed and routed.group("provider") in _KNOWN_ROUTED:
        return routed.group("provider")
    if _OLLAMA_TAG.match(name):
        return "ollama"
    for prefix, provider in PREFIXES:
        if name.startswith(prefix):
            return provider
    return "unknown"


def sampled(model: str, mode: str) -> dict[str, str]:
    """Provenance for a reply the client's model produced through sampling."""
    reported = model.strip() or "unknown"
    return {"mode": mode, "provider": provider_for(reported), "model": reported}


def caller_supplied(mode: str) -> dict[str, str]:
    """Provenance for a `model_output` the caller sent: the server cannot know which model wrote it."""
    return {"mode": mode, "provider": "unknown", "model": "unknown"}
