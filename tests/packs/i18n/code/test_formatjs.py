"""FormatJS read as `formatjs extract` reads it: descriptors, generated ids, defineMessages, hard-coded
JSX and extraction — and `formatjs extract` itself run on the same tree as the oracle."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.base import ExtractionRefused
from parlance_i18n.code.frameworks.formatjs import FormatJS, generated_id
from parlance_i18n.code.model import FileScan
from parlance_i18n.code.settings import SourceSettings
from tests.packs.i18n.code.oracles import oracle

TREE = Path(__file__).parent / "trees" / "formatjs"


def framework(**options: object) -> FormatJS:
    return FormatJS(SourceSettings(paths=["**/*"], framework="formatjs", **options))


def scan_tree(fw: FormatJS) -> dict[str, FileScan]:
    return {str(p.relative_to(TREE)): fw.scan(str(p.relative_to(TREE)), p.read_bytes())
            for p in sorted(TREE.rglob("*")) if fw.reads(p.name)}


def test_define_messages_with_generated_ids() -> None:
    found = scan_tree(framework())["src/components/messages.ts"]
    assert {r.key: r.default for r in found.references} == {
        "app.greeting": "Hello, {name}!",
        "gP1lrZ": "You have {count, plural, one {# message} other {# messages}}",
        "xXbJso": "Sign out", "r5q7ny": "Dashboard"}


def test_generated_id_follows_the_pattern() -> None:
    assert generated_id("[sha512:contenthash:base64:6]", "Title", None) == "9a9+ww"
    assert generated_id("[sha512:contenthash:base64:6]", "Hello", "greeting") == "K+VETU"
    assert generated_id("msg_[sha256:contenthash:hex:8]", "Title", None) == "msg_" + __import__("hashlib").sha256(
        b"Title").hexdigest()[:8]
    assert generated_id("[sha512:contenthash:base26:6]", "Title", None) is None


def test_components_calls_and_dynamic_ids() -> None:
    found = scan_tree(framework(functions=["$t"]))
    dashboard = {r.key: r.default for r in found["src/components/Dashboard.tsx"].references}
    assert dashboard["sFWN/G"] == "Last sign-in: {when, date, medium}"  # whitespace collapsed as the extractor does
    assert dashboard["rELDbB"] == "Refresh"  # `fm` from `const { formatMessage: fm } = intl`
    settings = found["src/pages/Settings.jsx"]
    assert [r.key for r in settings.references] == ["settings.title"]
    assert [d.prefix for d in settings.dynamic] == ["settings.section."]
    assert [h.text for h in settings.hardcoded] == ["Changes are saved automatically."]  # i18n-ignore skips one
    assert "settings.title" not in {r.key for r in scan_tree(framework())["src/pages/Settings.jsx"].references}


def test_extraction_writes_formatted_message_or_format_message() -> None:
    path, data = "Dashboard.tsx", (TREE / "src" / "components" / "Dashboard.tsx").read_bytes()
    fw = framework()
    text, attribute = (next(h for h in fw.scan(path, data).hardcoded if h.kind == kind)
                       for kind in ("jsx-text", "jsx-attribute:alt"))
    (edit,) = fw.extraction(path, data, text, "dashboard.refresh").edits
    assert edit.text == '<FormattedMessage id="dashboard.refresh" defaultMessage="Refresh now" />'
    (edit,) = fw.extraction(path, data, attribute, "dashboard.avatar").edits
    assert edit.text == '{intl.formatMessage({ id: "dashboard.avatar", defaultMessage: "Your avatar" })}'


def test_extraction_refused_without_the_import() -> None:
    path, data = "Settings.jsx", (TREE / "src" / "pages" / "Settings.jsx").read_bytes()
    fw = framework()
    (literal,) = fw.scan(path, data).hardcoded
    with pytest.raises(ExtractionRefused, match="does not import FormattedMessage"):
        fw.extraction(path, data, literal, "settings.autosave")


EXPECTED_DIFFERENCES: dict[str, str] = {
    "rELDbB": "only here: `const { formatMessage: fm } = intl` makes `fm` formatMessage; formatjs extract reads "
              "only the names formatMessage/$formatMessage and --additional-function-names",
}
"""Ids found by one side only, and why; asserted exactly, both ways."""


def test_oracle_formatjs_extract(tmp_path: Path) -> None:
    cli = oracle(".bin/formatjs")
    out = tmp_path / "out.json"
    subprocess.run([str(cli), "extract", "src/**/*.{ts,tsx,js,jsx}", "--additional-function-names", "$t",
                    "--out-file", str(out)], cwd=TREE, check=True, capture_output=True, timeout=120)
    theirs = set(json.loads(out.read_text()))
    ours = {r.key for s in scan_tree(framework(functions=["$t"])).values() for r in s.references}
    differences = {k: EXPECTED_DIFFERENCES.get(k, "unexplained") for k in ours ^ theirs}
    assert differences == EXPECTED_DIFFERENCES
