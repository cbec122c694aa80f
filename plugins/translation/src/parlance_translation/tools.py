"""The four tools' handlers: choose the path (model_output, sampling, baseline), finalise, shape the result.

    model_output given         -> validate the caller's reply          (no model call, no heuristics)
    mode "sample"              -> ctx.sample(...)                      (MODEL_UNAVAILABLE without one)
    mode "auto"                -> ctx.sample(...) if ctx.can_sample, else baseline
    mode "baseline"            -> heuristics + the refinement prompt in _meta and the text block

Whatever the path, the contract output goes through `replies.finalize`. Everything that is not in
the contract — which path ran, the template and lexicon sources, the prompt and its hash,
truncations, soft signals — goes in `_meta["parlance/translation"]`.
"""

from __future__ import annotations

import json
from typing import Any

from parlance import SamplingFailed, SamplingUnavailable, ToolError, ToolResult

from parlance_translation import errors, provenance
from parlance_translation.contract import CONTRACT_VERSION
from parlance_translation.heuristics import incoming, meeting, rewrite, tone
from parlance_translation.prompting import Prepared, prepare
from parlance_translation.replies import Finalized, Origin, finalize, parse_reply
from parlance_translation.settings import TranslationContext
from parlance_translation.templates import Source, resolve_lexicon

META_KEY = "parlance/translation"
LEXICONS = {"translate_incoming": "ambiguity", "check_tone": "tone", "rewrite_outgoing": "rewrite",
            "brief_meeting": "meeting"}
"""The heuristics word list each tool's baseline reads."""
PROGRESS_THRESHOLD = 20_000  # transcripts longer than this report progress
REFINEMENT_INLINE_MAX = 20_000  # longer prompts are returned as a template, not with the input echoed back


async def run(tool: str, args: Any, ctx: TranslationContext) -> ToolResult[Any]:
    """Handle one call of `tool` (arguments already validated by the host)."""
    settings = ctx.settings
    prepared = prepare(tool, args, ctx.language_packs)
    meta: dict[str, Any] = {
        "contract_version": CONTRACT_VERSION,
        "template": {"tool": tool, **prepared.template.source.as_meta()},
        "prompt_sha256": prepared.prompt_sha256,
    }

    if prepared.args.model_output is not None:
        draft = parse_reply(prepared.args.model_output)
        done = finalize(draft, prepared.facts, eval_slice=prepared.eval_slice,
                        provenance=provenance.caller_supplied("unknown"), origin="model_output")
        return _result(prepared, done, "model_output", meta)

    use_model = settings.mode == "sample" or (settings.mode == "auto" and ctx.can_sample)
    if use_model:
        try:
            sampled = await ctx.sample(
                prepared.user_prompt,
                system_prompt=prepared.system_prompt,
                max_tokens=min(prepared.max_tokens, settings.max_tokens),
                temperature=0.0,
            )
        except (SamplingUnavailable, SamplingFailed) as exc:
            if settings.mode == "sample":
                raise errors.model_unavailable(exc.message) from None
            meta["sampling_error"] = exc.code  # auto: fall back to the heuristics
        else:
            meta["stop_reason"] = sampled.stop_reason
            try:
                draft = parse_reply(sampled.text)
            except ToolError:
                if sampled.stop_reason == "maxTokens":
                    raise errors.model_output_invalid(
                        "the reply was cut off at max_tokens before the JSON was complete", stop_reason="maxTokens"
                    ) from None
                raise
            done = finalize(draft, prepared.facts, eval_slice=prepared.eval_slice,
                            provenance=provenance.sampled(sampled.model, settings.provenance_mode), origin="sampling")
            return _result(prepared, done, "sampling", meta)

    draft, lexicons, extra = await _baseline(prepared, ctx)
    done = finalize(draft, prepared.facts, eval_slice=prepared.eval_slice, provenance=provenance.BASELINE,
                    origin="baseline")
    meta["lexicons"] = [source.as_meta() for source in lexicons]
    meta.update(extra)
    meta["refinement_prompt"] = _refinement_prompt(prepared)
    return _result(prepared, done, "baseline", meta)


