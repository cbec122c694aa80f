"""The pack's public surface is a decision: changing it must change this test."""

from __future__ import annotations

import parlance_i18n
import parlance_i18n.pack


def test_public_names_are_frozen() -> None:
    assert sorted(parlance_i18n.__all__) == [
        "Catalog", "I18nError", "I18nSettings", "InvalidLocale", "InvalidMessages", "LoadReport", "LocaleTag",
        "NoBundlesLoaded", "SessionBudgetExceeded", "Translation", "Translator", "parse_locale",
    ]
    assert all(hasattr(parlance_i18n, name) for name in parlance_i18n.__all__)


def test_the_pack_declares_its_host_api_and_hooks() -> None:
    # it completes i18n://bundles/{locale} (1.1), and writes through ctx.write() (1.2)
    assert parlance_i18n.pack.PARLANCE_HOST_API == "1.2"
    hooks = {name for name in dir(parlance_i18n.pack) if name.startswith("parlance_")}
    assert hooks == {"parlance_declare_settings", "parlance_register_tools", "parlance_register_resources",
                     "parlance_lifespan", "parlance_register_demo", "parlance_register_commands",
                     "parlance_setup_hints", "parlance_shared_write"}


def test_error_codes_are_the_seeds() -> None:
    assert [cls.code for cls in (parlance_i18n.InvalidLocale, parlance_i18n.InvalidMessages,
                                 parlance_i18n.NoBundlesLoaded, parlance_i18n.SessionBudgetExceeded)] == [
        "INVALID_LOCALE", "INVALID_MESSAGES", "NO_BUNDLES_LOADED", "SESSION_BUDGET_EXCEEDED"]
