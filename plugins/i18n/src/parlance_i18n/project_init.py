"""`parlance init`: find the catalogs of the repository in the current folder (`model/layouts.py`),
propose the `[[packs.i18n.catalogs]]` entries and `source_locale`, and write `parlance.toml`.

`--dry-run` prints the file instead. An existing `parlance.toml` is never overwritten unless `--force`
says so; then the old file is kept beside it as `parlance.toml.<timestamp>.bak` (as `parlance
client-config --write` keeps a client's file), and the new one is written whole: the old file's other
tables are not merged in (a merge that keeps every comment needs a TOML editor Parlance does not
ship), so copy back what the backup held that you still want.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path, PurePosixPath

from parlance_i18n.code.proposals import SourceProposal, propose
from parlance_i18n.model.layouts import Bounds, FoundCatalog, Survey, propose_source, survey
from parlance_i18n.settings import CatalogSource

__all__ = ["CONFIG_NAME", "configure", "render", "run"]

CONFIG_NAME = "parlance.toml"
EXIT_OK, EXIT_NOTHING_FOUND, EXIT_USAGE = 0, 1, 2
_MAX_NAME = 64


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", metavar="FOLDER", default=".",
                        help="the repository's folder, where parlance.toml is written (default: the current one)")
    parser.add_argument("--dry-run", action="store_true", help="print the proposed parlance.toml; write nothing")
    parser.add_argument("--force", action="store_true", help="replace an existing parlance.toml, keeping the old "
                        "one as parlance.toml.<timestamp>.bak")
    parser.add_argument("--write", action="store_true", help="set write = true: offer the tools that write "
                        "catalog files (i18n_set_messages, i18n_rename_key, ...)")


def run(args: argparse.Namespace) -> int:
    root = Path(args.path)
    if not root.is_dir():
        print(f"parlance: error: {args.path} is not a folder: give the repository's folder with --path",
              file=sys.stderr)
        return EXIT_USAGE
    target = root / CONFIG_NAME
    if not args.dry_run and (target.exists() or target.is_symlink()) and not args.force:
        print(f"parlance: error: {target} already exists: `parlance init --dry-run` prints the proposal, "
              "`--force` replaces the file (keeping the old one as parlance.toml.<timestamp>.bak)", file=sys.stderr)
        return EXIT_USAGE
    found = survey(root, Bounds())
    for note in found.notes:
        print(f"parlance: note: {note}", file=sys.stderr)
    if not found.catalogs:
        print(f"parlance: no catalog files found under {root.resolve()} ({found.visited:,} entries looked at). "
              "Write [[packs.i18n.catalogs]] by hand (path with {locale}, format, name): see the i18n pack's "
              "README", file=sys.stderr)
        return EXIT_NOTHING_FOUND
    text = render(found, write=args.write, sources=[propose(root, catalog.format.name) for catalog in found.catalogs])
    if args.dry_run:
        sys.stdout.write(text)
        return EXIT_OK
    backup = _write(target, text)
    source, _ = propose_source(found.catalogs)
    print(f"Wrote {target}: {len(found.catalogs)} catalog{'s' if len(found.catalogs) != 1 else ''}, "
          f"source_locale = {source.code!r}" + (f"; the old file is kept as {backup.name}" if backup else "") + ".")
    for catalog in found.catalogs:
        locales = ", ".join(f"{tag.code} ({count})" for tag, count in sorted(catalog.keys.items(),
                                                                              key=lambda item: item[0].code))
        default = f"; default folder ({catalog.default_keys})" if catalog.default_keys is not None else ""
        print(f"  {catalog.pattern} [{catalog.format.name}]: {locales}{default}")
    print("Next: `parlance config check --strict`, then `parlance client-config claude` (or cursor, vscode) "
          "to connect a client; i18n_status lists what is missing.")
    return EXIT_OK


def render(found: Survey, *, write: bool = False, sources: list[SourceProposal | None] | None = None) -> str:
    """The proposed parlance.toml; `sources` holds each catalog's proposed code entry, if any."""
    source, why = propose_source(found.catalogs)
    lines = ["# Written by `parlance init` from the catalog files found in this folder; check it with",
             "# `parlance config check --strict`. Paths are relative to this file.",
             "",
             "[packs.i18n]",
             f"# source_locale: {why}.",
             f"source_locale = {_string(source.code)}"]
    if source.code != "en":
        lines.append(f"default_locale = {_string(source.code)}")
    lines += ["# true: offer the tools that write catalog files (i18n_set_messages, i18n_rename_key,",
              "# i18n_delete_keys, i18n_translate_missing); every write is validated, then shown as a diff.",
              f"write = {'true' if write else 'false'}"]
    templated = "template" in CatalogSource.model_fields
    for catalog, name in zip(found.catalogs, _names(found.catalogs), strict=True):
        locales = ", ".join(f"{tag.code} {count}" for tag, count in sorted(catalog.keys.items(),
                                                                           key=lambda item: item[0].code))
        lines += ["", f"# keys by locale: {locales}"]
        if catalog.default_keys is not None:
            lines.append(f"# and {catalog.default_keys} in the unqualified default folder's file: the source texts")
        if catalog.templates and not templated:
            lines.append(f"# template (the key set msgmerge uses): {', '.join(catalog.templates)}")
        lines += ["[[packs.i18n.catalogs]]", f"name = {_string(name)}", f"path = {_string(catalog.pattern)}",
                  f"format = {_string(catalog.format.name)}"]
        if catalog.templates and templated:
            lines.append(f"template = {_string(catalog.templates[0])}")
    for (catalog, name), proposal in zip(zip(found.catalogs, _names(found.catalogs), strict=True),
                                         sources or [None] * len(found.catalogs), strict=True):
        if proposal is None:
            continue
        lines += ["", f"# the code that calls {name!r}, read as {proposal.framework}'s extractor reads it: i18n_usage, "
                      "i18n_hardcoded", "[[packs.i18n.sources]]", f"catalog = {_string(name)}",
                  f"framework = {_string(proposal.framework)}",
                  f"paths = [{', '.join(_string(glob) for glob in proposal.paths)}]"]
        if proposal.exclude:
            lines.append(f"exclude = [{', '.join(_string(glob) for glob in proposal.exclude)}]")
    return "\n".join(lines) + "\n"


