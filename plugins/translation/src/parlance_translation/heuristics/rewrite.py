"""rewrite_outgoing without a model: ordered lexicon rules per register, preserve_terms shielded.

Before any rule runs, every stretch of the message covered by a preserve term (overlapping
occurrences merged) is swapped for a private-use placeholder,
so no rule can touch it; the placeholders are swapped back at the end. A term that occurs in the
message therefore always survives verbatim, and the server's exact-substring check (done for every
path, see `replies.finalize`) reports the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from parlance_translation.heuristics.matching import expand, normalise, phrase_pattern
from parlance_translation.heuristics.text import clip
from parlance_translation.templates import Lexicon

# Placeholder: private-use delimiters around one plane-15 private-use character holding the index.
_SHIELD_OPEN, _SHIELD_CLOSE, _SHIELD_BASE = "\ue000", "\ue001", 0xF0000
_SHIELDED = re.compile(f"{_SHIELD_OPEN}(.){_SHIELD_CLOSE}", re.S)
_SENTENCE = re.compile(r"[^.?!\n]*(?:[.?!]+|\n|$)")
_TIMELINE = re.compile(
    r"(?i)\b(?:by|before|until|on|due)\s+\w+|\b(?:today|tomorrow|tonight|eod|cob|asap|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|next week|this week|q[1-4])\b|\d{1,2}[/.-]\d{1,2}"
)
_OWNER_MISSING = re.compile(r"(?i)\b(?:someone|somebody|anyone|we should|needs to be|should be done|it was decided)\b")
_GREETING = re.compile(
    r"^\s*(?:hi|hey|hello|dear|good (?:morning|afternoon|evening))\b(?:[ \t]+[^\s,.!?]+){0,3}[ \t]*[,!—–-]+\s*",
    re.IGNORECASE,
)
_CHAT_CHANNELS = frozenset({"slack", "github", "linear", "generic"})


@dataclass(frozen=True)
class _Rule:
    change: str
    regex: re.Pattern[str]
    replacements: dict[str, str]  # normalised phrase -> replacement ("" = remove)


@lru_cache(maxsize=32)
def _rules(lexicon: Lexicon, register: str) -> tuple[_Rule, ...]:
    rules = []
    for table in lexicon.data[register].get("rules", []):
        replacements: dict[str, str] = {}
        for phrase, replacement in table.get("replace", {}).items():
            for variant in expand(phrase):
                replacements[normalise(variant)] = replacement
        for phrase in table.get("remove", []):
            for variant in expand(phrase):
                replacements[normalise(variant)] = ""
        regex = re.compile(phrase_pattern(replacements), re.IGNORECASE)
        rules.append(_Rule(change=table["change"], regex=regex, replacements=replacements))
    return tuple(rules)


def _shield(text: str, terms: list[str]) -> tuple[str, list[str]]:
    """Replace every stretch of text covered by a term occurrence (overlaps merged) by a placeholder."""
    covered: list[tuple[int, int]] = []
    # Shield characters already in the input are shielded themselves, so they come back verbatim and
    # can never pair up into a placeholder that `_unshield` would replace with a term.
    if _SHIELD_OPEN in text or _SHIELD_CLOSE in text:
        covered += [(i, i + 1) for i, char in enumerate(text) if char in (_SHIELD_OPEN, _SHIELD_CLOSE)]
    for term in {term for term in terms if term}:
        found = text.find(term)
        while found >= 0:
            covered.append((found, found + len(term)))
            found = text.find(term, found + 1)
    if not covered:
        return text, []
    covered.sort()
    merged = [list(covered[0])]
    for start, end in covered[1:]:
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces: list[str] = []
    segments: list[str] = []
    cursor = 0
    for start, end in merged:
        pieces.append(text[cursor:start])
        pieces.append(f"{_SHIELD_OPEN}{chr(_SHIELD_BASE + len(segments))}{_SHIELD_CLOSE}")
        segments.append(text[start:end])
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), segments


def _unshield(text: str, segments: list[str]) -> str:
    def restore(match: re.Match[str]) -> str:
        index = ord(match.group(1)) - _SHIELD_BASE
        return segments[index] if 0 <= index < len(segments) else match.group()  # a look-alike in the input

    return _SHIELDED.sub(restore, text)


def _apply(rule: _Rule, text: str) -> str:
    # Replacements go in as written; _tidy capitalises sentence starts afterwards.
    return rule.regex.sub(lambda m: rule.replacements.get(normalise(m.group()), m.group()), text)


@lru_cache(maxsize=32)
def _request_pattern(lexicon: Lexicon, register: str) -> re.Pattern[str]:
    verbs = lexicon.data[register]["imperatives_to_requests"]
    return re.compile(r"(^|[.?!]\s+|\n)(" + "|".join(re.escape(v) for v in verbs) + r")\b([^.?!\n]*)[.!]?",
                      re.IGNORECASE)


def _requests(text: str, pattern: re.Pattern[str]) -> str:
    """"Fix the bug." -> "Could you fix the bug?" for sentences opening with one of the register's verbs."""
    return pattern.sub(lambda m: f"{m.group(1)}Could you {m.group(2).lower()}{m.group(3)}?", text)


