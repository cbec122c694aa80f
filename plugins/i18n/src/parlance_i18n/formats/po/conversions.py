"""What a program's `printf` or `%` would do otherwise with a translation than with its msgid, as
`msgfmt --check` finds it for the entries flagged `c-format` and `python-format`
(`PoFormat.runtime_refusals`):

- each argument read by a conversion of the type the msgid gives it (`%s` a string, `%d` a 32-bit
  integer, `%lld` a 64-bit one; Python: `%(name)s` any value, `%(name)d` an integer, which raises
  TypeError for a string). A numbered C argument (`%2$d`) or a named Python one may move; unnumbered
  ones take the arguments in order, so they keep the msgid's order;
- for `c-format`, every argument of the msgid and no other (a plural's forms may leave one out, as
  msgfmt allows): a `printf` given fewer conversions than arguments prints the wrong ones. Python
  formats' arguments are the placeholders every format's check already compares.

A plural's forms are compared with `msgid_plural`, as msgfmt compares them.
"""

from __future__ import annotations

from parlance_i18n.formats.base import Value
from parlance_i18n.formats.po.render import PYTHON_SPEC
from parlance_i18n.formats.shared.conversions import Conversion, message_conversion_reasons
from parlance_i18n.formats.shared.printf import printf_conversions

__all__ = ["c_format_reasons", "python_format_reasons"]

_PYTHON_KINDS = {**dict.fromkeys("sra", "any value"), **dict.fromkeys("diouxX", "an integer"),
                 **dict.fromkeys("eEfFgG", "a floating-point number"), "c": "a character"}


def python_format_reasons(msgid: Value, translation: Value | None) -> list[str]:
    return message_conversion_reasons(_plural_source(msgid), translation, _python_conversions)


def c_format_reasons(msgid: Value, translation: Value | None) -> list[str]:
    source = _plural_source(msgid)
    reasons = message_conversion_reasons(source, translation, _c_conversions)
    if translation is None:
        return reasons
    try:
        want = {c.argument: c for c in _c_conversions(source if isinstance(source, str) else source["other"])}
        forms = [_c_conversions(text) for text in _texts(translation)]
    except ValueError:
        return reasons
    plural = isinstance(translation, dict)
    for conversions in forms:
        have = {c.argument: c for c in conversions}
        for argument in sorted(set(have) - set(want), key=int):
            reason = (f"uses argument {argument} ({have[argument].written}), which the msgid does not have: printf "
                      "reads a value the program does not pass (remove it)")
            if reason not in reasons:
                reasons.append(reason)
        if plural:
            continue  # msgfmt lets a plural form leave an argument out ("one file" for n = 1)
        for argument in sorted(set(want) - set(have), key=int):
            reasons.append(f"drops argument {argument} ({want[argument].written}) that the msgid uses: printf "
                           "then prints the next arguments in its place (keep every conversion of the msgid)")
    return reasons


def _plural_source(msgid: Value) -> Value:
    """The msgid as the forms are held to: a plural's msgid_plural ("1"), named `other`."""
    if isinstance(msgid, dict):
        return {"other": msgid.get("1", msgid.get("0", ""))}
    return msgid


def _texts(value: Value) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())


def _c_conversions(text: str) -> list[Conversion]:
    return printf_conversions(text, "apple") if "%" in text else []


def _python_conversions(text: str) -> list[Conversion]:
    found: list[Conversion] = []
    at = position = 0
    while (percent := text.find("%", at)) >= 0:
        match = PYTHON_SPEC.match(text, percent)
        if match is None:
            raise ValueError("a % that starts no conversion")
        at = match.end()
        name, conversion = match.group(1), match.group(5)
        if conversion == "%":
            continue
        if name is None:
            position += 1
        found.append(Conversion(name if name is not None else str(position), _PYTHON_KINDS[conversion], match[0],
                                name is not None))
    return found
