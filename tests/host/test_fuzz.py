"""Property-based fuzzing of `parlance serve` over stdio and streamable HTTP (hypothesis).

Each example sends one generated line (stdio) or body (HTTP): arbitrary JSON, JSON-RPC envelopes
with mutated members, deep nesting, huge numbers, NaN/Infinity, bad UTF-8, truncated JSON, blank
lines, and `tools/call` with arguments drawn from each tool's advertised input schema (valid and
invalid), in both protocol eras. The properties, checked for every line:

- every line that is owed an answer gets exactly one, carrying the id the line had (below);
- nothing but JSON-RPC 2.0 objects reaches stdout (or an HTTP body), and no HTTP status is 5xx;
- no answer carries exception text (a traceback, a pydantic dump) or echoes the client's input
  back in a protocol error;
- the server is alive at the end and still answers.

What a line is owed, read by `expectation()` with a tolerant scanner of its own (json.loads fails on
deep nesting and on integers of more than 4300 digits, which the scanner reads as text):

- a blank line: nothing (the stdio framing skips it; an empty HTTP body may get one error);
- a line that is not JSON (NaN and Infinity included) or not UTF-8: one -32700 answer; its id is
  null, or the line's id where one can be read (the server reads the id of a line that is JSON once
  decoded with replacement characters, and must then answer with it);
- JSON that is not an object: one -32600 answer with id null (MCP has no batches);
- an object with an `id` member of a valid type (integer or string) is "a request with a readable
  id" unless it is a response (no `method`, exactly one of `result`/`error`): one answer with that
  id; -32600 if its envelope is invalid (`jsonrpc` not "2.0", `method` not a string, `params` not
  an object), -32600 or -32602 if `params` is an array, anything otherwise;
- an `id` of any other type (null, boolean, fraction, object, array): one -32600 answer, id null;
- no `id`: a valid notification gets nothing; an invalid one gets one -32600 answer with id null;
- a response (from a client that is owed nothing), or `subscriptions/listen` (answered when its
  stream ends), may get at most one answer;
- parsers may limit nesting depth, number sizes and lone surrogates (RFC 8259 §9, §8.2): a line
  past those limits may get -32700 instead, still with its id; an id that is a lone surrogate cannot
  be written as UTF-8, so its answer may carry id null.

Stdio runs one long-lived server per protocol era (the SDK fixes the era of a connection with its
first request, so one process cannot serve 2026-07-28 envelopes after a 2025-11-25 handshake); a
line that kills one is a failure, and the server is restarted so the search can go on. Each line
is followed by a `ping` sentinel: an answer the transport owes a malformed line is written before
the sentinel's, so a missing one is known at once; a request the server dispatches may answer
later: up to QUICK_S, or ANSWER_TIMEOUT_S for a tool call (SLOW_METHODS). Over HTTP each body is
one POST, in the 2025-11-25 session or as a stateless 2026-07-28 request; its reply is the answer.

Hypothesis reports each kind of failure (a FuzzFailure subclass per property and per case above)
with its own minimal example. CORNER_CASES holds one line of every kind found so far, checked on
every run whatever the seed finds.

Reproducing: the seed is printed at the start of the run and in every failure; rerun with
`PARLANCE_FUZZ_SEED=<seed> uv run pytest tests/host/test_fuzz.py`. `PARLANCE_FUZZ_EXAMPLES=<n>`
raises the examples per test for a deep local run (and the cap on shrinking time to a minute).
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import queue
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.support import free_port

# --- knobs ---------------------------------------------------------------------------------------

CI_SEED = 20261124
"""CI fuzzes with a fixed seed, so a run's verdict belongs to the commit under test, not to chance;
local runs draw a new seed each time to keep finding new inputs (PARLANCE_FUZZ_SEED picks one)."""
SEED = int(os.environ.get("PARLANCE_FUZZ_SEED")
           or (CI_SEED if os.environ.get("CI") else random.SystemRandom().randrange(2**32)))
DEEP_EXAMPLES = int(os.environ.get("PARLANCE_FUZZ_EXAMPLES") or 0)
STDIO_EXAMPLES = DEEP_EXAMPLES or 400
HTTP_EXAMPLES = DEEP_EXAMPLES or 400
SHRINK_S = 60.0 if DEEP_EXAMPLES else 6.0
"""Per fuzz test, the most time hypothesis spends shrinking what it found (see bounded_shrinking)."""
ANSWER_TIMEOUT_S = 10.0
MISSING_GRACE_S = 0.2
"""After the sentinel's answer, how long an answer the transport owes may still straggle in (only
waited for when it is missing, so that a failure shows what did arrive)."""
QUICK_S = 1.0
"""The same for a request the server dispatches to a quick handler (ping, lists, unknown methods)."""
SLOW_METHODS = frozenset({"tools/call", "prompts/get", "resources/read", "completion/complete"})
"""Methods whose handlers may take a while: their answers are waited for up to ANSWER_TIMEOUT_S."""
REPRODUCE = f"reproduce with: PARLANCE_FUZZ_SEED={SEED} uv run pytest tests/host/test_fuzz.py"

LEGACY, MODERN = "2025-11-25", "2026-07-28"
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
DEEP = 64
"""Lines nested deeper than this may be refused as parse errors (JSON parsers limit depth)."""
META = "io.modelcontextprotocol/"
SENTINEL = "fuzz-sentinel-"
EXCEPTION_TEXT = ("Traceback", "Error(", "Exception(", "input_value", "input_type", "pydantic", 'File "',
                  "RecursionError", "errors.pydantic.dev", "validation error for", "[type=")
"""Exception or validation text that should never reach a client (counted only when the line
itself did not contain it, since tools may quote their input)."""

# --- failures: one class per kind, so hypothesis shrinks and reports each kind on its own ----------


class FuzzFailure(AssertionError):
    """A property of the server did not hold for a generated line."""


class ServerDied(FuzzFailure):
    """The server exited, or stopped reading its input, after a line."""


class ServerUnresponsive(FuzzFailure):
    """The server is running but did not answer the sentinel (or the HTTP request) in time."""


class NotJsonRpc(FuzzFailure):
    """Something that is not a JSON-RPC 2.0 message reached stdout or an HTTP body."""


class HttpServerError(FuzzFailure):
    """An HTTP status of 500 or more."""


class ExceptionText(FuzzFailure):
    """An answer carries a traceback, an exception repr or a pydantic validation dump."""


class InputEchoed(FuzzFailure):
    """A protocol error repeats a value the client sent."""


class NoAnswer(FuzzFailure):
    """A line owed an answer got none."""


class IdLost(FuzzFailure):
    """Answered with id null although the line's id was readable."""


class WrongId(FuzzFailure):
    """An answer carries an id the line did not have."""


class TooManyAnswers(FuzzFailure):
    """A line got more answers than it was owed (e.g. an answer to a notification)."""


class WrongCode(FuzzFailure):
    """An error answer with the wrong code (or a result where an error was owed)."""


_KINDS: dict[tuple[type[FuzzFailure], str], type[FuzzFailure]] = {}


def failure(kind: type[FuzzFailure], expected: Expect | None, message: str) -> FuzzFailure:
    """A failure of `kind`, specialised by what the line was owed: hypothesis tells bugs apart by
    exception type, so "no answer to an invalid id" and "no answer to a request" shrink separately."""
    tag = expected.tag if expected is not None else "any"
    if (kind, tag) not in _KINDS:
        _KINDS[kind, tag] = type(f"{kind.__name__}_{tag}", (kind,), {"__module__": __name__})
    return _KINDS[kind, tag](f"{message}\n{REPRODUCE}")


def short(data: bytes | str, limit: int = 240) -> str:
    """`data` for a failure message: repr'd, long middles elided."""
    text = repr(data)
    if len(text) <= limit:
        return text
    return f"{text[:limit * 2 // 3]}...<{len(data)} {'bytes' if isinstance(data, bytes) else 'chars'}>...{text[-limit // 3:]}"


# --- a tolerant JSON scanner: reads a line's shape and top-level members without recursion --------

_WS = " \t\n\r"
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_NONFINITE = re.compile(r"NaN|-?Infinity")
_COLON = re.compile(r"\s*:")
_NAMED = re.compile(r'"(?:name|uri|method)"\s*:\s*(' + _STRING.pattern + ")")


