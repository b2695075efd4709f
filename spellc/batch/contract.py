"""The JSON contract of the reference's ``spell.benchmark-api``: request keys, model specs, response shapes.

Benchmark harnesses written for the reference send one JSON object and read one
back; spellc must be a drop-in for them, so the texts here are the reference's
(``Request must include prompt or init``, the unknown-prefix message, the
``killed`` response) and the response keys keep its mix of spellings
(``latency_ms``, ``error_type``, ``trace_dir`` with underscores; usage maps with
``by-model``). Request keys are accepted with ``_`` or ``-`` alike, at every
depth, as the reference normalises them.

spellc extension: ``responses`` (a list of completions) scripts the ``test``
provider, so a whole multi-turn run can go through the contract without a model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Optional

PROVIDER_PREFIXES: Final = frozenset({"ollama", "codex-tc", "openai-tc", "anthropic-pf", "anthropic-tc",
                                      "fireworks", "test"})
"""The model-spec prefixes the contract knows (issue 17; the reference's ``provider-prefixes``)."""

DEFAULT_PREFIX: Final = "anthropic-pf"
"""A model spec without a prefix means this provider (the reference's default)."""

TEST_RESPONSE: Final = '"hello world"'
"""What the ``test`` provider answers when no ``responses`` script is given: the Spell string ``"hello world"``."""

NO_INPUT: Final = "Request must include prompt or init"
ONE_SHOT_NEEDS_PROMPT: Final = "one_shot mode requires prompt"
UNSUPPORTED_MODE: Final = "Unsupported mode: %s"
NO_MODEL: Final = "model is required in benchmark request"
UNKNOWN_PREFIX: Final = "Unknown provider prefix: %s. Known prefixes: %s"
KILLED: Final = "%s was terminated before completing"
MODES: Final = ("spell", "one_shot")


class ContractError(Exception):
    """A request the contract itself refuses; becomes ``{ok: false, error, error_type, error_data}``."""

    def __init__(self, message: str, error_type: Optional[str] = None, data: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        self.error_type = error_type
        self.data = data

    def __str__(self) -> str:
        return self.message


def normalize_keys(value: Any) -> Any:
    """Map keys with ``_`` spelled as ``-``, at every depth (the reference reads ``trace_dir`` as ``trace-dir``)."""
    if isinstance(value, Mapping):
        return {(k.replace("_", "-") if isinstance(k, str) else k): normalize_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize_keys(v) for v in value]
    return value


def clojure_pr_str(s: str) -> str:
    """A string as Clojure's ``pr-str`` prints it (the quoted prefix in the unknown-prefix message)."""
    out = ['"']
    for ch in s:
        out.append({'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, ch))
    out.append('"')
    return "".join(out)


@dataclass(frozen=True)
class ModelSpec:
    """``prefix:model`` split; ``model`` is None when the spec names only a provider (``test:``)."""

    provider: str
    model: Optional[str]


def parse_model_spec(spec: Any) -> ModelSpec:
    """``"prefix:model"`` → ``ModelSpec``; no colon means the default provider; an unknown prefix is refused."""
    if not isinstance(spec, str) or not spec:
        raise ContractError(NO_MODEL, data={"field": "model"})
    prefix, colon, rest = spec.partition(":")
    if not colon:
        return ModelSpec(DEFAULT_PREFIX, spec)
    if prefix not in PROVIDER_PREFIXES:
        raise ContractError(UNKNOWN_PREFIX % (clojure_pr_str(prefix), ", ".join(sorted(PROVIDER_PREFIXES))),
                            data={"prefix": prefix, "model-spec": spec})
    return ModelSpec(prefix, rest or None)


def json_safe(value: Any) -> Any:
    """Spell/Python data as JSON data, the reference's way: keywords by name, symbols as text, others printed."""
    from spell_runtime.data import Keyword, SpellMap, SpellSet, Symbol
    from spell_runtime.data.vector import is_vector
    from spell_runtime.printer import pr_str

    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if type(value) is Keyword:
        return value.name
    if type(value) is Symbol:
        return value.name if value.ns is None else "%s/%s" % (value.ns, value.name)
    if isinstance(value, (SpellMap, Mapping)):
        return {_json_key(k): json_safe(v) for k, v in value.items()}
    if is_vector(value) or isinstance(value, (list, tuple, SpellSet, set, frozenset)):
        return [json_safe(v) for v in value]
    from spell_runtime.data import PList

    if isinstance(value, PList):
        return [json_safe(v) for v in value]
    return pr_str(value)


def _json_key(key: Any) -> str:
    safe = json_safe(key)
    return safe if isinstance(safe, str) else str(safe).lower() if isinstance(safe, bool) else str(safe)


def result_text(value: Any) -> str:
    """The response's ``result``: Clojure's ``str`` of the run's value, unwrapping a map holding ``result``."""
    from spell_runtime.core.strings import to_str
    from spell_runtime.data import Keyword, SpellMap, Symbol

    if isinstance(value, SpellMap):
        for key in (Keyword("result"), Symbol("result"), "result"):
            if value.contains(key):
                value = value.get(key)
                break
    return to_str(value)


def error_response(mode: str, latency_ms: float, message: str, error_type: Optional[str],
                   error_data: Any = None) -> dict[str, Any]:
    """``{ok: false, mode, latency_ms, error, error_type, error_data}``."""
    return {"ok": False, "mode": mode, "latency_ms": latency_ms, "error": message, "error_type": error_type,
            "error_data": json_safe(error_data)}
