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
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from parlance import __version__
from parlance.config import Config, load_config
from parlance.errors import ConfigError, PackError, UnknownName
from parlance.types import ClientInfo, Command, Sampled, SamplingMessage

__all__ = ["main"]

BUILTINS = ("serve", "packs", "tools", "call", "config", "client-config", "language-packs", "demo",
            "install", "uninstall", "new-pack")
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
        # The format: --log-format, else [host] log_format, whose default "auto" is text on a terminal.
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
    parser.add_argument("--log-format", choices=["json", "text"], help="stderr log format (default: [host] "
                        "log_format: text when stderr is a terminal, else json)")


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
    config.add_argument("--strict", action="store_true", help="check: warnings (unknown names, missing paths) "
                        "are errors too")

    demo = add("demo", "Walk through every installed pack over a real MCP connection (embedded defaults, "
                       "loopback only; cleans up after itself).", _demo)
    demo.add_argument("--json", action="store_true", help="a machine-readable transcript")

    lang = add("language-packs", "List language packs: where they were found, their state and what they override.",
               _language_packs)
    lang.add_argument("--json", action="store_true", help="machine-readable output")

    client = add("client-config", "Print the snippet that connects an MCP client to Parlance, or merge it into "
                                  "the client's configuration file (--write).", _client_config)
    client.add_argument("client", choices=["claude", "cursor", "vscode"])
    client.add_argument("--name", default="parlance", help="server name in the client's config (default parlance)")
    client.add_argument("--write", action="store_true", help="merge the entry into the client's file, keeping every "
                        "other key; the old file is kept as FILE.<timestamp>.bak")
    client.add_argument("--dry-run", action="store_true", help="print the diff --write would apply; write nothing")
    client.add_argument("--path", metavar="FILE", help="the client's file (default: claude_desktop_config.json of "
                        "this platform, ~/.cursor/mcp.json, ./.vscode/mcp.json)")
    client.add_argument("--project", action="store_true", help="cursor: this project's .cursor/mcp.json")

    install = add("install", "Install packages (packs) into the environment Parlance runs in, and say which "
                             "packs appeared. Uses uv when found, else pip.", _install)
    install.add_argument("packages", nargs="*", metavar="PACKAGE", help="requirement, path or URL, as pip takes them")
    install.add_argument("-e", "--editable", action="append", default=[], metavar="PATH",
                         help="install a local folder in editable mode (repeatable)")
    install.add_argument("-U", "--upgrade", action="store_true", help="upgrade to the newest versions")
    install.add_argument("--force-reinstall", action="store_true", help="reinstall even if up to date")
    install.add_argument("--pre", action="store_true", help="allow pre-release versions")
    install.add_argument("--index-url", metavar="URL", help="package index to use instead of PyPI")
    install.add_argument("--extra-index-url", action="append", default=[], metavar="URL", help="another index")
    install.add_argument("-f", "--find-links", action="append", default=[], metavar="PATH_OR_URL",
                         help="look for wheels here too")
    install.add_argument("--json", action="store_true", help="machine-readable outcome")

    uninstall = add("uninstall", "Uninstall packages from the environment Parlance runs in, and say which packs "
                                 "went away.", _uninstall)
    uninstall.add_argument("packages", nargs="+", metavar="PACKAGE", help="distribution name, e.g. parlance-hello")
    uninstall.add_argument("--json", action="store_true", help="machine-readable outcome")

    new_pack = add("new-pack", "Create a pack folder: pyproject with the entry point, one typed tool, a README "
                               "and tests (parlance.testing) that pass as generated.", _new_pack)
    new_pack.add_argument("name", help="the pack's name, e.g. glossary (distribution parlance-glossary)")
    new_pack.add_argument("--path", metavar="FOLDER", help="where to create it (default ./parlance-NAME)")
    new_pack.add_argument("--description", help="one sentence for pyproject.toml and the README")

    for command in commands:
        p = add(command.name, f"{command.help} (from pack {command.pack})", _pack_command(command))
        command.configure(p)
    return parser


def _names_builtin(argv: list[str]) -> bool:
    first = next((a for a in argv if not a.startswith("-")), None)
    return first in BUILTINS or (first is None and "--version" in argv)


def _pack_commands(argv: list[str]) -> list[Command]:
    """Commands contributed by enabled packs. A pack whose commands fail here is left out of the
    parser; `parlance packs` shows why (`_collect_commands`)."""
    config_path = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--config"), None)
    try:
        packs = _load_packs(load_config(config_path))
    except (ConfigError, PackError):
        return []  # the command itself reports the error once the parser is built
    return _collect_commands(packs)


