"""`i18n_set_messages` of 50 messages into a 20,000-key i18next file, beside a plain JSON read-modify-write.

    uv run python bench/i18n_set_messages.py [--runs 21] [--keys 20000] [--messages 50]

Generates a project in a temporary folder: `en` and `de` i18next files (nested, two-space indented,
messages shaped like a real app's: mostly plain text, some with `{{name}}`, some plural groups),
`de` missing the keys that are then written. Each run starts from the same `de` bytes and measures,
in this process (imports and CLDR data are loaded once before, as a running server has them):

- `json read-modify-write`: `json.loads` of the `de` file, the messages set in the nested dict,
  `json.dumps(indent=2, ensure_ascii=False)` and a plain write: the floor of any writer, which
  validates nothing, keeps no formatting it did not make, and is not atomic;
- `plan`: `plan_set_messages` with fresh `ProjectLocale`s (reads `en` and `de` from disk, finds each
  key's file, applies the messages to the Document, reads the new bytes back, validates each one);
- `apply`: `apply` of that plan (atomic replace with fsync, under the file's locks);
- `plan + apply`: the two together, what one `i18n_set_messages` call costs besides MCP.

A fifth of the messages are plural groups (one/other for `de`), so 60 keys of the file are written.
Medians of `--runs`. Goal (issue 14): plan + apply <= 200 ms p50.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def build(root: Path, keys: int, count: int, replace: bool) -> dict[str, Any]:
    """Write en and de; return the messages to set: de translations of keys de lacks, or (`replace`)
    of keys de has with another text."""
    rng = random.Random(14)
    en: dict[str, Any] = {}
    de: dict[str, Any] = {}
    missing: dict[str, Any] = {}
    per_group = 50
    written = 0
    wanted = set(rng.sample(range(keys), count))
    while written < keys:
        section = f"section{written // (per_group * 20)}"
        group = f"group{(written // per_group) % 20}"
        en_group = en.setdefault(section, {}).setdefault(group, {})
        de_group = de.setdefault(section, {}).setdefault(group, {})
        name = f"key_{written:05d}"
        dotted = f"{section}.{group}.{name}"
        shape = written % 10
        if shape == 0:
            en_group[f"{name}_one"], en_group[f"{name}_other"] = "{{count}} item", "{{count}} items"
            translation: Any = {"one": "{{count}} Artikel", "other": "{{count}} Artikel"}
        elif shape in (1, 2):
            en_group[name] = f"Hello {{{{name}}}}, you have a new message ({written})"
            translation = f"Hallo {{{{name}}}}, Sie haben eine neue Nachricht ({written})"
        else:
            en_group[name] = f"Your cart is empty, item {written}"
            translation = f"Ihr Warenkorb ist leer, Artikel {written}"
        if written in wanted:
            missing[dotted] = translation
            if not replace:
                written += 1
                continue
            translation = ({k: f"{v} (alt)" for k, v in translation.items()} if isinstance(translation, dict)
                           else f"{translation} (alt)")
        if isinstance(translation, dict):
            de_group[f"{name}_one"], de_group[f"{name}_other"] = translation["one"], translation["other"]
        else:
            de_group[name] = translation
        written += 1
    for code, tree in (("en", en), ("de", de)):
        (root / code).mkdir(parents=True)
        (root / code / "translation.json").write_text(json.dumps(tree, indent=2, ensure_ascii=False) + "\n",
                                                      encoding="utf-8")
    return missing


def plain_write(path: Path, messages: dict[str, Any]) -> None:
    tree = json.loads(path.read_text(encoding="utf-8"))
    for dotted, value in messages.items():
        *parents, name = dotted.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        if isinstance(value, dict):
            for category, text in value.items():
                node[f"{name}_{category}"] = text
        else:
            node[name] = value
    with path.open("w", encoding="utf-8") as stream:
        stream.write(json.dumps(tree, indent=2, ensure_ascii=False) + "\n")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--messages", type=int, default=50)
    parser.add_argument("--mode", choices=("add", "replace", "both"), default="both",
                        help="add: de lacks the keys (the `i18n_missing` loop); replace: de has them with other text")
    args = parser.parse_args()
    print(f"{args.messages} messages into a {args.keys:,}-key i18next file, median of {args.runs} runs "
          f"(Python {sys.version.split()[0]}):")
    for mode in ("add", "replace") if args.mode == "both" else (args.mode,):
        measure(args, mode == "replace")


def measure(args: argparse.Namespace, replace: bool) -> None:
    from parlance_i18n.locales import parse_locale
    from parlance_i18n.loop.writes import apply, plan_set_messages
    from parlance_i18n.model.project import Project, ProjectLocale
    from parlance_i18n.settings import CatalogSource

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        messages = build(root, args.keys, args.messages, replace)
        target = root / "de" / "translation.json"
        original = target.read_bytes()
        project = Project([CatalogSource(path=root / "{locale}" / "translation.json", format="i18next")],
                          parse_locale("en"))

        def fresh(code: str) -> ProjectLocale:
            locale = project.locales[code]
            return ProjectLocale(locale.tag, list(locale.files))

        # Warm up: imports, CLDR data, the format's first use (a running server has paid these).
        apply(plan_set_messages(fresh("de"), fresh("en"), messages))
        target.write_bytes(original)

        plain: list[float] = []
        plans: list[float] = []
        applies: list[float] = []
        totals: list[float] = []
        for _ in range(args.runs):
            target.write_bytes(original)
            started = time.perf_counter()
            plain_write(target, messages)
            plain.append(time.perf_counter() - started)

            target.write_bytes(original)
            os.sync()
            started = time.perf_counter()
            plan = plan_set_messages(fresh("de"), fresh("en"), messages)
            planned = time.perf_counter()
            done = apply(plan)
            finished = time.perf_counter()
            assert done.count("written") == len(messages), [o for o in done.outcomes if o.status != "written"]
            plans.append(planned - started)
            applies.append(finished - planned)
            totals.append(finished - started)

        print(f"- {'replacing existing translations' if replace else 'adding missing keys'} "
              f"({len(original) / 1e6:.2f} MB file):")
        rows = [("json read-modify-write", plain), ("plan (read en + de, write in memory, read back, validate)", plans),
                ("apply (atomic replace, fsync)", applies), ("plan + apply", totals)]
        for label, samples in rows:
            print(f"  {label:<60} {median_ms(samples):8.1f} ms")
        print(f"  plan + apply / json read-modify-write: {statistics.median(totals) / statistics.median(plain):.1f}x; "
              f"goal plan + apply <= 200 ms: {'met' if median_ms(totals) <= 200 else 'NOT met'}")


if __name__ == "__main__":
    main()
