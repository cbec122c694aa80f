"""GNU gettext in Python: the calls `xgettext -L Python` extracts, read from the file's tree.

**Keywords.** A call is a reference when its function's name (`_`, or the last name of
`t.gettext`, as xgettext reads it) is a keyword: xgettext's own Python keywords, the context and
lazy variants Django and Babel add, `N_`, and the `keywords` option, each spelled as `xgettext -k`
takes it (`"_l"`, `"npgettext:1c,2,3"`, `"mark:1"`, `"tr:1,2t"`; `""` drops the defaults).
A name imported under another (`from django.utils.translation import pgettext_lazy as pl`) is
read as the keyword it names: at run time `pl(...)` looks the message up, so a catalog without it
is a finding (xgettext itself would skip the call; the docs say so).

**Keys.** The msgid, or msgctxt + U+0004 + msgid, as the PO catalog names entries
(`formats.po.scanner.CONTEXT_SEPARATOR`); a plural call's key is its singular msgid.
Only string literals make a key: implicit concatenation (`"a" "b"`) and `+` between literals are
one msgid, as xgettext reads them; escapes are decoded as Python 3 decodes them (the msgid the
program looks up). An f-string with an interpolation, a variable, or a `%`-formatted argument is a
`Dynamic`, with the literal text it starts with as its prefix.

Nothing is hard-coded in plain Python: which strings a user sees cannot be told from the code.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tree_sitter import Node

from parlance_i18n.code import parsing
from parlance_i18n.code.frameworks.base import Extraction, ExtractionRefused, Framework
from parlance_i18n.code.model import CONTEXT_SEPARATOR, Dynamic, FileScan, Hardcoded, Reference
from parlance_i18n.code.settings import SourceSettings

__all__ = ["DJANGO_KEYWORDS", "GETTEXT_KEYWORDS", "Gettext", "Keyword", "PythonCalls", "parse_keyword"]

@dataclass(frozen=True, slots=True)
class Keyword:
    """Which arguments of a call named `name` hold what (1-based positions, as `xgettext -k` counts)."""

    name: str
    singular: int = 1
    plural: int | None = None
    context: int | None = None
    domain: int | None = None
    """The text domain's argument (`dgettext(domain, msgid)`): not an xgettext notion, so never set by a spec."""
    total: int | None = None
    """`Nt`: the call matches only with exactly this many arguments."""


