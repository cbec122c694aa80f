"""gettext PO/POT catalogs: read as GNU gettext reads them, render as `gettext`/`ngettext` return
them, edit without disturbing a byte that was not asked to change.

Keys are what gettext itself looks up: the `msgid`, or `msgctxt + "\\x04" + msgid` when the entry
has a context (the convention of `.mo` files). The header (`msgid ""`) is not a message.

Reading (`PoFormat.read`) decodes the text by the header's `charset` (UTF-8 by default) and
matches each entry written as gettext tools write it with one regex, in C; any other stretch, up to
the next blank line, goes to the line scanner (`po.scanner.scan`, the reference for what a PO file
means, which editing uses throughout). No object per line; what is kept per message is the
translation text (a str, or a tuple of plural forms), compiled on first `get`. Like `msgfmt`, it
leaves out fuzzy entries (`fuzzy_keys`), untranslated ones (`untranslated_keys`) and obsolete `#~`
ones. A broken entry (bad quoting, unknown keyword, a duplicate, a plural with the wrong number of
forms) becomes a `Problem`; the scanner resyncs at the next entry and the rest of the file loads.

Rendering (`po.render`) follows GNU gettext, not ICU: braces and apostrophes are plain text; a
plural picks `msgstr[i]` by the file's own `Plural-Forms`, n = `values["count"]`; `python-format`
entries are interpolated as `msgstr % values` would be; `c-format` and unflagged ones are returned
as written.

Editing (`PoFormat.edit`, `po.document`) splices only the `msgstr` lines of the entry set, written
the way the file writes strings, in its charset, BOM and line endings.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from parlance_i18n.formats.base import (
    DEFAULT_READ_LIMITS,
    CatalogFormat,
    Document,
    LocaleMessages,
    Problem,
    ReadLimits,
    Renderable,
    SourceText,
    Template,
    Value,
)
from parlance_i18n.formats.po.render import (
    GERMANIC,
    PluralChoice,
    PoPlural,
    PoText,
    Unrenderable,
    compile_python_format,
    plural_forms,
)
from parlance_i18n.formats.po.scanner import (
    CONTEXT_SEPARATOR,
    ENTRY,
    MSGSTR_SPLIT,
    UTF8_BOM,
    Raw,
    Unreadable,
    charset_codec,
    decode,
    first_guess,
    header_charset,
    parse_field,
    parse_flags,
    parse_header,
    scan,
    shown_key,
)
from parlance_i18n.formats.shared.limits import check_text, too_many_messages
from parlance_i18n.formats.shared.placeholders import printf_placeholders
from parlance_i18n.formats.shared.spelling import locale_or_none
from parlance_i18n.locales import LocaleTag

if TYPE_CHECKING:  # the editor loads when a file is edited, not when it is read
    from parlance_i18n.formats.po.document import PoDocument

__all__ = ["PoFormat", "PoMessages"]

_SURROGATE = re.compile("[\udc80-\udcff]")


# --- reading ------------------------------------------------------------------------------------------------


class PoMessages(LocaleMessages):
    """One PO file's translations for one locale, as `msgfmt` would compile them.

    Served: translated, non-fuzzy, non-obsolete entries. Known but not served: `fuzzy_keys`,
    `untranslated_keys` (empty msgstr, or a plural with an empty form). `header` holds the header
    fields; `nplurals` and `plural_expression` the Plural-Forms in use.
    """

    def __init__(self, tag: LocaleTag) -> None:
        self.problems: list[Problem] = []
        self.fuzzy_keys: set[str] = set()
        self.untranslated_keys: set[str] = set()
        self.header: dict[str, str] = {}
        self.nplurals = 2
        self.plural_expression = GERMANIC
        self._tag = tag
        self._texts: dict[str, str | tuple[str, ...]] = {}
        self._lines = array("I")  # each served key's line, in `_texts` order
        self._python: set[str] = set()
        self._c_format: set[str] = set()
        self._comments: dict[str, str] = {}
        self._plural_ids: dict[str, str] = {}
        self._compiled: dict[str, Any] = {}
        self._invalid: set[str] = set()
        self._positions: dict[str, int] | None = None
        self._choice = PluralChoice(GERMANIC, 2, tag)

    def text(self, key: str) -> Value | None:
        text = self._texts.get(key)
        if text is None or key in self._invalid:
            return None
        if text.__class__ is tuple:
            return {str(i): form for i, form in enumerate(text)}
        return text  # type: ignore[return-value]

    def source_text(self, key: str) -> Value | None:
        """The source the file carries for a served key: its msgid, or {"0": msgid, "1": msgid_plural}."""
        if key not in self._texts or key in self._invalid:
            return None
        msgid = key.rpartition(CONTEXT_SEPARATOR)[2]
        if key in self._plural_ids:
            return {"0": msgid, "1": self._plural_ids[key]}
        return msgid

    def is_python_format(self, key: str) -> bool:
        return key in self._python

    def is_c_format(self, key: str) -> bool:
        return key in self._c_format

    def get(self, key: str, default: Any = None) -> Any:
        found = self._compiled.get(key)
        if found is not None:
            return found
        text = self._texts.get(key)
        if text is None or key in self._invalid:
            return default
        try:
            found = self._compile(key, text)
        except Unrenderable as invalid:
            self._invalid.add(key)
            self.problems.append(Problem(key, self.line_of(key), str(invalid)))
            return default
        self._compiled[key] = found
        return found

    def _compile(self, key: str, text: str | tuple[str, ...]) -> Any:
        python = key in self._python
        if text.__class__ is str:
            return compile_python_format(text) if python else PoText(text)
        forms: tuple[str, ...] = text  # type: ignore[assignment]
        compiled = tuple(compile_python_format(form) if python else PoText(form) for form in forms)
        return PoPlural(forms, compiled, self._choice)

    def comment(self, key: str) -> str | None:
        return self._comments.get(key)

    def line_of(self, key: str) -> int | None:
        """The 1-based line of a served key's entry (msgctxt or msgid); an index is built on first call."""
        if self._positions is None:
            self._positions = {k: i for i, k in enumerate(self._texts)}
        position = self._positions.get(key)
        return None if position is None else self._lines[position]

    def __iter__(self) -> Iterator[str]:
        if not self._invalid:
            return iter(self._texts)
        return (key for key in self._texts if key not in self._invalid)

    def __len__(self) -> int:
        return len(self._texts) - len(self._invalid)

    def __contains__(self, key: object) -> bool:
        return key in self._texts and key not in self._invalid