def _collect_commands(packs: Any) -> list[Command]:
    """Each loaded pack's commands, first come first served. What a pack gets wrong (its
    `parlance_register_commands` raises, or a name is built in or already another pack's) is
    recorded as that pack's error, so `parlance packs` lists it; the pack's tools still load."""
    found: list[Command] = []
    for record in packs.loaded():
        problems: list[str] = []

        def register(name: str, *, help: str, configure: Any, run: Any, _pack: str = record.name,
                     _problems: list[str] = problems) -> None:
            owner = "a built-in command" if name in BUILTINS else next(
                (f"pack {c.pack!r}" for c in found if c.name == name), None)
            if owner is not None:
                _problems.append(f"command {name!r} not added: {owner} already has that name")
                return
            found.append(Command(name=name, help=help, configure=configure, run=run, pack=_pack))

        try:
            with contextlib.redirect_stdout(sys.stderr):  # stdout may be `parlance packs --json`
                packs.hook_for(record, "parlance_register_commands")(register=register)
        except Exception as exc:  # a pack's broken command must not take the CLI down
            problems.append(f"commands not added: parlance_register_commands raised {exc.__class__.__name__}: {exc}")
        if problems:
            record.error = "; ".join(filter(None, [record.error, *problems]))
    return found


def _pack_command(command: Command) -> Callable[[argparse.Namespace, Config], int | None]:
    return lambda args, config: command.run(args)


# --- loading ---------------------------------------------------------------------------------------


def _load_packs(config: Config) -> Any:
    """The packs and language packs, as `parlance packs`, `config check` and `language-packs` report them:
    a tool-name collision is reported with the rest rather than raised, and warnings are left to the caller."""
    from parlance.packs import load_packs

    return load_packs(config, diagnose=True)


def _print_diagnosis(packs: Any) -> int:
    """Warnings and collisions on stderr (stdout may be JSON); EXIT_USAGE when `serve` would refuse to start."""
    _print_warnings(packs)
    for collision in packs.collisions:
        print(f"parlance: error: {collision}", file=sys.stderr)
    if packs.collisions:
        print("parlance: error: `parlance serve` refuses to start until every tool name is served by one pack",
              file=sys.stderr)
    return EXIT_USAGE if packs.collisions else EXIT_OK


def _print_warnings(packs: Any) -> None:
    for warning in packs.warnings:
        print(f"parlance: warning: {warning}", file=sys.stderr)


def _load_host(config: Config) -> Any:
    from parlance.host import Host

    return Host.load(config)


# --- commands --------------------------------------------------------------------------------------


def _serve(args: argparse.Namespace, config: Config) -> int:
    import anyio

    from parlance.server import build_server
    from parlance._transport.serve import http_security, serve_http, serve_stdio

    transport = args.transport or config.host.transport
    security = None
    if transport == "http":  # refuse an unsafe bind before loading anything
        bind, port = args.bind or config.host.bind, args.port if args.port is not None else config.host.port
        security = http_security(bind, config.host.allowed_hosts, config.host.allowed_origins)
    host = _load_host(config)
    server = build_server(host, stateless_http=transport == "http" and config.host.stateless_http)
    from parlance.logs import is_terminal

    if transport == "stdio" and is_terminal(sys.stdin) and is_terminal(sys.stderr):
        print(_stdio_greeting(host), file=sys.stderr, flush=True)  # a person ran it; a client would pipe stdin
    if security is not None:  # transport == "http"
        anyio.run(lambda: serve_http(server, bind=bind, port=port, security=security,
                                     max_sessions=config.host.max_sessions,
                                     session_idle_timeout_s=config.host.session_idle_timeout_s,
                                     shutdown_grace_s=config.host.shutdown_grace_s,
                                     stateless=config.host.stateless_http, json_response=config.host.json_response,
                                     sse_retry_ms=config.host.sse_retry_ms))
    else:
        anyio.run(lambda: serve_stdio(server, shutdown_grace_s=config.host.shutdown_grace_s))
    return EXIT_OK


def _dumped(settings: Any) -> dict[str, Any] | None:
    """A pack's validated settings as JSON data; None (its table shown as written) when a type refuses."""
    try:
        return settings.model_dump(mode="json", by_alias=True)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - a third-party settings type that cannot be serialised
        return None


def _stdio_greeting(host: Any) -> str:
    """The one line `parlance serve` prints when started by hand in a terminal."""
    packs = [r.name for r in host.packs.loaded()]
    tools = len(host.registry.tools)
    served = f"{tools} tool{'s' if tools != 1 else ''} from pack{'s' if len(packs) != 1 else ''} {', '.join(packs)}" \
        if packs else "no packs loaded: see `parlance packs`"
    return (f"Parlance is serving MCP on stdin/stdout ({served}); connect a client with "
            "`parlance client-config claude` (or cursor, vscode); Ctrl-C stops")


