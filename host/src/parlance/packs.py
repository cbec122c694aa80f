"""Finding packs through entry points and loading each one inside its own error boundary.

Listing entry points reads distribution metadata only; a pack's module is imported only when the
configuration enables it. A pack that fails to import, implements a hook the hookspecs do not have
or asks a hook for an argument its hookspec does not pass, fails a hook, has settings its model
rejects, or was written for another host API is recorded as `failed` or `incompatible` with the
reason and skipped: the host serves the rest. `PARLANCE_STRICT_PACKS=1` turns any such failure into
an error.

Two packs serving one tool name stop the host (`ToolNameCollision`), except when loading to
diagnose (`parlance packs`, `parlance config check`): then the second pack is recorded as
`conflict` with the fixes, and everything else is still reported. Loading also checks the
configuration against what is installed — unknown pack names, `[tools] disabled` entries no pack
registers, path settings that do not exist — and collects `ConfigWarning`s with a did-you-mean.

A pack's settings table is validated by the pack's model with the host's rules on top: unknown
keys are rejected (with a did-you-mean) unless the model sets `extra` itself, and relative `Path`
settings resolve against the config file's folder.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import sys
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from typing import Any, Literal

import pluggy
from pydantic import BaseModel, ValidationError

from parlance.config import HOST_KEYS_IN_PACK_TABLE, Config, ConfigWarning, did_you_mean
from parlance.errors import ConfigError, PackError, ToolNameCollision
from parlance.hookspecs import HOST_API, PROJECT, PackSpec
from parlance.installed import installed_entry_points, rescan_installed
from parlance.language_packs import LanguagePacks, LanguagePackSet, discover_language_packs
from parlance.pack_settings import missing_path_settings, resolve_env, resolve_path_settings, unknown_setting_keys
from parlance.registry import Registry, Staging

__all__ = ["PACKS_GROUP", "PackRecord", "PackSet", "discover", "load_packs", "rescan_installed"]

logger = logging.getLogger(__name__)

PACKS_GROUP = "parlance.packs"
State = Literal["loaded", "disabled", "failed", "incompatible", "missing", "conflict"]


@dataclass
class PackRecord:
    """What `parlance packs` reports about one pack."""

    name: str
    distribution: str | None = None
    version: str | None = None
    module: str | None = None
    state: State = "disabled"
    error: str | None = None
    tools: list[str] = field(default_factory=list)
    plugin: Any = field(default=None, repr=False)
    settings: BaseModel | None = field(default=None, repr=False)
    language_packs: LanguagePacks | None = field(default=None, repr=False)
    """The language packs this pack may use, as its hooks were given them."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "state": self.state,
            "error": self.error,
            "tools": list(self.tools),
        }


@dataclass
class PackSet:
    """The loaded packs, their plugin manager and what they registered."""

    records: list[PackRecord]
    manager: pluggy.PluginManager
    registry: Registry
    language_packs: LanguagePackSet = field(default_factory=lambda: LanguagePackSet([]))
    collisions: list[ToolNameCollision] = field(default_factory=list)
    """Tool names two packs claim (seen only with `diagnose=True`; otherwise the first is raised)."""
    warnings: list[ConfigWarning] = field(default_factory=list)
    """Likely mistakes in the configuration: the file's own, then those found against the packs."""

    def loaded(self) -> list[PackRecord]:
        return [r for r in self.records if r.state == "loaded"]

    def hook_for(self, record: PackRecord, hook: str) -> Any:
        """A caller for one hook that reaches only this pack's implementation."""
        return _only(self.manager, record.plugin)(hook)


def discover() -> dict[str, EntryPoint]:
    """Installed packs by name, without importing any of them."""
    found: dict[str, EntryPoint] = {}
    for ep in installed_entry_points(PACKS_GROUP):
        found.setdefault(ep.name, ep)  # first wins, like importlib's own de-duplication
    return found


def new_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(PackSpec)
    return manager


