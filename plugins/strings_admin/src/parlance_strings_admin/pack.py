"""The strings_admin pack: hook implementations only; the work happens in `tools` and `client`."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from parlance import RegisterCommand, RegisterDemo, RegisterTool, hookimpl

from parlance_strings_admin import demo, tools
from parlance_strings_admin.settings import StringsAdminSettings, resolve_endpoint

if TYPE_CHECKING:
    from parlance_strings_admin.client import StringsAdminClient

PARLANCE_HOST_API = "1.0"


@hookimpl
def parlance_declare_settings() -> type[StringsAdminSettings]:
    return StringsAdminSettings


@hookimpl
def parlance_lifespan(settings: StringsAdminSettings | None) -> AbstractAsyncContextManager[StringsAdminClient]:
    # One connection pool per server; the tools find the client as ctx.state. Imported here so httpx
    # loads while the host is already serving (lifespans run in the background), not at pack import.
    from parlance_strings_admin.client import open_client

    return open_client(settings or StringsAdminSettings())


@hookimpl
def parlance_register_tools(register: RegisterTool, settings: StringsAdminSettings | None) -> None:
    # A bad STRINGS_ADMIN_HOST / BASE_PATH fails the pack here, so `parlance packs` shows why.
    resolve_endpoint(settings or StringsAdminSettings())
    register(
        tools.get_all_scopes,
        name=tools.GET_SCOPES,
        title="List strings-admin scopes",
        description="Retrieves all available scopes so that clients can decide where to add keys.",
        read_only=True,
        idempotent=True,
        destructive=False,
        open_world=True,
        on_invalid_arguments=tools.invalid_request,
    )
    register(
        tools.create_new_string_key,
        name=tools.CREATE_KEY,
        title="Create a string key",
        description=(
            "Creates a new string key inside a specified scope. key, value and scopeValue are required and "
            f"non-blank; shouldTranslate defaults to false. Use {tools.GET_SCOPES} to find valid scopes."
        ),
        read_only=False,
        # Repeating the call adds nothing: the second attempt is answered "key exists".
        idempotent=True,
        destructive=False,
        open_world=True,
        on_invalid_arguments=tools.invalid_request,
    )


@hookimpl
def parlance_register_commands(register: RegisterCommand) -> None:
    from parlance_strings_admin.emulator import cli  # only the CLI needs it, never `parlance serve`

    register(
        "strings-admin",
        help="Tools for the strings_admin pack: `parlance strings-admin emulator` runs a local strings-admin service",
        configure=cli.configure,
        run=cli.run,
    )


@hookimpl
def parlance_register_demo(register: RegisterDemo) -> None:
    register(title=demo.TITLE, steps=demo.STEPS, setup=demo.emulator_settings)
