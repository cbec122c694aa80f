"""Android string resources (`res/values*/strings.xml`), read as aapt2 compiles them and rendered as
`Resources.getString(id, args...)` / `getQuantityString(id, count, args...)` return them.

Keys and values:

- `<string name="k">` (and `<item type="string" name="k">`): key `k`; a `product` other than
  "default" is a build variant and is left alone.
- `<plurals name="k"><item quantity="one">...`: key `k`, a dict of forms by CLDR quantity.
- `<string-array name="k"><item>...`: keys `k[0]`, `k[1]`, ... (deleting one renumbers the rest).
- `translatable="false"` entries stay readable; their keys are `untranslatable_keys`.
- A value is the text aapt2 builds from the element (by `aapt_text`: `\\'`, `\\"`, `\\n`, `\\t`, `\\@`, `\\?`,
  `\\\\`, `\\uXXXX`; outside double quotes a run of whitespace is one space; without styling tags
  the ends are trimmed; an unescaped apostrophe outside quotes is an error), with inline markup
  (`<b>`, `<i>`, `<u>`, `<xliff:g id=".." example="..">`) kept as written. Writing a value back
  escapes it so aapt2 gives exactly that text again: tag-shaped text that opens and closes in
  balance (`<b>…</b>`) is written as markup, any other `<` as `&lt;`; an entry written in double
  quotes or in CDATA keeps that style.
- A value that is a reference (`@string/other`) renders as the string it names in the same file;
  `@null` and `@empty` are empty; a reference to anything else is reported and skipped.
- `comment(key)` is the comment aapt2 attaches to an entry: the last one since the entry before.

Rendering: the markup is dropped (getString returns the unstyled text) and, unless the element says
`formatted="false"`, the text is a java.util.Formatter pattern (`%1$s`, `%d`, `%%`) whose arguments
are the variables "1", "2", ... A `<plurals>` picks its item by the CLDR category of
`values["count"]` (then "other"); when "1" is not given, the count is argument 1, as apps call
`getQuantityString(id, n, n)`.

Problems (the entry is skipped, the file still loads): aapt2's own errors (unescaped apostrophe,
bad `\\u` escape, several non-positional arguments in a `<string>`, a plural item without a valid
or with a repeated quantity), a pattern java.util.Formatter refuses, a missing name, a duplicate
key (the first is kept), a reference that cannot be resolved.

Editing is `document.AndroidDocument`'s (every edit read back: a value aapt2 would not give back
unchanged is refused); `entries` walks the file for both.

Locale folders: `values-pt-rBR` is pt-BR, `values-b+sr+Latn` is sr-Latn, `values-iw` is he (also
`in` -> id, `ji` -> yi); `values` alone is no locale (the caller maps it to the source locale).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from parlance_i18n.formats.android.aapt_text import (
    ASCII_SPACE,
    Unusable,
    aapt_true,
    flatten,
    several_unnumbered,
    string_reference,
)
from parlance_i18n.formats.android.document import AndroidDocument
from parlance_i18n.formats.android.entries import entries, quantities
from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
)
from parlance_i18n.formats.shared.messages import FixedText, Relabeled, TextMessages, first_one_used
from parlance_i18n.formats.shared.placeholders import printf_placeholders
from parlance_i18n.formats.shared.spelling import LEGACY_LANGUAGES, locale_or_none
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.xmltext import XmlFile, XmlNode, scan, unescape
from parlance_i18n.icu.plurals import PluralRules, as_number, plural_rules
from parlance_i18n.locales import LocaleTag

__all__ = ["AndroidFormat", "AndroidMessages"]

_MAX_ALIAS_DEPTH = 8


# --- reading -----------------------------------------------------------------------------------------------


def _compile(text: str, plain: str, formatted: bool) -> Renderable:
    if not formatted:  # formatted="false": printed as it is
        return FixedText(text, plain)
    from parlance_i18n.formats.shared.printf import compile_printf

    compiled = compile_printf(plain, style="java")
    return compiled if plain == text else Relabeled(text, compiled)  # the markup stays in its source


class _Plural:
    """A <plurals>: the item of `values["count"]`'s CLDR category (else "other"), formatted."""

    __slots__ = ("_compiled", "_forms", "_rules", "source")

    def __init__(self, forms: dict[str, tuple[str, str]], rules: PluralRules, formatted: bool) -> None:
        self._forms = forms
        self._rules = rules
        self._compiled = {category: _compile(text, plain, formatted) for category, (text, plain) in forms.items()}
        self.source = forms.get("other", next(iter(forms.values())))[0]

    def render(self, values: Mapping[str, Any] | None, limit: int) -> str:
        values = values or {}
        count = values.get("count")
        number = as_number(count)
        category = self._rules.cardinal(number) if number is not None else "other"
        compiled = self._compiled.get(category) or self._compiled.get("other") or next(iter(self._compiled.values()))
        if count is not None and "1" not in values:
            values = {**values, "1": count}  # getQuantityString(id, n, n): the count is argument 1
        return compiled.render(values, limit)

    @property
    def arguments(self) -> frozenset[str]:
        found = {"count"}
        for compiled in self._compiled.values():
            found |= compiled.arguments
        return frozenset(found)

    @property
    def plurals(self) -> tuple[Any, ...]:
        from parlance_i18n.icu.messageformat import PluralUse

        return (PluralUse("count", False, frozenset(self._forms)),)


