"""At --log-level DEBUG, over stdio and HTTP, no log line holds what a call carried.

Every first-party tool is called with marker strings in its arguments; a sampling client answers
with a marker in the model's reply; a strings-admin emulator on loopback answers the backend calls.
Afterwards stderr is searched for every marker: arguments, results, prompts and model replies
must appear in no log line, whichever library would have written it (sse_starlette logs each SSE
chunk, the SDK whole messages, httpx request URLs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CreateMessageResult, TextContent

from parlance_strings_admin.emulator import Scope, emulator_thread
from tests.support import ERAS, free_port, wait_listening

pytestmark = pytest.mark.anyio

MARK = "MRKq7"  # every marker starts with this, and nothing else in the run contains it


def _calls() -> list[tuple[str, dict[str, Any]]]:
    transcript = (f"Priya: {MARK}-transcript-a, Thomas can you own the {MARK}-script?\n"
                  f"Thomas: Yes, I'll have {MARK}-script ready by Wednesday.\n")
    return [
        ("i18n_add_messages", {"locale": "de", "messages": {f"{MARK}.key": f"{MARK}-message {{count}}"}}),
        ("i18n_translate", {"key": f"{MARK}.key", "locale": "de", "variables": {"count": f"{MARK}-variable"}}),
        ("i18n_translate", {"key": f"{MARK}-missing-key", "locale": "de"}),
        ("i18n_list_locales", {}),
        ("i18n_check", {}),
        ("translate_incoming", {"text": f"Can we revisit {MARK}-incoming?", "channel": "slack",
                                "thread_context": [f"{MARK}-context"]}),
        ("check_tone", {"text": f"Strong nack on {MARK}-tone.", "target_register": "warm", "channel": "github",
                        "baseline_messages": [f"Thanks {MARK}-baseline"]}),
        ("rewrite_outgoing", {"text": f"This is broken: {MARK}-rewrite.", "target_register": "warm",
                              "preserve_terms": [f"{MARK}-term"], "channel": "slack"}),
        ("brief_meeting", {"transcript": transcript, "me": "Thomas"}),
        ("i18n_status", {"locale": "ru", "details": True}),
        ("i18n_missing", {"locale": "ru"}),
        ("i18n_set_messages", {"locale": "ru", "messages": {f"{MARK}.greeting": f"{MARK}-translation {{{{name}}}}",
                                                            f"{MARK}.gone": f"{MARK}-bad"}}),
        ("i18n_translate_missing", {"locale": "ru"}),
        ("i18n_rename_key", {"old": f"{MARK}.greeting", "new": f"{MARK}.hello", "dry_run": True}),
        ("i18n_delete_keys", {"keys": [f"{MARK}.greeting"], "dry_run": True}),
        ("duda_strings_admin_get_all_scopes", {}),
        ("duda_strings_admin_create_new_string_key", {"key": f"{MARK}.new", "value": f"{MARK}-value",
                                                      "scopeValue": "checkout"}),
        ("duda_strings_admin_create_new_string_key", {"key": f"{MARK}.new2", "value": f"{MARK}-value2",
                                                      "scopeValue": f"{MARK}-scope"}),
    ]


async def _model(context: Any, params: Any) -> CreateMessageResult:
    return CreateMessageResult(role="assistant", model=f"{MARK}-model",
                               content=TextContent(type="text", text=f'{{"reply": "{MARK}-model-reply"}}'))


@pytest.fixture
def project(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    with emulator_thread(tmp_path / "emulator.sqlite3", [Scope("checkout", True)]) as emulator:
        for locale, messages in (("en", {f"{MARK}.greeting": f"{MARK}-source {{{{name}}}}",
                                         f"{MARK}.other": f"{MARK}-other-source"}), ("ru", {})):
            (tmp_path / "locales" / locale).mkdir(parents=True)
            (tmp_path / "locales" / locale / "translation.json").write_text(json.dumps(messages), encoding="utf-8")
        (tmp_path / "parlance.toml").write_text(
            f'[host]\nlog_level = "DEBUG"\n[packs.strings_admin]\nhost = "{emulator.host_url}"\n'
            f'[packs.i18n]\nbundle_dirs = []\nwrite = true\n[[packs.i18n.catalogs]]\n'
            f'path = "locales/{{locale}}/translation.json"\nformat = "i18next"\n')
        env = {k: v for k, v in os.environ.items() if k not in ("STRINGS_ADMIN_HOST", "BASE_PATH", "PARLANCE_CONFIG")}
        yield tmp_path, env


async def _call_everything(client: Client) -> int:
    tools = {tool.name for tool in (await client.list_tools()).tools}
    called = 0
    for name, arguments in _calls():
        assert name in tools, f"{name} is not served"
        result = await client.call_tool(name, arguments)
        called += 1
        assert result.content, name  # each call was answered (a tool error counts: its text is content too)
    assert {name for name, _ in _calls()} >= tools - {"i18n_add_messages"}  # every first-party tool
    return called


def _markers_in(log: str) -> list[str]:
    return [line[:200] for line in log.splitlines() if MARK in line]


@pytest.mark.parametrize("mode", list(ERAS))
async def test_stdio_at_debug_logs_no_content(project: tuple[Path, dict[str, str]], mode: str) -> None:
    folder, env = project
    params = StdioServerParameters(command=sys.executable, cwd=str(folder), env=env,
                                   args=["-m", "parlance", "serve", "--config", str(folder / "parlance.toml"),
                                         "--log-level", "DEBUG"])
    errlog = folder / "stderr.log"
    with anyio.fail_after(60), errlog.open("w") as stderr:
        async with Client(stdio_client(params, errlog=stderr), mode=mode, sampling_callback=_model) as client:
            assert await _call_everything(client) == len(_calls())
    log = errlog.read_text()
    assert '"tool.call"' in log  # the log was written
    assert '"i18n.catalog_written"' in log  # a translation was written into the project (and logged)
    assert _markers_in(log) == []


@pytest.mark.parametrize("mode", list(ERAS))
async def test_http_at_debug_logs_no_content(project: tuple[Path, dict[str, str]], mode: str) -> None:
    folder, env = project
    port = free_port()
    errlog = folder / "stderr.log"
    with errlog.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                                 "--config", str(folder / "parlance.toml"), "--log-level", "DEBUG"],
                                cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_listening(port, proc)
        with anyio.fail_after(60):
            async with Client(f"http://127.0.0.1:{port}/mcp", mode=mode, sampling_callback=_model) as client:
                assert await _call_everything(client) == len(_calls())
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    log = errlog.read_text()
    assert '"tool.call"' in log
    assert _markers_in(log) == []
    assert all(json.loads(line) for line in log.splitlines() if line.startswith("{"))
