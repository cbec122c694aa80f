"""Hostile catalog files for every format the i18n pack reads, drawn from a seeded `random.Random`:
the generator behind `test_catalog_fuzz.py`.

`fuzz_cases(format, rng, outside)` returns what one run puts at the project's catalog files, round
after round. Every run covers every kind of case once (`KINDS`, then the format's own `specials`),
then draws more kinds at random. A case is one of:

- **bytes** of a valid file mutated: truncated at a random point, bytes flipped, invalid UTF-8
  spliced in, a BOM (UTF-8, UTF-16, UTF-32, twice) or a UTF-16 re-encoding, NUL bytes, empty,
  slices repeated or cut;
- **a document** written in the format's own syntax with hostile content: duplicated keys, deep
  nesting, messages near and past `max_message_chars`, a file near and past `max_file_chars`,
  `max_file_bytes` and `max_file_messages`, broken ICU / printf / i18next / Ruby / MessageFormat
  syntax inside values, hostile keys, lone surrogates;
- **something that is not a file**: a link out of the project (to a file of the same format full of
  SECRET, to a device, dangling, to itself), a link inside, a FIFO, a folder, nothing at all;
- **the format's own tricks** (`Syntax.specials`): XML entity expansion, external entities and
  XInclude pointing at the outside file, YAML alias bombs, recursive aliases and language tags,
  gettext plural expressions, i18next `$t()` recursion, stringsdict variables naming themselves, ...

The limits the documents are sized against are the ones `test_catalog_fuzz` writes into
parlance.toml (`LIMITS`): small, so every file stays a few kilobytes and a run stays fast.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

SECRET = "TOP-SECRET-outside-the-project"


@dataclass(frozen=True)
class Limits:
    """`[packs.i18n]` limits of the fuzzed project: small, so the files that pass them are small."""

    max_file_bytes: int = 8192
    max_file_messages: int = 24
    max_file_chars: int = 4096
    max_message_chars: int = 256
    max_output_chars: int = 512
    max_write_chars: int = 4096


LIMITS = Limits()


@dataclass(frozen=True)
class Placement:
    """What a round puts at a catalog file's path."""

    kind: str
    """"bytes", "symlink", "fifo", "folder" or "missing"."""
    data: bytes = b""
    link: str = ""
    """A symlink's target: an absolute path, or one relative to the link's folder."""


@dataclass(frozen=True)
class FuzzCase:
    name: str
    """What the case is, for a failure message."""
    placement: Placement
    on_source: bool = False
    """Put at the source locale's file instead of the target's (the target keeps the project's)."""
    keys: tuple[str, ...] = ()
    """Keys the generated file holds, for i18n_translate to ask."""


# --- hostile text -----------------------------------------------------------------------------------

ICU = ["{count, plural, one {# item", "{count, plural, other {#}", "{a, select, other {" * 40 + "x" + "}}" * 40,
       "{" * 300, "}" * 300, "{n, plural, offset:-3 =-1 {a} other {b}}",
       "{n, plural, =99999999999999999999999 {x} other {y}}", "{n, selectordinal, one {#st} other {#th}}",
       "{d, date, ::yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy}", "{n, number, ::currency/XXX scale/1e308}",
       "{n, number, ::precision-increment/0.00000000000000000001}", "{t, time, full}", "'{'unclosed quote",
       "''''", "<b>{name}</b", "<a><b></a></b>", "{name, unknown_type}", "{0}{1}{2}{99999999999}",
       "{count, plural, one {{count, plural, one {{count, plural, other {#}}} other {#}}} other {#}}",
       "{n, plural, other {#} other {#}}", "{a, select, x {y}}", "{n, plural, one {# item} other {# items}}"]
PRINTF = ["%", "100%", "%1$", "%99999$s", "%0$s", "%1$*2$d", "%.2147483648f", "%n", "%@%@%@%@%@%@%@%@",
          "%1$@ %1$d", "%#@var@", "%#@@", "%#@missing@", "%lllld", "%s %1$s", "%-+ #0999999999d", "%K", "%ls",
          "%2147483648$s", "%1$s %3$s"]
PYTHON = ["%(name", "%(name)q", "%(name)s %s", "%%%", "%(n)999999999d", "%*d", "{name}", "{0!r:>{1}}"]
I18NEXT = ["{{", "{{name", "{{- html}}", "{{val, number(minimumFractionDigits: 99)}}",
           "{{val, datetime(bogus: x)}}", "$t(", "$t(cart.empty)", "$t(fuzz.self)",
           '$t(cart.empty, {"count": $t(cart.empty)})', "$t(x, {broken json)", "{{count}} {{count, plural}}",
           "$t(cart.empty)" * 50]
RUBY = ["%{", "%{name", "%{}", "%<name>s", "%<name>q", "%{scope}", "%{default}", "%{count} %{count"]
JAVA = ["{0", "{0,choice,0#a|1#{0,choice,0#b}}", "{0,choice,", "{0,number,#,##0.00;(#)}", "{99999999999}", "{-1}",
        "'{0}", "''{0}''", "{0,date,yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy}", "{0,bogus}", "{ 0 }",
        "{0,choice,0#" * 30 + "x" + "}" * 30]
GENERIC = ["", " ", "\u202eevil\u202c", "\u0000nul", "\x1b[31mred", "\r\n\r", "\t", "a\nb\nc", "😀" * 10, "\ufeff",
           "\ufffe\uffff", "</resources>", "]]>", "<![CDATA[x", "&amp;&#0;&#xD800;&bogus;", "<!ENTITY x 'y'>", '"\\',
           "\\u00", "\\U", "'", "@string/cart_empty", "?attr/x", "!!python/object/apply:os.getcwd []", "*alias",
           "&anchor x", "<<: *base", 'msgid "x"\nmsgstr "evil"', "key=value\\", '"; "injected" = "x', "*/ /*",
           "#, fuzzy", "---\n...", "%s", "<x id=\"name\"/>", "<g id=\"b\">unclosed"]
"""Values every format gets: controls, bidi, markup and each other format's syntax (injection)."""

HOSTILE_KEYS = ["", " ", "../../outside", "__proto__", "constructor", "a.b.", ".a", "a..b", "@@locale", "@cart",
                "key\nnewline", "key\u0000nul", "<x>", "&amp;", '"', "'", "%s", "{x}", "ключ", "😀", "a/b", "a:b",
                "cart", "cart.empty.deeper", "cart_items", "$t(x)", "# not a comment", "!bang", "=eq", " lead",
                "trail ", "k" * (LIMITS.max_message_chars + 1), "K" * LIMITS.max_message_chars, "a\tb", "a=b:c d"]

