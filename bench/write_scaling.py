"""How the cost of one write grows with its size: 250 to 4,000 new messages into a 20,000-key file, in
every writable format, through plan + apply as `i18n_set_messages` makes them.

    uv run python bench/write_scaling.py [--runs 5] [--keys 20000] [--sizes 250 500 1000 2000 4000]
                                         [--formats yaml android ...] [--budget 30] [--json]

Per format, a project is generated in a temporary folder: an English source and a German (`de`)
target of `--keys` messages (~100 bytes each, in sections and groups as a real app's), the target
lacking the messages then written, laid out the way the format's projects are: new keys for the
formats whose files hold only their own locale's messages, and for gettext PO and XLIFF (every
locale's file lists every message) the untranslated entries filled; `.stringsdict` messages are
plurals (one/other). Each run starts from the same target bytes and measures, in this process
(imports and CLDR data loaded before, as a running server has them):

- `write`: `plan_set_messages` with fresh `ProjectLocale`s, then `apply` (reads en and de, writes
  every message into the Document, serializes once, reads the result back, validates each message,
  writes the file atomically);
- `floor`: the format's own `read` of the target file: a write reads the source file, parses the
  target and reads it back once written, so about three floors is the least a write can cost;
- per key: (write - floor) / messages, and the marginal cost, what each message added since the
  size before cost: (write(n) - write(m)) / (n - m). A write linear in its size keeps the marginal
  cost flat from one size to the next (a write that parsed the file again per message would see it
  grow with every size); `x2` is write(n) / write(n / 2), under 2 when a fixed cost dominates.

Figures are medians of `--runs`. A size whose first run takes longer than `--budget` seconds ends
its format (the larger sizes are listed as skipped). Goal (issue 22): 2,000 messages into a 20,000-key
file in <= 2 s in every format. Results also go to bench/results/write_scaling.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reporting import publish  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "write_scaling.json"
GOAL_SIZE, GOAL_SECONDS = 2000, 2.0
SIZES = (250, 500, 1000, 2000, 4000)

WORDS = ("Warenkorb", "Bestellung", "Konto", "Einstellungen", "Datei", "Ordner", "Nachricht", "leer", "bitte",
         "fügen", "Sie", "Artikel", "hinzu", "um", "mit", "dem", "Bezahlen", "fortzufahren", "gespeichert",
         "geöffnet", "nicht", "werden", "konnte", "weil", "das", "Netzwerk", "gerade", "erreichbar", "ist")


@dataclass
class Message:
    """One message of the generated project: its key in the format, section and group, texts."""

    key: str
    section: str
    group: str
    name: str
    en: str
    de: str


def _text(rng: random.Random, number: int, language: str) -> str:
    """About 100 bytes of sentence, unique by its number."""
    words: list[str] = []
    while sum(len(word) + 1 for word in words) < 88:
        words.append(rng.choice(WORDS))
    sentence = " ".join(words)
    return f"{sentence} ({language} {number:05d})"


def messages(keys: int, new: int, spell: Callable[[str, str, str], str]) -> tuple[list[Message], list[Message]]:
    """(every message, the `new` ones the target lacks), keys spelled by the format's `spell`."""
    rng = random.Random(22)
    every = []
    for number in range(keys + new):
        section, group, name = f"section{number // 1000}", f"group{number // 50 % 20}", f"key{number:05d}"
        every.append(Message(spell(section, group, name), section, group, name,
                             _text(rng, number, "en"), _text(rng, number, "de")))
    missing = set(rng.sample(range(keys + new), new))
    return every, [every[number] for number in sorted(missing)]


# --- one generator per format: (path pattern under the root, {locale: bytes}) -------------------------------


def _dotted(section: str, group: str, name: str) -> str:
    return f"{section}.{group}.{name}"


def _snake(section: str, group: str, name: str) -> str:
    return f"{section}_{group}_{name}"


def _camel(section: str, group: str, name: str) -> str:
    return f"{section}{group.capitalize()}{name.capitalize()}"


