"""`parlance init` as a user runs it (a subprocess in the repository's folder): on a sample repository of
each layout the pack reads (and a mixed one, with what is not the project's own beside it), it proposes
the `[[packs.i18n.catalogs]]` entries and `source_locale`, writes a parlance.toml that passes `parlance
config check --strict`, and a server started on it (a real MCP client over stdio) lists every catalog
in `i18n_status` with the counts its files hold.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
import tomllib
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from tests.support import write_tree

PO_HEADER = ('msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
             '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')


def _po(lang: str, entries: dict[str, str]) -> str:
    return PO_HEADER.replace("{lang}", lang) + "".join(
        f'msgid "{key}"\nmsgstr "{value}"\n\n' for key, value in entries.items())


def _xliff(lang: str, units: dict[str, str | None]) -> str:
    body = "".join(f'<trans-unit id="{key}"><source>{key.title()}</source>'
                   + (f"<target>{value}</target>" if value is not None else "") + "</trans-unit>\n"
                   for key, value in units.items())
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" '
            'xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'<file source-language="en" target-language="{lang}" datatype="plaintext" original="messages">\n'
            f"<body>\n{body}</body>\n</file>\n</xliff>\n")


def _android(strings: dict[str, str]) -> str:
    return "<resources>\n" + "".join(f'  <string name="{k}">{v}</string>\n' for k, v in strings.items()) \
        + "</resources>\n"


STRINGSDICT = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>items</key><dict>
<key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
<key>NSStringFormatValueTypeKey</key><string>d</string>
<key>one</key><string>%d {one}</string><key>other</key><string>%d {other}</string></dict>
</dict></dict></plist>
"""

XCSTRINGS = json.dumps({"sourceLanguage": "en", "version": "1.0", "strings": {
    "hi": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Hi"}},
                             "de": {"stringUnit": {"state": "translated", "value": "Hallo"}}}},
    "bye": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Bye"}}}},
    "later": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Later"}}}},
}}, indent=2)


@dataclass
class Layout:
    id: str
    files: dict[str, str]
    catalogs: list[dict[str, str]]
    """The entries init proposes: name, path, format."""
    source: str
    status: dict[tuple[str, str], tuple[int, int]]
    """(catalog, locale) -> (total, translated) in i18n_status."""
    marks: list[pytest.MarkDecorator] = field(default_factory=list)

    def __str__(self) -> str:
        return self.id


