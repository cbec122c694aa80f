"""The syntaxes frameworks write inside a container format, through a real MCP client over stdio (issue
23, "inner syntaxes"): Symfony XLIFF (`%name%` and `{{ name }}` parameters, `|` plurals chosen by
Symfony's rules, ICU in an `+intl-icu` domain), Angular XLIFF (`<x id="INTERPOLATION"/>` codes and ICU
messages in `<target>`), and a Jenkins-style `.properties` catalog whose application formats every
message with MessageFormat (`Don''t` prints `Don't`).

For each: `i18n_missing` lists what a translation must keep, `i18n_set_messages` refuses what the
framework's runtime would throw on or show wrongly and writes the rest as one line each, and
`i18n_translate` renders the written messages as the framework does. The Symfony and Angular files'
syntax is told from the files; the properties one is set in the catalog (it cannot be told).
"""

from __future__ import annotations

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


def _symfony_file(language: str, units: dict[str, str | None], *, header: bool = True) -> str:
    """A Symfony `translation:extract` file: the key is each unit's id and source; None: no target yet."""
    body = "".join(
        f'      <trans-unit id="{key}" resname="{key}">\n        <source>{key}</source>\n'
        + (f"        <target>{target}</target>\n" if target is not None else "")
        + "      </trans-unit>\n"
        for key, target in units.items())
    tool = '    <header>\n      <tool tool-id="symfony" tool-name="Symfony"/>\n    </header>\n' if header else ""
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n'
            f'  <file source-language="en" target-language="{language}" datatype="plaintext" original="file.ext">\n'
            f"{tool}    <body>\n{body}    </body>\n  </file>\n</xliff>\n")


_SYMFONY_MESSAGES = {
    "greeting": "Hello %name%!",
    "welcome_back": "Welcome back, %name%!",
    "apples": "{0} No apples|{1} One apple|]1,Inf[ %count% apples",
    "files": "%count% file|%count% files",
    "pears": "{0} No pears|{1} One pear|]1,Inf[ %count% pears",
}
_SYMFONY_VALIDATORS = {
    "too_long": "This value is too long. It should have {{ limit }} characters or less.",
    "too_short": "This value is too short. It should have {{ limit }} characters or more.",
}
_SYMFONY_ICU = {
    "icu_files": "{count, plural, one {# file} other {# files}}",
    "icu_photos": "{count, plural, one {# photo} other {# photos}}",
    "icu_hello": "Hello {name}!",
    "icu_broken": "{count, plural, one {# folder} other {# folders}}",
}


def _angular_unit(key: str, source: str) -> str:
    return (f'      <trans-unit id="{key}" datatype="html">\n        <source>{source}</source>\n'
            '        <context-group purpose="location">\n'
            '          <context context-type="sourcefile">src/app/app.component.html</context>\n'
            '          <context context-type="linenumber">12</context>\n'
            "        </context-group>\n      </trans-unit>\n")


def _interpolation(name: str) -> str:
    return f'<x id="INTERPOLATION" equiv-text="{{{{ {name} }}}}"/>'


def _ago(unit: str, exact: str) -> str:
    return f"{{VAR_PLURAL, plural, =1 {{{exact}}} other {{{_interpolation(unit)} {unit} ago}}}}"


_SPAN = ('<x id="START_TAG_SPAN" ctype="x-span" equiv-text="&lt;span&gt;"/>{}'
         '<x id="CLOSE_TAG_SPAN" ctype="x-span" equiv-text="&lt;/span&gt;"/>')
_ANGULAR_SOURCES = {
    "greeting": f"Hello {_interpolation('name')}!",
    "farewell": f"Goodbye {_interpolation('name')}!",
    "minutes": f"{{VAR_PLURAL, plural, =0 {{just now}} =1 {{one minute ago}} other {{{_interpolation('minutes')} "
               "minutes ago}}",
    "hours": _ago("hours", "an hour ago"),
    "days": _ago("days", "yesterday"),
    "weeks": _ago("weeks", "last week"),
    "seconds": _ago("seconds", "a second ago"),
    "gender": "{VAR_SELECT, select, male {He replied} female {She replied} other {They replied}}",
    "click": "Click " + _SPAN.format("here"),
}


