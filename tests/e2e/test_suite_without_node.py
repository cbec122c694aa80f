"""`uv run pytest` on a machine without Node: the interop tests skip saying what to install, unless CI is set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ci", [False, True])
def test_the_interop_tests_need_node_only_in_ci(tmp_path: Path, ci: bool) -> None:
    empty_bin = tmp_path / "bin"  # a PATH with neither node nor npm on it
    empty_bin.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"PATH": str(empty_bin)}
    if ci:
        env["CI"] = "true"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/interop"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if ci:
        assert proc.returncode != 0 and "errors" in proc.stdout.splitlines()[-1]
    else:
        assert proc.returncode == 0, proc.stdout[-2000:]
        assert "skipped" in proc.stdout.splitlines()[-1] and "passed" not in proc.stdout.splitlines()[-1]
    assert "need Node.js 20 or newer and npm on PATH: install them" in proc.stdout
