"""The Rails framework: `t` calls in Ruby and ERB resolved as Rails resolves them, hard-coded ERB text,
and extraction into `t(".lazy_key")`.

No oracle runs here: Rails' own checker, i18n-tasks, is a Ruby gem and rubygems is not reachable from
the test environment, so the expected key sets below are written by hand, from what the i18n gem
(`I18n.normalize_keys`) and Rails' `translate` helpers (ActionView's `scope_key_by_partial`,
AbstractController::Translation) do with each call. The tree (trees/rails, see its README) is a small
app written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.code.frameworks.base import ExtractionRefused, KeyStyle
from parlance_i18n.code.frameworks.rails import Rails, controller_scope, view_scope
from parlance_i18n.code.frameworks.registry import framework_class
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.settings import SourceSettings
from parlance_i18n.locales import parse_locale

TREE = Path(__file__).parent / "trees" / "rails"
RAILS = Rails(SourceSettings(paths=["**/*"], framework="rails"))


def _scan_tree() -> dict[str, FileScan]:
    found = {}
    for path in sorted(TREE.rglob("*")):
        relative = path.relative_to(TREE).as_posix()
        if path.is_file() and RAILS.reads(relative):
            found[relative] = RAILS.scan(relative, path.read_bytes())
    return found


SCANS = _scan_tree()

EXPECTED_REFERENCES = {
    # views: lazy keys from the virtual path; the partial's `_` dropped
    ("app/views/layouts/application.html.erb", "layouts.application.sign_out"),
    ("app/views/users/index.html.erb", "users.index.title"),
    ("app/views/users/index.html.erb", "users.index.users_count"),
    ("app/views/users/index.html.erb", "users.index.empty_html"),
    ("app/views/users/index.html.erb", "users.index.new_user"),
    ("app/views/users/_form.html.erb", "users.form.name"),
    ("app/views/users/_form.html.erb", "users.form.email"),
    ("app/views/users/_form.html.erb", "users.form.submit"),
    ("app/views/user_mailer/welcome.text.erb", "user_mailer.welcome.greeting"),
    # controller and mailer: controller_path + the enclosing action
    ("app/controllers/admin/users_controller.rb", "admin.users.create.created"),
    ("app/controllers/admin/users_controller.rb", "admin.users.destroy.destroyed"),
    ("app/mailers/user_mailer.rb", "user_mailer.welcome.subject"),
    # a model: scope as a string, an array and a hash rocket; a symbol default is a key too
    ("app/models/order.rb", "orders.total"),
    ("app/models/order.rb", "orders.items"),
    ("app/models/order.rb", "orders.discount"),
    ("app/models/order.rb", "orders.shipping"),
    ("app/models/order.rb", "activerecord.errors.messages.too_late"),
}
EXPECTED_DYNAMIC = [
    ("app/controllers/admin/users_controller.rb", "admin.users."),  # rescue_from block: no action
    ("app/helpers/application_helper.rb", ""),  # t(".title") in a helper: the template's scope
    ("app/helpers/application_helper.rb", ""),  # t(key)
    ("app/helpers/application_helper.rb", "orders.status."),
    ("app/views/users/index.html.erb", "users.roles."),
]
EXPECTED_HARDCODED = {
    ("app/views/layouts/application.html.erb", "Acme Admin", "erb-text"),
    ("app/views/layouts/application.html.erb", "Main navigation", "html-attribute:aria-label"),
    ("app/views/users/index.html.erb", "Name", "erb-text"),
    ("app/views/users/index.html.erb", "Email", "erb-text"),
    ("app/views/users/index.html.erb", "Search users", "html-attribute:placeholder"),
    ("app/views/users/index.html.erb", "Signed in as", "erb-text"),
    ("app/views/users/_form.html.erb", "Help", "html-attribute:alt"),
    ("app/views/users/_form.html.erb", "All fields are required & checked.", "erb-text"),
}


def test_the_tree_references_the_keys_rails_resolves() -> None:
    found = {(path, ref.key) for path, scan in SCANS.items() for ref in scan.references}
    assert found == EXPECTED_REFERENCES


def test_dynamic_keys_keep_their_static_start() -> None:
    found = sorted((path, dyn.prefix) for path, scan in SCANS.items() for dyn in scan.dynamic)
    assert found == EXPECTED_DYNAMIC


def test_hardcoded_erb_text_and_attributes() -> None:
    found = {(path, lit.text, lit.kind) for path, scan in SCANS.items() for lit in scan.hardcoded}
    assert found == EXPECTED_HARDCODED
    assert not any(scan.problems for scan in SCANS.values())


def test_count_makes_a_call_plural_and_default_text_is_kept() -> None:
    refs = {ref.key: ref for scan in SCANS.values() for ref in scan.references}
    assert {key for key, ref in refs.items() if ref.plural} == {"users.index.users_count", "orders.items"}
    assert refs["orders.discount"].default == "Discount"
    assert refs["orders.shipping"].default == "Shipping"


def test_the_tree_matches_its_catalog() -> None:
    """The resolved keys are the catalog's own names (no `en.` root; plural children folded or collapsed)."""
    catalog = formats.get("yaml").read((TREE / "config/locales/en.yml").read_bytes(), parse_locale("en"))
    catalog_keys = set(catalog.keys())
    assert "users.index.users_count" in catalog_keys  # folded by the reader: all children are categories
    assert {"orders.items.one", "orders.items.title"} <= catalog_keys  # not folded: `title` beside them
    called = {key for _, key in EXPECTED_REFERENCES}
    prefixes = {prefix for _, prefix in EXPECTED_DYNAMIC if prefix}
    used = {key for key in catalog_keys
            if RAILS.code_key(key) in called or any(key.startswith(prefix) for prefix in prefixes)}
    assert catalog_keys - used == {"orders.items.title", "helpers.unused_key"}
    assert called - {RAILS.code_key(key) for key in catalog_keys} == {"orders.discount", "orders.shipping"}


