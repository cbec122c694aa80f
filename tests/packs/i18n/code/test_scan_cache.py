"""The scan cache's rules, on real files and the real i18next framework: a file whose (inode, size, mtime)
stamp is unchanged and old enough to trust is not read again; one whose stamp changed is read and parsed
only when its content hash changed; a stamp within two seconds of its own mtime is not trusted (a file
written twice in one timestamp tick could keep it: git's "racily clean" rule); a file gone is dropped.
And the usage index follows: only what changed is re-indexed, and what it holds is what a fresh one holds."""

from __future__ import annotations

import os
import time
from pathlib import Path

from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.scanner import ScanCache
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.code.usage import UsageIndex, usage_of

CALL = 'import {{ useTranslation }} from "react-i18next";\nexport const A = () => {{ const {{ t }} = ' \
       'useTranslation(); return <p>{{t("{key}")}}</p>; }};\n'


def _framework() -> object:
    return framework_class("i18next")(SourceSettings(paths=["src/*.tsx"], framework="i18next"))


def _write(path: Path, key: str, mtime: float) -> None:
    with open(path, "r+" if path.exists() else "w") as handle:  # in place: the inode stays
        handle.write(CALL.format(key=key))
        handle.truncate()
    os.utime(path, (mtime, mtime))


def _keys(cache: ScanCache, root: Path, framework: object) -> tuple[dict[str, list[str]], int]:
    scanned = cache.scan(root, framework)  # type: ignore[arg-type]
    return {f: [r.key for r in s.references] for f, s in scanned.files.items()}, scanned.parsed


def test_the_stamp_the_hash_and_the_racy_rule(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    old = time.time() - 100
    _write(tmp_path / "src/a.tsx", "aaaa", old)
    _write(tmp_path / "src/b.tsx", "bbbb", old)
    cache, framework = ScanCache(), _framework()
    assert _keys(cache, tmp_path, framework) == ({"src/a.tsx": ["aaaa"], "src/b.tsx": ["bbbb"]}, 2)

    # same size, mtime put back: the stamp is unchanged and old, so the file is not read again
    _write(tmp_path / "src/a.tsx", "zzzz", old)
    assert _keys(cache, tmp_path, framework) == ({"src/a.tsx": ["aaaa"], "src/b.tsx": ["bbbb"]}, 0)

    # written just now: a stamp that close to its mtime is not trusted, so it is read, and parsed
    now = time.time()
    _write(tmp_path / "src/a.tsx", "yyyy", now)
    assert _keys(cache, tmp_path, framework) == ({"src/a.tsx": ["yyyy"], "src/b.tsx": ["bbbb"]}, 1)

    # touched, content the same: read (its stamp changed) and not parsed (its hash did not)
    os.utime(tmp_path / "src/b.tsx", (old + 50, old + 50))
    assert _keys(cache, tmp_path, framework) == ({"src/a.tsx": ["yyyy"], "src/b.tsx": ["bbbb"]}, 0)

    (tmp_path / "src/b.tsx").unlink()
    assert _keys(cache, tmp_path, framework) == ({"src/a.tsx": ["yyyy"]}, 0)


def test_the_index_updated_file_by_file_holds_what_a_fresh_one_holds(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    old = time.time() - 100
    for name, key in (("a", "one"), ("b", "two"), ("c", "one")):
        _write(tmp_path / f"src/{name}.tsx", key, old)
    cache, framework = ScanCache(), _framework()
    kept = UsageIndex()
    catalog = {"one": None, "two": None, "three": None}

    def both() -> tuple[tuple[list[str], list[str]], tuple[list[str], list[str]]]:
        scanned = cache.scan(tmp_path, framework)  # type: ignore[arg-type]
        kept.update(scanned.files)
        fresh = UsageIndex()
        fresh.update(scanned.files)
        found = [usage_of(framework, [(framework, index)], catalog) for index in (kept, fresh)]  # type: ignore[list-item]
        return (found[0].used, found[0].unused), (found[1].used, found[1].unused)

    kept_view, fresh_view = both()
    assert kept_view == fresh_view == (["one", "two"], ["three"])
    _write(tmp_path / "src/a.tsx", "three", time.time() - 50)  # changed
    (tmp_path / "src/b.tsx").unlink()  # gone
    _write(tmp_path / "src/d.tsx", "four", time.time() - 50)  # new: undefined
    kept_view, fresh_view = both()
    assert kept_view == fresh_view == (["one", "three"], ["two"])
