"""What can go wrong between the pack and the strings-admin service.

    StringsAdminError            anything the REST client raises on purpose
    ├── ServiceRejected          the service answered with a status we do not treat as success
    ├── UnexpectedReply          the service answered 2xx, but not with what its contract promises
    ├── ServiceUnreachable       no answer: connection failures and timeouts, after the retries
    └── UnsendableURL            httpx could not build the request's URL: nothing was sent

These are plain Python exceptions; `tools.to_tool_error` turns them into the PRD's error codes.
"""

from __future__ import annotations

__all__ = ["ServiceRejected", "ServiceUnreachable", "StringsAdminError", "UnexpectedReply", "UnsendableURL"]

BODY_EXCERPT_CHARS = 2000
"""How much of a reply body an error carries: enough to read the service's message, no more."""


def body_excerpt(body: bytes, truncated: bool = False) -> str:
    """The start of a reply body as text, marked when it was cut short."""
    text = body.decode("utf-8", errors="replace")
    if len(text) > BODY_EXCERPT_CHARS:
        text, truncated = text[:BODY_EXCERPT_CHARS], True
    return f"{text}… (truncated)" if truncated else text


class StringsAdminError(Exception):
    """Base class for the REST client's errors."""


class ServiceRejected(StringsAdminError):
    """The service replied with `status` (non-2xx, or a redirect we refuse to follow)."""

    def __init__(self, method: str, url: str, status: int, body: str):
        self.method, self.url, self.status, self.body = method, url, status, body
        super().__init__(f"the strings-admin service answered {method} {url} with HTTP {status}")


class UnexpectedReply(StringsAdminError):
    """A 2xx reply whose body breaks the contract (not JSON, wrong shape, too large)."""

    def __init__(self, method: str, url: str, status: int, body: str, problem: str):
        self.method, self.url, self.status, self.body, self.problem = method, url, status, body, problem
        super().__init__(f"the strings-admin service answered {method} {url} with HTTP {status}, but {problem}")


class ServiceUnreachable(StringsAdminError):
    """No reply at all after `attempts` tries: `reason` says what the last try ran into."""

    def __init__(self, method: str, url: str, reason: str, attempts: int):
        self.method, self.url, self.reason, self.attempts = method, url, reason, attempts
        tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
        super().__init__(f"could not reach the strings-admin service for {method} {url} ({reason}; {tries})")


class UnsendableURL(StringsAdminError):
    """httpx refused the URL for `method` `route` (e.g. longer than it allows): no request was made.

    Only the route template is kept, never the URL: the URL holds the caller's scope value, which
    can be arbitrarily long, and stays out of messages and logs.
    """

    def __init__(self, method: str, route: str):
        self.method, self.route = method, route
        super().__init__(
            f"the URL for {method} {route} could not be built (too long, or not a valid URL), so nothing was sent"
        )
