"""Where prompt templates and lexicons come from: the one seam for language packs.

    resolve(tool, language)          -> Template   (prompts/<tool>.md)
    resolve_lexicon(name, language)  -> Lexicon    (lexicons/<name>.toml)

Both take a BCP 47 tag or None and return the data plus `source` (which pack, language, version
and file it came from), which every result reports in `_meta`. Today only the pack's own English
base files exist: None and any `en` tag (`en`, `en-US`, `en-IE`, ...) resolve to them; any other
language raises `LANGUAGE_PACK_MISSING`. When host-side language packs land, this module is the
only one to change: look up `prompts/translation/<tool>.md` and `lexicons/translation/<name>.toml`
in the language packs along the BCP 47 fallback chain (de-AT -> de -> base), same file names,
same placeholders, same lexicon keys.

Templates are rendered by plain named substitution of `{{name}}` placeholders, in one pass (a value
that itself contains `{{x}}` is not expanded again); no code runs. The first line of a template is
its version header: `<!-- template: <tool> v<semver> -->`.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from parlance import ToolError

from parlance_translation import errors

PACK = "translation"
BASE_LANGUAGE = "en"

_HEADER = re.compile(r"^<!--\s*template:\s*(?P<name>[a-z_]+)\s+v(?P<version>\d+\.\d+\.\d+)\s*-->\s*$")
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
_LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$")


@dataclass(frozen=True)
class Source:
    """Where a template or lexicon came from (reported with every result that used it)."""

    pack: str
    language: str
    version: str
    path: str

    def as_meta(self) -> dict[str, str]:
        return {"pack": self.pack, "language": self.language, "version": self.version, "path": self.path}


@dataclass(frozen=True)
class Template:
    tool: str
    version: str
    body: str
    source: Source
    placeholders: frozenset[str] = field(default_factory=frozenset)

    def render(self, values: dict[str, str]) -> str:
        """Substitute every `{{name}}` with `values[name]`; a missing value is a bug in the caller."""
        missing = self.placeholders - values.keys()
        if missing:
            raise KeyError(f"template {self.tool} v{self.version} needs values for {sorted(missing)}")
        return _PLACEHOLDER.sub(lambda match: values[match.group(1)], self.body)


@dataclass(frozen=True, eq=False)  # hashed by identity: resolved lexicons are cached singletons
class Lexicon:
    name: str
    data: dict[str, Any]
    source: Source


def _base_language(language: str | None) -> str:
    """Return the language whose files serve `language`, or raise LANGUAGE_PACK_MISSING."""
    if language is None or not language.strip():
        return BASE_LANGUAGE
    tag = language.strip()
    if not _LANGUAGE_TAG.match(tag):
        raise ToolError(
            errors.LANGUAGE_PACK_MISSING,
            f"target_language {language!r} is not a BCP 47 language tag (e.g. 'en', 'en-IE', 'de'). "
            "Omit it to use the default English prompts.",
            {"target_language": language},
        )
    if tag.replace("_", "-").split("-")[0].lower() == BASE_LANGUAGE:
        return BASE_LANGUAGE
    raise ToolError(
        errors.LANGUAGE_PACK_MISSING,
        f"no language pack is registered for target_language {language!r}; only English ('en', 'en-*') is "
        "available. Retry without target_language to use the default English prompts.",
        {"target_language": language, "available": [BASE_LANGUAGE]},
    )


def resolve(tool: str, language: str | None = None) -> Template:
    """The prompt template for `tool` in `language` (None = English base)."""
    return _load_template(tool, _base_language(language))


def resolve_lexicon(name: str, language: str | None = None) -> Lexicon:
    """The heuristics word list `name` in `language` (None = English base)."""
    return _load_lexicon(name, _base_language(language))


@lru_cache(maxsize=None)
def _load_template(tool: str, language: str) -> Template:
    path = f"prompts/{tool}.md"
    text = resources.files("parlance_translation").joinpath(path).read_text(encoding="utf-8")
    header, _, body = text.partition("\n")
    match = _HEADER.match(header)
    if match is None or match.group("name") != tool:
        raise ValueError(f"{path}: first line must be '<!-- template: {tool} v<major.minor.patch> -->'")
    version = match.group("version")
    return Template(
        tool=tool,
        version=version,
        body=body,
        source=Source(pack=PACK, language=language, version=version, path=path),
        placeholders=frozenset(_PLACEHOLDER.findall(body)),
    )


@lru_cache(maxsize=None)
def _load_lexicon(name: str, language: str) -> Lexicon:
    path = f"lexicons/{name}.toml"
    data = tomllib.loads(resources.files("parlance_translation").joinpath(path).read_text(encoding="utf-8"))
    version = str(data.get("meta", {}).get("version", "0.0.0"))
    return Lexicon(name=name, data=data, source=Source(pack=PACK, language=language, version=version, path=path))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
