"""The XLIFF format: reading each locale's texts from its units, rendering them as plain text.

Targets whose state is `new` or `needs-translation` (1.2) or `initial` (2.x) are not served:
`states` lists every unit's state, served or not. (XLIFF 2 makes a missing state mean `initial`;
tools omit it on finished translations, so only a written one counts.)

Rendering is plain text: an inline code prints its `equiv-text` (1.2) or `disp`, else `equiv` (2.x);
a 1.2 `<bpt>`/`<ept>`/`<ph>`/`<it>` without one prints the native code it holds; `<mrk>` prints its
content, `<sm/>`/`<em/>` nothing; any other element (`<x/>` without equiv-text, `<g>`, `<pc>`)
prints as written, its content rendered. A unit's `arguments` are the ids of its inline codes, so a
check can compare a translation's with its source's. Notes are `comment()`.

A unit carries its source beside its target (`carries_source`), and a 1.2 unit may say how long its
translation may be (`maxwidth` counted in characters: `max_lengths`).

What a framework writes inside units is the file's syntax (`syntaxes`): the format instance a file is
read with is bound to it (`for_file`: the catalog's `syntax`, else what the file shows). Symfony's
messages render their `%name%` / `{{ name }}` parameters and `|` plurals (`symfony`), and a write
Symfony would throw on is refused (`runtime_refusals`); `symfony-icu` and Angular units are ICU
messages, checked when read and rendered with their inline codes put back. Their parameters are
arguments as written (`%name%`, `{name}`) beside the inline codes' ids.
"""

from __future__ import annotations

import html
import re

from collections.abc import Callable

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFormat,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    Template,
    Value,
)
from parlance_i18n.formats.shared.messages import FixedText, TextMessages
from parlance_i18n.formats.shared.xmledit import split_markup
from parlance_i18n.formats.shared.limits import check_count
from parlance_i18n.formats.shared.xmltext import attributes, scan, unescape
from parlance_i18n.formats.xliff.document import XliffDocument
from parlance_i18n.formats.xliff.units import (
    CODE_WITH_CONTENT,
    UNSERVED_STATES,
    XLIFF_DOCTYPES,
    local,
    scan_units,
    unit_text,
)
from parlance_i18n.formats.xliff.symfony import PARAMETER, SymfonyMessage, is_plural, plural_refusals
from parlance_i18n.formats.xliff.syntaxes import (
    ANGULAR,
    ICU_SYNTAXES,
    SYMFONY,
    SYMFONY_ICU,
    compile_icu,
    resolve,
    set_codes_aside,
)
from parlance_i18n.icu.messageformat import MessageSyntaxError
from parlance_i18n.icu.plurals import plural_rules
from parlance_i18n.icu.syntax import validate
from parlance_i18n.locales import LocaleTag

__all__ = ["XliffFormat", "XliffMessages"]

_TRANSPARENT = frozenset({"mrk"})
_SILENT = frozenset({"sm", "em"})
_UNIT_TAG = re.compile(rb"<(?:[\w.-]+:)?trans-unit\b[^>]*>")
_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


# --- reading ---------------------------------------------------------------------------------------------


class XliffMessages(TextMessages[str]):
    """One XLIFF file's units for one locale: texts kept, rendered on first `get` in the file's syntax."""

    rejected = (ValueError,)  # MessageSyntaxError is one

    def __init__(self, version: int, syntax: str | None = None, tag: LocaleTag | None = None) -> None:
        super().__init__()
        self.version = version
        self.syntax = syntax
        self._tag = tag
        self.states: dict[str, str | None] = {}
        """Every unit's state (a 1.2 target's `state`, a 2.x segment's), served or not."""

    def _compile(self, key: str, text: str) -> Renderable:
        if self.syntax in ICU_SYNTAXES and self._tag is not None:
            return compile_icu(text, self.version, plural_rules(self._tag), lambda code: _shown(code, self.version),
                               symfony=self.syntax == SYMFONY_ICU)
        # plain text, inline codes shown as their equivalents; the codes' ids are its arguments
        shown, ids = _shown(text, self.version)
        if self.syntax == SYMFONY and self._tag is not None:
            return SymfonyMessage(text, shown, ids, self._tag)
        return FixedText(text, shown, ids)

    def _reason(self, key: str, error: Exception) -> str:
        return _icu_reason(error) if isinstance(error, MessageSyntaxError) else str(error)