def _angular_file(target: str | None) -> str:
    """`ng extract-i18n` output (`target`: None), or the copy a translator fills (`target-language`)."""
    language = f' target-language="{target}"' if target else ""
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n'
            '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'  <file source-language="en-US"{language} datatype="plaintext" original="ng2.template">\n'
            "    <body>\n" + "".join(_angular_unit(key, source) for key, source in _ANGULAR_SOURCES.items())
            + "    </body>\n  </file>\n</xliff>\n")


def _ru_minutes(one: str, few: str, many: str, other: str, *, extra: str = "", close: str = "}") -> str:
    x = _interpolation("minutes")
    return (f"{{VAR_PLURAL, plural, =0 {{только что}} =1 {{минуту назад}} one {{{x} {one}}} {extra}"
            f"few {{{x} {few}}} many {{{x} {many}}} other {{{x} {other}}}{close}")


@dataclass(frozen=True)
class Project:
    name: str
    files: dict[str, str]
    catalog: str
    locale: str
    placeholders: dict[str, list[str]]
    """Key -> the placeholders `i18n_missing` lists for it."""
    plural_categories: dict[str, list[str]]
    messages: dict[str, str]
    refused: dict[str, list[str]]
    """Key -> fragments its reasons must hold."""
    rendered: list[tuple[str, str, dict[str, Any], str]]
    """(locale, key, variables, what i18n_translate answers) after the write."""
    source_locale: str = "en"
    target: str = ""
    """The file the good writes go to."""
    extra: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