@dataclass
class Scanned:
    """What `scan` read of one line."""

    json: bool = False  # one RFC 8259 JSON text
    depth: int = 0  # the deepest nesting seen
    beyond_limits: bool = False  # numbers past 4300 digits or double range, lone surrogate escapes
    nonfinite: bool = False  # NaN / Infinity / -Infinity appeared as values
    top: str | None = None  # kind of the top-level value: object, array, string, int, float, true, ...
    members: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Top-level object members read before the end (or the first error): name -> [(kind, raw token)]."""

    def one(self, name: str) -> tuple[str, str] | None:
        found = self.members.get(name, [])
        return found[0] if len(found) == 1 else None


def scan(text: str) -> Scanned:
    """Scan `text` as JSON, iteratively (any depth), also accepting NaN/Infinity (flagged)."""
    out = Scanned()
    pos, end = 0, len(text)
    stack: list[str] = []
    key: str | None = None
    state = "value"
    while True:
        while pos < end and text[pos] in _WS:
            pos += 1
        char = text[pos] if pos < end else ""
        if state in ("value", "value_or_end"):
            if state == "value_or_end" and char == "]":
                stack.pop()
                pos, state = pos + 1, "after"
                continue
            if char in ("{", "["):
                kind, raw = ("object" if char == "{" else "array"), char
                stack.append(char)
                out.depth = max(out.depth, len(stack))
                pos += 1
                next_state = "key_or_end" if char == "{" else "value_or_end"
                depth = len(stack) - 1
            else:
                depth = len(stack)
                token = _scalar(text, pos)
                if token is None:
                    return out
                kind, raw = token
                pos, next_state = pos + len(raw), "after"
                out.nonfinite |= kind == "nonfinite"
                out.beyond_limits |= _beyond_limits(kind, raw)
            if depth == 0:
                out.top = kind
            elif depth == 1 and key is not None:
                out.members.setdefault(key, []).append((kind, raw))
                key = None
            state = next_state
        elif state in ("key", "key_or_end"):
            if state == "key_or_end" and char == "}":
                stack.pop()
                pos, state = pos + 1, "after"
                continue
            match = _STRING.match(text, pos) if char == '"' else None
            if match is None:
                return out
            out.beyond_limits |= _beyond_limits("string", match.group(0))
            if len(stack) == 1:
                key = json.loads(match.group(0))
            pos, state = match.end(), "colon"
        elif state == "colon":
            if char != ":":
                return out
            pos, state = pos + 1, "value"
        else:  # after a value
            if not stack:
                out.json = pos == end and not out.nonfinite
                return out
            if char == ",":
                pos, state = pos + 1, ("key" if stack[-1] == "{" else "value")
            elif (char, stack[-1]) in (("}", "{"), ("]", "[")):
                stack.pop()
                pos += 1
            else:
                return out


def _scalar(text: str, pos: int) -> tuple[str, str] | None:
    """(kind, raw token) of the scalar at `pos`, or None."""
    if text.startswith('"', pos):
        match = _STRING.match(text, pos)
        return ("string", match.group(0)) if match else None
    for literal in ("true", "false", "null"):
        if text.startswith(literal, pos):
            return literal, literal
    if match := _NONFINITE.match(text, pos):
        return "nonfinite", match.group(0)
    if match := _NUMBER.match(text, pos):
        return ("float" if match.group(1) or match.group(2) else "int"), match.group(0)
    return None


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _beyond_limits(kind: str, raw: str) -> bool:
    """Whether a token is past what JSON parsers commonly accept (RFC 8259 §9 lets them set limits
    on numbers; §8.2: strings with lone surrogates have unpredictable results)."""
    if kind == "string":
        return "\\u" in raw and _SURROGATE.search(json.loads(raw)) is not None
    if kind == "int":
        return len(raw) > 4300
    if kind == "float":
        return len(raw) > 4300 or float(raw) in (float("inf"), float("-inf"))
    return False


IdKey = tuple[str, str] | None
"""An id as compared: ("int", digits) or ("str", value); None is id null."""


def id_key(kind: str, raw: str) -> IdKey | str:
    """The comparable key of a valid id token, or the name of its invalid type."""
    if kind == "string":
        return ("str", json.loads(raw))
    if kind == "int":
        return ("int", "0" if raw == "-0" else raw)
    return kind


class BigInt(str):
    """An integer literal too long for int() (more than 4300 digits), kept as its digits."""


def parse_output(text: str) -> Any:
    """Parse a line the server wrote: strict JSON (no NaN/Infinity), integers of any length."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=constant, parse_int=lambda s: int(s) if len(s) < 4000 else BigInt(s))


def answer_id(message: dict[str, Any]) -> IdKey | str:
    value = message.get("id")
    if value is None:
        return None
    if isinstance(value, BigInt):
        return ("int", str(value))
    if isinstance(value, bool) or not isinstance(value, int | str):
        return f"{type(value).__name__} {value!r}"
    return ("int", str(value)) if isinstance(value, int) else ("str", value)


def jsonrpc_problem(message: Any) -> str | None:
    """Why `message` is not a JSON-RPC 2.0 request, notification or response; None if it is one."""
    if not isinstance(message, dict):
        return "not an object"
    if message.get("jsonrpc") != "2.0":
        return "jsonrpc is not '2.0'"
    if "method" in message:
        if not isinstance(message["method"], str):
            return "method is not a string"
        if "id" in message and isinstance(answer_id(message), str):
            return "a request with an id that is neither a string nor an integer"
        return None
    if "id" not in message:
        return "a response without an id"
    if isinstance(answer_id(message), str):
        return "a response id that is neither null, a string nor an integer"
    if ("result" in message) == ("error" in message):
        return "a response needs exactly one of result and error"
    if "error" in message:
        error = message["error"]
        if not (isinstance(error, dict) and isinstance(error.get("code"), int) and not isinstance(error["code"], bool)
                and isinstance(error.get("message"), str)):
            return "an error needs an integer code and a string message"
    return None


# --- what a line is owed -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """The answers a line is owed: how many, with which ids, with which error codes."""

    tag: str  # short name of the case, e.g. "invalid_envelope"
    what: str  # the case in words, for failure messages
    least: int
    most: int
    ids: frozenset[IdKey]
    codes: frozenset[int] | None = None  # None: a result or any error
    patience: float = MISSING_GRACE_S  # how long after the sentinel's answer this one may still come
    readable_id: IdKey = None  # the id the line carries, when it can be read


def _envelope(scanned: Scanned) -> str:
    """"ok" for a valid MCP request or notification envelope; "positional" when only its params are
    an array (valid JSON-RPC, not MCP); "bad" otherwise."""
    version, method, params = scanned.one("jsonrpc"), scanned.one("method"), scanned.members.get("params")
    if not (version is not None and version[0] == "string" and json.loads(version[1]) == "2.0"
            and method is not None and method[0] == "string"):
        return "bad"
    if params is None or (len(params) == 1 and params[0][0] in ("object", "null")):
        return "ok"
    return "positional" if len(params) == 1 and params[0][0] == "array" else "bad"


