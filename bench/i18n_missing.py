"""The read side of the localization loop on a 20,000-key locale, beside a plain `json.load` of the same file.

    uv run python bench/i18n_missing.py [--runs 21] [--keys 20000] [--limit 50]

Generates an i18next project in a temporary folder: `en.json` with `--keys` messages shaped like a real
app's (nested keys; mostly plain text, some with a `{{name}}`, some plural groups) and a `de.json`
with nothing in it. Each run starts cold, as a stateless tool call does: the project is discovered
again, both locales read again, the glossary and style notes loaded from the shipped `de` language
pack, then:

- `first page`: `work_items(limit=50)` (everything is missing: the first 50 keys, and a look for the
  51st for the next cursor) and `render_prompt` of that page: what `i18n_missing` does;
- `json.load`: reading and parsing `en.json` with the standard library, nothing else.

Also measured, for the record (no goal): the same first page when all but the last `--limit` keys
are translated (the example index is then built over 19,950 translations), and `catalog_status` of
the everything-missing locale. Goal (issue 14): the first page in <= 100 ms. Medians (and p90) of
`--runs` runs in one process, after one warm-up run that pays the imports and CLDR data once.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "language_packs" / "src" / "parlance_language_packs"

WORDS = ("order cart item photo upload account delivery address payment card total price discount code "
         "message review settings profile password email notification wishlist product size colour return "
         "refund shipping store help support search filter").split()


def messages(count: int, seed: int = 7) -> dict[str, str]:
    """Flat i18next keys -> texts: 80 % plain, 15 % with a variable, 5 % plural groups (two keys each)."""
    rng = random.Random(seed)
    found: dict[str, str] = {}
    number = 0
    while len(found) < count:
        number += 1
        key = f"section{number % 40}.group{number % 7}.key_{number:05d}"
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 7))).capitalize()
        shape = rng.random()
        if shape < 0.05 and len(found) + 2 <= count:
            found[f"{key}_one"] = f"{{{{count}}}} {words}"
            found[f"{key}_other"] = f"{{{{count}}}} {words}s"
        elif shape < 0.20:
            found[key] = f"{words}, {{{{name}}}}"
        else:
            found[key] = words
    return found


def _base(key: str) -> str:
    """The message a flat key belongs to (`x_one` and `x_other` are one plural group)."""
    return key.rsplit("_", 1)[0] if key.endswith(("_one", "_other")) else key


def nested(flat: dict[str, str]) -> dict[str, object]:
    root: dict[str, object] = {}
    for key, text in flat.items():
        node = root
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})  # type: ignore[assignment]
        node[leaf] = text
    return root


def timed(function: Callable[[], object], runs: int) -> list[float]:
    function()  # warm-up: imports, CLDR data, the template
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        found.append((time.perf_counter() - started) * 1000)
    return found


def report(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"{label:<48} median {statistics.median(samples):7.1f} ms   p90 {p90:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args()

    from parlance import LanguagePack, LanguagePacks

    from parlance_i18n.locales import parse_locale
    from parlance_i18n.loop.glossary import load_glossary
    from parlance_i18n.loop.lockfile import SourceLock
    from parlance_i18n.loop.prompting import render_prompt
    from parlance_i18n.loop.status import catalog_status
    from parlance_i18n.loop.workitems import work_items
    from parlance_i18n.model.project import Project
    from parlance_i18n.settings import CatalogSource

    source = messages(args.keys)
    packs = LanguagePacks("i18n", [LanguagePack(name="de", path=PACKS / "de", languages=["de"])])
    en, de = parse_locale("en"), parse_locale("de")
    with tempfile.TemporaryDirectory() as folder:
        missing_root, almost_root = Path(folder) / "missing", Path(folder) / "almost"
        bases = list(dict.fromkeys(_base(key) for key in source))
        untouched = set(bases[-args.limit:])
        translated = {key: f"DE {text}" for key, text in source.items() if _base(key) not in untouched}
        for root, target in ((missing_root, {}), (almost_root, translated)):
            root.mkdir()
            (root / "en.json").write_text(json.dumps(nested(source), ensure_ascii=False, indent=2), encoding="utf-8")
            (root / "de.json").write_text(json.dumps(nested(target), ensure_ascii=False, indent=2), encoding="utf-8")
        size = (missing_root / "en.json").stat().st_size

        def first_page(root: Path) -> Callable[[], object]:
            def run() -> object:
                project = Project([CatalogSource(path=root / "{locale}.json", format="i18next", name="web")], en)
                lock = SourceLock(root / "parlance-i18n.lock")
                glossary, notes = load_glossary(de, packs, [])
                items, cursor = work_items(project.locales["en"], project.locales["de"], glossary,
                                           limit=args.limit, cursor=None, lock=lock)
                assert len(items) == args.limit, len(items)
                return render_prompt(items, de, notes, packs, source_tag=en), cursor
            return run

        def plain_json() -> object:
            with open(missing_root / "en.json", encoding="utf-8") as stream:
                return json.load(stream)

        def status() -> object:
            project = Project([CatalogSource(path=missing_root / "{locale}.json", format="i18next", name="web")], en)
            return catalog_status(project, project.locales["en"], project.locales["de"],
                                  SourceLock(missing_root / "parlance-i18n.lock"), limit=50)

        page = timed(first_page(missing_root), args.runs)
        plain = timed(plain_json, args.runs)
        almost = timed(first_page(almost_root), args.runs)
        whole = timed(status, max(5, args.runs // 4))
    print(f"{args.keys:,} keys in en.json ({size / 1e6:.1f} MB), first page of {args.limit}, "
          f"{args.runs} runs, Python {sys.version.split()[0]}")
    print(report("i18n_missing first page, everything missing", page))
    print(report("json.load of en.json", plain))
    print(report(f"i18n_missing first page, {args.limit} missing", almost))
    print(report("i18n_status, everything missing", whole))
    goal = statistics.median(page)
    print(f"goal: first page <= 100 ms: {'met' if goal <= 100 else 'NOT met'} ({goal:.1f} ms, "
          f"{goal / statistics.median(plain):.1f}x json.load)")


if __name__ == "__main__":
    main()
