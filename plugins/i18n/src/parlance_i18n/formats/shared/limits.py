"""How every format keeps a file within its `ReadLimits`, and the reasons it gives when one is not.

A format checks the decoded size as soon as it has decoded the file (`check_text`), and counts
messages as it reads them (`check_count`, called where a message is kept: comparing a count is
cheap), so that a file past a limit is refused before it costs more than its own bytes. The
reasons name the limit and the setting that raises it.
"""

from __future__ import annotations

from parlance_i18n.formats.base import CatalogFileError, ReadLimits

__all__ = ["check_count", "check_text", "too_many_messages"]

_UTF8_CONTINUATION = bytes(range(0x80, 0xC0))


def too_many_messages(limits: ReadLimits) -> CatalogFileError:
    """The error of a file holding more messages than `limits` allow."""
    return CatalogFileError(f"the file holds more than {limits.max_messages:,} messages "
                            "([packs.i18n] max_file_messages)")


def check_count(count: int, limits: ReadLimits) -> None:
    """Raise CatalogFileError when `count` messages are more than one file may hold."""
    if count > limits.max_messages:
        raise too_many_messages(limits)


def check_text(text: str | bytes, limits: ReadLimits) -> None:
    """Raise CatalogFileError when `text` (decoded, or UTF-8 bytes) holds more characters than one
    file may. UTF-8 bytes are counted as characters only when there are more bytes than the limit."""
    size = len(text)
    if size > limits.max_decoded_chars and isinstance(text, bytes):
        size -= len(text) - len(text.translate(None, _UTF8_CONTINUATION))
    if size > limits.max_decoded_chars:
        raise CatalogFileError(f"the file holds more than {limits.max_decoded_chars:,} characters of text "
                               "([packs.i18n] max_file_chars)")
