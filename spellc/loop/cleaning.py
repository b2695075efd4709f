"""What a raw model answer goes through before it is appended to its prefix (runtime.md §5.2 step 3).

Chat models like to wrap code in Markdown fences, and a model that receives the
prefix as a user message (no prefill) often repeats it before continuing. Both
would make ``prefix + response`` a different program than the model meant, so
they are removed here — and nothing else is: the rest of the text is the
model's and is kept byte for byte.
"""

from __future__ import annotations

from typing import Final

FENCE: Final = "```"


def strip_code_fences(response: str) -> str:
    """The response without a surrounding Markdown code fence (opening line with its tag, closing fence)."""
    trimmed = response.strip()
    if not trimmed.startswith(FENCE):
        return response
    newline = trimmed.find("\n")
    body = trimmed[newline + 1:] if newline >= 0 else ""
    closing = body.rfind(FENCE)
    if closing >= 0:
        body = body[:closing]
    return body.strip()


def strip_prefix_echo(prefix: str, response: str) -> str:
    """The response without a repeated copy of ``prefix`` (exact first, then with whitespace trimmed)."""
    cleaned = strip_code_fences(response)
    trimmed = cleaned.lstrip()
    if prefix and trimmed.startswith(prefix):
        return trimmed[len(prefix):]
    bare = prefix.strip()
    if bare and trimmed.startswith(bare):
        return trimmed[len(bare):]
    return cleaned


def clean_response(prefix: str, response: str, *, prefill: bool) -> str:
    """Fences always; echoes only when the prefix went out as the user message."""
    if prefill:
        return strip_code_fences(response)
    return strip_prefix_echo(prefix, response)
