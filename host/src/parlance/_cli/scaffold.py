"""`parlance new-pack NAME`: a pack folder whose own tests pass as generated.

    parlance-NAME/
      pyproject.toml             the `parlance.packs` entry point; depends on the running host's distribution
      README.md
      src/parlance_NAME/         __init__.py, pack.py (one typed tool, `@hookimpl` only), py.typed
      tests/                     conftest.py, test_pack.py (through a real MCP client, `parlance.testing`)

The host's distribution name and version are read from the installed metadata at scaffold time, so
the dependency is the name this host is actually published under.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from string import Template

from parlance.errors import ConfigError

__all__ = ["PackNames", "pack_names", "scaffold"]


@dataclass(frozen=True)
class PackNames:
    """One name everywhere: pack (entry point, `[packs.<pack>]`), distribution, import package, tool."""

    pack: str
    distribution: str
    module: str
    tool: str


def pack_names(name: str) -> PackNames:
    """`glossary`, `parlance-glossary` or `tone_check` → the names the new pack uses."""
    stem = re.sub(r"^parlance[-_]", "", name.strip().lower())
    if not re.fullmatch(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*", stem):
        raise ConfigError(f"{name!r} is not a usable pack name",
                          fix="use lowercase letters, digits, '-' or '_', starting with a letter (e.g. glossary)")
    pack = stem.replace("-", "_")
    return PackNames(pack=pack, distribution=f"parlance-{stem.replace('_', '-')}", module=f"parlance_{pack}",
                     tool=f"{pack}_measure")


def scaffold(name: str, folder: Path | None = None, *, description: str | None = None) -> tuple[Path, list[Path]]:
    """Write the pack's files into `folder` (default ./parlance-NAME); returns the folder and the files."""
    from parlance import HOST_API
    from parlance._cli.install import host_distribution

    names = pack_names(name)
    description = _one_line(description) if description else f"A Parlance pack: {names.pack}."
    installed = {ep.name: ep for ep in importlib.metadata.entry_points(group="parlance.packs")}
    if names.pack in installed:
        taken = installed[names.pack]
        owner = taken.dist.metadata["Name"] if taken.dist else taken.value
        raise ConfigError(f"a pack named {names.pack!r} is already installed ({owner}); two packs of one name "
                          "cannot be installed together", fix="choose another name")
    folder = (folder or Path(names.distribution)).resolve()
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ConfigError(f"{folder} already exists and is not an empty folder", fix="choose another --path")
    host = host_distribution()
    values = {
        "pack": names.pack,
        "dist": names.distribution,
        "module": names.module,
        "tool": names.tool,
        "host_dist": host.metadata["Name"],
        "host_version": host.version,
        "host_api": HOST_API,
        "description": description,
        # Quoted for where it goes: a TOML basic string (JSON's escapes are TOML's, for text with no
        # control characters) and the body of a Python triple-quoted docstring.
        "description_toml": json.dumps(description, ensure_ascii=False),
        "description_doc": description.replace("\\", "\\\\").replace('"', '\\"'),
    }
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"src/{names.module}/__init__.py": INIT,
        f"src/{names.module}/pack.py": PACK,
        f"src/{names.module}/py.typed": "",
        "tests/conftest.py": CONFTEST,
        "tests/test_pack.py": TEST,
    }
    written = []
    for relative, template in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(template).substitute(values), encoding="utf-8")
        written.append(path)
    return folder, written


def _one_line(description: str) -> str:
    """The `--description` text, refused when it holds a line break or another control character:
    it becomes the distribution's one-line summary (core metadata `Summary`)."""
    bad = sorted({c for c in description if unicodedata.category(c) in {"Cc", "Zl", "Zp"}})
    if bad:
        raise ConfigError(f"the description {description!r} holds {', '.join(repr(c) for c in bad)}: it becomes the "
                          "package's one-line summary", fix="give --description one line of text")
    return description


# --- the templates (string.Template: $name) -------------------------------------------------------

PYPROJECT = """\
[project]
name = "$dist"
version = "0.1.0"
description = $description_toml
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["$host_dist>=$host_version", "pydantic>=2.7"]

[project.entry-points."parlance.packs"]
$pack = "$module.pack"

[dependency-groups]
dev = ["pytest>=8"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
packages = ["src/$module"]

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["src"]
"""