def expectation(line: bytes, *, http: bool = False) -> Expect:
    """What `line` is owed (the module docstring has the rules)."""
    if not line.strip():
        if http:  # an empty POST body is not a framing artefact: an error may answer it
            return Expect("blank", "a blank body", 0, 1, frozenset({None}), frozenset({PARSE_ERROR, INVALID_REQUEST}))
        return Expect("blank", "a blank line (skipped by the framing)", 0, 0, frozenset())
    try:
        text, utf8 = line.decode("utf-8"), True
    except UnicodeDecodeError:
        text, utf8 = line.decode("utf-8", "replace"), False
    scanned = scan(text)
    found = scanned.one("id")
    key = id_key(*found) if found is not None and scanned.top == "object" else None
    readable = key if isinstance(key, tuple) else None
    unanswerable_id = readable is not None and (
        (readable[0] == "str" and _SURROGATE.search(readable[1]) is not None)
        or (readable[0] == "int" and len(readable[1].lstrip("-")) > 4300))
    if not utf8 or not scanned.json:
        if not utf8 and scanned.json and readable is not None and "\ufffd" not in found[1] \
                and not unanswerable_id:
            return Expect("not_utf8", "a line that is JSON once decoded, but not UTF-8", 1, 1,
                          frozenset({readable}), frozenset({PARSE_ERROR}), readable_id=readable)
        # The id may be read from a line that is not JSON; with several id members, any of them.
        candidates = {k for kind, raw in scanned.members.get("id", []) if isinstance(k := id_key(kind, raw), tuple)}
        tag, what = (("not_utf8", "a line that is not UTF-8") if not utf8
                     else ("nonfinite", "NaN/Infinity, which JSON does not have") if scanned.nonfinite
                     and _finite_json(text) else ("not_json", "a line that is not JSON"))
        return Expect(tag, what, 1, 1, frozenset({None, *candidates}), frozenset({PARSE_ERROR}))
    if unanswerable_id:
        # No UTF-8 answer can carry a lone surrogate, and Python reads no integer past 4,300 digits
        # (the README's limit): id null will do, but the line is still owed its answer.
        owed = _owed_by_json(scanned, found, key, None)
        owed = Expect(owed.tag, f"{owed.what} (its id is a lone surrogate or past 4,300 digits)", owed.least,
                      owed.most, owed.ids | {None, readable}, owed.codes, owed.patience)
    else:
        owed = _owed_by_json(scanned, found, key, readable)
    if scanned.depth > DEEP or scanned.beyond_limits:
        # Parsers may limit depth, numbers and surrogates (RFC 8259): such a line may be refused as
        # unparsable, though never without the id it carries; one that is owed nothing may get that error.
        limit = f"nested {scanned.depth} deep" if scanned.depth > DEEP else "past common parser limits"
        if owed.most == 0:  # refused as unparsable (-32700) or as not a message the server can decode (-32600)
            return Expect(owed.tag, f"{owed.what}, {limit}", 0, 1, frozenset({None}),
                          frozenset({PARSE_ERROR, INVALID_REQUEST}))
        if owed.codes is not None:
            return Expect(owed.tag, f"{owed.what}, {limit}", owed.least, owed.most, owed.ids,
                          owed.codes | {PARSE_ERROR}, owed.patience, owed.readable_id)
    return owed


def _owed_by_json(scanned: Scanned, found: tuple[str, str] | None, key: IdKey | str,
                  readable: IdKey) -> Expect:
    """What a line that is JSON is owed."""
    if scanned.top != "object":
        return Expect("not_object", f"JSON that is not an object ({scanned.top}; MCP has no batches)", 1, 1,
                      frozenset({None}), frozenset({INVALID_REQUEST}))
    members = scanned.members
    response = "method" not in members and (("result" in members) != ("error" in members))
    if "id" in members:
        if found is None:  # the id member appears more than once: which one counts is undefined
            candidates = {k for kind, raw in members["id"] if isinstance(k := id_key(kind, raw), tuple)}
            return Expect("duplicate_id", "an object with several id members", 0 if response else 1, 1,
                          frozenset({None, *candidates}), patience=QUICK_S)
        if not isinstance(key, tuple):
            if response:
                return Expect("response", "a response with an id that is not a string or integer", 0, 1,
                              frozenset({None}))
            return Expect("invalid_id", f"an id of type {key} (MCP ids are strings or integers)", 1, 1,
                          frozenset({None}), frozenset({INVALID_REQUEST}))
        if response:
            return Expect("response", "a response to a request the server never sent", 0, 1,
                          frozenset({key, None}), readable_id=readable)
        envelope = _envelope(scanned)
        if envelope == "positional":
            return Expect("positional", "a request with array params (JSON-RPC allows them, MCP does not)", 1, 1,
                          frozenset({key}), frozenset({INVALID_REQUEST, INVALID_PARAMS}), readable_id=readable)
        if envelope == "ok":
            method = json.loads(members["method"][0][1])
            if method == "subscriptions/listen":  # answered when the stream ends, if ever
                return Expect("request", "a subscriptions/listen request (a stream)", 0, 1, frozenset({key}),
                              readable_id=readable)
            slow = method in SLOW_METHODS and "result" not in members and "error" not in members
            return Expect("request", "a JSON-RPC request", 1, 1, frozenset({key}),
                          patience=ANSWER_TIMEOUT_S if slow else QUICK_S, readable_id=readable)
        return Expect("invalid_envelope", "an invalid JSON-RPC request with a readable id", 1, 1,
                      frozenset({key}), frozenset({INVALID_REQUEST}), readable_id=readable)
    if response:
        return Expect("response", "a response without an id", 0, 1, frozenset({None}))
    envelope = _envelope(scanned)
    if envelope == "positional":
        return Expect("positional", "a notification with array params (JSON-RPC allows them, MCP does not)", 0, 1,
                      frozenset({None}), frozenset({INVALID_REQUEST, INVALID_PARAMS}))
    if envelope == "ok":
        return Expect("notification", "a notification (owed no answer)", 0, 0, frozenset())
    return Expect("invalid_notification", "an invalid message without an id", 1, 1, frozenset({None}),
                  frozenset({INVALID_REQUEST}))


def _finite_json(text: str) -> bool:
    """Whether `text` would be JSON with its NaN/Infinity tokens replaced by 0."""
    return scan(_NONFINITE.sub("0", text)).json


def check_answers(line: bytes, expected: Expect, answers: list[dict[str, Any]], garbage: list[str],
                  raw_answers: list[str], note_lines: str = "") -> None:
    """Raise the failure for the first property `answers` (to `line`) break."""
    context = f"line: {short(line)}\nowed: {expected.what}{note_lines}"
    if garbage:
        raise failure(NotJsonRpc, expected, f"the server wrote something that is not JSON-RPC: {garbage[0]}\n{context}")
    request_text = line.decode("utf-8", "replace")
    for raw in raw_answers:
        leaked = [m for m in EXCEPTION_TEXT if m in raw and m not in request_text]
        if leaked:
            raise failure(ExceptionText, expected, f"an answer carries exception text {leaked}: {short(raw, 600)}\n{context}")
    echoed = _echoed_input(request_text, answers)
    if echoed:
        raise failure(InputEchoed, expected, f"a protocol error echoes the input {short(echoed)}: "
                      f"{short(json.dumps(answers[0]), 600)}\n{context}")
    got = ", ".join(short(raw, 200) for raw in raw_answers) or "nothing"
    if len(answers) < expected.least:
        raise failure(NoAnswer, expected, f"no answer (expected {expected.least})\n{context}")
    if len(answers) > expected.most:
        raise failure(TooManyAnswers, expected, f"{len(answers)} answers (expected at most {expected.most}): {got}\n{context}")
    for answer in answers:
        got_id = answer_id(answer)
        if got_id not in expected.ids:
            kind = IdLost if got_id is None and expected.readable_id is not None else WrongId
            wanted = " or ".join(sorted("null" if i is None else repr(i[1])[:60] for i in expected.ids))
            raise failure(kind, expected, f"answered with id {'null' if got_id is None else repr(got_id)[:80]}, "
                          f"expected {wanted}: {got}\n{context}")
        if expected.codes is not None:
            code = answer.get("error", {}).get("code") if isinstance(answer.get("error"), dict) else None
            if code not in expected.codes:
                raise failure(WrongCode, expected, f"answered {'a result' if code is None else code}, expected "
                              f"error {' or '.join(map(str, sorted(expected.codes)))}: {got}\n{context}")


_VOCABULARY: set[str] = set()
"""Strings a protocol error may legitimately repeat (method and tool names, envelope keys, ...)."""


def _data_that_may_not_echo(error: dict[str, Any]) -> Any:
    """An error's data, less what the MCP spec has it repeat: -32022 (unsupported protocol version)
    carries the version the client asked for in `data.requested`."""
    data = error.get("data")
    if error.get("code") == -32022 and isinstance(data, dict):
        return {k: v for k, v in data.items() if k != "requested"}
    return data


def _echoed_input(request_text: str, answers: list[dict[str, Any]]) -> str | None:
    """A string value of the request (12+ characters, not a name) that a protocol error repeats."""
    errors = [json.dumps([a["error"].get("message"), _data_that_may_not_echo(a["error"])], ensure_ascii=False)
              for a in answers if isinstance(a.get("error"), dict)]
    if not errors:
        return None
    names = {m.group(1) for m in _NAMED.finditer(request_text)}
    for match in _STRING.finditer(request_text):  # one string token after the other: keys and values
        if match.group(0) in names or _COLON.match(request_text, match.end()):
            continue
        try:
            value = json.loads(match.group(0))
        except ValueError:
            continue
        if len(value.strip()) >= 12 and value not in _VOCABULARY and any(value in e for e in errors):
            return value
    return None


# --- generated lines ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """A JSON token written as is (NaN, huge integers, 1e400, escapes json.dumps would not write)."""

    token: str

    def __repr__(self) -> str:
        return f"Raw({short(self.token, 60)})"


