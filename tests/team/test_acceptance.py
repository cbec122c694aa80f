"""One Parlance for a whole team, on the engines themselves (issue 25's acceptance test).

A real PostgreSQL (a cluster of its own, `initdb` + `pg_ctl`), a real OAuth authorization server
(oauth2-mock-server), three `parlance serve --transport http` replicas on one shared checkout sharing
that database (`[state] url`), and HAProxy from deploy/haproxy.cfg in front (tests/team/cluster.py).

Then 20 members' agents make 50 `i18n_set_messages` calls each through the proxy, different keys of the
same three files, some calls sent twice with the same `idempotency_key`, while one replica is killed with
SIGKILL and started again (tests/team/load.py). The tests below check what that left — in the files, in
the write log — and what the deployment does for a team: a write seen by every replica within a second,
a 2026-07-28 input round moving between replicas, tokens checked through the proxy, the official
conformance suite through the proxy, and reads that outlive the database.

About two minutes on two cores, most of it the load and the conformance suite.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CreateMessageResult, InputRequiredResult, TextContent

from tests.postgres import PostgresServer, fresh_database, own_postgres, postgres_available
from tests.support import bearer_challenge, modern_call
from tests.team.clients import Caller, CallFailed
from tests.team.cluster import LOCALES, Team, haproxy_missing, running_team
from tests.team.load import Disruption, Written, kill_and_restart, load_keys, run_load

CLIENTS, CALLS = 20, 50
KILL_AFTER = 0.3  # of the writes answered
ROOT = Path(__file__).resolve().parents[2]


def _required(problem: str | None) -> None:
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)


@pytest.fixture(scope="module")
def database() -> Iterator[PostgresServer]:
    _required(None if postgres_available() else "PostgreSQL (initdb, pg_ctl) is not installed: .ci/run installs it")
    _required(haproxy_missing())
    with own_postgres("parlance-team-pg-") as server:
        yield server


@pytest.fixture(scope="module")
def team(database: PostgresServer) -> Iterator[Team]:
    folder = Path(tempfile.mkdtemp(prefix="parlance-team-"))
    folder.chmod(0o755)
    try:
        with running_team(folder, keys=load_keys(CLIENTS, CALLS), database_url=fresh_database(database.url)) as team:
            yield team
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Load:
    writes: list[Written]
    disruption: Disruption
    answered_at_kill: int
    seconds: float


@pytest.fixture(scope="module")
def load(team: Team) -> Load:
    answered = [0]
    at_kill: list[int] = []

    def kill_now() -> bool:
        if answered[0] >= KILL_AFTER * CLIENTS * CALLS:
            at_kill.append(answered[0])
            return True
        return False

    async def run() -> Load:
        results: dict[str, Any] = {}

        async def disrupt() -> None:
            results["disruption"] = await kill_and_restart(team, team.replicas[1], when=kill_now)

        with anyio.fail_after(150):
            async with anyio.create_task_group() as group:
                group.start_soon(disrupt)
                started = time.monotonic()
                writes = await run_load(team, clients=CLIENTS, calls=CALLS,
                                        answered=lambda n: answered.__setitem__(0, n))
                seconds = time.monotonic() - started
        return Load(writes, results["disruption"], at_kill[0], seconds)

    return anyio.run(run)


# --- the load -----------------------------------------------------------------------------------------


def test_every_write_is_answered_though_a_replica_was_killed_mid_load(team: Team, load: Load) -> None:
    assert len(load.writes) == CLIENTS * CALLS
    assert load.disruption.exit_status == -9 and load.answered_at_kill < CLIENTS * CALLS  # killed mid-load
    assert load.disruption.states_after_kill is not None and load.disruption.states_after_kill["r2"] == "DOWN"
    assert team.proxy.states() == {"r1": "UP", "r2": "UP", "r3": "UP"}
    problems = collections.Counter(a.problem for w in load.writes for a in w.attempts if a.problem)
    print(f"\n{len(load.writes)} writes in {load.seconds:.1f} s; "
          f"{sum(len(w.attempts) > 1 for w in load.writes)} retried after {dict(problems)}")
    for write in load.writes:
        answer = write.answer
        # Written, or (its first attempt died with its replica after the file was replaced) found already there.
        assert answer["refused"] == 0, (write.key, answer["results"])
        assert answer["written"] == 1 or (answer["unchanged"] == 1 and len(write.attempts) > 1), (write.key, answer)


def test_every_acknowledged_write_is_in_the_files_exactly_once(team: Team, load: Load) -> None:
    texts = {locale: (team.root / "locales" / f"{locale}.json").read_text() for locale in LOCALES}
    files = {locale: json.loads(text) for locale, text in texts.items()}
    for write in load.writes:
        assert files[write.locale].get(write.key) == write.text, write.key
        assert [texts[locale].count(f'"{write.key}"') for locale in LOCALES] == [
            int(locale == write.locale) for locale in LOCALES], write.key
    for locale in LOCALES:  # nothing lost, nothing else
        written = {w.key for w in load.writes if w.locale == locale}
        assert set(files[locale]) - {"banner"} == written


def test_the_write_log_has_one_row_per_applied_write_with_its_subject(team: Team, load: Load) -> None:
    assert team.database_url is not None
    rows = asyncio.run(_write_log(team.database_url))
    writer = {w.key: w.subject for w in load.writes}
    rows_of_key: dict[str, list[str | None]] = collections.defaultdict(list)
    for row in rows:
        for key in _keys_of(row["keys"]):
            if key in writer:
                rows_of_key[key].append(row["subject"])
    assert {key: subjects for key, subjects in rows_of_key.items() if len(subjects) != 1} == {}
    assert {key: subjects[0] for key, subjects in rows_of_key.items()} == writer
    assert sum(1 for row in rows if str(row["subject"]).startswith("translator-")) == len(load.writes)


def test_a_call_sent_again_with_its_idempotency_key_gets_the_first_answer(load: Load) -> None:
    repeated = [w for w in load.writes if w.repeated is not None]
    assert len(repeated) == CLIENTS * CALLS // 5
    for write in repeated:
        assert write.repeated is not None
        again = write.repeated[-1].result
        assert again is not None and again["structuredContent"] == write.answer, write.key


async def _write_log(url: str) -> list[Any]:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return list(await connection.fetch(
            "SELECT subject, tool, keys FROM parlance_write_log WHERE tool = 'i18n_set_messages'"))
    finally:
        await connection.close()


def _keys_of(column: Any) -> list[str]:
    """The `keys` column as a list, whether PostgreSQL holds it as text[] or as JSON."""
    if isinstance(column, str):
        column = json.loads(column)
    return list(column or [])


# --- what every replica sees ----------------------------------------------------------------------------


def test_a_write_through_one_replica_is_rendered_by_another_within_a_second(team: Team) -> None:
    token = team.token("reviewer")
    r1, r2, r3 = team.replicas

    async def rounds() -> list[float]:
        delays = []
        for number, (writer, reader) in enumerate(((r1, r2), (r2, r3), (r3, r1)), 1):
            locale = LOCALES[number % len(LOCALES)]
            async with Caller(writer.mcp, token) as on_writer, Caller(reader.mcp, token) as on_reader:
                before = await on_reader.tool("i18n_translate", {"key": "banner", "locale": locale})
                text = f"banner {locale} round {number}"
                assert before["structuredContent"]["translation"] != text
                await on_writer.write("i18n_set_messages", {"locale": locale, "messages": {"banner": text},
                                                             "idempotency_key": f"banner-{number}"})
                written = time.monotonic()
                while True:
                    seen = await on_reader.tool("i18n_translate", {"key": "banner", "locale": locale})
                    delay = time.monotonic() - written
                    if seen["structuredContent"]["translation"] == text:
                        break
                    assert delay < 1.0, f"{reader.name} still renders {seen['structuredContent']} after 1 s"
                    await anyio.sleep(0.02)
                delays.append(delay)
        return delays

    delays = anyio.run(rounds)
    print(f"\nrendered by another replica after {', '.join(f'{d * 1000:.0f} ms' for d in delays)}")


def test_an_input_round_started_on_one_replica_completes_on_another(team: Team) -> None:
    """i18n_translate_missing asks the client's model (sampling): on 2026-07-28 that is an
    InputRequiredResult whose requestState replica r1 seals; the retry with the model's answer goes to r3."""
    token = team.token("round-tripper")
    r1, _, r3 = team.replicas
    arguments = {"locale": "fr", "catalog": "onboarding"}

    async def never_asked(context: Any, params: Any) -> Any:
        raise AssertionError("the test answers the round itself")

    async def on(replica_url: str, **call: Any) -> Any:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
            async with Client(streamable_http_client(replica_url, http_client=http), mode="auto",
                              sampling_callback=never_asked) as client:
                assert client.protocol_version == "2026-07-28"
                return await client.session.call_tool("i18n_translate_missing", arguments,
                                                      allow_input_required=True, **call)

    async def round_trip() -> tuple[Any, Any]:
        with anyio.fail_after(30):
            return await both_replicas()

    async def both_replicas() -> tuple[Any, Any]:
        first = await on(r1.mcp)
        assert isinstance(first, InputRequiredResult), first
        [(question, request)] = first.input_requests.items()
        assert request.method == "sampling/createMessage" and "welcome" in request.params.messages[0].content.text
        model = CreateMessageResult(role="assistant", model="team-test",
                                    content=TextContent(type="text", text='{"welcome": "Bienvenue, {name} !"}'))
        done = await on(r3.mcp, input_responses={question: model}, request_state=first.request_state)
        return first, done

    _, done = anyio.run(round_trip)
    assert not isinstance(done, InputRequiredResult), done
    assert done.structured_content is not None and done.structured_content["written"] == 1, done
    assert json.loads((team.root / "onboarding" / "fr.json").read_text()) == {"welcome": "Bienvenue, {name} !"}


