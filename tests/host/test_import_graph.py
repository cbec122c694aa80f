"""The import graph of the host and the first-party packs: layered, with no cycle.

Built from the source with `ast`, never by importing: every `import` counts, at module level or
inside a function (a function-level import hides a cycle from the interpreter, not from a reader);
only imports under `if TYPE_CHECKING:` are left out, since they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "host" / "src"
PACKS = sorted(p for p in (ROOT / "plugins").glob("*/src") if p.is_dir())
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/src") if p.is_dir())


def module_files(src: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under a `src` folder."""
    found: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for sub in child.orelse:  # the `else:` branch does run
                yield from _import_nodes_of(sub)
            continue
        yield from _import_nodes_of(child)


def _import_nodes_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _import_nodes(node)


def imported_modules(module: str, path: Path, known: set[str]) -> set[str]:
    """The known modules that `module` imports (`from a import b` counts `a.b` when it is a module)."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            while name and name not in known:  # `import a.b.c` imports a, a.b and a.b.c; keep the deepest known
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
    return targets


def import_graph() -> dict[str, set[str]]:
    files: dict[str, Path] = {}
    for src in (HOST, *PACKS, *EXAMPLES):
        files |= module_files(src)
    known = set(files)
    return {module: imported_modules(module, path, known) for module, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a path that starts and ends at the same module, or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = GREY
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if colour.get(target) == GREY:
                return [*stack[stack.index(target):], target]
            if colour.get(target) == WHITE:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        colour[node] = BLACK
        return None

    for start in sorted(graph):
        if colour[start] == WHITE:
            found = visit(start)
            if found:
                return found
    return None


def test_the_graph_sees_the_whole_tree() -> None:
    graph = import_graph()
    assert {"parlance", "parlance.packs", "parlance_i18n.pack", "parlance_translation.pack",
            "parlance_strings_admin.pack", "parlance_hello.pack"} <= graph.keys()
    assert "parlance.hookspecs" in graph["parlance"]


def test_no_import_cycle_in_the_host_or_the_packs() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_host_module_imports_a_pack() -> None:
    graph = import_graph()
    upward = {module: sorted(t for t in targets if t.partition(".")[0] != "parlance")
              for module, targets in graph.items() if module.partition(".")[0] == "parlance"}
    assert {module: targets for module, targets in upward.items() if targets} == {}


def test_cycle_finder_and_type_checking_exclusion(tmp_path: Path) -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    path = tmp_path / "m.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\nelse:\n    import y\n"
                    "def f():\n    from . import z\n", encoding="utf-8")
    assert imported_modules("p.m", path, {"x", "y", "p.z"}) == {"y", "p.z"}
