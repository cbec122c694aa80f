"""The pack served by `parlance serve` in a subprocess, over stdio, as a client installs it.

In-process tests cannot see what the pipes do: that notifications are written while the call runs
(not bundled with its result), that binary content survives the JSON-RPC framing, that a question
to the client crosses the pipe and back, and that nothing but JSON-RPC reaches stdout. The pack is
found through a `parlance.packs` entry point, as an installed distribution would be.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.types import ResourceUpdatedNotification

from conformance_checks import ERAS, png_size, sampled, text_of
from parlance.testing import stdio_server_params
from parlance_conformance import pack

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.MCPDeprecationWarning")]

SOURCE = Path(pack.__file__).resolve().parents[1]
PRIVATE_PROMPT = "ruritania-capital-9b41"
"""Sent as a tool argument: it must never reach the server's log."""


@pytest.fixture
def server_params(tmp_path: Path) -> Any:
    """`parlance serve` with only the conformance pack, found through a dist-info written here."""
    site = tmp_path / "site"
    dist = site / "parlance_conformance-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: parlance-conformance\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text("[parlance.packs]\nconformance = parlance_conformance.pack\n")
    (tmp_path / "parlance.toml").write_text('[packs]\nenabled = ["conformance"]\n')
    return stdio_server_params(tmp_path / "parlance.toml", env={"PYTHONPATH": f"{site}:{SOURCE}"})


async def test_stdio_round_trip(server_params: Any, mode: str, tmp_path: Path) -> None:
    logs: list[tuple[float, Any]] = []
    updates: list[str] = []
    transport_errors: list[Exception] = []

    async def on_log(params: Any) -> None:
        logs.append((anyio.current_time(), params.data))

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):  # e.g. a line on stdout that is not JSON-RPC
            transport_errors.append(message)
        elif isinstance(message, ResourceUpdatedNotification):
            updates.append(message.params.uri)

    async def model(context: Any, params: Any) -> Any:
        return sampled("Zenda")

    opt_in = {"log_level": "info"} if mode == "auto" else {}
    errlog_path = tmp_path / "stderr.log"
    with anyio.fail_after(30), open(errlog_path, "w") as errlog:
        async with Client(stdio_client(server_params, errlog=errlog), mode=mode, logging_callback=on_log,
                          message_handler=on_message, sampling_callback=model, **opt_in) as client:
            assert client.protocol_version == ERAS[mode]
            assert len((await client.list_tools()).tools) == len(pack.TOOLS) + 2

            logged = await client.call_tool("test_tool_with_logging", {})
            returned_at = anyio.current_time()

            image = await client.call_tool("test_image_content", {})
            answer = await client.call_tool("test_sampling", {"prompt": PRIVATE_PROMPT})

            if mode == "legacy":
                await client.subscribe_resource("test://watched-resource")
                await client.call_tool("test_update_watched_resource", {"text": "changed over stdio"})
                with anyio.fail_after(5):
                    while not updates:
                        await anyio.sleep(0.01)
            [watched] = (await client.read_resource("test://watched-resource")).contents

    assert text_of(logged) == "Tool with logging executed successfully"
    assert [data for _, data in logs] == ["Tool execution started",
                                         {"message": "Tool processing data", "data": {"step": 2}},
                                         "Tool execution completed"]
    # Sent one by one while the tool ran (it pauses STEP_S between them), not in a burst at the end.
    times = [at for at, _ in logs]
    assert times[-1] - times[0] >= pack.STEP_S
    assert times[-1] <= returned_at
    assert png_size(image.content[0].data) == (1, 1)
    assert text_of(answer) == "LLM response: Zenda"
    if mode == "legacy":
        assert updates == ["test://watched-resource"]
        assert watched.text == "changed over stdio"
    assert transport_errors == []
    log = errlog_path.read_text()
    assert '"tool": "test_sampling"' in log  # the call was logged...
    assert PRIVATE_PROMPT not in log  # ...but never its arguments
