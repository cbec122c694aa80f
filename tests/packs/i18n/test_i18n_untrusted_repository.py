"""A cloned repository is untrusted input (issue 22): its links, `..` segments, special files and sizes
never make the pack read or write outside the project, hang, or answer megabytes.

Each scenario is a real `parlance serve` over stdio on a project in `tmp_path/project`, beside a folder
`tmp_path/outside` of files a user can read; after every scenario the SHA-256 of every file outside
the project is what it was before (nothing created, changed or deleted there).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance._transport.stop_deadline import WAY_OUT_S
from parlance.testing import stdio_server_params
from tests.support import exit_status_within, forced_exit_logged

pytestmark = pytest.mark.anyio

SECRET = "TOP-SECRET-outside-the-project"
EN = {"greeting": "Hello", "farewell": "Goodbye", "cart": "Your cart"}
DE = {"greeting": "Hallo"}


def _config(**settings: Any) -> str:
    lines = ['[packs]', 'enabled = ["i18n"]', '', '[packs.i18n]', 'source_locale = "en"', 'write = true']
    catalog = settings.pop("path", "locales/{locale}.json")
    lines += [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    lines += ['', '[[packs.i18n.catalogs]]', f'path = {json.dumps(catalog)}', 'format = "icu-json"', 'name = "app"',
              '', '[language_packs]', 'paths = []', 'autoload = false', '']
    return "\n".join(lines)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "locales").mkdir(parents=True)
    (root / "locales" / "en.json").write_text(json.dumps(EN), encoding="utf-8")
    (root / "locales" / "de.json").write_text(json.dumps(DE), encoding="utf-8")
    (root / "parlance.toml").write_text(_config(), encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps({"greeting": SECRET, "farewell": SECRET}), encoding="utf-8")
    (outside / "existing.lock").write_text("", encoding="utf-8")  # what a lock file starts as: empty
    return root


def _hashes(folder: Path, skip: Path) -> dict[str, str]:
    """SHA-256 of every file under `folder` but not under `skip` or the server's own `run` folder (links
    not followed)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in (skip, folder / "run")]
        for name in filenames:
            path = here / name
            if path.is_symlink() or not path.is_file():
                found[str(path)] = "link or special"
                continue
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@contextmanager
def _nothing_outside_changes(project: Path) -> Iterator[None]:
    before = _hashes(project.parent, project)
    yield
    assert _hashes(project.parent, project) == before


@asynccontextmanager
async def _client(project: Path) -> AsyncIterator[Client]:
    run = project.parent / "run"  # the server's working folder and its stderr, apart from the files compared
    run.mkdir(exist_ok=True)
    with open(run / "stderr.log", "a") as errlog:
        async with Client(stdio_client(stdio_server_params(project / "parlance.toml", cwd=run),
                                       errlog=errlog)) as client:
            yield client


def _text(result: Any) -> str:
    return json.dumps(result.structured_content) if result.structured_content else result.content[0].text


def _i18n_refused(project: Path) -> str:
    """`parlance serve` on the project, whose i18n settings it is expected to refuse (a configuration
    error: the pack is not loaded, the reason logged): that reason."""
    done = subprocess.run([sys.executable, "-m", "parlance", "serve", "--config", str(project / "parlance.toml")],
                          cwd=project, input="", capture_output=True, text=True, timeout=60,
                          env={**{k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}})
    [skipped] = [json.loads(line) for line in done.stderr.splitlines() if '"pack.skipped"' in line]
    assert skipped["pack"] == "i18n" and skipped["state"] == "failed", done.stderr
    return str(skipped["reason"])


# --- links ----------------------------------------------------------------------------------------------


