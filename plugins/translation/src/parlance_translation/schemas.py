"""JSON Schemas derived from the contract models: the tools' schemas and the model's reply schema.

`output_schema(tool)` and `input_schema(tool)` are what `tools/list` advertises. They are read from
`generated/<tool>.{output,input}.json`, which `python -m parlance_translation.schemas --write`
derives from the pydantic models; generating them at startup costs pydantic ~4 ms a model, paid
by every `parlance serve` before its first answer. A test regenerates them and fails on any drift. `reply_schema(tool)` is what the prompt asks
the model for: the same object without the fields the server owns (`eval_corpus_slice`,
`model_provenance`, and rewrite_outgoing's verified term lists). Its text is part of the rendered
prompt, so it is serialised deterministically (sorted keys) to keep prompt hashes stable.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from parlance import flatten, input_schema_for

from parlance_translation.contract import OUTPUT_MODELS

SERVER_OWNED: dict[str, frozenset[str]] = {
    "translate_incoming": frozenset({"eval_corpus_slice", "model_provenance"}),
    "check_tone": frozenset({"eval_corpus_slice", "model_provenance"}),
    "rewrite_outgoing": frozenset({"eval_corpus_slice", "model_provenance", "preserved_terms", "unpreserved_terms"}),
    "brief_meeting": frozenset({"eval_corpus_slice", "model_provenance"}),
}
"""Output fields the server sets itself, whatever a model reply says about them."""


GENERATED = "generated"


def generate_output_schema(tool: str) -> str:
    """The output schema derived from the contract model now (what the checked-in file must equal)."""
    schema = OUTPUT_MODELS[tool].model_json_schema(mode="serialization")
    # References inlined, Optional written as a type list: the contract's own spelling.
    return json.dumps(flatten(schema), sort_keys=True, ensure_ascii=False)


def generate_input_schema(tool: str) -> str:
    """The input schema as the host derives it from the input model (what the checked-in file must equal)."""
    from parlance_translation.inputs import INPUT_MODELS

    return json.dumps(input_schema_for(INPUT_MODELS[tool]), sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=None)
def _generated(tool: str, kind: str) -> str:
    return resources.files("parlance_translation").joinpath(GENERATED, f"{tool}.{kind}.json").read_text("utf-8")


def output_schema(tool: str) -> dict[str, Any]:
    """The tool's outputSchema: the contract model's JSON Schema, references inlined (a fresh copy)."""
    schema: dict[str, Any] = json.loads(_generated(tool, "output"))
    return schema


def input_schema(tool: str) -> dict[str, Any]:
    """The tool's inputSchema, as the host would derive it from the input model (a fresh copy)."""
    schema: dict[str, Any] = json.loads(_generated(tool, "input"))
    return schema


@lru_cache(maxsize=None)
def reply_schema_text(tool: str) -> str:
    """The reply schema as compact, key-sorted JSON (embedded in prompts)."""
    schema = output_schema(tool)  # a fresh copy
    owned = SERVER_OWNED[tool]
    schema["properties"] = {key: value for key, value in schema["properties"].items() if key not in owned}
    schema["required"] = [key for key in schema.get("required", []) if key not in owned]
    schema.pop("title", None)
    return json.dumps(schema, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def reply_schema(tool: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(reply_schema_text(tool))
    return schema


def write_generated() -> list[Path]:
    """Regenerate the checked-in schema files from the models; returns the files written."""
    folder = Path(__file__).resolve().parent / GENERATED
    folder.mkdir(exist_ok=True)
    written = []
    for tool in OUTPUT_MODELS:
        for kind, text in (("output", generate_output_schema(tool)), ("input", generate_input_schema(tool))):
            path = folder / f"{tool}.{kind}.json"
            path.write_text(json.dumps(json.loads(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                            encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":  # python -m parlance_translation.schemas --write
    import sys

    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m parlance_translation.schemas --write")
    for path in write_generated():
        sys.stderr.write(f"wrote {path}\n")