INIT = '''\
"""$description_doc

The pack's hooks live in `$module.pack`, named by the `parlance.packs` entry point `$pack`.
"""
'''

PACK = '''\
"""The $pack pack: its hooks. Keep domain logic in plain functions, testable without the host."""

from __future__ import annotations

from pydantic import BaseModel, Field

from parlance import RegisterTool, ToolContext, ToolError, hookimpl

PARLANCE_HOST_API = "$host_api"  # the host API this pack was written against


class MeasureIn(BaseModel):
    text: str = Field(description="the string to measure, e.g. a translation")
    max_length: int | None = Field(default=None, ge=1, description="the most characters the UI has room for")


class MeasureOut(BaseModel):
    characters: int = Field(description="length in Unicode code points")
    words: int = Field(description="whitespace-separated words")
    fits: bool = Field(description="false when max_length is given and the text is longer")


def measure_text(text: str, max_length: int | None = None) -> MeasureOut:
    """The domain logic: plain Python."""
    return MeasureOut(characters=len(text), words=len(text.split()),
                      fits=max_length is None or len(text) <= max_length)


async def measure(args: MeasureIn, ctx: ToolContext) -> MeasureOut:
    if not args.text.strip():
        raise ToolError("EMPTY_TEXT", "text must not be blank", data={"field": "text"})
    return measure_text(args.text, args.max_length)


@hookimpl
def parlance_register_tools(register: RegisterTool) -> None:
    register(measure, name="$tool", title="Measure a string",
             description="Counts the characters and words of a string and says whether it fits a length limit.",
             read_only=True, idempotent=True)
'''

CONFTEST = '''\
import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["legacy", "auto"])
def mode(request: pytest.FixtureRequest) -> str:
    """Both MCP protocol eras: "legacy" (the 2025-11-25 handshake) and "auto" (2026-07-28)."""
    return request.param
'''

TEST = '''\
"""The $pack pack through a real MCP client, with the host built in-process by `parlance.testing`."""

from __future__ import annotations

import pytest

from parlance.testing import connect
from $module import pack
from $module.pack import measure_text


def test_measure_text() -> None:
    assert measure_text("Guten Morgen", 10).model_dump() == {"characters": 12, "words": 2, "fits": False}


@pytest.mark.anyio
async def test_tool_is_listed_with_schemas(mode: str) -> None:
    async with connect({"$pack": pack}, mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert tools["$tool"].input_schema["required"] == ["text"]
    assert tools["$tool"].annotations.read_only_hint is True


@pytest.mark.anyio
async def test_measure(mode: str) -> None:
    async with connect({"$pack": pack}, mode=mode) as client:
        result = await client.call_tool("$tool", {"text": "Guten Morgen", "max_length": 20})
    assert result.is_error is False
    assert result.structured_content == {"characters": 12, "words": 2, "fits": True}


@pytest.mark.anyio
async def test_blank_text_is_a_tool_error(mode: str) -> None:
    async with connect({"$pack": pack}, mode=mode) as client:
        result = await client.call_tool("$tool", {"text": "  "})
    assert result.is_error is True
    assert result.structured_content["code"] == "EMPTY_TEXT"
'''

README = """\
# $dist

$description A Parlance pack: the tool `$tool`, served by any Parlance
host this distribution is installed next to (entry point `$pack` in the `parlance.packs` group).

## Use it

```sh
parlance install -e .          # into the environment Parlance runs in (or: parlance install $dist)
parlance tools                 # lists $tool
parlance call $tool --args '{"text": "Guten Morgen", "max_length": 10}'
```

Settings, if the pack grows some, go in the `[packs.$pack]` table of `parlance.toml`.

## Develop it

```sh
uv run pytest                  # or: python -m pytest, where $host_dist and pytest are installed
```

`src/$module/pack.py` holds the hooks (`@hookimpl`): the tool is a typed async function with a
pydantic input model and output model, from which the host derives the tool's schemas.
`raise ToolError(code, message, data)` gives the client an error result it can read. The tests
in `tests/` talk to the pack through a real MCP client in both protocol eras (`parlance.testing`).
Parlance's README, section "Writing a pack", lists every hook.

Written against $host_dist $host_version (host API $host_api).
"""
