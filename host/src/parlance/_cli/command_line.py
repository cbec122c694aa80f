"""The `parlance` command line: the parser, the configuration and logging, and the exit status.

Built-in commands never import `mcp` unless they serve or call MCP, so `parlance packs` and
`--help` stay fast. Commands that packs contribute are looked up only when the command line names
something that is not built in (or asks for help), and each pack is asked inside its error boundary
(`parlance._cli.pack_commands`); what each command does is in `parlance._cli.commands`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from parlance import __version__
from parlance._cli import commands
from parlance._cli.pack_commands import as_handler, names_builtin, pack_commands
from parlance.config import load_config
from parlance.errors import ConfigError, PackError
from parlance.types import Command

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    contributed = [] if names_builtin(argv) else pack_commands(argv)
    parser = _build_parser(contributed)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return commands.EXIT_USAGE
    from parlance.logs import configure_logging

    try:
        config = load_config(getattr(args, "config", None))
        # Serving logs at the configured level; one-shot commands only warn, so their output stays readable.
        # The format: --log-format, else [host] log_format, whose default "auto" is text on a terminal.
        default_level = config.host.log_level if args.handler is commands.serve else "WARNING"
        configure_logging(args.log_level or default_level, args.log_format or config.host.log_format)
        return int(args.handler(args, config) or 0)
    except (ConfigError, PackError) as exc:
        print(f"parlance: error: {exc}", file=sys.stderr)
        return commands.EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`parlance tools | head`): not worth a traceback. Point stdout at
        # /dev/null so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return commands.EXIT_OK


# --- parser ---------------------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="parlance.toml to use (default: $PARLANCE_CONFIG, "
                        "./parlance.toml, then the user config dir)")
    parser.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], type=str.upper,
                        help="stderr log level (default: [host] log_level, INFO, for serve; WARNING otherwise)")
    parser.add_argument("--log-format", choices=["json", "text"], help="stderr log format (default: [host] "
                        "log_format: text when stderr is a terminal, else json)")


def _build_parser(contributed: list[Command]) -> argparse.ArgumentParser:
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

    serve = add("serve", "Serve MCP over stdio (default) or streamable HTTP.", commands.serve)
    serve.add_argument("--transport", choices=["stdio", "http"], help="default: [host] transport, stdio")
    serve.add_argument("--host", dest="bind", metavar="ADDRESS", help="HTTP bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="HTTP port (default 8000)")

    packs = add("packs", "List installed packs and their state (loaded, disabled, failed, incompatible, missing).",
                commands.packs)
    packs.add_argument("--json", action="store_true", help="machine-readable output")

    tools = add("tools", "List the tools the enabled packs serve.", commands.tools)
    tools.add_argument("--json", action="store_true", help="machine-readable output")

    call = add("call", "Call one tool through the same dispatch path MCP clients use.", commands.call)
    call.add_argument("tool", help="tool name, as `parlance tools` lists it")
    call.add_argument("--args", default="{}", metavar="JSON", help="the tool's arguments as a JSON object")
    call.add_argument("--json", action="store_true", help="print the whole result (isError, structuredContent, text)")

    config = add("config", "Check the configuration, or show the effective one with secrets masked.",
                 commands.config)
    config.add_argument("action", choices=["check", "show"])
    config.add_argument("--json", action="store_true", help="machine-readable output")
    config.add_argument("--strict", action="store_true", help="check: warnings (unknown names, missing paths) "
                        "are errors too")

    demo = add("demo", "Walk through every installed pack over a real MCP connection (embedded defaults, "
                       "loopback only; cleans up after itself).", commands.demo)
    demo.add_argument("--json", action="store_true", help="a machine-readable transcript")

    lang = add("language-packs", "List language packs: where they were found, their state and what they override.",
               commands.language_packs)
    lang.add_argument("--json", action="store_true", help="machine-readable output")

    client = add("client-config", "Print the snippet that connects an MCP client to Parlance, or merge it into "
                                  "the client's configuration file (--write).", commands.client_config)
    client.add_argument("client", choices=["claude", "cursor", "vscode"])
    client.add_argument("--name", default="parlance", help="server name in the client's config (default parlance)")
    client.add_argument("--write", action="store_true", help="merge the entry into the client's file, keeping every "
                        "other key; the old file is kept as FILE.<timestamp>.bak")
    client.add_argument("--dry-run", action="store_true", help="print the diff --write would apply; write nothing")
    client.add_argument("--path", metavar="FILE", help="the client's file (default: claude_desktop_config.json of "
                        "this platform, ~/.cursor/mcp.json, ./.vscode/mcp.json)")
    client.add_argument("--project", action="store_true", help="cursor: this project's .cursor/mcp.json")

    install = add("install", "Install packages (packs) into the environment Parlance runs in, and say which "
                             "packs appeared. Uses uv when found, else pip.", commands.install)
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
                                 "went away.", commands.uninstall)
    uninstall.add_argument("packages", nargs="+", metavar="PACKAGE", help="distribution name, e.g. parlance-hello")
    uninstall.add_argument("--json", action="store_true", help="machine-readable outcome")

    new_pack = add("new-pack", "Create a pack folder: pyproject with the entry point, one typed tool, a README "
                               "and tests (parlance.testing) that pass as generated.", commands.new_pack)
    new_pack.add_argument("name", help="the pack's name, e.g. glossary (distribution parlance-glossary)")
    new_pack.add_argument("--path", metavar="FOLDER", help="where to create it (default ./parlance-NAME)")
    new_pack.add_argument("--description", help="one sentence for pyproject.toml and the README")

    for command in contributed:
        p = add(command.name, f"{command.help} (from pack {command.pack})", as_handler(command))
        command.configure(p)
    return parser
