"""Hostile catalog files, every format (issue 22): a real `parlance serve` over stdio reads, translates
from and writes into catalog files that `catalog_fuzz` generates, and stays a well-behaved server.

For each format, one server runs on a copy of the format's loop project (`loop/projects/<format>`,
an English source and a Russian target) with small limits (`catalog_fuzz.LIMITS`). Round after
round the target's file (a quarter of the time the source's) is replaced by a generated case, given
an mtime of its own so the pack's stat check sees the change, and three calls are made:
`i18n_status` (which reloads changed files), `i18n_translate` (a key of the file, a known key or a
hostile one, the target locale) and `i18n_set_messages` (write = true; known keys and new ones with
the format's good values and hostile ones). For every call:

- an answer arrives within CALL_TIMEOUT_S;
- it is a result or a tool error with a code that is not INTERNAL, never a JSON-RPC error;
- it carries no exception text (a traceback, a pydantic dump), no absolute path of the test's
  folders, nothing of the outside file (SECRET), and is smaller than MAX_ANSWER_BYTES;
- the server's resident memory (VmRSS) stays under MAX_RSS_BYTES.

After each round no temporary file is left in the project; after the run no file outside the
project changed, appeared or vanished (SHA-256 of each), and the server's log holds no traceback.

Reproducing: the seed is printed in every failure; `PARLANCE_FUZZ_SEED=<seed> uv run pytest
tests/packs/i18n/test_catalog_fuzz.py` replays it, `PARLANCE_FUZZ_CASES=<n>` runs more cases per
format for a deeper local run.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from parlance.testing import stdio_server_params

from tests.packs.i18n.catalog_fuzz import LIMITS, SECRET, SYNTAXES, FuzzCase, fuzz_cases, hostile_values, secret_file
from tests.packs.i18n.loop.cases import CASES, PROJECTS, Case

pytestmark = pytest.mark.anyio

SEED = int(os.environ.get("PARLANCE_FUZZ_SEED") or 20260522)
"""Fixed, so a run's verdict belongs to the commit under test; PARLANCE_FUZZ_SEED picks another."""
CASES_PER_FORMAT = int(os.environ.get("PARLANCE_FUZZ_CASES") or 0)
"""0: one case of every kind and every special of the format, and a few more drawn at random."""
EXTRA_CASES = 2
CALL_TIMEOUT_S = 10.0
MAX_ANSWER_BYTES = 256 * 1024
MAX_RSS_BYTES = 400 * 1024 * 1024
EXCEPTION_TEXT = ("Traceback", 'File "', "Error(", "Exception(", "input_value", "input_type", "errors.pydantic.dev",
                  "validation error for", "[type=", "RecursionError", "UnicodeEncodeError", "UnicodeDecodeError")
REPRODUCE = f"reproduce with: PARLANCE_FUZZ_SEED={SEED} uv run pytest tests/packs/i18n/test_catalog_fuzz.py"
MTIME_BASE_NS = 1_600_000_000 * 10**9
"""Each round's files get an mtime of their own from here (one second apart): the pack notices a change
by (mtime, size), and a round's file may be the same size as the last one's, written within the same tick."""


def _config(case: Case) -> str:
    limits = "\n".join(f"{name} = {value}" for name, value in vars(LIMITS).items())
    return ('[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\nwrite = true\n' + limits + "\n\n"
            f'[[packs.i18n.catalogs]]\npath = "{case.pattern}"\nformat = "{case.format}"\nname = "app"\n\n'
            "[language_packs]\npaths = []\nautoload = false\n")


