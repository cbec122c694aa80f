"""Packs for `test_pack_api_features.py`: each exercises one contract of the pack API added in host API 1.1
(content blocks, `ctx.log`, `ctx.elicit`, questions on 2026-07-28, completions, announcements).

Packs that must fail to register are built from `RegistersOne`, which makes one `register(...)` call;
the HTTP and stdio tests install `NOTIFYING_SOURCE` as a fake distribution.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

import anyio
from pydantic import BaseModel, Field

from parlance import (
    Announcements,
    Audio,
    EmbeddedResource,
    Image,
    PromptMessage,
    ResourceLink,
    Text,
    ToolContext,
    ToolResult,
    hookimpl,
)

# Bytes that are not valid UTF-8, so a test sees whether they went over the wire as base64.
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\xff"
WAV_BYTES = b"RIFF\x00\x00\x00\x00WAVE\xfe"
BLOB_BYTES = b"\x00\x01\x02\xff"

# Text a pack must never let reach the client: exception messages and the arguments of a call.
SECRET = "SECRET-7f3a"


class NoArgs(BaseModel):
    pass


class TextIn(BaseModel):
    text: str = Field(default="", description="free text; never echoed into notifications")


class UriIn(BaseModel):
    uri: str


class Note(BaseModel):
    note: str


class Answer(BaseModel):
    """What the elicitation tools saw: the user's action and the submitted values."""

    action: str
    content: dict[str, Any] | None


class Answers(BaseModel):
    texts: list[str]


# --- content blocks ------------------------------------------------------------------------------------


