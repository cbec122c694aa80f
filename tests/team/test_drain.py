"""A replica told to stop (SIGTERM: a deploy, a scale-down) leaves HAProxy's rotation without a client noticing.

Three real replicas behind deploy/haproxy.cfg, clients calling through the proxy without pause. r1 is
stopping while a slow call of its own finishes: its /readyz answers 503, HAProxy marks it NOLB and
balances nothing more to it; the requests that reached it meanwhile were refused with 503 before they
were read, and HAProxy retried them on another replica (`retry-on 503`). No client sees anything but
200, the slow call is answered, and once r1 has exited HAProxy has it DOWN.
"""

from __future__ import annotations

import collections
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import free_port, modern_call, write_fake_dist
from tests.team.cluster import Proxy, Replica, haproxy_missing

PACK = '''
    import anyio
    from pydantic import BaseModel
    from parlance import hookimpl

    class Nothing(BaseModel):
        pass

    class Done(BaseModel):
        ok: bool

    async def slow(args: Nothing) -> Done:
        await anyio.sleep(3)
        return Done(ok=True)

    async def quick(args: Nothing) -> Done:
        return Done(ok=True)

    @hookimpl
    def parlance_register_tools(register):
        register(slow, name="slow", description="Takes 3 s.", read_only=True)
        register(quick, name="quick", description="Answers at once.", read_only=True)
'''
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture
def replicas_behind_haproxy() -> Iterator[tuple[list[Replica], Proxy]]:
    problem = haproxy_missing()
    if problem is not None:
        import os

        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    folder = Path(tempfile.mkdtemp(prefix="parlance-drain-"))
    write_fake_dist(folder, "timing", PACK)
    (folder / "parlance.toml").write_text('[host]\nshutdown_grace_s = 8\n[packs]\nenabled = ["timing"]\n')
    (folder / "logs").mkdir()
    replicas = [Replica(f"r{n}", free_port(), folder / "parlance.toml", {"PYTHONPATH": str(folder)}, folder / "logs")
                for n in (1, 2, 3)]
    proxy = Proxy(free_port(), free_port(), folder / "haproxy.sock", folder / "logs" / "haproxy.log")
    try:
        for replica in replicas:
            replica.start()
        proxy.start(replicas, "unused", folder)
        proxy.wait_for({r.name: "UP" for r in replicas})
        yield replicas, proxy
    finally:
        proxy.stop()
        for replica in replicas:
            replica.stop()
        shutil.rmtree(folder, ignore_errors=True)


def call(client: httpx.Client, url: str, tool: str) -> int:
    body, headers = modern_call(tool)
    return client.post(url, json=body, headers={**HEADERS, **headers}, timeout=20).status_code


def test_a_stopping_replica_leaves_the_rotation_and_no_client_sees_it(
        replicas_behind_haproxy: tuple[list[Replica], Proxy]) -> None:
    replicas, proxy = replicas_behind_haproxy
    r1 = replicas[0]
    answers: collections.Counter[int] = collections.Counter()
    slow: list[int] = []
    stop = threading.Event()

    def keep_calling() -> None:
        with httpx.Client() as client:
            while not stop.is_set():
                answers[call(client, proxy.mcp, "quick")] += 1

    def slow_call() -> None:
        with httpx.Client() as client:
            slow.append(call(client, r1.mcp, "slow"))

    in_flight = threading.Thread(target=slow_call)
    in_flight.start()
    callers = [threading.Thread(target=keep_calling) for _ in range(3)]
    for caller in callers:
        caller.start()
    time.sleep(0.5)
    assert r1.process is not None
    r1.process.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    proxy.wait_for({"r1": "NOLB", "r2": "UP", "r3": "UP"}, seconds=3)
    out_after = time.monotonic() - stopped
    time.sleep(1.0)  # calls keep coming while r1 drains
    stop.set()
    for caller in callers:
        caller.join()
    in_flight.join()
    assert slow == [200]
    assert set(answers) == {200} and answers[200] > 50, answers
    r1.process.wait(timeout=10)
    proxy.wait_for({"r1": "DOWN"}, seconds=5)
    print(f"\nr1 out of the rotation {out_after:.2f} s after SIGTERM; {answers[200]} calls, all answered 200")
