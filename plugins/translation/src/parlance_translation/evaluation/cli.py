"""`parlance eval translation [--slice S] [--json] [--rehash]`: run the eval corpus; non-zero on failure."""

from __future__ import annotations

import argparse
import json
import sys

from parlance_translation.evaluation import runner


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pack", choices=["translation"], help="the pack whose eval corpus to run")
    parser.add_argument("--slice", action="append", choices=sorted(runner.SLICES), dest="slices",
                        help="run only this slice (repeatable); default: all")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--rehash", action="store_true",
                        help="re-record each example's prompt_sha256 after a template change (review the "
                             "reference replies against the new prompt first), then run")


def run(args: argparse.Namespace, *, pack: object) -> int:
    """Run the eval corpus against `pack`, the translation pack's hook module (the pack binds it)."""
    import anyio

    names = args.slices or list(runner.SLICES)
    try:
        corpus = runner.corpus_dir()
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.rehash:
        changed = runner.rehash(corpus, names)
        print(f"re-recorded prompt_sha256 for {changed} example(s)", file=sys.stderr)
    report = anyio.run(runner.run_eval, pack, names, corpus)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        for sliced in report.slices:
            status = "ok" if not sliced.failures else f"FAILED ({len(sliced.failures)})"
            print(f"{sliced.identifier}: {sliced.examples} examples, {sliced.checks} checks: {status}")
            for failure in sliced.failures:
                print(f"  {failure.example} [{failure.check}] {failure.problem}")
        print("ok" if report.ok else "eval failed")
    return 0 if report.ok else 1
