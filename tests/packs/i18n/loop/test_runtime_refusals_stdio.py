"""Writes that would pass a syntax check but break the app at run time, refused through a real MCP
client over stdio (issue 23, item 2): a printf conversion whose type changed (Android, Apple,
gettext c-format and python-format), a Java MessageFormat argument given a format type the source
does not use, react-i18next `Trans` component tags and FormatJS rich-text tags dropped or
unbalanced, an unclosed i18next `{{` or `$t(`, plural categories the target locale does not have;
and a partial plural completed from the file, said so in the result. Good writes in the same call
are still written.

Each project is written here, in the layout real projects use (Android `values-ru/strings.xml`,
`en.lproj/Localizable.strings`, `locale/ru/LC_MESSAGES/messages.po`, `locales/ru/translation.json`,
`lang/ru.json`, `messages_ru.properties`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from tests.support import writable_i18n_project, write_tree

pytestmark = pytest.mark.anyio

_RU_PLURAL_FORMS = ("Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                    "(n%100<10 || n%100>=20) ? 1 : 2);")


def _po(language: str, plural_forms: str, entries: str) -> str:
    return (f'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n"MIME-Version: 1.0\\n"\n'
            f'"Content-Type: text/plain; charset=UTF-8\\n"\n"{plural_forms}\\n"\n\n{entries}')


@dataclass(frozen=True)
class Scenario:
    name: str
    format: str
    pattern: str
    files: dict[str, str]
    messages: dict[str, Any]
    refused: dict[str, list[str]]
    """Key -> fragments its reasons must hold (the refusal names what is wrong and the fix)."""
    written: set[str]
    completed: dict[str, list[str]] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


SCENARIOS = [
    Scenario(
        "android-printf", "android", "res/values-{locale}/strings.xml",
        {"res/values/strings.xml": '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n'
                                   '    <string name="greeting">Hello %1$s, you have %2$d new messages</string>\n'
                                   '    <string name="greeting_again">Hello %1$s, you have %2$d new messages</string>\n'
                                   '    <string name="photos">%d photos</string>\n'
                                   '</resources>\n',
         "res/values-ru/strings.xml": '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n</resources>\n'},
        {"greeting": "Привет %1$d, у вас %2$d новых сообщений",
         "greeting_again": "У вас %2$d новых сообщений, %1$s",
         "photos": "%s фото"},
        refused={"greeting": ["argument 1 is %1$s (a string) in the source and %1$d (an integer) here",
                              "keep the conversion"],
                 "photos": ["argument 1 is %d (an integer) in the source and %s (a string) here"]},
        written={"greeting_again"},
    ),
    Scenario(
        "apple-strings-printf", "apple-strings", "{locale}.lproj/Localizable.strings",
        {"en.lproj/Localizable.strings": '"files" = "%@ has %lld files";\n"files_again" = "%@ has %lld files";\n'
                                         '"count" = "%d new";\n',
         "ru.lproj/Localizable.strings": '/* Russian */\n'},
        {"files": "%lld файлов у %@", "files_again": "У %1$@ %2$lld файлов", "count": "%lld новых"},
        refused={"files": ["argument 1 is %@ (an object) in the source and %lld (a 64-bit integer) here",
                           "in the source's order", "number them"],
                 "count": ["argument 1 is %d (a 32-bit integer) in the source and %lld (a 64-bit integer) here"]},
        written={"files_again"},
    ),
    Scenario(
        "po-c-format-python-format", "po", "locale/{locale}/LC_MESSAGES/messages.po",
        {"locale/en/LC_MESSAGES/messages.po": _po("en", "Plural-Forms: nplurals=2; plural=(n != 1);", (
            '#, c-format\nmsgid "%s has %d files"\nmsgstr "%s has %d files"\n\n'
            '#, c-format\nmsgid "%s owns %d folders"\nmsgstr "%s owns %d folders"\n\n'
            '#, c-format\nmsgid "%s shared %d links"\nmsgstr "%s shared %d links"\n\n'
            '#, python-format\nmsgid "%(name)s has %(count)d photos"\nmsgstr "%(name)s has %(count)d photos"\n\n'
            '#, python-format\nmsgid "%(name)s took %(count)d notes"\nmsgstr "%(name)s took %(count)d notes"\n')),
         "locale/ru/LC_MESSAGES/messages.po": _po("ru", _RU_PLURAL_FORMS, (
             '#, c-format\nmsgid "%s has %d files"\nmsgstr ""\n\n'
             '#, c-format\nmsgid "%s owns %d folders"\nmsgstr ""\n\n'
             '#, c-format\nmsgid "%s shared %d links"\nmsgstr ""\n\n'
             '#, python-format\nmsgid "%(name)s has %(count)d photos"\nmsgstr ""\n\n'
             '#, python-format\nmsgid "%(name)s took %(count)d notes"\nmsgstr ""\n'))},
        {"%s has %d files": "%d файлов у %s",
         "%s owns %d folders": "У %2$s %1$d папок... %1$s",
         "%s shared %d links": "%1$s поделился ссылками: %2$d",
         "%(name)s has %(count)d photos": "У %(name)d %(count)d фото",
         "%(name)s took %(count)d notes": "%(count)d заметок сделал(а) %(name)s"},
        refused={"%s has %d files": ["argument 1 is %s (a C string) in the source and %d (a 32-bit integer) here"],
                 "%s owns %d folders": ["argument 2 is %d (a 32-bit integer) in the source and %2$s (a C string) here"],
                 "%(name)s has %(count)d photos": [
                     "argument name is %(name)s (any value) in the source and %(name)d (an integer) here"]},
        written={"%s shared %d links", "%(name)s took %(count)d notes"},
    ),
    Scenario(
        "properties-messageformat", "properties", "i18n/messages_{locale}.properties",
        {"i18n/messages_en.properties": "files=You have {0,number,integer} files in {1}\n"
                                        "files.again=You have {0,number,integer} files in {1}\n"
                                        "when=Saved {0,date,short}\n",
         "i18n/messages_ru.properties": "# Russian\n"},
        {"files": "У вас {0,number,integer} файлов в {1,number}",
         "files.again": "В {1}: {0} файлов",
         "when": "Сохранено {0,number}"},
        refused={"files": ["argument {1} is {1} (any value) in the source and {1,number} (a number) here",
                           "write {1}"],
                 "when": ["argument {0} is {0,date,short} (a date) in the source and {0,number} (a number) here"]},
        written={"files.again"},
    ),
    Scenario(
        "i18next-trans-nesting-plurals", "i18next", "locales/{locale}/translation.json",
        {"locales/en/translation.json": json.dumps({
            "welcome": "Hello <1>{{name}}</1>, read <3>the docs</3>.",
            "welcome_again": "Hello <1>{{name}}</1>, read <3>the docs</3>.",
            "welcome_once_more": "Hello <1>{{name}}</1>, read <3>the docs</3>.",
            "click": "Click <strong>here</strong> to continue",
            "layout": "Layout: {{layout}}",
            "see": "See $t(common.help)",
            "common": {"help": "help"},
            "items_one": "{{count}} item", "items_other": "{{count}} items",
            "files_one": "{{count}} file", "files_other": "{{count}} files",
            "photos_one": "{{count}} photo", "photos_other": "{{count}} photos",
        }, indent=2) + "\n",
         "locales/ru/translation.json": json.dumps({
             "common": {"help": "справка"},
             "files_few": "{{count}} файла", "files_many": "{{count}} файлов",
         }, indent=2) + "\n"},
        {"welcome": "Привет <1>{{name}}</1>, читайте документацию.",
         "welcome_again": "Привет <1>{{name}}</1>, читайте <3>документацию.",
         "welcome_once_more": "Привет <1>{{name}}</1>, читайте <3>документацию</3>.",
         "click": "Нажмите здесь, чтобы продолжить",
         "layout": "Макет: {{layout",
         "see": "См. $t(common.help",
         "items": {"one": "{{count}} предмет", "two": "{{count}} предмета", "few": "{{count}} предмета",
                   "many": "{{count}} предметов", "other": "{{count}} предмета"},
         "files": {"one": "{{count}} файл", "other": "{{count}} файла"},
         "photos": {"zero": "Нет фото", "one": "{{count}} фото", "few": "{{count}} фото",
                    "many": "{{count}} фото", "other": "{{count}} фото"}},
        refused={"welcome": ["drops the component tag <3>…</3> that the source uses", "keep each tag"],
                 "welcome_again": ["<3> is not closed", "close it"],
                 "click": ["drops the component tag <strong>…</strong>"],
                 "layout": ["unclosed {{", "close it"],
                 "see": ["unclosed $t(", "close it"],
                 "items": ["ru has no plural category two", "ru's categories are one, few, many, other"]},
        written={"welcome_once_more", "files", "photos"},
        completed={"files": ["few", "many"]},
    ),
    Scenario(
        "icu-json-rich-text-plurals", "icu-json", "lang/{locale}.json",
        {"lang/en.json": json.dumps({
            "terms": "Accept the <link>terms</link> and <b>rules</b>",
            "terms_again": "Accept the <link>terms</link> and <b>rules</b>",
            "terms_once_more": "Accept the <link>terms</link> and <b>rules</b>",
            "cart": "{count, plural, one {# item} other {# items}}",
            "cart_again": "{count, plural, one {# item} other {# items}}",
        }, indent=2) + "\n",
         "lang/ru.json": "{}\n"},
        {"terms": "Примите условия и <b>правила</b>",
         "terms_again": "Примите <link>условия</link> и <b>правила",
         "terms_once_more": "Примите <b>правила</b> и <link>условия</link>",
         "cart": "{count, plural, one {# товар} two {# товара} few {# товара} many {# товаров} other {# товара}}",
         "cart_again": "{count, plural, =0 {пусто} one {# товар} few {# товара} many {# товаров} other {# товара}}"},
        refused={"terms": ["drops the tag <link>…</link> that the source uses"],
                 "terms_again": ["<b> is not closed"],
                 "cart": ["ru has no plural category two", "ru's categories are one, few, many, other"]},
        written={"terms_once_more", "cart_again"},
    ),
]


def _project(scenario: Scenario, tmp_path: Path) -> Path:
    root = write_tree(tmp_path / scenario.name, scenario.files)
    return writable_i18n_project(root, f'path = "{scenario.pattern}"\nformat = "{scenario.format}"')


async def _set_messages(root: Path, tmp_path: Path, messages: dict[str, Any]) -> dict[str, Any]:
    with open(tmp_path / f"stderr-{root.name}.log", "a") as errlog, anyio.fail_after(60):
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=tmp_path), errlog=errlog),
                          mode="legacy") as client:
            result = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": messages})
    assert not result.is_error, result
    return result.structured_content  # type: ignore[return-value]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=str)
async def test_refuses_what_breaks_the_app_and_writes_the_rest(scenario: Scenario, tmp_path: Path) -> None:
    root = _project(scenario, tmp_path)
    before = {relative: (root / relative).read_bytes() for relative in scenario.files}
    output = await _set_messages(root, tmp_path, scenario.messages)
    results = {result["key"]: result for result in output["results"]}
    statuses = {key: result["status"] for key, result in results.items()}
    assert statuses == {key: "refused" if key in scenario.refused else "written" for key in scenario.messages}, \
        {key: results[key]["reasons"] for key in results}
    for key, fragments in scenario.refused.items():
        reasons = " | ".join(results[key]["reasons"])
        for fragment in fragments:
            assert fragment in reasons, (key, fragment, reasons)
    for key in scenario.written:
        assert results[key]["completed_from_file"] == scenario.completed.get(key, []), key
    # refused keys never reach a file: the one file that changed is the target's, without them
    changed = [relative for relative, data in before.items() if (root / relative).read_bytes() != data]
    assert len(changed) == 1 and "ru" in changed[0]
    for key in scenario.refused:
        value = scenario.messages[key]
        if isinstance(value, str):
            assert value not in output["diff"] and json.dumps(value)[1:-1] not in output["diff"], key