async def test_a_catalog_file_linking_outside_is_neither_served_nor_written(project: Path) -> None:
    fr = project / "locales" / "fr.json"
    fr.symlink_to(project.parent / "outside" / "secret.json")
    with _nothing_outside_changes(project), anyio.fail_after(60):
        async with _client(project) as client:
            translated = await client.call_tool("i18n_translate", {"key": "greeting", "locale": "fr"})
            bundle = await client.read_resource("i18n://bundles/fr")
            check = await client.call_tool("i18n_check", {"locale": "fr"})
            status = await client.call_tool("i18n_status", {"locale": "fr", "details": True})
            written = await client.call_tool("i18n_set_messages", {"locale": "fr", "messages": {"cart": "Panier"}})
            dry = await client.call_tool("i18n_set_messages", {"locale": "fr", "messages": {"cart": "Panier"},
                                                               "dry_run": True})
    answers = [_text(translated), str(bundle.contents), _text(check), _text(status), _text(written), _text(dry)]
    for answer in answers:
        assert SECRET not in answer and "outside" not in answer.replace("leads outside", "")
        assert str(project.parent) not in answer  # no absolute path: the target's, or the project's
    assert translated.structured_content["fallback"] is True  # type: ignore[index]
    [problem] = check.structured_content["locales"][0]["file_problems"]  # type: ignore[index]
    assert problem["file"] == "locales/fr.json" and "UNSAFE_PATH" in problem["reason"]
    [report] = status.structured_content["catalogs"]  # type: ignore[index]
    assert any("UNSAFE_PATH" in m["reason"] and "locales/fr.json" in m["reason"] for m in report["invalid_messages"])
    assert written.is_error and "UNSAFE_PATH" in _text(written) and "locales/fr.json" in _text(written)
    assert dry.is_error and "UNSAFE_PATH" in _text(dry)


@pytest.mark.parametrize("target", ["created.lock", "existing.lock"])
async def test_a_lock_file_linking_outside_is_never_written(project: Path, target: str) -> None:
    (project / "parlance-i18n.lock").symlink_to(project.parent / "outside" / target)  # dangling, or not
    with _nothing_outside_changes(project), anyio.fail_after(60):
        async with _client(project) as client:
            status = await client.call_tool("i18n_status", {"locale": "de"})
            written = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {"cart": "Warenkorb"}})
    assert not status.is_error and not written.is_error, (status, written)
    assert written.structured_content["written"] == 1  # type: ignore[index]
    [note] = written.structured_content["notes"]  # type: ignore[index]
    assert "UNSAFE_PATH" in note or "leads outside" in note
    assert target not in note and str(project.parent) not in note
    assert not (project.parent / "outside" / "created.lock").exists()
    assert '"Warenkorb"' in (project / "locales" / "de.json").read_text(encoding="utf-8")


async def test_a_catalog_folder_that_becomes_a_link_is_neither_read_nor_written(project: Path) -> None:
    """`locales -> ../elsewhere` after the server started: both the file and its folder resolve outside,
    so the check holds them against the project's folder, not only against each other."""
    elsewhere = project.parent / "elsewhere"
    shutil.copytree(project / "locales", elsewhere)
    (elsewhere / "fr.json").write_text(json.dumps({"greeting": SECRET}), encoding="utf-8")
    (project / "locales" / "fr.json").write_text(json.dumps({"greeting": "Bonjour"}), encoding="utf-8")
    with anyio.fail_after(60):
        async with _client(project) as client:
            await client.call_tool("i18n_translate", {"key": "greeting", "locale": "de"})  # the server is up
            shutil.rmtree(project / "locales")
            (project / "locales").symlink_to(elsewhere)
            with _nothing_outside_changes(project):
                translated = await client.call_tool("i18n_translate", {"key": "greeting", "locale": "fr"})
                written = await client.call_tool("i18n_set_messages", {"locale": "de",
                                                                       "messages": {"cart": "Warenkorb"}})
    assert SECRET not in _text(translated)
    assert written.is_error and "UNSAFE_PATH" in _text(written), written
    assert str(project.parent) not in _text(written)


