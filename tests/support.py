"""Helpers shared by the test suites (import as `tests.support`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def write_fake_dist(root: Path, pack: str, source: str, *, module: str | None = None) -> Path:
    """Write `<module>.py` and a dist-info declaring it in `parlance.packs`, as pip would install it.

    `root` goes on sys.path (in-process) or PYTHONPATH (subprocess); entry-point discovery then
    finds the pack exactly as it finds an installed distribution.
    """
    module = module or f"fake_pack_{pack}"
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    dist = root / f"parlance_fake_{pack}-0.1.0.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: parlance-fake-{pack}\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(f"[parlance.packs]\n{pack} = {module}\n")
    return root
