"""Translation pack vs the published peer `neurodock-mcp-translation==0.3.0`, both over stdio, one run.

    uv run python bench/translation_vs_peer.py [--rounds 30] [--big-rounds 15] [--json]

The peer is installed only in its own virtual environment, bench/.venv-neurodock (created here
with `uv venv` + `uv pip install` on first use; gitignored). Both servers are real subprocesses
spoken to by the same `mcp.Client` over stdio (2025-11-25 handshake); Parlance runs
`parlance serve` with only the translation pack, in baseline mode (deterministic heuristics, no
model — the peer's only mode too). Calls alternate between the two servers, and the order flips
every round, so drift in the machine affects both equally.

Inputs: a 400-character email (translate_incoming, check_tone with a 3-message baseline,
rewrite_outgoing), transcripts of 2,000 and 200,000 characters (brief_meeting). The 200,000-char
transcript comes in two shapes: "dense" (a short meeting repeated: hundreds of asks, so outputs
are capped at 50 per section) and "sparse" (the same meeting scattered through 200k of routine
discussion, under every cap). For scale, each pass also times bench/bare_server.py (a bare
low-level mcp server echoing 400 characters): the floor any server on this SDK pays per call.
Besides the stdio round trips, brief_meeting's in-process baseline
time on 200,000 chars is measured (the ≤ 50 ms p50 goal).

Per call: median (p50) latency in ms for each server, ratio parlance/peer, and whether the call
returned an error. Two passes: as the Python `mcp.Client` sees it (it validates every result's
`structuredContent` against the tool's outputSchema with jsonschema: Parlance publishes the full
contract schema, the peer publishes `{"type": "object"}`), and with that client-side validation
switched off for both servers (transport + server time only). Results also go to
bench/results/translation_vs_peer.json.
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
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".venv-neurodock"
PEER = "neurodock-mcp-translation==0.3.0"
PEER_BIN = PEER_VENV / "bin" / "neurodock-mcp-translation"

EMAIL = (
    "Hi Sam — per my last email, the Q3 rollout figures still need to be updated before Thursday's board "
    "meeting. Could you take a look when you get a chance? I'm not sure everyone is aligned on the migration "
    "script either; someone mentioned it was deprioritised last sprint. No rush, but it's been a while, and "
    "I'd like to circle back next week at the latest. Thanks so much — happy to pair on it tomorrow if useful!"
)[:400]
BASELINE = ["Thanks for the writeup — really useful framing.", "Happy to pair on this tomorrow if helpful.",
            "Good catch on the migration edge case; let's land that fix first."]
MEETING = (
    "Priya: Let's get the rollout date on the calendar. Thomas, can you own the migration script?\n"
    "Thomas: Yes — I'll have it ready by Wednesday.\n"
    "Roberto: We should also think about rollback. Can someone draft the runbook?\n"
    "Priya: We can circle back on that next week.\n"
)
ROUTINE = (
    "Mei: The retention numbers look stable across the cohort this quarter, nothing surprising there.\n"
    "Roberto: The staging cluster was quiet over the weekend and the on-call rota is covered.\n"
    "Priya: Support tickets are down eight percent since the new onboarding flow shipped.\n"
)


def transcript(size: int, shape: str) -> str:
    if shape == "dense":
        return (MEETING * (size // len(MEETING) + 1))[:size]
    # sparse: one meeting block per ~20,000 characters of routine discussion
    parts, length = [], 0
    while length < size:
        chunk = MEETING if len(parts) % 60 == 0 else ROUTINE
        parts.append(chunk)
        length += len(chunk)
    return "".join(parts)[:size]


def ensure_peer() -> None:
    if PEER_BIN.exists():
        return
    print(f"installing {PEER} into {PEER_VENV} (first run only)", file=sys.stderr)
    subprocess.run(["uv", "venv", "--quiet", str(PEER_VENV)], check=True)
    subprocess.run(["uv", "pip", "install", "--quiet", "--python", str(PEER_VENV / "bin" / "python"), PEER],
                   check=True)


def parlance_params(config: Path) -> StdioServerParameters:
    from parlance.testing import stdio_server_params

    return stdio_server_params(config, cwd=config.parent)


def peer_params() -> StdioServerParameters:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "FASTMCP_CHECK_FOR_UPDATES": "off"}
    return StdioServerParameters(command=str(PEER_BIN), args=[], env=env)


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("translate_incoming (400-char email)", "translate_incoming", {"text": EMAIL, "channel": "email"}),
    ("check_tone (400-char email, baseline)", "check_tone",
     {"text": EMAIL, "baseline_messages": BASELINE, "target_register": "warm", "channel": "email"}),
    ("rewrite_outgoing (400-char email)", "rewrite_outgoing",
     {"text": EMAIL, "target_register": "concise", "preserve_terms": ["Q3", "migration script"],
      "channel": "email"}),
    ("brief_meeting (2,000 chars)", "brief_meeting", {"transcript": transcript(2_000, "dense"), "me": "Thomas"}),
    ("brief_meeting (200,000 chars, sparse)", "brief_meeting",
     {"transcript": transcript(200_000, "sparse"), "me": "Thomas"}),
    ("brief_meeting (200,000 chars, dense)", "brief_meeting",
     {"transcript": transcript(200_000, "dense"), "me": "Thomas"}),
]


async def timed(client: Any, tool: str, args: dict[str, Any]) -> tuple[float, bool]:
    started = time.perf_counter()
    result = await client.call_tool(tool, args)
    return (time.perf_counter() - started) * 1000, bool(result.is_error)


async def measure(rounds: int, big_rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "parlance.toml"
        config.write_text('[packs]\nenabled = ["translation"]\n\n[packs.translation]\nmode = "baseline"\n'
                          '\n[host]\nlog_level = "WARNING"\n')
        with open(Path(tmp) / "parlance.err", "w") as ours_err, open(Path(tmp) / "peer.err", "w") as peer_err:
            from mcp.client.stdio import stdio_client

            bare_params = StdioServerParameters(command=sys.executable, args=[str(HERE / "bare_server.py")],
                                                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
            async with Client(stdio_client(parlance_params(config), errlog=ours_err), mode="legacy") as ours, \
                    Client(stdio_client(peer_params(), errlog=peer_err), mode="legacy") as peer, \
                    Client(bare_params, mode="legacy") as bare:
                servers = {"parlance": ours, "peer": peer}
                floor: list[float] = []
                for _ in range(5):
                    await timed(bare, "echo", {"text": EMAIL})
                samples: dict[str, dict[str, list[float]]] = {label: {"parlance": [], "peer": []} for label, *_ in CALLS}
                errors: dict[str, dict[str, bool]] = {label: {"parlance": False, "peer": False} for label, *_ in CALLS}
                for label, tool, args in CALLS:  # warm-up: imports, caches, first JSON schemas
                    for server in servers.values():
                        await timed(server, tool, args)
                for round_number in range(max(rounds, big_rounds)):
                    order = ["parlance", "peer"] if round_number % 2 == 0 else ["peer", "parlance"]
                    if round_number < rounds:
                        floor.append((await timed(bare, "echo", {"text": EMAIL}))[0])
                    for label, tool, args in CALLS:
                        if round_number >= (big_rounds if "200,000" in label else rounds):
                            continue
                        for name in order:
                            elapsed, failed = await timed(servers[name], tool, args)
                            samples[label][name].append(elapsed)
                            errors[label][name] |= failed
    return {"samples": samples, "errors": errors, "floor": floor}


def measure_pass(rounds: int, big_rounds: int, client_validation: bool) -> dict[str, Any]:
    from mcp.client.session import ClientSession

    original = ClientSession.validate_tool_result

    async def skip(self: Any, name: str, result: Any) -> None:
        return None

    if not client_validation:
        ClientSession.validate_tool_result = skip  # type: ignore[method-assign]
    try:
        return anyio.run(measure, rounds, big_rounds)
    finally:
        ClientSession.validate_tool_result = original  # type: ignore[method-assign]


def summarise(measured: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [{"call": "floor: bare mcp echo server (400 chars)", "parlance_p50_ms": None,
             "peer_p50_ms": None, "floor_p50_ms": round(statistics.median(measured["floor"]), 2)}]
    for label, *_ in CALLS:
        ours = statistics.median(measured["samples"][label]["parlance"])
        theirs = statistics.median(measured["samples"][label]["peer"])
        rows.append({"call": label, "parlance_p50_ms": round(ours, 2), "peer_p50_ms": round(theirs, 2),
                     "ratio": round(ours / theirs, 3), "n": len(measured["samples"][label]["parlance"]),
                     "parlance_error": measured["errors"][label]["parlance"],
                     "peer_error": measured["errors"][label]["peer"]})
    return rows


def print_rows(title: str, rows: list[dict[str, Any]]) -> None:
    print(title)
    print(f"  {'call':<40} {'parlance p50':>13} {'peer p50':>10} {'ratio':>7}  n   notes")
    for row in rows:
        if "floor_p50_ms" in row:
            print(f"  {row['call']:<40} {row['floor_p50_ms']:>10.2f} ms   (the SDK's stdio round trip; no work)")
            continue
        notes = []
        if row["parlance_error"]:
            notes.append("parlance returned an error")
        if row["peer_error"]:
            notes.append("peer returned an error")
        print(f"  {row['call']:<40} {row['parlance_p50_ms']:>10.2f} ms {row['peer_p50_ms']:>7.2f} ms "
              f"{row['ratio']:>7.3f}  {row['n']:<3} {'; '.join(notes)}")


def in_process_brief(rounds: int) -> dict[str, float]:
    from parlance_translation.heuristics import meeting
    from parlance_translation.templates import resolve_lexicon

    lexicon = resolve_lexicon("meeting")
    out = {}
    for shape in ("sparse", "dense"):
        text = transcript(200_000, shape)
        timings = []
        for _ in range(rounds):
            started = time.perf_counter()
            meeting.analyse(text, "Thomas", [], lexicon).assemble()
            timings.append((time.perf_counter() - started) * 1000)
        out[shape] = statistics.median(timings)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds for the small inputs")
    parser.add_argument("--big-rounds", type=int, default=15, help="rounds for the 200,000-char transcripts")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    ensure_peer()
    validated = summarise(measure_pass(args.rounds, args.big_rounds, client_validation=True))
    unvalidated = summarise(measure_pass(args.rounds, args.big_rounds, client_validation=False))
    local = in_process_brief(31)
    result = {"peer": PEER, "transport": "stdio, 2025-11-25 handshake, alternating",
              "with_client_validation": validated, "without_client_validation": unvalidated,
              "brief_meeting_200k_in_process_p50_ms": {k: round(v, 2) for k, v in local.items()}}
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "translation_vs_peer.json").write_text(json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print_rows("As mcp.Client sees it (validates structuredContent against each tool's outputSchema):", validated)
    print_rows("Client-side outputSchema validation off for both (transport + server):", unvalidated)
    print("brief_meeting baseline on 200,000 chars, in process (no transport): "
          + ", ".join(f"{shape} {ms:.2f} ms p50" for shape, ms in local.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
