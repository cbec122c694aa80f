"""Opening a real-sized project: 20 locales x 20,000 keys of JSON catalogs, beside a plain `json.load`.

    uv run python bench/i18n_project.py [--runs 5] [--locales 20] [--keys 20000] [--format icu-json|i18next]

Generates the project (nested JSON, one file per locale, messages shaped like a real app's: mostly
plain text, some with an argument, some plurals) in a temporary folder, then, each measurement in
a fresh process so nothing is warm but the imports:

- `json.load`: reading and parsing every file with the standard library, keeping nothing else:
  the floor any loader pays;
- `open + first translate`: `Catalog.from_settings` with one `[[packs.i18n.catalogs]]` entry, a
  session's `Translator`, and the first `i18n_translate` of a key in `de` (which reads `de` and the
  chain's `en`, and nothing else);
- memory: RSS after that, minus RSS before opening, per message held (the two locales read); the
  CLDR data and modules a first render loads are paid before, by a 10-key project of the same
  locales, since they cost the same whatever the project's size;
- `i18n_check` over every locale (reads and validates all 20, compiles what the check needs),
  with RSS per message after it.

Goals (issue 13): open + first translate <= 3x json.load; <= 300 bytes RSS per message held;
i18n_check of all 20 locales <= 2 s (an absolute goal, reported beside json.load of the same files).
Medians of `--runs` fresh processes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LOCALES = ["en", "de", "fr", "es", "it", "pt-BR", "ru", "pl", "ja", "zh-Hans", "ko", "ar", "tr", "nl", "sv",
           "cs", "uk", "he", "hi", "id", "vi", "th", "da", "fi"]

WORKER = r"""
import gc, json, sys, time
from pathlib import Path

def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0

root, fmt, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
files = sorted(root.glob("*/translation.json"))
if what == "json":
    started = time.perf_counter()
    data = [json.load(open(f, encoding="utf-8")) for f in files]
    print(json.dumps({"seconds": time.perf_counter() - started}))
    sys.exit()

from parlance_i18n.model.catalog import Catalog
from parlance_i18n.tools.engine import check_all  # what i18n_check runs: each catalog with i18n_status's counts
from parlance_i18n.settings import I18nSettings
from parlance_i18n.model.translator import Translator
from parlance_i18n import formats
formats.get(fmt)  # imports are not what is measured
import parlance_i18n.icu.messageformat, parlance_i18n.icu.plurals
def project(folder):
    settings = I18nSettings(default_locale="en", catalogs=[{"path": str(folder / "{locale}" / "translation.json"),
                                                              "format": fmt}])
    return settings

# What every project pays once, whatever its size, is not per message: the CLDR data of de and en and
# the modules a first render imports. A 10-key project of the same locales pays it first.
warm = Translator(Catalog.from_settings(project(Path(sys.argv[4]))))
warm.prepare("de")
warm.translate("section1.group2.key_00001", "de", {"name": "Ana", "count": 3})
settings = project(root)
gc.collect()
before = rss()
started = time.perf_counter()
catalog = Catalog.from_settings(settings)
translator = Translator(catalog)
translator.prepare("de")
found = translator.translate("section1.group2.key_00121", "de", {"name": "Ana", "count": 3})
opened = time.perf_counter() - started
assert not found.fallback, found
gc.collect()
held = sum(len(catalog.bundles[c].messages) for c in ("de", "en"))
after_open = rss()
started = time.perf_counter()
reference, reports = check_all(translator, None, None, 100)
checked = time.perf_counter() - started
gc.collect()
all_held = sum(r.message_count for r in reports)
after_check = rss()
print(json.dumps({"seconds": opened, "held": held, "per_message": (after_open - before) / held,
                  "check_seconds": checked, "all_held": all_held, "per_message_all": (after_check - before) / all_held,
                  "locales": len(reports)}))
"""


def generate(root: Path, locales: list[str], keys: int, fmt: str) -> int:
    """Write one nested JSON file per locale; returns the total size in bytes."""
    rng = random.Random(20261124)
    total = 0
    for locale in locales:
        tree: dict[str, dict[str, dict[str, str]]] = {}
        for i in range(keys):
            section, group = f"section{i % 40}", f"group{i % 7}"
            kind = rng.random()
            words = " ".join(rng.choice(["save", "your", "changes", "before", "leaving", "the", "page", "photo",
                                         "album", "shared", "with", "friends", "settings", "account"])
                             for _ in range(rng.randint(2, 9)))
            node = tree.setdefault(section, {}).setdefault(group, {})
            key = f"key_{i:05d}"
            if kind < 0.7:
                node[key] = f"{words.capitalize()} ({locale})"
            elif kind < 0.9:
                node[key] = (f"Hello {{{{name}}}}, {words}" if fmt == "i18next" else f"Hello {{name}}, {words}")
            elif fmt == "i18next":
                node[f"{key}_one"] = f"{{{{count}}}} {words}"
                node[f"{key}_other"] = f"{{{{count}}}} {words}s"
            else:
                node[key] = f"{{count, plural, one {{# {words}}} other {{# {words}s}}}}"
        folder = root / locale
        folder.mkdir(parents=True)
        text = json.dumps(tree, ensure_ascii=False, indent=2) + "\n"
        (folder / "translation.json").write_text(text, encoding="utf-8")
        total += len(text.encode())
    return total


def run(root: Path, fmt: str, what: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", WORKER, str(root / "big"), fmt, what, str(root / "warm")],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the {what} worker failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--locales", type=int, default=20)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--format", default="icu-json", choices=["icu-json", "i18next"])
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        size = generate(root / "big", LOCALES[: options.locales], options.keys, options.format)
        generate(root / "warm", ["en", "de"], 10, options.format)
        plain, ours = [], []
        for _ in range(options.runs):  # interleaved, so drift on a busy machine hits both alike
            plain.append(run(root, options.format, "json"))
            ours.append(run(root, options.format, "open"))
    floor = statistics.median(r["seconds"] for r in plain)
    opened = statistics.median(r["seconds"] for r in ours)
    check = statistics.median(r["check_seconds"] for r in ours)
    per_message = statistics.median(r["per_message"] for r in ours)
    per_message_all = statistics.median(r["per_message_all"] for r in ours)
    print(f"project: {options.locales} locales x {options.keys:,} keys ({options.format}, {size / 1e6:.1f} MB), "
          f"{options.runs} runs, medians")
    print(f"  json.load of every file            {floor * 1000:8.1f} ms   (floor)")
    print(f"  open + first i18n_translate        {opened * 1000:8.1f} ms   {opened / floor:5.2f}x json.load "
          f"(goal <= 3x)")
    print(f"  RSS per message held (2 locales)   {per_message:8.0f} B    (goal <= 300 B)")
    print(f"  i18n_check, all {ours[0]['locales']} locales          {check * 1000:8.1f} ms   {check / floor:5.2f}x json.load "
          f"(goal <= 2 s)")
    print(f"  RSS per message after the check    {per_message_all:8.0f} B    ({int(ours[0]['all_held']):,} messages)")


if __name__ == "__main__":
    main()