def load_packs(config: Config, *, plugins: dict[str, Any] | None = None, diagnose: bool = False) -> PackSet:
    """Load the enabled packs: installed ones by entry point, plus `plugins` given as objects (tests).

    Raises ToolNameCollision when two packs claim one tool name, unless `diagnose` (then the
    collisions are in `PackSet.collisions` and the second pack of each is `conflict`); raises
    PackError for any other pack failure only in strict mode. Configuration warnings are logged,
    unless `diagnose` (the caller shows them). What a pack prints while it imports or registers goes
    to stderr: stdout is the wire when serving stdio.
    """
    with contextlib.redirect_stdout(sys.stderr):
        packs = _load(config, plugins)
    if not diagnose:
        # Logged before a collision is raised: a typo in the entry meant to fix it is the likely cause.
        for warning in packs.warnings:
            logger.warning("config.warning", extra={"key": warning.key, "reason": str(warning)})
        if packs.collisions:
            raise packs.collisions[0]
    return packs


def _load(config: Config, plugins: dict[str, Any] | None) -> PackSet:
    strict = config.env.strict_packs
    manager = new_manager()
    registry = Registry()
    records: list[PackRecord] = []
    env_allow = config.env.packs

    candidates: dict[str, EntryPoint | Any] = dict(discover()) if plugins is None else dict(plugins)
    imported: list[PackRecord] = []
    for name in sorted(candidates):
        source = candidates[name]
        record = PackRecord(name=name)
        if isinstance(source, EntryPoint):
            record.module = source.value
            if source.dist is not None:
                record.distribution, record.version = source.dist.name, source.dist.version
        records.append(record)
        if env_allow is not None and name not in env_allow:
            record.error = "not in PARLANCE_PACKS"
            continue
        if env_allow is None and not config.is_pack_enabled(name):
            continue
        try:
            _import_one(record, source)
            imported.append(record)
        except PackError as exc:
            _fail(record, manager, record.state if record.state == "incompatible" else "failed", str(exc), strict)

    # Language packs are checked against the asset versions of the packs that will use them,
    # before any pack registers (registration may already read templates or bundles).
    language_packs = discover_language_packs(config)
    language_packs.check_compat(
        {r.name: str(v) for r in imported if (v := getattr(r.plugin, "PARLANCE_LANGUAGE_PACK_VERSION", None))}
    )
    packs = PackSet(records=records, manager=manager, registry=registry, language_packs=language_packs,
                    warnings=list(config.warnings))
    stagings: list[Staging] = []
    for record in imported:
        try:
            _register_one(record, config, packs, stagings)
        except (ConfigError, PackError) as exc:
            _fail(record, manager, "failed", str(exc), strict)

    wanted = env_allow if env_allow is not None else (config.packs_enabled or [])
    for name in wanted:
        if name not in candidates:
            hint = did_you_mean(name, candidates) or "install the distribution that provides it"
            message = f"pack {name!r} is enabled but not installed ({hint})"
            records.append(PackRecord(name=name, state="missing", error=message))
            logger.warning("pack.missing", extra={"pack": name})
            if strict:
                raise PackError(message)
    packs.warnings += _unknown_names(config, list(candidates), stagings)
    return packs


def _unknown_names(config: Config, installed: list[str], stagings: list[Staging]) -> list[ConfigWarning]:
    """Warnings for pack names nothing installed has, and `[tools] disabled` entries no pack registered."""
    found: list[ConfigWarning] = []
    file = config.source

    def unknown_pack(name: str, key: str) -> ConfigWarning:
        fix = did_you_mean(name, installed) or f"installed: {', '.join(installed) or 'none'} (see `parlance packs`)"
        return ConfigWarning(file, key, f"no pack named {name!r} is installed", fix)

    found += [unknown_pack(name, f"packs.{name}") for name in config.pack_tables if name not in installed]
    found += [unknown_pack(name, "packs.disabled") for name in config.packs_disabled if name not in installed]
    matched = set().union(*(s.disabled_matched for s in stagings))
    by_pack = {s.pack: s.tool_names for s in stagings}
    served = [name for s in stagings for name in s.tool_names]
    for entry in config.tools_disabled:
        if entry in matched:
            continue
        pack, sep, tool = entry.partition(":")
        if not sep:
            fix = did_you_mean(entry, served) or "see `parlance tools` for the names"
            found.append(ConfigWarning(file, "tools.disabled", f"no loaded pack registers a tool named {entry!r}", fix))
        elif pack not in installed:
            found.append(unknown_pack(pack, "tools.disabled"))
        elif pack in by_pack:  # a pack that did not load: its tool names are unknown, so nothing to say
            near = did_you_mean(tool, by_pack[pack], quote=lambda t: repr(f"{pack}:{t}"))
            found.append(ConfigWarning(file, "tools.disabled", f"pack {pack!r} registers no tool named {tool!r}",
                                       near or f"its tools: {', '.join(by_pack[pack]) or 'none'}"))
    return found


