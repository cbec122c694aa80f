"""Server CPU time and round-trip latency per tool call over stdio, raw JSON-RPC: Parlance, its floors, its peer.

    uv run python bench/per_call.py [--calls 500] [--rounds 9] [--eras 2025-11-25|both] [--json]

Each server is a subprocess (its stderr goes to a file) driven by a raw client: requests are
written to its stdin as newline-delimited JSON-RPC and replies read from its stdout, with no SDK
on the client side (mcp.Client validates every result, and that client cost would hide the
server's). The servers:

    floor      bench/jsonrpc_echo.py: plain Python, json + stdin/stdout, `echo` ("Hello, Ada!", as all echoes)
    bare       bench/bare_server.py: a low-level mcp server on the SDK's stdio_server(), `echo`
    bare_pipes the same server on Parlance's stdio transport (`--pipes`): the SDK's own per-call cost
               under the transport `parlance serve` uses, so i18n - bare_pipes is the host and pack
    i18n       `parlance serve`, i18n pack only (bench/i18n_stdio.py's config), `i18n_translate`
    translate  `parlance serve`, translation pack only, baseline mode, `translate_incoming` on
               bench/translation_vs_peer.py's 400-character email
    peer       neurodock-mcp-translation==0.3.0 (bench/.venv-neurodock), `translate_incoming`, same email

All of them are measured on the 2025-11-25 handshake (initialize + notifications/initialized).
With `--eras both` (the default) all but the floor and the peer are measured again on the 2026-07-28
era (no handshake; every request carries the `_meta` envelope); the floor and the peer speak
only the handshake era.

After a warm-up, each round gives every server in turn `--calls` sequential calls, the order
rotating every round so that drift in the machine hits all of them alike. The server's CPU time
(user + system, all its threads, in ns from /proc/PID/task/*/schedstat) is read before and after
its batch: CPU per call = the difference / calls. Figures: the median over rounds of CPU per call
(and /proc/PID/stat's coarser total as a cross-check), and p50/p90 of every round trip. Every
reply is checked (a JSON-RPC result, not isError, the expected content, identical to the first
reply): the run stops at the first that is not. Results also go to bench/results/per_call.json.
Linux only (/proc).

Goals: translate_incoming p50 <= 0.5x the peer's; i18n_translate server CPU per call <= 5x the
floor's. The exit status is 1 when one is missed (in any era measured), 2 when a server failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from mcp import StdioServerParameters
from mcp.client.stdio import get_default_environment

from i18n_stdio import percentile, write_config
from parlance.testing import stdio_server_params
from reporting import publish
from translation_vs_peer import EMAIL, PEER, ensure_peer, peer_params

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "per_call.json"
WARMUP = 200
HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
ENVELOPE = {  # what a 2026-07-28 client puts in every request's params._meta
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "per-call-bench", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

ECHO_ARGS = {"text": "Hello, Ada!"}
TRANSLATE_ARGS = {"key": "greeting", "locale": "es-MX", "variables": {"name": "Ada"}}
INCOMING_ARGS = {"text": EMAIL, "channel": "email"}
EXPLICIT_ASK = "Could you take a look when you get a chance"
GOALS = {  # ratio name -> the largest value that meets the goal
    "translate_incoming p50 / peer p50": 0.5,
    "i18n_translate CPU / floor CPU": 5.0,
}


class BenchmarkFailed(RuntimeError):
    """A server died, answered with an error, or answered something other than expected."""


# --- what each server must answer ---------------------------------------------------------------

def structured_and_text(result: dict[str, Any]) -> tuple[Any, Any]:
    """The structured content and the JSON value that opens the first text block (None if none does).

    Parlance's translation tools follow the JSON with a line for people; only the JSON is compared.
    """
    content = result.get("content") or [{}]
    try:
        text, _ = json.JSONDecoder().raw_decode(content[0].get("text", ""))
    except ValueError:
        text = None
    return result.get("structuredContent"), text


def is_echo(result: dict[str, Any]) -> bool:
    structured, text = structured_and_text(result)
    return bool(structured == ECHO_ARGS and text == ECHO_ARGS)


def is_greeting(result: dict[str, Any]) -> bool:
    structured, text = structured_and_text(result)
    expected = {"translation": "¡Hola, Ada!", "locale": "es", "fallback": False}
    return bool(structured == expected and text == expected)


def is_parlance_incoming(result: dict[str, Any]) -> bool:
    structured, text = structured_and_text(result)
    return structured == text and str((structured or {}).get("explicit_ask", "")).startswith(EXPLICIT_ASK)


def is_peer_incoming(result: dict[str, Any]) -> bool:
    analysis = (result.get("structuredContent") or {}).get("deterministic_analysis") or {}
    return str(analysis.get("explicit_ask", "")).startswith(EXPLICIT_ASK)


# --- the servers --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Contender:
    key: str  # "<server>@<era>"
    label: str
    era: str
    params: StdioServerParameters
    tool: str
    arguments: dict[str, Any]
    expected: Callable[[dict[str, Any]], bool]


def contenders(folder: Path, eras: list[str]) -> list[Contender]:
    i18n_folder = folder / "i18n"
    i18n_folder.mkdir()
    i18n_config = write_config(i18n_folder)  # production logging: one JSON line per call on stderr
    translation_config = folder / "translation" / "parlance.toml"
    translation_config.parent.mkdir()
    translation_config.write_text('[packs]\nenabled = ["translation"]\n\n[packs.translation]\nmode = "baseline"\n'
                                  '\n[host]\nlog_level = "WARNING"\n')  # as bench/translation_vs_peer.py
    floor = StdioServerParameters(command=sys.executable, args=[str(HERE / "jsonrpc_echo.py")], cwd=str(HERE))
    bare = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py")], cwd=str(HERE))
    bare_pipes = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py"), "--pipes"],
                                       cwd=str(HERE))
    i18n = stdio_server_params(i18n_config)
    translation = stdio_server_params(translation_config)
    out = [Contender(f"floor@{HANDSHAKE}", "floor: stdlib echo", HANDSHAKE, floor, "echo", ECHO_ARGS, is_echo)]
    for era in eras:
        out += [
            Contender(f"bare@{era}", "bare SDK echo", era, bare, "echo", ECHO_ARGS, is_echo),
            Contender(f"bare_pipes@{era}", "bare SDK echo, Parlance stdio", era, bare_pipes, "echo", ECHO_ARGS,
                      is_echo),
            Contender(f"i18n@{era}", "parlance i18n_translate", era, i18n, "i18n_translate", TRANSLATE_ARGS,
                      is_greeting),
            Contender(f"translate@{era}", "parlance translate_incoming", era, translation, "translate_incoming",
                      INCOMING_ARGS, is_parlance_incoming),
        ]
    out.append(Contender(f"peer@{HANDSHAKE}", "peer translate_incoming", HANDSHAKE, peer_params(),
                         "translate_incoming", INCOMING_ARGS, is_peer_incoming))
    return out


class RawServer:
    """One server subprocess and a synchronous newline-delimited JSON-RPC client for it."""

    def __init__(self, contender: Contender, errlog: IO[bytes]) -> None:
        self.contender = contender
        params = contender.params
        env = {**get_default_environment(), **(params.env or {})}  # what the SDK's stdio_client passes
        self.errlog_path = Path(errlog.name)
        self.process = subprocess.Popen([params.command, *params.args], cwd=params.cwd, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.last_id = 0
        self.reference: dict[str, Any] | None = None  # the first checked reply; every later one must equal it
        self.unsolicited = 0  # notifications read while waiting for a reply

    @property
    def pid(self) -> int:
        return self.process.pid

    def fail(self, problem: str) -> BenchmarkFailed:
        self.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        tail = self.errlog_path.read_text(errors="replace")[-2000:]
        return BenchmarkFailed(f"{self.contender.key}: {problem}\n--- its stderr (last 2000 chars) ---\n{tail}")

    def request(self, method: str, params: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        """Send one request and wait for its reply: (seconds from write to reply read, reply)."""
        self.last_id += 1
        if self.contender.era == MODERN:
            params = {**params, "_meta": ENVELOPE}
        line = json.dumps({"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params}).encode() + b"\n"
        started = time.perf_counter()  # encoding above is the client's cost, not the round trip's
        try:
            self.stdin.write(line)
            self.stdin.flush()
        except BrokenPipeError:
            raise self.fail("closed its stdin") from None
        while True:
            raw = self.stdout.readline()
            finished = time.perf_counter()
            if not raw:
                raise self.fail(f"closed its stdout (exit status {self.process.poll()}) instead of answering {method}")
            try:
                message = json.loads(raw)
            except ValueError:
                raise self.fail(f"wrote a line that is not JSON: {raw[:200]!r}") from None
            if message.get("id") == self.last_id:
                return finished - started, message
            if "id" in message:  # a request from the server (sampling, roots...) or a stray reply
                raise self.fail(f"sent an unexpected message while answering {method}: {raw[:200]!r}")
            self.unsolicited += 1

    def start(self) -> None:
        if self.contender.era != HANDSHAKE:
            return  # 2026-07-28: no session; the envelope on every request says who is calling
        _, reply = self.request("initialize", {"protocolVersion": HANDSHAKE, "capabilities": {},
                                               "clientInfo": {"name": "per-call-bench", "version": "0"}})
        if reply.get("result", {}).get("protocolVersion") != HANDSHAKE:
            raise self.fail(f"initialize answered {json.dumps(reply)[:300]}")
        self.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.stdin.flush()

    def call(self) -> float:
        """One checked tools/call; the round trip in seconds."""
        tool = self.contender.tool
        elapsed, reply = self.request("tools/call", {"name": tool, "arguments": self.contender.arguments})
        result = reply.get("result")
        if not isinstance(result, dict):
            raise self.fail(f"answered {tool} with {json.dumps(reply)[:500]}")
        if self.reference is None:
            if result.get("isError"):
                raise self.fail(f"{tool} returned a tool error: {json.dumps(result)[:500]}")
            if not self.contender.expected(result):
                raise self.fail(f"{tool} returned unexpected content: {json.dumps(result)[:500]}")
            if self.contender.era == MODERN and result.get("resultType") != "complete":
                raise self.fail(f"{tool} is not a complete 2026-07-28 result: {json.dumps(result)[:300]}")
            self.reference = result
        elif result != self.reference:  # deterministic tools: any difference is a failure mid-run
            raise self.fail(f"{tool} reply #{self.last_id} differs from the first: "
                            f"{json.dumps(result)[:500]}")
        return elapsed

    def close(self) -> int | None:
        if self.process.poll() is None:
            self.stdin.close()  # the end of input: every server here exits on it
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


# --- CPU time of a process ----------------------------------------------------------------------

def thread_cpu_ns(pid: int) -> dict[int, int]:
    """CPU time (ns) each live thread of the process has used, from /proc/PID/task/TID/schedstat."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as stats:
                out[int(tid)] = int(stats.read().split()[0])
        except FileNotFoundError:  # the thread ended between listing and reading
            pass
    return out


