"""The CLDR data of one locale that the ICU number and date formatters read, in a private copy.

The data is Babel's (its pickled CLDR files and its inheritance: root, language, region, CLDR's
parent exceptions). It is not read through `Locale._data` because of a Babel bug (2.18): a locale
shares with its parent every nested table it does not override, and resolving an alias inside such
a table (stand-alone month names alias the format ones, narrow unit widths the short ones, ...)
writes the value resolved for *that* locale back into the shared table. After Japanese formats
`LLL`, French stand-alone months read "1月". Here each locale's tables are merged into dicts of
its own and aliases are resolved against that locale alone, once, without writing anything back.

Only the sections the formatters use are kept, and at most a few dozen locales at a time.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Mapping
from typing import Any

__all__ = ["SECTIONS", "cldr_data", "cldr_parent"]

SECTIONS = (
    "number_symbols", "default_numbering_system", "decimal_formats", "percent_formats", "currency_formats",
    "scientific_formats", "compact_decimal_formats", "compact_currency_formats", "currency_symbols",
    "currency_names", "currency_names_plural", "currency_unit_patterns", "unit_patterns",
    "compound_unit_patterns", "months", "days", "eras", "day_periods", "datetime_skeletons", "date_formats",
    "time_formats", "datetime_formats", "time_zones",
)


def cldr_parent(name: str) -> str | None:
    """The locale Babel's data for `name` inherits from (None for root), as `babel.localedata.load` decides."""
    if name == "root":
        return None
    from babel import localedata
    from babel.core import get_global

    parent = get_global("parent_exceptions").get(name)
    if parent:
        return str(parent)
    non_likely = getattr(localedata, "_is_non_likely_script", None)
    if non_likely is not None and non_likely(name):
        return "root"
    parts = name.split("_")
    return "root" if len(parts) == 1 else "_".join(parts[:-1])


@functools.lru_cache(maxsize=48)
def cldr_data(name: str) -> Mapping[str, Any]:
    """The kept sections of the locale `name` (a Babel identifier such as `pt_BR`), aliases resolved."""
    from babel.localedata import resolve_locale_filename

    chain = []
    current: str | None = name
    while current is not None:
        chain.append(current)
        current = cldr_parent(current)
    merged: dict[str, Any] = {}
    for ancestor in reversed(chain):
        with open(resolve_locale_filename(ancestor), "rb") as file:
            own = pickle.load(file)  # noqa: S301 - Babel's own data files, as Babel itself reads them
        kept = {key: own[key] for key in SECTIONS if key in own}
        if "time_zones" in kept:  # only UTC is ever formatted
            kept["time_zones"] = {"Etc/UTC": kept["time_zones"].get("Etc/UTC") or {}}
        _merge(merged, kept)
    return {key: _resolved(merged[key], merged, 0) for key in SECTIONS if key in merged}


def _merge(target: dict[Any, Any], source: Mapping[Any, Any]) -> None:
    """Babel's merge (`babel.localedata.merge`), on copies: the child's values over the parent's."""
    from babel.localedata import Alias

    for key, value in source.items():
        if value is None:
            continue
        if isinstance(value, dict):
            current = target.get(key)
            if isinstance(current, Alias):
                target[key] = (current, _copy(value))
            elif isinstance(current, tuple):
                others = _copy(current[1])
                _merge(others, value)
                target[key] = (current[0], others)
            elif isinstance(current, dict):
                _merge(current, value)
            else:
                target[key] = _copy(value)
        else:
            target[key] = value


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        return (value[0], _copy(value[1]))
    return value


def _resolved(value: Any, root: Mapping[str, Any], depth: int) -> Any:
    """`value` with every alias in it replaced by (a copy of) what it names in this locale's data."""
    from babel.localedata import Alias

    if depth > 16:  # CLDR's aliases are a few levels deep; a cycle would be a data error
        return {}
    if isinstance(value, Alias):
        return _resolved(_follow(value, root), root, depth + 1)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Alias):
        base = _copy(_resolved(_follow(value[0], root), root, depth + 1))
        if isinstance(base, dict):
            _merge(base, value[1])
            return _resolved(base, root, depth + 1)
        return base
    if isinstance(value, dict):
        return {key: _resolved(item, root, depth) for key, item in value.items()}
    return value


def _follow(alias: Any, root: Mapping[str, Any]) -> Any:
    data: Any = root
    for key in alias.keys:
        if isinstance(data, tuple):
            data = _resolved(data, root, 1)
        if not isinstance(data, Mapping) or key not in data:
            return {}
        data = data[key]
    return data
