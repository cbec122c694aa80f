"""Fixtures for the translation pack: both protocol eras, real in-process clients, the contract schemas.

The v0.1.0 contract files are read from the shared reference folder (they are AGPL data and are
not copied into the repository); `contract_check(tool, output)` validates an output against the
tool's `properties.output` schema with every `$defs` entry resolvable.
Helpers live here (as fixtures) because the test directory is not a package.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import parlance_translation.pack
from parlance.testing import connect

from tests.support import ERAS
TOOLS = ("translate_incoming", "check_tone", "rewrite_outgoing", "brief_meeting")
# The project's shared/ folder sits beside the clone (on developers' machines and in CI alike).
_BESIDE_THE_CLONE = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "translation-contract-v0.1.0"
CONTRACT_DIR = Path(os.environ.get("PARLANCE_TRANSLATION_CONTRACT", _BESIDE_THE_CLONE))




def _contract(tool: str) -> dict[str, Any]:
    return json.loads((CONTRACT_DIR / f"{tool}.schema.json").read_text(encoding="utf-8"))


def _require_contract() -> None:
    # Skip at fixture setup: a skip raised inside an async test's task group would reach pytest wrapped
    # in an ExceptionGroup.
    if not all((CONTRACT_DIR / f"{tool}.schema.json").exists() for tool in TOOLS):
        message = ("these tests check results against the translation tools' published v0.1.0 contract (JSON "
                   "Schema files from the project's shared reference folder, which sits beside a maintainer's "
                   f"clone), and it is not in {CONTRACT_DIR}: point PARLANCE_TRANSLATION_CONTRACT at a folder "
                   "holding the four <tool>.schema.json files to run them")
        if os.environ.get("CI"):  # CI always has shared/ beside the clone: a missing contract is a failure
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def contract() -> Callable[[str], dict[str, Any]]:
    """contract(tool) -> the parsed v0.1.0 schema file of `tool`."""
    _require_contract()
    return _contract


@pytest.fixture(scope="session")
def contract_check() -> Callable[[str, dict[str, Any]], None]:
    """contract_check(tool, output): raise jsonschema.ValidationError unless `output` meets the contract."""
    _require_contract()
    validators: dict[str, Any] = {}

    def check(tool: str, output: dict[str, Any]) -> None:
        if tool not in validators:
            document = _contract(tool)
            # Validate against properties.output, resolving "#/$defs/..." in the same document.
            schema = {**document["properties"]["output"], "$defs": document["$defs"]}
            jsonschema.Draft202012Validator.check_schema(schema)
            validators[tool] = jsonschema.Draft202012Validator(schema)
        validators[tool].validate(output)

    return check


@pytest.fixture
def translation_client(mode: str) -> Callable[..., AbstractAsyncContextManager[Any]]:
    """`async with translation_client(settings={...}, **client_kwargs) as client:` on a host with this pack."""

    @asynccontextmanager
    async def open_client(settings: dict[str, Any] | None = None, **client_kwargs: Any) -> AsyncIterator[Any]:
        config = {"packs": {"translation": settings or {}}}
        async with connect({"translation": parlance_translation.pack}, config=config, mode=mode,
                           **client_kwargs) as client:
            assert client.protocol_version == ERAS[mode]
            yield client

    return open_client


def meta_of(result: Any) -> dict[str, Any]:
    """The pack's `_meta` entry of a tool result."""
    return (result.meta or {}).get("parlance/translation", {})


@pytest.fixture(scope="session")
def translation_meta() -> Callable[[Any], dict[str, Any]]:
    return meta_of
