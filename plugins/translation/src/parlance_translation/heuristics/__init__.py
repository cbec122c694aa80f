"""Baseline mode: deterministic heuristics that fill the contract without a model.

One module per tool (`incoming`, `tone`, `rewrite`, `meeting`) over shared helpers (`matching` for
lexicon phrases, `text` for sentence boundaries). Word lists live in the pack's `lexicons/*.toml`
and are resolved through `parlance_translation.templates.resolve_lexicon`.
"""
