"""Two replicas — two hosts, each its own MCP server and shared engine — on one database and one folder,
through real MCP clients: a pack's `ctx.write()` on one, `parlance_shared_write` and the subscribers on
the other, a retry through the other replica, `ctx.history()`."""

from __future__ import annotations

import contextlib
import hashlib
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPDeprecationWarning
from mcp.types import ResourceUpdatedNotification
from pydantic import BaseModel

from parlance import Announcements, ToolContext, hookimpl
from parlance._state.postgres import PostgresState
from parlance.config import config_from_dict
from parlance.host import Host
from parlance.packs import load_packs
from parlance.server import build_server
from parlance.writes import FileChange, SharedWrite
from tests.host.state import eventually

pytestmark = pytest.mark.anyio


class NoteIn(BaseModel):
    name: str
    text: str
    idempotency_key: str | None = None


class Written(BaseModel):
    name: str
    writes_so_far: int


class NameIn(BaseModel):
    name: str


class Text(BaseModel):
    text: str | None


class Lines(BaseModel):
    lines: list[str]


def _sha(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


class NotesPack:
    """Notes in files of one folder, held in memory by the lifespan: a replica sees another's write
    only through `parlance_shared_write`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.writes = 0
        self.heard: list[SharedWrite] = []

    async def set_note(self, args: NoteIn, ctx: ToolContext) -> Written:
        async with ctx.write(idempotency_key=args.idempotency_key, arguments=args) as write:
            if write.earlier is not None:
                return Written.model_validate(write.earlier)
            path = self.folder / f"{args.name}.txt"
            await write.lock([path.name])
            before = _sha(path)
            path.write_text(args.text, encoding="utf-8")
            self.writes += 1
            ctx.state[args.name] = args.text
            write.log(files=[FileChange(path.name, before, _sha(path))], written=1, keys=[args.name],
                      resources=[f"notes://{args.name}"])
            output = Written(name=args.name, writes_so_far=self.writes)
            write.answer(output.model_dump(mode="json"))
        return output

    async def read_note(self, args: NameIn, ctx: ToolContext) -> Text:
        return Text(text=ctx.state.get(args.name))

    async def note_history(self, args: NameIn, ctx: ToolContext) -> Lines:
        page = await ctx.history(key=args.name)
        return Lines(lines=[f"{r.tool} {r.files[0].path} {r.written}" for r in page.records])

    async def note(self, ctx: ToolContext, name: str) -> str:
        return str(ctx.state.get(name))

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.set_note, name="set_note", destructive=True)
        register(self.read_note, name="read_note")
        register(self.note_history, name="note_history")

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        register(self.note, uri="notes://{name}", name="note", mime_type="text/plain")

    @hookimpl
    def parlance_lifespan(self, announce: Announcements):
        @contextlib.asynccontextmanager
        async def lifespan() -> AsyncIterator[dict[str, str]]:
            yield {p.stem: p.read_text(encoding="utf-8") for p in self.folder.glob("*.txt")}

        return lifespan()

    @hookimpl
    async def parlance_shared_write(self, state: dict[str, str], change: SharedWrite) -> None:
        self.heard.append(change)
        for name in change.files:
            state[Path(name).stem] = (self.folder / name).read_text(encoding="utf-8")


@contextlib.asynccontextmanager
async def replica(database: str, folder: Path, name: str, **client: Any) -> AsyncIterator[tuple[Client, NotesPack]]:
    pack = NotesPack(folder)
    config = config_from_dict({"language_packs": {"paths": [], "autoload": False}})
    host = Host(config, load_packs(config, plugins={"notes": pack}), state=PostgresState(database, replica=name))
    async with Client(build_server(host), mode="legacy", **client) as connected:
        await eventually(host.state.ready, what=f"replica {name} ready")
        yield connected, pack


async def test_parlance_shared_write_refreshes_the_other_replica_and_its_subscribers(database: str,
                                                                                     tmp_path: Path) -> None:
    (tmp_path / "greeting.txt").write_text("old", encoding="utf-8")
    heard: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            heard.append(str(message.params.uri))

    async with replica(database, tmp_path, "a") as (a, pack_a), \
            replica(database, tmp_path, "b", message_handler=on_message) as (b, pack_b):
        assert (await b.call_tool("read_note", {"name": "greeting"})).structured_content == {"text": "old"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await b.subscribe_resource("notes://greeting")

        first = await a.call_tool("set_note", {"name": "greeting", "text": "hola", "idempotency_key": "k1"})
        assert first.structured_content == {"name": "greeting", "writes_so_far": 1}

        async def b_reads_hola() -> bool:
            return (await b.call_tool("read_note", {"name": "greeting"})).structured_content == {"text": "hola"}

        assert await eventually(b_reads_hola, within=1.0, what="b seeing a's write") < 1.0
        await eventually(lambda: _true(heard == ["notes://greeting"]), within=1.0, what="b's subscriber hearing")
        assert [c.files for c in pack_b.heard] == [("greeting.txt",)] and pack_a.heard == []

        retry = await b.call_tool("set_note", {"name": "greeting", "text": "hola", "idempotency_key": "k1"})
        assert retry.structured_content == first.structured_content  # through the other replica: not applied twice
        assert pack_b.writes == 0
        other = await b.call_tool("set_note", {"name": "greeting", "text": "adiós", "idempotency_key": "k1"})
        assert other.is_error and other.structured_content["code"] == "IDEMPOTENCY_KEY_REUSED"

        history = await b.call_tool("note_history", {"name": "greeting"})
        assert history.structured_content == {"lines": ["set_note greeting.txt 1"]}
        await anyio.sleep(0.2)
        assert heard == ["notes://greeting"]


async def _true(value: object) -> bool:
    return bool(value)
