"""Calls per second of `i18n_translate` over streamable HTTP in each `[host]` HTTP mode, in one run, alternating.

    uv run python bench/http_modes.py [--seconds 2] [--rounds 6] [--workers 4] [--json]

One `parlance serve --transport http` subprocess per mode (i18n pack only, bench/i18n_stdio.py's
config; its stderr goes to a file), all started once, on the 2025-11-25 era:

    default         stateful, SSE answers, resumable (in-memory event store, `sse_retry_ms = 1000`)
    sse_retry_0     stateful, SSE answers, not resumable (`sse_retry_ms = 0`)
    json            stateful, one JSON body per POST (`json_response = true`)
    stateless       no sessions, SSE answers (`stateless_http = true`)
    stateless_json  no sessions, JSON bodies (`stateless_http = true`, `json_response = true`)

The client is raw `httpx` on loopback, no SDK (mcp.Client's own cost would hide the server's):
`--workers` async tasks per mode, each on a keep-alive connection of its own, each making calls
one after another. In the stateful modes every worker opens a session of its own (initialize +
notifications/initialized) and sends Mcp-Session-Id; every request carries MCP-Protocol-Version
2025-11-25, which is all the SDK's stateless path asks for (no initialize). Every answer is checked:
HTTP 200, the body shape the mode promises (JSON or SSE; an SSE priming event with `retry` exactly
when resumable; the session's id in the stateful modes), one JSON-RPC result for the request's id,
not isError, and the expected translation in both structuredContent and the text block. The run
stops at the first answer that is not.

After a warm-up, each round gives every mode `--seconds` of calls, the order rotating every round
so that drift in the machine hits all modes alike. Figures per mode: calls/s (median over rounds),
p50/p90 latency of all its calls, the server's CPU per call (/proc/PID/stat around each batch) and
this client's, and ratios to `default`: calls/s as the median of the per-round ratios (each round's
batches ran back to back), p50 as the ratio of the p50s. The client shares the machine with the
server: when its CPU per call is near the server's, calls/s says as much about the client as about
the mode, and the server's CPU per call is the steadier comparison. Results also go to
bench/results/http_modes.json. Linux only (/proc).

What it showed (2 CPUs, Python 3.11): the JSON body is what saves. `json_response` about halves
the server's CPU per call and gives ~1.9x the calls/s of the default. `stateless_http` costs
more per call than a session (a transport and a server task per POST), so with JSON bodies it
gives ~1.5x and alone slightly less than the default. The resumable streams' event store costs
~5-10% of the server's CPU per call.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx

from i18n_stdio import percentile, write_config
from reporting import publish

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "http_modes.json"
ERA = "2025-11-25"
WARMUP_S = 1.0
STARTUP_LIMIT_S = 60.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
TRANSLATE_ARGS = {"key": "greeting", "locale": "es-MX", "variables": {"name": "Ada"}}
EXPECTED = {"translation": "¡Hola, Ada!", "locale": "es", "fallback": False}


class BenchmarkFailed(RuntimeError):
    """A server did not start, died, or answered something other than expected."""


@dataclass(frozen=True)
class Mode:
    name: str
    host_settings: str  # the [host] lines of its parlance.toml
    stateful: bool
    json_response: bool
    resumable: bool


MODES = (
    Mode("default", "", stateful=True, json_response=False, resumable=True),
    Mode("sse_retry_0", "sse_retry_ms = 0", stateful=True, json_response=False, resumable=False),
    Mode("json", "json_response = true", stateful=True, json_response=True, resumable=False),
    Mode("stateless", "stateless_http = true", stateful=False, json_response=False, resumable=False),
    Mode("stateless_json", "stateless_http = true\njson_response = true", stateful=False, json_response=True,
         resumable=False),
)


# --- the servers --------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One `parlance serve --transport http` subprocess in one mode."""

    def __init__(self, mode: Mode, folder: Path) -> None:
        self.mode = mode
        folder.mkdir()
        config = write_config(folder)
        config.write_text(f"[host]\n{mode.host_settings}\n\n" + config.read_text())
        port = free_port()
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.stderr_path = folder / "stderr.log"
        env = {name: value for name, value in os.environ.items() if name != "PARLANCE_CONFIG"}
        with open(self.stderr_path, "wb") as stderr:  # the host logs one JSON line per call, as in production
            self.process = subprocess.Popen(
                [sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                 "--config", str(config)], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=stderr)

    def fail(self, problem: str) -> BenchmarkFailed:
        tail = [line for line in self.stderr_path.read_text(errors="replace").splitlines() if line][-15:]
        return BenchmarkFailed(f"{self.mode.name}: {problem}\n  server stderr (last lines):\n    "
                               + "\n    ".join(tail))

    async def wait_until_up(self, http: httpx.AsyncClient) -> None:
        """Until the port answers HTTP at all (any status: the workers check the real answers).

        The probe is a GET that accepts no event stream, refused at once in every mode (a GET that
        accepts one would open the standalone stream, which stays open).
        """
        deadline = time.monotonic() + STARTUP_LIMIT_S
        while True:
            if self.process.poll() is not None:
                raise self.fail(f"exited with status {self.process.returncode} while starting")
            try:
                await http.get(self.url, headers={"Accept": "application/json"}, timeout=2)
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise self.fail(f"not answering at {self.url} after {STARTUP_LIMIT_S:.0f} s") from None
                await anyio.sleep(0.1)

    def cpu_s(self) -> float:
        """User + system CPU time of the server process so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()  # after "(comm)", which may contain spaces
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- the client ---------------------------------------------------------------------------------

def sse_events(text: str) -> list[dict[str, str]]:
    """The events of an SSE body: each a dict of its fields, `data` lines joined by newlines."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        event: dict[str, str] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            event[name] = f"{event['data']}\n{value}" if name == "data" and "data" in event else value
        if event:
            events.append(event)
    return events


