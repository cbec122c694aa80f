"""Content blocks: what a tool result or a prompt message shows besides (or instead of) JSON.

A tool returns them in `ToolResult(content=[...])`; a prompt in `PromptMessage(role, content=...)`.
They are plain values: the MCP server turns them into the protocol's content types, so a pack
never imports `mcp`. Binary data is given as bytes; the host encodes it (base64) for the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = ["Audio", "Content", "EmbeddedResource", "Image", "LogLevel", "ResourceLink", "Text", "problem_with"]

LogLevel: TypeAlias = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
"""MCP (syslog) log levels, least to most severe: what `ctx.log` takes and `logging/setLevel` sets."""


@dataclass(frozen=True)
class Text:
    """A text block."""

    text: str


@dataclass(frozen=True)
class Image:
    """An image: its bytes and MIME type (e.g. "image/png")."""

    data: bytes
    mime_type: str


@dataclass(frozen=True)
class Audio:
    """An audio clip: its bytes and MIME type (e.g. "audio/wav")."""

    data: bytes
    mime_type: str


@dataclass(frozen=True)
class EmbeddedResource:
    """A resource's contents carried in the result: `text`, or `data` for binary contents (not both)."""

    uri: str
    text: str | None = None
    data: bytes | None = None
    mime_type: str | None = None

    def __post_init__(self) -> None:
        if (self.text is None) == (self.data is None):
            raise ValueError(f"EmbeddedResource {self.uri!r}: give exactly one of text= or data=")


@dataclass(frozen=True)
class ResourceLink:
    """A pointer to a resource the client may read (`resources/read`) rather than its contents."""

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None


Content: TypeAlias = Text | Image | Audio | EmbeddedResource | ResourceLink
"""Any content block."""


_FIELD_TYPES: dict[type, dict[str, type | tuple[type, ...]]] = {
    Text: {"text": str},
    Image: {"data": bytes, "mime_type": str},
    Audio: {"data": bytes, "mime_type": str},
    EmbeddedResource: {"uri": str, "text": (str, type(None)), "data": (bytes, type(None)),
                       "mime_type": (str, type(None))},
    ResourceLink: {"uri": str, "name": str, "title": (str, type(None)), "description": (str, type(None)),
                   "mime_type": (str, type(None))},
}


def problem_with(block: object) -> str | None:
    """Why `block` is not a content block the host can send (a wrong class, or a field of the wrong
    type), or None. The dataclasses do not check their fields' types; the wire needs them right."""
    fields = _FIELD_TYPES.get(type(block))
    if fields is None:
        return f"{type(block).__name__} is not a content block (use Text, Image, Audio, EmbeddedResource or ResourceLink)"
    for name, expected in fields.items():
        value = getattr(block, name)
        if not isinstance(value, expected):
            return f"{type(block).__name__}.{name} is {type(value).__name__}"
    return None