def parse_keyword(spec: str) -> Keyword:
    """A keyword from an `xgettext -k` spec: `name`, `name:1`, `name:1,2`, `name:1c,2`, `name:1,2,3t`
    (a quoted comment part, `name:1,"note"`, is accepted and ignored). ValueError names a bad spec."""
    name, _, positions = spec.partition(":")
    if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        raise ValueError(f"keyword {spec!r}: {name!r} is not a function name (as xgettext -k takes it: 'name:1c,2')")
    numbers: list[int] = []
    context = total = None
    for part in (p.strip() for p in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", positions) if positions):
        if part.startswith('"'):
            continue
        found = re.fullmatch(r"(\d+)([ct]?)", part)
        if found is None or int(found[1]) == 0:
            raise ValueError(f"keyword {spec!r}: {part!r} is not an argument position (1, 2, 1c for the context, "
                             "3t for the total)")
        if found[2] == "c":
            context = int(found[1])
        elif found[2] == "t":
            total = int(found[1])
        else:
            numbers.append(int(found[1]))
    if len(numbers) > 2:
        raise ValueError(f"keyword {spec!r}: at most two message positions (singular, plural)")
    singular = numbers[0] if numbers else 1
    plural = numbers[1] if len(numbers) > 1 else None
    return Keyword(name.rsplit(".", 1)[-1], singular, plural, context, None, total)


def _table(*specs: str | Keyword) -> dict[str, Keyword]:
    keywords = [parse_keyword(s) if isinstance(s, str) else s for s in specs]
    return {k.name: k for k in keywords}


_XGETTEXT_PYTHON = ("gettext", "ugettext", Keyword("dgettext", 2, domain=1), "ngettext:1,2", "ungettext:1,2",
                    Keyword("dngettext", 2, 3, domain=1), "_")
"""xgettext's own keywords for Python (0.21), dgettext's domain added."""

DJANGO_KEYWORDS = _table(*_XGETTEXT_PYTHON, "gettext_noop", "gettext_lazy", "ngettext_lazy:1,2", "pgettext:1c,2",
                         "npgettext:1c,2,3", "pgettext_lazy:1c,2", "npgettext_lazy:1c,2,3")
"""What `manage.py makemessages` reads in Python (its xgettext `--keyword`s, on top of xgettext's own)."""

GETTEXT_KEYWORDS = {**DJANGO_KEYWORDS, **_table(
    "N_", "ugettext_lazy", "ugettext_noop", "ungettext_lazy:1,2", "lazy_gettext", "lazy_pgettext:1c,2",
    Keyword("dpgettext", 3, context=2, domain=1), Keyword("dnpgettext", 3, 4, context=2, domain=1))}
"""Python's `gettext` module (3.8+: pgettext, dpgettext, ...), Django's and Babel's lazy variants, `N_`."""


def keyword_table(defaults: dict[str, Keyword], specs: Iterable[str] | None) -> dict[str, Keyword]:
    """`defaults` with the `keywords` option's specs on top; an empty spec drops the defaults (`xgettext -k`)."""
    specs = list(specs or ())
    table = {} if "" in specs else dict(defaults)
    for spec in specs:
        if spec:
            keyword = parse_keyword(spec)
            table[keyword.name] = keyword
    return table


_IMPORTS = """
(import_from_statement name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias))
"""

_CALL = """
(call function: [(identifier) @name (attribute attribute: (identifier) @name)]
      arguments: (argument_list) @arguments
      (#any-of? @name {names})) @call
"""


class PythonCalls:
    """The gettext calls of Python files under one keyword table (a file's import aliases added)."""

    def __init__(self, keywords: dict[str, Keyword]) -> None:
        self.keywords = keywords

    def scan(self, data: bytes) -> tuple[list[Reference], list[Dynamic], list[str]]:
        tree = parsing.parse("python", data)
        keywords = dict(self.keywords)
        for imported in parsing.matches("python", _IMPORTS, tree.root_node):
            original = parsing.node_text(imported["name"][0]).rsplit(".", 1)[-1]
            alias = parsing.node_text(imported["alias"][0])
            if original in self.keywords and alias not in self.keywords:
                keywords[alias] = self.keywords[original]
        references: list[Reference] = []
        dynamic: list[Dynamic] = []
        if not keywords:
            return references, dynamic, []
        names = " ".join(_quoted(name) for name in sorted(keywords))
        for match in parsing.matches("python", _CALL.format(names=names), tree.root_node):
            keyword = keywords[parsing.node_text(match["name"][0])]
            found = _read_call(keyword, match["call"][0], match["arguments"][0], data)
            if isinstance(found, Reference):
                references.append(found)
            elif found is not None:
                dynamic.append(found)
        problems = ["syntax errors: read as far as the parser recovered"] if tree.root_node.has_error else []
        return references, dynamic, problems


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _read_call(keyword: Keyword, call: Node, arguments: Node, data: bytes) -> Reference | Dynamic | None:
    positional, splat = _positional(arguments)
    if keyword.total is not None and (splat or len(positional) != keyword.total):
        return None
    needed = max(p or 0 for p in (keyword.singular, keyword.plural, keyword.context, keyword.domain))
    if len(positional) < needed:
        # Too few arguments: not this keyword's call (xgettext skips it), unless a *args fills them.
        return _dynamic(call, None, data) if splat else None
    msgid_node = positional[keyword.singular - 1]
    context = None
    if keyword.context is not None:
        context = string_value(positional[keyword.context - 1])
        if context is None:
            return _dynamic(call, None, data)
    domain = string_value(positional[keyword.domain - 1]) if keyword.domain is not None else None
    msgid = string_value(msgid_node)
    if msgid is None:
        prefix = static_prefix(msgid_node)
        if context is not None:
            prefix = context + CONTEXT_SEPARATOR + prefix
        return _dynamic(call, msgid_node, data, prefix, domain)
    if not msgid:
        return None  # "" is the PO header's msgid, never a message
    key = msgid if context is None else context + CONTEXT_SEPARATOR + msgid
    return Reference(key, parsing.span_of(msgid_node, data), domain, keyword.plural is not None, msgid)


def _positional(arguments: Node) -> tuple[list[Node], bool]:
    """The positional arguments in order, and whether a `*args` follows them (positions unknown from there)."""
    found: list[Node] = []
    for child in arguments.named_children:
        if child.type == "comment":
            continue
        if child.type == "list_splat":
            return found, True
        if child.type in ("keyword_argument", "dictionary_splat"):
            break
        found.append(child)
    return found, False


def _dynamic(call: Node, argument: Node | None, data: bytes, prefix: str = "",
             namespace: str | None = None) -> Dynamic:
    shown = parsing.node_text(argument if argument is not None else call)
    return Dynamic(shown[:200], parsing.span_of(argument if argument is not None else call, data), prefix, namespace)


def string_value(node: Node) -> str | None:
    """The text of a Python string expression whose value is fixed: a literal (not bytes, not an
    f-string with an interpolation), literals side by side, literals joined by `+`, in parentheses."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        return string_value(inner) if inner is not None else None
    if node.type == "concatenated_string":
        parts = [string_value(child) for child in node.named_children if child.type != "comment"]
        return None if any(p is None for p in parts) else "".join(p for p in parts if p is not None)
    if node.type == "binary_operator" and _operator(node) == "+":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return None
        first, second = string_value(left), string_value(right)
        return first + second if first is not None and second is not None else None
    if node.type != "string" or any(child.type == "interpolation" for child in node.children):
        return None
    return _literal(parsing.node_text(node))


def _operator(node: Node) -> str:
    operator = node.child_by_field_name("operator")
    return parsing.node_text(operator) if operator is not None else ""


def _literal(text: str) -> str | None:
    """One Python string literal's value, decoded exactly as Python does (an f-string without an
    interpolation is its text, `{{` read as `{`)."""
    prefix = re.match(r"[A-Za-z]*", text)
    letters = prefix[0].lower() if prefix else ""
    if "b" in letters:
        return None
    if letters in ("", "u") and "\\" not in text:  # the common case, without compiling anything
        body = text[len(letters):]
        quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
        if quote and len(body) >= 2 * len(quote) and body.endswith(quote):
            return body[len(quote):-len(quote)]
    if "f" in letters:
        text = text[: len(letters)].replace("f", "").replace("F", "") + text[len(letters):]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an invalid escape warns; Python keeps it as written
            value = ast.literal_eval(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(value, str):
        return None
    return value.replace("{{", "{").replace("}}", "}") if "f" in letters else value


def static_prefix(node: Node) -> str:
    """The literal text a key built at run time starts with: an f-string's text before its first
    interpolation, the left literal of `+`, a `%`-formatted or `.format`ted literal up to its first field."""
    if node.type == "string":
        interpolations = [c for c in node.children if c.type == "interpolation"]
        start = node.children[0] if node.children else None
        if interpolations and start is not None:
            quote = parsing.node_text(start).lstrip("fFrRuU")
            raw = (node.text or b"")[start.end_byte - node.start_byte:interpolations[0].start_byte - node.start_byte]
            letters = parsing.node_text(start)[: -len(quote)].replace("f", "").replace("F", "")
            return _literal(letters + quote + raw.decode("utf-8", "replace") + quote) or ""
        return ""
    if node.type == "binary_operator":
        left = node.child_by_field_name("left")
        if left is None:
            return ""
        value = string_value(left)
        if value is None:
            return static_prefix(left) if _operator(node) == "+" else ""
        return value if _operator(node) == "+" else value.split("%", 1)[0]
    if node.type == "call":
        function = node.child_by_field_name("function")
        if function is not None and function.type == "attribute":
            method, owner = function.child_by_field_name("attribute"), function.child_by_field_name("object")
            if method is not None and owner is not None and parsing.node_text(method) == "format":
                value = string_value(owner)
                return value.split("{", 1)[0] if value is not None else ""
    return ""


class Gettext(Framework):
    """GNU gettext in Python: `_`, `gettext`, `ngettext`, `pgettext`, ... as `xgettext -L Python` reads them."""

    name = "gettext"
    extensions: ClassVar[tuple[str, ...]] = (".py", ".pyi")
    default_paths: ClassVar[tuple[str, ...]] = ("**/*.py",)
    default_exclude: ClassVar[tuple[str, ...]] = ("**/tests/**", "**/test_*.py", "**/migrations/**")
    key_is_text = True
    default_keywords: ClassVar[dict[str, Keyword]] = GETTEXT_KEYWORDS

    def __init__(self, options: SourceSettings) -> None:
        super().__init__(options)
        self._calls: PythonCalls | None = None

    def python_calls(self) -> PythonCalls:
        """The calls this entry's keywords make references (its `keywords` parsed once, on first use)."""
        if self._calls is None:
            self._calls = PythonCalls(keyword_table(self.default_keywords, self.options.keywords))
        return self._calls

    def scan(self, path: str, data: bytes) -> FileScan:
        try:
            references, dynamic, problems = self.python_calls().scan(data)
        except ValueError as error:  # a bad `keywords` spec: said once per file, not raised
            return FileScan(problems=(str(error),))
        return FileScan(tuple(references), tuple(dynamic), (), tuple(problems))

    def extraction(self, path: str, data: bytes, literal: Hardcoded, key: str) -> Extraction:
        raise ExtractionRefused("Python code has no hard-coded strings to extract here (which strings a user sees "
                                "cannot be told from the code): wrap the string in _() by hand")
