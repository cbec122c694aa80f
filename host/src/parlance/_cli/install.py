"""`parlance install` / `parlance uninstall`: put packs into the environment the running host lives in.

As `llm install` and `datasette install` do, the target is `sys.executable`'s environment, whatever
made it: a virtualenv, a `uv tool` or `pipx` environment, or a uv project's `.venv` (the Parlance
workspace). uv installs when it can be found (`$UV`, `PATH`, or the `uv` distribution), otherwise
`python -m pip`. Which packs appeared or disappeared is read from the `parlance.packs` and
`parlance.language_packs` entry points before and after, each time in a fresh interpreter: the
running one caches distribution metadata.

Some environments are rebuilt by the tool that owns them, dropping what was installed by hand; the
outcome carries a hint saying how to make the package stay (`uv add`, `uv tool install --with`,
`pipx inject`).

A package name never reaches the installer as an option: a name that starts with `-` (`-rURL`,
`-e/path`, `--index-url=URL`, which `parlance install -- NAME` lets through) is refused, and the
names follow a `--` on the installer's command line. Options reach it only as Parlance's own flags.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlance._user_files import PARSER_LIMITS, read_user_file
from parlance.config import HostEnvironment, read_environment
from parlance.errors import ConfigError

__all__ = [
    "Environment",
    "InstallOptions",
    "Outcome",
    "PackEntry",
    "canonical",
    "command_distributions",
    "find_environment",
    "find_uv",
    "host_distribution",
    "install",
    "installer_command",
    "required_names",
    "requirement_name",
    "snapshot",
    "uninstall",
    "unrequired",
]

GROUPS = {"parlance.packs": "pack", "parlance.language_packs": "language pack"}

# Run in a fresh interpreter of the target environment: what is installed there now.
_SNAPSHOT = """
import importlib.metadata as m, json
rows = []
for group in %r:
    for ep in m.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        rows.append([group, ep.name, dist.name if dist else None, dist.version if dist else None])
print(json.dumps(rows))
"""


def canonical(name: str) -> str:
    """A distribution name as the package index compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The canonical distribution name a PEP 508 requirement names: `Foo_Bar[x](>=1); extra == "y"` → foo-bar."""
    return canonical(re.split(r"[\s\[(<>=!~;@]", requirement.strip(), maxsplit=1)[0])


# --- where ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Environment:
    """The environment `python` belongs to, and who owns it.

    `kind` is "uv project" (a uv project's `.venv`: `uv sync` removes what its lock file does not
    list), "uv tool", "pipx", "virtualenv" or "system". `owner` is the uv project's folder for a uv
    project, and the tool's name for a uv tool or pipx environment.
    """

    python: str
    prefix: Path
    kind: str
    owner: str | None = None


def find_environment(python: str | None = None, prefix: str | None = None,
                     base_prefix: str | None = None) -> Environment:
    """The running interpreter's environment (or the one described by the arguments, for tests)."""
    python = python or sys.executable
    where = Path(prefix or sys.prefix)
    if (where / "uv-receipt.toml").is_file():
        return Environment(python, where, "uv tool", where.name)
    if (where / "pipx_metadata.json").is_file():
        return Environment(python, where, "pipx", _pipx_package(where))
    if where != Path(base_prefix or sys.base_prefix):
        project = where.parent
        if (project / "pyproject.toml").is_file() and (project / "uv.lock").is_file():
            return Environment(python, where, "uv project", str(project))
        return Environment(python, where, "virtualenv")
    return Environment(python, where, "system")


def _pipx_package(prefix: Path) -> str:
    try:
        meta = json.loads((prefix / "pipx_metadata.json").read_text(encoding="utf-8"))
        return str(meta["main_package"]["package"])
    except (OSError, ValueError, KeyError, TypeError):
        return prefix.name


