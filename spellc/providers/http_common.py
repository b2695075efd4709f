"""What the SDK-backed providers share: loading the optional SDK and turning its failures into ``ProviderError``.

The official ``openai`` and ``anthropic`` SDKs are optional extras, imported only when
a profile asks for them, so spellc starts (and the ``:test`` provider works) without
them. Their clients are driven with ``max_retries=0``: the profile's ``:retries``
schedule is the only retry policy (runtime.md §5.2), so a run's wall-clock cost of
a flaky server is what the profile says.

The SDKs do not fail uniformly — a truncated body surfaces as a connection error, a
mangled JSON body as a bare ``JSONDecodeError``, a stall inside a stream as the HTTP
library's own ``ReadTimeout``, an HTML page as a ``str`` "response" — so
``classify_failure`` maps all of these onto the reason codes of runtime.md §9
(``http-429``, ``http-5xx``, ``http-4xx``, ``auth``, ``timeout``, ``connection``,
``malformed-response``) with a flag saying whether another attempt could help.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Mapping
from typing import Any, Optional

from .base import ProviderError
from .errors import ProfileError

BODY_EXCERPT_CHARS = 500
"""How much of a failed response body is kept in the error data (bodies can be whole HTML pages)."""

_HTTP_LIBRARIES = frozenset({"httpx", "httpx2", "httpcore", "httpcore2", "h11", "anyio"})


def load_sdk(module: str, extra: str) -> Any:
    """Import an optional SDK or fail with the command that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ProfileError(
            f"The {module!r} package is needed for this model profile; install it with: "
            f"pip install 'spellc[{extra}]'",
            reason="missing-sdk", data={"module": module, "extra": extra}) from err


def field(obj: Any, name: str) -> Any:
    """A field of an SDK object or of a plain dict (servers' extra fields arrive either way); None if absent."""
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None)
        if isinstance(extra, Mapping):
            return extra.get(name)
    return value


def token_count(obj: Any, name: str) -> int:
    """A usage counter, 0 when the server did not report it (local servers often omit usage)."""
    value = field(obj, name)
    return value if type(value) is int and value >= 0 else 0


def excerpt(text: Any) -> str:
    """A bounded text of a body or message; JSON bodies stay JSON (error data must not show Python reprs)."""
    if isinstance(text, str):
        s = text
    else:
        try:
            s = json.dumps(text, ensure_ascii=False)
        except (TypeError, ValueError):
            s = str(text)
    return s if len(s) <= BODY_EXCERPT_CHARS else s[:BODY_EXCERPT_CHARS] + "..."


def malformed(label: str, detail: str, *, reason: str = "malformed-response") -> ProviderError:
    """A response we cannot use; retryable because truncation and garbling are usually transient."""
    return ProviderError(f"{label} returned a malformed response: {detail}", reason=reason, retryable=True)


def _status_reason(status: int) -> tuple[str, bool]:
    if status in (401, 403):
        return "auth", False
    if status == 429:
        return "http-429", True
    if status == 408:
        return "timeout", True
    if status >= 500:
        return "http-5xx", True
    return "http-4xx", False


_STREAM_ERROR_TYPES: dict[str, tuple[str, bool]] = {
    "rate_limit_error": ("http-429", True),
    "rate_limit_exceeded": ("http-429", True),
    "authentication_error": ("auth", False),
    "permission_error": ("auth", False),
    "invalid_request_error": ("http-4xx", False),
    "not_found_error": ("http-4xx", False),
    "request_too_large": ("http-4xx", False),
}


def _error_body(exc: Any) -> Any:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        return body["error"]
    return body


def _body_message(body: Any) -> Optional[str]:
    if isinstance(body, Mapping):
        message = body.get("message")
        if isinstance(message, str) and message:
            return message
    return None


