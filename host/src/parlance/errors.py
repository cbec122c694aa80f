"""Parlance's exception tree.

    ParlanceError                 anything Parlance raises on purpose
    ├── ConfigError               parlance.toml is unreadable or a value is wrong (names file, key, fix)
    ├── PackError                 a pack could not be loaded or contradicts another pack
    │   └── ToolNameCollision     two packs registered the same tool name
    ├── ToolError                 a domain error a tool reports to the model: becomes an isError result
    │   ├── SamplingUnavailable   the client offers no sampling (MCP `sampling` capability missing)
    │   ├── SamplingFailed        the client was asked to sample and answered with an error
    │   ├── ElicitationUnavailable  the client offers no elicitation (MCP `elicitation` capability missing)
    │   └── ElicitationFailed     the client was asked for input and failed, or answered outside the schema
    ├── UnknownName               no tool, prompt or resource by that name (also a LookupError)
    └── Refused                   the host turns a prompt or resource request down, saying why

A `ToolError` is the only exception a pack is expected to raise from a tool. Anything else a tool
raises is a bug: the client gets `INTERNAL` with no exception text, and the traceback goes to the log.
`UnknownName` and `Refused` are the host's own (`parlance.host.Host` raises them; the server turns
them into JSON-RPC errors): packs never see them, and `parlance` does not export them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

__all__ = [
    "ConfigError",
    "ElicitationFailed",
    "ElicitationUnavailable",
    "PackError",
    "ParlanceError",
    "Refused",
    "SamplingFailed",
    "SamplingUnavailable",
    "ToolError",
    "ToolNameCollision",
    "UnknownName",
]


class ParlanceError(Exception):
    """Base class for every error Parlance raises on purpose."""


class ConfigError(ParlanceError):
    """A configuration problem, phrased as: where (file and key), what is wrong, how to fix it."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None, fix: str | None = None):
        self.file, self.key, self.fix = file, key, fix
        where = ": ".join(part for part in (file, f"[{key}]" if key else None) if part)
        text = f"{where}: {message}" if where else message
        super().__init__(f"{text} ({fix})" if fix else text)


class PackError(ParlanceError):
    """A pack failed to load, failed a hook, or conflicts with another pack."""


class ToolNameCollision(PackError):
    """Two packs registered the same tool name; the host refuses to start rather than guess.

    The fixes name one pack's tool (`[tools] disabled = ["second:tool"]`), and a prefix for a pack
    it would rename: not one in `prefixed` (which has a prefix already), nor one whose tool already
    starts with `<pack>_` (a prefix is not applied twice).
    """

    def __init__(self, tool: str, first_pack: str, second_pack: str, *, prefixed: Collection[str] = ()):
        self.tool, self.first_pack, self.second_pack = tool, first_pack, second_pack
        fixes = f"disable one pack's tool in parlance.toml ([tools] disabled = [\"{second_pack}:{tool}\"])"
        renamable = [p for p in (second_pack, first_pack) if p not in prefixed and not tool.startswith(f"{p}_")]
        if renamable:
            fixes += f", or give one pack a prefix ([packs.{renamable[0]}] prefix = \"{renamable[0]}_\")"
        super().__init__(f"tool {tool!r} is registered by both pack {first_pack!r} and pack {second_pack!r}. "
                         f"Fix: {fixes}.")


class ToolError(ParlanceError):
    """A domain error the model should read: `code` is machine-readable, `message` a sentence.

    The host turns it into a tool result with `isError: true`, a text block `"CODE: message"` and
    `structuredContent = {"error": message, "code": code, "data": data}`.
    """

    def __init__(self, code: str, message: str, data: dict[str, Any] | None = None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.data = code, message, dict(data or {})


class SamplingUnavailable(ToolError):
    """The client did not declare the MCP sampling capability, so `ctx.sample()` cannot run."""

    def __init__(self, message: str = "the client does not offer sampling (MCP `sampling` capability)"):
        super().__init__("SAMPLING_UNAVAILABLE", message)


class SamplingFailed(ToolError):
    """The client was asked to sample and refused or failed; `data` holds its error code."""

    def __init__(self, message: str, data: dict[str, Any] | None = None):
        super().__init__("SAMPLING_FAILED", message, data)


class ElicitationUnavailable(ToolError):
    """The client did not declare the MCP elicitation capability, so `ctx.elicit()` cannot run."""

    def __init__(self, message: str = "the client does not offer elicitation (MCP `elicitation` capability)"):
        super().__init__("ELICITATION_UNAVAILABLE", message)


class ElicitationFailed(ToolError):
    """The client was asked for input and failed, or answered with content the schema does not allow."""

    def __init__(self, message: str, data: dict[str, Any] | None = None):
        super().__init__("ELICITATION_FAILED", message, data)


class UnknownName(ParlanceError, LookupError):
    """No tool, prompt or resource by that name: a protocol error, not a tool result."""


class Refused(ParlanceError):
    """A prompt or resource request the host turns down; the message is written for the client.

    Any other exception from a prompt or resource handler is a bug: the client gets a generic error.
    """