def _import_one(record: PackRecord, source: Any) -> None:
    try:
        plugin = source.load() if isinstance(source, EntryPoint) else source
    except Exception as exc:  # the pack's own import failed: report, never crash the host
        logger.debug("pack.import_failed", extra={"pack": record.name}, exc_info=True)
        raise PackError(f"import of {record.module or record.name!r} failed: {exc.__class__.__name__}: {exc}") from None
    required = str(getattr(plugin, "PARLANCE_HOST_API", HOST_API))
    if not _compatible(required, HOST_API):
        record.state = "incompatible"
        raise PackError(f"pack needs host API {required}, this host provides {HOST_API}")
    record.plugin = plugin


def _register_one(record: PackRecord, config: Config, packs: PackSet, stagings: list[Staging]) -> None:
    manager, registry, plugin = packs.manager, packs.registry, record.plugin
    if mismatches := _hook_mismatches(manager, plugin):
        raise PackError(f"{'; '.join(mismatches)}; make its hooks match parlance.hookspecs (host API {HOST_API})")
    try:
        manager.register(plugin, name=record.name)
    except pluggy.PluginValidationError as exc:  # what _hook_mismatches leaves to pluggy (wrapper misuse)
        raise PackError(f"its hooks do not fit the hookspecs: {' '.join(str(exc).split())}") from None
    staging = Staging(pack=record.name, prefix=config.prefix_for(record.name),
                      disabled_tools=frozenset(config.tools_disabled), shared_state=config.state.url is not None)
    stagings.append(staging)
    view = record.language_packs = packs.language_packs.view(record.name)
    try:
        only_this = _only(manager, plugin)
        record.settings = _settings(record.name, only_this, config, packs.warnings)
        for hook, register in (("parlance_register_tools", staging.register_tool),
                               ("parlance_register_prompts", staging.register_prompt),
                               ("parlance_register_resources", staging.register_resource)):
            only_this(hook)(register=register, settings=record.settings, language_packs=view)
    except (PackError, ConfigError):
        raise
    except Exception as exc:  # a hook raised: the pack is skipped with the reason
        logger.debug("pack.hook_failed", extra={"pack": record.name}, exc_info=True)
        raise PackError(f"a hook raised {exc.__class__.__name__}: {exc}") from None
    if collisions := registry.collisions(staging):
        packs.collisions += collisions
        manager.unregister(plugin)
        record.state, record.error = "conflict", " ".join(map(str, collisions))
        record.tools = [t.name for t in staging.tools]
        return
    registry.commit(staging)
    record.state = "loaded"
    record.tools = [t.name for t in staging.tools]
    if staging.skipped_tools:
        logger.info("pack.tools_disabled", extra={"pack": record.name, "tools": staging.skipped_tools})


def _hook_mismatches(manager: pluggy.PluginManager, plugin: Any) -> list[str]:
    """Each `@hookimpl` of `plugin` that names no hookspec, or asks for an argument its hookspec lacks.

    Checked before the pack is registered, so a mismatch fails this pack alone. pluggy would raise
    the second kind out of `register` (taking the host down) and accept the first silently: a
    misspelt `parlance_register_tool` would load as a pack with no tools, and its `check_pending`
    spans the whole manager and stops at the first unknown hook. Like pytest with unknown
    `pytest_*` hooks, an unknown hook fails the pack rather than loading it with a warning: the
    misspelt hook is the pack's intent going unserved (its tools, its settings model, its lifespan),
    and a hook a newer host adds cannot be meant, since a pack written for a newer host API is
    already `incompatible`. An implementation marked `optionalhook=True` may name no hookspec, as
    in pluggy.
    """
    specs = {name: caller.spec for name, caller in vars(manager.hook).items() if caller.spec is not None}
    problems = []
    for attr in sorted(dir(plugin)):
        opts = manager.parse_hookimpl_opts(plugin, attr)
        if opts is None:
            continue
        hook = opts.get("specname") or attr
        spec = specs.get(hook)
        if spec is None:
            if not opts.get("optionalhook"):
                problems.append(f"unknown hook {hook!r} ({_did_you_mean(hook, sorted(specs))})")
            continue
        passed = (*spec.argnames, *spec.kwargnames)
        if extra := [arg for arg in _required_arguments(getattr(plugin, attr)) if arg not in passed]:
            problems.append(f"hook {hook!r} asks for {', '.join(map(repr, extra))}, which the host does not pass "
                            f"(it passes {', '.join(passed) or 'nothing'})")
    return problems