def process_cpu_s(pid: int) -> float:
    """User + system CPU time of the whole process, ended threads included, in clock ticks' precision."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # after "(comm)", which may contain spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


@dataclass
class Record:
    cpu_us: list[float] = field(default_factory=list)  # per call, one value per round
    cpu_stat_s: float = 0.0
    rtt_us: list[float] = field(default_factory=list)
    calls: int = 0
    threads_ended: int = 0  # threads gone during a batch: their share is missing from cpu_us


def measure_batch(server: RawServer, calls: int, record: Record) -> None:
    threads_before, total_before = thread_cpu_ns(server.pid), process_cpu_s(server.pid)
    timings = [server.call() for _ in range(calls)]
    threads_after, total_after = thread_cpu_ns(server.pid), process_cpu_s(server.pid)
    used_ns = sum(ns - threads_before.get(tid, 0) for tid, ns in threads_after.items())
    record.cpu_us.append(used_ns / 1e3 / calls)
    record.cpu_stat_s += total_after - total_before
    record.rtt_us += [t * 1e6 for t in timings]
    record.calls += calls
    record.threads_ended += len(threads_before.keys() - threads_after.keys())


def measure(calls: int, rounds: int, eras: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        lineup = contenders(folder, eras)
        servers: dict[str, RawServer] = {}
        exit_status: dict[str, int | None] = {}
        try:
            for contender in lineup:
                errlog = open(folder / f"{contender.key}.stderr", "wb")  # closed by the with-block below
                with errlog:
                    servers[contender.key] = RawServer(contender, errlog)
            for server in servers.values():
                server.start()
            for _ in range(WARMUP):  # imports, caches, the first JSON schemas; interleaved like the rounds
                for server in servers.values():
                    server.call()
            records = {key: Record() for key in servers}
            keys = list(servers)
            for round_number in range(rounds):
                shift = round_number % len(keys)
                for key in keys[shift:] + keys[:shift]:
                    measure_batch(servers[key], calls, records[key])
        finally:
            for key, server in servers.items():
                exit_status[key] = server.close()
    return summarise(lineup, records, servers, exit_status, calls, rounds)


# --- figures ------------------------------------------------------------------------------------

def summarise(lineup: list[Contender], records: dict[str, Record], servers: dict[str, RawServer],
              exit_status: dict[str, int | None], calls: int, rounds: int) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    for contender in lineup:
        record = records[contender.key]
        rows[contender.key] = {
            "label": contender.label, "era": contender.era, "tool": contender.tool,
            "cpu_us_per_call": round(statistics.median(record.cpu_us), 1),
            "cpu_us_per_call_best_round": round(min(record.cpu_us), 1),
            "cpu_us_per_call_by_round": [round(v, 1) for v in record.cpu_us],
            "cpu_us_per_call_proc_stat": round(record.cpu_stat_s * 1e6 / record.calls, 1),
            "p50_us": round(statistics.median(record.rtt_us), 1),
            "p90_us": round(percentile(record.rtt_us, 0.9), 1),
            "calls": record.calls,
            "threads_ended_mid_batch": record.threads_ended,
            "notifications_received": servers[contender.key].unsolicited,
            "exit_status": exit_status.get(contender.key),
        }
    ratios: list[dict[str, Any]] = []
    floor, peer = rows[f"floor@{HANDSHAKE}"], rows[f"peer@{HANDSHAKE}"]
    for era in [c.era for c in lineup if c.key.startswith("i18n@")]:
        bare, i18n, translate = rows[f"bare@{era}"], rows[f"i18n@{era}"], rows[f"translate@{era}"]
        bare_pipes = rows[f"bare_pipes@{era}"]
        pairs = [
            ("i18n_translate CPU / floor CPU", i18n["cpu_us_per_call"], floor["cpu_us_per_call"]),
            ("i18n_translate CPU / bare CPU", i18n["cpu_us_per_call"], bare["cpu_us_per_call"]),
            ("i18n_translate CPU / bare (Parlance stdio) CPU", i18n["cpu_us_per_call"],
             bare_pipes["cpu_us_per_call"]),
            ("bare CPU / floor CPU", bare["cpu_us_per_call"], floor["cpu_us_per_call"]),
            ("bare (Parlance stdio) CPU / floor CPU", bare_pipes["cpu_us_per_call"], floor["cpu_us_per_call"]),
            ("i18n_translate p50 / bare p50", i18n["p50_us"], bare["p50_us"]),
            ("translate_incoming p50 / peer p50", translate["p50_us"], peer["p50_us"]),
            ("translate_incoming p50 / bare p50", translate["p50_us"], bare["p50_us"]),
            ("peer p50 / bare p50", peer["p50_us"], bare["p50_us"]),
            ("translate_incoming CPU / peer CPU", translate["cpu_us_per_call"], peer["cpu_us_per_call"]),
        ]
        for name, ours, theirs in pairs:
            ratio: dict[str, Any] = {"era": era, "ratio": name, "value": round(ours / theirs, 3)}
            if name in GOALS:
                ratio |= {"goal_at_most": GOALS[name], "met": ratio["value"] <= GOALS[name]}
            ratios.append(ratio)
    return {
        "python": sys.version.split()[0], "cpus": os.cpu_count(), "peer": PEER,
        "method": f"raw newline-delimited JSON-RPC over stdio; {WARMUP} warm-up calls each, then {rounds} rounds "
                  f"of {calls} sequential calls per server, order rotating per round; CPU from "
                  "/proc/PID/task/*/schedstat around each batch",
        "calls_per_batch": calls, "rounds": rounds, "servers": rows, "ratios": ratios,
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"python {result['python']}, {result['cpus']} CPUs; {result['rounds']} rounds x {result['calls_per_batch']} "
          f"calls per server after {WARMUP} warm-up calls")
    print("  server CPU per call: median over rounds, best round, and /proc/PID/stat's total (10 ms ticks)")
    print(f"  {'server':30} {'era':10} {'CPU/call':>10} {'best':>7} {'stat':>7} {'p50':>10} {'p90':>10}")
    for row in result["servers"].values():
        print(f"  {row['label']:30} {row['era']:10} {row['cpu_us_per_call']:7.1f} us "
              f"{row['cpu_us_per_call_best_round']:7.1f} {row['cpu_us_per_call_proc_stat']:7.1f} "
              f"{row['p50_us']:7.1f} us {row['p90_us']:7.1f} us")
        if row["threads_ended_mid_batch"] or row["notifications_received"]:
            print(f"    note: {row['threads_ended_mid_batch']} threads ended mid-batch (CPU undercounted), "
                  f"{row['notifications_received']} notifications received")
    for ratio in result["ratios"]:
        goal = ""
        if "goal_at_most" in ratio:
            goal = f"  goal <= {ratio['goal_at_most']}x: {'met' if ratio['met'] else 'MISSED'}"
        print(f"  {ratio['era']:10} {ratio['ratio']:46} {ratio['value']:7.3f}x{goal}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=500, help="sequential calls per server per round (default 500)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds (default 9)")
    parser.add_argument("--eras", choices=[HANDSHAKE, "both"], default="both",
                        help=f"measure bare and Parlance on {HANDSHAKE} only, or on {MODERN} too (default)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    if not Path("/proc/self/task").is_dir():
        print("per_call.py reads CPU time from /proc: Linux only", file=sys.stderr)
        return 2
    ensure_peer()
    try:
        result = measure(args.calls, args.rounds, [HANDSHAKE] if args.eras == HANDSHAKE else [HANDSHAKE, MODERN])
    except BenchmarkFailed as failure:
        print(f"per_call.py: FAILED: {failure}", file=sys.stderr)
        return 2
    publish(result, RESULTS, as_json=args.json, print_table=print_table)
    return 0 if all(r.get("met", True) for r in result["ratios"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
