"""The flutter framework on trees/flutter: gen-l10n getters through `AppLocalizations.of(context)!`,
a local, and the `context.l10n` extension; hard-coded `Text` and named arguments; extraction.

No oracle runs here: `flutter gen-l10n` (and the analyzer that would tell used getters) needs the
Flutter SDK, which no package registry reachable from the test machine provides. The expected keys
are written by hand; the catalog side is real (the tree's app_en.arb read with the pack's ARB format).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n.code.frameworks.base import ExtractionRefused, KeyStyle
from parlance_i18n.code.frameworks.flutter import Flutter
from parlance_i18n.code.model import FileScan
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.formats.arb import ArbFormat
from parlance_i18n.locales import parse_locale

TREE = Path(__file__).parent / "trees" / "flutter"
HOME = "lib/screens/home_screen.dart"


def framework() -> Flutter:
    return Flutter(SourceSettings(paths=["**/*"], framework="flutter"))


def scans() -> dict[str, FileScan]:
    flutter = framework()
    return {file.relative_to(TREE).as_posix(): flutter.scan(file.relative_to(TREE).as_posix(), file.read_bytes())
            for file in sorted(TREE.rglob("*.dart"))}


def test_every_accessor_gives_its_key() -> None:
    found = {path: {r.key for r in scan.references} for path, scan in scans().items()}
    assert found == {
        "lib/l10n/l10n.dart": set(),
        HOME: {"appTitle", "greeting", "itemCount", "addItem"},
        "lib/screens/settings_screen.dart": {"settingsTitle", "darkMode"},
        "lib/widgets/clear_button.dart": {"clearAll"},
    }
    assert not any(r.plural for scan in scans().values() for r in scan.references)


def test_the_catalog_keys_nothing_calls() -> None:
    catalog = ArbFormat().read((TREE / "lib/l10n/app_en.arb").read_bytes(), parse_locale("en"))
    called = {r.key for scan in scans().values() for r in scan.references}
    assert set(catalog.keys()) - called == {"unusedPromo"}
    assert called <= set(catalog.keys())


def test_a_reference_spans_its_member() -> None:
    data = (TREE / HOME).read_bytes()
    title = next(r for r in scans()[HOME].references if r.key == "appTitle")
    assert data[title.span.start_byte:title.span.end_byte] == b".appTitle"
    assert title.span.line == 14


def test_hard_coded_texts_and_arguments() -> None:
    found = {(h.text, h.kind) for scan in scans().values() for h in scan.hardcoded}
    assert found == {
        ("Swipe to delete", "flutter-text"),
        ("Last synced {DateTime.now()}", "flutter-text"),
        ("Search items", "flutter-argument:hintText"),
        ("Add a new item", "flutter-argument:tooltip"),
        ("Made with Flutter", "flutter-text"),
        ("Clear the list", "flutter-argument:semanticsLabel"),
    }


def test_a_literal_becomes_the_generated_getter() -> None:
    data = (TREE / HOME).read_bytes()
    hint = next(h for h in framework().scan(HOME, data).hardcoded if h.text == "Search items")
    extraction = framework().extraction(HOME, data, hint, "homeScreenSearchItems")
    (edit,) = extraction.edits
    edited = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert b"hintText: AppLocalizations.of(context)!.homeScreenSearchItems" in edited
    assert extraction.message == "Search items"
    assert "homeScreenSearchItems" in {r.key for r in framework().scan(HOME, edited).references}


@pytest.mark.parametrize(("path", "text", "reason"), [
    (HOME, "Swipe to delete", "const"),
    (HOME, "Last synced {DateTime.now()}", "interpolates"),
    (HOME, "Made with Flutter", "context"),
    ("lib/widgets/clear_button.dart", "Clear the list", "generated localizations"),
])
def test_extraction_is_refused_where_the_getter_cannot_go(path: str, text: str, reason: str) -> None:
    data = (TREE / path).read_bytes()
    hard = next(h for h in framework().scan(path, data).hardcoded if h.text == text)
    with pytest.raises(ExtractionRefused, match=reason):
        framework().extraction(path, data, hard, "someKey")


def test_a_state_has_its_context() -> None:
    data = (b"import 'package:flutter_gen/gen_l10n/app_localizations.dart';\n"
            b"class _S extends State<S> {\n  Widget title() => Text('Your profile');\n}\n")
    (hard,) = framework().scan("lib/s.dart", data).hardcoded
    (edit,) = framework().extraction("lib/s.dart", data, hard, "profileTitle").edits
    assert edit.text == "AppLocalizations.of(context)!.profileTitle"


def test_suggested_keys_are_lower_camel_case_identifiers() -> None:
    data = (TREE / HOME).read_bytes()
    hint = next(h for h in framework().scan(HOME, data).hardcoded if h.text == "Search items")
    style = KeyStyle(".", "snake")
    assert framework().suggest_key(hint, HOME, style, set()) == "homeScreenSearchItems"
    assert framework().suggest_key(hint, HOME, style, {"homeScreenSearchItems"}) == "homeScreenSearchItems2"
    assert framework().suggest_key(hint, "lib/2fa.dart", style, set()) == "text2faSearchItems"


def test_broken_dart_is_a_problem_not_an_error() -> None:
    data = b"void f(BuildContext context) { final a = AppLocalizations.of(context)!.kept; \n class {"
    found = framework().scan("b.dart", data)
    assert [r.key for r in found.references] == ["kept"]
    assert found.problems
