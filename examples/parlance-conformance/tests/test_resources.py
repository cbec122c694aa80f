"""Resources: static text and binary, the template, unknown URIs, and updates of the watched resource.

Updates reach a 2025-11-25 client that subscribed (`resources/subscribe`) as
`notifications/resources/updated`, and a 2026-07-28 client through its `subscriptions/listen`
stream. Notifications are counted through the client's `message_handler`.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
import pytest
from mcp import MCPError
from mcp.types import ResourceUpdatedNotification

from conformance_checks import png_size, text_of
from parlance_conformance.media import PNG

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")]

WATCHED = "test://watched-resource"


async def test_resources_are_listed_with_static_text_first(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
    assert [(r.uri, r.name, r.mime_type) for r in resources] == [
        ("test://static-text", "static-text", "text/plain"),  # the suite reads the first listed resource
        ("test://static-binary", "static-binary", "image/png"),
        (WATCHED, "watched-resource", "text/plain"),
    ]
    assert [(t.uri_template, t.name, t.mime_type) for t in templates] == [
        ("test://template/{id}/data", "template-data", "application/json")]


async def test_static_text(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        [contents] = (await client.read_resource("test://static-text")).contents
    assert (contents.uri, contents.mime_type) == ("test://static-text", "text/plain")
    assert contents.text == "This is the content of the static text resource."


async def test_static_binary_is_the_png(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        [contents] = (await client.read_resource("test://static-binary")).contents
    assert (contents.uri, contents.mime_type) == ("test://static-binary", "image/png")
    assert png_size(contents.blob) == (1, 1)
    assert base64.b64decode(contents.blob) == PNG


async def test_template_reads_the_id(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        [contents] = (await client.read_resource("test://template/42/data")).contents
    assert (contents.uri, contents.mime_type) == ("test://template/42/data", "application/json")
    assert json.loads(contents.text) == {"id": "42", "templateTest": True, "data": "Data for ID: 42"}


@pytest.mark.parametrize("uri", ["test://nonexistent", "test://template/42/other", "other://static-text"])
async def test_unknown_resource_is_invalid_params(conformance: Any, mode: str, uri: str) -> None:
    async with conformance(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
    assert caught.value.error.code == -32602


async def test_watched_resource_starts_with_its_initial_text(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        [contents] = (await client.read_resource(WATCHED)).contents
    assert contents.text == "Watched resource content"


class Updates:
    """A `message_handler` counting `notifications/resources/updated` per URI."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self._changed = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.uris.append(message.params.uri)
            self._changed.set()

    async def wait_for(self, count: int) -> None:
        with anyio.fail_after(2):
            while len(self.uris) < count:
                await self._changed.wait()
                self._changed = anyio.Event()


async def test_legacy_subscribe_then_update_notifies_and_unsubscribe_stops_it(conformance: Any) -> None:
    updates = Updates()
    async with conformance("legacy", message_handler=updates) as client:
        assert client.server_capabilities.resources.subscribe is True
        await client.subscribe_resource(WATCHED)
        changed = await client.call_tool("test_update_watched_resource", {"text": "first change"})
        await updates.wait_for(1)
        [first] = (await client.read_resource(WATCHED)).contents

        await client.unsubscribe_resource(WATCHED)
        await client.call_tool("test_update_watched_resource", {"text": "unheard change"})
        # Subscribe again and change once more: once that notification is in, one sent after the
        # unsubscribe would be too (notifications arrive in order).
        await client.subscribe_resource(WATCHED)
        await client.call_tool("test_update_watched_resource", {"text": "third change"})
        await updates.wait_for(2)
        await anyio.sleep(0.05)
        [third] = (await client.read_resource(WATCHED)).contents
    assert text_of(changed) == f"{WATCHED} updated"
    assert first.text == "first change"
    assert third.text == "third change"
    assert updates.uris == [WATCHED, WATCHED]


async def test_legacy_update_without_a_subscription_sends_nothing(conformance: Any) -> None:
    updates = Updates()
    async with conformance("legacy", message_handler=updates) as client:
        await client.call_tool("test_update_watched_resource", {"text": "quiet"})
        await client.list_tools()
        await anyio.sleep(0.05)
        [contents] = (await client.read_resource(WATCHED)).contents
    assert updates.uris == []
    assert contents.text == "quiet"


@pytest.mark.parametrize("uri", ["test://nonexistent", "test://template/1/nope"])
async def test_legacy_subscribing_to_an_unknown_uri_is_an_error(conformance: Any, uri: str) -> None:
    async with conformance("legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.subscribe_resource(uri)
    assert caught.value.error.code == -32602
    assert caught.value.error.data == {"uri": uri}


async def test_modern_listen_stream_hears_the_update(conformance: Any) -> None:
    async with conformance("auto") as client:
        async with client.listen(resource_subscriptions=[WATCHED]) as subscription:
            assert subscription.honored.resource_subscriptions == [WATCHED]
            await client.call_tool("test_update_watched_resource", {"text": "streamed change"})
            with anyio.fail_after(2):
                event = await anext(subscription)
        [contents] = (await client.read_resource(WATCHED)).contents
    assert event.uri == WATCHED
    assert contents.text == "streamed change"


async def test_watched_text_is_limited(conformance: Any, mode: str) -> None:
    async with conformance(mode) as client:
        result = await client.call_tool("test_update_watched_resource", {"text": "x" * 201})
        [contents] = (await client.read_resource(WATCHED)).contents
    assert result.is_error is True and result.structured_content["code"] == "INVALID_ARGUMENTS"
    assert contents.text == "Watched resource content"
