"""The pack API is a contract: this test fails when it changes, so a change is a decision."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import types
from pathlib import Path

import parlance
from parlance.context import ToolContext
from parlance.hookspecs import PackSpec


def test_public_names_are_frozen() -> None:
    assert parlance.__all__ == [
        "HOST_API", "Announcements", "ArgumentProblem", "Audio", "ClientInfo", "Complete", "ConfigError", "Content",
        "DemoStep", "ElicitationFailed", "ElicitationUnavailable", "Elicited", "EmbeddedResource", "FileChange",
        "HistoryPage", "Image",
        "LanguagePack", "LanguagePacks", "LogLevel", "PackError", "ParlanceError", "Principal", "PromptMessage",
        "RegisterCommand",
        "RegisterDemo", "RegisterPrompt", "RegisterResource", "RegisterTool", "ResourceLink", "Root", "Sampled",
        "SamplingFailed", "SamplingMessage", "SamplingUnavailable", "SharedWrite", "Text", "ToolContext", "ToolError",
        "ToolNameCollision", "ToolResult", "Write", "WriteRecord", "__version__", "flatten", "hookimpl", "input_schema_for",
    ]


def test_all_is_exactly_the_public_names() -> None:
    # httpx's test_exported_members: whatever the module binds without a leading underscore is in
    # `__all__` (once), and nothing else. Submodules (`parlance.errors`, ...) are attributes of the
    # package once imported, but not names it exports.
    public = [name for name, value in vars(parlance).items()
              if (not name.startswith("_") or name == "__version__") and not isinstance(value, types.ModuleType)]
    assert sorted(parlance.__all__) == sorted(public)
    assert len(set(parlance.__all__)) == len(parlance.__all__)


def test_hooks_are_frozen_and_documented() -> None:
    hooks = {name: inspect.signature(fn) for name, fn in vars(PackSpec).items() if name.startswith("parlance_")}
    assert {name: list(sig.parameters)[1:] for name, sig in hooks.items()} == {
        "parlance_declare_settings": [],
        "parlance_register_tools": ["register", "settings", "language_packs"],
        "parlance_register_prompts": ["register", "settings", "language_packs"],
        "parlance_register_resources": ["register", "settings", "language_packs"],
        "parlance_lifespan": ["settings", "language_packs", "announce"],
        "parlance_register_commands": ["register"],
        "parlance_setup_hints": ["settings"],
        "parlance_register_demo": ["register"],
        "parlance_shared_write": ["state", "change"],
    }
    assert all(inspect.getdoc(getattr(PackSpec, name)) for name in hooks)


def test_tool_context_surface() -> None:
    public = {name for name in dir(ToolContext) if not name.startswith("_")}
    public |= {"pack", "name", "settings", "state", "session_state", "logger", "language_packs",
               "announce"}  # instance attributes
    assert public == {"pack", "name", "settings", "state", "session_state", "logger", "language_packs", "announce",
                      "protocol_version", "client", "can_sample", "can_elicit", "session_persists", "report_progress",
                      "log", "sample", "elicit", "list_roots", "close_stream", "principal", "write", "history",
                      "shared_state"}


def test_importing_parlance_loads_no_pack_and_no_mcp() -> None:
    code = "import sys, parlance; print(any(m == 'mcp' or m.startswith(('mcp.', 'parlance_')) for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


# --- packs use the pack API and nothing else of the host -------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
PACK_SOURCES = sorted([*ROOT.glob("plugins/*/src"), *ROOT.glob("examples/*/src")])
TEST_KIT = "parlance.testing"
"""The pack authors' test kit, a pytest plugin (README, "Testing a pack"): not importable from
`parlance` without importing pytest. The translation pack's eval runner drives the pack through it."""


def host_submodule_imports(path: Path) -> list[str]:
    """`parlance.<submodule>` imports in a file (`import parlance.x`, `from parlance.x import y`,
    `from parlance import x` when `x` is a module of the host), each as `line: module`."""
    host = Path(parlance.__file__).parent
    submodules = {p.stem for p in host.glob("*.py") if p.stem != "__init__"}
    submodules |= {p.name for p in host.iterdir() if (p / "__init__.py").exists()}
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if node.module == "parlance":
                names += [f"parlance.{alias.name}" for alias in node.names if alias.name in submodules]
        else:
            continue
        found += [f"{node.lineno}: {name}" for name in names if name.startswith("parlance.") and name != TEST_KIT]
    return found


def test_packs_import_only_the_pack_api() -> None:
    files = [path for src in PACK_SOURCES for path in src.rglob("*.py")]
    assert len({path.parts[len(ROOT.parts)] for path in files}) == 2  # plugins/ and examples/ both seen
    offending = {str(path.relative_to(ROOT)): found for path in files if (found := host_submodule_imports(path))}
    assert offending == {}, "import these from `parlance` (export them there if a pack needs them)"


def test_the_pack_import_check_sees_every_spelling(tmp_path: Path) -> None:
    path = tmp_path / "pack.py"
    path.write_text("import parlance.packs\nfrom parlance.types import RegisterTool\nfrom parlance import errors, hookimpl\n"
                    "def f():\n    from parlance.testing import connect\n    from parlance.schemas import flatten\n",
                    encoding="utf-8")
    assert host_submodule_imports(path) == ["1: parlance.packs", "2: parlance.types", "3: parlance.errors",
                                            "6: parlance.schemas"]
