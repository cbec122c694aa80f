"""In-process translate path: the i18n pack vs three peers, measured in one run, alternating.

    uv run --with fluent.runtime python bench/i18n_translate.py [--rounds 15] [--calls 20000]

Contestants (each resolves a key for a locale with fallback, then interpolates):
- parlance  `Translator.translate`, the domain function `i18n_translate` calls;
- reference a plain translator like the seed's original module: dict lookup over exact →
            language → default locale, then `re.sub` of `{name}` tokens;
- gettext   stdlib `GNUTranslations` (real .mo data, built in memory) chained with `add_fallback`,
            then `str.format`; `ngettext` for plurals;
- fluent    `fluent.runtime.FluentBundle` per locale, first bundle that has the message
            (only when fluent.runtime is importable: it is installed for the benchmark only).

Cases: a simple message found in the requested locale, the same through a language fallback
(es-MX → es), and a plural message (CLDR categories). Each round times every contestant once, in
rotating order; the figure is the median per call over the rounds.

Goals: simple messages >= 2x faster than the reference translator; plural >= 10x faster than fluent.
"""

from __future__ import annotations

import argparse
import gettext
import io
import re
import statistics
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

from parlance_i18n.model.catalog import Catalog
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.translator import Translator

SIMPLE_EN = "Hello, {name}! Welcome back."
SIMPLE_ES = "¡Hola, {name}! Bienvenido de nuevo."
PLURAL_SINGULAR_EN, PLURAL_PLURAL_EN = "You have {count} new message.", "You have {count} new messages."
PLURAL_FORMS_ES = ("Tienes {count} mensaje nuevo.", "Tienes {count} mensajes nuevos.")
ICU_PLURAL_EN = "{count, plural, one {You have # new message.} other {You have # new messages.}}"
ICU_PLURAL_ES = "{count, plural, one {Tienes # mensaje nuevo.} other {Tienes # mensajes nuevos.}}"
FILLER = 200  # other keys per bundle, so lookups are not into tiny dicts


# --- the plain reference translator ----------------------------------------------------------------


class ReferenceTranslator:
    """Dict lookup along exact → language → default, then regex substitution of `{name}`."""

    _TOKEN = re.compile(r"\{(\w+)\}")

    def __init__(self, default_locale: str = "en") -> None:
        self.default_locale = default_locale
        self.bundles: dict[str, dict[str, str]] = {}

    def add(self, locale: str, messages: dict[str, str]) -> None:
        self.bundles[locale.replace("_", "-")] = dict(messages)

    def translate(self, key: str, locale: str | None = None,
                  variables: dict[str, Any] | None = None) -> tuple[str, str, bool]:
        locale = (locale or self.default_locale).replace("_", "-")
        for candidate, fallback in ((locale, False), (locale.split("-")[0], False), (self.default_locale, True)):
            bundle = self.bundles.get(candidate)
            if bundle is not None and key in bundle:
                text = bundle[key]
                if variables:
                    text = self._TOKEN.sub(lambda m: str(variables.get(m.group(1), m.group(0))), text)
                return text, candidate, fallback
        return key, locale, True


# --- stdlib gettext from in-memory .mo data -----------------------------------------------------------


def mo_bytes(catalog: dict[str, str], plural_forms: str = "nplurals=2; plural=(n != 1);") -> bytes:
    """A GNU .mo file for `catalog` (msgid -> msgstr; plural keys joined by NUL), little-endian."""
    entries = {"": f"Content-Type: text/plain; charset=UTF-8\nPlural-Forms: {plural_forms}\n", **catalog}
    keys = sorted(entries)
    ids = [k.encode() for k in keys]
    strs = [entries[k].encode() for k in keys]
    header = 7 * 4
    id_table = header
    str_table = id_table + 8 * len(keys)
    data_start = str_table + 8 * len(keys)
    blob, id_offsets, str_offsets = b"", [], []
    for raw in ids:
        id_offsets.append((len(raw), data_start + len(blob)))
        blob += raw + b"\0"
    for raw in strs:
        str_offsets.append((len(raw), data_start + len(blob)))
        blob += raw + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), id_table, str_table, 0, 0)
    out += b"".join(struct.pack("<2I", *o) for o in id_offsets)
    out += b"".join(struct.pack("<2I", *o) for o in str_offsets)
    return out + blob


def gettext_chain() -> gettext.GNUTranslations:
    filler = {f"filler.{i}": f"Filler {i}" for i in range(FILLER)}
    plural_key_en = f"{PLURAL_SINGULAR_EN}\0{PLURAL_PLURAL_EN}"
    en = gettext.GNUTranslations(io.BytesIO(mo_bytes({**filler, "greeting": SIMPLE_EN,
                                                       plural_key_en: f"{PLURAL_SINGULAR_EN}\0{PLURAL_PLURAL_EN}"})))
    es = gettext.GNUTranslations(io.BytesIO(mo_bytes({**filler, "greeting": SIMPLE_ES,
                                                       plural_key_en: "\0".join(PLURAL_FORMS_ES)})))
    es_mx = gettext.GNUTranslations(io.BytesIO(mo_bytes(dict(filler))))
    es.add_fallback(en)
    es_mx.add_fallback(es)
    return es_mx


