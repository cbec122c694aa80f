"""The pack's models and schemas against the v0.1.0 contract files: no drift, examples round-trip."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from parlance_translation.contract import OUTPUT_MODELS
from parlance_translation.inputs import INPUT_MODELS
from parlance_translation.schemas import SERVER_OWNED, output_schema, reply_schema

TOOLS = ("translate_incoming", "check_tone", "rewrite_outgoing", "brief_meeting")
KEYWORDS = ("maxItems", "maxLength", "minLength", "minimum", "maximum", "const")


def constraints(node: dict[str, Any], defs: dict[str, Any], path: str = "$") -> dict[str, dict[str, Any]]:
    """path -> the validation keywords at that path (refs resolved, nullable unions merged)."""
    if "$ref" in node:
        node = {**defs[node["$ref"].split("/")[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    found: dict[str, dict[str, Any]] = {}
    for branch in node.get("anyOf", []):
        if branch.get("type") != "null":
            for key, value in constraints(branch, defs, path).items():
                found.setdefault(key, {}).update(value)
    own = {key: node[key] for key in KEYWORDS if key in node}
    if "enum" in node:
        own["enum"] = sorted(node["enum"])
    if "required" in node:
        own["required"] = sorted(node["required"])
    if node.get("additionalProperties") is False:
        own["closed"] = True
    if own:
        found.setdefault(path, {}).update(own)
    for name, sub in node.get("properties", {}).items():
        for key, value in constraints(sub, defs, f"{path}.{name}").items():
            found.setdefault(key, {}).update(value)
    if isinstance(node.get("items"), dict):
        for key, value in constraints(node["items"], defs, f"{path}[]").items():
            found.setdefault(key, {}).update(value)
    return found


@pytest.mark.parametrize("tool", TOOLS)
def test_output_model_has_exactly_the_contracts_constraints(tool: str, contract) -> None:
    document = contract(tool)
    theirs = constraints(document["properties"]["output"], document["$defs"])
    ours = constraints(output_schema(tool), {})
    assert ours == theirs


@pytest.mark.parametrize("tool", TOOLS)
def test_contract_examples_are_valid_outputs_of_our_models(tool: str, contract, contract_check) -> None:
    for example in contract(tool)["examples"]:
        model = OUTPUT_MODELS[tool].model_validate(example["output"])
        dumped = model.model_dump(mode="json")
        contract_check(tool, dumped)
        jsonschema.validate(dumped, output_schema(tool))


@pytest.mark.parametrize("tool", TOOLS)
def test_contract_example_inputs_are_accepted(tool: str, contract) -> None:
    for example in contract(tool)["examples"]:
        INPUT_MODELS[tool].model_validate(example["input"])


@pytest.mark.parametrize("tool", TOOLS)
def test_input_model_covers_the_contract_inputs(tool: str, contract) -> None:
    contract_input = contract(tool)["properties"]["input"]
    ours = INPUT_MODELS[tool].model_json_schema()
    assert set(contract_input["properties"]) <= set(ours["properties"])
    assert sorted(ours.get("required", [])) == sorted(contract_input["required"])
    theirs = constraints(contract_input, contract(tool)["$defs"])
    mine = constraints(ours, ours.get("$defs", {}))
    for field in ("$.text", "$.transcript", "$.me"):  # the length limits behind the *_REQUIRED/*_TOO_LONG codes
        if field in theirs:
            assert {k: mine[field].get(k) for k in ("minLength", "maxLength")} == {
                k: theirs[field].get(k) for k in ("minLength", "maxLength")}, field
    for path, keywords in theirs.items():
        if "enum" in keywords:  # closed enums (channel, target_register) must match exactly
            assert mine[path]["enum"] == keywords["enum"], path


@pytest.mark.parametrize("tool", TOOLS)
def test_reply_schema_omits_only_server_owned_fields(tool: str) -> None:
    full, reply = output_schema(tool), reply_schema(tool)
    assert set(full["properties"]) - set(reply["properties"]) == SERVER_OWNED[tool]
    assert not set(reply["required"]) & SERVER_OWNED[tool]


def test_verbatim_must_be_json_true_not_one() -> None:
    item = {"text": "x", "verbatim": 1, "reason": "other", "quoted_span": {"start_char": 0, "end_char": 1, "text": "x"}}
    with pytest.raises(Exception, match="true"):
        OUTPUT_MODELS["brief_meeting"].model_validate(
            {"my_asks": [], "others_asks": [], "decisions": [], "ambiguous_items": [item], "eval_corpus_slice": "s",
             "model_provenance": {"mode": "unknown", "provider": "unknown", "model": "unknown"}})


@pytest.mark.anyio
@pytest.mark.parametrize("tool", TOOLS)
async def test_contract_example_inputs_through_the_server_meet_the_contract(
    tool: str, contract, contract_check, translation_client
) -> None:
    async with translation_client() as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        advertised = listed[tool].output_schema
        # The host may widen the advertised schema with its error envelope (anyOf [ours, envelope]).
        assert advertised == output_schema(tool) or output_schema(tool) in advertised.get("anyOf", [])
        for example in contract(tool)["examples"]:
            result = await client.call_tool(tool, example["input"])
            assert result.is_error is False, result.structured_content
            contract_check(tool, result.structured_content)
            jsonschema.validate(result.structured_content, output_schema(tool))
