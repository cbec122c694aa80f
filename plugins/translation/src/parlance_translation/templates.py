"""Where prompt templates and lexicons come from: the one seam for language packs.

    resolve(tool, language)          -> Template   (prompts/<tool>.md)
    resolve_lexicon(name, language)  -> Lexicon    (lexicons/<name>.toml)

Both take a BCP 47 tag or None, and the language packs the host offers this pack
(`ctx.language_packs`), and return the data plus `source` (which pack, language, version and file
it came from), which every result reports in `_meta`. Resolution follows BCP 47 lookup through the
language packs (`de-AT` -> `de`), taking `prompts/translation/<tool>.md` or
`lexicons/translation/<name>.toml` from the most specific pack that has it, then the pack's own
base file. No language pack for a non-English tag raises `LANGUAGE_PACK_MISSING`; English tags
without a pack (`en`, `en-US`) use the base files. An override whose header names another template
or major version, or that uses a placeholder the base does not have, is skipped with a warning.

Templates are rendered by plain named substitution of `{{name}}` placeholders, in one pass (a value
that itself contains `{{x}}` is not expanded again); no code runs. The first line of a template is
its version header: `<!-- template: <tool> v<semver> -->`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from collections.abc import Callable, Iterator
from typing import Any

from parlance import LanguagePack, LanguagePacks, ToolError

from parlance_translation import errors

logger = logging.getLogger(__name__)

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


def _language_packs_for(language: str | None, packs: LanguagePacks | None) -> list[LanguagePack]:
    """The language packs serving `language`, most specific first; [] means the English base files.

    Raises LANGUAGE_PACK_MISSING for a tag that is not BCP 47, or a non-English one without a pack.
    """
    if language is None or not language.strip():
        return []
    tag = language.strip()
    if not _LANGUAGE_TAG.match(tag):
        raise ToolError(
            errors.LANGUAGE_PACK_MISSING,
            f"target_language {language!r} is not a BCP 47 language tag (e.g. 'en', 'en-IE', 'de'). "
            "Omit it to use the default English prompts.",
            {"target_language": language},
        )
    serving = packs.for_language(tag) if packs is not None else []
    if serving or tag.replace("_", "-").split("-")[0].lower() == BASE_LANGUAGE:
        return serving
    available = sorted({lang for lp in (packs.all() if packs is not None else []) for lang in lp.languages})
    raise ToolError(
        errors.LANGUAGE_PACK_MISSING,
        f"no language pack is registered for target_language {language!r}; available: "
        f"{', '.join([BASE_LANGUAGE, *available])}. Install or drop in a language pack for it, or retry "
        "without target_language to use the default English prompts.",
        {"target_language": language, "available": [BASE_LANGUAGE, *available]},
    )


@lru_cache(maxsize=256)
def resolve(tool: str, language: str | None = None, packs: LanguagePacks | None = None) -> Template:
    """The prompt template for `tool` in `language` (None = English base).

    Cached per (tool, language, packs): the host hands a pack one `LanguagePacks` for its life.
    """
    base = _load_template(tool)
    relative = f"prompts/{PACK}/{tool}.md"
    for lp, path, tag in _pack_files(language, packs, relative):
        override = _load_override(path, relative, lp.name, lp.version or "", tag)
        if override is not None and _fits(override, base):
            return override
    return base


@lru_cache(maxsize=256)
def resolve_lexicon(name: str, language: str | None = None, packs: LanguagePacks | None = None) -> Lexicon:
    """The heuristics word list `name` in `language` (None = English base); cached like `resolve`."""
    base = _load_lexicon(name)
    relative = f"lexicons/{PACK}/{name}.toml"
    for lp, path, tag in _pack_files(language, packs, relative):
        override = _load_lexicon_file(name, path, relative, lp.name, tag)
        if override is not None and set(override.data) >= set(base.data) - {"meta"}:
            return override
        logger.warning("translation.lexicon_override_skipped", extra={"language_pack": lp.name, "lexicon": name})
    return base


def _pack_files(language: str | None, packs: LanguagePacks | None,
                relative: str) -> Iterator[tuple[LanguagePack, str, str]]:
    """(language pack, file, its language) for each pack serving `language` that has `relative`,
    most specific first."""
    for lp in _language_packs_for(language, packs):
        path = lp.file(relative)
        if path is not None:
            yield lp, str(path), _tag(lp, language)


def _tag(lp: LanguagePack, requested: str | None) -> str:
    return lp.languages[0] if lp.languages else (requested or BASE_LANGUAGE)


def _fits(override: Template, base: Template) -> bool:
    """An override must be the same template, the same major version, and need no value the base lacks."""
    same_major = override.version.split(".")[0] == base.version.split(".")[0]
    if override.tool == base.tool and same_major and override.placeholders <= base.placeholders:
        return True
    logger.warning("translation.template_override_skipped",
                   extra={"language_pack": override.source.pack, "template": base.tool,
                          "reason": "header or placeholders differ from the base template"})
    return False


def _template(text: str, source: Callable[[str], Source]) -> Template | None:
    """The template in `text`, or None without a version header; `source(version)` says where it came from."""
    header, _, body = text.partition("\n")
    match = _HEADER.match(header)
    if match is None:
        return None
    version = match.group("version")
    return Template(tool=match.group("name"), version=version, body=body, source=source(version),
                    placeholders=frozenset(_PLACEHOLDER.findall(body)))


def _lexicon(name: str, text: str, source: Callable[[str], Source]) -> Lexicon:
    data = tomllib.loads(text)
    return Lexicon(name=name, data=data, source=source(str(data.get("meta", {}).get("version", "0.0.0"))))


@lru_cache(maxsize=256)
def _load_override(path: str, relative: str, pack: str, pack_version: str, language: str) -> Template | None:
    # `source.path` is the file's path inside its language pack: results never carry server paths.
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        return None
    return _template(text, lambda _: Source(pack=pack, language=language, version=pack_version, path=relative))


@lru_cache(maxsize=256)
def _load_lexicon_file(name: str, path: str, relative: str, pack: str, language: str) -> Lexicon | None:
    try:
        text = open(path, encoding="utf-8").read()
        return _lexicon(name, text, lambda version: Source(pack=pack, language=language, version=version,
                                                           path=relative))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def _base_source(path: str) -> Callable[[str], Source]:
    return lambda version: Source(pack=PACK, language=BASE_LANGUAGE, version=version, path=path)


@lru_cache(maxsize=None)
def _load_template(tool: str) -> Template:
    path = f"prompts/{tool}.md"
    template = _template(resources.files("parlance_translation").joinpath(path).read_text(encoding="utf-8"),
                         _base_source(path))
    if template is None or template.tool != tool:
        raise ValueError(f"{path}: first line must be '<!-- template: {tool} v<major.minor.patch> -->'")
    return template


@lru_cache(maxsize=None)
def _load_lexicon(name: str) -> Lexicon:
    path = f"lexicons/{name}.toml"
    return _lexicon(name, resources.files("parlance_translation").joinpath(path).read_text(encoding="utf-8"),
                    _base_source(path))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
