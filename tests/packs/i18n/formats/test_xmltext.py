"""The shared XML scanner: exact offsets of every element, encodings and BOMs, content reading and
escaping, and the buffer that splices edits and writes the original encoding back."""

from __future__ import annotations

import codecs

import pytest

from parlance_i18n.formats.base import CatalogFileError, ReadLimits
from parlance_i18n.formats.shared.xmledit import (
    XmlBuffer,
    escape_attribute,
    escape_text,
    line_extent,
    set_attribute,
    split_markup,
)
from parlance_i18n.formats.shared.xmltext import COMMENT, XmlNode, attributes, scan, tokens, unescape

DOCUMENT = (b'<?xml version="1.0"?>\n<root a="x>y">\n  <!-- note -->\n'
            b'  <item id="1">Caf\xc3\xa9 &amp; <b>bold</b></item>\n'
            b'  <empty/>\n  <spaced  />\n</root>\n')


def test_offsets_of_start_tag_content_and_end_tag() -> None:
    file = scan(DOCUMENT)
    root = file.root
    assert (root.name, root.attributes, root.line) == ("root", {"a": "x>y"}, 2)
    assert file.text[root.start:root.open_end] == b'<root a="x>y">'  # a '>' inside a value is not the end
    assert file.text[root.close_start:root.end] == b"</root>"
    comment, item, empty, spaced = root.children
    assert comment.name == COMMENT and file.raw(comment.open_end, comment.close_start) == " note "
    assert file.text[comment.start:comment.end] == b"<!-- note -->"
    assert (item.line, item.attributes) == (4, {"id": "1"})
    assert file.content(item) == "Café &amp; <b>bold</b>"
    assert [child.name for child in item.children] == ["b"]
    assert file.text[empty.start:empty.end] == b"<empty/>" and empty.self_closing
    assert file.text[spaced.start:spaced.end] == b"<spaced  />" and spaced.self_closing
    assert list(root.elements("item")) == [item] and root.first("empty") is empty


def test_line_and_indentation_helpers() -> None:
    file = scan(b"<r>\r\n\t<a/>\r\n\t<b>x</b> <c/>\r\n</r>")
    a, b, c = file.root.elements()
    assert file.newline == "\r\n"
    assert (a.line, b.line, c.line) == (2, 3, 3)
    assert file.line_at(c.start) == 3
    assert file.indent_of(a.start) == "\t" and file.indent_of(c.start) is None
    assert file.child_indent(file.root) == "\t"
    assert file.child_indent(a) == "\t\t"  # no children: one more step, in tabs as its parent
    assert scan(b"<r><a/></r>").child_indent(scan(b"<r><a/></r>").root, "  ") == "  "
    assert scan(b"<r>\r<a/>\r</r>").newline == "\r"
    assert scan(b"<r/>").newline == "\n"


@pytest.mark.parametrize(("data", "encoding", "bom"), [
    ("<r>é</r>".encode(), "utf-8", b""),
    (codecs.BOM_UTF8 + "<r>é</r>".encode(), "utf-8", codecs.BOM_UTF8),
    (codecs.BOM_UTF16_LE + '<?xml version="1.0" encoding="UTF-16"?><r>é</r>'.encode("utf-16-le"),
     "utf-16-le", codecs.BOM_UTF16_LE),
    (codecs.BOM_UTF16_BE + "<r>é</r>".encode("utf-16-be"), "utf-16-be", codecs.BOM_UTF16_BE),
    ('<?xml version="1.0" encoding="ISO-8859-1"?><r>é</r>'.encode("latin-1"), "iso8859-1", b""),
    ("<?xml version='1.0' encoding='windows-1252'?><r>€</r>".encode("cp1252"), "cp1252", b""),
])
def test_encodings_are_read_and_written_back_byte_exactly(data: bytes, encoding: str, bom: bytes) -> None:
    file = scan(data)
    assert (file.encoding, file.bom) == (encoding, bom)
    assert file.text.endswith(b"</r>") and file.content(file.root) in ("é", "€")
    assert file.encode(file.text) == data
    buffer = XmlBuffer(data)
    assert buffer.to_bytes() is data
    root = buffer.file.root
    buffer.replace([(root.open_end, root.close_start, escape_text("ü ✓"))])
    written = buffer.to_bytes()
    assert written.startswith(bom)
    again = scan(written)
    assert again.encoding == encoding and unescape(again.content(again.root)) == "ü ✓"


