"""The pack API is a contract: this test fails when it changes, so a change is a decision."""

from __future__ import annotations

import inspect
import subprocess
import sys

import parlance
from parlance.context import ToolContext
from parlance.hookspecs import PackSpec


def test_public_names_are_frozen() -> None:
    assert sorted(parlance.__all__) == sorted([
        "HOST_API", "ArgumentProblem", "ClientInfo", "ConfigError", "DemoStep", "PackError", "ParlanceError",
        "PromptMessage", "Sampled", "SamplingFailed", "SamplingMessage", "SamplingUnavailable",
        "ToolContext", "ToolError", "ToolNameCollision", "ToolResult", "__version__", "hookimpl",
    ])
    assert all(hasattr(parlance, name) for name in parlance.__all__)


def test_hooks_are_frozen_and_documented() -> None:
    hooks = {name: inspect.signature(fn) for name, fn in vars(PackSpec).items() if name.startswith("parlance_")}
    assert {name: list(sig.parameters)[1:] for name, sig in hooks.items()} == {
        "parlance_declare_settings": [],
        "parlance_register_tools": ["register", "settings", "language_packs"],
        "parlance_register_prompts": ["register", "settings", "language_packs"],
        "parlance_register_resources": ["register", "settings", "language_packs"],
        "parlance_lifespan": ["settings", "language_packs"],
        "parlance_register_commands": ["register"],
        "parlance_register_demo": ["register"],
    }
    assert all(inspect.getdoc(getattr(PackSpec, name)) for name in hooks)


def test_tool_context_surface() -> None:
    public = {name for name in dir(ToolContext) if not name.startswith("_")}
    public |= {"pack", "name", "settings", "state", "session_state", "logger", "language_packs"}  # instance attributes
    assert public == {"pack", "name", "settings", "state", "session_state", "logger", "language_packs", "protocol_version",
                      "client", "can_sample", "session_persists", "report_progress", "sample"}


def test_importing_parlance_loads_no_pack_and_no_mcp() -> None:
    code = "import sys, parlance; print(any(m == 'mcp' or m.startswith(('mcp.', 'parlance_')) for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
