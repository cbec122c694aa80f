"""Every benchmark on two commits in one run: what a change did to the figures the benchmarks print.

    uv run python bench/before_after.py --base REV [--rounds 3] [--only NAME ...] [--quick]

A refactoring promises "within noise of before"; this is how that is measured. The base commit is
checked out into a temporary git worktree with its own environment (`uv sync --locked` there), and
each benchmark script runs as a process in both trees, alternating and swapping the order every round
so that drift in the machine hits both alike. Each script is run as its own docstring says (same
arguments in both trees; `--quick` passes smaller sizes where a script takes them).

Benchmarks print their own figures in their own shapes, so the comparison is by position: each
output line of the current tree is paired with the same line of the base tree, and every number
followed by a time unit (s, ms, µs, us, ns) is paired with the number at the same place. A line whose
text (numbers masked) or count of times differs is counted and left out, never guessed, and a line
that states a goal or a bound (`goal`, `<`, `≤`) holds no measurement. For each benchmark
the table gives the median over rounds of after/before for every timed figure, summarised as the
median and the range over its figures; the JSON file under bench/results/ keeps every figure.

A benchmark's peer (json.load, a bare server, another library) is timed in the same process beside
Parlance, so its after/before ratio is the noise floor of that round: a figure of Parlance's that
moves no more than its peer's did has not moved.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reporting import publish  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "bench" / "results" / "before_after.json"

# name -> (arguments in both trees, smaller arguments for --quick, extra `uv run` options)
BENCHES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "startup": (["9"], ["5"], []),
    "i18n_translate": ([], ["--rounds", "5", "--calls", "5000"], ["--with", "fluent.runtime"]),
    "i18n_project": (["--runs", "5"], ["--runs", "3", "--locales", "10"], []),
    "i18n_missing": ([], ["--runs", "9"], []),
    "i18n_set_messages": ([], ["--runs", "9"], []),
    "po_read": ([], ["--runs", "5"], []),
    "i18n_stdio": (["--calls", "1000"], ["--calls", "500"], []),
    "per_call": (["--rounds", "5"], ["--rounds", "3", "--calls", "300"], []),
    "http_modes": (["--rounds", "4"], ["--rounds", "2", "--seconds", "1"], []),
    "strings_admin_overhead": ([], ["--samples", "200", "--warmup", "30"], []),
    "i18n_amplification": (["--runs", "3"], ["--runs", "1"], []),
    "translation_vs_peer": ([], ["--rounds", "10", "--big-rounds", "5"], []),
}

_TIMED = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(ns|µs|us|ms|s)\b")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


_THRESHOLD = re.compile(r"goal|[<>≤≥]")
"""A line that states a goal or a bound (`goal <= 200 ms`, `p99 < 50 ms`): its times are not measurements."""


def timed_figures(line: str) -> list[float]:
    """The measured times of `line`, in the order written (units are the same in both trees); none for a
    line that states a goal or a bound."""
    if _THRESHOLD.search(line):
        return []
    return [float(number.replace(",", "")) for number, _ in _TIMED.findall(line)]


def pair_outputs(after: str, before: str) -> tuple[dict[str, float], int]:
    """after/before for every timed figure the two outputs print at the same place, keyed by line and
    position; and how many lines were left out because their figures did not pair."""
    ratios: dict[str, float] = {}
    unpaired = 0
    for index, (line_after, line_before) in enumerate(zip(after.splitlines(), before.splitlines())):
        figures_after, figures_before = timed_figures(line_after), timed_figures(line_before)
        label = " ".join(_NUMBER.sub("#", line_after).split())[:60]  # the same in every round (padding too)
        if len(figures_after) != len(figures_before) or label != " ".join(_NUMBER.sub("#", line_before).split())[:60]:
            unpaired += 1  # another line, or another shape: never paired by guess
            continue
        for position, (a, b) in enumerate(zip(figures_after, figures_before)):
            if b > 0:
                ratios[f"{index}:{position} {label}"] = a / b
    return ratios, unpaired


def run_bench(tree: Path, name: str, arguments: list[str], uv_options: list[str]) -> str:
    """The script's output. Exit 1 with output is a run that missed one of its goals (the benchmarks say so
    in their exit status), which still has figures; any other failure is tried once more (a first run may
    set up its peer's environment), then RuntimeError with the end of its stderr."""
    command = ["uv", "run", "--quiet", *uv_options, "python", f"bench/{name}.py", *arguments]
    for attempt in (1, 2):
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True, timeout=1800,
                              env={**os.environ, "UV_PROJECT_ENVIRONMENT": str(tree / ".venv")})
        if done.returncode == 0 or (done.returncode == 1 and done.stdout.strip() and "Traceback" not in done.stderr):
            return done.stdout
    raise RuntimeError(f"{name} failed in {tree} (exit {done.returncode}): {done.stderr[-2000:]}")


