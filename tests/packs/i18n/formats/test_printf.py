"""printf.compile_printf: Android's java.util.Formatter and Apple's String(format:), specifier by specifier.

The Java table was produced by `String.format(Locale.ROOT, ...)` on OpenJDK 17 (and is compared with
a live JVM when `javac` is on PATH); the Apple table's numeric conversions by C's printf, which
Foundation's formatting follows for them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from parlance_i18n.formats.shared.printf import compile_printf


def _values(args: list[Any]) -> dict[str, Any]:
    return {str(position): value for position, value in enumerate(args, 1)}


JAVA = [
    ("%s has %d photos (%.1f%%)%n", ["Ann", 3, 0.25], "Ann has 3 photos (0.3%)\n"),
    ("%2$s %1$s %<s %s", ["a", "b"], "b a a a"),
    ("[%5s|%-5s|%05d|%,d|%(d|%+d|% d]", ["ab", "cd", -42, 1234567, -5, 5, 5],
     "[   ab|cd   |-0042|1,234,567|(5)|+5| 5]"),
    ("[%x|%X|%#x|%o|%#o|%08X|%x]", [255, -1, 255, 8, 8, 3000000000, -3000000000],
     "[ff|FFFFFFFF|0xff|10|010|B2D05E00|ffffffff4d2fa200]"),
    ("[%e|%.2e|%g|%g|%.3g|%f|%.2f|%,.2f]",
     [12345.678, 0.000123456, 0.0001234, 123456789.0, 1.0, 1.005, 1.005, 1234567.891],
     "[1.234568e+04|1.23e-04|0.000123400|1.23457e+08|1.00|1.005000|1.01|1,234,567.89]"),
    ("[%b|%b|%B|%c|%C|%h|%S|%h|%h|%H]", [True, "x", False, 65, 97, "hello", "up", 42, 3000000000, 1.5],
     "[true|true|FALSE|A|A|5e918d2|UP|2a|b2d05e00|3FF80000]"),
    ("[%s|%s|%s|%s|%s|%s]", [1e10, 0.0001, 123.0, -2.5e-7, 1e7, 9999999.0],
     "[1.0E10|1.0E-4|123.0|-2.5E-7|1.0E7|9999999.0]"),
    ("[%.1f|%.0f|%.1f|%.2f|%.3e|%g|%g|%#.0f|%#.0e]", [0.05, 2.5, -0.25, 0.125, 1.0005, 0.0, 100000.0, 3.0, 3.0],
     "[0.1|3|-0.3|0.13|1.001e+00|0.00000|100000|3.|3.e+00]"),
    ("[%10.3f|%-10.2e|%010.2f|%(,.2f|%+.1e|% .2f]", [3.14159, 31415.9, -3.14159, -1234.5, 12.0, 2.0],
     "[     3.142|3.14e+04  |-000003.14|(1,234.50)|+1.2e+01| 2.00]"),
    ("[%.3s|%-6.2s|%S]", ["abcdef", "xyz", "ümlaut"], "[abc|xy    |ÜMLAUT]"),
    ("[%g|%.1g|%g|%g|%g]", [0.00001234, 9.96, 1e-5, 123456.5, 999999.5],
     "[1.23400e-05|1e+01|1.00000e-05|123457|1.00000e+06]"),
    ("[%e|%e|%.0e]", [0.0, -1e-300, 5.5], "[0.000000e+00|-1.000000e-300|6e+00]"),
    ("[%,d|%,010d|%(08d|%-+6d|%o]", [-1234567, 1234, -5, 7, -8], "[-1,234,567|000001,234|(000005)|+7    |37777777770]"),
    ("[%s %s %s]", [True, False, 42], "[true false 42]"),
]


@pytest.mark.parametrize(("text", "args", "expected"), JAVA, ids=[case[0] for case in JAVA])
def test_java_renders_as_java_util_formatter(text: str, args: list[Any], expected: str) -> None:
    assert compile_printf(text, "java").render(_values(args), 1000) == expected


def test_java_table_agrees_with_a_live_jvm(tmp_path: Path) -> None:
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("a JDK (javac, java) on PATH runs the Java reference; the table above holds its answers")

    def literal(value: Any) -> str:
        if isinstance(value, bool):
            return f"Boolean.valueOf({str(value).lower()})"
        if isinstance(value, int):
            return f"Integer.valueOf({value})" if -2**31 <= value < 2**31 else f"Long.valueOf({value}L)"
        if isinstance(value, float):
            return f"Double.valueOf({value!r})"
        return json.dumps(value)

    calls = "\n".join(f"System.out.println(String.format(java.util.Locale.ROOT, {json.dumps(text)}"
                      f"{''.join(', ' + literal(a) for a in args)}).replace(\"\\n\", \"\\\\n\"));"
                      for text, args, _ in JAVA)
    program = f"public class Reference {{ public static void main(String[] a) {{\n{calls}\n}}}}\n"
    (tmp_path / "Reference.java").write_text(program, encoding="utf-8")
    subprocess.run(["javac", "Reference.java"], cwd=tmp_path, check=True, timeout=120)
    output = subprocess.run(["java", "-cp", ".", "Reference"], cwd=tmp_path, check=True, timeout=120,
                            capture_output=True, text=True, encoding="utf-8").stdout.splitlines()
    assert output == [expected.replace("\n", "\\n") for _, _, expected in JAVA]


APPLE = [  # numeric columns as C's printf prints them
    ("[%d|%u|%x|%lx|%lld|%llu|%hd|%hhu|%o|%#x|%#o|%5d|%-5d|%05d|%+d|% d|%.3d|%08.3d]",
     [-1, -1, -1, -1, 1 << 40, -1, 70000, 300, 8, 255, 8, 42, 42, 42, 42, 42, 7, 7],
     "[-1|4294967295|ffffffff|ffffffffffffffff|1099511627776|18446744073709551615|4464|44|10|0xff|010|   42|42   "
     "|00042|+42| 42|007|     007]"),
    ("[%f|%.2f|%e|%E|%g|%G|%.3g|%10.2f|%-10.2f|%+.1f|%#.0f|%.0f|%.0f|%g|%g]",
     [3.14159, 1.005, 12345.678, 12345.678, 0.0001234, 1e-10, 1234567.0, 3.14159, 3.14159, 2.0, 3.0, 2.5, 3.5,
      100000.0, 1000000.0],
     "[3.141590|1.00|1.234568e+04|1.234568E+04|0.0001234|1E-10|1.23e+06|      3.14|3.14      |+2.0|3.|2|4|100000"
     "|1e+06]"),
    ("[%c|%s|%.2s|%5s|%-5s|%%]", [65, "hello", "hello", "ab", "ab"], "[A|hello|he|   ab|ab   |%]"),
    ("%@ has %ld new %@ (%i%%)", ["Ann", 3, "messages", 50], "Ann has 3 new messages (50%)"),
    ("%2$@ → %1$@, %lu %@", ["first", "second"], "second → first, first second"),
    ("[%@|%@|%@|%@|%d|%'d]", [True, 2.5, 3.0, 7, True, 1234567], "[1|2.5|3|7|1|1234567]"),
    ("[%S|%C|%D|%U|%O]", ["wide", 0x263A, -5, -5, 8], "[wide|☺|-5|18446744073709551611|10]"),
]


@pytest.mark.parametrize(("text", "args", "expected"), APPLE, ids=[case[0] for case in APPLE])
def test_apple_renders_as_string_format(text: str, args: list[Any], expected: str) -> None:
    assert compile_printf(text, "apple").render(_values(args), 1000) == expected


def test_missing_arguments_stay_as_written_and_wrong_types_print_as_text() -> None:
    java = compile_printf("%1$s owes %2$d, %3$.2f and %4$c (%5$x)", "java")
    assert java.render({"1": "Ann"}, 100) == "Ann owes %2$d, %3$.2f and %4$c (%5$x)"
    wrong_types = {"1": None, "2": "three", "3": 2, "4": "zz", "5": 2.5}
    assert java.render(wrong_types, 100) == "%1$s owes three, 2.00 and zz (2.5)"
    not_scalars = {"1": ["a"], "2": {"x": 1}, "3": 2.5, "4": 66, "5": 3.0}
    assert java.render(not_scalars, 100) == "%1$s owes %2$d, 2.50 and B (3)"
    apple = compile_printf("%@ and %lld", "apple")
    assert apple.render(None, 100) == "%@ and %lld"
    assert apple.render({"1": "", "2": 2.5}, 100) == " and 2.5"
    assert compile_printf("%d", "java").render({"1": True}, 10) == "true"


def test_render_respects_the_limit_and_never_raises() -> None:
    assert compile_printf("%1$s and %1$s", "java").render({"1": "abcdef"}, 8) == "abcdef a"
    assert compile_printf("[%999999999s]", "java").render({"1": "x"}, 5) == "[    "
    assert compile_printf("%.999999999f", "java").render({"1": 1.5}, 6) == "1.5000"
    assert compile_printf("%.999999999f|%2000000000d", "apple").render({"1": 1.5, "2": 3}, 6) == "1.5000"
    for value in [float("nan"), float("inf"), 10**5000, -(10**40), "", [], {"a": 1}, object()]:
        for text, style in [("%d %x %o %e %f %g %c %b %h %s", "java"), ("%d %u %x %o %e %f %g %c %@ %s %lld", "apple")]:
            message = compile_printf(text.replace("%", "%1$").replace("%1$%", "%%"), style)  # type: ignore[arg-type]
            assert isinstance(message.render({"1": value}, 200), str)


def test_unnumbered_specifiers_take_the_next_position_apart_from_numbered_ones() -> None:
    message = compile_printf("%s %2$s %s %<s", "java")
    assert message.render({"1": "a", "2": "b"}, 50) == "a b b b"
    assert message.arguments == frozenset({"1", "2"})
    assert message.plurals == ()
    assert compile_printf("100%% sure%n", "java").arguments == frozenset()
    assert compile_printf("%@: %#@files@ in %2$#@folders@", "apple").substitutions == ("files", "folders")
    assert compile_printf("%#@files@", "apple").render({"files": "3 files"}, 50) == "3 files"
    assert compile_printf("%#@files@", "apple").render({}, 50) == "%#@files@"
    mixed = compile_printf("%#@apples@ for %@", "apple")  # the substitution's count is argument 1
    assert mixed.render({"apples": "3 apples", "1": 3, "2": "Ann"}, 50) == "3 apples for Ann"
    assert mixed.arguments == frozenset({"1", "2"})


@pytest.mark.parametrize(("text", "reason"), [
    ("100% sure", "invalid format specifier '% s' at position 3: the flag ' ' does not apply to %s"),
    ("50%", "invalid format specifier '%' at position 2: a '%' must start a conversion such as %s or %1$d; "
            "write %% for a percent sign"),
    ("%q", "invalid format specifier '%q' at position 0: unknown conversion 'q' (use s, d, f, x, o, e, g, c, b, "
           "%% or %n)"),
    ("%D", "invalid format specifier '%D' at position 0: unknown conversion 'D' (use s, d, f, x, o, e, g, c, b, "
           "%% or %n)"),
    ("%-d", "invalid format specifier '%-d' at position 0: the flags '-' and '0' need a width"),
    ("%-05d", "invalid format specifier '%-05d' at position 0: the flags '-' and '0' cannot be combined"),
    ("%#d", "invalid format specifier '%#d' at position 0: the flag '#' does not apply to %d"),
    ("%,x", "invalid format specifier '%,x' at position 0: the flag ',' does not apply to %x"),
    ("%.2d", "invalid format specifier '%.2d' at position 0: %d takes no precision"),
    ("%0$s", "invalid format specifier '%0$s' at position 0: argument indexes start at 1 (%1$s)"),
    ("%tY", "invalid format specifier '%tY' at position 0: date and time conversions (%t, %T) are not supported; "
            "format the date first"),
    ("%+ d", "invalid format specifier '%+ d' at position 0: the flags '+' and ' ' cannot be combined"),
    ("%<s", "'%<s' reuses the previous argument, but no specifier precedes it"),
    ("%--5s", "invalid format specifier '%--5s' at position 0: the flag '-' is repeated"),
])
def test_java_refuses_what_formatter_throws_on(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as caught:
        compile_printf(text, "java")
    assert str(caught.value) == reason


@pytest.mark.parametrize(("text", "reason"), [
    ("50%", "invalid format specifier '%' at position 2: a '%' must start a conversion such as %@ or %1$d; "
            "write %% for a percent sign"),
    ("%k", "invalid format specifier '%k' at position 0: unknown conversion 'k' (use @, d, i, u, f, x, o, c, s, e, "
           "g or %%)"),
    ("%*d", "invalid format specifier '%*d' at position 0: a width or precision taken from an argument ('*') is not "
            "supported"),
    ("%0$@", "invalid format specifier '%0$@' at position 0: argument indexes start at 1 (%1$@)"),
])
def test_apple_refuses_unknown_conversions(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as caught:
        compile_printf(text, "apple")
    assert str(caught.value) == reason


def test_text_without_specifiers_is_itself() -> None:
    plain = compile_printf("Your cart is empty", "apple")
    assert (plain.source, plain.render({}, 100), plain.render({}, 4), plain.arguments) == (
        "Your cart is empty", "Your cart is empty", "Your", frozenset())
    assert compile_printf("", "java").render({}, 10) == ""