async def _baseline(prepared: Prepared, ctx: TranslationContext) -> tuple[dict[str, Any], list[Source], dict[str, Any]]:
    """The heuristics' draft for `prepared`, the lexicons it used, and extra `_meta`."""
    args = prepared.args
    lexicon = resolve_lexicon(LEXICONS[prepared.tool], args.target_language, ctx.language_packs)
    if prepared.tool == "translate_incoming":
        draft = incoming.analyse(args.text, args.channel or "generic", args.thread_context or [], lexicon)
        return draft, [lexicon.source], {}
    if prepared.tool == "check_tone":
        draft = tone.analyse(args.text, args.baseline_messages or [], args.target_register, lexicon)
        return draft, [lexicon.source], {}
    if prepared.tool == "rewrite_outgoing":
        draft = rewrite.rewrite(args.text, args.target_register, list(prepared.facts.preserve_terms),
                                args.channel or "generic", lexicon)
        return draft, [lexicon.source], {}
    analysis = meeting.MeetingAnalysis(transcript=args.transcript, me=args.me, speakers=args.speakers or [],
                                       lexicon=lexicon)
    report = len(args.transcript) > PROGRESS_THRESHOLD
    if report:
        await ctx.report_progress(0, 3, "finding speaker turns")
    analysis.turns()
    if report:
        await ctx.report_progress(1, 3, "scanning for asks, decisions and open items")
    analysis.scan()
    if report:
        await ctx.report_progress(2, 3, "assembling the brief")
    draft = analysis.assemble()
    if report:
        await ctx.report_progress(3, 3, "done")
    extra: dict[str, Any] = {"speaker_turns": len(analysis.turn_starts)}
    cut = [section for section, flag in analysis.truncated.items() if flag]
    if cut:  # the heuristics stop collecting at the cap, so they know only "more than 50"
        extra["truncated"] = [f"{section}: more than {meeting.SECTION_CAP} items, kept the first "
                              f"{meeting.SECTION_CAP}" for section in cut]
    if not analysis.me_found:
        extra["me_found"] = False
    return draft, [lexicon.source], extra


def _result(prepared: Prepared, done: Finalized, origin: Origin, meta: dict[str, Any]) -> ToolResult[Any]:
    meta["source"] = origin
    if done.truncated:
        meta["truncated"] = [*meta.get("truncated", []), *done.truncated]
    if done.adjustments:
        meta["adjustments"] = done.adjustments
    if prepared.notes:
        meta["input_notes"] = prepared.notes
    if prepared.signals:
        meta["signals"] = prepared.signals
    text = None
    if origin == "baseline":
        text = _baseline_text(prepared, done)
    return ToolResult(done.output, text=text, meta={META_KEY: meta})


def _refinement_prompt(prepared: Prepared) -> dict[str, Any]:
    """The prompt for the caller's own model. Past REFINEMENT_INLINE_MAX characters (long transcripts)
    the source material is not echoed back: `user_template` keeps its placeholder for the caller to fill
    with the argument it already holds."""
    prompt: dict[str, Any] = {"system": prepared.system_prompt, "max_tokens": prepared.max_tokens}
    field = prepared.source_field
    if len(prepared.user_prompt) <= REFINEMENT_INLINE_MAX:
        prompt["user"] = prepared.user_prompt
        fill = ""
    else:
        prompt["user_template"] = prepared.user_template()
        prompt["fill"] = {field: f"the `{field}` argument of this call, verbatim"}
        fill = f" (first replace {{{{{field}}}}} in user_template with your `{field}` argument)"
    prompt["how_to_use"] = (
        f"Run this prompt with your model{fill}, then call {prepared.tool} again with the same arguments plus "
        "model_output=<the model's JSON reply>; the server validates it like a sampled reply."
    )
    return prompt


def _baseline_text(prepared: Prepared, done: Finalized) -> str:
    """The result as JSON, then a summary of the refinement prompt (the prompt itself is in _meta)."""
    body = json.dumps(done.output.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
    return (
        f"{body}\n\nBaseline result from deterministic heuristics (no model ran). Refinement prompt: template "
        f"{prepared.tool} v{prepared.template.version}, {len(prepared.user_prompt):,} characters, sha256 "
        f"{prepared.prompt_sha256[:12]}, in _meta[\"{META_KEY}\"].refinement_prompt. Run it with "
        f"your model, then call {prepared.tool} again with the same arguments plus model_output=<the JSON reply>; "
        "the server validates it against the contract like a sampled reply."
    )
