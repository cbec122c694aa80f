"""Testing helpers for pack authors (also a pytest plugin: the `parlance_connect` fixture).

    from parlance.testing import connect

    @pytest.mark.anyio
    async def test_hello():
        async with connect({"hello": my_pack_module}) as client:
            result = await client.call_tool("hello", {"name": "Ada"})
        assert result.structured_content == {"greeting": "hello Ada"}

`connect` builds a host in-process from the packs you give (objects, or names of installed packs)
and yields a connected `mcp.Client`: mode="auto" speaks 2026-07-28, mode="legacy" the 2025-11-25
handshake over real JSON-RPC framing. `stdio_server_params` runs `parlance serve` as a subprocess.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importing this module never imports `mcp`; connect() does, when it runs
    from mcp import Client, StdioServerParameters

__all__ = ["connect", "parlance_connect", "stdio_server_params"]


@contextlib.asynccontextmanager
async def connect(
    packs: Mapping[str, object] | Sequence[str] | None = None,
    *,
    config: Mapping[str, object] | None = None,
    mode: str = "auto",
    **client_kwargs: Any,  # whatever `mcp.Client` takes, passed on unchanged: the SDK's signature types them
) -> AsyncIterator[Client]:
    """A connected `mcp.Client` on a host built in-process.

    `packs`: {name: plugin object} to register directly, a list of installed pack names to load by
    entry point, or None for every installed pack the config enables. `config` is a parsed
    parlance.toml as a dict; without a `[language_packs]` table the host sees no language packs.
    `mode` is as for `mcp.Client`: "auto" (2026-07-28) or "legacy" (the 2025-11-25 handshake).
    Other keywords go to `mcp.Client` (sampling_callback, logging_callback, ...).
    """
    from mcp import Client

    from parlance.host import Host
    from parlance.config import config_from_dict
    from parlance.packs import discover
    from parlance.server import build_server

    raw = dict(config or {})
    # Hermetic by default: no language packs from the working directory or installed distributions.
    raw.setdefault("language_packs", {"paths": [], "autoload": False})
    plugins: dict[str, object] | None
    if packs is None:
        plugins = None
    elif isinstance(packs, Mapping):
        plugins = dict(packs)
    else:
        installed = discover()
        missing = [name for name in packs if name not in installed]
        if missing:
            raise LookupError(f"packs not installed: {missing}; installed: {sorted(installed)}")
        plugins = {name: installed[name] for name in packs}
    host = Host.load(config_from_dict(raw), plugins=plugins)
    async with Client(build_server(host), mode=mode, **client_kwargs) as client:
        yield client


def stdio_server_params(
    config_path: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
) -> StdioServerParameters:
    """`mcp.StdioServerParameters` that run `parlance serve` in a subprocess with this interpreter.

    The child inherits PATH and HOME, plus `env`; PARLANCE_CONFIG is cleared so only `config_path`
    (or none) applies. It runs in `cwd`, by default the config file's folder, so `./parlance.toml`
    and `./language_packs` of the caller's working directory do not leak in.
    """
    from mcp import StdioServerParameters

    from parlance.config import read_environment

    args = ["-m", "parlance", "serve"]
    if config_path is not None:
        args += ["--config", str(Path(config_path))]
    inherited = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"}
    child_env = {k: v for k, v in read_environment().variables.items() if k in inherited}
    child_env.update(env or {})
    if cwd is None and config_path is not None:
        cwd = Path(config_path).resolve().parent
    return StdioServerParameters(command=sys.executable, args=args, env=child_env, cwd=str(cwd) if cwd else None)


try:  # the fixture exists only where pytest does; connect() works without it
    import pytest
except ImportError:  # pragma: no cover
    pass
else:

    @pytest.fixture
    def parlance_connect() -> Callable[..., contextlib.AbstractAsyncContextManager[Client]]:
        """The `connect` function, as a fixture for tests that prefer injection."""
        return connect
