"""loop.writes: validated writes into every format's files, renames and deletions across locales,
dry runs and concurrent changes, on small projects copied from `projects/<format>/`.

Each project has an English source and a Russian target (some a Welsh one too). One call per format
mixes good translations with bad ones; the good ones must land with exactly the diff stored in
`projects/<format>/expected-ru.diff`, the bad ones be refused with exactly the expected reasons (`cases.py`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.locales import parse_locale
from parlance_i18n.loop.writes import KeyOutcome, apply, plan_delete_keys, plan_rename_key, plan_set_messages
from parlance_i18n.model.project import Project, ProjectLocale
from parlance_i18n.settings import CatalogSource

from tests.packs.i18n.loop.cases import CASES, PROJECTS, Case

EN = parse_locale("en")
BY_FORMAT = {case.format: case for case in CASES}


def copy_project(case: Case, tmp_path: Path) -> tuple[Path, Project]:
    root = tmp_path / case.format
    shutil.copytree(PROJECTS / case.format, root, ignore=shutil.ignore_patterns("*.diff"))
    return root, open_project(root, case)


def open_project(root: Path, case: Case) -> Project:
    return Project([CatalogSource(path=root / case.pattern, format=case.format, name=case.format)], EN)


def snapshot(root: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def statuses(outcomes: list[KeyOutcome]) -> dict[str, tuple[str, list[str]]]:
    return {outcome.key: (outcome.status, outcome.reasons) for outcome in outcomes}


def fresh(project: Project, code: str) -> ProjectLocale:
    locale = project.locales[code]
    return ProjectLocale(locale.tag, list(locale.files))


def has_text(project: Project, key: str) -> bool:
    """Whether a target file holds a text for `key`, served or not (a fuzzy PO entry)."""
    for file in project.locales["ru"].files:
        document = file.format.edit(file.path.read_bytes(), file.tag)
        for part in file.format.message_keys(document, key):
            value = document.get(part)
            if any(value.values()) if isinstance(value, dict) else value:
                return True
    return False


# --- set_messages -------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=str)
def test_good_translations_are_written_and_bad_ones_refused(case: Case, tmp_path: Path) -> None:
    root, project = copy_project(case, tmp_path)
    before = snapshot(root)
    assert {key: fresh(project, "ru").text(key) for key in case.unchanged} == case.unchanged_values
    assert sorted(key for key in case.good if has_text(project, key)) == sorted(case.already_present)
    messages = {**case.good, **case.unchanged_values, **{key: value for key, (value, _) in case.bad.items()}}

    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), messages)

    expected = {key: ("written", []) for key in case.good}
    expected.update({key: ("unchanged", []) for key in case.unchanged})
    expected.update({key: ("refused", reasons) for key, (_, reasons) in case.bad.items()})
    assert statuses(plan.outcomes) == expected
    assert plan.diff(root) == (PROJECTS / case.format / "expected-ru.diff").read_text(encoding="utf-8")
    assert snapshot(root) == before  # planning writes nothing

    done = apply(plan)

    assert statuses(done.outcomes) == expected
    after = snapshot(root)
    assert {path for path in after if after[path] != before[path]} == set(plan.files)
    for path, (old, new) in plan.files.items():
        assert before[path] == old and after[path] == new
    written = fresh(open_project(root, case), "ru")
    for key, value in case.good.items():
        text = written.text(key)
        if isinstance(value, dict) and isinstance(text, dict) and case.format != "po":
            assert {k: text[k] for k in value} == value  # the forms given, beside those the entry kept
        elif case.format != "po":
            assert text == value
        assert written.get(key) is not None, key
    assert not [p for p in written.problems if p.key in case.good]
    assert {key: written[key].render(case.variables, 1000) for key in case.rendered} == case.rendered

    again = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), dict(case.good))
    assert {outcome.status for outcome in again.outcomes} == {"unchanged"}
    assert again.files == {} and again.diff() == ""


SINGLE = "is a single message, not a plural: give its text as a string"
PLURAL = "is a plural message: give its forms as an object by plural category ({\"one\": ..., \"other\": ...})"
NO_FORMS = ("messages hold no plural forms of their own: give one string (with the plural written in the "
            "message's own syntax where it has one)")
SHAPES = [
    ("icu-json", "cart.items", {"one": "# товар", "other": "# товара"}, f"icu-json {NO_FORMS}"),
    ("arb", "cartItems", {"one": "x"}, f"arb {NO_FORMS}"),
    ("xliff", "cart.empty", {"one": "x"}, f"xliff {NO_FORMS}"),
    ("properties", "cart.empty", {"other": "x"}, f"properties {NO_FORMS}"),
    ("apple-strings", "cart.empty", {"other": "x"}, f"apple-strings {NO_FORMS}"),
    ("i18next", "cart.empty", {"one": "x"}, "is a single message, not a plural group: give its text as a string"),
    ("i18next", "cart.items", "x", "is a plural group (cart.items_one, cart.items_other, ...): give its forms as an "
                                   "object by plural category ({\"one\": ..., \"other\": ...})"),
    ("i18next", "cart.items", {"single": "x"}, "'single' is not a plural category; use zero, one, two, few, many, "
                                               "other (ordinal forms: ordinal_one, ...)"),
    ("po", "Your cart is empty", {"one": "x"}, SINGLE),
    ("po", "%(count)s item", "%(count)s товаров", PLURAL),
    ("po", "%(count)s item", {"0": "a", "3": "b"}, "msgstr[3] is past the file's Plural-Forms (nplurals=3)"),
    ("android", "cart_items", "%d товаров", PLURAL),
    ("android", "cart_empty", {"one": "x"}, SINGLE),
    ("android", "cart_items", {"single": "x"}, "'single' is not a plural category; use zero, one, two, few, many "
                                               "or other"),
    ("yaml", "cart.items", "x", PLURAL),
    ("stringsdict", "cart.items", "x", PLURAL),
    ("stringsdict", "folder.summary", {"one": "x"}, "'one' is not a part of this .stringsdict entry: give "
                                                   "'NSStringLocalizedFormatKey' and forms as '<variable>.<category>' "
                                                   "for the variables files"),
    ("xcstrings", "cart.items", "%lld товаров", PLURAL),
    ("xcstrings", "cart.empty", 42, "a message is a string, or an object of strings by plural category "
                                    "({\"one\": ..., \"other\": ...})"),
    ("properties", "cart.greeting", "", "is empty; an empty translation counts as missing (leave the key out to "
                                        "keep it missing)"),
]


@pytest.mark.parametrize(("format_name", "key", "value", "reason"), SHAPES)
def test_a_message_of_the_wrong_shape_is_refused(format_name: str, key: str, value: object, reason: str,
                                                 tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT[format_name], tmp_path)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {key: value})  # type: ignore[dict-item]
    assert statuses(plan.outcomes) == {key: ("refused", [reason])}
    assert plan.files == {}


def test_po_plural_forms_land_at_the_indexes_the_files_plural_forms_gives(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["po"], tmp_path)
    apply(plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {
        "%(count)s item": {"one": "%(count)s товар", "few": "%(count)s товара", "many": "%(count)s товаров",
                           "other": "%(count)s товара"}}))
    item = fresh(open_project(root, BY_FORMAT["po"]), "ru").get("%(count)s item")
    assert [item.render({"count": n}, 100) for n in (1, 3, 5, 21)] == [
        "1 товар", "3 товара", "5 товаров", "21 товар"]


def test_a_fuzzy_po_entry_written_with_its_own_text_is_confirmed(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["po"], tmp_path)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"Total: %(amount)s": "Итого: %(sum)s"})
    # the fuzzy translation used another placeholder than its msgid: confirming it is refused
    assert statuses(plan.outcomes) == {"Total: %(amount)s": (
        "refused", ["drops the placeholder %(amount)s that the source uses",
                    "uses the placeholder %(sum)s, which the source does not have"])}


@pytest.mark.parametrize("format_name", ["icu-json", "i18next", "po", "android"])
def test_a_welsh_plural_without_two_is_refused(format_name: str, tmp_path: Path) -> None:
    case = BY_FORMAT[format_name]
    root, project = copy_project(case, tmp_path)
    forms = {"icu-json": ("cart.items", "{count, plural, zero {# eitem} one {# eitem} few {# eitem} many {# eitem} "
                                        "other {# eitem}}"),
             "i18next": ("cart.items", {c: "{{count}} eitem" for c in ("zero", "one", "few", "many", "other")}),
             "po": ("%(count)s item", {c: "%(count)s eitem" for c in ("zero", "one", "few", "many", "other")}),
             "android": ("cart_items", {c: "%d eitem" for c in ("zero", "one", "few", "many", "other")})}
    key, value = forms[format_name]
    plan = plan_set_messages(fresh(project, "cy"), fresh(project, "en"), {key: value})
    assert statuses(plan.outcomes) == {key: ("refused", ["lacks the plural category two that cy needs"])}
    assert plan.files == {}
    with_two = ({**value, "two": value["one"]} if isinstance(value, dict)
                else value.replace("one {# eitem}", "one {# eitem} two {# eitem}"))
    plan = plan_set_messages(fresh(project, "cy"), fresh(project, "en"), {key: with_two})
    assert statuses(plan.outcomes) == {key: ("written", [])}


def test_unknown_keys_are_added_only_when_allowed(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["i18next"], tmp_path)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"promo.banner": "Скидки!"},
                             allow_new_keys=True)
    assert statuses(plan.outcomes) == {"promo.banner": ("written", [])}
    assert plan.diff(root) == (
        "--- a/locales/ru/translation.json\n+++ b/locales/ru/translation.json\n@@ -8,2 +8,5 @@\n"
        '     "status": ""\n+  },\n+  "promo": {\n+    "banner": "Скидки!"\n   }\n')


def test_a_catalog_without_a_file_for_the_locale_names_the_file_to_create(tmp_path: Path) -> None:
    case = BY_FORMAT["yaml"]
    root, project = copy_project(case, tmp_path)
    web = Case("i18next", "i18next/{locale}.json", {}, {}, {})
    (root / "i18next").mkdir()
    (root / "i18next" / "en.json").write_text('{"promo": "Sale!"}\n')
    project = Project([CatalogSource(path=root / case.pattern, format="yaml", name="rails"),
                       CatalogSource(path=root / web.pattern, format="i18next", name="web")], EN)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"promo": "Скидки!", "cart.total": "Итого"})
    assert statuses(plan.outcomes) == {
        "promo": ("refused", [f"ru has no file of the catalog 'web' yet: pass create_locale to start it, or create {root / 'i18next' / 'ru.json'} (it may "
                              "hold no messages yet), then write again"]),
        "cart.total": ("unchanged", [])}
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"cart.total": "Итого"}, catalog="shop")
    assert statuses(plan.outcomes) == {"cart.total": ("refused", ["no catalog is named 'shop'; the project's are: "
                                                                  "rails, web"])}


def test_glossary_terms_and_empty_messages_are_refused(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["i18next"], tmp_path)
    seen = []

    def glossary(source: str, translation: str) -> list[str]:
        seen.append((source, translation))
        return ["'cart' (Корзина)"] if "cart" in source.lower() and "Корзин" not in translation else []

    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"),
                             {"cart.empty": "Тележка пуста", "cart.greeting": "Привет, {{name}}!", "order.status": ""},
                             glossary_check=glossary)
    assert statuses(plan.outcomes) == {
        "cart.empty": ("refused", ["does not use the glossary's translation of 'cart' (Корзина)"]),
        "cart.greeting": ("written", []),
        "order.status": ("refused", ["is empty; an empty translation counts as missing (leave the key out to keep "
                                     "it missing)"])}
    assert ("Your cart is empty", "Тележка пуста") in seen


# --- dry run, concurrency -------------------------------------------------------------------------------


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    for case in CASES:
        root, project = copy_project(case, tmp_path)
        before = snapshot(root)
        plan_set_messages(fresh(project, "ru"), fresh(project, "en"), dict(case.good))
        plan_delete_keys([fresh(project, code) for code in project.locales], case.delete)
        if case.rename:
            plan_rename_key([fresh(project, code) for code in project.locales], *case.rename)
        assert snapshot(root) == before, case.format


def test_a_change_made_after_planning_is_kept_and_the_plan_applied_on_top(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["i18next"], tmp_path)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"cart.greeting": "Привет, {{name}}!"})
    target = root / "locales" / "ru" / "translation.json"
    target.write_bytes(target.read_bytes().replace(b'"total": "\xd0\x98\xd1\x82\xd0\xbe\xd0\xb3\xd0\xbe"',
                                                   '"total": "Итого: {{amount}}"'.encode()))
    done = apply(plan)
    assert statuses(done.outcomes) == {"cart.greeting": ("written", [])}
    ru = fresh(open_project(root, BY_FORMAT["i18next"]), "ru")
    assert ru.text("cart.total") == "Итого: {{amount}}"
    assert ru.text("cart.greeting") == "Привет, {{name}}!"


def test_a_change_made_while_writing_is_reapplied_by_writeback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import parlance_i18n.store as writeback

    root, project = copy_project(BY_FORMAT["android"], tmp_path)
    target = root / "res" / "values-ru" / "strings.xml"
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"cart_greeting": "Привет, %1$s!"})
    real = writeback._replace_if_unchanged
    calls = []

    def editor_saves_first(path: Path, before: bytes, after: bytes) -> bool:
        if not calls:  # another program saves the file between writeback's read and its rename
            target.write_bytes(target.read_bytes().replace("Итого<".encode(), "Итого:<".encode()))
        calls.append(path)
        return real(path, before, after)

    monkeypatch.setattr(writeback, "_replace_if_unchanged", editor_saves_first)
    done = apply(plan)
    assert len(calls) == 2
    assert statuses(done.outcomes) == {"cart_greeting": ("written", [])}
    ru = fresh(open_project(root, BY_FORMAT["android"]), "ru")
    assert ru.text("cart_total") == "Итого:" and ru.text("cart_greeting") == "Привет, %1$s!"


def test_an_edit_that_no_longer_applies_is_refused_and_the_file_left_alone(tmp_path: Path) -> None:
    case = BY_FORMAT["properties"]
    root, project = copy_project(case, tmp_path)
    plan = plan_rename_key([fresh(project, code) for code in project.locales], "cart.empty", "basket.empty")
    target = root / "i18n" / "messages_ru.properties"
    target.write_bytes(b"# Russian\ncart.total=\\u0418\\u0442\\u043e\\u0433\\u043e\n")  # someone deleted it
    done = apply(plan)
    refused = [o for o in done.outcomes if o.status == "refused"]
    assert [o.reasons for o in refused] == [[
        "messages_ru.properties changed since the write was planned and the edit no longer applies ('cart.empty' "
        "is no longer in the file): nothing was written to it; read it again"]]
    assert target.read_bytes() == b"# Russian\ncart.total=\\u0418\\u0442\\u043e\\u0433\\u043e\n"
    assert [o.status for o in done.outcomes if o.file and o.file.endswith("_en.properties")] == ["written"]


def test_a_file_that_keeps_changing_is_refused_with_the_concurrent_change(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import parlance_i18n.store as writeback

    root, project = copy_project(BY_FORMAT["i18next"], tmp_path)
    plan = plan_set_messages(fresh(project, "ru"), fresh(project, "en"), {"cart.greeting": "Привет, {{name}}!"})
    monkeypatch.setattr(writeback, "_replace_if_unchanged", lambda path, before, after: False)
    done = apply(plan, attempts=2)
    assert statuses(done.outcomes) == {"cart.greeting": ("refused", [
        "translation.json kept changing while it was being written (2 attempts): nothing was written; try again "
        "once whatever else is writing it has finished"])}
    assert done.files == {}


# --- rename, delete ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", [case for case in CASES if case.rename], ids=str)
def test_a_key_is_renamed_in_every_locale(case: Case, tmp_path: Path) -> None:
    root, project = copy_project(case, tmp_path)
    old, new = case.rename  # type: ignore[misc]
    texts = {code: fresh(project, code).text(old) for code in project.locales}
    keys = {code: set(fresh(project, code)) for code in project.locales}

    plan = plan_rename_key([fresh(project, code) for code in project.locales], old, new)
    done = apply(plan)

    holders = sorted(code for code, text in texts.items() if text is not None)
    assert sorted(o.file for o in done.outcomes) == sorted(
        str(file.path) for code in holders for file in project.locales[code].files)
    assert {o.status for o in done.outcomes} == {"written"}
    renamed = open_project(root, case)
    for code in project.locales:
        locale = fresh(renamed, code)
        assert locale.text(new) == texts[code]
        assert locale.text(old) is None
        assert set(locale) == keys[code] - {old} | ({new} if texts[code] is not None else set())
        assert not locale.problems


def test_rename_conflicts_are_refused_as_a_whole(tmp_path: Path) -> None:
    root, project = copy_project(BY_FORMAT["i18next"], tmp_path)
    everyone = [fresh(project, code) for code in project.locales]
    ru = root / "locales" / "ru" / "translation.json"
    assert statuses(plan_rename_key(everyone, "cart.empty", "cart.total").outcomes) == {"cart.empty": ("refused", [
        f"'cart.total' is already in {root / 'locales' / 'en' / 'translation.json'} (en)",
        f"'cart.total' is already in {ru} (ru)"])}
    assert statuses(plan_rename_key(everyone, "cart.empty", "photos.count").outcomes) == {"cart.empty": ("refused", [
        f"'photos.count' is already in {root / 'locales' / 'en' / 'translation.json'} (en)"])}
    assert statuses(plan_rename_key(everyone, "cart.gone", "cart.new").outcomes) == {
        "cart.gone": ("refused", ["no file has 'cart.gone'"])}
    assert statuses(plan_rename_key(everyone, "cart.empty", "cart.empty").outcomes) == {
        "cart.empty": ("refused", ["the old and new keys are the same"])}


@pytest.mark.parametrize("format_name", ["po", "xliff", "xcstrings", "stringsdict"])
def test_formats_that_cannot_move_an_entry_refuse_renames(format_name: str, tmp_path: Path) -> None:
    case = BY_FORMAT[format_name]
    root, project = copy_project(case, tmp_path)
    old = {"po": "Your cart is empty", "stringsdict": "cart.items"}.get(format_name, "cart.empty")
    plan = plan_rename_key([fresh(project, code) for code in project.locales], old, "renamed")
    (outcome,) = plan.outcomes
    assert outcome.status == "refused" and plan.files == {}
    refusal = formats.get(format_name).rename_refusal
    assert all(f" is {format_name}: {refusal}" in reason for reason in outcome.reasons)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_keys_are_deleted_from_every_locale(case: Case, tmp_path: Path) -> None:
    root, project = copy_project(case, tmp_path)
    before = {code: {key: fresh(project, code).text(key) for key in fresh(project, code)} for code in project.locales}

    done = apply(plan_delete_keys([fresh(project, code) for code in project.locales], [*case.delete, "nope"]))

    assert statuses([o for o in done.outcomes if o.key == "nope"]) == {"nope": ("refused", ["no file has 'nope'"])}
    assert {o.status for o in done.outcomes if o.key != "nope"} == {"written"}
    deleted = open_project(root, case)
    for code in project.locales:
        locale = fresh(deleted, code)
        assert {key: locale.text(key) for key in locale} == {
            key: text for key, text in before[code].items() if key not in case.delete}, code
        assert not locale.problems


def test_deleting_a_string_catalog_entry_removes_it_whole(tmp_path: Path) -> None:
    case = BY_FORMAT["xcstrings"]
    root, project = copy_project(case, tmp_path)
    done = apply(plan_delete_keys([fresh(project, code) for code in project.locales], ["cart.empty"]))
    data = (root / "Localizable.xcstrings").read_text(encoding="utf-8")
    assert '"cart.empty"' not in data and "Shown when the cart has no items" not in data
    assert [o.status for o in done.outcomes] == ["written"]  # one file, once, for every locale in it
    assert formats.get("xcstrings").locales(data.encode()) == [EN, parse_locale("ru")]