_AndroidText = str | tuple[tuple[str, str], ...]
"""A message as read: a text, or a <plurals>' (quantity, text) items."""


class AndroidMessages(TextMessages[_AndroidText]):
    """One values file's messages: texts kept as aapt2 builds them, compiled on first `get`."""

    def __init__(self, tag: LocaleTag) -> None:
        super().__init__()
        self.tag = tag
        self._plain: dict[str, _AndroidText] = {}  # only where markup makes it differ
        self._not_formatted: set[str] = set()
        self._aliases: dict[str, str] = {}
        self.untranslatable_keys: frozenset[str] = frozenset()

    def text(self, key: str) -> Value | None:
        found = self.texts.get(key)
        if isinstance(found, tuple):
            return dict(found)
        return found

    def is_formatted(self, key: str) -> bool:
        """Whether `getString` formats the message (False for `formatted="false"`)."""
        return key not in self._not_formatted

    def get(self, key: str, default: Any = None) -> Any:
        target, hops = key, 0
        while target in self._aliases:  # `@string/other`: that string's message
            if hops >= _MAX_ALIAS_DEPTH:
                return default
            target, hops = self._aliases[target], hops + 1
        return super().get(target, default)

    def _compile(self, key: str, text: _AndroidText) -> Renderable:
        plain = self._plain.get(key, text)
        formatted = key not in self._not_formatted
        if isinstance(text, tuple):
            plains = dict(plain) if isinstance(plain, tuple) else {}
            forms = {category: (form, plains.get(category, form)) for category, form in text}
            return _Plural(forms, plural_rules(self.tag), formatted)
        return _compile(text, plain, formatted)  # type: ignore[arg-type]

    def _reason(self, key: str, error: Exception) -> str:
        return f"{key!r} cannot be used: {error}"


def _check_printf(plain: str) -> str | None:
    """Why java.util.Formatter would refuse `plain`, or None."""
    if "%" not in plain:
        return None
    from parlance_i18n.formats.shared.printf import compile_printf

    try:
        compile_printf(plain, style="java")
    except ValueError as error:
        return f"{error} (or add formatted=\"false\" to the element)"
    return None


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits) -> AndroidMessages:
    file = scan(data, limits=limits)
    messages = AndroidMessages(tag)
    problems = messages.problems
    seen_lines: dict[str, int] = {}
    untranslatable: set[str] = set()
    for entry in entries(file, problems):
        key = entry.key
        line = entry.node.line
        if key in seen_lines:
            problems.append(first_one_used(key, line, seen_lines[key]))
            continue
        seen_lines[key] = line
        check_count(len(seen_lines), limits)
        attributes = entry.owner.attributes
        formatted = aapt_true(attributes.get("formatted"))
        translatable = aapt_true(attributes.get("translatable"))
        try:
            if entry.kind == "plurals":
                forms, plains = _read_plural(file, entry.node, formatted)
                messages.texts[key] = forms
                if plains != forms:
                    messages._plain[key] = plains
            else:
                content = file.content(entry.node)
                value, plain = flatten(content)
                # aapt2 reads a reference from the text before its escapes (`\@` is not one) and
                # only when there is no styling.
                alias, reason = (string_reference(unescape(content).strip(ASCII_SPACE)) if value == plain
                                 else (None, None))
                if reason:
                    raise Unusable(reason)
                if alias == "":
                    value = plain = ""
                elif alias is not None:
                    messages._aliases[key] = alias
                elif formatted:
                    if (entry.kind == "string" and translatable and value == plain and plain.count("%") > 1
                            and several_unnumbered(plain)):
                        raise Unusable('it has several arguments, not all numbered (%1$s, %2$d); number them, '
                                       'or add formatted="false"')
                    reason = _check_printf(plain)
                    if reason:
                        raise Unusable(reason)
                messages.texts[key] = value
                if plain != value:
                    messages._plain[key] = plain
        except Unusable as invalid:
            problems.append(Problem(key, line, f"{key!r} cannot be used: {invalid}"))
            continue
        if not formatted:
            messages._not_formatted.add(key)
        if not translatable:
            untranslatable.add(key)
        if entry.comment is not None:
            messages.comments[key] = file.raw(entry.comment.open_end, entry.comment.close_start).strip()
    unresolved = True
    while unresolved:  # until stable: dropping one reference can leave another pointing at nothing
        unresolved = False
        for key, target in list(messages._aliases.items()):
            if target not in messages.texts:
                problems.append(Problem(key, seen_lines.get(key), f"{key!r} refers to @string/{target}, which this "
                                                                  "file does not define (or cannot use)"))
                messages._aliases.pop(key)
                messages.texts.pop(key, None)
                unresolved = True
    messages.untranslatable_keys = frozenset(untranslatable)
    return messages


