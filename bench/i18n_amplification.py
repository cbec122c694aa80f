"""What a maximal `i18n_add_messages` costs the server, and what it costs everyone else meanwhile.

    uv run python bench/i18n_amplification.py [--runs 3] [--shape dense|ordinary|both]

Each run starts a fresh `parlance serve --transport http` (only the i18n pack) and drives it with
real MCP clients (2025-11-25 era, so sessions keep their bundles):

- the add: another process sends one `i18n_add_messages` as large as the transport takes (4 MiB of
  JSON): `dense` is 400 distinct messages of ~10,000 characters, nearly all `{v}`; `ordinary` is
  messages like "Hello {name}, you have {count, plural, one {# file} other {# files}}" with short
  keys, as many as fit (up to the per-bundle `max_messages`);
- memory: the server's peak RSS growth during the add (VmHWM, reset just before it, minus VmRSS
  before) and the growth it keeps (VmRSS after), each divided by the request's size. 1x is the
  least possible (the request has to be read); `floor` is the same request refused by the session
  budget before anything compiles, i.e. what the transport and the host cost before the pack does
  anything;
- time: the add alone, and the add while the next measurement runs;
- latency: this process, on a session of its own, calls `i18n_translate` back to back while the
  add runs, and the same number of times with the server idle; p50 and p99 of each and their
  ratio.

The table shows medians over the runs (floor and alone: one run each). Goals: peak growth <= 10x
the request; translate p99 during the add < 50 ms.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

BODY_LIMIT = 4 * 1024 * 1024  # mcp's DEFAULT_MAX_REQUEST_BODY_SIZE
GOAL_RATIO = 10.0
GOAL_P99_MS = 50.0
IDLE_CALLS = 300

LOADER = r"""
import json, sys, time, anyio
from mcp import Client

async def main(url, path):
    arguments = json.loads(open(path).read())
    async with Client(url, mode="legacy") as client:
        await client.call_tool("i18n_list_locales", {})
        print("ready", flush=True)
        sys.stdin.readline()
        started = time.perf_counter()
        result = await client.call_tool("i18n_add_messages", arguments)
        elapsed = time.perf_counter() - started
        code = result.structured_content.get("code") if result.is_error else "ok"
        print(f"done {elapsed:.3f} {code}", flush=True)

anyio.run(main, sys.argv[1], sys.argv[2])
"""


def dense_arguments() -> dict[str, Any]:
    return {"locale": "en", "messages": {f"k{i:03d}": "{v}" * 3332 + f"{i:03d}" for i in range(400)}}


def ordinary_arguments() -> dict[str, Any]:
    def message(i: int) -> str:
        return f"Hello {{name}}, you have {{count, plural, one {{# file}} other {{# files in {i}}}}}"

    messages: dict[str, str] = {}
    size = 100  # the envelope
    i = 0
    while i < 100_000:
        key, text = f"m{i}", message(i)
        size += len(key) + len(text) + 6
        if size > BODY_LIMIT - 4096:
            break
        messages[key] = text
        i += 1
    return {"locale": "en", "messages": messages}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of `pid`, in bytes."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) * 1024
    return fields


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS (Linux >= 4.0)


def start_server(folder: Path, settings: str = "") -> tuple[subprocess.Popen[bytes], str]:
    config = folder / "parlance.toml"
    config.write_text('[packs]\nenabled = ["i18n"]\n[language_packs]\npaths = []\nautoload = false\n'
                      f"[packs.i18n]\n{settings}")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}
    server = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                               "--config", str(config)], cwd=folder, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return server, f"http://127.0.0.1:{port}/mcp"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class PackDidNotStart(Exception):
    pass


async def wait_until_up(url: str) -> None:
    with anyio.fail_after(60):
        while True:
            try:
                async with Client(url, mode="legacy") as probe:
                    tools = {tool.name for tool in (await probe.list_tools()).tools}
                break
            except Exception:
                await anyio.sleep(0.1)
    if "i18n_add_messages" not in tools:  # e.g. a setting this version of the pack does not know
        raise PackDidNotStart(url)


async def alone_run(folder: Path, arguments: dict[str, Any], request_bytes: int, settings: str = "") -> dict[str, float]:
    """The add from this process with nothing else going on: its time and the server's peak RSS growth."""
    server, url = start_server(folder, settings)
    try:
        await wait_until_up(url)
        async with Client(url, mode="legacy") as client:
            await client.call_tool("i18n_add_messages", {"locale": "de", "messages": {"hi": "Hallo {name}"}})
            await client.call_tool("i18n_translate", {"key": "hi", "locale": "de"})
            before = memory(server.pid)
            reset_peak(server.pid)
            started = time.perf_counter()
            result = await client.call_tool("i18n_add_messages", arguments)
            elapsed = time.perf_counter() - started
            after = memory(server.pid)
        code = result.structured_content.get("code") if result.is_error else "ok"
        return {"code": code, "s": elapsed, "peak_x": (after["VmHWM"] - before["VmRSS"]) / request_bytes}  # type: ignore[dict-item]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)


