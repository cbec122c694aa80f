"""The small assertion language eval examples use to state expected properties of an output.

An expectation is `{"path": ..., "op": ..., "value": ...}`. `path` is dotted with `[*]` to fan out
over a list (`ambiguity.spans[*].reason`) and `[n]` to index; `len(...)` wraps a path to take a
length. Operators:

    equals       the value at path == value
    in           the value at path is one of value (a list)
    contains     a list at path contains value, or a string at path contains value as a substring
    excludes     the opposite of contains
    min / max    the number at path >= / <= value (for a fan-out: every number)
    is_null      the value at path is null (value true) or is not (value false)

`check` returns None when the expectation holds, else a sentence saying what was found.
"""

from __future__ import annotations

import re
from typing import Any

_STEP = re.compile(r"([^.\[\]]+)|\[(\*|\d+)\]")
_MISSING = object()


def resolve(data: Any, path: str) -> Any:
    """The value(s) at `path`; a `[*]` step turns the result into a list."""
    if path.startswith("len(") and path.endswith(")"):
        found = resolve(data, path[4:-1])
        return len(found) if isinstance(found, (list, str, dict)) else _MISSING
    values, fanned = [data], False
    for name, index in _STEP.findall(path):
        following = []
        for value in values:
            if name:
                following.append(value.get(name, _MISSING) if isinstance(value, dict) else _MISSING)
            elif index == "*":
                fanned = True
                following.extend(value if isinstance(value, list) else [])
            else:
                position = int(index)
                ok = isinstance(value, list) and position < len(value)
                following.append(value[position] if ok else _MISSING)
        values = following
    if fanned:
        return [value for value in values if value is not _MISSING]
    return values[0] if values else _MISSING


def check(data: Any, expectation: dict[str, Any]) -> str | None:
    path, op, wanted = expectation["path"], expectation["op"], expectation.get("value")
    found = resolve(data, path)
    if found is _MISSING:
        return f"{path}: not present"
    ok: bool
    if op == "equals":
        ok = found == wanted
    elif op == "in":
        ok = isinstance(wanted, list) and found in wanted
    elif op == "contains":
        ok = wanted in found if isinstance(found, (list, str)) else False
    elif op == "excludes":
        ok = wanted not in found if isinstance(found, (list, str)) else False
    elif op in ("min", "max"):
        numbers = found if isinstance(found, list) else [found]
        numeric = all(isinstance(n, (int, float)) and not isinstance(n, bool) for n in numbers)
        ok = numeric and all((n >= wanted) if op == "min" else (n <= wanted) for n in numbers)
    elif op == "is_null":
        ok = (found is None) == bool(wanted)
    else:
        return f"{path}: unknown operator {op!r}"
    return None if ok else f"{path} {op} {wanted!r}: found {found!r}"
