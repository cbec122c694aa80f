"""Compiled messages: ICU MessageFormat parsed once into a compact form, rendered without re-parsing.

`compile_message(text, rules)` returns a `Message` whose `render(values, limit)`:

- looks variables up by name only: no attribute, index or format-spec access, ever;
- substitutes each value once: a value that contains `{x}` is printed as is, never re-expanded;
- renders only JSON scalars (str, int, float, bool) and Decimals; a missing value, `None`, or any
  other object leaves the argument's own text (`{name}`) in place;
- renders what FormatJS (`intl-messageformat`) renders for the same message and values: numbers,
  plural categories, dates and times come from `icu.locale_formats`, one shared object per locale;
- never produces more than `limit` characters, and stops building output as soon as it would;
- never raises.

Shapes, by how often they are rendered: plain text (kept as is), text with one `{name}` (before,
name, after: one f-string), and everything else: a tuple of steps walked by one small loop.
Compiling reads the common shapes (plurals and selects of text, `#` and `{name}`) straight into
steps through `icu.quick`, with no syntax tree in between; the rest goes through the full parser.
`message_facts(text)` gives what `Message.facts()` gives (argument names, plural uses) from one
parse, without compiling.

Memory stays linear in the source with a small constant, whatever the message says:

- Steps are plain tuples of strings, numbers and tuples (a `{name}` is `(ARG, name, text)`, a
  plural `(PLURAL, name, ordinal, offset, exact, keywords, branches, other)`, ...), which the
  garbage collector stops tracking: a bundle adds one tracked object per message, not per piece.
- While messages compile, equal pieces (texts, arguments, branches, whole nodes) are made once and
  shared: `{v}` written 3,000 times is one tuple and 3,000 slots of 8 bytes.
- What the steps cost beyond the source is counted as they are made. Steps that cost at most
  `_EAGER_RATIO` times the source's size are kept. Others (a plural with its branches is several
  times its short text; thousands of distinct tiny pieces are many times) are dropped once the
  message has proved valid: it keeps its text and compiles again when first rendered, into a
  cache shared by every message that holds at most `_CACHE_BYTES` of steps, oldest out first.

So a bundle at rest costs its text, a small object per message and at most `_EAGER_RATIO` times
its text in steps, and all the on-demand steps in the process together at most `_CACHE_BYTES`. A
message pushed out of the cache compiles again on its next render: about ten microseconds for an
ordinary plural, milliseconds for a message of 10,000 characters (about what rendering it costs).
Beyond those, the process keeps the steps of the one message it last compiled on demand, if they
cost at most `_DROPPED_BYTES`: the check tool reads each message's facts right after compiling
it, and takes them from those steps rather than from a second parse.
"""

from __future__ import annotations

import re
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from parlance_i18n.icu.locale_formats import LocaleFormats, js_number_text, locale_formats
from parlance_i18n.icu.quick import quick_build
from parlance_i18n.icu.syntax import (
    POUND,
    Argument,
    DateArgument,
    MessageSyntaxError,
    NumberArgument,
    Parts,
    PluralArgument,
    SelectArgument,
    parse,
    parse_fully,
)
from parlance_i18n.icu.plurals import TABLE_SIZE, Number, PluralRules, as_number

__all__ = ["Facts", "Message", "MessageSyntaxError", "PluralUse", "compile_message", "message_facts", "value_text"]

_NAMES_ONLY = re.compile(r"(?:[^{}]|\{[\w.\-]+\})*")
_NAME_TOKEN = re.compile(r"\{([\w.\-]+)\}")
_ONE_ARGUMENT = re.compile(r"([^{}']*)\{([\w.\-]+)\}([^{}']*)")

_EAGER_RATIO = 2
"""Steps that cost at most this many times the source's size are kept from the start."""
_CACHE_BYTES = 16 * 1024 * 1024
"""What the steps compiled on first render may cost in all, in the whole process."""
_SHARED_LIMIT = 4096
"""Most pieces a `shared` dict holds; it starts afresh when full (it lives while one bundle compiles)."""
_SHARED_PIECE = 256
"""Larger pieces are shared within their message only, so `shared` never holds much."""
_DROPPED_BYTES = 4096
"""The largest steps of an on-demand message kept after its compile, for the look that usually follows."""

# Opcodes: a step that is a tuple says what it is in its first item. A str step is literal text;
# None is '#' (the innermost plural's number), which the garbage collector, unlike POUND, ignores.
_ARG, _NUMBER, _PLURAL, _SELECT, _DATE = 0, 1, 2, 3, 4

