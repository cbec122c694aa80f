"""The one containment rule, in `store`: every file the pack reads or writes lies inside its folder as
the project opened it (links followed now), is a regular file, and is still the file that was checked
when it is opened or replaced; and the settings and limits that go with it.

The end-to-end scenarios (a real server over stdio) are in `test_i18n_untrusted_repository.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import parlance_i18n.store as store
from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Document, LocaleMessages
from parlance_i18n.formats.base import ReadLimits
from parlance_i18n.locales import LocaleTag, parse_locale
from parlance_i18n.loop.glossary import GlossaryError, load_glossary
from parlance_i18n.loop.lockfile import SourceLock
from parlance_i18n.model.project import Project, parse
from parlance_i18n.settings import CatalogSource, I18nSettings
from parlance_i18n.store import UnsafePath, check_file, edit_file, read_bytes, update_file

DE = parse_locale("de")
POSIX_ONLY = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and O_NOFOLLOW are POSIX")


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """(project, outside): a project with `locales/de.json`, and a folder beside it with a secret."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "locales").mkdir(parents=True)
    outside.mkdir()
    (project / "locales" / "de.json").write_text('{"a": "A"}', encoding="utf-8")
    (outside / "secret.json").write_text('{"a": "secret"}', encoding="utf-8")
    return project, outside


def _setter(document: Document) -> None:
    document.set("a", "B")


# --- reading ------------------------------------------------------------------------------------------------