LAYOUTS = [
    Layout("icu-json", {"src/locales/en.json": '{"hi": "Hi {name}", "bye": "Bye", "later": "Later"}\n',
                        "src/locales/fr.json": '{"hi": "Salut {name}"}\n',
                        "src/locales/de.json": '{"hi": "Hallo {name}", "bye": "Tschüss"}\n'},
           [{"name": "locales", "path": "src/locales/{locale}.json", "format": "icu-json"}], "en",
           {("locales", "fr"): (3, 1), ("locales", "de"): (3, 2)}),
    Layout("i18next", {"public/locales/en/common.json": '{"hi": "Hi {{name}}", "bye": "Bye"}\n',
                       "public/locales/fr/common.json": '{"hi": "Salut {{name}}"}\n',
                       "public/locales/en/home.json": '{"title": "Home", "intro": "Welcome, {{name}}"}\n',
                       "public/locales/fr/home.json": '{"title": "Accueil", "intro": "Bienvenue, {{name}}"}\n'},
           [{"name": "common", "path": "public/locales/{locale}/common.json", "format": "i18next"},
            {"name": "home", "path": "public/locales/{locale}/home.json", "format": "i18next"}], "en",
           {("common", "fr"): (2, 1), ("home", "fr"): (2, 2)}),
    Layout("arb", {"lib/l10n/app_en.arb": '{"@@locale": "en", "hi": "Hi", "@hi": {"description": "greeting"}, '
                                          '"bye": "Bye"}\n',
                   "lib/l10n/app_pt_BR.arb": '{"@@locale": "pt_BR", "hi": "Oi"}\n'},
           [{"name": "app", "path": "lib/l10n/app_{locale}.arb", "format": "arb"}], "en",
           {("app", "pt-BR"): (2, 1)}),
    Layout("django", {"locale/fr/LC_MESSAGES/django.po": _po("fr", {"Hello": "Bonjour", "Bye": ""}),
                      "locale/de/LC_MESSAGES/django.po": _po("de", {"Hello": "Hallo", "Bye": "Tschüss"})},
           [{"name": "django", "path": "locale/{locale}/LC_MESSAGES/django.po", "format": "po"}], "en",
           {("django", "fr"): (2, 1), ("django", "de"): (2, 2)}),
    Layout("glib-po", {"po/fr.po": _po("fr", {"Open": "Ouvrir", "Close": ""}),
                       "po/pt_BR.po": _po("pt_BR", {"Open": "Abrir", "Close": "Fechar"}),
                       "po/app.pot": _po("", {"Open": "", "Close": ""})},
           [{"name": "po", "path": "po/{locale}.po", "format": "po", "template": "po/app.pot"}], "en",
           {("po", "fr"): (2, 1), ("po", "pt-BR"): (2, 2)}),
    Layout("android", {"app/src/main/res/values/strings.xml": _android({"hi": "Hi", "bye": "Bye"}),
                       "app/src/main/res/values-fr/strings.xml": _android({"hi": "Salut"}),
                       "app/src/main/res/values-b+sr+Latn/strings.xml": _android({"hi": "Zdravo", "bye": "Zbogom"}),
                       "app/src/main/res/values-night/colors.xml": '<resources><color name="bg">#000</color>'
                                                                   "</resources>\n",
                       "app/src/main/res/values/colors.xml": '<resources><color name="bg">#fff</color>'
                                                             "</resources>\n",
                       "app/src/main/AndroidManifest.xml": "<manifest/>\n"},
           [{"name": "strings", "path": "app/src/main/res/values-{locale}/strings.xml", "format": "android"}], "en",
           {("strings", "fr"): (2, 1), ("strings", "sr-Latn"): (2, 2)}),
    Layout("apple", {"App/en.lproj/Localizable.strings": '"hi" = "Hi";\n"bye" = "Bye";\n',
                     "App/fr.lproj/Localizable.strings": '"hi" = "Salut";\n',
                     "App/en.lproj/Localizable.stringsdict": STRINGSDICT.format(one="item", other="items"),
                     "App/fr.lproj/Localizable.stringsdict": STRINGSDICT.format(one="article", other="articles"),
                     "App/Base.lproj/Main.storyboard": "<document/>\n"},
           [{"name": "Localizable-apple-strings", "path": "App/{locale}.lproj/Localizable.strings",
             "format": "apple-strings"},
            {"name": "Localizable-stringsdict", "path": "App/{locale}.lproj/Localizable.stringsdict",
             "format": "stringsdict"}], "en",
           {("Localizable-apple-strings", "fr"): (2, 1), ("Localizable-stringsdict", "fr"): (1, 1)}),
    Layout("xcstrings", {"App/Localizable.xcstrings": XCSTRINGS},
           [{"name": "Localizable", "path": "App/Localizable.xcstrings", "format": "xcstrings"}], "en",
           {("Localizable", "de"): (3, 1)}),
    Layout("rails", {"config/locales/en.yml": "en:\n  hi: Hi\n  bye: Bye\n",
                     "config/locales/es.yml": "es:\n  hi: Hola\n"},
           [{"name": "locales", "path": "config/locales/{locale}.yml", "format": "yaml"}], "en",
           {("locales", "es"): (2, 1)}),
    Layout("properties", {"src/main/resources/messages_en.properties": "hi=Hi\nbye=Bye\n",
                          "src/main/resources/messages_de.properties": "hi=Hallo\n",
                          "src/main/resources/messages_pt_BR.properties": "hi=Oi\nbye=Tchau\n"},
           [{"name": "messages", "path": "src/main/resources/messages_{locale}.properties",
             "format": "properties"}], "en",
           {("messages", "de"): (2, 1), ("messages", "pt-BR"): (2, 2)}),
    Layout("xliff", {"translations/messages.en.xlf": _xliff("en", {"hi": "Hi", "bye": "Bye"}),
                     "translations/messages.fr.xlf": _xliff("fr", {"hi": "Salut", "bye": None})},
           [{"name": "messages", "path": "translations/messages.{locale}.xlf", "format": "xliff"}], "en",
           {("messages", "fr"): (2, 1)}),
    Layout("mixed", {"web/src/locales/en.json": '{"hi": "Hi", "bye": "Bye"}\n',
                     "web/src/locales/ja.json": '{"hi": "こんにちは"}\n',
                     "android/app/src/main/res/values/strings.xml": _android({"hi": "Hi", "bye": "Bye", "ok": "OK"}),
                     "android/app/src/main/res/values-ja/strings.xml": _android({"ok": "OK"}),
                     # not the project's own, or not catalogs: never proposed
                     "web/node_modules/lib/locales/en.json": '{"x": "X"}\n',
                     "web/node_modules/lib/locales/fr.json": '{"x": "X"}\n',
                     "web/dist/locales/en.json": '{"hi": "Hi"}\n',
                     "web/dist/locales/ja.json": '{"hi": "Hi"}\n',
                     ".git/locales/en.json": '{"x": "X"}\n',
                     "web/package.json": '{"name": "web", "version": "1.0.0"}\n',
                     "web/tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
                     "web/src/it/config.json": '{"mode": "fast"}\n'},
           [{"name": "strings", "path": "android/app/src/main/res/values-{locale}/strings.xml", "format": "android"},
            {"name": "locales", "path": "web/src/locales/{locale}.json", "format": "icu-json"}], "en",
           {("locales", "ja"): (2, 1), ("strings", "ja"): (3, 1)}),
    Layout("no-english", {"i18n/de.json": '{"a": "A", "b": "B", "c": "C"}\n',
                          "i18n/fr.json": '{"a": "A"}\n'},
           [{"name": "i18n", "path": "i18n/{locale}.json", "format": "icu-json"}], "de",
           {("i18n", "fr"): (3, 1)}),
]


