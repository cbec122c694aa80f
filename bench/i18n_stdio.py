"""`i18n_translate` round trips over stdio vs the bare server's `echo`, measured in one run, alternating.

    uv run python bench/i18n_stdio.py [--calls 2000] [--mode legacy|auto|both]

The servers run as real subprocesses driven by the SDK's client: `parlance serve` with only the
i18n pack enabled and a startup bundle; `bench/bare_server.py` (a low-level mcp server with one
`echo` tool, no host) on the SDK's `stdio_server()`, the peer the goal names; and the same bare
server on Parlance's stdio transport (`--pipes`), so the host's own cost is visible apart from
what the transport saves. Calls rotate between the three, the order changing every call, after a
warm-up; the figures are per-call round-trip latencies (p50, p90) and p50 ratios.

Goal: i18n_translate p50 <= 1.1x the bare echo p50 (the SDK-transport peer).
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


async def run(mode: str, calls: int, config: Path) -> dict[str, list[float]]:
    bare = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py")], cwd=str(HERE))
    bare_pipes = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py"), "--pipes"],
                                       cwd=str(HERE))
    parlance = stdio_server_params(config)
    # Servers' stderr (the host logs one JSON line per call, as it does in production) goes to a file.
    with open(config.parent / f"stderr-{mode}.log", "w") as errlog:
        async with Client(stdio_client(bare, errlog=errlog), mode=mode) as echo_client, \
                Client(stdio_client(bare_pipes, errlog=errlog), mode=mode) as pipes_client, \
                Client(stdio_client(parlance, errlog=errlog), mode=mode) as i18n_client:
            return await _rotate(echo_client, pipes_client, i18n_client, calls)


async def _rotate(echo_client: Client, pipes_client: Client, i18n_client: Client, calls: int) -> dict[str, list[float]]:
    translate_args = {"key": "greeting", "locale": "es-MX", "variables": {"name": "Ada"}}
    first = await i18n_client.call_tool("i18n_translate", translate_args)
    assert first.structured_content == {"translation": "¡Hola, Ada!", "locale": "es", "fallback": False}, first

    contenders: dict[str, Callable[[], Awaitable[Any]]] = {
        "echo": lambda: echo_client.call_tool("echo", {"text": "Hello, Ada!"}),
        "echo_pipes": lambda: pipes_client.call_tool("echo", {"text": "Hello, Ada!"}),
        "translate": lambda: i18n_client.call_tool("i18n_translate", translate_args),
    }
    for _ in range(WARMUP):
        for call in contenders.values():
            await call()
    timings: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for i in range(calls):
        for name in names[i % 3:] + names[:i % 3]:
            started = time.perf_counter()
            await contenders[name]()
            timings[name].append((time.perf_counter() - started) * 1e6)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="measured rounds per era (default 2000)")
    parser.add_argument("--mode", choices=["legacy", "auto", "both"], default="both")
    args = parser.parse_args()
    modes = ["legacy", "auto"] if args.mode == "both" else [args.mode]
    print(f"python {sys.version.split()[0]}, {args.calls} rotating calls per server after {WARMUP} warm-up calls")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        config = write_config(Path(tmp))
        for mode in modes:
            timings = anyio.run(run, mode, args.calls, config)
            p50 = {name: statistics.median(values) for name, values in timings.items()}
            ratio = p50["translate"] / p50["echo"]
            worst = max(worst, ratio)
            print(f"\n{mode} era")
            for name, label in (("echo", "bare echo, SDK stdio"), ("echo_pipes", "bare echo, Parlance stdio"),
                                ("translate", "i18n_translate")):
                print(f"  {label:26} p50 {p50[name]:7.1f} us   p90 {percentile(timings[name], 0.9):7.1f} us")
            print(f"  ratio to the bare echo (SDK stdio), p50        {ratio:.3f}x  (goal <= 1.10x)")
            print(f"  ratio to the bare echo (Parlance stdio), p50   {p50['translate'] / p50['echo_pipes']:.3f}x"
                  "  (the host and pack alone)")
    return 0 if worst <= 1.10 else 1


if __name__ == "__main__":
    raise SystemExit(main())