async def test_a_catalog_folder_that_is_a_link_is_refused_at_startup(project: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    shutil.move(project / "locales", elsewhere)
    (project / "locales").symlink_to(elsewhere)
    with _nothing_outside_changes(project):
        stderr = _i18n_refused(project)
    assert "[packs.i18n]" in stderr and "catalogs[0].path" in stderr and "allow_outside_project" in stderr
    assert str(elsewhere) not in stderr


# --- `..` in a configured path --------------------------------------------------------------------------


async def test_dot_dot_in_a_catalog_path_is_a_config_error(project: Path) -> None:
    outside = project.parent / "outside"
    (outside / "en.json").write_text(json.dumps(EN), encoding="utf-8")
    (outside / "de.json").write_text(json.dumps({"greeting": SECRET}), encoding="utf-8")
    (project / "parlance.toml").write_text(_config(path="../outside/{locale}.json"), encoding="utf-8")
    with _nothing_outside_changes(project):
        stderr = _i18n_refused(project)
    assert "[packs.i18n]" in stderr and "catalogs[0].path" in stderr and "allow_outside_project = true" in stderr
    assert SECRET not in stderr and str(outside) not in stderr


async def test_allow_outside_project_opens_a_catalog_elsewhere_on_purpose(project: Path) -> None:
    outside = project.parent / "outside"
    (outside / "en.json").write_text(json.dumps(EN), encoding="utf-8")
    (outside / "de.json").write_text(json.dumps({"greeting": "Servus"}), encoding="utf-8")
    (project / "parlance.toml").write_text(_config(path="../outside/{locale}.json", allow_outside_project=True),
                                           encoding="utf-8")
    with anyio.fail_after(60):
        async with _client(project) as client:
            translated = await client.call_tool("i18n_translate", {"key": "greeting", "locale": "de"})
    assert translated.structured_content["translation"] == "Servus"  # type: ignore[index]


# --- special files --------------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
async def test_special_files_are_reported_and_never_opened_for_a_blocking_read(project: Path) -> None:
    os.mkfifo(project / "locales" / "fr.json")
    (project / "locales" / "it.json").symlink_to("/dev/zero")
    os.mkfifo(project / "parlance-i18n.lock")
    with _nothing_outside_changes(project), anyio.fail_after(30):
        async with _client(project) as client:
            check = await client.call_tool("i18n_check", {})
            status = await client.call_tool("i18n_status", {"locale": "de"})
            written = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {"cart": "Warenkorb"}})
    assert not check.is_error and not status.is_error and not written.is_error
    reports = {r["code"]: r for r in check.structured_content["locales"]}  # type: ignore[index]
    assert {p["file"] for p in reports["fr"]["file_problems"]} == {"locales/fr.json"}
    assert {p["file"] for p in reports["it"]["file_problems"]} == {"locales/it.json"}
    assert "FIFO" in reports["fr"]["file_problems"][0]["reason"]
    assert written.structured_content["notes"]  # type: ignore[index]  # the lock file: not written
    assert (project / "parlance-i18n.lock").is_fifo()


# --- sizes ----------------------------------------------------------------------------------------------


async def test_a_ten_megabyte_key_is_answered_small(project: Path) -> None:
    huge = "x" * (10 * 1024 * 1024)
    (project / "locales" / "de.json").write_text(json.dumps({**DE, huge: "y"}), encoding="utf-8")
    with anyio.fail_after(60):
        async with _client(project) as client:
            check = await client.call_tool("i18n_check", {"details": True})
            status = await client.call_tool("i18n_status", {"locale": "de", "details": True})
    assert not check.is_error and not status.is_error
    assert len(_text(check)) < 20_000 and len(check.content[0].text) < 20_000  # type: ignore[union-attr]
    assert len(_text(status)) < 20_000
    [de] = [r for r in check.structured_content["locales"] if r["code"] == "de"]  # type: ignore[index]
    [extra] = de["extra_keys"]
    assert extra.startswith("xxx") and extra.endswith("more)") and len(extra) < 300