async def one_run(folder: Path, arguments_file: Path, request_bytes: int) -> dict[str, float]:
    """The add from another process while this one calls i18n_translate on a session of its own."""
    server, url = start_server(folder)
    loader = None
    try:
        await wait_until_up(url)
        translate_args = {"key": "hi", "locale": "de-AT", "variables": {"name": "Ada"}}
        async with Client(url, mode="legacy") as client:
            await client.call_tool("i18n_add_messages", {"locale": "de", "messages": {"hi": "Hallo {name}"}})
            for _ in range(50):  # warm up
                await client.call_tool("i18n_translate", translate_args)
            gc.disable()
            try:
                idle = [await _timed(client, translate_args) for _ in range(IDLE_CALLS)]
            finally:
                gc.enable()

            loader = subprocess.Popen([sys.executable, "-c", LOADER, url, str(arguments_file)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert loader.stdin is not None and loader.stdout is not None
            ready = await anyio.to_thread.run_sync(loader.stdout.readline)
            if ready.strip() != "ready":
                raise SystemExit(f"the loader did not start: {ready!r}")
            before = memory(server.pid)
            reset_peak(server.pid)
            loader.stdin.write("go\n")
            loader.stdin.flush()
            busy: list[float] = []
            done_line: list[str] = []

            async def wait_for_loader() -> None:
                done_line.append(await anyio.to_thread.run_sync(loader.stdout.readline))  # type: ignore[union-attr]

            gc.disable()  # this process's own full collections are not the server's latency
            try:
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(wait_for_loader)
                    while not done_line:
                        busy.append(await _timed(client, translate_args))
            finally:
                gc.enable()
            after = memory(server.pid)
        _, elapsed, code = done_line[0].split()
        if code != "ok":
            raise SystemExit(f"the add was refused: {code}")
        return {
            "add_s": float(elapsed),
            "peak_x": (after["VmHWM"] - before["VmRSS"]) / request_bytes,
            "kept_x": (after["VmRSS"] - before["VmRSS"]) / request_bytes,
            "peak_mb": (after["VmHWM"] - before["VmRSS"]) / 1e6,
            "idle_p50": statistics.median(idle), "idle_p99": percentile(idle, 0.99),
            "busy_p50": statistics.median(busy), "busy_p99": percentile(busy, 0.99), "busy_n": len(busy),
        }
    finally:
        if loader is not None:
            loader.kill()
            loader.wait()
        server.send_signal(signal.SIGTERM)
        server.wait(10)


async def _timed(client: Client, arguments: dict[str, Any]) -> float:
    started = time.perf_counter()
    result = await client.call_tool("i18n_translate", arguments)
    elapsed = (time.perf_counter() - started) * 1000
    assert result.structured_content["translation"] == "Hallo Ada", result
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per shape (default 3)")
    parser.add_argument("--shape", choices=["dense", "ordinary", "both"], default="both")
    args = parser.parse_args()
    shapes = {"dense": dense_arguments, "ordinary": ordinary_arguments}
    chosen = list(shapes) if args.shape == "both" else [args.shape]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {args.runs} runs per shape, medians;"
          f" translate: {IDLE_CALLS} calls idle, back to back during the add")
    print(f"{'shape':9} {'request':>8} {'floor':>6} {'alone':>6} {'add':>6} {'peak RSS':>9} {'peak/req':>8} "
          f"{'kept/req':>8} {'idle p50/p99':>14} {'busy p50/p99':>15} {'p99 ratio':>9}")
    worst_ratio = worst_p99 = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for shape in chosen:
            arguments = shapes[shape]()
            body = json.dumps(arguments, separators=(",", ":"))  # as the client sends it
            request_bytes = len(body.encode())
            arguments_file = Path(tmp) / f"{shape}.json"
            arguments_file.write_text(body)
            try:
                floor = anyio.run(alone_run, _folder(tmp, shape, "floor"), arguments, request_bytes,
                                  "session_max_messages = 1\n")
                floor_text = f"{floor['peak_x']:5.1f}x" if floor["code"] == "SESSION_BUDGET_EXCEEDED" else "  n/a"
            except PackDidNotStart:  # a version of the pack without the session budget
                floor_text = "  n/a"
            alone = anyio.run(alone_run, _folder(tmp, shape, "alone"), arguments, request_bytes)
            assert alone["code"] == "ok", alone
            runs = [anyio.run(one_run, _folder(tmp, shape, str(n)), arguments_file, request_bytes)
                    for n in range(args.runs)]
            m = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
            worst_ratio, worst_p99 = max(worst_ratio, m["peak_x"]), max(worst_p99, m["busy_p99"])
            print(f"{shape:9} {request_bytes / 1e6:6.2f}MB {floor_text} {alone['s']:5.2f}s "
                  f"{m['add_s']:5.2f}s {m['peak_mb']:7.1f}MB {m['peak_x']:7.1f}x {m['kept_x']:7.1f}x "
                  f"{m['idle_p50']:6.1f}/{m['idle_p99']:5.1f}ms {m['busy_p50']:6.1f}/{m['busy_p99']:6.1f}ms "
                  f"{m['busy_p99'] / m['idle_p99']:8.1f}x   ({m['busy_n']:.0f} calls during the add)")
    print("floor: peak RSS growth when the same request is refused before anything compiles (what the transport and"
          " host cost); alone: the add with nothing else going on; add: while another session translates")
    print(f"goals: peak/request <= {GOAL_RATIO:.0f}x ({'met' if worst_ratio <= GOAL_RATIO else 'missed'}); "
          f"busy p99 < {GOAL_P99_MS:.0f} ms ({'met' if worst_p99 < GOAL_P99_MS else 'missed'})")
    return 0 if worst_ratio <= GOAL_RATIO and worst_p99 < GOAL_P99_MS else 1


def _folder(tmp: str, shape: str, run: str) -> Path:
    folder = Path(tmp) / f"{shape}-{run}"
    folder.mkdir()
    return folder


if __name__ == "__main__":
    raise SystemExit(main())
