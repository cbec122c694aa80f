"""`[packs.translation]` in parlance.toml."""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from parlance import ToolContext

Mode = Literal["auto", "sample", "baseline"]


class TranslationSettings(BaseModel):
    """Settings of the translation pack.

    ```toml
    [packs.translation]
    mode = "auto"              # "auto" | "sample" | "baseline"
    provenance_mode = "cloud"  # what model_provenance.mode says for sampled replies
    ```
    """

    model_config = ConfigDict(extra="forbid")

    mode: Mode = Field(
        default="auto",
        description="auto: use the client's model through MCP sampling when the client offers it, else the "
        "baseline heuristics. sample: always sample (MODEL_UNAVAILABLE when the client cannot). baseline: never "
        "sample; deterministic heuristics plus the prompt for the caller's own model.",
    )
    provenance_mode: Literal["local", "cloud", "unknown"] = Field(
        default="unknown",
        description="Whether the client's model runs locally or in the cloud, reported as model_provenance.mode "
        "for sampled replies (MCP does not tell the server; set it to match your client's configuration).",
    )
    max_tokens: int = Field(
        default=4096, ge=256, le=32768, description="max_tokens for each sampling request."
    )


TranslationContext: TypeAlias = ToolContext[TranslationSettings, None]
"""What the pack's handlers get: `ctx.settings` is the pack's settings (the host always validates a
table, if only to the defaults); the pack has no lifespan, so no state."""
