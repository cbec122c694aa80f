"""The context every i18n tool gets: the host's `ToolContext`, typed with the pack's settings and state.

The settings are None when parlance.toml has no `[packs.i18n]` table; the state is the `Catalog`
the pack's lifespan built, shared by every session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from parlance import ToolContext
from parlance_i18n.settings import I18nSettings

if TYPE_CHECKING:  # the catalog loads on the first call, not when the pack registers its tools
    from parlance_i18n.model.catalog import Catalog

__all__ = ["I18nContext"]

I18nContext: TypeAlias = ToolContext[I18nSettings | None, "Catalog"]