def _read(data: bytes, tag: LocaleTag, forced: str | None = None, *, fast: bool = True,
          limits: ReadLimits = DEFAULT_READ_LIMITS) -> PoMessages:
    """The messages of a PO file. `fast=False` reads every line with the scanner (the reference the
    fast path is tested against); `forced` is the charset once the header has named it."""
    bom = data.startswith(UTF8_BOM)
    body = data[3:] if bom else data
    codec = forced or first_guess(body, bom)
    text, undecodable = decode(body, codec)
    check_text(text, limits)
    most = limits.max_messages + 1  # entries, the header's included
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    messages = PoMessages(tag)
    problems = messages.problems
    texts = messages._texts
    fuzzy = messages.fuzzy_keys
    untranslated = messages.untranslated_keys
    add_line = messages._lines.append
    comments = messages._comments
    python = messages._python
    c_format = messages._c_format
    plural_ids = messages._plural_ids
    flag_sets: dict[str, frozenset[str]] = {}
    header_line = 0
    nplurals = 2
    late_plurals: list[str] = []
    match_entry = ENTRY.match
    split_msgstrs = MSGSTR_SPLIT.split
    count = text.count
    size = len(text)
    position = line = 0  # `line` is the 0-based line of `position`
    queue: list[Raw] = []  # entries the scanner read from a stretch the fast path did not accept
    queued = 0
    if not fast:
        queue, found = scan(text.split("\n"), codec)
        problems.extend(found)
        position = size
    while position < size and text[position] == "\n":
        position += 1
        line += 1
    while True:
        # -- the next entry: (keyline, ctxt, msgid, plural, strs, flags, notes) --
        if queued < len(queue):
            raw = queue[queued]
            queued += 1
            keyline, ctxt, msgid, plural, flags, notes = raw[1], raw[4], raw[5], raw[6], raw[9], raw[10]
            strs: list[str] | tuple[str, ...] = raw[7]
        elif position < size:
            match = match_entry(text, position)
            if match is not None:
                comment_block, notes, flags, ctxt, msgid, single, plural, multi = match.groups()
                try:
                    if single is not None:
                        value = single[1:-1]
                        strs = (value if '"' not in value and "\\" not in value else parse_field(single, codec),)
                    else:
                        parts = split_msgstrs(multi)
                        forms = [parse_field(parts[0], codec)]
                        for index in range(1, len(parts), 2):
                            if int(parts[index]) != len(forms):
                                raise Unreadable("out of order")  # the scanner says which
                            forms.append(parse_field(parts[index + 1], codec))
                        strs = tuple(forms)
                        plural = parse_field(plural, codec)
                    value = msgid[1:-1]
                    msgid = value if '"' not in value and "\\" not in value else parse_field(msgid, codec)
                    if ctxt is not None:
                        ctxt = parse_field(ctxt, codec)
                except Unreadable:
                    match = None
            if match is None:
                end = text.find("\n\n", position)
                if end < 0:
                    end = size
                queue, found = scan(text[position:end].split("\n"), codec, line)
                queued = 0
                problems.extend(found)
                line += count("\n", position, end)
                position = end
            else:
                keyline = line + comment_block.count("\n")
                if notes:
                    notes = "\n".join(note[2:].strip() for note in notes[:-1].split("\n"))
                else:
                    notes = None
                end = match.end()
                line += count("\n", position, end)
                position = end
            while position < size and text[position] == "\n":
                position += 1
                line += 1
            if match is None:
                continue
        else:
            break
        # -- what gettext makes of it --
        key = msgid if ctxt is None else f"{ctxt}{CONTEXT_SEPARATOR}{msgid}"
        most -= 1
        if most < 0:
            raise too_many_messages(limits)
        if undecodable and (_SURROGATE.search(key) or any(_SURROGATE.search(s) for s in strs)):
            # Named with U+FFFD for each such byte: the bytes are kept as lone surrogates, which no answer can carry.
            problems.append(Problem(_SURROGATE.sub("\ufffd", key), keyline + 1,
                                    f"the entry has bytes that are not valid {codec}, the header's charset"))
            continue
        if key in texts or key in fuzzy or key in untranslated or (not key and header_line):
            problems.append(Problem(key, keyline + 1, f"{shown_key(key)} is defined twice; the first one is used"))
            continue
        if not key:
            header_line = keyline + 1
            messages.header = parse_header(strs[0])
            declared = charset_codec(header_charset(strs[0]))
            if forced is None and not bom and declared != codec:
                # the first charset= seen was not the header's
                return _read(data, tag, declared, fast=fast, limits=limits)
            nplurals, expression, reason = plural_forms(messages.header)
            if reason is not None:
                problems.append(Problem(None, header_line, reason))
            messages.nplurals, messages.plural_expression = nplurals, expression
            messages._choice = PluralChoice(expression, nplurals, tag)
            continue
        if flags is not None:
            known = flag_sets.get(flags)
            if known is None:
                known = flag_sets[flags] = parse_flags(flags)
            flag_set = known
            if "fuzzy" in flag_set:
                fuzzy.add(key)
                continue
        if plural is None:
            value = strs[0]
            if not value:
                untranslated.add(key)
                continue
            texts[key] = value
        else:
            if not all(strs):
                untranslated.add(key)
                continue
            if not header_line:
                late_plurals.append(key)  # checked once the header is known
            elif len(strs) != nplurals:
                problems.append(_forms_problem(key, keyline + 1, len(strs), nplurals))
                continue
            texts[key] = tuple(strs)
            plural_ids[key] = plural
        add_line(keyline + 1)
        if flags is not None:
            if "python-format" in flag_set:
                python.add(key)
            elif "c-format" in flag_set:
                c_format.add(key)
        if notes is not None:
            comments[key] = notes
    for key in late_plurals:
        written = len(texts[key])
        if written != messages.nplurals:
            messages._invalid.add(key)
            problems.append(_forms_problem(key, messages.line_of(key), written, messages.nplurals))
    return messages


