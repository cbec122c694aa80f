"""The import graph of the host, the first-party packs, the language packs and the examples: layered,
with no cycle.

Built from the source with `ast`, never by importing: every `import` counts, at module level or
inside a function (a function-level import hides a cycle from the interpreter, not from a reader);
only imports under `if TYPE_CHECKING:` are left out, since they never run.

The drawing, by package (the host at the bottom, every pack above it):

    uv run python -m tests.host.test_import_graph          # text
    uv run python -m tests.host.test_import_graph --dot    # Graphviz: ... --dot | dot -Tsvg > imports.svg

and inside one package, by its layers (`LAYERS`: each layer imports only from the layers below it):

    uv run python -m tests.host.test_import_graph --package parlance_i18n [--dot]
"""

from __future__ import annotations

import argparse
import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "host" / "src"
PACKS = sorted(p for p in (ROOT / "plugins").glob("*/src") if p.is_dir())
LANGUAGE_PACKS = ROOT / "language_packs" / "src"
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/src") if p.is_dir())
SOURCES = (HOST, *PACKS, LANGUAGE_PACKS, *EXAMPLES)
HOST_PACKAGE = "parlance"


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
    for src in SOURCES:
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


# --- by package: the drawing ---------------------------------------------------------------------------


def kind_of(src: Path) -> str:
    """What the distribution built from `src` is to Parlance: the host, a pack or language packs (by the
    entry-point group its pyproject.toml declares), and whether it is one of the examples."""
    if src == HOST:
        return "host"
    project = tomllib.loads((src.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = project.get("entry-points", {})
    kind = ("pack" if "parlance.packs" in groups else
            "language packs" if "parlance.language_packs" in groups else "library")
    return f"{kind}, example" if src.is_relative_to(ROOT / "examples") else kind


def packages() -> dict[str, str]:
    """Every top-level package of the tree, and its kind (`kind_of`)."""
    return {module.partition(".")[0]: kind_of(src) for src in SOURCES for module in module_files(src)}


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """`graph` with each module folded into its top-level package (`parlance_i18n.pack` -> `parlance_i18n`)."""
    folded: dict[str, set[str]] = {}
    for module, targets in graph.items():
        package = module.partition(".")[0]
        folded.setdefault(package, set()).update(target.partition(".")[0] for target in targets)
        folded[package].discard(package)
    return folded


def levels(graph: dict[str, set[str]]) -> dict[str, int]:
    """How high each node sits: 0 when it imports nothing of the tree, else one above the highest node
    it imports (an import that closes a cycle is not counted; `find_cycle` reports it)."""
    level: dict[str, int] = {}
    visiting: set[str] = set()

    def of(node: str) -> int:
        if node in visiting:
            return -1
        if node not in level:
            visiting.add(node)
            level[node] = 1 + max((of(target) for target in graph.get(node, ())), default=-1)
            visiting.discard(node)
        return level[node]

    for node in graph:
        of(node)
    return level


def packs_not_above_the_host(graph: dict[str, set[str]], kinds: dict[str, str]) -> list[str]:
    """The packs (tool packs) that do not stand on the host: they import no host module, or the host
    imports something of theirs."""
    packs = [name for name, kind in kinds.items() if kind.startswith("pack")]
    return sorted(name for name in packs if HOST_PACKAGE not in graph[name] or name in graph[HOST_PACKAGE])


def draw_text(graph: dict[str, set[str]]) -> str:
    by_package, kinds = package_graph(graph), packages()
    level = levels(by_package)
    width = max(map(len, by_package))
    lines = ["Parlance's imports by package (read from the source with ast; an arrow is 'imports').", ""]
    for height in sorted(set(level.values()), reverse=True):
        names = sorted((name for name in by_package if level[name] == height), key=lambda n: (kinds[n], n))
        lines.append(f"level {height}:  " + "   ".join(f"{name} ({kinds[name]})" for name in names))
    lines.append("")
    for name in sorted(by_package, key=lambda n: (-level[n], kinds[n], n)):
        lines.append(f"  {name:<{width}}  ->  {', '.join(sorted(by_package[name])) or '(nothing of the tree)'}")
    lines.append("")
    misplaced = packs_not_above_the_host(by_package, kinds)
    lines.append(f"The host is below every pack: {'no: ' + ', '.join(misplaced) if misplaced else 'yes'} "
                 f"(each pack imports {HOST_PACKAGE}, and {HOST_PACKAGE} imports no pack).")
    for what, cycle in (("packages", find_cycle(by_package)), (f"the {len(graph)} modules", find_cycle(graph))):
        lines.append(f"Import cycles among {what}: " + (" -> ".join(cycle) if cycle else "none."))
    return "\n".join(lines)


def draw_dot(graph: dict[str, set[str]]) -> str:
    by_package, kinds = package_graph(graph), packages()
    level = levels(by_package)
    lines = ["digraph parlance_imports {", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    for name in sorted(by_package):
        style = ", style=bold" if name == HOST_PACKAGE else ", style=dashed" if "example" in kinds[name] else ""
        lines.append(f'  "{name}" [label="{name}\\n{kinds[name]}"{style}];')
    for height in sorted(set(level.values()), reverse=True):
        same = " ".join(f'"{name}";' for name in sorted(by_package) if level[name] == height)
        lines.append(f"  {{ rank=same; {same} }}")
    for name in sorted(by_package):
        lines += [f'  "{name}" -> "{target}";' for target in sorted(by_package[name])]
    lines.append("}")
    return "\n".join(lines)


# --- inside a package: its layers -------------------------------------------------------------------------

LAYERS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "parlance": [
        ("foundation", ("parlance.errors", "parlance.content", "parlance.types", "parlance.schemas",
                        "parlance.logs", "parlance.installed", "parlance._user_files", "parlance.config",
                        "parlance.path_patterns", "parlance.writes")),
        ("pack API", ("parlance", "parlance.context", "parlance.hookspecs", "parlance.language_packs",
                      "parlance.registry", "parlance.pack_settings", "parlance._state")),
        ("host", ("parlance.packs", "parlance.host")),
        ("MCP server", ("parlance.server", "parlance.request_backend", "parlance.notifications",
                        "parlance.questions")),
        ("transports", ("parlance._transport",)),
        ("testing kit", ("parlance.testing",)),
        ("CLI", ("parlance._cli", "parlance.cli", "parlance.__main__")),
    ],
    "parlance_i18n": [
        ("foundation", ("parlance_i18n", "parlance_i18n.errors", "parlance_i18n.locales")),
        ("icu engine", ("parlance_i18n.icu",)),
        ("formats", ("parlance_i18n.formats",)),
        ("code settings", ("parlance_i18n.code.settings", "parlance_i18n.code.frameworks.registry")),
        ("settings", ("parlance_i18n.settings",)),
        ("store", ("parlance_i18n.store",)),
        ("code", ("parlance_i18n.code",)),
        ("model", ("parlance_i18n.model",)),
        ("loop", ("parlance_i18n.loop",)),
        ("MCP surface", ("parlance_i18n.tools", "parlance_i18n.demo", "parlance_i18n.project_init", "parlance_i18n.pack")),
    ],
}
"""Each package's layers, bottom first, as module-name prefixes (the longest prefix decides; the package's
own name stands for its `__init__` only): a module may import its own layer and the layers below, never
one above."""


def layer_of(module: str, layers: list[tuple[str, tuple[str, ...]]]) -> int | None:
    """The index of the layer `module` belongs to (its longest matching prefix), or None."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            # The package itself (a prefix with no dot) is its `__init__` alone, not everything under it.
            if module == prefix or ("." in prefix and module.startswith(prefix + ".")):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return best[0] if best else None


def layer_violations(graph: dict[str, set[str]], package: str) -> list[str]:
    """Every import in `package` that reaches a layer above its own, or a module in no layer."""
    layers = LAYERS[package]
    found: list[str] = []
    for module in sorted(m for m in graph if m.partition(".")[0] == package):
        own = layer_of(module, layers)
        if own is None:
            found.append(f"{module} is in no layer of {package}: add it to LAYERS")
            continue
        for target in sorted(t for t in graph[module] if t.partition(".")[0] == package):
            theirs = layer_of(target, layers)
            if theirs is not None and theirs > own:
                found.append(f"{module} ({layers[own][0]}) imports {target} ({layers[theirs][0]})")
    return found


def layer_graph(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """`package`'s modules folded into their layers: which layer imports which."""
    layers = LAYERS[package]
    folded: dict[str, set[str]] = {name: set() for name, _ in layers}
    for module, targets in graph.items():
        own = layer_of(module, layers) if module.partition(".")[0] == package else None
        if own is None:
            continue
        for target in targets:
            theirs = layer_of(target, layers) if target.partition(".")[0] == package else None
            if theirs is not None and theirs != own:
                folded[layers[own][0]].add(layers[theirs][0])
    return folded


def draw_layers_text(graph: dict[str, set[str]], package: str) -> str:
    layers, folded = LAYERS[package], layer_graph(graph, package)
    lines = [f"{package}'s layers, top first (an arrow is 'imports'; a layer imports only those below it).", ""]
    for index in reversed(range(len(layers))):
        name, prefixes = layers[index]
        members = sorted(m for m in graph if layer_of(m, layers) == index and m.partition(".")[0] == package)
        lines.append(f"  {name:<12} {', '.join(prefixes)}  ({len(members)} modules)")
        lines.append(f"  {'':<12}   -> {', '.join(n for n, _ in layers if n in folded[name]) or '(nothing of the package)'}")
    violations = layer_violations(graph, package)
    lines.append("")
    lines.append("Imports against the layers: " + ("; ".join(violations) if violations else "none."))
    return "\n".join(lines)


def draw_layers_dot(graph: dict[str, set[str]], package: str) -> str:
    layers, folded = LAYERS[package], layer_graph(graph, package)
    lines = [f"digraph {package}_layers {{", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    for name, prefixes in layers:
        short = ", ".join(p.removeprefix(package + ".") or package for p in prefixes)
        label = name if short == name else f"{name}\\n{short}"
        lines.append(f'  "{name}" [label="{label}"];')
    for name, _ in layers:
        lines += [f'  "{name}" -> "{target}";' for target in sorted(folded[name])]
    lines.append("}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.host.test_import_graph",
                                     description="Draw the import graph by package; exit 1 on a cycle or a pack "
                                                 "that does not stand on the host.")
    parser.add_argument("--dot", action="store_true", help="Graphviz DOT instead of text")
    parser.add_argument("--package", choices=sorted(LAYERS), help="draw this package's layers instead")
    args = parser.parse_args(argv)
    graph = import_graph()
    if args.package:
        print(draw_layers_dot(graph, args.package) if args.dot else draw_layers_text(graph, args.package))
        return 1 if layer_violations(graph, args.package) else 0
    print(draw_dot(graph) if args.dot else draw_text(graph))
    by_package = package_graph(graph)
    return 1 if find_cycle(graph) or find_cycle(by_package) or packs_not_above_the_host(by_package, packages()) else 0


# --- tests -----------------------------------------------------------------------------------------------


def test_the_graph_sees_the_whole_tree() -> None:
    graph = import_graph()
    assert {"parlance", "parlance.packs", "parlance_i18n.pack", "parlance_translation.pack",
            "parlance_strings_admin.pack", "parlance_hello.pack", "parlance_language_packs",
            "parlance_language_pack_es"} <= graph.keys()
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


def test_the_host_is_below_every_pack() -> None:
    kinds = packages()
    assert (kinds["parlance"], kinds["parlance_i18n"], kinds["parlance_hello"], kinds["parlance_language_packs"]) == (
        "host", "pack", "pack, example", "language packs")
    by_package = package_graph(import_graph())
    assert packs_not_above_the_host(by_package, kinds) == []
    assert find_cycle(by_package) is None
    level = levels(by_package)
    assert all(level[name] > level["parlance"] for name, kind in kinds.items() if kind.startswith("pack"))


def test_the_layer_checks() -> None:
    kinds = {"parlance": "host", "p": "pack", "q": "pack", "r": "pack"}
    graph = {"parlance": {"p"}, "p": {"parlance"}, "q": {"parlance"}, "r": set()}
    assert packs_not_above_the_host(graph, kinds) == ["p", "r"]  # imported by the host; not on the host
    assert levels({"a": {"b"}, "b": {"a", "c"}, "c": set()}) == {"a": 2, "b": 1, "c": 0}  # a cycle ends the climb
    assert package_graph({"a.x": {"a.y", "b.z"}, "a.y": set(), "b.z": set()}) == {"a": {"b"}, "b": set()}


def test_the_drawing_runs(capsys: pytest.CaptureFixture[str]) -> None:
    status = 0 if find_cycle(import_graph()) is None else 1  # a cycle fails the test above, and this exit status
    assert main([]) == status
    assert main(["--dot"]) == status
    text, dot = capsys.readouterr().out.split("digraph", 1)
    assert "The host is below every pack: yes" in text and "Import cycles among packages: none." in text
    assert '"parlance_i18n" -> "parlance";' in dot and "rank=same" in dot


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_package_keeps_its_layers(package: str) -> None:
    assert layer_violations(import_graph(), package) == []


def test_the_layer_rules() -> None:
    LAYERS["p"] = [("low", ("p", "p.a")), ("high", ("p.b",))]
    try:
        assert layer_of("p.a.x", LAYERS["p"]) == 0 and layer_of("p.b", LAYERS["p"]) == 1
        assert layer_violations({"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c.d": set()}, "p") == [
            "p.a (low) imports p.b (high)", "p.c.d is in no layer of p: add it to LAYERS"]
        assert layer_graph({"p.a": {"p.b"}, "p.b": {"p.a"}}, "p") == {"low": {"high"}, "high": {"low"}}
    finally:
        del LAYERS["p"]


def test_the_layer_drawing_runs(capsys: pytest.CaptureFixture[str]) -> None:
    for package in LAYERS:
        status = 1 if layer_violations(import_graph(), package) else 0
        assert main(["--package", package]) == status
        assert main(["--package", package, "--dot"]) == status
        text, dot = capsys.readouterr().out.split("digraph", 1)
        assert "layers, top first" in text and '"' + LAYERS[package][-1][0] + '" ->' in dot


def test_the_architecture_pictures_match_the_code() -> None:
    """ARCHITECTURE.md shows these drawings: a change to the imports redraws them (docs/architecture/render)."""
    graph = import_graph()
    drawn = {"packages.dot": draw_dot(graph), "host-layers.dot": draw_layers_dot(graph, "parlance"),
             "i18n-layers.dot": draw_layers_dot(graph, "parlance_i18n")}
    folder = ROOT / "docs" / "architecture"
    stale = [name for name, text in drawn.items() if (folder / name).read_text(encoding="utf-8") != text + "\n"]
    assert stale == [], f"{', '.join(stale)} no longer match the imports: run docs/architecture/render and commit"


if __name__ == "__main__":
    raise SystemExit(main())
