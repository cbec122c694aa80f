"""brief_meeting without a model: speaker turns and lexicon cues, every span a verbatim slice.

Cost is linear in the transcript: one compiled expression finds the speaker turns and one (the
union of every cue phrase) finds candidate sentences on a case-folded copy of the text. Each hit
is placed in its turn by binary search and widened to its sentence within a bounded window; the
per-section matchers (asks, decisions, ambiguity) then search only that sentence. Once a section
holds more items than the contract allows (50) it stops collecting: output is truncated in
transcript order, and the result says so (`truncated`).

The work is split into steps (`turns`, `scan`, `assemble`) so the tool can report progress between
them on long transcripts.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from parlance_translation.heuristics.matching import CategoryMatcher, Match, fold, phrase_pattern
from parlance_translation.heuristics.text import clip, sentence_end, sentence_start, squeeze
from parlance_translation.templates import Lexicon

SECTION_CAP = 50

# A speaker label at the start of a line: "Priya: ...", "[00:01:02] Priya: ...", "Dr. Lee: ...".
_TURN = re.compile(
    r"^[ \t]*(?:\[[^\]\n]{1,20}\][ \t]*|\(?\d{1,2}:\d{2}(?::\d{2})?\)?[ \t]+)?"
    r"(?P<speaker>[^\W\d_][\w .'’\-]{0,39}?)[ \t]*:(?=[ \t]|$)",
    re.MULTILINE,
)


@dataclass(frozen=True)
class _Cues:
    any: CategoryMatcher
    asks: CategoryMatcher
    decisions: CategoryMatcher
    ambiguity: CategoryMatcher
    ambiguity_text: dict[str, str]
    everyone: re.Pattern[str]
    nobody: re.Pattern[str]
    due: re.Pattern[str]


@lru_cache(maxsize=8)
def _cues(lexicon: Lexicon) -> _Cues:
    data = lexicon.data
    ambiguity = {reason: table for reason, table in data["ambiguity"].items() if isinstance(table, dict)}
    every_phrase = data["asks"]["phrases"] + data["decisions"]["phrases"]
    every_phrase += [phrase for table in ambiguity.values() for phrase in table["phrases"]]
    return _Cues(
        any=CategoryMatcher({"cue": every_phrase}),
        asks=CategoryMatcher({"ask": data["asks"]["phrases"]}),
        decisions=CategoryMatcher({"decision": data["decisions"]["phrases"]}),
        ambiguity=CategoryMatcher({reason: table["phrases"] for reason, table in ambiguity.items()}),
        ambiguity_text={reason: table.get("text", reason) for reason, table in ambiguity.items()},
        everyone=re.compile(phrase_pattern(data["asks"].get("everyone", []))),
        nobody=re.compile(phrase_pattern(data["asks"].get("nobody", []))),
        due=re.compile(phrase_pattern(data["due"]["phrases"])),
    )


def _label_key(label: str) -> str:
    return label.strip().split()[0].casefold() if label.strip() else ""


def _roster_name(label: str, roster: list[str]) -> str:
    """The roster's spelling of a speaker label: same first name, or the one name it abbreviates."""
    key = _label_key(label)
    for name in roster:
        if _label_key(name) == key:
            return name
    if len(key) >= 3:
        expanded = [name for name in roster if _label_key(name).startswith(key)]
        if len(expanded) == 1:
            return expanded[0]
    return label


