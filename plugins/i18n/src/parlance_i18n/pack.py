"""The i18n pack's hook implementations: settings, tools, resources, and the startup catalog.

Nothing but wiring: the registered handlers are in `tools/handlers.py`, which loads the engine (`tools/engine.py`
and the domain modules) on the first call.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import TYPE_CHECKING

from parlance import (
    LanguagePacks,
    RegisterCommand,
    RegisterDemo,
    RegisterResource,
    RegisterTool,
    SharedWrite,
    hookimpl,
)
from parlance_i18n import demo
from parlance_i18n.settings import I18nSettings
from parlance_i18n.tools import handlers

if TYPE_CHECKING:
    from parlance_i18n.model.catalog import Catalog

PARLANCE_HOST_API = "1.2"
"""The host API the pack is written against: 1.1 for the completions of `i18n://bundles/{locale}`, 1.2 for
coordinated writes (`ctx.write()`, `ctx.history()`, `needs_shared_state`, `parlance_shared_write`)."""


@hookimpl
def parlance_declare_settings() -> type[I18nSettings]:
    return I18nSettings


@hookimpl
def parlance_register_tools(register: RegisterTool, settings: I18nSettings | None) -> None:
    register(handlers.translate, name="i18n_translate", title="Translate a message key",
             read_only=True, idempotent=True, destructive=False, open_world=False,
             on_invalid_arguments=handlers.on_invalid_translate)
    register(handlers.add_messages, name="i18n_add_messages", title="Add a message bundle",
             read_only=False, idempotent=True, destructive=True, open_world=False,
             on_invalid_arguments=handlers.on_invalid_add_messages)
    register(handlers.list_locales, name="i18n_list_locales", title="List locales with bundles",
             read_only=True, idempotent=True, destructive=False, open_world=False)
    register(handlers.check, name="i18n_check", title="Check bundles against the default locale",
             read_only=True, idempotent=True, destructive=False, open_world=False)
    if settings is None or not settings.catalogs:  # the loop works on a project's files: none, no loop tools
        return
    register(handlers.status, name="i18n_status", title="Translation status of the project's catalogs",
             read_only=True, idempotent=True, destructive=False, open_world=False)
    register(handlers.missing, name="i18n_missing", title="What to translate next, with a ready prompt",
             read_only=True, idempotent=True, destructive=False, open_world=False)
    # The write log is a shared engine's ([state] url): listed only then, by the host.
    register(handlers.write_history, name="i18n_history", title="Who wrote what into the catalogs, and when",
             read_only=True, idempotent=True, destructive=False, open_world=False, needs_shared_state=True)
    if settings.sources:  # the code that calls the catalogs: its tools are listed when it is configured
        register(handlers.usage, name="i18n_usage", title="Keys the code uses, does not use, or lacks",
                 read_only=True, idempotent=True, destructive=False, open_world=False)
        register(handlers.hardcoded, name="i18n_hardcoded", title="User-visible strings not localized in the code",
                 read_only=True, idempotent=True, destructive=False, open_world=False)
    if not settings.write:  # writing is opt-in: without it the tools are not even listed
        return
    if settings.sources:
        register(handlers.extract, name="i18n_extract", title="Turn a hard-coded string into a catalog key",
                 read_only=False, idempotent=False, destructive=True, open_world=False)
    register(handlers.set_messages, name="i18n_set_messages", title="Write validated translations into catalog files",
             read_only=False, idempotent=True, destructive=True, open_world=False)
    register(handlers.rename_key, name="i18n_rename_key", title="Rename a key in every locale",
             read_only=False, idempotent=False, destructive=True, open_world=False)
    register(handlers.delete_keys, name="i18n_delete_keys", title="Delete keys in every locale",
             read_only=False, idempotent=True, destructive=True, open_world=False)
    register(handlers.translate_missing, name="i18n_translate_missing",
             title="Translate what is missing with your model, and write what validates",
             read_only=False, idempotent=False, destructive=True, open_world=False)


@hookimpl
def parlance_register_resources(register: RegisterResource) -> None:
    register(handlers.read_locales, uri="i18n://locales", name="i18n_locales", title="Locales with bundles")
    register(handlers.read_bundle, uri="i18n://bundles/{locale}", name="i18n_bundle",
             title="A locale's message bundle (keys and ICU sources)", complete={"locale": handlers.complete_locale})


@hookimpl
def parlance_lifespan(settings: I18nSettings | None,
                      language_packs: LanguagePacks) -> contextlib.AbstractAsyncContextManager[Catalog]:
    settings = settings or I18nSettings()
    # Language packs' sample bundles are not the project's: they join only when the config asks.
    files = [f for lp in language_packs.all() for f in lp.files("messages", "*.json") + lp.files("messages", "*.po")
             ] if settings.language_pack_bundles else []
    return _catalog(settings, files)


@contextlib.asynccontextmanager
async def _catalog(settings: I18nSettings, language_pack_files: list[Path]) -> AsyncIterator[Catalog]:
    # Loaded once per server, on the pack's first use; every session reads it and layers its own
    # bundles on top. Reading and compiling every bundle is blocking work: off the event loop, so
    # other packs' calls go on meanwhile.
    import anyio

    from parlance_i18n.model.catalog import Catalog

    yield await anyio.to_thread.run_sync(Catalog.from_settings, settings, language_pack_files)


@hookimpl
def parlance_shared_write(state: Catalog, change: SharedWrite) -> Awaitable[None]:
    """Another replica wrote the project's files: the locales that read them read them again, off the
    event loop (`tools.shared`), so this replica's next i18n_translate renders that write."""
    from parlance_i18n.tools import shared

    return shared.reload_written(state, change)


