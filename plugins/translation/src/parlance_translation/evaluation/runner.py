"""The eval corpus runner: every example through the real tool path, three ways.

For each example of a slice (`evals/<slice>/v0.1.0/general.jsonl`):

1. prompt hash — the prompt the tool renders today must hash to the example's `prompt_sha256`;
   a template, system-prompt or reply-schema change therefore fails the slice until the reference
   replies are reviewed and the slice re-recorded (`--rehash`).
2. baseline — the tool in baseline mode; the output must meet `expect.baseline`.
3. replay — the hand-written reference reply sent back as `model_output`, through the same
   validation as a sampled reply; the output must equal the reference (plus the server's fields)
   and meet `expect.replay`.
4. adversarial — mutations of the reference reply (non-JSON, off-by-one or fabricated spans,
   dropped preserve terms, out-of-range axes, ...) must produce the right error or signal.

Calls go through an in-process MCP client and server (`parlance.testing.connect`), so arguments,
validation, errors and `_meta` are exactly what a client sees.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlance_translation import errors
from parlance_translation.contract import OUTPUT_MODELS
from parlance_translation.evaluation.properties import check
from parlance_translation.inputs import INPUT_MODELS
from parlance_translation.prompting import EVAL_SLICES, prepare
from parlance_translation.replies import MEETING_SECTIONS
from parlance_translation.schemas import SERVER_OWNED
from parlance_translation.tools import META_KEY

CORPUS_VERSION = "v0.1.0"
SLICES = {"incoming": "translate_incoming", "tone": "check_tone", "rewrite": "rewrite_outgoing", "meeting": "brief_meeting"}
REPLY_SOURCE = "hand-written reference, not a model output"


@dataclass
class Failure:
    slice: str
    example: str
    check: str
    problem: str


@dataclass
class SliceReport:
    slice: str
    identifier: str
    tool: str
    examples: int = 0
    checks: int = 0
    failures: list[Failure] = field(default_factory=list)


@dataclass
class EvalReport:
    slices: list[SliceReport] = field(default_factory=list)
    outputs: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # (tool, label, structured)

    @property
    def ok(self) -> bool:
        return bool(self.slices) and not any(report.failures for report in self.slices)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "slices": [
                {"slice": r.slice, "identifier": r.identifier, "tool": r.tool, "examples": r.examples,
                 "checks": r.checks, "failures": [f.__dict__ for f in r.failures]}
                for r in self.slices
            ],
        }


def corpus_dir() -> Path:
    """Where the corpus lives: $PARLANCE_TRANSLATION_EVALS, the installed package, or the source checkout."""
    configured = os.environ.get("PARLANCE_TRANSLATION_EVALS")
    if configured:
        return Path(configured)
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "eval_corpus", package.parents[1] / "evals"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "the translation eval corpus was not found: run from a source checkout (plugins/translation/evals) "
        "or set PARLANCE_TRANSLATION_EVALS to its folder"
    )


def slice_file(corpus: Path, name: str) -> Path:
    return corpus / name / CORPUS_VERSION / "general.jsonl"


def load_slice(corpus: Path, name: str) -> list[dict[str, Any]]:
    path = slice_file(corpus, name)
    examples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                examples.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
    return examples


def write_slice(corpus: Path, name: str, examples: list[dict[str, Any]]) -> int:
    """Write `examples` as slice `name`, each pinned to the prompt it renders now (`prompt_sha256`).

    Returns how many examples' pins changed.
    """
    tool = SLICES[name]
    changed = 0
    for example in examples:
        digest = prepare(tool, INPUT_MODELS[tool].model_validate(example["input"])).prompt_sha256
        changed += digest != example.get("prompt_sha256")
        example["prompt_sha256"] = digest
    path = slice_file(corpus, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(example, ensure_ascii=False) + "\n" for example in examples), encoding="utf-8")
    return changed


def rehash(corpus: Path, names: list[str]) -> int:
    """Re-record prompt_sha256 for `names` (after reviewing the reference replies). Returns examples changed."""
    return sum(write_slice(corpus, name, load_slice(corpus, name)) for name in names)


async def run_eval(pack: object, names: list[str] | None = None, corpus: Path | None = None) -> EvalReport:
    """Run the named slices (default: all) against `pack` (the translation pack's hook module, passed
    in so the runner never imports the pack that registers it) and return what passed and failed."""
    from parlance.testing import connect  # the host's in-process client + server; loads `mcp`

    corpus = corpus or corpus_dir()
    report = EvalReport()
    config = {"packs": {"translation": {"mode": "baseline"}}}
    async with connect({"translation": pack}, config=config, mode="auto") as client:
        for name in names or list(SLICES):
            report.slices.append(await _run_slice(client, corpus, name, report))
    return report


async def _run_slice(client: Any, corpus: Path, name: str, report: EvalReport) -> SliceReport:
    tool = SLICES[name]
    identifier = EVAL_SLICES[tool]
    result = SliceReport(slice=name, identifier=identifier, tool=tool)

    def fail(example: str, check_name: str, problem: str) -> None:
        result.failures.append(Failure(slice=identifier, example=example, check=check_name, problem=problem))

    try:
        examples = load_slice(corpus, name)
    except (OSError, ValueError) as exc:
        fail("-", "load", str(exc))
        return result
    for example in examples:
        example_id = str(example.get("id", "?"))
        result.examples += 1
        args = example["input"]
        if example.get("reply_source") != REPLY_SOURCE:
            fail(example_id, "reply_source", f"reply_source must be {REPLY_SOURCE!r}")

        # 1. the prompt this example was recorded against
        result.checks += 1
        prepared = prepare(tool, INPUT_MODELS[tool].model_validate(args))
        if prepared.prompt_sha256 != example.get("prompt_sha256"):
            fail(example_id, "prompt_sha256",
                 f"slice {identifier} was recorded against another prompt: template {tool} "
                 f"v{prepared.template.version} now renders sha256 {prepared.prompt_sha256[:12]}…, the example has "
                 f"{str(example.get('prompt_sha256'))[:12]}…. Review the reference replies against the new prompt, "
                 f"then re-record: parlance eval translation --slice {name} --rehash")

        # 2. baseline
        result.checks += 1
        baseline = await client.call_tool(tool, args)
        _check_path(result, report, fail, tool, example, "baseline", baseline,
                    _result_problem(baseline, identifier, "baseline"))

        # 3. replay of the reference reply
        result.checks += 1
        reference = example["reference_reply"]
        replay = await client.call_tool(tool, {**args, "model_output": reference})
        problem = _result_problem(replay, identifier, "model_output")
        if problem is None and (mismatch := _replay_mismatch(tool, reference, replay.structured_content)):
            fail(example_id, "replay", mismatch)
        _check_path(result, report, fail, tool, example, "replay", replay, problem)

        # 4. adversarial replies
        for label, reply, expected in adversarial(tool, args, reference):
            result.checks += 1
            answer = await client.call_tool(tool, {**args, "model_output": reply})
            problem = _adversarial_problem(answer, expected)
            if problem:
                fail(example_id, f"adversarial: {label}", problem)
    return result


def _check_path(result: SliceReport, report: EvalReport, fail: Any, tool: str, example: dict[str, Any], path: str,
                outcome: Any, problem: str | None) -> None:
    """Record one path's output (baseline or replay) and check the example's expectations for it."""
    example_id = str(example.get("id", "?"))
    if problem is not None:
        fail(example_id, path, problem)
        return
    report.outputs.append((tool, f"{example_id}:{path}", outcome.structured_content))
    for expectation in example.get("expect", {}).get(path, []):
        result.checks += 1
        if found := check(outcome.structured_content, expectation):
            fail(example_id, path, found)


def _result_problem(result: Any, identifier: str, source: str) -> str | None:
    out = result.structured_content or {}
    if result.is_error:
        return f"the tool failed: {out.get('code')}: {out.get('error')}"
    if out.get("eval_corpus_slice") != identifier:
        return f"eval_corpus_slice is {out.get('eval_corpus_slice')!r}, expected {identifier!r}"
    if (result.meta or {}).get(META_KEY, {}).get("source") != source:
        return f"_meta source is not {source!r}"
    return None


def _replay_mismatch(tool: str, reference: dict[str, Any], output: dict[str, Any]) -> str | None:
    server = {key: output[key] for key in SERVER_OWNED[tool]}
    expected = OUTPUT_MODELS[tool].model_validate({**reference, **server}).model_dump(mode="json")
    for key in expected:
        if key not in SERVER_OWNED[tool] and expected[key] != output.get(key):
            return f"{key} differs from the reference reply after validation"
    return None


def _adversarial_problem(result: Any, expected: dict[str, Any]) -> str | None:
    out = result.structured_content or {}
    if "code" in expected:
        if not result.is_error or out.get("code") != expected["code"]:
            return f"expected {expected['code']}, got {out.get('code') if result.is_error else 'a result'}"
        if "item" in expected and out.get("data", {}).get("item") != expected["item"]:
            return f"expected the error to name {expected['item']}, it named {out.get('data', {}).get('item')!r}"
        return None
    if result.is_error:
        return f"expected a result, got {out.get('code')}: {out.get('error')}"
    for key, value in expected.get("fields", {}).items():
        if out.get(key) != value:
            return f"{key} is {out.get(key)!r}, expected {value!r}"
    return None


def adversarial(tool: str, args: dict[str, Any], reference: dict[str, Any]) -> list[tuple[str, Any, dict[str, Any]]]:
    """Mutations of `reference` and what the server must answer to each."""
    invalid = {"code": errors.MODEL_OUTPUT_INVALID}
    cases: list[tuple[str, Any, dict[str, Any]]] = [
        ("non-JSON prose", "Here is my analysis: the sender mostly wants reassurance.", invalid),
        ("JSON cut short", json.dumps(reference)[: len(json.dumps(reference)) // 2], invalid),
        ("JSON array", "[]", invalid),
    ]

    def mutated(change: Any) -> dict[str, Any]:
        reply = copy.deepcopy(reference)
        change(reply)
        return reply

    source = args.get("text") or args.get("transcript") or ""
    if tool == "translate_incoming":
        cases.append(("span past the end", mutated(lambda r: r["ambiguity"].update(
            detected=True, spans=[{"start_char": 0, "end_char": len(source) + 5, "reason": "other"}])), invalid))
        cases.append(("unknown next action", mutated(lambda r: r["recommended_next_action"].update(action="panic")),
                      invalid))
        if reference.get("likely_subtext"):
            cases.append(("confidence above 1", mutated(lambda r: r["likely_subtext"][0].update(confidence=1.5)),
                          invalid))
    elif tool == "check_tone":
        cases.append(("axis above 100", mutated(lambda r: r["axes"].update(directness=101)), invalid))
        cases.append(("axis below 0", mutated(lambda r: r["axes"].update(warmth=-1)), invalid))
        if reference.get("flagged_phrases"):
            anchor = {"code": errors.VERBATIM_ANCHOR_FAILED, "item": "flagged_phrases[0]"}
            cases.append(("off-by-one flagged phrase", mutated(lambda r: r["flagged_phrases"][0].update(
                start_char=r["flagged_phrases"][0]["start_char"] + 1,
                end_char=r["flagged_phrases"][0]["end_char"] + 1)), anchor))
            cases.append(("fabricated flagged phrase", mutated(lambda r: r["flagged_phrases"][0].update(
                phrase=r["flagged_phrases"][0]["phrase"] + "!")), anchor))
    elif tool == "rewrite_outgoing":
        terms = list(dict.fromkeys(args.get("preserve_terms") or []))
        stripped = reference["rewritten"]
        for term in terms:
            stripped = stripped.replace(term, "")
        if terms and stripped.strip():
            missing = [term for term in terms if term not in stripped]
            cases.append(("dropped preserve terms, claimed kept",
                          {**mutated(lambda r: r.update(rewritten=stripped)), "preserved_terms": terms,
                           "unpreserved_terms": []},
                          {"fields": {"unpreserved_terms": missing,
                                      "preserved_terms": [t for t in terms if t not in missing]}}))
        cases.append(("empty rewrite", mutated(lambda r: r.update(rewritten="")), invalid))
        cases.append(("no diff_summary", mutated(lambda r: r.pop("diff_summary")), invalid))
    elif tool == "brief_meeting":
        for section in MEETING_SECTIONS:
            if not reference.get(section):
                continue
            anchor = {"code": errors.VERBATIM_ANCHOR_FAILED, "item": f"{section}[0].quoted_span"}

            def shift(r: dict[str, Any], section: str = section) -> None:
                span = r[section][0]["quoted_span"]
                span.update(start_char=span["start_char"] + 1, end_char=span["end_char"] + 1)

            def fabricate(r: dict[str, Any], section: str = section) -> None:
                r[section][0]["quoted_span"]["text"] = "We agreed to ship it on Friday."

            cases.append((f"off-by-one span in {section}", mutated(shift), anchor))
            cases.append((f"fabricated quote in {section}", mutated(fabricate), anchor))
        if reference.get("ambiguous_items"):
            cases.append(("verbatim false", mutated(lambda r: r["ambiguous_items"][0].update(verbatim=False)),
                          invalid))
    return cases