def _nested(items: list[Message], value: Callable[[Message], Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for message in items:
        tree.setdefault(message.section, {}).setdefault(message.group, {})[message.name] = value(message)
    return tree


def _json(tree: Any) -> bytes:
    return (json.dumps(tree, indent=2, ensure_ascii=False) + "\n").encode()


def i18next(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    return {"en": _json(_nested(every, lambda m: m.en)), "de": _json(_nested(target, lambda m: m.de))}


def icu_json(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    return {"en": _json({m.key: m.en for m in every}), "de": _json({m.key: m.de for m in target})}


def arb(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    return {"en": _json({"@@locale": "en", **{m.key: m.en for m in every}}),
            "de": _json({"@@locale": "de", **{m.key: m.de for m in target}})}


def xcstrings(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    translated = {m.key for m in target}

    def unit(text: str) -> dict[str, Any]:
        return {"stringUnit": {"state": "translated", "value": text}}

    strings = {m.key: {"localizations": {"en": unit(m.en), **({"de": unit(m.de)} if m.key in translated else {})}}
               for m in every}
    return {"": json.dumps({"sourceLanguage": "en", "strings": strings, "version": "1.0"}, indent=2,
                           ensure_ascii=False, separators=(",", " : ")).encode() + b"\n"}


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def po(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    translated = {m.key for m in target}

    def file(language: str, plural: str, translate: Callable[[Message], str]) -> bytes:
        lines = ['msgid ""', 'msgstr ""', f'"Language: {language}\\n"',
                 '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Plural-Forms: {plural}\\n"', ""]
        for message in every:
            lines += [f"#: app/{message.section}/{message.group}.py:{message.name[3:]}",
                      f"msgid {_po_string(message.en)}", f"msgstr {_po_string(translate(message))}", ""]
        return "\n".join(lines).encode()

    return {"en": file("en", "nplurals=2; plural=(n != 1);", lambda m: ""),
            "de": file("de", "nplurals=2; plural=(n != 1);", lambda m: m.de if m.key in translated else "")}


def xliff(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    translated = {m.key for m in target}

    def file(language: str, with_targets: bool) -> bytes:
        lines = ['<?xml version="1.0" encoding="UTF-8"?>',
                 '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
                 f'  <file source-language="en" {"" if language == "en" else f"target-language={language!r} "}'
                 'datatype="plaintext" original="messages">'.replace("'", '"'),
                 "    <body>"]
        for message in every:
            lines += [f'      <trans-unit id="{message.key}">', f"        <source>{escape(message.en)}</source>"]
            if with_targets and message.key in translated:
                lines.append(f'        <target state="translated">{escape(message.de)}</target>')
            lines.append("      </trans-unit>")
        lines += ["    </body>", "  </file>", "</xliff>", ""]
        return "\n".join(lines).encode()

    return {"en": file("en", False), "de": file("de", True)}


def android(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    def file(items: list[Message], text: Callable[[Message], str]) -> bytes:
        lines = ['<?xml version="1.0" encoding="utf-8"?>', "<resources>"]
        lines += [f'    <string name="{m.key}">{escape(text(m))}</string>' for m in items]
        return "\n".join([*lines, "</resources>", ""]).encode()

    return {"en": file(every, lambda m: m.en), "de": file(target, lambda m: m.de)}


def _strings_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def apple_strings(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    def file(items: list[Message], text: Callable[[Message], str]) -> bytes:
        return "".join(f'"{m.key}" = "{_strings_value(text(m))}";\n' for m in items).encode()

    return {"en": file(every, lambda m: m.en), "de": file(target, lambda m: m.de)}


def stringsdict(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    def file(items: list[Message], text: Callable[[Message], str]) -> bytes:
        lines = ['<?xml version="1.0" encoding="UTF-8"?>',
                 '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
                 '<plist version="1.0">', "<dict>"]
        for m in items:
            lines += [f"\t<key>{m.key}</key>", "\t<dict>", "\t\t<key>NSStringLocalizedFormatKey</key>",
                      "\t\t<string>%#@items@</string>", "\t\t<key>items</key>", "\t\t<dict>",
                      "\t\t\t<key>NSStringFormatSpecTypeKey</key>", "\t\t\t<string>NSStringPluralRuleType</string>",
                      "\t\t\t<key>NSStringFormatValueTypeKey</key>", "\t\t\t<string>lld</string>",
                      "\t\t\t<key>one</key>", f"\t\t\t<string>%lld {escape(text(m))}</string>",
                      "\t\t\t<key>other</key>", f"\t\t\t<string>%lld {escape(text(m))}</string>",
                      "\t\t</dict>", "\t</dict>"]
        return "\n".join([*lines, "</dict>", "</plist>", ""]).encode()

    return {"en": file(every, lambda m: m.en), "de": file(target, lambda m: m.de)}


def _yaml_scalar(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def yaml(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    def file(language: str, items: list[Message], text: Callable[[Message], str]) -> bytes:
        lines = [f"{language}:"]
        for section, groups in _nested(items, text).items():
            lines.append(f"  {section}:")
            for group, names in groups.items():
                lines.append(f"    {group}:")
                lines += [f"      {name}: {_yaml_scalar(value)}" for name, value in names.items()]
        return "\n".join([*lines, ""]).encode()

    return {"en": file("en", every, lambda m: m.en), "de": file("de", target, lambda m: m.de)}


def _properties_value(text: str) -> str:
    return "".join(char if " " <= char <= "~" else f"\\u{ord(char):04x}" for char in text)


def properties(every: list[Message], target: list[Message]) -> dict[str, bytes]:
    def file(items: list[Message], text: Callable[[Message], str]) -> bytes:
        return "".join(f"{m.key}={_properties_value(text(m))}\n" for m in items).encode()

    return {"en": file(every, lambda m: m.en), "de": file(target, lambda m: m.de)}


@dataclass(frozen=True)
class Shape:
    """A format's project: its catalog path, key spelling, files, and whether messages are plurals."""

    pattern: str
    spell: Callable[[str, str, str], str]
    files: Callable[[list[Message], list[Message]], dict[str, bytes]]
    every_locale_lists_every_key: bool = False
    """Whether every locale's file lists every message (gettext, XLIFF): the new ones are untranslated
    entries there (the files' generator takes the translated ones), not keys the target lacks."""
    plural: bool = False
    source_path: str | None = None
    """The source locale's file where the pattern does not spell it (Android's `values/`)."""


SHAPES: dict[str, Shape] = {
    "icu-json": Shape("lang/{locale}.json", _dotted, icu_json),
    "i18next": Shape("locales/{locale}/translation.json", _dotted, i18next),
    "arb": Shape("l10n/app_{locale}.arb", _camel, arb),
    "xcstrings": Shape("Localizable.xcstrings", _dotted, xcstrings),
    "po": Shape("locale/{locale}/LC_MESSAGES/messages.po", _dotted, po, every_locale_lists_every_key=True),
    "xliff": Shape("translations/{locale}.xlf", _dotted, xliff, every_locale_lists_every_key=True),
    "android": Shape("res/values-{locale}/strings.xml", _snake, android, source_path="res/values/strings.xml"),
    "apple-strings": Shape("{locale}.lproj/Localizable.strings", _dotted, apple_strings),
    "stringsdict": Shape("{locale}.lproj/Localizable.stringsdict", _dotted, stringsdict, plural=True),
    "yaml": Shape("config/locales/{locale}.yml", _dotted, yaml),
    "properties": Shape("i18n/messages_{locale}.properties", _dotted, properties),
}


def build(root: Path, name: str, keys: int, new: int) -> tuple[Path, dict[str, Any], Any]:
    """Write the project of format `name`; (the target file, the messages to write by key, the Project)."""
    from parlance_i18n.locales import parse_locale
    from parlance_i18n.model.project import Project
    from parlance_i18n.settings import CatalogSource

    shape = SHAPES[name]
    every, missing = messages(keys, new, shape.spell)
    lacking = {m.key for m in missing}
    translated = [m for m in every if m.key not in lacking]
    written: dict[str, Path] = {}
    for locale, data in shape.files(every, translated).items():
        path = root / (shape.source_path if locale == "en" and shape.source_path else shape.pattern.format(locale=locale))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written[locale] = path
    target_path = written.get("de", written.get(""))
    if name == "po":  # msgids are the keys
        values = {m.en: m.de for m in missing}
    elif shape.plural:
        values = {m.key: {"one": f"%lld {m.de}", "other": f"%lld {m.de}"} for m in missing}
    else:
        values = {m.key: m.de for m in missing}
    project = Project([CatalogSource(path=root / shape.pattern, format=name)], parse_locale("en"))
    return target_path, values, project


# --- measuring -------------------------------------------------------------------------------------------


def measure(name: str, keys: int, sizes: list[int], runs: int, budget: float) -> dict[str, Any]:
    from parlance_i18n import formats
    from parlance_i18n.locales import parse_locale
    from parlance_i18n.loop.writes import apply, plan_set_messages
    from parlance_i18n.model.project import ProjectLocale

    fmt = formats.get(name)
    de = parse_locale("de")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        target, values, project = build(Path(folder), name, keys, max(sizes))
        original = target.read_bytes()

        def fresh(code: str) -> ProjectLocale:
            locale = project.locales[code]
            return ProjectLocale(locale.tag, list(locale.files))

        def write(chosen: dict[str, Any]) -> float:
            target.write_bytes(original)
            started = time.perf_counter()
            done = apply(plan_set_messages(fresh("de"), fresh("en"), chosen))
            elapsed = time.perf_counter() - started
            if done.count("written") != len(chosen):
                refused = [o for o in done.outcomes if o.status != "written"][:3]
                raise SystemExit(f"{name}: {len(chosen) - done.count('written')} messages not written: {refused}")
            return elapsed

        write(dict(list(values.items())[:10]))  # warm up: imports, CLDR data, the format's first use
        over_budget = False
        for size in sizes:
            if over_budget:
                rows.append({"messages": size, "skipped": True})
                continue
            chosen = dict(list(values.items())[:size])
            writes = [write(chosen)]
            if writes[0] > budget:
                over_budget = True
            else:
                writes += [write(chosen) for _ in range(runs - 1)]
            floors = []
            for _ in range(len(writes)):
                started = time.perf_counter()
                fmt.read(original, de)
                floors.append(time.perf_counter() - started)
            write_s, floor_s = statistics.median(writes), statistics.median(floors)
            rows.append({"messages": size, "runs": len(writes), "write_s": write_s, "floor_s": floor_s,
                         "per_key_us": (write_s - floor_s) / size * 1e6, "over_budget": writes[0] > budget})
        target.write_bytes(original)
    timed = [row for row in rows if "write_s" in row]
    for previous, row in zip(timed, timed[1:], strict=False):
        row["x2"] = row["write_s"] / previous["write_s"] if row["messages"] == 2 * previous["messages"] else None
        row["marginal_us"] = (row["write_s"] - previous["write_s"]) / (row["messages"] - previous["messages"]) * 1e6
    goal = next((row for row in rows if row["messages"] == GOAL_SIZE), None)
    met = None if goal is None else "write_s" in goal and not goal["over_budget"] and goal["write_s"] <= GOAL_SECONDS
    return {"file_bytes": len(original), "sizes": rows, "goal_met": met}


def print_table(result: dict[str, Any]) -> None:
    print(f"new messages into a {result['keys']:,}-key file, plan + apply, median of {result['runs']} runs "
          f"(Python {result['python']}); per key = (write - floor) / messages; marginal = what each message "
          "added since the size before cost")
    print(f"  {'format':14} {'file':>8} {'messages':>8} {'write':>10} {'floor':>9} {'per key':>10} {'marginal':>10} "
          f"{'x2':>6}")
    for name, found in result["formats"].items():
        for row in found["sizes"]:
            if row.get("skipped"):
                print(f"  {name:14} {'':>8} {row['messages']:8,} {'skipped: the size before took over the budget'}")
                continue
            x2 = f"{row['x2']:.2f}" if row.get("x2") else ""
            marginal = f"{row['marginal_us']:7.0f} us" if "marginal_us" in row else ""
            over = " (1 run, over budget)" if row["over_budget"] else ""
            print(f"  {name:14} {found['file_bytes'] / 1e6:6.2f}MB {row['messages']:8,} {row['write_s']:8.3f} s "
                  f"{row['floor_s'] * 1000:6.1f} ms {row['per_key_us']:7.0f} us {marginal:>10} {x2:>6}{over}")
        verdict = "not measured" if found["goal_met"] is None else "met" if found["goal_met"] else "NOT met"
        print(f"  {name:14} goal {GOAL_SIZE:,} messages <= {GOAL_SECONDS:.0f} s: {verdict}")


def run_scaling(description: str, measure: Callable[[str, int, list[int], int, float], dict[str, Any]],
                print_table: Callable[[dict[str, Any]], None], results: Path, *, runs: int,
                sizes: tuple[int, ...] = SIZES) -> int:
    """The command line both scaling benchmarks share (this one and `delete_scaling.py`): measure each
    format chosen, publish the figures; exit 1 when a format misses the goal."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(sizes))
    parser.add_argument("--formats", nargs="+", choices=sorted(SHAPES), default=list(SHAPES))
    parser.add_argument("--budget", type=float, default=30.0,
                        help="seconds a size's first run may take before the larger sizes are skipped")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = parser.parse_args()
    result = {"python": platform.python_version(), "keys": args.keys, "runs": args.runs,
              "formats": {name: measure(name, args.keys, sorted(args.sizes), args.runs, args.budget)
                          for name in args.formats}}
    publish(result, results, as_json=args.json, print_table=print_table)
    return 1 if any(found["goal_met"] is False for found in result["formats"].values()) else 0


def main() -> int:
    return run_scaling(__doc__.split("\n\n")[0], measure, print_table, RESULTS, runs=5)


if __name__ == "__main__":
    sys.exit(main())
