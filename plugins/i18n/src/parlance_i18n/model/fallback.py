"""Fallback chains: which bundles a request for a locale may read, in order.

For a requested tag the chain is, most specific first:

1. the tag itself, then the same tag without variants;
2. its regional CLDR parents in the same language (`es-MX` → `es-419`, `en-AT` → `en-150` → `en-001`);
3. the language alone (`es-MX` → `es`);
4. for a tag without a region, the region CLDR considers likely (`pt` → `pt-BR`);
5. wherever an operator-configured fallback points (`fallbacks = {"pt-BR" = ["pt-PT"]}`), spliced in
   right after the code it is configured for, so `pt-BR → pt-PT → pt`;
6. the default chain: `fallbacks.default`, then `default_locale`.

Each step is written both with and without its script (`zh-TW` and `zh-Hant-TW` name the same
bundle), but a step that would change the script is skipped: `zh-TW` (Traditional) never reaches a
plain `zh` bundle (Simplified), and `sr-Latn` never reaches `sr` (Cyrillic). Scripts come from
CLDR's likely subtags. Only configured fallbacks may cross scripts, because someone chose them.

A chain entry is a fallback when it comes from the default chain or serves another language; a
match in `es` for `es-MX` is not. Chains depend only on the settings, so they are computed once
per requested code and cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from parlance_i18n.locales import LocaleTag, cldr_parent, likely_region, likely_script, parse_locale

__all__ = ["Chain", "FallbackResolver"]

Chain = tuple[tuple[str, bool], ...]
"""(bundle code, is_fallback) pairs, in lookup order."""

_CACHE_LIMIT = 1024


class FallbackResolver:
    """Computes and caches fallback chains for one configuration."""

    def __init__(self, default_locale: LocaleTag, fallbacks: Mapping[str, Sequence[LocaleTag]] | None = None) -> None:
        self.default_locale = default_locale
        configured = dict(fallbacks or {})
        self._default_targets: list[LocaleTag] = [*configured.pop("default", ()), default_locale]
        self._configured = configured
        self._by_text: dict[str | None, tuple[LocaleTag, Chain]] = {}

    def resolve(self, locale: str | None) -> tuple[LocaleTag, Chain]:
        """The requested tag (the default locale for None) and its chain; raises InvalidLocale."""
        found = self._by_text.get(locale)
        if found is None:
            tag = self.default_locale if locale is None else parse_locale(locale)
            if len(self._by_text) >= _CACHE_LIMIT:  # many distinct spellings: start over rather than grow
                self._by_text.clear()
            found = self._by_text[locale] = (tag, self.chain(tag))
        return found

    def chain(self, tag: LocaleTag) -> Chain:
        entries: dict[str, bool] = {}
        for code, language in self._expand(tag, set()):
            entries.setdefault(code, language != tag.language)
        for target in self._default_targets:
            for code, _ in self._expand(target, set()):
                entries.setdefault(code, True)
        return tuple(entries.items())

    def _expand(self, tag: LocaleTag, followed: set[str]) -> list[tuple[str, str]]:
        """(code, language) pairs for tag's own lineage with configured fallbacks spliced in."""
        out: list[tuple[str, str]] = []
        for group in _lineage(tag):
            out.extend((code, tag.language) for code in group)
            for code in group:
                if code in self._configured and code not in followed:
                    followed.add(code)
                    for target in self._configured[code]:
                        out.extend(self._expand(target, followed))
        return out


def _lineage(tag: LocaleTag) -> list[list[str]]:
    """Groups of equivalent codes from `tag` up to its language, never changing the script."""
    script = likely_script(tag)

    def spellings(step: LocaleTag) -> list[str]:
        forms = (step, replace(step, script=script), replace(step, script=None))
        codes = [form.code for form in forms if likely_script(form) == script]
        return list(dict.fromkeys(codes))

    groups = [list(dict.fromkeys([tag.code, *spellings(tag)]))]
    base = replace(tag, variants=())
    if tag.variants:
        groups.append(spellings(base))
    step, seen = base, {base.region}
    while (parent := cldr_parent(step)) is not None and parent.region not in seen:
        seen.add(parent.region)
        if likely_script(parent) == script:
            groups.append(spellings(replace(parent, script=base.script, variants=())))
        step = parent
    language = replace(base, region=None)
    groups.append(spellings(language))
    if tag.region is None and (region := likely_region(language)) is not None:
        groups.append(spellings(replace(language, region=region)))
    return groups