PROJECTS = [
    Project(
        "symfony-xliff",
        {"translations/messages.en.xlf": _symfony_file("en", _SYMFONY_MESSAGES),
         "translations/messages.ru.xlf": _symfony_file("ru", dict.fromkeys(_SYMFONY_MESSAGES)),
         "translations/validators.en.xlf": _symfony_file("en", _SYMFONY_VALIDATORS),
         "translations/validators.ru.xlf": _symfony_file("ru", dict.fromkeys(_SYMFONY_VALIDATORS)),
         # an +intl-icu domain: ICU MessageFormat, told by its name (no tool header here)
         "translations/messages+intl-icu.en.xlf": _symfony_file("en", _SYMFONY_ICU, header=False),
         "translations/messages+intl-icu.ru.xlf": _symfony_file("ru", dict.fromkeys(_SYMFONY_ICU), header=False)},
        'path = "translations/{domain}.{locale}.xlf"\nformat = "xliff"',
        "ru",
        placeholders={"greeting": ["%name%"], "too_long": ["{{ limit }}"], "icu_hello": ["{name}"]},
        plural_categories={"icu_files": ["one", "few", "many", "other"]},
        messages={
            "greeting": "Привет, %name%!",
            "welcome_back": "С возвращением!",
            "apples": "{0} Нет яблок|{1} Одно яблоко|]1,Inf[ %count% яблок",
            "files": "%count% файл|%count% файлов",
            "pears": "{0 Нет груш|{1} Одна груша|]1,Inf[ %count% груш",
            "too_long": "Слишком длинное значение.",
            "too_short": "Значение слишком короткое. Минимум символов: {{ limit }}.",
            "icu_files": "{count, plural, one {# файл} two {# файла} few {# файла} many {# файлов} other {# файла}}",
            "icu_photos": "{count, plural, one {# фото} few {# фото} many {# фото} other {# фото}}",
            "icu_hello": "Привет, {name}!",
            "icu_broken": "{count, plural, one {# папка} few {# папки} many {# папок} other {# папки}",
        },
        refused={
            "welcome_back": ["drops the placeholder %name% that the source uses"],
            "files": ["has no form Symfony can show for a count of", "ru takes 3 plural forms"],
            "pears": ["part 1 of the plural starts like an interval but is not one"],
            "too_long": ["drops the placeholder {{ limit }} that the source uses"],
            "icu_files": ["ru has no plural category two"],
            "icu_broken": ["is not a valid ICU message"],
        },
        rendered=[("ru", "greeting", {"name": "Анна"}, "Привет, Анна!"),
                  ("ru", "apples", {"count": 0}, "Нет яблок"),
                  ("ru", "apples", {"%count%": 5}, "5 яблок"),
                  ("ru", "too_short", {"limit": 3}, "Значение слишком короткое. Минимум символов: 3."),
                  ("ru", "icu_photos", {"count": 3}, "3 фото"),
                  ("ru", "icu_hello", {"%name%": "Анна"}, "Привет, Анна!"),
                  ("en", "apples", {"count": 1}, "One apple"),
                  ("en", "files", {"count": 2}, "2 files")],
    ),
    Project(
        "angular-xliff",
        # extracted with `ng extract-i18n --out-file messages.en.xlf`, copied for Russian
        {"src/locale/messages.en.xlf": _angular_file(None), "src/locale/messages.ru.xlf": _angular_file("ru")},
        'path = "src/locale/messages.{locale}.xlf"',
        "ru",
        placeholders={"greeting": [_interpolation("name")]},
        plural_categories={"minutes": ["one", "few", "many", "other"]},
        messages={
            "greeting": f"Привет, {_interpolation('name')}!",
            "farewell": "Пока!",
            "minutes": _ru_minutes("минуту назад", "минуты назад", "минут назад", "минуты назад"),
            "hours": f"{{VAR_PLURAL, plural, =1 {{час назад}} one {{{_interpolation('hours')} час назад}} "
                     f"two {{{_interpolation('hours')} часа назад}} few {{{_interpolation('hours')} часа назад}} "
                     f"many {{{_interpolation('hours')} часов назад}} other {{{_interpolation('hours')} часа назад}}}}",
            "days": f"{{VAR_PLURAL, plural, =1 {{вчера}} one {{{_interpolation('days')} день назад}} "
                    f"other {{{_interpolation('days')} дня назад}}}}",
            "weeks": f"{{VAR_PLURAL, plural, =1 {{на прошлой неделе}} one {{{_interpolation('weeks')} неделю назад}}",
            "seconds": "несколько секунд назад",
            "gender": "{VAR_SELECT, select, male {Он ответил} female {Она ответила} other {Они ответили}}",
            "click": "Нажмите " + _SPAN.format("здесь"),
        },
        refused={
            "farewell": ['drops the inline element id="INTERPOLATION"'],
            "hours": ["ru has no plural category two"],
            "days": ["lacks the plural categories few, many that ru needs"],
            "weeks": ["is not a valid ICU message"],
            "seconds": ["drops the placeholder {VAR_PLURAL}"],
        },
        rendered=[("ru", "greeting", {"name": "Анна"}, "Привет, Анна!"),
                  ("ru", "minutes", {"VAR_PLURAL": 5, "minutes": 5}, "5 минут назад"),
                  ("ru", "minutes", {"VAR_PLURAL": 22, "minutes": 22}, "22 минуты назад"),
                  ("ru", "minutes", {"VAR_PLURAL": 0}, "только что"),
                  ("ru", "gender", {"VAR_SELECT": "female"}, "Она ответила"),
                  ("ru", "click", {}, "Нажмите <span>здесь</span>")],
    ),
    Project(
        "jenkins-properties",
        {"core/src/main/resources/hudson/model/Messages_en.properties": (
            "AbstractBuild.BuildingRemotely=Building remotely on {0}\n"
            "Abort.Confirm=Don''t abort this build\n"
            "Abort.Stop=Don''t stop this build\n"
            "Run.Summary.Stable=It''s stable\n"
            "Queue.Blocked=Blocked\n"),
         "core/src/main/resources/hudson/model/Messages_fr.properties": "Queue.Blocked=Bloqué\n"},
        'path = "core/src/main/resources/hudson/model/Messages_{locale}.properties"\nsyntax = "always-messageformat"',
        "fr",
        placeholders={"AbstractBuild.BuildingRemotely": ["{0}"], "Abort.Confirm": []},
        plural_categories={},
        messages={
            "AbstractBuild.BuildingRemotely": "Construction à distance sur {0}",
            "Abort.Confirm": "N''annulez pas ce build",
            "Abort.Stop": "N'arrêtez pas ce build",
            "Run.Summary.Stable": "C''est stable",
        },
        refused={"Abort.Stop": ["has an apostrophe that MessageFormat takes as a quote",
                                "the application formats every message", "write '' for each apostrophe"]},
        rendered=[("en", "Abort.Confirm", {}, "Don't abort this build"),
                  ("fr", "Abort.Confirm", {}, "N'annulez pas ce build"),
                  ("fr", "Run.Summary.Stable", {}, "C'est stable"),
                  ("fr", "AbstractBuild.BuildingRemotely", {"0": "agent-1"}, "Construction à distance sur agent-1")],
    ),
]


