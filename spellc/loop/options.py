"""Public run options: their names and the validation ``run`` performs before anything runs (runtime.md §7.2–§7.3).

Option names are Spell keywords; the Python API also takes them as strings
(``"model-profile"``, ``":model-profile"``) and as keyword arguments
(``model_profile=``). Validation failures are *raised* (never returned), as
``RunOptionsError`` carrying the Spell data map of the spec and the same data
as a plain dict, in the order of §7.3 so that the first problem named is
always the same one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol, plist, spell_map
from spell_runtime.printer import render_form

PUBLIC_KEYS: Final = frozenset({
    "prompt", "init", "model-profile", "agent-profile", "model", "reasoning-effort", "max-consecutive-errors",
    "budget", "depth", "context-max-chars", "trace-dir", "usage-tracker", "log-writer", "user-reader",
    "coordinator", "dogfood",
    # §9.4 (project extension): a host callback called once per failure reaching the recovery decision.
    "on-error",
    # spellc extension: the agent profile's :recover as a per-run override (the scenario suite's
    # `recover` override).
    "recover",
    # spellc extensions for model-written code (issue 16): evaluation limits, io/ confinement, web/ reach.
    "eval-timeout-sec", "max-collection-size", "workspace", "web",
})

REMOVED_KEYS: Final = frozenset({
    "provider", "agent", "lm-profile", "trace", "usage", "user?", "verbose", "thinking", "prefill?", "format",
    "retries", "suffix-grammar?", "suffix-grammar", "grammar-max-chars", "provider-constructor", "verbosity",
    "api-key", "api-key-env", "base-url", "auth-file", "account-id", "max-tokens", "costs", "use-responses-api",
    "force-tool-call", "request-timeout-sec", "sse-idle-timeout-sec", "sse-completion-timeout-sec", "prefill",
})

REMOVED: Final = "Removed public run option(s): %s"
UNKNOWN: Final = "Unknown public run option(s): %s"
CONTEXT_LIMIT: Final = "Context character limit must be an integer of at least 128"
BOTH_INPUTS: Final = "Specify exactly one of :prompt or :init, not both"
NO_INPUT: Final = "Must specify exactly one of :prompt or :init"
NO_AGENT_PROFILE: Final = "Must specify :agent-profile (path to .agent.edn file)"
NO_MODEL_PROFILE: Final = "Must specify :model-profile"
BAD_DEPTH: Final = "Invalid :depth, expected a positive integer or nil"
MIN_CONTEXT_CHARS: Final = 128

K_TYPE: Final = Keyword("type")


class RunOptionsError(ValueError):
    """A ``run`` input that failed validation; ``data`` is the Spell map, ``error_data`` the same as a dict."""

    def __init__(self, message: str, data: Optional[SpellMap] = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data if data is not None else SpellMap()
        self.error_data = plain_data(self.data)

    def __str__(self) -> str:
        return self.message


def option_name(key: Any, from_kwargs: bool = False) -> str:
    """The bare option name of a key given as a keyword, symbol or string."""
    if type(key) is Keyword or type(key) is Symbol:
        name = key.name if key.ns is None else "%s/%s" % (key.ns, key.name)
    else:
        name = str(key)
        if name.startswith(":"):
            name = name[1:]
    return name.replace("_", "-") if from_kwargs or "_" in name else name


def normalize(opts: Optional[Mapping[Any, Any]], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """One dict of option name → value from a mapping and/or keyword arguments (kwargs win)."""
    out: dict[str, Any] = {}
    for key, value in (opts or {}).items():
        out[option_name(key)] = value
    for key, value in kwargs.items():
        out[option_name(key, from_kwargs=True)] = value
    return out


def present(value: Any) -> bool:
    """Spell truthiness for inputs: only nil and false are absent (an empty string is present)."""
    return value is not None and value is not False


def _keys_list(names: list[str]) -> Any:
    return plist(Keyword(n) for n in sorted(names))


def validate_context_limit(value: Any) -> Optional[int]:
    """A display target: nil, or an integer (not a boolean) of at least 128 (runtime.md §4.2)."""
    if value is None:
        return None
    if type(value) is not int or value < MIN_CONTEXT_CHARS:
        raise RunOptionsError(CONTEXT_LIMIT, spell_map(K_TYPE, Keyword("invalid-context-limit"),
                                                       Keyword("max-chars"), value))
    return value


DEFAULT_EVAL_TIMEOUT_SEC: Final = 120
"""Agent runs bound each completion's evaluation by this many seconds unless told otherwise
(``:eval-timeout-sec nil`` lifts it). Long enough for a few ``io/sh`` calls at their own 30 s
default; short enough that a runaway ``(loop [] (recur))`` costs a turn, not the session."""

BAD_EVAL_TIMEOUT: Final = "Invalid :eval-timeout-sec, expected a positive number or nil"
BAD_COLLECTION_SIZE: Final = "Invalid :max-collection-size, expected a positive integer or nil"
BAD_WORKSPACE: Final = "Invalid :workspace, expected the path of an existing directory: %s"
BAD_WEB: Final = "Invalid :web, expected a map such as {:allow-private-network true}"


def validate_eval_timeout(value: Any) -> Optional[float]:
    """nil, or a positive number of seconds (not a boolean)."""
    if value is None:
        return None
    if type(value) not in (int, float) or not value > 0 or value != value or value == float("inf"):
        raise RunOptionsError(BAD_EVAL_TIMEOUT, spell_map(K_TYPE, Keyword("invalid-run-options"),
                                                          Keyword("eval-timeout-sec"), value))
    return float(value)


def validate_collection_size(value: Any) -> Optional[int]:
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise RunOptionsError(BAD_COLLECTION_SIZE, spell_map(K_TYPE, Keyword("invalid-run-options"),
                                                             Keyword("max-collection-size"), value))
    return value


def validate_workspace(value: Any) -> Optional[str]:
    if not present(value):
        return None
    try:
        path = os.fspath(value)
    except TypeError:
        path = None
    if not isinstance(path, str) or not os.path.isdir(path):
        raise RunOptionsError(BAD_WORKSPACE % (value,), spell_map(K_TYPE, Keyword("invalid-run-options"),
                                                                  Keyword("workspace"), str(value)))
    return path


def validate_web(value: Any) -> Optional[SpellMap]:
    """The ``:web`` option as a Spell map keyed by keywords (a Python dict with string keys is accepted)."""
    if value is None:
        return None
    if isinstance(value, SpellMap):
        return value
    if isinstance(value, Mapping):
        return SpellMap.from_pairs((Keyword(option_name(k)) if isinstance(k, str) else k, v)
                                   for k, v in value.items())
    raise RunOptionsError(BAD_WEB, spell_map(K_TYPE, Keyword("invalid-run-options"), Keyword("web"), value))


def validate(options: Mapping[str, Any], *, agent_profile_default: bool = False) -> None:
    """§7.3 steps 1–4 (profile loading, step 5, happens when the agent is compiled)."""
    removed = [k for k in options if k in REMOVED_KEYS]
    if removed:
        keys = _keys_list(removed)
        raise RunOptionsError(REMOVED % render_form(keys), spell_map(K_TYPE, Keyword("invalid-run-options"),
                                                                    Keyword("removed"), keys))
    unknown = [k for k in options if k not in PUBLIC_KEYS]
    if unknown:
        keys = _keys_list(unknown)
        raise RunOptionsError(UNKNOWN % render_form(keys), spell_map(K_TYPE, Keyword("invalid-run-options"),
                                                                    Keyword("unknown"), keys))
    validate_context_limit(options.get("context-max-chars"))
    validate_eval_timeout(options.get("eval-timeout-sec"))
    validate_collection_size(options.get("max-collection-size"))
    validate_workspace(options.get("workspace"))
    validate_web(options.get("web"))
    has_prompt = present(options.get("prompt"))
    has_init = present(options.get("init"))
    if has_prompt and has_init:
        raise RunOptionsError(BOTH_INPUTS)
    if not has_prompt and not has_init:
        raise RunOptionsError(NO_INPUT)
    if "agent-profile" in options or not agent_profile_default:
        if not present(options.get("agent-profile")):
            raise RunOptionsError(NO_AGENT_PROFILE)
    if not present(options.get("model-profile")):
        raise RunOptionsError(NO_MODEL_PROFILE)
    depth = options.get("depth")
    if depth is not None and (type(depth) is not int or depth < 1):
        raise RunOptionsError(BAD_DEPTH, spell_map(K_TYPE, Keyword("invalid-run-options"), Keyword("depth"), depth))


def plain_data(data: Any) -> Optional[dict[str, Any]]:
    """A Spell data map as a dict keyed by bare names (``:spell/fault`` → ``"spell/fault"``)."""
    if data is None:
        return None
    if isinstance(data, Mapping):
        return {option_name(k) if type(k) in (Keyword, Symbol, str) else render_form(k): v
                for k, v in data.items()}
    if isinstance(data, SpellMap):
        return {(k.name if k.ns is None else "%s/%s" % (k.ns, k.name)) if type(k) is Keyword else render_form(k): v
                for k, v in data.items()}
    return {"data": data}
