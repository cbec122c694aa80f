"""Vendor neutrality and privacy: no model-vendor SDK anywhere, no network code in the pack, no input in logs."""

from __future__ import annotations

import ast
import json
import logging
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from mcp.types import CreateMessageResult, TextContent
from packaging.requirements import Requirement

import parlance_translation

pytestmark = pytest.mark.anyio

VENDOR_SDKS = {
    "openai", "anthropic", "google-generativeai", "google-genai", "google-cloud-aiplatform", "vertexai", "ollama",
    "litellm", "cohere", "mistralai", "groq", "together", "replicate", "fireworks-ai", "huggingface-hub",
    "langchain", "langchain-core", "langchain-openai", "llama-index", "llama-index-core", "boto3", "voyageai",
    "ai21", "openrouter", "instructor", "dspy", "dspy-ai",
}
NETWORK_MODULES = {"socket", "ssl", "http", "urllib", "urllib3", "httpx", "httpx2", "httpcore", "httpcore2", "requests",
                   "aiohttp", "websockets", "websocket", "ftplib", "smtplib", "grpc", "mcp"}
PACKAGE_DIR = Path(parlance_translation.__file__).parent


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _dependency_tree(root: str) -> set[str]:
    seen: set[str] = set()
    pending = [root]
    while pending:
        name = _normal(pending.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(requirement.name)
    return seen


def test_no_model_vendor_sdk_in_the_packs_dependency_tree() -> None:
    tree = _dependency_tree("parlance-translation")
    assert "mcp" in tree and "pydantic" in tree  # the walk really follows the tree
    assert tree & VENDOR_SDKS == set()


def test_no_model_vendor_sdk_installed_at_all() -> None:
    installed = {_normal(dist.metadata["Name"]) for dist in metadata.distributions() if dist.metadata["Name"]}
    assert installed & VENDOR_SDKS == set()


def test_pack_source_imports_no_network_client_nor_vendor_sdk() -> None:
    imported: dict[str, str] = {}
    files = sorted(PACKAGE_DIR.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in {
                    "__import__", "import_module"}:
                names = ["<dynamic import>"]
            else:
                continue
            for name in names:
                imported[name.split(".")[0]] = str(path.relative_to(PACKAGE_DIR))
    forbidden = {name: where for name, where in imported.items()
                 if name in NETWORK_MODULES or _normal(name) in VENDOR_SDKS or name == "<dynamic import>"}
    assert forbidden == {}


SECRET = "Zanzibar-7781-confidential"


async def test_input_text_and_model_replies_never_reach_the_logs(translation_client, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    transcript = f"Priya: Thomas, can you own the {SECRET} script?\nThomas: Yes, I'll have it by Friday.\n"
    reply = {"my_asks": [], "others_asks": [], "decisions": [], "ambiguous_items": [
        {"text": f"about {SECRET}", "verbatim": True, "reason": "other",
         "quoted_span": {"start_char": 0, "end_char": 5, "text": "WRONG"}}]}

    async def model(context: Any, params: Any) -> CreateMessageResult:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text=json.dumps(reply)),
                                   model=f"model-{SECRET}")

    calls = [
        ("translate_incoming", {"text": f"Can we revisit {SECRET}?"}),
        ("check_tone", {"text": f"Fix {SECRET} now!", "baseline_messages": [SECRET] * 3}),
        ("rewrite_outgoing", {"text": f"Fix {SECRET} now!", "target_register": "warm", "preserve_terms": [SECRET]}),
        ("brief_meeting", {"transcript": transcript, "me": "Thomas"}),
        ("brief_meeting", {"transcript": transcript, "me": "Thomas", "model_output": json.dumps(reply)}),
        ("translate_incoming", {"text": f"{SECRET}", "model_output": f"not json {SECRET}"}),
    ]
    async with translation_client() as client:
        for tool, args in calls:
            await client.call_tool(tool, args)
    async with translation_client(settings={"mode": "sample"}, sampling_callback=model) as client:
        failed = await client.call_tool("brief_meeting", {"transcript": transcript, "me": "Thomas"})
    assert failed.structured_content["code"] == "VERBATIM_ANCHOR_FAILED"
    assert caplog.records, "the host logs every call, so records must exist"
    for record in caplog.records:
        assert SECRET not in record.getMessage()
        assert SECRET not in repr(record.__dict__)