def test_a_character_the_encoding_lacks_is_written_as_a_reference() -> None:
    buffer = XmlBuffer('<?xml version="1.0" encoding="ISO-8859-1"?><r>é</r>'.encode("latin-1"))
    root = buffer.file.root
    buffer.replace([(root.open_end, root.close_start, "✓ é")])
    assert buffer.to_bytes() == b'<?xml version="1.0" encoding="ISO-8859-1"?><r>&#10003; \xe9</r>'


@pytest.mark.parametrize(("data", "reason", "line"), [
    (b'<?xml version="1.0" encoding="klingon"?><r/>', "the XML declaration names the encoding 'klingon'", 1),
    (b'<?xml version="1.0" encoding="UTF-16"?><r/>', "says UTF-16 but the file has no byte order mark", 1),
    (b"<r>\xff</r>", "not well-formed XML", 1),
    (b"<r>\n<a></b>\n</r>", "not well-formed XML: mismatched tag", 2),
    (b"", "not well-formed XML: no element found", 1),
    (b"<r>&nbsp;</r>", "undefined entity", 1),
])
def test_files_that_cannot_be_read_are_refused_with_the_reason(data: bytes, reason: str, line: int) -> None:
    with pytest.raises(CatalogFileError) as caught:
        scan(data)
    assert reason in caught.value.reason
    assert caught.value.line == line


def test_tokens_resolve_references_cdata_and_line_breaks() -> None:
    raw = 'a &amp; &#233;&#x263A;\r\n<![CDATA[<b>&amp;</b>]]><!-- c --><b id="1">x</b><br/>'
    assert list(tokens(raw)) == [
        ("text", "a &amp; &#233;&#x263A;\r\n<![CDATA[<b>&amp;</b>]]>", "a & é☺\n<b>&amp;</b>"),
        ("comment", "<!-- c -->", ""),
        ("start", '<b id="1">', "b"),
        ("text", "x", "x"),
        ("end", "</b>", "b"),
        ("empty", "<br/>", "br"),
    ]
    assert unescape(raw) == "a & é☺\n<b>&amp;</b>x"
    assert unescape("plain") == "plain"


def test_attributes_of_a_raw_tag() -> None:
    assert attributes('<ph id="1"\n  disp="{{ a &amp; b }}" equiv=\'x\'/>') == {
        "id": "1", "disp": "{{ a & b }}", "equiv": "x"}
    assert attributes("<x/>") == {}


def test_escaping_text_and_attributes() -> None:
    assert escape_text("a & <b> ]]> c\r\nd") == "a &amp; &lt;b> ]]&gt; c&#13;\nd"
    assert escape_text("one\ntwo", "\r\n") == "one\r\ntwo"
    assert escape_attribute('say "hi" & <go>\n') == "say &quot;hi&quot; &amp; &lt;go>&#10;"
    assert escape_attribute("it's", "'") == "it&apos;s"
    with pytest.raises(ValueError, match="U\\+0001 cannot be written in XML 1.0"):
        escape_text("bell\x01")


def test_split_markup_keeps_balanced_tags_and_escapes_the_rest() -> None:
    assert split_markup("Tap <b>here</b> or <more> & <i>x") == [
        ("text", "Tap "), ("tag", "<b>"), ("text", "here"), ("tag", "</b>"), ("text", " or <more> & <i>x")]
    assert split_markup('<x id="1"/> and <br/>') == [("tag", '<x id="1"/>'), ("text", " and "), ("tag", "<br/>")]
    assert split_markup("<a:b>x</a:b>", accept=lambda name: ":" not in name) == [("text", "<a:b>x</a:b>")]
    assert split_markup('<ph id="1">&lt;br/&gt;</ph> x', opaque={"ph"}) == [
        ("tag", '<ph id="1">&lt;br/&gt;</ph>'), ("text", " x")]
    assert split_markup("<b><i>x</b></i>") == [("text", "<b><i>x</b></i>")]


def test_set_attribute_in_place_or_added() -> None:
    file = scan(b"<r><t state='new'>x</t><u a=\"1\" /><v/></r>")
    t, u, v = file.root.elements()
    assert set_attribute(file, t, "state", "final") == (12, 17, "'final'")
    start, end, text = set_attribute(file, u, "state", "a&b")
    edited = file.text[:start] + text.encode() + file.text[end:]
    assert edited.startswith(b'<r><t state=\'new\'>x</t><u a="1" state="a&amp;b" />')
    start, end, text = set_attribute(file, v, "state", "x")
    assert (file.text[:start] + text.encode() + file.text[end:]).endswith(b'<v state="x"/></r>')