# --- tokens, through the proxy ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["no_token", "wrong_audience", "expired", "missing_scope"])
def test_tokens_are_checked_through_the_proxy(team: Team, case: str) -> None:
    tokens = {
        "no_token": lambda: None,
        "wrong_audience": lambda: team.minted({"aud": "https://elsewhere.example/mcp"}),
        "expired": lambda: team.minted({}, expires_in=-120),  # beyond the 30 s leeway
        "missing_scope": lambda: team.token("read-only-member", scope="parlance:read"),
    }
    token = tokens[case]()
    body, headers = modern_call("i18n_set_messages", {"locale": "fr", "messages": {"banner": "x"}})
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    reply = httpx.post(team.public_url, json=body, headers={"Content-Type": "application/json",
                                                            "Accept": "application/json, text/event-stream",
                                                            **headers})
    metadata = team.public_url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
    params = bearer_challenge(reply)
    assert params["resource_metadata"] == metadata
    if case == "no_token":
        assert (reply.status_code, params) == (401, {"scope": "parlance:read", "resource_metadata": metadata})
    elif case == "missing_scope":
        assert reply.status_code == 403
        assert (params["error"], params["scope"]) == ("insufficient_scope", "parlance:read parlance:write")
    else:
        assert reply.status_code == 401 and params["error"] == "invalid_token", reply.text
    assert json.loads((team.root / "locales" / "fr.json").read_text())["banner"] != "x"


