"""How a benchmark hands over its figures: a JSON file under bench/results/, and a table or JSON on stdout."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def publish(result: dict[str, Any], path: Path, *, as_json: bool, print_table: Callable[[dict[str, Any]], None]) -> None:
    """Write `result` to `path` (bench/results/ is gitignored), then print it as JSON or as a table."""
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
        print(f"  (written to {path.relative_to(path.parents[2])})")