def _packs(args: argparse.Namespace, config: Config) -> int:
    packs = _load_packs(config)
    _collect_commands(packs)  # records each pack whose commands `parlance COMMAND` would leave out
    rows = [r.as_dict() for r in packs.records]
    if args.json:
        _print_json(rows)
        return _print_diagnosis(packs)
    if not rows:
        print("No packs installed. Install one, e.g. `pip install parlance-i18n`.")
    for row in rows:
        label = f"{row['name']:<16} {row['state']:<13} {(row['distribution'] or '-')} {row['version'] or ''}".rstrip()
        print(label)
        if row["tools"]:
            print(f"{'':<17}tools: {', '.join(row['tools'])}")
        if row["error"]:
            print(f"{'':<17}{row['error']}")
    return _print_diagnosis(packs)


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
    packs = _load_packs(config)
    _print_warnings(packs)
    rows = [lp.as_dict() for lp in packs.language_packs.packs]
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
    packs = _load_packs(config)
    if args.action == "show":
        # Every loaded pack's settings as validated: defaults filled in, paths resolved, secrets masked.
        effective = {r.name: dumped for r in packs.loaded() if r.settings and (dumped := _dumped(r.settings))}
        shown = config.show(effective)
        _print_json(shown) if args.json else print(_as_toml_like(shown))
        if packs.warnings or packs.collisions:
            print(f"# {len(packs.warnings)} warning(s), {len(packs.collisions)} tool-name collision(s): "
                  "see `parlance config check`", file=sys.stderr)
        return EXIT_OK
    records = packs.records
    problems = [r for r in records if r.state in {"failed", "incompatible", "missing", "conflict"}]
    ok = not problems and not (args.strict and packs.warnings)
    report: dict[str, Any] = {
        "config": config.source,
        "ok": ok,
        "packs": {r.name: r.state for r in records},
        "problems": [{"pack": r.name, "state": r.state, "error": r.error} for r in problems],
        "warnings": [w.as_dict() for w in packs.warnings],
    }
    if args.json:
        _print_json(report)
    else:
        counts = [f"{len(problems)} problem(s)"] if problems else []
        counts += [f"{len(packs.warnings)} {'error' if args.strict else 'warning'}(s)"] if packs.warnings else []
        print(f"{config.source}: {', '.join(counts) or 'ok'}")
        for p in report["problems"]:
            print(f"  pack {p['pack']} {p['state']}: {p['error']}")
        for warning in packs.warnings:
            print(f"  {'error' if args.strict else 'warning'}: {warning}")
        if packs.collisions:
            print("  `parlance serve` refuses to start until every tool name is served by one pack")
    return EXIT_OK if ok else EXIT_USAGE


def _client_config(args: argparse.Namespace, config: Config) -> int:
    from parlance.client_config import run

    return run(args.client, name=args.name, config_path=config.path, write=args.write, dry_run=args.dry_run,
               path=args.path, project=args.project, environ=config.env.variables)


def _install(args: argparse.Namespace, config: Config) -> int:
    from parlance.install import InstallOptions, install

    options = InstallOptions(editable=tuple(args.editable), upgrade=args.upgrade, force_reinstall=args.force_reinstall,
                             pre=args.pre, index_url=args.index_url, extra_index_urls=tuple(args.extra_index_url),
                             find_links=tuple(args.find_links))
    return _report_install(install(args.packages, options, host_env=config.env), args.json)


def _uninstall(args: argparse.Namespace, config: Config) -> int:
    from parlance.install import uninstall

    return _report_install(uninstall(args.packages, host_env=config.env), args.json)


def _report_install(outcome: Any, as_json: bool) -> int:
    if as_json:
        _print_json(outcome.as_dict())
    elif outcome.returncode != 0:
        print(f"parlance: error: {outcome.command[0]} exited with {outcome.returncode}: {' '.join(outcome.command)}",
              file=sys.stderr)
    else:
        print("\n".join(outcome.summary()))
        if outcome.hint:
            print(f"\n{outcome.hint}")
    return EXIT_OK if outcome.returncode == 0 else EXIT_TOOL_ERROR


def _new_pack(args: argparse.Namespace, config: Config) -> int:
    from parlance.scaffold import pack_names, scaffold

    folder, files = scaffold(args.name, Path(args.path) if args.path else None, description=args.description)
    names = pack_names(args.name)
    print(f"Created {folder}: pack {names.pack!r}, distribution {names.distribution}, tool {names.tool}")
    for path in files:
        print(f"  {path.relative_to(folder)}")
    print(f"Next: `parlance install -e {folder}` to serve it, and `python -m pytest` in {folder} to test it.")
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
    raise SystemExit(main(sys.argv[1:]))
