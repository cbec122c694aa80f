"""A pack's `[packs.<name>]` table, made ready for the pack's settings model.

The host validates each pack's table with the model the pack declares (`parlance_declare_settings`);
before it does, the table as written is prepared here, so packs need not know where parlance.toml
was or what the environment holds:

- every setting the model types as a `Path` (`Path`, `list[Path]`, `Path | None`, `dict[str, Path]`,
  nested models, ...) resolves against the folder of parlance.toml (`resolve_path_settings`); a
  relative default of a setting marked as created (`CREATED_MARKER`: a lock file, an output) goes
  there too. A value written as `${env:NAME}...` came from the environment and resolves against
  the working folder;
- `${env:NAME}` and `${env:NAME:-default}` are replaced from the environment the configuration was
  read with (`resolve_env`);
- keys the model has no field for (`unknown_setting_keys`) and path settings that do not exist
  (`missing_path_settings`) are found, for the error and the warnings `parlance.packs` reports; a
  path written with `{name}` placeholders is a pattern, reported when it matches no file
  (`parlance.path_patterns`).
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path, PurePath
from typing import Any

from pydantic import BaseModel

from parlance.config import ENV_REFERENCE, ConfigWarning, missing_path_warning, read_environment, resolve_path
from parlance.errors import ConfigError
from parlance.path_patterns import is_pattern, matches_a_file

__all__ = ["CREATED_MARKER", "PathVisitor", "missing_path_settings", "resolve_env", "resolve_path_settings",
           "unknown_setting_keys", "visit_path_settings"]


CREATED_MARKER = "x-parlance-created"
"""`Field(json_schema_extra={"x-parlance-created": True})` marks a path setting the pack creates
(an output file, a database): it is resolved like any other, but not reported when missing."""

_SEQUENCES = (list, tuple, set, frozenset, Sequence)  # typing.get_origin(typing.Sequence[X]) is the abc
_MAPPINGS = (dict, Mapping)
PathVisitor = Callable[[str, str, bool], Any]
"""(the string the table holds, its dotted key, whether the setting names something the pack creates)."""


def resolve_path_settings(model: type[BaseModel], table: dict[str, Any], base: Path, *, key: str) -> dict[str, Any]:
    """`table` with every relative path the model types as a `Path` made absolute from `base`.

    Runs on the table as written, before `${env:...}` references are resolved: a value that starts
    with one came from the environment and is left to resolve against the working folder.
    """
    def resolve(value: str, where: str, created: bool) -> str:
        return value if value.startswith("${env:") else str(resolve_path(value, base))

    return visit_path_settings(model, table, resolve, key=key)


def missing_path_settings(model: type[BaseModel], table: dict[str, Any], *, file: str, key: str) -> list[ConfigWarning]:
    """A warning for each path setting in `table` (as validated) that does not exist."""
    found: list[ConfigWarning] = []

    def check(value: str, where: str, created: bool) -> str:
        path = Path(value)
        if created:
            return value
        if is_pattern(value):
            if not matches_a_file(value):
                found.append(ConfigWarning(file, where, f"{value!r} matches no file",
                                           "correct the pattern: a relative one starts at this file's folder, "
                                           "and each {placeholder} stands for part of one file or folder name"))
        elif not path.exists():
            found.append(missing_path_warning(file, where, value, path.resolve()))
        return value

    visit_path_settings(model, table, check, key=key)
    return found


def visit_path_settings(model: type[BaseModel], table: dict[str, Any], visit: PathVisitor, *, key: str) -> dict[str, Any]:
    """Call `visit` on every string of `table` that `model` types as a path (`Path`, `list[Path]`,
    `Path | None`, `dict[str, Path]`, nested models, ...); returns the table with its results."""
    return _visit_model(model, table, visit, key)


def _visit_model(model: type[BaseModel], table: dict[str, Any], visit: PathVisitor, key: str) -> dict[str, Any]:
    out = dict(table)
    for name, info in model.model_fields.items():
        created = isinstance(info.json_schema_extra, dict) and bool(info.json_schema_extra.get(CREATED_MARKER))
        created = created or _is_new_path(info.metadata)
        written_keys = _keys_of(name, info)
        for written in written_keys:
            if written in out:
                out[written] = _visit(info.annotation, out[written], visit, f"{key}.{written}", created)
        default = info.default
        if (created and isinstance(default, PurePath) and not default.is_absolute()
                and not any(k in out for k in written_keys)):
            # A relative default of a file the pack creates (a lock file) goes beside the config file
            # too, not into whatever folder the client started the server from. Written under the key
            # the table would use (an alias when there is one), so `extra="forbid"` models accept it.
            table_key = written_keys[-1]  # the alias, when the field has one
            out[table_key] = _visit(info.annotation, str(default), visit, f"{key}.{table_key}", created)
    return out


def _visit(annotation: Any, value: Any, visit: PathVisitor, key: str, created: bool) -> Any:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _visit(args[0], value, visit, key, created or _is_new_path(args[1:]))
    if _is_path(annotation):
        return visit(value, key, created) if isinstance(value, str) else value
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if isinstance(value, str):
            chosen = next((a for a in options if _is_path(_bare(a))), None)
        else:
            chosen = next((a for a in options if _shape_fits(a, value)), None)
        return value if chosen is None else _visit(chosen, value, visit, key, created)
    if isinstance(value, list) and origin in _SEQUENCES:
        if origin is tuple and args and args[-1] is not Ellipsis:  # tuple[Path, int]: one type per position
            return [_visit(args[i], v, visit, f"{key}[{i}]", created) if i < len(args) else v
                    for i, v in enumerate(value)]
        item = args[0] if args else Any
        return [_visit(item, v, visit, f"{key}[{i}]", created) for i, v in enumerate(value)]
    if isinstance(value, dict) and origin in _MAPPINGS and len(args) == 2:
        return {k: _visit(args[1], v, visit, f"{key}.{k}", created) for k, v in value.items()}
    if isinstance(value, dict) and _is_model(annotation):
        return _visit_model(annotation, value, visit, key)
    return value


def _bare(annotation: Any) -> Any:
    return typing.get_args(annotation)[0] if typing.get_origin(annotation) is typing.Annotated else annotation


def _shape_fits(annotation: Any, value: Any) -> bool:
    bare = _bare(annotation)
    origin = typing.get_origin(bare)
    if isinstance(value, list):
        return origin in _SEQUENCES
    if isinstance(value, dict):
        return origin in _MAPPINGS or _is_model(bare)
    return False


def _is_path(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, PurePath)


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _is_new_path(metadata: Iterable[Any]) -> bool:
    return any(getattr(m, "path_type", None) == "new" for m in metadata)


def unknown_setting_keys(model: type[BaseModel], table: dict[str, Any], *, key: str) -> list[tuple[str, list[str]]]:
    """(dotted key, the keys its table takes) for each key of `table` that `model` has no field for.

    A model (or a nested one) that sets `extra` itself ("allow", "ignore") is taken at its word;
    one that does not is held to `extra="forbid"`, whatever pydantic's default.
    """
    found: list[tuple[str, list[str]]] = []

    def check(model: type[BaseModel], table: dict[str, Any], where: str) -> None:
        accepted = {written: name for name, info in model.model_fields.items() for written in _keys_of(name, info)}
        if model.model_config.get("extra") in (None, "forbid"):
            found.extend((f"{where}.{k}", list(accepted)) for k in table if k not in accepted)
        for written, value in table.items():
            if written in accepted:
                _each_model(model.model_fields[accepted[written]].annotation, value, f"{where}.{written}", check)

    check(model, table, key)
    return found


def _keys_of(name: str, info: Any) -> list[str]:
    """The keys a table may use for a field: its name and its string aliases."""
    return list(dict.fromkeys([name, *(a for a in (info.alias, info.validation_alias) if isinstance(a, str))]))


def _each_model(annotation: Any, value: Any, where: str,
                check: Callable[[type[BaseModel], dict[str, Any], str], None]) -> None:
    """Call `check` on each nested table that `annotation` types as a pydantic model."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        _each_model(args[0], value, where, check)
    elif origin in (typing.Union, types.UnionType):
        chosen = next((a for a in args if _shape_fits(a, value)), None)
        if chosen is not None:
            _each_model(chosen, value, where, check)
    elif isinstance(value, dict) and _is_model(annotation):
        check(annotation, value, where)
    elif isinstance(value, list) and origin in _SEQUENCES and args:
        for i, item in enumerate(value):
            _each_model(args[0], item, f"{where}[{i}]", check)
    elif isinstance(value, dict) and origin in _MAPPINGS and len(args) == 2:
        for k, item in value.items():
            _each_model(args[1], item, f"{where}.{k}", check)


def resolve_env(value: Any, *, file: str, key: str, environ: Mapping[str, str] | None = None) -> Any:
    """Replace `${env:NAME}` / `${env:NAME:-default}` in strings, recursively, from `environ`
    (default: the process environment; the host passes `Config.env.variables`)."""
    variables = read_environment().variables if environ is None else environ
    if isinstance(value, str):
        def substitute(match: re.Match[str]) -> str:
            name, default = match.group(1), match.group(2)
            if name in variables:
                return variables[name]
            if default is not None:
                return default
            raise ConfigError(f"refers to the environment variable {name}, which is not set", file=file, key=key,
                              fix=f"export {name}=..., or write ${{env:{name}:-default}}")
        return ENV_REFERENCE.sub(substitute, value)
    if isinstance(value, dict):
        return {k: resolve_env(v, file=file, key=f"{key}.{k}", environ=variables) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_env(v, file=file, key=f"{key}[{i}]", environ=variables) for i, v in enumerate(value)]
    return value
