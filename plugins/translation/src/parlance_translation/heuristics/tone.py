"""check_tone without a model: lexicon-weighted tone axes, baseline deltas and flagged phrases.

Each axis starts at 50 and moves by the weights of the markers found (see lexicons/tone.toml),
squashed through tanh so it stays within 0..100. A phrase is flagged only when there is something
to diverge from — a baseline of at least 3 messages or a target register — and the message's axis
is more than the threshold away from it in the direction the phrase pushes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from parlance_translation.heuristics.matching import CategoryMatcher, expand, fold, normalise
from parlance_translation.heuristics.text import clip
from parlance_translation.inputs import BASELINE_MIN
from parlance_translation.templates import Lexicon

AXES = ("directness", "warmth", "urgency")

_ALL_CAPS = re.compile(r"(?<!\w)[A-Z]{3,}(?!\w)")
# Tokens for `sentence_initial_words`: a word, a sentence stop, a line break, or anything else.
_TOKEN = re.compile(r"[A-Za-z]+|[.?!]|\n|\S")
# Acronyms that are written in capitals anyway and say nothing about tone.
_CAPS_EXEMPT = frozenset({"EOD", "COB", "EOW", "ASAP", "API", "PR", "URL", "SQL", "CI", "QA", "FYI", "TBD", "ETA", "OK"})


def sentence_initial_words(text: str) -> list[str]:
    """Words that open a sentence: at the start, after a line break, or after . ? ! and whitespace.

    One linear pass over tokens. (A single regex with `\\s+` and `\\s*` side by side, the obvious
    way to write this, backtracks quadratically over long runs of whitespace in user text.)
    """
    found: list[str] = []
    at_start, after_stop, previous_end = True, False, 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if after_stop and match.start() > previous_end:  # a stop followed by whitespace
            at_start = True
        after_stop = False
        if token == "\n":
            at_start = True
        elif token in ".?!":
            after_stop, at_start = True, False
        elif token[0].isascii() and token[0].isalpha():
            if at_start:
                found.append(token)
            at_start = False
        else:
            at_start = False
        previous_end = match.end()
    return found


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    axis: str
    weight: float
    note: str


@dataclass(frozen=True)
class ToneReading:
    axes: dict[str, float]
    markers: list[Marker]


@lru_cache(maxsize=8)
def _matcher(lexicon: Lexicon) -> CategoryMatcher:
    categories = {}
    for axis in AXES:
        for direction in ("raise", "lower"):
            categories[f"{axis}__{direction}"] = lexicon.data[axis][direction].get("phrases", [])
    return CategoryMatcher(categories)


def read(text: str, lexicon: Lexicon) -> ToneReading:
    """Score `text` on the three axes and list the markers that moved them."""
    scoring = lexicon.data["scoring"]
    markers: list[Marker] = []
    for match in _matcher(lexicon).finditer(fold(text)):
        axis, direction = match.category.split("__")
        table = lexicon.data[axis][direction]
        markers.append(Marker(match.start, match.end, axis, float(table["weight"]), table.get("note", "")))
    # One phrase can move two axes ("strong nack": more direct and less warm): match each axis's
    # lists separately when a span was claimed by another axis.
    markers.extend(_second_axis_markers(text, lexicon, markers))

    sums = {axis: 0.0 for axis in AXES}
    for marker in markers:
        sums[marker.axis] += marker.weight
    cap = int(scoring["feature_cap"])
    exclamations = min(text.count("!"), cap)
    caps_words = min(sum(1 for word in _ALL_CAPS.findall(text) if word not in _CAPS_EXEMPT), cap)
    questions = min(text.count("?"), cap)
    verbs = _imperative_verbs(lexicon)
    imperatives = min(sum(1 for word in sentence_initial_words(text) if word.lower() in verbs), cap)
    sums["urgency"] += exclamations * scoring["exclamation_urgency"] + caps_words * scoring["all_caps_word_urgency"]
    sums["warmth"] += exclamations * scoring["exclamation_warmth"]
    sums["directness"] += (
        caps_words * scoring["all_caps_word_directness"]
        + questions * scoring["question_directness"]
        + imperatives * scoring["imperative_start_directness"]
    )
    softness = float(scoring["softness"])
    axes: dict[str, float] = {axis: round(50 + 50 * math.tanh(sums[axis] / softness)) for axis in AXES}
    return ToneReading(axes=axes, markers=sorted(markers, key=lambda marker: marker.start))


@lru_cache(maxsize=8)
def _phrase_axes(lexicon: Lexicon) -> dict[str, list[tuple[str, str]]]:
    """Normalised phrase -> every (axis, direction) list it appears in."""
    index: dict[str, list[tuple[str, str]]] = {}
    for axis in AXES:
        for direction in ("raise", "lower"):
            for phrase in lexicon.data[axis][direction].get("phrases", []):
                for variant in expand(phrase):
                    index.setdefault(normalise(variant), []).append((axis, direction))
    return index


def _second_axis_markers(text: str, lexicon: Lexicon, found: list[Marker]) -> list[Marker]:
    index = _phrase_axes(lexicon)
    claimed = {(marker.start, marker.end, marker.axis) for marker in found}
    extra = []
    for marker in found:
        for axis, direction in index.get(normalise(text[marker.start : marker.end]), []):
            if (marker.start, marker.end, axis) in claimed:
                continue
            table = lexicon.data[axis][direction]
            extra.append(Marker(marker.start, marker.end, axis, float(table["weight"]), table.get("note", "")))
            claimed.add((marker.start, marker.end, axis))
    return extra


@lru_cache(maxsize=8)
def _imperative_verbs(lexicon: Lexicon) -> frozenset[str]:
    return frozenset(lexicon.data["imperatives"]["verbs"])


def register_targets(lexicon: Lexicon, register: str) -> dict[str, float]:
    table = lexicon.data["registers"][register]
    return {axis: float(table[axis]) for axis in AXES}


def analyse(
    text: str, baseline_messages: list[str], target_register: str | None, lexicon: Lexicon
) -> dict[str, Any]:
    """The contract's check_tone output (without eval_corpus_slice / model_provenance)."""
    reading = read(text, lexicon)
    threshold = float(lexicon.data["scoring"]["flag_threshold"])
    target = register_targets(lexicon, target_register) if target_register else None

    baseline_delta = None
    if len(baseline_messages) >= BASELINE_MIN:
        readings = [read(message, lexicon).axes for message in baseline_messages]
        mean = {axis: sum(r[axis] for r in readings) / len(readings) for axis in AXES}
        baseline_delta = {axis: _clamp(round(reading.axes[axis] - mean[axis]), -100, 100) for axis in AXES}

    gaps: dict[str, float] = {}  # axis -> signed distance that a flagged phrase must push along
    for axis in AXES:
        candidates = []
        if baseline_delta is not None:
            candidates.append(baseline_delta[axis])
        if target is not None:
            candidates.append(reading.axes[axis] - target[axis])
        strongest = max(candidates, key=abs, default=0.0)
        if abs(strongest) > threshold:
            gaps[axis] = strongest

    flagged: list[dict[str, Any]] = []  # the contract's flagged phrases, as JSON
    for marker in reading.markers:
        gap = gaps.get(marker.axis)
        if gap is None or (gap > 0) != (marker.weight > 0):
            continue
        phrase = text[marker.start : marker.end]
        if not phrase.strip() or len(phrase) > 500:
            continue
        direction = "raises" if marker.weight > 0 else "lowers"
        flagged.append(
            {
                "start_char": marker.start,
                "end_char": marker.end,
                "phrase": phrase,
                "axis": marker.axis,
                "delta": _clamp(marker.weight, -100, 100),
                "note": clip(f"{marker.note} It {direction} {marker.axis}, which is already "
                             f"{abs(round(gap))} points {'above' if gap > 0 else 'below'} the reference.", 500),
            }
        )
    flagged.sort(key=lambda item: -abs(item["delta"]))

    return {
        "axes": reading.axes,
        "axes_target": target,
        "baseline_delta": baseline_delta,
        "flagged_phrases": flagged,  # capped (with a flag) by replies.finalize
        "suggested_rewrite_hint": rewrite_hint(gaps),
    }


def rewrite_hint(gaps: dict[str, float]) -> str | None:
    """A one-sentence direction for rewrite_outgoing, or None when nothing is off."""
    if not gaps:
        return None
    words = {
        ("directness", True): "soften the directness (hedge or explain the reasoning)",
        ("directness", False): "state the point more plainly",
        ("warmth", True): "tone down the warmth to match the context",
        ("warmth", False): "add warmth (acknowledge the person, offer help)",
        ("urgency", True): "reduce the urgency unless the deadline is real",
        ("urgency", False): "make the timing explicit if it matters",
    }
    parts = [words[(axis, gap > 0)] for axis, gap in gaps.items()]
    return clip("; ".join(parts).capitalize() + "; keep the technical content and any deadlines.", 1000)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))