@dataclass
class MeetingAnalysis:
    """One transcript's baseline brief, computed in steps."""

    transcript: str
    me: str
    speakers: list[str]
    lexicon: Lexicon
    folded: str = ""
    turn_starts: list[int] = field(default_factory=list)
    content_starts: list[int] = field(default_factory=list)
    turn_speakers: list[str] = field(default_factory=list)
    my_asks: list[dict[str, Any]] = field(default_factory=list)
    others_asks: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    ambiguous_items: list[dict[str, Any]] = field(default_factory=list)
    truncated: dict[str, bool] = field(default_factory=dict)

    # --- step 1 -------------------------------------------------------------------------------------

    def turns(self) -> None:
        """Find speaker turns (label + where the words start), and fold the text for matching."""
        self.folded = fold(self.transcript)
        resolved: dict[str, str] = {}
        for match in _TURN.finditer(self.transcript):
            label = match.group("speaker").strip()
            self.turn_starts.append(match.start())
            self.content_starts.append(match.end())
            if label not in resolved:
                resolved[label] = _roster_name(label, self.speakers)
            self.turn_speakers.append(resolved[label])
        self._me_key = _label_key(self.me)
        self._me_mention = re.compile(r"(?<!\w)" + re.escape(fold(self.me.strip().split()[0])) + r"(?!\w)")

    # --- step 2 -------------------------------------------------------------------------------------

    def scan(self) -> None:
        """Collect asks, decisions and ambiguous items, in transcript order, up to the caps.

        One pass with the union of all cue phrases finds candidate sentences; each sentence is then
        classified by the per-section matchers, searching only inside that sentence.
        """
        cues = _cues(self.lexicon)
        sentence_end_at = -1
        for hit in cues.any.finditer(self.folded):
            if hit.start < sentence_end_at:
                continue  # a second cue in a sentence already classified
            speaker, index, start, end = self._locate(hit.start)
            if end <= start:
                continue
            sentence_end_at = end
            asks_open = not (self._full("my_asks") and self._full("others_asks"))
            if asks_open and cues.asks.search(self.folded, start, end):
                self._add_ask(speaker, index, start, end)
            if not self._full("decisions") and cues.decisions.search(self.folded, start, end):
                self._add_decision(speaker, start, end)
            if not self._full("ambiguous_items"):
                cue = cues.ambiguity.search(self.folded, start, end)
                if cue is not None:
                    self._add_ambiguity(speaker, start, end, cue)
            if not asks_open and self._full("decisions") and self._full("ambiguous_items"):
                return

    def _full(self, section: str) -> bool:
        return self.truncated.get(section, False)

    def _locate(self, position: int) -> tuple[str | None, int, int, int]:
        """(speaker, turn index, sentence start, sentence end) around `position`."""
        index = bisect.bisect_right(self.turn_starts, position) - 1
        if index >= 0 and position < self.content_starts[index]:
            return None, -1, -1, -1  # the cue is inside a speaker label
        speaker = self.turn_speakers[index] if index >= 0 else None
        floor = self.content_starts[index] if index >= 0 else 0
        start = sentence_start(self.transcript, position, floor)
        end = sentence_end(self.transcript, position)
        return speaker, index, start, end

    def _span(self, start: int, end: int) -> dict[str, Any]:
        return {"start_char": start, "end_char": end, "text": self.transcript[start:end]}

    def _is_me(self, speaker: str | None) -> bool:
        return speaker is not None and _label_key(speaker) == self._me_key

    def _append(self, section: str, item: dict[str, Any]) -> None:
        items: list[dict[str, Any]] = getattr(self, section)
        if len(items) >= SECTION_CAP:
            self.truncated[section] = True
        else:
            items.append(item)

    def _add_ask(self, speaker: str | None, index: int, start: int, end: int) -> None:
        cues = _cues(self.lexicon)
        sentence = self.folded[start:end]
        quote = squeeze(self.transcript[start:end])
        if cues.nobody.search(sentence):
            mine = False
            addressee = "someone (unassigned)"
        elif self._is_me(speaker):
            mine, addressee = False, "others"
        elif self._me_mention.search(sentence) or cues.everyone.search(sentence):
            mine, addressee = True, "you"
        else:
            next_speaker = self.turn_speakers[index + 1] if 0 <= index + 1 < len(self.turn_speakers) else None
            mine = self._is_me(next_speaker)
            addressee = "you" if mine else "others"
        due = cues.due.search(self.folded, start, end)
        item = {
            "text": clip(f"{speaker or 'Someone'} asked {addressee}: “{quote}”", 1000),
            "asker": clip(speaker, 200) if speaker else None,
            "due": clip(self.transcript[due.start() : due.end()], 200) if due else None,
            "quoted_span": self._span(start, end),
        }
        self._append("my_asks" if mine else "others_asks", item)

    def _add_decision(self, speaker: str | None, start: int, end: int) -> None:
        quote = squeeze(self.transcript[start:end])
        self._append(
            "decisions",
            {
                "text": clip(f"{speaker or 'The meeting'} committed: “{quote}”", 1000),
                "decided_by": [clip(speaker, 200)] if speaker else [],
                "quoted_span": self._span(start, end),
            },
        )

    def _add_ambiguity(self, speaker: str | None, start: int, end: int, match: Match) -> None:
        cues = _cues(self.lexicon)
        cue = squeeze(self.transcript[match.start : match.end])
        who = f" ({speaker})" if speaker else ""
        self._append(
            "ambiguous_items",
            {
                "text": clip(f"{cues.ambiguity_text[match.category]}: “{cue}”{who}", 1000),
                "verbatim": True,
                "quoted_span": self._span(start, end),
                "reason": match.category,
            },
        )

    # --- step 3 -------------------------------------------------------------------------------------

    def assemble(self) -> dict[str, Any]:
        """The contract's brief_meeting output (without eval_corpus_slice / model_provenance)."""
        return {
            "my_asks": self.my_asks,
            "others_asks": self.others_asks,
            "decisions": self.decisions,
            "ambiguous_items": self.ambiguous_items,
        }

    @property
    def me_found(self) -> bool:
        return any(self._is_me(speaker) for speaker in self.turn_speakers) or bool(
            self._me_mention.search(self.folded)
        )


def analyse(transcript: str, me: str, speakers: list[str], lexicon: Lexicon) -> MeetingAnalysis:
    """Run all steps at once (the tool runs them one by one to report progress)."""
    analysis = MeetingAnalysis(transcript=transcript, me=me, speakers=speakers, lexicon=lexicon)
    analysis.turns()
    analysis.scan()
    return analysis
