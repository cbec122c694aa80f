"""Language packs: data-only folders that add locale-specific assets to code packs.

    language_packs/de/
      pack.toml                          name, version, languages, [compat] <pack> = "<major>"
      prompts/<pack>/<template>.md       overrides of a pack's prompt templates
      messages/<locale>.json | .po       message bundles for the i18n pack
      lexicons/<pack>/*.toml             word lists for a pack's deterministic heuristics

Found in `[language_packs] paths` (which replaces the default search path: `./language_packs` and
the user data dir) and through the `parlance.language_packs` entry-point group, whose values name
the folder holding `pack.toml` as an import path (`my_pack`, or `shipped_packs.de` for a folder
inside a package). The search path comes first: an installed pack with the name of one found there
is `shadowed`. Nothing in a language pack is ever executed (not even a package's `__init__`), and
no path inside one can escape its folder.

A code pack declares the major version of its assets with `PARLANCE_LANGUAGE_PACK_VERSION = "1"`;
a language pack whose `[compat]` for that pack names another major is `incompatible` and skipped.
Lookup for a language tag is BCP 47 truncation: `de-AT` tries packs for `de-AT`, then `de`.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlance._user_files import PARSER_LIMITS, read_user_file
from parlance.config import Config
from parlance.installed import installed_entry_points

__all__ = ["LANGUAGE_PACKS_GROUP", "LanguagePack", "LanguagePackSet", "LanguagePacks", "discover_language_packs",
           "lookup_chain", "normalize_tag"]

logger = logging.getLogger(__name__)

LANGUAGE_PACKS_GROUP = "parlance.language_packs"
_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
State = Literal["loaded", "incompatible", "invalid", "shadowed"]


class _Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.\-]+$")
    version: str = Field(min_length=1, max_length=32)
    languages: list[str] = Field(min_length=1)
    description: str = ""
    compat: dict[str, str] = {}


@dataclass
class LanguagePack:
    """One language pack, as `parlance language-packs` reports it."""

    name: str
    path: Path
    version: str | None = None
    languages: list[str] = field(default_factory=list)
    description: str = ""
    compat: dict[str, str] = field(default_factory=dict)
    state: State = "loaded"
    error: str | None = None
    source: str = "path"  # "path" or the distribution that installed it

    @functools.cached_property
    def _root(self) -> Path:
        return self.path.resolve()  # a system call per path component: once per pack, not per lookup

    def file(self, relative: str) -> Path | None:
        """The file at `relative` inside this pack, or None; never a path outside the pack."""
        root = self._root
        candidate = (root / relative).resolve()
        if candidate != root and root not in candidate.parents:
            return None
        return candidate if candidate.is_file() else None

    def files(self, folder: str, pattern: str = "*") -> list[Path]:
        """Files matching `pattern` in `folder` of this pack (e.g. `lexicons/translation`, `*.toml`)."""
        root, base = self._root, (self.path / folder).resolve()
        if not base.is_dir() or root not in base.parents:
            return []
        return sorted(p for p in base.glob(pattern) if p.is_file() and root in p.resolve().parents)

    def overrides(self) -> list[str]:
        """The assets this pack provides, as paths relative to it (prompts, messages, lexicons, glossary, notes)."""
        found: list[str] = []
        for folder in ("prompts", "messages", "lexicons", "glossary", "notes"):
            root = self.path / folder
            if root.is_dir():
                found += sorted(str(p.relative_to(self.path)) for p in root.rglob("*") if p.is_file())
        return found

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "languages": self.languages,
            "path": str(self.path),
            "state": self.state,
            "error": self.error,
            "overrides": self.overrides() if self.state == "loaded" else [],
        }


def normalize_tag(tag: str) -> str | None:
    """`de_at` -> `de-AT`, `zh_hant_tw` -> `zh-Hant-TW`; None when it is not a plausible BCP 47 tag."""
    if not isinstance(tag, str) or not _TAG.match(tag.strip()):
        return None
    parts = tag.strip().replace("_", "-").split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())  # script
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())  # region
        else:
            out.append(part.lower())
    return "-".join(out)


def lookup_chain(tag: str) -> list[str]:
    """BCP 47 lookup by truncation: `zh-Hant-TW` -> [`zh-Hant-TW`, `zh-Hant`, `zh`]."""
    normal = normalize_tag(tag)
    if normal is None:
        return []
    parts = normal.split("-")
    return ["-".join(parts[:n]) for n in range(len(parts), 0, -1)]


class LanguagePacks:
    """The language packs one code pack sees: loaded, and compatible with that pack's assets."""

    def __init__(self, pack: str, packs: list[LanguagePack]) -> None:
        self.pack = pack
        self._packs = packs

    def all(self) -> list[LanguagePack]:
        return list(self._packs)

    def for_language(self, tag: str) -> list[LanguagePack]:
        """Packs for `tag`, most specific first (`de-AT` packs, then `de` packs)."""
        chain = lookup_chain(tag)
        ordered: list[LanguagePack] = []
        for candidate in chain:
            for lp in self._packs:
                if lp not in ordered and candidate in lp.languages:  # normalised when the pack was read
                    ordered.append(lp)
        return ordered

    def resolve(self, relative: str, tag: str) -> tuple[Path, LanguagePack] | None:
        """The most specific pack file at `relative` for `tag` (e.g. `prompts/translation/x.md`)."""
        for lp in self.for_language(tag):
            found = lp.file(relative)
            if found is not None:
                return found, lp
        return None