async def test_file_limits_are_settings_and_a_file_past_one_is_a_problem_naming_it(project: Path) -> None:
    (project / "locales" / "fr.json").write_text(json.dumps({f"k{i}": "v" for i in range(50)}), encoding="utf-8")
    (project / "locales" / "it.json").write_text(json.dumps({"greeting": "Ciao" + " " * 5000}), encoding="utf-8")
    (project / "locales" / "es.json").write_text(json.dumps({"greeting": "Hola", "cart": "c" * 3000}),
                                                 encoding="utf-8")
    (project / "parlance.toml").write_text(_config(max_file_messages=10, max_file_bytes=4096, max_file_chars=2048),
                                           encoding="utf-8")
    with anyio.fail_after(60):
        async with _client(project) as client:
            check = await client.call_tool("i18n_check", {})
    reports = {r["code"]: r for r in check.structured_content["locales"]}  # type: ignore[index]
    assert "max_file_messages" in reports["fr"]["file_problems"][0]["reason"]
    assert "max_file_bytes" in reports["it"]["file_problems"][0]["reason"]
    assert "max_file_chars" in reports["es"]["file_problems"][0]["reason"]
    assert reports["de"]["file_problems"] == []


async def test_one_write_call_is_capped_before_any_work(project: Path) -> None:
    (project / "parlance.toml").write_text(_config(max_write_messages=2, max_write_chars=100), encoding="utf-8")
    before = (project / "locales" / "de.json").read_bytes()
    with anyio.fail_after(60):
        async with _client(project) as client:
            many = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {
                "greeting": "a", "farewell": "b", "cart": "c"}})
            long = await client.call_tool("i18n_set_messages", {"locale": "de", "messages": {"cart": "c" * 200}})
    assert many.is_error and "INVALID_ARGUMENTS" in _text(many) and "max_write_messages" in _text(many)
    assert long.is_error and "INVALID_ARGUMENTS" in _text(long) and "max_write_chars" in _text(long)
    assert (project / "locales" / "de.json").read_bytes() == before


# --- a stop signal during a long read ---------------------------------------------------------------------

GRACE_S = 0.2
SLACK_S = 1.5  # the process's own way out once the deadline fires, on a loaded CI machine


def _large_project(root: Path, keys: int) -> Path:
    """A project whose first i18n_status reads and checks three 9 MB catalogs: seconds of parsing in a worker
    thread (measured: about 4 s at 90,000 keys per locale, over 2 s of it after the first file is read)."""
    (root / "locales").mkdir(parents=True)
    for code in ("en", "fr", "de"):
        messages = {f"screen{n // 100}.label{n}": f"{code} {{name}} has {{count, plural, one {{# file}} other {{# files}}}}"
                    f" in folder {n}" for n in range(keys)}
        (root / "locales" / f"{code}.json").write_text(json.dumps(messages), encoding="utf-8")
    config = _config().replace("[packs]", f"[host]\nshutdown_grace_s = {GRACE_S}\n\n[packs]", 1)
    (root / "parlance.toml").write_text(config, encoding="utf-8")
    return root / "parlance.toml"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_during_a_long_catalog_read_ends_the_server_within_the_grace_period(
        tmp_path: Path, signum: signal.Signals) -> None:
    config = _large_project(tmp_path / "big", keys=90_000)
    log = tmp_path / "stderr.log"
    env = {k: v for k, v in os.environ.items() if k != "PARLANCE_CONFIG"}
    with log.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--config", str(config)], env=env,
                                cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                            "protocolVersion": "2025-11-25", "capabilities": {},
                            "clientInfo": {"name": "raw", "version": "0"}}},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "i18n_status", "arguments": {}}}):
            proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        deadline = time.monotonic() + 60
        while b'"i18n.locale_loaded"' not in log.read_bytes():  # the read is under way: one file parsed
            assert proc.poll() is None and time.monotonic() < deadline, "the read never started"
            time.sleep(0.02)
        signalled = time.monotonic()
        proc.send_signal(signum)
        status, took = exit_status_within(proc, signalled, GRACE_S + WAY_OUT_S + SLACK_S + 5)
        unanswered = proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()
    assert status == 128 + signum
    assert took < GRACE_S + WAY_OUT_S + SLACK_S, f"exited {took:.2f} s after the signal"
    assert b'"id":2' not in unanswered.replace(b" ", b""), "the read finished before the signal: make it longer"
    forced_exit_logged(log, signum.name, 128 + signum)
