"""The android framework on trees/android: references, dynamic names, hard-coded texts, extraction.

No oracle runs here: Android lint (UnusedResources, HardcodedText) needs the Android SDK and Gradle,
which no package registry reachable from the test machine provides. The expected sets below are
written by hand from what lint reports on these shapes, each line of the tree checked against them.
The catalog side is real: the tree's strings.xml is read with the pack's own Android format.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.android import Android
from parlance_i18n.code.frameworks.base import ExtractionRefused, KeyStyle
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.formats.android.format import AndroidFormat
from parlance_i18n.locales import parse_locale

TREE = Path(__file__).parent / "trees" / "android"
MAIN = "app/src/main"


def framework() -> Android:
    return Android(SourceSettings(paths=["**/*"], framework="android"))


def scans() -> dict[str, FileScan]:
    android = framework()
    found = {}
    for file in sorted(TREE.rglob("*")):
        relative = file.relative_to(TREE).as_posix()
        if file.is_file() and android.reads(relative):
            found[relative] = android.scan(relative, file.read_bytes())
    return found


def test_reads_code_resource_xml_and_the_manifest_only() -> None:
    android = framework()
    assert android.reads(f"{MAIN}/java/com/example/notes/MainActivity.kt")
    assert android.reads(f"{MAIN}/java/com/example/notes/LegacyAdapter.java")
    assert android.reads(f"{MAIN}/res/layout-land/activity_main.xml")
    assert android.reads(f"{MAIN}/AndroidManifest.xml")
    assert not android.reads(f"{MAIN}/res/drawable/ic_share.xml")
    assert not android.reads("build.gradle.kts.xml")


def test_references_are_every_r_field_and_at_reference() -> None:
    found = scans()
    keys = {(r.key, r.plural) for scan in found.values() for r in scan.references}
    assert keys == {
        ("app_name", False), ("title_notes", False), ("welcome_message", False), ("notes_count", True),
        ("share_chooser", False), ("fq_title", False), ("compose_title", False), ("selected_count", True),
        ("button_save", False), ("legacy_hint", False), ("sort_orders", False), ("action_search", False),
        ("action_settings", False), ("action_share", False), ("empty_state", False), ("label_home", False),
        ("pref_sync_title", False), ("pref_sync_summary", False),
    }
    manifest = {r.key for r in found[f"{MAIN}/AndroidManifest.xml"].references}
    assert manifest == {"app_name", "title_notes"}
    # The alias in strings.xml and the style's <item> text are references too; so is a literal getIdentifier.
    assert {r.key for r in found[f"{MAIN}/res/values/strings.xml"].references} == {"action_share"}
    assert {r.key for r in found[f"{MAIN}/res/values/themes.xml"].references} == {"title_notes"}
    adapter = found[f"{MAIN}/java/com/example/notes/LegacyAdapter.java"]
    assert {r.key for r in adapter.references} == {"legacy_hint", "action_search", "sort_orders"}


def test_a_reference_spans_its_field_and_its_attribute_value() -> None:
    found = scans()
    path = f"{MAIN}/java/com/example/notes/MainActivity.kt"
    data = (TREE / path).read_bytes()
    plural = next(r for r in found[path].references if r.key == "notes_count")
    assert data[plural.span.start_byte:plural.span.end_byte] == b"R.plurals.notes_count"
    path = f"{MAIN}/res/menu/main_menu.xml"
    data = (TREE / path).read_bytes()
    search = next(r for r in found[path].references if r.key == "action_search")
    assert data[search.span.start_byte:search.span.end_byte] == b"@string/action_search"
    assert (search.span.line, search.span.column) == (7, 24)


def test_the_catalog_keys_nothing_calls() -> None:
    catalog = AndroidFormat().read((TREE / MAIN / "res/values/strings.xml").read_bytes(), parse_locale("en"))
    android = framework()
    found = scans()
    called = {r.key for scan in found.values() for r in scan.references}
    prefixes = [d.prefix for scan in found.values() for d in scan.dynamic]
    unused = {key for key in catalog.keys() if android.code_key(key) not in called}
    assert unused == {"status_draft", "status_published", "unused_banner"}
    maybe_used = {key for key in unused if any(p and key.startswith(p) for p in prefixes)}
    assert maybe_used == {"status_draft", "status_published"}


def test_dynamic_names_keep_their_static_prefix() -> None:
    found = scans()
    dynamic = {(d.expression, d.prefix) for scan in found.values() for d in scan.dynamic}
    assert dynamic == {('"status_$status"', "status_"), ('"mode_" + mode', "mode_")}


def test_hard_coded_texts_are_lints_attributes_and_compose_text() -> None:
    found = scans()
    texts = {(h.text, h.kind) for scan in found.values() for h in scan.hardcoded}
    assert texts == {
        ("Settings screen", "android-layout:label"),
        ("Search your notes", "android-layout:hint"),
        ("Save & close", "android-layout:text"),
        ("About", "android-layout:title"),
        ("Pull to refresh", "compose-text"),
        ("{notes.size} notes loaded", "compose-text"),
        ("Note details", "compose-text"),
    }


def test_a_layout_literal_becomes_a_string_reference() -> None:
    path = f"{MAIN}/res/layout/activity_main.xml"
    data = (TREE / path).read_bytes()
    literal = next(h for h in framework().scan(path, data).hardcoded if h.kind == "android-layout:text")
    extraction = framework().extraction(path, data, literal, "activity_main_save_close")
    (edit,) = extraction.edits
    assert extraction.message == "Save & close"
    edited = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert b'android:text="@string/activity_main_save_close"' in edited
    assert {r.key for r in framework().scan(path, edited).references} >= {"activity_main_save_close"}


def test_compose_text_becomes_string_resource_where_it_is_imported() -> None:
    path = f"{MAIN}/java/com/example/notes/NotesScreen.kt"
    data = (TREE / path).read_bytes()
    literals = {h.text: h for h in framework().scan(path, data).hardcoded}
    plain = framework().extraction(path, data, literals["Pull to refresh"], "notes_screen_pull")
    assert [e.text for e in plain.edits] == ["stringResource(R.string.notes_screen_pull)"]
    assert plain.message == "Pull to refresh"
    built = framework().extraction(path, data, literals["{notes.size} notes loaded"], "notes_loaded")
    assert [e.text for e in built.edits] == ["stringResource(R.string.notes_loaded, notes.size)"]
    assert built.message == "%1$s notes loaded"


def test_compose_text_without_the_import_is_refused() -> None:
    path = f"{MAIN}/java/com/example/notes/DetailsScreen.kt"
    data = (TREE / path).read_bytes()
    (literal,) = framework().scan(path, data).hardcoded
    with pytest.raises(ExtractionRefused, match="stringResource"):
        framework().extraction(path, data, literal, "details")


def test_suggested_keys_are_resource_names() -> None:
    literal = Hardcoded("Search your notes", "android-layout:hint", scans()[f"{MAIN}/AndroidManifest.xml"]
                        .hardcoded[0].span)
    key = framework().suggest_key(literal, f"{MAIN}/res/layout/activity_main.xml", KeyStyle(".", "snake"), set())
    assert key == "activity_main_search_your_notes"
    camel = framework().suggest_key(literal, f"{MAIN}/res/layout/activity_main.xml", KeyStyle(".", "camel"), set())
    assert camel == "activityMain_searchYourNotes"


def test_array_items_are_called_by_the_arrays_name() -> None:
    assert framework().code_key("sort_orders[1]") == "sort_orders"
    assert framework().code_key("title_notes") == "title_notes"


@pytest.mark.parametrize("data", [
    b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><LinearLayout android:text="&a;"/>',
    b"<LinearLayout><TextView android:text=\"unclosed\"></LinearLayout>",
    b"\xff\xfe\x00garbage",
])
def test_hostile_or_broken_xml_is_a_problem_not_an_error(data: bytes) -> None:
    found = framework().scan(f"{MAIN}/res/layout/broken.xml", data)
    assert found.problems and not found.references and not found.hardcoded


def test_broken_kotlin_still_gives_what_it_can() -> None:
    data = b"fun a() { val x = }\nfun b() = getString(R.string.kept)\n"
    found = framework().scan("Broken.kt", data)
    assert [r.key for r in found.references] == ["kept"]
    assert found.problems
