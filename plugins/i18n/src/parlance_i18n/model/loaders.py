"""Bundle files: `<locale>.json` (ICU MessageFormat, flat or nested) and `<locale>.po` (gettext).

The locale comes from the file name and is parsed strictly (`pt_BR.po`, `zh-Hant-TW.json`).

A JSON file is the same kind of object `i18n_add_messages` takes, so files and tool calls share one
validation path (`BundleBuilder`): one invalid message makes the file unusable, as a bad request is.

A PO file is read by the `po` catalog format, as GNU gettext reads it: messages are gettext's own
(never ICU: braces and apostrophes are text), plurals pick `msgstr[i]` by the file's Plural-Forms
from `count`, python-format entries interpolate `%(name)s`, fuzzy and untranslated entries are not
served, and keys are `msgid`, or `msgctxt` + "\x04" + `msgid` with a context. A broken entry is
skipped (and logged); the rest of the file loads.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from parlance_i18n import formats
from parlance_i18n.model.bundles import Bundle, Limits, compile_bundle
from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.store import read_bytes

__all__ = ["BUNDLE_SUFFIXES", "BundleFileError", "load_bundle", "read_bundle_file"]

BUNDLE_SUFFIXES = (".json", ".po")

logger = logging.getLogger(__name__)


class BundleFileError(I18nError):
    """A bundle file that cannot be used; the message names the file and the reason."""

    code = "INVALID_BUNDLE_FILE"


def load_bundle(path: Path, limits: Limits) -> Bundle:
    """The bundle of one `<locale>.json` or `<locale>.po` file (raises BundleFileError or InvalidMessages)."""
    if path.suffix != ".po":
        tag, messages = read_bundle_file(path)
        return compile_bundle(tag, messages, limits)
    tag, data = _locale_and_bytes(path)
    try:
        messages = formats.get("po").read(data, tag)
    except CatalogFileError as exc:
        raise BundleFileError(f"{path}: {exc.message}") from None
    if messages.problems:
        logger.warning("i18n.bundle_messages_skipped", extra={"path": str(path), "skipped": len(messages.problems)})
    return Bundle(tag, messages, len(data))


def read_bundle_file(path: Path) -> tuple[LocaleTag, dict[str, Any]]:
    """The locale (from the file name) and the messages object of one `<locale>.json` file."""
    tag, data = _locale_and_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BundleFileError(f"{path}: cannot read the file as UTF-8") from None
    return tag, _json_messages(text, path)


def _locale_and_bytes(path: Path) -> tuple[LocaleTag, bytes]:
    try:
        tag = parse_locale(path.stem)
    except I18nError:
        raise BundleFileError(
            f"{path}: the file name must be a locale code such as 'de.json' or 'pt_BR.po'"
        ) from None
    try:
        return tag, read_bytes(path)
    except CatalogFileError as exc:  # over the size limit every catalog file is read under
        raise BundleFileError(f"{path}: {exc.message}") from None
    except OSError as exc:
        raise BundleFileError(f"{path}: cannot read the file ({exc.__class__.__name__})") from None


def _json_messages(text: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BundleFileError(f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(data, dict):
        raise BundleFileError(f"{path}: the top level must be an object of message keys")
    return data