CODE_TOOLS = ("i18n_usage", "i18n_hardcoded")
"""The tools that read the code calling the catalogs: registered when `sources` names some (i18n_extract too,
with `write = true`)."""
LOOP_TOOLS = ("i18n_status", "i18n_missing")
"""The loop's tools that read a project's catalogs: registered when `catalogs` names some."""
WRITE_TOOLS = ("i18n_set_messages", "i18n_rename_key", "i18n_delete_keys", "i18n_translate_missing")
"""The loop's tools that write catalog files: registered when `write = true` too."""


# Optional: a host older than the hook runs the pack without its hints.
@hookimpl(optionalhook=True)
def parlance_setup_hints(settings: I18nSettings | None) -> list[str]:
    if settings is None or not settings.catalogs:
        return [f"[[packs.i18n.catalogs]] (the project's catalog files; `parlance init` finds them and writes "
                f"parlance.toml) adds the localization loop: {', '.join(LOOP_TOOLS)}; with write = true also "
                f"{', '.join(WRITE_TOOLS)}"]
    hints = []
    if not settings.sources:
        hints.append(f"[[packs.i18n.sources]] (paths of the code that calls the catalogs, e.g. paths = "
                     f"[\"src/**/*.tsx\"]) adds {', '.join(CODE_TOOLS)}: keys the code uses, does not use or lacks, "
                     "and strings nobody localized")
    if not settings.write:
        hints.append(f"write = true in [packs.i18n] adds the tools that write catalog files, each write validated and "
                     f"shown as a diff: {', '.join(WRITE_TOOLS)}"
                     + (", and i18n_extract (a hard-coded string made a key)" if settings.sources else ""))
    return hints


@hookimpl
def parlance_register_commands(register: RegisterCommand) -> None:
    from parlance_i18n import project_init  # the layout finder loads only for `parlance init`

    register("init", help="Find the catalogs in this repository and write parlance.toml with their "
                          "[[packs.i18n.catalogs]] entries and source_locale (--dry-run prints it).",
             configure=project_init.configure, run=project_init.run)


@hookimpl
def parlance_register_demo(register: RegisterDemo) -> None:
    register(title=demo.LOOP_TITLE, steps=demo.LOOP_STEPS, setup=demo.sample_project)
    register(title=demo.TITLE, steps=demo.STEPS)
