"""What Apple's three catalog formats share: their messages are format strings (`String(format:)`),
whose placeholders are printf conversions and `%#@name@` substitutions.
"""

from __future__ import annotations

import re

from parlance_i18n.formats.base import CatalogFormat, LocaleMessages, Value
from parlance_i18n.formats.shared.placeholders import printf_placeholders
from parlance_i18n.locales import LocaleTag

__all__ = ["SIMPLE_FORMAT", "AppleFormat"]

SIMPLE_FORMAT = re.compile(r"(?:[^%]|%%|%(?:[1-9][0-9]{0,2}\$)?(?:@|(?:l|ll|q|z)?[diuxX]|(?:\.[0-9]{1,2})?f))*")
"""Format strings whose specifiers are all of the common, valid shapes: reading skips compiling them."""


class AppleFormat(CatalogFormat):
    """The base of `.strings`, `.stringsdict` and `.xcstrings`: Apple format strings."""

    frameworks = ("apple",)

    placeholder_pattern = printf_placeholders(r"%(?:\d+\$)?#@[^@]+@")
    layout_folders = frozenset({"lproj"})

    def placeholder(self, name: str) -> str:
        """`%1$@` for argument 1 (an object, the usual conversion), a substitution by its name."""
        spelled = f"%{name}$@" if name.isdigit() else name
        return f"the placeholder {spelled}"

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """Each argument read by a conversion of the source's type and width: `String(format:)` reads
        an object for `%@`, 32 bits for `%d` and 64 for `%lld`, so another one prints garbage or
        crashes (as Xcode's format-string check reports)."""
        from parlance_i18n.formats.shared.conversions import message_conversion_reasons
        from parlance_i18n.formats.shared.printf import printf_conversions

        return message_conversion_reasons(source, written.text(key), lambda text: printf_conversions(text, "apple"))
