"""A new locale's PO file, as `msginit` starts one: a header naming the `Language` and its CLDR
`Plural-Forms` (`plural_table`) and the revision fields msginit writes, then every entry of the template (the source locale's file, or
another locale's) with its msgid, context, flags and notes for translators, and an empty msgstr
(`nplurals` empty forms for a plural). What was the template's own translation work is left out:
its translations, `fuzzy` flags, previous msgids (`#|`), translator comments and obsolete entries.
The file is written in UTF-8.
"""

from __future__ import annotations

from datetime import datetime, timezone

from parlance_i18n.formats.po.plural_table import plural_forms_header
from parlance_i18n.formats.po.scanner import (
    UTF8_BOM,
    decode,
    escape,
    first_guess,
    parse_header,
    scan,
)
from parlance_i18n.locales import LocaleTag

__all__ = ["new_po_file"]

_KEPT_HEADER_FIELDS = ("Project-Id-Version", "Report-Msgid-Bugs-To")


def new_po_file(language: str, tag: LocaleTag, template: bytes | None) -> bytes:
    """The file's bytes for `tag` (spelled `language` as gettext spells it: `pt_BR`, `sr@latin`);
    ValueError when no Plural-Forms is known for it."""
    plural_forms = plural_forms_header(tag)
    nplurals = int(plural_forms.split(";")[0].partition("=")[2])
    lines, codec = _template_lines(template)
    raws, _ = scan(lines, codec) if lines else ([], [])
    kept: dict[str, str] = {}
    entries: list[str] = []
    for raw in raws:
        first, _, strline, _, ctxt, msgid, plural = raw[:7]
        if msgid == "" and ctxt is None:  # the template's header: a few fields carry over
            fields = parse_header(raw[7][0] if raw[7] else "")
            kept = {name: fields[name] for name in _KEPT_HEADER_FIELDS if fields.get(name)}
            continue
        head = [line for line in lines[first:strline] if _kept_line(line)]
        head = [_without_fuzzy(line) if line.startswith("#,") else line for line in head]
        head = [line for line in head if line.rstrip() != "#,"]
        msgstrs = [f'msgstr[{index}] ""' for index in range(nplurals)] if plural is not None else ['msgstr ""']
        entries.append("\n".join([*head, *msgstrs]) + "\n")
    header = [f"{name}: {value}" for name, value in kept.items()]
    header += [f"PO-Revision-Date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M}+0000",
               "Last-Translator: Automatically generated", "Language-Team: none",
               f"Language: {language}", "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
               "Content-Transfer-Encoding: 8bit", f"Plural-Forms: {plural_forms}"]
    text = 'msgid ""\nmsgstr ""\n' + "".join(f'"{escape(field + chr(10))}"\n' for field in header)
    return "\n".join([text, *entries]).encode("utf-8")


def _template_lines(template: bytes | None) -> tuple[list[str], str]:
    if template is None:
        return [], "utf-8"
    bom = template.startswith(UTF8_BOM)
    body = template[3:] if bom else template
    codec = first_guess(body, bom)
    text, _ = decode(body, codec)  # the first charset= is the header's in every file gettext tools write
    return [line.rstrip("\r") for line in text.split("\n")], codec


def _kept_line(line: str) -> bool:
    """The entry's keywords, and the comments that belong to the msgid rather than to a translation."""
    if not line.startswith("#"):
        return bool(line.strip())
    return line[:2] in ("#.", "#:", "#,")


def _without_fuzzy(line: str) -> str:
    flags = [flag.strip() for flag in line[2:].split(",") if flag.strip() and flag.strip() != "fuzzy"]
    return "#, " + ", ".join(flags) if flags else "#,"
