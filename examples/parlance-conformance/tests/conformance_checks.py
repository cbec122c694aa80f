"""Checks shared by the conformance pack's tests: the eras, media decoding and canned client answers.

The media checks parse the files rather than compare them with `parlance_conformance.media`, so a
broken builder (a wrong CRC, a short header) fails here even though it would round-trip intact.
"""

from __future__ import annotations

import base64
import io
import struct
import wave
import zlib
from typing import Any

from mcp.types import CreateMessageResult, ElicitResult, ListRootsResult, Root, TextContent

ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}
"""Client modes and the protocol version each negotiates with Parlance."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: str | bytes) -> tuple[int, int]:
    """(width, height) of a PNG given as bytes or base64; fails unless the signature, a well-formed
    IHDR chunk with a valid CRC, and a final IEND are there."""
    raw = base64.b64decode(data, validate=True) if isinstance(data, str) else data
    assert raw.startswith(PNG_SIGNATURE), "not a PNG signature"
    length, kind = struct.unpack(">I4s", raw[8:16])
    assert (kind, length) == (b"IHDR", 13), "the first chunk must be a 13-byte IHDR"
    header = raw[16:29]
    (crc,) = struct.unpack(">I", raw[29:33])
    assert crc == zlib.crc32(kind + header), "IHDR CRC mismatch"
    assert raw.endswith(b"IEND\xaeB`\x82"), "no IEND chunk at the end"
    width, height = struct.unpack(">II", header[:8])
    return width, height


def wav_params(data: str) -> wave._wave_params:
    """The parameters of a base64 WAV file, as the standard library's reader sees them."""
    with wave.open(io.BytesIO(base64.b64decode(data, validate=True))) as clip:
        params = clip.getparams()
        frames = clip.readframes(params.nframes)
    assert len(frames) == params.nframes * params.sampwidth * params.nchannels
    return params


def text_of(result: Any) -> str:
    """The single text block of a tool result."""
    assert [block.type for block in result.content] == ["text"]
    return str(result.content[0].text)


# --- canned client answers ---------------------------------------------------------------------------

def sampled(text: str, model: str = "test-model") -> CreateMessageResult:
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text=text), model=model,
                               stop_reason="endTurn")


def accepted(**content: Any) -> ElicitResult:
    return ElicitResult(action="accept", content=content)


ROOTS = ListRootsResult(roots=[Root(uri="file:///work/project", name="project"),
                               Root(uri="file:///work/shared", name="shared")])