def _write_project(project: Project, tmp_path: Path) -> Path:
    root = write_tree(tmp_path / project.name, project.files)
    return writable_i18n_project(root, project.catalog, source_locale=project.source_locale)


def _changed_lines(diff: str) -> list[str]:
    return [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("project", PROJECTS, ids=str)
async def test_missing_set_translate_in_the_frameworks_syntax(project: Project, tmp_path: Path) -> None:
    root = _write_project(project, tmp_path)
    before = {relative: (root / relative).read_bytes() for relative in project.files}
    with open(tmp_path / f"stderr-{project.name}.log", "a") as errlog, anyio.fail_after(90):
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=tmp_path), errlog=errlog),
                          mode="legacy") as client:
            missing = await client.call_tool("i18n_missing", {"locale": project.locale, "limit": 500})
            written = await client.call_tool("i18n_set_messages", {"locale": project.locale,
                                                                   "messages": project.messages})
            rendered = [await client.call_tool("i18n_translate", {"key": key, "locale": locale,
                                                                  "variables": variables})
                        for locale, key, variables, _ in project.rendered]
    assert not missing.is_error and not written.is_error, (missing, written)

    items = {item["key"]: item for item in missing.structured_content["items"]}  # type: ignore[index]
    for key, placeholders in project.placeholders.items():
        assert items[key]["placeholders"] == placeholders, (key, items[key])
    for key, categories in project.plural_categories.items():
        assert items[key]["plural_categories"] == categories, (key, items[key])

    output: dict[str, Any] = written.structured_content  # type: ignore[assignment]
    results = {result["key"]: result for result in output["results"]}
    assert {key: result["status"] for key, result in results.items()} == {
        key: "refused" if key in project.refused else "written" for key in project.messages}, \
        {key: result["reasons"] for key, result in results.items()}
    for key, fragments in project.refused.items():
        reasons = " | ".join(results[key]["reasons"])
        for fragment in fragments:
            assert fragment in reasons, (key, fragment, reasons)

    # each good write is one added or changed line of the target's file; refused ones reach no file
    good = [key for key in project.messages if key not in project.refused]
    changed = _changed_lines(output["diff"])
    assert len([line for line in changed if line.startswith("+")]) == len(good), output["diff"]
    assert len([line for line in changed if line.startswith("-")]) <= len(good), output["diff"]
    for key in project.refused:
        assert project.messages[key] not in output["diff"], key
    changed_files = [relative for relative, data in before.items() if (root / relative).read_bytes() != data]
    assert len(changed_files) == len({results[key]["file"] for key in good}), output["diff"]
    assert all(f".{project.locale}." in name or f"_{project.locale}." in name for name in changed_files)

    for (locale, key, variables, expected), answer in zip(project.rendered, rendered, strict=True):
        assert not answer.is_error, (key, answer)
        assert answer.structured_content["translation"] == expected, (locale, key, variables)  # type: ignore[index]