def _icu_reason(error: MessageSyntaxError) -> str:
    return (f"is not a valid ICU message at position {error.position} (the inline codes counted as one "
            f"character each): {error.problem}")


def _icu_problem(text: str, version: int, syntax: str | None) -> str | None:
    """Why a unit's text is not the ICU message its syntax makes it, or None (the syntax alone, checked
    on reading as the ICU formats are; compiling waits for first use)."""
    if syntax not in ICU_SYNTAXES:
        return None
    aside, _ = set_codes_aside(text, version)
    if syntax == ANGULAR and "{" not in aside and "}" not in aside:
        return None
    error = validate(aside)
    return _icu_reason(error) if error is not None else None


def _read(data: bytes, tag: LocaleTag, limits: ReadLimits, syntax: str | None = None) -> XliffMessages:
    found = scan_units(scan(data, XLIFF_DOCTYPES, limits), tag)
    check_count(len(found.units), limits)
    file = found.file
    messages = XliffMessages(found.version, syntax, tag)
    messages.problems.extend(found.problems)
    for unit in found.units:
        state = unit.state
        messages.states[unit.key] = state
        text = unit_text(file, unit)
        if text is None or (unit.side == "target" and state in UNSERVED_STATES):
            continue
        problem = _icu_problem(text, found.version, syntax)
        if problem is not None:
            line = next((node.line for node in unit.text_nodes if node is not None), unit.node.line)
            messages.problems.append(Problem(unit.key, line, problem))
            continue
        messages.texts[unit.key] = text
        if unit.notes:
            messages.comments[unit.key] = "\n".join(unescape(file.content(note)).strip() for note in unit.notes)
    return messages


def _shown(value: str, version: int) -> tuple[str, frozenset[str]]:
    """How a value renders as plain text, and the ids of its inline codes."""
    if "<" not in value:
        return value, frozenset()
    out: list[str] = []
    ids: set[str] = set()
    open_pcs: list[dict[str, str]] = []  # a 2.x <pc>'s end shows the dispEnd its start tag carries
    opaque = CODE_WITH_CONTENT if version == 1 else frozenset()
    for kind, piece in split_markup(value, opaque=opaque):
        if kind == "text":
            out.append(piece)
            continue
        name_match = re.match(r"<(/?)([^\s/>]+)", piece)
        assert name_match is not None
        closing, name = name_match.group(1), local(name_match.group(2))
        start_tag = piece[:piece.index(">") + 1]
        found = attributes(start_tag) if not closing else {}
        if "id" in found and name not in _TRANSPARENT and name not in _SILENT:
            ids.add(found["id"])
        if name in _TRANSPARENT or name in _SILENT:
            continue
        if version == 1:
            if "equiv-text" in found:
                out.append(found["equiv-text"])
            elif name in CODE_WITH_CONTENT and not closing and piece.endswith(f"</{name_match.group(2)}>"):
                out.append(unescape(piece[len(start_tag):-len(name_match.group(2)) - 3]))
            else:
                out.append(piece)
        elif name == "pc" and not closing:
            if not piece.endswith("/>"):
                open_pcs.append(found)
            out.append(found.get("dispStart") or found.get("equivStart") or piece)
        elif name == "pc":
            started = open_pcs.pop() if open_pcs else {}
            out.append(started.get("dispEnd") or started.get("equivEnd") or piece)
        else:
            out.append(found.get("disp") or found.get("equiv") or piece)
    return "".join(out), frozenset(ids)


def _version_of(messages: LocaleMessages) -> int:
    return messages.version if isinstance(messages, XliffMessages) else 1


# --- the format ------------------------------------------------------------------------------------------