class Pairs(list):  # type: ignore[type-arg]
    """An object as (name, value) pairs, so it can repeat a name."""


MISSING = object()


def dump(value: Any, ascii_only: bool = False) -> str:
    """Serialise generated JSON (with Raw tokens and Pairs objects); nesting here stays shallow."""
    if isinstance(value, Raw):
        return value.token
    if isinstance(value, Pairs | dict):
        items = value if isinstance(value, Pairs) else value.items()
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=ascii_only)}:{dump(v, ascii_only)}"
                              for k, v in items if v is not MISSING) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


class Line:
    """One generated line (or HTTP body), with a label saying how it was made. (Not a dataclass:
    hypothesis prints failing examples with this short repr, not field by field.)"""

    __slots__ = ("data", "label")

    def __init__(self, label: str, data: bytes) -> None:
        self.label, self.data = label, data

    def __repr__(self) -> str:
        return f"Line({self.label}: {short(self.data, 400)})"


@dataclass
class Catalog:
    """What the server advertises, for generating calls it will recognise."""

    tools: dict[str, dict[str, Any]]
    resources: list[str]


METHODS = ["ping", "tools/call", "tools/list", "initialize", "resources/list", "resources/read",
           "resources/templates/list", "prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
           "server/discover", "resources/subscribe", "subscriptions/listen", "notifications/initialized",
           "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed",
           "sampling/createMessage", "roots/list", "elicitation/create"]
VERSIONS = [MODERN, LEGACY, "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01", ""]
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "loud"]


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of `choices`, picked in proportion to its weight (the first ones are what examples shrink to)."""
    return st.sampled_from([strategy for weight, strategy in choices for _ in range(weight)]).flatmap(lambda s: s)


text_values = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "\u00a0", "\u3000", "\t\n", "é", "日本語", "\U0001f600", "{name}", "{", "}", "'{'",
                     "{count, plural, one {# item} other {# items}}", "{n, select, a {x} other {y}}",
                     "{n, plural, =0 {none}}", "{0}", "{a}{b}", "<b>{x}</b>", "Error(", "Traceback", "null",
                     "de", "pt_BR", "zh-Hant-TW", "en", "x-invalid--", "checkout", "a.b", "greeting"]),
    st.text(alphabet="{}#,' abcnopqrstuvwxyz=0123456789\\\"", max_size=30),
)
huge_numbers = st.one_of(
    st.sampled_from([Raw("1e400"), Raw("-1e400"), Raw("-0"), Raw("-0.0"), Raw("1E+2"), Raw("5e-324"), Raw("1" + "0" * 400)]),
    st.builds(lambda head, n: Raw(head + "7" * n), st.sampled_from("123456789"), st.sampled_from([4299, 4300, 4301, 5000])),
)
json_scalars = weighted(
    (1, st.none()), (1, st.booleans()), (2, st.integers(-2**70, 2**70)),
    (1, st.floats(allow_nan=False, allow_infinity=False)), (4, text_values), (1, huge_numbers),
    (1, st.sampled_from([Raw('"\\ud800"'), Raw('"\\udc00x"'), Raw('"\\u0000"')])),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text_values, inner, max_size=4),
    max_leaves=12,
)
valid_ids = weighted(
    (3, st.integers(-2**31, 2**31)), (2, st.text(max_size=10).filter(lambda s: not s.startswith(SENTINEL))),
    (1, st.integers(2**63 - 2, 2**64 + 2) | st.integers(-2**64 - 2, -2**63 + 2)),
    (1, st.sampled_from([Raw("-0"), Raw('"\\u00e9"'), Raw('"\\ud800"'), Raw('"\\u0000"'), Raw("1" + "0" * 30)])),
    (1, st.builds(lambda n: Raw("9" * n), st.sampled_from([4300, 4301, 6000]))),
)
invalid_ids = st.one_of(
    st.none(), st.booleans(), st.sampled_from([Raw("1.0"), Raw("1.5"), Raw("1e2"), Raw("-0.0"), Raw("1e400")]),
    st.just({}), st.just([]), st.lists(st.integers(0, 9), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
HINTS = {
    "locale": ["de", "pt_BR", "zh-Hant-TW", "es-MX", "en", "fr", "x", "de-"],
    "target_language": ["en", "en-IE", "de", "tlh"],
    "scopeValue": ["checkout", "nope"],
    "key": ["greeting", "a.b", "hello", "order.status.completed"],
    "messages": [{"greeting": "Hallo {name}"}, {"a": {"b": "{count, plural, one {#} other {# items}}"}}, {"x": "{"}],
}
"""Values the server recognises, for properties whose schema cannot say (locales, scopes, keys)."""


def envelope_meta(era: str, *, good_only: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    """params._meta: the 2026-07-28 envelope (mostly well-formed in the modern era), or junk."""
    capabilities = st.one_of(st.just({}), st.just({"sampling": {}}), st.just({"elicitation": {}, "roots": {}}), json_values)
    good = st.fixed_dictionaries(
        {f"{META}protocolVersion": st.just(MODERN), f"{META}clientCapabilities": st.sampled_from([{}, {"sampling": {}}])},
        optional={f"{META}clientInfo": st.just({"name": "fuzz", "version": "0"}) | json_values,
                  f"{META}logLevel": st.sampled_from(LEVELS), "progressToken": valid_ids},
    )
    mutated = st.fixed_dictionaries(
        {f"{META}protocolVersion": st.sampled_from(VERSIONS) | json_scalars},
        optional={f"{META}clientCapabilities": capabilities, f"{META}clientInfo": json_values},
    )
    if good_only:
        return good
    return weighted((4, good), (2, mutated), (1, json_values)) if era == MODERN else mutated | good


def schema_values(schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values for the JSON-schema subset the tools advertise (type, properties, required, enum,
    anyOf, items, additionalProperties, min/max lengths and bounds, pattern); valid ones first."""
    if not isinstance(schema, dict) or depth > 4:
        return json_values
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of([schema_values(s, depth + 1) for s in schema.get("anyOf", schema.get("oneOf"))])
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return st.one_of([schema_values({**schema, "type": k}, depth) for k in kinds])
    if kinds == "string":
        low, high = schema.get("minLength", 0), min(schema.get("maxLength", 60), 60)
        strings = st.one_of(st.text(min_size=low, max_size=max(low, high)), text_values.filter(lambda s: low <= len(s)))
        if "examples" in schema:
            strings = st.sampled_from(schema["examples"]) | strings
        if "pattern" in schema:
            strings = strings.filter(lambda s, p=re.compile(schema["pattern"]): p.search(s) is not None)
        return strings
    if kinds == "integer":
        return st.integers(schema.get("minimum", -1000), schema.get("maximum", 10**6))
    if kinds == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False, allow_infinity=False)
    if kinds == "boolean":
        return st.booleans()
    if kinds == "null":
        return st.none()
    if kinds == "array":
        return st.lists(schema_values(schema.get("items"), depth + 1), max_size=min(schema.get("maxItems", 4), 4))
    if kinds == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        required = [k for k in schema.get("required", []) if k in properties]
        extra = schema.get("additionalProperties", False)  # unknown members come from arguments_for
        def value(name: str) -> st.SearchStrategy[Any]:
            base = schema_values(properties[name], depth + 1)
            return st.sampled_from(HINTS[name]) | base if name in HINTS else base

        fixed = st.fixed_dictionaries({k: value(k) for k in required},
                                      optional={k: value(k) for k in properties if k not in required})
        if extra is False:
            return fixed
        more = st.dictionaries(text_values, json_values if extra is True else schema_values(extra, depth + 1), max_size=3)
        return st.builds(lambda a, b: {**b, **a}, fixed, more)
    return json_values


def _edge_strings(schema: dict[str, Any]) -> list[str]:
    """Strings just outside a string property's length bounds."""
    edges = []
    if schema.get("minLength", 0) > 0:
        edges.append("x" * (schema["minLength"] - 1))
    if "maxLength" in schema and schema["maxLength"] < 10_000:
        edges.append("y" * (schema["maxLength"] + 1))
    return edges


