"""Where writes put keys, through a real MCP client over stdio (issue 23, item 5): a key new to the
target file lands where the source locale's file has it (after its preceding key there), so a
sorted file stays sorted and the diff is the new entry alone; i18next plural forms land beside their
siblings; `i18n_rename_key` puts the new key where the old one was, so each file's diff is one hunk.

Each project is written here: a sorted English source of five messages and a Russian target that
has three of them, in the layout real projects of each format use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from parlance_i18n import formats
from parlance_i18n.locales import parse_locale
from tests.support import writable_i18n_project, write_tree

pytestmark = pytest.mark.anyio

NAMES = ("alpha", "bravo", "charlie", "delta", "echo")
ENGLISH = {"alpha": "Alpha", "bravo": "Bravo", "charlie": "Charlie", "delta": "Delta", "echo": "Echo"}
RUSSIAN = {"alpha": "Альфа", "bravo": "Браво", "charlie": "Чарли", "delta": "Дельта", "echo": "Эхо"}


def _properties(language: str, texts: dict[str, str]) -> str:
    return "".join(f"app.{name}={text.encode('unicode_escape').decode()}\n" for name, text in texts.items())


def _strings(language: str, texts: dict[str, str]) -> str:
    return "".join(f'"app.{name}" = "{text}";\n' for name, text in texts.items())


def _yaml(language: str, texts: dict[str, str]) -> str:
    return f"{language}:\n  app:\n" + "".join(f"    {name}: {text}\n" for name, text in texts.items())


def _android(language: str, texts: dict[str, str]) -> str:
    lines = "".join(f'    <string name="app_{name}">{text}</string>\n' for name, text in texts.items())
    return f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n{lines}</resources>\n'


def _icu_json(language: str, texts: dict[str, str]) -> str:
    return json.dumps({f"app.{name}": text for name, text in texts.items()}, indent=2, ensure_ascii=False) + "\n"


def _i18next(language: str, texts: dict[str, str]) -> str:
    return json.dumps({"app": dict(texts)}, indent=2, ensure_ascii=False) + "\n"


def _arb(language: str, texts: dict[str, str]) -> str:
    return json.dumps({"@@locale": language, **{f"app{name.capitalize()}": text for name, text in texts.items()}},
                      indent=2, ensure_ascii=False) + "\n"


def _xliff(language: str, texts: dict[str, str]) -> str:
    units = "".join(f'      <trans-unit id="app.{name}">\n        <source>{ENGLISH[name]}</source>\n'
                    + (f'        <target state="translated">{text}</target>\n' if language != "en" else "")
                    + "      </trans-unit>\n" for name, text in texts.items())
    target = f' target-language="{language}"' if language != "en" else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'  <file source-language="en"{target} datatype="plaintext" original="messages">\n    <body>\n'
            f"{units}    </body>\n  </file>\n</xliff>\n")


_RU_FORMS = ("one", "few", "many", "other")


def _forms(language: str, text: str) -> dict[str, str]:
    return {form: f"%d {text}" for form in (("one", "other") if language == "en" else _RU_FORMS)}


def _stringsdict(language: str, texts: dict[str, str]) -> str:
    def entry(name: str, text: str) -> str:
        forms = "".join(f"\t\t\t<key>{form}</key>\n\t\t\t<string>{value}</string>\n"
                        for form, value in _forms(language, text).items())
        return (f"\t<key>app.{name}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n"
                "\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n"
                "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
                "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
                f"{forms}\t\t</dict>\n\t</dict>\n")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
            + "".join(entry(name, text) for name, text in texts.items()) + "</dict>\n</plist>\n")


@dataclass(frozen=True)
class Layout:
    format: str
    pattern: str
    source: str
    target: str
    write: Callable[[str, dict[str, str]], str]
    key: Callable[[str], str]
    renames: bool = True
    value: Callable[[str], Any] = lambda text: text
    """A message as a caller writes it (a plural's forms where the format holds plurals only)."""

    def __str__(self) -> str:
        return self.format


def _dotted(name: str) -> str:
    return f"app.{name}"


LAYOUTS = [
    Layout("properties", "i18n/messages_{locale}.properties", "i18n/messages_en.properties",
           "i18n/messages_ru.properties", _properties, _dotted),
    Layout("apple-strings", "{locale}.lproj/Localizable.strings", "en.lproj/Localizable.strings",
           "ru.lproj/Localizable.strings", _strings, _dotted),
    Layout("yaml", "config/locales/{locale}.yml", "config/locales/en.yml", "config/locales/ru.yml", _yaml, _dotted),
    Layout("android", "res/values-{locale}/strings.xml", "res/values/strings.xml", "res/values-ru/strings.xml",
           _android, lambda name: f"app_{name}"),
    Layout("icu-json", "lang/{locale}.json", "lang/en.json", "lang/ru.json", _icu_json, _dotted),
    Layout("i18next", "locales/{locale}/translation.json", "locales/en/translation.json",
           "locales/ru/translation.json", _i18next, _dotted),
    Layout("arb", "l10n/app_{locale}.arb", "l10n/app_en.arb", "l10n/app_ru.arb", _arb,
           lambda name: f"app{name.capitalize()}"),
    Layout("xliff", "translations/messages.{locale}.xlf", "translations/messages.en.xlf",
           "translations/messages.ru.xlf", _xliff, _dotted, renames=False),
    Layout("stringsdict", "{locale}.lproj/Localizable.stringsdict", "en.lproj/Localizable.stringsdict",
           "ru.lproj/Localizable.stringsdict", _stringsdict, _dotted, renames=False,
           value=lambda text: _forms("ru", text)),
]


def _project(layout: Layout, tmp_path: Path, source: dict[str, str], target: dict[str, str]) -> Path:
    root = write_tree(tmp_path / layout.format, [(layout.source, layout.write("en", source)),
                                                 (layout.target, layout.write("ru", target))])
    return writable_i18n_project(root, f'path = "{layout.pattern}"\nformat = "{layout.format}"')


async def _call(root: Path, tmp_path: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    with open(tmp_path / f"stderr-{root.name}.log", "a") as errlog, anyio.fail_after(60):
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=tmp_path), errlog=errlog),
                          mode="legacy") as client:
            result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[return-value]


