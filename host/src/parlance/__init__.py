"""Parlance: a plugin-based MCP server for localization work.

This module is the pack API. A pack imports from here and nowhere else in the host; everything in
`__all__` is public and frozen by `tests/host/test_public_api.py`. Importing it never imports `mcp`
and never loads a pack.
"""

from parlance.context import ToolContext
from parlance.errors import (
    ConfigError,
    PackError,
    ParlanceError,
    SamplingFailed,
    SamplingUnavailable,
    ToolError,
    ToolNameCollision,
)
from parlance.hookspecs import hookimpl
from parlance.types import (
    ArgumentProblem,
    ClientInfo,
    DemoStep,
    PromptMessage,
    Sampled,
    SamplingMessage,
    ToolResult,
)

__version__ = "0.1.0"

HOST_API = "1.0"
"""The pack API version this host provides. Packs declare `PARLANCE_HOST_API = "1.0"`."""

__all__ = [
    "HOST_API",
    "ArgumentProblem",
    "ClientInfo",
    "ConfigError",
    "DemoStep",
    "PackError",
    "ParlanceError",
    "PromptMessage",
    "Sampled",
    "SamplingFailed",
    "SamplingMessage",
    "SamplingUnavailable",
    "ToolContext",
    "ToolError",
    "ToolNameCollision",
    "ToolResult",
    "__version__",
    "hookimpl",
]
