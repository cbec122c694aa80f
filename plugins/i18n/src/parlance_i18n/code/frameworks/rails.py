"""Rails: `t` / `I18n.t` calls in Ruby (`.rb`) and ERB views (`.erb`), keys as the YAML catalog
names them (`users.index.title`: nested keys joined by dots, without the locale's root `en:`).

Lazy lookups (`t(".title")`) are resolved from the file's path as Rails resolves them:

- in a view, from its virtual path: `app/views/users/index.html.erb` -> `users.index.title`, a
  partial `users/_form.html.erb` -> `users.form.title` (Rails' `virtual_path.gsub(%r{/_?}, ".")`);
- in a controller or mailer (`AbstractController::Translation`), from its path and the action, the
  enclosing `def`: `app/controllers/admin/users_controller.rb`, `def create` -> `admin.users.create.title`;
- anywhere else (helpers, components, models) the scope is the template rendering at run time: the
  call is a `Dynamic` without a prefix.

Plural messages are mappings of CLDR categories (`items: {one: ..., other: ...}`), which the YAML
reader folds into one key `items`; a mapping it cannot fold (a category beside another key) shows
`items.one`, which `code_key` collapses to the `items` the code calls with `count:`.

Hard-coded text is read in ERB views only (`rails_erb`); `.haml` and `.slim` views are not read.
See docs/code/rails.md for the rules.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tree_sitter import Node

from parlance_i18n.code.frameworks.base import Edit, Extraction, ExtractionRefused, Framework, KeyStyle
from parlance_i18n.code.frameworks.rails_erb import hardcoded, split
from parlance_i18n.code.frameworks.rails_ruby import KeyPart, LazyResolver, RubyCalls, lazy_resolvers
from parlance_i18n.code.model import FileScan, Hardcoded
from parlance_i18n.code.parsing import captures, node_text, parse

__all__ = ["Rails", "controller_scope", "view_scope"]

PLURAL_SEGMENTS = frozenset({"zero", "one", "two", "few", "many", "other"})
_VIEWS, _CONTROLLERS, _MAILERS = "app/views/", "app/controllers/", "app/mailers/"
_SNAKE = KeyStyle(".", "snake")


def _under(path: str, folder: str) -> str | None:
    """`path` after its last `folder` (`app/views/`, also inside an engine's tree), or None."""
    index = path.rfind(folder)
    if index < 0 or (index > 0 and path[index - 1] != "/"):
        return None
    return path[index + len(folder):]


def view_scope(path: str) -> str | None:
    """The scope a view's lazy keys live under (`users.index`), or None for a file outside app/views."""
    virtual = _under(path, _VIEWS)
    if not virtual:
        return None
    folder, _, name = virtual.rpartition("/")
    virtual = f"{folder}/{name.split('.', 1)[0]}" if folder else name.split(".", 1)[0]
    return re.sub(r"/_?", ".", virtual)


def controller_scope(path: str) -> str | None:
    """A controller's or mailer's `controller_path` in dots (`admin.users`), or None."""
    controller = _under(path, _CONTROLLERS)
    if controller is not None and controller.endswith("_controller.rb"):
        return controller[: -len("_controller.rb")].replace("/", ".")
    mailer = _under(path, _MAILERS)
    if mailer is not None and mailer.endswith(".rb"):
        return mailer[: -len(".rb")].replace("/", ".")
    return None


def _lazy_resolver(path: str) -> LazyResolver:
    view = view_scope(path) if path.endswith(".erb") else None
    if view is not None:
        return lambda key, call: KeyPart(view + key)
    controller = controller_scope(path)
    if controller is None:
        return lazy_resolvers(None)

    def in_action(key: str, call: Node) -> KeyPart:
        action = _enclosing_def(call)
        if action is None:  # a class-level call (a `before_action` block): the action is the request's
            return KeyPart(None, controller + ".")
        return KeyPart(f"{controller}.{action}{key}")

    return in_action


def _enclosing_def(node: Node) -> str | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "method":
            name = parent.child_by_field_name("name")
            return node_text(name) if name is not None else None
        parent = parent.parent
    return None


class Rails(Framework):
    name = "rails"
    extensions = (".rb", ".erb")
    default_paths = ("app/**/*.rb", "app/**/*.erb")

    def scan(self, path: str, data: bytes) -> FileScan:
        literals: list[Hardcoded] = []
        if path.endswith(".erb"):
            view = split(data)
            ruby = view.ruby
            literals = hardcoded(view, data)
        else:
            ruby = data
        root = parse("ruby", ruby).root_node
        calls = RubyCalls(data, _lazy_resolver(path))
        calls.read(root)
        return FileScan(tuple(calls.references), tuple(calls.dynamic), tuple(literals), _problems(root))

    def code_key(self, catalog_key: str) -> str:
        """`items.one` -> `items`: a plural form the YAML reader could not fold is called by its parent."""
        head, _, last = catalog_key.rpartition(".")
        return head if head and last in PLURAL_SEGMENTS else catalog_key

    def suggest_key(self, literal: Hardcoded, path: str, style: KeyStyle, taken: Collection[str]) -> str:
        """In a view, the full key its lazy lookup resolves to (`users.index.` + the text's words in
        snake_case), which `extraction` writes as `t(".words")`; elsewhere the base's key."""
        scope = view_scope(path) if path.endswith(".erb") else None
        if scope is None:
            return super().suggest_key(literal, path, style, taken)
        leaf = _SNAKE.key([], literal.text, ())
        key, n = f"{scope}.{leaf}", 2
        while key in taken:
            key, n = f"{scope}.{leaf}_{n}", n + 1
        return key

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        if not path.endswith(".erb"):
            raise ExtractionRefused(f"{path}: only ERB views are extracted; write the t call in Ruby by hand")
        start, end = literal.span.start_byte, literal.span.end_byte
        if not 0 <= start < end <= len(data):
            raise ExtractionRefused(f"{path}:{literal.span.line}: the literal's span is outside the file; scan again")
        scope = view_scope(path)
        if key.startswith(".") and scope is None:
            raise ExtractionRefused(f"{path}: {key!r} is a lazy key, which only a view under app/views resolves; "
                                    "give the full key")
        written = key
        if scope is not None and key.startswith(scope + ".") and "." not in key[len(scope) + 1:]:
            written = key[len(scope):]
        call = f'<%= t("{_ruby_string(written)}") %>'
        if literal.kind.startswith("html-attribute:") and data[start - 1:start] not in (b'"', b"'"):
            call = f'"{call}"'  # an unquoted value would end at the translation's first space
        return Extraction((Edit(start, end, call),), literal.text)


def _ruby_string(text: str) -> str:
    """`text` inside a double-quoted Ruby string (no interpolation)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("#", "\\#").replace("\n", "\\n")


def _problems(root: Node) -> tuple[str, ...]:
    if not root.has_error:
        return ()
    errors = captures("ruby", "(ERROR) @error", root).get("error", [])
    line = errors[0].start_point[0] + 1 if errors else root.start_point[0] + 1
    return (f"line {line}: a Ruby syntax error the parser recovered from; calls around it may be missed",)
