"""`ToolContext[SettingsT, StateT]`: what a type checker sees of `ctx.settings` and `ctx.state`.

The parameters are for the type checker only, so they are frozen by running mypy (strict, with the
repository's configuration) on typed usages: a parameterised context types both attributes, an
unparameterised one is what it always was, and the bound refuses settings that are not a model.
At run time the parameters change nothing, and the host resolves only the annotations it reads
(the arguments model and the return type): a context may name a type imported only for the checker.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
import types
import typing
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from parlance import ToolContext

ROOT = Path(__file__).resolve().parents[2]

TYPED_USAGE = """
    from __future__ import annotations

    from typing import Any

    from pydantic import BaseModel
    from typing_extensions import assert_type

    from parlance import ToolContext


    class Settings(BaseModel):
        punctuation: str = ""


    class Greeter:
        def greet(self, name: str) -> str:
            return name


    async def typed(ctx: ToolContext[Settings, Greeter]) -> str:
        assert_type(ctx.settings, Settings)
        assert_type(ctx.state, Greeter)
        return ctx.state.greet("Ada") + ctx.settings.punctuation


    async def settings_only(ctx: ToolContext[Settings]) -> None:
        assert_type(ctx.settings, Settings)
        assert_type(ctx.state, Any)


    async def no_settings(ctx: ToolContext[None, Greeter]) -> None:
        assert_type(ctx.settings, None)


    async def unparameterised(ctx: ToolContext) -> None:  # no "missing type parameters" under --strict
        assert_type(ctx.settings, BaseModel | None)
        assert_type(ctx.state, Any)


    def any_context(ctx: ToolContext) -> str:
        return ctx.pack


    def passes_a_typed_context_on(ctx: ToolContext[Settings, Greeter]) -> str:
        return any_context(ctx)  # a helper written for any context takes a typed one
"""

MISTAKES = """
    from __future__ import annotations

    from pydantic import BaseModel

    from parlance import ToolContext


    class Settings(BaseModel):
        punctuation: str = ""


    async def misspelt(ctx: ToolContext[Settings, None]) -> str:
        return ctx.settings.punctuaton


    async def not_a_model(ctx: ToolContext[int, None]) -> None:
        pass
"""


def run_mypy(tmp_path: Path, source: str) -> tuple[int, str]:
    """mypy's exit status and output for `source`, with the repository's configuration. In a child
    process: mypy tunes the garbage collector of the process it runs in, which other tests measure."""
    path = tmp_path / "usage.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / ".mypy_cache"), "--no-error-summary", "--show-error-codes",
                           str(path)], capture_output=True, text=True, cwd=tmp_path)
    return done.returncode, done.stdout + done.stderr


def test_a_parameterised_context_types_settings_and_state_for_mypy(tmp_path: Path) -> None:
    status, output = run_mypy(tmp_path, TYPED_USAGE)
    assert (status, output) == (0, "")


def test_mypy_catches_a_misspelt_setting_and_settings_that_are_not_a_model(tmp_path: Path) -> None:
    status, output = run_mypy(tmp_path, MISTAKES)
    assert status == 1
    assert '"Settings" has no attribute "punctuaton"' in output and "[attr-defined]" in output
    assert 'Type argument "int" of "ToolContext" must be a subtype of "BaseModel | None"' in output


def test_the_parameters_change_nothing_at_run_time() -> None:
    class Settings(BaseModel):
        pass

    assert typing.get_origin(ToolContext[Settings, int]) is ToolContext
    assert typing.get_args(ToolContext[Settings]) == (Settings, typing.Any)  # the state's default
    assert typing.get_args(ToolContext[None, int]) == (type(None), int)


PACK = """
    from __future__ import annotations

    import contextlib
    from typing import TYPE_CHECKING

    from pydantic import BaseModel

    from parlance import RegisterTool, ToolContext, hookimpl

    if TYPE_CHECKING:  # only a type checker ever imports it: the host must not need it
        from a_module_that_is_not_installed import Greeter


    class Settings(BaseModel):
        punctuation: str = "!"


    class GreetIn(BaseModel):
        name: str


    class GreetOut(BaseModel):
        greeting: str


    async def greet(args: GreetIn, ctx: ToolContext[Settings, Greeter]) -> GreetOut:
        return GreetOut(greeting=ctx.state.greet(args.name) + ctx.settings.punctuation)


    @hookimpl
    def parlance_declare_settings() -> type[Settings]:
        return Settings


    @hookimpl
    def parlance_lifespan():
        return greeter()


    @hookimpl
    def parlance_register_tools(register: RegisterTool) -> None:
        register(greet, name="greet")
"""


@contextlib.asynccontextmanager
async def _greeter() -> AsyncIterator[object]:
    yield types.SimpleNamespace(greet=lambda name: f"hello {name}")


@pytest.mark.anyio
async def test_a_context_may_name_a_state_type_imported_only_for_the_type_checker() -> None:
    from parlance.testing import connect

    pack = types.ModuleType("typed_context_pack")
    pack.greeter = _greeter  # type: ignore[attr-defined]  # what the source's lifespan opens
    exec(compile(textwrap.dedent(PACK), "typed_context_pack.py", "exec"), pack.__dict__)
    async with connect({"typed": pack}) as client:
        result = await client.call_tool("greet", {"name": "Ada"})
    assert result.structured_content == {"greeting": "hello Ada!"}
