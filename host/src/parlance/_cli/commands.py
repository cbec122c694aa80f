"""What each built-in command of `parlance` does, given its parsed arguments and the configuration.

Each handler imports what it needs when it runs: `parlance packs` never loads the MCP SDK, and only
`parlance serve` loads the transports. The parser that routes to them is `parlance._cli.command_line`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from parlance import __version__
from parlance._cli.pack_commands import collect_commands
from parlance._cli.pack_hints import collect_hints
from parlance._user_files import PARSER_LIMITS
from parlance.config import Config
from parlance.errors import ConfigError, UnknownName
from parlance.types import ClientInfo, Sampled, SamplingMessage

__all__ = ["EXIT_OK", "EXIT_TOOL_ERROR", "EXIT_USAGE", "call", "client_config", "config", "demo", "install",
           "language_packs", "new_pack", "packs", "serve", "tools", "uninstall"]

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2


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


def serve(args: argparse.Namespace, config: Config) -> int:
    import anyio

    from parlance._transport.serve import http_security, serve_http, serve_stdio
    from parlance._transport.stop_deadline import StopDeadline
    from parlance.server import build_server

    transport = args.transport or config.host.transport
    security = None
    if transport == "http":  # refuse an unsafe bind before loading anything
        from parlance._transport.http_auth import require_auth, resource_server

        bind, port = args.bind or config.host.bind, args.port if args.port is not None else config.host.port
        security = http_security(bind, config.host.allowed_hosts, config.host.allowed_origins)
        require_auth(bind, config.auth, source=config.source)
    host = _load_host(config)
    server = build_server(host, stateless_http=transport == "http" and config.host.stateless_http)
    auth = None
    if security is not None:  # scopes per tool: read_scopes, write_scopes, service_write_scopes (http_auth)
        read_only = {name: bool(tool.hints.get("readOnlyHint")) for name, tool in host.registry.tools.items()}
        open_world = {name: bool(tool.hints.get("openWorldHint")) for name, tool in host.registry.tools.items()}
        auth = resource_server(config.auth, config.host.public_url, read_only, open_world=open_world,
                               source=config.source,
                               environ=config.env.variables)
    from parlance.logs import is_terminal

    if transport == "stdio" and is_terminal(sys.stdin) and is_terminal(sys.stderr):
        print(_stdio_greeting(host), file=sys.stderr, flush=True)  # a person ran it; a client would pipe stdin
    # This process is ours to end: once stopping begins, it is gone shortly after the grace period,
    # even if a pack's call is stuck in a thread that Python cannot stop (see stop_deadline).
    deadline = StopDeadline(config.host.shutdown_grace_s)
    if security is not None:  # transport == "http"
        anyio.run(lambda: serve_http(server, bind=bind, port=port, security=security,
                                     max_sessions=config.host.max_sessions,
                                     session_idle_timeout_s=config.host.session_idle_timeout_s,
                                     shutdown_grace_s=config.host.shutdown_grace_s,
                                     stateless=config.host.stateless_http, json_response=config.host.json_response,
                                     sse_retry_ms=config.host.sse_retry_ms, deadline=deadline, auth=auth,
                                     state=host.state))
    else:
        anyio.run(lambda: serve_stdio(server, shutdown_grace_s=config.host.shutdown_grace_s, deadline=deadline))
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


def packs(args: argparse.Namespace, config: Config) -> int:
    packs = _load_packs(config)
    collect_commands(packs)  # records each pack whose commands `parlance COMMAND` would leave out
    hints = collect_hints(packs)
    rows = [{**r.as_dict(), "hints": hints.get(r.name, [])} for r in packs.records]
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
        for hint in row["hints"]:
            print(f"{'':<17}hint: {hint}")
        if row["error"]:
            print(f"{'':<17}{row['error']}")
    return _print_diagnosis(packs)


def tools(args: argparse.Namespace, config: Config) -> int:
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
    for pack, lines in collect_hints(host.packs).items():  # what other settings would add
        for line in lines:
            print(f"{pack}: {line}")
    return EXIT_OK


class _CliBackend:
    """`parlance call` runs with no client: no sampling, progress goes nowhere."""

    protocol_version = None
    client = ClientInfo(name="parlance-cli", version=__version__)
    can_sample = False
    principal = None  # no token: the person at the terminal
    session_persists = False  # one call per process

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None:
        return None

    async def sample(self, messages: Sequence[SamplingMessage], **_: Any) -> Sampled:
        from parlance.errors import SamplingUnavailable

        raise SamplingUnavailable("`parlance call` has no client model to sample; use baseline mode or an MCP client")


def call(args: argparse.Namespace, config: Config) -> int:
    import anyio

    try:
        arguments = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--args is not valid JSON ({exc.msg} at column {exc.colno})",
                          fix="""quote it for your shell, e.g. --args '{"key": "hello"}'""") from None
    except PARSER_LIMITS:  # json recurses: nesting deeper than Python's stack; an integer past 4,300 digits
        raise ConfigError("--args is JSON this parser cannot hold (nested too deeply, or a number too long)",
                          fix="pass the tool's arguments as a flatter JSON object") from None
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


def demo(args: argparse.Namespace, config: Config) -> int:
    from parlance._cli.demo import run_demo

    return run_demo(as_json=args.json)


def language_packs(args: argparse.Namespace, config: Config) -> int:
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


def config(args: argparse.Namespace, config: Config) -> int:
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


def client_config(args: argparse.Namespace, config: Config) -> int:
    from parlance._cli.client_config import run as write_client_config

    return write_client_config(args.client, name=args.name, config_path=config.path, write=args.write, dry_run=args.dry_run,
               path=args.path, project=args.project, environ=config.env.variables)


def install(args: argparse.Namespace, config: Config) -> int:
    from parlance._cli.install import InstallOptions
    from parlance._cli.install import install as install_packages

    options = InstallOptions(editable=tuple(args.editable), upgrade=args.upgrade, force_reinstall=args.force_reinstall,
                             pre=args.pre, index_url=args.index_url, extra_index_urls=tuple(args.extra_index_url),
                             find_links=tuple(args.find_links))
    return _report_install(install_packages(args.packages, options, host_env=config.env), args.json)


def uninstall(args: argparse.Namespace, config: Config) -> int:
    from parlance._cli.install import uninstall as uninstall_packages

    return _report_install(uninstall_packages(args.packages, host_env=config.env), args.json)


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


def new_pack(args: argparse.Namespace, config: Config) -> int:
    from parlance._cli.scaffold import pack_names, scaffold

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
