"""The apple framework on trees/apple: Swift and Objective-C lookups, SwiftUI's LocalizedStringKey
literals, tables, dynamic keys, `Text(verbatim:)`, extraction.

No oracle runs here: Xcode's string extraction and `genstrings` need macOS and Xcode, which no package
registry reachable from the test machine provides. The expected keys are written by hand, as Xcode
extracts them from these shapes; the catalog side is real (the tree's `.strings` and `.stringsdict`
read with the pack's own Apple formats).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.apple import Apple
from parlance_i18n.code.frameworks.base import ExtractionRefused
from parlance_i18n.code.model import FileScan
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.formats.apple.strings import AppleStringsFormat
from parlance_i18n.formats.apple.stringsdict import StringsdictFormat
from parlance_i18n.locales import parse_locale

TREE = Path(__file__).parent / "trees" / "apple"
LPROJ = TREE / "Notes" / "en.lproj"

EXPECTED_DIFFERENCES = {
    "%@ characters": "the code's key: `Text(\"\\(store.characterCount) characters\")` interpolates an Int, which "
                     "Xcode extracts as %lld; the code alone does not say the type, so the scanner writes %@",
    "%lld characters": "the catalog's key for the same Text, as Xcode wrote it (see %@ characters)",
    "unused.banner": "named only in an Objective-C comment: not a reference",
}
"""Keys in exactly one of (the code's references, the catalog's keys), each with why."""


def framework() -> Apple:
    return Apple(SourceSettings(paths=["**/*"], framework="apple"))


def scans() -> dict[str, FileScan]:
    apple = framework()
    return {file.relative_to(TREE).as_posix(): apple.scan(file.relative_to(TREE).as_posix(), file.read_bytes())
            for file in sorted(TREE.rglob("*")) if file.is_file() and apple.reads(file.name)}


def test_references_with_their_tables() -> None:
    found = {(r.key, r.namespace) for scan in scans().values() for r in scan.references}
    assert found == {
        ("Hello %@", None), ("%@ characters", None), ("Notes", None), ("New Note", None), ("Delete", None),
        ("settings.sync", "Settings"), ("notes.empty", None), ("notes.count", None), ("notes.saved", None),
        ("settings.sort", "Settings"), ("legacy.title", None), ("legacy.subtitle", None),
    }


def test_the_code_and_the_catalog_differ_only_where_expected() -> None:
    tag = parse_locale("en")
    catalog = set(AppleStringsFormat().read((LPROJ / "Localizable.strings").read_bytes(), tag).keys())
    catalog |= set(StringsdictFormat().read((LPROJ / "Localizable.stringsdict").read_bytes(), tag).keys())
    settings = set(AppleStringsFormat().read((LPROJ / "Settings.strings").read_bytes(), tag).keys())
    found = [r for scan in scans().values() for r in scan.references]
    called = {r.key for r in found if r.namespace is None}
    assert {r.key for r in found if r.namespace == "Settings"} == settings
    prefixes = [d.prefix for scan in scans().values() for d in scan.dynamic if d.prefix]
    maybe = {key for key in catalog if any(key.startswith(p) for p in prefixes)}
    assert maybe == {"error.%@"}
    assert {key: EXPECTED_DIFFERENCES.get(key) for key in called ^ (catalog - maybe)} == EXPECTED_DIFFERENCES


def test_defaults_are_kept() -> None:
    found = {r.key: r.default for scan in scans().values() for r in scan.references}
    assert found["notes.empty"] == "No notes yet"
    assert found["notes.saved"] == "Saved"
    assert found["Notes"] is None


def test_keys_built_at_run_time_are_dynamic() -> None:
    found = {(d.expression, d.prefix) for scan in scans().values() for d in scan.dynamic}
    assert found == {("key", ""), ('"error.\\(code)"', "error."), ("store.statusKey", "")}


def test_verbatim_text_with_a_word_is_hard_coded() -> None:
    found = [(h.text, h.kind) for scan in scans().values() for h in scan.hardcoded]
    assert found == [("Notes for iOS", "swiftui-text-verbatim")]


def test_verbatim_text_becomes_a_localized_string_key() -> None:
    path = "Notes/Views/ContentView.swift"
    data = (TREE / path).read_bytes()
    (literal,) = framework().scan(path, data).hardcoded
    extraction = framework().extraction(path, data, literal, "content_view.notes_for_ios")
    (edit,) = extraction.edits
    edited = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert b'Text("content_view.notes_for_ios")' in edited
    assert extraction.message == "Notes for iOS"
    assert "content_view.notes_for_ios" in {r.key for r in framework().scan(path, edited).references}


def test_interpolating_verbatim_text_is_refused() -> None:
    data = b'import SwiftUI\nlet v = Text(verbatim: "Build \\(number) ready")\n'
    (literal,) = framework().scan("V.swift", data).hardcoded
    assert literal.text == "Build {number} ready"
    with pytest.raises(ExtractionRefused, match="interpolates"):
        framework().extraction("V.swift", data, literal, "build")


@pytest.mark.parametrize(("source", "key"), [
    (b'Text("\\(3) items")', "%lld items"),
    (b'Text("Speed \\(2.5) x")', "Speed %lf x"),
    (b'Text("100% of \\(name)")', "100%% of %@"),
    (b'Text("100%")', "100%"),
    (b'Text("Tab \\"quoted\\"\\n")', 'Tab "quoted"\n'),
])
def test_xcode_keys_of_literals(source: bytes, key: str) -> None:
    (reference,) = framework().scan("K.swift", source).references
    assert reference.key == key


def test_broken_swift_is_a_problem_not_an_error() -> None:
    found = framework().scan("B.swift", b'struct V { var body: some View { Text("Kept") \n')
    assert [r.key for r in found.references] == ["Kept"]
    assert found.problems
