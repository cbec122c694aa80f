"""The localization loop end to end, through a real MCP client over stdio, for every writable format:
on a git copy of a two-locale project, `i18n_status` -> `i18n_missing` -> `i18n_set_messages` with
good translations and bad ones -> the good ones are in the files, the bad ones refused with their
reasons, `git diff` shows only the written messages' lines, and `i18n_translate` renders the new
messages. Then sampling (both eras), no sampling, and two clients writing one file at once.

The projects and the translations are the ones `test_writes` uses (`cases.py`).
"""

from __future__ import annotations

import json
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
from tests.packs.i18n.loop.cases import CASES, PROJECTS, Case
from tests.support import git

pytestmark = pytest.mark.anyio


def _project(case: Case, tmp_path: Path, *, write: bool = True) -> Path:
    root = tmp_path / case.format
    shutil.copytree(PROJECTS / case.format, root, ignore=shutil.ignore_patterns("expected-*.diff"))
    (root / "parlance.toml").write_text(
        '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\n'
        f"write = {'true' if write else 'false'}\n\n"
        f'[[packs.i18n.catalogs]]\npath = "{case.pattern}"\nformat = "{case.format}"\nname = "app"\n\n'
        "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
    git(root, "init", "-q")
    # UTF-16 files (Apple .strings) diff as text, as projects that keep them configure git to.
    (root / ".gitattributes").write_text("*.strings diff=utf16\n", encoding="utf-8")
    git(root, "config", "diff.utf16.textconv", "iconv -f UTF-16 -t UTF-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "project")
    return root


@asynccontextmanager
async def _client(root: Path, tmp_path: Path, mode: str = "legacy", **options: Any) -> AsyncIterator[Client]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    with open(tmp_path / f"stderr-{root.name}.log", "a") as errlog:
        async with Client(stdio_client(stdio_server_params(root / "parlance.toml", cwd=elsewhere), errlog=errlog),
                          mode=mode, **options) as client:
            yield client


def _diff_body(text: str) -> list[str]:
    """The changed lines of a diff (no headers, no context), to compare diffs from two tools."""
    return [line for line in text.splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_status_missing_set_messages_translate(case: Case, tmp_path: Path) -> None:
    root = _project(case, tmp_path)
    messages = {**case.good, **{key: value for key, (value, _) in case.bad.items()},
                **{key: case.unchanged_values[key] for key in case.unchanged}}
    with anyio.fail_after(60):
        async with _client(root, tmp_path) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            status = await client.call_tool("i18n_status", {"locale": "ru"})
            missing = await client.call_tool("i18n_missing", {"locale": "ru", "limit": 500})
            written = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": messages})
            rendered = {key: await client.call_tool("i18n_translate", {"key": key, "locale": "ru",
                                                                       "variables": case.variables})
                        for key in case.rendered}
    assert {"i18n_status", "i18n_missing", "i18n_set_messages", "i18n_rename_key", "i18n_delete_keys",
            "i18n_translate_missing"} <= tools
    assert not status.is_error and not missing.is_error and not written.is_error, (status, missing, written)
    [report] = status.structured_content["catalogs"]  # type: ignore[index]
    assert report["missing"] > 0 and report["total"] >= report["translated"] + report["missing"]
    item_keys = {item["key"] for item in missing.structured_content["items"]}  # type: ignore[index]
    assert set(case.good) - set(case.already_present) <= item_keys
    assert missing.meta["parlance/i18n"]["prompt"]  # type: ignore[index]
    results = {r["key"]: r for r in written.structured_content["results"]}  # type: ignore[index]
    assert {key for key, r in results.items() if r["status"] == "written"} == set(case.good)
    assert {key: r["reasons"] for key, r in results.items() if r["status"] == "refused"} == {
        key: reasons for key, (_, reasons) in case.bad.items()}
    assert {key for key, r in results.items() if r["status"] == "unchanged"} == set(case.unchanged)
    git_diff = git(root, "diff")
    assert _diff_body(git_diff) == _diff_body((PROJECTS / case.format / "expected-ru.diff").read_text(encoding="utf-8"))
    assert _diff_body(written.structured_content["diff"]) == _diff_body(git_diff)  # type: ignore[index]
    for key, expected in case.rendered.items():
        assert rendered[key].structured_content == {"translation": expected, "locale": "ru", "fallback": False}, key


async def test_write_tools_are_not_listed_unless_enabled(tmp_path: Path) -> None:
    root = _project(CASES[0], tmp_path, write=False)
    async with _client(root, tmp_path) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        with pytest.raises(MCPError, match="Unknown tool"):  # not offered, so not callable either
            await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": {"a": "b"}})
    assert {"i18n_status", "i18n_missing"} <= tools
    assert not tools & {"i18n_set_messages", "i18n_rename_key", "i18n_delete_keys", "i18n_translate_missing"}
    assert git(root, "status", "--porcelain") == ""


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_translate_missing_with_sampling_writes_what_validates(mode: str, tmp_path: Path) -> None:
    case = CASES[0]
    root = _project(case, tmp_path)
    asked: list[str] = []

    async def sampling(context: Any, params: Any) -> Any:
        from mcp.types import CreateMessageResult, TextContent

        asked.append(params.messages[0].content.text)
        answer = {key: value for key, value in case.good.items()}
        answer[next(iter(case.bad))] = case.bad[next(iter(case.bad))][0]
        return CreateMessageResult(role="assistant", model="test-model", stop_reason="endTurn",
                                   content=TextContent(type="text", text=json.dumps(answer, ensure_ascii=False)))

    with anyio.fail_after(60):
        async with _client(root, tmp_path, mode, sampling_callback=sampling) as client:
            result = await client.call_tool("i18n_translate_missing", {"locale": "ru", "limit": 200})
    assert not result.is_error, result
    output = result.structured_content
    assert output["mode"] == "sampled" and asked  # type: ignore[index]
    statuses = {r["key"]: r["status"] for r in output["results"]}  # type: ignore[index]
    assert {key for key, status in statuses.items() if status == "written"} == set(case.good) - set(case.already_present)
    assert statuses[next(iter(case.bad))] == "refused"
    # the counts every write tool answers, as i18n_set_messages does
    assert [output[count] for count in ("written", "unchanged", "refused")] == [  # type: ignore[index]
        sum(1 for status in statuses.values() if status == count) for count in ("written", "unchanged", "refused")]
    assert output["written"] > 0 and output["refused"] > 0  # type: ignore[index]


async def test_translate_missing_without_sampling_answers_work_items(tmp_path: Path) -> None:
    root = _project(CASES[0], tmp_path)
    async with _client(root, tmp_path) as client:
        result = await client.call_tool("i18n_translate_missing", {"locale": "ru"})
    assert not result.is_error, result
    assert result.structured_content["mode"] == "work_items"  # type: ignore[index]
    assert result.structured_content["items"]  # type: ignore[index]
    assert [result.structured_content[count] for count in ("written", "unchanged", "refused")] == [0, 0, 0]  # type: ignore[index]
    assert "i18n_set_messages" in result.content[0].text  # type: ignore[union-attr]
    assert git(root, "status", "--porcelain") == ""


@pytest.mark.parametrize("round", range(5))
async def test_two_clients_writing_one_file_lose_nothing(round: int, tmp_path: Path) -> None:
    case = next(c for c in CASES if c.format == "i18next")
    root = _project(case, tmp_path)
    halves = list(case.good.items())
    first, second = dict(halves[::2]), dict(halves[1::2])
    results: list[Any] = []

    async def write(messages: dict[str, Any]) -> None:
        async with _client(root, tmp_path) as client:
            results.append(await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": messages}))

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            group.start_soon(write, first)
            group.start_soon(write, second)
    assert all(not r.is_error for r in results), results
    # Which write lands first decides the order of added keys (and so which line ends without a
    # comma): the same lines, in either order.
    def lines(diff: str) -> list[str]:
        return sorted(line.rstrip(",") for line in _diff_body(diff))

    assert lines(git(root, "diff")) == lines((PROJECTS / case.format / "expected-ru.diff").read_text(encoding="utf-8"))


async def test_errors_are_sentences_and_a_written_file_is_reported_written(tmp_path: Path) -> None:
    """An unknown catalog is a tool error naming the choices; a dry run writes nothing; a lock file a
    merge left conflict markers in does not hide that the translations were written."""
    case = next(c for c in CASES if c.format == "i18next")
    root = _project(case, tmp_path)
    (root / "parlance-i18n.lock").write_text("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n", encoding="utf-8")
    async with _client(root, tmp_path) as client:
        unknown = await client.call_tool("i18n_status", {"catalog": "nope"})
        dry = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": case.good, "dry_run": True})
        untouched = git(root, "status", "--porcelain", "--", "locales")
        written = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": case.good})
        too_long = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": {"cart.greeting": "x" * 20_000}})
    assert unknown.is_error and "nope" in unknown.content[0].text and "INTERNAL" not in unknown.content[0].text  # type: ignore[union-attr]
    assert not dry.is_error and dry.structured_content["diff"] and untouched == ""  # type: ignore[index]
    assert not written.is_error, written
    assert written.structured_content["written"] == len(case.good)  # type: ignore[index]
    assert written.structured_content["notes"] and git(root, "diff", "--stat", "--", "locales")  # type: ignore[index]
    assert too_long.is_error and "max_message_chars" in too_long.content[0].text  # type: ignore[union-attr]


async def test_a_catalog_file_that_links_outside_its_folder_is_not_written(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.format == "i18next")
    root = _project(case, tmp_path)
    outside = tmp_path / "outside.json"
    target = root / "locales" / "ru" / "translation.json"
    outside.write_bytes(target.read_bytes())
    target.unlink()
    target.symlink_to(outside)
    async with _client(root, tmp_path) as client:
        refused = await client.call_tool("i18n_set_messages", {"locale": "ru", "messages": case.good})
    assert refused.is_error and "UNSAFE_PATH" in refused.content[0].text  # type: ignore[union-attr]
    assert outside.read_bytes() == (PROJECTS / case.format / "locales/ru/translation.json").read_bytes()
