"""Schemas the host derives from pydantic models: inlined, flattened, and exactly as strict."""

from __future__ import annotations

from typing import Any, Literal

import jsonschema
import pytest
from pydantic import BaseModel, Field

from parlance.schemas import admit_error_envelope, input_schema_for, output_schema_for


class Span(BaseModel):
    start: int = Field(ge=0)
    note: str | None = Field(default=None, max_length=5)


class Sample(BaseModel):
    name: str
    span: Span | None = None
    tags: list[str] | None = None
    level: Literal["a", "b"] | None = None
    count: int | None = Field(default=None, ge=1)


INSTANCES: list[Any] = [
    {"name": "x"},
    {"name": "x", "span": None, "tags": None, "level": None, "count": None},
    {"name": "x", "span": {"start": 1, "note": "short"}, "tags": ["a"], "level": "a", "count": 2},
    {"name": "x", "span": {"start": -1}},
    {"name": "x", "span": {"start": 1, "note": "far too long"}},
    {"name": "x", "tags": "not a list"},
    {"name": "x", "level": "c"},
    {"name": "x", "count": 0},
    {"name": 3},
    {},
]


@pytest.mark.parametrize("instance", INSTANCES)
def test_flattened_schema_accepts_exactly_what_pydantic_schema_accepts(instance: Any) -> None:
    original = Sample.model_json_schema(mode="validation")
    flattened = input_schema_for(Sample)
    assert jsonschema.Draft202012Validator(flattened).is_valid(instance) == \
        jsonschema.Draft202012Validator(original).is_valid(instance)


def test_nullable_fields_become_type_lists_and_refs_are_inlined() -> None:
    schema = input_schema_for(Sample)
    assert "$defs" not in schema and "$ref" not in str(schema)
    assert schema["properties"]["tags"]["type"] == ["array", "null"]
    assert schema["properties"]["count"] == {"default": None, "minimum": 1, "type": ["integer", "null"]}
    assert schema["properties"]["span"]["type"] == ["object", "null"]
    assert "anyOf" in schema["properties"]["level"]  # an enum also constrains null: left as it is
    assert all("title" not in prop for prop in schema["properties"].values())


def test_advertised_output_schema_admits_results_and_the_error_envelope() -> None:
    schema = admit_error_envelope(output_schema_for(Sample))
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"name": "x"})
    assert validator.is_valid({"error": "name must not be blank", "code": "EMPTY_NAME", "data": {}})
    assert not validator.is_valid({"code": "EMPTY_NAME"})
    assert schema["type"] == "object"
