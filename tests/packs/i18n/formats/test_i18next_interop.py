"""Every message of every i18next test catalog, rendered by Parlance and by i18next 27.1.5 itself
(tests/interop/i18next_render.mjs under Node) in the same test run, must agree exactly.

Each key a caller can translate (plural groups by their base key too) is rendered without options,
with every count in `COUNTS`, with each context the file defines for it (alone and with every
count), and, where the key has ordinal forms, with every count as an ordinal; always with the
variables in `VARIABLES` (one holds HTML characters, so escaping is compared too), and once with no
variables at all.

`EXPECTED_DIFFERENCES` lists, one by one, the renderings allowed to differ, each with its reason;
it is empty because every rendering agrees. A listed difference that no longer differs fails too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from parlance_i18n import formats
from parlance_i18n.formats.i18next.format import I18nextMessages
from parlance_i18n.locales import parse_locale
from tests.support import run_node_reference

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs" / "i18next"
COUNTS: tuple[int | float, ...] = (0, 1, 2, 3, 5, 11, 21, 22, 101, 1.5)
VARIABLES: dict[str, Any] = {
    "name": "Ana <b>&amp;</b> \"Q\" 'x' / {{name}}",
    "link": "<a href=\"/help\">help & tips</a>",
    "user.name": "Zoë",
    "company": "Parlance & Co",
    "query": "shoes <size 42>",
    "amount": 1234.5,
    "price": 19.99,
    "total": 12345,
    "percent": 0.256,
    "date": 1705312800000,  # 2024-01-15 10:00 UTC, in milliseconds as Date.getTime() gives it
    "days": 3,
    "letters": "abc",
    "max": 80,
}
LIMIT = 100_000
_FORM = re.compile(r"(?:ordinal_)?(?:zero|one|two|few|many|other)")
_FORM_SUFFIX = re.compile(r"_(?:ordinal_)?(?:zero|one|two|few|many|other)$")

EXPECTED_DIFFERENCES: dict[tuple[str, str, str], str] = {
    # (file relative to CATALOGS, key, options as json.dumps(sort_keys=True)) -> why they differ
}


def _catalog_files() -> list[Path]:
    return sorted(path for path in CATALOGS.glob("*/*.json") if path.parent.name != "unparseable")


def _contexts(messages: I18nextMessages, key: str) -> list[str]:
    """The contexts the file writes for `key`: `x` of `key_x`, `key_x_one`, `key_x_ordinal_two`, ..."""
    found: list[str] = []
    for other in messages:
        if other.startswith(key + "_"):
            rest = _FORM_SUFFIX.sub("", other[len(key) + 1:])
            if rest and not _FORM.fullmatch(rest) and rest not in found:
                found.append(rest)
    return found


def _calls(messages: I18nextMessages) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = []
    for key in dict.fromkeys([*messages, *messages.file_keys]):  # groups by base key, and each form by its own
        calls.append((key, {}))  # no variables: each {{name}} stays as written
        forms = messages.text(key)
        ordinal = isinstance(forms, dict) and any(form.startswith("ordinal_") for form in forms)
        for context in [None, *_contexts(messages, key)]:
            base = dict(VARIABLES) if context is None else {**VARIABLES, "context": context}
            calls.append((key, base))
            calls.extend((key, {**base, "count": count}) for count in COUNTS)
            if ordinal:
                calls.extend((key, {**base, "count": count, "ordinal": True}) for count in COUNTS)
    return calls


@pytest.fixture(scope="module")
def renderings() -> list[tuple[str, str, dict[str, Any], Any, str]]:
    """(file, key, options, i18next's result, Parlance's result) for every call of every file."""
    jobs = []
    plans = []
    for path in _catalog_files():
        data = path.read_bytes()
        locale = path.parent.name
        messages = formats.get("i18next").read(data, parse_locale(locale))
        assert isinstance(messages, I18nextMessages)
        calls = _calls(messages)
        resources = json.loads(data.decode("utf-8-sig"))
        jobs.append({"lng": locale, "resources": resources,
                     "calls": [{"key": key, "options": options} for key, options in calls]})
        plans.append((path, messages, calls))
    reference = run_node_reference("i18next_render.mjs", jobs)
    rows = []
    for (path, messages, calls), expected in zip(plans, reference, strict=True):
        name = str(path.relative_to(CATALOGS))
        for (key, options), theirs in zip(calls, expected, strict=True):
            ours = messages[key].render(options, LIMIT)
            rows.append((name, key, options, theirs, ours))
    return rows


def _id(name: str, key: str, options: dict[str, Any]) -> tuple[str, str, str]:
    return name, key, json.dumps(options, sort_keys=True, ensure_ascii=False)


def test_every_catalog_is_rendered(renderings: list[tuple[str, str, dict[str, Any], Any, str]]) -> None:
    rendered = {name for name, *_ in renderings}
    assert rendered == {str(p.relative_to(CATALOGS)) for p in _catalog_files()}
    assert len(renderings) > 1500  # every key, every count, every context: a real sweep


def test_every_message_renders_as_i18next_renders_it(
        renderings: list[tuple[str, str, dict[str, Any], Any, str]]) -> None:
    unexpected = []
    for name, key, options, theirs, ours in renderings:
        if theirs != ours and _id(name, key, options) not in EXPECTED_DIFFERENCES:
            shown = {k: v for k, v in options.items() if k not in VARIABLES}
            unexpected.append(f"{name} {key!r} {shown}: i18next {theirs!r}, Parlance {ours!r}")
    assert not unexpected, f"{len(unexpected)} of {len(renderings)} differ:\n" + "\n".join(unexpected[:40])


def test_expected_differences_still_differ(renderings: list[tuple[str, str, dict[str, Any], Any, str]]) -> None:
    differing = {_id(name, key, options) for name, key, options, theirs, ours in renderings if theirs != ours}
    assert set(EXPECTED_DIFFERENCES) <= differing, set(EXPECTED_DIFFERENCES) - differing
