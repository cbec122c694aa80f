"""The write load of the team acceptance test: many members writing one catalog through the proxy at once.

Client `c` (subject `translator-cc`, a token of its own) makes `calls` `i18n_set_messages` calls one after
another, each writing one key of its own (`load_cCC_nNN`) into one of the three locale files in turn,
with an `idempotency_key` of its own. The odd clients hold a 2025-11-25 session (the proxy keeps it on
its replica), the even ones speak 2026-07-28 (no session; any replica). Every fifth call is sent a second
time after its answer, with the same key: a client that lost the answer and retried. Calls that get no
answer (their replica was killed) are retried the same way (`Caller.write`).

`kill_and_restart` is the disruption: once `after` writes were answered, SIGKILL one replica, start it
again on its port, and wait until HAProxy sends it traffic again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import anyio

from tests.team.clients import LEGACY, MODERN, Attempt, Caller
from tests.team.cluster import LOCALES, Replica, Team

__all__ = ["Disruption", "Written", "kill_and_restart", "load_keys", "run_load"]

REPEAT_EVERY = 5


def load_keys(clients: int, calls: int) -> list[str]:
    return [key_of(c, n) for c in range(clients) for n in range(calls)]


def key_of(client: int, call: int) -> str:
    return f"load_c{client:02d}_n{call:02d}"


@dataclass
class Written:
    """One write of the load: who, what, where, and every attempt (the last one answered)."""

    subject: str
    key: str
    locale: str
    text: str
    idempotency_key: str
    attempts: list[Attempt]
    repeated: list[Attempt] | None = None  # the second sending of an answered call, same key

    @property
    def answer(self) -> dict[str, object]:
        result = self.attempts[-1].result
        assert result is not None
        return dict(result.get("structuredContent") or {})


@dataclass
class Disruption:
    replica: str
    killed_at: float = 0.0
    exit_status: int | None = None
    back_at: float = 0.0
    states_after_kill: dict[str, str] | None = None


async def run_load(team: Team, *, clients: int, calls: int, answered: Callable[[int], None]) -> list[Written]:
    """The load (see the module docstring); `answered(n)` is told the count of answered writes."""
    done: list[Written] = []

    async def member(c: int) -> None:
        subject = f"translator-{c:02d}"
        token = await anyio.to_thread.run_sync(team.token, subject)
        async with Caller(team.public_url, token, era=LEGACY if c % 2 else MODERN) as caller:
            for n in range(calls):
                key, locale = key_of(c, n), LOCALES[n % len(LOCALES)]
                text = f"{locale} text of {key}"
                arguments = {"locale": locale, "messages": {key: text}, "catalog": "app",
                             "idempotency_key": f"{subject}/{n}"}
                written = Written(subject, key, locale, text, f"{subject}/{n}",
                                  await caller.write("i18n_set_messages", arguments))
                if n % REPEAT_EVERY == REPEAT_EVERY - 1:
                    written.repeated = await caller.write("i18n_set_messages", arguments)
                done.append(written)
                answered(len(done))

    async with anyio.create_task_group() as group:
        for c in range(clients):
            group.start_soon(member, c)
    return done


async def kill_and_restart(team: Team, replica: Replica, *, when: Callable[[], bool]) -> Disruption:
    """SIGKILL `replica` once `when()` holds, start it again, and wait until HAProxy has it UP again."""
    disruption = Disruption(replica.name)
    while not when():
        await anyio.sleep(0.05)
    replica.kill()
    disruption.killed_at = time.monotonic()
    assert replica.process is not None
    disruption.exit_status = replica.process.returncode
    await anyio.sleep(0.5)  # traffic meets the dead port meanwhile
    disruption.states_after_kill = await anyio.to_thread.run_sync(team.proxy.states)
    with anyio.CancelScope(shield=True):  # a start under way finishes (and is stopped with the rest)
        await anyio.to_thread.run_sync(replica.start)
    await anyio.to_thread.run_sync(lambda: team.proxy.wait_for({replica.name: "UP"}))
    disruption.back_at = time.monotonic()
    return disruption
