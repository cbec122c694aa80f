"""How Rails names what a YAML file holds: the root key of a locale, the name I18n looks a key up by
(as Ruby's Psych typed it), and which mappings are one plural message. Shared by the reader
(`yaml.format`) and the editor (`yaml.document`), which must agree on every key.
"""

from __future__ import annotations

from parlance_i18n.formats.base import CatalogFileError
from parlance_i18n.formats.shared.spelling import spells
from parlance_i18n.formats.yaml.psych import Map, Node, Scalar, resolve, ruby_integer, symbol_name
from parlance_i18n.icu.plurals import CATEGORIES
from parlance_i18n.locales import LocaleTag

__all__ = ["MAX_DEPTH", "PLURAL_KEYS", "key_name", "locale_root"]

PLURAL_KEYS = frozenset(CATEGORIES)
"""The keys of a mapping that is one plural message (with `one` or `other` among them)."""
MAX_DEPTH = 100
"""How deep keys may nest before the rest is left out (reported), so a hostile file cannot recurse."""


def locale_root(root: Node | None, tag: LocaleTag) -> tuple[Scalar | None, Map | None]:
    """(root key, its mapping) for `tag`: the root that spells it, else the only one."""
    if root is None or (isinstance(root, Scalar) and root.kind == "null"):
        return None, None
    if not isinstance(root, Map):
        raise CatalogFileError("the file's top level is not a mapping of locales (en: ...)", root.line + 1)
    roots = [(key, value) for key, value in root.items if isinstance(key, Scalar)]
    chosen = next(((key, value) for key, value in roots if spells(key.value, tag)), None)
    if chosen is None:
        if len(roots) != 1:
            names = ", ".join(repr(key.value[:20]) for key, _ in roots[:8])
            raise CatalogFileError(f"no root key spells {tag.code!r} (the roots are {names}): a Rails file "
                                   "holds one root key per locale, such as en: or pt-BR:")
        chosen = roots[0]
    key, value = chosen
    value = resolve(value)
    if isinstance(value, Map):
        return key, value
    if isinstance(value, Scalar) and value.kind == "null":
        return key, None  # `en:` with nothing under it yet
    raise CatalogFileError(f"the root key {key.value[:20]!r} holds a single value, not the locale's messages",
                           key.line + 1)


def key_name(key: Node) -> tuple[str | None, str | None]:
    """(the name Rails looks the key up by, or None; why it cannot be looked up)."""
    key = resolve(key)
    if not isinstance(key, Scalar):
        return None, "the key is a collection, which no I18n lookup can name"
    kind, value = key.kind, key.value
    if kind == "str":
        name = value
    elif kind in ("true", "false"):
        name = kind  # Rails (i18n >= 1.7) looks "true" and "false" up as the booleans Psych made
    elif kind == "int":
        name = str(ruby_integer(value))
    elif kind == "symbol":
        name = symbol_name(value)
    else:
        what = {"null": "null", "float": "a float", "time": "a time", "date": "a date"}.get(kind, "a tagged value")
        return None, (f"Ruby's YAML reads the key {value[:40]!r} as {what}, so no I18n lookup finds it; "
                      "quote it")
    if "." in name:
        return None, f"the key {name[:40]!r} has a dot, which I18n reads as a separator: nest it instead"
    return name, None
