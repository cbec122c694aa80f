"""The i18n pack's layers, read from the source with `ast` (as `tests/host/test_import_graph.py` reads the
whole tree): the domain (`model/`, and `loop/` on top of it) knows nothing of the MCP surface (`tools/`,
`pack`), which converts its results to the wire models in one place, `tools/wire.py`.

Every import counts, at module level or inside a function; only `if TYPE_CHECKING:` ones are left out.
"""

from __future__ import annotations

from tests.host.test_import_graph import import_graph

PACKAGE = "parlance_i18n"
DOMAIN = ("model", "loop", "code")
SURFACE = ("tools", "pack")


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == PACKAGE and len(parts) > 1 else None


def _imports_of(layers: tuple[str, ...]) -> dict[str, set[str]]:
    return {module: {target for target in targets if _layer(target) is not None}
            for module, targets in import_graph().items() if _layer(module) in layers}


def test_the_domain_imports_nothing_of_the_mcp_surface() -> None:
    found = _imports_of(DOMAIN)
    assert "parlance_i18n.model.checks" in found and "parlance_i18n.loop.status" in found  # the graph sees them
    upward = {module: sorted(t for t in targets if _layer(t) in SURFACE) for module, targets in found.items()}
    assert {module: targets for module, targets in upward.items() if targets} == {}


def test_the_model_does_not_import_the_loop() -> None:
    """The localization loop builds on the catalog model, never the reverse."""
    upward = {module: sorted(t for t in targets if _layer(t) == "loop") for module, targets in _imports_of(("model",)).items()}
    assert {module: targets for module, targets in upward.items() if targets} == {}


def test_nothing_outside_the_mcp_surface_imports_the_wire_models() -> None:
    """Not the domain, nor the modules beside it (settings, store, errors, locales, icu/, formats/)."""
    graph = import_graph()
    importers = sorted(module for module, targets in graph.items()
                       if "parlance_i18n.tools.models" in targets and _layer(module) not in SURFACE)
    assert importers == []