class Worker:
    """One client making calls one after another on its own connection (and session, when stateful)."""

    def __init__(self, server: Server, http: httpx.AsyncClient) -> None:
        self.server, self.mode, self.http = server, server.mode, http
        self.headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                        "MCP-Protocol-Version": ERA}
        self.session_id: str | None = None
        self.ids = itertools.count(1)

    async def open(self) -> None:
        if not self.mode.stateful:
            return
        params = {"protocolVersion": ERA, "capabilities": {}, "clientInfo": {"name": "http-modes", "version": "0"}}
        initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
        reply = await self.http.post(self.server.url, json=initialize, headers=self.headers)
        self.session_id = reply.headers.get("mcp-session-id")
        if reply.status_code != 200 or not self.session_id:
            raise self.server.fail(f"initialize answered HTTP {reply.status_code}, no session: {reply.text[:300]}")
        self.headers["Mcp-Session-Id"] = self.session_id
        result = self._answer(reply, 0).get("result") or {}
        if result.get("protocolVersion") != ERA:
            raise self.server.fail(f"initialize did not agree on {ERA}: {json.dumps(result)[:300]}")
        reply = await self.http.post(self.server.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                                     headers=self.headers)
        if reply.status_code != 202:
            raise self.server.fail(f"notifications/initialized answered HTTP {reply.status_code}: {reply.text[:300]}")

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> tuple[float, Any, httpx.Response]:
        """One tools/call: its round trip in seconds (request sent to body read), its `result`, the reply."""
        request_id = next(self.ids)
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                           "params": {"name": name, "arguments": arguments}}).encode()
        started = time.perf_counter()
        reply = await self.http.post(self.server.url, content=body, headers=self.headers)
        elapsed = time.perf_counter() - started
        return elapsed, self._answer(reply, request_id).get("result"), reply

    async def call(self) -> float:
        """One i18n_translate, checked; its round trip in seconds (request sent to body read)."""
        elapsed, result, reply = await self.call_tool("i18n_translate", TRANSLATE_ARGS)
        if not isinstance(result, dict) or result.get("isError"):
            raise self.server.fail(f"i18n_translate did not return a result: {reply.text[:500]}")
        content = result.get("content") or [{}]
        try:
            text = json.loads(content[0].get("text", ""))
        except ValueError:
            text = None
        if result.get("structuredContent") != EXPECTED or text != EXPECTED:
            raise self.server.fail(f"i18n_translate returned unexpected content: {json.dumps(result)[:500]}")
        return elapsed

    def _answer(self, reply: httpx.Response, request_id: int) -> dict[str, Any]:
        """The JSON-RPC answer to `request_id` in `reply`, after checking the reply has the mode's shape."""
        fail = self.server.fail
        if reply.status_code != 200:
            raise fail(f"HTTP {reply.status_code}: {reply.text[:300]}")
        if self.session_id is not None and reply.headers.get("mcp-session-id") != self.session_id:
            raise fail(f"answered with session {reply.headers.get('mcp-session-id')!r}, not {self.session_id!r}")
        if not self.mode.stateful and "mcp-session-id" in reply.headers:
            raise fail("a stateless server answered with a session id")
        content_type = reply.headers.get("content-type", "")
        if self.mode.json_response:
            if not content_type.startswith("application/json"):
                raise fail(f"expected one JSON body, got {content_type!r}")
            messages: list[dict[str, Any]] = [json.loads(reply.content)]
        else:
            if not content_type.startswith("text/event-stream"):
                raise fail(f"expected an SSE stream, got {content_type!r}")
            events = sse_events(reply.text)
            primed = any(event.get("data") == "" and "id" in event and "retry" in event for event in events)
            if primed != self.mode.resumable:
                raise fail(f"the SSE stream is {'' if primed else 'not '}resumable (priming event with retry)")
            messages = [json.loads(event["data"]) for event in events if event.get("data")]
        answers = [message for message in messages if message.get("id") == request_id]
        if len(answers) != 1:
            raise fail(f"expected one answer to request {request_id}, got {reply.text[:500]!r}")
        return answers[0]