@pytest.mark.parametrize(("catalog_key", "code_key"), [
    ("items.one", "items"), ("items.other", "items"), ("items.zero", "items"), ("a.b.few", "a.b"),
    ("a.many", "a"), ("a.two", "a"), ("one", "one"), ("items.title", "items.title"),
    ("items.one.label", "items.one.label"), ("items.ones", "items.ones"),
])
def test_code_key_collapses_only_a_final_plural_segment(catalog_key: str, code_key: str) -> None:
    assert RAILS.code_key(catalog_key) == code_key


@pytest.mark.parametrize(("path", "scope"), [
    ("app/views/users/index.html.erb", "users.index"),
    ("app/views/users/_form.html.erb", "users.form"),
    ("app/views/admin/users/_row.html.erb", "admin.users.row"),
    ("engines/billing/app/views/invoices/show.html.erb", "invoices.show"),
    ("app/views/layouts/application.html.erb", "layouts.application"),
    ("lib/templates/erb/scaffold/index.html.erb", None),
    ("myapp/views/users/index.html.erb", None),
])
def test_view_scope_is_rails_virtual_path(path: str, scope: str | None) -> None:
    assert view_scope(path) == scope


@pytest.mark.parametrize(("path", "scope"), [
    ("app/controllers/admin/users_controller.rb", "admin.users"),
    ("app/controllers/application_controller.rb", "application"),
    ("app/mailers/user_mailer.rb", "user_mailer"),
    ("app/controllers/concerns/paging.rb", None),
    ("app/models/user.rb", None),
])
def test_controller_scope_is_controller_path(path: str, scope: str | None) -> None:
    assert controller_scope(path) == scope


def _keys(source: str, path: str = "app/models/x.rb") -> tuple[list[str], list[str]]:
    scan = RAILS.scan(path, source.encode())
    return [ref.key for ref in scan.references], [dyn.prefix for dyn in scan.dynamic]


@pytest.mark.parametrize(("source", "keys", "prefixes"), [
    ('t("a.b")', ["a.b"], []),
    ("t(:sym)", ["sym"], []),
    ('t(:"a.b")', ["a.b"], []),
    ("t 'a.b'", ["a.b"], []),
    ('I18n.translate("b", scope: [:a, :c])', ["a.c.b"], []),
    ('::I18n.t("x", scope: "a.b")', ["a.b.x"], []),
    ('I18n.t!("x")', ["x"], []),
    ('I18n.t("x", **{ scope: :a })', ["x"], []),  # a double splat is not read
    ('I18n.t("x", { scope: :a })', ["a.x"], []),
    ('I18n.t(".x")', ["x"], []),  # only the helpers resolve a lazy key; the gem drops the empty part
    ('t("a..b.")', ["a.b"], []),
    ('t("status." + s)', [], ["status."]),
    ('t(:"status_#{s}")', [], ["status_"]),
    ('t("b", scope: [:a, kind])', [], ["a."]),
    ('t("b", scope: kind)', [], [""]),
    ("t(key)", [], [""]),
    ('t(".x")', [], [""]),  # a model has no lazy scope
    ('foo.t("x"); format("x"); translate_all("y")', [], []),
    ('# t("commented")\nputs "t(\\"in a string\\")"', [], []),
])
def test_calls(source: str, keys: list[str], prefixes: list[str]) -> None:
    assert _keys(source) == (keys, prefixes)


