"""Every test catalog of every format, through its `Document`: read and written unchanged it is the
same bytes; setting, adding or deleting one message changes one contiguous run of lines, at that
message (a plural's forms: lines within its entry only), and leaves every other message as it was.

Test catalogs live in `tests/packs/i18n/catalogs/<format>/<locale>/<file>` (the locale as the
format's own tool spells it is irrelevant here: the folder name is a BCP 47 tag). Files that must
not parse at all live in `<format>/unparseable/<locale>/` and must raise CatalogFileError.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError, Document, Value
from parlance_i18n.locales import parse_locale

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs"
NEW_TEXT = "Zz \"quoted\" \\ it's & <more> é"
ADDED_KEY = "parlance_added_key"


def _files(unparseable: bool) -> list[tuple[str, str, Path]]:
    found = []
    for format_dir in sorted(p for p in CATALOGS.iterdir() if p.is_dir()) if CATALOGS.is_dir() else []:
        root = format_dir / "unparseable" if unparseable else format_dir
        if not root.is_dir():
            continue
        for locale_dir in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "unparseable"):
            for file in sorted(p for p in locale_dir.rglob("*") if p.is_file()):
                found.append((format_dir.name, locale_dir.name, file))
    return found


def _id(case: tuple[str, str, Path]) -> str:
    return str(case[2].relative_to(CATALOGS))


READABLE = _files(unparseable=False)
UNPARSEABLE = _files(unparseable=True)


def _new_value(old: Value) -> Value:
    return {form: f"{NEW_TEXT} {form}" for form in old} if isinstance(old, dict) else NEW_TEXT


def _open(name: str, locale: str, data: bytes) -> Document:
    return formats.get(name).edit(data, parse_locale(locale))


def _lines(data: bytes) -> list[str] | list[bytes]:
    """The file's lines (a UTF-16 file's line breaks are two bytes each, so it is split as text)."""
    for bom in (b"\xff\xfe", b"\xfe\xff"):
        if data.startswith(bom):
            return data.decode("utf-16").split("\n")
    return data.splitlines(True)  # bytes split at \n, \r and \r\n only, whatever the encoding


def _changed_region(before: bytes, after: bytes) -> tuple[int, int]:
    """The 1-based (first, last) lines of `before` between the longest common head and tail: the
    tightest bounds of a change, however a diff would pair up repeated lines inside it."""
    old, new = _lines(before), _lines(after)
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head + 1, max(head + 1, len(old) - tail)


def _changed_runs(before: bytes, after: bytes) -> list[tuple[int, int]]:
    """The (first, last) 1-based line ranges of `before` that differ from `after`, one per hunk."""
    matcher = difflib.SequenceMatcher(a=_lines(before), b=_lines(after), autojunk=False)
    return [(i1 + 1, max(i1 + 1, i2)) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]


def _others_unchanged(name: str, locale: str, before: Document, after_bytes: bytes, skip: str) -> Document:
    after = _open(name, locale, after_bytes)
    for key in before.keys():
        if key != skip:
            assert after.get(key) == before.get(key), f"{key!r} changed when only {skip!r} should have"
    return after


def test_every_format_has_test_catalogs() -> None:
    having = {name for name, _, _ in READABLE}
    assert set(formats.FORMAT_NAMES) <= having, f"formats without test catalogs: {set(formats.FORMAT_NAMES) - having}"


@pytest.mark.parametrize("case", READABLE, ids=_id)
def test_unchanged_document_gives_the_same_bytes(case: tuple[str, str, Path]) -> None:
    name, locale, file = case
    data = file.read_bytes()
    document = _open(name, locale, data)
    assert document.to_bytes() == data
    for key in document.keys():  # setting a message to what it already says changes nothing
        value = document.get(key)
        assert value is not None
        document.set(key, value)
    assert document.to_bytes() == data


@pytest.mark.parametrize("case", READABLE, ids=_id)
def test_setting_one_message_changes_only_its_lines(case: tuple[str, str, Path]) -> None:
    name, locale, file = case
    data = file.read_bytes()
    original = _open(name, locale, data)
    assert original.keys(), f"{file} has no messages"
    keys = original.keys()
    for index, key in enumerate(keys):
        document = _open(name, locale, data)
        old = document.get(key)
        assert old is not None
        new = _new_value(old)
        line = document.line_of(key)
        assert line is not None
        # The entry runs to the next key's line: a plural's forms may be apart (Xcode writes each
        # form's stringUnit on its own lines), but nothing outside the entry may change.
        following = [found for k in keys[index + 1:] if (found := original.line_of(k)) is not None and found > line]
        end = min(following) if following else len(_lines(data)) + 1
        document.set(key, new)
        written = document.to_bytes()
        after = _others_unchanged(name, locale, original, written, key)
        assert after.get(key) == new
        first, last = _changed_region(data, written)
        assert line - 3 <= first and last <= end, (key, line, end, (first, last))
        runs = _changed_runs(data, written)
        if not isinstance(old, dict):
            assert len(runs) == 1, f"setting {key!r} changed {len(runs)} separate places: {runs}"


@pytest.mark.parametrize("case", READABLE, ids=_id)
def test_deleting_and_adding_one_message(case: tuple[str, str, Path]) -> None:
    name, locale, file = case
    data = file.read_bytes()
    original = _open(name, locale, data)
    key = original.keys()[-1]
    document = _open(name, locale, data)
    document.delete(key)
    deleted = document.to_bytes()
    after = _others_unchanged(name, locale, original, deleted, key)
    assert after.get(key) is None
    assert len(_changed_runs(data, deleted)) == 1
    with pytest.raises(KeyError):
        after.delete(key)

    value = original.get(key)
    assert value is not None
    new = _new_value(value)  # shaped like the file's last message: a plural-only format gets forms
    document = _open(name, locale, data)
    document.add(ADDED_KEY, new)
    added = document.to_bytes()
    after = _others_unchanged(name, locale, original, added, ADDED_KEY)
    assert after.get(ADDED_KEY) == new
    assert len(_changed_runs(data, added)) == 1
    with pytest.raises(KeyError):
        after.add(ADDED_KEY, new)


ODD_VALUES: list[dict[str, object]] = [
    {}, {"count": None, "1": None, "0": None}, {"count": "many", "1": {"x": 1}, "2": [1], "name": ["x"]},
    {"count": -1, "1": 10**30, "0": -(10**30)}, {"count": float("nan"), "1": True, "2": 2.5, "amount": float("inf")},
    {"count": "3", "1": "x" * 1000, "2": "%s %n {0} {{name}}", "name": "<b>&'\"</b>"},
]


@pytest.mark.parametrize("case", READABLE, ids=_id)
def test_rendering_never_raises_and_keeps_to_the_limit(case: tuple[str, str, Path]) -> None:
    """Every message of every format, with values of every odd shape a client can send."""
    name, locale, file = case
    messages = formats.get(name).read(file.read_bytes(), parse_locale(locale))
    for key in messages:
        message = messages.get(key)
        if message is None:  # listed, but invalid once compiled: reported, never rendered
            continue
        for values in ODD_VALUES:
            for limit in (0, 3, 200):
                assert len(message.render(values, limit)) <= limit, (key, values, limit)


@pytest.mark.parametrize("case", UNPARSEABLE, ids=_id)
def test_unparseable_files_are_refused_with_a_reason(case: tuple[str, str, Path]) -> None:
    name, locale, file = case
    with pytest.raises(CatalogFileError) as caught:
        formats.get(name).read(file.read_bytes(), parse_locale(locale))
    assert caught.value.reason
