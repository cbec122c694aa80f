"""The commands packs contribute (`parlance_register_commands`), each pack asked inside its error boundary.

They are looked up only when the command line names something that is not built in (or asks for
help), so built-in commands never load a pack to build the parser.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from parlance.config import Config, load_config
from parlance.errors import ConfigError, PackError
from parlance.types import Command

__all__ = ["BUILTINS", "as_handler", "collect_commands", "names_builtin", "pack_commands"]

BUILTINS = ("serve", "packs", "tools", "call", "config", "client-config", "language-packs", "demo",
            "install", "uninstall", "new-pack")
"""The built-in commands, which no pack may take."""


def names_builtin(argv: list[str]) -> bool:
    """Whether the command line names a built-in command (or only asks for the version): then no
    pack is loaded to build the parser."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first in BUILTINS or (first is None and "--version" in argv)


def pack_commands(argv: list[str]) -> list[Command]:
    """Commands contributed by enabled packs. A pack whose commands fail here is left out of the
    parser; `parlance packs` shows why (`collect_commands`)."""
    from parlance.packs import load_packs

    config_path = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--config"), None)
    try:
        packs = load_packs(load_config(config_path), diagnose=True)  # as `parlance packs` sees them
    except (ConfigError, PackError):
        return []  # the command itself reports the error once the parser is built
    return collect_commands(packs)


def collect_commands(packs: Any) -> list[Command]:
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


def as_handler(command: Command) -> Callable[[argparse.Namespace, Config], int | None]:
    """A pack's command as the parser runs built-in ones: with the configuration, which it ignores."""
    return lambda args, config: command.run(args)