# --- fluent.runtime -------------------------------------------------------------------------------


def fluent_chain() -> Callable[[str, dict[str, Any]], str] | None:
    try:
        from fluent.runtime import FluentBundle, FluentResource
    except ImportError:
        return None
    filler = "".join(f"filler-{i} = Filler {i}\n" for i in range(FILLER))
    sources = {
        "es-MX": filler,
        "es": filler + "greeting = ¡Hola, { $name }! Bienvenido de nuevo.\n"
        "messages = { $count ->\n    [one] Tienes { $count } mensaje nuevo.\n"
        "   *[other] Tienes { $count } mensajes nuevos.\n}\n",
        "en": filler + "greeting = Hello, { $name }! Welcome back.\n"
        "messages = { $count ->\n    [one] You have { $count } new message.\n"
        "   *[other] You have { $count } new messages.\n}\n",
    }
    chain = []
    for locale, source in sources.items():
        bundle = FluentBundle([locale], use_isolating=False)
        bundle.add_resource(FluentResource(source))
        chain.append(bundle)

    def translate(message_id: str, args: dict[str, Any]) -> str:
        for bundle in chain:
            if bundle.has_message(message_id):
                value, _errors = bundle.format_pattern(bundle.get_message(message_id).value, args)
                return str(value)
        return message_id

    return translate


# --- the cases ----------------------------------------------------------------------------------------


def build_cases() -> dict[str, dict[str, Callable[[], Any]]]:
    filler = {f"filler.{i}": f"Filler {i}" for i in range(FILLER)}
    translator = Translator(Catalog(parse_locale("en")))
    translator.add_messages("en", {**filler, "greeting": SIMPLE_EN, "messages": ICU_PLURAL_EN})
    translator.add_messages("es", {**filler, "greeting": SIMPLE_ES, "messages": ICU_PLURAL_ES})
    translator.add_messages("es-MX", dict(filler))
    reference = ReferenceTranslator("en")
    reference.add("en", {**filler, "greeting": SIMPLE_EN})
    reference.add("es", {**filler, "greeting": SIMPLE_ES})
    reference.add("es-MX", dict(filler))
    chain = gettext_chain()
    fluent = fluent_chain()
    name = {"name": "Ada"}
    count = {"count": 3}
    translate = translator.translate

    cases: dict[str, dict[str, Callable[[], Any]]] = {
        "simple, exact locale (es)": {
            "parlance": lambda: translate("greeting", "es", name),
            "reference": lambda: reference.translate("greeting", "es", name),
        },
        "simple, via fallback (es-MX -> es)": {
            "parlance": lambda: translate("greeting", "es-MX", name),
            "reference": lambda: reference.translate("greeting", "es-MX", name),
            "gettext": lambda: chain.gettext("greeting").format(**name),
        },
        "plural (es-MX -> es, count=3)": {
            "parlance": lambda: translate("messages", "es-MX", count),
            "gettext": lambda: chain.ngettext(PLURAL_SINGULAR_EN, PLURAL_PLURAL_EN, 3).format(**count),
        },
    }
    if fluent is not None:
        cases["simple, via fallback (es-MX -> es)"]["fluent"] = lambda: fluent("greeting", name)
        cases["plural (es-MX -> es, count=3)"]["fluent"] = lambda: fluent("messages", count)
    return cases


def check_outputs(cases: dict[str, dict[str, Callable[[], Any]]]) -> None:
    """Every contestant must produce the same text, or the comparison means nothing."""
    for case, contestants in cases.items():
        texts = {name: (fn()[0] if isinstance(fn(), tuple) else fn()) for name, fn in contestants.items()}
        if len(set(texts.values())) != 1:
            raise SystemExit(f"{case}: contestants disagree: {texts}")


def measure(fn: Callable[[], Any], calls: int) -> float:
    """Nanoseconds per call over `calls` calls."""
    loop = range(calls)
    started = time.perf_counter_ns()
    for _ in loop:
        fn()
    return (time.perf_counter_ns() - started) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    cases = build_cases()
    check_outputs(cases)
    samples: dict[tuple[str, str], list[float]] = {(c, n): [] for c, cs in cases.items() for n in cs}
    for round_number in range(args.rounds):
        for case, contestants in cases.items():
            names = list(contestants)
            shift = round_number % len(names)
            for name in names[shift:] + names[:shift]:  # rotate so no contestant always runs first
                samples[(case, name)].append(measure(contestants[name], args.calls))

    print(f"python {sys.version.split()[0]}, {args.rounds} rounds x {args.calls} calls, median ns per call")
    if "fluent" not in {n for _, n in samples}:
        print("(fluent.runtime not installed: run with `uv run --with fluent.runtime ...` to include it)")
    for case, contestants in cases.items():
        medians = {name: statistics.median(samples[(case, name)]) for name in contestants}
        ours = medians["parlance"]
        print(f"\n{case}")
        for name, value in medians.items():
            ratio = "" if name == "parlance" else f"  parlance is {value / ours:5.1f}x faster"
            print(f"  {name:10s} {value:9.0f} ns{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