def _read_plural(file: XmlFile, plurals: XmlNode, formatted: bool
                 ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    forms: list[tuple[str, str]] = []
    plains: list[tuple[str, str]] = []
    for quantity, item in quantities(file, plurals):
        if quantity is None:
            written = item.attributes.get("quantity")
            raise Unusable(f"an <item> has the quantity {written[:20]!r}; use zero, one, two, few, many or other"
                           if written else "an <item> has no quantity attribute")
        if any(quantity == seen for seen, _ in forms):
            raise Unusable(f"the quantity {quantity!r} is given twice (line {item.line})")
        value, plain = flatten(file.content(item))
        if formatted:
            reason = _check_printf(plain)
            if reason:
                raise Unusable(f"its {quantity!r} item: {reason}")
        forms.append((quantity, value))
        plains.append((quantity, plain))
    if not forms:
        raise Unusable("the <plurals> has no <item>")
    return tuple(forms), tuple(plains)


# --- the format ------------------------------------------------------------------------------------------------

_LEGACY = {modern: legacy for legacy, modern in LEGACY_LANGUAGES.items()}
_NOT_LANGUAGES = frozenset({"car", "hdr"})
"""Three-letter resource qualifiers that are not languages (UI mode car, HDR screens)."""
_LEGACY_QUALIFIER = re.compile(r"([a-z]{2,3})(?:-r([a-z]{2}))?", re.IGNORECASE)
_BCP47_QUALIFIER = re.compile(r"b\+([a-z]{2,3}(?:\+[a-z0-9]{1,8})*)", re.IGNORECASE)
_ARRAY_INDEX = re.compile(r"\[\d+\]")


class AndroidFormat(CatalogFormat):
    """`res/values*/strings.xml`, as aapt2 reads it."""

    frameworks = ("android",)

    default_folder = "values"
    layout_folders = frozenset({"res"})
    placeholder_pattern = printf_placeholders()
    plural_forms = True

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> AndroidMessages:
        return _read(data, tag, limits)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> AndroidDocument:
        return AndroidDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """`<resources>` with nothing in it, as Android Studio's Translations Editor starts a
        `values-<qualifier>/strings.xml` (the folder is `locale_spelling`'s)."""
        return b'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n</resources>\n'

    def sniff(self, head: bytes) -> bool:
        return b"<resources" in head

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """Each argument read by a conversion of the source's type: `getString(id, "Ann")` throws
        IllegalFormatConversionException where the translation reads argument 1 with `%1$d` (as
        Android lint's StringFormatMatches reports). Not for `formatted="false"` strings."""
        if not isinstance(written, AndroidMessages) or not written.is_formatted(key):
            return []
        from parlance_i18n.formats.shared.conversions import message_conversion_reasons
        from parlance_i18n.formats.shared.printf import printf_conversions

        return message_conversion_reasons(source, written.text(key), lambda text: printf_conversions(text, "java"))

    def placeholder(self, name: str) -> str:
        """`%1$s` for argument 1 (`getString(id, args...)`), a name as it is."""
        spelled = f"%{name}$s" if name.isdigit() else name
        return f"the placeholder {spelled}"

    def message_keys(self, document: Document, key: str) -> list[str]:
        """The entry, or the items of the `<string-array>` named `key`."""
        if document.get(key) is not None:
            return [key]
        items: list[str] = []
        while document.get(f"{key}[{len(items)}]") is not None:
            items.append(f"{key}[{len(items)}]")
        return items

    def renamed_key(self, part: str, old: str, new: str) -> str:
        suffix = part[len(old):]
        if part.startswith(old) and _ARRAY_INDEX.fullmatch(suffix):
            return new + suffix
        return super().renamed_key(part, old, new)

    def locale_spelling(self, tag: LocaleTag) -> str:
        """The resource qualifier after `values-`: `pt-rBR`, `b+sr+Latn`, `iw` for Hebrew."""
        if tag.script or tag.variants or (tag.region is not None and tag.region.isdigit()):
            return "b+" + "+".join(part for part in (tag.language, tag.script, tag.region, *tag.variants) if part)
        language = _LEGACY.get(tag.language, tag.language)
        return f"{language}-r{tag.region}" if tag.region else language

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """The locale of a `values-...` folder name or of its qualifier; None for `values` alone or
        for folders whose qualifier is not a locale (`values-night`, `values-fr-land`)."""
        qualifier = text[len("values-"):] if text.startswith("values-") else text
        if qualifier in ("values", ""):
            return None
        legacy = _LEGACY_QUALIFIER.fullmatch(qualifier)
        if legacy:
            language = legacy.group(1).lower()
            if language in _NOT_LANGUAGES:
                return None
            region = legacy.group(2)
            return LocaleTag(LEGACY_LANGUAGES.get(language, language), None, region.upper() if region else None)
        modern = _BCP47_QUALIFIER.fullmatch(qualifier)
        if modern:
            parsed = locale_or_none("-".join(modern.group(1).split("+")))
            if parsed is None:
                return None
            language = LEGACY_LANGUAGES.get(parsed.language, parsed.language)
            return LocaleTag(language, parsed.script, parsed.region, parsed.variants)
        return None