def _names(catalogs: list[FoundCatalog]) -> list[str]:
    """A distinct name per catalog: its file's name without the locale (`common`, `django`, `app`), else
    its folder's (`locales`); a repeated one gets its format's name, then a number."""
    plain = [_name(catalog.pattern) for catalog in catalogs]
    names = list(plain)
    for index, catalog in enumerate(catalogs):
        if plain.count(plain[index]) > 1:
            names[index] = f"{names[index]}-{catalog.format.name}"[:_MAX_NAME]
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[index] = f"{name[:_MAX_NAME - 4]}-{seen[name]}"
    return names


def _name(pattern: str) -> str:
    path = PurePosixPath(pattern)
    stem = path.name.removesuffix(path.suffix).replace("{locale}", "").strip("._-")
    if stem:
        return stem[:_MAX_NAME]
    folders = [part for part in path.parts[:-1] if "{" not in part]
    return (folders[-1] if folders else "catalog")[:_MAX_NAME]


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def _write(target: Path, text: str) -> Path | None:
    """Write `target` whole, through a new file renamed over it (a link at `target` is replaced, never
    followed); the old file, if any, is first renamed to a backup, which is returned."""
    backup = None
    if target.exists() or target.is_symlink():
        backup = target.with_name(f"{target.name}.{time.strftime('%Y%m%d-%H%M%S')}.bak")
        os.replace(target, backup)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(temporary, flags, 0o644)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return backup
