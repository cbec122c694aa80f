"""`parlance client-config`: the entry that makes an MCP client start Parlance, printed or merged.

The entry names this installation by absolute path (the `parlance` script next to the running
interpreter, or `python -m parlance`) and the configuration file in use, so the client can start it
from any folder. A run from uv's cache (`uvx`) names `uvx` instead, since that environment is
temporary.

`--write` merges the entry into the client's file: every other key is kept (and every other key of
an existing entry of the same name, e.g. its `env`), the old file is copied to a timestamped backup,
and the new one replaces it atomically (a temporary file in the same folder, then `os.replace`).
`--dry-run` prints the unified diff instead. A file that is not plain JSON (comments, trailing
commas), repeats a key, or is not UTF-8 is left alone with an error, never rewritten without what
a rewrite would drop; a UTF-8 byte order mark is kept. So is anything that is not a regular file of
at most `MAX_USER_FILE_BYTES` (a FIFO, a link to a device) and JSON nested deeper than the parser
can follow: a clear error, never a hang, a traceback or memory read away (`parlance._user_files`). An existing entry of the same name that
chooses another transport (an HTTP entry: `url`, `"type": "http"`) becomes a stdio entry: its
transport keys are dropped, the others kept, and the command says so.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.metadata
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parlance._user_files import (
    MAX_USER_FILE_BYTES,
    PARSER_LIMITS,
    FileTooLarge,
    NotARegularFile,
    read_user_file,
    reason,
)
from parlance.config import read_environment
from parlance.errors import ConfigError

__all__ = ["CLIENTS", "default_path", "merge", "run", "server_entry", "snippet", "transport_of", "write_atomically"]

CLIENTS = ("claude", "cursor", "vscode")
WHERE = {
    "claude": "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, "
              "Windows: %APPDATA%\\Claude\\, Linux: ~/.config/Claude/)",
    "cursor": "~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)",
    "vscode": ".vscode/mcp.json in your workspace (or the user-level MCP configuration)",
}


# Keys of a server entry that choose how the client reaches the server, across clients: replaced
# as a whole when an entry of another transport becomes Parlance's stdio entry.
TRANSPORT_KEYS = frozenset({"type", "transport", "url", "serverUrl", "httpUrl", "headers", "command", "args"})
BOM = "\ufeff"


def _top_key(client: str) -> str:
    return "servers" if client == "vscode" else "mcpServers"


# --- the entry ------------------------------------------------------------------------------------


def server_entry(client: str, config_path: str | os.PathLike[str] | None) -> dict[str, Any]:
    """`{"command": ..., "args": [...]}` (plus `"type": "stdio"` for VS Code), all paths absolute."""
    command, args = _serve_command()
    if config_path is not None:
        args += ["--config", str(Path(config_path).resolve())]
    entry: dict[str, Any] = {"command": command, "args": args}
    return {"type": "stdio", **entry} if client == "vscode" else entry


def _serve_command() -> tuple[str, list[str]]:
    if _in_uv_cache(Path(sys.prefix)):
        uvx = shutil.which("uvx")
        if uvx:
            return str(Path(uvx).absolute()), [*_uvx_requirements(), "parlance", "serve"]
    bindir = Path(sys.executable).absolute().parent  # never resolved: a venv's python is a symlink
    script = bindir / ("parlance.exe" if os.name == "nt" else "parlance")
    if script.is_file():
        return str(script), ["serve"]
    return str(Path(sys.executable).absolute()), ["-m", "parlance", "serve"]


def _in_uv_cache(prefix: Path) -> bool:
    """True for the temporary environments `uvx` / `uv tool run` build in uv's cache."""
    return any(part.startswith("archive-v") for part in prefix.parts)


def _uvx_requirements() -> list[str]:
    """`--from DIST --with PACK ...`: the distribution that brought the `parlance` command (the one no
    other one requires, e.g. the bundle rather than the host alone) and every pack it does not bring."""
    from parlance._cli.install import (
        canonical,
        command_distributions,
        host_distribution,
        required_names,
        unrequired,
    )

    candidates = command_distributions() or [host_distribution()]
    top = (unrequired(candidates) or candidates)[0]
    brought = required_names(top) | {canonical(top.metadata["Name"])}
    extra = sorted({ep.dist.metadata["Name"] for group in ("parlance.packs", "parlance.language_packs")
                    for ep in importlib.metadata.entry_points(group=group)
                    if ep.dist is not None and canonical(ep.dist.metadata["Name"]) not in brought})
    return ["--from", top.metadata["Name"], *(w for name in extra for w in ("--with", name))]