def _tidy(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"[ \t]+([,.;:?!])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    text = re.sub(r"(^|[.?!]\s+|\n)[,;:]\s*", r"\1", text)
    text = re.sub(r"^[ \t]+|[ \t]+$", "", text, flags=re.M)
    # A sentence that became a request ("Could you ...") ends with a question mark.
    text = re.sub(r"((?:^|[.?!]\s+|\n)(?:could|can|would|will) you\b[^.?!\n]*)\.", r"\1?", text,
                  flags=re.IGNORECASE)
    # Capitalise sentence starts whose first word is plain lower case (leaves "iPhone" alone).
    return re.sub(r"(^|[.?!]\s+|\n)([a-z])(?=[a-z]*\b)", lambda m: m.group(1) + m.group(2).upper(), text)


@lru_cache(maxsize=32)
def _sentence_openers(lexicon: Lexicon, register: str) -> tuple[str, ...]:
    openers = lexicon.data[register]["drop_sentences_starting"]
    return tuple(normalise(variant) for phrase in openers for variant in expand(phrase))


def _drop_sentences(text: str, starts: tuple[str, ...]) -> tuple[str, bool]:
    kept, dropped = [], False
    for sentence in _SENTENCE.findall(text):
        if sentence.strip() and normalise(sentence.strip()).startswith(starts):
            dropped = True
            continue
        kept.append(sentence)
    return "".join(kept), dropped


def _starts_with_any(text: str, phrases: list[str]) -> bool:
    head = normalise(text.strip())
    return any(head.startswith(normalise(phrase)) for phrase in phrases)


def _contains_any(text: str, phrases: list[str]) -> bool:
    folded = normalise(text)
    return any(normalise(phrase) in folded for phrase in phrases)


def rewrite(
    text: str, register: str, preserve_terms: list[str], channel: str, lexicon: Lexicon
) -> dict[str, Any]:
    """The contract's rewrite_outgoing output, minus the server-computed fields.

    Returns `rewritten` and `diff_summary`; preserved/unpreserved terms are computed by the caller.
    """
    table = lexicon.data[register]
    shielded, terms = _shield(text, preserve_terms)
    changes: list[str] = []
    working = shielded

    if table.get("drop_greeting"):
        without = _GREETING.sub("", working, count=1)
        if without != working:
            changes.append("Removed the greeting")
            working = without
    if table.get("drop_sentences_starting"):
        working, dropped = _drop_sentences(working, _sentence_openers(lexicon, register))
        if dropped:
            changes.append("Dropped pleasantry sentences")
    for rule in _rules(lexicon, register):
        changed = _apply(rule, working)
        if changed != working:
            changes.append(rule.change)
            working = changed
    if table.get("imperatives_to_requests"):
        changed = _requests(working, _request_pattern(lexicon, register))
        if changed != working:
            changes.append("Turned instructions into requests")
            working = changed
    working = _tidy(working)

    if register == "clarifying":
        questions = _clarifying_questions(text, table.get("questions", {}))
        if questions:
            working = working.rstrip() + "\n\n" + " ".join(questions)
            changes.append("Added specific questions about what is missing")

    opener = table.get("opener")
    if opener and not _starts_with_any(working, table.get("opener_unless", [])):
        separator = "\n\n" if opener.endswith(",") else " "
        working = f"{opener}{separator}{working.lstrip()}"
        changes.append("Added an opening line")
    closer = table.get("closer")
    closer_channels = table.get("closer_channels")
    if (
        closer
        and (closer_channels is None or channel in closer_channels)
        and not _contains_any(working, table.get("closer_unless", []))
    ):
        separator = " " if channel in _CHAT_CHANNELS else "\n\n"
        working = working.rstrip() + separator + closer
        changes.append("Added a closing line")

    # Strip before unshielding, so whitespace that belongs to a preserve term survives.
    rewritten = _unshield(working.strip(), terms)
    if not rewritten.strip():
        rewritten, changes = text, []
    warnings = []
    if rewritten == text.strip():
        warnings.append(f"No '{register}' rule applied: the message may already read as {register}.")
    return {
        "rewritten": clip(rewritten, 12000),
        "diff_summary": {
            "tone_shift": table["tone_shift"],
            "structural_changes": [clip(change, 500) for change in changes][:20],
            "warnings": warnings,
        },
    }


def _clarifying_questions(text: str, questions: dict[str, str]) -> list[str]:
    asked = []
    if not _TIMELINE.search(text) and questions.get("timeline"):
        asked.append(questions["timeline"])
    if _OWNER_MISSING.search(text) and questions.get("owner"):
        asked.append(questions["owner"])
    if not asked and questions.get("scope"):
        asked.append(questions["scope"])
    return asked
