"""`parlance demo`, run as a user runs it: it succeeds, covers every pack, and leaves nothing behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def _run_demo(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    env.pop("PARLANCE_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "parlance", "demo", *args], capture_output=True, text=True,
                          env=env, cwd=tmp, timeout=300)


def test_parlance_register_demo_sections_of_every_pack_run_and_clean_up(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = _run_demo("--json", tmp=scratch)
    assert proc.returncode == 0, proc.stderr[-2000:]
    transcript = json.loads(proc.stdout)
    assert transcript["ok"] is True
    assert transcript["server"]["protocolVersion"] == "2025-11-25"
    packs = {step["pack"] for step in transcript["steps"]}
    assert packs == {"i18n", "translation", "strings_admin"}
    assert all(step["isError"] == step["expectedError"] for step in transcript["steps"])
    duplicate = next(s for s in transcript["steps"] if s["title"].startswith("Create the same key"))
    assert duplicate["structuredContent"]["code"] == "invalid_request"
    _the_loop_ran_on_the_sample_project([s for s in transcript["steps"] if s["pack"] == "i18n"])
    assert list(scratch.iterdir()) == []  # temporary config, sample project, database and logs are gone


def _the_loop_ran_on_the_sample_project(steps: list[dict[str, Any]]) -> None:
    """status -> missing -> a good write (its diff) and a refused one -> render -> status again."""
    assert [s["tool"] for s in steps[:6]] == ["i18n_status", "i18n_missing", "i18n_set_messages",
                                              "i18n_set_messages", "i18n_translate", "i18n_status"]
    before, missing, good, refused, rendered, after = (s["structuredContent"] for s in steps[:6])
    assert [(r["catalog"], r["locale"], r["total"], r["missing"]) for r in before["catalogs"]] == [("app", "fr", 4, 3)]
    assert {item["key"] for item in missing["items"]} == {"checkout.items", "checkout.pay", "checkout.thanks"}
    assert (good["written"], good["refused"]) == (2, 0)
    assert '+  "checkout.pay": "Payer {amount} maintenant"' in good["diff"].splitlines()
    assert (refused["written"], refused["refused"], refused["diff"]) == (0, 1, "")
    assert "{name}" in refused["results"][0]["reasons"][0]
    assert rendered["translation"] == "3 articles"
    assert (after["catalogs"][0]["translated"], after["catalogs"][0]["missing_keys"]) == (3, ["checkout.thanks"])


def test_demo_text_transcript(tmp_path: Path) -> None:
    proc = _run_demo(tmp=tmp_path)
    assert proc.returncode == 0
    out = proc.stdout
    assert "Connected: parlance over stdio, MCP 2025-11-25" in out
    assert "call   i18n_translate" in out and " ms  ok" in out
    assert "the localization loop on a sample project" in out
    assert '             │ +  "checkout.pay": "Payer {amount} maintenant"' in out  # the write's diff, shown
    assert "             │ drops the placeholder {name} that the source uses" in out
    assert "All steps went as expected" in out
    assert "UNEXPECTED" not in out
    hosts = {line.split("http://")[1].split(":")[0] for line in out.splitlines() if "http://" in line}
    assert hosts == {"127.0.0.1"}  # the demo talks to loopback only
