"""A YAML alias bomb is refused fast and small (issue 22): through the format, and through a real MCP
client over stdio against `parlance serve`; Rails-style reuse (`<<: *defaults` merged into many
places) still reads; values with foreign tags (`!!python/...`) are reported, not silently dropped.

The bomb is nine levels of nine aliases, under 1 KB: flattened, 9^9 keys. It must be refused within
2 s, with the reading process's peak memory (VmHWM) under 200 MB.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client

from parlance.testing import stdio_server_params
from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.formats.yaml.format import EXPANSION_FLOOR
from parlance_i18n.locales import parse_locale

FR = parse_locale("fr")
SECONDS, MEGABYTES = 2.0, 200
LINUX = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")


def bomb() -> bytes:
    """Nine levels of nine aliases: `i` flattens to 9^9 keys."""
    names = "abcdefghi"
    lines = ["fr:", "  a: &a {" + ", ".join(f"{name}: lol" for name in names) + "}"]
    for previous, name in zip(names, names[1:]):
        lines.append(f"  {name}: &{name} {{" + ", ".join(f"{key}: *{previous}" for key in names) + "}")
    return ("\n".join(lines) + "\n").encode()


def _peak_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


READ_THE_BOMB = """
import json, sys, time
from pathlib import Path
from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.locales import parse_locale
data = sys.stdin.buffer.read()
fmt = formats.get("yaml")
started = time.perf_counter()
try:
    fmt.read(data, parse_locale("fr"))
    reason = None
except CatalogFileError as error:
    reason = error.reason
elapsed = time.perf_counter() - started
peak = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith("VmHWM:"))
print(json.dumps({"reason": reason, "seconds": elapsed, "peak_kb": peak}))
"""


def test_the_bomb_is_under_1_kb() -> None:
    assert len(bomb()) < 1024


@LINUX
def test_the_format_refuses_an_alias_bomb_fast_and_small() -> None:
    done = subprocess.run([sys.executable, "-c", READ_THE_BOMB], input=bomb(), capture_output=True, timeout=60,
                          check=True)
    found = json.loads(done.stdout)
    assert found["reason"] is not None and "expand to more than" in found["reason"]
    assert f"{EXPANSION_FLOOR:,}" in found["reason"]  # the reason names the limit
    assert found["seconds"] < SECONDS
    assert found["peak_kb"] < MEGABYTES * 1024


def test_the_document_of_a_bomb_does_not_expand_it() -> None:
    document = formats.get("yaml").edit(bomb(), FR)  # aliases are not followed to edit
    assert document.keys() == ["a.a", "a.b", "a.c", "a.d", "a.e", "a.f", "a.g", "a.h", "a.i"]


def test_a_mapping_merged_into_many_places_reads() -> None:
    """Rails' `<<: *defaults`: 40 attributes merged into 200 models stays within the bound."""
    lines = ["fr:", "  defaults: &defaults"] + [f"    attribute{i}: Attribut {i}" for i in range(40)]
    for model in range(200):
        lines += [f"  model{model}:", "    <<: *defaults", f"    name: Modèle {model}"]
    messages = formats.get("yaml").read(("\n".join(lines) + "\n").encode(), FR)
    assert messages.text("model199.attribute39") == "Attribut 39"
    assert len(messages) == 40 + 200 * 41
    assert not messages.problems


def test_values_with_foreign_tags_are_reported() -> None:
    data = (b"fr:\n  ok: Bonjour\n  run: !!python/object/apply:os.system [\"id\"]\n"
            b"  name: !!python/name:os.system ''\n  object: !ruby/object:Foo {x: y}\n"
            b"  number: !!int 5\n  hash: !ruby/hash:Foo {x: Salut}\n  text: !!str 12\n")
    messages = formats.get("yaml").read(data, FR)
    assert dict(messages.texts) == {"ok": "Bonjour", "hash.x": "Salut", "text": "12"}
    found = {problem.key: (problem.line, problem.reason) for problem in messages.problems}
    assert set(found) == {"run", "name", "object"}
    assert found["run"][0] == 3
    assert found["run"][1].startswith("the value has the tag !!python/object/apply:os.system, which is none of "
                                      "YAML's own types")
    assert "!ruby/object:Foo" in found["object"][1]
    assert formats.get("yaml").edit(data, FR).keys() == ["ok", "hash.x", "text"]


def test_a_bomb_past_the_message_limit_is_refused_by_that_limit_too() -> None:
    with pytest.raises(CatalogFileError, match=r"more than 100 messages \(\[packs.i18n\] max_file_messages\)"):
        lines = ["fr:"] + [f"  key{i}: text" for i in range(101)]
        formats.get("yaml").read(("\n".join(lines)).encode(), FR, formats.ReadLimits(max_messages=100))


# --- through a real client ----------------------------------------------------------------------------


def _project(root: Path) -> Path:
    (root / "config" / "locales").mkdir(parents=True)
    (root / "config" / "locales" / "en.yml").write_text('en:\n  hello: "Hello"\n  a:\n    a: "A"\n', encoding="utf-8")
    (root / "config" / "locales" / "fr.yml").write_bytes(bomb())
    config = root / "parlance.toml"
    config.write_text('[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n\n'
                      '[[packs.i18n.catalogs]]\npath = "config/locales/{locale}.yml"\nformat = "yaml"\nname = "rails"\n\n'
                      "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    return config


def _server_pid(config: Path) -> int:
    """The `parlance serve` child of this process that was given `config`."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and str(config).encode() in command and b"serve" in command:
            return int(entry.name)
    raise AssertionError("no server process found")


@LINUX
@pytest.mark.anyio
async def test_a_server_on_a_bomb_answers_within_two_seconds_in_little_memory(tmp_path: Path) -> None:
    config = _project(tmp_path / "project")
    with open(tmp_path / "stderr.log", "w") as errlog:
        async with Client(stdio_client(stdio_server_params(config), errlog=errlog), mode="legacy") as client:
            pid = _server_pid(config)
            timings = {}
            for tool, arguments in (("i18n_status", {}), ("i18n_translate", {"key": "hello", "locale": "fr"}),
                                    ("i18n_check", {"locale": "fr"})):
                started = time.perf_counter()
                with anyio.fail_after(30):
                    result = await client.call_tool(tool, arguments)
                timings[tool] = time.perf_counter() - started
                assert not result.is_error, result.content
                if tool == "i18n_translate":
                    assert result.structured_content["translation"] == "Hello"  # served by the source locale
                if tool == "i18n_check":
                    invalid = result.structured_content["locales"][0]["file_problems"]
                    assert any("expand to more than" in problem["reason"] for problem in invalid)
            peak = _peak_kb(pid)
    assert all(seconds < SECONDS for seconds in timings.values()), timings
    assert peak < MEGABYTES * 1024, f"the server peaked at {peak / 1024:.0f} MB"
