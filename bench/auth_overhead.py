"""Per-call p50 of `i18n_translate` over HTTP with a JWT checked (`[auth]`) against the same server without auth.

    uv run python bench/auth_overhead.py [--seconds 2] [--rounds 8] [--workers 1] [--json-response] [--json]

Two `parlance serve --transport http` subprocesses (i18n pack only, bench/i18n_stdio.py's config,
2025-11-25, stateful SSE by default or `--json-response`), started once: `no_auth`, and `jwt` with
`[auth]` naming a real authorization server (oauth2-mock-server, tests/auth: `npm ci` there first)
and every request carrying a bearer JWT from its token endpoint, RS256, bound to the server's
`public_url`. The keys are fetched by the warm-up calls, so the rounds measure the steady state:
the accepted-token cache (the signature is checked once per token and minute), the scope check, the
principal on the request and in the access log. The client and the checks of every answer are
bench/http_modes.py's (raw httpx, one keep-alive connection and session per worker).

What it showed (2 CPUs shared with other work): p50 0.89-1.03x with SSE answers, 1.01x with JSON
bodies (three runs). Before the accepted-token cache, checking the signature on every request
(~105 us, half of it pyjwt's base64 decoding in Python) gave 1.22x.

After a warm-up, each round gives each server `--seconds` of calls, the order alternating every round.
Figures: p50/p90 of all calls per server, the server's CPU per call (/proc), and `jwt` over `no_auth`
(p50 ratio; server CPU ratio). Goal: p50 ≤ 1.10×. Results also go to bench/results/auth_overhead.json.
Linux only (/proc).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import httpx

from http_modes import BenchmarkFailed, Mode, Record, Server, Worker, measure_servers
from i18n_stdio import percentile
from reporting import publish

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the authorization server the tests use (tests/auth)
from tests.auth.authorization_server import missing, running_authorization_server  # noqa: E402

RESULTS = HERE / "results" / "auth_overhead.json"
PUBLIC_URL = "http://parlance.bench/mcp"  # the audience: only its string matters to the check


def modes(issuer: str, json_response: bool) -> tuple[Mode, Mode]:
    common = "json_response = true\n" if json_response else ""
    plain = Mode("no_auth", common, stateful=True, json_response=json_response, resumable=not json_response)
    protected = Mode("jwt", f'{common}public_url = "{PUBLIC_URL}"\n\n[auth]\nissuer = "{issuer}"\n', stateful=True,
                     json_response=json_response, resumable=not json_response)
    return plain, protected


async def measure(folder: Path, issuer: Any, seconds: float, rounds: int, workers_per_server: int,
                  json_response: bool) -> dict[str, Record]:
    token = issuer.token(client_id="bench", resource=PUBLIC_URL, scope="parlance:read", subject="bench-user")
    servers = {mode.name: Server(mode, folder / mode.name) for mode in modes(issuer.url, json_response)}

    def workers_of(name: str, server: Server, http: httpx.AsyncClient) -> list[Worker]:
        workers = [Worker(server, http) for _ in range(workers_per_server)]
        for worker in workers if name == "jwt" else ():
            worker.headers["Authorization"] = f"Bearer {token}"
        return workers

    return await measure_servers(servers, seconds, rounds, workers_per_server, workers_of)


def figures_of(records: dict[str, Record]) -> dict[str, dict[str, Any]]:
    """Each server's p50, p90, median server CPU per call and calls (bench/team_writes.py reports the same)."""
    return {name: {"p50_ms": round(statistics.median(r.latencies_ms), 3),
                   "p90_ms": round(percentile(r.latencies_ms, 0.9), 3),
                   "server_cpu_us_per_call": round(statistics.median(r.server_cpu_us), 1),
                   "calls": r.calls} for name, r in records.items()}


def summarise(records: dict[str, Record], args: argparse.Namespace) -> dict[str, Any]:
    figures = figures_of(records)
    plain, jwt = figures["no_auth"], figures["jwt"]
    return {
        "python": sys.version.split()[0], "cpus": os.cpu_count(),
        "method": (f"i18n_translate over streamable HTTP ({'JSON' if args.json_response else 'SSE'} answers, "
                   f"2025-11-25, stateful), {args.workers} worker(s) per server, {args.rounds} rounds of "
                   f"{args.seconds:g} s per server, order alternating; jwt: RS256 bearer token, the same on every call (signature checked once, then the accepted-token cache)"),
        "servers": figures,
        "p50_jwt_vs_no_auth": round(jwt["p50_ms"] / plain["p50_ms"], 3),
        "server_cpu_jwt_vs_no_auth": round(jwt["server_cpu_us_per_call"] / plain["server_cpu_us_per_call"], 3),
        "goal": "p50 <= 1.10x",
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"python {result['python']}, {result['cpus']} CPUs: {result['method']}")
    print(f"\n  {'server':8} {'p50 ms':>7} {'p90 ms':>7} {'server us/call':>14} {'calls':>7}")
    for name, row in result["servers"].items():
        print(f"  {name:8} {row['p50_ms']:7.3f} {row['p90_ms']:7.3f} {row['server_cpu_us_per_call']:14.0f} "
              f"{row['calls']:7d}")
    print(f"\n  jwt / no_auth: p50 {result['p50_jwt_vs_no_auth']:.3f}x, server CPU "
          f"{result['server_cpu_jwt_vs_no_auth']:.3f}x (goal: {result['goal']})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of calls per server per round (default 2)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds, the order alternating each (default 8)")
    parser.add_argument("--workers", type=int, default=1, help="concurrent clients per server (default 1)")
    parser.add_argument("--json-response", action="store_true", help="both servers answer with JSON bodies")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    if not Path("/proc/self/stat").is_file():
        print("auth_overhead.py reads server CPU time from /proc: Linux only", file=sys.stderr)
        return 2
    if (problem := missing()) is not None:
        print(problem, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, running_authorization_server() as issuer:
        try:
            records = anyio.run(measure, Path(tmp), issuer, args.seconds, args.rounds, args.workers,
                                args.json_response)
        except BenchmarkFailed as exc:
            print(f"benchmark failed: {exc}", file=sys.stderr)
            return 2
    publish(summarise(records, args), RESULTS, as_json=args.json, print_table=print_table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
