"""Interop with MCP clients nobody here wrote, over stdio: the MCP Inspector CLI and a script on the
official TypeScript SDK (protocol 2025-11-25). Each lists the tools and calls one tool of every pack,
including an error result. A failure names the client and the step.

The clients are pinned in package-lock.json and installed by .ci/run (`npm ci`); this module installs
them itself when node_modules is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlance_strings_admin.emulator.server import emulator_thread
from parlance_strings_admin.emulator.store import Scope

HERE = Path(__file__).resolve().parent
PARLANCE = [sys.executable, "-m", "parlance", "serve"]

# (step, tool, arguments, expect an error result, check on the structured content)
CALLS: list[tuple[str, str, dict[str, Any], bool]] = [
    ("i18n: translate with no bundles (error result)", "i18n_translate", {"key": "hi"}, True),
    ("i18n: add a bundle", "i18n_add_messages", {"locale": "de", "messages": {"hi": "Hallo {name}"}}, False),
    ("translation: check tone (baseline)", "check_tone", {"text": "This is broken. Please fix before EOD!", "channel": "slack"}, False),
    ("translation: unknown channel (error result)", "translate_incoming", {"text": "hi", "channel": "fax"}, True),
    ("strings_admin: list scopes", "duda_strings_admin_get_all_scopes", {}, False),
    ("strings_admin: blank key (error result)", "duda_strings_admin_create_new_string_key",
     {"key": "", "value": "v", "scopeValue": "checkout"}, True),
]
EXPECTED_CODES = {"i18n: translate with no bundles (error result)": "NO_BUNDLES_LOADED",
                  "translation: unknown channel (error result)": "CHANNEL_UNKNOWN",
                  "strings_admin: blank key (error result)": "invalid_request"}


@pytest.fixture(scope="module")
def node_clients() -> Path:
    installed = (HERE / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir()
    missing = None
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing = ("these tests drive Parlance with the MCP Inspector and the TypeScript SDK client, which need "
                   "Node.js 20 or newer and npm on PATH: install them (https://nodejs.org or your package "
                   "manager), then run `uv run pytest tests/interop` again")
    elif not installed:
        try:
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE, check=True,
                           timeout=600, capture_output=True)
        except (subprocess.SubprocessError, OSError):
            missing = ("`npm ci` in tests/interop failed (it fetches the pinned Node clients from the npm "
                       "registry): run it by hand to see why, then run `uv run pytest tests/interop` again")
    if missing is not None:
        if os.environ.get("CI"):  # CI installs Node and the clients (.ci/run): there, a missing client is a failure
            pytest.fail(missing)
        pytest.skip(missing)
    return HERE / "node_modules"


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("interop")
    with emulator_thread(tmp / "strings.db", [Scope("checkout", True)]) as emulator:
        path = tmp / "parlance.toml"
        path.write_text(
            '[packs]\nenabled = ["i18n", "translation", "strings_admin"]\n\n'
            '[packs.translation]\nmode = "baseline"\n\n'
            f'[packs.strings_admin]\nhost = "{emulator.host_url}"\n\n'
            '[language_packs]\npaths = []\nautoload = false\n'
        )
        yield path


def _env(config: Path) -> dict[str, str]:
    env = {**os.environ, "PARLANCE_CONFIG": str(config)}
    env.pop("STRINGS_ADMIN_HOST", None)
    env.pop("BASE_PATH", None)
    return env


def _check(client: str, step: str, is_error: bool, structured: Any, expect_error: bool) -> None:
    assert is_error == expect_error, f"{client}, step {step!r}: isError={is_error}, expected {expect_error}: {structured}"
    if expect_error:
        code = (structured or {}).get("code")
        assert code == EXPECTED_CODES[step], f"{client}, step {step!r}: error code {code!r}, expected {EXPECTED_CODES[step]!r}"
    else:
        assert isinstance(structured, dict), f"{client}, step {step!r}: no structured content"


def _inspector(node_clients: Path, config: Path, *method_args: str) -> dict[str, Any]:
    cli = node_clients / ".bin" / "mcp-inspector"
    proc = subprocess.run([str(cli), "--cli", "--format", "json", "-q", "-e", f"PARLANCE_CONFIG={config}",
                           *PARLANCE, *method_args], capture_output=True, text=True, env=_env(config), timeout=120,
                          cwd=config.parent)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"MCP Inspector CLI printed no JSON (exit {proc.returncode}): "
                             f"{proc.stdout[-500:]} {proc.stderr[-500:]}") from None


def test_inspector_cli_lists_tools(node_clients: Path, config: Path) -> None:
    reply = _inspector(node_clients, config, "--method", "tools/list")
    assert "result" in reply, f"MCP Inspector CLI, step 'tools/list': {reply}"
    names = {t["name"] for t in reply["result"]["tools"]}
    assert {tool for _, tool, _, _ in CALLS} <= names, f"MCP Inspector CLI, step 'tools/list': got {sorted(names)}"


@pytest.mark.parametrize(("step", "tool", "arguments", "expect_error"), CALLS, ids=[c[0] for c in CALLS])
def test_inspector_cli_calls_a_tool_of_every_pack(node_clients: Path, config: Path, step: str, tool: str,
                                                   arguments: dict[str, Any], expect_error: bool) -> None:
    reply = _inspector(node_clients, config, "--method", "tools/call", "--tool-name", tool,
                       "--tool-args-json", json.dumps(arguments))
    assert "result" in reply, f"MCP Inspector CLI, step {step!r}: {reply}"
    result = reply["result"]
    _check("MCP Inspector CLI", step, bool(result.get("isError")), result.get("structuredContent"), expect_error)


def test_typescript_sdk_client(node_clients: Path, config: Path) -> None:
    plan = {"command": PARLANCE[0], "args": PARLANCE[1:], "env": {"PARLANCE_CONFIG": str(config)},
            "calls": [{"step": step, "tool": tool, "arguments": args} for step, tool, args, _ in CALLS]}
    proc = subprocess.run(["node", str(HERE / "ts_client.mjs"), json.dumps(plan)], capture_output=True, text=True,
                          env=_env(config), timeout=120, cwd=HERE)
    out = json.loads(proc.stdout) if proc.stdout.strip() else {"failedStep": "start", "error": proc.stderr[-500:]}
    assert "failedStep" not in out, f"TypeScript SDK client, step {out.get('failedStep')!r}: {out.get('error')}"
    assert out["protocolVersion"] == "2025-11-25", f"TypeScript SDK client, step 'initialize': {out['protocolVersion']}"
    assert {tool for _, tool, _, _ in CALLS} <= set(out["tools"]), "TypeScript SDK client, step 'tools/list'"
    for (step, _, _, expect_error), result in zip(CALLS, out["results"], strict=True):
        _check("TypeScript SDK client", step, result["isError"], result["structuredContent"], expect_error)
