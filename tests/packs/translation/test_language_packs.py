"""The translation pack resolves templates and lexicons through language packs (BCP 47 lookup)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from parlance.testing import connect, stdio_server_params

pytestmark = pytest.mark.anyio

BASE = Path(__file__).resolve().parents[3] / "plugins" / "translation" / "src" / "parlance_translation"
META = "parlance/translation"
EMAIL = "Könnten wir eventuell nächste Woche noch einmal über den Zeitplan sprechen?"


def drop_in(root: Path, name: str, languages: list[str], compat: str = "1", *, lexicon: bool = False,
            marker: str = "") -> Path:
    folder = root / name
    (folder / "prompts" / "translation").mkdir(parents=True)
    (folder / "pack.toml").write_text(f'name = "{name}"\nversion = "9.9.9"\nlanguages = {languages!r}\n'
                                      f'[compat]\ntranslation = "{compat}"\n'.replace("'", '"'))
    base = (BASE / "prompts" / "translate_incoming.md").read_text(encoding="utf-8")
    header, _, body = base.partition("\n")
    (folder / "prompts" / "translation" / "translate_incoming.md").write_text(f"{header}\n{marker}\n{body}")
    if lexicon:
        (folder / "lexicons" / "translation").mkdir(parents=True)
        text = (BASE / "lexicons" / "ambiguity.toml").read_text(encoding="utf-8")
        text = text.replace('"next week",', '"nächste woche", "next week",')
        (folder / "lexicons" / "translation" / "ambiguity.toml").write_text(text, encoding="utf-8")
    return folder


def config(root: Path) -> dict[str, Any]:
    # autoload off: these drop-ins only, not the shipped packs installed with parlance-language-packs
    return {"packs": {"translation": {"mode": "baseline"}}, "language_packs": {"paths": [str(root)], "autoload": False}}


async def call(cfg: dict[str, Any], language: str, tool: str = "translate_incoming",
               text: str = EMAIL) -> Any:
    async with connect(["translation"], config=cfg) as client:
        return await client.call_tool(tool, {"text": text, "target_language": language})


async def test_a_dropped_in_pack_is_used_for_its_language(tmp_path: Path) -> None:
    drop_in(tmp_path, "de", ["de"], marker="GERMAN-OVERRIDE", lexicon=True)
    result = await call(config(tmp_path), "de")
    assert result.is_error is False
    template = result.meta[META]["template"]
    assert (template["pack"], template["language"], template["version"]) == ("de", "de", "9.9.9")
    assert template["path"] == "prompts/translation/translate_incoming.md"  # inside the pack, never a server path
    assert result.meta[META]["lexicons"][0]["path"] == "lexicons/translation/ambiguity.toml"
    assert "GERMAN-OVERRIDE" in result.meta[META]["refinement_prompt"]["user"]
    assert result.meta[META]["lexicons"][0]["pack"] == "de"
    spans = result.structured_content["ambiguity"]["spans"]
    assert any(EMAIL[s["start_char"]:s["end_char"]].lower() == "nächste woche" for s in spans)  # the pack's lexicon


async def test_region_falls_back_to_language_and_the_most_specific_pack_wins(tmp_path: Path) -> None:
    drop_in(tmp_path, "de", ["de"], marker="GERMAN")
    drop_in(tmp_path, "de-AT", ["de-AT"], marker="AUSTRIAN")
    austria = await call(config(tmp_path), "de_AT")
    switzerland = await call(config(tmp_path), "de-CH")
    assert austria.meta[META]["template"]["pack"] == "de-AT"
    assert switzerland.meta[META]["template"]["pack"] == "de"
    assert austria.meta[META]["lexicons"][0]["pack"] == "translation"  # no lexicon override: the base list


@pytest.mark.parametrize("tool", ["translate_incoming", "check_tone"])
async def test_no_pack_for_the_language_is_language_pack_missing(tmp_path: Path, tool: str) -> None:
    drop_in(tmp_path, "de", ["de"])
    result = await call(config(tmp_path), "fr", tool=tool)
    assert result.is_error is True
    assert result.structured_content["code"] == "LANGUAGE_PACK_MISSING"
    assert result.structured_content["data"]["available"] == ["en", "de"]


async def test_english_without_a_pack_uses_the_base_templates(tmp_path: Path) -> None:
    result = await call(config(tmp_path), "en-US", text="Can we revisit the timeline next week?")
    assert result.meta[META]["template"]["pack"] == "translation"


async def test_an_incompatible_pack_is_skipped(tmp_path: Path) -> None:
    drop_in(tmp_path, "de", ["de"], compat="2")
    result = await call(config(tmp_path), "de")
    assert result.structured_content["code"] == "LANGUAGE_PACK_MISSING"


async def test_an_override_with_an_unknown_placeholder_falls_back_to_the_base(tmp_path: Path) -> None:
    folder = drop_in(tmp_path, "de", ["de"])
    path = folder / "prompts" / "translation" / "translate_incoming.md"
    path.write_text(path.read_text() + "\n{{sender_mood}}\n")
    result = await call(config(tmp_path), "de")
    assert result.is_error is False
    assert result.meta[META]["template"]["pack"] == "translation"


async def test_language_packs_work_over_stdio(tmp_path: Path) -> None:
    drop_in(tmp_path / "lp", "ja", ["ja"], marker="JAPANESE")
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["translation"]\n[packs.translation]\n'
                                            'mode = "baseline"\n[language_packs]\npaths = ["lp"]\n')
    with anyio.fail_after(30):
        async with Client(stdio_server_params(tmp_path / "parlance.toml"), mode="legacy") as client:
            result = await client.call_tool("translate_incoming", {"text": "ちょっと難しいかもしれません。",
                                                                   "target_language": "ja-JP"})
    assert result.meta[META]["template"]["pack"] == "ja"
