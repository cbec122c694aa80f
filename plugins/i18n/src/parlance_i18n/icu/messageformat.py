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
name, after: one f-string), and everything else: a tuple of steps (`icu.compiler`) walked by one
small loop (`icu.render`). Compiling reads the common shapes (plurals and selects of text, `#` and
`{name}`) straight into steps through `icu.quick`, with no syntax tree in between; the rest goes
through the full parser. `message_facts(text)` gives what `Message.facts()` gives (argument names,
plural uses, see `icu.facts`) from one parse, without compiling.

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
from typing import Any

from parlance_i18n.icu.compiler import ARG, Compiler, Steps
from parlance_i18n.icu.facts import NO_FACTS, Facts, PluralUse, message_facts, steps_facts
from parlance_i18n.icu.locale_formats import LocaleFormats, locale_formats
from parlance_i18n.icu.plurals import PluralRules
from parlance_i18n.icu.render import EMIT, Values, argument_text, run, value_text
from parlance_i18n.icu.syntax import MessageSyntaxError

__all__ = ["Facts", "Message", "MessageSyntaxError", "PluralUse", "compile_message", "message_facts", "value_text"]

_ONE_ARGUMENT = re.compile(r"([^{}']*)\{([\w.\-]+)\}([^{}']*)")

_EAGER_RATIO = 2
"""Steps that cost at most this many times the source's size are kept from the start."""
_CACHE_BYTES = 16 * 1024 * 1024
"""What the steps compiled on first render may cost in all, in the whole process."""
_DROPPED_BYTES = 4096
"""The largest steps of an on-demand message kept after its compile, for the look that usually follows."""

_NO_VALUES: Values = {}
_sizeof = sys.getsizeof


def compile_message(text: str, rules: PluralRules, shared: dict[Any, Any] | None = None) -> Message:
    """Compile `text`; raises `MessageSyntaxError` (with the position) when it is not valid ICU.

    `shared`: a dict the caller keeps (empty at first) while it compiles several messages, such as
    a bundle's, so that pieces they have in common (`{name}`, `{count}`, ...) are made once.
    """
    if "{" not in text and "}" not in text and ("'" not in text or ("'<" not in text and "'>" not in text)):
        return _Literal(text, text.replace("''", "'") if "''" in text else text)  # plain text: '' is all to undo
    compiler = Compiler(shared)
    one = _ONE_ARGUMENT.fullmatch(text)
    if one is not None:  # `Hello {name}, ...`, the commonest message with an argument, without steps
        before, name, after = one.groups()
        share = compiler.share
        return _OneArgument(text, share(before) if before else "", share((ARG, name, f"{{{name}}}")),
                            share(after) if after else "")
    formats = locale_formats(rules)
    steps = compiler.message(text)
    nodes = [step for step in steps if step.__class__ is not str]
    if not nodes:
        return _Literal(text, "".join(steps))
    if len(nodes) == 1 and nodes[0][0] == ARG:
        index = steps.index(nodes[0])  # adjacent text is one piece: at most one before and one after
        return _OneArgument(text, "".join(steps[:index]), nodes[0], "".join(steps[index + 1:]))
    if compiler.cost > _EAGER_RATIO * _sizeof(text):
        _last_dropped.keep(text, steps, compiler.cost)
        return _OnDemand(text, formats)
    if len(steps) == 1:
        return _Node(text, steps[0], formats)
    return _Steps(text, steps, formats)


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
        return steps_facts(self._steps())

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
        return NO_FACTS


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
            value = argument_text(value) or self._missing
        if len(value) > limit:
            value = value[:limit]
        text = f"{self._before}{value}{self._after}"
        return text if len(text) <= limit else text[:limit]

    def _steps(self) -> Steps:
        return ((ARG, self._name, self._missing),)

    def facts(self) -> Facts:
        return frozenset((self._name,)), ()


class _Steps(Message):
    __slots__ = ("_compiled", "_rules")

    def __init__(self, source: str, steps: Steps, rules: LocaleFormats) -> None:
        self.source = source
        self._compiled = steps
        self._rules = rules

    def render(self, values: Values | None, limit: int) -> str:
        text = run(self._compiled, values or _NO_VALUES, limit, "", self._rules)
        return text if len(text) <= limit else text[:limit]

    def _steps(self) -> Steps:
        return self._compiled


class _Node(Message):
    """A message that is one plural, select or number argument: the step loop is skipped."""

    __slots__ = ("_node", "_emit", "_rules")

    def __init__(self, source: str, node: Steps, rules: LocaleFormats) -> None:
        self.source = source
        self._node = node
        self._emit = EMIT[node[0]]
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
            text = EMIT[node[0]](node, values or _NO_VALUES, limit, "", self._rules)
        else:
            text = run(steps, values or _NO_VALUES, limit, "", self._rules)
        return text if len(text) <= limit else text[:limit]

    def facts(self) -> Facts:
        # The check tool reads every message: it neither fills the cache nor compiles again what
        # the compile that made this message has just made.
        steps = self._compiled
        if steps is None:
            steps = _last_dropped.steps_of(self.source)
        if steps is None:
            return message_facts(self.source)
        return steps_facts(steps)


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
        compiler = Compiler()
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