# --- measuring ----------------------------------------------------------------------------------

@dataclass
class Record:
    calls_per_s: list[float] = field(default_factory=list)  # one value per round
    server_cpu_us: list[float] = field(default_factory=list)  # per call, one value per round
    client_cpu_us: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    calls: int = 0


async def run_batch(workers: list[Worker], seconds: float) -> tuple[float, list[float]]:
    """Every worker calls until `seconds` have passed; (wall time until the last call ended, latencies)."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def keep_calling(worker: Worker) -> None:
        while time.perf_counter() < deadline:
            latencies.append(await worker.call())

    started = time.perf_counter()
    try:
        async with anyio.create_task_group() as group:
            for worker in workers:
                group.start_soon(keep_calling, worker)
    except BaseExceptionGroup as group_error:  # a failed check: report it, not the task group around it
        failed: BaseException | None = group_error.subgroup(BenchmarkFailed)
        while isinstance(failed, BaseExceptionGroup):
            failed = failed.exceptions[0]
        raise failed or group_error
    return time.perf_counter() - started, latencies


async def measure_batch(server: Server, workers: list[Worker], seconds: float, record: Record) -> None:
    gc.collect()
    gc.disable()  # this process's own full collections are not the server's latency
    try:
        server_before, client_before = server.cpu_s(), time.process_time()
        elapsed, latencies = await run_batch(workers, seconds)
        server_used, client_used = server.cpu_s() - server_before, time.process_time() - client_before
    finally:
        gc.enable()
    calls = len(latencies)
    record.calls_per_s.append(calls / elapsed)
    record.server_cpu_us.append(server_used * 1e6 / calls)
    record.client_cpu_us.append(client_used * 1e6 / calls)
    record.latencies_ms += [latency * 1e3 for latency in latencies]
    record.calls += calls


async def alternated(servers: dict[str, Server], workers: dict[str, list[Worker]], seconds: float,
                     rounds: int) -> dict[str, Record]:
    """`rounds` batches of `seconds` per server, the order rotated each round (so no server is always
    measured first or after the same one), each server checked to be alive after its batch."""
    records = {name: Record() for name in servers}
    names = list(servers)
    for round_number in range(rounds):
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            await measure_batch(servers[name], workers[name], seconds, records[name])
            if servers[name].process.poll() is not None:
                raise servers[name].fail(f"exited with status {servers[name].process.returncode}")
    return records


async def measure_servers(servers: dict[str, Server], seconds: float, rounds: int, connections: int,
                          workers_of: Callable[[str, Server, httpx.AsyncClient], list[Worker]]) -> dict[str, Record]:
    """Wait for each of `servers` (started), open its workers (`workers_of`), warm it up, then the alternated
    rounds; every server is stopped at the end (bench/auth_overhead.py and bench/team_writes.py measure so too)."""
    try:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        clients = {name: httpx.AsyncClient(trust_env=False, limits=limits, timeout=30) for name in servers}
        try:
            workers: dict[str, list[Worker]] = {}
            for name, server in servers.items():
                await server.wait_until_up(clients[name])
                workers[name] = workers_of(name, server, clients[name])
                for worker in workers[name]:
                    await worker.open()
                await run_batch(workers[name], WARMUP_S)  # a first call's one-off work (keys, tables) goes here
            return await alternated(servers, workers, seconds, rounds)
        finally:
            for client in clients.values():
                await client.aclose()
    finally:
        for server in servers.values():
            server.stop()


async def measure(folder: Path, seconds: float, rounds: int, workers_per_mode: int) -> dict[str, Record]:
    servers = {mode.name: Server(mode, folder / mode.name) for mode in MODES}
    return await measure_servers(servers, seconds, rounds, workers_per_mode,
                                 lambda _, server, http: [Worker(server, http) for _ in range(workers_per_mode)])


def summarise(records: dict[str, Record], seconds: float, rounds: int, workers: int) -> dict[str, Any]:
    base = records["default"]
    modes: dict[str, Any] = {}
    for mode in MODES:
        record = records[mode.name]
        p50 = statistics.median(record.latencies_ms)
        paired = [mine / theirs for mine, theirs in zip(record.calls_per_s, base.calls_per_s)]
        modes[mode.name] = {
            "host_settings": mode.host_settings.split("\n") if mode.host_settings else [],
            "calls_per_s": round(statistics.median(record.calls_per_s), 1),
            "calls_per_s_by_round": [round(value, 1) for value in record.calls_per_s],
            "p50_ms": round(p50, 3),
            "p90_ms": round(percentile(record.latencies_ms, 0.9), 3),
            "server_cpu_us_per_call": round(statistics.median(record.server_cpu_us), 1),
            "client_cpu_us_per_call": round(statistics.median(record.client_cpu_us), 1),
            "calls": record.calls,
            "calls_per_s_vs_default": round(statistics.median(paired), 3),
            "p50_vs_default": round(p50 / statistics.median(base.latencies_ms), 3),
            "server_cpu_vs_default": round(statistics.median(record.server_cpu_us)
                                           / statistics.median(base.server_cpu_us), 3),
        }
    return {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "era": ERA,
        "method": (f"parlance serve --transport http per mode, i18n_translate; raw httpx client, {workers} async "
                   f"workers per mode (own connection, own session when stateful); {WARMUP_S:g} s warm-up each, "
                   f"then {rounds} rounds of {seconds:g} s per mode, order rotating per round; server CPU from "
                   "/proc/PID/stat around each batch"),
        "seconds_per_batch": seconds,
        "rounds": rounds,
        "workers": workers,
        "modes": modes,
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"python {result['python']}, {result['cpus']} CPUs, {result['era']} era, {result['workers']} workers, "
          f"{result['rounds']} rounds of {result['seconds_per_batch']:g} s per mode")
    print(f"\n  {'mode':15} {'calls/s':>8} {'(rounds min-max)':>17} {'p50 ms':>7} {'p90 ms':>7} "
          f"{'server us/call':>14} {'client us/call':>14}   vs default: {'calls/s':>7} {'p50':>6} {'server CPU':>10}")
    for name, mode in result["modes"].items():
        spread = f"{min(mode['calls_per_s_by_round']):.0f}-{max(mode['calls_per_s_by_round']):.0f}"
        print(f"  {name:15} {mode['calls_per_s']:8.0f} {spread:>17} {mode['p50_ms']:7.2f} {mode['p90_ms']:7.2f} "
              f"{mode['server_cpu_us_per_call']:14.0f} {mode['client_cpu_us_per_call']:14.0f}"
              f"               {mode['calls_per_s_vs_default']:6.2f}x {mode['p50_vs_default']:5.2f}x "
              f"{mode['server_cpu_vs_default']:9.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of calls per mode per round (default 2)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds, the mode order rotating each (default 6)")
    parser.add_argument("--workers", type=int, default=4, help="concurrent clients per mode (default 4)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    if not Path("/proc/self/stat").is_file():
        print("http_modes.py reads server CPU time from /proc: Linux only", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            records = anyio.run(measure, Path(tmp), args.seconds, args.rounds, args.workers)
        except BenchmarkFailed as exc:
            print(f"benchmark failed: {exc}", file=sys.stderr)
            return 2
    result = summarise(records, args.seconds, args.rounds, args.workers)
    publish(result, RESULTS, as_json=args.json, print_table=print_table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
