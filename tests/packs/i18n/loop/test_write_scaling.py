"""A write's cost grows with the file plus the messages written, never with their product (issue 22:
2,000 messages into a 20,000-key file took minutes in the formats whose Documents parsed the whole
file again after each edit).

For every writable format, the test project is grown to N keys (by the format's own Document), the
source given 2k more, and `plan_set_messages` plans k, then 2k, of them into the target, as the loop
does. What is counted is the Python calls a plan makes (`sys.setprofile`): the calls the k extra
messages cost, D(N) = calls(N, 2k) - calls(N, k), stays the same when the file is four times larger
if each message costs the same whatever the file's size, and grows fourfold if each one re-reads the
file. Calls are counted rather than seconds because a count is the same on any machine, however
loaded (a timed assertion would flake on a busy two-core CI runner, or need a bound too loose to
catch a slope); bench/write_scaling.py measures the seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from parlance_i18n.formats import Value
from parlance_i18n.loop.writes import plan_set_messages
from parlance_i18n.model.project import Project

from tests.packs.i18n.loop.cases import CASES, Case
from tests.packs.i18n.loop.test_writes import copy_project, fresh, open_project

SMALL, LARGE = 150, 600
MESSAGES = 30
GROWTH_ALLOWED = 1.6
"""How much more the extra messages may cost in the larger file (1.0 when linear; 4.0 when each
message re-reads the file)."""


def _key(case: Case, number: int) -> str:
    if case.format == "po":
        return f"Grown message number {number}"
    if case.format == "android":
        return f"grown_key_{number:05d}"
    if case.format == "arb":
        return f"grownKey{number:05d}"
    return f"grown.group{number // 50}.key{number:05d}"


def _value(case: Case, locale: str, number: int) -> Value:
    if case.format == "stringsdict":
        if locale == "en":
            return {"one": "%lld grown thing", "other": "%lld grown things"}
        return {"one": "%lld штука", "few": "%lld штуки", "many": "%lld штук", "other": "%lld штуки"}
    if case.format == "po" and locale == "en":
        return ""  # a source catalog's entries carry their text in the msgid
    return f"Grown text number {number}" if locale == "en" else f"Выросший текст номер {number}"


def _grow(project: Project, case: Case, locale: str, keys: range) -> None:
    """Add `keys` to the locale's file with the format's own Document."""
    file = project.locales[locale].files[0]
    document = file.format.edit(file.path.read_bytes(), file.tag)
    for number in keys:
        document.add(_key(case, number), _value(case, locale, number))
    file.path.write_bytes(document.to_bytes())


def _calls(project: Project, messages: dict[str, Any]) -> int:
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), messages)
    finally:
        sys.setprofile(None)
    assert plan.count("written") == len(messages), [o for o in plan.outcomes if o.status != "written"][:3]
    return count


def _extra_calls(case: Case, tmp_path: Path, size: int) -> int:
    root, project = copy_project(case, tmp_path / str(size))
    _grow(project, case, "en", range(size + 2 * MESSAGES))
    _grow(project, case, "ru", range(size))
    project = open_project(root, case)  # (a multi-locale file is one file: ru grew with en above)
    wanted = {_key(case, number): _value(case, "ru", number) for number in range(size, size + 2 * MESSAGES)}
    fewer = dict(list(wanted.items())[:MESSAGES])
    return _calls(project, wanted) - _calls(project, fewer)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_each_message_costs_the_same_in_a_file_four_times_larger(case: Case, tmp_path: Path) -> None:
    _extra_calls(case, tmp_path / "warm", SMALL)  # what a first use costs once (compiling, loading data)
    small = _extra_calls(case, tmp_path, SMALL)
    large = _extra_calls(case, tmp_path, LARGE)
    assert large <= GROWTH_ALLOWED * small, (
        f"{MESSAGES} more messages cost {small:,} calls in a {SMALL}-key file but {large:,} in a {LARGE}-key one")
