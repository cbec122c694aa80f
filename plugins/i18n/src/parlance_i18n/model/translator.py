"""The per-session translator: the catalog's bundles with the session's own bundles on top.

One `Translator` lives in each MCP session (`ctx.session_state`), as the seed describes. Bundles a
client adds replace (or, with merge, extend) that locale for this session only; the shared catalog
is never modified. `translate` is the domain function behind `i18n_translate` and the benchmark.

What a session adds is held to one budget (`Limits.session_*`): the messages, the bytes of keys and
message texts, and the locales of every bundle the session added (a merge into a startup bundle
makes a session bundle of the whole). `admit` checks a bundle against it, and against the
per-bundle `max_messages`, from its keys and sizes alone, so a bundle that could not be kept is
refused before it is compiled; `install` checks again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from parlance_i18n.errors import InvalidMessages, NoBundlesLoaded, SessionBudgetExceeded
from parlance_i18n.formats import Renderable
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.model.bundles import Bundle, BundleBuilder
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.model.fallback import Chain
from parlance_i18n.model.project import FileProblem, ProjectLocale

__all__ = ["Translation", "Translator"]


class Translation(NamedTuple):
    """`translation` is the rendered text; `locale` the bundle that matched (the requested locale
    when only the raw key was left); `fallback` is True for the default chain, another language, or
    the raw key."""

    translation: str
    locale: str
    fallback: bool


Route = tuple[str, tuple[tuple[Mapping[str, Renderable], str, bool], ...]]
"""(requested code, (messages, bundle code, is_fallback) for each chain step that has a bundle: the
bundle's messages, or, when they can no longer change, each mapping of them in turn)."""

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
        self._added: set[str] = set()  # codes of the bundles this session added: what its budget counts

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

    def ready(self, locale: str | None) -> bool:
        """Whether `translate(…, locale)` is served from memory; when not, call `prepare(locale)` off the
        event loop first, since a project's locale is read from its files on first use."""
        return locale in self._routes or self.catalog.project is None

    def prepare(self, locale: str | None) -> None:
        """Read every file the chain for `locale` needs (raises InvalidLocale / NoBundlesLoaded)."""
        self._route(locale)
        for messages, _ in self._read_from_files(locale):
            messages.load()

    def skipped(self, key: str, locale: str | None) -> list[FileProblem]:
        """Why `key` was skipped in the files of `locale`'s own chain (for a fallback's `_meta`)."""
        return [problem for messages, fallback in self._read_from_files(locale)
                if not fallback and (problem := messages.skipped(key)) is not None]

    def _read_from_files(self, locale: str | None) -> list[tuple[ProjectLocale, bool]]:
        """(messages, is_fallback) of the chain's bundles whose messages are read from catalog files."""
        bundles = self._bundles
        found = []
        for code, fallback in self._resolve(locale)[1]:
            bundle = bundles.get(code)
            if bundle is not None and isinstance(bundle.messages, ProjectLocale):
                found.append((bundle.messages, fallback))
        return found

    def _route(self, locale: str | None) -> Route:
        requested, chain = self._resolve(locale)
        if not self._bundles:
            raise NoBundlesLoaded(
                "no message bundles are loaded: add one with i18n_add_messages, "
                "or configure [packs.i18n] catalogs or bundle_dirs in parlance.toml (language packs' sample "
                "bundles load with [packs.i18n] language_pack_bundles = true)"
            )
        bundles = self._bundles
        steps: list[tuple[Mapping[str, Renderable], str, bool]] = []
        for code, fallback in chain:
            bundle = bundles.get(code)
            if bundle is None:
                continue
            messages = bundle.messages
            # What can no longer change (bundle files, messages in memory) is looked up directly, each
            # mapping a step: the hot path then skips the layering a project's files need.
            fixed = messages.fixed_mappings() if isinstance(messages, ProjectLocale) else None
            if fixed is None:
                steps.append((messages, code, fallback))
            else:
                steps.extend((part, code, fallback) for part in fixed)
        route = (requested.code, tuple(steps))
        if len(self._routes) >= _ROUTE_CACHE_LIMIT:
            self._routes.clear()
        self._routes[locale] = route
        return route

    def chain(self, locale: str | None = None) -> Chain:
        return self._resolve(locale)[1]

    def builder(self, locale: str, messages: object) -> BundleBuilder:
        """A builder for `messages` in `locale` (raises InvalidLocale / InvalidMessages early)."""
        return BundleBuilder(parse_locale(locale), messages, self.catalog.limits)

    def admit(self, builder: BundleBuilder, *, merge: bool = False) -> None:
        """Raise unless the bundle `builder` makes could be installed: InvalidMessages past the
        per-bundle `max_messages` (a merge counts the bundle it merges into), SessionBudgetExceeded
        past the session's budget. Reads keys and sizes only: call it before compiling."""
        self._admit(builder.tag.code, builder.keys, builder.total, builder.size, merge)

    def install(self, bundle: Bundle, *, merge: bool = False) -> Bundle:
        """Make `bundle` this session's bundle for its locale, or merge it into the current one.

        Raises as `admit` does, changing nothing, when the result would be over a limit.
        """
        self._admit(bundle.code, bundle.messages.keys, len(bundle.messages), bundle.size, merge)
        current = self._bundles.get(bundle.code)
        installed = current.merged_with(bundle) if merge and current else bundle
        self._bundles[installed.code] = installed
        self._added.add(installed.code)
        self._routes.clear()
        return installed

    def add_messages(self, locale: str, messages: object, *, merge: bool = False) -> Bundle:
        """Validate, check against the limits, compile and install (the tool does the same in steps)."""
        builder = self.builder(locale, messages)
        self.admit(builder, merge=merge)
        return self.install(builder.build(), merge=merge)

    def _admit(self, code: str, keys: Callable[[], Iterable[str]], count: int, size: int, merge: bool) -> None:
        limits = self.catalog.limits
        current = self._bundles.get(code)
        if merge and current is not None:
            added = count
            count, size = current.merged_count(keys(), count), current.merged_size(keys(), size)
            if count > limits.max_messages:
                raise InvalidMessages(
                    f"merging {added:,} messages into the bundle for {code} would give it {count:,} messages; "
                    f"the limit is {limits.max_messages:,} per bundle (setting [packs.i18n] max_messages). "
                    "Nothing was added: replace the bundle instead (merge: false), or raise the setting.",
                    {"locale": code, "message_count": count, "limit": limits.max_messages,
                     "setting": "max_messages"},
                )
        elif count > limits.max_messages:
            raise InvalidMessages(
                f"the bundle for {code} has {count:,} messages; the limit is {limits.max_messages:,} "
                "(setting [packs.i18n] max_messages): split it or raise the limit",
                {"locale": code, "message_count": count, "limit": limits.max_messages, "setting": "max_messages"},
            )
        others = [self._bundles[other] for other in self._added if other != code]
        messages = count + sum(len(bundle.messages) for bundle in others)
        if messages > limits.session_max_messages:
            raise _over_budget(code, "messages", messages, limits.session_max_messages,
                               f"this session's bundles {messages:,} messages",
                               "replace a bundle with a smaller one (merge: false)")
        total = size + sum(bundle.size for bundle in others)
        if total > limits.session_max_bytes:
            raise _over_budget(code, "bytes", total, limits.session_max_bytes,
                               f"this session's bundles {total:,} bytes of keys and messages (UTF-8)",
                               "replace a bundle with a smaller one (merge: false)")
        locales = len(others) + 1
        if locales > limits.session_max_locales:
            raise _over_budget(code, "locales", locales, limits.session_max_locales,
                               f"this session bundles for {locales} locales",
                               "add to a locale it already has")

    def own_bundles(self, locale: str) -> list[Bundle]:
        """The bundles on `locale`'s own chain (no fallback steps), most specific first."""
        return [self._bundles[code] for code, fallback in self._resolve(locale)[1]
                if not fallback and code in self._bundles]

    def find_bundle(self, tag: LocaleTag) -> Bundle | None:
        """The first bundle on `tag`'s own chain (no default-locale steps), e.g. `en` for `en-US`."""
        own = self.own_bundles(tag.code)
        return own[0] if own else None


def _over_budget(code: str, budget: str, value: int, limit: int, outcome: str, remedy: str) -> SessionBudgetExceeded:
    setting = f"session_max_{budget}"
    return SessionBudgetExceeded(
        f"adding this bundle for {code} would give {outcome}; the session's budget is {limit:,} "
        f"(setting [packs.i18n] {setting}). Nothing was added: {remedy}, or raise the setting.",
        {"locale": code, "budget": budget, "value": value, "limit": limit, "setting": setting},
    )