def test_the_conformance_suite_passes_through_the_proxy_with_a_token(team: Team) -> None:
    """Every leg of tests/conformance/run, its requests through HAProxy to the three replicas (2025-11-25
    sessions kept on theirs by the stick table; 2026-07-28 requests balanced freely, so input rounds move
    between replicas), each request carrying a valid token (the suite's frontend adds it)."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "conformance" / "run"), "--url", team.proxy.suite_mcp],
                          capture_output=True, text=True, timeout=240, cwd=ROOT)
    print(done.stdout)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


# --- the database goes away (last: it stops the database) ---------------------------------------------------


def test_reads_keep_working_and_writes_are_refused_while_the_database_is_down(team: Team,
                                                                               database: PostgresServer) -> None:
    token = team.token("outage-member")

    async def translate_and_write(expect_write: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        async with Caller(team.public_url, token) as caller:
            read = await caller.tool("i18n_translate", {"key": "banner", "locale": "de"})
            try:
                wrote = await caller.tool("i18n_set_messages", {"locale": "de", "messages": {"banner": "after"}})
            except CallFailed as refused:
                assert not expect_write, refused
                wrote = refused.answer
            return read, wrote

    database.stop()
    try:
        # every replica's /readyz says 503: HAProxy drains them all and sends traffic to the live backend
        team.proxy.wait_for({r.name: "NOLB" for r in team.replicas})
        read, refused = anyio.run(translate_and_write, False)
        assert read["structuredContent"]["translation"].startswith("banner de")
        result = refused.get("result") or {}
        message = json.dumps(refused)
        assert result.get("isError") or "error" in refused, message
        assert "SHARED_STATE_UNAVAILABLE" in message, message
        assert json.loads((team.root / "locales" / "de.json").read_text())["banner"] != "after"
    finally:
        database.start()
    team.proxy.wait_for({r.name: "UP" for r in team.replicas}, seconds=30)
    _, wrote = anyio.run(translate_and_write, True)
    assert wrote["structuredContent"]["written"] == 1
