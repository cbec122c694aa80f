"""Turning caller-supplied text into one URL path segment that cannot change the path."""

from __future__ import annotations

from urllib.parse import quote

__all__ = ["path_segment"]


def path_segment(value: str) -> str:
    """Percent-encode `value` so it is exactly one path segment, whatever it contains.

    `quote(..., safe="")` encodes `/`, `?`, `#`, `%` and every non-ASCII character (as UTF-8), so
    the value can neither add segments nor start a query or fragment. `.` is an unreserved
    character that `quote` leaves alone, yet a segment that is only `.` or `..` is a dot-segment
    that clients and servers remove while normalising the path ("a/keys/.." is "a/"); such a
    segment is spelled `%2E`, which no normaliser treats as a dot-segment.
    """
    if not value:
        raise ValueError("a path segment cannot be empty: it would address the collection, not an item")
    encoded = quote(value, safe="")
    if encoded in (".", ".."):
        encoded = encoded.replace(".", "%2E")
    return encoded
