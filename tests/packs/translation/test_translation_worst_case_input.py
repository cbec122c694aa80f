"""User text cannot make the heuristics slow: no regex backtracks over long runs of whitespace."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlance.testing import connect
from parlance_translation.heuristics.tone import sentence_initial_words

# The obvious one-regex spelling, kept only as the reference: it is quadratic on whitespace runs.
REFERENCE = re.compile(r"(?:^|[.?!]\s+|\n)\s*([A-Za-z]+)")
PIECES = st.sampled_from(["Fix", "it", "now", ".", "!", "?", " ", "\n", "\t", "1", "'", "e.g", "é", ","])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_sentence_initial_words_match_the_reference_regex(text: str) -> None:
    assert sentence_initial_words(text) == REFERENCE.findall(text)


@pytest.mark.anyio
async def test_whitespace_floods_at_the_input_limits_stay_fast() -> None:
    flood = "\n" * 7999 + "1"
    started = time.perf_counter()
    async with connect(["translation"], config={"packs": {"translation": {"mode": "baseline"}}}) as client:
        result = await client.call_tool("check_tone", {"text": flood, "baseline_messages": ["\n" * 1999 + "1"] * 20})
    elapsed = time.perf_counter() - started
    assert result.is_error is False
    assert elapsed < 2.0, f"check_tone took {elapsed:.1f} s on whitespace floods (quadratic backtracking?)"


@pytest.mark.anyio
async def test_text_holding_the_rewrites_private_placeholders_is_kept_as_written() -> None:
    sneaky = "Also see \ue000\U000f0000\ue001 here. This is broken."
    async with connect(["translation"], config={"packs": {"translation": {"mode": "baseline"}}}) as client:
        result = await client.call_tool("rewrite_outgoing", {"text": sneaky, "target_register": "warm",
                                                             "preserve_terms": ["deploy script"]})
    rewritten = result.structured_content["rewritten"]
    assert "\ue000\U000f0000\ue001" in rewritten and "deploy script" not in rewritten
    assert result.structured_content["unpreserved_terms"] == ["deploy script"]
