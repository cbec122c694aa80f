"""The docs are contracts, checked as datasette checks its own (`tests/test_docs.py`).

Every hook in `PackSpec` has a test named for it somewhere under tests/ (`test_<hook>_<what it
checks>`, e.g. `test_parlance_lifespan_state_reaches_tools_and_exits`) and a row in the hook table of
README.md's "Writing a pack" section that gives its arguments as the spec declares them; that section
also names exactly what `parlance` exports. Each failure names the hook or the export at fault.
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import parlance
from parlance.hookspecs import PROJECT, PackSpec

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SECTION = "## Writing a pack"
EXPORTS = "`parlance` exports exactly:"
"""The words that open the list of exports in the section; the list runs to the end of the paragraph."""

HOOKS = [name for name in vars(PackSpec) if name.startswith("parlance_")]  # in the spec's order
OPTIONS = ("firstresult", "historic")
"""The hookspec options the table may show, as a column of that name or as the word in a hook's row."""


def hook_arguments(hook: str) -> list[str]:
    return list(inspect.signature(getattr(PackSpec, hook)).parameters)[1:]  # without `self`


def hook_options(hook: str) -> dict[str, Any]:
    """What `@hookspec(...)` declared for `hook`, as pluggy records it on the function."""
    options: dict[str, Any] = getattr(getattr(PackSpec, hook), f"{PROJECT}_spec")
    return options


@functools.cache
def named_tests() -> frozenset[str]:
    """The name of every test function and method in tests/ (read with `ast`, nothing imported)."""
    names: set[str] = set()
    for folder, subfolders, files in os.walk(ROOT / "tests"):
        subfolders[:] = [name for name in subfolders if name not in {"node_modules", "__pycache__"}]
        for file in files:
            if file.startswith("test_") and file.endswith(".py"):
                path = Path(folder) / file
                tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
                names |= {node.name for node in ast.walk(tree)
                          if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")}
    return frozenset(names)


def pack_author_section() -> str:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text, f"README.md has no {SECTION!r} section: the pack API's docs belong there"
    start = text.index(SECTION) + len(SECTION)
    end = text.find("\n## ", start)
    return text[start:] if end == -1 else text[start:end]


class Row(NamedTuple):
    hook: str
    arguments: list[str]
    cells: dict[str, str]  # column heading (lower case) -> the cell's text


def _cells(line: str) -> list[str]:
    inner = line.strip().removeprefix("|").removesuffix("|")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]  # `\|` is a pipe inside a cell


def hook_table() -> tuple[list[str], list[Row]]:
    """The table of hooks in the pack-author section: its column headings and its rows."""
    lines = pack_author_section().splitlines()
    for at, line in enumerate(lines):
        if line.startswith("|") and _cells(line)[0].lower() == "hook":
            headings = [cell.lower() for cell in _cells(line)]
            rows: list[Row] = []
            for row in lines[at + 2:]:  # past the |---| line
                if not row.startswith("|"):
                    break
                cells = _cells(row)
                written = re.fullmatch(r"`(\w+)\((.*)\)`", cells[0])
                assert written, f"README.md's hook table: write the hook as `name(arguments)`, not {cells[0]!r}"
                arguments = [a.strip() for a in written.group(2).split(",") if a.strip()]
                rows.append(Row(written.group(1), arguments, dict(zip(headings, cells, strict=False))))
            return headings, rows
    raise AssertionError(f"README.md's {SECTION!r} section has no hook table (a table whose first column is 'hook')")


# --- every hook: a test, and a row in the README -----------------------------------------------------


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_test_named_for_it(hook: str) -> None:
    named = sorted(name for name in named_tests() if hook in name)
    assert named, f"no test under tests/ is named for the hook {hook}: add test_{hook}_<what it checks>"


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_row_in_the_readme_hook_table_with_its_arguments(hook: str) -> None:
    rows = {row.hook: row for row in hook_table()[1]}
    assert hook in rows, f"README.md's hook table has no row for {hook}"
    assert rows[hook].arguments == hook_arguments(hook), (
        f"README.md's hook table gives {hook} the arguments {rows[hook].arguments}; the spec declares "
        f"{hook_arguments(hook)}")


def test_the_readme_hook_table_has_exactly_the_hooks_in_the_specs_order() -> None:
    listed = [row.hook for row in hook_table()[1]]
    unknown = [hook for hook in listed if hook not in HOOKS]
    assert unknown == [], f"README.md's hook table has rows for hooks PackSpec does not declare: {unknown}"
    assert listed == HOOKS, "README.md's hook table lists the hooks once each, in PackSpec's order"


@pytest.mark.parametrize("option", OPTIONS)
def test_the_readme_hook_table_says_of_each_hook_what_the_spec_declares(option: str) -> None:
    # The table need not show firstresult or historic (a pack's implementation is called alone, so
    # neither changes what an author writes); where it does show one, it must be right for every hook.
    headings, rows = hook_table()
    declared = {hook for hook in HOOKS if hook_options(hook).get(option)}
    if option in headings:
        said = {row.hook for row in rows if row.cells.get(option, "").strip().lower() not in {"", "no", "-", "—"}}
    else:
        said = {row.hook for row in rows if re.search(rf"\b{option}\b", " ".join(row.cells.values()))}
        if not said:
            return  # not shown
    assert said == declared, f"README.md's hook table marks {option} on {sorted(said)}; the spec on {sorted(declared)}"


# --- what `parlance` exports ------------------------------------------------------------------------


def test_the_pack_author_section_names_exactly_what_parlance_exports() -> None:
    section = pack_author_section()
    assert EXPORTS in section, f"README.md's {SECTION!r} section should list the exports after {EXPORTS!r}"
    paragraph = section.split(EXPORTS, 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([A-Za-z_]\w*)`", paragraph))
    arguments = {argument for hook in HOOKS for argument in hook_arguments(hook)}  # "the `register` callbacks"
    unnamed = sorted(set(parlance.__all__) - named)
    assert unnamed == [], f"exported by `parlance` but not named in README.md: {unnamed}"
    extra = sorted(named - set(parlance.__all__) - arguments)
    assert extra == [], f"named in README.md as exported, but `parlance` does not export: {extra}"


# --- the checks themselves ---------------------------------------------------------------------------


def test_the_table_reader_reads_arguments_escaped_pipes_and_option_columns(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{SECTION}\n\ntext\n\n| hook | firstresult | purpose |\n|---|---|---|\n"
                      "| `parlance_a()` | yes | `str \\| None` |\n| `parlance_b(register, settings)` |  | b |\n"
                      "\nafter\n\n## Next\n\n| hook | x |\n|---|---|\n| `parlance_c()` | c |\n", encoding="utf-8")
    monkeypatch.setitem(globals(), "README", readme)
    headings, rows = hook_table()
    assert headings == ["hook", "firstresult", "purpose"]
    assert [(r.hook, r.arguments) for r in rows] == [("parlance_a", []), ("parlance_b", ["register", "settings"])]
    assert rows[0].cells == {"hook": "`parlance_a()`", "firstresult": "yes", "purpose": "`str \\| None`"}


def test_the_test_finder_sees_tests_in_every_folder() -> None:
    names = named_tests()
    assert {"test_every_hook_has_a_test_named_for_it", "test_parlance_lifespan_state_reaches_tools_and_exits",
            "test_parlance_register_demo_sections_of_every_pack_run_and_clean_up"} <= names
