"""Bundle files: `<locale>.json` (ICU MessageFormat, flat or nested) and `<locale>.po` (gettext), the
read-only catalogs of `bundle_dirs` and of language packs' `messages/` folders.

A bundle file is a catalog file like a project's, read by its format (`icu-json`, `po`) through the
same machinery (`project.ProjectLocale`, `project.read_file`), once, at startup: each file is a
read-only catalog of one locale, named by its folder, which `Catalog.load_bundle_files` layers. The
locale comes from the file name and is parsed strictly (`pt_BR.po`, `zh-Hant-TW.json`).

A JSON file is held to what `i18n_add_messages` asks of a request: one message the format leaves out
(a value that is not a string, invalid ICU), a key or message over `max_message_chars`, an empty
key, or more than `max_messages` messages makes the whole file unusable, as they make a request
invalid. A key written twice is served once (in one object the last value, as `JSON.parse` keeps
it; flat and nested, the first), and `i18n_check` lists it, as it does in a project's files.

A PO file is read as GNU gettext reads it: messages are gettext's own (never ICU: braces and
apostrophes are text), plurals pick `msgstr[i]` by the file's Plural-Forms from `count`,
python-format entries interpolate `%(name)s`, fuzzy and untranslated entries are not served, and keys
are `msgid`, or `msgctxt` + "\x04" + `msgid` with a context. A broken entry is skipped (logged, and
listed by `i18n_check` as any catalog file's are); the rest of the file loads.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path

from parlance_i18n import formats
from parlance_i18n.errors import I18nError
from parlance_i18n.formats import CatalogFileError, LocaleMessages
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.bundles import DEFAULT_LIMITS, Bundle, Limits, utf8_size
from parlance_i18n.model.project import CatalogFile, ProjectLocale, read_file
from parlance_i18n.store import DEFAULT_FILE_LIMITS, FileLimits

__all__ = ["BUNDLE_SUFFIXES", "BundleFileError", "bundle_catalog", "load_bundle_file", "text_size"]

BUNDLE_SUFFIXES = (".json", ".po")
_SHOWN_PROBLEMS = 5

logger = logging.getLogger(__name__)


class BundleFileError(I18nError):
    """A bundle file that cannot be used; the message names the file and the reason."""

    code = "INVALID_BUNDLE_FILE"


def load_bundle_file(path: Path, limits: Limits = DEFAULT_LIMITS, *, root: Path | None = None,
                     file_limits: FileLimits = DEFAULT_FILE_LIMITS) -> Bundle:
    """The bundle of one `<locale>.json` or `<locale>.po` file, read now: its messages are the file's
    read-only catalog (a `ProjectLocale`), read only inside `root` (default: the folder the file leads
    to now). Raises BundleFileError naming why the file cannot be used."""
    catalog = bundle_catalog(path, limits, root=root, file_limits=file_limits)
    read, problems = catalog.load(), catalog.problems
    if not read:
        raise BundleFileError(f"{path}: {problems[0].reason}")
    if problems:  # a PO entry that cannot be used is left out; the rest of the file is served
        logger.warning("i18n.bundle_messages_skipped", extra={"path": str(path), "skipped": len(problems)})
    return Bundle(catalog.tag, catalog, text_size(read[0][1]))


def bundle_catalog(path: Path, limits: Limits, *, root: Path | None = None,
                   file_limits: FileLimits = DEFAULT_FILE_LIMITS) -> ProjectLocale:
    """The read-only catalog of one `<locale>.json` or `<locale>.po` file, not read yet (`load` it),
    held to `root` (default: the folder the file leads to now: a language pack's file, which the host
    kept inside its pack, cannot be swapped for a link elsewhere before it is read); raises
    BundleFileError when the file name is not a locale code."""
    try:
        tag = parse_locale(path.stem)
    except I18nError:
        raise BundleFileError(
            f"{path}: the file name must be a locale code such as 'de.json' or 'pt_BR.po'"
        ) from None
    # The suffix's own format, never sniffed from the contents: a bundle file is ICU JSON or gettext PO.
    claim = formats.claims(path.suffix)
    if claim is None or path.suffix not in BUNDLE_SUFFIXES:
        raise BundleFileError(f"{path}: a bundle file is <locale>.json (ICU messages) or <locale>.po (gettext)")
    bounds = root if root is not None else Path(os.path.realpath(path)).parent
    file = CatalogFile(str(path.parent), path, tag, formats.get(claim[0]), path.parent, root=bounds, limits=file_limits)
    if path.suffix == ".po":
        return ProjectLocale(tag, [file], fixed=True)
    return ProjectLocale(tag, [file], read=functools.partial(_read_whole, limits=limits), fixed=True)


def text_size(messages: LocaleMessages) -> int:
    """UTF-8 bytes of the keys and message texts (each form of a plural), what a session's budget counts."""
    size = 0
    for key in messages:
        text = messages.text(key)
        forms = () if text is None else (text,) if isinstance(text, str) else text.values()
        size += utf8_size(key) + sum(utf8_size(form) for form in forms)
    return size


def _read_whole(file: CatalogFile, limits: Limits) -> LocaleMessages:
    """A JSON bundle file's messages, or CatalogFileError naming every message that makes it unusable."""
    messages = read_file(file)
    code = file.tag.code
    if len(messages) > limits.max_messages:
        raise CatalogFileError(f"the bundle for {code} has {len(messages)} messages; the limit is "
                               f"{limits.max_messages} (setting [packs.i18n] max_messages): split it or raise the limit")
    # A problem whose key is still served (a key written twice: the last one is used) leaves nothing out.
    problems = [(p.key, p.reason) for p in messages.problems if p.key is None or p.key not in messages]
    limit = limits.max_message_chars
    for key in messages:
        text = messages.text(key)
        if not key:
            problems.append((key, "keys must be non-empty strings"))
        elif len(key) > limit:
            problems.append((f"{key[:40]}…", f"the key has {len(key)} characters; the limit is {limit} "
                                             "(setting max_message_chars)"))
        elif isinstance(text, str) and len(text) > limit:
            problems.append((key, f"the message has {len(text)} characters; the limit is {limit} "
                                  "(setting max_message_chars)"))
    if problems:
        shown = "; ".join(f"{key!r}: {reason}" for key, reason in problems[:_SHOWN_PROBLEMS])
        more = f" (and {len(problems) - _SHOWN_PROBLEMS} more)" if len(problems) > _SHOWN_PROBLEMS else ""
        raise CatalogFileError(f"{len(problems)} message(s) for {code} are invalid: {shown}{more}; a bundle file is "
                               "used whole or not at all")
    return messages
