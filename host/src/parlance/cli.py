"""The `parlance` command's entry point, `parlance.cli:main`: the commands live in `parlance._cli`.

This module stays where it is because its name is a contract beyond the source: the console scripts
of both distributions (parlance-mcp-host and parlance-mcp) name `parlance.cli:main`, and
`parlance install` recognises an installation of Parlance by it.
"""

from __future__ import annotations

from parlance._cli.command_line import main

__all__ = ["main"]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
