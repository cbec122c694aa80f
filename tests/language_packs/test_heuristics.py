"""Each pack's lexicons, run through the translation pack's baseline heuristics on a sentence a
native speaker would write: the cues the lexicon exists for are found, and the rewrites apply.

Japanese needs the matcher to find phrases inside runs of kana and kanji (no word boundaries in
scripts written without spaces) and sentences that end at 。！？ with no space after.
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from parlance_translation.heuristics import incoming, meeting, rewrite, tone
from parlance_translation.templates import Lexicon, Source

from tests.language_packs.layout import EXAMPLE_PACK, REPO_PACKS

PACKS = {"de": REPO_PACKS / "de", "ja": REPO_PACKS / "ja", "en-IE": REPO_PACKS / "en_IE", "es": EXAMPLE_PACK}


def lexicon(pack: str, name: str) -> Lexicon:
    path = PACKS[pack] / "lexicons" / "translation" / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Lexicon(name=name, data=data, source=Source(pack=pack, language=pack, version="0.1.0", path=str(path)))


def cases(table: dict[str, Any]) -> list[Any]:
    return [pytest.param(pack, *args, id=pack) for pack, args in table.items()]


INCOMING = {
    "de": ("Hallo Jan, könntest du dir das Konzept vielleicht nochmal anschauen? Wie bereits erwähnt, eilt es. "
           "Ich melde mich zeitnah.", {"soft_request", "implied_blame", "implied_urgency", "vague_timeline"}),
    "ja": ("先日もお伝えしましたが、資料を至急ご確認いただけますでしょうか。近いうちにご相談させてください。",
           {"implied_blame", "implied_urgency", "soft_request"}),
    "en-IE": ("Would you ever send me on the figures? Sorry to chase. Yer man upstairs was giving out about it. "
              "I'll have it done in a while.", {"soft_request", "implied_urgency", "vague_referent", "implied_blame",
                                                 "vague_timeline"}),
    "es": ("Hola, ¿será que podrías revisar el reporte? Como te comenté, es para hoy. Ahorita lo vemos. "
           "Se me olvidó mandarte el archivo.", {"soft_request", "implied_blame", "implied_urgency", "vague_timeline",
                                                 "passive_voice_actor"}),
}


@pytest.mark.parametrize(("pack", "text", "reasons"), cases(INCOMING))
def test_incoming_cues_are_found(pack: str, text: str, reasons: set[str]) -> None:
    found = {span.reason for span in incoming.find_spans(text, lexicon(pack, "ambiguity"))}
    assert reasons <= found, f"missing {sorted(reasons - found)}"


TONE = {
    "de": ("Danke dir! Könntest du vielleicht mal kurz drüberschauen? Keine Eile 🙂",
           {"directness": "<", "warmth": ">", "urgency": "<"}),
    "ja": ("お疲れ様です。お手数ですが、ちょっと確認していただけますか。急ぎませんので。",
           {"directness": "<", "warmth": ">", "urgency": "<"}),
    "en-IE": ("Ah here, this is broken again. Sort it out today.", {"directness": ">", "warmth": "<", "urgency": ">"}),
    "es": ("Mil gracias por el favorcito 🙏 Sin prisa, cuando puedas.",
           {"directness": "<", "warmth": ">", "urgency": "<"}),
}


@pytest.mark.parametrize(("pack", "text", "directions"), cases(TONE))
def test_tone_markers_move_the_axes(pack: str, text: str, directions: dict[str, str]) -> None:
    axes = tone.read(text, lexicon(pack, "tone")).axes
    for axis, direction in directions.items():
        moved = axes[axis] > 55 if direction == ">" else axes[axis] < 45
        assert moved, f"{axis} = {axes[axis]} ({axes})"


REWRITE = {
    "de": ("Hallo Jan, kannst du mir deine Zahlen schicken? LG", "formal",
           "Guten Tag Jan, können Sie mir Ihre Zahlen schicken? Mit freundlichen Grüßen"),
    "ja": ("お忙しいところ恐縮ですが、もしよろしければ、資料を確認していただけますでしょうか。", "direct",
           "資料を確認してください。"),
    "en-IE": ("You need to fix the build.", "warm",
              "Hi there,\n\nWould you ever fix the build?\n\n"
              "Thanks a million — give me a shout if anything's unclear."),
    "es": ("Creo que el archivo está un poco mal.", "direct", "El archivo está mal."),
}


@pytest.mark.parametrize(("pack", "text", "register", "expected"), cases(REWRITE))
def test_register_rewrites_apply(pack: str, text: str, register: str, expected: str) -> None:
    result = rewrite.rewrite(text, register, [], "email", lexicon(pack, "rewrite"))
    assert result["rewritten"] == expected


MEETINGS = {
    "de": ("Anna: Gut, dann machen wir das so mit Variante B.\nJan: Lena, kannst du bitte das Protokoll bis "
           "Freitag rumschicken?\nLena: Ja, mach ich.\nAnna: Das Budget nehmen wir mit, das klären wir noch.\n",
           "Lena", {"my_asks": ["Freitag"], "decisions": 2, "ambiguous_items": ["deferred_topic"]}),
    "ja": ("田中: では、A案で進めましょう。\n鈴木: 佐藤さん、資料を金曜までにお願いできますか。\n"
           "佐藤: 承知しました、私が作成します。\n鈴木: 予算の件は一度持ち帰って検討します。\n", "佐藤",
           {"my_asks": ["金曜"], "decisions": 2, "ambiguous_items": ["deferred_topic"]}),
    "en-IE": ("Siobhán: Grand so, we'll go with option B.\nCiarán: Aoife, would you ever send round the notes by "
              "Tuesday week?\nAoife: Leave it with me.\n", "Aoife",
              {"my_asks": ["Tuesday week"], "decisions": 1, "ambiguous_items": ["hedged_commitment"]}),
    "es": ("Ana: Entonces quedamos en la opción B.\nLuis: Marta, ¿puedes mandar la minuta el viernes?\n"
           "Ana: Lo del presupuesto lo vemos después.\n", "Marta",
           {"my_asks": ["el viernes"], "decisions": 1, "ambiguous_items": ["deferred_topic"]}),
}


@pytest.mark.parametrize(("pack", "transcript", "me", "expected"), cases(MEETINGS))
def test_meeting_cues_are_found(pack: str, transcript: str, me: str, expected: dict[str, Any]) -> None:
    brief = meeting.analyse(transcript, me, [], lexicon(pack, "meeting")).assemble()
    assert [ask["due"] for ask in brief["my_asks"]] == expected["my_asks"]
    assert len(brief["decisions"]) == expected["decisions"], brief["decisions"]
    assert [item["reason"] for item in brief["ambiguous_items"]] == expected["ambiguous_items"]
