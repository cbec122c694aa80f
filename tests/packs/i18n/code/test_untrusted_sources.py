"""A cloned repository's code is untrusted input too: the scanner reads nothing outside the project, never
blocks on a FIFO, skips a file past `max_file_bytes` (naming it and the setting), and a file that is not
valid code in its language costs that file's references, never the scan. Real files on disk, the real
i18next framework and the real cache."""

from __future__ import annotations

import os
from pathlib import Path

from parlance_i18n.code.frameworks import framework_class
from parlance_i18n.code.scanner import ScanCache
from parlance_i18n.code.settings import SourceSettings

CALL = 'import { useTranslation } from "react-i18next";\nexport const A = () => { const { t } = useTranslation(); ' \
       'return <p>{t("%s")}</p>; };\n'


def _scan(root: Path, **options: object) -> tuple[dict[str, list[str]], dict[str, str]]:
    framework = framework_class("i18next")(SourceSettings(paths=["src/**/*.tsx"], framework="i18next", **options))
    scanned = ScanCache().scan(root, framework)
    return ({file: [r.key for r in scan.references] for file, scan in scanned.files.items()},
            {skipped.file: skipped.reason for skipped in scanned.skipped})


def test_a_link_out_of_the_project_a_fifo_and_a_huge_file_are_skipped_with_reasons(tmp_path: Path) -> None:
    outside = tmp_path / "outside.tsx"
    outside.write_text(CALL % "secret.key")
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "ok.tsx").write_text(CALL % "ok.key")
    (root / "src" / "leak.tsx").symlink_to(outside)
    (root / "src" / "inside.tsx").symlink_to(root / "src" / "ok.tsx")
    os.mkfifo(root / "src" / "pipe.tsx")
    (root / "src" / "bundle.tsx").write_text(CALL % "big.key" + "// padding\n" * 20_000)

    found, skipped = _scan(root, max_file_bytes=64 * 1024)

    assert found == {"src/inside.tsx": ["ok.key"], "src/ok.tsx": ["ok.key"]}
    assert set(skipped) == {"src/leak.tsx", "src/pipe.tsx", "src/bundle.tsx"}
    assert "max_file_bytes" in skipped["src/bundle.tsx"]
    assert "outside.tsx" not in skipped["src/leak.tsx"] and str(tmp_path) not in " ".join(skipped.values())


def test_a_file_that_is_not_code_costs_its_references_only(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "good.tsx").write_text(CALL % "good.key")
    (tmp_path / "src" / "binary.tsx").write_bytes(bytes(range(256)) * 64)
    (tmp_path / "src" / "deep.tsx").write_text("(" * 50_000 + ")" * 50_000)
    (tmp_path / "src" / "broken.tsx").write_text('const x = <div>{t("half.key"')

    found, skipped = _scan(tmp_path)

    assert found["src/good.tsx"] == ["good.key"] and skipped == {}
    assert set(found) == {"src/good.tsx", "src/binary.tsx", "src/deep.tsx", "src/broken.tsx"}
    assert found["src/binary.tsx"] == [] and found["src/deep.tsx"] == []  # nothing made up from noise
