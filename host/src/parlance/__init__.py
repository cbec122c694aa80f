"""Parlance: a plugin-based MCP server for localization work.

This module is the pack API. A pack imports from here and nowhere else in the host (its tests may
also use `parlance.testing`); everything in `__all__` is public and frozen by
`tests/host/test_public_api.py`. Importing it never imports `mcp` and never loads a pack.

    hookimpl, HOST_API                  marking hook implementations; the API version they target
    RegisterTool, RegisterPrompt, ...   the `register` callbacks the hooks receive, for annotations
    ToolContext, ToolResult, ...        what a tool handler receives and may return
    Text, Image, Audio, ...             content blocks for mixed tool results and prompt messages
    Elicited, Complete, Announcements   answers to `ctx.elicit`, completion callbacks, change notifications
    Principal                           who a request acts for (`ctx.principal`, from its OAuth token)
    Write, FileChange, WriteRecord, ... coordinated, logged, retry-safe writes (`ctx.write()`, `ctx.history()`)
    LanguagePacks, LanguagePack         the language packs a pack sees, and one of them
    flatten, input_schema_for           JSON Schemas shaped as the host advertises them
    ParlanceError, ToolError, ...       the host's exception tree (`parlance.errors`)
"""

from parlance.content import Audio, Content, EmbeddedResource, Image, LogLevel, ResourceLink, Text
from parlance.context import Announcements, ToolContext
from parlance.errors import (
    ConfigError,
    ElicitationFailed,
    ElicitationUnavailable,
    PackError,
    ParlanceError,
    SamplingFailed,
    SamplingUnavailable,
    ToolError,
    ToolNameCollision,
)
from parlance.hookspecs import HOST_API, hookimpl
from parlance.language_packs import LanguagePack, LanguagePacks
from parlance.schemas import flatten, input_schema_for
from parlance.types import (
    ArgumentProblem,
    ClientInfo,
    Complete,
    DemoStep,
    Elicited,
    Principal,
    PromptMessage,
    RegisterCommand,
    RegisterDemo,
    RegisterPrompt,
    RegisterResource,
    RegisterTool,
    Root,
    Sampled,
    SamplingMessage,
    ToolResult,
)

from parlance.writes import FileChange, HistoryPage, SharedWrite, Write, WriteRecord

__version__ = "0.1.0"

__all__ = [
    "HOST_API",
    "Announcements",
    "ArgumentProblem",
    "Audio",
    "ClientInfo",
    "Complete",
    "ConfigError",
    "Content",
    "DemoStep",
    "ElicitationFailed",
    "ElicitationUnavailable",
    "Elicited",
    "EmbeddedResource",
    "FileChange",
    "HistoryPage",
    "Image",
    "LanguagePack",
    "LanguagePacks",
    "LogLevel",
    "PackError",
    "ParlanceError",
    "Principal",
    "PromptMessage",
    "RegisterCommand",
    "RegisterDemo",
    "RegisterPrompt",
    "RegisterResource",
    "RegisterTool",
    "ResourceLink",
    "Root",
    "Sampled",
    "SamplingFailed",
    "SamplingMessage",
    "SamplingUnavailable",
    "SharedWrite",
    "Text",
    "ToolContext",
    "ToolError",
    "ToolNameCollision",
    "ToolResult",
    "Write",
    "WriteRecord",
    "__version__",
    "flatten",
    "hookimpl",
    "input_schema_for",
]
