"""Tiny media files, built here rather than shipped: a 1×1 PNG and a few milliseconds of WAV silence.

The conformance suite checks only that image and audio content carry data and a MIME type, so the
smallest valid files do; building them from their formats' headers keeps binary blobs out of the tree.
"""

from __future__ import annotations

import struct
import zlib


def png_pixel(red: int = 0x2B, green: int = 0x6C, blue: int = 0xB0) -> bytes:
    """A valid 1×1 RGB PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # width, height, 8 bits, RGB, no interlace
    pixels = zlib.compress(bytes([0, red, green, blue]))  # one scanline: filter byte 0, then the pixel
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def wav_silence(milliseconds: int = 10, rate: int = 8000) -> bytes:
    """A valid mono 16-bit PCM WAV file of silence."""
    samples = rate * milliseconds // 1000
    data = b"\x00\x00" * samples
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)  # PCM, mono, rate, bytes/s, block, bits
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


PNG = png_pixel()
WAV = wav_silence()
