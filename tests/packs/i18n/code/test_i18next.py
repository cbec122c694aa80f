"""i18next read as i18next-cli reads it: references with namespaces and key prefixes, Trans, plurals,
dynamic keys, hard-coded JSX and extraction — and i18next-cli itself run on the same tree as the oracle."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.code.frameworks.base import ExtractionRefused
from parlance_i18n.code.frameworks.i18next import I18next
from parlance_i18n.code.model import FileScan
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.locales import parse_locale
from tests.packs.i18n.code.oracles import NODE, oracle

TREE = Path(__file__).parent / "trees" / "i18next"


def framework(**options: object) -> I18next:
    return I18next(SourceSettings(paths=["**/*"], framework="i18next", **options))


def scan_tree(fw: I18next) -> dict[str, FileScan]:
    return {str(p.relative_to(TREE)): fw.scan(str(p.relative_to(TREE)), p.read_bytes())
            for p in sorted(TREE.rglob("*")) if fw.reads(p.name)}


def keys(fw: I18next) -> set[tuple[str, str]]:
    """(namespace, key) of every reference in the tree, the default namespace spelled out."""
    return {(r.namespace or "translation", r.key) for s in scan_tree(fw).values() for r in s.references}


def scan(source: str, path: str = "src/A.tsx", **options: object) -> FileScan:
    return framework(**options).scan(path, source.encode())


def test_hook_namespace_and_key_prefix() -> None:
    found = scan_tree(framework())["src/features/checkout/Cart.tsx"]
    refs = {(r.namespace, r.key): r for r in found.references}
    assert set(refs) == {("checkout", "cart.title"), ("checkout", "cart.items"), ("checkout", "cart.queue_position"),
                         ("common", "cart.actions.remove"), ("billing", "cart.total"), ("checkout", "cart.footnote")}
    assert refs[("checkout", "cart.items")].plural and refs[("checkout", "cart.queue_position")].plural
    assert not refs[("checkout", "cart.title")].plural
    assert refs[("billing", "cart.total")].default == "Total"
    assert [(d.prefix, d.namespace) for d in found.dynamic] == [("cart.status.", "checkout")]
    assert [h.text for h in found.hardcoded] == ["Prices include VAT."]


def test_trans_with_and_without_key() -> None:
    found = scan_tree(framework())["src/features/account/Profile.tsx"]
    refs = {(r.namespace, r.key): r for r in found.references}
    assert refs[("account", "profile.welcome")].default == "Welcome back, <strong>{{name}}</strong>!"
    assert (None, "Read our <1>terms</1> before you continue.") in refs
    assert ("account", "profile.invite_female") in refs  # a string context is part of the key
    assert ("account", "profile.friend") in refs  # a run-time context: the base key, and any `_<context>`
    assert {d.prefix for d in found.dynamic} == {"", "profile.friend_"}
    footer = scan_tree(framework())["src/components/Footer.tsx"]
    assert [(r.key, r.plural) for r in footer.references] == [("footer.made_with", True)]


def test_calls_every_way_the_code_writes_them() -> None:
    found = scan("""
        import { t as translate } from "i18next";
        const { t: tr } = useTranslation("ns");
        translate("a.one"); tr("a.two"); i18n.t("a.three"); props.t("a.four"); t(["a.five", "a.six"]);
        t(cond ? "a.seven" : "a.eight"); t("other:a.nine"); t("a.ten", { ns: "x" }); t(""); notT("zzz");
        // t("a.comment")
        const s = "t('not.a.call')";
    """, path="src/a.ts")
    assert {(r.namespace, r.key) for r in found.references} == {
        (None, "a.one"), ("ns", "a.two"), (None, "a.three"), (None, "a.four"), (None, "a.five"), (None, "a.six"),
        (None, "a.seven"), (None, "a.eight"), ("other", "a.nine"), ("x", "a.ten"), (None, "a.comment")}


def test_options_functions_and_separators() -> None:
    found = scan('translate("a:b"); t("c:d"); $t("e")', functions=["translate", "$t"], ns_separator=False)
    assert {(r.namespace, r.key) for r in found.references} == {(None, "a:b"), (None, "e")}
    found = scan('<Translate i18nKey="k" />; <Trans i18nKey="no" />', trans_components=["Translate"])
    assert [r.key for r in found.references] == ["k"]


def test_hardcoded_jsx_and_what_is_not_reported() -> None:
    found = scan_tree(framework())
    header = [(h.kind, h.text) for h in found["src/components/Header.tsx"].hardcoded]
    assert header == [("jsx-attribute:alt", "Company logo"), ("jsx-attribute:aria-label", "Main navigation"),
                      ("jsx-text", "Your account"), ("jsx-attribute:title", "Switch to German"), ("jsx-text", "DE")]
    # i18n-ignore, <code>, a URL title and Trans's own text are not reported
    assert [h.text for h in found["src/components/Footer.tsx"].hardcoded] == ["Service status"]
    assert found["src/legacy/notifier.js"].hardcoded == ()  # console.log is not user-visible JSX


def test_never_raises_on_broken_code() -> None:
    found = scan('export function A() { const { t } = useTranslation(); return <div>{t("ok")}</div  ; t("x"')
    assert "ok" in {r.key for r in found.references} and found.problems
    assert scan("", path="src/a.js") == FileScan()


def test_catalog_and_code_keys() -> None:
    fw = framework()
    assert fw.catalog_key("a.b", None, namespaced=True) == "translation:a.b"
    assert fw.catalog_key("a.b", "common", namespaced=True) == "common:a.b"
    assert fw.catalog_key("a.b", "common", namespaced=False) == "a.b"
    assert framework(default_namespace="app").catalog_key("k", None, namespaced=True) == "app:k"
    # the i18next format holds a plural group under its base key (`items`), and a group whose base ends
    # like a form (`tier_one_one`, `tier_one_other`) under `tier_one`: the catalog's key is left alone,
    # and an explicit form the code calls reads its group where the catalog has one
    grouped = {"items", "tier_one", "friend_male"}.__contains__
    assert fw.code_key("tier_one") == "tier_one"
    for key in ("items_one", "items_other", "items_zero", "items_ordinal_two", "items"):
        assert fw.called_key(key, grouped) == "items"
    assert fw.called_key("tier_one", grouped) == "tier_one"  # the group itself, not `tier`
    assert fw.called_key("tab_one", grouped) == "tab_one"  # no group `tab`: the key as called (undefined)
    assert fw.called_key("friend_male", grouped) == "friend_male"  # a context suffix is its own key


def test_extraction_with_t_in_scope() -> None:
    path = TREE / "src" / "features" / "checkout" / "Cart.tsx"
    data = path.read_bytes()
    fw = framework()
    literal = fw.scan("Cart.tsx", data).hardcoded[0]
    extraction = fw.extraction("Cart.tsx", data, literal, "cart.vat_note")
    (edit,) = extraction.edits
    assert edit.text == '{t("vat_note")}' and extraction.message == "Prices include VAT."
    changed = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert ("checkout", "cart.vat_note") in {(r.namespace, r.key) for r in fw.scan("Cart.tsx", changed).references}
    with pytest.raises(ExtractionRefused, match="keyPrefix"):
        fw.extraction("Cart.tsx", data, literal, "other.vat_note")


def test_extraction_of_an_attribute_and_a_t_prop() -> None:
    source = b'export function Row({ t }) { return <img alt="A photo" />; }'
    fw = framework()
    (literal,) = fw.scan("Row.jsx", source).hardcoded
    (edit,) = fw.extraction("Row.jsx", source, literal, "row.photo").edits
    assert source[edit.start:edit.end] == b'"A photo"' and edit.text == '{t("row.photo")}'


def test_extraction_refused_without_t() -> None:
    data = (TREE / "src" / "components" / "Row.jsx").read_bytes()
    fw = framework()
    literal = next(h for h in fw.scan("Row.jsx", data).hardcoded if h.text == "No rows yet")
    with pytest.raises(ExtractionRefused, match="no `t` is in scope"):
        fw.extraction("Row.jsx", data, literal, "table.empty")


EXPECTED_DIFFERENCES: dict[tuple[str, str], str] = {
    ("translation", "notify.saved"): "only here: `import { t as translate } from 'i18next'` makes `translate` i18next's "
                                     "t; i18next-cli reads only its `functions` and hook bindings",
}
"""(namespace, key) found by one side only, and why; asserted exactly, both ways."""


def i18next_cli_keys(tmp_path: Path) -> set[tuple[str, str]]:
    cli = oracle("i18next-cli/dist/esm/cli.js")
    work = tmp_path / "tree"
    shutil.copytree(TREE, work)
    (work / "i18next.config.mjs").write_text(
        'export default { locales: ["en"], extract: { input: ["src/**/*.{js,jsx,ts,tsx}"], '
        'output: "out/{{language}}/{{namespace}}.json" } };\n')
    subprocess.run([str(NODE), str(cli), "extract"], cwd=work, check=True, capture_output=True, timeout=120)
    # read as the pack's i18next format reads a catalog: plural forms (`items_one`, `items_other`) are one
    # group under the key the code calls (`items`)
    reader = formats.get("i18next")
    found: set[tuple[str, str]] = set()
    for file in (work / "out" / "en").glob("*.json"):
        for key in reader.read(file.read_bytes(), parse_locale("en")):
            found.add((file.stem, key))
    return found


def test_oracle_i18next_cli(tmp_path: Path) -> None:
    ours, theirs = keys(framework()), i18next_cli_keys(tmp_path)
    differences = {k: EXPECTED_DIFFERENCES.get(k, "unexplained") for k in ours ^ theirs}
    assert differences == EXPECTED_DIFFERENCES
    assert ("translation", "notify.saved") in ours - theirs