_INLINE_CODE = re.compile(r"<(?:[\w.-]+:)?(?:x|ph|bx|ex|it|sc|ec|sm|em|g|pc|bpt|ept)\b[^<>]*>")
_PLACEHOLDERS: dict[str | None, re.Pattern[str]] = {
    SYMFONY: re.compile(f"{_INLINE_CODE.pattern}|{PARAMETER.pattern}"),
    SYMFONY_ICU: re.compile(rf"{_INLINE_CODE.pattern}|\{{\s*[\w.-]+\s*\}}"),
}
"""What work items list for a translation to keep, by syntax: inline codes, and the syntax's parameters."""
_BOUND: dict[str | None, XliffFormat] = {}


def _bound(syntax: str | None) -> XliffFormat:
    """The one format instance of each syntax (None: the registry's own)."""
    if syntax is None:
        from parlance_i18n.formats import get

        found = get("xliff")
        assert isinstance(found, XliffFormat)
        return found
    if syntax not in _BOUND:
        _BOUND[syntax] = XliffFormat(syntax)
    return _BOUND[syntax]



class XliffFormat(CatalogFormat):
    """XLIFF 1.2 and 2.x: one file per target locale (or the source locale's view of one), read in the
    syntax its framework writes inside units (`syntax`: see `syntaxes`; None: plain text)."""

    carries_source = True
    limits_length = True
    rename_refusal = ("XLIFF unit ids come from the tool that extracts them, and a unit carries its source text: "
                      "rename the id there and extract again")

    def __init__(self, syntax: str | None = None) -> None:
        self.syntax = syntax
        self.placeholder_pattern = _PLACEHOLDERS.get(syntax, _INLINE_CODE)

    def for_file(self, file_name: str, syntax: str | None, head: Callable[[], bytes]) -> CatalogFormat:
        """Bound to the catalog's `syntax`, else to the one the file shows (`syntaxes.resolve`)."""
        super().for_file(file_name, syntax, head)
        return _bound(resolve(syntax, file_name, head))

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XliffMessages:
        return _read(data, tag, limits, self.syntax)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> XliffDocument:
        return XliffDocument(data, tag, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """The template's units with empty targets in state `new`, the target language set (`new_file`)."""
        from parlance_i18n.formats.xliff.new_file import new_xliff_file

        return new_xliff_file(tag, source_tag, template.data if template is not None else None)

    def sniff(self, head: bytes) -> bool:
        return b"<xliff" in head

    def placeholder(self, name: str) -> str:
        """A unit's arguments are the ids of its inline codes, and the parameters of its syntax as
        written (`%name%`, `{{ name }}`, an ICU `{name}`)."""
        if name[:1] in ("%", "{"):
            return f"the placeholder {name}"
        return f'the inline element id="{name}"'

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """Symfony: a `|` plural Symfony would throw on for some count, or whose forms it never shows
        (`symfony.plural_refusals`). The ICU syntaxes are checked as ICU by the shared checks (syntax,
        placeholders, the target locale's plural categories)."""
        text = written.text(key)
        if self.syntax != SYMFONY or not isinstance(text, str) or not isinstance(source, str):
            return []
        if not (is_plural(source) or is_plural(text)):
            return []
        return plural_refusals(_shown(text, _version_of(written))[0], tag)

    def max_lengths(self, data: bytes) -> dict[str, int]:
        """XLIFF 1.2's `maxwidth` of each `<trans-unit>` whose `size-unit` is `char` (the standard's
        default unit is the pixel, which cannot be counted here)."""
        if b"maxwidth" not in data:
            return {}
        found: dict[str, int] = {}
        for tag_match in _UNIT_TAG.finditer(data):
            named = {name.decode("ascii", "replace").rpartition(":")[2]:
                          html.unescape((double or single).decode("utf-8", "replace"))
                          for name, double, single in _ATTRIBUTE.findall(tag_match[0])}
            width, unit, unit_id = named.get("maxwidth"), named.get("size-unit"), named.get("id")
            if unit_id is not None and unit == "char" and width is not None and width.strip().isdigit():
                found.setdefault(unit_id, int(width))
        return found
