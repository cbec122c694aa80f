"""A new locale's XLIFF file, as XLIFF tools start a translation (Xcode's export, Symfony's
`translation:extract`, xliffmerge): the template's units with their sources, notes and limits, each
with an empty target that is not served yet (1.2 state `new`, 2.x segment state `initial`), and the file's target language set to the new locale
(1.2 `target-language` on every `<file>`, 2.x `trgLang` on `<xliff>`).

The template's own translation work is left out: its targets, `<alt-trans>` suggestions and 1.2
`approved` attributes. Everything else keeps its bytes (encoding, namespaces,
indentation, groups), so a new file diffs against its siblings as a translator's would.
"""

from __future__ import annotations

import html
import re

from parlance_i18n.locales import LocaleTag

__all__ = ["new_xliff_file"]

_PREFIX = r"(?:[\w.-]+:)?"
_XLIFF_TAG = re.compile(rf"<{_PREFIX}xliff\b[^>]*>".encode())
_FILE_TAG = re.compile(rf"<{_PREFIX}file\b[^>]*>".encode())
_VERSION_2 = re.compile(rb"""\bversion\s*=\s*["']2\.""")
_NAME_END = r"(?=[\s/>])"  # `<target>`, `<target/>`, `<target state=...>`; not `<target-x>`


def _element(name: str, *, line: bool = False) -> re.Pattern[bytes]:
    """Element `name` with its content (and, with `line`, the line break and indentation before it). Its
    content is never looked for past the start or end of another such element, a unit or a segment, so a
    start tag without its end costs a scan of its unit, not of the rest of the file (a file of many costs
    linear time, not quadratic)."""
    stop = rf"</?{_PREFIX}(?:{name}|trans-unit|unit|segment){_NAME_END}"
    lead = r"[ \t]*(?:\r?\n[ \t]*)?" if line else ""
    return re.compile(rf"{lead}<{_PREFIX}{name}{_NAME_END}(?:[^>]*/>|[^>]*>(?:(?!{stop}).)*?</{_PREFIX}{name}\s*>)"
                      .encode(), re.DOTALL)


_TARGET = _element("target", line=True)
_ALT_TRANS = _element("alt-trans", line=True)
_SOURCE_END = re.compile(rf"^([ \t]*)<({_PREFIX})source{_NAME_END}(?:(?!</?{_PREFIX}(?:source|trans-unit|unit|segment)"
                         rf"{_NAME_END}).)*?</{_PREFIX}source\s*>".encode(), re.DOTALL | re.MULTILINE)
_SEGMENT_TAG = re.compile(rf"<{_PREFIX}segment\b[^>]*>".encode())
_UNIT_TAG = re.compile(rf"<{_PREFIX}trans-unit\b[^>]*>".encode())


def new_xliff_file(tag: LocaleTag, source_tag: LocaleTag, template: bytes | None) -> bytes:
    if template is None:
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:'
                f'document:1.2">\n  <file source-language="{source_tag.code}" target-language="{tag.code}" '
                'datatype="plaintext" original="messages">\n    <body>\n    </body>\n  </file>\n</xliff>\n').encode()
    code = html.escape(tag.code).encode()
    root = _XLIFF_TAG.search(template)
    version_2 = root is not None and _VERSION_2.search(root[0]) is not None
    data = _ALT_TRANS.sub(b"", _TARGET.sub(b"", template))
    if version_2:
        data = _XLIFF_TAG.sub(lambda found: _set_attribute(found[0], b"trgLang", code, after=b"srcLang"), data, count=1)
        # a 2.x segment without a state is served as final by the tools that omit it: say `initial`
        data = _SEGMENT_TAG.sub(lambda found: _set_attribute(found[0], b"state", b"initial", after=b"id"), data)
        empty = b"<%starget></%starget>"
    else:
        data = _FILE_TAG.sub(lambda found: _set_attribute(found[0], b"target-language", code,
                                                          after=b"source-language"), data)
        data = _UNIT_TAG.sub(lambda found: _drop_attribute(found[0], b"approved"), data)
        empty = b'<%starget state="new"></%starget>'
    newline = b"\r\n" if b"\r\n" in template else b"\n"

    def with_target(found: re.Match[bytes]) -> bytes:
        indent, prefix = found[1], found[2]
        return found[0] + newline + indent + empty % (prefix, prefix)

    return _SOURCE_END.sub(with_target, data)


def _attribute(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"""\s""" + re.escape(name) + rb"""\s*=\s*(?:"[^"]*"|'[^']*')""")


def _set_attribute(start_tag: bytes, name: bytes, value: bytes, *, after: bytes) -> bytes:
    """`start_tag` with `name="value"`: replaced where it is, else just after the attribute `after`
    (else before the tag's end)."""
    written = b" " + name + b'="' + value + b'"'
    current = _attribute(name).search(start_tag)
    if current is not None:
        return start_tag[:current.start()] + written + start_tag[current.end():]
    anchor = _attribute(after).search(start_tag)
    at = anchor.end() if anchor is not None else len(start_tag) - (2 if start_tag.endswith(b"/>") else 1)
    return start_tag[:at] + written + start_tag[at:]


def _drop_attribute(start_tag: bytes, name: bytes) -> bytes:
    return _attribute(name).sub(b"", start_tag)
