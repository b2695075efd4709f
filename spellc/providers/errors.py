"""The provider-layer error for a bad model profile (kept apart so every settings module can raise it)."""

from __future__ import annotations

from typing import Any, Optional

from .base import ProviderError


class ProfileError(ProviderError):
    """A model profile that cannot drive its provider (bad key value, missing API key, missing SDK).

    A subclass of ``ProviderError`` because it is never the model's fault; it is raised
    while the profile is loaded, before any model call, and is never retried.
    """

    def __init__(self, message: str, *, reason: str = "invalid-profile",
                 data: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message, reason=reason, data=data, retryable=False)