def _forms_problem(key: str, line: int | None, count: int, nplurals: int) -> Problem:
    return Problem(key, line, f"the entry has {count} plural forms but the header's Plural-Forms says "
                              f"nplurals={nplurals}; write msgstr[0] to msgstr[{nplurals - 1}]")


# --- the format -------------------------------------------------------------------------------------------


class PoFormat(CatalogFormat):
    """gettext PO and POT files (see the module docstring)."""

    frameworks = ("django", "gettext")

    placeholder_pattern = printf_placeholders(r"%\([^()]+\)[-#0+]*\d*(?:\.\d+)?[a-zA-Z]")
    plural_forms = True
    source_is_key = True
    layout_folders = frozenset({"po", "lc_messages"})
    rename_refusal = ("gettext keys are msgids, which come from the source code: change the msgid there and run "
                      "msgmerge")

    def read(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> PoMessages:
        return _read(data, tag, limits=limits)

    def edit(self, data: bytes, tag: LocaleTag, limits: ReadLimits = DEFAULT_READ_LIMITS) -> PoDocument:
        from parlance_i18n.formats.po.document import PoDocument

        return PoDocument(data, limits)

    def new_file(self, tag: LocaleTag, source_tag: LocaleTag, template: Template | None) -> bytes:
        """As msginit starts one: `Language` and the CLDR `Plural-Forms` in the header, the template's
        entries untranslated (`new_file`)."""
        from parlance_i18n.formats.po.new_file import new_po_file

        return new_po_file(self.locale_spelling(tag), tag, template.data if template is not None else None)

    def sniff(self, head: bytes) -> bool:
        return b'msgid "' in head and b"msgstr" in head

    def runtime_refusals(self, key: str, written: LocaleMessages, source: Value, tag: LocaleTag) -> list[str]:
        """For `c-format` and `python-format` entries, the translation's conversions held to the
        msgid's as `msgfmt --check` holds them (`po.conversions`)."""
        if not isinstance(written, PoMessages):
            return []
        python, c_format = written.is_python_format(key), written.is_c_format(key)
        msgid = written.source_text(key) if python or c_format else None
        if msgid is None:
            return []
        from parlance_i18n.formats.po.conversions import c_format_reasons, python_format_reasons

        return (python_format_reasons if python else c_format_reasons)(msgid, written.text(key))

    def placeholder(self, name: str) -> str:
        """`%(name)s` for a python-format name, `%s (argument 1)` for a positional argument."""
        spelled = f"%s (argument {name})" if name.isdigit() else f"%({name})s"
        return f"the placeholder {spelled}"

    def plural_value(self, document: Document, forms: dict[str, str], current: Value | None, tag: LocaleTag, *,
                     shaped: dict[str, str]) -> Value:
        """msgstr forms by index, the file's Plural-Forms mapping categories to indexes (`msgstr_forms`)."""
        from parlance_i18n.formats.po.msgstr_forms import msgstr_forms

        return msgstr_forms(self, document, forms, current, tag)

    def source_texts(self, data: bytes, tag: LocaleTag) -> dict[str, SourceText]:
        from parlance_i18n.formats.po.sources import source_texts

        return source_texts(self, data, tag)

    def source_messages(self, data: bytes, tag: LocaleTag, keys: Sequence[str]
                        ) -> dict[str, tuple[Value, Renderable | None]]:
        from parlance_i18n.formats.po.sources import source_messages

        return source_messages(self, data, tag, keys)

    def add_from_template(self, document: Document, template: bytes, tag: LocaleTag, key: str) -> bool:
        """The template's entry, untranslated, with its comments and flags, as msgmerge adds it (`po.template`)."""
        from parlance_i18n.formats.po.document import PoDocument
        from parlance_i18n.formats.po.template import add_from_template

        if not isinstance(document, PoDocument):
            raise TypeError("a PO template's entry goes into a PO file's Document")
        return add_from_template(self, document, template, tag, key)

    def locale_spelling(self, tag: LocaleTag) -> str:
        """gettext's spelling: `pt_BR`, `sr@latin` (scripts as @modifiers), `ca@valencia`."""
        modifier = _SCRIPT_MODIFIERS.get(tag.script or "")
        parts = [tag.language, *([tag.script] if tag.script and modifier is None else []),
                 *([tag.region] if tag.region else [])]
        text = "_".join(parts)
        if modifier is not None:
            text += f"@{modifier}"
        for variant in tag.variants:
            text += f"@{variant}"
        return text

    def parse_spelling(self, text: str) -> LocaleTag | None:
        """`de_DE.UTF-8` -> de-DE, `sr@latin` -> sr-Latn, `ca@valencia` -> ca-valencia; None otherwise."""
        base, _, modifier = text.partition("@")
        base = base.partition(".")[0]
        if not base[:2].islower():  # gettext writes the language in lower case (not `LC_MESSAGES`)
            return None
        script = _MODIFIER_SCRIPTS.get(modifier.lower()) if modifier else None
        tag = locale_or_none(base)
        if tag is None:
            return None
        if script is not None and tag.script is None:
            return LocaleTag(tag.language, script, tag.region, tag.variants)
        if modifier and script is None and re.fullmatch(r"[A-Za-z0-9]{5,8}", modifier):
            return LocaleTag(tag.language, tag.script, tag.region, (*tag.variants, modifier.lower()))
        return tag


_SCRIPT_MODIFIERS = {"Latn": "latin", "Cyrl": "cyrillic", "Arab": "arabic", "Deva": "devanagari"}
_MODIFIER_SCRIPTS = {modifier: script for script, modifier in _SCRIPT_MODIFIERS.items()}