def test_a_controller_lazy_key_uses_the_enclosing_def() -> None:
    source = 'class PostsController\n  def show\n    t(".x")\n    t(".#{k}")\n  end\nend\n'
    assert _keys(source, "app/controllers/posts_controller.rb") == (["posts.show.x"], ["posts.show."])


def test_erb_code_on_one_line_parses_as_rails_compiles_it() -> None:
    source = '<%= t(".a") %><%= t(".b") %><% if x %><%= t(".c", count: 2) %><% end %><%# t(".no") %>'
    scan = RAILS.scan("app/views/posts/show.html.erb", source.encode())
    assert [(ref.key, ref.plural) for ref in scan.references] == [
        ("posts.show.a", False), ("posts.show.b", False), ("posts.show.c", True)]
    assert scan.references[1].span.column == source.index('".b"') + 1


def test_broken_input_never_raises() -> None:
    for data in (b"", b"\xff\xfe\x00", b"<%= t(", b"def (", b"<% %><%= %>" * 50, b"<p title='x" * 30):
        for path in ("app/views/a/b.html.erb", "app/controllers/a_controller.rb"):
            RAILS.scan(path, data)
    assert RAILS.scan("app/models/a.rb", b"def (\n  t('a')\n").problems


def test_registry_names_the_class() -> None:
    assert framework_class("rails") is Rails


# --- extraction -----------------------------------------------------------------------------------


def _literal(path: str, data: bytes, text: str) -> Hardcoded:
    return next(lit for lit in RAILS.scan(path, data).hardcoded if lit.text == text)


def test_a_view_text_becomes_a_lazy_call_under_its_full_key() -> None:
    path = "app/views/users/index.html.erb"
    data = (TREE / path).read_bytes()
    literal = _literal(path, data, "Signed in as")
    key = RAILS.suggest_key(literal, path, KeyStyle(".", "camel"), {"users.index.signed_in_as"})
    assert key == "users.index.signed_in_as_2"  # snake_case as Rails keys are, unique in the catalog
    extraction = RAILS.extraction(path, data, literal, key)
    (edit,) = extraction.edits
    assert extraction.message == "Signed in as"
    changed = data[:edit.start] + edit.text.encode() + data[edit.end:]
    assert b'<p><%= t(".signed_in_as_2") %> <%= current_user.name %>.</p>' in changed
    assert "users.index.signed_in_as_2" in {ref.key for ref in RAILS.scan(path, changed).references}


def test_a_key_outside_the_view_scope_is_written_in_full() -> None:
    path = "app/views/users/_form.html.erb"
    data = (TREE / path).read_bytes()
    literal = _literal(path, data, "All fields are required & checked.")
    (edit,) = RAILS.extraction(path, data, literal, "shared.required_note").edits
    assert edit.text == '<%= t("shared.required_note") %>'
    assert RAILS.extraction(path, data, literal, "users.form.sub.note").edits[0].text == \
        '<%= t("users.form.sub.note") %>'


def test_an_attribute_value_is_replaced_inside_its_quotes() -> None:
    path = "app/views/posts/new.html.erb"
    data = b'<input placeholder=Search name="q"><img alt="Logo">'
    for text, expected in (("Search", b'placeholder="<%= t(".search") %>" name'),
                           ("Logo", b'alt="<%= t(".logo") %>"')):
        literal = _literal(path, data, text)
        key = RAILS.suggest_key(literal, path, KeyStyle(), set())
        (edit,) = RAILS.extraction(path, data, literal, key).edits
        assert expected in data[:edit.start] + edit.text.encode() + data[edit.end:]


def test_extraction_refuses_without_a_view() -> None:
    literal = _literal("lib/templates/page.html.erb", b"<p>Hello</p>", "Hello")
    with pytest.raises(ExtractionRefused, match="lazy key"):
        RAILS.extraction("lib/templates/page.html.erb", b"<p>Hello</p>", literal, ".hello")
    with pytest.raises(ExtractionRefused, match="only ERB"):
        RAILS.extraction("app/models/a.rb", b'x = "Hello"', literal, "a.hello")