def _required_arguments(function: Any) -> list[str]:
    """The arguments pluggy checks against the hookspec: positional, without a default (an argument
    with a default is how an implementation opts into one a newer host may pass)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # no signature to read: pluggy's own check in register() decides
        return []
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in parameters if p.kind in positional and p.default is inspect.Parameter.empty]


def _did_you_mean(hook: str, known: list[str]) -> str:
    # Compared without the shared `parlance_` prefix, which would make every name look alike.
    bare = {name.removeprefix(f"{PROJECT}_"): name for name in known}
    suggestion = did_you_mean(hook.removeprefix(f"{PROJECT}_"), bare, quote=lambda b: repr(bare[b]))
    return suggestion or f"the hooks are {', '.join(known)}"


def _only(manager: pluggy.PluginManager, plugin: Any) -> Any:
    others = [p for p in manager.get_plugins() if p is not plugin]
    return lambda hook: manager.subset_hook_caller(hook, remove_plugins=others)


def _settings(pack: str, only_this: Any, config: Config, warnings: list[ConfigWarning]) -> BaseModel | None:
    """The pack's settings: its table validated by its model, with the host's rules on top (see the
    module docstring). Paths that do not exist are added to `warnings`."""
    model = only_this("parlance_declare_settings")()
    table = {k: v for k, v in config.pack_table(pack).items() if k not in HOST_KEYS_IN_PACK_TABLE}
    key, file = f"packs.{pack}", config.source
    if model is None:
        if table:
            raise ConfigError(f"pack {pack!r} takes no settings, got {sorted(table)}", file=file, key=key,
                              fix="remove those keys")
        return None
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise PackError(f"parlance_declare_settings returned {model!r}, not a pydantic model class")
    for where, accepted in unknown_setting_keys(model, table, key=key)[:1]:
        name = where.rsplit(".", 1)[-1]
        fix = did_you_mean(name, [*accepted, *HOST_KEYS_IN_PACK_TABLE]) or \
            f"[{where.rsplit('.', 1)[0]}] takes {', '.join(accepted) or 'no keys'}"
        raise ConfigError(f"unknown key {name!r}", file=file, key=where, fix=fix)
    table = resolve_path_settings(model, table, config.base_dir, key=key)
    resolved = resolve_env(table, file=file, key=key, environ=config.env.variables)
    try:
        settings = model.model_validate(resolved)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join([key, *(str(p) for p in first["loc"])])
        hint = "remove it" if first["type"] == "extra_forbidden" else f"see the settings of pack {pack!r}"
        raise ConfigError(first["msg"], file=file, key=where, fix=hint) from None
    warnings += missing_path_settings(model, resolved, file=file, key=key)
    return settings


def _compatible(required: str, provided: str) -> bool:
    try:
        req_major, req_minor = (int(p) for p in (required.split(".") + ["0"])[:2])
        have_major, have_minor = (int(p) for p in (provided.split(".") + ["0"])[:2])
    except ValueError:
        return False
    return req_major == have_major and req_minor <= have_minor


def _fail(record: PackRecord, manager: pluggy.PluginManager, state: State, message: str, strict: bool) -> None:
    if record.plugin is not None and manager.is_registered(record.plugin):
        manager.unregister(record.plugin)
    record.plugin, record.settings, record.tools = None, None, []
    record.state, record.error = state, message
    logger.warning("pack.skipped", extra={"pack": record.name, "state": state, "reason": message})
    if strict:
        raise PackError(f"pack {record.name!r} {state}: {message} (PARLANCE_STRICT_PACKS is set)")