Values = Mapping[str, Any]
Steps = tuple[Any, ...]

_NO_VALUES: Values = {}
Facts = tuple[frozenset[str], tuple["PluralUse", ...]]
"""A message's argument names and plural uses (`Message.facts`)."""
_NO_FACTS: Facts = (frozenset(), ())
_sizeof = sys.getsizeof
_Piece = TypeVar("_Piece")


@dataclass(frozen=True, slots=True)
class PluralUse:
    """One plural or selectordinal argument in a message, for the check tool."""

    argument: str
    ordinal: bool
    keywords: frozenset[str]


def compile_message(text: str, rules: PluralRules, shared: dict[Any, Any] | None = None) -> Message:
    """Compile `text`; raises `MessageSyntaxError` (with the position) when it is not valid ICU.

    `shared`: a dict the caller keeps (empty at first) while it compiles several messages, such as
    a bundle's, so that pieces they have in common (`{name}`, `{count}`, ...) are made once.
    """
    if "{" not in text and "}" not in text and ("'" not in text or ("'<" not in text and "'>" not in text)):
        return _Literal(text, text.replace("''", "'") if "''" in text else text)  # plain text: '' is all to undo
    compiler = _Compiler(shared)
    one = _ONE_ARGUMENT.fullmatch(text)
    if one is not None:  # `Hello {name}, ...`, the commonest message with an argument, without steps
        before, name, after = one.groups()
        share = compiler._share
        return _OneArgument(text, share(before) if before else "", share((_ARG, name, f"{{{name}}}")),
                            share(after) if after else "")
    formats = locale_formats(rules)
    steps = compiler.message(text)
    nodes = [step for step in steps if step.__class__ is not str]
    if not nodes:
        return _Literal(text, "".join(steps))
    if len(nodes) == 1 and nodes[0][0] == _ARG:
        index = steps.index(nodes[0])  # adjacent text is one piece: at most one before and one after
        return _OneArgument(text, "".join(steps[:index]), nodes[0], "".join(steps[index + 1:]))
    if compiler.cost > _EAGER_RATIO * _sizeof(text):
        _last_dropped.keep(text, steps, compiler.cost)
        return _OnDemand(text, formats)
    if len(steps) == 1:
        return _Node(text, steps[0], formats)
    return _Steps(text, steps, formats)


def message_facts(text: str) -> Facts:
    """`compile_message(text, rules).facts()` from one parse, compiling nothing: the names of the
    arguments `text` uses and its plural uses. Raises `MessageSyntaxError` as `compile_message` does."""
    if "{" not in text and "}" not in text:
        return _NO_FACTS
    names: set[str] = set()
    uses: list[PluralUse] = []
    _collect_parts(parse(text), names, uses)
    return frozenset(names), tuple(uses)


def _text(value: Any) -> str | None:
    """How `{name}` prints a value, as FormatJS does (`String(value)`: 1.0 is "1"); None when it does not."""
    if value.__class__ is float:
        return js_number_text(value)
    return value_text(value)


def value_text(value: Any) -> str | None:
    """How a variable's value prints, or None when it does not (missing, null, or not a scalar)."""
    kind = value.__class__  # read once for every test below, which is why mypy cannot narrow `value`
    if kind is str:
        return value  # type: ignore[no-any-return]  # a str: `kind is str`
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is float:
        try:
            return str(value)
        except ValueError:  # an integer with more digits than Python prints
            return None
    if kind is Decimal:
        return str(value)
    return None


# --- messages ------------------------------------------------------------------------------------------


class Message:
    """A compiled message: its source text, `render(values, limit)`, and what it refers to.

    One small object per message, of the subclass that fits its shape. `arguments` and `plurals`
    (for the check tool) are read from the steps when asked for, not stored. Treat as immutable.
    """

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def render(self, values: Values | None, limit: int) -> str:
        raise NotImplementedError

    @property
    def arguments(self) -> frozenset[str]:
        """The names of every argument the message uses, in any branch."""
        return self.facts()[0]

    @property
    def plurals(self) -> tuple[PluralUse, ...]:
        """Each plural and selectordinal argument, in source order."""
        return self.facts()[1]

    def facts(self) -> Facts:
        """`arguments` and `plurals` from one look at the message: what the check tool reads of
        every message."""
        names: set[str] = set()
        uses: list[PluralUse] = []
        _collect(self._steps(), names, uses)
        return frozenset(names), tuple(uses)

    def _steps(self) -> Steps:
        return ()

    def __repr__(self) -> str:
        return f"Message({self.source!r})"


