"""Reading a PO file: Parlance's `PoFormat().read` vs Babel's `read_po`, on the same bytes, one run.

    uv run python bench/po_read.py [--entries 20000] [--runs 9]

The file is generated here, the same every time (a fixed seed): a header with Russian Plural-Forms,
then entries shaped like a real project's (a Django or GNOME catalog): `#.` and `#:` comments,
`#, python-format` and `c-format` flags, a context on some, three-form plurals on some, mostly short
strings and some paragraphs wrapped over several lines, escapes, fuzzy and untranslated entries, and
obsolete `#~` entries at the end. Each run reads
the bytes afresh with each contestant, alternating which goes first; the figure is the median.

Goal (issue 13): at least as fast as Babel; the reader aims at several times faster.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable

from babel.messages.pofile import read_po

from parlance_i18n.formats.po.format import PoFormat
from parlance_i18n.locales import parse_locale

WORDS = ("file", "folder", "cart", "photo", "upload", "message", "account", "settings", "network",
         "printer", "your", "the", "cannot", "be", "opened", "saved", "because", "it", "is", "empty", "shared",
         "with")
RU_WORDS = ("файл", "папка", "корзина", "фото", "загрузка", "сообщение", "учётная", "запись", "сеть",
            "принтер", "ваш", "не", "удалось", "открыть", "сохранить", "потому", "что", "пуст", "общий", "с")
_LENGTHS = ((1, 4), (5, 11), (12, 45))
"""Words per string: short labels (60%), sentences (30%), paragraphs wrapped over lines (10%)."""
PLURAL_FORMS = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                "(n%100<10 || n%100>=20) ? 1 : 2);")


def _sentence(rng: random.Random, words: tuple[str, ...], low: int, high: int) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(low, high)))


def _quoted(keyword: str, text: str) -> str:
    """`keyword "text"`, wrapped as msgmerge writes long strings (`""` then pieces of <= 79 columns)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    line = f'{keyword} "{escaped}"'
    if len(line) <= 79 and "\\n" not in escaped[:-2]:
        return line
    pieces, current = [], ""
    for word in escaped.split(" "):
        if current and len(current) + len(word) + 3 > 79:
            pieces.append(f'"{current} "')
            current = word
        else:
            current = f"{current} {word}" if current else word
    pieces.append(f'"{current}"')
    return "\n".join([f'{keyword} ""', *pieces])


def generate(entries: int, seed: int = 13) -> bytes:
    """A deterministic PO file of `entries` live entries (plus a few obsolete ones)."""
    rng = random.Random(seed)
    out = ['# Russian translation of a generated app.', 'msgid ""', 'msgstr ""',
           '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Plural-Forms: {PLURAL_FORMS}\\n"', ""]
    for number in range(entries):
        lines = []
        if rng.random() < 0.3:
            lines.append(f"#. {_sentence(rng, WORDS, 3, 9)}")
        lines.append(f"#: src/module{number % 97}.py:{number} src/view{number % 13}.html:{number * 7 % 900}")
        kind = rng.random()
        flags = ["python-format"] if kind < 0.4 else ["c-format"] if kind < 0.6 else []
        if rng.random() < 0.03:
            flags.insert(0, "fuzzy")
        if flags:
            lines.append("#, " + ", ".join(flags))
        if rng.random() < 0.15:
            lines.append(_quoted("msgctxt", f"context {number % 50}"))
        low, high = _LENGTHS[rng.choices(range(3), weights=(60, 30, 10))[0]]
        source = f"{_sentence(rng, WORDS, low, high)} {number}"
        target = f"{_sentence(rng, RU_WORDS, low, high)} {number}"
        if rng.random() < 0.1:
            source, target = f'"{source}"\n', f'«{target}»\n'
        if "python-format" in flags:
            source, target = f"{source} %(name)s", f"{target} %(name)s"
        if rng.random() < 0.2:
            lines.append(_quoted("msgid", f"%(count)d {source}"))
            lines.append(_quoted("msgid_plural", f"%(count)d {source}s"))
            for index in range(3):
                lines.append(_quoted(f"msgstr[{index}]", f"%(count)d {target} ({index})"))
        else:
            lines.append(_quoted("msgid", source))
            lines.append(_quoted("msgstr", "" if rng.random() < 0.05 else target))
        out.extend(lines)
        out.append("")
    for number in range(20):
        out += [f'#~ msgid "obsolete {number}"', f'#~ msgstr "устарело {number}"', ""]
    return "\n".join(out).encode("utf-8")


def _time(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    data = generate(args.entries)
    tag = parse_locale("ru")
    fmt = PoFormat()
    parlance = lambda: fmt.read(data, tag)  # noqa: E731
    babel = lambda: read_po(io.BytesIO(data), locale="ru")  # noqa: E731
    messages, catalog = parlance(), babel()
    served = len(messages)
    babel_served = sum(1 for m in catalog if m.id and m.string and not m.fuzzy
                       and (all(m.string) if isinstance(m.string, tuple) else True))
    times: dict[str, list[float]] = {"parlance": [], "babel": []}
    for run in range(args.runs):
        order = [("parlance", parlance), ("babel", babel)]
        for name, function in order if run % 2 == 0 else reversed(order):
            times[name].append(_time(function))
    ours, theirs = statistics.median(times["parlance"]), statistics.median(times["babel"])
    print(f"PO file: {args.entries:,} entries, {len(data) / 1e6:.1f} MB; "
          f"served: parlance {served:,}, babel {babel_served:,}; problems: {len(messages.problems)}")
    print(f"parlance PoFormat.read  median {ours * 1000:8.1f} ms")
    print(f"babel read_po           median {theirs * 1000:8.1f} ms")
    print(f"ratio: parlance is {theirs / ours:.1f}x as fast as babel")


if __name__ == "__main__":
    main()