def arguments_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Tool arguments: valid for `schema`, then each way of breaking them."""
    properties = schema.get("properties", {})
    valid = schema_values(schema)
    broken_value = st.builds(lambda args, name, junk: {**args, name: junk}, valid,
                             st.sampled_from(sorted(properties) or ["x"]), json_values) if properties else valid
    edge_cases = [(name, edge) for name, prop in properties.items() if isinstance(prop, dict)
                  for edge in _edge_strings(prop)]
    edges = (st.builds(lambda args, pair: {**args, pair[0]: pair[1]}, valid, st.sampled_from(edge_cases))
             if edge_cases else valid)
    dropped = st.builds(lambda args, drop: {k: v for k, v in args.items() if k not in drop}, valid,
                        st.sets(st.sampled_from(sorted(properties) or ["x"])))
    extra = st.builds(lambda args, k, v: {**args, k: v}, valid, text_values, json_values)
    return weighted((4, valid), (1, broken_value), (1, edges), (1, dropped), (1, extra), (1, json_values),
                    (1, st.just(MISSING)))


def params_for(method: Any, era: str, catalog: Catalog) -> st.SearchStrategy[Any]:
    """params for `method`: plausible for the method, or junk."""
    tool_names = sorted(catalog.tools)
    if method == "tools/call":
        call = st.sampled_from(tool_names).flatmap(
            lambda name: st.fixed_dictionaries({"name": st.just(name), "arguments": arguments_for(catalog.tools[name])}))
        unknown = st.fixed_dictionaries({"name": text_values | json_scalars}, optional={"arguments": json_values})
        retry = st.fixed_dictionaries({}, optional={
            "inputResponses": st.dictionaries(st.sampled_from(["sample-0", "sample-1", "x"]), st.one_of(
                st.just({"role": "assistant", "content": {"type": "text", "text": "{}"}, "model": "m"}), json_values), max_size=2),
            "requestState": st.one_of(text_values, st.builds(
                lambda v: "parlance.samples.v1:" + base64.urlsafe_b64encode(dump(v).encode()).decode(), json_values),
                st.just("parlance.samples.v1:!!"))})
        params = st.one_of(call, unknown, st.builds(lambda a, b: {**a, **b}, call, retry))
    elif method == "initialize":
        params = st.fixed_dictionaries({"protocolVersion": st.sampled_from(VERSIONS) | json_scalars},
                                       optional={"capabilities": st.just({}) | json_values,
                                                 "clientInfo": st.just({"name": "fuzz", "version": "0"}) | json_values})
    elif method in ("resources/read", "resources/subscribe"):
        params = st.fixed_dictionaries({"uri": st.sampled_from(catalog.resources or ["file:///x"]) | text_values | json_scalars})
    elif method == "prompts/get":
        params = st.fixed_dictionaries({"name": text_values}, optional={"arguments": json_values})
    elif method == "logging/setLevel":
        params = st.fixed_dictionaries({"level": st.sampled_from(LEVELS) | json_scalars})
    elif method == "notifications/cancelled":
        params = st.fixed_dictionaries({"requestId": valid_ids | invalid_ids}, optional={"reason": text_values})
    elif method == "notifications/progress":
        params = st.fixed_dictionaries({"progressToken": valid_ids | invalid_ids, "progress": json_scalars})
    elif method == "completion/complete":
        params = st.fixed_dictionaries({"ref": json_values, "argument": json_values})
    else:
        params = st.just({}) | st.fixed_dictionaries({}, optional={"cursor": text_values | json_scalars})
    with_meta = st.builds(lambda p, meta: {**p, "_meta": meta} if isinstance(p, dict) else p, params, envelope_meta(era))
    junk = st.one_of(st.just(MISSING), st.none(), json_scalars, st.lists(json_values, max_size=3))
    return (with_meta | params | junk) if era == MODERN else (params | with_meta | junk)


@st.composite
def envelopes(draw: st.DrawFn, era: str, catalog: Catalog, method: Any = None) -> Line:
    """A JSON-RPC message with each member possibly mutated, missing, mistyped or repeated."""
    if method is None:
        method = draw(st.sampled_from(METHODS) | st.one_of(text_values, st.just(MISSING), json_scalars, st.just([])))
    message = Pairs([
        ("jsonrpc", draw(st.just("2.0") | st.sampled_from(["1.0", "2", "2.0 ", "", MISSING, 2.0, Raw("2.0"), None]))),
        ("id", draw(valid_ids | st.just(MISSING) | invalid_ids)),
        ("method", method),
        ("params", draw(params_for(method, era, catalog))),
    ])
    extra = draw(st.sampled_from(["none", "result", "error", "junk", "duplicate id", "reordered"]))
    if extra == "result":
        message.append(("result", draw(json_values)))
    elif extra == "error":
        message.append(("error", draw(st.just({"code": -1, "message": "m"}) | json_values)))
    elif extra == "junk":
        message.append((draw(text_values), draw(json_values)))
    elif extra == "duplicate id":
        message.insert(0, ("id", draw(valid_ids | invalid_ids)))
    elif extra == "reordered":
        message = Pairs(draw(st.permutations(message)))
    ascii_only = draw(st.booleans())
    return Line("envelope without a method" if method is MISSING else f"envelope {method!r}"[:60],
                dump(message, ascii_only).encode())


def tool_calls(era: str, catalog: Catalog) -> st.SearchStrategy[Line]:
    """Well-formed `tools/call` requests with schema-driven arguments (the envelope left intact)."""

    def build(name: str, arguments: Any, request_id: Any, meta: Any) -> Line:
        params = {"name": name, "arguments": arguments, "_meta": meta}
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
        return Line(f"tools/call {name}", dump(message).encode())

    meta = envelope_meta(era, good_only=True) if era == MODERN else st.just(MISSING)
    return st.sampled_from(sorted(catalog.tools)).flatmap(
        lambda name: st.builds(build, st.just(name), arguments_for(catalog.tools[name]), valid_ids, meta))


NEST_DEPTHS = [2, 100, 500, 1000, 2000, 5000]
"""Few, so that shrinking a depth that kills the server costs few restarts."""


@st.composite
def deep_nesting(draw: st.DrawFn, era: str) -> Line:
    depth = draw(st.sampled_from(NEST_DEPTHS))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    nest = opener * depth + "1" + closer * depth
    where = draw(st.sampled_from(["params", "top", "id", "arguments", "result"]))
    request_id = draw(valid_ids)
    meta = f',"_meta":{dump(draw(envelope_meta(era)))}' if era == MODERN else ""
    if where == "top":
        text = nest
    elif where == "id":
        text = f'{{"jsonrpc":"2.0","id":{nest},"method":"ping"}}'
    elif where == "result":
        text = f'{{"jsonrpc":"2.0","id":{dump(request_id)},"result":{nest}}}'
    elif where == "arguments":
        text = (f'{{"jsonrpc":"2.0","id":{dump(request_id)},"method":"tools/call","params":'
                f'{{"name":"i18n_translate","arguments":{{"key":"k","variables":{{"v":{nest}}}}}{meta}}}}}')
    else:
        text = f'{{"jsonrpc":"2.0","id":{dump(request_id)},"method":"ping","params":{{"x":{nest}{meta}}}}}'
    return Line(f"nesting {depth} x {opener!r} in {where}", text.encode())


@st.composite
def nonfinite_lines(draw: st.DrawFn, era: str, catalog: Catalog) -> Line:
    """A request with NaN/Infinity in its params or as its id."""
    token = Raw(draw(st.sampled_from(["NaN", "Infinity", "-Infinity"])))
    where = draw(st.sampled_from(["params", "id", "argument"]))
    request_id = token if where == "id" else draw(valid_ids)
    params: dict[str, Any] = {"name": "i18n_check", "arguments": {"limit": token}} if where == "argument" else {"x": token}
    if era == MODERN:
        params["_meta"] = {f"{META}protocolVersion": MODERN, f"{META}clientCapabilities": {}}
    method = "tools/call" if where == "argument" else "ping"
    return Line(f"{token} in {where}", dump({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode())


BAD_UTF8 = [b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80", b"\xe9"]


@st.composite
def bad_utf8(draw: st.DrawFn, era: str, catalog: Catalog) -> Line:
    """A line with invalid UTF-8 bytes: inside a string value, or anywhere."""
    base = draw(envelopes(era, catalog, method=draw(st.sampled_from(["ping", "tools/call"]))))
    bad = draw(st.sampled_from(BAD_UTF8))
    data = base.data
    strings = [m.span() for m in re.finditer(rb'"[^"\\]*"', data)]
    if strings and draw(st.booleans()):
        start, end = draw(st.sampled_from(strings))
        at = draw(st.integers(start + 1, end - 1))
    else:
        at = draw(st.integers(0, len(data)))
    return Line(f"{bad!r} in {base.label}", data[:at] + bad + data[at:])


@st.composite
def truncated(draw: st.DrawFn, era: str, catalog: Catalog) -> Line:
    base = draw(envelopes(era, catalog))
    cut = draw(st.integers(1, max(1, len(base.data) - 1)))
    return Line(f"truncated {base.label}", base.data[:cut])


def lines(era: str, catalog: Catalog) -> st.SearchStrategy[Line]:
    """Every kind of generated line, simplest kinds first (hypothesis shrinks toward them), weighted
    toward the JSON-RPC messages a server mostly sees."""
    kinds = [
        (1, st.sampled_from([b"", b" ", b"\t", b"\r", b" \r "]).map(lambda d: Line("blank", d))),
        (2, st.builds(lambda v, a: Line("json", dump(v, a).encode()), json_values, st.booleans())),
        (4, envelopes(era, catalog)),
        (4, tool_calls(era, catalog)),
        (1, nonfinite_lines(era, catalog)),
        (1, truncated(era, catalog)),
        (1, bad_utf8(era, catalog)),
        (1, st.binary(max_size=40).filter(lambda b: b"\n" not in b).map(lambda d: Line("bytes", d))),
        (1, deep_nesting(era)),
    ]
    return _fresh(weighted(*kinds))


@st.composite
def _fresh(draw: st.DrawFn, strategy: st.SearchStrategy[Line]) -> Line:
    line = draw(strategy)
    return Line(line.label, line.data)  # a new object: hypothesis reports it, not the calls that built it


# --- the stdio server, driven over raw pipes ------------------------------------------------------------


@dataclass
class Exchange:
    answers: list[dict[str, Any]] = field(default_factory=list)
    raw_answers: list[str] = field(default_factory=list)
    garbage: list[str] = field(default_factory=list)
    sentinel_answered: bool = False
    died: bool = False


_RAISED = re.compile(r"^[\s|+]*((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Group)\b:?.*)$")


def stderr_summary(path: Path) -> str:
    """The exceptions a server's stderr shows (innermost last), or its last lines."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    raised = list(dict.fromkeys(m.group(1)[:300] for line in text if (m := _RAISED.match(line))))
    shown = raised[-4:] or [line[:300] for line in text[-6:]]
    return "server stderr: " + " | ".join(shown) if shown else ""