@dataclass
class LanguagePackSet:
    """Every language pack found, and per-code-pack views of the usable ones."""

    packs: list[LanguagePack]

    def view(self, pack: str) -> LanguagePacks:
        usable = [lp for lp in self.packs if lp.state == "loaded"]
        return LanguagePacks(pack, usable)

    def check_compat(self, asset_versions: dict[str, str]) -> None:
        """Mark packs written for another major version of a code pack's assets as incompatible."""
        for lp in self.packs:
            if lp.state != "loaded":
                continue
            for target, wanted in lp.compat.items():
                have = asset_versions.get(target)
                if have is not None and _major(wanted) != _major(have):
                    lp.state = "incompatible"
                    lp.error = (f"written for {target} assets v{_major(wanted)}, this {target} pack has "
                                f"v{_major(have)}; update the pack or pin the matching {target} version")
                    logger.warning("language_pack.incompatible", extra={"language_pack": lp.name, "target": target})
                    break


def default_paths(data_home: Path) -> list[Path]:
    """`./language_packs`, then `parlance/language_packs` in the user's data folder (`Config.env.data_home`)."""
    return [Path.cwd() / "language_packs", data_home / "parlance" / "language_packs"]


def discover_language_packs(config: Config) -> LanguagePackSet:
    """Read every language pack's manifest from the search path and from installed distributions."""
    found: list[LanguagePack] = []
    roots = config.language_pack_paths if config.language_pack_paths is not None else default_paths(config.env.data_home)
    for root in roots:
        if root.is_dir():
            for folder in sorted(p for p in root.iterdir() if p.is_dir() and (p / "pack.toml").exists()):
                found.append(_read(folder, source="path"))
    if config.language_packs_autoload:
        for ep in installed_entry_points(LANGUAGE_PACKS_GROUP):
            package = _package_dir(ep.value)
            dist = ep.dist.name if ep.dist else ep.name
            if package is None or not (package / "pack.toml").exists():
                found.append(LanguagePack(name=ep.name, path=package or Path(ep.value), state="invalid", source=dist,
                                          error=f"entry point {ep.value!r} names no package folder with a pack.toml"))
            else:
                found.append(_read(package, source=dist))
    first: dict[str, LanguagePack] = {}
    for lp in found:  # the first pack of a name wins: the search path before installed ones
        winner = first.setdefault(lp.name, lp)
        if lp.state == "loaded" and winner is not lp:
            lp.state = "shadowed"
            lp.error = (f"shadowed by the language pack {lp.name!r} at {winner.path} (found first: "
                        "[language_packs] paths and ./language_packs come before installed distributions)")
    return LanguagePackSet(found)


def _read(folder: Path, *, source: str) -> LanguagePack:
    manifest_path = folder / "pack.toml"
    try:
        raw = tomllib.loads(read_user_file(manifest_path).decode("utf-8"))
        manifest = _Manifest.model_validate(raw)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        return _invalid(folder, source, f"{manifest_path}: not readable TOML ({exc})")
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "(file)"
        return _invalid(folder, source, f"{manifest_path}: [{key}] {first['msg']}")
    except PARSER_LIMITS:  # ./language_packs may be a cloned repository's: its manifest may be anything
        return _invalid(folder, source, f"{manifest_path}: TOML this parser cannot hold (nested too deeply, or a "
                                        "number too long)")
    bad = [tag for tag in manifest.languages if normalize_tag(tag) is None]
    if bad:
        return _invalid(folder, source, f"{manifest_path}: [languages] {bad!r} are not BCP 47 tags (e.g. 'de', 'en-IE')")
    return LanguagePack(name=manifest.name, path=folder, version=manifest.version,
                        languages=[normalize_tag(t) or t for t in manifest.languages],
                        description=manifest.description, compat=manifest.compat, source=source)


def _invalid(folder: Path, source: str, error: str) -> LanguagePack:
    logger.warning("language_pack.invalid", extra={"path": str(folder), "reason": error})
    return LanguagePack(name=folder.name, path=folder, state="invalid", error=error, source=source)


def _package_dir(value: str) -> Path | None:
    """The folder an entry point's value names, found without importing anything (language packs
    hold no code): the top-level package through its import spec, the rest of a dotted value as
    folders inside it (`find_spec("a.b")` would import `a`)."""
    top, *inner = value.split(":")[0].strip().split(".")
    if not all(part.isidentifier() for part in (top, *inner)):
        return None  # an import path, never a file path
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:  # more than one for a namespace package
        folder = Path(location).joinpath(*inner)
        if folder.is_dir():
            return folder
    return None


def _major(version: str) -> str:
    return str(version).lstrip("v").split(".")[0]
