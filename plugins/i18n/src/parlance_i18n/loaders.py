"""Bundle files: `<locale>.json` (flat or nested) and `<locale>.po` (gettext), read into message objects.

The locale comes from the file name and is parsed strictly (`pt_BR.po`, `zh-Hant-TW.json`); the
result is the same kind of object `i18n_add_messages` takes, so files and tool calls share one
validation path (`BundleBuilder`).

PO entries become messages keyed by `msgid`, or `msgctxt.msgid` when there is a context (the same
key a nested JSON object `{msgctxt: {msgid: ...}}` would give). Fuzzy and untranslated entries are
left out, as gettext does. A plural entry becomes an ICU plural on the argument `count`: each CLDR
category of the locale takes the `msgstr[i]` that the file's `Plural-Forms` expression picks for a
number of that category (so `{count}` or `#` prints the number).
"""

from __future__ import annotations

import functools
import gettext
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlance_i18n.errors import I18nError
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.plurals import CATEGORIES, plural_rules
from parlance_i18n.po import PoSyntaxError, parse_header, parse_po

__all__ = ["BUNDLE_SUFFIXES", "BundleFileError", "read_bundle_file"]

BUNDLE_SUFFIXES = (".json", ".po")
MAX_FILE_BYTES = 50 * 1024 * 1024
PLURAL_ARGUMENT = "count"
_GETTEXT_DEFAULT_PLURAL = "n != 1"


class BundleFileError(I18nError):
    """A bundle file that cannot be used; the message names the file and the reason."""

    code = "INVALID_BUNDLE_FILE"


def read_bundle_file(path: Path) -> tuple[LocaleTag, dict[str, Any]]:
    """The locale (from the file name) and the messages object of one bundle file."""
    try:
        tag = parse_locale(path.stem)
    except I18nError:
        raise BundleFileError(
            f"{path}: the file name must be a locale code such as 'de.json' or 'pt_BR.po'"
        ) from None
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BundleFileError(f"{path}: {size} bytes is over the {MAX_FILE_BYTES}-byte limit for a bundle file")
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise BundleFileError(f"{path}: cannot read the file as UTF-8 ({exc.__class__.__name__})") from None
    if path.suffix == ".json":
        return tag, _json_messages(text, path)
    return tag, _po_messages(text, path, tag)


def _json_messages(text: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BundleFileError(f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict):
        raise BundleFileError(f"{path}: the top level must be an object of message keys")
    return data


def _po_messages(text: str, path: Path, tag: LocaleTag) -> dict[str, Any]:
    try:
        entries = parse_po(text)
    except PoSyntaxError as exc:
        raise BundleFileError(f"{path}: {exc}") from None
    header = next((e for e in entries if e.is_header), None)
    plural_forms = parse_header(header).get("Plural-Forms", "") if header else ""
    choose_form = _plural_form_chooser(plural_forms, path)
    messages: dict[str, Any] = {}
    for entry in entries:
        forms = entry.forms
        if entry.is_header or "fuzzy" in entry.flags or not forms or not all(forms):
            continue
        key = f"{entry.msgctxt}.{entry.msgid}" if entry.msgctxt else entry.msgid
        if key in messages:
            raise BundleFileError(f"{path}: line {entry.line}: the key {key!r} is defined twice")
        if entry.msgid_plural is None:
            messages[key] = forms[0]
        else:
            messages[key] = _icu_plural(forms, tag, choose_form)
    return messages


def _plural_form_chooser(header: str, path: Path) -> Callable[[int], int]:
    """gettext's `plural=` expression as a function of n (stdlib's validated C-expression compiler)."""
    expression = _GETTEXT_DEFAULT_PLURAL
    for part in header.split(";"):
        name, sep, value = part.partition("=")
        if sep and name.strip() == "plural":
            expression = value.strip()
    try:
        return gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError):
        raise BundleFileError(f"{path}: the Plural-Forms expression {expression[:80]!r} is not valid") from None


def _icu_plural(forms: list[str], tag: LocaleTag, choose_form: Callable[[int], int]) -> str:
    rules = plural_rules(tag)
    samples = _category_samples(tag)
    branches = []
    for category in CATEGORIES:
        if category not in rules.cardinal_categories:
            continue
        sample = samples.get(category)
        index = choose_form(sample) if sample is not None else len(forms) - 1
        branches.append(f"{category} {{{forms[max(0, min(int(index), len(forms) - 1))]}}}")
    return f"{{{PLURAL_ARGUMENT}, plural, {' '.join(branches)}}}"


@functools.lru_cache(maxsize=128)
def _category_samples(tag: LocaleTag) -> dict[str, int]:
    """The smallest integer of each cardinal category (categories only decimals reach get none)."""
    rules = plural_rules(tag)
    samples: dict[str, int] = {}
    for n in (*range(0, 1001), 1_000_000, 10_000_000):
        samples.setdefault(rules.cardinal(n), n)
    return samples
