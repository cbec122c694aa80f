"""What the server tells clients unasked: log messages, resource updates and list changes.

Two eras, two deliveries. Up to 2025-11-25 a client sets its log level once per session
(`logging/setLevel`), subscribes to resources (`resources/subscribe`), and hears list changes on
its connection; here each is tracked per connection, held weakly so a closed connection is
forgotten. On 2026-07-28 a request opts in to log messages in its own `_meta`, and change
notifications go only to `subscriptions/listen` streams, through the SDK's bus.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from weakref import WeakKeyDictionary, WeakSet

from mcp.server.connection import allowed_log_levels
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from parlance.context import LOG_LEVELS
from parlance.content import LogLevel

__all__ = ["Notifier"]

logger = logging.getLogger(__name__)

SEND_LIMIT_S = 2.0
"""How long one client may take to accept a change notification before it is forgotten."""

DEFAULT_LOG_LEVEL: LogLevel = "info"
"""What a handshake-era session hears before it sends `logging/setLevel` (the spec leaves it to the server)."""

_RANK = {level: rank for rank, level in enumerate(LOG_LEVELS)}


class Notifier:
    """Per-connection log levels and resource subscriptions, and the delivery of announcements.

    Connections are the SDK's (one per stdio run or HTTP session); they are only ever used to send
    a notification, and one that fails is dropped from every table.
    """

    def __init__(self) -> None:
        self._log_levels: WeakKeyDictionary[Any, LogLevel] = WeakKeyDictionary()
        self._subscriptions: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()
        self._listeners: WeakSet[Any] = WeakSet()
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        """The `subscriptions/listen` handler (2026-07-28)."""

    # --- log messages ------------------------------------------------------------------------------

    def set_log_level(self, connection: Any, level: LogLevel) -> None:
        self._log_levels[connection] = level

    def wants_log(self, connection: Any, protocol_version: str | None, meta: Any, level: LogLevel) -> bool:
        """Whether a log message at `level` may go to the client of this request."""
        if protocol_version in MODERN_PROTOCOL_VERSIONS:
            return level in allowed_log_levels(protocol_version, meta)
        threshold = self._log_levels.get(connection, DEFAULT_LOG_LEVEL) if connection is not None else DEFAULT_LOG_LEVEL
        return _RANK[level] >= _RANK[threshold]

    # --- subscriptions -----------------------------------------------------------------------------

    def listening(self, connection: Any) -> None:
        """A handshake-era client that listed resources: it hears when the list changes."""
        if connection is not None:
            self._listeners.add(connection)

    def subscribe(self, connection: Any, uri: str) -> None:
        if connection is not None:
            self._subscriptions.setdefault(connection, set()).add(uri)
            self._listeners.add(connection)

    def unsubscribe(self, connection: Any, uri: str) -> None:
        if connection is not None:
            self._subscriptions.get(connection, set()).discard(uri)

    # --- announcements (`parlance.context.AnnouncementSink`) ---------------------------------------

    async def resource_updated(self, uri: str) -> None:
        await self._send_all([c for c, uris in list(self._subscriptions.items()) if uri in uris],
                             "send_resource_updated", uri)
        await self.bus.publish(ResourceUpdated(uri=uri))

    async def resources_changed(self) -> None:
        await self._send_all(list(self._listeners), "send_resource_list_changed")
        await self.bus.publish(ResourcesListChanged())

    async def _send_all(self, connections: list[Any], method: str, *args: Any) -> None:
        """Send to every connection at once, each given SEND_LIMIT_S: a client that has stopped
        reading must not hold up the others, nor the tool that announced."""
        async with anyio.create_task_group() as sending:
            for connection in connections:
                sending.start_soon(self._send, connection, method, *args)

    async def _send(self, connection: Any, method: str, *args: Any) -> None:
        try:
            with anyio.fail_after(SEND_LIMIT_S):
                await getattr(connection, method)(*args)
        except Exception:  # closed under us, or not reading: forget it (no traceback: an ordinary disconnect)
            logger.info("notify.connection_gone", extra={"notification": method})
            self._subscriptions.pop(connection, None)
            self._listeners.discard(connection)
            self._log_levels.pop(connection, None)
