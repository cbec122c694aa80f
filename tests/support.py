"""Helpers shared by the test suites (import as `tests.support`)."""

from __future__ import annotations

import contextlib
import os
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def start_http_server(config: Path, port: int, env: dict[str, str] | None = None,
                      stderr: Path | None = None) -> Any:
    """`parlance serve --transport http --port PORT --config CONFIG` as a subprocess (its folder the working
    one, `env` over this process's environment, stderr to the file `stderr` or nowhere), once it listens."""
    import subprocess
    import sys

    with open(stderr or os.devnull, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                                 "--config", str(config)], env={**os.environ, **(env or {})}, cwd=config.parent,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        wait_listening(port, proc)
    except AssertionError:
        proc.kill()  # it never listened: not left behind
        proc.wait()
        raise
    return proc


def bearer_challenge(reply: Any) -> dict[str, str]:
    """The parameters of an HTTP answer's `WWW-Authenticate: Bearer k="v", ...` header."""
    scheme, _, rest = reply.headers["www-authenticate"].partition(" ")
    assert scheme == "Bearer"
    params = {}
    for part in rest.split('", '):
        name, _, value = part.partition('="')
        params[name.strip()] = value.rstrip('"')
    return params


def modern_call(name: str, arguments: dict[str, Any] | None = None, *, request_id: int = 3,
                capabilities: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """A 2026-07-28 tools/call (no session: the envelope in `_meta`) and the headers it needs."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}}
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments or {}, "_meta": meta}}
    return body, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name}


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
        stop_process(proc)


def stop_process(proc: Any, timeout: float = 10) -> None:
    """SIGTERM, and SIGKILL after `timeout`: a server a test started is never left running (the next test
    would meet its port)."""
    import subprocess

    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# What uv prints when it cannot reach an index (as opposed to a resolution or build failure).
UV_OFFLINE = (r"Failed to fetch|error sending request|dns error|tcp connect error|Connection refused|"
              r"Could not connect|timed out|network is unreachable|network was disabled")


def run_uv(*args: str, cwd: Path, needs: str, timeout: float = 600) -> None:
    """`uv ARGS` in a test of the `network` marker, under its policy: the test is skipped when uv could
    not reach the package index and CI is unset (`needs` says what the index is needed for), and fails
    on any other failure of uv, or on that one when CI is set (there the test must run)."""
    import os
    import re
    import subprocess

    import pytest

    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT"}}
    proc = subprocess.run(["uv", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode == 0:
        return
    if re.search(UV_OFFLINE, proc.stderr, re.IGNORECASE) and not os.environ.get("CI"):
        last = [line for line in proc.stderr.splitlines() if line.strip()][-1]
        pytest.skip(f"needs the package index (PyPI) {needs} (uv: {last.strip()})")
    pytest.fail(f"uv {' '.join(args[:2])} failed:\n{proc.stderr[-3000:]}")


INTEROP = Path(__file__).resolve().parent / "interop"


def run_node_reference(script: str, payload: Any, *, timeout: float = 120) -> Any:
    """Run `tests/interop/<script>` under Node with `payload` as JSON on stdin; its stdout parsed as JSON.

    For format tests that compare Parlance with a reference implementation from npm (intl-messageformat,
    i18next, pinned in tests/interop/package.json). Skips when Node or the packages are missing, except
    under CI, where .ci/run installs them and a missing reference is a failure. TZ is UTC, so dates
    and times render the same everywhere.
    """
    import json
    import shutil
    import subprocess

    missing = None
    if shutil.which("node") is None:
        missing = "Node.js 20 or newer is needed on PATH to run the reference implementation"
    elif not (INTEROP / "node_modules" / "intl-messageformat").is_dir():
        missing = "run `npm ci` in tests/interop to install the pinned reference implementations"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    done = subprocess.run(["node", str(INTEROP / script)], input=json.dumps(payload), capture_output=True,
                          text=True, timeout=timeout, cwd=INTEROP, env={**os.environ, "TZ": "UTC"})
    assert done.returncode == 0, f"{script} failed: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def require_tool(name: str, why: str) -> str:
    """The path of a command-line reference tool (e.g. GNU `msgfmt`); skip without it, fail under CI."""
    import shutil

    found = shutil.which(name)
    if found is None:
        message = f"`{name}` is needed on PATH {why} (Debian: apt-get install gettext)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def exit_status_within(proc: Any, since: float, seconds: float) -> tuple[int, float]:
    """(status, seconds since `since`) once `proc` (a `subprocess.Popen`) exits; fails if it is still
    running `seconds` after `since`."""
    import subprocess
    import time

    try:
        status = proc.wait(timeout=max(0.0, since + seconds - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise AssertionError(f"still running {seconds:.1f} s after being told to stop") from None
    return int(status), time.monotonic() - since


def forced_exit_logged(log: Path, reason: str, status: int) -> None:
    """The server's stderr log `log` records exactly one forced exit, for `reason` with `status`."""
    import json

    lines = [json.loads(line) for line in log.read_text().splitlines() if '"serve.exit_forced"' in line]
    assert [(line["reason"], line["status"]) for line in lines] == [(reason, status)]


def write_tree(root: Path, files: Any) -> Path:
    """Write `files` (relative path -> text, UTF-8; a mapping or (path, text) pairs) under `root`; `root`."""
    for relative, text in files.items() if hasattr(files, "items") else files:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def writable_i18n_project(root: Path, catalog: str, *, source_locale: str = "en") -> Path:
    """`root` with a parlance.toml enabling the i18n pack's write tools on one catalog named "app" (its
    `catalog` lines: `path = "..."`, `format = "..."`), language packs off; `root`."""
    (root / "parlance.toml").write_text(
        f'[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "{source_locale}"\nwrite = true\n\n'
        f'[[packs.i18n.catalogs]]\n{catalog}\nname = "app"\n\n'
        "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    return root


def git(folder: Path, *args: str) -> str:
    """Run git in `folder` with a fixed identity and no user configuration; its stdout."""
    import subprocess

    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
                               "HOME": str(folder), "PATH": "/usr/bin:/bin"})
    return done.stdout
