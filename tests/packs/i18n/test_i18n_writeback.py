"""Writing catalog files back: atomic, permission bits and links kept, never outside the file's folder, no
change lost when others write the same file meanwhile (threads, other processes, an editor that takes no
lock); and the one size limit every catalog file is read under."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import Document
from parlance_i18n.locales import parse_locale
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.store import (
    MAX_FILE_BYTES,
    ConcurrentChange,
    UnsafePath,
    edit_file,
    read_bytes,
    unified_diff,
    update_file,
)

DE = parse_locale("de")
ORIGINAL = '{\n  "cart.empty": "Dein Warenkorb ist leer",\n  "cart.total": "Summe: {total}"\n}\n'


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    path = tmp_path / "de.json"
    path.write_text(ORIGINAL, encoding="utf-8")
    return path


def _setter(key: str, value: str):  # noqa: ANN202 - a change callback
    def change(document: Document) -> None:
        if document.get(key) is None:
            document.add(key, value)
        else:
            document.set(key, value)
    return change


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".parlance-tmp")]


def test_one_message_is_replaced_atomically_and_the_diff_names_only_it(catalog: Path) -> None:
    os.chmod(catalog, 0o640)
    result = edit_file(catalog, formats.get("icu-json"), DE, _setter("cart.empty", "Leer"), within=catalog.parent)
    assert result.changed and result.attempts == 1
    assert catalog.read_text(encoding="utf-8") == ORIGINAL.replace("Dein Warenkorb ist leer", "Leer")
    assert os.stat(catalog).st_mode & 0o777 == 0o640
    assert _leftovers(catalog.parent) == []
    diff = result.diff("de.json")
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        '-  "cart.empty": "Dein Warenkorb ist leer",', '+  "cart.empty": "Leer",']


def test_an_unchanged_edit_writes_nothing(catalog: Path) -> None:
    before = os.stat(catalog).st_mtime_ns
    result = edit_file(catalog, formats.get("icu-json"), DE, _setter("cart.empty", "Dein Warenkorb ist leer"),
                       within=catalog.parent)
    assert not result.changed and os.stat(catalog).st_mtime_ns == before


def test_a_link_is_followed_and_kept(catalog: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(catalog)
    edit_file(link, formats.get("icu-json"), DE, _setter("cart.empty", "Leer"), within=tmp_path)
    assert link.is_symlink() and '"Leer"' in catalog.read_text(encoding="utf-8")


def test_a_link_leading_outside_the_folder_is_refused_and_nothing_is_written(catalog: Path, tmp_path: Path) -> None:
    inside = tmp_path / "locales"
    inside.mkdir()
    link = inside / "de.json"
    link.symlink_to(catalog)  # the catalog's folder is `locales`; the file it leads to is not in it
    with pytest.raises(UnsafePath) as caught:
        edit_file(link, formats.get("icu-json"), DE, _setter("cart.empty", "Leer"), within=inside)
    # Named relative to the folder, never by its target: a link's target is not the project's to tell.
    assert caught.value.code == "UNSAFE_PATH" and caught.value.data == {"file": "de.json"}
    assert caught.value.message.startswith("de.json leads outside its catalog's folder")
    assert str(catalog) not in caught.value.message and str(tmp_path) not in caught.value.message
    assert catalog.read_text(encoding="utf-8") == ORIGINAL and _leftovers(catalog.parent) == []
    with pytest.raises(UnsafePath, match="leads outside its folder"):  # every writer checks: update_file too
        update_file(link, lambda before, attempt: b"{}", within=inside, place="its folder")
    assert catalog.read_text(encoding="utf-8") == ORIGINAL


def test_the_lock_file_writer_goes_through_the_same_check(tmp_path: Path) -> None:
    from parlance_i18n.loop.lockfile import SourceLock

    elsewhere = tmp_path / "elsewhere.lock"
    elsewhere.write_text("", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "parlance-i18n.lock").symlink_to(elsewhere)
    with pytest.raises(UnsafePath, match="parlance-i18n.lock leads outside its folder"):
        SourceLock(project / "parlance-i18n.lock").record("web", "de", {"a": "Ant"})
    assert elsewhere.read_text(encoding="utf-8") == ""


def test_one_size_limit_for_every_catalog_file(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)  # sparse: no 64 MiB written
    with pytest.raises(CatalogFileError, match="catalog files over 67,108,864 bytes are not read"):
        read_bytes(big)
    big.write_bytes(b"{}")
    assert read_bytes(big) == b"{}"


def test_a_failing_change_leaves_the_file_and_no_temporary(catalog: Path) -> None:
    def change(document: Document) -> None:
        document.set("cart.empty", "Leer")
        raise ValueError("refused")
    with pytest.raises(ValueError):
        edit_file(catalog, formats.get("icu-json"), DE, change, within=catalog.parent)
    assert catalog.read_text(encoding="utf-8") == ORIGINAL and _leftovers(catalog.parent) == []


def test_an_editor_saving_meanwhile_is_not_lost(catalog: Path) -> None:
    """Someone without our lock saves between our read and our rename: the edit is applied again."""
    calls = []

    def change(document: Document) -> None:
        calls.append(1)
        if len(calls) == 1:  # the editor saves while we work on the first read
            catalog.write_text(ORIGINAL.replace("Summe", "Gesamt"), encoding="utf-8")
        document.set("cart.empty", "Leer")

    result = edit_file(catalog, formats.get("icu-json"), DE, change, within=catalog.parent)
    assert result.attempts == 2
    text = catalog.read_text(encoding="utf-8")
    assert '"Leer"' in text and "Gesamt: {total}" in text


def test_an_edit_that_no_longer_applies_is_refused_and_writes_nothing(catalog: Path) -> None:
    calls = []
    theirs = '{\n  "cart.total": "Summe: {total}"\n}\n'

    def change(document: Document) -> None:
        calls.append(1)
        if len(calls) == 1:
            catalog.write_text(theirs, encoding="utf-8")  # they deleted the key we set
        document.set("cart.empty", "Leer")

    with pytest.raises(ConcurrentChange) as caught:
        edit_file(catalog, formats.get("icu-json"), DE, change, within=catalog.parent)
    assert "nothing was written" in caught.value.message
    assert catalog.read_text(encoding="utf-8") == theirs


def test_threads_writing_different_keys_lose_nothing(catalog: Path) -> None:
    fmt = formats.get("icu-json")
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(15):
                edit_file(catalog, fmt, DE, _setter(f"thread{n}.key{i}", f"value {n} {i}"), within=catalog.parent)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    data = json.loads(catalog.read_text(encoding="utf-8"))
    assert all(data[f"thread{n}.key{i}"] == f"value {n} {i}" for n in range(8) for i in range(15))
    assert data["cart.empty"] == "Dein Warenkorb ist leer"


def test_processes_writing_different_keys_lose_nothing(catalog: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from parlance_i18n import formats\n"
        "from parlance_i18n.locales import parse_locale\n"
        "from parlance_i18n.store import edit_file\n"
        "n = sys.argv[2]\n"
        "def setter(key, value):\n"
        "    def change(document):\n"
        "        document.add(key, value) if document.get(key) is None else document.set(key, value)\n"
        "    return change\n"
        "for i in range(25):\n"
        "    edit_file(Path(sys.argv[1]), formats.get('icu-json'), parse_locale('de'), setter(f'p{n}.k{i}', f'v{i}'),\n"
        "              within=Path(sys.argv[1]).parent)\n"
    )
    processes = [subprocess.Popen([sys.executable, "-c", script, str(catalog), str(n)]) for n in range(3)]
    assert [p.wait(timeout=120) for p in processes] == [0, 0, 0]
    data = json.loads(catalog.read_text(encoding="utf-8"))
    assert all(data[f"p{n}.k{i}"] == f"v{i}" for n in range(3) for i in range(25))


def test_unified_diff_marks_a_missing_final_newline() -> None:
    diff = unified_diff(b"a\nb", b"a\nc", "f.txt")
    assert diff.splitlines()[-2:] == ["+c", "\\ No newline at end of file"]
