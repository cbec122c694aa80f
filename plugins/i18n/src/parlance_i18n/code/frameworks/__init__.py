"""Frameworks whose code calls a catalog: one module each, behind `registry` (see `base.Framework`)."""

from __future__ import annotations

from parlance_i18n.code.frameworks.registry import FRAMEWORK_NAMES, REGISTRY, framework_class, guess

__all__ = ["FRAMEWORK_NAMES", "REGISTRY", "framework_class", "guess"]
