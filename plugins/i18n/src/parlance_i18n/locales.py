"""Locale codes: strict parsing into BCP 47 tags, and the CLDR facts the pack needs about them.

Accepted input: `en`, `en-US`, `en_US`, `zh_Hant_TW`, `sr-Latn-RS`, `es-419`, `de-DE-1996` (any case,
`-` or `_`). Output is canonical BCP 47: `zh-Hant-TW`. Nothing else gets through: no extensions
(`-u-`, `-x-`), no POSIX suffixes (`.UTF-8`, `@euro`), at most 35 characters. Only a parsed tag is
ever handed to Babel or used to name anything, so a locale string can never steer a file path.

CLDR data comes from Babel: likely subtags (to infer the script a tag implies: `zh-TW` is
Traditional Han, `zh` Simplified, `sr` Cyrillic) and parent locales (`es-MX` inherits from `es-419`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlance_i18n.errors import InvalidLocale

if TYPE_CHECKING:  # Babel loads when CLDR data is first needed: parsing a code (settings, startup) needs none
    from babel import Locale

__all__ = ["LocaleTag", "babel_locale", "cldr_parent", "display_name", "likely_region", "likely_script", "parse_locale"]

MAX_LENGTH = 35

_TAG = re.compile(
    r"""
    (?P<language>[A-Za-z]{2,3})
    (?:[-_](?P<script>[A-Za-z]{4}))?
    (?:[-_](?P<region>[A-Za-z]{2}|[0-9]{3}))?
    (?P<variants>(?:[-_](?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*)
    """,
    re.VERBOSE | re.ASCII,
)


@dataclass(frozen=True, slots=True)
class LocaleTag:
    """A parsed locale: language, optional script, region and variants, in canonical case."""

    language: str
    script: str | None = None
    region: str | None = None
    variants: tuple[str, ...] = ()

    @property
    def code(self) -> str:
        """The canonical BCP 47 form, e.g. `zh-Hant-TW`."""
        return "-".join(part for part in (self.language, self.script, self.region, *self.variants) if part)

    def __str__(self) -> str:
        return self.code


def parse_locale(text: object) -> LocaleTag:
    """Parse a locale code strictly; raise `InvalidLocale` naming the value and the accepted shapes."""
    if not isinstance(text, str):
        raise InvalidLocale(f"the locale must be a string such as 'en-US', got {type(text).__name__}")
    cached = _parse_cached(text) if len(text) <= MAX_LENGTH else None
    if cached is None:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise InvalidLocale(
            f"cannot parse the locale code {shown!r}: use a BCP 47 tag such as 'en', 'en-US', 'en_US', "
            "'zh-Hant-TW' or 'es-419' (language, optional script, region and variants; no extensions)",
            {"locale": shown},
        )
    return cached


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> LocaleTag | None:
    match = _TAG.fullmatch(text)
    if match is None:
        return None
    script, region, variants = match["script"], match["region"], match["variants"]
    return LocaleTag(
        language=match["language"].lower(),
        script=script.title() if script else None,
        region=region.upper() if region else None,
        variants=tuple(v.lower() for v in re.split(r"[-_]", variants)[1:]) if variants else (),
    )


# --- CLDR facts (Babel) ------------------------------------------------------------------------------


def _babel_id(*parts: str | None) -> str:
    return "_".join(p for p in parts if p)


@functools.lru_cache(maxsize=2048)
def _likely(language: str, script: str | None, region: str | None) -> tuple[str | None, str | None]:
    """(script, region) CLDR considers likely for this language, script and region, or Nones.

    Follows the lookup order of CLDR's "add likely subtags", without the `und` guesses: a language
    CLDR does not know gets no script rather than English's.
    """
    from babel.core import get_global

    table = get_global("likely_subtags")
    for key in (_babel_id(language, script, region), _babel_id(language, region) if region else None,
                _babel_id(language, script) if script else None, language):
        if key and key in table:
            parts = table[key].split("_")
            found_script = next((p for p in parts[1:] if len(p) == 4), None)
            found_region = next((p for p in parts[1:] if len(p) in (2, 3)), None)
            return script or found_script, region or found_region
    return script, region


def likely_script(tag: LocaleTag) -> str | None:
    """The script `tag` is written in: its own script subtag, or CLDR's likely one (`zh-TW` → Hant)."""
    return tag.script or _likely(tag.language, None, tag.region)[0]


def likely_region(tag: LocaleTag) -> str | None:
    """The region CLDR considers likely for a tag without one (`pt` → BR, `zh-Hant` → TW)."""
    return tag.region or _likely(tag.language, tag.script, None)[1]


def cldr_parent(tag: LocaleTag) -> LocaleTag | None:
    """CLDR's explicit parent of a regional locale in the same language (`es-MX` → `es-419`), if any.

    CLDR also names a few parents in another language (`ht` → `fr-HT`); those are not followed: a
    translation in another language is a fallback the operator configures, not an inheritance.
    """
    if tag.region is None:
        return None
    from babel.core import get_global

    parents = get_global("parent_exceptions")
    script = likely_script(tag)
    for key in (_babel_id(tag.language, script, tag.region), _babel_id(tag.language, tag.region)):
        parent = parents.get(key)
        if parent:
            parsed = _parse_cached(parent)
            if parsed is not None and parsed.language == tag.language and parsed.region is not None:
                return parsed
    return None


@functools.lru_cache(maxsize=512)
def babel_locale(tag: LocaleTag) -> Locale | None:
    """The most specific Babel locale with data for `tag` (for plural rules and number formats), or None.

    The identifier is built from validated subtags and checked with `localedata.exists` before Babel
    loads anything.
    """
    from babel import Locale, localedata

    script = likely_script(tag)
    for parts in ((tag.language, tag.script, tag.region), (tag.language, script, tag.region),
                  (tag.language, tag.region), (tag.language, tag.script), (tag.language,)):
        if len(parts) > 1 and not all(parts[1:]):
            continue
        identifier = _babel_id(*parts)
        if localedata.exists(identifier):
            return Locale.parse(identifier)
    return None


@functools.lru_cache(maxsize=512)
def display_name(tag: LocaleTag) -> str | None:
    """An English name such as 'Chinese (Traditional, Taiwan)', or None for a language CLDR does not know."""
    from babel import Locale

    english = Locale("en")
    language = english.languages.get(tag.language)
    if language is None:
        return None
    names = (english.scripts.get(tag.script or ""), english.territories.get(tag.region or ""))
    details = [name for name in names if name]
    details += list(tag.variants)
    return f"{language} ({', '.join(details)})" if details else language