class _Literal(Message):
    __slots__ = ("_text",)

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self._text = text

    def render(self, values: Values | None, limit: int) -> str:
        text = self._text
        return text if len(text) <= limit else text[:limit]

    def facts(self) -> Facts:
        return _NO_FACTS


class _OneArgument(Message):
    """Text around one `{name}`, the commonest message with an argument: one f-string to render."""

    __slots__ = ("_before", "_name", "_missing", "_after")

    def __init__(self, source: str, before: str, argument: Steps, after: str) -> None:
        self.source = source
        _, self._name, self._missing = argument
        self._before = before
        self._after = after

    def render(self, values: Values | None, limit: int) -> str:
        value = values.get(self._name) if values else None
        if value.__class__ is not str:
            value = _text(value) or self._missing
        if len(value) > limit:
            value = value[:limit]
        text = f"{self._before}{value}{self._after}"
        return text if len(text) <= limit else text[:limit]

    def _steps(self) -> Steps:
        return ((_ARG, self._name, self._missing),)

    def facts(self) -> Facts:
        return frozenset((self._name,)), ()


class _Steps(Message):
    __slots__ = ("_compiled", "_rules")

    def __init__(self, source: str, steps: Steps, rules: LocaleFormats) -> None:
        self.source = source
        self._compiled = steps
        self._rules = rules

    def render(self, values: Values | None, limit: int) -> str:
        text = _run(self._compiled, values or _NO_VALUES, limit, "", self._rules)
        return text if len(text) <= limit else text[:limit]

    def _steps(self) -> Steps:
        return self._compiled


class _Node(Message):
    """A message that is one plural, select or number argument: the step loop is skipped."""

    __slots__ = ("_node", "_emit", "_rules")

    def __init__(self, source: str, node: Steps, rules: LocaleFormats) -> None:
        self.source = source
        self._node = node
        self._emit = _EMIT[node[0]]
        self._rules = rules

    def render(self, values: Values | None, limit: int) -> str:
        text = self._emit(self._node, values or _NO_VALUES, limit, "", self._rules)
        return text if len(text) <= limit else text[:limit]

    def _steps(self) -> Steps:
        return (self._node,)


class _OnDemand(Message):
    """A message whose steps would cost several times its text: compiled when rendered, into `_cache`."""

    __slots__ = ("_rules", "_compiled")

    def __init__(self, source: str, rules: LocaleFormats) -> None:
        self.source = source
        self._rules = rules
        self._compiled: Steps | None = None

    def render(self, values: Values | None, limit: int) -> str:
        steps = self._compiled
        if steps is None:
            steps = _cache.compile(self)
        if len(steps) == 1 and steps[0].__class__ is tuple:
            node = steps[0]
            text = _EMIT[node[0]](node, values or _NO_VALUES, limit, "", self._rules)
        else:
            text = _run(steps, values or _NO_VALUES, limit, "", self._rules)
        return text if len(text) <= limit else text[:limit]

    def facts(self) -> Facts:
        # The check tool reads every message: it neither fills the cache nor compiles again what
        # the compile that made this message has just made.
        steps = self._compiled
        if steps is None:
            steps = _last_dropped.steps_of(self.source)
        if steps is None:
            return message_facts(self.source)
        names: set[str] = set()
        uses: list[PluralUse] = []
        _collect(steps, names, uses)
        return frozenset(names), tuple(uses)


class _Cache:
    """The steps of the `_OnDemand` messages compiled last, `limit` bytes of them at most (FIFO).

    Each message holds its own steps (a hit is one attribute read); the cache only decides whose
    to drop. A lock keeps the books straight if messages are rendered from several threads.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._order: deque[tuple[_OnDemand, int]] = deque()
        self._lock = threading.Lock()

    def compile(self, message: _OnDemand) -> Steps:
        compiler = _Compiler()
        steps = compiler.message(message.source)
        cost = compiler.cost + _sizeof(message.source)  # the cache may hold the last reference to the text
        with self._lock:
            if message._compiled is None:
                message._compiled = steps
                self._order.append((message, cost))
                self.size += cost
            while self.size > self.limit and len(self._order) > 1:
                oldest, oldest_cost = self._order.popleft()
                oldest._compiled = None
                self.size -= oldest_cost
        return steps


_cache = _Cache(_CACHE_BYTES)


class _LastDropped:
    """The steps of the last message `compile_message` made `_OnDemand`, when they are small.

    The check tool compiles each message and at once reads its facts: those come from these steps
    rather than from a second parse. One message's steps, `_DROPPED_BYTES` at most, so what
    bundles hold is unchanged."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: tuple[str, Steps] | None = None

    def keep(self, source: str, steps: Steps, cost: int) -> None:
        self._kept = (source, steps) if cost <= _DROPPED_BYTES else None

    def steps_of(self, source: str) -> Steps | None:
        """The steps of `source` (the very str object) if they are the ones kept, else None."""
        kept = self._kept  # one read: another thread may replace it meanwhile
        return kept[1] if kept is not None and kept[0] is source else None