def server_env() -> dict[str, str]:
    env = {**os.environ}
    for name in ("PARLANCE_CONFIG", "STRINGS_ADMIN_HOST", "BASE_PATH"):
        env.pop(name, None)
    return env


class StdioServer:
    """`parlance serve` over pipes in one protocol era: bytes in, lines out (a reader thread), the
    server's own requests refused. A line that kills it is recorded and the server restarted."""

    def __init__(self, config: Path, era: str) -> None:
        self.config, self.era = config, era
        self.deaths: list[str] = []  # what killed it: line and the end of its stderr
        self.late: list[str] = []  # answers that arrived after their line's exchange had closed
        self.hangs: list[str] = []  # lines after which the server stopped answering (it was killed)
        self._ids = itertools.count()
        self._previous = b""
        self._spare: tuple[subprocess.Popen[bytes], queue.Queue[bytes | None], Path] | None = None
        self._launch()

    def _spawn(self) -> tuple[subprocess.Popen[bytes], queue.Queue[bytes | None], Path]:
        stderr_path = self.config.parent / f"stderr-{self.era}-{next(self._ids)}.log"
        with open(stderr_path, "wb") as stderr:
            proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--config", str(self.config)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                    cwd=self.config.parent, env=server_env())
        out: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, args=(proc.stdout, out), daemon=True).start()
        return proc, out, stderr_path

    def _launch(self) -> None:
        """Start serving from a fresh process; after a death, from a spare started in advance (a
        line that kills the server is shrunk by killing it again, and startup takes a second)."""
        spare, self._spare = self._spare, None
        self.proc, self._out, self.stderr_path = spare or self._spawn()
        self._opened = False
        if self.deaths or self.hangs:
            self._spare = self._spawn()

    @staticmethod
    def _read(stdout: Any, out: queue.Queue[bytes | None]) -> None:
        for line in iter(stdout.readline, b""):
            out.put(line)
        out.put(None)

    def meta(self) -> dict[str, Any]:
        return {f"{META}protocolVersion": MODERN, f"{META}clientCapabilities": {},
                f"{META}clientInfo": {"name": "fuzz", "version": "0"}}

    def open(self) -> dict[str, Any]:
        """The era's opening request: the 2025-11-25 handshake, or a first enveloped request."""
        if self.era == LEGACY:
            opened = self.call("initialize", {"protocolVersion": LEGACY, "capabilities": {},
                                              "clientInfo": {"name": "fuzz", "version": "0"}})
            self._send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        else:
            opened = self.call("server/discover", {"_meta": self.meta()})
        assert "result" in opened, f"the {self.era} server did not open: {opened}\n{self.stderr_tail()}"
        self._opened = True
        return opened

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        """Send one well-formed request, return its answer."""
        request_id = f"{SENTINEL}{next(self._ids)}"
        if self.era == MODERN:
            params = {**(params or {}), "_meta": self.meta()}
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params else {})}
        self._send(json.dumps(message).encode())
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                raw = self._out.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if raw is None:
                raise AssertionError(f"the {self.era} server exited while answering {method}\n{self.stderr_tail()}")
            message = parse_output(raw.decode())
            if message.get("id") == request_id and "method" not in message:
                return message
            self._refuse_server_request(message)
        raise AssertionError(f"the {self.era} server did not answer {method} within {timeout} s")

    def _send(self, data: bytes) -> bool:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def _refuse_server_request(self, message: Any) -> None:
        if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" in message:
            self._send(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                   "error": {"code": -32601, "message": "the fuzzing client serves no requests"}}).encode())

    def ensure_running(self) -> None:
        if self.proc.poll() is not None:
            if self.proc.stdin:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass
            self._launch()
        if not self._opened:
            self.open()

    def exchange(self, line: bytes, expected: Expect) -> Exchange:
        """Send `line` and a sentinel; collect what the line gets until the sentinel and the answers
        owed have arrived (see the module docstring), or the server dies."""
        while not self._out.empty():  # stragglers: an answer here came after its line was settled
            raw = self._out.get_nowait()
            try:
                message = parse_output(raw.decode()) if raw is not None else None
            except ValueError:
                message = None
            if raw is not None and (not isinstance(message, dict) or "method" not in message):
                self.late.append(f"{short(raw, 200)} after line {short(self._previous, 200)}")
            self._refuse_server_request(message)
        self.ensure_running()
        self._previous = line
        sentinel = f"{SENTINEL}{next(self._ids)}"
        params = f',"params":{{"_meta":{json.dumps(self.meta())}}}' if self.era == MODERN else ""
        result = Exchange()
        sent = self._send(line) and self._send(f'{{"jsonrpc":"2.0","id":"{sentinel}","method":"ping"{params}}}'.encode())
        now = time.monotonic()
        deadline, settle_by = now + ANSWER_TIMEOUT_S, None
        while sent:
            now = time.monotonic()
            if result.sentinel_answered:
                if len(result.answers) >= expected.least:
                    break
                settle_by = settle_by or min(deadline, now + expected.patience)
                if now >= settle_by:
                    break
            if now >= deadline:
                break
            try:
                raw = self._out.get(timeout=max(0.0, (settle_by or deadline) - now))
            except queue.Empty:
                continue
            if raw is None:
                break
            text = raw.decode("utf-8", "replace").rstrip("\n")
            try:
                message = parse_output(raw.decode("utf-8"))
            except ValueError as exc:
                result.garbage.append(f"{short(text, 300)} ({exc})")
                continue
            if (problem := jsonrpc_problem(message)) is not None:
                result.garbage.append(f"{short(text, 300)} ({problem})")
            elif message.get("id") == sentinel and "method" not in message:
                result.sentinel_answered = True
            elif "method" in message:
                self._refuse_server_request(message)  # a notification, or the server asking us something
            else:
                result.answers.append(message)
                result.raw_answers.append(text)
        if self.proc.poll() is not None or not sent or (not result.sentinel_answered and self._exited_soon()):
            result.died = True
            self.deaths.append(f"{short(line, 300)}\n{self.stderr_tail()}")
        elif not result.sentinel_answered:  # hung: replaced, so that the next line meets a working server
            self.hangs.append(short(line, 300))
            self.proc.kill()
            self.proc.wait()
        return result

    def _exited_soon(self) -> bool:
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stderr_tail(self) -> str:
        return stderr_summary(self.stderr_path)

    def close(self) -> None:
        for proc in [self.proc] + ([self._spare[0]] if self._spare else []):
            if proc.stdin:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- the HTTP server ----------------------------------------------------------------------------------


