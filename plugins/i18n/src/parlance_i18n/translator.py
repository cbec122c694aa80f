"""The per-session translator: the catalog's bundles with the session's own bundles on top.

One `Translator` lives in each MCP session (`ctx.session_state`), as the seed describes. Bundles a
client adds replace (or, with merge, extend) that locale for this session only; the shared catalog
is never modified. `translate` is the domain function behind `i18n_translate` and the benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from parlance_i18n.bundles import Bundle, BundleBuilder
from parlance_i18n.catalog import Catalog
from parlance_i18n.errors import NoBundlesLoaded
from parlance_i18n.fallback import Chain
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.messageformat import Message

__all__ = ["Translation", "Translator"]


class Translation(NamedTuple):
    """`translation` is the rendered text; `locale` the bundle that matched (the requested locale
    when only the raw key was left); `fallback` is True for the default chain, another language, or
    the raw key."""

    translation: str
    locale: str
    fallback: bool


Route = tuple[str, tuple[tuple[Mapping[str, Message], str, bool], ...]]
"""(requested code, (messages, bundle code, is_fallback) for each chain step that has a bundle)."""

_new_translation = tuple.__new__  # builds the NamedTuple without its Python-level __new__ (a third of a call)
_ROUTE_CACHE_LIMIT = 1024


class Translator:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._bundles: dict[str, Bundle] = dict(catalog.bundles)
        self._resolve = catalog.resolver.resolve
        self._limit = catalog.limits.max_output_chars
        # What the hot path reads: per requested locale spelling, only the chain steps that have a
        # bundle in this session. Cleared whenever the session's bundles change.
        self._routes: dict[str | None, Route] = {}

    @property
    def default_locale(self) -> LocaleTag:
        return self.catalog.default_locale

    @property
    def bundles(self) -> Mapping[str, Bundle]:
        """The bundles this session sees, by canonical code."""
        return self._bundles

    def translate(self, key: str, locale: str | None = None, variables: Mapping[str, Any] | None = None) -> Translation:
        """Render `key` for `locale` (the default locale when None) along its fallback chain.

        Raises InvalidLocale for an unparsable locale and NoBundlesLoaded when there is no bundle at all.
        """
        route = self._routes.get(locale)
        if route is None:
            route = self._route(locale)
        for messages, code, fallback in route[1]:
            message = messages.get(key)
            if message is not None:
                return _new_translation(Translation, (message.render(variables, self._limit), code, fallback))
        return _new_translation(Translation, (key[: self._limit], route[0], True))

    def _route(self, locale: str | None) -> Route:
        requested, chain = self._resolve(locale)
        if not self._bundles:
            raise NoBundlesLoaded(
                "no message bundles are loaded: add one with i18n_add_messages, "
                "or configure [packs.i18n] bundle_dirs in parlance.toml"
            )
        bundles = self._bundles
        steps = tuple((bundles[code].messages, code, fallback) for code, fallback in chain if code in bundles)
        route = (requested.code, steps)
        if len(self._routes) >= _ROUTE_CACHE_LIMIT:
            self._routes.clear()
        self._routes[locale] = route
        return route

    def chain(self, locale: str | None = None) -> Chain:
        return self._resolve(locale)[1]

    def builder(self, locale: str, messages: object) -> BundleBuilder:
        """A builder for `messages` in `locale` (raises InvalidLocale / InvalidMessages early)."""
        return BundleBuilder(parse_locale(locale), messages, self.catalog.limits)

    def install(self, bundle: Bundle, *, merge: bool = False) -> Bundle:
        """Make `bundle` this session's bundle for its locale, or merge it into the current one."""
        current = self._bundles.get(bundle.code)
        installed = current.merged_with(bundle) if merge and current else bundle
        self._bundles[installed.code] = installed
        self._routes.clear()
        return installed

    def add_messages(self, locale: str, messages: object, *, merge: bool = False) -> Bundle:
        """Validate, compile and install in one step (the tool does the same with progress)."""
        return self.install(self.builder(locale, messages).build(), merge=merge)

    def own_bundles(self, locale: str) -> list[Bundle]:
        """The bundles on `locale`'s own chain (no fallback steps), most specific first."""
        return [self._bundles[code] for code, fallback in self._resolve(locale)[1]
                if not fallback and code in self._bundles]

    def find_bundle(self, tag: LocaleTag) -> Bundle | None:
        """The first bundle on `tag`'s own chain (no default-locale steps), e.g. `en` for `en-US`."""
        own = self.own_bundles(tag.code)
        return own[0] if own else None
