"""`parlance demo`: a walk through every installed pack, over a real stdio connection.

The demo uses the embedded defaults only (no parlance.toml, no language packs from the working
directory): it asks each pack for its demo section, lets packs start what they need (the
strings-admin pack starts its emulator on a free loopback port with a temporary database), writes a
temporary config, spawns `parlance serve` as a subprocess, connects the SDK's MCP client, and runs
every step, printing the tool, the arguments, the result and the latency. Everything it started or
wrote is gone when it returns.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from parlance import __version__
from parlance.config import Config
from parlance.types import DemoStep

__all__ = ["run_demo"]

WIDTH = 96
_SHOWN_LINES = 16


@dataclass
class _Section:
    pack: str
    title: str
    steps: list[DemoStep]
    setup: Callable[[], contextlib.AbstractContextManager[dict[str, Any]]] | None


@dataclass
class _Ran:
    pack: str
    step: DemoStep
    is_error: bool
    structured: Any
    text: str
    meta: dict[str, Any] | None
    latency_ms: float
    progress: list[str] = field(default_factory=list)

    @property
    def as_expected(self) -> bool:
        return self.is_error == self.step.expect_error


def run_demo(*, as_json: bool = False, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    sections = _collect_sections()
    if not sections:
        print("No installed pack offers a demo. Install parlance-i18n, parlance-translation or "
              "parlance-strings-admin.", file=out)
        return 1
    with tempfile.TemporaryDirectory(prefix="parlance-demo-") as tmp, contextlib.ExitStack() as stack:
        tables: dict[str, dict[str, Any]] = {}
        for section in sections:  # a pack's sections share its table: each setup adds its settings
            tables.setdefault(section.pack, {}).update(stack.enter_context(section.setup()) if section.setup else {})
        config_path = Path(tmp) / "parlance.toml"
        config_path.write_text(_config_text(sections, tables), encoding="utf-8")
        if not as_json:
            _header(out, sections, tables)
        import anyio

        server_info, ran = anyio.run(_drive, config_path, sections, Path(tmp) / "server.log",
                                     None if as_json else out)
    failures = [r for r in ran if not r.as_expected]
    if as_json:
        json.dump(_as_json(server_info, ran, failures), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        _footer(out, ran, failures)
    return 0 if not failures else 1


def _collect_sections() -> list[_Section]:
    from parlance.packs import load_packs

    packs = load_packs(Config())  # the embedded defaults: every installed pack, default settings
    sections: list[_Section] = []
    for record in packs.loaded():
        def register(*, title: str, steps: list[DemoStep], setup: Any = None, _pack: str = record.name) -> None:
            sections.append(_Section(_pack, title, list(steps), setup))

        packs.hook_for(record, "parlance_register_demo")(register=register)
    return sections


def _config_text(sections: list[_Section], tables: dict[str, dict[str, Any]]) -> str:
    names = ", ".join(json.dumps(pack) for pack in dict.fromkeys(s.pack for s in sections))
    lines = ['[host]', 'log_level = "INFO"', "", "[packs]", f"enabled = [{names}]", "",
             "[language_packs]", "paths = []", "autoload = false"]
    for pack, table in tables.items():
        if table:
            lines += ["", f"[packs.{pack}]"] + [f"{key} = {_toml(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))  # a JSON string with \u escapes is a valid TOML basic string


async def _drive(config_path: Path, sections: list[_Section], log_path: Path,
                 out: TextIO | None) -> tuple[dict[str, Any], list[_Ran]]:
    from mcp import Client
    from mcp.client.stdio import stdio_client

    from parlance.testing import stdio_server_params

    ran: list[_Ran] = []
    with open(log_path, "w+", encoding="utf-8") as server_log:
        params = stdio_server_params(config_path)
        async with Client(stdio_client(params, errlog=server_log), mode="legacy") as client:
            info = {"name": client.server_info.name if client.server_info else "parlance",
                    "protocolVersion": client.protocol_version,
                    "tools": len((await client.list_tools()).tools)}
            if out is not None:
                out.write(f"Connected: {info['name']} over stdio, MCP {info['protocolVersion']}, "
                          f"{info['tools']} tools.\n")
            number = 0
            for section in sections:
                if out is not None:
                    out.write(f"\n── {section.title} " + "─" * max(3, WIDTH - len(section.title) - 4) + "\n")
                for step in section.steps:
                    number += 1
                    notes: list[str] = []

                    # The parameters are named as the SDK's ProgressFnT names them.
                    async def on_progress(progress: float, total: float | None, message: str | None,
                                          _seen: list[str] = notes) -> None:
                        _seen.append(message or (f"{progress:g}/{total:g}" if total else f"{progress:g}"))

                    started = time.perf_counter()
                    result = await client.call_tool(step.tool, step.arguments, progress_callback=on_progress)
                    latency = (time.perf_counter() - started) * 1000
                    text = result.content[0].text if result.content and hasattr(result.content[0], "text") else ""
                    entry = _Ran(section.pack, step, bool(result.is_error), result.structured_content, text,
                                 result.meta, latency, notes)
                    ran.append(entry)
                    if out is not None:
                        _print_step(out, number, entry)
    return info, ran


def _header(out: TextIO, sections: list[_Section], tables: dict[str, dict[str, Any]]) -> None:
    out.write(f"Parlance {__version__} demo: every installed pack, through a real MCP client and server.\n")
    out.write(f"Packs: {', '.join(dict.fromkeys(s.pack for s in sections))}. Embedded defaults only; nothing leaves this machine.\n")
    for pack, table in tables.items():
        for key, value in table.items():
            out.write(f"  [{pack}] {key} = {value}\n")


def _print_step(out: TextIO, number: int, ran: _Ran) -> None:
    mark = "ok" if ran.as_expected else "UNEXPECTED"
    kind = "error, as intended" if ran.is_error and ran.step.expect_error else ("error" if ran.is_error else "")
    out.write(f"\n{number:>2}. {ran.step.title}\n")
    out.write(f"    call   {ran.step.tool} {_short(json.dumps(ran.step.arguments, ensure_ascii=False), 160)}\n")
    if ran.is_error:
        out.write(f"    result {_short(ran.text, 300)}\n")
    else:
        out.write(f"    result {_short(json.dumps(ran.structured, ensure_ascii=False), 300)}\n")
    shown = _dig(ran.meta, ran.step.show_meta) if ran.step.show_meta else None
    if shown:
        excerpt = str(shown).strip().splitlines()
        out.write(f"    _meta  {ran.step.show_meta}: {len(excerpt)} lines, starting:\n")
        for line in excerpt[:4]:
            out.write(f"             │ {_short(line, 84)}\n")
    shown = _dig(ran.structured, ran.step.show_result) if ran.step.show_result else None
    if shown:
        lines = ("\n".join(map(str, shown)) if isinstance(shown, list) else str(shown)).rstrip().splitlines()
        out.write(f"    {ran.step.show_result}:\n")
        for line in lines[:_SHOWN_LINES]:
            out.write(f"             │ {line if len(line) <= 100 else line[:99] + '…'}\n")
        if len(lines) > _SHOWN_LINES:
            out.write(f"             │ … {len(lines) - _SHOWN_LINES} more lines\n")
    if ran.progress:
        out.write(f"    progress {len(ran.progress)} notifications: {', '.join(ran.progress[:4])}\n")
    out.write(f"    {ran.latency_ms:.1f} ms  {mark}{'  (' + kind + ')' if kind else ''}\n")


def _footer(out: TextIO, ran: list[_Ran], failures: list[_Ran]) -> None:
    errors = sum(1 for r in ran if r.is_error and r.step.expect_error)
    latencies = sorted(r.latency_ms for r in ran)
    median = latencies[len(latencies) // 2] if latencies else 0.0
    out.write("\n" + "─" * WIDTH + "\n")
    out.write(f"{len(ran)} calls, {errors} intended error results, median latency {median:.1f} ms. ")
    if failures:
        out.write(f"{len(failures)} step(s) did not go as expected: "
                  f"{', '.join(r.step.title for r in failures)}.\n")
    else:
        out.write("All steps went as expected; the server, the emulator and the temporary files are gone.\n")


def _as_json(server: dict[str, Any], ran: list[_Ran], failures: list[_Ran]) -> dict[str, Any]:
    return {
        "server": server,
        "ok": not failures,
        "steps": [
            {
                "pack": r.pack,
                "title": r.step.title,
                "tool": r.step.tool,
                "arguments": r.step.arguments,
                "isError": r.is_error,
                "expectedError": r.step.expect_error,
                "structuredContent": r.structured,
                "text": r.text,
                "latency_ms": round(r.latency_ms, 3),
                "progress": r.progress,
            }
            for r in ran
        ],
    }


def _dig(value: Any, path: str) -> Any:
    """A lookup by a dotted path into `_meta` or a result; keys may contain '/' (e.g.
    `parlance/translation.refinement_prompt`), and a number picks an item of a list (`results.0.reasons`)."""
    for key in path.split("."):
        if isinstance(value, list) and key.isdigit():
            value = value[int(key)] if int(key) < len(value) else None
        elif isinstance(value, dict):
            value = value.get(key)
        else:
            return None
    return value


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
