"""The `parlance` command.

Built-in commands never import `mcp` unless they serve or call MCP, so `parlance packs` and
`--help` stay fast. Commands that packs contribute are looked up only when the command line names
something that is not built in (or asks for help), and each pack is asked inside its error boundary.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from parlance import __version__
from parlance.config import Config, load_config
from parlance.errors import ConfigError, PackError
from parlance.types import ClientInfo, Command, Sampled, SamplingMessage

__all__ = ["main"]

BUILTINS = ("serve", "packs", "tools", "call", "config", "client-config", "language-packs", "demo")
EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = [] if _names_builtin(argv) else _pack_commands(argv)
    parser = _build_parser(commands)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from parlance.logs import configure_logging

    try:
        config = load_config(getattr(args, "config", None))
        # Serving logs at the configured level; one-shot commands only warn, so their output stays readable.
        default_level = config.host.log_level if args.handler is _serve else "WARNING"
        configure_logging(args.log_level or default_level, args.log_format or config.host.log_format)
        return int(args.handler(args, config) or 0)
    except (ConfigError, PackError) as exc:
        print(f"parlance: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`parlance tools | head`): not worth a traceback. Point stdout at
        # /dev/null so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


# --- parser ----------------------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="parlance.toml to use (default: $PARLANCE_CONFIG, "
                        "./parlance.toml, then the user config dir)")
    parser.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], type=str.upper,
                        help="stderr log level (default: [host] log_level, INFO, for serve; WARNING otherwise)")
    parser.add_argument("--log-format", choices=["json", "text"], help="stderr log format (default: json)")


def _build_parser(commands: list[Command]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlance",
        description="Parlance: a plugin-based MCP server for localization work.",
        epilog="Environment: PARLANCE_CONFIG (config file), PARLANCE_PACKS=a,b (load only these packs), "
               "PARLANCE_STRICT_PACKS=1 (a pack that fails to load is fatal).",
    )
    parser.add_argument("--version", action="version", version=f"parlance {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    def add(name: str, help_text: str, handler: Callable[..., int | None]) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        _common(p)
        p.set_defaults(handler=handler)
        return p

    serve = add("serve", "Serve MCP over stdio (default) or streamable HTTP.", _serve)
    serve.add_argument("--transport", choices=["stdio", "http"], help="default: [host] transport, stdio")
    serve.add_argument("--host", dest="bind", metavar="ADDRESS", help="HTTP bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="HTTP port (default 8000)")

    packs = add("packs", "List installed packs and their state (loaded, disabled, failed, incompatible, missing).", _packs)
    packs.add_argument("--json", action="store_true", help="machine-readable output")

    tools = add("tools", "List the tools the enabled packs serve.", _tools)
    tools.add_argument("--json", action="store_true", help="machine-readable output")

    call = add("call", "Call one tool through the same dispatch path MCP clients use.", _call)
    call.add_argument("tool", help="tool name, as `parlance tools` lists it")
    call.add_argument("--args", default="{}", metavar="JSON", help="the tool's arguments as a JSON object")
    call.add_argument("--json", action="store_true", help="print the whole result (isError, structuredContent, text)")

    config = add("config", "Check the configuration, or show the effective one with secrets masked.", _config)
    config.add_argument("action", choices=["check", "show"])
    config.add_argument("--json", action="store_true", help="machine-readable output")

    demo = add("demo", "Walk through every installed pack over a real MCP connection (embedded defaults, "
                       "loopback only; cleans up after itself).", _demo)
    demo.add_argument("--json", action="store_true", help="a machine-readable transcript")

    lang = add("language-packs", "List language packs: where they were found, their state and what they override.",
               _language_packs)
    lang.add_argument("--json", action="store_true", help="machine-readable output")

    client = add("client-config", "Print the snippet that connects an MCP client to Parlance.", _client_config)
    client.add_argument("client", choices=["claude", "cursor", "vscode"])
    client.add_argument("--name", default="parlance", help="server name in the client's config (default parlance)")

    for command in commands:
        p = add(command.name, f"{command.help} (from pack {command.pack})", _pack_command(command))
        command.configure(p)
    return parser


def _names_builtin(argv: list[str]) -> bool:
    first = next((a for a in argv if not a.startswith("-")), None)
    return first in BUILTINS or (first is None and "--version" in argv)


def _pack_commands(argv: list[str]) -> list[Command]:
    """Commands contributed by enabled packs; a pack that fails here is skipped silently (see `parlance packs`)."""
    config_path = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--config"), None)
    try:
        packs = _load_packs(load_config(config_path))
    except (ConfigError, PackError):
        return []
    found: list[Command] = []
    for record in packs.loaded():
        def register(name: str, *, help: str, configure: Any, run: Any, _pack: str = record.name) -> None:
            if name not in BUILTINS and all(c.name != name for c in found):
                found.append(Command(name=name, help=help, configure=configure, run=run, pack=_pack))
        try:
            packs.hook_for(record, "parlance_register_commands")(register=register)
        except Exception:  # a pack's broken command must not take the CLI down
            continue
    return found


def _pack_command(command: Command) -> Callable[[argparse.Namespace, Config], int | None]:
    return lambda args, config: command.run(args)


# --- loading ---------------------------------------------------------------------------------------


def _load_packs(config: Config) -> Any:
    """The packs and language packs, as `parlance packs`, `config check` and `language-packs` report them."""
    from parlance.packs import load_packs

    return load_packs(config)


def _load_host(config: Config) -> Any:
    from parlance.app import Host

    return Host.load(config)


# --- commands --------------------------------------------------------------------------------------


def _serve(args: argparse.Namespace, config: Config) -> int:
    import anyio

    from parlance.server import build_server
    from parlance.transports import http_security, serve_http, serve_stdio

    transport = args.transport or config.host.transport
    security = None
    if transport == "http":  # refuse an unsafe bind before loading anything
        bind, port = args.bind or config.host.bind, args.port if args.port is not None else config.host.port
        security = http_security(bind, config.host.allowed_hosts, config.host.allowed_origins)
    host = _load_host(config)
    server = build_server(host)
    if transport == "http":
        anyio.run(lambda: serve_http(server, bind=bind, port=port, security=security,
                                     max_sessions=config.host.max_sessions,
                                     session_idle_timeout_s=config.host.session_idle_timeout_s,
                                     shutdown_grace_s=config.host.shutdown_grace_s))
    else:
        anyio.run(lambda: serve_stdio(server, shutdown_grace_s=config.host.shutdown_grace_s))
    return EXIT_OK


def _packs(args: argparse.Namespace, config: Config) -> int:
    rows = [r.as_dict() for r in _load_packs(config).records]
    if args.json:
        _print_json(rows)
        return EXIT_OK
    if not rows:
        print("No packs installed. Install one, e.g. `pip install parlance-i18n`.")
    for row in rows:
        label = f"{row['name']:<16} {row['state']:<13} {(row['distribution'] or '-')} {row['version'] or ''}".rstrip()
        print(label)
        if row["tools"]:
            print(f"{'':<17}tools: {', '.join(row['tools'])}")
        if row["error"]:
            print(f"{'':<17}{row['error']}")
    return EXIT_OK


def _tools(args: argparse.Namespace, config: Config) -> int:
    host = _load_host(config)
    rows = [
        {
            "name": t.name,
            "pack": t.pack,
            "title": t.title,
            "description": t.description,
            "annotations": t.hints,
            "inputSchema": t.input_schema,
            "outputSchema": t.output_schema,
        }
        for t in host.registry.tools.values()
    ]
    if args.json:
        _print_json(rows)
        return EXIT_OK
    for row in rows:
        summary = (row["description"] or row["title"] or "").strip().splitlines()
        print(f"{row['name']:<42} {row['pack']:<14} {summary[0] if summary else ''}")
    return EXIT_OK


class _CliBackend:
    """`parlance call` runs with no client: no sampling, progress goes nowhere."""

    protocol_version = None
    client = ClientInfo(name="parlance-cli", version=__version__)
    can_sample = False
    session_persists = False  # one call per process

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None:
        return None

    async def sample(self, messages: Sequence[SamplingMessage], **_: Any) -> Sampled:
        from parlance.errors import SamplingUnavailable

        raise SamplingUnavailable("`parlance call` has no client model to sample; use baseline mode or an MCP client")


def _call(args: argparse.Namespace, config: Config) -> int:
    import anyio

    from parlance.app import UnknownName

    try:
        arguments = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--args is not valid JSON ({exc.msg} at column {exc.colno})",
                          fix="""quote it for your shell, e.g. --args '{"key": "hello"}'""") from None
    if not isinstance(arguments, dict):
        raise ConfigError("--args must be a JSON object", fix="""e.g. --args '{"key": "hello"}'""")
    host = _load_host(config)

    async def run() -> Any:
        async with host.running():
            return await host.call_tool(args.tool, arguments, _CliBackend(), session=_CliBackend)

    try:
        with _stdout_to_stderr():  # stdout carries only the result
            outcome = anyio.run(run)
    except UnknownName:
        known = ", ".join(sorted(host.registry.tools)) or "none (no packs loaded)"
        raise ConfigError(f"unknown tool {args.tool!r}; available: {known}", fix="see `parlance tools`") from None
    if args.json:
        _print_json({"isError": outcome.is_error, "structuredContent": outcome.structured, "text": outcome.text,
                     "_meta": outcome.meta})
    elif outcome.is_error:
        print(outcome.text)
    else:
        _print_json(outcome.structured)
    return EXIT_TOOL_ERROR if outcome.is_error else EXIT_OK


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send what is written to stdout while the block runs to stderr: print() and writes below
    Python alike (a pack's C library or child process writing to fd 1)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _demo(args: argparse.Namespace, config: Config) -> int:
    from parlance.demo import run_demo

    return run_demo(as_json=args.json)


def _language_packs(args: argparse.Namespace, config: Config) -> int:
    # Compat is judged against the versions of the enabled packs, so those are loaded too.
    rows = [lp.as_dict() for lp in _load_packs(config).language_packs.packs]
    if args.json:
        _print_json(rows)
        return EXIT_OK
    if not rows:
        print("No language packs found (search path: [language_packs] paths, ./language_packs, the user data dir).")
    for row in rows:
        print(f"{row['name']:<12} {row['state']:<13} {row['version'] or '-':<8} {', '.join(row['languages'])}  {row['path']}")
        if row["error"]:
            print(f"{'':<13}{row['error']}")
        elif row["overrides"]:
            print(f"{'':<13}{len(row['overrides'])} file(s): {', '.join(row['overrides'][:4])}"
                  + (" ..." if len(row["overrides"]) > 4 else ""))
    return EXIT_OK


def _config(args: argparse.Namespace, config: Config) -> int:
    if args.action == "show":
        shown = config.show()
        _print_json(shown) if args.json else print(_as_toml_like(shown))
        return EXIT_OK
    records = _load_packs(config).records
    problems = [r for r in records if r.state in {"failed", "incompatible", "missing"}]
    report = {
        "config": config.source,
        "ok": not problems,
        "packs": {r.name: r.state for r in records},
        "problems": [{"pack": r.name, "state": r.state, "error": r.error} for r in problems],
    }
    if args.json:
        _print_json(report)
    else:
        print(f"{config.source}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        for p in report["problems"]:
            print(f"  pack {p['pack']} {p['state']}: {p['error']}")
    return EXIT_OK if not problems else EXIT_USAGE


def _client_config(args: argparse.Namespace, config: Config) -> int:
    exe = shutil.which("parlance")
    command, prefix = (exe, []) if exe else (sys.executable, ["-m", "parlance"])
    serve_args = [*prefix, "serve"]
    if config.path is not None:
        serve_args += ["--config", str(Path(config.path).resolve())]
    entry = {"command": command, "args": serve_args}
    where = {
        "claude": "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, "
                  "Windows: %APPDATA%\\Claude\\)",
        "cursor": "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)",
        "vscode": ".vscode/mcp.json in your workspace (or the user-level MCP configuration)",
    }[args.client]
    snippet = {"servers": {args.name: {"type": "stdio", **entry}}} if args.client == "vscode" else \
        {"mcpServers": {args.name: entry}}
    print(f"# Merge this into {where}", file=sys.stderr)
    _print_json(snippet)
    return EXIT_OK


# --- output ----------------------------------------------------------------------------------------


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _as_toml_like(shown: dict[str, Any]) -> str:
    lines = [f"# effective configuration from {shown.pop('source')}"]
    for section, values in shown.items():
        scalars = {k: v for k, v in values.items() if not isinstance(v, dict)}
        lines.append(f"\n[{section}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in scalars.items() if v is not None]
        for name, table in values.items():
            if isinstance(table, dict):
                lines.append(f"\n[{section}.{name}]")
                lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(os.sys.argv[1:]))
