"""`parlance._transport.wire`: one message off the wire, or the error that answers it, table by table."""

from __future__ import annotations

import pytest
from mcp.types import JSONRPCNotification, JSONRPCRequest

from parlance._transport.wire import Unreadable, parse_line, read_id

PING = b'{"jsonrpc":"2.0","id":%s,"method":"ping"%s}'


@pytest.mark.parametrize(("line", "request_id", "code", "says"), [
    (b"{oops", None, -32700, "not valid JSON"),
    (b'{"id": 9, oops', 9, -32700, "not valid JSON"),
    (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"\xe9"}}', 4, -32700, "UTF-8"),
    (b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"\xed\xa0\x80"}}', 4, -32700, "UTF-8"),
    (PING % (b"7", b',"params":{"x":NaN}'), 7, -32700, "NaN"),
    (PING % (b"Infinity", b""), None, -32700, "NaN"),
    (PING % (b"3", b',"params":"x"'), 3, -32600, '"params"'),
    (b'{"jsonrpc":"1.0","id":3,"method":"ping"}', 3, -32600, '"jsonrpc"'),
    (b'{"jsonrpc":"2.0","id":3,"method":123}', 3, -32600, '"method"'),
    (PING % (b'{"a":1}', b""), None, -32600, "string"),
    (PING % (b"true", b""), None, -32600, "string"),
    (PING % (b"1.5", b""), None, -32600, "string"),
    (PING % (b"null", b""), None, -32600, "string"),
    (PING % (b'"\\ud800"', b""), None, -32600, "string"),
    (PING % (b"9" * 5000, b""), None, -32600, "string"),
    (PING % (b"12", b',"error":{"code":1,"message":"m"}'), 12, -32600, "never both"),
    (PING % (b"5", b',"params":{"n":' + b"7" * 5000 + b"}"), 5, -32600, "digits"),
    (PING % (b"2", b',"params":{"x":' + b"[" * 990 + b"]" * 990 + b"}"), 2, -32600, "nests deeper"),
    (b'[{"jsonrpc":"2.0","id":6,"method":"ping"}]', None, -32600, "batches"),
    (b'"\\ud800"', None, -32600, "JSON object"),
])
def test_what_is_not_a_message_is_answered(line: bytes, request_id: object, code: int, says: str) -> None:
    answer = parse_line(line)
    assert isinstance(answer, Unreadable)
    assert (answer.request_id, answer.code, answer.answer) == (request_id, code, True)
    assert says in answer.message
    assert answer.reply().model_dump(by_alias=True)["id"] == request_id


def test_a_malformed_response_is_never_answered() -> None:
    answer = parse_line(b'{"jsonrpc":"2.0","id":1,"result":{"x":' + b"[" * 300 + b"]" * 300 + b"}}")
    assert isinstance(answer, Unreadable) and answer.answer is False


@pytest.mark.parametrize("line", [
    PING % (b"1", b',"params":{"text":"NaN and Infinity are words here"}'),
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
    b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"an \\"id\\" in text"}}',
])
def test_messages_pass(line: bytes) -> None:
    assert isinstance(parse_line(line), JSONRPCRequest | JSONRPCNotification)


@pytest.mark.parametrize(("text", "found"), [
    ('{"id": 3}', 3),
    ('{"jsonrpc":"2.0","method":"x","params":{"a":[' + "[" * 5000 + "]" * 5000 + '],"id":1},"id":"late"}', "late"),
    ('{"params": {"id": 1}}', None),  # not a top-level id
    ('{"id": true}', None),
    ('{"id": 1.5}', None),
    ('[{"id": 1}]', None),
    ('{"a": "unterminated', None),
    ('{"a": 1, "id": "kept" oops', "kept"),
])
def test_read_id_finds_only_the_top_level_id_without_recursion(text: str, found: object) -> None:
    assert read_id(text) == found
