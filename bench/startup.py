"""Startup benchmark: spawn -> `tools/list` answered, Parlance vs a bare mcp low-level server.

Three servers, alternated in every round so machine noise hits them alike:
  parlance-all    `parlance serve` with every installed first-party pack enabled (the default)
  parlance-none   `parlance serve` with `[packs] enabled = []` (disabled packs should cost nothing)
  bare            bench/bare_server.py: the SDK's low-level Server with one tool, nothing else

Each run writes `initialize`, `notifications/initialized` and `tools/list` on stdin and stops the
clock when the `tools/list` answer arrives. Prints medians and the ratios to the bare server.
Usage: uv run python bench/startup.py [ROUNDS]   (default 15; the goal is parlance-all <= 1.15x bare)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LINES = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def spawn_to_tools_list(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Seconds from spawn until the tools/list answer is read, and how many tools it listed."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    assert proc.stdin and proc.stdout
    proc.stdin.write("".join(json.dumps(line) + "\n" for line in LINES))
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{argv} exited before answering tools/list")
        reply = json.loads(line)
        if reply.get("id") == 2:
            elapsed = time.perf_counter() - started
            break
    proc.stdin.close()
    proc.wait(timeout=30)
    return elapsed, len(reply["result"]["tools"])


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    env = {k: v for k, v in os.environ.items() if k not in {"PARLANCE_CONFIG", "PARLANCE_PACKS"}}
    with tempfile.TemporaryDirectory() as tmp:
        none_cfg, all_cfg = Path(tmp) / "none.toml", Path(tmp) / "all.toml"
        none_cfg.write_text("[packs]\nenabled = []\n")
        all_cfg.write_text("[host]\nlog_level = \"WARNING\"\n")
        servers = {
            "parlance-all": [sys.executable, "-m", "parlance", "serve", "--config", str(all_cfg)],
            "parlance-none": [sys.executable, "-m", "parlance", "serve", "--config", str(none_cfg)],
            "bare": [sys.executable, str(HERE / "bare_server.py")],
        }
        for argv in servers.values():  # warm the OS file cache and .pyc files
            spawn_to_tools_list(argv, env)
        times: dict[str, list[float]] = {name: [] for name in servers}
        tools: dict[str, int] = {}
        for _ in range(rounds):
            for name, argv in servers.items():
                elapsed, count = spawn_to_tools_list(argv, env)
                times[name].append(elapsed)
                tools[name] = count
    bare = statistics.median(times["bare"])
    print(f"startup: spawn -> tools/list answered, median of {rounds} alternated rounds")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {name:<14} {median * 1000:7.1f} ms  (min {min(samples) * 1000:6.1f}, max {max(samples) * 1000:6.1f})"
              f"  tools={tools[name]:<3} ratio to bare {median / bare:.3f}x")
    print(f"goal: parlance-all <= 1.15x bare -> {'met' if statistics.median(times['parlance-all']) <= 1.15 * bare else 'MISSED'}")


if __name__ == "__main__":
    main()