LONG_VALUES = ["x" * (LIMITS.max_message_chars - 1), "x" * LIMITS.max_message_chars,
               "x" * (LIMITS.max_message_chars + 1), "я" * (LIMITS.max_message_chars + 1),
               "😀" * (LIMITS.max_message_chars // 2 + 1)]

SURROGATES = ["a\ud800b", "\udfff\ud800", "\ud83d", "x\udc00"]
"""Lone surrogates: each format writes them its own way (a JSON or `\\u` escape, or bytes that are no
UTF-8), and a server that serves one as it is cannot encode its answer."""


def hostile_values(syntax: Syntax, rng: random.Random, count: int) -> list[str]:
    pool = syntax.broken + GENERIC + LONG_VALUES
    return [rng.choice(pool) for _ in range(count)]


# --- escaping -----------------------------------------------------------------------------------------


def _js(text: str, ascii_only: bool = False) -> str:
    return json.dumps(text, ensure_ascii=ascii_only)


def _encode(text: str) -> bytes:
    """UTF-8, lone surrogates written as the three bytes UTF-8 refuses for them (CESU-8)."""
    return text.encode("utf-8", "surrogatepass")


def _xml(text: str, quote: bool = False) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def _android(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"').replace("\n", "\\n")
    if escaped[:1] in ("@", "?"):
        escaped = "\\" + escaped
    return _xml(escaped)


def _c_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _properties(text: str, key: bool = False) -> str:
    out = []
    for index, char in enumerate(text):
        if char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif key and char in " =:#!":
            out.append("\\" + char)
        elif not key and index == 0 and char == " ":
            out.append("\\ ")
        elif ord(char) > 0x7E or ord(char) < 0x20:
            if ord(char) > 0xFFFF:
                high, low = divmod(ord(char) - 0x10000, 0x400)
                out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
            else:
                out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


# --- the formats' syntaxes -------------------------------------------------------------------------------

Entries = list[tuple[str, str]]


@dataclass
class Syntax:
    """How to write one format: a document of entries, a deeply nested one, and its own tricks."""

    name: str
    target: str
    """The target (ru) file, relative to the project."""
    source: str
    """The source (en) file; the same as `target` for a file of every locale."""
    render: Callable[[Entries, str], bytes]
    """A file of `entries` for a locale, each key and value escaped as the format writes it."""
    deep: Callable[[int, str], bytes]
    """A file nested `depth` levels deep, in the format's own way."""
    specials: Callable[[str, str], list[tuple[str, bytes]]]
    """(name, file) of the format's own hostile constructs, for a locale and the outside file's path."""
    broken: list[str] = field(default_factory=list)
    """Values in the format's message syntax that are broken or extreme."""

    @property
    def single_file(self) -> bool:
        return self.target == self.source


def _json_object(pairs: list[tuple[str, str]]) -> str:
    """A JSON object of already written members: duplicates kept, as a hand-edited file has them."""
    return "{\n" + ",\n".join(f"  {key}: {value}" for key, value in pairs) + "\n}\n"


def _json_entries(entries: Entries) -> list[tuple[str, str]]:
    return [(_js(key), _js(value)) for key, value in entries]


def _deep_json(depth: int) -> str:
    return "[" * depth + '"x"' + "]" * depth if depth % 2 else '{"a": ' * depth + '"x"' + "}" * depth


def _json_specials(surrogate_member: str) -> list[tuple[str, bytes]]:
    """What every JSON format gets: escapes a parser may choke on, and what is not an object."""
    return [
        ("json lone surrogate escapes", ("{" + surrogate_member + "}").encode()),
        ("json root is a list", b'["a", "b"]'),
        ("json root is a string", b'"just a string"'),
        ("json null root", b"null"),
        ("json huge number", b'{"n": 1' + b"0" * 5000 + b"}"),
        ("json NaN and Infinity", b'{"a": NaN, "b": Infinity, "c": -Infinity}'),
        ("json comments and trailing comma", b'{/* c */ "a": "b", // x\n}'),
        ("json many duplicates of one key", ("{" + ", ".join(f'"k": "{i}"' for i in range(400)) + "}").encode()),
    ]


# icu-json

def _icu_json_render(entries: Entries, locale: str) -> bytes:
    return _encode(_json_object(_json_entries(entries)))


def _icu_json_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    deep_ast = '{"type": 0, "value": "x"}'
    for _ in range(300):
        deep_ast = '{"type": 6, "value": "c", "options": {"other": {"value": [' + deep_ast + "]}}}"
    return _json_specials('"cart.empty": "a\\ud800b", "cart.total": "\\udfff"') + [
        ("formatjs extracted with odd fields", b'{"cart.empty": {"defaultMessage": {"nested": 1}, '
                                              b'"description": ["x"]}, "cart.total": {"defaultMessage": null}}'),
        ("compiled AST with unknown types", b'{"cart.empty": [{"type": 99}], "cart.total": [{"type": 1}], '
                                           b'"order.status": [{"type": 0, "value": 5}]}'),
        ("compiled AST nested deep", ('{"cart.empty": [' + deep_ast + "]}").encode()),
        ("values of every JSON type", b'{"cart.empty": null, "cart.total": 5, "order.status": true, '
                                     b'"profile.welcome": [], "cart.greeting": {}}'),
        ("icu nested plurals past the depth a file may hold",
         _icu_json_render([("cart.empty", "{n, plural, other {" * 120 + "#" + "}}" * 120)], locale)),
        ("icu with a thousand options", _icu_json_render(
            [("cart.empty", "{n, plural, " + " ".join(f"={i} {{x}}" for i in range(600)) + " other {y}}")], locale)),
    ]


# i18next

def _i18next_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    return _json_specials('"cart": {"empty": "\\ud800", "total": "\\udc00x"}') + [
        ("i18next $t nesting itself", b'{"cart": {"empty": "$t(cart.empty)", "total": "$t(cart.total) $t(cart.total)"}}'),
        ("i18next $t nesting in a cycle", b'{"a": "$t(b)", "b": "$t(c)", "c": "$t(a)", '
                                          b'"cart": {"empty": "$t(a)", "total": "$t(b, {\\"count\\": 1})"}}'),
        ("i18next $t fan-out", ('{"l0": "x", ' + ", ".join(f'"l{i}": "' + f"$t(l{i - 1})" * 8 + '"'
                                                           for i in range(1, 12))
                                + ', "cart": {"empty": "$t(l11)"}}').encode()),
        ("i18next plural suffixes without other", b'{"cart": {"items_one": "x", "items_few": "y", "items_zero": "z", '
                                                  b'"items_0": "a", "items_plural": "b", "total_male_one": "c"}}'),
        ("i18next arrays, numbers, booleans, null", b'{"cart": {"empty": ["a", ["b", {"c": "d"}]], "total": 5, '
                                                    b'"greeting": true, "items_one": null}}'),
        ("i18next flat and nested keys that collide", b'{"cart.empty": "flat", "cart": {"empty": "nested", '
                                                      b'"empty.x": "both", "total": {"_one": "x"}}}'),
        ("i18next __proto__ and namespace separators", b'{"__proto__": {"polluted": "x"}, "ns:cart": "y", '
                                                       b'"cart": {"empty": "{{- html}} {{x, number(maximumFractionDigits'
                                                       b': 9999)}}"}}'),
    ]


# arb

def _arb_render(entries: Entries, locale: str) -> bytes:
    return _encode(_json_object([('"@@locale"', _js(locale)), *_json_entries(entries)]))


def _arb_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    return _json_specials('"@@locale": "ru", "cartEmpty": "\\ud800"') + [
        ("arb locale of another language", b'{"@@locale": "de", "cartEmpty": "Leer"}'),
        ("arb locale of every JSON type", b'{"@@locale": 5, "cartEmpty": "x"}'),
        ("arb locale that is no locale", b'{"@@locale": "not a locale!@@", "cartEmpty": "x"}'),
        ("arb metadata of the wrong shapes", b'{"@@locale": "ru", "cartEmpty": "x", "@cartEmpty": "string", '
                                             b'"cartTotal": "{amount}", "@cartTotal": {"placeholders": []}, '
                                             b'"cartGreeting": "{name}", "@cartGreeting": {"placeholders": '
                                             b'{"name": "x"}}}'),
        ("arb placeholder formats that do not exist", b'{"@@locale": "ru", "cartTotal": "{amount}", "@cartTotal": '
                                                      b'{"placeholders": {"amount": {"type": "int", "format": '
                                                      b'"compactCurrency", "optionalParameters": {"decimalDigits": '
                                                      b'-1, "symbol": [1]}}}}, "cartGreeting": "{d}", '
                                                      b'"@cartGreeting": {"placeholders": {"d": {"type": '
                                                      b'"DateTime", "format": "bogus"}}}}'),
        ("arb values of every JSON type", b'{"@@locale": "ru", "cartEmpty": 5, "cartTotal": null, '
                                          b'"orderStatus": [], "@": {}, "@@": 1, "@@@": "x"}'),
        ("arb plural and select without other", b'{"@@locale": "ru", "cartItems": "{count, plural, one{x}}", '
                                                b'"cartEmpty": "{g, select, male{x}}"}'),
    ]


# xcstrings

def _xcstrings_unit(value: str) -> str:
    return '{"stringUnit": {"state": "translated", "value": ' + _js(value) + "}}"


def _xcstrings_render(entries: Entries, locale: str) -> bytes:
    strings = [(_js(key), '{"localizations": {"en": ' + _xcstrings_unit(value) + ', "ru": '
                + _xcstrings_unit(value) + "}}") for key, value in entries]
    return _encode('{"sourceLanguage": "en", "version": "1.0", "strings": ' + _json_object(strings) + "}")


def _xcstrings_deep(depth: int, locale: str) -> bytes:
    nested = '{"stringUnit": {"state": "translated", "value": "x"}}'
    for index in range(depth):
        nested = '{"variations": {"' + ("plural" if index % 2 else "device") + '": {"other": ' + nested + "}}}"
    return _encode('{"sourceLanguage": "en", "version": "1.0", "strings": {"cart.empty": {"localizations": '
                   '{"en": ' + _xcstrings_unit("x") + ', "ru": ' + nested + "}}}}")


def _xcstrings_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    def file(strings: str, head: str = '"sourceLanguage": "en", "version": "1.0"') -> bytes:
        return ("{" + head + ', "strings": ' + strings + "}").encode()

    self_substitution = ('{"cart.items": {"localizations": {"ru": {"stringUnit": {"state": "translated", "value": '
                         '"%#@a@"}, "substitutions": {"a": {"argNum": 1, "formatSpecifier": "lld", "variations": '
                         '{"plural": {"other": {"stringUnit": {"state": "translated", "value": "%#@a@ %#@b@"}}}}}, '
                         '"b": {"argNum": 99999999999, "formatSpecifier": "@", "variations": {"plural": {"other": '
                         '{"stringUnit": {"state": "translated", "value": "%#@a@"}}}}}}}}}}')
    return _json_specials('"sourceLanguage": "en", "strings": {"cart.empty": {"localizations": {"ru": '
                          '{"stringUnit": {"state": "translated", "value": "\\ud800"}}}}}') + [
        ("xcstrings strings of the wrong types", file('[]')),
        ("xcstrings strings null", file("null")),
        ("xcstrings source language that is no locale", file("{}", '"sourceLanguage": "xx-@@-!", "version": 5')),
        ("xcstrings source language missing", file('{"cart.empty": {}}', '"version": "99.0"')),
        ("xcstrings units of every JSON type", file('{"cart.empty": {"localizations": {"ru": {"stringUnit": '
                                                    '{"state": "translated", "value": 5}}}}, "cart.total": '
                                                    '{"localizations": {"ru": {"stringUnit": null}}}, '
                                                    '"order.status": {"localizations": {"ru": []}}, '
                                                    '"cart.greeting": {"localizations": null}}')),
        ("xcstrings substitutions naming themselves", file(self_substitution)),
        ("xcstrings plural categories that do not exist", file(
            '{"cart.items": {"localizations": {"ru": {"variations": {"plural": {"bogus": {"stringUnit": {"state": '
            '"translated", "value": "x"}}, "other": {"stringUnit": {"state": "bogus-state", "value": "%lld"}}}}}}, '
            '"shouldTranslate": "yes", "extractionState": 7}}')),
    ]


# po

_PO_PLURALS = {"en": "nplurals=2; plural=(n != 1);",
               "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                     "(n%100<10 || n%100>=20) ? 1 : 2);"}


def _po_header(locale: str, plural_forms: str | None = None, charset: str = "UTF-8") -> str:
    forms = plural_forms if plural_forms is not None else _PO_PLURALS.get(locale, _PO_PLURALS["ru"])
    return ('msgid ""\nmsgstr ""\n' f'"Language: {locale}\\n"\n'
            f'"Content-Type: text/plain; charset={charset}\\n"\n' f'"Plural-Forms: {forms}\\n"\n\n')


def _po_render(entries: Entries, locale: str) -> bytes:
    body = "".join(f"msgid {_c_quoted(key)}\nmsgstr {_c_quoted(value)}\n\n" for key, value in entries)
    return _encode(_po_header(locale) + body)


def _po_deep(depth: int, locale: str) -> bytes:
    expression = "(" * depth + "n != 1" + ")" * depth
    return _encode(_po_header(locale, f"nplurals=2; plural={expression};")
                   + 'msgid "%(count)s item"\nmsgid_plural "%(count)s items"\nmsgstr[0] "a"\nmsgstr[1] "b"\n')


def _po_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    plural = 'msgid "%(count)s item"\nmsgid_plural "%(count)s items"\nmsgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] "c"\n'

    def with_forms(forms: str) -> bytes:
        return _encode(_po_header(locale, forms) + plural)

    return [
        ("po nplurals=0", with_forms("nplurals=0; plural=0;")),
        ("po nplurals in the millions", with_forms("nplurals=99999999; plural=n;")),
        ("po negative nplurals", with_forms("nplurals=-1; plural=n;")),
        ("po plural dividing by zero", with_forms("nplurals=2; plural=n/0;")),
        ("po plural modulo zero", with_forms("nplurals=2; plural=n%0;")),
        ("po plural out of range", with_forms("nplurals=2; plural=99;")),
        ("po plural that is code", with_forms("nplurals=2; plural=__import__('os').getcwd();")),
        ("po plural unbalanced", with_forms("nplurals=2; plural=(n==1?0:1;")),
        ("po plural shifting far", with_forms("nplurals=2; plural=n<<99999999;")),
        ("po plural ternaries nested deep", with_forms("nplurals=2; plural=" + "n?" * 400 + "1" + ":0" * 400 + ";")),
        ("po unknown charset", _encode(_po_header(locale, charset="NO-SUCH-CHARSET") + 'msgid "a"\nmsgstr "b"\n')),
        ("po charset UTF-16 over UTF-8 bytes", _encode(_po_header(locale, charset="UTF-16") + 'msgid "a"\nmsgstr "я"\n')),
        ("po KOI8-R declared, bytes that are not", _encode(_po_header(locale, charset="KOI8-R"))
         + b'msgid "a"\nmsgstr "\xff\xfe\x00"\n'),
        ("po msgstr indexes out of range", _encode(_po_header(locale) + 'msgid "a"\nmsgid_plural "as"\n'
                                                   'msgstr[99999] "x"\nmsgstr[-1] "y"\n')),
        ("po duplicate headers and entries", _encode(_po_header(locale) + _po_header(locale)
                                                     + 'msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n')),
        ("po obsolete, previous and context chaos", _encode(
            _po_header(locale) + '#~ msgid "a"\n#~ msgstr "b"\n#| msgid "c"\nmsgctxt ""\nmsgctxt "\\x04"\n'
            'msgid "d"\nmsgstr "e"\n#, fuzzy, c-format, python-brace-format, no-such-flag\nmsgid "%d {x}"\n'
            'msgstr "%s {y}"\n')),
        ("po unterminated strings and bare keywords", _encode(_po_header(locale) + 'msgid "a\nmsgstr\n"loose"\n'
                                                              'msgid_plural\nmsgstr[0 "x"\n')),
        ("po escapes of every kind", _encode(_po_header(locale) + 'msgid "a"\nmsgstr "\\x41\\777\\u1234\\z\\"\n')),
    ]


# android

def _android_render(entries: Entries, locale: str) -> bytes:
    lines = "".join(f'    <string name="{_xml(key, quote=True)}">{_android(value)}</string>\n' for key, value in entries)
    return _encode('<?xml version="1.0" encoding="utf-8"?>\n<resources>\n' + lines + "</resources>\n")


def _android_deep(depth: int, locale: str) -> bytes:
    return _encode('<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="cart_empty">'
                   + "<b>" * depth + "x" + "</b>" * depth + "</string>\n</resources>\n")


def _xml_specials(root: str, wrap: Callable[[str], str], outside: str) -> list[tuple[str, bytes]]:
    """What every XML format gets: `wrap(text)` puts raw markup where the format keeps a message."""
    laughs = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "' + f"&l{i - 1};" * 10 + '">' for i in range(1, 10))
    blowup = '<!ENTITY big "' + "x" * 3000 + '">'
    declaration = '<?xml version="1.0" encoding="utf-8"?>\n'

    def doc(body: str, doctype: str = "", head: str = declaration) -> bytes:
        return _encode(head + doctype + body)

    return [
        ("xml billion laughs", doc(wrap("&l9;"), f"<!DOCTYPE {root} [{laughs}]>\n")),
        ("xml quadratic blowup", doc(wrap("&big;" * 800), f"<!DOCTYPE {root} [{blowup}]>\n")),
        ("xml external entity to the outside file", doc(wrap("&xxe;"),
                                                         f'<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "file://{outside}">]>\n')),
        ("xml external parameter entity", doc(wrap("x"), f'<!DOCTYPE {root} [<!ENTITY % p SYSTEM "file://{outside}"> '
                                                          "%p;]>\n")),
        ("xml external DTD", doc(wrap("x"), f'<!DOCTYPE {root} SYSTEM "file://{outside}">\n')),
        ("xml XInclude of the outside file", doc(wrap(f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" '
                                                      f'href="file://{outside}" parse="text"/>'))),
        ("xml declared UTF-16, written UTF-8", doc(wrap("я"), head='<?xml version="1.0" encoding="UTF-16"?>\n')),
        ("xml declared an unknown encoding", doc(wrap("x"), head='<?xml version="1.0" encoding="no-such-codec"?>\n')),
        ("xml declared Latin-1, written UTF-8", doc(wrap("яü"), head='<?xml version="1.0" encoding="ISO-8859-1"?>\n')),
        ("xml 1.1 with control character references", doc(wrap("&#1;&#x1F;"), head='<?xml version="1.1"?>\n')),
        ("xml invalid character references", doc(wrap("&#0;&#xD800;&#x110000;&#99999999999;"))),
        ("xml processing instructions and odd comments", doc(wrap("<?php evil() ?><!-- -- -->x"))),
        ("xml CDATA ends twice", doc(wrap("<![CDATA[ a ]]> ]]>"))),
        ("xml undefined entity", doc(wrap("&nope;"))),
        ("xml many attributes", doc(wrap("<b " + " ".join(f'a{i}="{i}"' for i in range(400)) + "/>"))),
    ]


def _android_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    def resources(body: str) -> bytes:
        return _encode('<?xml version="1.0" encoding="utf-8"?>\n<resources>\n' + body + "\n</resources>\n")

    return _xml_specials("resources", lambda text: f'<resources><string name="cart_empty">{text}</string>'
                                                   "</resources>\n", outside) + [
        ("android plurals of odd quantities", resources(
            '<plurals name="cart_items"><item quantity="bogus">x</item><item quantity="one">a</item>'
            '<item quantity="one">b</item><item>c</item></plurals><plurals name="photos_count"/>')),
        ("android a reference to itself", resources('<string name="cart_empty">@string/cart_empty</string>'
                                                    '<string name="cart_total">@string/cart_empty</string>')),
        ("android variants, arrays and typed items", resources(
            '<string name="cart_empty" product="tablet">t</string><string name="cart_empty" product="phone">p</string>'
            '<string-array name="a"><item>@string/cart_empty</item></string-array>'
            '<item type="string" name="cart_total">i</item><item type="dimen" name="d">1dp</item>')),
        ("android names missing or empty", resources('<string>x</string><string name="">y</string>'
                                                     '<string name="a b/c">z</string>')),
        ("android formatted=false and xliff:g", resources(
            '<string name="cart_total" formatted="false">100% %s %</string><string name="cart_greeting" '
            'xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">Hi <xliff:g id="n" example="x">%1$s</xliff:g>'
            '<xliff:g>%2$s<xliff:g>%3$s</xliff:g></xliff:g></string>')),
        ("android root that is not resources", _encode('<?xml version="1.0"?>\n<manifest><resources>'
                                                       '<string name="a">x</string></resources></manifest>')),
        ("android resources nested in resources", resources('<resources><string name="a">x</string></resources>')),
    ]


# apple .strings

def _strings_render(entries: Entries, locale: str) -> bytes:
    return _encode("".join(f"{_c_quoted(key)} = {_c_quoted(value)};\n" for key, value in entries))


def _strings_deep(depth: int, locale: str) -> bytes:
    return _encode('"cart.empty" = ' + '{ "a" = ' * depth + '"x"' + "; }" * depth + ";\n")


def _strings_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    return [
        ("strings unterminated comment", b'"cart.empty" = "x";\n/* never closed'),
        ("strings unterminated string", b'"cart.empty" = "x;\n'),
        ("strings missing semicolon and equals", b'"cart.empty" "x"\n"cart.total" = "y"\n'),
        ("strings incomplete \\U escapes", b'"cart.empty" = "\\U";\n"cart.total" = "\\U12";\n'),
        ("strings lone surrogate escapes", b'"cart.empty" = "\\UD800";\n"cart.total" = "\\UDFFF\\UD800";\n'),
        ("strings unquoted keys and values", b"cart.empty = x;\ncart.total = $%^&;\n"),
        ("strings old-style plist", b'{ "cart.empty" = ( "a", { "b" = <0fbd77>; } ); }\n'),
        ("strings UTF-16 without BOM", '"cart.empty" = "Корзина";\n'.encode("utf-16-le")),
        ("strings UTF-16 of odd length", b"\xff\xfe" + '"a" = "b";'.encode("utf-16-le") + b"\x00"),
        ("strings UTF-32 BOM", b"\xff\xfe\x00\x00" + '"a" = "b";\n'.encode("utf-32-le")),
        ("strings XML plist", b'<?xml version="1.0"?>\n<plist><dict><key>a</key><string>b</string></dict></plist>\n'),
    ]


# stringsdict

def _plist(body: str) -> bytes:
    return _encode('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n' + body + "</dict>\n</plist>\n")


def _stringsdict_entry(key: str, format_key: str, variables: dict[str, dict[str, str]]) -> str:
    parts = [f"<key>{_xml(key)}</key><dict><key>NSStringLocalizedFormatKey</key><string>{_xml(format_key)}</string>"]
    for name, forms in variables.items():
        parts.append(f"<key>{_xml(name)}</key><dict><key>NSStringFormatSpecTypeKey</key>"
                     "<string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>lld</string>")
        parts += [f"<key>{_xml(category)}</key><string>{_xml(text)}</string>" for category, text in forms.items()]
        parts.append("</dict>")
    return "".join(parts) + "</dict>\n"


def _stringsdict_render(entries: Entries, locale: str) -> bytes:
    return _plist("".join(_stringsdict_entry(key, "%#@v@", {"v": {"one": value, "other": value}})
                          for key, value in entries))


def _stringsdict_deep(depth: int, locale: str) -> bytes:
    return _plist("<key>cart.items</key>" + "<dict><key>a</key>" * depth + "<string>x</string>" + "</dict>" * depth)


def _stringsdict_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    chain = {f"v{i}": {"other": f"%#@v{i + 1}@ %#@v{i + 1}@"} for i in range(40)}
    return _xml_specials("plist", lambda text: _plist(f"<key>cart.items</key><dict><key>NSStringLocalizedFormatKey"
                                                      f"</key><string>{text}</string></dict>").decode(), outside) + [
        ("stringsdict a variable naming itself", _plist(_stringsdict_entry("cart.items", "%#@a@",
                                                                           {"a": {"one": "%#@a@", "other": "%#@a@"}}))),
        ("stringsdict variables in a cycle", _plist(_stringsdict_entry("cart.items", "%#@a@",
                                                                       {"a": {"other": "%#@b@"}, "b": {"other": "%#@a@"}}))),
        ("stringsdict variables doubling 40 deep", _plist(_stringsdict_entry("cart.items", "%#@v0@", chain))),
        ("stringsdict missing format key and odd types", _plist(
            "<key>cart.items</key><dict><key>items</key><dict><key>NSStringFormatSpecTypeKey</key><string>Bogus"
            "</string><key>NSStringFormatValueTypeKey</key><string>lld%</string><key>other</key><integer>5</integer>"
            "</dict></dict><key>photos.count</key><array><true/><data>AAAA</data><date>2001-01-01T00:00:00Z</date>"
            "</array><key>x</key><string>plain</string>")),
        ("stringsdict binary plist", b"bplist00" + bytes(range(256)) * 4),
        ("stringsdict root is an array", _encode('<?xml version="1.0"?>\n<plist version="1.0"><array><string>x'
                                                 "</string></array></plist>\n")),
        ("stringsdict keys without values", _plist("<key>a</key><key>b</key><key>c</key>")),
    ]


# yaml

def _yaml_render(entries: Entries, locale: str) -> bytes:
    return _encode(f"{locale}:\n" + "".join(f"  {_js(key)}: {_js(value)}\n" for key, value in entries))


def _yaml_deep(depth: int, locale: str) -> bytes:
    if depth % 2:
        return _encode(f"{locale}:\n  cart:\n    empty: " + "[" * depth + "x" + "]" * depth + "\n")
    return _encode(f"{locale}:\n  cart:\n    empty: " + "{a: " * depth + "x" + "}" * depth + "\n")


def _yaml_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    bomb = "".join(f"  l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))

    def doc(text: str) -> bytes:
        return _encode(text)

    return [
        ("yaml alias bomb", doc(f"{locale}:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + bomb
                                + "  cart:\n    empty: *l9\n")),
        ("yaml recursive sequence", doc(f"{locale}:\n  cart:\n    empty: &a [x, *a]\n")),
        ("yaml recursive mapping", doc(f"{locale}: &r\n  cart: *r\n  x: {{y: *r}}\n")),
        ("yaml alias to the whole file", doc(f"{locale}: &root\n  cart:\n    empty: x\n  copy: *root\n  more: *root\n")),
        ("yaml python tags", doc(f"{locale}:\n  cart:\n    empty: !!python/object/apply:os.getcwd []\n"
                                 "    total: !!python/name:os.getcwd\n")),
        ("yaml ruby and custom tags", doc(f"{locale}:\n  cart:\n    empty: !ruby/object:Foo {{a: 1}}\n"
                                          "    total: !custom x\n    greeting: !<tag:yaml.org,2002:str> y\n")),
        ("yaml core tags of every kind", doc(f"{locale}:\n  cart:\n    empty: !!binary aGVsbG8=\n    total: !!set {{a, b}}\n"
                                             "    greeting: !!timestamp 2001-12-14\n    items: !!float .nan\n"
                                             "    x: !!int 0x_\n")),
        ("yaml merge keys", doc(f"base: &b {{empty: x}}\n{locale}:\n  cart:\n    <<: *b\n    <<: [*b, *b]\n")),
        ("yaml keys that are not strings", doc(f"{locale}:\n  1: one\n  ~: null\n  true: yes\n  3.14: pi\n"
                                               "  2001-01-01: date\n  ? [a, b]\n  : list\n  ? {{a: 1}}\n  : map\n")),
        ("yaml two documents", doc(f"---\n{locale}:\n  cart:\n    empty: a\n---\n{locale}:\n  cart:\n    empty: b\n")),
        ("yaml root of every kind", doc("- a\n- b\n")),
        ("yaml root scalar", doc("just text\n")),
        ("yaml directives", doc("%YAML 1.1\n%TAG ! tag:evil.example,2000:\n---\n" + f"{locale}:\n  cart: !x y\n")),
        ("yaml tabs for indentation", doc(f"{locale}:\n\tcart:\n\t\tempty: x\n")),
        ("yaml another locale's root", doc("de:\n  cart:\n    empty: Leer\n")),
        ("yaml values of every kind", doc(f"{locale}:\n  cart:\n    empty: [a, b]\n    total: 5\n    greeting: ~\n"
                                          "    items: {{one: 1, other: [x]}}\n")),
        ("yaml undefined alias", doc(f"{locale}:\n  cart:\n    empty: *nope\n")),
        ("yaml lone surrogate escape", doc(f'{locale}:\n  cart:\n    empty: "\\ud800"\n    total: "\\udfff"\n')),
    ]


# xliff

def _xliff_render(entries: Entries, locale: str) -> bytes:
    target = locale != "en"
    units = "".join(f'      <trans-unit id="{_xml(key, quote=True)}">\n        <source>{_xml(value)}</source>\n'
                    + (f"        <target>{_xml(value)}</target>\n" if target else "") + "      </trans-unit>\n"
                    for key, value in entries)
    language = f' target-language="{locale}"' if target else ""
    return _encode('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" '
                   'xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en"'
                   f'{language} datatype="plaintext" original="messages">\n    <body>\n{units}    </body>\n'
                   "  </file>\n</xliff>\n")


def _xliff_unit(target: str, source: str = "Your cart is empty", unit: str = 'id="cart.empty"') -> str:
    return f"<trans-unit {unit}><source>{source}</source><target>{target}</target></trans-unit>"


def _xliff_file(body: str, locale: str) -> str:
    return ('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" '
            f'target-language="{locale}" datatype="plaintext" original="m"><body>{body}</body></file></xliff>\n')


def _xliff_deep(depth: int, locale: str) -> bytes:
    if depth % 2:
        return _encode('<?xml version="1.0"?>\n' + _xliff_file(_xliff_unit('<g id="g">' * depth + "x" + "</g>" * depth),
                                                               locale))
    return _encode('<?xml version="1.0"?>\n' + _xliff_file("<group>" * depth + _xliff_unit("x") + "</group>" * depth,
                                                           locale))


def _xliff_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    def doc(body: str) -> bytes:
        return _encode('<?xml version="1.0" encoding="UTF-8"?>\n' + _xliff_file(body, locale))

    return _xml_specials("xliff", lambda text: _xliff_file(_xliff_unit(text), locale), outside) + [
        ("xliff 2.0", _encode('<?xml version="1.0"?>\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:'
                              f'2.0" srcLang="en" trgLang="{locale}"><file id="f"><unit id="cart.empty"><segment>'
                              "<source>a</source><target>b</target></segment></unit></file></xliff>\n")),
        ("xliff version that does not exist", _encode('<?xml version="1.0"?>\n<xliff version="9.9"><file/></xliff>')),
        ("xliff units without ids and twice the same", doc(_xliff_unit("a", unit="") + _xliff_unit("b")
                                                           + _xliff_unit("c"))),
        ("xliff inline elements a thousand times", doc(_xliff_unit('<x id="name"/>' * 1000))),
        ("xliff inline elements of every kind", doc(_xliff_unit(
            '<bx id="1"/><ex id="2"/><ph id="3">&lt;b&gt;</ph><mrk mtype="x">' * 20 + "y" + "</mrk>" * 20
            + '<x id="' + "i" * 300 + '"/><unknown a="1"/><g id="b">open', source='Order <x id="id"/>'))),
        ("xliff widths that are not numbers", doc(_xliff_unit("x", unit='id="cart.title" maxwidth="-1" size-unit="bogus"')
                                                  + _xliff_unit("y", unit='id="cart.empty" maxwidth="9' + "9" * 400 + '"'))),
        ("xliff another target language and two files", _encode(
            '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
            '<file source-language="en" target-language="de" original="a"><body>' + _xliff_unit("a") + "</body></file>"
            '<file source-language="xx" target-language="ru" original="a"><body>' + _xliff_unit("b") + "</body></file>"
            "</xliff>\n")),
        ("xliff namespace of another document", _encode('<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:evil">'
                                                        "<file><body>" + _xliff_unit("x") + "</body></file></xliff>")),
    ]


# properties

def _properties_render(entries: Entries, locale: str) -> bytes:
    return _encode("".join(f"{_properties(key, key=True)}={_properties(value)}\n" for key, value in entries))


def _properties_deep(depth: int, locale: str) -> bytes:
    return _encode("cart.empty=" + "{0,choice,0#" * depth + "x" + "}" * depth + "\n")


def _properties_specials(locale: str, outside: str) -> list[tuple[str, bytes]]:
    return [
        ("properties continuation at the end", b"cart.empty=x\\"),
        ("properties continuation of continuations", b"cart.empty=" + b"a\\\n" * 2000 + b"b\n"),
        ("properties truncated unicode escapes", b"cart.empty=\\u12\ncart.total=\\uZZZZ\norder.status=\\u\n"),
        ("properties lone surrogate escapes", b"cart.empty=\\ud800\ncart.total=\\udfff\\ud800\n"),
        ("properties lines without separators", b"cart.empty\n=\n:\n   \n\\\n!comment\\\ncart.total x y\n"),
        ("properties Latin-1 bytes", b"cart.empty=caf\xe9 \xff\xfe\n"),
        ("properties keys of escapes only", b"\\ \\=\\:=x\n\\u0000=nul\n"),
        ("properties MessageFormat quoting", b"cart.empty='{0}' ''{0}'' '\ncart.total={0,number,#,##0.00;(#)}\n"),
    ]


SYNTAXES: dict[str, Syntax] = {syntax.name: syntax for syntax in [
    Syntax("icu-json", "lang/ru.json", "lang/en.json", _icu_json_render,
           lambda depth, locale: _encode('{"cart.empty": "x", "deep": ' + _deep_json(depth) + "}"),
           _icu_json_specials, ICU),
    Syntax("i18next", "locales/ru/translation.json", "locales/en/translation.json", _icu_json_render,
           lambda depth, locale: _encode('{"cart": ' + '{"a": ' * depth + '"x"' + "}" * depth + "}"),
           _i18next_specials, I18NEXT),
    Syntax("arb", "l10n/app_ru.arb", "l10n/app_en.arb", _arb_render,
           lambda depth, locale: _encode(f'{{"@@locale": "{locale}", "cartEmpty": "x", "@cartEmpty": '
                                         + _deep_json(depth) + "}"),
           _arb_specials, ICU),
    Syntax("po", "locale/ru/LC_MESSAGES/messages.po", "locale/en/LC_MESSAGES/messages.po", _po_render, _po_deep,
           _po_specials, PYTHON + PRINTF),
    Syntax("android", "res/values-ru/strings.xml", "res/values/strings.xml", _android_render, _android_deep,
           _android_specials, PRINTF),
    Syntax("yaml", "config/locales/ru.yml", "config/locales/en.yml", _yaml_render, _yaml_deep, _yaml_specials, RUBY),
    Syntax("xliff", "translations/ru.xlf", "translations/en.xlf", _xliff_render, _xliff_deep, _xliff_specials,
           ['<x id="name"/>', "<x/>", '<g id="b">unclosed', "&lt;b&gt;"]),
    Syntax("properties", "i18n/messages_ru.properties", "i18n/messages_en.properties", _properties_render,
           _properties_deep, _properties_specials, JAVA),
    Syntax("apple-strings", "ru.lproj/Localizable.strings", "en.lproj/Localizable.strings", _strings_render,
           _strings_deep, _strings_specials, PRINTF),
    Syntax("stringsdict", "ru.lproj/Localizable.stringsdict", "en.lproj/Localizable.stringsdict",
           _stringsdict_render, _stringsdict_deep, _stringsdict_specials, PRINTF),
    Syntax("xcstrings", "Localizable.xcstrings", "Localizable.xcstrings", _xcstrings_render, _xcstrings_deep,
           _xcstrings_specials, PRINTF),
]}


# --- cases ----------------------------------------------------------------------------------------------

INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80\x80",
                b"\xe2\x82", b"\xf8\x88\x80\x80\x80"]
BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xef\xbb\xbf" * 2]


def _keys(rng: random.Random, count: int) -> list[str]:
    return [f"fuzz.k{rng.randrange(10**6)}.{index}" for index in range(count)]


def _byte_case(kind: str, data: bytes, rng: random.Random) -> bytes:
    """`data` mutated the way `kind` names."""
    size = len(data)
    if kind == "truncated":
        return data[: rng.randrange(max(size, 1))]
    if kind == "bytes flipped":
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if mutated:
                mutated[rng.randrange(len(mutated))] ^= rng.randrange(1, 256)
        return bytes(mutated)
    if kind == "invalid UTF-8":
        at = rng.randrange(size + 1)
        return data[:at] + rng.choice(INVALID_UTF8) + data[at:]
    if kind == "BOM":
        if rng.random() < 0.3:
            return rng.choice([b"\xff\xfe", b"\xfe\xff", b""]) + data.decode("utf-8", "replace").encode(
                rng.choice(["utf-16-le", "utf-16-be"]))
        return rng.choice(BOMS) + data
    if kind == "NUL bytes":
        if rng.random() < 0.2:
            return b"\x00" * rng.randint(1, 512)
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            mutated.insert(rng.randrange(len(mutated) + 1), 0)
        return bytes(mutated)
    if kind == "empty":
        return rng.choice([b"", b" ", b"\n", b"\r\n\t "])
    if kind == "slices repeated or cut":
        start = rng.randrange(size + 1)
        end = rng.randrange(start, size + 1)
        return data[:start] + data[end:] if rng.random() < 0.5 else data[:end] + data[start:end] * 3 + data[end:]
    raise AssertionError(kind)


BYTE_KINDS = ["truncated", "bytes flipped", "invalid UTF-8", "BOM", "NUL bytes", "empty", "slices repeated or cut"]
DOCUMENT_KINDS = ["duplicated keys", "deep nesting", "messages near and past max_message_chars",
                  "near and past max_file_chars", "near and past max_file_bytes", "near and past max_file_messages",
                  "broken message syntax", "hostile keys", "lone surrogates"]
FILE_KINDS = ["link out of the project to a file", "link to a device or nowhere", "link inside the project", "FIFO",
              "folder", "missing"]
KINDS = BYTE_KINDS + DOCUMENT_KINDS + FILE_KINDS


def _document_case(kind: str, syntax: Syntax, locale: str, rng: random.Random) -> tuple[bytes, list[str]]:
    """A file of `kind` in the format's syntax, and the keys it holds."""
    limits = LIMITS
    if kind == "duplicated keys":
        keys = _keys(rng, 3)
        entries = [(rng.choice(keys), f"value {index}") for index in range(rng.randint(4, 12))]
        entries += [("cart.empty", "one"), ("cart.empty", "two")]
        return syntax.render(entries, locale), keys
    if kind == "deep nesting":
        return syntax.deep(rng.choice([63, 64, 500, 999, 1000, 1001, 2001, 2500]), locale), ["cart.empty", "deep"]
    if kind == "messages near and past max_message_chars":
        keys = _keys(rng, len(LONG_VALUES))
        return syntax.render(list(zip(keys, LONG_VALUES, strict=True)), locale), keys
    if kind == "near and past max_file_chars":
        keys = _keys(rng, 4)
        each = (limits.max_file_chars + rng.choice([-40, 0, 1, 40])) // len(keys) - 20
        return syntax.render([(key, "c" * each) for key in keys], locale), keys
    if kind == "near and past max_file_bytes":
        keys = _keys(rng, 2)
        data = syntax.render([(key, "b" * 100) for key in keys], locale)
        padding = limits.max_file_bytes - len(data) + rng.choice([-1, 0, 1, 2000])
        return data + b"\n" * max(padding, 0), keys
    if kind == "near and past max_file_messages":
        keys = _keys(rng, limits.max_file_messages + rng.choice([-1, 0, 1, 60]))
        return syntax.render([(key, "m") for key in keys], locale), keys
    if kind == "broken message syntax":
        keys = _keys(rng, 6)
        return syntax.render(list(zip(keys, hostile_values(syntax, rng, len(keys)), strict=True)), locale), keys
    if kind == "hostile keys":
        keys = rng.sample(HOSTILE_KEYS, 8)
        return syntax.render([(key, "v") for key in keys], locale), keys
    if kind == "lone surrogates":
        keys = _keys(rng, len(SURROGATES))
        return syntax.render(list(zip(keys, SURROGATES, strict=True)), locale), keys
    raise AssertionError(kind)


def _file_case(kind: str, syntax: Syntax, outside: str, rng: random.Random) -> Placement:
    if kind == "link out of the project to a file":
        return Placement("symlink", link=outside)
    if kind == "link to a device or nowhere":
        return Placement("symlink", link=rng.choice(["/dev/zero", "/dev/urandom", "/proc/self/environ",
                                                     outside + ".created-through-a-link", "loop"]))
    if kind == "link inside the project":
        return Placement("symlink", link="inside")
    return Placement({"FIFO": "fifo", "folder": "folder", "missing": "missing"}[kind])


def fuzz_cases(fmt: str, rng: random.Random, outside: str, valid: bytes, *, extra: int = 4,
               count: int = 0) -> list[FuzzCase]:
    """Cases for `fmt`: one of every kind and every special, then `extra` more drawn at random (or as
    many as make `count`), in the order a run puts them at the catalog files. `valid` is the project's
    own target file, mutated byte-wise; `outside` the absolute path of a file of the format outside
    the project."""
    syntax = SYNTAXES[fmt]
    specials = syntax.specials("ru", outside)
    plan: list[str | tuple[str, bytes]] = [*KINDS, *specials]
    for _ in range(max(count - len(plan), 0) if count else extra):
        plan.append(rng.choice(KINDS) if rng.random() < 0.7 else rng.choice(specials))
    rng.shuffle(plan)  # a case follows a different one in every run: what one leaves behind meets another
    cases = []
    for step in plan:
        on_source = not syntax.single_file and rng.random() < 0.25
        locale = "en" if on_source else "ru"
        if isinstance(step, tuple):
            name, data = step
            if on_source:  # the specials are written for the target: keep them there
                on_source = False
            cases.append(FuzzCase(name, Placement("bytes", data), keys=("cart.empty", "cart.items")))
        elif step in BYTE_KINDS:
            base = valid if rng.random() < 0.5 else _document_case(rng.choice(DOCUMENT_KINDS), syntax, locale, rng)[0]
            cases.append(FuzzCase(step, Placement("bytes", _byte_case(step, base, rng)), on_source))
        elif step in DOCUMENT_KINDS:
            data, keys = _document_case(step, syntax, locale, rng)
            cases.append(FuzzCase(step, Placement("bytes", data), on_source, tuple(keys)))
        else:
            cases.append(FuzzCase(step, _file_case(step, syntax, outside, rng), on_source))
    return cases


def secret_file(fmt: str, keys: list[str]) -> bytes:
    """A valid file of `fmt` outside the project, every message SECRET: served through a link, it would
    show in an answer."""
    return SYNTAXES[fmt].render([(key, SECRET) for key in keys], "ru")