def find_uv(from_env: str | None = None) -> str | None:
    """The uv executable: `from_env` (`$UV`, set by `uv run`: `HostEnvironment.uv`), then `PATH`, then
    the `uv` distribution."""
    for candidate in (from_env, shutil.which("uv")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    try:
        from uv import find_uv_bin  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return str(find_uv_bin())
    except FileNotFoundError:
        return None


def host_distribution() -> importlib.metadata.Distribution:
    """The installed distribution that provides the `parlance` import package: what a pack depends on.

    Looked up rather than spelled out, so a renamed distribution is found under its new name: by
    the files it installed, then (an editable install lists only a .pth file) by the source folder
    it was installed from, then among the distributions with the `parlance` command, the one the
    others require.
    """
    for name in importlib.metadata.packages_distributions().get("parlance") or []:
        return importlib.metadata.distribution(name)
    import parlance

    package = Path(parlance.__file__).resolve().parent
    candidates = command_distributions()
    for dist in candidates:
        source = _editable_source(dist)
        if source is not None and source in package.parents:
            return dist
    roots = unrequired(candidates)
    brought = [dist for dist in candidates if dist not in roots]  # what another one requires: the host
    if brought:
        return brought[0]
    if candidates:
        return candidates[0]
    raise ConfigError("cannot tell which installed distribution provides the running Parlance host",
                      fix="reinstall Parlance with pip, uv or pipx")


def command_distributions() -> list[importlib.metadata.Distribution]:
    """The installed distributions that declare the `parlance` command (the host, and any that bundle it)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    for dist in importlib.metadata.distributions():
        if any(ep.group == "console_scripts" and ep.value.startswith("parlance.cli:") for ep in dist.entry_points):
            found.setdefault(canonical(dist.metadata["Name"]), dist)
    return list(found.values())


def required_names(dist: importlib.metadata.Distribution) -> set[str]:
    """The names `dist` depends on (extras included)."""
    return {requirement_name(r) for r in dist.requires or []}


def unrequired(dists: Sequence[importlib.metadata.Distribution]) -> list[importlib.metadata.Distribution]:
    """Those of `dists` that no other one of them requires, in their order.

    Among the distributions with the `parlance` command, that is the one a user installed (the bundle
    rather than the host it brings); the others are what it brought (the host).
    """
    return [dist for dist in dists if not any(canonical(dist.metadata["Name"]) in required_names(other)
                                              for other in dists if other is not dist)]


def _editable_source(dist: importlib.metadata.Distribution) -> Path | None:
    try:
        info = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        return None
    if not isinstance(info, dict) or not info.get("dir_info", {}).get("editable"):
        return None
    url = str(info.get("url", ""))
    if not url.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(url).path)).resolve()


# --- how ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InstallOptions:
    """pip-style flags, spelled for whichever installer runs."""

    editable: tuple[str, ...] = ()
    upgrade: bool = False
    force_reinstall: bool = False
    pre: bool = False
    index_url: str | None = None
    extra_index_urls: tuple[str, ...] = ()
    find_links: tuple[str, ...] = ()


def installer_command(action: str, packages: Sequence[str], env: Environment, *, uv: str | None,
                      options: InstallOptions = InstallOptions()) -> list[str]:
    """The command line that installs (or uninstalls) `packages` into `env`: uv when given, else pip."""
    if uv:
        command = [uv, "pip", action, "--python", env.python]
    elif importlib.util.find_spec("pip") is not None:
        command = [env.python, "-m", "pip", action, *(["-y"] if action == "uninstall" else [])]
    else:
        raise ConfigError(f"neither uv nor pip is available to {action} packages into {env.prefix}",
                          fix=f"install uv (https://docs.astral.sh/uv/), or pip with `{env.python} -m ensurepip`")
    if action == "install":
        if options.upgrade:
            command.append("--upgrade")
        if options.force_reinstall:
            command.append("--reinstall" if uv else "--force-reinstall")
        if options.pre:
            command.append("--prerelease=allow" if uv else "--pre")
        if options.index_url:
            command += ["--index-url", options.index_url]
        for url in options.extra_index_urls:
            command += ["--extra-index-url", url]
        for link in options.find_links:
            command += ["--find-links", link]
        for path in options.editable:
            command += ["--editable", path]
    return [*command, "--", *packages] if packages else command


# --- what changed ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackEntry:
    """One entry point in `GROUPS`: a pack or a language pack, and the distribution that declares it."""

    group: str
    name: str
    distribution: str | None
    version: str | None

    @property
    def kind(self) -> str:
        return GROUPS.get(self.group, self.group)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "distribution": self.distribution, "version": self.version}


def snapshot(python: str) -> set[PackEntry]:
    """The packs and language packs installed in `python`'s environment, read by a fresh interpreter."""
    proc = subprocess.run([python, "-c", _SNAPSHOT % (tuple(GROUPS),)], capture_output=True, text=True,
                          timeout=120)
    if proc.returncode != 0:
        raise ConfigError(f"could not list the installed packs with {python}: {proc.stderr.strip()[-500:]}")
    return {PackEntry(*row) for row in json.loads(proc.stdout)}


@dataclass
class Outcome:
    """What `install` / `uninstall` did: the command run, its exit code, the packs that changed."""

    action: str
    command: list[str]
    returncode: int
    added: list[PackEntry] = field(default_factory=list)
    removed: list[PackEntry] = field(default_factory=list)
    changed: list[tuple[PackEntry, PackEntry]] = field(default_factory=list)
    hint: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "command": self.command,
            "returncode": self.returncode,
            "added": [e.as_dict() for e in self.added],
            "removed": [e.as_dict() for e in self.removed],
            "changed": [{**new.as_dict(), "from_version": old.version} for old, new in self.changed],
            "hint": self.hint,
        }

    def summary(self) -> list[str]:
        lines = []
        for label, entries in (("added", self.added), ("removed", self.removed)):
            for entry in sorted(entries, key=lambda e: (e.group, e.name)):
                lines.append(f"{entry.kind} {label}: {entry.name} ({_dist_label(entry)})")
        for old, new in self.changed:
            lines.append(f"{new.kind} changed: {new.name} ({_dist_label(old)} -> {_dist_label(new)})")
        if not lines:
            lines.append("No pack appeared: what was installed declares no entry point in the `parlance.packs` or "
                         "`parlance.language_packs` group." if self.action == "install"
                         else "No pack was removed.")
        return lines


