"""The i18n pack's exception tree. Domain code raises these; `tools/wire.py` turns them into `ToolError`s.

    I18nError                  anything this pack reports on purpose (`code` is the tool error code)
    ├── InvalidLocale          INVALID_LOCALE: a locale code that is not a well-formed BCP 47 tag
    ├── InvalidMessages        INVALID_MESSAGES: a bundle that is not an object of strings, or a
    │                          message that is not valid ICU MessageFormat (names keys and positions),
    │                          or a bundle over `max_messages` (merges included)
    ├── NoBundlesLoaded        NO_BUNDLES_LOADED: nothing to translate from, in this session or at startup
    └── SessionBudgetExceeded  SESSION_BUDGET_EXCEEDED: adding a bundle would take the session past
                               its budget of messages, bytes or locales (names the setting to raise)

`MessageSyntaxError` (in `messageformat`) is not part of the tree: it belongs to one message and is
collected into an `InvalidMessages` that names the key.
"""

from __future__ import annotations

from typing import Any

__all__ = ["I18nError", "InvalidLocale", "InvalidMessages", "NoBundlesLoaded", "SessionBudgetExceeded"]


class I18nError(Exception):
    """Base of the pack's domain errors: `code` is machine-readable, the message a sentence."""

    code = "I18N_ERROR"

    def __init__(self, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = dict(data or {})


class InvalidLocale(I18nError):
    code = "INVALID_LOCALE"


class InvalidMessages(I18nError):
    code = "INVALID_MESSAGES"


class NoBundlesLoaded(I18nError):
    code = "NO_BUNDLES_LOADED"


class SessionBudgetExceeded(I18nError):
    code = "SESSION_BUDGET_EXCEEDED"