class HttpServer:
    """`parlance serve --transport http` on a loopback port, with a 2025-11-25 session opened."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.restarts: list[str] = []
        self.client = httpx.Client(timeout=ANSWER_TIMEOUT_S)
        self.restart()

    def restart(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.stderr_path = self.config.parent / f"stderr-http-{len(self.restarts)}.log"
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http",
                                          "--host", "127.0.0.1", "--port", str(self.port), "--config", str(self.config)],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                                         cwd=self.config.parent, env=server_env())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        self.session = self.open_session()

    def open_session(self) -> str:
        reply = self.post(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}}).encode(),
            {"mcp-protocol-version": LEGACY})
        session = reply.headers.get("mcp-session-id")
        assert reply.status_code == 200 and session, f"initialize over HTTP failed: {reply.status_code} {reply.text[:300]}"
        self.post(b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
                  {"mcp-protocol-version": LEGACY, "mcp-session-id": session})
        return session

    def post(self, body: bytes, headers: dict[str, str]) -> httpx.Response:
        return self.client.post(self.url, content=body, headers={
            "content-type": "application/json", "accept": "application/json, text/event-stream", **headers})

    def headers_for(self, era: str, body: bytes, mismatch: bool) -> dict[str, str]:
        """A 2025-11-25 request rides the session; a 2026-07-28 one names its method (and tool or
        URI) in headers, as the SDK requires, taken from the body where it can be read."""
        if era == LEGACY:
            return {"mcp-protocol-version": LEGACY, "mcp-session-id": self.session}
        headers = {"mcp-protocol-version": MODERN}
        scanned = scan(body.decode("utf-8", "replace"))
        method = scanned.one("method")
        if method is not None and method[0] == "string":
            name = json.loads(method[1])
            headers["mcp-method"] = _header_value(name)
            key = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}.get(name)
            params_text = _member_text(body, "params")
            if key and params_text is not None:
                inner = scan(params_text).one(key)
                if inner is not None and inner[0] == "string":
                    headers["mcp-name"] = _header_value(json.loads(inner[1]))
        if mismatch:
            headers["mcp-method"] = "tools/list" if headers.get("mcp-method") != "tools/list" else "ping"
        return headers

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self) -> str:
        return stderr_summary(self.stderr_path)

    def close(self) -> None:
        self.client.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _header_value(value: str) -> str:
    """An Mcp-* header value: verbatim when printable ASCII, else the SDK's base64 sentinel form."""
    if re.fullmatch(r"[\x20-\x7e]*", value) and value == value.strip():
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8", "surrogatepass")).decode() + "?="


def _member_text(body: bytes, name: str) -> str | None:
    """The text of a top-level member's value, when the body is JSON json.loads can read."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or name not in value:
        return None
    try:
        return json.dumps(value[name])
    except (ValueError, RecursionError):
        return None


def http_messages(reply: httpx.Response) -> tuple[list[Any], list[str], list[str]]:
    """(messages, their raw texts, garbage) in an HTTP reply: a JSON body or server-sent events."""
    body = reply.content.decode("utf-8", "replace")
    if not body.strip():
        return [], [], []
    if reply.headers.get("content-type", "").startswith("text/event-stream"):
        # SSE lines end at CR or LF only (str.splitlines would also split at U+0085 and U+2028 in the JSON).
        texts = [line[5:].strip() for line in re.split(r"\r\n|\r|\n", body) if line.startswith("data:") and line[5:].strip()]
    else:
        texts = [body]
    messages, raws, garbage = [], [], []
    for text in texts:
        try:
            message = parse_output(text)
        except ValueError as exc:
            garbage.append(f"{short(text, 300)} ({exc}; HTTP {reply.status_code} {reply.headers.get('content-type')})")
            continue
        if (problem := jsonrpc_problem(message)) is not None:
            garbage.append(f"{short(text, 300)} ({problem}; HTTP {reply.status_code})")
        else:
            messages.append(message)
            raws.append(text)
    return messages, raws, garbage


# --- fixtures -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def announce_seed(request: pytest.FixtureRequest, record_testsuite_property: Any) -> None:
    """Print the seed before the first test (past output capturing), so any failure can be replayed;
    JUnit XML reports carry it as a property."""
    record_testsuite_property("parlance_fuzz_seed", SEED)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"\nparlance fuzz seed {SEED} ({REPRODUCE})")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A working folder with a parlance.toml enabling the default packs, strings_admin pointed at an
    emulator on loopback, and no language packs from the working directory."""
    from parlance_strings_admin.emulator.server import emulator_thread
    from parlance_strings_admin.emulator.store import Scope

    tmp = tmp_path_factory.mktemp("fuzz")
    with emulator_thread(tmp / "strings.db", [Scope("checkout", True)]) as emulator:
        (tmp / "parlance.toml").write_text(f'[packs.strings_admin]\nhost = "{emulator.host_url}"\n\n'
                                           "[language_packs]\npaths = []\n")
        yield tmp


@pytest.fixture(scope="module")
def stdio(workdir: Path) -> Iterator[dict[str, StdioServer]]:
    """One stdio server per era, started together."""
    servers = {era: StdioServer(workdir / "parlance.toml", era) for era in (LEGACY, MODERN)}
    try:
        for server in servers.values():
            server.open()
        yield servers
    finally:
        for server in servers.values():
            server.close()


@pytest.fixture(scope="module")
def http(workdir: Path) -> Iterator[HttpServer]:
    server = HttpServer(workdir / "parlance.toml")
    try:
        yield server
    finally:
        server.close()


def catalog_of(tools: list[dict[str, Any]], resources: list[dict[str, Any]]) -> Catalog:
    catalog = Catalog({t["name"]: t.get("inputSchema") or {} for t in tools}, [r["uri"] for r in resources])
    _VOCABULARY.update(METHODS, catalog.tools, catalog.resources, VERSIONS, LEVELS)
    _VOCABULARY.update(f"{META}{k}" for k in ("protocolVersion", "clientCapabilities", "clientInfo", "logLevel"))
    return catalog


@pytest.fixture(scope="module")
def catalog(stdio: dict[str, StdioServer]) -> Catalog:
    """What the server advertises (tools/list and resources/list, asked once)."""
    server = stdio[LEGACY]
    tools = server.call("tools/list")["result"]["tools"]
    resources = server.call("resources/list").get("result", {}).get("resources", [])
    return catalog_of(tools, resources)


