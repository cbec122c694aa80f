"""JSON Schemas from pydantic models, shaped for MCP clients.

pydantic emits `$defs` + `$ref`, `anyOf` for every Optional, and a `title` on every property.
`flatten` inlines non-recursive references (several MCP clients handle `$ref` poorly) and writes
Optional as a type list; packs that ship schemas of their own use it too. Tool schemas also drop
property titles, which only repeat the property's name. The root stays `"type": "object"`.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

__all__ = ["ERROR_ENVELOPE_SCHEMA", "admit_error_envelope", "flatten", "form_schema_for", "input_schema_for",
           "output_schema_for"]

ERROR_ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error result (isError: true): `code` is machine-readable, `error` is the sentence.",
    "required": ["error", "code"],
    "properties": {
        "error": {"type": "string"},
        "code": {"type": "string"},
        "data": {"type": "object"},
    },
}


def input_schema_for(model: type[BaseModel]) -> dict[str, Any]:
    return _clean(model.model_json_schema(mode="validation"))


def form_schema_for(model: type[BaseModel]) -> dict[str, Any]:
    """An elicitation form from a pydantic model: flat, as MCP forms must be (no `$ref`), each field
    of one type. An optional field is simply not required; its `null` is left out of its type."""
    schema = input_schema_for(model)
    for name, field in list(schema.get("properties", {}).items()):
        kinds = field.get("type")
        if isinstance(kinds, list) and "null" in kinds:
            rest = [kind for kind in kinds if kind != "null"]
            field = {**field, "type": rest[0] if len(rest) == 1 else rest}
            if field.get("default", ...) is None:
                field.pop("default")
            schema["properties"][name] = field
    return schema


def output_schema_for(model: type[BaseModel]) -> dict[str, Any]:
    # `additionalProperties: true` is JSON Schema's default. Spelled out (pydantic does, for models
    # that allow extra fields), it makes a client that validates structuredContent (the Python SDK
    # does, per call) collect every object's extra keys for nothing.
    cleaned = _clean(model.model_json_schema(mode="serialization"))
    schema: dict[str, Any] = _without_default_additional_properties(cleaned)
    return schema


def flatten(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with non-recursive `$ref`s inlined and nullable `anyOf`s written as type lists (a copy)."""
    schema = dict(schema)
    defs = schema.pop("$defs", {})
    inlined: dict[str, Any] = _inline(schema, defs, seen=())
    if _has_ref(inlined):  # recursive model: keep pydantic's $defs so the refs still resolve
        inlined["$defs"] = defs
    return inlined


def _clean(schema: dict[str, Any]) -> dict[str, Any]:
    cleaned: dict[str, Any] = _without_property_titles(flatten(schema))
    cleaned.setdefault("type", "object")
    cleaned.setdefault("properties", {})
    return cleaned


def _without_property_titles(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_property_titles(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _without_property_titles(v) for k, v in node.items()}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: {k: v for k, v in sub.items() if k != "title"} if isinstance(sub, dict) else sub
                             for name, sub in out["properties"].items()}
    return out


_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs"})  # keys there are names, not keywords


def _without_default_additional_properties(node: Any, names: bool = False) -> Any:
    if isinstance(node, list):
        return [_without_default_additional_properties(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {k: _without_default_additional_properties(v, not names and k in _NAME_MAPS) for k, v in node.items()
            if names or not (k == "additionalProperties" and v is True)}


def _inline(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        if name in seen or name not in defs:
            return node
        target = _inline(copy.deepcopy(defs[name]), defs, (*seen, name))
        siblings = {k: _inline(v, defs, seen) for k, v in node.items() if k != "$ref"}
        return {**target, **siblings}
    return _nullable_as_type_list({key: _inline(value, defs, seen) for key, value in node.items()})


# Keywords that constrain a null instance too; a branch carrying one cannot be merged into a type list.
_APPLIES_TO_NULL = frozenset({"const", "enum", "anyOf", "oneOf", "allOf", "not", "$ref", "if"})


def _nullable_as_type_list(node: dict[str, Any]) -> dict[str, Any]:
    """`anyOf: [{"type": X, ...}, {"type": "null"}]` -> `{"type": [X, "null"], ...}` (pydantic's Optional).

    Exact: every other keyword on the X branch (maxLength, minimum, properties, ...) constrains only
    instances of type X. The flat form is what most MCP clients and their models read best, and it
    is several times cheaper for a validator than trying branches.
    """
    branches = node.get("anyOf")
    if not (isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches):
        return node
    other = branches[0] if branches[1] == {"type": "null"} else branches[1]
    if not isinstance(other, dict) or not isinstance(other.get("type"), str) or _APPLIES_TO_NULL & other.keys():
        return node
    merged = {k: v for k, v in node.items() if k != "anyOf"}
    merged.update(other)
    merged["type"] = [other["type"], "null"]
    return merged


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


def admit_error_envelope(schema: dict[str, Any]) -> dict[str, Any]:
    """The advertised outputSchema: the tool's own output, or the host's error envelope.

    MCP says structured results MUST conform to a declared outputSchema, and TypeScript clients
    (the SDK and the Inspector) check error results too, so an error envelope that the schema does
    not admit turns a clear tool error into a client-side validation failure.
    """
    own = dict(schema)
    defs = own.pop("$defs", None)
    wrapped: dict[str, Any] = {"type": "object", "anyOf": [own, ERROR_ENVELOPE_SCHEMA]}
    if defs:
        wrapped["$defs"] = defs
    return wrapped
