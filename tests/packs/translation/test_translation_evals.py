"""The eval corpus in CI: `parlance eval translation` passes, every output meets the contract, the
reference replies also pass through the real sampling path, and a stale prompt hash fails by slice."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp.types import CreateMessageResult, TextContent

from parlance_translation import pack
from parlance_translation.evaluation.runner import REPLY_SOURCE, SLICES, corpus_dir, load_slice, run_eval
from parlance_translation.prompting import EVAL_SLICES
from parlance_translation.schemas import output_schema

pytestmark = pytest.mark.anyio
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def report():
    return await run_eval(pack)


async def test_eval_corpus_passes(report) -> None:
    failures = [f"{f.slice} {f.example} [{f.check}] {f.problem}" for r in report.slices for f in r.failures]
    assert failures == []
    assert {r.slice for r in report.slices} == set(SLICES)
    assert all(r.examples >= 12 for r in report.slices)


async def test_every_eval_output_meets_the_published_output_schema(report) -> None:
    labels = {label.split(":")[1] for _, label, _ in report.outputs}
    assert labels == {"baseline", "replay"}
    assert len(report.outputs) == 2 * sum(r.examples for r in report.slices)
    for tool, label, output in report.outputs:
        jsonschema.validate(output, output_schema(tool))


async def test_every_eval_output_meets_the_contract(report, contract_check) -> None:
    for tool, label, output in report.outputs:
        contract_check(tool, output)  # skipped where the contract files are not available


def test_corpus_shape() -> None:
    corpus = corpus_dir()
    assert corpus == REPO / "plugins" / "translation" / "evals"
    for name, tool in SLICES.items():
        assert EVAL_SLICES[tool] == f"plugins/translation/evals/{name}/v0.1.0/general.jsonl"
        examples = load_slice(corpus, name)
        assert len(examples) >= 12
        assert len({example["id"] for example in examples}) == len(examples)
        assert all(example["reply_source"] == REPLY_SOURCE for example in examples)
        assert all(len(example["prompt_sha256"]) == 64 for example in examples)
        assert all(example["expect"]["baseline"] for example in examples)
        if tool != "brief_meeting":
            channels = {example["input"].get("channel", "generic") for example in examples}
            assert len(channels) >= 5, channels
    registers = {example["input"]["target_register"] for example in load_slice(corpus, "rewrite")}
    assert registers == {"direct", "warm", "formal", "concise", "clarifying"}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_reference_replies_pass_through_the_sampling_path(mode: str, report, contract_check) -> None:
    from parlance.testing import connect

    import parlance_translation.pack as pack

    replayed = {label: output for _, label, output in report.outputs if label.endswith(":replay")}
    current: dict[str, Any] = {}

    async def model(context: Any, params: Any) -> CreateMessageResult:
        text = json.dumps(current["reply"], ensure_ascii=False)
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text=text), model="eval-replay")

    config = {"packs": {"translation": {"mode": "sample"}}}
    async with connect({"translation": pack}, config=config, mode=mode, sampling_callback=model) as client:
        for name, tool in SLICES.items():
            for example in load_slice(corpus_dir(), name):
                current["reply"] = example["reference_reply"]
                result = await client.call_tool(tool, example["input"])
                assert result.is_error is False, (example["id"], result.structured_content)
                out = result.structured_content
                contract_check(tool, out)
                assert out["model_provenance"] == {"mode": "unknown", "provider": "unknown", "model": "eval-replay"}
                expected = dict(replayed[f"{example['id']}:replay"])
                expected["model_provenance"] = out["model_provenance"]
                assert out == expected, example["id"]


async def test_a_stale_prompt_hash_fails_naming_the_slice(tmp_path: Path) -> None:
    corpus = tmp_path / "evals"
    shutil.copytree(corpus_dir(), corpus, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = corpus / "tone" / "v0.1.0" / "general.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["prompt_sha256"] = "0" * 64  # as if the template changed after recording
    path.write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")

    result = await run_eval(pack, ["tone"], corpus)
    assert not result.ok
    [failure] = result.slices[0].failures
    assert failure.check == "prompt_sha256"
    assert failure.slice == "plugins/translation/evals/tone/v0.1.0/general.jsonl"
    assert "plugins/translation/evals/tone/v0.1.0/general.jsonl" in failure.problem

    env = {**os.environ, "PARLANCE_TRANSLATION_EVALS": str(corpus)}
    cli = subprocess.run([sys.executable, "-m", "parlance", "eval", "translation", "--slice", "tone", "--json"],
                         capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert cli.returncode == 1, cli.stderr
    payload = json.loads(cli.stdout)
    assert payload["ok"] is False
    assert payload["slices"][0]["failures"][0]["slice"] == "plugins/translation/evals/tone/v0.1.0/general.jsonl"


def test_cli_passes_on_the_committed_corpus() -> None:
    cli = subprocess.run([sys.executable, "-m", "parlance", "eval", "translation", "--slice", "meeting"],
                         capture_output=True, text=True, timeout=60, cwd=REPO)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "plugins/translation/evals/meeting/v0.1.0/general.jsonl: 12 examples" in cli.stdout