def _in_stream_reason(body: Any) -> tuple[str, bool]:
    """An error event inside a 200 stream: classify by the error's type (overload → like a 5xx)."""
    if isinstance(body, Mapping):
        kind = body.get("type") or body.get("code")
        if isinstance(kind, str) and kind in _STREAM_ERROR_TYPES:
            return _STREAM_ERROR_TYPES[kind]
    return "http-5xx", True


def _is_http_library_error(exc: BaseException) -> bool:
    return any(cls.__module__.split(".")[0] in _HTTP_LIBRARIES for cls in type(exc).__mro__[:-2])


def _is_truncation(exc: BaseException) -> bool:
    """The server closed the connection before the promised body was complete (a truncated response)."""
    return (_is_http_library_error(exc) and type(exc).__name__ == "RemoteProtocolError"
            and "complete message body" in str(exc))


def _is_timeout(exc: BaseException) -> bool:
    return any("Timeout" in cls.__name__ for cls in type(exc).__mro__)


def classify_failure(exc: BaseException, sdk: Any, label: str) -> Optional[ProviderError]:
    """The ``ProviderError`` for an exception raised while calling or reading the SDK, or None if it is not one.

    None means the exception is not a provider failure (a bug), and the caller lets it propagate.
    """
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderError(f"{label} request timed out", reason="timeout", retryable=True)
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        if cause is not None and _is_truncation(cause):
            return malformed(label, f"the body was cut short: {cause}")
        detail = f": {cause}" if cause is not None and str(cause) else ""
        return ProviderError(f"{label} connection failed{detail}", reason="connection", retryable=True)
    if isinstance(exc, sdk.APIStatusError):
        status = int(getattr(exc, "status_code", 0) or 0)
        body = _error_body(exc)
        reason, retryable = _status_reason(status) if status >= 400 else _in_stream_reason(body)
        message = _body_message(body) or str(getattr(exc, "message", "") or exc)
        what = f"HTTP {status}" if status >= 400 else "error event in stream"
        return ProviderError(f"{label} request failed: {what}: {excerpt(message)}", reason=reason,
                             status=status if status >= 400 else None, retryable=retryable,
                             data={"status": status, "body": excerpt(body)} if status >= 400
                             else {"body": excerpt(body)})
    if isinstance(exc, sdk.APIResponseValidationError):
        return malformed(label, str(exc))
    if isinstance(exc, sdk.APIError):
        body = _error_body(exc)
        reason, retryable = _in_stream_reason(body)
        return ProviderError(f"{label} request failed: error event in stream: "
                             f"{excerpt(_body_message(body) or str(exc))}",
                             reason=reason, retryable=retryable, data={"body": excerpt(body)})
    if _is_http_library_error(exc):
        if _is_truncation(exc):
            return malformed(label, f"the body was cut short: {exc}")
        if _is_timeout(exc):
            return ProviderError(f"{label} stream stalled: no data within the idle timeout", reason="timeout",
                                 retryable=True)
        return ProviderError(f"{label} connection failed: {exc}", reason="connection", retryable=True)
    if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)) or type(exc).__name__ == "ValidationError":
        # Raised while decoding a body; other ValueErrors (the SDK refusing our arguments) are not the server's.
        return malformed(label, f"{type(exc).__name__}: {excerpt(str(exc))}")
    return None


def sdk_timeout(sdk: Any, request_timeout: float, idle_timeout: Optional[float]) -> Any:
    """The SDK timeout: the whole budget for connect/write, the idle limit between streamed bytes."""
    if idle_timeout is None:
        return request_timeout
    return sdk.Timeout(request_timeout, read=idle_timeout)


class StreamDeadline:
    """``:sse-completion-timeout-sec``: a stream that keeps trickling must still end in time."""

    def __init__(self, seconds: float, label: str) -> None:
        self.seconds = seconds
        self.label = label
        self.deadline = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise ProviderError(f"{self.label} stream did not complete within {self.seconds:g}s",
                                reason="timeout", retryable=True, data={"timeout-sec": self.seconds})