@pytest.mark.parametrize(("text", "target", "extent"), [
    (b"a\n  <x/>\nb", b"<x/>", b"  <x/>\n"),
    (b"a\r\n\t<x/>  \r\nb", b"<x/>", b"\t<x/>  \r\n"),
    (b"a <x/>\nb", b"<x/>", b"<x/>"),  # shares its line: only itself
    (b"a\n<x/> b\n", b"<x/>", b"<x/>"),
    (b"a\n<x/>", b"<x/>", b"\n<x/>"),  # the last line, without a break: the break before goes
])
def test_line_extent(text: bytes, target: bytes, extent: bytes) -> None:
    start = text.index(target)
    found = line_extent(text, start, start + len(target))
    assert text[found[0]:found[1]] == extent


def test_buffer_refuses_an_edit_that_breaks_the_xml_and_keeps_the_text() -> None:
    buffer = XmlBuffer(b"<r><a>x</a></r>")
    a = buffer.file.root.first("a")
    assert a is not None
    with pytest.raises(ValueError, match="would leave the file unreadable"):
        buffer.replace([(a.open_end, a.close_start, "<oops>")])
    assert buffer.to_bytes() == b"<r><a>x</a></r>" and not buffer.changed
    buffer.replace([(a.open_end, a.close_start, "y"), (a.end, a.end, "<b/>")])
    assert buffer.to_bytes() == b"<r><a>y</a><b/></r>"


def _shape(node: XmlNode) -> list[tuple[object, ...]]:
    """Every node under `node` (itself first) as what a format can see of it."""
    found: list[tuple[object, ...]] = [(node.name, node.attributes, node.start, node.open_end, node.close_start,
                                        node.end, node.line, node.self_closing)]
    for child in node.children:
        found += _shape(child)
    return found


PARTS = [
    DOCUMENT,
    # markup that hides tags (a comment, CDATA, a processing instruction) inside elements built later
    b'<r><d><d>1</d><d/><d x="/>"><!-- </d> --><e><d></d></e></d></d><d><?p </d>?><![CDATA[</d>]]></d><d></d></r>',
    # line breaks of every kind, and a root preceded by comments and a DOCTYPE
    b'<?xml version="1.0"?>\r\n<!-- <x> -->\r<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x">\n'
    b'<plist v="1">\r\n<dict>\r<key>a</key>\n<dict><key>b</key >\r\n<string/><string >t</string></dict>\n</dict></plist>',
    # attributes as expat gives them: whitespace read as spaces, references resolved, names prefixed
    b'<r xmlns:a="u"><a:b a:c="1\t2\r\n3&#10;&amp;&#x41;" d = \'"\' >x</a:b><e f="&lt;/e>"/></r>',
    "<ré é='ü'><ü>ß</ü><ü/><ü>&amp;<ü>x</ü></ü></ré>".encode(),
    b"<r/>",
    b"<r>only text</r>",
]


@pytest.mark.parametrize("data", PARTS)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_a_tree_built_in_part_is_the_whole_tree_once_read(data: bytes, depth: int) -> None:
    """A tree built `depth` levels deep (the rest when first read) has the nodes of one built whole."""
    whole = scan(data, ["-//Apple//DTD PLIST 1.0//EN"])
    part = scan(data, ["-//Apple//DTD PLIST 1.0//EN"], depth=depth)
    assert _shape(part.root) == _shape(whole.root)


def test_a_tree_built_in_part_takes_default_attributes_from_an_internal_subset() -> None:
    data = b'<!DOCTYPE r [<!ATTLIST a kind CDATA "plain">]>\n<r><a>x</a><a kind="bold"/></r>'
    first, second = scan(data, depth=0).root.children
    assert (first.attributes, second.attributes) == ({"kind": "plain"}, {"kind": "bold"})


def test_a_tree_built_in_part_is_checked_whole() -> None:
    """What is not built yet is checked all the same: a fault deep inside is refused when scanned."""
    with pytest.raises(CatalogFileError, match="mismatched tag") as caught:
        scan(b"<r>\n<a><b>\n<c></b></a></r>", depth=0)
    assert caught.value.line == 3
    with pytest.raises(CatalogFileError, match="undefined entity"):
        scan(b"<r><a><b>&nbsp;</b></a></r>", depth=0)
    with pytest.raises(CatalogFileError, match="more than 20 elements"):
        scan(b"<r>" + b"<a><b/></a>" * 20 + b"</r>", limits=ReadLimits(max_messages=1), depth=0)
    scan(b"<r>" + b"<a><b/></a>" * 9 + b"</r>", limits=ReadLimits(max_messages=1), depth=0)
