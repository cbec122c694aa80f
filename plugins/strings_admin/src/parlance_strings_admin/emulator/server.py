"""Running the emulator: in a background thread (tests, demos, benchmarks) or in the foreground (CLI).

Both bind the listening socket before uvicorn starts, so port 0 works: the OS picks a free port
and the caller learns it without racing anyone for it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from parlance_strings_admin.emulator.app import create_app
from parlance_strings_admin.emulator.store import Scope, StringsStore
from parlance_strings_admin.settings import DEFAULT_BASE_PATH, normalize_base_path

__all__ = ["RunningEmulator", "bind", "emulator_thread", "serve_forever", "service_url"]

STARTUP_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class RunningEmulator:
    host_url: str
    """What `STRINGS_ADMIN_HOST` / `[packs.strings_admin] host` should be, e.g. http://127.0.0.1:40123."""
    base_path: str
    store: StringsStore

    @property
    def root(self) -> str:
        return f"{self.host_url}{self.base_path}"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port); port 0 lets the OS choose."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must say TCP explicitly: asyncio sets TCP_NODELAY only on sockets whose proto is
    # IPPROTO_TCP, and with proto 0 each reply (headers, then body) waits ~40 ms on delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def service_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _server(store: StringsStore, base_path: str, log_level: str) -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(store, base_path),
        log_level=log_level,
        access_log=log_level == "debug",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    return uvicorn.Server(config)


@contextmanager
def emulator_thread(
    db_path: str | Path,
    scopes: Iterable[Scope] = (),
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    base_path: str = DEFAULT_BASE_PATH,
) -> Iterator[RunningEmulator]:
    """Serve the emulator from a daemon thread until the block exits; yields once it accepts requests."""
    store = StringsStore(db_path)
    store.add_scopes(scopes)
    base_path = normalize_base_path(base_path)
    sock = bind(host, port)
    server = _server(store, base_path, "warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="strings-admin-emulator", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the strings-admin emulator did not start on {service_url(sock)}")
            time.sleep(0.01)
        yield RunningEmulator(service_url(sock), base_path, store)
    finally:
        server.should_exit = True
        thread.join(STARTUP_TIMEOUT_S)
        sock.close()


def serve_forever(sock: socket.socket, store: StringsStore, base_path: str, log_level: str = "warning") -> None:
    """Serve on `sock` in the foreground until interrupted (Ctrl-C / SIGTERM)."""
    _server(store, base_path, log_level).run(sockets=[sock])  # create_app normalises the base path