def snippet(client: str, name: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    return {_top_key(client): {name: dict(entry)}}


# --- the client's file ----------------------------------------------------------------------------


def default_path(client: str, *, project: bool = False, platform: str = sys.platform,
                 environ: Mapping[str, str] | None = None) -> Path:
    """The file a client reads its MCP servers from. `project`: Cursor's per-project file.
    `environ`: the variables to read (default: the process environment, via `read_environment`)."""
    if environ is None:
        environ = read_environment().variables
    home = Path.home()
    if client == "claude":
        if project:
            raise ConfigError("Claude Desktop has no per-project configuration", fix="drop --project")
        if platform == "darwin":
            folder = home / "Library" / "Application Support"
        elif platform == "win32":
            folder = Path(environ.get("APPDATA") or home / "AppData" / "Roaming")
        else:
            folder = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
        return folder / "Claude" / "claude_desktop_config.json"
    if client == "cursor":
        return Path.cwd() / ".cursor" / "mcp.json" if project else home / ".cursor" / "mcp.json"
    return Path.cwd() / ".vscode" / "mcp.json"


def merge(text: str | None, client: str, name: str, entry: Mapping[str, Any], *, source: str = "") -> str | None:
    """The file's text with the entry merged in, or None when it is already there as given.

    Other servers and top-level keys are kept in their order, as are keys of an existing entry of
    the same name that Parlance does not set (`env`, `disabled`, ...); of an entry that chooses
    another transport (see `transport_of`), only the keys outside `TRANSPORT_KEYS`. The file's
    indentation and byte order mark are kept.
    """
    top = _top_key(client)
    document = _parse(text, client, source)
    servers = dict(document.get(top, {}))
    old = servers.get(name)
    if isinstance(old, dict):
        kept = {k: v for k, v in old.items() if k not in TRANSPORT_KEYS} if transport_of(old) else old
        updated = {**kept, **entry}
    else:
        updated = dict(entry)
    if old == updated:
        return None
    servers[name] = updated
    merged = {**document, top: servers}
    bom = BOM if (text or "").startswith(BOM) else ""
    return bom + json.dumps(merged, indent=_indent(text or ""), ensure_ascii=False) + "\n"


def transport_of(entry: Any) -> str | None:
    """The transport an existing server entry chooses when it is not stdio (its `type`, or "http" for
    a `url`), else None."""
    if not isinstance(entry, dict):
        return None
    kind = entry.get("type", entry.get("transport"))
    if isinstance(kind, str) and kind != "stdio":
        return kind
    return "http" if any(key in entry for key in ("url", "serverUrl", "httpUrl")) else None


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _parse(text: str | None, client: str, source: str) -> dict[str, Any]:
    """The client's file as a JSON object (empty for no file), refusing what a rewrite would lose."""
    by_hand = f"merge the snippet of `parlance client-config {client}` by hand"
    text = (text or "").removeprefix(BOM)
    if not text.strip():
        return {}
    try:
        document = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not plain JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); it may hold "
                          "comments or trailing commas, which a rewrite would lose", file=source,
                          fix=by_hand) from None
    except _DuplicateKey as exc:
        raise ConfigError(f"the key {exc.args[0]!r} appears twice in one object; a rewrite would keep only the "
                          "last one", file=source, fix=f"remove one of them, or {by_hand}") from None
    except PARSER_LIMITS:  # nested deeper than the parser recurses, or an integer past 4,300 digits
        raise ConfigError("JSON this parser cannot hold (nested too deeply, or a number too long); no client "
                          "configuration looks like this", file=source, fix=f"check the file, or {by_hand}") from None
    top = _top_key(client)
    if not isinstance(document, dict) or not isinstance(document.get(top, {}), dict):
        raise ConfigError(f"expected a JSON object with an object under {top!r}", file=source, fix=by_hand)
    return document


