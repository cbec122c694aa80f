"""`ToolContext`: what a tool (or prompt, or resource) gets from the host on every call.

The context is the pack's only view of MCP. Behind it the server module supplies a backend for
the current request (progress, sampling, client facts), so packs never import `mcp`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from parlance.language_packs import LanguagePacks
from parlance.types import ClientInfo, Sampled, SamplingMessage

__all__ = ["ContextBackend", "ToolContext"]


class ContextBackend(Protocol):
    """What the server provides for one request. Implemented in `parlance.server`."""

    @property
    def protocol_version(self) -> str | None: ...

    @property
    def client(self) -> ClientInfo | None: ...

    @property
    def can_sample(self) -> bool: ...

    @property
    def session_persists(self) -> bool: ...

    async def report_progress(self, progress: float, total: float | None, message: str | None) -> None: ...

    async def sample(
        self,
        messages: Sequence[SamplingMessage],
        *,
        system_prompt: str | None,
        max_tokens: int,
        temperature: float | None,
        stop_sequences: Sequence[str] | None,
    ) -> Sampled: ...


class ToolContext:
    """Per-call context handed to a pack's tool, prompt and resource handlers.

    Attributes:
        pack: the pack's name (its entry-point name).
        name: the registered name of the tool, prompt or resource being served.
        settings: the pack's validated settings (its `parlance_declare_settings` model), or None.
        state: what the pack's lifespan yielded, shared by every session of this server.
        session_state: a dict private to this pack and this MCP session (one stdio connection),
            kept across calls: the place for per-session data such as bundles a client added (see
            `session_persists` for the transports where no session exists).
        logger: a stderr logger for this pack. Never log tool arguments or results.
        language_packs: the language packs this pack may use (`for_language(tag)`, `resolve(path, tag)`).
    """

    def __init__(
        self,
        *,
        pack: str,
        name: str,
        settings: BaseModel | None,
        state: Any,
        session_state: dict[str, Any],
        backend: ContextBackend,
        language_packs: LanguagePacks | None = None,
    ) -> None:
        self.pack = pack
        self.name = name
        self.settings = settings
        self.state = state
        self.session_state = session_state
        self.language_packs = language_packs if language_packs is not None else LanguagePacks(pack, [])
        self._backend = backend

    @functools.cached_property
    def logger(self) -> logging.Logger:  # looked up on first use: most calls never log
        return logging.getLogger(f"parlance.packs.{self.pack}")

    @property
    def protocol_version(self) -> str | None:
        """The MCP protocol version of this request (e.g. "2025-11-25" or "2026-07-28")."""
        return self._backend.protocol_version

    @property
    def client(self) -> ClientInfo | None:
        """The client's name and version, when it gave them."""
        return self._backend.client

    @property
    def can_sample(self) -> bool:
        """True when the client declared the MCP sampling capability, so `sample()` may work."""
        return self._backend.can_sample

    @property
    def session_persists(self) -> bool:
        """Whether `session_state` will still hold what this call puts there on the client's next call.

        False where the protocol keeps no session: MCP 2026-07-28 over HTTP (each request stands alone)
        and `parlance call`. A tool whose only effect is on session state should refuse there rather
        than report a success that the next call will not see.
        """
        return self._backend.session_persists

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Send a progress notification if the client asked for progress on this call; else nothing."""
        await self._backend.report_progress(progress, total, message)

    async def sample(
        self,
        prompt: str | Sequence[SamplingMessage],
        *,
        system_prompt: str | None = None,
        max_tokens: int = 1024,
        temperature: float | None = None,
        stop_sequences: Sequence[str] | None = None,
    ) -> Sampled:
        """Ask the client's model for a completion (MCP sampling), in either protocol era.

        Raises `SamplingUnavailable` when the client offers no sampling and `SamplingFailed` when it
        refuses. On 2026-07-28 the host may run the tool again to deliver the answer, so build the
        prompt only from the tool's arguments and settings, and call `sample()` before any side effect.
        """
        messages = [SamplingMessage(role="user", text=prompt)] if isinstance(prompt, str) else list(prompt)
        return await self._backend.sample(
            messages,
            system_prompt=system_prompt,
            max_tokens=max_tokens,
            temperature=temperature,
            stop_sequences=stop_sequences,
        )
