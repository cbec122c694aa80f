"""Reading one JSON-RPC message off the wire, and the answer owed when it is not one.

Both transports read through here: stdio a line at a time (`parse_line`), HTTP a POST body at a
time (the same function). The hot path is the SDK's own parser (pydantic-core); only a message it
refuses, or one that needs a second look, pays for more. What the second look guarantees, whatever
the bytes:

- nothing raised while reading a message escapes (not RecursionError on deep nesting, not
  ValueError on a 5,000-digit integer): the reader never ends the server;
- the answer carries the request's id whenever the id can be read, even from a line that is not
  valid JSON, is nested deeper than the parser goes, or breaks JSON-RPC elsewhere; the caller is
  never left waiting on `"id": null`;
- an id that is neither a string nor an integer is an Invalid Request (`id: null`), never a
  notification in disguise;
- `NaN`, `Infinity` and `-Infinity` are not JSON: a parse error;
- answers never echo the input back: their messages are fixed sentences.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mcp.types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)

__all__ = ["MAX_DEPTH", "Unreadable", "diagnose", "parse_line", "read_id", "valid_id"]

MAX_DEPTH = 200
"""How deeply a message may nest: the SDK's parser (pydantic-core) refuses anything deeper."""
MAX_INT_DIGITS = 4300
"""Python's own limit for reading an integer (sys.get_int_max_str_digits' default)."""

RequestId = int | str


class Unreadable(Exception):
    """A message that cannot be served, with the JSON-RPC error that answers it.

    `request_id` is None when no id could be read (the answer then carries `id: null`);
    `answer` is False for what must not be answered (a client's malformed response to us).
    An exception so that it travels where the SDK's read streams carry parse failures.
    """

    def __init__(self, request_id: RequestId | None, code: int, message: str, *, answer: bool = True) -> None:
        super().__init__(message)
        self.request_id = request_id
        self.code = code
        self.message = message
        self.answer = answer

    def __repr__(self) -> str:
        return f"Unreadable({self.request_id!r}, {self.code}, {self.message!r})"

    def reply(self) -> JSONRPCError:
        return JSONRPCError(jsonrpc="2.0", id=self.request_id, error=ErrorData(code=self.code, message=self.message))


def parse_line(data: bytes) -> JSONRPCMessage | Unreadable:
    """One message from `data` (a line or a body), or what answers it."""
    try:
        data.decode("utf-8")  # JSON-RPC text is UTF-8; the parser alone lets encoded surrogates through
        message = jsonrpc_message_adapter.validate_json(data, by_name=False)
    except Exception:  # pydantic's ValidationError, a decode error, anything else: the slow path decides
        return diagnose(data)
    # pydantic-core reads NaN and Infinity as floats; JSON has no such literals. Checked only when
    # the bytes could hold one, so ordinary messages pay two substring scans.
    if (b"NaN" in data or b"Infinity" in data) and _non_finite(data):
        return Unreadable(read_id(data), PARSE_ERROR, "Parse error: NaN and Infinity are not JSON numbers")
    # A request whose id has the wrong type validates as a notification (ids are optional there).
    if isinstance(message, JSONRPCNotification):
        if b'"id"' in data:
            top = _loads(data)
            if isinstance(top, dict) and "id" in top:
                return Unreadable(None, INVALID_REQUEST, _BAD_ID)
        return message
    # An id escaping a lone surrogate ("\ud800") parses, but no answer carrying it can be written.
    if isinstance(message.id, str) and b"\\u" in data and not _encodable(message.id):
        return Unreadable(None, INVALID_REQUEST, _BAD_ID)
    # A request that also carries "result" or "error" validates as a response, which is never answered.
    if isinstance(message, JSONRPCResponse | JSONRPCError) and b'"method"' in data:
        top = _loads(data)
        if isinstance(top, dict) and "method" in top:
            return Unreadable(message.id, INVALID_REQUEST,
                              'Invalid Request: a request has a "method", a response a "result" or an "error", '
                              "never both")
    return message


def _encodable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_BAD_ID = "Invalid Request: the id must be a string (of valid Unicode) or an integer"