_last_dropped = _LastDropped()


# --- rendering steps -----------------------------------------------------------------------------------
#
# A sequence stops joining as soon as its output passes `limit`, so memory stays bounded by the
# limit plus one value however the template repeats arguments; the message cuts the result to `limit`.


def _run(steps: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    out = []
    size = 0
    get = values.get
    for step in steps:
        if step.__class__ is str:
            piece = step
        elif step is None:
            piece = pound
        elif step[0] == _ARG:
            value = get(step[1])
            piece = value if value.__class__ is str else (_text(value) or step[2])
        else:
            piece = _EMIT[step[0]](step, values, limit, pound, rules)
        out.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(out)[:limit]
    return "".join(out)


def _argument(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    value = values.get(node[1])
    return value if value.__class__ is str else (_text(value) or node[2])


def _number(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, style, missing = node
    value = values.get(name)
    number = as_number(value)
    if number is None:
        return _text(value) or missing
    return rules.number(number, style)


def _date(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, kind, style, missing = node
    value = values.get(name)
    number = as_number(value)
    text = rules.date(number, kind, style) if number is not None else None
    return text if text is not None else (_text(value) or missing)


def _plural(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, ordinal, offset, exact, keywords, branches, other = node
    value = values.get(name)
    if value.__class__ is int and 0 <= value < TABLE_SIZE and not offset:  # the common case, inlined
        if exact:
            branch = _exact(exact, value)
            if branch is not None:
                return _run(branch, values, limit, rules.small[value], rules)
        category = (rules.ordinal_table if ordinal else rules.cardinal_table)[value]
        branch = branches[keywords.index(category)] if category in keywords else other
        return _run(branch, values, limit, rules.small[value], rules)
    number = as_number(value)
    if number is None:  # not a number: the `other` branch, with the value (or the token) for '#'
        return _run(other, values, limit, _text(value) or "{" + name + "}", rules)
    branch = _exact(exact, number) if exact else None
    shifted = number - offset if offset else number
    if branch is None:
        category = (rules.ordinal if ordinal else rules.cardinal)(shifted)
        branch = branches[keywords.index(category)] if category in keywords else other
    return _run(branch, values, limit, rules.number(shifted), rules)


def _exact(exact: tuple[tuple[Decimal, Steps], ...], number: Number) -> Steps | None:
    # `=N` keys are Decimals; ints, floats and Decimals that are equal compare equal.
    for key, branch in exact:
        if key == number:
            return branch
    return None


def _select(node: Steps, values: Values, limit: int, pound: str, rules: LocaleFormats) -> str:
    _, name, keys, branches, other = node
    value = values.get(name)
    key = value if value.__class__ is str else _text(value)
    branch = branches[keys.index(key)] if key is not None and key in keys else other
    return _run(branch, values, limit, pound, rules)


_EMIT = {_ARG: _argument, _NUMBER: _number, _PLURAL: _plural, _SELECT: _select, _DATE: _date}


# --- compiling -----------------------------------------------------------------------------------------


class _Compiler:
    """Turns one message into steps, sharing equal pieces and adding up what new ones cost.

    The common shapes are read by `icu.quick`, which builds the steps through this compiler's
    `Builder` methods (text, argument, sequence, plural, select) without a syntax tree; the others
    are parsed in full and their tree walked into the same methods."""

    __slots__ = ("cost", "_memo", "_shared")
    pound = None

    def __init__(self, shared: dict[Any, Any] | None = None) -> None:
        self.cost = 0
        """Bytes of the pieces made for this message (each counted once, shared ones not at all)."""
        self._memo: dict[Any, Any] = {}
        if shared is not None and len(shared) >= _SHARED_LIMIT:
            shared.clear()  # what keeps repeating is soon back; one-off texts do not pile up
        self._shared = shared

    def message(self, text: str) -> Steps:
        if "'" not in text and _NAMES_ONLY.fullmatch(text):  # the common shape, without the full parser
            pieces = _NAME_TOKEN.split(text)  # text, name, text, name, ..., text
            return self._share(tuple(self._share(piece) if i % 2 == 0 else self._share((_ARG, piece, f"{{{piece}}}"))
                                     for i, piece in enumerate(pieces) if piece or i % 2))
        steps = quick_build(text, self)
        return steps if steps is not None else self._sequence(parse_fully(text))

    # --- the Builder methods, which icu_quick calls -------------------------------------------------

    def text(self, text: str) -> str:
        return self._share(text)

    def sequence(self, items: tuple[Any, ...]) -> Steps:
        return self._share(items)

    def argument(self, name: str, source: str) -> Steps:
        return self._share((_ARG, self._share(name), source))

    def plural(self, name: str, ordinal: bool, offset: int, exact: list[tuple[Decimal, Steps]],
               cases: list[tuple[str, Steps]]) -> Steps:
        share = self._share
        keys = share(tuple([share(key) for key, _ in cases]))
        branches = share(tuple([branch for _, branch in cases]))
        exact_branches = share(tuple([share(pair) for pair in exact]))
        node = (_PLURAL, share(name), ordinal, offset, exact_branches, keys, branches, branches[keys.index("other")])
        return share(node)

    def select(self, name: str, cases: list[tuple[str, Steps]]) -> Steps:
        share = self._share
        keys = share(tuple([share(key) for key, _ in cases]))
        branches = share(tuple([branch for _, branch in cases]))
        node = (_SELECT, share(name), keys, branches, branches[keys.index("other")])
        return share(node)

    # --- the syntax tree of the other shapes ---------------------------------------------------------

    def _sequence(self, parts: Parts) -> Steps:
        return self._share(tuple(map(self._step, parts)))

    def _step(self, part: Any) -> Any:
        kind = part.__class__
        if kind is str:
            return self._share(part)
        if part is POUND:
            return None
        if kind is Argument:
            return self.argument(part.name, part.source)
        if kind is NumberArgument:
            return self._share((_NUMBER, self._share(part.name), part.style, part.source))
        if kind is DateArgument:
            return self._share((_DATE, self._share(part.name), part.kind, part.style, part.source))
        if kind is PluralArgument:
            return self.plural(part.name, part.ordinal, part.offset,
                               [(number, self._sequence(branch)) for number, branch in part.exact.items()],
                               [(key, self._sequence(branch)) for key, branch in part.cases.items()])
        if kind is SelectArgument:
            return self.select(part.name, [(key, self._sequence(branch)) for key, branch in part.cases.items()])
        raise TypeError(f"unexpected syntax node {kind.__name__}")  # pragma: no cover

    def _share(self, piece: _Piece) -> _Piece:
        """The equal piece made before, or `piece` itself, counted, when it is the first."""
        shared = self._shared
        if shared is not None:  # a small piece is looked for, and kept, in `shared` alone
            found: _Piece = shared.setdefault(piece, piece)  # one lookup, whether it is there or not
            if found is not piece:
                return found
            size = _sizeof(piece)
            if size <= _SHARED_PIECE:
                self.cost += size
                return piece
            del shared[piece]  # too large to keep beyond this message
        made: _Piece | None = self._memo.get(piece)
        if made is None:
            made = self._memo[piece] = piece
            self.cost += _sizeof(piece)
        return made


def _collect_parts(parts: Parts, arguments: set[str], plurals: list[PluralUse]) -> None:
    """What `_collect` finds in the steps of `parts`, read from the syntax tree itself."""
    for part in parts:
        kind = part.__class__
        if kind is str or part is POUND:
            continue
        arguments.add(part.name)  # type: ignore[union-attr]
        if kind is PluralArgument:
            plurals.append(PluralUse(part.name, part.ordinal, frozenset(part.cases)))  # type: ignore[union-attr]
            for branch in (*part.exact.values(), *part.cases.values()):  # type: ignore[union-attr]
                _collect_parts(branch, arguments, plurals)
        elif kind is SelectArgument:
            for branch in part.cases.values():  # type: ignore[union-attr]
                _collect_parts(branch, arguments, plurals)


def _collect(steps: Steps, arguments: set[str], plurals: list[PluralUse]) -> None:
    for step in steps:
        if step.__class__ is str or step is None:
            continue
        kind, name = step[0], step[1]
        arguments.add(name)
        if kind == _PLURAL:
            _, _, ordinal, _, exact, keywords, branches, _ = step
            plurals.append(PluralUse(name, ordinal, frozenset(keywords)))
            for branch in (*(branch for _, branch in exact), *branches):
                _collect(branch, arguments, plurals)
        elif kind == _SELECT:
            for branch in step[3]:
                _collect(branch, arguments, plurals)
