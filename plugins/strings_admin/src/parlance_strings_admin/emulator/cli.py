"""`parlance strings-admin emulator`: the command-line face of the emulator.

This is a CLI command, not the MCP server, so it may write to stdout: it prints the URL to point
`STRINGS_ADMIN_HOST` at once it is listening.
"""

from __future__ import annotations

import argparse
import sys

from parlance_strings_admin.emulator.store import Scope, StringsStore, default_db_path
from parlance_strings_admin.settings import DEFAULT_BASE_PATH, normalize_base_path

__all__ = ["configure", "parse_scope", "run"]

TRANSLATE_SUFFIX = ":translate"


def parse_scope(text: str) -> Scope:
    """`NAME` or `NAME:translate` (shouldTranslate true)."""
    name, translate = (text[: -len(TRANSLATE_SUFFIX)], True) if text.endswith(TRANSLATE_SUFFIX) else (text, False)
    if not name.strip():
        raise argparse.ArgumentTypeError(f"a scope needs a name, as in 'checkout' or 'checkout{TRANSLATE_SUFFIX}'; got {text!r}")
    return Scope(name, translate)


def _base_path(text: str) -> str:
    try:
        return normalize_base_path(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--base-path {exc}") from None


def configure(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="strings_admin_command", metavar="COMMAND", required=True)
    emulator = commands.add_parser(
        "emulator",
        help="run a local strings-admin service (same REST contract, SQLite storage) for tests and demos",
        description="Serve GET {base}scopes/ and POST {base}keys/{scope} from a SQLite file.",
    )
    emulator.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)")
    emulator.add_argument("--port", type=int, default=8088, help="port to bind; 0 picks a free one (default: 8088)")
    emulator.add_argument("--db", default=None, help=f"SQLite file, kept across restarts (default: {default_db_path()})")
    emulator.add_argument(
        "--scope",
        action="append",
        type=parse_scope,
        default=[],
        metavar="NAME[:translate]",
        help="create this scope if missing (repeatable); ':translate' sets shouldTranslate",
    )
    emulator.add_argument("--base-path", type=_base_path, default=DEFAULT_BASE_PATH, help="REST path prefix")
    # Same option and spelling as every `parlance` command (it shares their `log_level`), accepted here too
    # so that `parlance strings-admin emulator --log-level INFO` works after the subcommand.
    emulator.add_argument("--log-level", type=str.upper, choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                          help="the emulator's request log level (default WARNING)")


def run(args: argparse.Namespace) -> int:
    # Imported here: uvicorn is needed to serve, not to build `parlance --help`.
    from parlance_strings_admin.emulator.server import bind, serve_forever, service_url

    db_path = args.db or default_db_path()
    store = StringsStore(db_path)
    store.add_scopes(args.scope)
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"strings-admin emulator: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    url = service_url(sock)
    print(f"strings-admin emulator listening on {url}{args.base_path} (db: {db_path})", flush=True)
    print(f"  STRINGS_ADMIN_HOST={url} BASE_PATH={args.base_path}", flush=True)
    serve_forever(sock, store, args.base_path, (args.log_level or "WARNING").lower())
    return 0
