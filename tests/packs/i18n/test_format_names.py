"""Nothing outside `formats/` names a format: the rest of the pack asks the format (its capabilities
in `formats/base.py`), so that adding one is a folder and a line in the registry.

Every module of parlance_i18n outside `formats/` is parsed, and a string literal that is one of the
registry's names or aliases fails the test with the module and the line, wherever it stands (compared,
a table's key or member, an argument, an assignment). A docstring mentions formats freely: it is a
longer string. The exceptions are listed below, each with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import parlance_i18n
from parlance_i18n import formats
from parlance_i18n.code.frameworks import FRAMEWORK_NAMES as framework_names

PACKAGE = Path(parlance_i18n.__file__).parent
NAMES = frozenset(formats.FORMAT_NAMES) | frozenset(formats.ALIASES)

OTHER_MEANINGS = {"mode": "pydantic's model_dump(mode=\"json\") names a serialisation mode, not a format"}
"""Keyword arguments whose value is a word a format is also called by."""

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("code/proposals.py", "react-intl"): "an npm package a project's package.json depends on, not the format",
}
"""(module, name) -> why it may name a format."""

FRAMEWORK_NAMES = frozenset(framework_names)
"""In the code scanner (`code/`), `i18next`, `android` and `formatjs` name frameworks, another namespace
that shares three words with the formats'."""


def named_formats(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, name) of each string literal in `tree` that is a format's name or alias."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in OTHER_MEANINGS:
            exempt.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in NAMES and id(node) not in exempt:
            yield node.lineno, node.value


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path.relative_to(PACKAGE).parts[0] != "formats")


def test_no_module_outside_formats_names_a_format() -> None:
    found = []
    for path in modules():
        module = path.relative_to(PACKAGE).as_posix()
        for line, name in named_formats(ast.parse(path.read_text(encoding="utf-8"))):
            if module.startswith("code/") and name in FRAMEWORK_NAMES:
                continue
            if (module, name) not in EXCEPTIONS:
                found.append(f"{module}:{line} names the format {name!r}: ask the format (formats/base.py) instead")
    assert not found, "\n".join(found)


def test_the_scan_finds_what_it_looks_for() -> None:
    tree = ast.parse('if fmt.name == "po" or name in ("xlf",):\n    TABLE = {"android": 1}\n'
                     'formats.get("yaml")\nmodel_dump(mode="json")\n"""A docstring naming i18next."""\n')
    assert sorted(named_formats(tree)) == [(1, "po"), (1, "xlf"), (2, "android"), (3, "yaml")]
    assert len(modules()) > 10 and not any("formats" in path.relative_to(PACKAGE).parts[:1] for path in modules())


def test_each_exception_is_still_needed() -> None:
    for module, name in EXCEPTIONS:
        found = {found for _, found in named_formats(ast.parse((PACKAGE / module).read_text(encoding="utf-8")))}
        assert name in found, f"{module} no longer names {name!r}: remove its exception"
