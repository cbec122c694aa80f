"""Helpers shared by the test suites (import as `tests.support`)."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ERAS = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def write_fake_dist(root: Path, pack: str, source: str, *, module: str | None = None) -> Path:
    """Write `<module>.py` and a dist-info declaring it in `parlance.packs`, as pip would install it.

    `root` goes on sys.path (in-process) or PYTHONPATH (subprocess); entry-point discovery then
    finds the pack exactly as it finds an installed distribution.
    """
    module = module or f"fake_pack_{pack}"
    (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    dist = root / f"parlance_fake_{pack}-0.1.0.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: parlance-fake-{pack}\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(f"[parlance.packs]\n{pack} = {module}\n")
    return root


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_listening(port: int, proc: Any, seconds: float = 30) -> None:
    """Return once 127.0.0.1:`port` accepts connections; fail if `proc` exits or time runs out."""
    import socket
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None, "the server did not start listening"
            time.sleep(0.1)


@contextlib.contextmanager
def parlance_http(config: Path, *, port: int | None = None, args: tuple[str, ...] = (),
                  env: dict[str, str] | None = None) -> Iterator[str]:
    """`parlance serve --transport http` on loopback for the block; yields the server's base URL."""
    import os
    import subprocess
    import sys

    port = port or free_port()
    proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                             "--config", str(config), *args], env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=config.parent)
    try:
        wait_listening(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
