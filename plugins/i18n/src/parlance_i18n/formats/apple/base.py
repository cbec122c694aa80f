"""What Apple's three catalog formats share: their messages are format strings (`String(format:)`),
whose placeholders are printf conversions and `%#@name@` substitutions.
"""

from __future__ import annotations

from parlance_i18n.formats.base import CatalogFormat
from parlance_i18n.formats.shared.placeholders import printf_placeholders

__all__ = ["AppleFormat"]


class AppleFormat(CatalogFormat):
    """The base of `.strings`, `.stringsdict` and `.xcstrings`: Apple format strings."""

    placeholder_pattern = printf_placeholders(r"%(?:\d+\$)?#@[^@]+@")

    def placeholder(self, name: str) -> str:
        """`%1$@` for argument 1 (an object, the usual conversion), a substitution by its name."""
        spelled = f"%{name}$@" if name.isdigit() else name
        return f"the placeholder {spelled}"