def test_a_link_inside_is_followed_and_one_leading_out_is_refused_by_its_name(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (project / "locales" / "de-AT.json").symlink_to("de.json")
    assert read_bytes(project / "locales" / "de-AT.json", root=project) == b'{"a": "A"}'
    (project / "locales" / "fr.json").symlink_to(outside / "secret.json")
    with pytest.raises(UnsafePath) as caught:
        read_bytes(project / "locales" / "fr.json", root=project)
    assert caught.value.data == {"file": "locales/fr.json"}
    assert caught.value.message.startswith("locales/fr.json leads outside the project's folder")
    assert "secret" not in caught.value.message and str(outside) not in caught.value.message
    with pytest.raises(UnsafePath):  # a dangling link out, too: what it would create is outside
        (project / "locales" / "it.json").symlink_to(outside / "nothing.json")
        check_file(project / "locales" / "it.json", project)


@POSIX_ONLY
def test_special_files_are_refused_without_blocking(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    os.mkfifo(project / "locales" / "fr.json")
    done: list[BaseException] = []

    def read() -> None:
        try:
            read_bytes(project / "locales" / "fr.json", root=project)
        except BaseException as exc:  # noqa: BLE001 - checked below
            done.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    assert done and isinstance(done[0], UnsafePath) and "is a FIFO" in done[0].message
    with pytest.raises(UnsafePath, match="is a folder"):
        read_bytes(project / "locales", root=project)
    with pytest.raises(UnsafePath, match="is a FIFO"):
        check_file(project / "locales" / "fr.json", project)
    (project / "locales" / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(UnsafePath):  # outside the project, and a device besides
        read_bytes(project / "locales" / "zero.json", root=project)
    with pytest.raises(UnsafePath, match="is a device"):
        read_bytes(Path("/dev/zero"))  # no root: still never a special file


def test_a_link_leading_to_itself_or_round_a_circle_is_refused_by_its_name(layout: tuple[Path, Path]) -> None:
    """Found by the catalog fuzzer: check_file let the ELOOP of `os.stat` escape, so a write on a
    locale whose file is such a link answered INTERNAL."""
    project, _ = layout
    locales = project / "locales"
    (locales / "fr.json").symlink_to("fr.json")
    (locales / "it.json").symlink_to("es.json")
    (locales / "es.json").symlink_to("it.json")
    (project / "loop").symlink_to("loop")
    for name in ("fr.json", "it.json"):
        attempts = [(lambda: check_file(locales / name, project), f"locales/{name}"),
                    (lambda: read_bytes(locales / name, root=project), f"locales/{name}"),
                    (lambda: edit_file(locales / name, formats.get("icu-json"), DE, _setter, within=locales), name)]
        for attempt, label in attempts:
            with pytest.raises(UnsafePath, match="is a link that leads back to itself") as caught:
                attempt()
            assert caught.value.data == {"file": label}
    with pytest.raises(UnsafePath, match="loop/de.json is a link that leads back to itself"):
        check_file(project / "loop" / "de.json", project)  # a folder on the way is the circle
    assert (locales / "fr.json").is_symlink() and (locales / "es.json").is_symlink()


@POSIX_ONLY
def test_a_folder_swapped_for_a_link_while_a_file_is_opened_is_caught(layout: tuple[Path, Path],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the check and the open, `locales` becomes a link out: the file opened is not the one
    checked, and nothing of it is returned. Swapped back, the path names the project's file again, which
    is opened again and checked (as a file another writer replaced), and that is what is read."""
    project, outside = layout
    shutil.copy(outside / "secret.json", outside / "de.json")
    real_open = os.open

    for swap_back in (False, True):
        calls: list[str] = []

        def swapping_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if str(path).endswith("de.json") and not calls:
                calls.append("swapped")
                os.rename(project / "locales", project / "locales.real")
                (project / "locales").symlink_to(outside)
                try:
                    return real_open(path, flags, *args, **kwargs)
                finally:
                    if swap_back:
                        (project / "locales").unlink()
                        os.rename(project / "locales.real", project / "locales")
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(store.os, "open", swapping_open)
        if swap_back:
            assert read_bytes(project / "locales" / "de.json", root=project) == b'{"a": "A"}'
        else:
            with pytest.raises(UnsafePath):
                read_bytes(project / "locales" / "de.json", root=project)
        monkeypatch.setattr(store.os, "open", real_open)
        assert calls == ["swapped"]
        if not swap_back:
            (project / "locales").unlink()
            os.rename(project / "locales.real", project / "locales")


@POSIX_ONLY
def test_a_file_replaced_while_it_is_opened_is_read_as_it_is_now(layout: tuple[Path, Path],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer (a replica on the same checkout) saves the file atomically right as it is opened: the
    new file is read, not refused as changed; one replaced at every open is refused after `REOPENS` tries."""
    project, _ = layout
    target = project / "locales" / "de.json"
    real_open = os.open
    saves: list[int] = []

    def saving_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        descriptor = real_open(path, flags, *args, **kwargs)
        if str(path).endswith("de.json") and len(saves) < limit:
            saves.append(1)
            (project / "locales" / "saved.tmp").write_text(f'{{"a": "save {len(saves)}"}}', encoding="utf-8")
            os.replace(project / "locales" / "saved.tmp", target)
        return descriptor

    monkeypatch.setattr(store.os, "open", saving_open)
    limit = 1
    assert read_bytes(target, root=project) == b'{"a": "save 1"}'
    saves.clear()
    limit = store.REOPENS
    with pytest.raises(UnsafePath, match="was changed while it was being opened"):
        read_bytes(target, root=project)
    assert len(saves) == store.REOPENS


def test_the_size_limit_names_its_setting(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"{}" + b" " * 5000)
    with pytest.raises(CatalogFileError, match=r"catalog files over 4,096 bytes are not read \(setting "
                                               r"\[packs.i18n\] max_file_bytes\)"):
        read_bytes(big, root=tmp_path, max_bytes=4096)


# --- writing ------------------------------------------------------------------------------------------------


def test_a_catalog_folder_that_became_a_link_is_not_written(layout: tuple[Path, Path]) -> None:
    """Both the file and its folder resolve outside: the file is held to the folder as written, so the
    write is refused (comparing the two real paths would allow it)."""
    project, outside = layout
    folder = project / "locales"
    shutil.rmtree(folder)
    shutil.copy(outside / "secret.json", outside / "de.json")
    folder.symlink_to(outside)
    before = (outside / "de.json").read_bytes()
    with pytest.raises(UnsafePath, match="de.json leads outside its catalog's folder"):
        edit_file(folder / "de.json", formats.get("icu-json"), DE, _setter, within=folder)
    assert (outside / "de.json").read_bytes() == before
    assert sorted(p.name for p in outside.iterdir()) == ["de.json", "secret.json"]


@pytest.mark.skipif(not store._BY_FOLDER, reason="writes relative to a folder descriptor are POSIX")
def test_a_folder_swapped_for_a_link_during_a_write_is_not_written_through(layout: tuple[Path, Path]) -> None:
    """The change runs after the check: the folder is swapped for a link out right then. The temporary
    file and the rename go through the checked folder's descriptor, and its path is checked again, so
    nothing lands outside."""
    project, outside = layout
    folder = project / "locales"
    shutil.copy(outside / "secret.json", outside / "de.json")
    before = {p.name: p.read_bytes() for p in outside.iterdir()}

    def swap_then_change(document: Document) -> None:
        os.rename(folder, project / "locales.real")
        folder.symlink_to(outside)
        document.set("a", "B")

    with pytest.raises(UnsafePath):
        edit_file(folder / "de.json", formats.get("icu-json"), DE, swap_then_change, within=folder)
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before
    assert not [p for p in (project / "locales.real").iterdir() if p.name.endswith(".parlance-tmp")]


@POSIX_ONLY
def test_a_file_that_is_a_fifo_is_never_read_for_a_write(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "parlance-i18n.lock")
    with pytest.raises(UnsafePath, match="is a FIFO"):
        update_file(tmp_path / "parlance-i18n.lock", lambda before, attempt: b"{}", within=tmp_path)
    assert (tmp_path / "parlance-i18n.lock").is_fifo()


# --- the lock file and glossaries -----------------------------------------------------------------------------


def test_a_lock_file_outside_the_project_is_read_as_empty_and_never_written(tmp_path: Path) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "theirs.lock"
    project.mkdir()
    elsewhere.write_text(json.dumps({"version": 1, "sources": {"web": {"de": {"a": "0" * 16}}}}), encoding="utf-8")
    before = elsewhere.read_bytes()
    lock = SourceLock(elsewhere, root=project)  # what the host hands over for a link it resolved
    assert lock.recorded("web", "de") == {} and lock.problem is not None and "UNSAFE_PATH" in lock.problem
    assert "theirs" not in lock.problem
    with pytest.raises(UnsafePath, match=r"the lock file \(\[packs.i18n\] lock_file\) leads outside"):
        lock.record("web", "de", {"a": "A"})
    assert elsewhere.read_bytes() == before


def test_a_glossary_outside_the_project_or_linking_out_is_refused(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "glossary").mkdir(parents=True)
    outside.mkdir()
    (outside / "de.toml").write_text('[[term]]\nsource = "cart"\ntarget = "Geheim"\n', encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"glossaries\[0\] leads outside the project's folder"):
        load_glossary(DE, None, [outside / "de.toml"], project)
    (project / "glossary" / "de.toml").symlink_to(outside / "de.toml")
    with pytest.raises(GlossaryError, match="leads outside the project's folder") as caught:
        load_glossary(DE, None, [project / "glossary" / "de.toml"], project)
    assert "Geheim" not in caught.value.message and str(outside) not in caught.value.message
    glossary, _ = load_glossary(DE, None, [outside / "de.toml"], None)  # no project folder: its own folder
    assert [term.target for term in glossary] == ["Geheim"]


# --- the project ------------------------------------------------------------------------------------------------


def test_a_project_lists_a_file_leading_out_and_refuses_it_when_read(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (project / "locales" / "fr.json").symlink_to(outside / "secret.json")
    opened = Project([CatalogSource(path=project / "locales" / "{locale}.json", format="icu-json")], DE,
                     root=project)
    fr = opened.locales["fr"]
    assert dict(fr.items()) == {}
    [problem] = fr.problems
    assert problem.path == project / "locales" / "fr.json" and "UNSAFE_PATH" in problem.reason
    assert opened.sources[0].label == "locales/{locale}.json"  # named as parlance.toml writes it


def test_a_catalog_folder_outside_the_project_is_a_problem_unless_allowed(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    (outside / "de.json").write_text('{"a": "draußen"}', encoding="utf-8")
    source = CatalogSource(path=outside / "{locale}.json", format="icu-json")
    refused = Project([source], DE, root=project)
    assert refused.locales == {} and "allow_outside_project = true" in refused.problems[0].reason
    allowed = Project([source], DE, root=project, allow_outside=True)
    assert allowed.locales["de"].text("a") == "draußen"


def test_settings_refuse_a_catalog_path_leading_out_and_name_the_key_and_the_fix(tmp_path: Path) -> None:
    inside = {"path": str(tmp_path / "project" / "locales" / "{locale}.json")}
    outside = {"path": str(tmp_path / "outside" / "{locale}.json")}
    root = str(tmp_path / "project")
    assert I18nSettings(catalogs=[inside], project_root=root).root == tmp_path / "project"
    for catalogs in ([inside, outside], [{"path": "../outside/{locale}.json"}]):
        with pytest.raises(ValidationError) as caught:
            I18nSettings(catalogs=catalogs, project_root=root)
        message = str(caught.value)
        assert f"catalogs[{len(catalogs) - 1}].path leads outside the project's folder" in message
        assert "allow_outside_project = true" in message
        assert I18nSettings(catalogs=catalogs, project_root=root, allow_outside_project=True).allow_outside_project
    assert I18nSettings(catalogs=[outside]).root is None  # built in code: each catalog holds to its own folder


def test_the_limit_settings_reach_every_file_of_the_project(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    (project / "locales" / "fr.json").write_text(json.dumps({f"k{i}": "v" for i in range(20)}), encoding="utf-8")
    settings = I18nSettings(catalogs=[{"path": str(project / "locales" / "{locale}.json"), "format": "icu-json"}],
                            project_root=str(project), max_file_messages=10, max_file_bytes=4096,
                            max_file_chars=1024)
    limits = store.FileLimits.of(settings)
    assert (limits.max_bytes, limits.read) == (4096, ReadLimits(10, 1024))
    opened = Project(settings.catalogs, DE, root=settings.root, limits=limits)
    assert "max_file_messages" in opened.locales["fr"].problems[0].reason
    assert opened.locales["de"].text("a") == "A"


class _CountingFormat(formats.CatalogFormat):
    """A format that takes the read limits, as every format does once it bounds its own reading."""

    seen: list[ReadLimits] = []

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = ReadLimits()) -> LocaleMessages:
        self.seen.append(limits)
        return formats.get("icu-json").read(data, tag)

    def edit(self, data: bytes, tag: LocaleTag) -> Document:
        return formats.get("icu-json").edit(data, tag)


def test_limits_are_handed_to_a_format_that_takes_them_and_checked_for_one_that_does_not() -> None:
    data = json.dumps({"a": "x" * 600, "b": "y" * 600}).encode()
    limits = ReadLimits(max_messages=10, max_decoded_chars=1000)
    counting = _CountingFormat()
    assert set(parse(counting, data, DE, limits)) == {"a", "b"} and counting.seen == [limits]
    with pytest.raises(CatalogFileError, match=r"max_file_chars"):
        parse(formats.get("icu-json"), data, DE, limits)
    with pytest.raises(CatalogFileError, match=r"holds more than 1 messages.*max_file_messages"):
        parse(formats.get("icu-json"), data, DE, ReadLimits(max_messages=1))  # the format counts as it reads


def test_a_locale_folder_leading_out_is_reported_by_its_name_and_not_looked_into(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "locales" / "de").mkdir(parents=True)
    (project / "locales" / "de" / "app.json").write_text('{"a": "A"}', encoding="utf-8")
    outside.mkdir()
    (outside / "private-name.json").write_text('{"a": "secret"}', encoding="utf-8")
    (project / "locales" / "fr").symlink_to(outside)
    opened = Project([CatalogSource(path=project / "locales" / "{locale}" / "{domain}.json", format="icu-json")],
                     DE, root=project)
    [problem] = opened.locales["fr"].problems
    assert problem.path == project / "locales" / "fr" and "locales/fr leads outside" in problem.reason
    assert "private-name" not in repr(opened.locales["fr"].files) + problem.reason
    assert opened.locales["de"].text("a") == "A"