def base_tree(rev: str, where: Path) -> Path:
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(where), rev], cwd=ROOT, check=True)
    subprocess.run(["uv", "sync", "--locked", "--quiet"], cwd=where, check=True,
                   env={**os.environ, "UV_PROJECT_ENVIRONMENT": str(where / ".venv")})
    return where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare with (e.g. the one before a change)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=sorted(BENCHES), help="these benchmarks (default: all)")
    parser.add_argument("--quick", action="store_true", help="smaller sizes where a script takes them")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.only or list(BENCHES)
    result: dict[str, Any] = {"base": args.base, "head": _head(), "rounds": args.rounds, "benchmarks": {}}
    with tempfile.TemporaryDirectory(prefix="parlance-base-") as temp:
        base = base_tree(args.base, Path(temp) / "base")
        try:
            for name in names:
                arguments, quick, uv_options = BENCHES[name]
                per_round: list[dict[str, float]] = []
                unpaired = 0
                try:
                    for round_index in range(args.rounds):
                        trees = [ROOT, base] if round_index % 2 == 0 else [base, ROOT]
                        outputs = {tree: run_bench(tree, name, quick if args.quick else arguments, uv_options)
                                   for tree in trees}
                        ratios, skipped = pair_outputs(outputs[ROOT], outputs[base])
                        per_round.append(ratios)
                        unpaired += skipped
                except (RuntimeError, subprocess.TimeoutExpired) as exc:  # one benchmark's failure is reported, the rest run
                    result["benchmarks"][name] = {"failed": str(exc)[-500:]}
                    print(f"  {name}: failed", file=sys.stderr)
                    continue
                result["benchmarks"][name] = _summary(per_round, unpaired)
                RESULT.parent.mkdir(exist_ok=True)
                RESULT.write_text(json.dumps(result, indent=2) + "\n")  # what is done so far, should a later one hang
                print(f"  {name}: done", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
            shutil.rmtree(base, ignore_errors=True)
    publish(result, RESULT, as_json=args.json, print_table=_print_table)
    return 0


def _summary(per_round: list[dict[str, float]], unpaired: int) -> dict[str, Any]:
    keys = set.intersection(*(set(r) for r in per_round)) if per_round else set()
    figures = {key: statistics.median(r[key] for r in per_round) for key in sorted(keys)}
    values = list(figures.values())
    return {"figures": figures, "unpaired_lines": unpaired,
            "median": statistics.median(values) if values else None,
            "min": min(values, default=None), "max": max(values, default=None)}


def _print_table(result: dict[str, Any]) -> None:
    print(f"after/before, {result['head'][:10]} vs {result['base'][:10]}, median of {result['rounds']} "
          "alternated rounds per figure (1.00 = unchanged; the peer's own figures show the noise)")
    print(f"  {'benchmark':<24} {'figures':>7} {'median':>7} {'range':>15}")
    for name, summary in result["benchmarks"].items():
        if "failed" in summary:
            print(f"  {name:<24} failed: {summary['failed'].splitlines()[0][:80]}")
            continue
        if summary["median"] is None:
            print(f"  {name:<24} {'0':>7}   (no timed figure paired)")
            continue
        print(f"  {name:<24} {len(summary['figures']):>7} {summary['median']:>7.2f} "
              f"{summary['min']:>7.2f}–{summary['max']:<7.2f}")


def _head() -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
