"""The Java framework: ResourceBundle and Spring MessageSource lookups, hard-coded Swing/AWT/JavaFX
texts, and extraction into `bundle.getString("key")`.

No oracle runs here: Java has no standard extractor of bundle keys (IDE inspections and Maven plugins
are not on a reachable registry), so the expected key sets below are written by hand, from what each
call looks up at run time (`ResourceBundle.getString`, `MessageSource.getMessage`). The tree
(trees/java, see its README) is a small app written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.code.frameworks.base import ExtractionRefused, KeyStyle
from parlance_i18n.code.frameworks.java import Java
from parlance_i18n.code.frameworks.registry import framework_class
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.locales import parse_locale

TREE = Path(__file__).parent / "trees" / "java"
SOURCES = TREE / "src/main/java/com/example"
JAVA = Java(SourceSettings(paths=["**/*"], framework="java"))


def _scan_tree() -> dict[str, FileScan]:
    found = {}
    for path in sorted(TREE.rglob("*")):
        relative = path.relative_to(SOURCES).as_posix() if path.is_relative_to(SOURCES) else path.name
        if path.is_file() and JAVA.reads(path.name):
            found[relative] = JAVA.scan(relative, path.read_bytes())
    return found


SCANS = _scan_tree()

EXPECTED_REFERENCES = {
    ("ui/MainWindow.java", "app.title"),  # through the constant TITLE_KEY
    ("ui/MainWindow.java", "menu.file"),
    ("ui/MainWindow.java", "menu.file.open"),
    ("ui/MainWindow.java", "toolbar.save"),
    ("ui/MainWindow.java", "status.ready"),
    ("ui/MainWindow.java", "status.items"),  # inside MessageFormat.format
    ("fx/LoginView.java", "login.user"),
    ("fx/LoginView.java", "login.password"),  # this.resources
    ("fx/LoginView.java", "login.title"),
    ("web/GreetingController.java", "greeting.hello"),
    ("web/GreetingController.java", "greeting.bye"),
    ("web/GreetingController.java", "greeting.footer"),
    ("report/Reports.java", "report.header"),
}
EXPECTED_DYNAMIC = {
    ("ui/MainWindow.java", "error."),
    ("report/Reports.java", "report."),
}
EXPECTED_HARDCODED = {
    ("ui/MainWindow.java", "Export", "java-ui:new JButton"),
    ("ui/MainWindow.java", "Export the inventory as CSV", "java-ui:setToolTipText"),
    ("ui/MainWindow.java", "Save automatically", "java-ui:new JCheckBox"),
    ("ui/MainWindow.java", "Items: ", "java-ui:setText"),
    ("ui/MainWindow.java", "Error", "java-ui:showMessageDialog"),
    ("fx/LoginView.java", "At least 12 characters", "java-ui:setPromptText"),
    ("report/Reports.java", "Printed every Monday", "java-ui:setToolTipText"),
}


def test_the_tree_references_the_keys_the_calls_look_up() -> None:
    found = {(path, ref.key) for path, scan in SCANS.items() for ref in scan.references}
    assert found == EXPECTED_REFERENCES


def test_dynamic_keys_keep_their_static_start() -> None:
    assert {(path, dyn.prefix) for path, scan in SCANS.items() for dyn in scan.dynamic} == EXPECTED_DYNAMIC


def test_hardcoded_ui_texts_and_not_logs_or_exceptions() -> None:
    found = {(path, lit.text, lit.kind) for path, scan in SCANS.items() for lit in scan.hardcoded}
    assert found == EXPECTED_HARDCODED
    assert not any(scan.problems for scan in SCANS.values())


def test_spring_default_message_is_the_source_text() -> None:
    refs = {ref.key: ref for ref in SCANS["web/GreetingController.java"].references}
    assert (refs["greeting.bye"].default, refs["greeting.hello"].default) == ("Goodbye", None)


def test_the_tree_matches_its_catalog() -> None:
    catalog = formats.get("properties").read((TREE / "src/main/resources/messages.properties").read_bytes(),
                                              parse_locale("en"))
    keys = {JAVA.code_key(key) for key in catalog.keys()}
    called = {key for _, key in EXPECTED_REFERENCES}
    prefixes = {prefix for _, prefix in EXPECTED_DYNAMIC}
    assert keys - called - {k for k in keys if k.startswith(tuple(prefixes))} == {"unused.key"}
    assert called - keys == {"greeting.footer"}  # it has a default message


def _scan(source: str) -> FileScan:
    return JAVA.scan("src/A.java", f"class A {{ void f() {{ {source} }} }}".encode())


@pytest.mark.parametrize(("source", "keys", "prefixes"), [
    ('bundle.getString("a.b");', ["a.b"], []),
    ('rb.getObject("a");', ["a"], []),
    ('RESOURCE_BUNDLE.getStringArray("days");', ["days"], []),
    ('ResourceBundle.getBundle("msgs", locale).getString("k");', ["k"], []),
    ('getResourceBundle().getString("k");', ["k"], []),
    ('ResourceBundle labels2 = load(); labels2.getString("k");', ["k"], []),
    ('bundle.getString("a\\u002eb");', ["a.b"], []),
    ('bundle.getString(("x." + y));', [], ["x."]),
    ('bundle.getString(key);', [], [""]),
    ('bundle.getString(prefix() + "x");', [], [""]),
    ('json.getString("name"); map.getString("k"); getString("k"); config.getMessage("m");', [], []),
    ('JSONObject bundle = new JSONObject(s); bundle.getString("name");', [], []),  # declared: not a bundle
    ('var bundle = load(); bundle.getString("k");', ["k"], []),
    ('messageSource.getMessage(new DefaultMessageSourceResolvable("c"), locale);', [], []),
    ('MessageSourceAccessor acc = accessor(); acc.getMessage("c");', ["c"], []),
    ('// bundle.getString("commented")\nString s = "bundle.getString(\\"x\\")";', [], []),
])
def test_calls(source: str, keys: list[str], prefixes: list[str]) -> None:
    scan = _scan(source)
    assert ([ref.key for ref in scan.references], [dyn.prefix for dyn in scan.dynamic]) == (keys, prefixes)


@pytest.mark.parametrize(("source", "texts"), [
    ('new JButton("OK");', ["OK"]),
    ('new javax.swing.JLabel("Name:");', ["Name:"]),
    ('button.setText("Don\'t save");', ["Don't save"]),
    ('frame.setTitle("Editor — " + file);', ["Editor — "]),
    ('b.setToolTipText("https://example.com"); b.setText("v1.2"); b.setText("42");', []),
    ('new JTextField("default"); new IllegalArgumentException("Bad value"); log.info("Saved file");', []),
    ('System.out.println("Hello world"); logger.warn("Disk full");', []),
    ('new JLabel("Shown"); // i18n-ignore', []),
])
def test_hardcoded(source: str, texts: list[str]) -> None:
    assert [lit.text for lit in _scan(source).hardcoded] == texts


def test_broken_input_never_raises() -> None:
    for data in (b"", b"\xff\xfe", b"class {", b'bundle.getString("', b"new JButton(" * 100):
        JAVA.scan("A.java", data)
    assert JAVA.scan("A.java", b"class A { void f( { bundle.getString(\"k\") }").problems


def test_registry_names_the_class() -> None:
    assert framework_class("java") is Java


# --- extraction -----------------------------------------------------------------------------------


def _literal(path: str, data: bytes, text: str) -> Hardcoded:
    return next(lit for lit in JAVA.scan(path, data).hardcoded if lit.text == text)


def test_a_literal_becomes_a_lookup_through_the_class_bundle() -> None:
    path = "ui/MainWindow.java"
    data = (SOURCES / path).read_bytes()
    literal = _literal(path, data, "Export")
    catalog = formats.get("properties").read((TREE / "src/main/resources/messages.properties").read_bytes(),
                                              parse_locale("en"))
    key = JAVA.suggest_key(literal, path, KeyStyle.of(list(catalog.keys())), set(catalog.keys()))
    assert key == "main_window.export"
    extraction = JAVA.extraction(path, data, literal, key)
    (edit,) = extraction.edits
    assert (edit.text, extraction.message) == ('BUNDLE.getString("main_window.export")', "Export")
    changed = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert b'new JButton(BUNDLE.getString("main_window.export"))' in changed
    assert "main_window.export" in {ref.key for ref in JAVA.scan(path, changed).references}


def test_a_field_shadowed_by_its_parameter_is_one_bundle() -> None:
    path = "fx/LoginView.java"
    data = (SOURCES / path).read_bytes()
    literal = _literal(path, data, "At least 12 characters")
    (edit,) = JAVA.extraction(path, data, literal, "login.password_hint").edits
    assert edit.text == 'resources.getString("login.password_hint")'


def test_two_bundles_refuse() -> None:
    path = "report/Reports.java"
    data = (SOURCES / path).read_bytes()
    with pytest.raises(ExtractionRefused, match=r"2 ResourceBundle .*\(errors, messages\)"):
        JAVA.extraction(path, data, _literal(path, data, "Printed every Monday"), "report.schedule")


def test_no_bundle_or_an_instance_bundle_in_a_static_method_refuses() -> None:
    data = b'class A { ResourceBundle b; static void f() { new JLabel("Hi there"); } }'
    with pytest.raises(ExtractionRefused, match="0 ResourceBundle"):
        JAVA.extraction("A.java", data, _literal("A.java", data, "Hi there"), "a.hi")
    data = b'class A { void f() { ResourceBundle local = ResourceBundle.getBundle("m"); new JLabel("Hi"); } }'
    (edit,) = JAVA.extraction("A.java", data, _literal("A.java", data, "Hi"), "a.hi").edits
    assert edit.text == 'local.getString("a.hi")'
    data = b'class A { void f() { new JLabel("Use {0}"); } ResourceBundle b; }'
    with pytest.raises(ExtractionRefused, match="braces"):
        JAVA.extraction("A.java", data, _literal("A.java", data, "Use {0}"), "a.use")