class ContentPack:
    """One tool per content shape, correct and broken; a prompt whose messages carry blocks."""

    async def every_block(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(content=[
            Text("hello"),
            Image(PNG_BYTES, "image/png"),
            Audio(WAV_BYTES, "audio/wav"),
            EmbeddedResource("mem://notes/a.txt", text="alpha", mime_type="text/plain"),
            EmbeddedResource("mem://notes/b.bin", data=BLOB_BYTES),
            ResourceLink("mem://notes/c", name="c"),
            ResourceLink("mem://notes/d", name="d", title="D", description="the fourth", mime_type="text/markdown"),
        ])

    async def value_and_blocks(self, args: NoArgs) -> ToolResult[Note]:
        return ToolResult(Note(note="structured"), content=[Text("see the picture"), Image(PNG_BYTES, "image/png")])

    async def value_and_text(self, args: NoArgs) -> ToolResult[Note]:
        return ToolResult(Note(note="structured"), text="custom text")

    # Each of these breaks the `-> ToolResult[None]` or content contract: the client must get INTERNAL.
    async def content_only_with_value(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(Note(note=SECRET), content=[Text("fine")])  # type: ignore[arg-type]

    async def content_only_without_content(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(text=SECRET)

    async def content_only_returns_a_model(self, args: NoArgs) -> ToolResult[None]:
        return Note(note=SECRET)  # type: ignore[return-value]

    async def dict_in_content(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(content=[{"type": "text", "text": SECRET}])  # type: ignore[list-item]

    async def str_image(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(content=[Image(SECRET, "image/png")])  # type: ignore[arg-type]

    async def blocks_prompt(self, args: TextIn, ctx: ToolContext) -> list[PromptMessage]:
        return [
            PromptMessage(role="user", text=f"Look at this: {args.text}"),
            PromptMessage(role="user", content=Image(PNG_BYTES, "image/png")),
            PromptMessage(role="assistant", content=EmbeddedResource("mem://notes/a.txt", text="alpha",
                                                                     mime_type="text/plain")),
            PromptMessage(role="user", content=ResourceLink("mem://notes/c", name="c")),
        ]

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        for handler in (self.every_block, self.value_and_blocks, self.value_and_text, self.content_only_with_value,
                        self.content_only_without_content, self.content_only_returns_a_model, self.dict_in_content,
                        self.str_image):
            register(handler, name=handler.__name__)

    @hookimpl
    def parlance_register_prompts(self, register) -> None:
        register(self.blocks_prompt, name="blocks_prompt")


# --- log messages -------------------------------------------------------------------------------------

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class LoggingPack:
    """Logs one message per level; logs at a level that does not exist; logs with data."""

    async def log_each_level(self, args: TextIn, ctx: ToolContext) -> Note:
        for level in LEVELS:
            await ctx.log(level, f"{level} message")  # type: ignore[arg-type]
        return Note(note=f"logged {len(args.text)} characters")

    async def log_with_data(self, args: TextIn, ctx: ToolContext) -> Note:
        await ctx.log("warning", "counted", data={"characters": len(args.text)})
        return Note(note="ok")

    async def log_bad_level(self, args: TextIn, ctx: ToolContext) -> Note:
        await ctx.log("verbose", "never sent")  # type: ignore[arg-type]
        return Note(note="unreachable")

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        for handler in (self.log_each_level, self.log_with_data, self.log_bad_level):
            register(handler, name=handler.__name__)


class StrBlobPack:
    """An EmbeddedResource whose `data` is a str: the same mistake as `Image(str)`, so the same INTERNAL."""

    async def str_blob(self, args: NoArgs) -> ToolResult[None]:
        return ToolResult(content=[EmbeddedResource("mem://notes/b.bin", data=SECRET)])  # type: ignore[arg-type]

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.str_blob, name="str_blob")


# --- elicitation --------------------------------------------------------------------------------------

NAME_FORM = {"type": "object", "properties": {"name": {"type": "string", "minLength": 2}}, "required": ["name"]}


class Colour(BaseModel):
    colour: Literal["red", "green"]
    shade: int = Field(default=1, ge=1, le=3)


class ElicitPack:
    async def ask_name(self, args: NoArgs, ctx: ToolContext) -> Answer:
        answer = await ctx.elicit("Your name?", NAME_FORM)
        return Answer(action=answer.action, content=answer.content)

    async def ask_colour(self, args: NoArgs, ctx: ToolContext) -> Answer:
        answer = await ctx.elicit("Pick a colour", Colour)
        return Answer(action=answer.action, content=answer.content)

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.ask_name, name="ask_name")
        register(self.ask_colour, name="ask_colour")


class Tone(enum.Enum):
    formal = "formal"
    casual = "casual"


class ToneForm(BaseModel):
    tone: Tone


class EnumFormPack:
    """Elicits with a model whose field is an Enum class (pydantic puts it under `$defs`)."""

    async def ask_tone(self, args: NoArgs, ctx: ToolContext) -> Answer:
        answer = await ctx.elicit("Which tone?", ToneForm)
        return Answer(action=answer.action, content=answer.content)

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.ask_tone, name="ask_tone")


# --- questions on 2026-07-28 ------------------------------------------------------------------------------


class QuestionsPack:
    async def sample_twice(self, args: TextIn, ctx: ToolContext) -> Answers:
        first = await ctx.sample(f"first: {args.text}")
        second = await ctx.sample(f"second: {first.text}")
        return Answers(texts=[first.text, second.text])

    async def ask_at_once(self, args: TextIn, ctx: ToolContext) -> Answers:
        """Two samples and one elicitation from a task group: all three are one round's questions."""
        texts: dict[str, str] = {}

        async def sample(label: str) -> None:
            texts[label] = (await ctx.sample(f"{label}: {args.text}")).text

        async def elicit() -> None:
            answer = await ctx.elicit("Your name?", NAME_FORM)
            texts["elicit"] = str((answer.content or {}).get("name"))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sample, "a")
            tasks.start_soon(sample, "b")
            tasks.start_soon(elicit)
        return Answers(texts=[texts["a"], texts["b"], texts["elicit"]])

    async def sample_once(self, args: TextIn, ctx: ToolContext) -> Answers:
        return Answers(texts=[(await ctx.sample(f"once: {args.text}")).text])

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        for handler in (self.sample_twice, self.ask_at_once, self.sample_once):
            register(handler, name=handler.__name__)


# --- completions --------------------------------------------------------------------------------------

LANGUAGES = [f"lang-{n:03d}" for n in range(150)]


async def complete_language(value: str, context: dict[str, str]) -> list[str]:
    return [tag for tag in LANGUAGES if tag.startswith(value)]


async def complete_region(value: str, context: dict[str, str]) -> list[str]:
    """Suggests regions for the language already chosen (the completion context)."""
    return [f"{context.get('language', '?')}-{region}" for region in ("AT", "DE") if region.startswith(value)]


async def complete_crashing(value: str, context: dict[str, str]) -> list[str]:
    raise RuntimeError(f"{SECRET} in a completer")


async def complete_file(value: str, context: dict[str, str]) -> list[str]:
    return [name for name in ("intro.md", "index.md", "outro.md") if name.startswith(value)]


class CompletionPack:
    async def translate(self, args: TranslateArgs, ctx: ToolContext) -> str:
        return f"Translate into {args.language}"

    async def file(self, ctx: ToolContext, name: str) -> str:
        return f"file {name}"

    @hookimpl
    def parlance_register_prompts(self, register) -> None:
        register(self.translate, name="translate",
                 complete={"language": complete_language, "region": complete_region, "tone": complete_crashing})

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        register(self.file, uri="docs://files/{name}", name="file", mime_type="text/plain",
                 complete={"name": complete_file})


class TranslateArgs(BaseModel):
    language: str
    region: str = ""
    tone: str = ""
    note: str = ""  # no completer


# --- registration errors ------------------------------------------------------------------------------


class RegistersOne:
    """A pack whose one hook makes one `register(...)` call, to see what registration refuses."""

    def __init__(self, hook: Literal["tools", "prompts", "resources"], handler: Callable[..., Any],
                 **options: Any) -> None:
        self.hook, self.handler, self.options = hook, handler, options

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        if self.hook == "tools":
            register(self.handler, **self.options)

    @hookimpl
    def parlance_register_prompts(self, register) -> None:
        if self.hook == "prompts":
            register(self.handler, **self.options)

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        if self.hook == "resources":
            register(self.handler, **self.options)


async def language_prompt(args: TranslateArgs, ctx: ToolContext) -> str:
    return f"Translate into {args.language}"


async def prompt_without_context(args: TranslateArgs) -> str:
    """Takes no `ctx`: registration accepts it, so rendering it must work too."""
    return f"Translate into {args.language}"


async def file_resource(ctx: ToolContext, name: str) -> str:
    return name


def resource_not_async(ctx: ToolContext, name: str) -> str:
    return name


def complete_synchronously(value: str, context: dict[str, str]) -> list[str]:
    return [value]


# --- announcements ------------------------------------------------------------------------------------


class AnnouncingPack:
    """Resources that change: a tool announces an update or a new list; the lifespan keeps `announce`
    so a test can announce outside any call, as a file watcher would."""

    def __init__(self) -> None:
        self.announce: Announcements | None = None

    async def touch(self, args: UriIn, ctx: ToolContext) -> Note:
        await ctx.announce.resource_updated(args.uri)
        return Note(note="touched")

    async def add_note(self, args: NoArgs, ctx: ToolContext) -> Note:
        await ctx.announce.resources_changed()
        return Note(note="added")

    async def index(self, ctx: ToolContext) -> str:
        return "index"

    async def note(self, ctx: ToolContext, name: str) -> str:
        return f"note {name}"

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.touch, name="touch")
        register(self.add_note, name="add_note")

    @hookimpl
    def parlance_register_resources(self, register) -> None:
        register(self.index, uri="notes://index", name="index", mime_type="text/plain")
        register(self.note, uri="notes://{name}", name="note", mime_type="text/plain")

    @hookimpl
    def parlance_lifespan(self, announce: Announcements):
        @contextlib.asynccontextmanager
        async def lifespan() -> AsyncIterator[None]:
            self.announce = announce
            yield

        return lifespan()


