"""How the cost of one delete call grows with its size: 250 to 1,000 keys deleted from a 20,000-key file
and its source locale's, in every writable format, through plan + apply as `i18n_delete_keys` makes it.

    uv run python bench/delete_scaling.py [--runs 3] [--keys 20000] [--sizes 250 500 1000]
                                          [--formats yaml android ...] [--budget 30] [--json]

Per format, the project of `bench/write_scaling.py` (an English source and a German target of `--keys`
messages, laid out as the format's projects are) is generated in a temporary folder; the keys deleted
are spread over the whole file (seeded). Each run starts from the same bytes and measures, in this
process (imports and CLDR data loaded before, as a running server has them):

- `delete`: `plan_delete_keys` over both locales with fresh `ProjectLocale`s, then `apply` (reads both
  files, deletes every key from each Document, serializes each once, writes both atomically);
- `floor`: the format's own `read` of the target file, twice (a delete parses both files);
- per key: (delete - floor) / keys, and the marginal cost, what each key added since the size
  before cost. A delete linear in its size keeps the marginal cost flat from one size to the next (a
  delete that parsed the file again per key would see it grow with every size).

Figures are medians of `--runs`. A size whose first run takes longer than `--budget` seconds ends its
format. Goal (issue 22): 1,000 keys deleted in <= 2 s in every format, per-key cost flat. Results also
go to bench/results/delete_scaling.json.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from write_scaling import SHAPES, build, messages, run_scaling  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "delete_scaling.json"
GOAL_SIZE, GOAL_SECONDS = 1000, 2.0
SIZES = (250, 500, 1000)


def _keys_to_delete(name: str, keys: int, count: int) -> list[str]:
    """`count` of the project's keys, spread over the file, as `i18n_delete_keys` names them."""
    every, _ = messages(keys, 0, SHAPES[name].spell)
    chosen = sorted(random.Random(23).sample(range(keys), count))
    return [every[number].en if name == "po" else every[number].key for number in chosen]  # PO: msgids are keys


def measure(name: str, keys: int, sizes: list[int], runs: int, budget: float) -> dict[str, Any]:
    from parlance_i18n import formats
    from parlance_i18n.locales import parse_locale
    from parlance_i18n.loop.writes import apply, plan_delete_keys
    from parlance_i18n.model.project import ProjectLocale

    fmt = formats.get(name)
    de = parse_locale("de")
    rows: list[dict[str, Any]] = []
    order = _keys_to_delete(name, keys, max(sizes))
    with tempfile.TemporaryDirectory() as folder:
        target, _, project = build(Path(folder), name, keys, 0)
        files = sorted({file.path for locale in project.locales.values() for file in locale.files})
        originals = {path: path.read_bytes() for path in files}

        def fresh() -> list[ProjectLocale]:
            return [ProjectLocale(locale.tag, list(locale.files)) for locale in project.locales.values()]

        def delete(chosen: list[str]) -> float:
            for path, data in originals.items():
                path.write_bytes(data)
            started = time.perf_counter()
            done = apply(plan_delete_keys(fresh(), chosen))
            elapsed = time.perf_counter() - started
            deleted = {outcome.key for outcome in done.outcomes if outcome.status == "written"}
            if len(deleted) != len(chosen):
                refused = [o for o in done.outcomes if o.status != "written"][:3]
                raise SystemExit(f"{name}: {len(chosen) - len(deleted)} keys not deleted: {refused}")
            return elapsed

        delete(order[:10])  # warm up: imports, CLDR data, the format's first use
        over_budget = False
        for size in sizes:
            if over_budget:
                rows.append({"keys": size, "skipped": True})
                continue
            chosen = order[:size]
            deletes = [delete(chosen)]
            if deletes[0] > budget:
                over_budget = True
            else:
                deletes += [delete(chosen) for _ in range(runs - 1)]
            floors = []
            target_bytes = originals[target]
            for _ in range(len(deletes)):
                started = time.perf_counter()
                fmt.read(target_bytes, de)
                fmt.read(target_bytes, de)
                floors.append(time.perf_counter() - started)
            delete_s, floor_s = statistics.median(deletes), statistics.median(floors)
            rows.append({"keys": size, "runs": len(deletes), "delete_s": delete_s, "floor_s": floor_s,
                         "per_key_us": (delete_s - floor_s) / size * 1e6, "over_budget": deletes[0] > budget})
        for path, data in originals.items():
            path.write_bytes(data)
    timed = [row for row in rows if "delete_s" in row]
    for previous, row in zip(timed, timed[1:], strict=False):
        row["marginal_us"] = (row["delete_s"] - previous["delete_s"]) / (row["keys"] - previous["keys"]) * 1e6
    goal = next((row for row in rows if row["keys"] == GOAL_SIZE), None)
    met = None if goal is None else "delete_s" in goal and not goal["over_budget"] and goal["delete_s"] <= GOAL_SECONDS
    return {"file_bytes": len(originals[target]), "sizes": rows, "goal_met": met}


def print_table(result: dict[str, Any]) -> None:
    print(f"keys deleted from a {result['keys']:,}-key file and its source, plan + apply, median of {result['runs']} "
          f"runs (Python {result['python']}); per key = (delete - floor) / keys; marginal = what each key added "
          "since the size before cost")
    print(f"  {'format':14} {'file':>8} {'keys':>6} {'delete':>10} {'floor':>9} {'per key':>10} {'marginal':>10}")
    for name, found in result["formats"].items():
        for row in found["sizes"]:
            if row.get("skipped"):
                print(f"  {name:14} {'':>8} {row['keys']:6,} {'skipped: the size before took over the budget'}")
                continue
            marginal = f"{row['marginal_us']:7.0f} us" if "marginal_us" in row else ""
            over = " (1 run, over budget)" if row["over_budget"] else ""
            print(f"  {name:14} {found['file_bytes'] / 1e6:6.2f}MB {row['keys']:6,} {row['delete_s']:8.3f} s "
                  f"{row['floor_s'] * 1000:6.1f} ms {row['per_key_us']:7.0f} us {marginal:>10}{over}")
        verdict = "not measured" if found["goal_met"] is None else "met" if found["goal_met"] else "NOT met"
        print(f"  {name:14} goal {GOAL_SIZE:,} keys <= {GOAL_SECONDS:.0f} s: {verdict}")


def main() -> int:
    return run_scaling(__doc__.split("\n\n")[0], measure, print_table, RESULTS, runs=3, sizes=SIZES)


if __name__ == "__main__":
    sys.exit(main())
