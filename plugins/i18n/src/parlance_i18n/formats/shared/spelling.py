"""Locale spellings the formats share: reading a locale code that may be none, and the old codes and
folder names that several formats' tools still write.

A format reads locales in two places: in path segments (`values-pt-rBR`, `messages_pt_BR`,
`pt-BR.lproj`: `CatalogFormat.parse_spelling`) and inside files (an `.xcstrings` language, an XLIFF
`trgLang`, a Rails root key). Either may hold a name that is no locale at all (`Base.lproj`,
`defaults:`), which is an answer ("no locale"), not an error: `locale_or_none` and `spells` give it.
"""

from __future__ import annotations

from parlance_i18n.errors import InvalidLocale
from parlance_i18n.locales import LocaleTag, parse_locale

__all__ = ["LEGACY_LANGUAGES", "locale_or_none", "lproj_locale", "spells"]

LEGACY_LANGUAGES = {"iw": "he", "in": "id", "ji": "yi"}
"""The ISO 639 codes Java's `Locale` and Android's resource folders still write (Hebrew, Indonesian,
Yiddish), by the code BCP 47 uses now."""


def locale_or_none(text: str) -> LocaleTag | None:
    """The locale `text` spells (BCP 47, or with underscores), or None when it spells none."""
    try:
        return parse_locale(text)
    except InvalidLocale:
        return None


def spells(text: str, tag: LocaleTag) -> bool:
    """Whether `text` is a spelling of exactly `tag` (`pt_BR` and `pt-BR` both spell pt-BR)."""
    return locale_or_none(text) == tag


def lproj_locale(text: str) -> LocaleTag | None:
    """The locale of an Xcode `.lproj` folder (`pt-BR.lproj`, `zh-Hans.lproj`, or the name without its
    suffix); `Base.lproj`, which holds Interface Builder's files, is no locale."""
    name = text.removesuffix(".lproj")
    return None if name == "Base" else locale_or_none(name)
