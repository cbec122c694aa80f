"""Where the language packs under test live, and the base assets they must match.

The shipped packs are the folders with a `pack.toml` in the `parlance-language-packs`
distribution's package folder (`language_packs/src/parlance_language_packs/<tag>/`, `-` written
`_`); so is the package folder of the installable example (`examples/parlance-language-pack-es`),
whose data ships inside `src/parlance_language_pack_es/`. Base assets are the translation pack's
own files; the reference message bundle is the `en` pack's `messages/en.json`.
"""

from __future__ import annotations

from pathlib import Path

import parlance_translation

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTION = ROOT / "language_packs"  # the parlance-language-packs project
REPO_PACKS = DISTRIBUTION / "src" / "parlance_language_packs"
EXAMPLE_PACK = ROOT / "examples" / "parlance-language-pack-es" / "src" / "parlance_language_pack_es"
PACK_DIRS: list[Path] = sorted(p for p in REPO_PACKS.iterdir() if (p / "pack.toml").is_file()) + [EXAMPLE_PACK]
SEARCH_PATHS = [REPO_PACKS, EXAMPLE_PACK.parent]

TRANSLATION_ROOT = Path(parlance_translation.__file__).parent
BASE_PROMPTS = TRANSLATION_ROOT / "prompts"
BASE_LEXICONS = TRANSLATION_ROOT / "lexicons"
REFERENCE_BUNDLE = REPO_PACKS / "en" / "messages" / "en.json"
BUNDLE_SUFFIXES = (".json", ".po")


def pack_name(pack: Path) -> str:
    """The name a pack folder's pack.toml must give: its tag (`en_IE/` holds `en-IE`)."""
    return "es" if pack == EXAMPLE_PACK else pack.name.replace("_", "-")


def label(path: Path) -> str:
    """A short, stable test id: `de/prompts/translation/check_tone.md`, `es (example)/pack.toml`."""
    for pack in PACK_DIRS:
        if path == pack or pack in path.parents:
            name = "es (example)" if pack == EXAMPLE_PACK else pack_name(pack)
            return "/".join([name, *path.relative_to(pack).parts])
    return str(path)


def pack_files(pack: Path, folder: str, suffixes: tuple[str, ...]) -> list[Path]:
    root = pack / folder
    return sorted(p for p in root.glob("*") if p.is_file() and p.suffix in suffixes) if root.is_dir() else []


PROMPTS = [p for pack in PACK_DIRS for p in pack_files(pack, "prompts/translation", (".md",))]
LEXICONS = [p for pack in PACK_DIRS for p in pack_files(pack, "lexicons/translation", (".toml",))]
BUNDLES = [p for pack in PACK_DIRS for p in pack_files(pack, "messages", BUNDLE_SUFFIXES)]


def pack_of(path: Path) -> Path:
    return next(pack for pack in PACK_DIRS if pack in path.parents)
