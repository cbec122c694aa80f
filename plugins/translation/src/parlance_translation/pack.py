"""The translation pack's hooks: settings, the four ADR 0005 tools, and `parlance eval translation`."""

from __future__ import annotations

import functools
import sys
from typing import Any

from parlance import RegisterCommand, RegisterDemo, RegisterTool, ToolResult, hookimpl

from parlance_translation import demo
from parlance_translation.contract import (
    BriefMeetingOutput,
    CheckToneOutput,
    RewriteOutgoingOutput,
    TranslateIncomingOutput,
)
from parlance_translation.inputs import (
    BriefMeetingInput,
    CheckToneInput,
    RewriteOutgoingInput,
    TranslateIncomingInput,
    problems_to_error,
)
from parlance_translation.schemas import input_schema, output_schema
from parlance_translation.settings import TranslationContext, TranslationSettings

PARLANCE_HOST_API = "1.0"
PARLANCE_LANGUAGE_PACK_VERSION = "1"
"""Major version of the prompt templates (prompts/<tool>.md) and lexicons language packs may override."""

_COMMON = (
    " Runs on the client's model through MCP sampling when available, otherwise on deterministic heuristics "
    "(the result's _meta then carries a refinement prompt: run it with your model and call again with "
    "model_output). Input text is never logged or stored."
)


async def _run(tool: str, args: Any, ctx: TranslationContext) -> ToolResult[Any]:
    # The heuristics, prompting and validation load on the first call, not when `parlance serve`
    # starts: registration needs only the input and output models.
    from parlance_translation import tools

    return await tools.run(tool, args, ctx)


async def translate_incoming(args: TranslateIncomingInput,
                             ctx: TranslationContext) -> ToolResult[TranslateIncomingOutput]:
    return await _run("translate_incoming", args, ctx)


async def check_tone(args: CheckToneInput, ctx: TranslationContext) -> ToolResult[CheckToneOutput]:
    return await _run("check_tone", args, ctx)


async def rewrite_outgoing(args: RewriteOutgoingInput, ctx: TranslationContext) -> ToolResult[RewriteOutgoingOutput]:
    return await _run("rewrite_outgoing", args, ctx)


async def brief_meeting(args: BriefMeetingInput, ctx: TranslationContext) -> ToolResult[BriefMeetingOutput]:
    return await _run("brief_meeting", args, ctx)


TOOLS: tuple[tuple[Any, str, str, str], ...] = (
    (
        translate_incoming,
        "translate_incoming",
        "Decode an incoming message",
        "Decode an incoming workplace message: the explicit ask, ranked likely subtext, ambiguous spans "
        "(character offsets with reason codes) and one recommended next action.",
    ),
    (
        check_tone,
        "check_tone",
        "Check the tone of an outgoing message",
        "Score an outgoing message on directness, warmth and urgency (0–100), optionally against the sender's "
        "earlier messages and a target register, and flag the phrases that move it. Does not rewrite.",
    ),
    (
        rewrite_outgoing,
        "rewrite_outgoing",
        "Rewrite an outgoing message",
        "Rewrite an outgoing message toward a register (direct, warm, formal, concise, clarifying), keeping "
        "preserve_terms verbatim; the server verifies each term by exact substring match.",
    ),
    (
        brief_meeting,
        "brief_meeting",
        "Brief a meeting transcript",
        "Turn a meeting transcript into my_asks, others_asks, decisions and ambiguous_items, each quoting the "
        "transcript verbatim with character offsets (the server rejects any quote that does not match).",
    ),
)


@hookimpl
def parlance_declare_settings() -> type[TranslationSettings]:
    return TranslationSettings


@hookimpl
def parlance_register_tools(register: RegisterTool) -> None:
    for handler, name, title, description in TOOLS:
        register(
            handler,
            name=name,
            title=title,
            description=description + _COMMON,
            read_only=True,
            idempotent=True,
            destructive=False,
            open_world=False,
            input_schema=input_schema(name),
            output_schema=output_schema(name),
            on_invalid_arguments=problems_to_error(name),
        )


@hookimpl
def parlance_register_commands(register: RegisterCommand) -> None:
    from parlance_translation.evaluation import cli  # imported late: only the CLI needs the eval runner

    # The runner drives this module through an in-process host; it gets it as an argument.
    register("eval", help="Run the translation pack's eval corpus (parlance eval translation).",
             configure=cli.configure, run=functools.partial(cli.run, pack=sys.modules[__name__]))


@hookimpl
def parlance_register_demo(register: RegisterDemo) -> None:
    register(title=demo.TITLE, steps=demo.STEPS, setup=demo.baseline_settings)
