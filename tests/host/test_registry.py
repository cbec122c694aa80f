"""The registry: collisions between packs name both packs, whatever the kind of registration."""

from __future__ import annotations

import pytest

from parlance.errors import PackError
from parlance.registry import Registry, Staging
from tests.host.packs_for_tests import EchoIn


async def _prompt(args: EchoIn, ctx: object) -> str:
    return args.text


async def _resource(ctx: object, **params: str) -> str:
    return "body"


@pytest.mark.parametrize("uri", ["notes://today", "notes://{day}"])
def test_a_resource_collision_names_both_packs(uri: str) -> None:
    registry = Registry()
    for pack in ("first", "second"):
        staging = Staging(pack=pack)
        staging.register_resource(_resource, uri=uri, name="notes")
        if pack == "first":
            registry.commit(staging)
    with pytest.raises(PackError) as caught:
        registry.commit(staging)
    message = str(caught.value)
    assert f"resource {uri!r} is registered by both pack 'first' and pack 'second'" in message
    assert 'disabled = ["second"]' in message


def test_a_prompt_collision_names_both_packs() -> None:
    registry = Registry()
    for pack in ("first", "second"):
        staging = Staging(pack=pack)
        staging.register_prompt(_prompt, name="review")
        if pack == "first":
            registry.commit(staging)
    with pytest.raises(PackError, match="prompt 'review' is registered by both pack 'first' and pack 'second'"):
        registry.commit(staging)
