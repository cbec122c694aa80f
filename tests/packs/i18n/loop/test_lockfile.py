"""`loop.lockfile`: what is recorded and when a translation is stale, the file's exact bytes, and that
writers in threads, in processes and without any lock never lose each other's entries.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import threading
from pathlib import Path

import pytest

from parlance_i18n.loop import lockfile
from parlance_i18n.loop.lockfile import LockFileError, SourceLock, source_hash


def test_only_a_recorded_translation_whose_source_changed_is_stale(tmp_path: Path) -> None:
    lock = SourceLock(tmp_path / "parlance-i18n.lock")
    assert not lock.stale("web", "de", "cart.title", "Your cart")  # nothing recorded: not known to be stale
    lock.record("web", "de", {"cart.title": "Your cart", "cart.items": {"one": "# item", "other": "# items"}})
    assert not lock.stale("web", "de", "cart.title", "Your cart")
    assert lock.stale("web", "de", "cart.title", "Your shopping cart")
    assert lock.stale("web", "de", "cart.items", {"one": "# item", "other": "# articles"})
    assert not lock.stale("web", "fr", "cart.title", "Your shopping cart")
    assert not lock.stale("android", "de", "cart.title", "Your shopping cart")
    again = SourceLock(tmp_path / "parlance-i18n.lock")  # read back from the file
    assert again.stale("web", "de", "cart.title", "Your shopping cart") and again.problem is None


def test_the_file_is_sorted_json_one_key_a_line(tmp_path: Path) -> None:
    path = tmp_path / "parlance-i18n.lock"
    SourceLock(path).record("web", "de", {"b": "Bee", "a": "Ant"})
    SourceLock(path).record("android", "de", {"a": "Ant"})
    ant, bee = source_hash("Ant"), source_hash("Bee")
    assert path.read_text(encoding="utf-8") == (
        '{\n "sources": {\n  "android": {\n   "de": {\n    "a": "%s"\n   }\n  },\n'
        '  "web": {\n   "de": {\n    "a": "%s",\n    "b": "%s"\n   }\n  }\n },\n "version": 1\n}\n'
    ) % (ant, ant, bee)
    assert source_hash("Ant") == hashlib.sha256(b"Ant").hexdigest()[:16] == "c9c2d49ae5d60f23"
    assert [p.name for p in tmp_path.iterdir()] == ["parlance-i18n.lock"]  # no temporary file left


def test_plural_forms_hash_by_their_texts_whatever_they_are_called() -> None:
    assert source_hash({"one": "%d order", "other": "%d orders"}) == source_hash({"0": "%d order", "1": "%d orders"})
    assert source_hash({"one": "%d order", "other": "%d orders"}) != source_hash("%d order")


def test_recording_keeps_what_others_recorded_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "parlance-i18n.lock"
    first, second = SourceLock(path), SourceLock(path)
    assert not first.stale("web", "de", "x", "X")  # first has read the (empty) file
    second.record("web", "de", {"a": "A"})
    first.record("web", "de", {"b": "B"})
    assert set(SourceLock(path).recorded("web", "de")) == {"a", "b"}
    assert set(first.recorded("web", "de")) == {"a", "b"}  # and sees them now


def test_concurrent_threads_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "parlance-i18n.lock"

    def write(worker: int) -> None:
        for n in range(25):
            SourceLock(path).record("web", "de", {f"w{worker}.k{n}": f"text {n}"})

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(SourceLock(path).recorded("web", "de")) == 8 * 25


def _process_writer(path: str, worker: int) -> None:
    for n in range(20):
        SourceLock(Path(path)).record("web", f"l{worker % 2}", {f"w{worker}.k{n}": f"text {n}"})


def test_concurrent_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "parlance-i18n.lock"
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_process_writer, args=(str(path), worker)) for worker in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [process.exitcode for process in processes] == [0, 0, 0, 0]
    lock = SourceLock(path)
    assert len(lock.recorded("web", "l0")) == len(lock.recorded("web", "l1")) == 40


def test_a_writer_that_takes_no_lock_is_merged_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "parlance-i18n.lock"
    SourceLock(path).record("web", "de", {"a": "A"})
    real_parse = lockfile._parse
    calls: list[int] = []

    def parse_then_someone_saves(data: bytes, where: Path) -> dict:  # type: ignore[type-arg]
        found = real_parse(data, where)
        if not calls:  # an editor saves between our read and our rename, once
            other = real_parse(data, where)
            other["web"]["de"]["edited"] = source_hash("E")
            where.write_bytes(lockfile._dump(other))
        calls.append(1)
        return found

    monkeypatch.setattr(lockfile, "_parse", parse_then_someone_saves)
    SourceLock(path).record("web", "de", {"b": "B"})
    assert len(calls) == 2  # read again after the content check failed
    assert set(SourceLock(path).recorded("web", "de")) == {"a", "b", "edited"}


def test_a_file_that_is_not_a_lock_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "parlance-i18n.lock"
    broken = b'{\n<<<<<<< HEAD\n "version": 1\n}\n'
    path.write_bytes(broken)
    lock = SourceLock(path)
    assert not lock.stale("web", "de", "a", "A")
    assert lock.problem == ("parlance-i18n.lock is not valid JSON (line 2: expecting property name enclosed in "
                            "double quotes); if a merge left conflict markers in it, keep both sides' lines, or "
                            "delete it to start over")
    with pytest.raises(LockFileError, match="is not valid JSON"):
        lock.record("web", "de", {"a": "A"})
    assert path.read_bytes() == broken
    path.write_text(json.dumps({"version": 2, "sources": {}}), encoding="utf-8")
    with pytest.raises(LockFileError, match="is not a version 1 Parlance lock file"):
        SourceLock(path).record("web", "de", {"a": "A"})


def test_recording_nothing_writes_nothing(tmp_path: Path) -> None:
    SourceLock(tmp_path / "parlance-i18n.lock").record("web", "de", {})
    assert list(tmp_path.iterdir()) == []


def test_a_lock_file_in_a_missing_folder_is_refused_with_the_fix(tmp_path: Path) -> None:
    lock = SourceLock(tmp_path / "nowhere" / "parlance-i18n.lock")
    assert not lock.stale("web", "de", "a", "A") and lock.problem is None  # nothing recorded yet
    with pytest.raises(LockFileError, match="of the lock file does not exist: create it, or point "
                                            "\\[packs.i18n\\] lock_file elsewhere"):
        lock.record("web", "de", {"a": "A"})