def _dist_label(entry: PackEntry) -> str:
    return " ".join(part for part in (entry.distribution, entry.version) if part) or "?"


def _diff(before: set[PackEntry], after: set[PackEntry], outcome: Outcome) -> None:
    old = {(e.group, e.name): e for e in before}
    new = {(e.group, e.name): e for e in after}
    outcome.added = [e for key, e in new.items() if key not in old]
    outcome.removed = [e for key, e in old.items() if key not in new]
    outcome.changed = [(old[key], e) for key, e in new.items() if key in old and old[key] != e]


# --- the commands ---------------------------------------------------------------------------------


def install(packages: Sequence[str], options: InstallOptions = InstallOptions(),
            env: Environment | None = None, *, host_env: HostEnvironment | None = None) -> Outcome:
    """Install `packages` (requirements, paths, URLs) and `options.editable` folders into `env`."""
    env = env or find_environment()
    if not packages and not options.editable:
        raise ConfigError("nothing to install", fix="name a package, e.g. `parlance install parlance-hello`, "
                          "or a folder with -e PATH")
    _refuse_option_like("install", packages)
    return _run("install", [*packages], env, options, _keep_hint(env, packages, options), host_env)


def uninstall(packages: Sequence[str], env: Environment | None = None, *,
              host_env: HostEnvironment | None = None) -> Outcome:
    """Uninstall the distributions named `packages` from `env` (never the host itself)."""
    env = env or find_environment()
    if not packages:
        raise ConfigError("nothing to uninstall", fix="name a distribution, e.g. `parlance uninstall parlance-hello`")
    _refuse_option_like("uninstall", packages)
    protected = {canonical(d.metadata["Name"]): d.metadata["Name"]
                 for d in [host_distribution(), *command_distributions()]}
    for package in packages:
        if canonical(package) in protected:
            host = protected[canonical(package)]
            raise ConfigError(f"refusing to uninstall {host!r}: it is the Parlance host this command runs from",
                              fix=f"remove it with the tool that installed it: `uv tool uninstall {host}`, "
                                  f"`pipx uninstall {host}` or `pip uninstall {host}`")
    return _run("uninstall", [*packages], env, InstallOptions(), _remove_hint(env, packages), host_env)


