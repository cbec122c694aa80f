"""The fields every write tool's input and output share: the retry key and the commit a write made.

Apart from `models` and `code_models` (each write tool's models import them), so that both can.
"""

from __future__ import annotations

from pydantic import Field

__all__ = ["COMMIT", "IDEMPOTENCY_KEY"]

IDEMPOTENCY_KEY = Field(
    None, min_length=1, max_length=200,
    description="A retry of a call that may have been applied (a dropped connection) repeats it with the same key: "
                "it is answered the first outcome and writes nothing twice. A new call takes a new key (a key "
                "reused with other arguments is refused: IDEMPOTENCY_KEY_REUSED).")
"""`idempotency_key` (`ctx.write()`: a retry is answered from the write's first outcome, on any replica)."""

COMMIT = Field(None, description="The git commit this write made ([packs.i18n] git_commit), or null.")
"""`commit`: the commit's hash, where `git_commit` made one."""