class ToolsOnlyPack:
    """Tools and nothing else: no prompts, resources or completions to declare."""

    async def ping(self, args: NoArgs) -> Note:
        return Note(note="pong")

    @hookimpl
    def parlance_register_tools(self, register) -> None:
        register(self.ping, name="ping")


# --- host API versions --------------------------------------------------------------------------------


class OlderMinorApiPack(ToolsOnlyPack):
    PARLANCE_HOST_API = "1.0"


class NewerMinorApiPack(ToolsOnlyPack):
    PARLANCE_HOST_API = "1.3"


# --- installed as a fake distribution for the stdio and HTTP tests -----------------------------------------

WIRE_PACK_SOURCE = '''
    from pydantic import BaseModel
    from parlance import Audio, EmbeddedResource, Image, ResourceLink, Text, ToolContext, ToolResult, hookimpl

    LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

    class TextIn(BaseModel):
        text: str = ""

    class UriIn(BaseModel):
        uri: str

    class Note(BaseModel):
        note: str

    async def log_each_level(args: TextIn, ctx: ToolContext) -> Note:
        for level in LEVELS:
            await ctx.log(level, f"{level} message")
        return Note(note=f"logged {len(args.text)} characters")

    async def touch(args: UriIn, ctx: ToolContext) -> Note:
        await ctx.announce.resource_updated(args.uri)
        return Note(note="touched")

    async def add_note(args: TextIn, ctx: ToolContext) -> Note:
        await ctx.announce.resources_changed()
        return Note(note="added")

    async def every_block(args: TextIn) -> ToolResult[None]:
        return ToolResult(content=[
            Text("hello"),
            Image(PNG_BYTES, "image/png"),
            Audio(WAV_BYTES, "audio/wav"),
            EmbeddedResource("mem://notes/a.txt", text="alpha", mime_type="text/plain"),
            EmbeddedResource("mem://notes/b.bin", data=BLOB_BYTES),
            ResourceLink("mem://notes/c", name="c"),
            ResourceLink("mem://notes/d", name="d", title="D", description="the fourth", mime_type="text/markdown"),
        ])

    async def note(ctx: ToolContext, name: str) -> str:
        return f"note {name}"

    @hookimpl
    def parlance_register_tools(register):
        for handler in (log_each_level, touch, add_note, every_block):
            register(handler, name=handler.__name__)

    @hookimpl
    def parlance_register_resources(register):
        register(note, uri="notes://{name}", name="note", mime_type="text/plain")
''' + f"""
    PNG_BYTES = {PNG_BYTES!r}
    WAV_BYTES = {WAV_BYTES!r}
    BLOB_BYTES = {BLOB_BYTES!r}
"""
