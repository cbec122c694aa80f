"""The checked-in schema files equal what the models generate now (regenerate with
`uv run python -m parlance_translation.schemas --write` after changing a model)."""

from __future__ import annotations

import json

import pytest

from parlance_translation.contract import OUTPUT_MODELS
from parlance_translation.schemas import generate_input_schema, generate_output_schema, input_schema, output_schema


@pytest.mark.parametrize("tool", sorted(OUTPUT_MODELS))
def test_checked_in_schemas_match_the_models(tool: str) -> None:
    fix = "run `uv run python -m parlance_translation.schemas --write` and review the diff"
    assert output_schema(tool) == json.loads(generate_output_schema(tool)), f"{tool}.output.json is stale: {fix}"
    assert input_schema(tool) == json.loads(generate_input_schema(tool)), f"{tool}.input.json is stale: {fix}"