def diagnose(data: bytes | str) -> Unreadable:
    """Why the SDK's parser refused `data`, as the error that answers it (never raises)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        return Unreadable(read_id(data.decode("utf-8", "replace")), PARSE_ERROR,  # type: ignore[union-attr]
                          "Parse error: the message is not UTF-8, as JSON-RPC text must be")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_int=_read_int)
    except _NonFinite:
        return Unreadable(read_id(text), PARSE_ERROR, "Parse error: NaN and Infinity are not JSON numbers")
    except RecursionError:
        return Unreadable(read_id(text), INVALID_REQUEST,
                          f"Invalid Request: the message nests deeper than the {MAX_DEPTH} levels this server reads")
    except ValueError:
        return Unreadable(read_id(text), PARSE_ERROR, "Parse error: the message is not valid JSON")
    except Exception:  # noqa: BLE001 - whatever the parser does, the reader answers
        return Unreadable(None, PARSE_ERROR, "Parse error: the message is not valid JSON")
    return _diagnose_value(value)


def _diagnose_value(value: Any) -> Unreadable:
    if isinstance(value, list):
        return Unreadable(None, INVALID_REQUEST,
                          "Invalid Request: batches are not supported (MCP 2025-06-18 removed them); "
                          "send one message at a time")
    if not isinstance(value, dict):
        return Unreadable(None, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object")
    if "id" in value and not valid_id(value["id"]):
        return Unreadable(None, INVALID_REQUEST, _BAD_ID)
    request_id = value.get("id")
    if "method" in value and ("result" in value or "error" in value):
        return Unreadable(request_id, INVALID_REQUEST,
                          'Invalid Request: a request has a "method", a response a "result" or an "error", never both')
    if "method" not in value and ("result" in value or "error" in value):
        # A response to one of our requests that the SDK could not read. Responses are never answered.
        return Unreadable(request_id, INVALID_REQUEST, "Invalid Request: an unreadable response", answer=False)
    if value.get("jsonrpc") != "2.0":
        return Unreadable(request_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
    if not isinstance(value.get("method"), str):
        return Unreadable(request_id, INVALID_REQUEST, 'Invalid Request: "method" must be a string')
    if "params" in value and not isinstance(value["params"], dict):
        return Unreadable(request_id, INVALID_REQUEST, 'Invalid Request: "params" must be an object')
    too_much = _past_limits(value)
    if too_much == "digits":
        return Unreadable(request_id, INVALID_REQUEST,
                          f"Invalid Request: a number has more than the {MAX_INT_DIGITS} digits this server reads")
    if too_much == "depth":
        return Unreadable(request_id, INVALID_REQUEST,
                          f"Invalid Request: the message nests deeper than the {MAX_DEPTH} levels this server reads")
    return Unreadable(request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message this server can decode")


def valid_id(value: Any) -> bool:
    """Whether `value` can be a request's id in an answer: a string of valid Unicode, or an int Python reads."""
    if isinstance(value, str):
        return _encodable(value)
    return isinstance(value, int) and not isinstance(value, bool | _HugeInt)


class _NonFinite(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _NonFinite(name)


class _HugeInt(int):
    """An integer too long for int(): kept as a marker (value 0), never converted."""


def _read_int(digits: str) -> int:
    return _HugeInt(0) if len(digits.lstrip("-")) > MAX_INT_DIGITS else int(digits)


def _past_limits(value: Any) -> str | None:
    """"digits" for an integer too long to read, "depth" for nesting past MAX_DEPTH, else None (one walk)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, _HugeInt):
            return "digits"
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                return "depth"
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return None


def _non_finite(data: bytes) -> bool:
    try:
        json.loads(data, parse_constant=_refuse_constant)
    except _NonFinite:
        return True
    except (ValueError, RecursionError):
        return False
    return False


def _loads(data: bytes) -> Any:
    try:
        return json.loads(data, parse_constant=_refuse_constant, parse_int=_read_int)
    except (ValueError, RecursionError):
        return None


# --- the tolerant id reader ------------------------------------------------------------------------

_decoder = json.JSONDecoder(parse_int=_read_int)
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]+|[\]}]+|[^\[\]{}"]+', re.DOTALL)


def read_id(text: bytes | str) -> RequestId | None:
    """The top-level "id" of a JSON object, read without recursion; None when absent, invalid or unreadable.

    Reads member by member and stops at "id", so it finds the id of a line that is broken, or
    nested too deeply to parse, after it (clients write the id before the params). A value nested
    too deeply for the C parser is stepped over bracket by bracket.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        at = _skip_space(text, 0)
        if text[at] != "{":
            return None
        at = _skip_space(text, at + 1)
        while text[at] == '"':
            key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
            at = _skip_space(text, at)
            if text[at] != ":":
                return None
            at = _skip_space(text, at + 1)
            if key == "id":
                value, _ = _decoder.raw_decode(text, at)
                return value if valid_id(value) else None
            at = _skip_space(text, _skip_value(text, at))
            if text[at] != ",":
                return None
            at = _skip_space(text, at + 1)
    except (ValueError, IndexError, RecursionError):
        return None
    return None


def _skip_space(text: str, at: int) -> int:
    return _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]


def _skip_value(text: str, at: int) -> int:
    try:
        return _decoder.raw_decode(text, at)[1]
    except RecursionError:
        pass
    depth = 0
    for match in _NESTING.finditer(text, at):
        token = match.group()
        if token[0] in "[{":
            depth += len(token)
        elif token[0] in "]}":
            depth -= len(token)
            if depth <= 0:
                return match.end() + depth  # a run of closers may close more than this value
    raise ValueError("unterminated value")
