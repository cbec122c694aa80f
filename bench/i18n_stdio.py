"""`i18n_translate` round trips over stdio vs the bare server's `echo`, measured in one run, alternating.

    uv run python bench/i18n_stdio.py [--calls 2000] [--mode legacy|auto|both]

Both servers run as real subprocesses driven by the SDK's client: `parlance serve` with only the
i18n pack enabled and a startup bundle, and `bench/bare_server.py` (a low-level mcp server with one
`echo` tool, no host). Calls alternate between the two, the order swapping every call, after a
warm-up; the figures are per-call round-trip latencies (p50, p90) and the p50 ratio.

Goal: i18n_translate p50 <= 1.1x the bare echo p50.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params

HERE = Path(__file__).resolve().parent
WARMUP = 200


def write_config(folder: Path) -> Path:
    bundles = folder / "bundles"
    bundles.mkdir()
    filler = {f"filler.{i}": f"Filler {i}" for i in range(500)}
    (bundles / "en.json").write_text(json.dumps({**filler, "greeting": "Hello, {name}!"}))
    (bundles / "es.json").write_text(json.dumps({**filler, "greeting": "¡Hola, {name}!"}))
    config = folder / "parlance.toml"
    config.write_text(f'[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nbundle_dirs = [{json.dumps(str(bundles))}]\n')
    return config


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(mode: str, calls: int, config: Path) -> tuple[list[float], list[float]]:
    bare = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py")], cwd=str(HERE))
    parlance = stdio_server_params(config)
    # Servers' stderr (the host logs one JSON line per call, as it does in production) goes to a file.
    with open(config.parent / f"stderr-{mode}.log", "w") as errlog:
        async with Client(stdio_client(bare, errlog=errlog), mode=mode) as echo_client, \
                Client(stdio_client(parlance, errlog=errlog), mode=mode) as i18n_client:
            return await _alternate(echo_client, i18n_client, calls)


async def _alternate(echo_client: Client, i18n_client: Client, calls: int) -> tuple[list[float], list[float]]:
    translate_args = {"key": "greeting", "locale": "es-MX", "variables": {"name": "Ada"}}
    first = await i18n_client.call_tool("i18n_translate", translate_args)
    assert first.structured_content == {"translation": "¡Hola, Ada!", "locale": "es", "fallback": False}, first

    async def echo() -> Any:
        return await echo_client.call_tool("echo", {"text": "Hello, Ada!"})

    async def translate() -> Any:
        return await i18n_client.call_tool("i18n_translate", translate_args)

    for _ in range(WARMUP):
        await echo()
        await translate()
    timings: dict[str, list[float]] = {"echo": [], "translate": []}
    pair: list[tuple[str, Callable[[], Awaitable[Any]]]] = [("echo", echo), ("translate", translate)]
    for i in range(calls):
        for name, call in pair if i % 2 == 0 else pair[::-1]:
            started = time.perf_counter()
            await call()
            timings[name].append((time.perf_counter() - started) * 1e6)
    return timings["echo"], timings["translate"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--mode", choices=["legacy", "auto", "both"], default="both")
    args = parser.parse_args()
    modes = ["legacy", "auto"] if args.mode == "both" else [args.mode]
    print(f"python {sys.version.split()[0]}, {args.calls} alternating calls per server after {WARMUP} warm-up calls")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        config = write_config(Path(tmp))
        for mode in modes:
            echo, translate = anyio.run(run, mode, args.calls, config)
            echo_p50, translate_p50 = statistics.median(echo), statistics.median(translate)
            ratio = translate_p50 / echo_p50
            worst = max(worst, ratio)
            print(f"\n{mode} era")
            print(f"  bare echo        p50 {echo_p50:7.1f} us   p90 {percentile(echo, 0.9):7.1f} us")
            print(f"  i18n_translate   p50 {translate_p50:7.1f} us   p90 {percentile(translate, 0.9):7.1f} us")
            print(f"  ratio (p50)      {ratio:.3f}x  (goal <= 1.10x)")
    return 0 if worst <= 1.10 else 1


if __name__ == "__main__":
    raise SystemExit(main())