def _read(path: Path) -> str | None:
    """The file's text (a byte order mark included), None when there is none; an error naming the fix.

    `path` is resolved already: a link swapped in since is refused, not followed."""
    try:
        data = read_user_file(path, max_bytes=MAX_USER_FILE_BYTES, follow_links=False)
    except FileNotFoundError:
        return None
    except (NotARegularFile, FileTooLarge) as exc:
        raise ConfigError(f"cannot read it: {reason(exc)}", file=str(path),
                          fix="name the client's JSON configuration file itself with --path") from None
    except OSError as exc:
        raise ConfigError(f"cannot read it: {reason(exc)}", file=str(path),
                          fix="make it readable (and writable) for this user, or name another file with "
                              "--path") from None
    try:
        return data.decode("utf-8")  # a byte order mark stays, as "\ufeff": `merge` writes it back
    except UnicodeDecodeError as exc:
        utf16 = data[:2] in (b"\xff\xfe", b"\xfe\xff")
        guess = " (it looks like UTF-16, as Notepad saves \"Unicode\")" if utf16 else ""
        raise ConfigError(f"not UTF-8 text{guess}: byte {exc.start} cannot be decoded", file=str(path),
                          fix="save it as UTF-8 (in Notepad: Save As, Encoding: UTF-8) and run the command "
                              "again") from None


def _indent(text: str) -> int | str:
    found = re.search(r"^([ \t]+)\S", text, re.MULTILINE)
    if not found:
        return 2
    return "\t" if found.group(1).startswith("\t") else len(found.group(1))


def write_atomically(path: Path, text: str, *, expected: str | None) -> Path | None:
    """Replace `path` with `text`: backup first, temporary file in the same folder, `os.replace`.

    `expected` is the content the new text was computed from (None: the file did not exist); if
    the file changed since, nothing is written. Returns the backup's path, if there was a file.
    """
    current = _read(path)
    if current != expected:
        raise ConfigError("changed while Parlance was merging into it; nothing was written",
                          file=str(path), fix="run the command again")
    path.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    if current is not None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        backup = path.with_name(f"{path.name}.{stamp}.bak")
        n = 1
        while backup.exists():
            backup, n = path.with_name(f"{path.name}.{stamp}-{n}.bak"), n + 1
        shutil.copy2(path, backup)
        mode = path.stat().st_mode & 0o7777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return backup


# --- the command ----------------------------------------------------------------------------------


def run(client: str, *, name: str, config_path: str | os.PathLike[str] | None, write: bool = False,
        dry_run: bool = False, path: str | None = None, project: bool = False,
        environ: Mapping[str, str] | None = None) -> int:
    """Print the snippet; with `write`, merge it into the client's file; with `dry_run`, print the diff."""
    entry = server_entry(client, config_path)
    if not (write or dry_run):
        where = str(Path(path).resolve()) if path else WHERE[client]
        print(f"# Merge this into {where}, or run `parlance client-config {client} --write`", file=sys.stderr)
        print(json.dumps(snippet(client, name, entry), indent=2, ensure_ascii=False))
        return 0
    target = Path(path) if path else default_path(client, project=project, environ=environ)
    target = target.resolve()  # a symlinked config is updated where it lives
    old = _read(target)
    new = merge(old, client, name, entry, source=str(target))
    if new is None:
        print(f"{target}: already has this {name!r} entry; nothing to change")
        return 0
    previous = _parse(old, client, str(target)).get(_top_key(client), {}).get(name)
    transport = transport_of(previous)
    if transport:
        dropped = ", ".join(sorted(set(previous) & TRANSPORT_KEYS))
        print(f"# {target}: server {name!r} was a {transport!r} entry; it becomes a stdio entry that starts this "
              f"Parlance (dropping {dropped}; its other keys are kept)", file=sys.stderr)
    if dry_run:
        diff = difflib.unified_diff((old or "").splitlines(keepends=True), new.splitlines(keepends=True),
                                    fromfile=str(target) if old is not None else "/dev/null", tofile=str(target))
        sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff)
        print("# dry run: nothing written", file=sys.stderr)
        return 0
    had = previous is not None
    backup = write_atomically(target, new, expected=old)
    verb = "updated" if had else "added"
    print(f"{target}: {verb} server {name!r}" + (f" (backup: {backup})" if backup else ""))
    print(f"Restart {({'claude': 'Claude Desktop', 'cursor': 'Cursor', 'vscode': 'VS Code'})[client]} "
          "(or reload its MCP servers) to connect.", file=sys.stderr)
    return 0