@pytest.fixture
def bounded_shrinking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cap the time hypothesis spends shrinking (300 s by default, and a line that kills the server
    costs a restart per shrink step). Hypothesis documents the constant as patchable; when the cap is
    hit it prints its "more than five minutes" warning. The examples reported are then less minimal."""
    from hypothesis.internal.conjecture import engine

    if hasattr(engine, "MAX_SHRINKING_SECONDS"):
        monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", SHRINK_S)


def fuzz_settings(max_examples: int) -> Any:
    return settings(max_examples=max_examples, deadline=None, derandomize=False, database=None, print_blob=False,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],  # no "explain": it reruns
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


# --- one line, every property -----------------------------------------------------------------------------


def stdio_round(server: StdioServer, line: bytes, label: str) -> None:
    """Send `line` to a stdio server; raise the first property it breaks."""
    expected = expectation(line)
    got = server.exchange(line, expected)
    context = f"line: {short(line)} ({label}, era {server.era})\nowed: {expected.what}"
    if got.died:
        raise failure(ServerDied, expected, f"the server died\n{context}\n{server.deaths[-1]}")
    if not got.sentinel_answered:
        raise failure(ServerUnresponsive, expected, f"the ping after the line got no answer within "
                      f"{ANSWER_TIMEOUT_S} s\n{context}")
    check_answers(line, expected, got.answers, got.garbage, got.raw_answers, f" (era {server.era})")


def http_round(server: HttpServer, era: str, body: bytes, label: str, mismatch: bool = False) -> None:
    """POST `body` in `era` (the session, or a stateless 2026-07-28 request); raise the first property it breaks."""
    if not server.alive():
        server.restarts.append(f"before {short(body)}")
        server.restart()
    expected = expectation(body, http=True)
    headers = server.headers_for(era, body, mismatch)
    context = f"body: {short(body)} ({label}, era {era}, headers {headers})\nowed: {expected.what}"
    try:
        reply = server.post(body, headers)
    except httpx.HTTPError as exc:
        alive = server.alive()
        raise failure(ServerUnresponsive if alive else ServerDied, expected, f"no HTTP reply ({type(exc).__name__}: "
                      f"{exc})\n{context}\n{'' if alive else server.stderr_tail()}") from None
    if reply.status_code >= 500:
        raise failure(HttpServerError, expected, f"HTTP {reply.status_code}: {short(reply.text, 400)}\n{context}")
    messages, raws, garbage = http_messages(reply)
    answers = [(m, r) for m, r in zip(messages, raws, strict=True) if "method" not in m]
    check_answers(body, expected, [m for m, _ in answers], garbage, [r for _, r in answers],
                  f"\nHTTP {reply.status_code} (era {era}, headers {headers})")


# --- the fuzzing --------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("bounded_shrinking")
def test_stdio_lines(stdio: dict[str, StdioServer], catalog: Catalog) -> None:
    """Generated lines to `parlance serve` over stdio, in both eras (see the module docstring)."""
    strategies = {era: lines(era, catalog) for era in (LEGACY, MODERN)}

    @seed(SEED)
    @fuzz_settings(STDIO_EXAMPLES)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        era = data.draw(st.sampled_from([LEGACY, MODERN]), label="era")
        line = data.draw(strategies[era], label="line")
        stdio_round(stdio[era], line.data, line.label)

    fuzz()


@pytest.mark.usefixtures("bounded_shrinking")
def test_http_bodies(http: HttpServer, catalog: Catalog) -> None:
    """Generated bodies POSTed to `parlance serve --transport http`, in the 2025-11-25 session and as
    stateless 2026-07-28 requests (one in ten with an Mcp-Method header that contradicts the body)."""
    strategies = {era: lines(era, catalog) for era in (LEGACY, MODERN)}

    @seed(SEED)
    @fuzz_settings(HTTP_EXAMPLES)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        era = data.draw(st.sampled_from([LEGACY, MODERN]), label="era")
        line = data.draw(strategies[era], label="body")
        mismatch = era == MODERN and data.draw(st.integers(0, 9), label="mismatched headers (if 0)") == 0
        http_round(http, era, line.data, line.label, mismatch)

    fuzz()


# --- corner cases: each kind of line the fuzzer has found trouble with, checked on every run ---------------

_ENVELOPE = json.dumps({f"{META}protocolVersion": MODERN, f"{META}clientCapabilities": {}})
NEST = b"[" * 5000 + b"]" * 5000
HUGE = b"9" * 5000
CORNER_CASES: dict[str, bytes] = {
    "a ping": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}',
    "a blank line": b" ",
    "a tool call": b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"i18n_list_locales","arguments":{}}}',
    "deep nesting in params": b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":' + NEST + b"}}",
    "NaN in params": b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":NaN}}',
    "Infinity as the id": b'{"jsonrpc":"2.0","id":Infinity,"method":"ping"}',
    "a boolean id": b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
    "a null id": b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
    "a fractional id": b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    "jsonrpc 1.0": b'{"jsonrpc":"1.0","id":5,"method":"ping"}',
    "a method that is not a string": b'{"jsonrpc":"2.0","id":6,"method":5}',
    "params that are a string": b'{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}',
    "params that are a blank string": b'{"jsonrpc":"2.0","id":8,"method":"ping","params":""}',
    "an empty JSON string": b'""',
    "an empty object": b"{}",
    "deep nesting alone": NEST,
    "a lone surrogate in arguments": (b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"i18n_translate",'
                                      b'"arguments":{"key":"\\ud800"}}}'),
    "an id of 5000 digits": b'{"jsonrpc":"2.0","id":' + HUGE + b',"method":"ping"}',
    "a number of 5000 digits in params": b'{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":' + HUGE + b"}}",
    "Latin-1, not UTF-8": b'{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":"caf\xe9"}}',
    "a request with an error member": b'{"jsonrpc":"2.0","id":12,"method":"ping","error":{"code":1,"message":"m"}}',
    "a lone surrogate as the id": b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
}
"""Lines, written for the 2025-11-25 era (see for_era). Cases that may kill a server (deep nesting, a
lone-surrogate id) are spread out, so that the spare started after one death is ready for the next."""


def for_era(line: bytes, era: str) -> bytes:
    """`line` as sent in `era`: at 2026-07-28 the envelope joins its params object, if it has one."""
    envelope = b'"_meta":' + _ENVELOPE.encode()
    if era == LEGACY or b'"params":{' not in line:
        return line
    if b'"params":{}' in line:
        return line.replace(b'"params":{}', b'"params":{' + envelope + b"}", 1)
    return line.replace(b'"params":{', b'"params":{' + envelope + b",", 1)


def _corner_cases(check: Any, eras: list[str]) -> None:
    """Run `check(line, era, case)` for every corner case; fail once, listing each case that broke."""
    broken = []
    for case, line in CORNER_CASES.items():
        for era in eras:
            try:
                check(for_era(line, era), era, case)
            except FuzzFailure as failed:
                what, *details = str(failed).replace(f"\n{REPRODUCE}", "").splitlines()
                notes = [d[:300] for d in details if d.startswith(("owed: ", "server stderr"))]
                broken.append(f"- {case} ({era}) -> {type(failed).__name__}: {what[:300]}" +
                              "".join(f"\n    {n}" for n in notes))
    if broken:
        pytest.fail(f"{len(broken)} corner case(s) broke:\n" + "\n".join(broken), pytrace=False)


def test_stdio_corner_cases(stdio: dict[str, StdioServer]) -> None:
    """Every corner case over stdio, in the 2025-11-25 era (both eras share the transport; the fuzzing
    covers the other)."""
    _corner_cases(lambda line, era, case: stdio_round(stdio[era], line, case), [LEGACY])


def test_http_corner_cases(http: HttpServer) -> None:
    """Every corner case over HTTP, in both eras (each has its own code path in the SDK)."""
    def check(line: bytes, era: str, case: str) -> None:
        if line.strip():  # a blank line is a stdio matter
            http_round(http, era, line, case)

    _corner_cases(check, [LEGACY, MODERN])


# --- afterwards ----------------------------------------------------------------------------------------------


def test_stdio_servers_survived_and_still_answer(stdio: dict[str, StdioServer]) -> None:
    """Runs after the fuzzing: no line killed a server, nothing answered late, and both still answer."""
    problems = []
    for era, server in stdio.items():
        if server.deaths:
            problems.append(f"{len(server.deaths)} line(s) killed the {era} server (restarted each time); "
                            f"the first:\n{server.deaths[0]}")
        if server.hangs:
            problems.append(f"the {era} server stopped answering after {len(server.hangs)} line(s) (killed and "
                            f"restarted each time); the first: {server.hangs[0]}")
        if server.late:
            problems.append(f"{len(server.late)} answer(s) arrived after their line was settled ({era}), e.g. "
                            f"{server.late[0]}")
        server.ensure_running()
        answer = server.call("ping" if era == LEGACY else "tools/list", timeout=ANSWER_TIMEOUT_S)
        if "result" not in answer:
            problems.append(f"the {era} server no longer answers: {short(json.dumps(answer), 300)}")
    if problems:
        pytest.fail("\n".join(problems) + f"\n{REPRODUCE}", pytrace=False)


def test_http_server_survived_and_still_answers(http: HttpServer) -> None:
    """Runs after the fuzzing: the server never died, and a new session and a 2026-07-28 request work."""
    if http.restarts or not http.alive():
        pytest.fail(f"the HTTP server died during fuzzing ({http.restarts[:1]})\n{http.stderr_tail()}\n{REPRODUCE}",
                    pytrace=False)
    session = http.open_session()
    ping = http_messages(http.post(b'{"jsonrpc":"2.0","id":"end","method":"ping"}',
                                   {"mcp-protocol-version": LEGACY, "mcp-session-id": session}))[0]
    assert ping and ping[0].get("result") == {}, f"ping in a new session: {ping}\n{REPRODUCE}"
    body = json.dumps({"jsonrpc": "2.0", "id": "end", "method": "tools/list", "params": {"_meta": json.loads(_ENVELOPE)}})
    listed = http_messages(http.post(body.encode(), {"mcp-protocol-version": MODERN, "mcp-method": "tools/list"}))[0]
    assert listed and listed[0].get("result", {}).get("tools"), f"2026-07-28 tools/list: {listed}\n{REPRODUCE}"