def _environment(tmp_path: Path) -> dict[str, str]:
    environment = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    environment.pop("PARLANCE_CONFIG", None)
    return environment


def parlance(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parlance", *args], capture_output=True, text=True, cwd=repo,
                          env=_environment(repo.parent), timeout=120)


def _repository(layout: Layout, tmp_path: Path) -> Path:
    return write_tree(tmp_path / layout.id, layout.files)


def _written(repo: Path) -> dict[str, object]:
    return tomllib.loads((repo / "parlance.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_init_proposes_the_catalogs_and_the_config_checks(layout: Layout, tmp_path: Path) -> None:
    repo = _repository(layout, tmp_path)
    done = parlance(repo, "init")
    assert done.returncode == 0, done.stderr
    i18n = _written(repo)["packs"]["i18n"]  # type: ignore[index]
    assert i18n["catalogs"] == layout.catalogs
    assert i18n["source_locale"] == layout.source and i18n["write"] is False
    checked = parlance(repo, "config", "check", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("layout", [pytest.param(layout, marks=layout.marks, id=layout.id) for layout in LAYOUTS])
async def test_a_server_on_the_written_config_lists_every_catalog(layout: Layout, tmp_path: Path) -> None:
    repo = _repository(layout, tmp_path)
    assert parlance(repo, "init", "--write").returncode == 0
    with anyio.fail_after(60), open(tmp_path / "server.log", "w") as errlog:
        async with Client(stdio_client(stdio_server_params(repo / "parlance.toml"), errlog=errlog),
                          mode="legacy") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert {"i18n_status", "i18n_missing", "i18n_set_messages"} <= tools
            result = await client.call_tool("i18n_status", {})
    assert not result.is_error, result.content
    counts = {(row["catalog"], row["locale"]): (row["total"], row["translated"])
              for row in result.structured_content["catalogs"]}
    assert counts == layout.status


def test_dry_run_prints_what_init_writes_and_writes_nothing(tmp_path: Path) -> None:
    repo = _repository(LAYOUTS[1], tmp_path)
    dry = parlance(repo, "init", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert not (repo / "parlance.toml").exists()
    assert parlance(repo, "init").returncode == 0
    assert (repo / "parlance.toml").read_text(encoding="utf-8") == dry.stdout


def test_an_existing_config_is_kept_unless_forced_and_then_backed_up(tmp_path: Path) -> None:
    repo = _repository(LAYOUTS[0], tmp_path)
    (repo / "parlance.toml").write_text("[host]\nlog_level = \"DEBUG\"\n", encoding="utf-8")
    refused = parlance(repo, "init")
    assert refused.returncode == 2 and "already exists" in refused.stderr and "--force" in refused.stderr
    assert (repo / "parlance.toml").read_text(encoding="utf-8") == "[host]\nlog_level = \"DEBUG\"\n"
    forced = parlance(repo, "init", "--force")
    assert forced.returncode == 0, forced.stderr
    backups = list(repo.glob("parlance.toml.*.bak"))
    assert len(backups) == 1 and backups[0].read_text(encoding="utf-8") == "[host]\nlog_level = \"DEBUG\"\n"
    assert backups[0].name in forced.stdout
    assert _written(repo)["packs"]["i18n"]["catalogs"] == LAYOUTS[0].catalogs  # type: ignore[index]


def test_no_link_is_followed_out_of_the_repository(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "locales"
    outside.mkdir(parents=True)
    (outside / "en.json").write_text('{"secret": "S"}\n', encoding="utf-8")
    (outside / "fr.json").write_text('{"secret": "S"}\n', encoding="utf-8")
    repo = _repository(LAYOUTS[0], tmp_path)
    (repo / "linked").symlink_to(outside.parent, target_is_directory=True)
    (repo / "src" / "locales" / "es.json").symlink_to(outside / "fr.json")
    done = parlance(repo, "init", "--dry-run")
    assert done.returncode == 0, done.stderr
    proposed = tomllib.loads(done.stdout)["packs"]["i18n"]
    assert proposed["catalogs"] == LAYOUTS[0].catalogs
    assert "# keys by locale: de 2, en 3, fr 1\n" in done.stdout  # not es, the link to a file outside
    assert "linked/" not in done.stdout


def test_a_repository_without_catalogs_says_so_and_writes_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "empty"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "package.json").write_text('{"name": "x"}\n', encoding="utf-8")
    done = parlance(repo, "init")
    assert done.returncode == 1 and "no catalog files found" in done.stderr and "[[packs.i18n.catalogs]]" in done.stderr
    assert not (repo / "parlance.toml").exists()


def test_init_is_a_command_of_the_i18n_pack(tmp_path: Path) -> None:
    tmp_path.joinpath("repo").mkdir()
    helped = parlance(tmp_path / "repo", "--help")
    assert helped.returncode == 0
    assert "init" in helped.stdout and "(from pack i18n)" in helped.stdout


def test_the_walk_is_bounded(tmp_path: Path) -> None:
    from parlance_i18n.model.layouts import Bounds, survey

    repo = _repository(LAYOUTS[0], tmp_path)
    deep = repo.joinpath(*[f"d{i}" for i in range(6)], "locales")
    deep.mkdir(parents=True)
    (deep / "en.json").write_text('{"a": "A"}\n', encoding="utf-8")
    (deep / "fr.json").write_text('{"a": "A"}\n', encoding="utf-8")
    shallow = survey(repo, Bounds(max_depth=3))
    assert [c.pattern for c in shallow.catalogs] == ["src/locales/{locale}.json"]
    assert any("deeper than 3 folders" in note for note in shallow.notes)
    assert len(survey(repo).catalogs) == 2
    cut = survey(repo, Bounds(max_entries=3))
    assert cut.visited == 4 and any("stopped after 3 folder entries" in note for note in cut.notes)


def test_tools_and_packs_say_what_the_catalogs_and_write_would_add(tmp_path: Path) -> None:
    repo = _repository(LAYOUTS[0], tmp_path)
    bare = parlance(repo, "tools")
    assert bare.returncode == 0, bare.stderr
    hint = next(line for line in bare.stdout.splitlines() if line.startswith("i18n: "))
    assert "[[packs.i18n.catalogs]]" in hint and "parlance init" in hint
    assert "i18n_status, i18n_missing" in hint and "write = true" in hint and "i18n_set_messages" in hint
    assert "\ni18n_status " not in bare.stdout  # not served yet: only named in the hint
    assert parlance(repo, "init").returncode == 0
    listed = parlance(repo, "packs")
    assert listed.returncode == 0, listed.stderr
    i18n = listed.stdout[listed.stdout.index("i18n "):].split("\n\n")[0]
    assert "hint: write = true in [packs.i18n] adds" in i18n and "i18n_set_messages" in i18n
    assert parlance(repo, "init", "--write", "--force").returncode == 0
    written = parlance(repo, "tools")
    assert "\ni18n_set_messages " in written.stdout
    # what is left to add: the code that calls the catalogs (this repository has none init could find)
    hints = [line for line in written.stdout.splitlines() if line.startswith("i18n: ")]
    assert len(hints) == 1 and "[[packs.i18n.sources]]" in hints[0] and "i18n_usage" in hints[0]


def test_one_locale_is_a_catalog_only_where_a_folder_says_localization(tmp_path: Path) -> None:
    from parlance_i18n.model.layouts import survey

    repo = _repository(Layout("one-locale", {
        "po/fr.po": _po("fr", {"Open": "Ouvrir"}),              # the format's own folder (layout_folders)
        "web/i18n/en.json": '{"hi": "Hi"}\n',                    # a folder every format's files use
        "App/de.lproj/Localizable.strings": '"hi" = "Hallo";\n',  # the format's folder extension
        "src/it/config.json": '{"mode": "fast"}\n',              # Italian? a folder of settings
        "scripts/de/run.properties": "threads=4\n",
    }, [], "en", {}), tmp_path)
    assert [c.pattern for c in survey(repo).catalogs] == [
        "App/{locale}.lproj/Localizable.strings", "po/{locale}.po", "web/i18n/{locale}.json"]


CODE_LAYOUTS = [
    ("i18next", {"public/locales/en/translation.json": '{"hi": "Hi {{name}}", "bye": "Bye"}\n',
                 "public/locales/de/translation.json": '{"hi": "Hallo {{name}}", "bye": "Tschüss"}\n',
                 "src/App.tsx": 'import { useTranslation } from "react-i18next";\n'
                                'export function App() { const { t } = useTranslation(); '
                                'return <h1 title="Main title">{t("hi", { name: "x" })}</h1>; }\n',
                 "src/App.test.tsx": 'it("renders", () => t("only.in.tests"));\n'},
     {"framework": "i18next", "paths": ["src/**/*.{js,jsx,ts,tsx,mjs,cjs}"]}, ["bye"]),
    ("django", {"manage.py": "", "shop/locale/fr/LC_MESSAGES/django.po": _po("fr", {"Hello": "Bonjour", "Bye": ""}),
                "shop/views.py": 'from django.utils.translation import gettext as _\nGREETING = _("Hello")\n',
                "shop/templates/shop/base.html": "{% load i18n %}<p>{% translate \"Bye\" %}</p>\n"},
     {"framework": "django", "paths": ["**/*.py", "**/templates/**/*.html"]}, []),
]


@pytest.mark.parametrize(("name", "files", "expected", "unused"), CODE_LAYOUTS, ids=[c[0] for c in CODE_LAYOUTS])
def test_init_proposes_the_code_that_calls_each_catalog(name: str, files: dict[str, str], expected: dict[str, object],
                                                        unused: list[str], tmp_path: Path) -> None:
    """Where the catalog's framework keeps its code (its usual folders holding a file), `init` writes a
    `[[packs.i18n.sources]]` entry for it, and the first `i18n_usage` on the written config works."""
    repo = write_tree(tmp_path / name, files)
    assert parlance(repo, "init").returncode == 0
    [entry] = _written(repo)["packs"]["i18n"]["sources"]  # type: ignore[index]
    assert {key: entry[key] for key in expected} == expected
    assert parlance(repo, "config", "check", "--strict").returncode == 0
    used = parlance(repo, "call", "i18n_usage", "--args", "{}")
    assert used.returncode == 0, used.stderr
    assert json.loads(used.stdout)["unused"] == unused


def test_init_proposes_no_code_where_the_usual_folders_hold_none(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "bare", {"locales/en.json": '{"hi": "Hi"}\n', "locales/de.json": '{"hi": "Hallo"}\n'})
    assert parlance(repo, "init").returncode == 0
    assert "sources" not in _written(repo)["packs"]["i18n"]  # type: ignore[operator]
