"""A real PostgreSQL for the tests: `initdb` into a temporary folder, `pg_ctl start` on a free port.

`start_postgres(folder)` starts one and answers its URL; `PostgresServer.stop()` stops it (`pg_ctl stop -m
immediate`). initdb refuses to run as root, so as root the cluster is made and run by the `postgres` user
(Debian's packages create it) through `runuser`. The server listens on loopback only and trusts local
connections (a test cluster, thrown away at the end).

The session fixture `postgres_url` (tests/conftest.py) starts one per test session; each test that wants a
clean database asks `fresh_database(url)` for one of its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresServer", "fresh_database", "own_postgres", "postgres_available", "start_postgres"]


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for version in ("17", "16", "15", "14"):
        candidate = Path(f"/usr/lib/postgresql/{version}/bin/{name}")
        if candidate.exists():
            return str(candidate)
    return None


def postgres_available() -> bool:
    return all(_binary(name) for name in ("initdb", "pg_ctl")) and (os.geteuid() != 0 or shutil.which("runuser")
                                                                    is not None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PostgresServer:
    folder: Path
    port: int
    user: str
    fsync: bool = False

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        _run(["pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"], check=False)

    def start(self) -> None:
        """Start it again after `stop()` (a test of the database coming back)."""
        _pg_ctl_start(self.folder, self.port, fsync=self.fsync)


def _as_postgres(command: list[str]) -> list[str]:
    binary = _binary(command[0])
    assert binary is not None, f"{command[0]} is not installed"
    command = [binary, *command[1:]]
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _run(command: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_as_postgres(command), capture_output=True, text=True, check=check, timeout=120,
                          stdin=subprocess.DEVNULL)


def _pg_ctl_start(folder: Path, port: int, *, fsync: bool = False) -> None:
    options = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} " \
              f"-c fsync={'on' if fsync else 'off'} -c max_connections=200 -c shared_buffers=32MB"
    _run(["pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "postgres.log"), "-o", options, "-w", "-t", "60",
          "start"])


def start_postgres(folder: Path, *, fsync: bool = False) -> PostgresServer:
    """A new cluster in `folder` (created), started; stop it with `.stop()`. As root, every folder above
    `folder` must be one the `postgres` user may enter (not pytest's temporary folders: `tempfile.mkdtemp()`).
    Without `fsync` (the tests' default) a commit does not wait for the disk; a benchmark asks for it."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        os.chmod(folder, 0o700)
    user = "postgres" if os.geteuid() == 0 else (os.environ.get("USER") or "postgres")
    _run(["initdb", "-D", str(folder / "data"), "-U", user, "--auth=trust", "-E", "UTF8", "--no-locale"])
    port = _free_port()
    _pg_ctl_start(folder, port, fsync=fsync)
    return PostgresServer(folder, port, user, fsync)


@contextlib.contextmanager
def own_postgres(prefix: str = "parlance-pg-", *, fsync: bool = False) -> Iterator[PostgresServer]:
    """A cluster of its own in a new temporary folder, started, then stopped and removed: the folder is made
    with `tempfile.mkdtemp()` and opened to other users, as root runs the cluster as `postgres`."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    server = start_postgres(folder / "cluster", fsync=fsync)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the server at `url`; its URL."""
    import asyncio

    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"

    async def create() -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    asyncio.run(create())
    return url.rsplit("/", 1)[0] + f"/{name}"
