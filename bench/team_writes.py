"""What a team server costs per call, in one run: a JWT on every call, and the shared engine on every write.

    uv run python bench/team_writes.py [--seconds 2] [--rounds 8] [--json]

1. `i18n_translate` over HTTP with a JWT checked (`[auth]`) vs the same server without auth: exactly
   bench/auth_overhead.py's measurement (its servers, client, checks and figures). Goal: p50 <= 1.10x.
2. `i18n_set_messages` over HTTP with the shared engine (`[state] url`: a PostgreSQL of its own, started
   here with fsync on, so a commit waits for the disk as a real one does) vs the embedded default. Two
   `parlance serve --transport http` subprocesses (2025-11-25, stateful, SSE answers), each on a project
   of its own: one catalog `app`, en and fr JSON files of `KEYS` keys. Each call sets one fr key to a new
   text (a real write: the file replaced atomically, fsynced), with an idempotency_key of its own; every
   answer is checked (HTTP 200, one result, `written: 1`). With the shared engine a call also takes the
   file's advisory lock, adds its row to the write log, stores its outcome under the key and notifies
   the other replicas (none listen here: the cost is the writer's), all in one transaction; embedded,
   it takes this process's lock and the folder's flock, and logs one line.

After a warm-up, each round gives each server `--seconds` of calls, one client each, the order
alternating every round (bench/http_modes.py's rounds). Figures: p50/p90 per server, the server's CPU
per call (/proc), and the ratios. Results also go to bench/results/team_writes.json. Linux only (/proc);
needs Node with tests/auth's `npm ci` (the authorization server) and PostgreSQL (initdb, pg_ctl).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import anyio
import httpx

import auth_overhead
from http_modes import BenchmarkFailed, Mode, Record, Server, Worker, free_port, measure_servers
from reporting import publish

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the PostgreSQL and the authorization server the tests use
from tests.auth.authorization_server import missing, running_authorization_server  # noqa: E402
from tests.postgres import fresh_database, own_postgres, postgres_available  # noqa: E402

RESULTS = HERE / "results" / "team_writes.json"
KEYS = 500
ENGINES = ("embedded", "shared")


class ProjectServer(Server):
    """`parlance serve --transport http` on a writable i18n project, with or without `[state] url`."""

    def __init__(self, mode: Mode, folder: Path, database_url: str | None) -> None:
        self.mode = mode
        (folder / "locales").mkdir(parents=True)
        source = {f"key_{n:04d}": f"Message number {n}" for n in range(KEYS)}
        (folder / "locales" / "en.json").write_text(json.dumps(source, indent=2) + "\n")
        (folder / "locales" / "fr.json").write_text(json.dumps({k: f"Message numéro {k}" for k in source},
                                                               indent=2) + "\n")
        state = '[state]\nurl = "${env:PARLANCE_DATABASE_URL}"\n\n' if database_url else ""
        config = folder / "parlance.toml"
        config.write_text(f'{state}[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\nwrite = true\n\n'
                          '[[packs.i18n.catalogs]]\nname = "app"\npath = "locales/{locale}.json"\nformat = "icu-json"\n\n'
                          '[language_packs]\nautoload = false\npaths = []\n')
        port = free_port()
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.stderr_path = folder / "stderr.log"
        env = {name: value for name, value in os.environ.items() if name not in ("PARLANCE_CONFIG", "PARLANCE_PACKS")}
        if database_url:
            env["PARLANCE_DATABASE_URL"] = database_url
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                 "--config", str(config)], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=stderr)


class WriteWorker(Worker):
    """One client setting one fr key per call to a text it never set before, with its own idempotency key."""

    def __init__(self, server: Server, http: httpx.AsyncClient) -> None:
        super().__init__(server, http)
        self.writes = itertools.count()
        self.run = uuid.uuid4().hex[:8]

    async def call(self) -> float:
        n = next(self.writes)
        key = f"key_{n % KEYS:04d}"
        arguments = {"locale": "fr", "messages": {key: f"Message {n} ({self.run})"}, "catalog": "app",
                     "idempotency_key": f"bench-{self.run}-{n}"}
        elapsed, result, _ = await self.call_tool("i18n_set_messages", arguments)
        if not isinstance(result, dict) or result.get("isError") or (result.get("structuredContent") or {}).get(
                "written") != 1:
            raise self.server.fail(f"i18n_set_messages did not write: {json.dumps(result)[:500]}")
        return elapsed


async def measure_writes(folder: Path, database_url: str, seconds: float, rounds: int) -> dict[str, Record]:
    servers: dict[str, Server] = {
        name: ProjectServer(Mode(name, "", stateful=True, json_response=False, resumable=True), folder / name,
                            database_url if name == "shared" else None) for name in ENGINES}
    return await measure_servers(servers, seconds, rounds, 1, lambda _, server, http: [WriteWorker(server, http)])


def summarise_writes(records: dict[str, Record], args: argparse.Namespace) -> dict[str, Any]:
    figures = auth_overhead.figures_of(records)
    return {
        "method": (f"i18n_set_messages of one key over streamable HTTP (SSE answers, 2025-11-25, stateful), one "
                   f"client per server, {args.rounds} rounds of {args.seconds:g} s per server, order alternating; "
                   f"a project of {KEYS} keys per locale; shared: [state] url on a local PostgreSQL with fsync on"),
        "servers": figures,
        "p50_shared_vs_embedded": round(figures["shared"]["p50_ms"] / figures["embedded"]["p50_ms"], 3),
        "server_cpu_shared_vs_embedded": round(figures["shared"]["server_cpu_us_per_call"]
                                               / figures["embedded"]["server_cpu_us_per_call"], 3),
    }


def print_table(result: dict[str, Any]) -> None:
    print(f"python {result['python']}, {result['cpus']} CPUs")
    for part, ratio, label in (("auth", "p50_jwt_vs_no_auth", "jwt / no_auth"),
                               ("writes", "p50_shared_vs_embedded", "shared / embedded")):
        figures = result[part]
        print(f"\n{figures['method']}")
        print(f"  {'server':9} {'p50 ms':>7} {'p90 ms':>7} {'server us/call':>14} {'calls':>7}")
        for name, row in figures["servers"].items():
            print(f"  {name:9} {row['p50_ms']:7.3f} {row['p90_ms']:7.3f} {row['server_cpu_us_per_call']:14.0f} "
                  f"{row['calls']:7d}")
        cpu = ratio.replace("p50_", "server_cpu_")
        print(f"  {label}: p50 {figures[ratio]:.3f}x, server CPU {figures[cpu]:.3f}x"
              + (f" (goal: {figures['goal']})" if "goal" in figures else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of calls per server per round (default 2)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds, the order alternating each (default 8)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    args.workers, args.json_response = 1, False  # auth_overhead's defaults: one client, SSE answers
    problem = (None if Path("/proc/self/stat").is_file() else "team_writes.py reads server CPU time from /proc: "
               "Linux only") or missing() or (None if postgres_available() else "PostgreSQL (initdb, pg_ctl) is "
                                                  "needed for the shared engine: apt-get install postgresql")
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="parlance-team-writes-"))
    try:
        with own_postgres("parlance-team-writes-pg-", fsync=True) as database:
            (folder / "auth").mkdir()
            with running_authorization_server() as issuer:
                auth = anyio.run(auth_overhead.measure, folder / "auth", issuer, args.seconds, args.rounds, 1,
                                 False)
            writes = anyio.run(measure_writes, folder / "writes", fresh_database(database.url), args.seconds,
                               args.rounds)
    except BenchmarkFailed as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    auth_figures = auth_overhead.summarise(auth, args)
    result = {"python": auth_figures.pop("python"), "cpus": auth_figures.pop("cpus"), "auth": auth_figures,
              "writes": summarise_writes(writes, args)}
    publish(result, RESULTS, as_json=args.json, print_table=print_table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