def _hashes(folder: Path, skip: set[Path]) -> dict[str, str]:
    """SHA-256 of every file under `folder` but not under `skip` (links not followed)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        for name in filenames:
            path = here / name
            found[str(path)] = ("link or special" if path.is_symlink() or not path.is_file()
                                else hashlib.sha256(path.read_bytes()).hexdigest())
    return found


def _server_pid(config: Path) -> int:
    """The pid of the `parlance serve` started with `config` (the stdio client does not tell it)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in arguments and str(config).encode() in arguments:
                return int(entry.name)
    raise AssertionError(f"no `parlance serve --config {config}` is running")


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _clear(path: Path) -> None:
    if path.is_symlink() or path.exists() and not path.is_dir():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _place(path: Path, fuzz: FuzzCase, other: Path, data: bytes | None, mtime_ns: int) -> None:
    """Put at `path` what the case says (`data`: the project's own file instead); a link inside the project
    leads to `other`, the locale's other file."""
    _clear(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    placement = fuzz.placement
    if data is not None or placement.kind == "bytes":
        path.write_bytes(placement.data if data is None else data)
        os.utime(path, ns=(mtime_ns, mtime_ns))
    elif placement.kind == "symlink":
        link = {"loop": path.name, "inside": os.path.relpath(other, path.parent)}.get(placement.link, placement.link)
        path.symlink_to(link)
    elif placement.kind == "fifo":
        os.mkfifo(path)
    elif placement.kind == "folder":
        path.mkdir()
        (path / "inside-a-folder").write_text("x")
    else:
        assert placement.kind == "missing"


@asynccontextmanager
async def _client(project: Path, run: Path) -> AsyncIterator[Client]:
    with open(run / "stderr.log", "a") as errlog:
        server = stdio_server_params(project / "parlance.toml", cwd=run)
        async with Client(stdio_client(server, errlog=errlog)) as client:
            yield client


def _answer_text(result: Any) -> str:
    texts = [getattr(block, "text", "") for block in result.content]
    return json.dumps(result.structured_content, ensure_ascii=False) + "\n".join(texts)


def _calls(rng: random.Random, case: Case, fuzz: FuzzCase) -> list[tuple[str, dict[str, Any]]]:
    syntax = SYNTAXES[case.format]
    keys = [*fuzz.keys, *case.good, *case.bad, "nope", rng.choice(["", " ", "a" * 300, "__proto__", "ключ"]) or "x"]
    variables = rng.choice([None, case.variables, {"count": rng.choice([0, 1, 3, -1, 1e308, 2**70, "x"]),
                                                   "name": "<b>&", "amount": 1.5, "0": "x", "1": 3, "id": None}])
    translate: dict[str, Any] = {"key": rng.choice(keys), "locale": "ru"}
    if variables is not None:
        translate["variables"] = {name: value for name, value in variables.items() if value is not None}
    messages: dict[str, Any] = {}
    for key, value in rng.sample(sorted(case.good.items()), min(2, len(case.good))):
        messages[key] = value
    for key, value in zip(rng.sample(sorted(case.good), min(2, len(case.good))),
                          hostile_values(syntax, rng, 2), strict=False):
        messages[key] = value if rng.random() < 0.7 else {"one": value, "other": value, "bogus": value}
    new_keys = rng.random() < 0.5
    if new_keys:
        for key in rng.sample([*fuzz.keys, "fuzz.new", "cart", "cart.empty.deeper", "@x", "a..b"], 2):
            messages[key or "fuzz.empty"] = rng.choice(hostile_values(syntax, rng, 3))
    return [("i18n_status", {"locale": "ru", "details": True}),
            ("i18n_translate", translate),
            ("i18n_set_messages", {"locale": "ru", "messages": messages, "allow_new_keys": new_keys,
                                   "dry_run": rng.random() < 0.15})]


def _check_answer(result: Any, where: str, private: list[str]) -> None:
    text = _answer_text(result)
    assert len(text.encode("utf-8", "surrogatepass")) < MAX_ANSWER_BYTES, f"{where}: answer of {len(text):,} chars"
    if result.is_error:
        code = (result.structured_content or {}).get("code")
        assert code and code != "INTERNAL", f"{where}: {text[:2000]}"
    for marker in EXCEPTION_TEXT:
        assert marker not in text, f"{where}: exception text {marker!r} in the answer: {text[:2000]}"
    for secret in private:
        assert secret not in text, f"{where}: the answer shows {secret!r}: {text[:2000]}"


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_hostile_catalog_files_leave_a_well_behaved_server(case: Case, tmp_path: Path) -> None:
    syntax = SYNTAXES[case.format]
    project = tmp_path / "project"
    shutil.copytree(PROJECTS / case.format, project, ignore=shutil.ignore_patterns("expected-*.diff"))
    (project / "parlance.toml").write_text(_config(case), encoding="utf-8")
    run = tmp_path / "run"  # the server's working folder and its stderr
    run.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    target, source = project / syntax.target, project / syntax.source
    secret = outside / target.name
    secret.write_bytes(secret_file(case.format, [*case.good, *case.bad]))
    originals = {target: target.read_bytes(), source: source.read_bytes()}
    rng = random.Random(f"{SEED}/{case.format}")
    cases = fuzz_cases(case.format, rng, str(secret), originals[target], extra=EXTRA_CASES, count=CASES_PER_FORMAT)
    private = [SECRET, str(tmp_path)]
    before = _hashes(tmp_path, {project, run})
    peak, failure = 0, None
    async with _client(project, run) as client:
        pid = _server_pid(project / "parlance.toml")
        for index, fuzz in enumerate(cases):
            mtime = MTIME_BASE_NS + index * 10**9
            placed, kept = (source, target) if fuzz.on_source else (target, source)
            _place(placed, fuzz, kept, None, mtime)
            if kept != placed:
                _place(kept, fuzz, placed, originals[kept], mtime)
            for tool, arguments in _calls(rng, case, fuzz):
                where = (f"{case.format} case {index} ({fuzz.name}{', on the source' if fuzz.on_source else ''}), "
                         f"{tool}")
                # A file may name the test's folders itself (an XML DOCTYPE's path): quoting it leaks nothing.
                shown = [text for text in private if text.encode() not in fuzz.placement.data]
                failure = await _failure(client, tool, arguments, where, shown)
                if failure is None:
                    rss = _rss(pid)
                    peak = max(peak, rss)
                    if rss >= MAX_RSS_BYTES:
                        failure = f"{where}: the server holds {rss / 2**20:.0f} MB"
                if failure is not None:
                    break
            leftovers = [str(path) for path in project.rglob("*parlance-tmp*")]
            if failure is None and leftovers:
                failure = f"{case.format} case {index} ({fuzz.name}): temporary files left: {leftovers}"
            if failure is not None:
                break
    log = (run / "stderr.log").read_text(encoding="utf-8", errors="replace")
    if failure is None and ("Traceback" in log or "tool.crashed" in log):
        failure = f"{case.format}: the server logged a traceback"
    if failure is not None:
        crashes = [line[:6000] for line in log.splitlines() if "Traceback" in line]
        pytest.fail(f"{failure}\n{REPRODUCE}\nthe server's tracebacks:\n" + "\n".join(crashes[:3]), pytrace=False)
    changed = _hashes(tmp_path, {project, run}) != before
    assert not changed, f"{case.format}: a file outside the project changed, appeared or vanished; {REPRODUCE}"
    print(f"{case.format}: {len(cases)} cases, peak RSS {peak / 2**20:.0f} MB, seed {SEED}")


async def _failure(client: Client, tool: str, arguments: dict[str, Any], where: str, private: list[str]) -> str | None:
    """What is wrong with the server's answer to one call, or None."""
    try:
        with anyio.fail_after(CALL_TIMEOUT_S):
            result = await client.call_tool(tool, arguments)
    except TimeoutError:
        return f"{where}: no answer within {CALL_TIMEOUT_S} s"
    except MCPError as exc:
        return f"{where}: JSON-RPC error {exc.error.code}: {exc.error.message}"
    try:
        _check_answer(result, where, private)
    except AssertionError as exc:
        return str(exc)
    return None
