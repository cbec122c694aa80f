"""What a scan of one source file finds, as plain values (cached, compared, and sent to the tools).

Positions are 1-based lines and columns (columns count characters, as editors do) plus the byte
span, which an extraction replaces. A reference's `key` is what the code calls, before the catalog's
spelling is applied (`usage` does that): the i18next key without its namespace, the FormatJS id, the
gettext msgid (with its context), the Android resource name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CONTEXT_SEPARATOR", "Dynamic", "FileScan", "Hardcoded", "Reference", "Span"]

CONTEXT_SEPARATOR = "\x04"
"""Between a gettext message's context and its msgid in its key (`msgctxt + "\\x04" + msgid`), as gettext
itself looks a message up and the PO catalog format names it (`formats.po.scanner`)."""


@dataclass(frozen=True, slots=True)
class Span:
    """Where something is in its file: 1-based line and column of its start, and its bytes."""

    line: int
    column: int
    start_byte: int
    end_byte: int


@dataclass(frozen=True, slots=True)
class Reference:
    """One call of a key the code names in full (a string literal, or a template without expressions)."""

    key: str
    span: Span
    namespace: str | None = None
    """The namespace (i18next), domain (gettext) or table (Apple) the call names; None for the default."""
    plural: bool = False
    """Called with a count (`t(k, {count})`, `ngettext`, `getQuantityString`): the catalog's plural forms."""
    default: str | None = None
    """The source text the call carries (`defaultValue`, `defaultMessage`, a gettext msgid), if any."""


@dataclass(frozen=True, slots=True)
class Dynamic:
    """A call whose key is built at run time: `t(\\`status.${s}\\`)`, `t(key)`."""

    expression: str
    """The key's expression as the code writes it (cut to 200 characters)."""
    span: Span
    prefix: str = ""
    """The key's static start (`status.` above): catalog keys with it may be used."""
    namespace: str | None = None


@dataclass(frozen=True, slots=True)
class Hardcoded:
    """A user-visible literal that does not go through the i18n API."""

    text: str
    """The text a user sees, whitespace collapsed as the platform renders it."""
    kind: str
    """The kind of place: `jsx-text`, `jsx-attribute:title`, `swiftui-text`, `android-layout:text`, ..."""
    span: Span
    """The literal's span as an extraction replaces it (JSX text: the text; an attribute: its value)."""


@dataclass(frozen=True, slots=True)
class FileScan:
    """Everything one file contributes."""

    references: tuple[Reference, ...] = ()
    dynamic: tuple[Dynamic, ...] = ()
    hardcoded: tuple[Hardcoded, ...] = ()
    problems: tuple[str, ...] = field(default=())
    """Why parts of the file could not be read (a syntax error's line), for the answer's notes."""