def _refuse_option_like(action: str, packages: Sequence[str]) -> None:
    """No package name may read as an installer option: `-rURL` would install what a remote file lists,
    `--index-url=URL` would change where everything comes from."""
    fix = ("name a package, a URL or a path (a file whose name starts with '-' as ./NAME); give options as "
           "`parlance install`'s own flags (see `parlance install --help`)") if action == "install" else \
        "name the distribution to remove, e.g. `parlance uninstall parlance-hello`"
    for package in packages:
        if package.startswith("-"):
            raise ConfigError(f"refusing to {action} {package!r}: a name that starts with '-' would reach the "
                              "installer as an option, not as a package", fix=fix)


def _run(action: str, packages: list[str], env: Environment, options: InstallOptions, hint: str | None,
         host_env: HostEnvironment | None) -> Outcome:
    uv = find_uv((host_env or read_environment()).uv)
    command = installer_command(action, packages, env, uv=uv, options=options)
    before = snapshot(env.python)
    # The installer's own output goes to stderr, so stdout carries only the summary.
    returncode = subprocess.run(command, stdout=2, check=False).returncode
    outcome = Outcome(action, command, returncode)
    if returncode == 0:
        _diff(before, snapshot(env.python), outcome)
        outcome.hint = hint
    return outcome


def _shell(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


def _absolute_if_path(requirement: str) -> str:
    return str(Path(requirement).resolve()) if os.path.exists(requirement) else requirement


def _keep_hint(env: Environment, packages: Sequence[str], options: InstallOptions) -> str | None:
    """How to make what `install` put into an owned environment survive the owner's next rebuild."""
    plain = [_absolute_if_path(p) for p in packages]
    editable = [str(Path(p).resolve()) for p in options.editable]
    if env.kind == "uv project":
        commands = []
        if plain:
            commands.append(_shell(["uv", "add", "--project", env.owner or ".", "--dev", *plain]))
        if editable:
            commands.append(_shell(["uv", "add", "--project", env.owner or ".", "--dev", "--editable", *editable]))
        return (f"This environment is the uv project at {env.owner}: `uv sync` removes packages its uv.lock does "
                "not list. To keep what you installed, add it to the project (or make a local pack a workspace "
                "member):\n" + "\n".join(f"    {c}" for c in commands))
    if env.kind == "uv tool":
        withs = [w for p in plain for w in ("--with", p)] + [w for p in editable for w in ("--with-editable", p)]
        return (f"This is the uv tool environment of {env.owner}: a reinstall of the tool rebuilds it from its "
                "receipt and drops packages installed here. To make them part of the tool:\n"
                f"    {_shell(['uv', 'tool', 'install', env.owner or '?', *withs])}")
    if env.kind == "pipx":
        args = [*plain, *(w for p in editable for w in ("--editable", p))]
        return (f"This is the pipx environment of {env.owner}: pipx does not record packages installed here, and "
                "`pipx reinstall` drops them. To record them:\n"
                f"    {_shell(['pipx', 'inject', env.owner or '?', *args])}")
    return None


def _remove_hint(env: Environment, packages: Sequence[str]) -> str | None:
    """Where an uninstalled package would come back from: the uv project's dependency lists."""
    if env.kind != "uv project" or not env.owner:
        return None
    try:
        project = tomllib.loads(read_user_file(Path(env.owner) / "pyproject.toml").decode("utf-8"))
    except (OSError, tomllib.TOMLDecodeError, *PARSER_LIMITS):  # only a hint: left out when unreadable
        return None
    lists: dict[str, list[str]] = {"": project.get("project", {}).get("dependencies", [])}
    groups = project.get("dependency-groups", {})
    lists.update({group: deps for group, deps in groups.items() if isinstance(deps, list)})
    commands = []
    for package in packages:
        for group, deps in lists.items():
            names = {requirement_name(d) for d in deps if isinstance(d, str)}
            if canonical(package) in names:
                flag = [] if not group else ["--dev"] if group == "dev" else ["--group", group]
                commands.append(_shell(["uv", "remove", "--project", env.owner, *flag, package]))
    if not commands:
        return None
    return (f"This environment is the uv project at {env.owner}, which lists what you removed as a dependency: "
            "`uv sync` installs it again. To remove it for good:\n" + "\n".join(f"    {c}" for c in commands))