def _keys(layout: Layout, root: Path, relative: str, locale: str) -> list[str]:
    fmt = formats.get(layout.format)
    return fmt.edit((root / relative).read_bytes(), parse_locale(locale)).keys()


def _changed(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
async def test_a_new_key_lands_after_its_source_sibling_in_a_sorted_file(layout: Layout, tmp_path: Path) -> None:
    target = {name: RUSSIAN[name] for name in ("alpha", "charlie", "echo")}
    root = _project(layout, tmp_path, ENGLISH, target)
    before = (root / layout.target).read_text(encoding="utf-8")

    output = await _call(root, tmp_path, "i18n_set_messages",
                         {"locale": "ru", "messages": {layout.key("bravo"): layout.value(RUSSIAN["bravo"])}})

    assert [result["status"] for result in output["results"]] == ["written"], output["results"]
    assert _keys(layout, root, layout.target, "ru") == [layout.key(name) for name in ("alpha", "bravo", "charlie", "echo")]
    changed = _changed(output["diff"])
    assert changed and all(line.startswith("+") for line in changed), output["diff"]  # the new entry alone
    assert output["diff"].count("\n@@ ") + output["diff"].startswith("@@ ") == 1
    # the file as it was, with the new entry's lines in place after alpha's
    after = (root / layout.target).read_text(encoding="utf-8")
    added = "".join(line[1:] + "\n" for line in changed)
    assert after.replace(added, "", 1) == before
    def where(name: str) -> int:
        return after.index(layout.key(name).split(".")[-1])

    assert where("alpha") < after.index(added) < where("charlie")


@pytest.mark.parametrize("layout", [layout for layout in LAYOUTS if layout.renames], ids=str)
async def test_a_renamed_key_stays_where_it_was(layout: Layout, tmp_path: Path) -> None:
    root = _project(layout, tmp_path, ENGLISH, dict(RUSSIAN))
    old, new = layout.key("bravo"), layout.key("bravo") + "X"  # still sorted: bravo < bravoX < charlie

    output = await _call(root, tmp_path, "i18n_rename_key", {"old": old, "new": new})

    assert output["results"] and all(result["status"] == "written" for result in output["results"]), output
    for relative, locale in ((layout.source, "en"), (layout.target, "ru")):
        keys = _keys(layout, root, relative, locale)
        assert keys == [new if key == old else key for key in (layout.key(name) for name in NAMES)], keys
    per_file = re.split(r"^--- ", output["diff"], flags=re.MULTILINE)[1:]
    assert len(per_file) == 2
    for diff in per_file:
        assert diff.count("\n@@ ") == 1, diff  # one hunk: the old entry's lines replaced by the new one's
        changed = _changed("\n".join(diff.splitlines()[1:]))
        assert len([line for line in changed if line.startswith("-")]) == len(
            [line for line in changed if line.startswith("+")]), diff


async def test_i18next_plural_forms_land_beside_their_siblings(tmp_path: Path) -> None:
    layout = next(layout for layout in LAYOUTS if layout.format == "i18next")
    root = tmp_path / "plural"
    source = {"app": {"files_one": "{{count}} file", "files_other": "{{count}} files", "title": "Files"}}
    target = {"app": {"files_one": "{{count}} файл", "files_few": "{{count}} файла", "title": "Файлы"}}
    for relative, tree in ((layout.source, source), (layout.target, target)):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(json.dumps(tree, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (root / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\nwrite = true\n\n'
        f'[[packs.i18n.catalogs]]\npath = "{layout.pattern}"\nformat = "i18next"\nname = "app"\n\n'
        "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")

    forms = {"one": "{{count}} файл", "few": "{{count}} файла", "many": "{{count}} файлов", "other": "{{count}} файла"}
    output = await _call(root, tmp_path, "i18n_set_messages", {"locale": "ru", "messages": {"app.files": forms}})

    assert [result["status"] for result in output["results"]] == ["written"], output
    assert _keys(layout, root, layout.target, "ru") == ["app.files_one", "app.files_few", "app.files_many",
                                                        "app.files_other", "app.title"]
    changed = _changed(output["diff"])
    assert changed == ['+    "files_many": "{{count}} файлов",', '+    "files_other": "{{count}} файла",'], output["diff"]
